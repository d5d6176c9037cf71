/* tc5 tests — the instructions real Blackwell kernels emit beyond the
 * MMAs (issue 30): packed f32 (.f32x2), three-input min/max and the .NaN /
 * .xorsign.abs forms, redux.sync, mov.b128 and the .b128 atomics,
 * st.async / red.async, integer -> f16/bf16 conversions, elect.sync with a
 * sink, tcgen05.st.16x32bx2's operand order, tcgen05.ld.red.
 *
 * Each result is compared with an independent restatement of the PTX ISA's
 * text written here (host IEEE arithmetic under the rounding mode, the
 * ISA's NaN and signed-zero rules), on random inputs mixed with the special
 * values (zeros, subnormals, infinities, NaNs). The Blackwell-only forms
 * (.f32x2, three-input min/max, the f32 redux) have no silicon check here
 * (no sm_100 GPU): docs/ptx.md says so. The Hopper forms also run on the
 * H100 from the same PTX (gpu/run.sh ptx, tests/data/ptx/sm90). */
#include <fenv.h>
#include <math.h>

#include "testutil.h"
#include "tc5/check.h"
#include "tc5/ptx.h"
#include "tc5/sfu.h"

static const char *head = ".version 8.8\n.target sm_100a\n.address_size 64\n";

static tc5_status load(const char *body, tc5_ptx_module **m, tc5_diag *dg) {
  static char text[1 << 16];
  snprintf(text, sizeof text, "%s%s", head, body);
  tc5_diag_init(dg);
  return tc5_ptx_load(text, strlen(text), "t.ptx", m, dg);
}

/* runs k(.param .u64 out, .param .u64 in) on `ctas` CTAs of 32 threads
 * (clusters of `cluster`) */
static tc5_status run2(const char *body, unsigned ctas, unsigned cluster, void *out, size_t obytes, const void *in,
                       size_t ibytes, tc5_diag *dg) {
  tc5_ptx_module *m;
  tc5_status st = load(body, &m, dg);
  if (st) return st;
  tc5_ptx_arg args[2] = {{.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = obytes},
                         {.kind = TC5_PTX_ARG_BUFFER, .data = (void *)in, .bytes = ibytes}};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = ctas;
  cfg.block[0] = 32;
  cfg.cluster[0] = cluster;
  cfg.threads = 1;
  cfg.max_steps = 1u << 22;
  st = tc5_ptx_launch(m, &cfg, args, 2, NULL, dg);
  tc5_ptx_free(m);
  return st;
}

/* the kernel k(.param .u64 out, .param .u64 in): each thread's 32 bytes of
 * out at %rd4 and of in at %rd5 */
static const char *k2(const char *decls, const char *code) {
  static char text[1 << 14];
  snprintf(text, sizeof text,
           ".visible .entry k(.param .u64 out, .param .u64 in) {\n"
           " .reg .pred %%p<8>; .reg .b16 %%h<8>; .reg .b32 %%r<40>; .reg .b64 %%rd<40>; .reg .f32 %%f<16>;"
           " .reg .b128 %%q<8>;\n%s"
           " ld.param.u64 %%rd1, [out]; ld.param.u64 %%rd2, [in];"
           " mov.u32 %%r1, %%tid.x; mov.u32 %%r2, %%ctaid.x; mad.lo.u32 %%r3, %%r2, 32, %%r1;"
           " mul.wide.u32 %%rd3, %%r3, 32; add.s64 %%rd4, %%rd1, %%rd3; add.s64 %%rd5, %%rd2, %%rd3;\n%s\n ret;\n}\n",
           decls, code);
  return text;
}

static uint32_t fbits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static float bitsf(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
/* random f32 words, one in four a special value */
static uint32_t rand_f32(rng *r) {
  static const uint32_t special[] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00400000, 0x7f800000,
                                     0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3f800000, 0xbf800000,
                                     0x7f7fffff, 0xff7fffff, 0x00800000, 0x80800000};
  uint64_t x = rng_next(r);
  if ((x & 3) == 0) return special[(x >> 2) % 16];
  if ((x & 12) == 4) return (uint32_t)(x >> 32) & 0x80ffffffu; /* small exponents: subnormal results */
  return (uint32_t)(x >> 32);
}

/* ---- the ISA's rules, restated ---- */
static bool is_nan(uint32_t b) { return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu); }
static uint32_t canon(uint32_t b) { return is_nan(b) ? 0x7fffffffu : b; }
static uint32_t flush(uint32_t b) { return (b & 0x7f800000u) == 0 ? b & 0x80000000u : b; }
/* one IEEE operation (0 add, 1 sub, 2 mul, 3 fma) under mode, .ftz applied */
static uint32_t ieee(unsigned op, uint32_t a, uint32_t b, uint32_t c, int mode, bool ftz) {
  if (ftz) a = flush(a), b = flush(b), c = flush(c);
  volatile float x = bitsf(a), y = bitsf(b), z = bitsf(c), r;
  fesetround(mode);
  switch (op) {
  case 0: r = x + y; break;
  case 1: r = x - y; break;
  case 2: r = x * y; break;
  default: r = fmaf(x, y, z); break;
  }
  fesetround(FE_TONEAREST);
  uint32_t o = fbits(r);
  if (ftz) o = flush(o);
  return canon(o);
}
/* min/max as the ISA defines it: NaN inputs ignored (both NaN: NaN), -0 < +0 */
static uint32_t mm2(bool max, uint32_t a, uint32_t b) {
  if (is_nan(a)) return is_nan(b) ? 0x7fffffffu : b;
  if (is_nan(b)) return a;
  float x = bitsf(a), y = bitsf(b);
  bool a_less = x < y || (x == y && (a >> 31) && !(b >> 31));
  return max ? (a_less ? b : a) : (a_less ? a : b);
}

/* add/sub/mul/fma.f32x2 {.rn .rz .rm .rp, none}{.ftz}: two IEEE
 * operations on the halves of .b64 registers */
static void test_f32x2(void **state) {
  (void)state;
  static const char *const ops[] = {"add", "sub", "mul", "fma"};
  static const char *const rnd[] = {"", ".rn", ".rz", ".rm", ".rp"}; /* fma needs one: "" is skipped */
  static const int fe[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  enum { CTAS = 4, T = 32 * CTAS };
  static uint32_t in[T * 8], out[T * 8];
  rng r;
  rng_seed(&r, 30);
  for (unsigned op = 0; op < 4; op++)
    for (unsigned rm = op == 3 ? 1 : 0; rm < 5; rm++)
      for (unsigned ftz = 0; ftz < 2; ftz++) {
        char code[1024];
        snprintf(code, sizeof code, "ld.global.v2.b64 {%%rd10, %%rd11}, [%%rd5]; ld.global.b64 %%rd12, [%%rd5+16];"
                        "%s%s%s.f32x2 %%rd13, %%rd10, %%rd11%s; st.global.b64 [%%rd4], %%rd13;",
                 ops[op], rnd[rm], ftz ? ".ftz" : "", op == 3 ? ", %rd12" : "");
        const char *body = k2("", code);
        for (unsigned k = 0; k < T * 8; k++) in[k] = rand_f32(&r);
        memset(out, 0, sizeof out);
        tc5_diag dg;
        tc5_status st = run2(body, CTAS, 1, out, sizeof out, in, sizeof in, &dg);
        if (st) fail_msg("%s: %s", body, dg.count ? dg.issue[0].message : tc5_strerror(st));
        for (unsigned t = 0; t < T; t++)
          for (unsigned h = 0; h < 2; h++) {
            const uint32_t *x = in + t * 8;
            uint32_t want = ieee(op, x[h], x[2 + h], x[4 + h], fe[rm], ftz);
            if (out[t * 8 + h] != want)
              fail_msg("%s%s%s.f32x2 half %u of 0x%08x 0x%08x 0x%08x: 0x%08x, the ISA 0x%08x", ops[op], rnd[rm],
                       ftz ? ".ftz" : "", h, x[h], x[2 + h], x[4 + h], out[t * 8 + h], want);
          }
      }
}

/* f16 / bf16 code as a float (exact) */
static float half_val(uint16_t h, bool bf) {
  if (bf) return bitsf((uint32_t)h << 16);
  int e = h >> 10 & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
  return h >> 15 ? -v : v;
}
/* mixed precision (sm_100, FA4 emits fma.rn.f32.bf16): add/sub/fma .f32
 * with 16-bit a (and b), one IEEE rounding */
static void test_mixed_precision(void **state) {
  (void)state;
  static const char *const rnd[] = {".rn", ".rz", ".rm", ".rp"};
  static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  enum { CTAS = 4, T = 32 * CTAS };
  static uint32_t in[T * 8], out[T * 8];
  rng r;
  rng_seed(&r, 35);
  for (unsigned op = 0; op < 3; op++)
    for (unsigned bf = 0; bf < 2; bf++)
      for (unsigned rm = 0; rm < 4; rm++) {
        char code[1024];
        snprintf(code, sizeof code,
                 "ld.global.b16 %%h1, [%%rd5]; ld.global.b16 %%h2, [%%rd5+4]; ld.global.b32 %%r10, [%%rd5+8];"
                 "%s%s.f32.%s %%r11, %%h1, %s%%r10; st.global.b32 [%%rd4], %%r11;",
                 op == 0 ? "add" : op == 1 ? "sub" : "fma", rnd[rm], bf ? "bf16" : "f16", op == 2 ? "%h2, " : "");
        const char *body = k2("", code);
        for (unsigned k = 0; k < T * 8; k++) in[k] = rand_f32(&r);
        tc5_diag dg;
        tc5_status st = run2(body, CTAS, 1, out, sizeof out, in, sizeof in, &dg);
        if (st) fail_msg("%s: %s", code, dg.count ? dg.issue[0].message : tc5_strerror(st));
        for (unsigned t = 0; t < T; t++) {
          float a = half_val((uint16_t)in[t * 8], bf), b = half_val((uint16_t)in[t * 8 + 1], bf);
          uint32_t want = op == 2 ? ieee(3, fbits(a), fbits(b), in[t * 8 + 2], fe[rm], false)
                                  : ieee(op, fbits(a), in[t * 8 + 2], 0, fe[rm], false);
          if (out[t * 8] != want) fail_msg("%s: a 0x%04x b 0x%04x c 0x%08x: 0x%08x, the ISA 0x%08x", code,
                                           in[t * 8] & 0xffff, in[t * 8 + 1] & 0xffff, in[t * 8 + 2], out[t * 8], want);
        }
      }
}

/* min/max: three inputs {.ftz}{.NaN}{.abs}.f32, two inputs .NaN and
 * .xorsign.abs */
static void test_minmax(void **state) {
  (void)state;
  enum { CTAS = 4, T = 32 * CTAS };
  static uint32_t in[T * 8], out[T * 8];
  rng r;
  rng_seed(&r, 31);
  static const char *const forms[] = {"", ".NaN", ".abs", ".NaN.abs", ".ftz", ".ftz.NaN.abs", ".xorsign.abs",
                                      ".NaN.xorsign.abs"};
  for (unsigned mx = 0; mx < 2; mx++)
    for (unsigned f = 0; f < 8; f++) {
      bool three = f < 6, nan = strstr(forms[f], "NaN"), abs_ = strstr(forms[f], "abs"),
           xs = strstr(forms[f], "xorsign"), ftz = strstr(forms[f], "ftz");
      char code[1024];
      snprintf(code, sizeof code, "ld.global.v4.b32 {%%r10, %%r11, %%r12, %%r13}, [%%rd5];"
                      "%s%s.f32 %%r14, %%r10, %%r11%s; st.global.b32 [%%rd4], %%r14;",
               mx ? "max" : "min", forms[f], three ? ", %r12" : "");
      const char *body = k2("", code);
      for (unsigned k = 0; k < T * 8; k++) in[k] = rand_f32(&r);
      memset(out, 0, sizeof out);
      tc5_diag dg;
      tc5_status st = run2(body, CTAS, 1, out, sizeof out, in, sizeof in, &dg);
      if (st) fail_msg("%s: %s", body, dg.count ? dg.issue[0].message : tc5_strerror(st));
      for (unsigned t = 0; t < T; t++) {
        uint32_t a = in[t * 8], b = in[t * 8 + 1], c = in[t * 8 + 2], want;
        if (ftz) a = flush(a), b = flush(b), c = flush(c);
        uint32_t sign = (a ^ b) & 0x80000000u;
        if (nan && (is_nan(a) || is_nan(b) || (three && is_nan(c)))) {
          want = 0x7fffffffu;
        } else {
          uint32_t m = abs_ ? 0x7fffffffu : 0xffffffffu;
          want = mm2(mx, a & m, b & m);
          if (three) want = mm2(mx, want, c & m);
          if (xs && !is_nan(want)) want |= sign;
        }
        want = canon(want);
        if (out[t * 8] != want)
          fail_msg("%s%s.f32 0x%08x 0x%08x 0x%08x: 0x%08x, the ISA 0x%08x", mx ? "max" : "min", forms[f], a, b, c,
                   out[t * 8], want);
      }
    }
}

/* redux.sync: every operation and type, with a full and a partial
 * membermask (the lanes below 16 and the odd lanes above) */
static void test_redux(void **state) {
  (void)state;
  static const struct {
    const char *form;
    int kind; /* 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor; +8 signed; +16 f32 (+32 abs, +64 NaN) */
  } forms[] = {{"add.u32", 0},       {"add.s32", 8},       {"min.u32", 1},         {"min.s32", 9},
               {"max.u32", 2},       {"max.s32", 10},      {"and.b32", 3},         {"or.b32", 4},
               {"xor.b32", 5},       {"min.f32", 17},      {"max.f32", 18},        {"min.abs.f32", 49},
               {"max.NaN.f32", 82},  {"max.abs.NaN.f32", 114}};
  uint32_t in[32 * 8], out[32 * 8];
  rng r;
  rng_seed(&r, 32);
  for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
    for (unsigned part = 0; part < 2; part++)
      for (unsigned rep = 0; rep < 8; rep++) {
        uint32_t mm = part ? 0x0000ffffu | 0xaaaa0000u : 0xffffffffu;
        char code[1024];
        snprintf(code, sizeof code, "ld.global.b32 %%r10, [%%rd5]; mov.b32 %%r11, 0x%08x; shr.b32 %%r12, %%r11, %%r1;"
                        "and.b32 %%r12, %%r12, 1; setp.eq.u32 %%p1, %%r12, 0; @%%p1 bra DONE;"
                        "redux.sync.%s %%r13, %%r10, %%r11; st.global.b32 [%%rd4], %%r13; DONE:",
                 mm, forms[f].form);
        const char *body = k2("", code);
        int kd = forms[f].kind;
        for (unsigned k = 0; k < 32 * 8; k++) in[k] = (kd & 16) ? rand_f32(&r) : (uint32_t)rng_next(&r);
        memset(out, 0, sizeof out);
        tc5_diag dg;
        tc5_status st = run2(body, 1, 1, out, sizeof out, in, sizeof in, &dg);
        if (st) fail_msg("%s: %s", body, dg.count ? dg.issue[0].message : tc5_strerror(st));
        /* the ISA's reduction over the member lanes */
        uint32_t acc = 0;
        bool first = true, anynan = false;
        for (unsigned l = 0; l < 32; l++) {
          if (!(mm >> l & 1)) continue;
          uint32_t v = in[l * 8];
          if (kd & 16) {
            if (kd & 32) v &= 0x7fffffffu;
            if (is_nan(v)) anynan = true;
            acc = first ? v : mm2((kd & 3) == 2, acc, v);
          } else {
            int o = kd & 7;
            bool sg = kd & 8;
            if (first) acc = v;
            else if (o == 0) acc += v;
            else if (o == 1) acc = sg ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
            else if (o == 2) acc = sg ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
            else if (o == 3) acc &= v;
            else if (o == 4) acc |= v;
            else acc ^= v;
          }
          first = false;
        }
        if (kd & 16) acc = (kd & 64) && anynan ? 0x7fffffffu : canon(acc);
        for (unsigned l = 0; l < 32; l++) {
          uint32_t want = mm >> l & 1 ? acc : 0;
          if (out[l * 8] != want)
            fail_msg("redux.sync.%s membermask 0x%08x lane %u: 0x%08x, the ISA 0x%08x", forms[f].form, mm, l,
                     out[l * 8], want);
        }
      }
}

/* mov.b128 packs and unpacks; atom.exch/.cas.b128 swap 16 bytes */
static void test_b128(void **state) {
  (void)state;
  uint64_t in[32 * 4], out[32 * 4];
  rng r;
  rng_seed(&r, 33);
  for (unsigned k = 0; k < 32 * 4; k++) in[k] = rng_next(&r);
  memset(out, 0, sizeof out);
  tc5_diag dg;
  /* {lo, hi} -> q -> {hi', lo'} swapped into out; then the .b32 quarters */
  tc5_status st = run2(k2("", "ld.global.v2.b64 {%rd10, %rd11}, [%rd5]; mov.b128 %q1, {%rd10, %rd11};"
                              "mov.b128 %q2, %q1; mov.b128 {%rd12, %rd13}, %q2; st.global.v2.b64 [%rd4], {%rd13, %rd12};"
                              "mov.b128 {%r20, %r21, %r22, %r23}, %q1; st.global.v4.b32 [%rd4+16], {%r23, %r22, %r21, %r20};"),
                       1, 1, out, sizeof out, in, sizeof in, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  for (unsigned t = 0; t < 32; t++) {
    assert_true(out[t * 4] == in[t * 4 + 1] && out[t * 4 + 1] == in[t * 4]);
    uint64_t lo = in[t * 4], hi = in[t * 4 + 1];
    uint64_t w0 = (hi >> 32) | (hi << 32), w1 = (lo >> 32) | (lo << 32); /* quarters 3 2 | 1 0 */
    assert_true(out[t * 4 + 2] == w0 && out[t * 4 + 3] == w1);
  }
  /* atom.exch: out's 16 bytes get in's, the old value (zeros) comes back;
   * atom.cas: compare with what is there now, swap in the second pair */
  memset(out, 0, sizeof out);
  st = run2(k2("", "ld.global.v2.b64 {%rd10, %rd11}, [%rd5]; mov.b128 %q1, {%rd10, %rd11};"
                   "atom.global.exch.b128 %q2, [%rd4], %q1; mov.b128 {%rd12, %rd13}, %q2;"
                   "ld.global.v2.b64 {%rd14, %rd15}, [%rd5+16]; mov.b128 %q3, {%rd14, %rd15};"
                   "atom.global.cas.b128 %q4, [%rd4], %q1, %q3; mov.b128 {%rd16, %rd17}, %q4;"
                   "atom.global.cas.b128 %q5, [%rd4], %q1, %q1; mov.b128 {%rd18, %rd19}, %q5;"
                   "or.b64 %rd20, %rd12, %rd13; st.global.b64 [%rd4+16], %rd20;"
                   "xor.b64 %rd21, %rd16, %rd10; xor.b64 %rd22, %rd17, %rd11; or.b64 %rd21, %rd21, %rd22;"
                   "xor.b64 %rd23, %rd18, %rd14; xor.b64 %rd24, %rd19, %rd15; or.b64 %rd23, %rd23, %rd24;"
                   "or.b64 %rd21, %rd21, %rd23; st.global.b64 [%rd4+24], %rd21;"),
            1, 1, out, sizeof out, in, sizeof in, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  for (unsigned t = 0; t < 32; t++) {
    /* the first cas matched (in's pair was there) and stored the second
     * pair; the second cas compared in's pair with the second pair: no swap */
    assert_true(out[t * 4] == in[t * 4 + 2] && out[t * 4 + 1] == in[t * 4 + 3]);
    assert_true(out[t * 4 + 2] == 0); /* exch returned the zeros */
    assert_true(out[t * 4 + 3] == 0); /* both old values as the ISA says */
  }
}

/* A .shared address is 32 bits wide: [%r+imm] wraps modulo 2^32 (the H100
 * does: nvcc's sm_90a attention code keeps a base below the variable whose
 * sum with the offset carries past 2^32, tests/data/ptx/attn90). Each
 * thread stores its in word through s - 4096 (mod 2^32) + 4096 and loads
 * it back through a .u64 register holding s + 2^32 (32 bits of it count). */
static void test_shared_wrap(void **state) {
  (void)state;
  uint32_t in[32 * 8], out[32 * 8];
  for (unsigned k = 0; k < 32 * 8; k++) in[k] = 0x9e3779b9u * (k + 1);
  memset(out, 0, sizeof out);
  tc5_diag dg;
  tc5_status st = run2(k2(".shared .align 16 .b8 s[128];\n",
                          "ld.global.b32 %r10, [%rd5]; mov.u32 %r11, s; shl.b32 %r12, %r1, 2; add.u32 %r13, %r11, %r12;"
                          "sub.u32 %r14, %r13, 4096; st.shared.b32 [%r14+4096], %r10; bar.sync 0;"
                          "cvt.u64.u32 %rd10, %r13; add.u64 %rd11, %rd10, 4294967296; ld.shared.b32 %r15, [%rd11];"
                          "st.global.b32 [%rd4], %r15;"
                          "add.u32 %r16, %r13, -8; ld.shared.b32 %r17, [%r16+8]; st.global.b32 [%rd4+4], %r17;"),
                       1, 1, out, sizeof out, in, sizeof in, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  for (unsigned t = 0; t < 32; t++) {
    assert_int_equal(out[t * 8], in[t * 8]);
    assert_int_equal(out[t * 8 + 1], in[t * 8]);
  }
}

/* st.async / red.async into the peer CTA of a cluster of 2, completing
 * bytes on the peer's mbarrier: each CTA waits on its own */
static void test_st_async(void **state) {
  (void)state;
  uint32_t in[64 * 8], out[64 * 8];
  for (unsigned k = 0; k < 64 * 8; k++) in[k] = k * 2654435761u;
  memset(out, 0, sizeof out);
  tc5_diag dg;
  const char *body = k2(" .shared .align 16 .b32 buf[128]; .shared .align 8 .b64 bar;",
                       "mov.u32 %r10, buf; mov.u32 %r11, bar; mov.u32 %r12, %cluster_ctarank; xor.b32 %r13, %r12, 1;"
                       "setp.eq.u32 %p1, %r1, 0; @%p1 mbarrier.init.shared::cta.b64 [%r11], 1;"
                       "mov.u32 %r30, 0; shl.b32 %r31, %r1, 2; add.u32 %r32, %r10, %r31; st.shared.b32 [%r32+256], %r30;"
                       "@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd30, [%r11], 384;"
                       "barrier.cluster.arrive; barrier.cluster.wait;"
                       "mapa.shared::cluster.u32 %r14, %r10, %r13; mapa.shared::cluster.u32 %r15, %r11, %r13;"
                       "ld.global.v2.b32 {%r16, %r17}, [%rd5]; mul.lo.u32 %r18, %r1, 8; add.u32 %r19, %r14, %r18;"
                       "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%r19], {%r16, %r17}, [%r15];"
                       "add.u32 %r20, %r14, 256; add.u32 %r20, %r20, %r31;"
                       "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r20], %r16, [%r15];"
                       "WAIT: mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r11], 0; @!%p2 bra WAIT;"
                       "add.u32 %r23, %r10, %r18; ld.shared.v2.b32 {%r21, %r22}, [%r23];"
                       "add.u32 %r24, %r10, 256; add.u32 %r24, %r24, %r31; ld.shared.b32 %r25, [%r24];"
                       "st.global.v2.b32 [%rd4], {%r21, %r22}; st.global.b32 [%rd4+8], %r25;"
                       "barrier.cluster.arrive; barrier.cluster.wait;");
  tc5_status st = run2(body, 2, 2, out, sizeof out, in, sizeof in, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  for (unsigned c = 0; c < 2; c++)
    for (unsigned t = 0; t < 32; t++) {
      unsigned g = c * 32 + t, peer = (c ^ 1) * 32 + t;
      assert_int_equal(out[g * 8], in[peer * 8]);
      assert_int_equal(out[g * 8 + 1], in[peer * 8 + 1]);
      assert_int_equal(out[g * 8 + 2], in[peer * 8]); /* 0 + the peer's value */
    }
}

/* cvt.{rn,rz,rm,rp}.{f16,bf16}.{u32,s32,u64,s64,u16,s8}: one rounding of
 * the exact integer (restated with integer arithmetic) */
static uint32_t round_int(uint64_t mag, bool neg, unsigned mbits, int emin, int emax, unsigned ebits, int mode) {
  /* the value mag (sign neg) in a format of mbits stored fraction bits */
  if (mag == 0) return neg ? 1u << (mbits + ebits) : 0;
  int e = 63 - __builtin_clzll(mag); /* 2^e <= mag */
  unsigned keep = mbits + 1;
  uint64_t q = mag, rem = 0, half = 0;
  int sh = e - (int)mbits;
  if (sh > 0) {
    q = mag >> sh;
    rem = mag & ((1ull << sh) - 1);
    half = 1ull << (sh - 1);
  } else {
    q = mag << -sh; /* the significand with its leading bit at bit mbits */
  }
  bool up;
  switch (mode) {
  case FE_TONEAREST: up = rem > half || (rem == half && half && (q & 1)); break;
  case FE_TOWARDZERO: up = false; break;
  case FE_DOWNWARD: up = neg && rem; break;
  default: up = !neg && rem; break;
  }
  if (up) q++;
  if (q >> keep) q >>= 1, e++;
  (void)emin;
  uint32_t sign = neg ? 1u << (mbits + ebits) : 0;
  if (e > emax) { /* overflow: inf, or the largest finite toward zero */
    bool inf = mode == FE_TONEAREST || (mode == FE_UPWARD && !neg) || (mode == FE_DOWNWARD && neg);
    uint32_t einf = (1u << ebits) - 1;
    return sign | (inf ? einf << mbits : ((einf - 1) << mbits) | ((1u << mbits) - 1));
  }
  uint32_t bias = (1u << (ebits - 1)) - 1;
  return sign | (uint32_t)(e + (int)bias) << mbits | (uint32_t)(q & ((1ull << mbits) - 1));
}
static void test_cvt_int_to_half(void **state) {
  (void)state;
  static const char *const rnd[] = {"rn", "rz", "rm", "rp"};
  static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  static const char *const src[] = {"u32", "s32", "u64", "s64", "u16", "s8"};
  enum { CTAS = 8, T = 32 * CTAS };
  static uint64_t in[T * 4];
  static uint16_t out[T * 16];
  rng r;
  rng_seed(&r, 34);
  for (unsigned d = 0; d < 2; d++)
    for (unsigned s = 0; s < 6; s++)
      for (unsigned m = 0; m < 4; m++) {
        bool w64 = s == 2 || s == 3, sg = s & 1;
        char code[1024];
        snprintf(code, sizeof code, "ld.global.b64 %%rd10, [%%rd5]; cvt.u32.u64 %%r10, %%rd10; cvt.u16.u64 %%h2, %%rd10;"
                        "cvt.%s.%s.%s %%h1, %s; st.global.b16 [%%rd4], %%h1;",
                 rnd[m], d ? "bf16" : "f16", src[s], w64 ? "%rd10" : s >= 4 ? "%h2" : "%r10");
        const char *body = k2("", code);
        for (unsigned k = 0; k < T * 4; k++) {
          uint64_t x = rng_next(&r);
          unsigned width = (unsigned)(rng_next(&r) % 64) + 1; /* every magnitude */
          in[k] = width == 64 ? x : x & ((1ull << width) - 1);
          if (k % 7 == 0) in[k] = ~0ull << (rng_next(&r) % 64); /* large and negative */
        }
        memset(out, 0, sizeof out);
        tc5_diag dg;
        tc5_status st = run2(body, CTAS, 1, out, sizeof out, in, sizeof in, &dg);
        if (st) fail_msg("%s: %s", body, dg.count ? dg.issue[0].message : tc5_strerror(st));
        for (unsigned t = 0; t < T; t++) {
          uint64_t v = in[t * 4];
          unsigned bits = w64 ? 64 : s < 2 ? 32 : s == 4 ? 16 : 8;
          if (bits < 64) v &= (1ull << bits) - 1;
          bool neg = sg && (v >> (bits - 1) & 1);
          uint64_t mag = neg ? (bits == 64 ? 0 - v : ((1ull << bits) - v)) : v;
          uint32_t want = d ? round_int(mag, neg, 7, -126, 127, 8, fe[m]) : round_int(mag, neg, 10, -14, 15, 5, fe[m]);
          if (out[t * 16] != want)
            fail_msg("cvt.%s.%s.%s of 0x%llx: 0x%04x, the ISA 0x%04x", rnd[m], d ? "bf16" : "f16", src[s],
                     (unsigned long long)v, out[t * 16], want);
        }
      }
}

/* elect.sync _|%p: the sink takes the leader's lane number */
static void test_elect_sink(void **state) {
  (void)state;
  uint32_t out[32 * 8], in[32 * 8] = {0};
  tc5_diag dg;
  memset(out, 0, sizeof out);
  tc5_status st = run2(k2("", "elect.sync _|%p1, 0xffffffff; selp.u32 %r10, 1, 0, %p1; st.global.b32 [%rd4], %r10;"),
                       1, 1, out, sizeof out, in, sizeof in, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  for (unsigned l = 0; l < 32; l++) assert_int_equal(out[l * 8], l == 0);
}

/* the f32 redux.sync exists on sm_100a/sm_100f/sm_103 only: tc5 runs it for
 * any .target, and the strict checker warns (rule target-feature) where the
 * module's target lacks it */
static tc5_check_finding found[4];
static unsigned nfound;
static void on_finding(void *ctx, const tc5_check_finding *f) {
  (void)ctx;
  if (nfound < 4) found[nfound++] = *f;
}
static void test_target_feature(void **state) {
  (void)state;
  static const char *const targets[] = {"sm_100a", "sm_103a", "sm_100f", "sm_90a", "sm_120a"};
  for (unsigned t = 0; t < 5; t++) {
    char text[2048];
    snprintf(text, sizeof text,
             ".version 8.8\n.target %s\n.address_size 64\n.visible .entry k(.param .u64 out) {\n"
             " .reg .b32 %%r<4>; .reg .b64 %%rd<4>;\n ld.param.u64 %%rd1, [out]; mov.u32 %%r1, %%tid.x;"
             " cvt.rn.f32.u32 %%r1, %%r1; redux.sync.max.f32 %%r2, %%r1, 0xffffffff; st.global.b32 [%%rd1], %%r2;\n"
             " ret;\n}\n",
             targets[t]);
    tc5_ptx_module *m;
    tc5_diag dg;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_ptx_load(text, strlen(text), "t.ptx", &m, &dg), TC5_OK);
    uint32_t out[4] = {0};
    tc5_ptx_arg arg = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = sizeof out};
    tc5_ptx_launch_cfg cfg;
    tc5_ptx_launch_init(&cfg);
    cfg.block[0] = 32;
    cfg.threads = 1;
    cfg.check = TC5_CHECK_STRICT;
    cfg.on_finding = on_finding;
    nfound = 0;
    assert_int_equal(tc5_ptx_launch(m, &cfg, &arg, 1, NULL, &dg), TC5_OK);
    tc5_ptx_free(m);
    assert_int_equal(out[0], 0x41f80000u); /* 31.0 */
    bool lacks = t >= 3;
    assert_int_equal(nfound, lacks ? 1 : 0);
    if (lacks) {
      assert_true(found[0].warning);
      assert_non_null(strstr(found[0].text, "target-feature"));
      assert_non_null(strstr(found[0].text, targets[t]));
    }
  }
}

/* the runner's approximate instructions are the special-function unit's
 * (tc5/sfu.h; checked against the H100 in test_sfu and gpu/run.sh sfu):
 * the operands reach it in the right order and width */
static void test_sfu_in_runner(void **state) {
  (void)state;
  enum { T = 32 };
  static uint32_t in[T * 8], out[T * 8];
  rng r;
  rng_seed(&r, 36);
  for (unsigned k = 0; k < T * 8; k++) in[k] = rand_f32(&r);
  tc5_diag dg;
  tc5_status st = run2(k2("", "ld.global.v4.b32 {%r10, %r11, %r12, %r13}, [%rd5]; ld.global.b64 %rd10, [%rd5+16];"
                              "ex2.approx.ftz.f32 %r14, %r10; st.global.b32 [%rd4], %r14;"
                              "div.full.f32 %r15, %r10, %r11; st.global.b32 [%rd4+4], %r15;"
                              "tanh.approx.bf16x2 %r16, %r12; st.global.b32 [%rd4+8], %r16;"
                              "sin.approx.f32 %r17, %r13; st.global.b32 [%rd4+12], %r17;"
                              "rsqrt.approx.f64 %rd11, %rd10; st.global.b64 [%rd4+16], %rd11;"
                              "mov.b16 %h1, %r12; ex2.approx.f16 %h2, %h1; st.global.b16 [%rd4+24], %h2;"),
                       1, 1, out, sizeof out, in, sizeof in, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  for (unsigned t = 0; t < T; t++) {
    const uint32_t *x = in + t * 8, *o = out + t * 8;
    uint64_t w[6];
    tc5_sfu_eval(TC5_SFU_EX2_APPROX_FTZ_F32, x[0], 0, &w[0]);
    tc5_sfu_eval(TC5_SFU_DIV_FULL_F32, x[0], x[1], &w[1]);
    tc5_sfu_eval(TC5_SFU_TANH_APPROX_BF16X2, x[2], 0, &w[2]);
    tc5_sfu_eval(TC5_SFU_SIN_APPROX_F32, x[3], 0, &w[3]);
    tc5_sfu_eval(TC5_SFU_RSQRT_APPROX_F64, (uint64_t)x[5] << 32 | x[4], 0, &w[4]);
    tc5_sfu_eval(TC5_SFU_EX2_APPROX_F16, x[2] & 0xffff, 0, &w[5]);
    assert_int_equal(o[0], w[0]);
    assert_int_equal(o[1], w[1]);
    assert_int_equal(o[2], w[2]);
    assert_int_equal(o[3], w[3]);
    assert_true(((uint64_t)o[5] << 32 | o[4]) == w[4]);
    assert_int_equal(o[6] & 0xffff, w[5]);
  }
}

/* every new form's malformed variants: a named error, never a crash */
static void test_bad_forms(void **state) {
  (void)state;
  static const struct {
    const char *code, *msg;
  } bad[] = {
      {"max.f32 %f1, %f2, %f3, %f4, %f5;", "operands"},
      {"max.xorsign.abs.f32 %f1, %f2, %f3, %f4;", "three-input max takes .abs, not .xorsign.abs"},
      {"max.f64 %rd1, %rd2, %rd3, %rd4;", "three-input max takes .f32 only"},
      {"min.abs.f32 %f1, %f2, %f3;", "two-input min takes .xorsign.abs"},
      {"min.xorsign.f32 %f1, %f2, %f3;", ".xorsign needs .abs"},
      {"add.NaN.f32 %f1, %f2, %f3;", ".NaN/.xorsign/.abs belong to min and max"},
      {"div.rn.f32x2 %rd1, %rd2, %rd3;", "div has no .f32x2 form"},
      {"max.f32x2 %rd1, %rd2, %rd3;", "max has no .f32x2 form"},
      {"add.f32x2 %rd1, %rd2;", "operands"},
      {"redux.sync.add.f32 %r1, %r2, 0xffffffff;", "redux.sync.add has no .f32 form"},
      {"redux.sync.and.u32 %r1, %r2, 0xffffffff;", "redux.sync.and takes .b32"},
      {"redux.sync.min.s64 %rd1, %rd2, 0xffffffff;", "redux.sync.min takes .u32/.s32"},
      {"redux.sync.min.abs.u32 %r1, %r2, 0xffffffff;", ".abs/.NaN belong to redux.sync's .f32 forms"},
      {"redux.add.u32 %r1, %r2, 0xffffffff;", "needs .sync"},
      {"mov.b128 %q1, {%rd1, %rd2, %rd3};", "2 (.b64) or 4 (.b32) elements"},
      {"mov.b128 %rd1, %q1;", "must be a .b128 register"},
      {"atom.global.add.b128 %q1, [%rd1], %q2;", ".b128 takes atom.exch and atom.cas only"},
      {"atom.global.exch.b128 %rd3, [%rd1], %q2;", "must be a .b128 register"},
      {"st.async.shared::cluster.b32 [%r1], %r2;", "needs .mbarrier::complete_tx::bytes"},
      {"st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b64 [%r1], {%rd1, %rd2, %rd3, %rd4}, [%r3];",
       ".v4 32-bit only"},
      {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.f32 [%r1], %f2, [%r3];",
       "red.async.add does not take .f32"},
      {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.s32 [%r1], %r2, [%r3];",
       "red.async.inc does not take .s32"},
      {"cvt.rn.e4m3x2.u32 %h1, %r1;", "an integer converts to .f16/.bf16/.f32/.f64"},
      {"cvt.f16.u32 %h1, %r1;", "integer to float needs .rn/.rz/.rm/.rp"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x2.f32 {%r1, %r2}, %r3, [%r4];", "needs .min or .max"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x2.min.b32 {%r1, %r2}, %r3, [%r4];", "needs .f32, .u32 or .s32"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x1.min.u32 {%r1}, %r3, [%r4];", "x2"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x2.max.f32 {%r1, %r2}, [%r4];", "operands"},
      {"tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%r4], {%r1}, 16;", "integer"},
      {"wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%r1}, %rd1, %rd2, %p1;", "N in {8, 16, 24, 32, 48"},
      {"wgmma.mma_async.sync.aligned.m64n8k32.f32.s8.u8 {%r1}, %rd1, %rd2, %p1;", "integer wgmma takes .s32 D"},
      {"elect.sync %r1, 0xffffffff;", "the predicate p is mandatory"},
      {"elect.sync _, 0xffffffff;", "the predicate p is mandatory"},
      {"add.sat.f32x2 %rd1, %rd2, %rd3;", ".f32x2 takes no .sat"},
      {"fma.f32x2 %rd1, %rd2, %rd3, %rd4;", "fma.f32x2 needs a rounding modifier"},
      {"fma.f32.bf16 %r1, %h1, %h2, %r2;", "fma.f32.bf16 needs a rounding modifier"},
      {"ex2.ftz.f32 %f1, %f2;", "ex2 needs .approx"},
      {"rcp.approx.rn.f32 %f1, %f2;", "rcp.approx takes no rounding modifier"},
      {"div.approx.rn.f32 %f1, %f2, %f3;", ".approx/.full belong to div.approx"},
      {"sin.approx.f64 %rd1, %rd2;", "sin.approx.f64: no model of this approximate instruction"},
      {"mul.rn.f32.bf16 %r1, %h1, %r2;", "a second type belongs to add/sub/fma"},
      {"add.ftz.f32.f16 %r1, %h1, %r2;", "takes a rounding modifier and .sat only"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char code[2048];
    snprintf(code, sizeof code, "%s", bad[i].code);
    const char *body = k2("", code);
    tc5_ptx_module *m = NULL;
    tc5_diag dg;
    tc5_status st = load(body, &m, &dg);
    if (st == TC5_OK) {
      tc5_ptx_free(m);
      if (!*bad[i].msg) continue; /* accepted forms checked elsewhere */
      fail_msg("accepted: %s", bad[i].code);
    }
    assert_true(dg.count > 0);
    if (!strstr(dg.issue[0].message, bad[i].msg))
      fail_msg("%s: '%s' does not say '%s'", bad[i].code, dg.issue[0].message, bad[i].msg);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_f32x2),      cmocka_unit_test(test_mixed_precision), cmocka_unit_test(test_minmax),          cmocka_unit_test(test_redux),
      cmocka_unit_test(test_b128),       cmocka_unit_test(test_st_async),        cmocka_unit_test(test_cvt_int_to_half),
      cmocka_unit_test(test_elect_sink), cmocka_unit_test(test_bad_forms),   cmocka_unit_test(test_target_feature),
      cmocka_unit_test(test_sfu_in_runner), cmocka_unit_test(test_shared_wrap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
