/* tc5 tests — the PTX runner: parsing and its errors, instruction
 * semantics checked against values worked out by hand from the PTX ISA,
 * divergence and reconvergence, warp-collective rules, and every kernel
 * error (bounds, alignment, deadlock, hang, .aligned with part of a warp). */
#include "testutil.h"
#include "tc5/ptx.h"

static const char *head = ".version 8.7\n.target sm_100a\n.address_size 64\n";

/* loads head + body; the status of tc5_ptx_load */
static tc5_status load(const char *body, tc5_ptx_module **m, tc5_diag *dg) {
  static char text[1 << 16];
  snprintf(text, sizeof text, "%s%s", head, body);
  tc5_diag_init(dg);
  return tc5_ptx_load(text, strlen(text), "t.ptx", m, dg);
}

static char printed[4096];
static size_t nprinted;
static void capture(void *ctx, const char *t, size_t n) {
  (void)ctx;
  if (nprinted + n < sizeof printed) {
    memcpy(printed + nprinted, t, n);
    nprinted += n;
    printed[nprinted] = 0;
  }
}

/* runs a kernel `k(.param .u64 out)` on block threads, grid ctas; out gets
 * `bytes` of zeroed buffer */
static tc5_status run1(const char *body, unsigned ctas, unsigned block, void *out, size_t bytes, tc5_diag *dg) {
  tc5_ptx_module *m;
  tc5_status st = load(body, &m, dg);
  if (st) return st;
  tc5_ptx_arg arg = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = bytes};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = ctas;
  cfg.block[0] = block;
  cfg.threads = 1;
  cfg.max_steps = 1u << 20;
  cfg.print = capture;
  nprinted = 0;
  printed[0] = 0;
  st = tc5_ptx_launch(m, &cfg, &arg, 1, NULL, dg);
  tc5_ptx_free(m);
  return st;
}

static bool has(const tc5_diag *dg, const char *s) {
  for (unsigned k = 0; k < dg->count; k++)
    if (strstr(dg->issue[k].message, s)) return true;
  return false;
}

#define KERNEL(decls, code)                                                              \
  ".visible .entry k(.param .u64 out) {\n .reg .pred %p<8>; .reg .b16 %h<8>; .reg .b32 %r<32>;" \
  " .reg .b64 %rd<16>; .reg .f32 %f<8>; .reg .f64 %fd<4>;\n" decls                      \
  " ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4;"          \
  " add.s64 %rd3, %rd1, %rd2;\n" code "\n ret;\n}\n"

/* ---- parsing ---- */
static void test_parse_errors(void **state) {
  (void)state;
  tc5_ptx_module *m;
  tc5_diag dg;
  assert_int_equal(load(KERNEL("", "frobnicate.b32 %r2, %r1;"), &m, &dg), TC5_EUNSUPPORTED);
  assert_true(has(&dg, "instruction 'frobnicate' is not modelled"));
  assert_true(has(&dg, "t.ptx:7:1: frobnicate.b32"));
  assert_int_equal(load(KERNEL("", "add.u32 %r2, %r1;"), &m, &dg), TC5_EPARSE);
  assert_true(has(&dg, "takes 3 operands, not 2"));
  assert_int_equal(load(KERNEL("", "add.u32 %r2, %r1, %nope;"), &m, &dg), TC5_EUNSUPPORTED);
  assert_int_equal(load(KERNEL("", "add.u32 %r2, %r1, undeclared;"), &m, &dg), TC5_EPARSE);
  assert_int_equal(load(KERNEL("", "add.u32.wobble %r2, %r1, 1;"), &m, &dg), TC5_EUNSUPPORTED);
  assert_true(has(&dg, "modifier .wobble"));
  assert_int_equal(load(KERNEL("", "bra $missing;"), &m, &dg), TC5_EPARSE);
  assert_int_equal(load(KERNEL("", "ex2.approx.f64 %fd1, %fd2;"), &m, &dg), TC5_EUNSUPPORTED); /* no such form */
  assert_true(has(&dg, "ex2.approx.f64: no model of this approximate instruction"));
  assert_int_equal(load(".visible .entry k( {", &m, &dg), TC5_EPARSE);
  assert_int_equal(load(".visible .entry k() { add.u32 %r1, %r1, 1; }", &m, &dg), TC5_EUNSUPPORTED);
  assert_int_equal(load("/* unterminated", &m, &dg), TC5_EPARSE);
  assert_int_equal(load(".bogus 1\n", &m, &dg), TC5_EUNSUPPORTED);
  /* tcgen05.ld/st's .num: a power of two to 128, digits only (the fuzzer's
   * .x32333333333 overflowed atoi, then shifted 1u by 32: UBSan; issue 39) */
  assert_int_equal(load(KERNEL("", "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r2}, [%r1];"), &m, &dg), TC5_OK);
  tc5_ptx_free(m);
  static const char *const nums[] = {"x32333333333", "x4294967296", "x4abc", "x0", "x3", "x256"};
  for (unsigned k = 0; k < 6; k++) {
    char body[160], want[80];
    snprintf(body, sizeof body, "tcgen05.ld.sync.aligned.32x32b.%s.b32 {%%r2}, [%%r1];", nums[k]);
    snprintf(want, sizeof want, ".%s is not a .num of Table 47/48", nums[k]);
    static char text[1024];
    const char *tpl = KERNEL("", "@@"), *at = strstr(tpl, "@@");
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - tpl), tpl, body, at + 2);
    assert_int_equal(load(text, &m, &dg), TC5_EILLEGAL);
    assert_true(has(&dg, want));
  }
  /* a scoping block's registers and labels are its own */
  assert_int_equal(load(KERNEL("", "{ .reg .pred p; L: setp.eq.u32 p, %r1, 0; @!p bra L; } { .reg .pred p; L: bra L; }"),
                        &m, &dg),
                   TC5_OK);
  tc5_ptx_free(m);
  assert_int_equal(load(KERNEL("", "{ .reg .b32 x; } mov.u32 x, 1;"), &m, &dg), TC5_EPARSE);
}

static void test_entry_info(void **state) {
  (void)state;
  tc5_ptx_module *m;
  tc5_diag dg;
  assert_int_equal(load(".shared .align 8 .b8 s1[10];\n.shared .align 64 .b8 s2[4];\n"
                        ".visible .entry e(.param .u64 .ptr .global .align 16 a, .param .u32 n) .reqntid 64 { ret; }",
                        &m, &dg),
                   TC5_OK);
  unsigned n;
  const char *name;
  tc5_ptx_param_info p[4];
  uint32_t stat, req[3];
  assert_int_equal(tc5_ptx_entry_count(m, &n), TC5_OK);
  assert_int_equal(n, 1);
  assert_int_equal(tc5_ptx_entry_info(m, 0, &name, &n, p, 4, &stat, req), TC5_OK);
  assert_string_equal(name, "e");
  assert_int_equal(n, 2);
  assert_true(p[0].is_ptr);
  assert_int_equal(p[0].size, 8);
  assert_int_equal(p[1].size, 4);
  assert_int_equal(stat, 0); /* e names neither variable: only what an entry names is laid out */
  assert_int_equal(req[0], 64);
  assert_int_equal(tc5_ptx_entry_info(m, 1, &name, &n, p, 4, &stat, req), TC5_ERANGE);
  tc5_ptx_free(m);
}

/* ---- semantics ---- */
static void test_integer(void **state) {
  (void)state;
  uint32_t out[32 * 8];
  tc5_diag dg;
  memset(out, 0, sizeof out);
  /* per thread t: 8 results at out[t*8 ...] */
  assert_int_equal(run1(KERNEL("",
                               "mul.wide.u32 %rd2, %r1, 32; add.s64 %rd3, %rd1, %rd2;"
                               "sub.s32 %r2, 0, %r1; st.global.u32 [%rd3], %r2;"           /* -t */
                               "shr.s32 %r3, %r2, 1; st.global.u32 [%rd3+4], %r3;"        /* -t >> 1 (arith) */
                               "bfe.s32 %r4, %r1, 1, 2; st.global.u32 [%rd3+8], %r4;"     /* bits 1-2, signed */
                               "brev.b32 %r5, %r1; st.global.u32 [%rd3+12], %r5;"
                               "mul.hi.s32 %r6, %r2, 0x40000000; st.global.u32 [%rd3+16], %r6;"
                               "prmt.b32 %r7, %r1, 0x11223344, 0x4510; st.global.u32 [%rd3+20], %r7;"
                               "div.u32 %r8, 100, %r1; st.global.u32 [%rd3+24], %r8;"     /* t = 0: all ones */
                               "shl.b32 %r9, 1, %r1; st.global.u32 [%rd3+28], %r9;"),
                        1, 32, out, sizeof out, &dg),
                   TC5_OK);
  for (uint32_t t = 0; t < 32; t++) {
    int32_t neg = -(int32_t)t;
    assert_int_equal(out[t * 8 + 0], (uint32_t)neg);
    assert_int_equal(out[t * 8 + 1], (uint32_t)(neg >> 1));
    uint32_t f = (t >> 1) & 3;
    assert_int_equal(out[t * 8 + 2], (f & 2) ? (f | 0xfffffffcu) : f);
    uint32_t r = 0;
    for (int b = 0; b < 32; b++) r |= ((t >> b) & 1u) << (31 - b);
    assert_int_equal(out[t * 8 + 3], r);
    assert_int_equal(out[t * 8 + 4], (uint32_t)(((int64_t)neg * 0x40000000) >> 32));
    /* selector 0x4510 (nibbles from the low end): a.b0, a.b1, b.b1 (0x33), b.b0 (0x44) */
    assert_int_equal(out[t * 8 + 5], (t & 0xff) | 0u << 8 | 0x33u << 16 | 0x44u << 24);
    assert_int_equal(out[t * 8 + 6], t ? 100 / t : 0xffffffffu);
    assert_int_equal(out[t * 8 + 7], 1u << t);
  }
}

static void test_float(void **state) {
  (void)state;
  uint32_t out[32 * 6];
  tc5_diag dg;
  memset(out, 0, sizeof out);
  assert_int_equal(run1(KERNEL("",
                               "mul.wide.u32 %rd2, %r1, 24; add.s64 %rd3, %rd1, %rd2;"
                               "cvt.rn.f32.u32 %f1, %r1; add.rn.f32 %f2, %f1, 0f3F000000;" /* t + 0.5 */
                               "cvt.rni.s32.f32 %r2, %f2; st.global.u32 [%rd3], %r2;"     /* ties to even */
                               "div.rz.f32 %f3, 0f3F800000, 0f40400000; st.global.f32 [%rd3+4], %f3;" /* 1/3 rz */
                               "div.rp.f32 %f4, 0f3F800000, 0f40400000; st.global.f32 [%rd3+8], %f4;" /* 1/3 rp */
                               "cvt.rn.f16.f32 %h1, %f2; cvt.u32.u16 %r3, %h1; st.global.u32 [%rd3+12], %r3;"
                               "sub.rn.f32 %f5, 0f7F800000, 0f7F800000; st.global.f32 [%rd3+16], %f5;" /* NaN */
                               "cvt.rzi.s32.f32 %r4, 0f4F800000; st.global.u32 [%rd3+20], %r4;"),      /* 2^32 sat */
                        1, 32, out, sizeof out, &dg),
                   TC5_OK);
  for (uint32_t t = 0; t < 32; t++) {
    uint32_t even = (t % 2 == 0) ? t : t + 1; /* t + 0.5 to nearest even */
    assert_int_equal(out[t * 6 + 0], even);
    assert_int_equal(out[t * 6 + 1], 0x3eaaaaaau);
    assert_int_equal(out[t * 6 + 2], 0x3eaaaaabu);
    assert_int_equal(out[t * 6 + 4], 0x7fffffffu);
    assert_int_equal(out[t * 6 + 5], 0x7fffffffu);
  }
  assert_int_equal(out[0 * 6 + 3], 0x3800); /* f16 0.5 */
  assert_int_equal(out[1 * 6 + 3], 0x3e00); /* f16 1.5 */
}

static void test_divergence(void **state) {
  (void)state;
  uint32_t out[64];
  tc5_diag dg;
  memset(out, 0, sizeof out);
  /* odd threads loop t times, even ones skip; all reconverge and shuffle */
  assert_int_equal(run1(KERNEL("",
                               "mov.u32 %r2, 0; and.b32 %r3, %r1, 1; setp.eq.u32 %p1, %r3, 0; @%p1 bra $DONE;"
                               "mov.u32 %r4, 0;\n$LOOP: add.u32 %r2, %r2, 2; add.u32 %r4, %r4, 1;"
                               " setp.lt.u32 %p2, %r4, %r1; @%p2 bra $LOOP;\n"
                               "$DONE: shfl.sync.bfly.b32 %r5, %r2, 1, 31, -1;"
                               " add.u32 %r6, %r2, %r5; st.global.u32 [%rd3], %r6;"
                               " vote.sync.ballot.b32 %r7, %p1, -1; st.global.u32 [%rd3+128], %r7;"),
                        1, 32, out, sizeof out, &dg),
                   TC5_OK);
  for (uint32_t t = 0; t < 32; t++) {
    uint32_t mine = (t & 1) ? 2 * t : 0, other = ((t ^ 1) & 1) ? 2 * (t ^ 1) : 0;
    assert_int_equal(out[t], mine + other);
    assert_int_equal(out[32 + t], 0x55555555u);
  }
}

/* a loop one side of a branch runs, laid out after the function's ret (LLVM's
 * placement of Triton's tl.atomic_poll with a timeout: thread 0 polls, every
 * thread then meets at one bar.sync): the threads at the .aligned bar.sync
 * wait there for thread 0, as on a B200; two warps */
static void test_aligned_waits_for_the_warp(void **state) {
  (void)state;
  uint32_t out[64];
  tc5_diag dg;
  memset(out, 0, sizeof out);
  assert_int_equal(run1(KERNEL("",
                               "mov.u32 %r2, 7; and.b32 %r3, %r1, 31; setp.eq.u32 %p1, %r3, 0; @%p1 bra $POLL;\n"
                               "$JOIN: bar.sync 0; st.global.u32 [%rd3], %r2; ret;\n"
                               "$POLL: mov.u32 %r4, 0;\n$L: add.u32 %r2, %r2, 1; add.u32 %r4, %r4, 1;"
                               " setp.lt.u32 %p2, %r4, 5; @%p2 bra $L; bra.uni $JOIN;"),
                        1, 64, out, sizeof out, &dg),
                   TC5_OK);
  for (uint32_t t = 0; t < 64; t++) assert_int_equal(out[t], t % 32 ? 7 : 12);
  /* threads that wait at a .aligned instruction while the rest of the warp exits: part of the warp */
  assert_int_equal(run1(KERNEL("", "setp.eq.u32 %p1, %r1, 0; @%p1 bra $B; ret;\n$B: bar.sync 0;"), 1, 32, out,
                        sizeof out, &dg),
                   TC5_EILLEGAL);
  assert_true(has(&dg, "part of the warp"));
  /* ... or waits at another .aligned instruction */
  assert_int_equal(run1(KERNEL("", "setp.eq.u32 %p1, %r1, 0; @%p1 bra $B; bar.sync 0; ret;\n$B: bar.sync 0;"), 1, 32,
                        out, sizeof out, &dg),
                   TC5_EILLEGAL);
  assert_true(has(&dg, "part of the warp"));
}

static void test_shared_and_barrier(void **state) {
  (void)state;
  uint32_t out[128];
  tc5_diag dg;
  memset(out, 0, sizeof out);
  /* each thread writes shared[t], bar.sync, reads shared[127 - t] */
  assert_int_equal(run1(".shared .align 4 .b32 sh[128];\n" KERNEL("",
                               "mov.u32 %r2, sh; shl.b32 %r3, %r1, 2; add.u32 %r4, %r2, %r3;"
                               "mul.lo.u32 %r5, %r1, 7; st.shared.u32 [%r4], %r5; bar.sync 0;"
                               "sub.u32 %r6, 127, %r1; shl.b32 %r6, %r6, 2; add.u32 %r6, %r2, %r6;"
                               "ld.shared.u32 %r7, [%r6]; st.global.u32 [%rd3], %r7;"
                               "cvta.shared.u64 %rd4, %rd5; setp.eq.u32 %p1, %r2, 1024; selp.u32 %r8, 1, 0, %p1;"
                               "@%p1 bra $OK; trap;\n$OK:"),
                        1, 128, out, sizeof out, &dg),
                   TC5_OK);
  for (uint32_t t = 0; t < 128; t++) assert_int_equal(out[t], (127 - t) * 7);
}

/* sm_100's 8-bit matrix shapes (CUTLASS's SM100_U8x*_LDSM_T / STSM_T):
 * stmatrix.m16n8.x2.trans then ldmatrix.m16n16.x1.trans gives the
 * registers back interleaved as CUTLASS's SM100_U8x8_LDSM_T undoes it
 * ("RefLayout of ldmatrix.m16n16.x1.trans won't match stmatrix.m16n8.x2.trans
 * without additional transformations": dst0 = {tmp0.x, tmp0.y, tmp1.x,
 * tmp1.y}, dst1 = {tmp0.z, tmp0.w, tmp1.z, tmp1.w}), so ldmatrix's tmp0 =
 * {src0.x, src0.y, src1.x, src1.y}, tmp1 = {src0.z, src0.w, src1.z, src1.w};
 * and byte k of thread t lands in row 2(t%4) + k%2 + 8(k/4), column
 * t/4 + 8((k/2)%2) */
static void test_matrix_b8(void **state) {
  (void)state;
  uint32_t out[32 * 4];
  tc5_diag dg;
  memset(out, 0, sizeof out);
  assert_int_equal(run1(".shared .align 16 .b8 sh[256];\n" KERNEL("",
                               "mul.lo.u32 %r2, %r1, 0x08080808; add.u32 %r2, %r2, 0x03020100; add.u32 %r3, %r2, 0x04040404;" /* bytes 8t + 0..7 */
                               "mov.u32 %r4, sh; and.b32 %r5, %r1, 15; shl.b32 %r6, %r5, 4; add.u32 %r7, %r4, %r6;"
                               "stmatrix.sync.aligned.m16n8.x2.trans.shared.b8 [%r7], {%r2, %r3};"
                               "bar.sync 0;"
                               /* ldmatrix: thread t (< 16) gives row (t%2) + 8((t/2)%2) + 2(t/4) */
                               "and.b32 %r8, %r5, 1; bfe.u32 %r9, %r5, 1, 1; shl.b32 %r9, %r9, 3; shr.u32 %r10, %r5, 2;"
                               "shl.b32 %r10, %r10, 1; add.u32 %r11, %r8, %r9; add.u32 %r11, %r11, %r10;"
                               "shl.b32 %r11, %r11, 4; add.u32 %r12, %r4, %r11;"
                               "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r13, %r14}, [%r12];"
                               "mul.wide.u32 %rd2, %r1, 16; add.s64 %rd3, %rd1, %rd2;"
                               "st.global.u32 [%rd3], %r13; st.global.u32 [%rd3+4], %r14;"
                               "ld.shared.u32 %r15, [sh]; st.global.u32 [%rd3+8], %r15;"),
                        1, 32, out, sizeof out, &dg),
                   TC5_OK);
  for (uint32_t t = 0; t < 32; t++) { /* src0's bytes are 8t + 0..3, src1's 8t + 4..7 */
    uint32_t b = 8 * t;
    assert_int_equal(out[t * 4], b | (b + 1) << 8 | (b + 4) << 16 | (b + 5) << 24);
    assert_int_equal(out[t * 4 + 1], (b + 2) | (b + 3) << 8 | (b + 6) << 16 | (b + 7) << 24);
  }
  /* row 0, bytes 0-3: from (t, k) with 2(t%4) + k%2 + 8(k/4) = 0, t/4 + 8((k/2)%2) = c:
   * k = 0 of threads 0, 4, 8, 12 (c = 0..3), bytes 8t */
  assert_int_equal(out[2], 0u | 32u << 8 | 64u << 16 | 96u << 24);
  /* only .trans, and no 4/6-bit source formats */
  tc5_ptx_module *m;
  assert_int_equal(load(KERNEL("", "ldmatrix.sync.aligned.m16n16.x1.shared.b8 {%r2, %r3}, [%r1];"), &m, &dg), TC5_EPARSE);
  assert_int_equal(load(KERNEL("", "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b4x16_p64 {%r2, %r3}, [%r1];"), &m, &dg),
                   TC5_EUNSUPPORTED);
}

static void test_printf(void **state) {
  (void)state;
  uint32_t out[32];
  tc5_diag dg;
  const char *k =
      ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
      ".global .align 1 .b8 $str[13] = {116, 61, 37, 100, 32, 120, 61, 37, 46, 50, 102, 10, 0};\n"
      ".visible .entry k(.param .u64 out) {\n .local .align 8 .b8 __local_depot0[16];\n"
      " .reg .b32 %r<4>; .reg .b64 %rd<8>; .reg .f64 %fd<2>;\n"
      " mov.u64 %rd1, __local_depot0; cvta.local.u64 %rd2, %rd1; mov.u32 %r1, %tid.x;\n"
      " st.local.u32 [%rd1], %r1; mov.f64 %fd1, 0d3FF8000000000000; st.local.f64 [%rd1+8], %fd1;\n"
      " mov.u64 %rd3, $str; cvta.global.u64 %rd4, %rd3;\n"
      " { .reg .b32 temp; .param .b64 param0; st.param.b64 [param0], %rd4; .param .b64 param1;"
      " st.param.b64 [param1], %rd2; .param .b32 retval0;\n"
      " call.uni (retval0), vprintf, (param0, param1); ld.param.b32 temp, [retval0]; }\n ret;\n}\n";
  assert_int_equal(run1(k, 1, 2, out, sizeof out, &dg), TC5_OK);
  assert_string_equal(printed, "t=0 x=1.50\nt=1 x=1.50\n");
}

/* ---- kernel errors ---- */
static void test_kernel_errors(void **state) {
  (void)state;
  uint32_t out[32];
  tc5_diag dg;
  /* out of bounds: thread 31 writes past the 124-byte buffer */
  assert_int_equal(run1(KERNEL("", "st.global.u32 [%rd3], %r1;"), 1, 32, out, 124, &dg), TC5_EBOUNDS);
  assert_true(has(&dg, "thread (31,0,0)"));
  assert_true(has(&dg, "st.global.u32"));
  /* an atomic out of bounds: an error, not a hang (the fuzzer found the
   * error report taking the lock the atomics held) */
  assert_int_equal(run1(KERNEL("", "atom.global.add.u32 %r2, [%rd3+4096], 1;"), 1, 32, out, sizeof out, &dg), TC5_EBOUNDS);
  /* misaligned */
  assert_int_equal(run1(KERNEL("", "st.global.u32 [%rd3+2], %r1;"), 1, 32, out, sizeof out, &dg), TC5_EALIGN);
  /* the reserved first KiB of shared memory */
  assert_int_equal(run1(KERNEL("", "st.shared.u32 [16], %r1;"), 1, 32, out, sizeof out, &dg), TC5_EBOUNDS);
  assert_true(has(&dg, "reserved"));
  /* a barrier part of the CTA never reaches: deadlock, not a hang */
  assert_int_equal(run1(KERNEL("", "setp.lt.u32 %p1, %r1, 32; @%p1 bra $X; bar.sync 0;\n$X: bar.sync 1;"), 1, 64, out,
                        sizeof out, &dg),
                   TC5_ESTATE);
  assert_true(has(&dg, "deadlock"));
  /* an mbarrier phase nothing completes */
  assert_int_equal(run1(".shared .align 8 .b64 mb;\n" KERNEL("",
                                                           "mbarrier.init.shared::cta.b64 [mb], 2; bar.sync 0;"
                                                           "{ .reg .pred d; W: mbarrier.try_wait.parity.shared::cta.b64 d, [mb], 0;"
                                                           " @!d bra.uni W; }"),
                        1, 32, out, sizeof out, &dg),
                   TC5_ESTATE);
  assert_true(has(&dg, "deadlock"));
  /* an endless loop: stopped after max_steps */
  assert_int_equal(run1(KERNEL("", "$L: bra $L;"), 1, 32, out, sizeof out, &dg), TC5_ESTATE);
  assert_true(has(&dg, "hang"));
  /* .aligned with part of the warp */
  assert_int_equal(run1(KERNEL("", "setp.lt.u32 %p1, %r1, 16; @%p1 bra $X; bar.sync 0;\n$X: ret;"), 1, 32, out,
                        sizeof out, &dg),
                   TC5_EILLEGAL);
  assert_true(has(&dg, "part of the warp"));
  /* Tensor Memory still allocated at exit */
  assert_int_equal(run1(".shared .align 4 .b32 ta;\n" KERNEL("",
                                                           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [ta], 32;"),
                        1, 32, out, sizeof out, &dg),
                   TC5_ESTATE);
  assert_true(has(&dg, "at exit"));
  /* trap */
  assert_int_equal(run1(KERNEL("", "trap;"), 1, 32, out, sizeof out, &dg), TC5_EILLEGAL);
}

/* the caller's interrupt (cfg.interrupt): polled by the calling thread,
 * between clusters and about every 2^16 warp-instructions; nonzero stops
 * the launch with TC5_ECANCELED, whatever the other workers run */
static unsigned polls, stop_at;
static int poll_count(void *ctx) {
  (void)ctx;
  return ++polls >= stop_at;
}

static void test_interrupt(void **state) {
  (void)state;
  tc5_ptx_module *m;
  tc5_diag dg;
  assert_int_equal(load(KERNEL("", "$L: bra $L;"), &m, &dg), TC5_OK);
  uint32_t out[64] = {0};
  tc5_ptx_arg arg = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = sizeof out};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = 8;
  cfg.block[0] = 64;
  cfg.max_steps = 1ull << 40; /* the hang limit would take hours: the interrupt stops it */
  cfg.interrupt = poll_count;
  for (unsigned threads = 1; threads <= 4; threads *= 4) {
    cfg.threads = threads;
    polls = 0, stop_at = 3;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_ptx_launch(m, &cfg, &arg, 1, NULL, &dg), TC5_ECANCELED);
    assert_int_equal(polls, 3);
    assert_true(has(&dg, "stopped by the caller's interrupt"));
    assert_string_equal(tc5_status_name(TC5_ECANCELED), "TC5_ECANCELED");
  }
  /* the caller done with its clusters while another worker runs one that never ends: the caller,
   * waiting for it, still polls (whichever worker took which CTA, the launch stops at poll 4: the
   * first poll, the one before the caller's cluster, then two while it waits or runs) */
  tc5_ptx_free(m);
  assert_int_equal(load(KERNEL("", "mov.u32 %r2, %ctaid.x; setp.eq.u32 %p1, %r2, 0; @%p1 bra $E;\n$L: bra $L;\n$E: ret;"),
                        &m, &dg),
                   TC5_OK);
  cfg.grid[0] = 2;
  cfg.threads = 2;
  polls = 0, stop_at = 4;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, &arg, 1, NULL, &dg), TC5_ECANCELED);
  assert_int_equal(polls, 4);
  assert_true(has(&dg, "stopped by the caller's interrupt"));
  cfg.grid[0] = 8;
  /* an interrupt that never fires: the launch runs to its end (a finishing kernel) */
  tc5_ptx_free(m);
  assert_int_equal(load(KERNEL("", "st.global.u32 [%rd3], %r1;"), &m, &dg), TC5_OK);
  cfg.max_steps = 0;
  cfg.threads = 2;
  polls = 0, stop_at = ~0u;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, &arg, 1, NULL, &dg), TC5_OK);
  assert_true(polls >= 1);
  assert_int_equal(out[63], 63);
  tc5_ptx_free(m);
}

static void test_launch_errors(void **state) {
  (void)state;
  tc5_ptx_module *m;
  tc5_diag dg;
  assert_int_equal(load(".visible .entry k(.param .u64 a, .param .u32 n) .reqntid 64 { ret; }", &m, &dg), TC5_OK);
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 64;
  tc5_ptx_arg args[2] = {{.kind = TC5_PTX_ARG_VALUE, .size = 8, .bits = 0}, {.kind = TC5_PTX_ARG_VALUE, .size = 4, .bits = 5}};
  assert_int_equal(tc5_ptx_launch(m, &cfg, args, 1, NULL, &dg), TC5_EINVAL);
  assert_true(has(&dg, "has 2 parameters; 1 arguments"));
  args[1].size = 8;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, args, 2, NULL, &dg), TC5_EINVAL);
  assert_true(has(&dg, "parameter 2 (n) is 4 bytes"));
  args[1].size = 4;
  cfg.block[0] = 32;
  assert_int_equal(tc5_ptx_launch(m, &cfg, args, 2, NULL, &dg), TC5_EINVAL);
  cfg.block[0] = 64;
  cfg.entry = "nope";
  assert_int_equal(tc5_ptx_launch(m, &cfg, args, 2, NULL, &dg), TC5_EINVAL);
  cfg.entry = NULL;
  cfg.dynamic_shared = 300000;
  assert_int_equal(tc5_ptx_launch(m, &cfg, args, 2, NULL, &dg), TC5_EINVAL);
  cfg.dynamic_shared = 0;
  assert_int_equal(tc5_ptx_launch(m, &cfg, args, 2, NULL, &dg), TC5_OK);
  assert_int_equal(tc5_ptx_launch(NULL, &cfg, args, 2, NULL, &dg), TC5_EINVAL);
  tc5_ptx_free(m);
  /* an entry declared and never defined has nothing to run (the fuzzer's find) */
  assert_int_equal(load(".visible .entry k(.param .u64 a);", &m, &dg), TC5_OK);
  unsigned n;
  assert_int_equal(tc5_ptx_entry_count(m, &n), TC5_OK);
  assert_int_equal(n, 0);
  assert_int_equal(tc5_ptx_launch(m, &cfg, args, 1, NULL, &dg), TC5_EINVAL);
  tc5_ptx_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_errors),  cmocka_unit_test(test_entry_info),
      cmocka_unit_test(test_integer),       cmocka_unit_test(test_float),
      cmocka_unit_test(test_divergence),    cmocka_unit_test(test_aligned_waits_for_the_warp),    cmocka_unit_test(test_shared_and_barrier),
      cmocka_unit_test(test_printf),        cmocka_unit_test(test_matrix_b8),        cmocka_unit_test(test_kernel_errors),
      cmocka_unit_test(test_launch_errors), cmocka_unit_test(test_interrupt),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
