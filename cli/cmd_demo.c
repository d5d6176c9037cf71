/* tc5 CLI — `tc5 demo`: the built-in example. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/arith.h"
#include "tc5/descriptors.h"
#include "tc5/layout.h"
#include "tc5/mma.h"

/* The descriptors a kernel issues for one 128x256x16 bf16 -> f32 MMA with
 * A and B K-major in 128B-swizzled shared memory: built, decoded, checked. */
static int descriptor_tour(void) {
  static char buf[8192];
  printf("== tc5 demo: the descriptors of a 128x256x16 bf16 tcgen05.mma ==\n\n");
  tc5_smem_desc a, b;
  tc5_smem_desc_init(&a);
  a.start_address = 0x0000;
  a.lbo = 16;     /* unused for swizzled K-major ("assumed 1") */
  a.sbo = 1024;   /* 8 rows x 128 B to the next 8-row group */
  a.swizzle = TC5_SWIZZLE_128B;
  b = a;
  b.start_address = 0x4000;
  uint64_t ra, rb;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_smem_desc_encode(&a, &ra, &dg) || tc5_smem_desc_encode(&b, &rb, &dg)) {
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  printf("A: smem desc 0x%016llx\n", (unsigned long long)ra);
  tc5_smem_desc_describe(&a, buf, sizeof buf, NULL);
  fputs(buf, stdout);
  printf("\nB: smem desc 0x%016llx\n", (unsigned long long)rb);
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  tc5_idesc_set_types(&d, TC5_BF16, TC5_BF16, TC5_F32);
  d.m = 128;
  d.n = 256;
  uint32_t ri;
  if (tc5_idesc_encode(&d, &ri, &dg)) {
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  printf("\nidesc 0x%08x\n", ri);
  tc5_idesc_describe(&d, buf, sizeof buf, NULL);
  fputs(buf, stdout);
  tc5_mma_variant v;
  tc5_mma_variant_parse("tcgen05.mma.cta_group::1.kind::f16", &v, NULL);
  tc5_status st = tc5_idesc_check(&d, &v, &dg);
  printf("\nlegal for tcgen05.mma.cta_group::1.kind::f16: %s\n", st == TC5_OK ? "yes" : "NO");
  /* and what goes wrong when the same descriptor meets cta_group::2 with N=8 */
  d.n = 8;
  tc5_idesc_encode(&d, &ri, NULL);
  tc5_mma_variant_parse("tcgen05.mma.cta_group::2.kind::f16", &v, NULL);
  tc5_diag_init(&dg);
  tc5_idesc_check(&d, &v, &dg);
  printf("idesc 0x%08x for tcgen05.mma.cta_group::2.kind::f16:\n", ri);
  cli_print_diag(stdout, &dg);
  return st == TC5_OK ? EXIT_OK : EXIT_RULES;
}

/* A 256x256x256 bf16 -> f32 GEMM the way a single-CTA kernel does it:
 * two 128-row tiles of D (cta_group::1, M = 128, N = 256) in 512 columns
 * of Tensor Memory; per 64-wide K block A and B go into 128B-swizzled
 * K-major shared memory (CuTe's tile_to_shape + make_umma_desc), four
 * K = 16 MMAs walk it with DescriptorIterator-style descriptors; then the
 * four warps of a warpgroup read D with tcgen05.ld.32x32b, and the result
 * is compared bit for bit with the arithmetic core's GEMM. */
#define DM 256
#define DN 256
#define DK 256
#define KB 64

static uint32_t lcg(uint64_t *x) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*x >> 33);
}

#define TRY(call)                \
  do {                           \
    if ((st = (call)) != TC5_OK) \
      goto fail;                 \
  } while (0)

static int gemm_demo(void) {
  printf("== tc5 demo: a 256x256x256 bf16 GEMM through tcgen05 ==\n\n");
  uint32_t *A = malloc(sizeof(uint32_t) * DM * DK), *B = malloc(sizeof(uint32_t) * DK * DN),
           *Bt = malloc(sizeof(uint32_t) * DN * DK), *R = malloc(sizeof(uint32_t) * DM * DN),
           *got = malloc(sizeof(uint32_t) * DM * DN), *regs = malloc(sizeof(uint32_t) * 32 * 128),
           *tile = malloc(sizeof(uint32_t) * 256 * KB);
  tc5_smem sm = {0};
  tc5_tmem tm = {0};
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = TC5_ENOMEM;
  int rc = EXIT_RULES;
  if (!A || !B || !Bt || !R || !got || !regs || !tile) goto fail;
  /* inputs: bf16 values in [-2, 2) with a few exponents */
  uint64_t seed = 42;
  for (int i = 0; i < DM * DK; i++) A[i] = (lcg(&seed) & 0x807Fu) | (0x3C00u + (lcg(&seed) % 6) * 0x80u);
  for (int i = 0; i < DK * DN; i++) B[i] = (lcg(&seed) & 0x807Fu) | (0x3C00u + (lcg(&seed) % 6) * 0x80u);
  for (int k = 0; k < DK; k++)
    for (int n = 0; n < DN; n++) Bt[n * DK + k] = B[k * DN + n];
  TRY(tc5_smem_init(&sm, TC5_SMEM_MAX_BYTES));
  TRY(tc5_tmem_init(&tm, 0));
  tc5_cta cta = {&sm, &tm, {{0}}};
  uint32_t dbase;
  TRY(tc5_tmem_alloc(&tm, 512, &dbase, &dg));
  printf("tcgen05.alloc.cta_group::1 512 columns -> taddr 0x%08x (D tile m0: columns 0-255, m1: 256-511)\n", dbase);
  tc5_mma_args ma;
  tc5_mma_args_init(&ma, TC5_KIND_F16);
  tc5_idesc id;
  tc5_idesc_init(&id, TC5_KIND_F16);
  tc5_idesc_set_types(&id, TC5_BF16, TC5_BF16, TC5_F32);
  id.m = 128;
  id.n = 256;
  TRY(tc5_idesc_encode(&id, &ma.idesc, &dg));
  TRY(tc5_idesc_check(&id, &ma.variant, &dg));
  static char buf[4096];
  tc5_idesc_describe(&id, buf, sizeof buf, NULL);
  printf("\nidesc 0x%08x (tcgen05.mma.cta_group::1.kind::f16):\n%s", ma.idesc, buf);
  tc5_operand op;
  TRY(tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op));
  unsigned mmas = 0;
  for (int kb = 0; kb < DK / KB; kb++) {
    /* the producer: this K block of both A tiles and of B into shared memory */
    tc5_smem_desc da[2], db;
    for (int mt = 0; mt < 2; mt++) {
      for (int m = 0; m < 128; m++)
        for (int k = 0; k < KB; k++) tile[m * KB + k] = A[(mt * 128 + m) * DK + kb * KB + k];
      TRY(tc5_layout_scatter(&sm, (uint32_t)mt * 16384u, TC5_SWIZZLE_128B, &op, 128, KB, tile, &da[mt], &dg));
    }
    for (int n = 0; n < DN; n++)
      for (int k = 0; k < KB; k++) tile[n * KB + k] = Bt[n * DK + kb * KB + k];
    TRY(tc5_layout_scatter(&sm, 32768u, TC5_SWIZZLE_128B, &op, DN, KB, tile, &db, &dg));
    /* the MMA thread: four K = 16 steps per tile */
    for (int mt = 0; mt < 2; mt++)
      for (int ks = 0; ks < KB / 16; ks++) {
        tc5_smem_desc a_k, b_k;
        TRY(tc5_layout_kblock(&da[mt], &op, 128, (unsigned)ks * 16, &a_k, &dg));
        TRY(tc5_layout_kblock(&db, &op, DN, (unsigned)ks * 16, &b_k, &dg));
        TRY(tc5_smem_desc_encode(&a_k, &ma.a_desc, &dg));
        TRY(tc5_smem_desc_encode(&b_k, &ma.b_desc, &dg));
        ma.d_tmem = dbase + (uint32_t)mt * 256u;
        ma.enable_input_d = kb > 0 || ks > 0;
        if (kb == 0 && mt == 0 && ks < 2) {
          printf("\nK block 0, step %d: a-desc 0x%016llx, b-desc 0x%016llx, d-tmem 0x%08x, enable-input-d %d\n", ks,
                 (unsigned long long)ma.a_desc, (unsigned long long)ma.b_desc, ma.d_tmem, ma.enable_input_d);
          if (ks == 0) {
            tc5_smem_desc_describe(&a_k, buf, sizeof buf, NULL);
            printf("a-desc:\n%s", buf);
          }
        }
        TRY(tc5_mma(&cta, 1, &ma, &dg));
        mmas++;
      }
  }
  printf("\n%u tcgen05.mma issued (tc5 completes each in issue order; tcgen05.commit/mbarrier not modelled yet)\n", mmas);
  /* the epilogue: warps 0-3 read their 32 lanes of each tile, 128 columns at a time */
  tc5_tmem_ldst ld = {TC5_TMEM_32x32b, 128, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  for (int mt = 0; mt < 2; mt++)
    for (uint32_t w = 0; w < 4; w++)
      for (int half = 0; half < 2; half++) {
        TRY(tc5_tmem_ld(&tm, &ld, w, TC5_TMEM_ADDR(32 * w, dbase + (uint32_t)mt * 256u + (uint32_t)half * 128u), regs,
                        NULL, &dg));
        for (int t = 0; t < 32; t++)
          for (int r = 0; r < 128; r++) got[(mt * 128 + (int)w * 32 + t) * DN + half * 128 + r] = regs[t * 128 + r];
      }
  printf("tcgen05.ld.sync.aligned.32x32b.x128 by warps 0-3: 16 loads, D is 256 x 256 f32\n");
  TRY(tc5_tmem_dealloc(&tm, dbase, 512, &dg));
  TRY(tc5_tmem_relinquish(&tm, &dg));
  TRY(tc5_tmem_exit(&tm, &dg));
  printf("tcgen05.dealloc, relinquish_alloc_permit, exit: Tensor Memory rules kept\n");
  /* the reference */
  tc5_dot dot;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  TRY(tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0, false, &dot,
                    &dg));
  TRY(tc5_gemm(&dot, DM, DN, DK, A, B, NULL, NULL, R, &o, 0));
  unsigned bad = 0;
  for (int i = 0; i < DM * DN; i++) bad += got[i] != R[i];
  float f0, f1;
  memcpy(&f0, &got[0], 4);
  memcpy(&f1, &got[DM * DN - 1], 4);
  printf("\nD[0][0] = 0x%08x (%g), D[255][255] = 0x%08x (%g)\n", got[0], (double)f0, got[DM * DN - 1], (double)f1);
  printf("check against the arithmetic core's GEMM (tc5_gemm, K chained in 16-element steps): %d of %d elements "
         "differ -> %s\n",
         bad, DM * DN, bad ? "MISMATCH" : "bit-exact");
  rc = bad ? EXIT_RULES : EXIT_OK;
  goto done;
fail:
  fprintf(stderr, "tc5 demo: %s\n", tc5_strerror(st));
  cli_print_diag(stderr, &dg);
done:
  tc5_smem_free(&sm);
  if (tm.cells) tc5_tmem_free(&tm);
  free(A), free(B), free(Bt), free(R), free(got), free(regs), free(tile);
  return rc;
}

int cmd_demo(int argc, char **argv) {
  if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
    printf("usage: tc5 demo [--descriptors]\n\nRuns the built-in example: a 256x256x256 bf16 GEMM through\n"
           "tcgen05 (shared-memory layouts, descriptors, Tensor Memory, MMA, ld),\n"
           "checked bit for bit against the arithmetic core. --descriptors: a tour of\n"
           "the descriptors of one MMA and the rules they are checked against.\n");
    return EXIT_OK;
  }
  if (argc >= 1 && !strcmp(argv[0], "--descriptors")) return descriptor_tour();
  return gemm_demo();
}
