/* tc5 tests — the timing model (issue 47), each component against a case
 * worked out by hand from the parameter tables (src/timing/params_*.def):
 * the tables, the GPU/target pairing, occupancy, a chain of dependent
 * instructions, a TMA load of N bytes, an MMA pipeline (one CTA and a CTA
 * pair), bar.sync, the list scheduler, and whole launches through the C
 * API: sampling runs only the sampled clusters, TC5_TIMING_SAMPLE_ALL and
 * small grids run all, bad input is an error naming it; the issue rates
 * of float-width vs int<->float conversions and of shuffles, the cvt's
 * class from its types, one SM's ld.global/cp.async input cap, and HBM's
 * read and write efficiencies (t47m's corrections). The expected
 * values read the tables, so t47si's measured values keep them true. */
#include "testutil.h"
#include "tc5/ptx.h"
#include "tc5/timing.h"
#include "timing/timing_impl.h"
#include "ptx/ptx_impl.h"
#include <math.h>
#include <pthread.h>

static bool has(const tc5_diag *dg, const char *s) {
  for (unsigned k = 0; k < dg->count; k++)
    if (strstr(dg->issue[k].message, s)) return true;
  return false;
}

static void test_tables(void **state) {
  (void)state;
  static const char *const gpus[] = {"b200", "h100", "h200"};
  for (unsigned g = 0; g < 3; g++) {
    tm_params p;
    assert_int_equal(tm_params_load(gpus[g], &p), TC5_OK);
    /* every field the model reads has a row (no zero but the documented ones) */
#define TM_FIELD(f)                                                                                  \
  if (strcmp(#f, "tmem_ld_latency") && strcmp(#f, "tmem_bytes_per_clk") && strcmp(#f, "tc_floor_clk") && \
      strcmp(#f, "tc_floor_n_per_clk") && strcmp(#f, "issue_from_sass") && strcmp(#f, "issue_queue") && \
      strcmp(#f, "fsel_alu_pipe") && strcmp(#f, "pipe_dispatch") && strcmp(#f, "ptxas_order") && strcmp(#f, "imad_pipe") && \
      strcmp(#f, "tmem_cols_per_sm") && strcmp(#f, "sfu_fp32_clk") && strcmp(#f, "stall_sched") && \
      strcmp(#f, "mem_space_order") && strcmp(#f, "tc_queue")) \
    assert_true(p.f > 0);
    TM_FIELDS
#undef TM_FIELD
    unsigned n = 0;
    const char *name, *unit, *prov;
    double v;
    while (!tc5_timing_param(gpus[g], n, &name, &v, &unit, &prov)) {
      assert_non_null(prov);
      assert_true(strlen(prov) > 8); /* every number says where it comes from */
      n++;
    }
    assert_true(n >= 40);
  }
  tm_params p;
  tm_params_load("b200", &p);
  assert_true(p.sm_count == 148);
  tm_params_load("h100", &p);
  assert_true(p.sm_count == 132 && p.hbm_bytes_per_s == 3.35e12);
  tm_params_load("h200", &p);
  assert_true(p.sm_count == 132 && p.hbm_bytes_per_s == 4.8e12);
  assert_int_equal(tm_params_load("a100", &p), TC5_EINVAL);
  assert_int_equal(tc5_timing_param("a100", 0, NULL, NULL, NULL, NULL), TC5_EINVAL);
}

static void test_pairing(void **state) {
  (void)state;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_timing_check("b200", "sm_100a", &dg), TC5_OK);
  assert_int_equal(tc5_timing_check("b200", "sm_100f", &dg), TC5_OK);
  assert_int_equal(tc5_timing_check("h100", "sm_90a", &dg), TC5_OK);
  assert_int_equal(tc5_timing_check("h200", "sm_80", &dg), TC5_OK);
  static const char *const bad[][3] = {{"b200", "sm_90a", "b200"},  {"h200", "sm_100a", "h200"},
                                       {"b200", "sm_103a", "sm_103a"}, {"b200", "sm_110a", "sm_110a"},
                                       {"a100", "sm_80", "a100"},     {"sm_103", "sm_103a", "sm_103"}};
  for (unsigned k = 0; k < sizeof bad / sizeof *bad; k++) {
    tc5_diag_init(&dg);
    assert_int_equal(tc5_timing_check(bad[k][0], bad[k][1], &dg), TC5_EINVAL);
    assert_true(has(&dg, bad[k][2]));
  }
}

static void test_occupancy(void **state) {
  (void)state;
  tm_params p;
  tm_params_load("h100", &p);
  tm_occupancy o;
  /* 128 threads, 255 registers: ceil(255 * 32 / 256) * 256 = 8192 a warp, 65536 / (4 * 8192) = 2 */
  tm_occupancy_of(&p, 128, 1024, 255, 1, &o);
  assert_int_equal(o.ctas, 2);
  assert_string_equal(o.limit, "registers");
  /* 101 KiB + 1 KiB of shared memory: 233472 / 104448 = 2 */
  tm_occupancy_of(&p, 128, 104448, 32, 1, &o);
  assert_int_equal(o.ctas, 2);
  assert_string_equal(o.limit, "shared memory");
  /* 1024 threads: 2048 / 1024 = 2 */
  tm_occupancy_of(&p, 1024, 2048, 32, 1, &o);
  assert_int_equal(o.ctas, 2);
  assert_string_equal(o.limit, "threads");
  /* 32 threads, nothing else: the 32 CTA slots */
  tm_occupancy_of(&p, 32, 1024, 16, 1, &o);
  assert_int_equal(o.ctas, 32);
  assert_string_equal(o.limit, "CTA slots");
  /* more shared memory than an SM has: still 1 (the runner checked the CTA's own limit) */
  tm_occupancy_of(&p, 128, 300000, 32, 1, &o);
  assert_int_equal(o.ctas, 1);
}

static void test_list_schedule(void **state) {
  (void)state;
  double st[6];
  const double a[] = {3, 3, 3, 1};
  assert_true(tm_list_schedule(a, 4, 2, st) == 6); /* 0,0 | 3,3 */
  assert_true(st[0] == 0 && st[1] == 0 && st[2] == 3 && st[3] == 3);
  const double b[] = {5, 1, 1, 1, 1, 1};
  assert_true(tm_list_schedule(b, 6, 2, st) == 5); /* the long one first: the others fill the second slot */
  assert_true(st[5] == 4);
  const double c[] = {2, 2, 2, 2, 2};
  assert_true(tm_list_schedule(c, 5, 2, NULL) == 6); /* a tail: the fifth runs alone */
  assert_true(tm_list_schedule(c, 5, 100, NULL) == 2);
}

/* a synthetic module of n instructions: classes and registers given */
typedef struct fake {
  tm_insn insn[8];
  chk_insn ck[8];
  chk_reg regs[8][4];
  tm_launch *l;
  tm_cta *t, *peer;
} fake;

static void fake_insn(fake *f, unsigned pc, uint8_t cls, int dst, int src) {
  f->insn[pc] = (tm_insn){cls, 4, 0, "op", pc + 1};
  chk_insn *c = &f->ck[pc];
  memset(c, 0, sizeof *c);
  c->guard = CHK_NOREG;
  c->regs = f->regs[pc];
  if (dst >= 0) f->regs[pc][c->nregs++] = (chk_reg){(uint32_t)dst, 0, CHK_R_DST};
  if (src >= 0) f->regs[pc][c->nregs++] = (chk_reg){(uint32_t)src, 1, 0};
}

static void fake_launch(fake *f, const char *gpu, unsigned n, uint64_t ncta) {
  tm_setup s;
  memset(&s, 0, sizeof s);
  s.gpu = gpu;
  s.target = "sm_100a";
  s.threads_per_cta = 128;
  s.warps_per_cta = 4;
  s.smem_per_cta = 200000; /* one CTA an SM */
  s.cluster_size = 1;
  s.nclusters = ncta;
  s.reg_lo = 0;
  s.reg_hi = 16;
  s.insn = f->insn;
  s.ck = f->ck;
  s.ncode = n;
  assert_int_equal(tm_launch_new(&f->l, &s, NULL), TC5_OK);
  assert_int_equal(tm_cta_new(f->l, 4, &f->t), TC5_OK);
  assert_int_equal(tm_cta_new(f->l, 4, &f->peer), TC5_OK);
  tm_cta_begin(f->t, 0, 0, 0);
  tm_cta_begin(f->peer, 0, 1, 1);
}
static void fake_free(fake *f) {
  tm_cta_free(f->t);
  tm_cta_free(f->peer);
  tm_launch_free(f->l);
}

static void test_dependent_chain(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  /* r1 = ..; r2 = f(r1); r3 = f(r2): integer instructions */
  fake_insn(&f, 0, TM_C_INT, 1, -1);
  fake_insn(&f, 1, TM_C_INT, 2, 1);
  fake_insn(&f, 2, TM_C_INT, 3, 2);
  fake_insn(&f, 3, TM_C_INT, 4, -1); /* independent */
  fake_launch(&f, "h100", 4, 1);
  const tm_params *p = &f.l->p;
  uint64_t regs[16 * 32] = {0};
  for (unsigned pc = 0; pc < 3; pc++) tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
  /* each waits for the one before: 2 x latency, then its dispatch (t47p: the ALU pipe's 2 clk do not hold the warp) */
  double want = 2 * p->lat_alu + 1;
  assert_true(f.t->w[0].clock == want);
  assert_true(f.t->w[0].ready[3] == 2 * p->lat_alu + p->lat_alu);
  /* an independent instruction issues as soon as its pipe is free */
  tm_step(f.t, 0, 3, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == want + 1 + 1); /* dispatched at 2 x latency + 2: the ALU pipe busy till then */
  /* another warp's clock is its own (another scheduler: its own pipe) */
  tm_step(f.t, 1, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[1].clock == 1);
  /* a retried instruction costs nothing */
  tm_step(f.t, 1, 0, 0xffffffffu, regs, TM_BLOCKED);
  assert_true(f.t->w[1].clock == 1);
  fake_free(&f);
}

/* dispatch (t47b2): a scheduler dispatches one warp-instruction a cycle,
 * and warps w and w + 4 share one (4 schedulers): the calendar's slots,
 * then a CTA of 8 warps where warps 0 and 4 run the same three
 * independent fp32 instructions (issue 1) from cycle 0: warp 0 (simulated
 * first) dispatches at 0, 1, 2 and ends at 3; warp 4 finds 0-2 taken,
 * dispatches at 3, 4, 5 and ends at 6; warp 1 (another scheduler) ends at 3 */
static void test_dispatch_slots(void **state) {
  (void)state;
  tm_cal c;
  memset(&c, 0, sizeof c);
  assert_true(tm_cal_take(&c, 10) == 10);
  assert_true(tm_cal_take(&c, 10) == 11);
  assert_true(tm_cal_take(&c, 10.5) == 12); /* 10, 11 taken */
  assert_true(tm_cal_take(&c, 9.5) == 9.5); /* slot 9 free: the start stays */
  assert_true(tm_cal_take(&c, 9.2) == 12 + 1); /* 9 .. 12 taken */
  /* far later: the window slides past the old slots, which are then not tracked */
  assert_true(tm_cal_take(&c, 100000) == 100000);
  assert_true(tm_cal_take(&c, 100000) == 100001);
  assert_true(tm_cal_take(&c, 10) == 10);
  fake f;
  memset(&f, 0, sizeof f);
  for (unsigned pc = 0; pc < 3; pc++) fake_insn(&f, pc, TM_C_FP32, -1, -1);
  fake_launch(&f, "b200", 3, 1);
  tm_cta *c8;
  assert_int_equal(tm_cta_new(f.l, 8, &c8), TC5_OK);
  tm_cta_begin(c8, 0, 0, 0);
  uint64_t regs[16 * 32] = {0};
  static const uint32_t order[] = {0, 4, 1};
  for (unsigned k = 0; k < 3; k++)
    for (unsigned pc = 0; pc < 3; pc++) tm_step(c8, order[k], pc, 0xffffffffu, regs, TM_DONE);
  assert_true(c8->w[0].clock == 3);
  assert_true(c8->w[4].clock == 6);
  assert_true(c8->w[1].clock == 3);
  tm_cta_free(c8);
  fake_free(&f);
}

static void test_tma_load(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_TMA, -1, -1);
  fake_launch(&f, "h100", 1, 1);
  const tm_params *p = &f.l->p;
  tm_mb mb;
  memset(&mb, 0, sizeof mb);
  /* one CTA on the GPU: the TMA engine's rate (below the L2's) */
  double bpc = p->tma_bytes_per_clk < p->l2_bytes_per_clk ? p->tma_bytes_per_clk : p->l2_bytes_per_clk;
  tm_mbar_signal(f.t, 0, 0, &mb, 16384, 0); /* the phase is not complete yet */
  assert_true(mb.done == 0);
  double first = 16384 / bpc + p->tma_latency;
  assert_true(mb.cur == first);
  tm_mbar_signal(f.t, 0, 0, &mb, 16384, 1); /* behind the first: completes the phase */
  double second = 2 * 16384 / bpc + p->tma_latency;
  assert_true(mb.done == second);
  /* a waiter takes the phase's time */
  tm_mbar_wait(f.t, 1, &mb);
  assert_true(f.t->w[1].clock == second + p->lat_mbar);
  /* a warp already later keeps its clock */
  f.t->w[2].clock = 1e6;
  tm_mbar_wait(f.t, 2, &mb);
  assert_true(f.t->w[2].clock == 1e6);
  fake_free(&f);
}

static void test_mma_pipeline(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_MMA, -1, -1);
  f.insn[0].bytes = 1; /* tcgen05.mma */
  fake_launch(&f, "b200", 1, 1);
  const tm_params *p = &f.l->p;
  double flops = 2.0 * 128 * 256 * 16, cyc = flops / p->tc_flops_per_clk;
  /* two MMAs issued at 0: in order on the tensor core */
  tm_mma(f.t, 0, 0, flops, TM_RATE_BF16, NULL, false);
  tm_mma(f.t, 0, 0, flops, TM_RATE_BF16, NULL, false);
  assert_true(f.t->tc_free == 2 * cyc);
  assert_true(f.t->tc_done == 2 * cyc + p->mma_latency);
  /* commit arrives when they finish */
  tm_mb mb;
  memset(&mb, 0, sizeof mb);
  tm_commit(f.t, 0, &mb, 1);
  assert_true(mb.done == 2 * cyc + p->mma_latency);
  /* fp8 runs at the table's scale */
  tm_mma(f.t, 0, 0, flops, TM_RATE_FP8, NULL, false);
  assert_true(f.t->tc_free == 2 * cyc + cyc / p->tc_fp8_scale);
  /* a CTA pair: each SM does half, both tensor cores busy, after both are free */
  fake g;
  memset(&g, 0, sizeof g);
  fake_insn(&g, 0, TM_C_MMA, -1, -1);
  fake_launch(&g, "b200", 1, 2);
  g.peer->tc_free = 100;
  tm_mma(g.t, 0, 0, 2.0 * 256 * 256 * 16, TM_RATE_BF16, g.peer, false);
  double half = 256.0 * 256 * 16 / p->tc_flops_per_clk;
  assert_true(g.t->tc_free == 100 + half && g.peer->tc_free == 100 + half);
  fake_free(&g);
  fake_free(&f);
}

static void test_bar_sync(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_BAR, -1, -1);
  fake_launch(&f, "h200", 1, 1);
  f.t->w[0].clock = 10;
  f.t->w[1].clock = 500;
  tm_bar_arrive(f.t, 0, 3);
  tm_bar_arrive(f.t, 1, 3);
  tm_bar_done(f.t, 3, 0x3);
  /* two warps released: lat_bar 21 + lat_bar_per_warp 2.0 x (2 - 4) = 17 (h200) */
  assert_true(f.t->w[0].clock == 500 + 17);
  assert_true(f.t->w[1].clock == 500 + 17);
  assert_true(f.t->w[2].clock == 0); /* not a waiter */
  /* all four: 21 (the measured 4-warp 20.7) */
  for (unsigned k = 0; k < 4; k++) tm_bar_arrive(f.t, k, 1);
  tm_bar_done(f.t, 1, 0xF);
  for (unsigned k = 0; k < 4; k++) assert_true(f.t->w[k].clock == 517 + 21);
  fake_free(&f);
}

/* bar.sync's latency by the warps it releases (t47b2): the lent H200's
 * 20.69, 28.69, 76.69 clk at 4, 8, 32 warps (h200_micro.tsv lat_bar_*),
 * one line of 2.0 clk a warp from lat_bar 21 at 4; the same rows on the
 * B200 (carried): 8 warps pay 8 clk more a barrier than 4 */
static void test_bar_latency_warps(void **state) {
  (void)state;
  static const char *const gpus[] = {"h200", "h100", "b200"};
  for (unsigned g = 0; g < 3; g++) {
    tm_params p;
    assert_int_equal(tm_params_load(gpus[g], &p), TC5_OK);
    assert_true(tm_bar_latency(&p, 4) == 21);
    assert_true(tm_bar_latency(&p, 8) == 29);   /* measured 28.69 */
    assert_true(tm_bar_latency(&p, 32) == 77);  /* measured 76.69 */
    assert_true(tm_bar_latency(&p, 1) == 15);   /* the line below 4 warps (not measured) */
    assert_true(tm_bar_latency(&p, 0) == 13);
  }
}

/* whole launches: out[ctaid] = ctaid + 1 */
static const char *kernel90 =
    ".version 8.0\n.target sm_90a\n.address_size 64\n"
    ".visible .entry k(.param .u64 out) {\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %ctaid.x;\n"
    " add.u32 %r2, %r1, 1;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n"
    " add.u64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r2;\n"
    " ret;\n}\n";

static tc5_status launch(const char *text, unsigned grid, const char *gpu, uint32_t sample, uint32_t *out,
                         tc5_timing_result *res, tc5_diag *dg) {
  tc5_diag_init(dg);
  tc5_ptx_module *m;
  tc5_status st = tc5_ptx_load(text, strlen(text), "k.ptx", &m, dg);
  if (st) return st;
  tc5_ptx_arg arg = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = grid * 4u};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = grid;
  cfg.block[0] = 32;
  cfg.threads = 2;
  cfg.timing = gpu;
  cfg.timing_sample = sample;
  cfg.timing_result = res;
  tc5_ptx_stats stats;
  st = tc5_ptx_launch(m, &cfg, &arg, 1, &stats, dg);
  tc5_ptx_free(m);
  return st;
}

static void test_launch_sampling(void **state) {
  (void)state;
  enum { N = 1000 };
  static uint32_t out[N];
  tc5_timing_result r;
  tc5_diag dg;
  /* 1000 CTAs, 10 sampled: the middles of 10 equal strata */
  memset(out, 0, sizeof out);
  assert_int_equal(launch(kernel90, N, "h100", 10, out, &r, &dg), TC5_OK);
  assert_true(r.valid && r.sampled);
  assert_int_equal(r.ctas_simulated, 10);
  assert_int_equal(r.ctas_total, N);
  unsigned written = 0;
  for (unsigned k = 0; k < N; k++)
    if (out[k]) {
      written++;
      assert_int_equal(out[k], k + 1);
      assert_int_equal(k % 100, 50); /* (j + 0.5) * 1000 / 10 */
    }
  assert_int_equal(written, 10);
  assert_true(r.seconds > 0 && r.cycles > 0);
  assert_string_equal(r.gpu, "h100");
  /* every one: no sampling, every output */
  memset(out, 0, sizeof out);
  assert_int_equal(launch(kernel90, N, "h100", TC5_TIMING_SAMPLE_ALL, out, &r, &dg), TC5_OK);
  assert_false(r.sampled);
  assert_int_equal(r.ctas_simulated, N);
  for (unsigned k = 0; k < N; k++) assert_int_equal(out[k], k + 1);
  /* a small grid (at most twice the default sample) is never sampled */
  memset(out, 0, sizeof out);
  assert_int_equal(launch(kernel90, 32, "h200", 0, out, &r, &dg), TC5_OK);
  assert_false(r.sampled);
  for (unsigned k = 0; k < 32; k++) assert_int_equal(out[k], k + 1);
  /* occupancy: 32 threads, 64 estimated registers: 32 CTA slots */
  assert_int_equal(r.ctas_per_sm, 32);
  assert_false(r.regs_from_ptxas);
  char buf[2048];
  assert_int_equal(tc5_timing_format(&r, buf, sizeof buf), TC5_OK);
  assert_non_null(strstr(buf, "tc5 run: timing: predicted "));
  assert_non_null(strstr(buf, " us on h200\n"));
  /* timing off: the result untouched */
  memset(&r, 0, sizeof r);
  assert_int_equal(launch(kernel90, 32, "none", 0, out, &r, &dg), TC5_OK);
  assert_false(r.valid);
}

/* the footprint (DRAM's compulsory bytes) is the union of the buffers'
 * host ranges: a buffer passed twice (the Triton door passes each tensor
 * as a global buffer and again as its tensor map's view) counts once.
 * Hand-worked: [0,100) u [50,150) u [150,160) u [300,310) = 160 + 10;
 * nested [0,1000) u [10,20) = 1000; none = 0 */
static void test_footprint(void **state) {
  (void)state;
  tm_range a[] = {{300, 310}, {50, 150}, {0, 100}, {150, 160}};
  assert_int_equal(tm_footprint(a, 4), 170);
  tm_range b[] = {{10, 20}, {0, 1000}};
  assert_int_equal(tm_footprint(b, 2), 1000);
  assert_int_equal(tm_footprint(NULL, 0), 0);
  /* through the C API: kernel90 on 1000 CTAs writes 4000 bytes; the same
   * memory again as a GLOBAL buffer adds nothing, a disjoint 1000-byte
   * one adds 1000 (dram_bytes = footprint under a cold L2: a warm one,
   * the default, would hold these few bytes from the launch before) */
  enum { N = 1000 };
  setenv("TC5_TIMING_L2", "cold", 1);
  static uint32_t out[N + 250];
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m;
  assert_int_equal(tc5_ptx_load(kernel90, strlen(kernel90), "k.ptx", &m, &dg), TC5_OK);
  double dram[3];
  for (int c = 0; c < 3; c++) {
    tc5_ptx_arg arg[2] = {{.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = N * 4u},
                          {.kind = TC5_PTX_ARG_GLOBAL, .data = c == 2 ? out + N : out, .bytes = c == 2 ? 1000u : N * 4u}};
    tc5_ptx_launch_cfg cfg;
    tc5_ptx_launch_init(&cfg);
    cfg.grid[0] = N;
    cfg.block[0] = 32;
    cfg.threads = 2;
    cfg.timing = "h200";
    cfg.timing_sample = 10;
    tc5_timing_result r;
    cfg.timing_result = &r;
    tc5_ptx_stats stats;
    assert_int_equal(tc5_ptx_launch(m, &cfg, arg, c ? 2 : 1, &stats, &dg), TC5_OK);
    dram[c] = r.dram_bytes;
  }
  tc5_ptx_free(m);
  unsetenv("TC5_TIMING_L2");
  assert_true(dram[0] == 4000 && dram[1] == 4000 && dram[2] == 5000);
}

/* an mbarrier wait carries time: warp 0 runs a chain of 64 dependent adds
 * (lat_alu each) and arrives; warp 1 waits on the mbarrier, then runs its
 * own chain of 64. Warp 1 cannot start before warp 0's arrival plus
 * lat_mbar, so the CTA lasts at least 2 x 64 x lat_alu + lat_mbar (h200:
 * 2 x 64 x 4 + 51 = 563 cycles); if waits carried no time the two chains
 * would overlap (about 64 x 4 = 256). A regression test: the hook was once
 * lost in a merge */
static void test_mbar_wait_time(void **state) {
  (void)state;
  static char ptx[8192];
  char chain[64 * 32] = "";
  for (int k = 0; k < 64; k++) strcat(chain, " add.u32 %r3, %r3, 1;\n");
  snprintf(ptx, sizeof ptx,
           ".version 8.0\n.target sm_90a\n.address_size 64\n"
           ".visible .entry k(.param .u64 out) {\n"
           " .reg .pred %%p<4>; .reg .b32 %%r<8>; .reg .b64 %%rd<4>;\n"
           " .shared .align 8 .b64 bar;\n"
           " ld.param.u64 %%rd1, [out];\n"
           " mov.u32 %%r1, %%tid.x;\n mov.u32 %%r3, %%r1;\n"
           " setp.ne.u32 %%p1, %%r1, 0;\n"
           " @%%p1 bra SKIP;\n mbarrier.init.shared.b64 [bar], 1;\nSKIP:\n"
           " bar.sync 0;\n"
           " setp.lt.u32 %%p2, %%r1, 32;\n @%%p2 bra PROD;\n"
           " mov.u32 %%r4, 0;\nWAIT:\n mbarrier.try_wait.parity.shared.b64 %%p3, [bar], %%r4;\n @!%%p3 bra WAIT;\n"
           "%s st.global.u32 [%%rd1], %%r3;\n ret;\n"
           "PROD:\n%s"
           " setp.ne.u32 %%p1, %%r1, 0;\n @!%%p1 mbarrier.arrive.shared.b64 %%rd2, [bar];\n ret;\n}\n",
           chain, chain);
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m;
  assert_int_equal(tc5_ptx_load(ptx, strlen(ptx), "k.ptx", &m, &dg), TC5_OK);
  uint32_t out = 0;
  tc5_ptx_arg arg = {.kind = TC5_PTX_ARG_BUFFER, .data = &out, .bytes = 4};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = 1;
  cfg.block[0] = 64;
  cfg.threads = 1;
  cfg.timing = "h200";
  tc5_timing_result r;
  cfg.timing_result = &r;
  tc5_ptx_stats stats;
  assert_int_equal(tc5_ptx_launch(m, &cfg, &arg, 1, &stats, &dg), TC5_OK);
  tc5_ptx_free(m);
  assert_true(out >= 32 + 64 && out <= 63 + 64); /* a consumer lane's tid + 64 */
  assert_true(r.cta_cycles_max >= 2 * 64 * 4 + 51);
  assert_true(r.cta_cycles_max < 2 * 64 * 4 + 51 + 200); /* the bar.sync, the init, the issue of the rest */
}

/* tcgen05.mma by shape (b200: rate 8153 FLOP/clk, floor 32 + N/4 for
 * cta_group::1 M = 128; M = 64 as long as M = 128), hand-worked:
 * 128x256x16: 2*128*256*16 / 8153 = 128.61 (above the floor 96);
 * 128x64x16: 32.15 below the floor 32 + 64/4 = 48 -> 48 (published 48.6);
 * 64x256x16: 64.31 x 2 = 128.61 (published 128.5);
 * 128x64x32 e4m3 (rate 2.005 x): 524288 / 16346.8 = 32.07 -> 48 (published 48.3);
 * cta_group::2 256x64x16: half each, 2*256*64*16 / 2 / 8153 = 32.15 (no floor: not modelled for pairs) */
static void test_tcgen05_shape(void **state) {
  (void)state;
  tm_params p;
  assert_int_equal(tm_params_load("b200", &p), TC5_OK);
  assert_true(fabs(tm_tcgen05_cycles(&p, 128, 256, 2.0 * 128 * 256 * 16, TM_RATE_BF16, 1) - 128.612) < 0.001);
  assert_true(tm_tcgen05_cycles(&p, 128, 64, 2.0 * 128 * 64 * 16, TM_RATE_BF16, 1) == 48);
  assert_true(fabs(tm_tcgen05_cycles(&p, 64, 256, 2.0 * 64 * 256 * 16, TM_RATE_BF16, 1) - 128.612) < 0.001);
  assert_true(tm_tcgen05_cycles(&p, 128, 64, 2.0 * 128 * 64 * 32, TM_RATE_FP8, 1) == 48);
  assert_true(fabs(tm_tcgen05_cycles(&p, 256, 64, 2.0 * 256 * 64 * 16, TM_RATE_BF16, 2) - 32.153) < 0.001);
}

/* a TMA store of 65536 bytes (one CTA on the b200: the engine at min(256,
 * 10240) = 256 B/clk): the engine is busy 256 cycles, the bulk group
 * completes 256 + tma_latency (933) = 1189 cycles after; a load behind it
 * waits for the engine; the bytes count as global writes */
static void test_tma_store(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_TMA, -1, -1);
  fake_launch(&f, "b200", 1, 1);
  const tm_params *p = &f.l->p;
  assert_true(p->tma_latency == 933 && f.l->rates.tma_bpc == 256);
  tm_tma_store(f.t, 0, 65536);
  assert_true(f.t->tma_free == 256);
  assert_true(f.t->w[0].bulk.cur == 256 + 933);
  assert_true(f.t->gmem_bytes == 65536 && f.t->gst_bytes == 65536);
  tm_mb mb;
  memset(&mb, 0, sizeof mb);
  tm_mbar_signal(f.t, 1, 0, &mb, 16384, 1); /* a load behind the store: 256 + 64 + 933 */
  assert_true(mb.done == 256 + 64 + 933);
  fake_free(&f);
}

/* t47a: a tensor store issued by every lane of a warp with the same operands is one copy (ptxas
 * compiles cp.async.bulk.tensor to UTMASTG, a uniform-datapath instruction: FA4's epilogue, an
 * unpredicated store from a whole warp, is one UTMASTG in its SASS). A 64 x 32 bf16 box (4096 B)
 * stored by lane 0 alone, by all 32 lanes, and by all 32 with two different boxes (odd lanes at
 * column 64): the model's global bytes 4096, 4096, 8192 (the runner still performs each lane's) */
static const char *tma_store_kernel =
    ".version 8.8\n.target sm_100a\n.address_size 64\n"
    ".visible .entry k(.param .align 64 .b8 tm[128], .param .u32 lanes, .param .u32 two) {\n"
    " .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n"
    " .shared .align 1024 .b8 buf[4096];\n"
    " mov.u32 %r1, %tid.x; ld.param.u32 %r2, [lanes]; setp.ge.u32 %p1, %r1, %r2;\n"
    " ld.param.u32 %r3, [two]; and.b32 %r4, %r1, %r3; shl.b32 %r5, %r4, 6; mov.u32 %r7, 0;\n"
    " mov.b64 %rd2, tm; cvta.param.u64 %rd3, %rd2; mov.u32 %r6, buf;\n"
    " @!%p1 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd3, {%r5, %r7}], [%r6];\n"
    " cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;\n"
    " ret;\n}\n";

static double store_bytes(uint32_t lanes, uint32_t two) {
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m;
  assert_int_equal(tc5_ptx_load(tma_store_kernel, strlen(tma_store_kernel), "k.ptx", &m, &dg), TC5_OK);
  static uint8_t mem[16384];
  tc5_ptx_arg a[4];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_TENSORMAP;
  assert_int_equal(tc5_tmap_params_parse("type=bf16,dims=128x32,strides=256,box=64x32", &a[0].tmap, NULL, NULL, NULL), TC5_OK);
  a[0].data = mem;
  a[0].bytes = sizeof mem;
  a[1].kind = a[2].kind = TC5_PTX_ARG_VALUE;
  a[1].size = a[2].size = 4;
  a[1].bits = lanes;
  a[2].bits = two;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 32;
  cfg.threads = 1;
  cfg.timing = "b200";
  tc5_timing_result r;
  cfg.timing_result = &r;
  tc5_status st = tc5_ptx_launch(m, &cfg, a, 3, NULL, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  tc5_ptx_free(m);
  return r.l2_bytes;
}

static void test_tma_store_warp(void **state) {
  (void)state;
  assert_true(store_bytes(1, 0) == 4096);
  assert_true(store_bytes(32, 0) == 4096);
  assert_true(store_bytes(32, 1) == 8192);
}

/* t47a: an .f32x2 instruction (8-byte operands) holds the FP32 pipe two issue slots (the vendor's
 * FP32 rate, 128 FMA a clock an SM, counts one FMA a lane: HGX B200 75 TFLOP/s); an f32 one, one:
 * clock 0 -> 1 (fma.f32) -> 3 (fma.f32x2); its pipe 3 / 4 schedulers */
static void test_fp32x2_issue(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_FP32, 1, -1);
  fake_insn(&f, 1, TM_C_FP32, 2, -1);
  f.insn[1].bytes = 8;
  fake_launch(&f, "b200", 2, 1);
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 1);
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 3);
  assert_true(f.t->pipe[TM_C_FP32] == 0.75);
  fake_free(&f);
}

/* the module of PTX `text` and its timing code (each instruction's class, bytes, SASS count) */
static tm_insn *timing_code_of(const char *text, tc5_ptx_module **m) {
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_load(text, strlen(text), "k.ptx", m, &dg), TC5_OK);
  tm_insn *t;
  assert_int_equal(ptx_timing_code(*m, &t), TC5_OK);
  return t;
}

/* the classes the timing code gives the instructions of PTX `text` that pick() selects (by their text),
 * in order: exactly want[0 .. n) */
static void assert_classes(const char *text, int (*pick)(const char *), const uint8_t *want, unsigned n) {
  tc5_ptx_module *m;
  tm_insn *t = timing_code_of(text, &m);
  unsigned seen = 0;
  for (uint32_t pc = 0; pc < m->ncode && seen < n; pc++)
    if (pick(t[pc].text)) assert_int_equal(t[pc].cls, want[seen++]);
  assert_int_equal(seen, n);
  free(t);
  tc5_ptx_free(m);
}
static int pick_not_ret(const char *s) { return strncmp(s, "ret", 3) != 0; }
static int pick_tcgen05(const char *s) { return !strncmp(s, "tcgen05.", 8); }
static int pick_cvt_not_u16(const char *s) { return !strncmp(s, "cvt.", 4) && !strstr(s, ".u16"); }
static int pick_mov(const char *s) { return !strncmp(s, "mov.", 4); }

/* tcgen05.wait::ld holds the warp until its loads are done (t47c): a load of one register a lane
 * (128 B a warp) issued at clock 0 completes at tmem_ld_latency + 128 / tmem_bytes_per_clk (x share 1)
 * = 40 + 0.25; the wait then sets the warp's clock there. */
static void test_tmem_wait_ld(void **state) {
  (void)state;
  /* the class: Triton's and Gluon's tcgen05.wait::ld / ::st (the decoder's sub-name is "wait::ld", which
   * its table of whole sub-names did not match: TM_C_TCGEN05 before t47c) */
  static const char *text = ".version 8.7\n.target sm_100a\n.address_size 64\n"
                            ".visible .entry k() {\n .reg .b32 %r<4>;\n"
                            " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r2];\n"
                            " tcgen05.wait::ld.sync.aligned;\n"
                            " tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2], {%r1};\n"
                            " tcgen05.wait::st.sync.aligned;\n"
                            " tcgen05.fence::before_thread_sync;\n ret;\n}\n";
  static const uint8_t want[] = {TM_C_TMEM_LD, TM_C_TMEM_WAIT, TM_C_TMEM_ST, TM_C_TMEM_WAIT, TM_C_TCGEN05};
  assert_classes(text, pick_tcgen05, want, 5);
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_TMEM_LD, 1, -1);
  fake_insn(&f, 1, TM_C_TMEM_WAIT, -1, -1);
  fake_insn(&f, 2, TM_C_FP32, 3, -1);
  fake_launch(&f, "b200", 3, 1);
  const tm_params *p = &f.l->p;
  double done = p->tmem_ld_latency + 128.0 / p->tmem_bytes_per_clk;
  assert_true(done == 40.25);
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].tmem_ld == done);
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock >= done);
  fake_free(&f);
}

/* B200 MUFU (t47c): 16 results a clock an SM (the H100's count, unchanged on the B200 by FA4's authors;
 * the lent H200 measures 8.0 clk a warp-instruction) over 4 sub-partitions = 4 lanes a clock a scheduler:
 * a warp's ex2 holds its scheduler 32 / 4 = 8 clk; two back to back from one warp issue at 0 and 8, and
 * the SFU's busy work of one warp-instruction is 8 / 4 schedulers = 2 clk of the SM. */
static void test_b200_sfu_rate(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_SFU, 1, -1);
  fake_insn(&f, 1, TM_C_SFU, 2, -1);
  fake_launch(&f, "b200", 2, 1);
  const tm_params *p = &f.l->p;
  assert_true(p->issue_sfu == 32.0 / (16.0 / 4.0));
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 8);
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 16);
  assert_true(f.t->work[TC5_TU_SFU] == 2 * 8.0 / 4);
  fake_free(&f);
}

/* H200 TMA load (t47x): completion = start + bytes / bw_tma + tma_latency, where tma_latency is the
 * zero-byte intercept of one loaded 2-D box (h200_tma_loaded.tsv: 329.5 clk + B / 68.0 from L2,
 * 132 CTAs) -> 329, not a whole 16 KiB box's 584 (which already holds the transfer).
 * 132 CTAs, one an SM: bw_tma = min(40.1, 4988 / 132) = 37.79 B/clk; 16 KiB -> 433.6 + 329 = 762.6
 * (was 584 + 433.6 = 1017.6; silicon 560.1 for this box). */
static void test_tma_load_h200(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_TMA, -1, -1);
  fake_launch(&f, "h200", 1, 132);
  const tm_params *p = &f.l->p;
  assert_true(p->tma_latency == 329);
  assert_true(fabs(f.l->rates.tma_bpc - 4988.0 / 132) < 1e-9);
  tm_mb mb;
  memset(&mb, 0, sizeof mb);
  tm_mbar_signal(f.t, 0, 0, &mb, 16384, 1);
  assert_true(fabs(mb.done - (16384.0 * 132 / 4988 + 329)) < 1e-9);
  assert_true(mb.done > 762 && mb.done < 763);
  fake_free(&f);
}

static void test_launch_bad(void **state) {
  (void)state;
  static uint32_t out[8];
  tc5_timing_result r;
  tc5_diag dg;
  assert_int_equal(launch(kernel90, 8, "a100", 0, out, &r, &dg), TC5_EINVAL);
  assert_true(has(&dg, "a100"));
  assert_int_equal(launch(kernel90, 8, "b200", 0, out, &r, &dg), TC5_EINVAL); /* sm_90a PTX on a B200 */
  assert_true(has(&dg, "b200") && has(&dg, "sm_90a"));
  assert_int_equal(launch(kernel90, 8, "sm_103", 0, out, &r, &dg), TC5_EINVAL);
  assert_true(has(&dg, "sm_103"));
  char *t = malloc(strlen(kernel90) + 1);
  strcpy(t, kernel90);
  memcpy(strstr(t, "sm_90a"), "sm_110", 6);
  assert_int_equal(launch(t, 8, "b200", 0, out, &r, &dg), TC5_EINVAL);
  assert_true(has(&dg, "sm_110"));
  free(t);
}


/* issue rates (h200's measured rows, tests/data/timing/h200_micro.tsv):
 * a cvt between float widths 1.01 -> 1 clk, int<->float 4.01 -> 4, shfl 4.01 -> 4: each its pipe's busy
 * time; the warp dispatches one a clock (t47p): clock 0 -> 1 -> 2 -> 3, the shuffle issued at 2 */
static void test_issue_classes(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_CONV_FLOAT, 1, -1);
  fake_insn(&f, 1, TM_C_CONV, 2, -1);
  fake_insn(&f, 2, TM_C_SHFL, 3, -1);
  fake_insn(&f, 3, TM_C_CONV_FLOAT, 4, 3); /* waits for the shuffle's result */
  fake_launch(&f, "h200", 4, 1);
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 1);
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 2);
  tm_step(f.t, 0, 2, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 3);
  assert_true(f.t->w[0].ready[3] == 2 + 24); /* issued at 2, lat_shfl 24.3 -> 24 */
  tm_step(f.t, 0, 3, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 26 + 1);
  /* each class its own pipe: issue / 4 schedulers */
  assert_true(f.t->pipe[TM_C_CONV_FLOAT] == 0.5 && f.t->pipe[TM_C_CONV] == 1 && f.t->pipe[TM_C_SHFL] == 1);
  fake_free(&f);
}

/* f32 compare/select/min/max (t47r2, run 6: FSEL 2.03, FMNMX 2.01, FSETP+FSEL 2.01 clk a warp-instruction
 * on the H200): the runner's class of setp/selp/min/max.f32 is TM_C_FSEL (add/mul.f32 stay TM_C_FP32, the
 * int forms TM_C_INT); on the H200 an FSEL holds the integer ALU's pipe issue_fsel = 2 clk (its warp 1,
 * t47p: the setp.s32 after it waits for the pipe: issued at 2, the FFMA at 3, clock 4) and puts 2 / 4 schedulers =
 * 0.5 on the integer ALU's pipe (fsel_alu_pipe), beside a setp.s32's 0.5 there: 1.0; an FFMA's 0.25 on
 * the FP32 pipe. On the B200 (issue_fsel 1, fsel_alu_pipe 0: not carried) the FSEL costs as before:
 * 1 clk, 0.25 on the FP32 pipe. */
static void test_fsel_class(void **state) {
  (void)state;
  static const char *text =
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k() {\n"
      " .reg .b32 %r<4>; .reg .f32 %f<6>; .reg .pred %p<3>;\n"
      " setp.lt.f32 %p1, %f1, %f2;\n"
      " selp.f32 %f3, %f1, %f2, %p1;\n"
      " max.f32 %f4, %f1, %f2;\n"
      " min.NaN.f32 %f5, %f1, %f2;\n"
      " add.f32 %f3, %f1, %f2;\n"
      " mul.f32 %f3, %f1, %f2;\n"
      " setp.lt.s32 %p2, %r1, %r2;\n"
      " selp.b32 %r3, %r1, %r2, %p2;\n"
      " ret;\n}\n";
  static const uint8_t want[] = {TM_C_FSEL, TM_C_FSEL, TM_C_FSEL, TM_C_FSEL, TM_C_FP32, TM_C_FP32, TM_C_INT, TM_C_INT};
  assert_classes(text, pick_not_ret, want, 8);

  const char *gpus[] = {"h200", "b200"};
  for (unsigned g = 0; g < 2; g++) {
    fake f;
    memset(&f, 0, sizeof f);
    fake_insn(&f, 0, TM_C_FSEL, 1, -1);
    fake_insn(&f, 1, TM_C_INT, 2, -1);
    fake_insn(&f, 2, TM_C_FP32, 3, -1);
    fake_launch(&f, gpus[g], 4, 1);
    uint64_t regs[16 * 32] = {0};
    tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->w[0].clock == 1);
    tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->w[0].clock == (g ? 3 : 3)); /* H200: dispatched at 2 (the pipe); B200: held 2 from 1 */
    tm_step(f.t, 0, 2, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->w[0].clock == 4);
    if (!g) assert_true(f.t->pipe[TM_C_INT] == 1.0 && f.t->pipe[TM_C_FP32] == 0.25 && f.t->pipe[TM_C_FSEL] == 0);
    else assert_true(f.t->pipe[TM_C_INT] == 0.5 && f.t->pipe[TM_C_FP32] == 0.5 && f.t->pipe[TM_C_FSEL] == 0);
    fake_free(&f);
  }
}

/* the runner's class of a cvt: from its two types */
static void test_cvt_class(void **state) {
  (void)state;
  static const char *text =
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k() {\n"
      " .reg .b32 %r<4>; .reg .f32 %f<4>; .reg .b16 %h<4>; .reg .f64 %d<2>;\n"
      " cvt.rn.f16.f32 %h1, %f1;\n"
      " cvt.f32.bf16 %f2, %h2;\n"
      " cvt.rn.f32.s32 %f3, %r1;\n"
      " cvt.rzi.s32.f32 %r2, %f1;\n"
      " cvt.f64.f32 %d1, %f1;\n"
      " cvt.u32.u16 %r3, %h3;\n"
      " ret;\n}\n";
  static const uint8_t want[] = {TM_C_CONV_FLOAT, TM_C_CONV_FLOAT, TM_C_CONV, TM_C_CONV, TM_C_CONV};
  assert_classes(text, pick_cvt_not_u16, want, 5);
}

/* register moves (t47b2): an unguarded mov between declared registers
 * (packs and unpacks of vectors included) is coalesced by ptxas (Gluon
 * 07's sm_100a SASS keeps 3 MOV + 11 IMAD.MOV of 319 PTX movs): class
 * TM_C_REG_MOVE, no dispatch, its destination ready when its source is.
 * A mov of an immediate, a special register or under a guard stays a move. */
static void test_reg_move(void **state) {
  (void)state;
  static const char *text =
      ".version 8.0\n.target sm_100a\n.address_size 64\n"
      ".visible .entry k() {\n"
      " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
      " mov.b64 %rd1, {%r1, %r2};\n"
      " mov.b64 {%r3, %r4}, %rd1;\n"
      " mov.u32 %r5, %r3;\n"
      " mov.u32 %r6, 5;\n"
      " mov.u32 %r7, %tid.x;\n"
      " setp.eq.u32 %p1, %r6, 5;\n"
      " @%p1 mov.u32 %r5, %r1;\n"
      " ret;\n}\n";
  static const uint8_t want[] = {TM_C_REG_MOVE, TM_C_REG_MOVE, TM_C_REG_MOVE, TM_C_MOVE, TM_C_MOVE, TM_C_MOVE};
  assert_classes(text, pick_mov, want, 6);
  /* the model: r1 ready at 40, the warp at 10: the move leaves the clock
   * at 10 and makes r2 ready at 40; an fp32 add of r2 then issues at 40 */
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_REG_MOVE, 2, 1);
  fake_insn(&f, 1, TM_C_FP32, 3, 2);
  fake_launch(&f, "b200", 2, 1);
  uint64_t regs[16 * 32] = {0};
  f.t->w[0].clock = 10;
  f.t->w[0].ready[1] = 40;
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 10 && f.t->w[0].ready[2] == 40);
  assert_true(f.t->work[TC5_TU_ISSUE] == 0); /* not dispatched */
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 40 + f.l->p.issue_fp32);
  assert_true(f.t->w[0].ready[3] == 40 + f.l->p.lat_alu);
  fake_free(&f);
}

/* ldmatrix / stmatrix: the bytes a lane moves from the shape (m8n8 .x1/.x2/.x4:
 * 4, 8, 16 B; an .x4 is four 8x8 b16 matrices, 512 B a warp), not the .b16 type's 2 */
static void test_matrix_bytes(void **state) {
  (void)state;
  static const char *text =
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k() {\n"
      " .reg .b32 %r<8>; .shared .align 16 .b8 s[512];\n"
      " mov.u32 %r0, s;\n"
      " ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r0];\n"
      " ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r5, %r6}, [%r0];\n"
      " ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r7}, [%r0];\n"
      " stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r0], {%r1, %r2, %r3, %r4};\n"
      " ret;\n}\n";
  tc5_ptx_module *m;
  tm_insn *t = timing_code_of(text, &m);
  const uint8_t want[] = {16, 8, 4, 16};
  unsigned seen = 0;
  for (uint32_t pc = 0; pc < m->ncode; pc++)
    if (strstr(t[pc].text, "matrix")) {
      assert_true(seen < 4);
      assert_int_equal(t[pc].bytes, want[seen]);
      assert_int_equal(t[pc].cls, seen == 3 ? TM_C_ST_SHARED : TM_C_LD_SHARED);
      seen++;
    }
  assert_int_equal(seen, 4);
  free(t);
  tc5_ptx_free(m);
}

/* cp.async: one CTA's stream takes at most 33.6 B/clk (h200_micro_run4.tsv
 * cpasync_1sm_s4_l2) and its SM's L2 share split between co-resident CTAs;
 * it lands after cp.async's own latency (676 clk from L2, cpasync_lat_512_l2) */
static void test_cp_async_cap(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_CP_ASYNC, -1, -1);
  f.insn[0].bytes = 16;
  fake_launch(&f, "h200", 1, 64); /* 64 CTAs on 64 SMs, one each: L2 share 4988 / 64 = 77.94 B/clk */
  const tm_params *p = &f.l->p;
  assert_true(p->cp_async_bytes_per_clk_cta == 33.6 && p->cp_async_latency_l2 == 676);
  assert_true(f.l->rates.l2_bpc == 4988.0 / 64);
  assert_true(f.l->rates.cp_bpc == 33.6);
  assert_true(f.l->rates.cp_latency == 676); /* footprint 0: within L2 */
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE); /* 32 lanes x 16 B */
  assert_true(f.t->cp_bytes == 512);
  assert_true(f.t->w[0].cp.cur == 676 + 512 / 33.6);
  /* the CTA's duration: its cp.async bytes at 33.6 B/clk = 15.24 clk (above its clock, 1, and
   * its L2 share, 512 / 77.94 = 6.57) */
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  tm_cluster_end(f.l, &f.t, 1, 0, &lock);
  assert_true(f.l->dur[0] == 512 / 33.6);
  fake_free(&f);
  /* two CTAs an SM (100,000 B of shared memory each), 264 CTAs: share 2 of 4988 / 132 = 37.79:
   * 18.89 B/clk each, below the cap; footprint beyond L2: latency (676 + 1047) / 2 */
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_CP_ASYNC, -1, -1);
  tm_setup s;
  memset(&s, 0, sizeof s);
  s.gpu = "h200", s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.smem_per_cta = 100000;
  s.cluster_size = 1, s.nclusters = 264, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 1;
  s.footprint = 1u << 30;
  assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
  assert_true(f.l->occ.ctas == 2 && f.l->rates.share == 2);
  assert_true(f.l->rates.cp_bpc == 4988.0 / 132 / 2);
  assert_true(f.l->rates.cp_latency == 0.5 * (676 + 1047));
  tm_launch_free(f.l);
}

/* mma.sync: its own rate (2704 FLOP/clk/SM, mma_sync_f16_w32) and latency
 * (25 clk, mma_sync_f16_lat): an m16n8k16 (4096 FLOPs) issues for
 * 4096 / (2704 / 4) = 6.06 clk (its pipe's, t47p: the warp is held its one dispatch clock)
 * and its result is ready 25 clk after issue */
static void test_mma_sync_rate(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_MMA_SYNC, 1, -1);
  f.insn[0].flops = 4096 / 64;
  fake_insn(&f, 1, TM_C_FP32, 2, 1);
  fake_launch(&f, "h200", 2, 1);
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].clock == 1);
  assert_true(f.t->w[0].ready[1] == 25);
  assert_true(f.t->work[TC5_TU_TENSOR] == 4096 / 2704.0);
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE); /* waits for the accumulator */
  assert_true(f.t->w[0].clock == 25 + 1);
  fake_free(&f);
}

/* the last partial wave: 300 CTAs, two an SM (100,000 B of shared memory
 * each) on 132 SMs = 264 slots: share 2; the last 300 mod 264 = 36 CTAs
 * have ceil(36 / 132) = 1 CTA an SM. A CTA of critical path 4 and units'
 * work 5 (alone) lasts max(4, 2 x 5) = 10 in the full wave and max(4, 1 x 5)
 * = 5 in the tail, plus cta_launch 157 each: the makespan is 167 + 162 */
static void test_tail_wave(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_OTHER, -1, -1);
  tm_setup s;
  memset(&s, 0, sizeof s);
  s.gpu = "h200", s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.smem_per_cta = 100000;
  s.cluster_size = 1, s.nclusters = 300, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 1;
  s.sample = TC5_TIMING_SAMPLE_ALL;
  assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
  assert_true(f.l->occ.ctas == 2 && f.l->rates.share == 2 && f.l->nrun == 300);
  for (unsigned j = 0; j < 300; j++) f.l->dur[j] = 10, f.l->dpath[j] = 4, f.l->dunit[j] = 5;
  double d[300];
  tm_launch_durations(f.l, d);
  tm_tail_durations(f.l, d, 264);
  assert_true(d[0] == 167 && d[263] == 167 && d[264] == 162 && d[299] == 162);
  assert_true(tm_list_schedule(d, 300, 264, NULL) == 167 + 162);
  /* a grid that fills its slots exactly has no partial wave */
  f.l->s.nclusters = 264;
  tm_launch_durations(f.l, d);
  tm_tail_durations(f.l, d, 264);
  assert_true(d[263] == 167);
  tm_launch_free(f.l);
}

/* the L2 state a launch finds: DRAM bytes of a footprint F with no traffic
 * beyond it. Warm (the default): 0 up to l2_resident_bytes R = 36 MiB
 * (h200_micro_run4.tsv l2warm_read_us_36mib), F (F - R) / (L2 - R) up to the
 * L2's 48 MiB, F beyond; cold (TC5_TIMING_L2=cold): F. A bad value is named. */
static double dram_of(uint64_t footprint) {
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_OTHER, -1, -1);
  fake_launch(&f, "h200", 1, 1);
  f.l->s.footprint = footprint;
  double d = tm_dram_bytes(f.l, (double)footprint);
  fake_free(&f);
  return d;
}
static void test_l2_state(void **state) {
  (void)state;
  const uint64_t MiB = 1u << 20;
  unsetenv("TC5_TIMING_L2");
  assert_true(dram_of(12 * MiB) == 0);
  assert_true(dram_of(36 * MiB) == 0);
  assert_true(dram_of(42 * MiB) == 42.0 * MiB * (6.0 / 12.0)); /* (42 - 36) / (48 - 36) of it */
  assert_true(dram_of(64 * MiB) == 64.0 * MiB);
  setenv("TC5_TIMING_L2", "warm", 1);
  assert_true(dram_of(12 * MiB) == 0);
  setenv("TC5_TIMING_L2", "cold", 1);
  assert_true(dram_of(12 * MiB) == 12.0 * MiB);
  assert_true(dram_of(42 * MiB) == 42.0 * MiB);
  setenv("TC5_TIMING_L2", "tepid", 1);
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_OTHER, -1, -1);
  tm_setup s;
  memset(&s, 0, sizeof s);
  s.gpu = "h200", s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.cluster_size = 1;
  s.nclusters = 1, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 1;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tm_launch_new(&f.l, &s, &dg), TC5_EINVAL);
  assert_true(has(&dg, "TC5_TIMING_L2 'tepid' is neither 'warm' nor 'cold'"));
  unsetenv("TC5_TIMING_L2");
}

/* HBM: a launch of one CTA over a 1 GiB footprint is HBM-bound; its
 * DRAM bytes split as its traffic: reads at 0.931, writes at 0.74 of
 * 4.8 TB/s, 1.98 GHz: cycles = 2^30 (r / 0.931 + w / 0.74) / 4.8e12 * 1.98e9 */
static double hbm_launch(uint8_t c0, uint8_t c1) {
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, c0, -1, -1);
  fake_insn(&f, 1, c1, -1, -1);
  fake_launch(&f, "h200", 2, 1);
  f.l->s.footprint = 1u << 30;
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  tm_cluster_end(f.l, &f.t, 1, 0, &lock);
  tc5_timing_result r;
  assert_int_equal(tm_launch_finish(f.l, &r, NULL), TC5_OK);
  tm_cta_free(f.t);
  tm_cta_free(f.peer);
  tm_launch_free(f.l);
  return r.cycles;
}
static void test_hbm_read_write(void **state) {
  (void)state;
  double rd = hbm_launch(TM_C_LD_GLOBAL, TM_C_LD_GLOBAL), wr = hbm_launch(TM_C_ST_GLOBAL, TM_C_ST_GLOBAL),
         cp = hbm_launch(TM_C_LD_GLOBAL, TM_C_ST_GLOBAL);
  assert_true(fabs(rd - 475744.90) < 0.01);  /* 2^30 / 0.931 / 4.8e12 * 1.98e9 */
  assert_true(fabs(wr - 598538.52) < 0.01);  /* 2^30 / 0.74 / 4.8e12 * 1.98e9 */
  assert_true(fabs(cp - 537141.71) < 0.01);  /* half each */
}

/* sampling by grid column: a causal-style grid of 8 query blocks (dimension
 * 0) x 64 heads, 16 samples: x = j % 8, row = floor((j + 0.5) 64 / 16) =
 * 4j + 2, cluster x + 8 row = j % 8 + 32 j + 16 (by the linear index alone
 * every sample would sit in column 0: 16 + 32 j). Each cluster's duration
 * is its column's mean, interpolated between sampled columns */
static void test_sampling_by_column(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_INT, 1, -1);
  tm_setup s;
  memset(&s, 0, sizeof s);
  s.gpu = "h200";
  s.target = "sm_90a";
  s.threads_per_cta = 128;
  s.warps_per_cta = 4;
  s.smem_per_cta = 200000;
  s.cluster_size = 1;
  s.nclusters = 512;
  s.grid[0] = 8, s.grid[1] = 64, s.grid[2] = 1;
  s.sample = 16;
  s.reg_hi = 16;
  s.insn = f.insn;
  s.ck = f.ck;
  s.ncode = 1;
  tm_launch *l;
  assert_int_equal(tm_launch_new(&l, &s, NULL), TC5_OK);
  uint64_t n;
  const uint64_t *pick;
  tm_launch_plan(l, &n, &pick);
  assert_int_equal(n, 16);
  for (uint64_t j = 0; j < 16; j++) assert_int_equal(pick[j], j % 8 + 32 * j + 16);
  /* the work grows with the column: 100 (x + 1) cycles */
  for (uint64_t j = 0; j < 16; j++) l->dur[j] = 100.0 * (double)(pick[j] % 8 + 1);
  static double d[512];
  tm_launch_durations(l, d);
  for (unsigned i = 0; i < 512; i++) assert_true(d[i] == 100.0 * (i % 8 + 1) + 157); /* + cta_launch */
  tm_launch_free(l);
  /* columns not sampled are interpolated: 40 columns x 64 rows, 16 samples at x = floor((j + 0.5) 40 / 16) */
  s.grid[0] = 40, s.nclusters = 40 * 64;
  assert_int_equal(tm_launch_new(&l, &s, NULL), TC5_OK);
  tm_launch_plan(l, &n, &pick);
  assert_int_equal(n, 16);
  assert_int_equal(pick[0] % 40, 1);   /* floor(0.5 x 2.5) */
  assert_int_equal(pick[1] % 40, 3);   /* floor(1.5 x 2.5) */
  assert_int_equal(pick[15] % 40, 38); /* floor(15.5 x 2.5) */
  for (uint64_t j = 0; j < 16; j++) l->dur[j] = 10.0 * (double)(pick[j] % 40);
  static double e[40 * 64];
  tm_launch_durations(l, e);
  assert_true(e[0] == 10 + 157);      /* below the first sampled column: its value */
  assert_true(e[2] == 20 + 157);      /* between columns 1 and 3: linear */
  assert_true(e[64 * 40 - 1] == 380 + 157); /* column 39, past the last (38) */
  tm_launch_free(l);
}

/* t47h2: issue from ptxas's SASS (sass_weights.c). Hand-worked on the H200
 * (issue_from_sass 1): line 1 one FP32 instruction ptxas made 3 SASS of
 * (div.full's expansion), line 2 an SFU instruction of 4 SASS (ex2.approx.f32:
 * FSETP, FMUL, MUFU, FMUL), line 3 an INT and an FP32 instruction ptxas made
 * one SASS of (0.5 each). Warp clock (t47p: a warp is held its dispatches, the pipes their
 * issue costs): 0 + 3 = 3; + 4 = 7 (the SFU busy 8 from 3); + 0.5 = 7.5 (its pipe 0.5 x 2 = 1 clk:
 * the dispatch's); the FP32's slot: cycle 7 is the INT's, so 8, + 0.5 = 8.5. Dispatch: (3 + 4 + 0.5 + 0.5) / 4 = 2.
 * Pipes: FP32 (1 + 0.5 + 3.5) / 4 = 1.25 (t47v: the MUFU holds it sfu_fp32_clk 3.5; before, 0.375), SFU 8 / 4 = 2,
 * INT 0.5 x 2 / 4 = 0.25.
 * The B200 (issue_from_sass 0) keeps one issue each: 1 + 8 + 2 + 1 = 12, 1. */
static void test_sass_issue(void **state) {
  (void)state;
  const char *gpus[] = {"h200", "b200"};
  for (unsigned g = 0; g < 2; g++) {
    fake f;
    memset(&f, 0, sizeof f);
    fake_insn(&f, 0, TM_C_FP32, -1, -1);
    fake_insn(&f, 1, TM_C_SFU, -1, -1);
    fake_insn(&f, 2, TM_C_INT, -1, -1);
    fake_insn(&f, 3, TM_C_FP32, -1, -1);
    f.insn[3].line = 3; /* the INT's line */
    static const uint16_t sass[4] = {0, 3, 4, 1};
    tm_setup s;
    memset(&s, 0, sizeof s);
    s.gpu = gpus[g], s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.smem_per_cta = 200000;
    s.cluster_size = 1, s.nclusters = 1, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 4;
    s.sass = sass, s.sass_lines = 4;
    assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
    assert_int_equal(tm_cta_new(f.l, 4, &f.t), TC5_OK);
    tm_cta_begin(f.t, 0, 0, 0);
    uint64_t regs[16 * 32] = {0};
    for (uint32_t pc = 0; pc < 4; pc++) tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
    if (g == 0) {
      assert_non_null(f.l->issue_w);
      assert_true(f.l->issue_w[0] == 3 && f.l->issue_w[1] == 4 && f.l->issue_w[2] == 0.5f && f.l->issue_w[3] == 0.5f);
      assert_true(f.t->w[0].clock == 8.5);
      assert_true(f.t->work[TC5_TU_ISSUE] == 2);
      assert_true(f.t->pipe[TM_C_FP32] == 1.25 && f.t->pipe[TM_C_SFU] == 2 && f.t->pipe[TM_C_INT] == 0.25);
    } else {
      assert_null(f.l->issue_w);
      assert_true(f.t->w[0].clock == 12);
      assert_true(f.t->work[TC5_TU_ISSUE] == 1);
    }
    tm_cta_free(f.t);
    tm_launch_free(f.l);
  }
}

/* dispatch and pipe (t47p; run 6's alu rows: FSEL 2.03, ISETP+SEL 2.01 a SASS instruction, FFMA 1.02
 * (h200_micro.tsv); intf: one dispatch a SASS instruction, 2 clk an ALU one, no extra cost for mixing).
 * On the H200 one warp's independent stream FSEL, FFMA, FSEL, FFMA, ... (4 pairs) dispatches at 0,1,2,...,7:
 * the ALU pipe is busy 0-1, 2-3, 4-5, 6-7, so each FSEL finds it free: 2 clk a pair (the model before
 * t47p held the warp 2 clk an FSEL: 3 a pair, 12 in all). Four FSELs back to back: 2 clk each (the pipe),
 * issued at 0, 2, 4, 6, clock 7. Another warp of the same scheduler (warp 4 of 4 schedulers) waits for
 * the pipe too: its FSEL at 8 while warp 0's last holds it 6-7; a warp of another scheduler (warp 1) does
 * not: 0. On the B200 (pipe_dispatch 0) the warp is held, FSEL there 1 clk (issue_fsel 1): 8 a stream. */
static void test_pipe_dispatch(void **state) {
  (void)state;
  const char *gpus[] = {"h200", "b200"};
  for (unsigned g = 0; g < 2; g++) {
    fake f;
    memset(&f, 0, sizeof f);
    for (unsigned k = 0; k < 8; k++) fake_insn(&f, k, k % 2 ? TM_C_FP32 : TM_C_FSEL, 1 + k, -1);
    fake_launch(&f, gpus[g], 8, 8);
    uint64_t regs[16 * 32] = {0};
    for (uint32_t pc = 0; pc < 8; pc++) tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->w[0].clock == 8); /* H200: 4 pairs x 2 clk (was 12); B200: 8 x 1 */
    if (!g) assert_true(f.t->pipe[TM_C_INT] == 4 * 2 / 4.0);
    tm_step(f.t, 1, 0, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->w[1].clock == 1);
    /* 8 warps: warp 0's four FSELs, then warp 4's (the same scheduler) and warp 5's (the next) */
    tm_cta *c8;
    assert_int_equal(tm_cta_new(f.l, 8, &c8), TC5_OK);
    tm_cta_begin(c8, 0, 2, 2);
    for (uint32_t pc = 0; pc < 8; pc += 2) tm_step(c8, 0, pc, 0xffffffffu, regs, TM_DONE);
    assert_true(c8->w[0].clock == (g ? 4 : 7));
    tm_step(c8, 4, 0, 0xffffffffu, regs, TM_DONE);
    assert_true(c8->w[4].clock == (g ? 5 : 9)); /* B200: the dispatch slot only (slots 0-3 taken) */
    tm_step(c8, 5, 0, 0xffffffffu, regs, TM_DONE);
    assert_true(c8->w[5].clock == 1);
    tm_cta_free(c8);
    fake_free(&f);
  }
}

/* ptxas's order (t47s; run 6's intf loops: ptxas's SASS reads ISETP, ISETP, FFMA, SEL, ... and silicon runs
 * them at the ALU pipe's 4 clk a pair). Hand-worked on the H200 (lat_alu 4, issue_int 2 on the ALU pipe,
 * FFMA 1, one dispatch a clock), one SASS a line: FFMA r1<-r1, setp r2<-r4, selp r5<-r2, setp r6<-r7,
 * selp r8<-r6, FFMA r1<-r1, bra.
 * ptxas's order: FFMA 0 (front 1); setp A 1 (ALU 1-2, front 2); selp A waits for r2 (5): floats, at 5
 * (ALU 5-6), the front stays 2; setp B at the front: slot 2 free but the ALU busy at 2, so 3 (ALU 3-4,
 * front 4); selp B waits for r6 (7): floats, 7; FFMA r1 ready at 4 = the front: slot 4, front 5; bra waits
 * for everything before it: 8 (the last dispatch ended 8), clock 9.
 * PTX order (the same table, no SASS known): 0, 1, 5, 7 (ALU 5-6 busy), 11, 12, 13: clock 14.
 * The issue work is the same (7 dispatches: 7 / 4). A memory operation keeps its place at the front: after
 * an INT waiting for r1 (ready 10; dispatched 10, clock 11) a ld.shared dispatches at 0 (front 1), and a
 * barrier after them waits for the INT: 11, clock 12. */
static void test_ptxas_order(void **state) {
  (void)state;
  static const uint16_t sass[8] = {0, 1, 1, 1, 1, 1, 1, 1};
  for (unsigned known = 0; known < 2; known++) {
    fake f;
    memset(&f, 0, sizeof f);
    fake_insn(&f, 0, TM_C_FP32, 1, 1);
    fake_insn(&f, 1, TM_C_INT, 2, 4);
    fake_insn(&f, 2, TM_C_INT, 5, 2);
    fake_insn(&f, 3, TM_C_INT, 6, 7);
    fake_insn(&f, 4, TM_C_INT, 8, 6);
    fake_insn(&f, 5, TM_C_FP32, 1, 1);
    fake_insn(&f, 6, TM_C_BRANCH, -1, -1);
    tm_setup s;
    memset(&s, 0, sizeof s);
    s.gpu = "h200", s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.smem_per_cta = 200000;
    s.cluster_size = 1, s.nclusters = 1, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 7;
    if (known) s.sass = sass, s.sass_lines = 8;
    assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
    assert_true(f.l->p.ptxas_order == 1);
    assert_int_equal(tm_cta_new(f.l, 4, &f.t), TC5_OK);
    tm_cta_begin(f.t, 0, 0, 0);
    uint64_t regs[16 * 32] = {0};
    static const double front[2][7] = {{1, 2, 6, 8, 12, 13, 14}, {1, 2, 2, 4, 4, 5, 9}};
    static const double clock[2][7] = {{1, 2, 6, 8, 12, 13, 14}, {1, 2, 6, 6, 8, 8, 9}};
    for (uint32_t pc = 0; pc < 7; pc++) {
      tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
      assert_true(f.t->w[0].front == front[known][pc]);
      assert_true(f.t->w[0].clock == clock[known][pc]);
    }
    assert_true(f.t->work[TC5_TU_ISSUE] == 7 / 4.0);
    assert_true(f.t->pipe[TM_C_INT] == 4 * 2 / 4.0);
    tm_cta_free(f.t);
    tm_launch_free(f.l);
  }
  /* a memory operation at the front, a barrier after everything */
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_INT, 2, 1);
  fake_insn(&f, 1, TM_C_LD_SHARED, 3, 4);
  fake_insn(&f, 2, TM_C_BAR, -1, -1);
  tm_setup s;
  memset(&s, 0, sizeof s);
  s.gpu = "h200", s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.smem_per_cta = 200000;
  s.cluster_size = 1, s.nclusters = 1, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 3;
  s.sass = sass, s.sass_lines = 4;
  assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
  assert_int_equal(tm_cta_new(f.l, 4, &f.t), TC5_OK);
  tm_cta_begin(f.t, 0, 0, 0);
  f.t->w[0].ready[1] = 10;
  uint64_t regs[16 * 32] = {0};
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].front == 0 && f.t->w[0].clock == 11);
  tm_step(f.t, 0, 1, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].front == 1 && f.t->w[0].clock == 11);
  assert_true(f.t->w[0].ready[3] > 29); /* its latency from 0 */
  tm_step(f.t, 0, 2, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->w[0].front == 12 && f.t->w[0].clock == 12);
  /* the classes' kinds (tm_order_of): arithmetic floats, memory keeps the front, the rest flushes */
  assert_int_equal(tm_order_of(TM_C_FSEL), 2);
  assert_int_equal(tm_order_of(TM_C_SFU), 2);
  assert_int_equal(tm_order_of(TM_C_LD_GLOBAL), 1);
  assert_int_equal(tm_order_of(TM_C_SHFL), 1);
  assert_int_equal(tm_order_of(TM_C_BRANCH), 0);
  assert_int_equal(tm_order_of(TM_C_MMA), 0);
  tm_cta_free(f.t);
  tm_launch_free(f.l);
  /* the B200's table: off */
  tm_params pb;
  assert_int_equal(tm_params_load("b200", &pb), TC5_OK);
  assert_true(pb.ptxas_order == 0);
}

/* ptxas's stall schedule (t47z, stall_sched): a line's SASS stall counts hold
 * the warp (at least its dispatches), a fixed-latency result is ready when
 * the warp may issue again, a MUFU's keeps lat_sfu (17) on the scoreboard.
 * FFMA r1 (stall 4), FFMA r1 (4), MUFU r2 <- r1 (2), FFMA r3 <- r2 (1: waits
 * for the MUFU, floats), IADD r5 <- r6 (stall 0: its one dispatch), bra (5):
 * clocks 4, 8, 10, 26, 26 (the IADD at the front, 10 -> 11), 31; without the
 * stalls (the counts alone, stall_sched 0) 1, 5, 9, 26, 26, 27, the second
 * FFMA then waiting lat_alu for the first (it floats: the front stays at 1). The H200's
 * table: on; the B200's: off */
static void test_stall_sched(void **state) {
  (void)state;
  static const uint16_t sass[14] = {0, 1, 1, 1, 1, 1, 1, /* stalls: */ 0, 4, 4, 2, 1, 0, 5};
  static const double clock[2][6] = {{1, 5, 9, 26, 26, 27}, {4, 8, 10, 26, 26, 31}};
  static const double front[2][6] = {{1, 1, 1, 1, 2, 27}, {4, 8, 10, 10, 11, 31}};
  for (unsigned on = 0; on < 2; on++) {
    fake f;
    memset(&f, 0, sizeof f);
    fake_insn(&f, 0, TM_C_FP32, 1, 1);
    fake_insn(&f, 1, TM_C_FP32, 1, 1);
    fake_insn(&f, 2, TM_C_SFU, 2, 1);
    fake_insn(&f, 3, TM_C_FP32, 3, 2);
    fake_insn(&f, 4, TM_C_INT, 5, 6);
    fake_insn(&f, 5, TM_C_BRANCH, -1, -1);
    tm_setup s;
    memset(&s, 0, sizeof s);
    s.gpu = "h200", s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.smem_per_cta = 200000;
    s.cluster_size = 1, s.nclusters = 1, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 6;
    s.sass = sass, s.sass_lines = 7, s.sass_stall = sass + 7;
    assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
    assert_true(f.l->p.stall_sched == 1 && f.l->issue_stall != NULL); /* the H200's table: on */
    assert_true(f.l->issue_stall[1] == 4 && f.l->issue_stall[4] == 0);
    if (!on) { /* the rule off, as the B200's table has it */
      free(f.l->issue_w);
      free(f.l->issue_stall);
      f.l->p.stall_sched = 0;
      assert_int_equal(tm_sass_weights(f.l), TC5_OK);
      assert_null(f.l->issue_stall);
    }
    assert_true(f.l->p.lat_sfu == 17);
    assert_int_equal(tm_cta_new(f.l, 4, &f.t), TC5_OK);
    tm_cta_begin(f.t, 0, 0, 0);
    uint64_t regs[16 * 32] = {0};
    for (uint32_t pc = 0; pc < 6; pc++) {
      tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
      assert_true(f.t->w[0].clock == clock[on][pc]);
      assert_true(f.t->w[0].front == front[on][pc]);
    }
    assert_true(f.t->w[0].ready[3] == (on ? 26 : 29)); /* the FFMA after the MUFU: its hold, else lat_alu */
    assert_true(f.t->work[TC5_TU_ISSUE] == 6 / 4.0); /* the dispatch work is the counts' either way */
    tm_cta_free(f.t);
    tm_launch_free(f.l);
  }
  assert_true(tm_fixed_latency(TM_C_FSEL) && tm_fixed_latency(TM_C_IMAD) && !tm_fixed_latency(TM_C_SFU) &&
              !tm_fixed_latency(TM_C_CONV) && !tm_fixed_latency(TM_C_LD_SHARED));
}

/* memory operations in order within a state space only (t47z, mem_space_order):
 * ld.global r1, st.shared [] r1, ld.global r2, st.shared [] r2 (L = the
 * global latency). On: the first store waits for r1 and floats (issues at
 * L), the second load issues at 1, beside it, and the second store at 1 + L
 * (not before the first: one space): the warp's clock 2 + L. Off (ptxas's
 * order of t47s: memory in order at the front): the second load waits
 * behind the first store, at L + 1, its store at 2L + 1: clock 2L + 2 */
static void test_mem_space_order(void **state) {
  (void)state;
  static const uint16_t sass[5] = {0, 1, 1, 1, 1};
  for (unsigned on = 0; on < 2; on++) {
    fake f;
    memset(&f, 0, sizeof f);
    fake_insn(&f, 0, TM_C_LD_GLOBAL, 1, -1);
    fake_insn(&f, 1, TM_C_ST_SHARED, -1, 1);
    fake_insn(&f, 2, TM_C_LD_GLOBAL, 2, -1);
    fake_insn(&f, 3, TM_C_ST_SHARED, -1, 2);
    tm_setup s;
    memset(&s, 0, sizeof s);
    s.gpu = "h200", s.target = "sm_90a", s.threads_per_cta = 128, s.warps_per_cta = 4, s.smem_per_cta = 200000;
    s.cluster_size = 1, s.nclusters = 1, s.reg_hi = 16, s.insn = f.insn, s.ck = f.ck, s.ncode = 4;
    s.sass = sass, s.sass_lines = 5;
    assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
    assert_true(f.l->p.mem_space_order == 1); /* the H200's table */
    f.l->p.mem_space_order = on;
    double L = f.l->rates.gmem_latency;
    assert_true(L > 100);
    assert_int_equal(tm_cta_new(f.l, 4, &f.t), TC5_OK);
    tm_cta_begin(f.t, 0, 0, 0);
    uint64_t regs[16 * 32] = {0};
    for (uint32_t pc = 0; pc < 4; pc++) tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->w[0].ready[2] == (on ? 1 + L : L + 1 + L));
    assert_true(f.t->w[0].clock == (on ? 2 + L : 2 * L + 2));
    if (on) assert_true(f.t->w[0].st_at[0] == 1 + L && f.t->w[0].front == 2);
    tm_cta_free(f.t);
    tm_launch_free(f.l);
  }
  tm_params pb;
  assert_int_equal(tm_params_load("b200", &pb), TC5_OK);
  assert_true(pb.mem_space_order == 0 && pb.tc_queue == 0);
}

/* the tensor core as the queue's second station (t47z, tc_queue): P = 100,
 * S = 20, T = 30, two CTAs, beta 1: Z = 50; k = 1: R = 20 + 30, X = 1/100,
 * Q = 0.2, 0.3; k = 2: R_s = 24, R_t = 39, D = 50 + 24 + 39 = 113. T = 0 is
 * tm_issue_queue; the saturated bounds n S and n T hold (P = 10, S = 5,
 * T = 40, three CTAs: 120) */
static void test_issue_tc_queue(void **state) {
  (void)state;
  assert_true(fabs(tm_issue_tc_queue(100, 20, 30, 2, 1) - 113) < 1e-9);
  assert_true(tm_issue_tc_queue(100, 20, 0, 3, 1) == tm_issue_queue(100, 20, 3, 1));
  assert_true(tm_issue_tc_queue(10, 5, 40, 3, 1) >= 120);
  assert_true(fabs(tm_issue_tc_queue(100, 20, 30, 2, 0) - 100) < 1e-9); /* beta 0: no wait, max(P, n S, n T) */
}

/* IMAD's own pipe (t47s, run 8: IMAD and LOP3 alternating at 1.036 clk a warp-instruction, each 2.0 alone).
 * The runner's class of integer mul/mad is TM_C_IMAD (add, and, setp stay TM_C_INT; mul.f32 TM_C_FP32).
 * On the H200 (imad_pipe 1) one warp's independent IMAD, LOP3, IMAD, LOP3 dispatch at 0, 1, 2, 3 (each on
 * its own pipe, 2 clk): clock 4, 2 x 2 / 4 = 1 on each pipe; with one pipe they would be 0, 2, 4, 6 (7). On
 * the B200 (imad_pipe 0, pipe_dispatch 0: as before) both on the integer ALU's pipe, the warp held
 * issue_int 2 each: clock 8, 4 x 2 / 4 = 2 there. */
static void test_imad_pipe(void **state) {
  (void)state;
  static const char *text = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                            ".visible .entry k() {\n"
                            " .reg .b32 %r<6>; .reg .b64 %rd<2>; .reg .f32 %f<3>; .reg .pred %p<2>;\n"
                            " mul.lo.s32 %r1, %r2, %r3;\n"
                            " mad.lo.s32 %r1, %r2, %r3, %r4;\n"
                            " mul.wide.s32 %rd1, %r2, %r3;\n"
                            " add.s32 %r1, %r2, %r3;\n"
                            " and.b32 %r1, %r2, %r3;\n"
                            " setp.lt.s32 %p1, %r1, %r2;\n"
                            " mul.f32 %f1, %f2, %f2;\n"
                            " ret;\n}\n";
  static const uint8_t want[] = {TM_C_IMAD, TM_C_IMAD, TM_C_IMAD, TM_C_INT, TM_C_INT, TM_C_INT, TM_C_FP32};
  assert_classes(text, pick_not_ret, want, 7);
  const char *gpus[] = {"h200", "b200"};
  for (unsigned g = 0; g < 2; g++) {
    fake f;
    memset(&f, 0, sizeof f);
    for (unsigned k = 0; k < 4; k++) fake_insn(&f, k, k % 2 ? TM_C_INT : TM_C_IMAD, 1 + k, 8 + k);
    fake_launch(&f, gpus[g], 4, 1);
    assert_true(f.l->p.imad_pipe == (g ? 0 : 1));
    uint64_t regs[16 * 32] = {0};
    for (uint32_t pc = 0; pc < 4; pc++) tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->w[0].clock == (g ? 8 : 4));
    assert_true(f.t->pipe[TM_C_IMAD] == (g ? 0 : 1) && f.t->pipe[TM_C_INT] == (g ? 2 : 1));
    assert_true(f.t->w[0].ready[1] == 0 + 4 && f.t->w[0].ready[3] == (g ? 4 : 2) + 4); /* lat_alu 4 (B200: the H200's) */
    fake_free(&f);
  }
}

/* the .loc text handed to ptxas and nvdisasm -g's listing read back */
static void test_sass_lines(void **state) {
  (void)state;
  static const char *ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                           " .reg .b32 %r<2>;\n mov.b32 %r1, 1;\n$L__BB0_1:\n\t.loc 2 40 1\n ret;\n}\n"
                           ".section .debug_abbrev\n{\n.b8 1\n}\n";
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  assert_non_null(f);
  assert_true(tm_sass_write_loc(f, ptx, strlen(ptx), "7.8"));
  fclose(f);
  assert_string_equal(buf, ".version 7.8\n.target sm_90a\n.address_size 64\n.file 1 \"tc5.ptx\"\n.visible .entry k()\n{\n"
                           " .reg .b32 %r<2>;\n\t.loc 1 7 0\n mov.b32 %r1, 1;\n$L__BB0_1:\n\t.pragma \"nounroll\";\n"
                           "\t.loc 1 10 0\n ret;\n}\n");
  free(buf);
  static const char *dis = "\t//## File \"tc5.ptx\", line 7\n"
                           "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                           "        /*0010*/                   S2R R6, SR_TID.X ;\n"
                           "\t//## File \"tc5.ptx\", line 9\n"
                           "        /*0020*/              @!P0 FMUL R4, R4, 0.5 ;\n"
                           "        /*0030*/                   NOP ;\n"
                           "        /*0040*/                   EXIT ;\n"
                           ".L_x_0:\n"
                           "\t//## File \"tc5.ptx\", line 99\n"
                           "        /*0050*/                   BRA `(.L_x_0) ;\n";
  uint16_t cnt[12] = {0};
  tm_sass_count(dis, cnt, NULL, 11);
  assert_true(cnt[7] == 2 && cnt[9] == 2); /* the NOP not counted; line 99 beyond the text: dropped */
  unsigned total = 0;
  for (unsigned k = 0; k < 12; k++) total += cnt[k];
  assert_int_equal(total, 4);
}

/* ptxas's control bits (t47z): the high 64-bit words of SASS that ptxas 13.0
 * -arch=sm_90a wrote for a kernel of one FFMA chain, an ISETP -> FSEL pair
 * and a MUFU.EX2 (nvdisasm -hex), decoded by hand: bits 41-44 the stall,
 * 45 the yield bit, 46-48 the write scoreboard, 49-51 the read one (7:
 * none), 52-57 the wait mask, 58-61 the reuse flags; then nvdisasm -g
 * -hex's listing summed per PTX line (a NOP's stall dropped with it) */
static void test_sass_ctrl(void **state) {
  (void)state;
  static const struct {
    uint64_t hi;
    unsigned stall, yield, wbar, rbar, wait, reuse;
  } k[] = {
      {0x000fe20007ffe0ffull, 1, 1, 7, 7, 0, 0},  /* IADD3 R0, R0, 0x1, RZ: 0x7f1 */
      {0x000fc80000000005ull, 4, 0, 7, 7, 0, 0},  /* FFMA R5, R5, R5, 1 (the chain: its latency, 4) */
      {0x000e640000000800ull, 2, 1, 1, 7, 0, 0},  /* MUFU.EX2 R4, R4: sets scoreboard 1 */
      {0x002fce0000000000ull, 7, 0, 7, 7, 2, 0},  /* FADD R5, R5, R4: waits for scoreboard 1 */
      {0x040fe40003f06270ull, 2, 1, 7, 7, 0, 1},  /* ISETP.GE.AND P0, PT, R0.reuse, 0x7, PT: reuse of operand A */
      {0x001172000c1e1900ull, 9, 1, 5, 0, 1, 0},  /* LDG.E R5: writes 5, reads 0, waits for 0 (its LDC.64) */
      {0x000fc00003800000ull, 0, 0, 7, 7, 0, 0},  /* NOP: 0x7e0, CuAssembler's [B------:R-:W-:Y:S00] */
  };
  for (unsigned i = 0; i < sizeof k / sizeof k[0]; i++) {
    tm_sass_ctrl_t c;
    tm_sass_ctrl(k[i].hi, &c);
    assert_int_equal(c.stall, k[i].stall);
    assert_int_equal(c.yield, k[i].yield);
    assert_int_equal(c.wbar, k[i].wbar);
    assert_int_equal(c.rbar, k[i].rbar);
    assert_int_equal(c.wait, k[i].wait);
    assert_int_equal(c.reuse, k[i].reuse);
  }
  static const char *dis = "\t//## File \"tc5.ptx\", line 13\n"
                           "        /*0060*/                   FFMA R5, R5, R5, 1 ;                      /* 0x3f80000005057423 */\n"
                           "                                                                             /* 0x020fe20000000005 */\n"
                           "\t//## File \"tc5.ptx\", line 16\n"
                           "        /*0070*/                   ISETP.GE.AND P0, PT, R0.reuse, 0x7, PT ;  /* 0x000000070000780c */\n"
                           "                                                                             /* 0x040fe40003f06270 */\n"
                           "\t//## File \"tc5.ptx\", line 14\n"
                           "        /*0090*/                   FFMA R5, R5, R5, 1 ;                      /* 0x3f80000005057423 */\n"
                           "                                                                             /* 0x000fc80000000005 */\n"
                           "        /*00a0*/                   NOP ;                                     /* 0x0000000000007918 */\n"
                           "                                                                             /* 0x000fea0000000000 */\n"
                           "        /*00b0*/              @!P0 FSEL R4, R5, RZ, !P0 ;                    /* 0x000000ff05047208 */\n"
                           "                                                                             /* 0x000fca0004000000 */\n"
                           "\t//## File \"tc5.ptx\", line 18\n"
                           "        /*00d0*/                   MUFU.EX2 R4, R4 ;                         /* 0x0000000400047308 */\n"
                           "                                                                             /* 0x000e640000000800 */\n";
  uint16_t cnt[20] = {0}, stall[20] = {0};
  tm_sass_count(dis, cnt, stall, 19);
  /* line 13: FFMA (stall 1 = 0x020fe2 >> 1 & 15); 16: ISETP (2); 14: FFMA (4) and
   * the guarded FSEL (0x000fca: 5), the NOP between them (stall 5) neither counted nor summed; 18: MUFU (2) */
  assert_true(cnt[13] == 1 && stall[13] == 1);
  assert_true(cnt[16] == 1 && stall[16] == 2);
  assert_true(cnt[14] == 2 && stall[14] == 9);
  assert_true(cnt[18] == 1 && stall[18] == 2);
  uint16_t cnt2[20] = {0};
  tm_sass_count(dis, cnt2, NULL, 19); /* counts alone: the same */
  assert_memory_equal(cnt, cnt2, sizeof cnt);
}

/* L2's time for reads and stores (t47h2, run 5): 2 MB read at 4988 B/clk
 * and 1 MB stored at 2420 B/clk on the H200 = 400.96 + 413.22 clk; the
 * B200 stores at its read rate (10240): 3 MB / 10240 as before */
static void test_l2_write(void **state) {
  (void)state;
  tm_params p;
  assert_int_equal(tm_params_load("h200", &p), TC5_OK);
  assert_true(p.l2_write_bytes_per_clk == 2420);
  assert_true(fabs(tm_l2_cycles(&p, 3e6, 1e6) - (2e6 / 4988 + 1e6 / 2420)) < 1e-9);
  assert_true(fabs(tm_l2_cycles(&p, 3e6, 0) - 3e6 / 4988) < 1e-9);
  assert_int_equal(tm_params_load("b200", &p), TC5_OK);
  assert_true(fabs(tm_l2_cycles(&p, 3e6, 1e6) - 3e6 / p.l2_bytes_per_clk) < 1e-9);
  assert_true(p.l2_write_bytes_per_clk == p.l2_bytes_per_clk);
}

/* the issue slot's queue (t47r), hand-computed: P = 100, S = 20 (Z = 80),
 * n = 3, beta = 1: R(1) = 20, Q(1) = 20/100 = 0.2; R(2) = 20 x 1.2 = 24,
 * Q(2) = 2 x 24/104 = 6/13; R(3) = 20 x 19/13 = 380/13 = 29.2308, so D =
 * 80 + 380/13 = 109.2308 (> 3 x 20 = 60). beta = 0.5, n = 2: R(2) = 20 x 1.1
 * = 22, D = 102. n = 2.5, beta = 1: R + Z from 104 towards 109.2308 half-way:
 * 106.6154. beta = 0 is max(P, n S): 100 at n = 3, 120 at n = 6. S >= P
 * (Z = 0): P = 10, S = 20, n = 2, beta = 1: R(1) = 20, Q = 1, R(2) = 40 = 2 S.
 * No issue work: P. Saturated (t47r2): P = S = 20, n = 16, beta = 1: Z = 0, Q(k) = k, R(16) = 16 S = 320: the
 * throughput bound n S, which beta > 1 would pass (1.13: 20 x (1 + 1.13 x 15) = 359). The Hopper tables' issue_queue
 * is 1 (run 6's 2-CTA rows, bounded by 1), the B200's 0 (not carried). */
static void test_issue_queue(void **state) {
  (void)state;
  assert_true(fabs(tm_issue_queue(100, 20, 3, 1) - (80 + 380.0 / 13)) < 1e-9);
  assert_true(fabs(tm_issue_queue(100, 20, 2, 0.5) - 102) < 1e-9);
  assert_true(fabs(tm_issue_queue(100, 20, 2.5, 1) - (104 + 0.5 * (380.0 / 13 - 24))) < 1e-9);
  assert_true(tm_issue_queue(100, 20, 3, 0) == 100);
  assert_true(tm_issue_queue(100, 20, 6, 0) == 120);
  assert_true(tm_issue_queue(10, 20, 2, 1) == 40);
  assert_true(tm_issue_queue(100, 0, 8, 1) == 100);
  assert_true(tm_issue_queue(100, 20, 1, 1) == 100);
  assert_true(fabs(tm_issue_queue(20, 20, 16, 1) - 320) < 1e-9);
  assert_true(fabs(tm_issue_queue(20, 20, 16, 1.13) - 20 * (1 + 1.13 * 15)) < 1e-9);
  const char *gpus[] = {"h200", "h100", "b200"};
  for (unsigned g = 0; g < 3; g++) {
    tm_params p;
    assert_true(tm_params_load(gpus[g], &p) == TC5_OK);
    assert_true(p.issue_queue == (g < 2 ? 1 : 0));
  }
}

/* the first wave's launches staggered per SM (t47h2): 4 clusters of 10 clk
 * on 2 SMs x 2 slots, cta_launch 5: slots first free at 0, 0, 5, 5, so
 * the last two start at 5 and end at 15 (unstaggered: 10). One wave of 8
 * CTAs an SM on 132 SMs, each 1000 clk (its 157 clk launch included): the
 * eighth on each SM starts at 7 x 157 and ends at 2099 clk. Only the first
 * wave is staggered: a freed slot is reused at once (so empty CTAs, whose
 * slots free after 157 clk, are not serialised: a limit, docs/timing.md) */
static void test_launch_stagger(void **state) {
  (void)state;
  const double d[] = {10, 10, 10, 10};
  double st[4];
  assert_true(tm_list_schedule_staggered(d, 4, 4, 2, 5, st) == 15);
  assert_true(st[0] == 0 && st[1] == 0 && st[2] == 5 && st[3] == 5);
  assert_true(tm_list_schedule(d, 4, 4, NULL) == 10);
  static double e[132 * 8];
  for (unsigned i = 0; i < 132 * 8; i++) e[i] = 1000;
  assert_true(tm_list_schedule_staggered(e, 132 * 8, 132 * 8, 132, 157, NULL) == 7 * 157 + 1000);
}

/* a cp.async with a src-size operand (operand 3): global bytes are each
 * lane's min(src-size, 16): 16 lanes x 16 + 8 lanes x 8 + 8 lanes x 0 (a
 * zero-fill) = 320; the CTA's cp.async bytes (its rate, shared memory)
 * stay 32 x 16 = 512 (run 5: a zero-fill moves at a copy's rate) */
static void test_cp_async_zfill(void **state) {
  (void)state;
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_CP_ASYNC, -1, -1);
  f.insn[0].bytes = 16;
  f.regs[0][f.ck[0].nregs++] = (chk_reg){5, 3, 0};
  fake_launch(&f, "h200", 1, 1);
  uint64_t regs[16 * 32] = {0};
  for (unsigned l = 0; l < 32; l++) regs[5 * 32 + l] = l < 16 ? 16 : l < 24 ? 8 : 0;
  tm_step(f.t, 0, 0, 0xffffffffu, regs, TM_DONE);
  assert_true(f.t->gmem_bytes == 320);
  assert_true(f.t->cp_bytes == 512);
  fake_free(&f);
}

/* ---- t47u: occupancy by Tensor Memory (docs/timing.md "Occupancy") ---- */

/* hand-computed on the B200's table: 128 threads, 32 registers: 16 CTAs by threads (2048 / 128) and by
 * registers (65536 / (4 x 1024)); Tensor Memory 512 / cols: 512 -> 1, 128 -> 4, 64 -> 8, 32 -> 16 (a tie:
 * the threads keep the name), 0 -> no bound; not constant -> the whole 512 assumed, 1; the H200 has no
 * Tensor Memory (tmem_cols_per_sm 0): no bound, nothing counted */
static void test_tmem_occupancy(void **state) {
  (void)state;
  tm_params p;
  assert_int_equal(tm_params_load("b200", &p), TC5_OK);
  assert_true(p.tmem_cols_per_sm == 512);
  static const struct { uint32_t cols; bool unknown; uint32_t ctas, counted; const char *limit; } c[] = {
      {512, false, 1, 512, "Tensor Memory"}, {128, false, 4, 128, "Tensor Memory"}, {64, false, 8, 64, "Tensor Memory"},
      {32, false, 16, 32, "threads"},        {0, false, 16, 0, "threads"},          {0, true, 1, 512, "Tensor Memory"},
      {1024, false, 1, 512, "Tensor Memory"},
  };
  for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
    tm_occupancy o;
    tm_occupancy_of(&p, 128, 2048, 32, 1, &o);
    assert_int_equal(o.ctas, 16);
    tm_occupancy_tmem(&p, c[k].cols, c[k].unknown, &o);
    assert_int_equal(o.ctas, c[k].ctas);
    assert_int_equal(o.tmem_cols, c[k].counted);
    assert_string_equal(o.limit, c[k].limit);
  }
  assert_int_equal(tm_params_load("h200", &p), TC5_OK);
  assert_true(p.tmem_cols_per_sm == 0);
  tm_occupancy o;
  tm_occupancy_of(&p, 128, 2048, 32, 1, &o);
  tm_occupancy_tmem(&p, 512, false, &o);
  assert_int_equal(o.ctas, 16);
  assert_int_equal(o.tmem_cols, 0);
}

/* a CTA of 4 warps whose warp 0 allocates (ALLOC: the instructions), reads the address, frees and
 * relinquishes; run with --timing=b200 and 32 registers: the breakdown's CTAs per SM and its limit */
static void tmem_launch(const char *alloc, const char *dealloc, tc5_timing_result *r) {
  char text[2048];
  snprintf(text, sizeof text,
           ".version 8.7\n.target sm_100a\n.address_size 64\n"
           ".visible .entry k(.param .u32 n) {\n .reg .b32 %%r<12>;\n .reg .pred %%p<2>;\n"
           " .shared .align 8 .b32 slot[2];\n"
           " mov.u32 %%r1, slot; add.u32 %%r9, %%r1, 4; mov.u32 %%r2, %%tid.x; shr.u32 %%r3, %%r2, 5;\n"
           " setp.ne.u32 %%p1, %%r3, 0;\n @%%p1 bra DONE;\n%s"
           " ld.shared.b32 %%r4, [%%r1];\n%s"
           " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\nDONE:\n ret;\n}\n",
           alloc, dealloc);
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m;
  assert_int_equal(tc5_ptx_load(text, strlen(text), "k.ptx", &m, &dg), TC5_OK);
  tc5_ptx_arg a;
  memset(&a, 0, sizeof a);
  a.kind = TC5_PTX_ARG_VALUE;
  a.size = 4;
  a.bits = 64;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 128;
  cfg.threads = 1;
  cfg.timing = "b200";
  cfg.timing_regs = 32;
  cfg.timing_result = r;
  tc5_status st = tc5_ptx_launch(m, &cfg, &a, 1, NULL, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  tc5_ptx_free(m);
}

static void test_tmem_occupancy_ptx(void **state) {
  (void)state;
  tc5_timing_result r;
  char buf[4096];
  /* an immediate (Triton, CUTLASS, FA4: 128, 256, 512) */
  tmem_launch(" tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 128;\n",
              " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 128;\n", &r);
  assert_int_equal(r.ctas_per_sm, 4);
  assert_string_equal(r.occupancy_limit, "Tensor Memory");
  assert_int_equal(r.tmem_cols_per_cta, 128);
  assert_int_equal(r.tmem_cols_assumed_line, 0);
  assert_int_equal(tc5_timing_format(&r, buf, sizeof buf), TC5_OK);
  assert_non_null(strstr(buf, "x 4 CTAs/SM (limited by Tensor Memory;"));
  assert_non_null(strstr(buf, "tc5 run: timing: Tensor Memory: 128 columns a CTA (its tcgen05.alloc nCols)\n"));
  /* a register the PTX makes constant (nvcc: mov.b32 %r23, 64) */
  tmem_launch(" mov.b32 %r5, 64;\n tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], %r5;\n",
              " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, %r5;\n", &r);
  assert_int_equal(r.ctas_per_sm, 8);
  assert_int_equal(r.tmem_cols_per_cta, 64);
  /* two allocations held at once: 256 + 128 = 384 columns, 512 / 384 = 1 */
  tmem_launch(" tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 256;\n"
              " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r9], 128;\n",
              " ld.shared.b32 %r10, [%r9];\n tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r10, 128;\n"
              " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 256;\n", &r);
  assert_int_equal(r.ctas_per_sm, 1);
  assert_int_equal(r.tmem_cols_per_cta, 384);
  /* a parameter: not constant in the PTX, the whole Tensor Memory assumed and the line named (line 12) */
  tmem_launch(" ld.param.u32 %r5, [n];\n tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], %r5;\n",
              " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, %r5;\n", &r);
  assert_int_equal(r.ctas_per_sm, 1);
  assert_string_equal(r.occupancy_limit, "Tensor Memory");
  assert_int_equal(r.tmem_cols_per_cta, 512);
  assert_int_equal(r.tmem_cols_assumed_line, 12);
  assert_int_equal(tc5_timing_format(&r, buf, sizeof buf), TC5_OK);
  assert_non_null(strstr(buf, "Tensor Memory: 512 columns a CTA assumed (tcgen05.alloc at line 12: nCols not constant"));
  /* a register written twice with different immediates: not constant */
  tmem_launch(" mov.b32 %r5, 64;\n mov.b32 %r5, 32;\n tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], %r5;\n",
              " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, %r5;\n", &r);
  assert_int_equal(r.tmem_cols_assumed_line, 13);
  assert_int_equal(r.ctas_per_sm, 1);
}

/* ---- t47u: a TMA load's latency from L2 or HBM (docs/timing.md "TMA latency from L2 and from HBM") ---- */

/* the launch's TMA load latency for a footprint of `foot` bytes (132 CTAs, one an SM) and one 16 KiB
 * load's completion on it */
static double tma_load_done(const char *gpu, uint64_t foot, double *latency) {
  fake f;
  memset(&f, 0, sizeof f);
  fake_insn(&f, 0, TM_C_TMA, -1, -1);
  tm_setup s;
  memset(&s, 0, sizeof s);
  s.gpu = gpu;
  s.target = !strcmp(gpu, "b200") ? "sm_100a" : "sm_90a";
  s.threads_per_cta = 128;
  s.warps_per_cta = 4;
  s.smem_per_cta = 200000;
  s.cluster_size = 1;
  s.nclusters = 132;
  s.reg_hi = 16;
  s.insn = f.insn;
  s.ck = f.ck;
  s.ncode = 1;
  s.footprint = foot;
  assert_int_equal(tm_launch_new(&f.l, &s, NULL), TC5_OK);
  assert_int_equal(tm_cta_new(f.l, 4, &f.t), TC5_OK);
  assert_int_equal(tm_cta_new(f.l, 4, &f.peer), TC5_OK);
  tm_cta_begin(f.t, 0, 0, 0);
  tm_cta_begin(f.peer, 0, 1, 1);
  *latency = f.l->rates.tma_load_latency;
  tm_mb mb;
  memset(&mb, 0, sizeof mb);
  tm_mbar_signal(f.t, 0, 0, &mb, 16384, 1);
  double done = mb.done;
  fake_free(&f);
  return done;
}

/* hand-computed: the H200's hit 329 and miss 784 (h200_tma_loaded.tsv's l2 and hbm lines, 132 CTAs, one
 * in flight); a footprint within L2 (16 MiB <= 50 MiB): 329; beyond it (256 MiB): the mean, 556.5, as
 * ld.global's and cp.async's; a 16 KiB load then completes 16384 x 132 / 4988 + 556.5 = 990.1 clk. The
 * B200 publishes one figure (933, from HBM): 933 either way. */
static void test_tma_latency_l2_dram(void **state) {
  (void)state;
  double lat;
  tm_params p;
  assert_int_equal(tm_params_load("h200", &p), TC5_OK);
  assert_true(p.tma_latency == 329 && p.tma_latency_dram == 784);
  double d = tma_load_done("h200", 16u << 20, &lat);
  assert_true(lat == 329);
  assert_true(fabs(d - (16384.0 * 132 / 4988 + 329)) < 1e-9);
  d = tma_load_done("h200", 256u << 20, &lat);
  assert_true(lat == 556.5);
  assert_true(fabs(d - (16384.0 * 132 / 4988 + 556.5)) < 1e-9);
  assert_true(d > 990 && d < 990.2);
  tma_load_done("h100", 256u << 20, &lat);
  assert_true(lat == 556.5);
  tma_load_done("b200", 16u << 20, &lat);
  assert_true(lat == 933);
  tma_load_done("b200", (uint64_t)1 << 30, &lat);
  assert_true(lat == 933);
}

/* a MUFU holds the FP32 pipe too (t47v, run 10: sfu_fp32_clk 3.5 on the H200, 0 on the B200). One warp's
 * group of run 10's k = 2 trip: 2 x (one MUFU + 7 FFMA), 16 warp-instructions on scheduler 0. Per CTA
 * (4 schedulers): dispatch 16 / 4 = 4, SFU 2 x 8 / 4 = 4, FP32 (14 x 1 + 2 x 3.5) / 4 = 5.25 on the H200
 * (the CTA's saturated bound U: 5.25, not max(4, 4, 3.5) = 4), 14 / 4 = 3.5 on the B200 (U: 4, as before) */
static void test_sfu_fp32(void **state) {
  (void)state;
  const char *gpus[] = {"h200", "b200"};
  for (unsigned g = 0; g < 2; g++) {
    fake f;
    memset(&f, 0, sizeof f);
    fake_insn(&f, 0, TM_C_SFU, 1, -1);
    for (unsigned k = 1; k < 8; k++) fake_insn(&f, k, TM_C_FP32, 1 + k, -1);
    fake_launch(&f, gpus[g], 8, 1);
    assert_true(f.l->p.sfu_fp32_clk == (g ? 0 : 3.5));
    uint64_t regs[16 * 32] = {0};
    for (unsigned trip = 0; trip < 2; trip++)
      for (uint32_t pc = 0; pc < 8; pc++) tm_step(f.t, 0, pc, 0xffffffffu, regs, TM_DONE);
    assert_true(f.t->work[TC5_TU_ISSUE] == 4 && f.t->work[TC5_TU_SFU] == 4 && f.t->pipe[TM_C_SFU] == 4);
    assert_true(f.t->pipe[TM_C_FP32] == (g ? 3.5 : 5.25));
    double u = f.t->work[TC5_TU_ISSUE];
    for (unsigned k = 0; k < TM_C_COUNT; k++) u = u > f.t->pipe[k] ? u : f.t->pipe[k];
    assert_true(u == (g ? 4 : 5.25));
    fake_free(&f);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tables),          cmocka_unit_test(test_pairing),
      cmocka_unit_test(test_sass_issue),      cmocka_unit_test(test_sass_lines), cmocka_unit_test(test_sass_ctrl), cmocka_unit_test(test_stall_sched), cmocka_unit_test(test_mem_space_order), cmocka_unit_test(test_issue_tc_queue),
    cmocka_unit_test(test_pipe_dispatch),
    cmocka_unit_test(test_ptxas_order),
    cmocka_unit_test(test_imad_pipe),
      cmocka_unit_test(test_l2_write),        cmocka_unit_test(test_cp_async_zfill),
      cmocka_unit_test(test_launch_stagger),
      cmocka_unit_test(test_occupancy),       cmocka_unit_test(test_list_schedule),
      cmocka_unit_test(test_dependent_chain), cmocka_unit_test(test_tma_load),
      cmocka_unit_test(test_mma_pipeline),    cmocka_unit_test(test_bar_sync), cmocka_unit_test(test_bar_latency_warps), cmocka_unit_test(test_dispatch_slots), cmocka_unit_test(test_reg_move),
      cmocka_unit_test(test_launch_sampling), cmocka_unit_test(test_launch_bad),
      cmocka_unit_test(test_issue_classes),   cmocka_unit_test(test_cvt_class),
      cmocka_unit_test(test_cp_async_cap), cmocka_unit_test(test_mma_sync_rate),
      cmocka_unit_test(test_l2_state),        cmocka_unit_test(test_tail_wave),
      cmocka_unit_test(test_matrix_bytes),         cmocka_unit_test(test_hbm_read_write),
      cmocka_unit_test(test_sampling_by_column),
      cmocka_unit_test(test_footprint), cmocka_unit_test(test_mbar_wait_time), cmocka_unit_test(test_tcgen05_shape), cmocka_unit_test(test_tma_store), cmocka_unit_test(test_tma_load_h200),
      cmocka_unit_test(test_tma_store_warp), cmocka_unit_test(test_fp32x2_issue), cmocka_unit_test(test_b200_sfu_rate), cmocka_unit_test(test_tmem_wait_ld),
      cmocka_unit_test(test_issue_queue), cmocka_unit_test(test_fsel_class),
      cmocka_unit_test(test_tmem_occupancy), cmocka_unit_test(test_tmem_occupancy_ptx),
      cmocka_unit_test(test_tma_latency_l2_dram),
      cmocka_unit_test(test_sfu_fp32),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
