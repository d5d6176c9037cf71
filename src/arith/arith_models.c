/* tc5 — arithmetic parameters per architecture and MMA kind.
 *
 * From MMA-Sim (github.com/microsoft/MMA-Sim, mmasim/nv_ptx/sim.py and
 * arithmetic/fdpa.py; paper arXiv 2511.10909), which reverse-engineered and
 * validated them on H100 and B200:
 *   Hopper wgmma and Blackwell tcgen05, f16/bf16/tf32: F = 25 fraction bits,
 *     one step fuses 32 bytes of A (16 f16, 8 tf32 products); f32 out toward
 *     zero, f16 out to nearest even.
 *   Hopper fp8 (e4m3/e5m2): F = 13, 32 products a step, f32 out toward zero
 *     with only 13 fraction bits ("e8m13"), f16 out to nearest even.
 *   Blackwell f8f6f4: F = 25, 32 products; mxf8f6f4 folds the ue8m0 scales
 *     into the products' exponents (F = 25).
 *   Blackwell mxf4/mxf4nvf4: groups of 16 fp4 products summed exactly,
 *     scaled, aligned at their scales' exponents, F = 35, one step of 64.
 *   i8: exact integer sum, wrap or saturate to s32.
 * zero_exp is the exponent a zero term takes in the alignment; see
 * README ("arithmetic") for how it was determined. */
#include <string.h>

#include "arith/arith_impl.h"

#define ZERO_EXP (-133)
/* f16 D: -21 (= -14 - 7, as -133 = -126 - 7 for f32 D): the only exponent
 * from -160 to -10 that matches all 262,144 H100 wgmma f16.f16.f16 outputs
 * of gpu/run.sh disagree (issue 38); Blackwell by analogy */
#define ZERO_EXP_F16 (-21)

const char *tc5_model_name(tc5_model m) {
  return m == TC5_MODEL_HOPPER ? "hopper" : m == TC5_MODEL_BLACKWELL ? "blackwell" : "?";
}

tc5_status tc5_model_parse(const char *text, tc5_model *m) {
  if (!text || !m) return TC5_EINVAL;
  if (!strcmp(text, "blackwell") || !strcmp(text, "Blackwell") || !strcmp(text, "sm_100a")) {
    *m = TC5_MODEL_BLACKWELL;
    return TC5_OK;
  }
  if (!strcmp(text, "hopper") || !strcmp(text, "Hopper") || !strcmp(text, "sm_90a")) {
    *m = TC5_MODEL_HOPPER;
    return TC5_OK;
  }
  return TC5_EINVAL;
}

static bool is_fp8(tc5_type t) { return t == TC5_E4M3 || t == TC5_E5M2; }
static bool is_f8f6f4(tc5_type t) {
  return is_fp8(t) || t == TC5_E2M3 || t == TC5_E3M2 || t == TC5_E2M1;
}

tc5_status tc5_dot_model(tc5_model arch, tc5_kind kind, tc5_type at, tc5_type bt, tc5_type ct,
                         tc5_type st, unsigned block, bool saturate, tc5_dot *out,
                         tc5_diag *diag) {
  if (!out) return TC5_EINVAL;
  tc5_dot d;
  memset(&d, 0, sizeof d);
  d.atype = at;
  d.btype = bt;
  d.ctype = ct;
  d.stype = TC5_TYPE_NONE;
  d.frac_bits = 25;
  d.zero_exp = ct == TC5_F16 ? ZERO_EXP_F16 : ZERO_EXP;
  d.out = ct == TC5_F16 ? TC5_OUT_RNE_F16 : TC5_OUT_RZ_F32;
  bool ok = false;
  bool hopper = arch == TC5_MODEL_HOPPER;
  switch (kind) {
  case TC5_KIND_F16:
    ok = (at == TC5_F16 || at == TC5_BF16) && bt == at &&
         (ct == TC5_F32 || (ct == TC5_F16 && at == TC5_F16));
    d.chunk = 16;
    break;
  case TC5_KIND_TF32:
    ok = at == TC5_TF32 && bt == TC5_TF32 && ct == TC5_F32;
    d.chunk = 8;
    break;
  case TC5_KIND_F8F6F4:
    if (hopper) {
      ok = is_fp8(at) && is_fp8(bt) && (ct == TC5_F32 || ct == TC5_F16);
      d.frac_bits = 13;
      if (ct == TC5_F32) d.out = TC5_OUT_RZ_E8M13;
    } else {
      ok = is_f8f6f4(at) && is_f8f6f4(bt) && (ct == TC5_F32 || ct == TC5_F16);
    }
    d.chunk = 32;
    break;
  case TC5_KIND_I8:
    ok = (at == TC5_S8 || at == TC5_U8) && (bt == TC5_S8 || bt == TC5_U8) && ct == TC5_S32;
    d.out = TC5_OUT_S32;
    d.saturate = saturate;
    d.chunk = 32;
    break;
  case TC5_KIND_MXF8F6F4:
    ok = !hopper && is_f8f6f4(at) && is_f8f6f4(bt) && ct == TC5_F32 && st == TC5_UE8M0 &&
         (block == 32 || block == 0);
    d.stype = st;
    d.block = 32;
    d.chunk = 32;
    break;
  case TC5_KIND_MXF4:
  case TC5_KIND_MXF4NVF4:
    ok = !hopper && at == TC5_E2M1 && bt == TC5_E2M1 && ct == TC5_F32 &&
         ((st == TC5_UE8M0 && (block == 32 || (block == 16 && kind == TC5_KIND_MXF4NVF4))) ||
          (st == TC5_UE4M3 && block == 16 && kind == TC5_KIND_MXF4NVF4));
    d.stype = st;
    d.block = block;
    d.group = 16;
    d.frac_bits = 35;
    d.chunk = 64;
    break;
  default: break;
  }
  /* Hopper's wgmma has the integer kind (.s32.{s8,u8}.{s8,u8}, exact sums;
   * the H100 agrees: gpu/run.sh ptx, k44_wgmma_s8), not the block-scaled ones */
  if (hopper && (kind == TC5_KIND_MXF8F6F4 || kind == TC5_KIND_MXF4 || kind == TC5_KIND_MXF4NVF4))
    ok = false;
  if (!ok)
    return tc5_diag_add(diag, TC5_EILLEGAL, "types", (uint64_t)kind,
                        "arith: %s .kind::%s has no MMA with A %s, B %s, D %s%s%s",
                        tc5_model_name(arch), tc5_kind_name(kind), tc5_type_name(at),
                        tc5_type_name(bt), tc5_type_name(ct),
                        st != TC5_TYPE_NONE ? ", scale " : "",
                        st != TC5_TYPE_NONE ? tc5_type_name(st) : "");
  *out = d;
  return TC5_OK;
}
