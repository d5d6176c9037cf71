/* tc5 benchmark — overhead of the tcgen05.mma engine over the bare
 * arithmetic core on the same GEMM, in the same process: 256 x 128 x 512
 * as a kernel issues it (two M = 128 tiles of D, N = 128, one MMA per K
 * step; operands gathered from 128B-swizzled shared memory staged per K
 * block outside the timed region, D read from and written to Tensor Memory,
 * block-scaled kinds with their scale factors brought in by
 * tcgen05.cp.32x128b.warpx4; one tcgen05.commit at the end) vs one tc5_gemm
 * of the same matrices (and scales) on one thread. For each kind, bf16,
 * e4m3 x e2m1 (.kind::f8f6f4) and NVFP4 (.kind::mxf4nvf4, ue4m3, block 16):
 * 10 runs, each the ratio of the best of 5 of both; the median is the
 * result. Target: <= 1.2x. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "tc5/arith.h"
#include "tc5/cp.h"
#include "tc5/layout.h"
#include "tc5/mma.h"
#include "tc5/sync.h"

#define S 256  /* M */
#define SN 128 /* N */
#define SK 512
#define MAXKB 8

typedef struct bkind {
  const char *name;
  tc5_kind kind;
  tc5_type a, b, s;
  unsigned block;
} bkind;

static uint32_t code(uint64_t *seed, tc5_type t) {
  uint32_t r = (uint32_t)bench_rand(seed);
  switch (t) {
  case TC5_BF16: return 0x3C00u | (r & 0x83FFu);
  case TC5_E4M3: return (r & 0x87u) | ((4 + (r >> 8) % 8) << 3);
  case TC5_UE4M3: return 0x30 + r % 16;
  default: return r & 0xFu; /* e2m1 */
  }
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static int bench_kind(const bkind *bk, double *median) {
  static uint32_t A[S * SK], B[SK * SN], Bt[SN * SK], D[S * SN], SA[S * SK / 16], SB[SK / 16 * SN], tile[S * SK];
  tc5_operand op, opb, op8;
  tc5_operand_for(bk->kind, bk->a, TC5_MAJOR_K, &op);
  tc5_operand_for(bk->kind, bk->b, TC5_MAJOR_K, &opb);
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op8);
  unsigned KB = 128 * 8 / tc5_operand_slot_bits(&op), nkb = SK / KB, NS = bk->block ? SK / bk->block : 0;
  uint64_t seed = 1;
  for (int i = 0; i < S * SK; i++) A[i] = code(&seed, bk->a);
  for (int i = 0; i < SK * SN; i++) B[i] = code(&seed, bk->b);
  for (unsigned i = 0; i < S * NS; i++) SA[i] = code(&seed, bk->s);
  for (unsigned i = 0; i < SN * NS; i++) SB[i] = code(&seed, bk->s);
  for (int k = 0; k < SK; k++)
    for (int n = 0; n < SN; n++) Bt[n * SK + k] = B[k * SN + n];
  tc5_tmem tm;
  if (tc5_tmem_init(&tm, 0)) return 1;
  tc5_cta cta = {NULL, &tm, {{0}}, NULL};
  tc5_mbarrier done;
  tc5_mbarrier *mb = &done;
  tc5_mbarrier_init(&done, 1, NULL);
  uint32_t base;
  tc5_tmem_alloc(&tm, 512, &base, NULL);
  /* the K blocks staged in shared memory (a stage each), with the scale
   * factors' copy sources: A tiles at 0 / 16 KB, B at 32 KB, scale factors
   * from 96 KB */
  tc5_smem_desc da[MAXKB][2], db[MAXKB];
  uint64_t sfd[MAXKB][2][8];
  tc5_smem smk[MAXKB];
  unsigned wpk = bk->block ? KB / bk->block / 4 : 0; /* scale words a K block */
  for (unsigned kb = 0; kb < nkb; kb++) {
    tc5_smem_init(&smk[kb], TC5_SMEM_MAX_BYTES);
    for (int mt = 0; mt < 2; mt++) {
      for (int m = 0; m < 128; m++)
        for (unsigned k = 0; k < KB; k++) tile[m * KB + k] = A[(mt * 128 + m) * SK + kb * KB + k];
      tc5_layout_scatter(&smk[kb], (uint32_t)mt * 16384u, TC5_SWIZZLE_128B, &op, 128, KB, tile, &da[kb][mt], NULL);
    }
    for (int n = 0; n < SN; n++)
      for (unsigned k = 0; k < KB; k++) tile[n * KB + k] = Bt[n * SK + kb * KB + k];
    tc5_layout_scatter(&smk[kb], 32768u, TC5_SWIZZLE_128B, &opb, SN, KB, tile, &db[kb], NULL);
    for (unsigned w = 0, at = 98304; w < wpk; w++)
      for (int mt = 0; mt < 2; mt++) /* per tile: A's rows, then B's */
        for (int x = 0; x < 2; x++, at += 1024) {
          unsigned s0 = kb * KB / bk->block;
          if (x == 0) tc5_cp_sf_source(SA + (size_t)mt * 128 * NS + s0, NS, 1, w, KB / bk->block, tile);
          else tc5_cp_sf_source(SB + (size_t)s0 * SN, 1, SN, w, KB / bk->block, tile);
          tc5_smem_desc sd;
          tc5_layout_scatter(&smk[kb], at, TC5_SWIZZLE_NONE, &op8, 32, 16, tile, &sd, NULL);
          tc5_smem_desc_encode(&sd, &sfd[kb][mt][2 * w + (unsigned)x], NULL);
        }
  }
  tc5_mma_args ma;
  tc5_mma_args_init(&ma, bk->kind);
  ma.variant.block = (uint8_t)bk->block;
  tc5_idesc id;
  tc5_idesc_init(&id, bk->kind);
  tc5_idesc_set_types(&id, bk->a, bk->b, TC5_F32);
  id.m = 128;
  id.n = SN;
  id.scale_type = bk->s == TC5_UE8M0;
  tc5_idesc_encode(&id, &ma.idesc, NULL);
  unsigned K;
  tc5_idesc_k(&id, &K);
  tc5_cp_args cp;
  tc5_cp_parse("tcgen05.cp.cta_group::1.32x128b.warpx4", &cp, NULL);
  tc5_dot dot;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  tc5_dot_model(TC5_MODEL_BLACKWELL, bk->kind, bk->a, bk->b, TC5_F32, bk->s, bk->block, false, &dot, NULL);
  double ratio[10];
  for (int run = 0; run < 10; run++) {
    double best_core = 1e9, best_eng = 1e9;
    for (int rep = 0; rep < 5; rep++) {
      double t0 = bench_now();
      tc5_gemm(&dot, S, SN, SK, A, B, NS ? SA : NULL, NS ? SB : NULL, D, &o, 1);
      double t1 = bench_now();
      /* K block after K block, both tiles (D in columns 0-255, the scale
       * factors of the K block in 256-511) */
      for (unsigned kb = 0; kb < nkb; kb++) {
        cta.smem = &smk[kb];
        for (unsigned mt = 0; mt < 2; mt++) {
          /* scale factors: A at columns 256 + 16 mt + 4 w, B at 320 + 4 w */
          for (unsigned w = 0; w < wpk; w++)
            for (unsigned x = 0; x < 2; x++) {
              cp.sdesc = sfd[kb][mt][2 * w + x];
              cp.taddr = x == 0 ? base + 256 + 16 * mt + 4 * w : base + 320 + 4 * w;
              if (tc5_cp(&cta, 1, &cp, NULL)) return 1;
            }
          for (unsigned ks = 0; ks < KB / K; ks++) {
            tc5_smem_desc a_k, b_k;
            tc5_layout_kblock(&da[kb][mt], &op, 128, ks * K, &a_k, NULL);
            tc5_layout_kblock(&db[kb], &opb, SN, ks * K, &b_k, NULL);
            tc5_smem_desc_encode(&a_k, &ma.a_desc, NULL);
            tc5_smem_desc_encode(&b_k, &ma.b_desc, NULL);
            if (NS) { /* 4 scale factors an MMA: word ks */
              ma.sfa_tmem = base + 256 + 16 * mt + 4 * ks;
              ma.sfb_tmem = base + 320 + 4 * ks;
            }
            ma.d_tmem = base + mt * SN;
            ma.enable_input_d = kb > 0 || ks > 0;
            if (tc5_mma_issue(&cta, 1, &ma, NULL)) return 1;
          }
        }
      }
      if (tc5_commit(&cta, 1, &mb, 1, NULL)) return 1;
      double t2 = bench_now();
      if (t1 - t0 < best_core) best_core = t1 - t0;
      if (t2 - t1 < best_eng) best_eng = t2 - t1;
    }
    ratio[run] = best_eng / best_core;
    if (run == 0)
      printf("%-30s core %7.2f ms %9.3g MAC/s, engine %7.2f ms", bk->name, best_core * 1e3,
             (double)S * SN * SK / best_core, best_eng * 1e3);
  }
  qsort(ratio, 10, sizeof ratio[0], cmp_double);
  *median = (ratio[4] + ratio[5]) / 2;
  printf(", engine / core median of 10: %.2fx (runs %.2f-%.2f)\n", *median, ratio[0], ratio[9]);
  for (unsigned kb = 0; kb < nkb; kb++) tc5_smem_free(&smk[kb]);
  tc5_cta_free(&cta);
  tc5_tmem_free(&tm);
  return 0;
}

int main(void) {
  static const bkind kinds[] = {
      {"bf16 -> f32 (.kind::f16)", TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_TYPE_NONE, 0},
      {"e4m3 x e2m1 (.kind::f8f6f4)", TC5_KIND_F8F6F4, TC5_E4M3, TC5_E2M1, TC5_TYPE_NONE, 0},
      {"nvfp4 (.kind::mxf4nvf4)", TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_UE4M3, 16},
  };
  printf("%dx%dx%d, 1 thread; target: engine / core <= 1.2x\n", S, SN, SK);
  double worst = 0;
  for (unsigned i = 0; i < 3; i++) {
    double m;
    if (bench_kind(&kinds[i], &m)) return 1;
    if (m > worst) worst = m;
  }
  printf("worst median: %.2fx\n", worst);
  return 0;
}
