/* tc5 tests — what issue 39 changed in the runner for the launch fuzzer's
 * speed, each against counts worked out from the kernel:
 *  - a false mbarrier wait polled again, at any instruction, with nothing
 *    changed in the CTA sleeps: an unrolled poll loop on a phase nothing
 *    completes is a deadlock found in a few steps, not a spin to the step
 *    limit reported as a hang;
 *  - the step limit is exact: a warp's turn stops at it (it ran up to 65,536
 *    warp-instructions past it);
 *  - a warp's registers are the entry's window of the module's numbering:
 *    an entry after a large one runs on its own registers, zeroed. */
#include "testutil.h"
#include "tc5/ptx.h"

static const char *head = ".version 8.7\n.target sm_100a\n.address_size 64\n";

static bool has(const tc5_diag *dg, const char *s) {
  for (unsigned k = 0; k < dg->count; k++)
    if (strstr(dg->issue[k].message, s)) return true;
  return false;
}

/* runs entry `entry` of head + body on one CTA of `block` threads, one
 * buffer argument of `bytes` at out, max_steps steps */
static tc5_status run(const char *body, const char *entry, unsigned block, void *out, size_t bytes, uint64_t max_steps,
                      tc5_ptx_stats *stats, tc5_diag *dg) {
  static char text[1 << 16];
  snprintf(text, sizeof text, "%s%s", head, body);
  tc5_diag_init(dg);
  tc5_ptx_module *m;
  tc5_status st = tc5_ptx_load(text, strlen(text), "t.ptx", &m, dg);
  if (st) return st;
  tc5_ptx_arg arg = {.kind = TC5_PTX_ARG_BUFFER, .data = out, .bytes = bytes};
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.entry = entry;
  cfg.block[0] = block;
  cfg.threads = 1;
  cfg.max_steps = max_steps;
  st = tc5_ptx_launch(m, &cfg, &arg, 1, stats, dg);
  tc5_ptx_free(m);
  return st;
}

/* four try_waits in a row (as compilers unroll a poll loop), then a branch
 * back: the phase needs two arrivals and gets none */
static const char *unrolled =
    ".shared .align 8 .b64 mb;\n"
    ".visible .entry k(.param .u64 out) {\n"
    " .reg .pred %p<6>; .reg .b32 %r<4>;\n"
    " mbarrier.init.shared::cta.b64 [mb], 2;\n"
    " bar.sync 0;\n"
    "W: mbarrier.try_wait.parity.shared::cta.b64 %p1, [mb], 0;\n"
    " @%p1 bra D;\n"
    " mbarrier.try_wait.parity.shared::cta.b64 %p2, [mb], 0;\n"
    " @%p2 bra D;\n"
    " mbarrier.try_wait.parity.shared::cta.b64 %p3, [mb], 0;\n"
    " @%p3 bra D;\n"
    " mbarrier.try_wait.parity.shared::cta.b64 %p4, [mb], 0;\n"
    " @!%p4 bra W;\n"
    "D: ret;\n"
    "}\n";

static void test_unrolled_poll_sleeps(void **state) {
  (void)state;
  uint32_t out[32];
  tc5_diag dg;
  tc5_ptx_stats stats;
  memset(&stats, 0, sizeof stats);
  /* init, bar.sync, the first try_wait (false: the program sees it), its
   * branch, the second try_wait: it sleeps, and nothing can wake it (it
   * spun to the step limit, 2^20 here, and was reported as a hang) */
  assert_int_equal(run(unrolled, "k", 32, out, sizeof out, 1u << 20, &stats, &dg), TC5_ESTATE);
  assert_true(has(&dg, "[mbarrier-wait-never] deadlock"));
  assert_true(has(&dg, "phase 0 has 2 of 2 arrivals and 0 tx bytes pending"));
  assert_false(has(&dg, "hang"));
  assert_true(stats.warp_insns <= 10); /* (the init's change of the CTA wakes it once: 3 more) */
}

/* a loop with no wait at all: the hang is stopped at the limit exactly */
static void test_step_limit_exact(void **state) {
  (void)state;
  uint32_t out[32];
  tc5_diag dg;
  tc5_ptx_stats stats;
  static const char *spin = ".visible .entry k(.param .u64 out) {\n$L: bra $L;\n}\n";
  for (uint64_t limit = 1; limit <= 100000; limit *= 10) {
    memset(&stats, 0, sizeof stats);
    assert_int_equal(run(spin, "k", 32, out, sizeof out, limit, &stats, &dg), TC5_ESTATE);
    assert_true(has(&dg, "hang"));
    assert_int_equal(stats.warp_insns, limit + 1); /* the step past the limit is the one that says so */
  }
  /* two warps: the limit is the CTA's; the round of turns it ends in gives
   * each warp one step at most past it */
  memset(&stats, 0, sizeof stats);
  assert_int_equal(run(spin, "k", 64, out, sizeof out, 5000, &stats, &dg), TC5_ESTATE);
  assert_true(stats.warp_insns >= 5001 && stats.warp_insns <= 5002);
}

/* a large entry first (its registers numbered first), then a small one
 * that reads its registers before writing them (zero, as tc5 starts every
 * register) and stores them: its window is its own */
static void test_register_window(void **state) {
  (void)state;
  static char body[1 << 15];
  size_t n = (size_t)snprintf(body, sizeof body,
                              ".visible .entry big(.param .u64 out) {\n .reg .b32 %%b<600>;\n");
  for (unsigned k = 1; k < 600; k++)
    n += (size_t)snprintf(body + n, sizeof body - n, " add.u32 %%b%u, %%b%u, %u;\n", k, k - 1, k);
  snprintf(body + n, sizeof body - n,
           " ret;\n}\n"
           ".visible .entry small(.param .u64 out) {\n"
           " .reg .b32 %%r<4>; .reg .b64 %%rd<4>;\n"
           " ld.param.u64 %%rd1, [out];\n"
           " mov.u32 %%r1, %%tid.x;\n"
           " mul.wide.u32 %%rd2, %%r1, 4;\n"
           " add.s64 %%rd3, %%rd1, %%rd2;\n"
           " add.u32 %%r3, %%r2, %%r1;\n"   /* %%r2 never written: 0 */
           " st.global.u32 [%%rd3], %%r3;\n"
           " ret;\n}\n");
  uint32_t out[64];
  memset(out, 0xff, sizeof out);
  tc5_diag dg;
  tc5_ptx_stats stats;
  assert_int_equal(run(body, "small", 64, out, sizeof out, 0, &stats, &dg), TC5_OK);
  for (unsigned t = 0; t < 64; t++) assert_int_equal(out[t], t);
  /* and the large one runs its 600 registers as before */
  assert_int_equal(run(body, "big", 32, out, sizeof out, 0, &stats, &dg), TC5_OK);
  assert_int_equal(stats.warp_insns, 600); /* 599 adds and ret */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unrolled_poll_sleeps),
      cmocka_unit_test(test_step_limit_exact),
      cmocka_unit_test(test_register_window),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
