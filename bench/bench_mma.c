/* tc5 benchmark — overhead of the tcgen05.mma engine over the bare
 * arithmetic core on the same GEMM: 256 x 256 x 256 bf16 -> f32 as 32 MMAs
 * (M = 128, N = 256, K = 16; operands gathered from 128B-swizzled shared
 * memory, D read from and written to Tensor Memory, one tcgen05.commit at
 * the end) vs one tc5_gemm of the same matrices on one thread, in the same
 * process. Target: <= 1.2x. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "tc5/arith.h"
#include "tc5/layout.h"
#include "tc5/mma.h"
#include "tc5/sync.h"

#define S 256

int main(void) {
  static uint32_t A[S * S], B[S * S], Bt[S * S], D[S * S], tile[S * S];
  uint64_t seed = 1;
  for (int i = 0; i < S * S; i++) A[i] = 0x3C00u | (bench_rand(&seed) & 0x83FFu);
  for (int i = 0; i < S * S; i++) B[i] = 0x3C00u | (bench_rand(&seed) & 0x83FFu);
  for (int k = 0; k < S; k++)
    for (int n = 0; n < S; n++) Bt[n * S + k] = B[k * S + n];
  tc5_smem sm;
  tc5_tmem tm;
  if (tc5_smem_init(&sm, TC5_SMEM_MAX_BYTES) || tc5_tmem_init(&tm, 0)) return 1;
  tc5_cta cta = {&sm, &tm, {{0}}, NULL};
  tc5_mbarrier done;
  tc5_mbarrier *mb = &done;
  tc5_mbarrier_init(&done, 1, NULL);
  uint32_t base;
  tc5_tmem_alloc(&tm, 512, &base, NULL);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
  /* whole K in shared memory: A tiles (128 x 256) at 0 / 64 KB, B at 128 KB would not fit the
   * 227 KB; use 64-wide K blocks as a kernel does, staged outside the timed region */
  tc5_smem_desc da[4][2], db[4];
  tc5_smem smk[4];
  for (int kb = 0; kb < 4; kb++) {
    tc5_smem_init(&smk[kb], TC5_SMEM_MAX_BYTES);
    for (int mt = 0; mt < 2; mt++) {
      for (int m = 0; m < 128; m++)
        for (int k = 0; k < 64; k++) tile[m * 64 + k] = A[(mt * 128 + m) * S + kb * 64 + k];
      tc5_layout_scatter(&smk[kb], (uint32_t)mt * 16384u, TC5_SWIZZLE_128B, &op, 128, 64, tile, &da[kb][mt], NULL);
    }
    for (int n = 0; n < S; n++)
      for (int k = 0; k < 64; k++) tile[n * 64 + k] = Bt[n * S + kb * 64 + k];
    tc5_layout_scatter(&smk[kb], 32768u, TC5_SWIZZLE_128B, &op, S, 64, tile, &db[kb], NULL);
  }
  tc5_mma_args ma;
  tc5_mma_args_init(&ma, TC5_KIND_F16);
  tc5_idesc id;
  tc5_idesc_init(&id, TC5_KIND_F16);
  tc5_idesc_set_types(&id, TC5_BF16, TC5_BF16, TC5_F32);
  id.m = 128;
  id.n = 256;
  tc5_idesc_encode(&id, &ma.idesc, NULL);
  tc5_dot dot;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0, false, &dot, NULL);
  double best_core = 1e9, best_eng = 1e9;
  for (int rep = 0; rep < 15; rep++) {
    double t0 = bench_now();
    tc5_gemm(&dot, S, S, S, A, B, NULL, NULL, D, &o, 1);
    double t1 = bench_now();
    for (int kb = 0; kb < 4; kb++) {
      cta.smem = &smk[kb];
      for (int mt = 0; mt < 2; mt++)
        for (int ks = 0; ks < 4; ks++) {
          tc5_smem_desc a_k, b_k;
          tc5_layout_kblock(&da[kb][mt], &op, 128, (unsigned)ks * 16, &a_k, NULL);
          tc5_layout_kblock(&db[kb], &op, S, (unsigned)ks * 16, &b_k, NULL);
          tc5_smem_desc_encode(&a_k, &ma.a_desc, NULL);
          tc5_smem_desc_encode(&b_k, &ma.b_desc, NULL);
          ma.d_tmem = base + (uint32_t)mt * 256u;
          ma.enable_input_d = kb > 0 || ks > 0;
          if (tc5_mma_issue(&cta, 1, &ma, NULL)) return 1;
        }
    }
    if (tc5_commit(&cta, 1, &mb, 1, NULL)) return 1;
    double t2 = bench_now();
    if (t1 - t0 < best_core) best_core = t1 - t0;
    if (t2 - t1 < best_eng) best_eng = t2 - t1;
  }
  double macs = (double)S * S * S;
  printf("256x256x256 bf16 -> f32, 1 thread, best of 15\n");
  printf("  arithmetic core (tc5_gemm)      %8.2f ms  %.3g MAC/s\n", best_core * 1e3, macs / best_core);
  printf("  engine (32 x tcgen05.mma)       %8.2f ms  %.3g MAC/s\n", best_eng * 1e3, macs / best_eng);
  printf("  engine / core                   %8.2fx   (target <= 1.2x)\n", best_eng / best_core);
  for (int kb = 0; kb < 4; kb++) tc5_smem_free(&smk[kb]);
  tc5_cta_free(&cta);
  tc5_smem_free(&sm);
  tc5_tmem_free(&tm);
  return 0;
}
