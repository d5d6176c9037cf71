/* tc5 tests — synchronisation: the mbarrier object (phases, parity,
 * arrival counts, tx-count) and tcgen05.commit, every error path. */
#include "testutil.h"

#include "tc5/sync.h"

static void expect(tc5_status got, tc5_status want, const tc5_diag *d, const char *text) {
  assert_int_equal(got, want);
  if (text) {
    bool found = false;
    for (unsigned i = 0; i < d->count; i++) found = found || strstr(d->issue[i].message, text);
    if (!found) fail_msg("no message with \"%s\" (got \"%s\")", text, d->count ? d->issue[0].message : "");
  }
}

static void test_mbarrier(void **state) {
  (void)state;
  tc5_mbarrier mb;
  tc5_diag d;
  tc5_diag_init(&d);
  bool done;
  memset(&mb, 0, sizeof mb);
  expect(tc5_mbarrier_arrive(&mb, 1, NULL, &d), TC5_ESTATE, &d, "never initialised");
  expect(tc5_mbarrier_test_wait(&mb, 0, &done, &d), TC5_ESTATE, &d, "mbarrier.test_wait");
  expect(tc5_mbarrier_init(&mb, 0, &d), TC5_ERANGE, &d, "count 0 is outside [1, 2^20 - 1]");
  expect(tc5_mbarrier_init(&mb, TC5_MBARRIER_MAX_COUNT + 1, &d), TC5_ERANGE, &d, "outside");
  assert_int_equal(tc5_mbarrier_init(&mb, TC5_MBARRIER_MAX_COUNT, NULL), TC5_OK);
  /* three arrivals a phase */
  assert_int_equal(tc5_mbarrier_init(&mb, 3, NULL), TC5_OK);
  uint32_t ph = 9;
  assert_int_equal(tc5_mbarrier_arrive(&mb, 2, &ph, NULL), TC5_OK);
  assert_int_equal(ph, 0);
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 0, &done, NULL), TC5_OK);
  assert_false(done);
  expect(tc5_mbarrier_arrive(&mb, 2, NULL, &d), TC5_ESTATE, &d, "awaits 1 more arrival ");
  expect(tc5_mbarrier_arrive(&mb, 0, NULL, &d), TC5_ESTATE, &d, "count 0");
  assert_int_equal(tc5_mbarrier_arrive(&mb, 1, NULL, NULL), TC5_OK);
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 0, &done, NULL), TC5_OK);
  assert_true(done); /* phase 0 complete */
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 1, &done, NULL), TC5_OK);
  assert_false(done); /* phase 1 running */
  assert_int_equal(mb.pending, 3);
  /* tx-count: the phase waits for its bytes too */
  assert_int_equal(tc5_mbarrier_expect_tx(&mb, 4096, NULL), TC5_OK);
  assert_int_equal(tc5_mbarrier_arrive(&mb, 3, &ph, NULL), TC5_OK);
  assert_int_equal(ph, 1);
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 1, &done, NULL), TC5_OK);
  assert_false(done);
  assert_int_equal(tc5_mbarrier_complete_tx(&mb, 1024, NULL), TC5_OK);
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 1, &done, NULL), TC5_OK);
  assert_false(done);
  assert_int_equal(tc5_mbarrier_complete_tx(&mb, 3072, NULL), TC5_OK);
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 1, &done, NULL), TC5_OK);
  assert_true(done);
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 0, &done, NULL), TC5_OK);
  assert_false(done); /* phase 2 has parity 0 and is running */
  expect(tc5_mbarrier_test_wait(&mb, 2, &done, &d), TC5_ERANGE, &d, "parity 2 is not 0 or 1");
  assert_int_equal(tc5_mbarrier_test_wait(&mb, 0, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_mbarrier_init(NULL, 1, NULL), TC5_EINVAL);
  assert_int_equal(tc5_mbarrier_arrive(NULL, 1, NULL, NULL), TC5_EINVAL);
  assert_int_equal(tc5_mbarrier_expect_tx(NULL, 1, NULL), TC5_EINVAL);
  assert_int_equal(tc5_mbarrier_complete_tx(NULL, 1, NULL), TC5_EINVAL);
  memset(&mb, 0, sizeof mb);
  expect(tc5_mbarrier_expect_tx(&mb, 1, &d), TC5_ESTATE, &d, "mbarrier.expect_tx");
  expect(tc5_mbarrier_complete_tx(&mb, 1, &d), TC5_ESTATE, &d, "mbarrier.complete_tx");
}

static void test_commit(void **state) {
  (void)state;
  tc5_smem s;
  tc5_tmem t;
  assert_int_equal(tc5_smem_init(&s, 1024), TC5_OK);
  assert_int_equal(tc5_tmem_init(&t, 0), TC5_OK);
  tc5_cta c = {&s, &t, {{0}}, NULL};
  tc5_mbarrier mb[2], *two[2] = {&mb[0], &mb[1]};
  tc5_diag d;
  tc5_diag_init(&d);
  assert_int_equal(tc5_mbarrier_init(&mb[0], 2, NULL), TC5_OK);
  assert_int_equal(tc5_mbarrier_init(&mb[1], 1, NULL), TC5_OK);
  /* nothing issued: the commit still arrives; multicast arrives on each */
  assert_int_equal(tc5_commit(&c, 1, two, 2, NULL), TC5_OK);
  assert_int_equal(mb[0].pending, 1);
  assert_int_equal(mb[1].phase, 1);
  assert_int_equal(tc5_commit(&c, 1, two, 1, NULL), TC5_OK);
  assert_int_equal(mb[0].phase, 1);
  /* every rule */
  expect(tc5_commit(&c, 3, two, 1, &d), TC5_EINVAL, &d, ".cta_group::3 is not 1 or 2");
  expect(tc5_commit(&c, 1, two, 0, &d), TC5_ERANGE, &d, "0 mbarriers");
  expect(tc5_commit(&c, 1, two, 17, &d), TC5_ERANGE, &d, "17 mbarriers");
  expect(tc5_commit(&c, 2, two, 1, &d), TC5_EILLEGAL, &d, "tcgen05.commit");
  tc5_mbarrier raw;
  memset(&raw, 0, sizeof raw);
  tc5_mbarrier *rp = &raw;
  expect(tc5_commit(&c, 1, &rp, 1, &d), TC5_ESTATE, &d, "tcgen05.commit: the mbarrier object was never initialised");
  assert_int_equal(tc5_commit(NULL, 1, two, 1, NULL), TC5_EINVAL);
  assert_int_equal(tc5_commit(&c, 1, NULL, 1, NULL), TC5_EINVAL);
  tc5_cta_free(&c);
  tc5_smem_free(&s);
  tc5_tmem_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mbarrier),
      cmocka_unit_test(test_commit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
