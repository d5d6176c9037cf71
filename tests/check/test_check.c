/* tc5 tests — the tcgen05 checker through the C API: the rule table, the
 * mode names, findings handed to on_finding (rule, lines, count), the
 * statuses (TC5_EHAZARD with the first finding in the diag), modes none and
 * strict, and a bad mode rejected. The seeded-bug catalogue of whole kernels
 * runs as CTest cases (tests/check/catalogue.sh). */
#include "testutil.h"
#include "tc5/check.h"
#include "tc5/ptx.h"

/* one warp: alloc, tcgen05.st of 7 to lane l column 0, (wait::st when the
 * parameter is not 0), tcgen05.ld back, wait::ld, store it, dealloc */
static const char *kernel =
    ".version 8.7\n.target sm_100a\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 wait) {\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " .shared .align 4 .b32 taddr;\n"
    " mov.u32 %r1, taddr;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;\n"
    " ld.shared.b32 %r2, [%r1];\n"
    " mov.b32 %r3, 7;\n"
    " tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2], {%r3};\n"
    " ld.param.u32 %r4, [wait];\n"
    " setp.ne.u32 %p1, %r4, 0;\n"
    " @%p1 tcgen05.wait::st.sync.aligned;\n"
    " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r2];\n"
    " tcgen05.wait::ld.sync.aligned;\n"
    " ld.param.u64 %rd1, [out]; mov.u32 %r6, %tid.x; mul.wide.u32 %rd2, %r6, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.b32 [%rd3], %r5;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r2, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
    " ret;\n}\n";

static tc5_check_finding got[8];
static unsigned ngot;
static void on_finding(void *ctx, const tc5_check_finding *f) {
  (void)ctx;
  if (ngot < 8) got[ngot++] = *f;
}

/* what every launch of these tests shares: the module loaded (named name),
 * one host thread, the findings to on_finding (ngot counts them), freed */
static tc5_ptx_launch_cfg cfg_for(unsigned block, tc5_check_mode mode) {
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = block;
  cfg.threads = 1;
  cfg.check = mode;
  cfg.on_finding = on_finding;
  return cfg;
}
static tc5_status launch(const char *src, const char *name, const tc5_ptx_launch_cfg *cfg, tc5_ptx_arg *args,
                         unsigned nargs, tc5_ptx_stats *stats, tc5_diag *dg) {
  tc5_ptx_module *m;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_load(src, strlen(src), name, &m, dg);
  if (st) return st;
  ngot = 0;
  if (stats) memset(stats, 0, sizeof *stats);
  st = tc5_ptx_launch(m, cfg, args, nargs, stats, dg);
  tc5_ptx_free(m);
  return st;
}

static tc5_status run(uint32_t wait, tc5_check_mode mode, tc5_ptx_stats *stats, tc5_diag *dg) {
  uint32_t out[32];
  tc5_ptx_arg args[2] = {{.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = sizeof out}, {.kind = TC5_PTX_ARG_VALUE, .size = 4, .bits = wait}};
  tc5_ptx_launch_cfg cfg = cfg_for(32, mode);
  tc5_status st = launch(kernel, "c.ptx", &cfg, args, 2, stats, dg);
  if (!st) assert_int_equal(out[5], 7);
  return st;
}

/* the tests' output words, diagnostics and statistics (of the last launch) */
static uint32_t out[128];
static tc5_diag dg;
static tc5_ptx_stats st;

static void test_rules_table(void **s) {
  (void)s;
  unsigned n, idx;
  assert_int_equal(tc5_check_rule_count(&n), TC5_OK);
  assert_true(n >= 20);
  for (unsigned k = 0; k < n; k++) {
    const tc5_check_rule *r;
    assert_int_equal(tc5_check_rule_get(k, &r), TC5_OK);
    assert_non_null(r->id);
    assert_true(strlen(r->spec) > 20 && strlen(r->fix) > 10 && strlen(r->broken) > 10);
    /* a section of the PTX ISA: 9.7.16 (tcgen05), others for the rules of
     * issue 33 (8.6 data races, 9.7.9.25 cp.async, 9.7.15 wgmma, 9.7.13 mbarrier)
     * and issue 34 (9.7.13.1 named barriers, 9.7.15 wgmma) */
    assert_true(r->section[0] >= '1' && r->section[0] <= '9' && r->section[1] == '.');
    assert_int_equal(tc5_check_rule_find(r->id, &idx), TC5_OK);
    assert_int_equal(idx, k); /* ids are unique */
  }
  const tc5_check_rule *r;
  assert_int_equal(tc5_check_rule_get(n, &r), TC5_EINVAL);
  assert_int_equal(tc5_check_rule_find("no-such-rule", &idx), TC5_EINVAL);
  assert_int_equal(tc5_check_rule_count(NULL), TC5_EINVAL);
  tc5_check_mode m;
  assert_int_equal(tc5_check_mode_parse("strict", &m), TC5_OK);
  assert_int_equal(m, TC5_CHECK_STRICT);
  assert_int_equal(tc5_check_mode_parse("none", &m), TC5_OK);
  assert_int_equal(m, TC5_CHECK_NONE);
  assert_int_equal(tc5_check_mode_parse("default", &m), TC5_OK);
  assert_int_equal(m, TC5_CHECK_DEFAULT);
  assert_int_equal(tc5_check_mode_parse("loud", &m), TC5_EINVAL);
  assert_string_equal(tc5_status_name(TC5_EHAZARD), "TC5_EHAZARD");
}

static void test_finding(void **s) {
  (void)s;
  /* correct: no finding in any mode */
  assert_int_equal(run(1, TC5_CHECK_STRICT, &st, &dg), TC5_OK);
  assert_int_equal(ngot, 0);
  assert_int_equal(st.findings + st.warnings, 0);
  /* the tcgen05.st not waited for before the tcgen05.ld (and never: the
   * dealloc frees its columns too) */
  assert_int_equal(run(0, TC5_CHECK_DEFAULT, &st, &dg), TC5_EHAZARD);
  assert_int_equal(ngot, 2);
  unsigned want;
  tc5_check_rule_find("tmem-st-unwaited", &want);
  assert_int_equal(got[0].rule, want);
  assert_false(got[0].warning);
  assert_int_equal(got[0].line, 15); /* the tcgen05.ld */
  assert_int_equal(got[0].line2, 11); /* the tcgen05.st */
  assert_int_equal(got[0].count, 1);
  assert_non_null(strstr(got[0].text, "[tmem-st-unwaited]"));
  assert_non_null(strstr(got[0].text, "fix:"));
  assert_non_null(strstr(got[0].text, "threads 0-31"));
  tc5_check_rule_find("dealloc-inflight", &want);
  assert_int_equal(got[1].rule, want);
  assert_int_equal(got[1].line, 19);
  assert_int_equal(st.findings, 2);
  assert_true(dg.count >= 1);
  assert_int_equal(dg.issue[0].status, TC5_EHAZARD);
  assert_non_null(strstr(dg.issue[0].message, "tmem-st-unwaited"));
  /* --check=none: no hazard tracking */
  assert_int_equal(run(0, TC5_CHECK_NONE, &st, &dg), TC5_OK);
  assert_int_equal(ngot, 0);
  assert_int_equal(st.findings, 0);
  /* a mode out of range */
  assert_int_equal(run(1, (tc5_check_mode)7, NULL, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "check mode 7"));
}

/* ---- issue 33: never-written reads, rule levels, the rules of ConSan's classes ---- */
static tc5_status run_src(const char *src, unsigned block, uint32_t param, tc5_check_mode mode,
                          const tc5_check_override *rules, unsigned nrules, uint32_t *words, tc5_ptx_stats *stats,
                          tc5_diag *diag) {
  static uint32_t scratch[64];
  memset(scratch, 0, sizeof scratch);
  for (unsigned i = 0; i < 16; i++) scratch[i] = 100 + i;
  tc5_ptx_arg args[3] = {{.kind = TC5_PTX_ARG_BUFFER, .data = words, .bytes = 4 * 128},
                         {.kind = TC5_PTX_ARG_VALUE, .size = 4, .bits = param},
                         {.kind = TC5_PTX_ARG_BUFFER, .data = scratch, .bytes = sizeof scratch}};
  tc5_ptx_launch_cfg cfg = cfg_for(block, mode);
  cfg.rules = rules;
  cfg.nrules = nrules;
  return launch(src, "i33.ptx", &cfg, args, 3, stats, diag);
}
/* src with parameter p on `block` threads, the rules at their levels: into out, st, dg */
static tc5_status run_p(const char *src, unsigned block, uint32_t p, tc5_check_mode mode) {
  return run_src(src, block, p, mode, NULL, 0, out, &st, &dg);
}
static unsigned rule_of(const char *id);
/* ... and it ran through with no finding */
static void silent(const char *src, unsigned block, uint32_t p, tc5_check_mode mode) {
  assert_int_equal(run_p(src, block, p, mode), TC5_OK);
  assert_int_equal(ngot, 0);
}
/* ... and it stopped on one finding, of rule */
static void found_once(const char *src, unsigned block, uint32_t p, tc5_check_mode mode, const char *rule) {
  assert_int_equal(run_p(src, block, p, mode), TC5_EHAZARD);
  assert_int_equal(ngot, 1);
  assert_int_equal(got[0].rule, rule_of(rule));
}
#define HDR ".version 8.7\n.target sm_100a\n.address_size 64\n" \
            ".visible .entry k(.param .u64 out, .param .u32 p, .param .u64 g) {\n" \
            " .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n" \
            " ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [p]; ld.param.u64 %rd4, [g];\n" \
            " setp.ne.u32 %p1, %r1, 0;\n mov.u32 %r2, %tid.x; mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;\n"

static unsigned rule_of(const char *id) {
  unsigned k = 0;
  assert_int_equal(tc5_check_rule_find(id, &k), TC5_OK);
  return k;
}

/* a tcgen05.ld of cells never written: reported, the run goes on, the
 * value read is poison (0xFFFFFFFF); the levels off / warning / error */
static const char *uninit_ld = HDR
    " .shared .align 4 .b32 taddr;\n mov.u32 %r3, taddr;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n"
    " ld.shared.b32 %r4, [%r3];\n"
    " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r4];\n tcgen05.wait::ld.sync.aligned;\n"
    " st.global.b32 [%rd3], %r5;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n ret;\n}\n";

static void test_uninit_goes_on(void **s) {
  (void)s;
  memset(out, 0, sizeof out);
  assert_int_equal(run_p(uninit_ld, 32, 0, TC5_CHECK_DEFAULT), TC5_EHAZARD);
  assert_int_equal(out[3], 0xFFFFFFFFu); /* the run went on, reading poison */
  assert_int_equal(ngot, 1);
  assert_int_equal(got[0].rule, rule_of("tmem-uninit-read"));
  assert_non_null(strstr(got[0].text, "lane 0 column 0"));
  /* as a warning: reported in default mode, the launch succeeds */
  tc5_check_override o;
  assert_int_equal(tc5_check_override_parse("tmem-uninit-read=warning", &o, &dg), TC5_OK);
  assert_int_equal(o.level, TC5_RULE_WARNING);
  memset(out, 0, sizeof out);
  assert_int_equal(run_src(uninit_ld, 32, 0, TC5_CHECK_DEFAULT, &o, 1, out, &st, &dg), TC5_OK);
  assert_int_equal(ngot, 1);
  assert_true(got[0].warning);
  assert_int_equal(st.warnings, 1);
  assert_int_equal(st.findings, 0);
  assert_int_equal(out[0], 0xFFFFFFFFu);
  /* off: nothing */
  assert_int_equal(tc5_check_override_parse("tmem-uninit-read=off", &o, &dg), TC5_OK);
  assert_int_equal(run_src(uninit_ld, 32, 0, TC5_CHECK_STRICT, &o, 1, out, &st, &dg), TC5_OK);
  assert_int_equal(ngot, 0);
  /* --check=none: not tracked, and the run is not stopped either */
  silent(uninit_ld, 32, 0, TC5_CHECK_NONE);
  /* an always rule takes no level; unknown names and levels are named */
  assert_int_equal(tc5_check_override_parse("partial-warp-aligned=off", &o, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[dg.count - 1].message, "takes no level"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_check_override_parse("no-such-rule=off", &o, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "no rule 'no-such-rule'"));
  assert_non_null(strstr(dg.issue[0].message, "proxy-fence"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_check_override_parse("smem-race=loud", &o, &dg), TC5_EINVAL);
  assert_non_null(strstr(dg.issue[0].message, "got 'loud'"));
  /* a level out of range in the launch configuration */
  o.level = (tc5_check_level)9;
  assert_int_equal(run_src(uninit_ld, 32, 0, TC5_CHECK_DEFAULT, &o, 1, out, &st, &dg), TC5_EINVAL);
}

/* a tcgen05.ld of cells never written whose value flows through register
 * arithmetic (max, selp): p & 1 selects the loaded value (it reaches the
 * st.global: reported there), else 1.0 (the value is discarded: silent in
 * default mode, reported at the load in strict); p & 2 steers a guard by it;
 * p & 4 overwrites the register before the use (silent) */
static const char *uninit_flow = HDR
    " .shared .align 4 .b32 taddr;\n mov.u32 %r3, taddr;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n"
    " ld.shared.b32 %r4, [%r3];\n"
    " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r4];\n tcgen05.wait::ld.sync.aligned;\n"
    " and.b32 %r9, %r1, 4;\n setp.ne.u32 %p3, %r9, 0;\n @%p3 mov.b32 %r5, 0f40000000;\n"
    " max.f32 %r6, %r5, 0f00000000;\n"
    " and.b32 %r8, %r1, 1;\n setp.ne.u32 %p1, %r8, 0;\n"
    " selp.f32 %r7, %r6, 0f3F800000, %p1;\n"
    " st.global.b32 [%rd3], %r7;\n"
    " and.b32 %r8, %r1, 2;\n setp.ne.u32 %p1, %r8, 0;\n"
    " setp.ne.u32 %p2, %r1, %r1;\n @%p1 setp.gt.f32 %p2, %r6, 0f00000000;\n"
    " @%p2 st.global.b32 [%rd3], 0;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n ret;\n}\n";

static void test_tmem_uninit_ld_used(void **s) {
  (void)s;
  /* the value reaches memory: found at the store, naming the load */
  found_once(uninit_flow, 32, 1, TC5_CHECK_DEFAULT, "tmem-uninit-read");
  assert_int_equal(got[0].line, 22); /* st.global */
  assert_int_equal(got[0].line2, 13); /* the tcgen05.ld */
  assert_non_null(strstr(got[0].text, "st.global.b32 uses a value"));
  assert_non_null(strstr(got[0].text, "lane 0 column 0"));
  /* a guard computed from it: found at the guarded instruction */
  found_once(uninit_flow, 32, 2, TC5_CHECK_DEFAULT, "tmem-uninit-read");
  assert_int_equal(got[0].line, 27);
  assert_non_null(strstr(got[0].text, "is guarded by a predicate"));
}

static void test_tmem_uninit_ld_unused(void **s) {
  (void)s;
  /* discarded by selp: silent in default mode, the kernel's result right */
  memset(out, 0, sizeof out);
  silent(uninit_flow, 32, 0, TC5_CHECK_DEFAULT);
  assert_int_equal(out[7], 0x3F800000u);
  /* overwritten before any use: silent even where it is selected */
  memset(out, 0, sizeof out);
  silent(uninit_flow, 32, 5, TC5_CHECK_DEFAULT);
  assert_int_equal(out[7], 0x40000000u);
  /* strict: the load itself */
  found_once(uninit_flow, 32, 0, TC5_CHECK_STRICT, "tmem-uninit-read");
  assert_int_equal(got[0].line, 13);
}

/* issue 52: a value computed from never-written Tensor Memory stored by a
 * plain st.shared (Triton 3.5-3.7's fp8 attention keeps P in shared memory
 * and skips the MMA that reads it in the peeled zero-trip iteration): the
 * store is silent in default mode, the bytes are followed; p & 2 overwrites
 * them with 2.0 first (silent), p & 1 loads them and stores the value to
 * global memory (found at the st.global, naming the tcgen05.ld) */
static const char *uninit_st_shared = HDR
    " .shared .align 4 .b32 taddr;\n .shared .align 16 .b32 buf[32];\n mov.u32 %r3, taddr;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n"
    " ld.shared.b32 %r4, [%r3];\n"
    " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r4];\n tcgen05.wait::ld.sync.aligned;\n"
    " mov.u32 %r10, buf; shl.b32 %r11, %r2, 2; add.u32 %r10, %r10, %r11;\n"
    " add.f32 %r6, %r5, 0f3F800000;\n"
    " st.shared.b32 [%r10], %r6;\n"
    " and.b32 %r8, %r1, 2; setp.ne.u32 %p2, %r8, 0;\n"
    " @%p2 st.shared.b32 [%r10], 0f40000000;\n"
    " and.b32 %r8, %r1, 1; setp.ne.u32 %p3, %r8, 0;\n"
    " @%p3 ld.shared.b32 %r7, [%r10];\n"
    " @%p3 st.global.b32 [%rd3], %r7;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n ret;\n}\n";

static void test_tmem_uninit_st_shared(void **s) {
  (void)s;
  /* stored, never read: silent */
  silent(uninit_st_shared, 32, 0, TC5_CHECK_DEFAULT);
  /* stored, loaded and stored to global memory: found there, naming the tcgen05.ld */
  found_once(uninit_st_shared, 32, 1, TC5_CHECK_DEFAULT, "tmem-uninit-read");
  assert_int_equal(got[0].line, 23); /* st.global */
  assert_int_equal(got[0].line2, 14); /* the tcgen05.ld */
  /* overwritten by another store before the load: silent, the later value read */
  memset(out, 0, sizeof out);
  silent(uninit_st_shared, 32, 3, TC5_CHECK_DEFAULT);
  assert_int_equal(out[5], 0x40000000u);
  /* strict: the load itself */
  assert_int_equal(run_p(uninit_st_shared, 32, 0, TC5_CHECK_STRICT), TC5_EHAZARD);
  assert_int_equal(ngot, 1);
  assert_int_equal(got[0].line, 14);
}

/* issue 51: the seven register-pure instructions the checker's hand-kept
 * list lacked (lop3 shf bfind sad addc subc madc): a never-written Tensor
 * Memory value flows through each one unreported; p & 1 selects the
 * result (reported at the st.global, naming the tcgen05.ld), else it is
 * discarded (silent; before the opcode table's traits, each was reported
 * as a use at the instruction itself) */
static void test_tmem_uninit_pure_ops(void **s) {
  (void)s;
  static const char *const ops[] = {
      " lop3.b32 %r6, %r5, %r1, %r2, 0x96;\n",
      " shf.l.wrap.b32 %r6, %r5, %r2, 3;\n",
      " bfind.u32 %r6, %r5;\n",
      " sad.u32 %r6, %r5, %r2, %r1;\n",
      " add.cc.u32 %r7, %r2, 1;\n addc.u32 %r6, %r5, %r7;\n",
      " sub.cc.u32 %r7, %r2, 1;\n subc.u32 %r6, %r5, %r7;\n",
      " mad.lo.cc.u32 %r7, %r2, 3, 1;\n madc.lo.u32 %r6, %r5, 3, %r7;\n",
  };
  for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    char src[2048];
    snprintf(src, sizeof src, "%s%s%s%s", HDR,
             " .shared .align 4 .b32 taddr;\n mov.u32 %r3, taddr;\n"
             " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n"
             " ld.shared.b32 %r4, [%r3];\n"
             " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r4];\n tcgen05.wait::ld.sync.aligned;\n",
             ops[i],
             " and.b32 %r8, %r1, 1;\n setp.ne.u32 %p1, %r8, 0;\n"
             " selp.b32 %r9, %r6, 7, %p1;\n"
             " st.global.b32 [%rd3], %r9;\n"
             " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;\n"
             " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n ret;\n}\n");
    memset(out, 0, sizeof out);
    print_message("%s", ops[i]);
    /* discarded: followed through the instruction, silent */
    silent(src, 32, 0, TC5_CHECK_DEFAULT);
    assert_int_equal(out[3], 7);
    /* selected: reported where it leaves the registers, naming the load */
    found_once(src, 32, 1, TC5_CHECK_DEFAULT, "tmem-uninit-read");
    assert_int_equal(got[0].line2, 13); /* the tcgen05.ld */
    assert_non_null(strstr(got[0].text, "st.global.b32 uses a value"));
  }
}

/* Triton's atomic min/max of floats: two predicated atomics leave their results
 * in shared memory, both slots are loaded, a select keeps one; the other slot
 * was never written. p & 1 selects the never-written load (its value reaches
 * the st.global: reported there, naming the load), else the written one
 * (silent in default mode, reported at the load in strict) */
static const char *smem_uninit_flow = HDR
    " .shared .align 4 .b8 sm[256];\n mov.u32 %r3, sm;\n"
    " and.b32 %r8, %r1, 1;\n setp.ne.u32 %p1, %r8, 0;\n"
    " shl.b32 %r9, %r2, 2;\n add.u32 %r10, %r3, %r9;\n"
    " st.shared.b32 [%r10], 7;\n bar.sync 0;\n"
    " ld.shared.b32 %r4, [%r10];\n"
    " ld.shared.b32 %r5, [%r10+128];\n"
    " selp.b32 %r6, %r5, %r4, %p1;\n"
    " st.global.b32 [%rd3], %r6;\n ret;\n}\n";

static void test_smem_uninit_ld_flow(void **s) {
  (void)s;
  memset(out, 0, sizeof out);
  silent(smem_uninit_flow, 32, 0, TC5_CHECK_DEFAULT);
  assert_int_equal(out[5], 7);
  found_once(smem_uninit_flow, 32, 1, TC5_CHECK_DEFAULT, "smem-uninit-read");
  assert_int_equal(got[0].line, 20); /* st.global */
  assert_int_equal(got[0].line2, 18); /* the load of the slot nothing wrote */
  assert_non_null(strstr(got[0].text, "st.global.b32 uses a value"));
  found_once(smem_uninit_flow, 32, 0, TC5_CHECK_STRICT, "smem-uninit-read");
  assert_int_equal(got[0].line, 18);
}

/* issue 50: CuTe DSL's row reduction (Liger's LayerNorm forward, N = 32: 8 lanes a row, a
 * tile of 16 rows, 4 of them in the tensor) loads the rows past the tensor's end, never
 * written, and reduces each row with shfl.sync.bfly among its own 8 lanes; only the rows in
 * the tensor are stored. Here lanes 0-15 write their word, every lane loads its own and the
 * 8-lane groups sum them (xor 4, 2, 1); lanes 0-15 store. p & 1: the first shuffle is xor 16,
 * so lanes 0-15 receive the never-written words of lanes 16-31 (reported at the st.global,
 * naming the load); else silent (before, the shuffle itself was reported) */
static const char *smem_uninit_shfl = HDR
    " .shared .align 4 .b8 sm[128];\n mov.u32 %r3, sm;\n"
    " shl.b32 %r9, %r2, 2;\n add.u32 %r10, %r3, %r9;\n"
    " setp.lt.u32 %p2, %r2, 16;\n"
    " @%p2 st.shared.b32 [%r10], %r2;\n bar.sync 0;\n"
    " ld.shared.b32 %r5, [%r10];\n"
    " selp.b32 %r11, 16, 4, %p1;\n"
    " shfl.sync.bfly.b32 %r6, %r5, %r11, 31, -1;\n add.u32 %r7, %r5, %r6;\n"
    " shfl.sync.bfly.b32 %r6, %r7, 2, 31, -1;\n add.u32 %r7, %r7, %r6;\n"
    " shfl.sync.bfly.b32 %r6, %r7, 1, 31, -1;\n add.u32 %r7, %r7, %r6;\n"
    " @%p2 st.global.b32 [%rd3], %r7;\n ret;\n}\n";

static void test_smem_uninit_shfl_flow(void **s) {
  (void)s;
  memset(out, 0, sizeof out);
  silent(smem_uninit_shfl, 32, 0, TC5_CHECK_DEFAULT);
  assert_int_equal(out[0], 28); /* 0 + 1 + ... + 7 */
  assert_int_equal(out[15], 92); /* 8 + ... + 15 */
  found_once(smem_uninit_shfl, 32, 1, TC5_CHECK_DEFAULT, "smem-uninit-read");
  assert_int_equal(got[0].line, 24); /* st.global */
  assert_int_equal(got[0].line2, 16); /* the load of the words nothing wrote */
  assert_non_null(strstr(got[0].text, "st.global.b32 uses a value"));
  found_once(smem_uninit_shfl, 32, 0, TC5_CHECK_STRICT, "smem-uninit-read");
  assert_int_equal(got[0].line, 16);
}

/* issue 50: FlagGems' attention kernels (Triton 3.6) pass the row scale computed from S through
 * shared memory, stmatrix then ldmatrix (a layout conversion); in the peeled zero-trip iteration
 * of a causal kernel S was never written and the results are discarded. Here lanes 0-15 hold a
 * value computed from never-written Tensor Memory (matrix 0 of a stmatrix.x2; matrix 1 is 1.0
 * in every lane), read back by ldmatrix.x2.trans: lane t receives column t/4 of rows 2(t%4),
 * 2(t%4)+1, so matrix 0's element holds those values in the lanes with t%4 < 2 only. p & 1: those
 * lanes store (found at the st.global, naming the tcgen05.ld), else the others (silent; before,
 * the stmatrix was reported); p & 2: a second stmatrix overwrites the rows first (silent);
 * p & 4: matrix 1's element is stored (silent in every lane) */
static const char *uninit_matrix = HDR
    " .shared .align 4 .b32 taddr;\n .shared .align 16 .b8 mx[256];\n mov.u32 %r3, taddr;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n"
    " ld.shared.b32 %r4, [%r3];\n"
    " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r5}, [%r4];\n tcgen05.wait::ld.sync.aligned;\n"
    " setp.lt.u32 %p2, %r2, 16;\n cvt.rn.f16x2.f32 %r6, %r5, %r5;\n selp.b32 %r6, %r6, 0x3c003c00, %p2;\n"
    " mov.b32 %r13, 0x3c003c00;\n"
    " and.b32 %r7, %r2, 15;\n shl.b32 %r7, %r7, 4;\n mov.u32 %r8, mx;\n add.u32 %r8, %r8, %r7;\n"
    " stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r8], {%r6, %r13};\n bar.sync 0;\n"
    " and.b32 %r9, %r1, 2;\n setp.ne.u32 %p3, %r9, 0;\n mov.b32 %r14, 0x40004000;\n"
    " @%p3 stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r8], {%r14, %r14};\n bar.sync 0;\n"
    " ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r10, %r12}, [%r8];\n"
    " and.b32 %r9, %r1, 4;\n setp.ne.u32 %p3, %r9, 0;\n selp.b32 %r10, %r12, %r10, %p3;\n"
    " and.b32 %r11, %r2, 3;\n shr.u32 %r11, %r11, 1;\n and.b32 %r9, %r1, 1;\n setp.ne.u32 %p2, %r11, %r9;\n"
    " @%p2 st.global.b32 [%rd3], %r10;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n ret;\n}\n";

static void test_tmem_uninit_matrix(void **s) {
  (void)s;
  /* discarded: the lanes that received never-written values store nothing */
  memset(out, 0, sizeof out);
  silent(uninit_matrix, 32, 0, TC5_CHECK_DEFAULT);
  assert_int_equal(out[2], 0x3c003c00u); /* rows 4-7: lanes 16-31's 1.0 */
  assert_int_equal(out[0], 0);
  /* stored: found at the st.global, naming the tcgen05.ld */
  found_once(uninit_matrix, 32, 1, TC5_CHECK_DEFAULT, "tmem-uninit-read");
  assert_int_equal(got[0].line, 39); /* st.global */
  assert_int_equal(got[0].line2, 14); /* the tcgen05.ld */
  assert_non_null(strstr(got[0].text, "st.global.b32 uses a value"));
  /* overwritten by the second stmatrix, or matrix 1's element stored: silent */
  memset(out, 0, sizeof out);
  silent(uninit_matrix, 32, 3, TC5_CHECK_DEFAULT);
  assert_int_equal(out[0], 0x40004000u);
  memset(out, 0, sizeof out);
  silent(uninit_matrix, 32, 5, TC5_CHECK_DEFAULT);
  assert_int_equal(out[0], 0x3c003c00u);
  /* strict: the load itself */
  found_once(uninit_matrix, 32, 0, TC5_CHECK_STRICT, "tmem-uninit-read");
  assert_int_equal(got[0].line, 14);
}

/* a tcgen05.cp (thread 0) of shared memory never written, never committed,
 * then tcgen05.dealloc; p & 1: the CTA allocates Tensor Memory again after
 * the dealloc */
static const char *cp_unused = HDR
    " .shared .align 4 .b32 taddr;\n .shared .align 128 .b8 sbuf[2048];\n mov.u32 %r3, taddr;\n"
    " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n"
    " ld.shared.b32 %r4, [%r3];\n"
    " mov.u32 %r10, sbuf;\n shr.u32 %r10, %r10, 4;\n cvt.u64.u32 %rd5, %r10;\n"
    " or.b64 %rd5, %rd5, 0x0000400800080000;\n"
    " setp.eq.u32 %p2, %r2, 0;\n"
    " @%p2 tcgen05.cp.cta_group::1.128x128b [%r4], %rd5;\n"
    " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;\n"
    " and.b32 %r8, %r1, 1;\n setp.ne.u32 %p1, %r8, 0;\n"
    " @%p1 tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r3], 32;\n"
    " @%p1 ld.shared.b32 %r4, [%r3];\n"
    " @%p1 tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;\n"
    " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n ret;\n}\n";

static bool found(const char *rule, uint32_t line) {
  for (unsigned i = 0; i < ngot; i++)
    if (got[i].rule == rule_of(rule) && (!line || got[i].line == line)) return true;
  return false;
}

static void test_cp_unused_dealloc(void **s) {
  (void)s;
  /* default: the copy's values are never read, nothing uses Tensor Memory after the dealloc */
  silent(cp_unused, 32, 0, TC5_CHECK_DEFAULT);
  /* strict: the copy's never-written source, the dealloc with the copy in flight */
  assert_int_equal(run_p(cp_unused, 32, 0, TC5_CHECK_STRICT), TC5_EHAZARD);
  assert_true(found("smem-uninit-read", 19));
  assert_true(found("dealloc-inflight", 20));
  /* default, Tensor Memory allocated again after the dealloc: reported at the dealloc */
  assert_int_equal(run_p(cp_unused, 32, 1, TC5_CHECK_DEFAULT), TC5_EHAZARD);
  assert_int_equal(ngot, 1);
  assert_true(found("dealloc-inflight", 20));
  assert_non_null(strstr(got[0].text, "uses Tensor Memory after it"));
}

/* smem-race: warp 0 stores, warp 1 loads the word; bar.sync between them
 * when p != 0 */
static const char *race = HDR
    " .shared .align 16 .b32 buf[8];\n mov.u32 %r3, buf;\n"
    " setp.lt.u32 %p2, %r2, 32;\n"
    " @%p2 st.shared.b32 [%r3], 5;\n"
    " @%p1 bar.sync 0;\n"
    " @!%p2 ld.shared.b32 %r5, [%r3];\n"
    " @!%p2 st.global.b32 [%rd3], %r5;\n ret;\n}\n";

static void test_smem_race(void **s) {
  (void)s;
  silent(race, 64, 1, TC5_CHECK_STRICT);
  found_once(race, 64, 0, TC5_CHECK_DEFAULT, "smem-race");
  assert_non_null(strstr(got[0].text, "read-after-write"));
  assert_int_equal(got[0].line, 14);  /* the ld.shared */
  assert_int_equal(got[0].line2, 12); /* the st.shared */
}

/* cp-async-unwaited: one warp copies 16 bytes with cp.async, commits, waits
 * (p != 0) and loads them */
static const char *cpa = HDR
    " .shared .align 16 .b32 buf[4];\n mov.u32 %r3, buf;\n"
    " cp.async.cg.shared.global [%r3], [%rd4], 16;\n cp.async.commit_group;\n"
    " @%p1 cp.async.wait_group 0;\n"
    " ld.shared.b32 %r5, [%r3+4];\n st.global.b32 [%rd3], %r5;\n ret;\n}\n";

static void test_cp_async_unwaited(void **s) {
  (void)s;
  silent(cpa, 32, 1, TC5_CHECK_STRICT);
  assert_int_equal(out[0], 101);
  found_once(cpa, 32, 0, TC5_CHECK_DEFAULT, "cp-async-unwaited");
  assert_int_equal(got[0].line2, 11);
}

/* issue 53: the shadow of cp.asyncs is byte-precise for two groups a
 * granule. Thread 0 copies 4 bytes at buf+0, buf+4 (and buf+8 in the
 * second kernel), each in a group of its own; cp.async.wait_group 1 leaves
 * the last group in flight; bar.sync; warp 1 loads the 4 bytes at buf+p.
 * The pattern of Triton's pipelined scalar (../shared/repro/cp_async_granule.ptx):
 * a load of a completed group's bytes is silent, of the last group's bytes
 * cp-async-unwaited (the checker had kept one group a granule, the newest) */
#define CPA_GRAN(third) HDR \
    " .shared .align 16 .b32 buf[4];\n mov.u32 %r3, buf; setp.eq.u32 %p2, %r2, 0;\n" \
    " @%p2 cp.async.ca.shared.global [%r3], [%rd4], 4;\n cp.async.commit_group;\n" \
    " @%p2 cp.async.ca.shared.global [%r3+4], [%rd4+4], 4;\n cp.async.commit_group;\n" \
    third \
    " cp.async.wait_group 1;\n bar.sync 0;\n setp.eq.u32 %p3, %r2, 32;\n add.u32 %r4, %r3, %r1;\n" \
    " @%p3 ld.shared.b32 %r5, [%r4];\n @%p3 st.global.b32 [%rd1], %r5;\n cp.async.wait_all;\n ret;\n}\n"
static const char *cpa_gran2 = CPA_GRAN("");
static const char *cpa_gran3 = CPA_GRAN(" @%p2 cp.async.ca.shared.global [%r3+8], [%rd4+8], 4;\n cp.async.commit_group;\n");

static void test_cp_async_granule(void **s) {
  (void)s;
  /* two groups: the first's bytes are complete, the second's are not */
  silent(cpa_gran2, 64, 0, TC5_CHECK_STRICT);
  assert_int_equal(out[0], 100);
  found_once(cpa_gran2, 64, 4, TC5_CHECK_DEFAULT, "cp-async-unwaited");
  assert_int_equal(got[0].line2, 13); /* the second cp.async */
  /* three groups: the first two complete (the older two share a slot), the third not */
  for (uint32_t off = 0; off <= 4; off += 4) {
    silent(cpa_gran3, 64, off, TC5_CHECK_STRICT);
    assert_int_equal(out[0], 100 + off / 4);
  }
  found_once(cpa_gran3, 64, 8, TC5_CHECK_DEFAULT, "cp-async-unwaited");
  assert_int_equal(got[0].line2, 15); /* the third cp.async */
}

/* async-dst-inflight: a bulk copy into shared memory completes on an
 * mbarrier; the load waits for its phase when p != 0 */
static const char *bulk_ld = HDR
    " .shared .align 16 .b32 buf[4];\n .shared .align 8 .b64 bar;\n"
    " mov.u32 %r3, buf; mov.u32 %r4, bar; mov.u32 %r6, 0; setp.eq.u32 %p2, %r2, 0;\n"
    " @%p2 mbarrier.init.shared::cta.b64 [%r4], 1;\n"
    " @%p2 mbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [%r4], 16;\n"
    " @%p2 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd4], 16, [%r4];\n"
    " @!%p1 bra SKIP;\n"
    "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r4], %r6;\n @!%p3 bra WAIT;\n"
    "SKIP:\n ld.shared.b32 %r5, [%r3+8];\n st.global.b32 [%rd3], %r5;\n ret;\n}\n";

static void test_async_dst_inflight(void **s) {
  (void)s;
  silent(bulk_ld, 32, 1, TC5_CHECK_STRICT);
  assert_int_equal(out[0], 102);
  found_once(bulk_ld, 32, 0, TC5_CHECK_DEFAULT, "async-dst-inflight");
  assert_int_equal(got[0].line2, 14);
}

/* async-src-inflight: a bulk copy reads shared memory (a bulk group), the
 * warp overwrites the source, after cp.async.bulk.wait_group.read when p != 0 */
static const char *bulk_st = HDR
    " .shared .align 16 .b32 buf[4];\n mov.u32 %r3, buf;\n"
    " st.shared.v4.b32 [%r3], {%r2, %r2, %r2, %r2};\n fence.proxy.async.shared::cta;\n"
    " setp.eq.u32 %p2, %r2, 0;\n"
    " @%p2 cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r3], 16;\n cp.async.bulk.commit_group;\n"
    " @%p1 cp.async.bulk.wait_group.read 0;\n"
    " st.shared.b32 [%r3], 9;\n ret;\n}\n";

static void test_async_src_inflight(void **s) {
  (void)s;
  silent(bulk_st, 32, 1, TC5_CHECK_STRICT);
  found_once(bulk_st, 32, 0, TC5_CHECK_DEFAULT, "async-src-inflight");
  /* without the proxy fence the bulk copy reads generic-proxy stores */
}

/* proxy-fence, the writer's FIRST fence after its store: warp 0 stores a,
 * fences, arrives on an mbarrier, then stores b and fences again (and
 * raises a global flag); warp 1 waits on the mbarrier and the flag, then
 * TMA-stores a. It knows the first fence (through the mbarrier), not the
 * second: a checker that kept only the warp's last fence called this
 * unfenced (FlashAttention-4's epilogue: two halves of O, a fence each). */
static const char *two_fences = HDR
    " .shared .align 16 .b32 a[4];\n .shared .align 16 .b32 b[4];\n .shared .align 8 .b64 bar;\n"
    " .reg .b32 %q<8>;\n mov.u32 %q1, a; mov.u32 %q2, b; mov.u32 %q3, bar;\n"
    " setp.eq.u32 %p2, %r2, 0;\n @%p2 mbarrier.init.shared::cta.b64 [%q3], 32;\n bar.sync 0;\n"
    " setp.ge.u32 %p3, %r2, 32;\n @%p3 bra READER;\n"
    " st.shared.v4.b32 [%q1], {%r2, %r2, %r2, %r2};\n fence.proxy.async.shared::cta;\n"
    " mbarrier.arrive.shared::cta.b64 %rd5, [%q3];\n"
    " st.shared.v4.b32 [%q2], {%r2, %r2, %r2, %r2};\n fence.proxy.async.shared::cta;\n"
    " @%p2 st.volatile.global.u32 [%rd4+128], 1;\n ret;\n"
    "READER:\n mov.u32 %q4, 0;\n"
    "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%q3], %q4;\n @!%p2 bra WAIT;\n"
    "SPIN:\n ld.volatile.global.u32 %q5, [%rd4+128];\n setp.eq.u32 %p2, %q5, 0;\n @%p2 bra SPIN;\n"
    " setp.eq.u32 %p2, %r2, 32;\n"
    " @%p2 cp.async.bulk.global.shared::cta.bulk_group [%rd4+64], [%q1], 16;\n cp.async.bulk.commit_group;\n"
    " cp.async.bulk.wait_group.read 0;\n ret;\n}\n";

static void test_proxy_fence_first_after_store(void **s) {
  (void)s;
  silent(two_fences, 64, 0, TC5_CHECK_DEFAULT);
}

/* mbarrier-reinit: the second init without (p != 0: with) mbarrier.inval */
static const char *reinit = HDR
    " .shared .align 8 .b64 bar;\n mov.u32 %r4, bar;\n"
    " mbarrier.init.shared::cta.b64 [%r4], 1;\n"
    " @%p1 mbarrier.inval.shared::cta.b64 [%r4];\n"
    " mbarrier.init.shared::cta.b64 [%r4], 2;\n ret;\n}\n";

static void test_mbarrier_reinit(void **s) {
  (void)s;
  silent(reinit, 1, 1, TC5_CHECK_STRICT);
  found_once(reinit, 1, 0, TC5_CHECK_DEFAULT, "mbarrier-reinit");
  assert_int_equal(got[0].line, 13);
}

/* mbarrier.arrive.relaxed releases nothing (9.7.13.15.13): warp 0 stores,
 * its thread 0 arrives (p != 0: .release, p == 0: .relaxed), warp 1 waits
 * on the phase and loads the word: a race only after the relaxed arrival */
static const char *relaxed_arrive = HDR
    " .reg .pred %q<4>; .reg .b64 %s<2>;\n"
    " .shared .align 16 .b32 buf[8];\n .shared .align 8 .b64 bar;\n mov.u32 %r3, buf;\n mov.u32 %r4, bar;\n"
    " setp.eq.u32 %p2, %r2, 0;\n @%p2 mbarrier.init.shared::cta.b64 [%r4], 1;\n bar.sync 0;\n"
    " setp.lt.u32 %p3, %r2, 32;\n"
    " @%p3 st.shared.b32 [%r3], 5;\n"
    " and.pred %q1, %p2, %p1;\n"
    " setp.eq.u32 %q2, %r1, 0;\n and.pred %q2, %q2, %p2;\n"
    " @%q1 mbarrier.arrive.release.cta.shared::cta.b64 %s1, [%r4];\n"
    " @%q2 mbarrier.arrive.relaxed.cta.shared::cta.b64 %s1, [%r4];\n"
    " @%p3 bra DONE;\n"
    "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %q3, [%r4], 0;\n @!%q3 bra WAIT;\n"
    " ld.shared.b32 %r5, [%r3];\n st.global.b32 [%rd3], %r5;\n"
    "DONE:\n ret;\n}\n";

static void test_mbarrier_relaxed_arrive(void **s) {
  (void)s;
  silent(relaxed_arrive, 64, 1, TC5_CHECK_STRICT);
  assert_int_equal(out[32], 5);
  found_once(relaxed_arrive, 64, 0, TC5_CHECK_DEFAULT, "smem-race");
  assert_non_null(strstr(got[0].text, "read-after-write"));
}

/* mbarrier-uninit: p == 0: an arrive on the word after an initialised
 * mbarrier (never initialised); p == 2: init, arrive, inval, arrive (an
 * invalidated mbarrier); p == 1: init, arrive, inval, init again, arrive
 * (legal) */
static const char *uninit_mbar = HDR
    " .reg .b64 %s<2>;\n .shared .align 8 .b64 bar;\n mov.u32 %r4, bar;\n"
    " setp.eq.u32 %p2, %r1, 2;\n"
    " @%p1 mbarrier.init.shared::cta.b64 [%r4], 1;\n"
    " @%p1 mbarrier.arrive.shared::cta.b64 %s1, [%r4];\n"
    " @%p1 mbarrier.inval.shared::cta.b64 [%r4];\n"
    " @!%p2 mbarrier.init.shared::cta.b64 [%r4], 1;\n"
    " setp.eq.u32 %p3, %r1, 0;\n"
    " @!%p3 mbarrier.arrive.shared::cta.b64 %s1, [%r4];\n"
    " @%p3 mbarrier.arrive.shared::cta.b64 %s1, [%r4+8];\n ret;\n}\n";

static void test_mbarrier_uninit(void **s) {
  (void)s;
  silent(uninit_mbar, 1, 1, TC5_CHECK_STRICT);
  unsigned k = 0;
  assert_int_equal(tc5_check_rule_find("mbarrier-uninit", &k), TC5_OK);
  const tc5_check_rule *r = NULL;
  assert_int_equal(tc5_check_rule_get(k, &r), TC5_OK);
  assert_int_equal(r->severity, TC5_CHECK_ALWAYS);
  /* never initialised (the word after the mbarrier), invalidated: the run
   * stops with the rule named, in every mode (--check=none included) */
  const char *why[3] = {"never initialised by mbarrier.init", NULL, "invalidated by mbarrier.inval"};
  for (uint32_t p = 0; p <= 2; p += 2)
    for (int mode = 0; mode < 2; mode++) {
      tc5_status rs = run_p(uninit_mbar, 1, p, mode ? TC5_CHECK_NONE : TC5_CHECK_DEFAULT);
      assert_int_equal(rs, TC5_ESTATE);
      assert_true(dg.count > 0);
      int seen = 0;
      for (unsigned i = 0; i < dg.count; i++)
        seen |= strstr(dg.issue[i].message, "[mbarrier-uninit]") && strstr(dg.issue[i].message, why[p]);
      assert_true(seen);
    }
}

/* smem-race across the CTAs of a cluster: two CTAs of one warp; each loads
 * the peer's word (ld.shared::cluster), both pass a cluster barrier whose
 * arrival is .relaxed (p == 0: it releases nothing) or not (p != 0), then
 * each stores to its own word: the peer's load and this store race when the
 * arrival was relaxed */
static const char *xcta = HDR
    " .shared .align 16 .b32 buf[4];\n mov.u32 %r3, buf;\n"
    " st.shared.b32 [%r3], 1;\n barrier.cluster.arrive.aligned;\n barrier.cluster.wait.aligned;\n"
    " mov.u32 %r6, %cluster_ctarank;\n xor.b32 %r6, %r6, 1;\n mapa.shared::cluster.u32 %r7, %r3, %r6;\n"
    " ld.shared::cluster.b32 %r5, [%r7];\n"
    " @%p1 barrier.cluster.arrive.aligned;\n @!%p1 barrier.cluster.arrive.relaxed.aligned;\n"
    " barrier.cluster.wait.aligned;\n"
    " st.shared.b32 [%r3], %r5;\n"
    " barrier.cluster.arrive.aligned;\n barrier.cluster.wait.aligned;\n ret;\n}\n";

static tc5_status run_cluster(const char *src, uint32_t param, tc5_diag *diag) {
  uint32_t words[64], scratch[16] = {0};
  tc5_ptx_arg args[3] = {{.kind = TC5_PTX_ARG_BUFFER, .data = words, .bytes = sizeof words},
                         {.kind = TC5_PTX_ARG_VALUE, .size = 4, .bits = param},
                         {.kind = TC5_PTX_ARG_BUFFER, .data = scratch, .bytes = sizeof scratch}};
  tc5_ptx_launch_cfg cfg = cfg_for(32, TC5_CHECK_DEFAULT);
  cfg.grid[0] = 2;
  cfg.cluster[0] = 2, cfg.cluster[1] = 1, cfg.cluster[2] = 1;
  tc5_ptx_stats stats;
  return launch(src, "c.ptx", &cfg, args, 3, &stats, diag);
}

static void test_smem_race_cluster(void **s) {
  (void)s;
  assert_int_equal(run_cluster(xcta, 1, &dg), TC5_OK);
  assert_int_equal(ngot, 0);
  assert_int_equal(run_cluster(xcta, 0, &dg), TC5_EHAZARD);
  assert_true(ngot >= 1);
  assert_int_equal(got[0].rule, rule_of("smem-race"));
  assert_non_null(strstr(got[0].text, "across CTAs"));
  assert_non_null(strstr(got[0].text, "ld.shared::cluster"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rules_table),
      cmocka_unit_test(test_finding),
      cmocka_unit_test(test_uninit_goes_on),
      cmocka_unit_test(test_tmem_uninit_ld_used),
      cmocka_unit_test(test_tmem_uninit_ld_unused),
      cmocka_unit_test(test_tmem_uninit_st_shared),
      cmocka_unit_test(test_tmem_uninit_pure_ops),
      cmocka_unit_test(test_smem_uninit_ld_flow),
      cmocka_unit_test(test_smem_uninit_shfl_flow),
      cmocka_unit_test(test_tmem_uninit_matrix),
      cmocka_unit_test(test_cp_unused_dealloc),
      cmocka_unit_test(test_smem_race),
      cmocka_unit_test(test_cp_async_unwaited),
      cmocka_unit_test(test_cp_async_granule),
      cmocka_unit_test(test_async_dst_inflight),
      cmocka_unit_test(test_async_src_inflight),
      cmocka_unit_test(test_proxy_fence_first_after_store),
      cmocka_unit_test(test_mbarrier_reinit),
      cmocka_unit_test(test_mbarrier_relaxed_arrive),
      cmocka_unit_test(test_mbarrier_uninit),
      cmocka_unit_test(test_smem_race_cluster),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
