/* tc5 tests — the instructions real Blackwell kernels emit beyond the
 * MMAs (issue 30): packed f32 (.f32x2), three-input min/max and the .NaN /
 * .xorsign.abs forms, redux.sync, mov.b128 and the .b128 atomics,
 * st.async / red.async, atom/red .add.noftz.{f16,bf16}{x2} and atom.cas.b16,
 * add/min/max .u16x2/.s16x2, testp,
 * integer -> f16/bf16 conversions, elect.sync with a
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

/* a float rounded to nearest even as an f16 / bf16 code (the restatement:
 * scaled to the format's integer significand and rounded by nearbyintf) */
static uint16_t half_of(float f, bool bf) {
  uint32_t b = fbits(f);
  uint16_t s = (uint16_t)(b >> 16 & 0x8000);
  float a = fabsf(f);
  if (a != a) return bf ? 0x7fc0 : 0x7e00;
  if (bf) return (uint16_t)((b + 0x7fffu + (b >> 16 & 1)) >> 16);
  if (a >= 65520.0f) return s | 0x7c00;
  if (a < ldexpf(1.0f, -14)) return s | (uint16_t)nearbyintf(a * 16777216.0f); /* subnormal: units of 2^-24 */
  int e;
  frexpf(a, &e);
  uint32_t m = (uint32_t)nearbyintf(ldexpf(a, 11 - e)), E = (uint32_t)(e - 1 + 15);
  if (m == 2048) m = 1024, E++;
  return E >= 31 ? s | 0x7c00 : (uint16_t)(s | E << 10 | (m & 1023));
}
static bool nan16(uint16_t h, bool bf) { return bf ? (h & 0x7f80) == 0x7f80 && (h & 0x7f) : (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
/* atom/red .add.noftz.{f16,bf16}{x2} (Triton's tl.atomic_add of float16 and
 * bfloat16) and atom.cas.b16: the new value is the sum rounded once to
 * nearest even with subnormals kept (float arithmetic rounds it right: 24 >=
 * 2 * 11 + 2), the old value comes back, the neighbouring bytes are untouched;
 * a NaN sum is a NaN (its payload is tc5's choice, docs/spec-departures.md) */
static void test_atom16(void **state) {
  (void)state;
  static const uint16_t special[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                                     0x7e00, 0x0080, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x3c00, 0xbc00, 0x0400};
  enum { CTAS = 16, T = 32 * CTAS };
  static uint16_t in[T * 16], out[T * 16];
  rng r;
  rng_seed(&r, 37);
  for (unsigned bf = 0; bf < 2; bf++) {
    const char *ty = bf ? "bf16" : "f16";
    char code[2048];
    /* in: a, b (16-bit), A, B (x2); out: a+b, old, A+B (2 halves), old (2), red a+b, cas results */
    snprintf(code, sizeof code,
             "ld.global.b16 %%h1, [%%rd5]; ld.global.b16 %%h2, [%%rd5+2];"
             "ld.global.b32 %%r10, [%%rd5+4]; ld.global.b32 %%r11, [%%rd5+8];"
             "st.global.b16 [%%rd4], %%h1; atom.global.acq_rel.gpu.add.noftz.%s %%h3, [%%rd4], %%h2;"
             "st.global.b16 [%%rd4+2], %%h3;"
             "st.global.b32 [%%rd4+4], %%r10; atom.global.add.noftz.%sx2 %%r12, [%%rd4+4], %%r11;"
             "st.global.b32 [%%rd4+8], %%r12;"
             "st.global.b16 [%%rd4+12], %%h1; red.global.add.noftz.%s [%%rd4+12], %%h2;"
             "st.global.b16 [%%rd4+16], %%h1; atom.global.cas.b16 %%h4, [%%rd4+16], %%h1, %%h2;"
             "atom.global.cas.b16 %%h5, [%%rd4+16], %%h1, %%h1;"
             "st.global.b16 [%%rd4+20], %%h4; st.global.b16 [%%rd4+22], %%h5;",
             ty, ty, ty);
    const char *body = k2("", code);
    for (unsigned k = 0; k < T * 16; k++) {
      uint16_t v = (uint16_t)rng_next(&r);
      if (k % 3 == 0) v = special[rng_next(&r) % (sizeof special / sizeof special[0])];
      if (k % 5 == 1) v = (uint16_t)((in[k - 1] ^ 0x8000) + (rng_next(&r) % 3) - 1); /* cancellation */
      in[k] = v;
    }
    memset(out, 0, sizeof out);
    tc5_diag dg;
    tc5_status st = run2(body, CTAS, 1, out, sizeof out, in, sizeof in, &dg);
    if (st) fail_msg("%s: %s", ty, dg.count ? dg.issue[0].message : tc5_strerror(st));
    for (unsigned t = 0; t < T; t++) {
      const uint16_t *i = in + t * 16, *o = out + t * 16;
      uint16_t pairs[3][3] = {{i[0], i[1], o[0]}, {i[2], i[4], o[2]}, {i[3], i[5], o[3]}};
      for (unsigned k = 0; k < 3; k++) {
        uint16_t want = half_of(half_val(pairs[k][0], bf) + half_val(pairs[k][1], bf), bf);
        if (nan16(want, bf) ? !nan16(pairs[k][2], bf) : pairs[k][2] != want)
          fail_msg("atom.add.noftz.%s%s 0x%04x + 0x%04x: 0x%04x, the ISA 0x%04x", ty, k ? "x2" : "", pairs[k][0],
                   pairs[k][1], pairs[k][2], want);
      }
      assert_int_equal(o[1], i[0]);                             /* atom returns the old value */
      assert_true(o[4] == i[2] && o[5] == i[3]);               /* ... both halves */
      assert_int_equal(o[6], o[0]);                             /* red: the same sum */
      assert_true(o[8] == i[1] && o[9] == 0);                   /* cas swapped in b, the next 2 bytes kept */
      assert_true(o[10] == i[0] && o[11] == i[1]);             /* the old values: a, then b */
    }
  }
}

/* add / min / max .u16x2 .s16x2 and max/min.relu.s16x2 (sm_90; Triton's
 * tl.dot_scaled upcasts emit max.u16x2 and add.s16x2): each half word on its
 * own, as the ISA's semantics state; and min/max.relu.s32 (FlagGems' bicubic
 * upsampling): the signed result, 0 where negative */
static void test_int16x2(void **state) {
  (void)state;
  static const char *const form[] = {"add.u16x2", "add.s16x2", "min.u16x2", "min.s16x2",
                                     "max.u16x2", "max.s16x2", "min.relu.s16x2", "max.relu.s16x2",
                                     "min.relu.s32", "max.relu.s32"};
  enum { T = 32 * 4 };
  static uint32_t in[T * 8], out[T * 8];
  rng r;
  rng_seed(&r, 372);
  for (unsigned f = 0; f < 10; f++) {
    char code[512];
    snprintf(code, sizeof code,
             "ld.global.b32 %%r10, [%%rd5]; ld.global.b32 %%r11, [%%rd5+4]; %s %%r12, %%r10, %%r11;"
             " st.global.b32 [%%rd4], %%r12;", form[f]);
    for (unsigned k = 0; k < T * 8; k++) {
      uint32_t v = (uint32_t)rng_next(&r);
      if (k % 4 == 1) v ^= 0x80008000u; /* both signs */
      if (k % 9 == 0) v = (uint32_t)(rng_next(&r) % 5) * 0x7fffu; /* 0, 0x7fff, 0xfffe, ... */
      in[k] = v;
    }
    memset(out, 0, sizeof out);
    tc5_diag dg;
    tc5_status st = run2(k2("", code), 4, 1, out, sizeof out, in, sizeof in, &dg);
    if (st) fail_msg("%s: %s", form[f], dg.count ? dg.issue[0].message : tc5_strerror(st));
    bool sgn = strstr(form[f], ".s16x2") != NULL, relu = strstr(form[f], "relu") != NULL;
    if (strstr(form[f], ".s32")) {
      for (unsigned t = 0; t < T; t++) {
        int32_t a = (int32_t)in[t * 8], b = (int32_t)in[t * 8 + 1];
        int32_t R = form[f][1] == 'i' ? (a < b ? a : b) : (a > b ? a : b);
        uint32_t want = R < 0 ? 0 : (uint32_t)R;
        if (out[t * 8] != want) fail_msg("%s 0x%08x, 0x%08x: 0x%08x, the ISA 0x%08x", form[f], (uint32_t)a,
                                         (uint32_t)b, out[t * 8], want);
      }
      continue;
    }
    for (unsigned t = 0; t < T; t++) {
      uint32_t a = in[t * 8], b = in[t * 8 + 1], want = 0;
      for (unsigned h = 0; h < 2; h++) {
        uint32_t x = a >> (16 * h) & 0xffff, y = b >> (16 * h) & 0xffff;
        long X = sgn ? (long)(int16_t)x : (long)x, Y = sgn ? (long)(int16_t)y : (long)y, R;
        if (form[f][1] == 'd') R = X + Y;
        else if (form[f][1] == 'i') R = X < Y ? X : Y;
        else R = X > Y ? X : Y;
        if (relu && R < 0) R = 0;
        want |= ((uint32_t)R & 0xffff) << (16 * h);
      }
      if (out[t * 8] != want) fail_msg("%s 0x%08x, 0x%08x: 0x%08x, the ISA 0x%08x", form[f], a, b, out[t * 8], want);
    }
  }
}

/* testp (Triton's tl.math.isinf/isnan/isfinite lowering: `%` of float16 by an
 * integer): each class in the operand's own format, as the ISA's table */
static void test_testp(void **state) {
  (void)state;
  static const char *const tests[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
  /* +0, -0, the smallest subnormal, the largest subnormal, 1.0, the largest finite, +inf, -inf, a NaN */
  static const uint64_t v32[] = {0, 0x80000000u, 1, 0x7fffff, 0x3f800000u, 0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00001u};
  static const uint64_t v64[] = {0, 0x8000000000000000ull, 1, 0xfffffffffffffull, 0x3ff0000000000000ull,
                                 0x7fefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000001ull};
  /* the classes of the nine values: zero, zero, sub, sub, normal, normal, inf, inf, nan */
  static const char cls[] = {'z', 'z', 's', 's', 'n', 'n', 'i', 'i', 'q'};
  uint64_t in[32 * 4], out[32 * 4];
  for (unsigned f64 = 0; f64 < 2; f64++)
    for (unsigned k = 0; k < 6; k++) {
      char code[512];
      snprintf(code, sizeof code, "ld.global.b64 %%rd10, [%%rd5]; %s testp.%s.%s %%p1, %s;"
               " selp.u64 %%rd11, 1, 0, %%p1; st.global.b64 [%%rd4], %%rd11;",
               f64 ? "" : "cvt.u32.u64 %r10, %rd10;", tests[k], f64 ? "f64" : "f32", f64 ? "%rd10" : "%r10");
      memset(in, 0, sizeof in);
      for (unsigned t = 0; t < 32; t++) in[t * 4] = (f64 ? v64 : v32)[t % 9];
      memset(out, 0xff, sizeof out);
      tc5_diag dg;
      tc5_status st = run2(k2("", code), 1, 1, out, sizeof out, in, sizeof in, &dg);
      if (st) fail_msg("testp.%s: %s", tests[k], dg.count ? dg.issue[0].message : tc5_strerror(st));
      for (unsigned t = 0; t < 32; t++) {
        char c = cls[t % 9];
        bool want = k == 0 ? (c != 'i' && c != 'q') : k == 1 ? c == 'i' : k == 2 ? c != 'q' : k == 3 ? c == 'q'
                  : k == 4 ? c == 'n' : c == 's';
        if (out[t * 4] != (uint64_t)want)
          fail_msg("testp.%s.%s of 0x%llx: %llu, the ISA %d", tests[k], f64 ? "f64" : "f32",
                   (unsigned long long)in[t * 4], (unsigned long long)out[t * 4], want);
      }
    }
}

/* extended precision (9.7.2): add.cc/addc, sub.cc/subc, mad.lo/hi.cc/madc, 32 and 64 bits:
 * libdevice's sin/cos argument reduction (Triton's tl.sin/tl.cos) chains them; an addc after a
 * sub.cc adds the subtraction's carry, 1 when nothing was borrowed (the H100: alu_carry.ptx) */
static void test_carry(void **state) {
  (void)state;
  static const char *const prog[2] = {
      "ld.global.b64 %rd10, [%rd5]; ld.global.b64 %rd11, [%rd5+8];"
      " mov.b64 {%r10, %r11}, %rd10; mov.b64 {%r12, %r13}, %rd11;"
      " add.cc.u32 %r14, %r10, %r12; addc.cc.u32 %r15, %r11, %r13; addc.u32 %r16, 0, 0;"
      " sub.cc.u32 %r17, %r10, %r12; subc.cc.s32 %r18, %r11, %r13; subc.u32 %r19, 0, 0;"
      " mov.b64 %rd12, {%r14, %r15}; st.global.b64 [%rd4], %rd12;"
      " mov.b64 %rd13, {%r16, %r19}; st.global.b64 [%rd4+8], %rd13;"
      " mov.b64 %rd14, {%r17, %r18}; st.global.b64 [%rd4+16], %rd14;"
      " add.cc.u64 %rd15, %rd10, %rd11; addc.u64 %rd16, %rd10, 0; st.global.b64 [%rd4+24], %rd16;",
      "ld.global.b64 %rd10, [%rd5]; ld.global.b64 %rd11, [%rd5+8];"
      " mov.b64 {%r10, %r11}, %rd10; mov.b64 {%r12, %r13}, %rd11;"
      " mad.lo.cc.u32 %r14, %r10, %r12, %r11; madc.hi.cc.u32 %r15, %r10, %r12, %r13; madc.lo.u32 %r16, %r11, %r13, 0;"
      " mov.b64 %rd12, {%r14, %r15}; st.global.b64 [%rd4], %rd12;"
      " sub.cc.u32 %r20, %r10, %r12; addc.u32 %r21, 0, 0; mov.b64 %rd13, {%r16, %r21}; st.global.b64 [%rd4+8], %rd13;"
      " mad.hi.cc.u64 %rd14, %rd10, %rd11, %rd10; st.global.b64 [%rd4+16], %rd14;"
      " sub.cc.s64 %rd15, %rd10, %rd11; subc.u64 %rd16, 0, 0; add.s64 %rd16, %rd16, %rd15; st.global.b64 [%rd4+24], %rd16;"};
  uint64_t in[32 * 4], out[32 * 4];
  rng r;
  rng_seed(&r, 37);
  for (unsigned t = 0; t < 32; t++) {
    in[t * 4] = rng_next(&r);
    in[t * 4 + 1] = t % 4 == 0 ? ~in[t * 4] + (t % 8 == 0) : t % 4 == 1 ? in[t * 4] : rng_next(&r);
  }
  for (unsigned p = 0; p < 2; p++) {
    memset(out, 0xff, sizeof out);
    tc5_diag dg;
    tc5_status st = run2(k2("", prog[p]), 1, 1, out, sizeof out, in, sizeof in, &dg);
    if (st) fail_msg("carry %u: %s", p, dg.count ? dg.issue[0].message : tc5_strerror(st));
    for (unsigned t = 0; t < 32; t++) {
      uint64_t x = in[t * 4], y = in[t * 4 + 1], want[4];
      uint32_t x0 = (uint32_t)x, x1 = (uint32_t)(x >> 32), y0 = (uint32_t)y, y1 = (uint32_t)(y >> 32);
      if (p == 0) {
        want[0] = x + y;
        want[1] = (uint64_t)(x + y < x) | (uint64_t)(x < y ? 0xffffffffu : 0) << 32;
        want[2] = x - y;
        want[3] = x + (x + y < x);
      } else {
        uint64_t p0 = (uint64_t)x0 * y0, m0 = (p0 & 0xffffffffu) + x1;
        uint64_t m1 = (p0 >> 32) + y1 + (m0 >> 32);
        uint64_t m2 = (uint64_t)(uint32_t)((uint64_t)x1 * y1) + (m1 >> 32);
        want[0] = (m0 & 0xffffffffu) | m1 << 32;
        want[1] = (m2 & 0xffffffffu) | (uint64_t)(x0 >= y0) << 32; /* CF after sub.cc: 1 when nothing was borrowed (H100) */
        want[2] = (uint64_t)(((unsigned __int128)x * y) >> 64) + x;
        want[3] = (x - y) - (x < y);
      }
      for (unsigned k = 0; k < 4; k++)
        if (out[t * 4 + k] != want[k])
          fail_msg("carry program %u, x 0x%llx y 0x%llx: word %u 0x%llx, want 0x%llx", p, (unsigned long long)x,
                   (unsigned long long)y, k, (unsigned long long)out[t * 4 + k], (unsigned long long)want[k]);
    }
  }
}

/* createpolicy.fractional: the H100's policy words (half_pack.ptx); a fraction or form not
 * measured is refused by name */
static void test_createpolicy(void **state) {
  (void)state;
  uint64_t in[32 * 4], out[32 * 4];
  memset(in, 0, sizeof in);
  static const struct { const char *form; uint64_t want; } ok[] = {
      {"createpolicy.fractional.L2::evict_last.b64 %rd10, 1.0;", 0x14f0000000000000ull},
      {"createpolicy.fractional.L2::evict_first.b64 %rd10, 1.0;", 0x12f0000000000000ull},
      {"createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd10, 0.5;", 0x1470000000000000ull},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    char code[256];
    snprintf(code, sizeof code, "%s st.global.b64 [%%rd4], %%rd10;", ok[i].form);
    tc5_diag dg;
    tc5_status st = run2(k2("", code), 1, 1, out, sizeof out, in, sizeof in, &dg);
    if (st) fail_msg("%s: %s", ok[i].form, dg.count ? dg.issue[0].message : tc5_strerror(st));
    assert_int_equal(out[0], ok[i].want);
  }
  static const char *const bad[] = {"createpolicy.fractional.L2::evict_unchanged.b64 %rd10, 0.5;",
                                    "createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd10, 1.0;",
                                    "createpolicy.range.L2::evict_last.b64 %rd10, [%rd5], 16, 32;"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tc5_diag dg;
    tc5_status st = run2(k2("", bad[i]), 1, 1, out, sizeof out, in, sizeof in, &dg);
    if (st != TC5_EUNSUPPORTED) fail_msg("%s: status %d, want TC5_EUNSUPPORTED", bad[i], (int)st);
    assert_true(dg.count && strstr(dg.issue[0].message, "createpolicy"));
  }
}

/* copysign.{f32,f64} d, a, b (Triton's `%` of a float by an unsigned integer: fmod's
 * sign): b's bits with a's sign, a NaN's payload kept (the H100 agrees: f64nan's copysign kernel) */
static void test_copysign(void **state) {
  (void)state;
  static const uint64_t v[] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000001ull,
                               0x7ff0000000000000ull, 0xfff8000000000123ull, 0x7ff0000000000456ull, 1};
  uint64_t in[32 * 4], out[32 * 4];
  for (unsigned f64 = 0; f64 < 2; f64++) {
    char code[512];
    snprintf(code, sizeof code, "ld.global.b64 %%rd10, [%%rd5]; ld.global.b64 %%rd11, [%%rd5+8]; %s"
             " st.global.b64 [%%rd4], %%rd12;",
             f64 ? "copysign.f64 %rd12, %rd10, %rd11;"
                 : "shr.u64 %rd10, %rd10, 32; shr.u64 %rd11, %rd11, 32; cvt.u32.u64 %r10, %rd10;"
                   " cvt.u32.u64 %r11, %rd11; copysign.f32 %r12, %r10, %r11; cvt.u64.u32 %rd12, %r12;");
    for (unsigned t = 0; t < 32; t++) {
      in[t * 4] = v[t % 8];
      in[t * 4 + 1] = v[(t / 8 + t) % 8];
    }
    memset(out, 0xff, sizeof out);
    tc5_diag dg;
    tc5_status st = run2(k2("", code), 1, 1, out, sizeof out, in, sizeof in, &dg);
    if (st) fail_msg("copysign: %s", dg.count ? dg.issue[0].message : tc5_strerror(st));
    for (unsigned t = 0; t < 32; t++) {
      uint64_t a = in[t * 4], b = in[t * 4 + 1], want = (a & 1ull << 63) | (b & ~(1ull << 63));
      if (!f64) want = ((a >> 32) & 0x80000000u) | ((b >> 32) & 0x7fffffffu);
      if (out[t * 4] != want)
        fail_msg("copysign.%s 0x%llx, 0x%llx: 0x%llx, want 0x%llx", f64 ? "f64" : "f32", (unsigned long long)a,
                 (unsigned long long)b, (unsigned long long)out[t * 4], (unsigned long long)want);
    }
  }
}

/* st.async / red.async into the peer CTA of a cluster of 2, completing
 * bytes on the peer's mbarrier: each CTA waits on its own */
/* dp4a (issue 51's real addition: llama.cpp's quantized dot products,
 * __dp4a, compile to dp4a.s32.s32): every signedness pair against the
 * ISA's definition (9.7.1.23) restated: c + sum of the byte products, each
 * byte sign- or zero-extended by its operand's type, modulo 2^32 */
static void test_dp4a(void **state) {
  (void)state;
  static const uint32_t v[] = {0, 0xffffffffu, 0x80808080u, 0x7f7f7f7fu, 0x01ff80ffu, 0x12345678u, 0xdeadbeefu, 1};
  uint64_t in[32 * 4], out[32 * 4];
  for (unsigned ty = 0; ty < 4; ty++) {
    bool sa = ty & 1, sb = ty & 2;
    char code[512];
    snprintf(code, sizeof code, "ld.global.b32 %%r10, [%%rd5]; ld.global.b32 %%r11, [%%rd5+8]; ld.global.b32 %%r12, [%%rd5+16];"
             " dp4a.%s.%s %%r13, %%r10, %%r11, %%r12; cvt.u64.u32 %%rd12, %%r13; st.global.b64 [%%rd4], %%rd12;",
             sa ? "s32" : "u32", sb ? "s32" : "u32");
    for (unsigned t = 0; t < 32; t++) {
      in[t * 4] = v[t % 8];
      in[t * 4 + 1] = v[(t / 8 + t) % 8];
      in[t * 4 + 2] = t & 1 ? 0xfffffff0u : t * 0x01010101u;
    }
    memset(out, 0xff, sizeof out);
    tc5_diag dg;
    tc5_status st = run2(k2("", code), 1, 1, out, sizeof out, in, sizeof in, &dg);
    if (st) fail_msg("dp4a: %s", dg.count ? dg.issue[0].message : tc5_strerror(st));
    for (unsigned t = 0; t < 32; t++) {
      uint32_t a = (uint32_t)in[t * 4], b = (uint32_t)in[t * 4 + 1], want = (uint32_t)in[t * 4 + 2];
      for (unsigned k = 0; k < 4; k++) {
        int64_t x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
        if (sa && x > 127) x -= 256;
        if (sb && y > 127) y -= 256;
        want = (uint32_t)((int64_t)want + x * y);
      }
      if (out[t * 4] != want)
        fail_msg("dp4a.%s.%s 0x%08x, 0x%08x, 0x%08x: 0x%llx, want 0x%08x", sa ? "s32" : "u32", sb ? "s32" : "u32", a, b,
                 (uint32_t)in[t * 4 + 2], (unsigned long long)out[t * 4], want);
    }
  }
  /* the types are required, and only .u32/.s32 */
  tc5_diag dg;
  assert_int_equal(run2(k2("", "dp4a.u32 %r13, %r1, %r2, %r3;"), 1, 1, out, sizeof out, in, sizeof in, &dg), TC5_EPARSE);
  assert_non_null(strstr(dg.issue[0].message, "needs .atype.btype"));
  assert_int_equal(run2(k2("", "dp4a.s16.u32 %r13, %r1, %r2, %r3;"), 1, 1, out, sizeof out, in, sizeof in, &dg), TC5_EPARSE);
}

/* div/rem .s16 .u16 .s32 .u32 .s64 .u64 (the ISA: a zero divisor's result is unspecified): by 0 both give all
 * ones of the width, the value the H200 gave in PyTorch's CUDA kernels (tests/data/device_intdiv: `a % 0` was
 * the dividend in tc5 before d53, session 9); the signed minimum over -1 gives the minimum and remainder 0; other
 * divisors C's truncating division */
static void test_int_div_by_zero(void **state) {
  (void)state;
  static const int64_t a_of[] = {0, 1, 7, -7, 100, -100, INT64_MAX, INT64_MIN};
  static const int64_t b_of[] = {0, 0, 0, -1, 3, -3};
  static const unsigned widths[] = {16, 32, 64};
  uint64_t in[32 * 4], out[32 * 4];
  for (unsigned wi = 0; wi < 3; wi++)
    for (unsigned sg = 0; sg < 2; sg++) {
      unsigned W = widths[wi];
      uint64_t m = W == 64 ? ~0ull : (1ull << W) - 1;
      char code[640], ty[8];
      snprintf(ty, sizeof ty, "%s%u", sg ? "s" : "u", W);
      const char *r = W == 16 ? "h" : W == 32 ? "r" : "rd";
      snprintf(code, sizeof code, "ld.global.b%u %%%s10, [%%rd5]; ld.global.b%u %%%s11, [%%rd5+8];"
               " div.%s %%%s12, %%%s10, %%%s11; rem.%s %%%s13, %%%s10, %%%s11;"
               " st.global.b%u [%%rd4], %%%s12; st.global.b%u [%%rd4+8], %%%s13;",
               W, r, W, r, ty, r, r, r, ty, r, r, r, W, r, W, r);
      if (W == 16) /* %h<8>: registers 10-13 are not declared; use the b16 ones 2-5 */
        snprintf(code, sizeof code, "ld.global.b16 %%h2, [%%rd5]; ld.global.b16 %%h3, [%%rd5+8];"
                 " div.%s %%h4, %%h2, %%h3; rem.%s %%h5, %%h2, %%h3; st.global.b16 [%%rd4], %%h4;"
                 " st.global.b16 [%%rd4+8], %%h5;", ty, ty);
      for (unsigned t = 0; t < 32; t++) {
        int64_t a = a_of[t % 8], b = b_of[(t / 8 + t) % 6];
        if (W < 64 && a == INT64_MAX) a = sg ? (int64_t)(m >> 1) : (int64_t)m;
        if (W < 64 && a == INT64_MIN) a = sg ? -(int64_t)(m >> 1) - 1 : 0;
        in[t * 4] = (uint64_t)a & m;
        in[t * 4 + 1] = (uint64_t)b & m;
      }
      memset(out, 0, sizeof out);
      tc5_diag dg;
      tc5_status st = run2(k2("", code), 1, 1, out, sizeof out, in, sizeof in, &dg);
      if (st) fail_msg("div/rem.%s: %s", ty, dg.count ? dg.issue[0].message : tc5_strerror(st));
      for (unsigned t = 0; t < 32; t++) {
        uint64_t a = in[t * 4], b = in[t * 4 + 1], q, rm;
        int64_t x = (int64_t)(a << (64 - W)) >> (64 - W), y = (int64_t)(b << (64 - W)) >> (64 - W);
        if (b == 0) q = rm = m;
        else if (!sg) q = a / b, rm = a % b;
        else if (y == -1) q = (0 - a) & m, rm = 0;
        else q = (uint64_t)(x / y) & m, rm = (uint64_t)(x % y) & m;
        if ((out[t * 4] & m) != q || (out[t * 4 + 1] & m) != rm)
          fail_msg("div/rem.%s 0x%llx by 0x%llx: 0x%llx, 0x%llx, want 0x%llx, 0x%llx", ty, (unsigned long long)a,
                   (unsigned long long)b, (unsigned long long)(out[t * 4] & m), (unsigned long long)(out[t * 4 + 1] & m),
                   (unsigned long long)q, (unsigned long long)rm);
      }
    }
}

/* the hints and no-op forms of the opcode table that no kernel of the
 * corpora uses (issue 51's index: every row has a test): ldu, prefetchu,
 * membar at each scope, nanosleep leave the values as they are; brkpt is
 * an error when executed */
static void test_hints(void **state) {
  (void)state;
  uint64_t in[32 * 4], out[32 * 4];
  for (unsigned t = 0; t < 32 * 4; t++) in[t] = 0x1234567800000000ull + t;
  memset(out, 0, sizeof out);
  tc5_diag dg;
  tc5_status st = run2(k2("", "ldu.global.u64 %rd10, [%rd5]; prefetchu.L1 [%rd5]; membar.cta; membar.gl; membar.sys;"
                              " nanosleep.u32 100; st.global.b64 [%rd4], %rd10;"),
                       1, 1, out, sizeof out, in, sizeof in, &dg);
  if (st) fail_msg("hints: %s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  for (unsigned t = 0; t < 32; t++) assert_int_equal(out[t * 4], in[t * 4]);
  assert_int_equal(run2(k2("", "brkpt;"), 1, 1, out, sizeof out, in, sizeof in, &dg), TC5_EILLEGAL);
}

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
    const char *code;
    tc5_status st; /* the status, where a case names it (0: any error) */
    const char *msg;
  } bad[] = {
      {"max.f32 %f1, %f2, %f3, %f4, %f5;", 0, "operands"},
      {"max.xorsign.abs.f32 %f1, %f2, %f3, %f4;", 0, "three-input max takes .abs, not .xorsign.abs"},
      {"max.f64 %rd1, %rd2, %rd3, %rd4;", 0, "three-input max takes .f32 only"},
      {"min.abs.f32 %f1, %f2, %f3;", 0, "two-input min takes .xorsign.abs"},
      {"min.xorsign.f32 %f1, %f2, %f3;", 0, ".xorsign needs .abs"},
      {"add.NaN.f32 %f1, %f2, %f3;", 0, ".NaN/.xorsign/.abs belong to min and max"},
      {"div.rn.f32x2 %rd1, %rd2, %rd3;", 0, "div has no .f32x2 form"},
      {"max.f32x2 %rd1, %rd2, %rd3;", 0, "max has no .f32x2 form"},
      {"add.f32x2 %rd1, %rd2;", 0, "operands"},
      {"redux.sync.add.f32 %r1, %r2, 0xffffffff;", 0, "redux.sync.add has no .f32 form"},
      {"redux.sync.and.u32 %r1, %r2, 0xffffffff;", 0, "redux.sync.and takes .b32"},
      {"redux.sync.min.s64 %rd1, %rd2, 0xffffffff;", 0, "redux.sync.min takes .u32/.s32"},
      {"redux.sync.min.abs.u32 %r1, %r2, 0xffffffff;", 0, ".abs/.NaN belong to redux.sync's .f32 forms"},
      {"redux.add.u32 %r1, %r2, 0xffffffff;", 0, "needs .sync"},
      {"mov.b128 %q1, {%rd1, %rd2, %rd3};", 0, "2 (.b64) or 4 (.b32) elements"},
      {"mov.b128 %rd1, %q1;", 0, "must be a .b128 register"},
      {"atom.global.add.b128 %q1, [%rd1], %q2;", 0, ".b128 takes atom.exch and atom.cas only"},
      {"max.relu.u16x2 %r1, %r2, %r3;", 0, ".relu belongs to min/max .s16x2"},
      {"add.relu.s16x2 %r1, %r2, %r3;", 0, ".relu belongs to min/max .s16x2"},
      {"min.relu.u32 %r1, %r2, %r3;", 0, ".relu belongs to min/max .s16x2 and .s32"},
      {"add.relu.s32 %r1, %r2, %r3;", 0, ".relu belongs to min/max .s16x2 and .s32"},
      {"mul.lo.u16x2 %r1, %r2, %r3;", 0, "needs a type"},
      {"atom.global.add.f16 %h1, [%rd1], %h2;", 0, ".noftz is required with f16/bf16 types"},
      {"atom.global.add.noftz.f32 %f1, [%rd1], %f2;", 0, ".noftz belongs to .add of .f16/.f16x2/.bf16/.bf16x2"},
      {"atom.global.max.noftz.bf16 %h1, [%rd1], %h2;", 0, "the f16/bf16 types take .add.noftz only"},
      {"atom.global.exch.b16 %h1, [%rd1], %h2;", 0, "16-bit atomics are atom.cas.b16 and .add.noftz.{f16,bf16}"},
      {"red.global.cas.b16 [%rd1], %h1, %h2;", 0, "16-bit atomics are atom.cas.b16"},
      {"atom.global.exch.b128 %rd3, [%rd1], %q2;", 0, "must be a .b128 register"},
      {"st.async.shared::cluster.b32 [%r1], %r2;", 0, "needs .mbarrier::complete_tx::bytes"},
      {"st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b64 [%r1], {%rd1, %rd2, %rd3, %rd4}, [%r3];", 0,
       ".v4 32-bit only"},
      {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.f32 [%r1], %f2, [%r3];", 0,
       "red.async.add does not take .f32"},
      {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.s32 [%r1], %r2, [%r3];", 0,
       "red.async.inc does not take .s32"},
      {"cvt.rn.e4m3x2.u32 %h1, %r1;", 0, "an integer converts to .f16/.bf16/.f32/.f64"},
      {"cvt.f16.u32 %h1, %r1;", 0, "integer to float needs .rn/.rz/.rm/.rp"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x2.f32 {%r1, %r2}, %r3, [%r4];", 0, "needs .min or .max"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x2.min.b32 {%r1, %r2}, %r3, [%r4];", 0, "needs .f32, .u32 or .s32"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x1.min.u32 {%r1}, %r3, [%r4];", 0, "x2"},
      {"tcgen05.ld.red.sync.aligned.32x32b.x2.max.f32 {%r1, %r2}, [%r4];", 0, "operands"},
      {"tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%r4], {%r1}, 16;", 0, "integer"},
      {"wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%r1}, %rd1, %rd2, %p1;", 0, "N in {8, 16, 24, 32, 48"},
      {"wgmma.mma_async.sync.aligned.m64n8k32.f32.s8.u8 {%r1}, %rd1, %rd2, %p1;", 0, "integer wgmma takes .s32 D"},
      {"elect.sync %r1, 0xffffffff;", 0, "the predicate p is mandatory"},
      {"elect.sync _, 0xffffffff;", 0, "the predicate p is mandatory"},
      {"add.sat.f32x2 %rd1, %rd2, %rd3;", 0, ".f32x2 takes no .sat"},
      {"fma.f32x2 %rd1, %rd2, %rd3, %rd4;", 0, "fma.f32x2 needs a rounding modifier"},
      {"fma.f32.bf16 %r1, %h1, %h2, %r2;", 0, "fma.f32.bf16 needs a rounding modifier"},
      {"ex2.ftz.f32 %f1, %f2;", 0, "ex2 needs .approx"},
      {"rcp.approx.rn.f32 %f1, %f2;", 0, "rcp.approx takes no rounding modifier"},
      {"div.approx.rn.f32 %f1, %f2, %f3;", 0, ".approx/.full belong to div.approx"},
      {"sin.approx.f64 %rd1, %rd2;", 0, "sin.approx.f64: no model of this approximate instruction"},
      {"mul.rn.f32.bf16 %r1, %h1, %r2;", 0, "a second type belongs to add/sub/fma"},
      {"add.ftz.f32.f16 %r1, %h1, %r2;", 0, "takes a rounding modifier and .sat only"},
      /* issue 37's instructions */
      {"setp.eq.f16x2 %p1, %r10, %r11;", TC5_EPARSE, "p|q"},
      {"setp.eq.ftz.bf16x2 %p1|%p2, %r10, %r11;", TC5_EILLEGAL, "no .ftz"},
      {"setp.lo.f16x2 %p1|%p2, %r10, %r11;", TC5_EILLEGAL, "integers only"},
      {"cvt.rz.satfinite.e4m3x2.f16x2 %h1, %r10;", TC5_EILLEGAL, ".rn only"},
      {"copysign.f16 %h1, %h2, %h3;", TC5_EPARSE, "copysign takes .f32 or .f64"},
      {"addc.u16 %h1, %h2, %h3;", TC5_EILLEGAL, "takes .u32, .s32, .u64 or .s64"},
      {"mad.cc.u32 %r10, %r11, %r12, %r13;", TC5_EPARSE, "needs one of .lo, .hi"},
      {"add.cc.lo.u32 %r10, %r11, %r12;", TC5_EPARSE, "takes no .lo/.hi"},
      {"createpolicy.fractional.b64 %rd10, 1.0;", TC5_EPARSE, "needs .L2::priority"},
      /* issue 50's vector atom/red */
      {"atom.global.add.v8.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};",
       TC5_EILLEGAL, ".v8 takes .f16 and .bf16"},
      {"red.global.max.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};", TC5_EILLEGAL, "vector red.f32 takes .add, not .max"},
      {"red.global.add.noftz.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};", TC5_EILLEGAL, ".noftz belongs to the f16/bf16 types"},
      {"red.global.add.v2.f16 [%rd1], {%h1, %h2};", TC5_EILLEGAL, ".noftz is required with f16/bf16 types"},
      {"red.global.exch.noftz.v2.bf16 [%rd1], {%h1, %h2};", TC5_EILLEGAL, "takes .add, .min and .max, not .exch"},
      {"red.global.add.v2.u32 [%rd1], {%r1, %r2};", TC5_EILLEGAL, "not .u32"},
      {"red.shared.add.v2.f32 [%rd1], {%f1, %f2};", TC5_EILLEGAL, "works on .global memory"},
      {"atom.global.add.v4.f32 %f1, [%rd1], {%f1, %f2, %f3, %f4};", TC5_EPARSE, "must be a vector"},
      {"atom.global.add.v4.f32 {%f1, %f2}, [%rd1], {%f1, %f2, %f3, %f4};", 0, "4"},
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
    if (bad[i].st && st != bad[i].st) fail_msg("%s: status %d, want %d", bad[i].code, (int)st, (int)bad[i].st);
    if (!strstr(dg.issue[0].message, bad[i].msg))
      fail_msg("%s: '%s' does not say '%s'", bad[i].code, dg.issue[0].message, bad[i].msg);
  }
}

/* tcgen05.commit with no state space (issue 52): Triton 3.3-3.6 pass the
 * mbarrier's 32-bit shared offset zero-extended (cvt.u64.u32); ptxas gives
 * the instruction the generic address's low 32 bits (UTCBAR [UR]: no
 * conversion in the SASS), so the offset and the shared window's generic
 * address name the same mbarrier; a global address is refused */
static void test_commit_generic(void **state) {
  (void)state;
  static const char *form[] = {
      "cvt.u64.u32 %rd10, %r10;",           /* Triton 3.6's form */
      "cvta.shared.u64 %rd10, %rd11;",      /* a generic address of the window */
      "mov.u64 %rd10, %rd11;",              /* .shared::cluster below, the offset */
  };
  for (unsigned f = 0; f < 3; f++) {
    char code[2048];
    snprintf(code, sizeof code,
             "mov.u32 %%r10, bar; mov.u64 %%rd11, bar; setp.eq.u32 %%p1, %%r1, 0;"
             "@%%p1 mbarrier.init.shared::cta.b64 [%%r10], 1; bar.sync 0; %s"
             "@%%p1 tcgen05.commit.cta_group::1.mbarrier::arrive::one%s.b64 [%%rd10];\n"
             "W: mbarrier.try_wait.parity.shared::cta.b64 %%p2, [%%r10], 0; @!%%p2 bra W;"
             "st.global.b32 [%%rd4], 7;",
             form[f], f == 2 ? ".shared::cluster" : "");
    uint32_t out[32 * 8] = {0}, in[32 * 8] = {0};
    tc5_diag dg;
    tc5_status st = run2(k2(".shared .align 8 .b64 bar;\n", code), 1, 1, out, sizeof out, in, sizeof in, &dg);
    if (st) fail_msg("form %u: %s", f, dg.count ? dg.issue[0].message : tc5_strerror(st));
    for (unsigned t = 0; t < 32; t++) assert_int_equal(out[t * 8], 7);
  }
  uint32_t out[32 * 8] = {0}, in[32 * 8] = {0};
  tc5_diag dg;
  tc5_status st = run2(k2("", "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%rd4];"), 1, 1, out, sizeof out,
                       in, sizeof in, &dg);
  assert_int_equal(st, TC5_EILLEGAL);
  assert_non_null(strstr(dg.issue[0].message, "is not a shared-memory address of the cluster"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_f32x2),      cmocka_unit_test(test_mixed_precision), cmocka_unit_test(test_minmax),          cmocka_unit_test(test_redux),
      cmocka_unit_test(test_b128),       cmocka_unit_test(test_atom16), cmocka_unit_test(test_int16x2), cmocka_unit_test(test_testp), cmocka_unit_test(test_copysign), cmocka_unit_test(test_dp4a), cmocka_unit_test(test_int_div_by_zero), cmocka_unit_test(test_hints), cmocka_unit_test(test_createpolicy), cmocka_unit_test(test_carry),       cmocka_unit_test(test_st_async),        cmocka_unit_test(test_cvt_int_to_half),
      cmocka_unit_test(test_elect_sink), cmocka_unit_test(test_bad_forms),   cmocka_unit_test(test_target_feature),
      cmocka_unit_test(test_sfu_in_runner), cmocka_unit_test(test_shared_wrap), cmocka_unit_test(test_commit_generic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
