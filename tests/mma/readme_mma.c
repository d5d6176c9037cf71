/* tc5 — the README's example of the MMA engine: one tcgen05.mma issued,
 * committed to an mbarrier and waited for. CTest runs it (readme_mma). */
#include <stdio.h>
#include <tc5/layout.h>
#include <tc5/mma.h>
#include <tc5/sync.h>

int main(void) {
  tc5_smem sm;
  tc5_tmem tm;
  tc5_smem_init(&sm, TC5_SMEM_MAX_BYTES);
  tc5_tmem_init(&tm, 0);
  tc5_cta cta = {.smem = &sm, .tmem = &tm};
  uint32_t d;
  tc5_tmem_alloc(&tm, 128, &d, NULL);

  /* A (128 x 16) and B (64 x 16) bf16, K-major, 128B-swizzled */
  static uint32_t a[128 * 16], b[64 * 16];
  for (int i = 0; i < 128 * 16; i++) a[i] = 0x3F80; /* 1.0 */
  for (int i = 0; i < 64 * 16; i++) b[i] = 0x4000;  /* 2.0 */
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
  tc5_smem_desc da, db;
  tc5_layout_scatter(&sm, 0, TC5_SWIZZLE_128B, &op, 128, 16, a, &da, NULL);
  tc5_layout_scatter(&sm, 16384, TC5_SWIZZLE_128B, &op, 64, 16, b, &db, NULL);

  tc5_mma_args m;
  tc5_mma_args_init(&m, TC5_KIND_F16); /* tcgen05.mma.cta_group::1.kind::f16 */
  tc5_idesc id;
  tc5_idesc_init(&id, TC5_KIND_F16);
  tc5_idesc_set_types(&id, TC5_BF16, TC5_BF16, TC5_F32);
  id.m = 128, id.n = 64;
  tc5_idesc_encode(&id, &m.idesc, NULL);
  tc5_smem_desc_encode(&da, &m.a_desc, NULL);
  tc5_smem_desc_encode(&db, &m.b_desc, NULL);
  m.d_tmem = d;
  m.enable_input_d = false;

  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_mbarrier bar, *bars[1] = {&bar};
  tc5_mbarrier_init(&bar, 1, NULL);
  if (tc5_mma_issue(&cta, 1, &m, &dg) || tc5_commit(&cta, 1, bars, 1, &dg)) {
    for (unsigned i = 0; i < dg.count; i++) puts(dg.issue[i].message);
    return 1;
  }
  bool done;
  tc5_mbarrier_test_wait(&bar, 0, &done, NULL); /* true: phase 0 completed */
  uint32_t v;
  tc5_tmem_peek(&tm, 0, 0, &v, NULL);           /* D[0][0] = 32.0f = 0x42000000 */
  printf("%d 0x%08x\n", done, v);
  tc5_cta_free(&cta);
  tc5_smem_free(&sm);
  tc5_tmem_free(&tm);
  return 0;
}
