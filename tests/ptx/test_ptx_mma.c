/* tc5 tests — mma.sync.aligned in the runner (issue 37).
 *
 * Fragments: every modelled shape and type runs on operands whose elements
 * are small integers (every product and sum exact in every format, so any
 * rounding gives the same D), placed in the registers by the PTX ISA's
 * fragment text restated here element by element ("Matrix Fragments for
 * mma.m16n8k*": a_i, b_i, c_i with groupID and threadID_in_group), and D
 * is compared with the plain product. A wrong lane or register mapping in
 * the runner moves elements and changes D.
 *
 * Exact products: hand-worked single elements that tell the model's rules
 * apart (F = 25 truncation, f32 out toward zero, f16 out to nearest even,
 * .satfinite against wrapping, tf32 ignoring the low 13 bits, f64 as fma in
 * k order), on sm_90a and sm_100a. And the refusals by name. */
#include <math.h>

#include "testutil.h"
#include "tc5/ptx.h"

typedef struct shape {
  const char *qual; /* after mma.sync.aligned. */
  unsigned M, N, K;
  unsigned na, nb, nd; /* registers */
  char kind;           /* 'h' f16, 'b' bf16, 't' tf32, 's' s8/u8, 'd' f64 */
  bool d16;            /* f16 C / D */
  bool a_unsigned, b_unsigned, satf;
} shape;

static const shape SHAPES[] = {
    {"m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, 4, 2, 4, 'h', false, false, false, false},
    {"m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, 4, 2, 4, 'b', false, false, false, false},
    {"m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, 4, 2, 2, 'h', true, false, false, false},
    {"m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, 2, 1, 4, 'h', false, false, false, false},
    {"m16n8k8.row.col.f32.bf16.bf16.f32", 16, 8, 8, 2, 1, 4, 'b', false, false, false, false},
    {"m16n8k8.row.col.f16.f16.f16.f16", 16, 8, 8, 2, 1, 2, 'h', true, false, false, false},
    {"m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, 4, 2, 4, 't', false, false, false, false},
    {"m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, 2, 1, 4, 't', false, false, false, false},
    {"m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, 4, 2, 4, 's', false, false, false, false},
    {"m16n8k32.row.col.satfinite.s32.u8.s8.s32", 16, 8, 32, 4, 2, 4, 's', false, true, false, true},
    {"m16n8k16.row.col.s32.s8.u8.s32", 16, 8, 16, 2, 1, 4, 's', false, false, true, false},
    {"m16n8k16.row.col.satfinite.s32.u8.u8.s32", 16, 8, 16, 2, 1, 4, 's', false, true, true, true},
    {"m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, 1, 1, 2, 'd', false, false, false, false},
};

/* the kernel: each lane loads its na + nb + nd registers from A, B, C
 * (X[r * 32 + lane], 32-bit or, for f64, 64-bit words), runs the mma and
 * stores D the same way */
static char *kernel(const shape *s, const char *target) {
  static char text[1 << 14];
  bool f64 = s->kind == 'd';
  const char *ty = f64 ? "b64" : "b32", *rg = f64 ? "%fd" : "%r";
  unsigned w = f64 ? 8 : 4;
  int n = snprintf(text, sizeof text,
                   ".version 8.7\n.target %s\n.address_size 64\n"
                   ".visible .entry k(.param .u64 A, .param .u64 B, .param .u64 C, .param .u64 D) {\n"
                   " .reg .b32 %%r<64>; .reg .b64 %%rd<16>; .reg .f64 %%fd<64>;\n"
                   " ld.param.u64 %%rd1, [A]; ld.param.u64 %%rd2, [B]; ld.param.u64 %%rd3, [C]; ld.param.u64 %%rd4, [D];\n"
                   " mov.u32 %%r60, %%tid.x; mul.wide.u32 %%rd5, %%r60, %u;\n"
                   " add.s64 %%rd1, %%rd1, %%rd5; add.s64 %%rd2, %%rd2, %%rd5; add.s64 %%rd3, %%rd3, %%rd5; add.s64 %%rd4, %%rd4, %%rd5;\n",
                   target, w);
  /* registers: A at 10.., B at 20.., C at 30.., D at 40.. */
  for (unsigned r = 0; r < s->na; r++) n += snprintf(text + n, sizeof text - n, " ld.global.%s %s%u, [%%rd1+%u];\n", ty, rg, 10 + r, 32 * w * r);
  for (unsigned r = 0; r < s->nb; r++) n += snprintf(text + n, sizeof text - n, " ld.global.%s %s%u, [%%rd2+%u];\n", ty, rg, 20 + r, 32 * w * r);
  for (unsigned r = 0; r < s->nd; r++) n += snprintf(text + n, sizeof text - n, " ld.global.%s %s%u, [%%rd3+%u];\n", ty, rg, 30 + r, 32 * w * r);
  n += snprintf(text + n, sizeof text - n, " mma.sync.aligned.%s {", s->qual);
  for (unsigned r = 0; r < s->nd; r++) n += snprintf(text + n, sizeof text - n, "%s%s%u", r ? ", " : "", rg, 40 + r);
  n += snprintf(text + n, sizeof text - n, "}, {");
  for (unsigned r = 0; r < s->na; r++) n += snprintf(text + n, sizeof text - n, "%s%s%u", r ? ", " : "", rg, 10 + r);
  n += snprintf(text + n, sizeof text - n, "}, {");
  for (unsigned r = 0; r < s->nb; r++) n += snprintf(text + n, sizeof text - n, "%s%s%u", r ? ", " : "", rg, 20 + r);
  n += snprintf(text + n, sizeof text - n, "}, {");
  for (unsigned r = 0; r < s->nd; r++) n += snprintf(text + n, sizeof text - n, "%s%s%u", r ? ", " : "", rg, 30 + r);
  n += snprintf(text + n, sizeof text - n, "};\n");
  for (unsigned r = 0; r < s->nd; r++) n += snprintf(text + n, sizeof text - n, " st.global.%s [%%rd4+%u], %s%u;\n", ty, 32 * w * r, rg, 40 + r);
  snprintf(text + n, sizeof text - n, " ret;\n}\n");
  return text;
}

static tc5_status run_mma(const shape *s, const char *target, const void *A, const void *B, const void *C, void *D,
                          tc5_diag *dg) {
  const char *text = kernel(s, target);
  tc5_ptx_module *m;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_load(text, strlen(text), "mma.ptx", &m, dg);
  if (st) return st;
  size_t w = s->kind == 'd' ? 8 : 4;
  tc5_ptx_arg args[4] = {{.kind = TC5_PTX_ARG_BUFFER, .data = (void *)A, .bytes = s->na * 32 * w},
                         {.kind = TC5_PTX_ARG_BUFFER, .data = (void *)B, .bytes = s->nb * 32 * w},
                         {.kind = TC5_PTX_ARG_BUFFER, .data = (void *)C, .bytes = s->nd * 32 * w},
                         {.kind = TC5_PTX_ARG_BUFFER, .data = D, .bytes = s->nd * 32 * w}};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 32;
  cfg.threads = 1;
  st = tc5_ptx_launch(m, &cfg, args, 4, NULL, dg);
  tc5_ptx_free(m);
  return st;
}

/* ---- the PTX ISA's fragments, restated per element index i of a thread's
 * fragment (the registers' elements in order, low half / byte first) ---- */
static unsigned per_reg(const shape *s) { return s->kind == 'h' || s->kind == 'b' ? 2 : s->kind == 's' ? 4 : 1; }
/* a_i: (row, col) */
static void isa_a(const shape *s, unsigned lane, unsigned i, unsigned *row, unsigned *col) {
  unsigned g = lane >> 2, t = lane % 4, e = per_reg(s);
  if (s->kind == 'd') { /* m8n8k4 .f64: row groupID, col threadID_in_group */
    *row = g;
    *col = t;
  } else if (s->kind == 't') { /* tf32: a0 a2 row g, a1 a3 row g+8; a0 a1 col t, a2 a3 col t+4 */
    *row = i % 2 ? g + 8 : g;
    *col = i < 2 ? t : t + 4;
  } else { /* 16-bit (e = 2) and 8-bit (e = 4): rows g / g+8 alternate per register, K's upper half from a_{2e} */
    *row = (i / e) % 2 ? g + 8 : g;
    *col = t * e + (i % e) + (i >= 2 * e ? s->K / 2 : 0);
  }
}
/* b_i: (k, n) */
static void isa_b(const shape *s, unsigned lane, unsigned i, unsigned *k, unsigned *n) {
  unsigned g = lane >> 2, t = lane % 4, e = per_reg(s);
  *n = g;
  if (s->kind == 'd') *k = t;
  else if (s->kind == 't') *k = i ? t + 4 : t;
  else *k = t * e + (i % e) + (i >= e ? s->K / 2 : 0);
}
/* c_i: (row, col) */
static void isa_c(const shape *s, unsigned lane, unsigned i, unsigned *row, unsigned *col) {
  unsigned g = lane >> 2, t = lane % 4;
  *row = i < 2 ? g : g + 8;
  *col = t * 2 + (i & 1);
  (void)s;
}

static uint16_t f16_of_int(int v) { /* small integers, exact */
  if (!v) return 0;
  unsigned a = (unsigned)abs(v), e = 0;
  while ((a >> e) > 1) e++;
  uint16_t m = (uint16_t)(((a << 10) >> e) & 0x3ff);
  return (uint16_t)((v < 0 ? 0x8000 : 0) | (e + 15) << 10 | m);
}
static uint32_t f32_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static float f32_of(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static int f16_to_int(uint16_t h) {
  if (!(h & 0x7fff)) return 0;
  int e = ((h >> 10) & 31) - 15;
  int v = (int)((0x400 | (h & 0x3ff)) << 3) >> (13 - e); /* integers below 2^10 */
  return h & 0x8000 ? -v : v;
}

/* element code of a small integer in the shape's A/B type */
static uint32_t code_of(const shape *s, int v, bool is_unsigned) {
  switch (s->kind) {
  case 'h': return f16_of_int(v);
  case 'b': return f32_bits((float)v) >> 16;
  case 't': return f32_bits((float)v) | 0x1234; /* low 13 bits: the MMA ignores them */
  default: return (uint32_t)(is_unsigned ? (uint8_t)v : (uint8_t)(int8_t)v);
  }
}

static void test_mma_fragments(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 37);
  for (unsigned si = 0; si < sizeof SHAPES / sizeof SHAPES[0]; si++) {
    const shape *s = &SHAPES[si];
    for (int arch = 0; arch < 2; arch++)
      for (int rep = 0; rep < 3; rep++) {
        int A[16][32], B[32][8], C[16][8];
        uint64_t ra[4][32] = {{0}}, rb[2][32] = {{0}}, rc[4][32] = {{0}};
        unsigned e = per_reg(s);
        bool integer = s->kind == 's';
        for (unsigned m = 0; m < s->M; m++)
          for (unsigned k = 0; k < s->K; k++)
            A[m][k] = integer ? (s->a_unsigned ? (int)rng_below(&r, 256) : (int)rng_below(&r, 256) - 128)
                              : (int)rng_below(&r, 7) - 3;
        for (unsigned k = 0; k < s->K; k++)
          for (unsigned n = 0; n < s->N; n++)
            B[k][n] = integer ? (s->b_unsigned ? (int)rng_below(&r, 256) : (int)rng_below(&r, 256) - 128)
                              : (int)rng_below(&r, 7) - 3;
        for (unsigned m = 0; m < s->M; m++)
          for (unsigned n = 0; n < s->N; n++) C[m][n] = integer ? (int)rng_below(&r, 1u << 20) - (1 << 19) : (int)rng_below(&r, 41) - 20;
        for (unsigned l = 0; l < 32; l++) {
          for (unsigned i = 0; i < s->na * e; i++) {
            unsigned row, col;
            isa_a(s, l, i, &row, &col);
            if (s->kind == 'd') {
              double v = A[row][col];
              memcpy(&ra[i][l], &v, 8);
            } else {
              unsigned bits = 32 / e;
              ra[i / e][l] |= (uint64_t)code_of(s, A[row][col], s->a_unsigned) << (bits * (i % e));
            }
          }
          for (unsigned i = 0; i < s->nb * e; i++) {
            unsigned k, n;
            isa_b(s, l, i, &k, &n);
            if (s->kind == 'd') {
              double v = B[k][n];
              memcpy(&rb[i][l], &v, 8);
            } else {
              unsigned bits = 32 / e;
              rb[i / e][l] |= (uint64_t)code_of(s, B[k][n], s->b_unsigned) << (bits * (i % e));
            }
          }
          unsigned nc = s->kind == 'd' ? 2 : 4;
          for (unsigned i = 0; i < nc; i++) {
            unsigned row, col;
            isa_c(s, l, i, &row, &col);
            if (s->kind == 'd') {
              double v = C[row][col];
              memcpy(&rc[i][l], &v, 8);
            } else if (s->d16) {
              rc[i / 2][l] |= (uint64_t)f16_of_int(C[row][col]) << (16 * (i % 2));
            } else {
              rc[i][l] = integer ? (uint32_t)C[row][col] : f32_bits((float)C[row][col]);
            }
          }
        }
        /* packed into the kernel's buffers: X[r * 32 + lane] */
        uint32_t a32[4 * 32], b32[2 * 32], c32[4 * 32], d32[4 * 32];
        uint64_t a64[32], b64[32], c64[2 * 32], d64[2 * 32];
        for (unsigned q = 0; q < 4; q++)
          for (unsigned l = 0; l < 32; l++) {
            a32[q * 32 + l] = (uint32_t)ra[q][l];
            c32[q * 32 + l] = (uint32_t)rc[q][l];
            if (q < 2) {
              b32[q * 32 + l] = (uint32_t)rb[q][l];
              c64[q * 32 + l] = rc[q][l];
            }
            if (!q) {
              a64[l] = ra[0][l];
              b64[l] = rb[0][l];
            }
          }
        tc5_diag dg;
        bool f64 = s->kind == 'd';
        tc5_status st = run_mma(s, arch ? "sm_100a" : "sm_90a", f64 ? (void *)a64 : a32, f64 ? (void *)b64 : b32,
                                f64 ? (void *)c64 : c32, f64 ? (void *)d64 : d32, &dg);
        if (st) fail_msg("%s: %s", s->qual, dg.count ? dg.issue[0].message : tc5_strerror(st));
        unsigned nc = f64 ? 2 : 4;
        for (unsigned l = 0; l < 32; l++)
          for (unsigned i = 0; i < nc; i++) {
            unsigned row, col;
            isa_c(s, l, i, &row, &col);
            int64_t want = C[row][col];
            for (unsigned k = 0; k < s->K; k++) want += (int64_t)A[row][k] * B[k][col];
            if (integer) {
              if (s->satf) want = want > INT32_MAX ? INT32_MAX : want < INT32_MIN ? INT32_MIN : want;
              want = (int32_t)(uint32_t)want;
            }
            int64_t got;
            if (f64) {
              double v;
              memcpy(&v, &d64[i * 32 + l], 8);
              got = (int64_t)v;
            } else if (s->d16) {
              got = f16_to_int((uint16_t)(d32[(i / 2) * 32 + l] >> (16 * (i % 2))));
            } else if (integer) {
              got = (int32_t)d32[i * 32 + l];
            } else {
              got = (int64_t)f32_of(d32[i * 32 + l]);
            }
            if (got != want)
              fail_msg("%s (%s): lane %u c%u = D[%u][%u]: %lld, the plain product %lld", s->qual, arch ? "sm_100a" : "sm_90a",
                       l, i, row, col, (long long)got, (long long)want);
          }
      }
  }
}

/* one element, D[0][0] = sum_k A[0][k] B[k][0] + C[0][0] (others zero):
 * A[0][k] is lane 0's a-element k for k < 2e and, for k >= K/2, its
 * a-element 2e + ..., the runner's fragments having been pinned above; here
 * the codes are placed through isa_a/isa_b */
static uint64_t one_element(const shape *s, const char *target, const uint64_t *acodes, const uint64_t *bcodes,
                            uint64_t c, tc5_diag *dg, tc5_status *st) {
  uint32_t a32[4 * 32] = {0}, b32[2 * 32] = {0}, c32[4 * 32] = {0}, d32[4 * 32];
  uint64_t a64[32] = {0}, b64[32] = {0}, c64[2 * 32] = {0}, d64[2 * 32];
  unsigned e = per_reg(s), bits = 32 / e;
  bool f64 = s->kind == 'd';
  for (unsigned l = 0; l < 32; l++) {
    for (unsigned i = 0; i < s->na * e; i++) {
      unsigned row, col;
      isa_a(s, l, i, &row, &col);
      if (row) continue;
      if (f64) a64[l] = acodes[col];
      else a32[(i / e) * 32 + l] |= (uint32_t)(acodes[col] << (bits * (i % e)));
    }
    for (unsigned i = 0; i < s->nb * e; i++) {
      unsigned k, n;
      isa_b(s, l, i, &k, &n);
      if (n) continue;
      if (f64) b64[l] = bcodes[k];
      else b32[(i / e) * 32 + l] |= (uint32_t)(bcodes[k] << (bits * (i % e)));
    }
  }
  if (f64) c64[0] = c; /* lane 0's c0 is D[0][0] */
  else c32[0] = (uint32_t)c;
  *st = run_mma(s, target, f64 ? (void *)a64 : a32, f64 ? (void *)b64 : b32, f64 ? (void *)c64 : c32,
                f64 ? (void *)d64 : d32, dg);
  return f64 ? d64[0] : s->d16 ? d32[0] & 0xffff : d32[0];
}

static void test_mma_exact(void **state) {
  (void)state;
  static const struct {
    unsigned shape; /* index in SHAPES */
    const char *what;
    uint64_t a[32], b[32]; /* A row 0, B column 0 (K elements; the rest 0) */
    uint64_t c, want;
  } cases[] = {
      /* 2^24 + 3: f32 toward zero gives 2^24 + 2 (to nearest would give 2^24 + 4) */
      {0, "f32 out toward zero", {0x4200}, {0x3c00}, 0x4b800000, 0x4b800001},
      /* sixteen products of 2^-26 beside C = 1: each truncated at 2^(0-25) to 0, so D = 1 (the exact sum is 1 + 2^-22) */
      {0,
       "F = 25: products below 2^-25 of the largest term vanish",
       {0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800},
       {0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800, 0x0800},
       0x3f800000,
       0x3f800000},
      /* bf16: the same with 2^-13 = 0x3900 */
      {1,
       "bf16, F = 25",
       {0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900},
       {0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900, 0x3900},
       0x3f800000,
       0x3f800000},
      /* f16 out: 2048 + 3 = 2051, a tie between 2050 and 2052: to nearest even 2052 (0x6802) */
      {2, "f16 out to nearest even", {0x4200}, {0x3c00}, 0x6800, 0x6802},
      /* tf32: 1 + 2^-23 with the low 13 bits set reads as 1 */
      {6, "tf32 ignores the low 13 bits", {0x3f801fff}, {0x3f800000}, 0, 0x3f800000},
      /* s8: C = INT32_MAX - 10, one product 127 * 1: wraps */
      {8, "s32 wraps", {127}, {1}, 0x7ffffff5, 0x80000074},
      /* u8 x s8 .satfinite: the same clamps at INT32_MAX */
      {9, ".satfinite clamps", {127}, {1}, 0x7ffffff5, 0x7fffffff},
      /* f64: fma in k order from C = 1: 2^53 + 1 -> 2^53, + 1 -> 2^53, - 2^53 -> 0, + 0: D = 0 (the exact sum is 2) */
      {12,
       "f64: fma in k order",
       {0x4340000000000000, 0x3ff0000000000000, 0xc340000000000000, 0},
       {0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0},
       0x3ff0000000000000,
       0},
  };
  for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int arch = 0; arch < 2; arch++) {
      tc5_diag dg;
      tc5_status st;
      uint64_t got = one_element(&SHAPES[cases[c].shape], arch ? "sm_100a" : "sm_90a", cases[c].a, cases[c].b, cases[c].c, &dg, &st);
      if (st) fail_msg("%s: %s", cases[c].what, dg.count ? dg.issue[0].message : tc5_strerror(st));
      if (got != cases[c].want)
        fail_msg("%s (%s): D[0][0] = 0x%llx, the model's 0x%llx", cases[c].what, arch ? "sm_100a" : "sm_90a",
                 (unsigned long long)got, (unsigned long long)cases[c].want);
    }
}

/* what the model does not cover is refused by name, at load */
static void test_mma_refused(void **state) {
  (void)state;
  static const struct {
    const char *target, *insn, *msg;
  } bad[] = {
      {"sm_90a", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1,%r2,%r3,%r4};", "[mma-fp8-arith]"},
      {"sm_80", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1,%r2,%r3,%r4};", "[mma-arch]"},
      {"sm_100a", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1,%r2};", "not modelled"},
      {"sm_100a", "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2}, {%r1,%r2}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8};", "not modelled"},
      {"sm_100a", "mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1,%r2,%r3,%r4};", ".satfinite"},
      {"sm_100a", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1,%r2,%r3,%r4};", "elements"},
  };
  for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char text[2048];
    snprintf(text, sizeof text,
             ".version 8.7\n.target %s\n.address_size 64\n.visible .entry k() {\n .reg .b32 %%r<16>;\n %s\n ret;\n}\n",
             bad[k].target, bad[k].insn);
    tc5_ptx_module *m = NULL;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_ptx_load(text, strlen(text), "bad.ptx", &m, &dg);
    if (!st) {
      tc5_ptx_free(m);
      fail_msg("accepted: %s", bad[k].insn);
    }
    if (!dg.count || !strstr(dg.issue[0].message, bad[k].msg))
      fail_msg("%s: the message '%s' does not say '%s'", bad[k].insn, dg.count ? dg.issue[0].message : "", bad[k].msg);
  }
}

/* part of a warp at an mma.sync: an error, not a result from the others' registers */
static void test_mma_partial_warp(void **state) {
  (void)state;
  const char *text =
      ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k() {\n .reg .b32 %r<16>; .reg .pred %p1;\n"
      " mov.u32 %r1, %tid.x; setp.lt.u32 %p1, %r1, 16;\n"
      " @%p1 bra DONE;\n"
      " mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r2,%r3,%r4,%r5}, {%r6,%r7,%r8,%r9}, {%r10,%r11}, {%r2,%r3,%r4,%r5};\n"
      "DONE:\n ret;\n}\n";
  tc5_ptx_module *m;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_load(text, strlen(text), "p.ptx", &m, &dg), TC5_OK);
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 32;
  cfg.threads = 1;
  tc5_diag_init(&dg);
  tc5_status st = tc5_ptx_launch(m, &cfg, NULL, 0, NULL, &dg);
  tc5_ptx_free(m);
  assert_int_not_equal(st, TC5_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mma_fragments),
      cmocka_unit_test(test_mma_exact),
      cmocka_unit_test(test_mma_refused),
      cmocka_unit_test(test_mma_partial_warp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
