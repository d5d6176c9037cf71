/* tc5 CLI — `tc5 demo`: the built-in example. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/arith.h"
#include "tc5/cp.h"
#include "tc5/descriptors.h"
#include "tc5/layout.h"
#include "tc5/mma.h"
#include "tc5/sync.h"
#include "tc5/zcmask.h"

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

/* The element types of a demo: the kind and A, B, D. */
typedef struct demo_kind {
  const char *name;
  tc5_kind kind;
  tc5_type a, b, d;
  tc5_type s;     /* block scaling: the scale-factor type  */
  unsigned block; /* and the elements per scale factor     */
} demo_kind;

static const demo_kind demo_kinds[] = {
    {"f16", TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, TC5_TYPE_NONE, 0},
    {"f8f6f4", TC5_KIND_F8F6F4, TC5_E4M3, TC5_E2M1, TC5_F32, TC5_TYPE_NONE, 0},
    {"i8", TC5_KIND_I8, TC5_S8, TC5_S8, TC5_S32, TC5_TYPE_NONE, 0},
    {"mxf4nvf4", TC5_KIND_MXF4NVF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE4M3, 16}, /* NVFP4 */
    {"mxf8f6f4", TC5_KIND_MXF8F6F4, TC5_E4M3, TC5_E2M1, TC5_F32, TC5_UE8M0, 32},
    {"mxf4", TC5_KIND_MXF4, TC5_E2M1, TC5_E2M1, TC5_F32, TC5_UE8M0, 32},
};

static uint32_t lcg(uint64_t *x) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*x >> 33);
}

/* an input code: finite values of moderate range, all codes for the
 * integer and 4-bit types */
static uint32_t demo_code(uint64_t *seed, tc5_type t) {
  uint32_t r = lcg(seed);
  switch (t) {
  case TC5_BF16: return (r & 0x807Fu) | (0x3C00u + (r >> 16) % 6 * 0x80u); /* [-2, 2), a few exponents */
  case TC5_E4M3: return (r & 0x87u) | ((4 + (r >> 8) % 8) << 3);           /* 2^-3 .. 2^4 */
  case TC5_E2M1: return r & 0xFu;
  default: return r & 0xFFu; /* s8 */
  }
}

static void print_elem(const char *what, uint32_t v, tc5_type t) {
  if (t == TC5_S32) {
    printf("%s = %d", what, (int32_t)v);
  } else {
    float f;
    memcpy(&f, &v, 4);
    printf("%s = 0x%08x (%g)", what, v, (double)f);
  }
}

#define TRY(call)                \
  do {                           \
    if ((st = (call)) != TC5_OK) \
      goto fail;                 \
  } while (0)

/* One CTA of a demo: its shared and Tensor Memory, and the diagnostics. */
typedef struct demo_cta {
  tc5_smem sm;
  tc5_tmem tm;
  tc5_cta cta;
  tc5_diag dg;
} demo_cta;

static tc5_status demo_cta_init(demo_cta *d) {
  memset(d, 0, sizeof *d);
  tc5_diag_init(&d->dg);
  d->cta.smem = &d->sm;
  d->cta.tmem = &d->tm;
  tc5_status st = tc5_smem_init(&d->sm, TC5_SMEM_MAX_BYTES);
  return st ? st : tc5_tmem_init(&d->tm, 0);
}

/* reports a failure (st != TC5_OK), frees the CTA, returns the exit status */
static int demo_cta_end(demo_cta *d, tc5_status st, unsigned bad) {
  if (st) {
    fprintf(stderr, "tc5 demo: %s\n", tc5_strerror(st));
    cli_print_diag(stderr, &d->dg);
  }
  tc5_cta_free(&d->cta);
  tc5_smem_free(&d->sm);
  if (d->tm.cells) tc5_tmem_free(&d->tm);
  return st || bad ? EXIT_RULES : EXIT_OK;
}

#define DM 256 /* the GEMM demos' M and N */
#define DN 256

/* The epilogue of a 128 x 256 tile of D at dbase: warps 0-3 read their 32
 * lanes with tcgen05.ld.32x32b.x128, two loads each, into rows 128 mt.. of got */
static tc5_status read_tile(demo_cta *cx, uint32_t dbase, unsigned mt, uint32_t *regs, uint32_t *got) {
  tc5_tmem_ldst ld = {TC5_TMEM_32x32b, 128, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  for (uint32_t w = 0; w < 4; w++)
    for (unsigned half = 0; half < 2; half++) {
      tc5_status st = tc5_tmem_ld(&cx->tm, &ld, w, TC5_TMEM_ADDR(32 * w, dbase + half * 128u), regs, NULL, &cx->dg);
      if (st) return st;
      for (unsigned t = 0; t < 32; t++)
        for (unsigned r = 0; r < 128; r++) got[(mt * 128 + w * 32 + t) * DN + half * 128 + r] = regs[t * 128 + r];
    }
  return TC5_OK;
}

/* dealloc, relinquish, exit: the allocation rules kept to the end */
static tc5_status release_tmem(demo_cta *cx, uint32_t dbase) {
  tc5_status st = tc5_tmem_dealloc(&cx->tm, dbase, 512, &cx->dg);
  if (!st) st = tc5_tmem_relinquish(&cx->tm, &cx->dg);
  return st ? st : tc5_tmem_exit(&cx->tm, &cx->dg);
}

/* A 256x256x256 GEMM the way a single-CTA kernel does it: two 128-row
 * tiles of D (cta_group::1, M = 128, N = 256) in 512 columns of Tensor
 * Memory; per K block (one 128-byte swizzle row of K) the producer puts A
 * and B into 128B-swizzled K-major shared memory (CuTe's tile_to_shape +
 * make_umma_desc), the MMA thread walks it with DescriptorIterator-style
 * descriptors and commits to an mbarrier, which the producer waits on
 * before it overwrites the stage; then the four warps of a warpgroup read
 * D with tcgen05.ld.32x32b, and the result is compared bit for bit with
 * the arithmetic core's GEMM. */
#define DK 256

static int gemm_demo(const demo_kind *dk) {
  tc5_operand op, opb;
  tc5_status st = TC5_ENOMEM;
  if (tc5_operand_for(dk->kind, dk->a, TC5_MAJOR_K, &op) || tc5_operand_for(dk->kind, dk->b, TC5_MAJOR_K, &opb))
    return EXIT_RULES;
  unsigned KB = 128 * 8 / tc5_operand_slot_bits(&op); /* K elements of a 128-byte row */
  printf("== tc5 demo: a 256x256x256 %s x %s -> %s GEMM through tcgen05 (.kind::%s) ==\n\n", tc5_type_name(dk->a),
         tc5_type_name(dk->b), tc5_type_name(dk->d), dk->name);
  uint32_t *A = malloc(sizeof(uint32_t) * DM * DK), *B = malloc(sizeof(uint32_t) * DK * DN),
           *Bt = malloc(sizeof(uint32_t) * DN * DK), *R = malloc(sizeof(uint32_t) * DM * DN),
           *got = malloc(sizeof(uint32_t) * DM * DN), *regs = malloc(sizeof(uint32_t) * 32 * 128),
           *tile = malloc(sizeof(uint32_t) * 256 * 128);
  demo_cta cx;
  unsigned bad = 0;
  TRY(demo_cta_init(&cx)); /* first: demo_cta_end frees it */
  if (!A || !B || !Bt || !R || !got || !regs || !tile) {
    st = TC5_ENOMEM;
    goto fail;
  }
  uint64_t seed = 42;
  for (int i = 0; i < DM * DK; i++) A[i] = demo_code(&seed, dk->a);
  for (int i = 0; i < DK * DN; i++) B[i] = demo_code(&seed, dk->b);
  for (int k = 0; k < DK; k++)
    for (int n = 0; n < DN; n++) Bt[n * DK + k] = B[k * DN + n];
  uint32_t dbase;
  TRY(tc5_tmem_alloc(&cx.tm, 512, &dbase, &cx.dg));
  printf("tcgen05.alloc.cta_group::1 512 columns -> taddr 0x%08x (D tile m0: columns 0-255, m1: 256-511)\n", dbase);
  tc5_mbarrier empty, full, *pe = &empty, *pf = &full;
  TRY(tc5_mbarrier_init(&empty, 1, &cx.dg));
  TRY(tc5_mbarrier_init(&full, 1, &cx.dg));
  tc5_mma_args ma;
  TRY(tc5_mma_args_init(&ma, dk->kind));
  tc5_idesc id;
  tc5_idesc_init(&id, dk->kind);
  TRY(tc5_idesc_set_types(&id, dk->a, dk->b, dk->d));
  id.m = 128;
  id.n = 256;
  TRY(tc5_idesc_encode(&id, &ma.idesc, &cx.dg));
  TRY(tc5_idesc_check(&id, &ma.variant, &cx.dg));
  unsigned K;
  tc5_idesc_k(&id, &K);
  static char buf[4096];
  tc5_idesc_describe(&id, buf, sizeof buf, NULL);
  printf("\nidesc 0x%08x (tcgen05.mma.cta_group::1.kind::%s, K = %u):\n%s", ma.idesc, dk->name, K, buf);
  unsigned mmas = 0;
  for (unsigned kb = 0; kb < DK / KB; kb++) {
    /* the producer: waits until the MMAs of the previous K block have read the stage */
    if (kb > 0) {
      bool done;
      TRY(tc5_mbarrier_test_wait(&empty, (kb - 1) & 1, &done, &cx.dg));
      if (!done) {
        fprintf(stderr, "tc5 demo: the stage is still in use\n");
        goto fail;
      }
    }
    tc5_smem_desc da[2], db;
    for (int mt = 0; mt < 2; mt++) {
      for (int m = 0; m < 128; m++)
        for (unsigned k = 0; k < KB; k++) tile[m * KB + k] = A[(mt * 128 + m) * DK + kb * KB + k];
      TRY(tc5_layout_scatter(&cx.sm, (uint32_t)mt * 16384u, TC5_SWIZZLE_128B, &op, 128, KB, tile, &da[mt], &cx.dg));
    }
    for (int n = 0; n < DN; n++)
      for (unsigned k = 0; k < KB; k++) tile[n * KB + k] = Bt[n * DK + kb * KB + k];
    TRY(tc5_layout_scatter(&cx.sm, 32768u, TC5_SWIZZLE_128B, &opb, DN, KB, tile, &db, &cx.dg));
    /* the MMA thread: KB / K steps per tile, then a commit to the stage's mbarrier */
    for (int mt = 0; mt < 2; mt++)
      for (unsigned ks = 0; ks < KB / K; ks++) {
        tc5_smem_desc a_k, b_k;
        TRY(tc5_layout_kblock(&da[mt], &op, 128, ks * K, &a_k, &cx.dg));
        TRY(tc5_layout_kblock(&db, &opb, DN, ks * K, &b_k, &cx.dg));
        TRY(tc5_smem_desc_encode(&a_k, &ma.a_desc, &cx.dg));
        TRY(tc5_smem_desc_encode(&b_k, &ma.b_desc, &cx.dg));
        ma.d_tmem = dbase + (uint32_t)mt * 256u;
        ma.enable_input_d = kb > 0 || ks > 0;
        if (kb == 0 && mt == 0 && ks < 2) {
          printf("\nK block 0, step %u: a-desc 0x%016llx, b-desc 0x%016llx, d-tmem 0x%08x, enable-input-d %d\n", ks,
                 (unsigned long long)ma.a_desc, (unsigned long long)ma.b_desc, ma.d_tmem, ma.enable_input_d);
          if (ks == 0) {
            tc5_smem_desc_describe(&a_k, buf, sizeof buf, NULL);
            printf("a-desc:\n%s", buf);
          }
        }
        TRY(tc5_mma_issue(&cx.cta, 1, &ma, &cx.dg));
        mmas++;
      }
    unsigned pending;
    tc5_mma_pending(&cx.cta, &pending);
    TRY(tc5_commit(&cx.cta, 1, &pe, 1, &cx.dg));
    printf("%sK block %u: %u tcgen05.mma issued, tcgen05.commit.mbarrier::arrive::one -> the stage's mbarrier "
           "completes phase %u\n",
           kb ? "" : "\n", kb, pending, empty.phase - 1);
  }
  TRY(tc5_commit(&cx.cta, 1, &pf, 1, &cx.dg));
  bool ready;
  TRY(tc5_mbarrier_test_wait(&full, 0, &ready, &cx.dg));
  printf("%u tcgen05.mma in all; the epilogue's mbarrier.try_wait.parity 0: %s\n", mmas,
         ready ? "D complete" : "NOT complete");
  /* the epilogue: warps 0-3 read their 32 lanes of each tile, 128 columns at a time */
  for (unsigned mt = 0; mt < 2; mt++) TRY(read_tile(&cx, dbase + mt * 256u, mt, regs, got));
  printf("tcgen05.ld.sync.aligned.32x32b.x128 by warps 0-3: 16 loads, D is 256 x 256 %s\n", tc5_type_name(dk->d));
  TRY(release_tmem(&cx, dbase));
  printf("tcgen05.dealloc, relinquish_alloc_permit, exit: Tensor Memory rules kept\n");
  /* the reference */
  tc5_dot dot;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  TRY(tc5_dot_model(TC5_MODEL_BLACKWELL, dk->kind, dk->a, dk->b, dk->d, TC5_TYPE_NONE, 0, false, &dot, &cx.dg));
  TRY(tc5_gemm(&dot, DM, DN, DK, A, B, NULL, NULL, R, &o, 0));
  for (int i = 0; i < DM * DN; i++) bad += got[i] != R[i];
  printf("\n");
  print_elem("D[0][0]", got[0], dk->d);
  print_elem(", D[255][255]", got[DM * DN - 1], dk->d);
  printf("\ncheck against the arithmetic core's GEMM (tc5_gemm, K chained in %u-element steps): %u of %d elements "
         "differ -> %s\n",
         K, bad, DM * DN, bad ? "MISMATCH" : "bit-exact");
fail:
  free(A), free(B), free(Bt), free(R), free(got), free(regs), free(tile);
  return demo_cta_end(&cx, st, bad);
}

/* A block-scaled 256x256x512 GEMM the way CUTLASS's narrow-precision
 * kernels do it (sm100_blockscaled_mma_warpspecialized): per 128-row tile
 * of D (cta_group::1, M = 128, N = 256, 256 columns of Tensor Memory) and K
 * block (one 128-byte swizzle row of K), A and B go into 128B-swizzled
 * K-major shared memory and their scale factors into shared memory too;
 * the MMA thread brings the scale factors into Tensor Memory with
 * tcgen05.cp.32x128b.warpx4 (32 rows x 16 bytes into all four lane
 * quarters: CUTLASS's SM100_UTCCP_4x32dp128bit), in the layout of
 * CUTLASS's tmem_sf_frg (row m of A in lane m % 32 of every quarter, column
 * m / 32; column n of B likewise; one byte per scale factor, a 32-bit word
 * holding the scale factors of one MMA or, for 1X/2X, of 4 or 2 MMAs told
 * apart by the instruction descriptor's scale factor IDs), issues the
 * block-scaled MMAs, commits; the epilogue reads D with tcgen05.ld. D is
 * compared bit for bit with tc5_gemm on the same scales. */
#define BK 512

static uint32_t demo_scale(uint64_t *seed, tc5_type t) {
  uint32_t r = lcg(seed);
  return t == TC5_UE8M0 ? 120 + r % 15 /* 2^-7 .. 2^7 */ : 0x28 + r % 32; /* ue4m3 0.125 .. 3.75 */
}

static int bs_gemm_demo(const demo_kind *dk) {
  tc5_operand op, opb, op8;
  tc5_status st = TC5_ENOMEM;
  if (tc5_operand_for(dk->kind, dk->a, TC5_MAJOR_K, &op) || tc5_operand_for(dk->kind, dk->b, TC5_MAJOR_K, &opb))
    return EXIT_RULES;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op8); /* scale-factor bytes */
  unsigned KB = 128 * 8 / tc5_operand_slot_bits(&op), NS = BK / dk->block;
  printf("== tc5 demo: a 256x256x%u %s x %s -> %s GEMM with %s scales (block %u) through tcgen05 "
         "(.kind::%s.block_scale) ==\n\n",
         BK, tc5_type_name(dk->a), tc5_type_name(dk->b), tc5_type_name(dk->d), tc5_type_name(dk->s), dk->block,
         dk->name);
  uint32_t *A = malloc(sizeof(uint32_t) * DM * BK), *B = malloc(sizeof(uint32_t) * BK * DN),
           *SA = malloc(sizeof(uint32_t) * DM * NS), *SB = malloc(sizeof(uint32_t) * NS * DN),
           *R = malloc(sizeof(uint32_t) * DM * DN), *got = malloc(sizeof(uint32_t) * DM * DN),
           *regs = malloc(sizeof(uint32_t) * 32 * 128), *tile = malloc(sizeof(uint32_t) * 256 * 256);
  demo_cta cx;
  unsigned bad = 0, mmas = 0, cps = 0;
  TRY(demo_cta_init(&cx));
  if (!A || !B || !SA || !SB || !R || !got || !regs || !tile) {
    st = TC5_ENOMEM;
    goto fail;
  }
  uint64_t seed = 7;
  for (int i = 0; i < DM * BK; i++) A[i] = demo_code(&seed, dk->a);
  for (int i = 0; i < BK * DN; i++) B[i] = demo_code(&seed, dk->b);
  for (unsigned i = 0; i < DM * NS; i++) SA[i] = demo_scale(&seed, dk->s);
  for (unsigned i = 0; i < NS * DN; i++) SB[i] = demo_scale(&seed, dk->s);
  uint32_t dbase;
  TRY(tc5_tmem_alloc(&cx.tm, 512, &dbase, &cx.dg));
  /* scale factors: NS / 4 words a row, 4 columns each for A (128 rows), 8 for B (256 columns) */
  uint32_t sfa_col = dbase + 256, sfb_col = sfa_col + NS;
  printf("tcgen05.alloc 512 columns: D 0-255, scale factors A %u-%u, B %u-%u\n", sfa_col, sfa_col + NS - 1, sfb_col,
         sfb_col + 2 * NS - 1);
  tc5_mbarrier done, *pd = &done;
  TRY(tc5_mbarrier_init(&done, 1, &cx.dg));
  tc5_mma_args ma;
  TRY(tc5_mma_args_init(&ma, dk->kind));
  ma.variant.block = (uint8_t)dk->block;
  tc5_idesc id;
  tc5_idesc_init(&id, dk->kind);
  TRY(tc5_idesc_set_types(&id, dk->a, dk->b, dk->d));
  id.m = 128, id.n = 256, id.scale_type = dk->s == TC5_UE8M0;
  unsigned K;
  tc5_idesc_k(&id, &K);
  unsigned per = K / dk->block; /* scale factors an MMA takes a row */
  static char buf[4096];
  char vtext[128];
  tc5_mma_variant_format(&ma.variant, vtext, sizeof vtext, NULL);
  tc5_cp_args cp;
  TRY(tc5_cp_parse("tcgen05.cp.cta_group::1.32x128b.warpx4", &cp, &cx.dg));
  for (unsigned mt = 0; mt < 2; mt++) {
    for (unsigned kb = 0; kb < BK / KB; kb++) {
      tc5_smem_desc da, db, ds;
      for (unsigned m = 0; m < 128; m++)
        for (unsigned k = 0; k < KB; k++) tile[m * KB + k] = A[(mt * 128 + m) * BK + kb * KB + k];
      TRY(tc5_layout_scatter(&cx.sm, 0, TC5_SWIZZLE_128B, &op, 128, KB, tile, &da, &cx.dg));
      for (unsigned n = 0; n < DN; n++)
        for (unsigned k = 0; k < KB; k++) tile[n * KB + k] = B[(kb * KB + k) * DN + n];
      TRY(tc5_layout_scatter(&cx.sm, 32768, TC5_SWIZZLE_128B, &opb, DN, KB, tile, &db, &cx.dg));
      /* the scale factors of this K block: KB / block a row, in words of 4 */
      unsigned s0 = kb * KB / dk->block, nw = KB / dk->block / 4;
      for (unsigned w = 0; w < nw; w++) {
        uint32_t sw = s0 / 4 + w; /* the word's index over the whole K */
        TRY(tc5_cp_sf_source(SA + (size_t)mt * 128 * NS + s0, NS, 1, w, KB / dk->block, tile));
        TRY(tc5_layout_scatter(&cx.sm, 98304, TC5_SWIZZLE_NONE, &op8, 32, 16, tile, &ds, &cx.dg));
        TRY(tc5_smem_desc_encode(&ds, &cp.sdesc, &cx.dg));
        cp.taddr = sfa_col + 4 * sw;
        TRY(tc5_cp(&cx.cta, 1, &cp, &cx.dg));
        if (mt == 0 && kb == 0 && w == 0)
          printf("\ntcgen05.cp.cta_group::1.32x128b.warpx4 [0x%08x], s-desc 0x%016llx: 32 rows x 16 bytes of scale "
                 "factors A into lanes r, r+32, r+64, r+96\n",
                 cp.taddr, (unsigned long long)cp.sdesc);
        for (unsigned h = 0; h < 2; h++) { /* B: columns 128 h .. 128 h + 127 */
          TRY(tc5_cp_sf_source(SB + (size_t)s0 * DN + 128 * h, 1, DN, w, KB / dk->block, tile));
          TRY(tc5_layout_scatter(&cx.sm, 98304 + 512 * (1 + h), TC5_SWIZZLE_NONE, &op8, 32, 16, tile, &ds, &cx.dg));
          TRY(tc5_smem_desc_encode(&ds, &cp.sdesc, &cx.dg));
          cp.taddr = sfb_col + 8 * sw + 4 * h;
          TRY(tc5_cp(&cx.cta, 1, &cp, &cx.dg));
        }
        cps += 3;
      }
      for (unsigned ks = 0; ks < KB / K; ks++) {
        tc5_smem_desc a_k, b_k;
        TRY(tc5_layout_kblock(&da, &op, 128, ks * K, &a_k, &cx.dg));
        TRY(tc5_layout_kblock(&db, &opb, DN, ks * K, &b_k, &cx.dg));
        TRY(tc5_smem_desc_encode(&a_k, &ma.a_desc, &cx.dg));
        TRY(tc5_smem_desc_encode(&b_k, &ma.b_desc, &cx.dg));
        unsigned s = s0 + ks * per; /* this MMA's first scale factor */
        id.sfa_id = id.sfb_id = (uint8_t)(s % 4);
        TRY(tc5_idesc_encode(&id, &ma.idesc, &cx.dg));
        ma.sfa_tmem = sfa_col + 4 * (s / 4);
        ma.sfb_tmem = sfb_col + 8 * (s / 4);
        ma.d_tmem = dbase;
        ma.enable_input_d = kb > 0 || ks > 0;
        if (mt == 0 && kb == 0 && ks < 2) {
          printf("%s [0x%08x], a-desc 0x%016llx, b-desc 0x%016llx, idesc 0x%08x, [0x%08x], [0x%08x], %d\n", vtext,
                 ma.d_tmem, (unsigned long long)ma.a_desc, (unsigned long long)ma.b_desc, ma.idesc, ma.sfa_tmem,
                 ma.sfb_tmem, ma.enable_input_d);
          if (ks == 0) {
            tc5_idesc_describe(&id, buf, sizeof buf, NULL);
            printf("idesc:\n%s", buf);
          }
        }
        TRY(tc5_mma_issue(&cx.cta, 1, &ma, &cx.dg));
        mmas++;
      }
    }
    TRY(tc5_commit(&cx.cta, 1, &pd, 1, &cx.dg));
    bool ready;
    TRY(tc5_mbarrier_test_wait(&done, mt & 1, &ready, &cx.dg));
    TRY(read_tile(&cx, dbase, mt, regs, got));
    printf("tile %u: tcgen05.commit -> mbarrier phase %u %s; tcgen05.ld.32x32b.x128 by warps 0-3\n", mt, mt,
           ready ? "complete" : "NOT complete");
  }
  printf("%u tcgen05.cp and %u tcgen05.mma in all\n", cps, mmas);
  TRY(release_tmem(&cx, dbase));
  tc5_dot dot;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  TRY(tc5_dot_model(TC5_MODEL_BLACKWELL, dk->kind, dk->a, dk->b, dk->d, dk->s, dk->block, false, &dot, &cx.dg));
  TRY(tc5_gemm(&dot, DM, DN, BK, A, B, SA, SB, R, &o, 0));
  for (int i = 0; i < DM * DN; i++) bad += got[i] != R[i];
  printf("\n");
  print_elem("D[0][0]", got[0], dk->d);
  print_elem(", D[255][255]", got[DM * DN - 1], dk->d);
  printf("\ncheck against tc5_gemm with the same scales: %u of %d elements differ -> %s\n", bad, DM * DN,
         bad ? "MISMATCH" : "bit-exact");
fail:
  free(A), free(B), free(SA), free(SB), free(R), free(got), free(regs), free(tile);
  return demo_cta_end(&cx, st, bad);
}

/* A 2:4 sparse f16 GEMM, 256x256x512, the way CUTLASS's sparse kernels do it
 * (sm100_sparse_mma_warpspecialized): A stored compressed (K/2 a row, 2 of
 * every 4) in shared memory next to its metadata (a nibble per group of
 * four: the positions of the two kept elements), B dense; per 128-row tile
 * and K block of 64 the MMA thread brings the metadata of the block's two
 * MMAs into Tensor Memory with tcgen05.cp.128x128b (CUTLASS's
 * SM100_UTCCP_128dp128bit, the layout of its tmem_e_frg) and issues
 * tcgen05.mma.sp (K = 32). D is compared bit for bit with the dense core on
 * A expanded with the elided elements as zero products, in steps of 32
 * logical K: the arithmetic settled on the H100 (docs/arithmetic.md). */
#define SK 512

static int sparse_demo(void) {
  tc5_operand op;
  tc5_status st = TC5_ENOMEM;
  tc5_operand_for(TC5_KIND_F16, TC5_F16, TC5_MAJOR_K, &op);
  tc5_operand op8;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op8); /* metadata bytes */
  printf("== tc5 demo: a 2:4 sparse 256x256x%d f16 x f16 -> f32 GEMM through tcgen05.mma.sp (.kind::f16) ==\n\n", SK);
  uint32_t *Ac = malloc(sizeof(uint32_t) * DM * SK / 2), *A = calloc((size_t)DM * SK, sizeof(uint32_t)),
           *B = malloc(sizeof(uint32_t) * SK * DN), *R = malloc(sizeof(uint32_t) * DM * DN),
           *got = malloc(sizeof(uint32_t) * DM * DN), *meta = malloc(sizeof(uint32_t) * DM * SK / 4),
           *regs = malloc(sizeof(uint32_t) * 32 * 128), *tile = malloc(sizeof(uint32_t) * 256 * 64);
  demo_cta cx;
  unsigned bad = 0, mmas = 0, cps = 0;
  TRY(demo_cta_init(&cx));
  if (!Ac || !A || !B || !R || !got || !meta || !regs || !tile) {
    st = TC5_ENOMEM;
    goto fail;
  }
  static const uint32_t nibs[7] = {0x4, 0x8, 0xC, 0x9, 0xD, 0x6, 0xE};
  uint64_t seed = 11;
  for (int i = 0; i < DM * SK / 2; i++) Ac[i] = lcg(&seed) & 0x87FFu, Ac[i] |= (0x3000u + (lcg(&seed) % 6) * 0x400u);
  for (int i = 0; i < DM * SK / 4; i++) meta[i] = nibs[lcg(&seed) % 7];
  for (int i = 0; i < SK * DN; i++) B[i] = (lcg(&seed) & 0x87FFu) | (0x3000u + (lcg(&seed) % 6) * 0x400u);
  for (int m = 0; m < DM; m++) /* A as the dense core sees it */
    for (int q = 0; q < SK / 4; q++) {
      uint32_t nb = meta[m * (SK / 4) + q];
      A[m * SK + 4 * q + (nb & 3)] = Ac[m * (SK / 2) + 2 * q];
      A[m * SK + 4 * q + (nb >> 2)] = Ac[m * (SK / 2) + 2 * q + 1];
    }
  uint32_t dbase;
  TRY(tc5_tmem_alloc(&cx.tm, 512, &dbase, &cx.dg));
  printf("tcgen05.alloc 512 columns: D 0-255, metadata 256-287 (four columns a K block of 64)\n");
  tc5_mbarrier done, *pd = &done;
  TRY(tc5_mbarrier_init(&done, 1, &cx.dg));
  tc5_mma_args ma;
  TRY(tc5_mma_args_init(&ma, TC5_KIND_F16));
  ma.variant.sparse = true;
  tc5_idesc id;
  tc5_idesc_init(&id, TC5_KIND_F16);
  TRY(tc5_idesc_set_types(&id, TC5_F16, TC5_F16, TC5_F32));
  id.m = 128, id.n = 256, id.sparse = 1;
  TRY(tc5_idesc_encode(&id, &ma.idesc, &cx.dg));
  tc5_cp_args cp;
  TRY(tc5_cp_parse("tcgen05.cp.cta_group::1.128x128b", &cp, &cx.dg));
  for (unsigned mt = 0; mt < 2; mt++) {
    for (unsigned kb = 0; kb < SK / 64; kb++) {
      tc5_smem_desc da, db, dm;
      for (unsigned m = 0; m < 128; m++) /* A: 32 stored elements a row = 64 logical */
        for (unsigned j = 0; j < 32; j++) tile[m * 32 + j] = Ac[(mt * 128 + m) * (SK / 2) + kb * 32 + j];
      TRY(tc5_layout_scatter(&cx.sm, 0, TC5_SWIZZLE_128B, &op, 128, 32, tile, &da, &cx.dg));
      for (unsigned n = 0; n < DN; n++)
        for (unsigned k = 0; k < 64; k++) tile[n * 64 + k] = B[(kb * 64 + k) * DN + n];
      TRY(tc5_layout_scatter(&cx.sm, 32768, TC5_SWIZZLE_128B, &op, DN, 64, tile, &db, &cx.dg));
      /* the metadata of the block's two MMAs: lane words, 16 bytes a lane */
      memset(tile, 0, sizeof(uint32_t) * 128 * 16);
      for (unsigned ks = 0; ks < 2; ks++)
        for (unsigned m = 0; m < 128; m++)
          for (unsigned q = 0; q < 8; q++) {
            uint32_t l, col;
            unsigned bit;
            tc5_mma_sp_meta_cell(TC5_KIND_F16, m, 4 * q, &l, &col, &bit);
            uint32_t nb = meta[(mt * 128 + m) * (SK / 4) + kb * 16 + ks * 8 + q];
            for (unsigned b = 0; b < 4; b++) tile[l * 16 + 4 * ks + (bit + b) / 8] |= (nb >> b & 1) << (bit + b) % 8;
          }
      TRY(tc5_layout_scatter(&cx.sm, 98304, TC5_SWIZZLE_NONE, &op8, 128, 16, tile, &dm, &cx.dg));
      TRY(tc5_smem_desc_encode(&dm, &cp.sdesc, &cx.dg));
      cp.taddr = dbase + 256 + 4 * kb;
      TRY(tc5_cp(&cx.cta, 1, &cp, &cx.dg));
      cps++;
      if (mt == 0 && kb == 0)
        printf("\ntcgen05.cp.cta_group::1.128x128b [0x%08x], s-desc 0x%016llx: the metadata of two MMAs\n", cp.taddr,
               (unsigned long long)cp.sdesc);
      for (unsigned ks = 0; ks < 2; ks++) {
        tc5_smem_desc a_k, b_k;
        TRY(tc5_layout_kblock(&da, &op, 128, ks * 16, &a_k, &cx.dg));
        TRY(tc5_layout_kblock(&db, &op, DN, ks * 32, &b_k, &cx.dg));
        TRY(tc5_smem_desc_encode(&a_k, &ma.a_desc, &cx.dg));
        TRY(tc5_smem_desc_encode(&b_k, &ma.b_desc, &cx.dg));
        ma.d_tmem = dbase;
        ma.sp_meta_tmem = dbase + 256 + 4 * kb + ks;
        ma.enable_input_d = kb > 0 || ks > 0;
        if (mt == 0 && kb == 0)
          printf("tcgen05.mma.sp.cta_group::1.kind::f16 [0x%08x], a-desc 0x%016llx, b-desc 0x%016llx, [0x%08x], idesc "
                 "0x%08x, %d\n",
                 ma.d_tmem, (unsigned long long)ma.a_desc, (unsigned long long)ma.b_desc, ma.sp_meta_tmem, ma.idesc,
                 ma.enable_input_d);
        TRY(tc5_mma_issue(&cx.cta, 1, &ma, &cx.dg));
        mmas++;
      }
    }
    TRY(tc5_commit(&cx.cta, 1, &pd, 1, &cx.dg));
    TRY(read_tile(&cx, dbase, mt, regs, got));
    printf("tile %u: tcgen05.commit, tcgen05.ld.32x32b.x128 by warps 0-3\n", mt);
  }
  printf("%u tcgen05.cp and %u tcgen05.mma.sp in all\n", cps, mmas);
  TRY(release_tmem(&cx, dbase));
  tc5_dot dot;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = false;
  TRY(tc5_dot_model(TC5_MODEL_BLACKWELL, TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F32, TC5_TYPE_NONE, 0, false, &dot, &cx.dg));
  dot.chunk = 32; /* steps of 16 kept products = 32 logical K */
  TRY(tc5_gemm(&dot, DM, DN, SK, A, B, NULL, NULL, R, &o, 0));
  for (int i = 0; i < DM * DN; i++) bad += got[i] != R[i];
  printf("\n");
  print_elem("D[0][0]", got[0], TC5_F32);
  print_elem(", D[255][255]", got[DM * DN - 1], TC5_F32);
  printf("\ncheck against the dense core on A with the elided elements as zero products, steps of 32 logical K: %u "
         "of %d elements differ -> %s\n",
         bad, DM * DN, bad ? "MISMATCH" : "bit-exact");
fail:
  free(Ac), free(A), free(B), free(R), free(got), free(meta), free(regs), free(tile);
  return demo_cta_end(&cx, st, bad);
}

/* An implicit-GEMM convolution on the weight-stationary tcgen05.mma.ws, the
 * way CUTLASS uses the zero-column mask: a 1 x 3 filter over an image of
 * CH rows of CQ pixels, zero padding 1 left and right ("same" width),
 * CK input channels (K of the GEMM) and 128 output channels (M). B's
 * columns are output pixels, flattened row after row, in tiles of N = 64;
 * each tile's input pixels (with a halo of one before) sit in shared memory
 * once, and filter tap r reads them with column shift r. Columns whose
 * input pixel falls in the padding (the row's first pixel for tap 0, its
 * last for tap 2) are zeroed by a zero-column mask, found by synthesis
 * from the geometry (tc5_zcmask_conv); the pixels the mask hides hold
 * garbage (the neighbouring row, or junk past the image) to show that they
 * are never read. The result is compared with a direct convolution. */
#define CH 4
#define CQ 50
#define CO 128
#define CN 64
#define CP (CH * CQ)
#define CTILES ((CP + CN - 1) / CN)

static int conv_demo(const demo_kind *dk) {
  tc5_operand op;
  tc5_status st = TC5_ENOMEM;
  if (dk->kind == TC5_KIND_F8F6F4 || tc5_operand_for(dk->kind, dk->a, TC5_MAJOR_K, &op)) {
    fprintf(stderr, "tc5 demo --conv: --kind f16 or i8\n");
    return EXIT_USAGE;
  }
  unsigned CK = 128 * 8 / tc5_operand_slot_bits(&op); /* channels: one 128-byte row */
  printf("== tc5 demo: a 1x3 convolution, %u x %u pixels, %u -> %u channels, padding 1, on tcgen05.mma.ws "
         "(.kind::%s) ==\n\n",
         CH, CQ, CK, CO, dk->name);
  uint32_t *W = malloc(sizeof(uint32_t) * CO * CK * 3), *X = malloc(sizeof(uint32_t) * (CP + CN + 8) * CK),
           *Y = malloc(sizeof(uint32_t) * CO * CP), *R = malloc(sizeof(uint32_t) * CO * CP),
           *tile = malloc(sizeof(uint32_t) * CO * CK), *regs = malloc(sizeof(uint32_t) * 32 * CN); /* CO >= CN + 8 */
  uint32_t *Aref = malloc(sizeof(uint32_t) * CO * 3 * CK), *Bref = malloc(sizeof(uint32_t) * 3 * CK * CP);
  demo_cta cx;
  unsigned bad = 0;
  TRY(demo_cta_init(&cx)); /* first: demo_cta_end frees it */
  if (!W || !X || !Y || !R || !tile || !regs || !Aref || !Bref) {
    st = TC5_ENOMEM;
    goto fail;
  }
  uint64_t seed = 7;
  /* W[o][c][r]; X[pixel + 1][c]: pixel -1 and those past the image are junk */
  for (unsigned i = 0; i < CO * CK * 3; i++) W[i] = demo_code(&seed, dk->a);
  for (unsigned i = 0; i < (CP + CN + 8) * CK; i++) X[i] = demo_code(&seed, dk->b);
  uint32_t dbase;
  TRY(tc5_tmem_alloc(&cx.tm, 256, &dbase, &cx.dg));
  /* the weights of the three taps, stationary in shared memory */
  tc5_smem_desc dw[3];
  for (unsigned r = 0; r < 3; r++) {
    for (unsigned o = 0; o < CO; o++)
      for (unsigned c = 0; c < CK; c++) tile[o * CK + c] = W[(o * CK + c) * 3 + r];
    TRY(tc5_layout_scatter(&cx.sm, r * 16384u, TC5_SWIZZLE_128B, &op, CO, CK, tile, &dw[r], &cx.dg));
  }
  tc5_mma_args ma;
  TRY(tc5_mma_args_init(&ma, dk->kind));
  ma.variant.ws = true;
  tc5_idesc id;
  tc5_idesc_init(&id, dk->kind);
  TRY(tc5_idesc_set_types(&id, dk->a, dk->b, dk->d));
  id.m = CO;
  id.n = CN;
  id.max_shift = 1; /* B reuse up to 8 columns */
  TRY(tc5_idesc_encode(&id, &ma.idesc, &cx.dg));
  TRY(tc5_idesc_check(&id, &ma.variant, &cx.dg));
  unsigned K;
  tc5_idesc_k(&id, &K);
  printf("idesc 0x%08x: tcgen05.mma.ws.cta_group::1.kind::%s, M = %u, N = %u, K = %u, maximum shift 8 columns\n",
         ma.idesc, dk->name, CO, CN, K);
  ma.has_zcmask = true;
  tc5_mbarrier mb, *pm = &mb;
  TRY(tc5_mbarrier_init(&mb, 1, &cx.dg));
  unsigned mmas = 0;
  for (unsigned t = 0; t < CTILES; t++) {
    unsigned p0 = t * CN;
    /* the tile's input pixels p0 - 1 .. p0 + CN + 6, K-major (channels contiguous) */
    for (unsigned j = 0; j < CN + 8; j++)
      for (unsigned c = 0; c < CK; c++) tile[j * CK + c] = X[(p0 + j) * CK + c];
    tc5_smem_desc dx;
    TRY(tc5_layout_scatter(&cx.sm, 3 * 16384u, TC5_SWIZZLE_128B, &op, CN + 8, CK, tile, &dx, &cx.dg));
    for (unsigned r = 0; r < 3; r++) {
      tc5_colmask want;
      tc5_zcmask_desc zd;
      unsigned bad_col;
      TRY(tc5_zcmask_conv(CQ, 1, p0, r, CN, &want, &cx.dg));
      TRY(tc5_zcmask_synthesize(CO, &want, r, &zd, &bad_col, &cx.dg));
      TRY(tc5_zcmask_desc_encode(&zd, &ma.zcmask, &cx.dg));
      if (t == 0) {
        char bits[CN + 1];
        tc5_colmask_format(&want, '1', '.', bits, sizeof bits, NULL);
        printf("tile 0, tap %u: zero-column mask 0x%016llx (column shift %u): %s\n", r,
               (unsigned long long)ma.zcmask, r, bits);
      }
      for (unsigned ks = 0; ks < CK / K; ks++) {
        tc5_smem_desc a_k, b_k;
        TRY(tc5_layout_kblock(&dw[r], &op, CO, ks * K, &a_k, &cx.dg));
        TRY(tc5_layout_kblock(&dx, &op, CN + 8, ks * K, &b_k, &cx.dg));
        TRY(tc5_smem_desc_encode(&a_k, &ma.a_desc, &cx.dg));
        TRY(tc5_smem_desc_encode(&b_k, &ma.b_desc, &cx.dg));
        ma.d_tmem = dbase + t * CN;
        ma.enable_input_d = r > 0 || ks > 0;
        TRY(tc5_mma_issue(&cx.cta, 1, &ma, &cx.dg));
        mmas++;
      }
    }
    /* the stage is reused by the next tile: commit and wait */
    TRY(tc5_commit(&cx.cta, 1, &pm, 1, &cx.dg));
    bool done;
    TRY(tc5_mbarrier_test_wait(&mb, t & 1, &done, &cx.dg));
    if (!done) goto fail;
  }
  printf("%u tiles x 3 taps x %u K steps = %u tcgen05.mma.ws, a tcgen05.commit per tile\n", CTILES, CK / K, mmas);
  /* D: lane o, column p (layout D); warps 0-3 read 32 lanes each */
  tc5_tmem_ldst ld = {TC5_TMEM_32x32b, CN, false, 0, TC5_TMEM_RED_NONE, TC5_TMEM_RED_F32, false, false};
  for (unsigned t = 0; t < CTILES; t++)
    for (uint32_t w = 0; w < 4; w++) {
      TRY(tc5_tmem_ld(&cx.tm, &ld, w, TC5_TMEM_ADDR(32 * w, dbase + t * CN), regs, NULL, &cx.dg));
      for (unsigned l = 0; l < 32; l++)
        for (unsigned j = 0; j < CN && t * CN + j < CP; j++) Y[(w * 32 + l) * CP + t * CN + j] = regs[l * CN + j];
    }
  TRY(tc5_tmem_dealloc(&cx.tm, dbase, 256, &cx.dg));
  /* the direct convolution: every output, the taps' valid pixels only (zero padding) */
  if (dk->kind == TC5_KIND_I8) {
    for (unsigned o = 0; o < CO; o++)
      for (unsigned p = 0; p < CP; p++) {
        int32_t acc = 0;
        for (unsigned r = 0; r < 3; r++) {
          int q = (int)(p % CQ) + (int)r - 1;
          if (q < 0 || q >= CQ) continue;
          for (unsigned c = 0; c < CK; c++)
            acc += (int32_t)(int8_t)W[(o * CK + c) * 3 + r] * (int8_t)X[(p + r) * CK + c];
        }
        R[o * CP + p] = (uint32_t)acc;
      }
    printf("check against a direct convolution in integers: ");
  } else {
    /* floats: the same products in the same order, through the exact core
     * (tap after tap, K steps of channels), padding as zero */
    for (unsigned o = 0; o < CO; o++)
      for (unsigned r = 0; r < 3; r++)
        for (unsigned c = 0; c < CK; c++) Aref[o * 3 * CK + r * CK + c] = W[(o * CK + c) * 3 + r];
    for (unsigned r = 0; r < 3; r++)
      for (unsigned c = 0; c < CK; c++)
        for (unsigned p = 0; p < CP; p++) {
          int q = (int)(p % CQ) + (int)r - 1;
          Bref[(r * CK + c) * CP + p] = q < 0 || q >= CQ ? 0 : X[(p + r) * CK + c];
        }
    tc5_dot dot;
    tc5_dot_opts o;
    tc5_dot_opts_init(&o);
    o.enable_input_d = false;
    TRY(tc5_dot_model(TC5_MODEL_BLACKWELL, dk->kind, dk->a, dk->b, dk->d, TC5_TYPE_NONE, 0, false, &dot, &cx.dg));
    TRY(tc5_gemm(&dot, CO, CP, 3 * CK, Aref, Bref, NULL, NULL, R, &o, 0));
    printf("check against a direct convolution through the exact core (same products, zero padding): ");
  }
  for (unsigned i = 0; i < CO * CP; i++) bad += Y[i] != R[i];
  printf("%u of %u outputs differ -> %s\n", bad, CO * CP, bad ? "MISMATCH" : "bit-exact");
  print_elem("Y[0][0]", Y[0], dk->d);
  print_elem(", Y[127][199]", Y[CO * CP - 1], dk->d);
  printf("\n");
fail:
  free(W), free(X), free(Y), free(R), free(tile), free(regs), free(Aref), free(Bref);
  return demo_cta_end(&cx, st, bad);
}

int cmd_demo(int argc, char **argv) {
  static const cli_opt opts[] = {
      {"kind", NULL, true, "f16 (bf16 x bf16 -> f32, default), f8f6f4 (e4m3 x e2m1 -> f32), i8 (s8 x s8 -> s32), "
                           "mxf4nvf4, mxf8f6f4, mxf4 (block-scaled)"},
      {"conv", NULL, false, "the .ws convolution with zero-column masks (default kind i8)"},
      {"descriptors", NULL, false, "a tour of the descriptors of one MMA"},
      {"sparse", NULL, false, "a 2:4 sparse f16 GEMM through tcgen05.mma.sp"},
  };
  cli_args a;
  if (!cli_parse(argc, argv, opts, 4, &a, "demo")) return EXIT_USAGE;
  if (a.help || a.npos) {
    printf("usage: tc5 demo [--kind f16|f8f6f4|i8|mxf4nvf4|mxf8f6f4|mxf4] [--conv] [--sparse] [--descriptors]\n\n"
           "Runs the built-in example: a 256x256x256 GEMM through tcgen05 (shared-memory\n"
           "layouts, descriptors, Tensor Memory, MMA, commit/mbarrier, ld), checked bit\n"
           "for bit against the arithmetic core.\n"
           "  --kind K       f16 (bf16 x bf16 -> f32, default), f8f6f4 (e4m3 x e2m1 -> f32),\n"
           "                 i8 (s8 x s8 -> s32); block-scaled, 256x256x512 with the scale\n"
           "                 factors brought in by tcgen05.cp: mxf4nvf4 (NVFP4: e2m1, ue4m3\n"
           "                 scales, block 16), mxf8f6f4 (e4m3 x e2m1, ue8m0, block 32),\n"
           "                 mxf4 (e2m1, ue8m0, block 32)\n"
           "  --conv         a 1x3 convolution on tcgen05.mma.ws, padding masked by zero-column\n"
           "                 masks, checked against a direct convolution (kind i8 or f16)\n"
           "  --sparse       a 2:4 sparse f16 256x256x512 GEMM through tcgen05.mma.sp, the metadata\n"
           "                 brought in by tcgen05.cp, checked against the dense core\n"
           "  --descriptors  a tour of the descriptors of one MMA and their rules\n");
    return a.help ? EXIT_OK : EXIT_USAGE;
  }
  if (cli_has(&a, opts, 4, "descriptors")) return descriptor_tour();
  if (cli_has(&a, opts, 4, "sparse")) return sparse_demo();
  bool conv = cli_has(&a, opts, 4, "conv");
  const char *kind = cli_get(&a, opts, 4, "kind");
  if (!kind) kind = conv ? "i8" : "f16";
  for (size_t i = 0; i < sizeof demo_kinds / sizeof demo_kinds[0]; i++)
    if (!strcmp(kind, demo_kinds[i].name))
      return conv ? conv_demo(&demo_kinds[i]) : demo_kinds[i].block ? bs_gemm_demo(&demo_kinds[i]) : gemm_demo(&demo_kinds[i]);
  fprintf(stderr, "tc5 demo: --kind %s: f16, f8f6f4, i8, mxf4nvf4, mxf8f6f4 or mxf4\n", kind);
  return EXIT_USAGE;
}
