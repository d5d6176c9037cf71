/* Tensor maps (tc5/tensormap.h) and tile-mode copies (tc5/tma.h): every
 * rule of cuTensorMapEncodeTiled / ...Im2col and every error path of a
 * copy. What the copies put where is compared with the H100 by
 * tests/ptx/silicon.sh on tests/data/ptx/tma90 (CTest ptx_silicon_tma). */
#include "testutil.h"
#include "tc5/tensormap.h"
#include "tc5/tma.h"

static bool has(const tc5_diag *d, const char *s) {
  for (unsigned i = 0; i < d->count; i++)
    if (strstr(d->issue[i].message, s)) return true;
  return false;
}

static tc5_tmap_params base(void) {
  tc5_tmap_params p;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tmap_params_parse("type=bf16,dims=64x32,strides=128,box=64x32", &p, NULL, NULL, &dg), TC5_OK);
  p.address = 0x10000;
  return p;
}

/* p broken one way: its status and a word of the message */
static void rejects(tc5_tmap_params p, tc5_status st, const char *msg) {
  tc5_tensormap m;
  tc5_diag dg;
  tc5_diag_init(&dg);
  memset(&m, 0xAB, sizeof m);
  assert_int_equal(tc5_tensormap_encode(&m, &p, &dg), st);
  if (!has(&dg, msg)) fail_msg("'%s' not in '%s'", msg, dg.count ? dg.issue[0].message : "(nothing)");
  assert_int_equal(m.bytes[0], 0xAB); /* written only on success */
}

static void test_encode_rules(void **state) {
  (void)state;
  tc5_tmap_params p = base(), q;
  tc5_tensormap m;
  assert_int_equal(tc5_tensormap_encode(&m, &p, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_OK);
  assert_memory_equal(&p, &q, sizeof p);
  q = p; q.rank = 0; rejects(q, TC5_ERANGE, "tensorRank 0");
  q = p; q.rank = 6; rejects(q, TC5_ERANGE, "tensorRank 6");
  q = p; q.address = 0x10008; rejects(q, TC5_EALIGN, "not 16-byte aligned");
  q = p; q.dims[1] = 0; rejects(q, TC5_ERANGE, "globalDim[1] = 0");
  q = p; q.dims[0] = (1ull << 32) + 1; rejects(q, TC5_ERANGE, "not 1 to 2^32");
  q = p; q.strides[0] = 120; rejects(q, TC5_EALIGN, "globalStrides[0] = 120");
  q = p; q.strides[0] = 1ull << 40; rejects(q, TC5_ERANGE, "below 2^40");
  q = p; q.box[1] = 257; rejects(q, TC5_ERANGE, "boxDim[1] = 257");
  q = p; q.box[0] = 12; rejects(q, TC5_EILLEGAL, "multiple of 16 bytes");
  q = p; q.estrides[1] = 9; rejects(q, TC5_ERANGE, "elementStrides[1] = 9");
  q = p; q.estrides[0] = 0; rejects(q, TC5_ERANGE, "elementStrides[0] = 0");
  q = p; q.swizzle = TC5_TMAP_SWIZZLE_64B; rejects(q, TC5_EILLEGAL, "exceeds the 64B swizzle's 64");
  q = p; q.interleave = TC5_TMAP_INTERLEAVE_16B; rejects(q, TC5_EILLEGAL, "needs at least 3");
  q = p; q.oob = TC5_TMAP_OOB_NAN; q.type = TC5_TMAP_S32; q.box[0] = 16; rejects(q, TC5_EILLEGAL, "floating-point type");
  q = p; q.type = (tc5_tmap_type)99; rejects(q, TC5_EINVAL, "not a CUtensorMapDataType");
  q = p; q.interleave = (tc5_tmap_interleave)3; rejects(q, TC5_EINVAL, "not a CUtensorMapInterleave");
  q = p; q.swizzle = (tc5_tmap_swizzle)7; rejects(q, TC5_EINVAL, "not a CUtensorMapSwizzle");
  q = p; q.l2 = (tc5_tmap_l2)4; rejects(q, TC5_EINVAL, "not a CUtensorMapL2promotion");
  q = p; q.oob = (tc5_tmap_oob)2; rejects(q, TC5_EINVAL, "not a CUtensorMapFloatOOBfill");
  q = p; q.mode = (tc5_tmap_mode)2; rejects(q, TC5_EINVAL, "neither tiled nor im2col");
  /* interleave 32B: 32-byte address and strides; swizzle 32B or (as the driver accepts) none */
  q = p; q.rank = 3; q.interleave = TC5_TMAP_INTERLEAVE_32B; q.dims[0] = 16; q.dims[2] = 4; q.strides[0] = 32;
  q.strides[1] = 1024; q.box[0] = 16; q.box[2] = 4; q.estrides[2] = 1;
  assert_int_equal(tc5_tensormap_encode(&m, &q, NULL), TC5_OK);
  tc5_tmap_params r = q; r.swizzle = TC5_TMAP_SWIZZLE_64B; rejects(r, TC5_EILLEGAL, "interleave 32B needs swizzle 32B");
  r = q; r.strides[0] = 16; rejects(r, TC5_EALIGN, "multiple of 32");
  r = q; r.address += 16; rejects(r, TC5_EALIGN, "(interleave 32B)");
  /* the packed types */
  q = p; q.type = TC5_TMAP_16U4_ALIGN16B; q.box[0] = 64; rejects(q, TC5_EILLEGAL, "boxDim[0] = 64 is not 128");
  q = p; q.type = TC5_TMAP_16U4_ALIGN16B; q.box[0] = 128; q.dims[0] = 100; rejects(q, TC5_EILLEGAL, "multiple of 128");
  q = p; q.type = TC5_TMAP_16U6_ALIGN16B; q.box[0] = 128; q.dims[0] = 128; q.swizzle = TC5_TMAP_SWIZZLE_64B;
  rejects(q, TC5_EILLEGAL, "supports swizzle none, 128B");
  q = p; q.type = TC5_TMAP_16U4_ALIGN8B; q.dims[0] = 63; rejects(q, TC5_EILLEGAL, "multiple of 2");
  q = p; q.type = TC5_TMAP_16U4_ALIGN8B; q.oob = TC5_TMAP_OOB_NAN; rejects(q, TC5_EILLEGAL, "floating-point type");
  /* several broken rules: all of them recorded */
  tc5_diag dg;
  tc5_diag_init(&dg);
  q = p; q.box[0] = 0; q.estrides[1] = 0; q.address = 4;
  assert_int_not_equal(tc5_tensormap_encode(&m, &q, &dg), TC5_OK);
  assert_int_equal(dg.total, 3); /* the address, box 0, the element stride */
  /* NULLs */
  assert_int_equal(tc5_tensormap_encode(NULL, &p, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tensormap_decode(&m, NULL, NULL), TC5_EINVAL);
  /* a zeroed map (what tensormap.replace starts from) is not valid */
  memset(&m, 0, sizeof m);
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_ERANGE);
}

static void test_im2col_rules(void **state) {
  (void)state;
  tc5_tmap_params p;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tmap_params_parse("type=f16,dims=64x16x16x4,strides=128x2048x32768,im2col=-1x-1/-1x-1/64/128", &p, NULL, NULL, &dg),
                   TC5_OK);
  p.address = 0x10000;
  tc5_tensormap m;
  assert_int_equal(tc5_tensormap_encode(&m, &p, NULL), TC5_OK);
  tc5_tmap_params q;
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_OK);
  assert_int_equal(q.lower[1], -1);
  assert_int_equal(q.channels, 64);
  q = p; q.lower[0] = -129; rejects(q, TC5_ERANGE, "outside [-128, 127] (rank 4)");
  q = p; q.upper[1] = 128; rejects(q, TC5_ERANGE, "pixelBoxUpperCorner[1] = 128");
  q = p; q.channels = 257; rejects(q, TC5_ERANGE, "channelsPerPixel 257");
  q = p; q.pixels = 1025; rejects(q, TC5_ERANGE, "pixelsPerColumn 1025");
  q = p; q.lower[0] = 100; q.upper[0] = -100; rejects(q, TC5_EILLEGAL, "zero area");
  q = p; q.rank = 2; rejects(q, TC5_ERANGE, "3, 4 or 5 (im2col)");
  q = p; q.swizzle = TC5_TMAP_SWIZZLE_32B; rejects(q, TC5_EILLEGAL, "128 bytes, exceeds the 32B");
}

static void test_parse(void **state) {
  (void)state;
  tc5_tmap_params p;
  tc5_diag dg;
  const char *bad[] = {"dims=4,box=4", "type=bf17,dims=4,box=4", "type=bf16,dims=4x,box=4", "type=bf16,dims=4x4,box=4",
                       "type=bf16,dims=4x4,box=4x4", "type=bf16,dims=4,box=4,swizzle=16B", "type=bf16,dims=4,box=4,color=red",
                       "type=bf16,dims=4,box=4,oob=inf", "type=bf16,dims=4,box=4,l2=512B", "type=bf16,dims=4,box=4,interleave=8B",
                       "type=bf16,dims=4x4x4,strides=16x64,im2col=-1/-1/8", "type=bf16,dims=4x4x4,strides=16x64,im2col=-1x-1/-1x-1/8/8",
                       "type=bf16,dims=4,box=4,estrides=1x1", "type=bf16,dims=-4,box=4", "nonsense"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tc5_diag_init(&dg);
    if (tc5_tmap_params_parse(bad[i], &p, NULL, NULL, &dg) != TC5_EPARSE) fail_msg("'%s' parsed", bad[i]);
    assert_true(dg.count > 0);
  }
  assert_int_equal(tc5_tmap_params_parse("type=u8,dims=1000,box=256,swizzle=128B_atom_32B,l2=256B,oob=zero", &p, NULL, NULL, NULL), TC5_OK);
  assert_int_equal(p.swizzle, TC5_TMAP_SWIZZLE_128B_ATOM_32B);
  assert_int_equal(p.estrides[0], 1);
  assert_string_equal(tc5_tmap_type_name(TC5_TMAP_16U6_ALIGN16B), "16u6_align16b");
  assert_string_equal(tc5_tmap_type_name(99), "?");
  assert_int_equal(tc5_tmap_swizzle_bytes(TC5_TMAP_SWIZZLE_64B), 64);
  unsigned bits;
  assert_int_equal(tc5_tmap_type_bits(TC5_TMAP_16U6_ALIGN16B, &bits), TC5_OK);
  assert_int_equal(bits, 6);
  assert_int_equal(tc5_tmap_type_bits((tc5_tmap_type)99, &bits), TC5_EINVAL);
}

/* tensormap.replace from a zeroed map (as Triton's device-side descriptors
 * build theirs) gives the map encode gives */
static void test_replace(void **state) {
  (void)state;
  tc5_tmap_params p;
  assert_int_equal(tc5_tmap_params_parse("type=bf16,dims=256x200,strides=512,box=64x128,swizzle=128B_atom_32B,oob=nan", &p, NULL,
                                         NULL, NULL),
                   TC5_OK);
  p.address = 0x20000;
  tc5_tensormap want, m;
  assert_int_equal(tc5_tensormap_encode(&want, &p, NULL), TC5_OK);
  memset(&m, 0, sizeof m);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_GLOBAL_ADDRESS, 0, 0x20000, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_RANK, 0, 1, NULL), TC5_OK); /* rank - 1 */
  for (unsigned i = 0; i < 2; i++) {
    assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_BOX_DIM, i, i ? 128 : 64, NULL), TC5_OK);
    assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_GLOBAL_DIM, i, i ? 200 : 256, NULL), TC5_OK);
    assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_ELEMENT_STRIDE, i, 1, NULL), TC5_OK);
  }
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_GLOBAL_STRIDE, 0, 512, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_ELEMTYPE, 0, 10, NULL), TC5_OK); /* PTX's bf16 */
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_SWIZZLE_MODE, 0, 3, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_SWIZZLE_ATOMICITY, 0, 1, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_FILL_MODE, 0, 1, NULL), TC5_OK);
  assert_memory_equal(m.bytes, want.bytes, sizeof m.bytes);
  tc5_tmap_params q;
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_OK);
  assert_int_equal(q.type, TC5_TMAP_BF16);
  /* PTX's elemtype order differs from the driver's from 8 on */
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_ELEMTYPE, 0, 9, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_EILLEGAL); /* 64 f64 are 512 bytes: wider than the swizzle */
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_BOX_DIM, 0, 16, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_OK);
  assert_int_equal(q.type, TC5_TMAP_F64);
  /* an atomicity without the 128B mode: invalid until fixed */
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_SWIZZLE_MODE, 0, 2, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_EINVAL);
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_BOX_DIM, 5, 8, &dg), TC5_ERANGE);
  assert_true(has(&dg, "ordinal 5 is not below 5"));
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_GLOBAL_STRIDE, 4, 16, NULL), TC5_ERANGE);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_ELEMTYPE, 0, 16, &dg), TC5_ERANGE);
  assert_true(has(&dg, "above the field's 15"));
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_COUNT, 0, 0, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tensormap_replace(NULL, TC5_TMAP_F_RANK, 0, 0, NULL), TC5_EINVAL);
  /* a 1-D map as Triton builds it (TMAToLLVM.cpp): zeroed, then every field but those whose value is 0 (the
   * rank among them: rank - 1 = 0) replaced; the encoding's zero rank field is rank 1, as the hardware's */
  assert_int_equal(tc5_tmap_params_parse("type=s32,dims=1024,box=256", &p, NULL, NULL, NULL), TC5_OK);
  p.address = 0x20000;
  assert_int_equal(tc5_tensormap_encode(&want, &p, NULL), TC5_OK);
  memset(&m, 0, sizeof m);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_GLOBAL_ADDRESS, 0, 0x20000, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_BOX_DIM, 0, 256, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_GLOBAL_DIM, 0, 1024, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_ELEMENT_STRIDE, 0, 1, NULL), TC5_OK);
  assert_int_equal(tc5_tensormap_replace(&m, TC5_TMAP_F_ELEMTYPE, 0, 3, NULL), TC5_OK); /* PTX's s32 */
  assert_int_equal(tc5_tensormap_decode(&m, &q, NULL), TC5_OK);
  assert_int_equal(q.rank, 1);
  assert_memory_equal(m.bytes, want.bytes, sizeof m.bytes);
}

/* global memory for the copies: one 64 KiB buffer at 0x10000 */
static uint8_t gmem[65536];
static uint8_t *gmap(void *ctx, uint64_t addr, uint64_t n, bool write) {
  (void)ctx;
  (void)write;
  if (addr < 0x10000 || addr + n > 0x10000 + sizeof gmem) return NULL;
  return gmem + (addr - 0x10000);
}

static void test_tile(void **state) {
  (void)state;
  tc5_smem s;
  assert_int_equal(tc5_smem_init(&s, 32768), TC5_OK);
  for (unsigned i = 0; i < sizeof gmem; i++) gmem[i] = (uint8_t)(i * 7 + 3);
  tc5_tma_global g = {gmap, NULL};
  tc5_tmap_params p = base(); /* bf16 64 x 32, box 64 x 32 */
  tc5_diag dg;
  tc5_diag_init(&dg);
  int32_t c[2] = {0, 0};
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, &dg), TC5_OK);
  assert_memory_equal(s.bytes + 2048, gmem, 4096);
  uint32_t n;
  assert_int_equal(tc5_tma_box_bytes(&p, &n), TC5_OK);
  assert_int_equal(n, 4096);
  /* a box past the far edge: zeros; with oobFill nan the 0x7ff7 pattern */
  c[0] = 32;
  c[1] = 30;
  p.oob = TC5_TMAP_OOB_NAN;
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, NULL), TC5_OK);
  assert_memory_equal(s.bytes + 2048, gmem + 30 * 128 + 64, 64);
  assert_int_equal(s.bytes[2048 + 64], 0xf7);
  assert_int_equal(s.bytes[2048 + 65], 0x7f);
  assert_int_equal(s.bytes[2048 + 2 * 128], 0xf7);
  /* 128B swizzle: chunk j of row r lands at chunk j ^ (r % 8) */
  p.oob = TC5_TMAP_OOB_ZERO;
  p.swizzle = TC5_TMAP_SWIZZLE_128B;
  c[0] = c[1] = 0;
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 4096, &g, NULL), TC5_OK);
  for (unsigned r = 0; r < 32; r++)
    for (unsigned j = 0; j < 8; j++) assert_memory_equal(s.bytes + 4096 + r * 128 + ((j ^ (r % 8)) * 16), gmem + r * 128 + j * 16, 16);
  /* narrower than the swizzle row: rows 128 bytes apart */
  p.box[0] = 16;
  assert_int_equal(tc5_tma_box_footprint(&p, &n), TC5_OK);
  assert_int_equal(n, 32 * 128);
  assert_int_equal(tc5_tma_box_bytes(&p, &n), TC5_OK);
  assert_int_equal(n, 32 * 32);
  p.box[0] = 64;
  p.swizzle = TC5_TMAP_SWIZZLE_NONE;
  /* the errors */
  tc5_diag_init(&dg);
  c[0] = 3;
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, &dg), TC5_EALIGN);
  assert_true(has(&dg, "illegal instruction on the H100"));
  c[0] = 0;
  c[1] = -1;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_STORE, TC5_TMA_ADD, &s, 2048, &g, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "starting before the tensor"));
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, NULL), TC5_OK); /* a load may */
  c[1] = 0;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048 + 64, &g, &dg), TC5_EALIGN);
  assert_true(has(&dg, "not 128-byte aligned"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 32768 - 2048, &g, &dg), TC5_EBOUNDS);
  assert_true(has(&dg, "leave the CTA's shared memory"));
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 512, &g, NULL), TC5_EBOUNDS); /* the reserved KiB */
  tc5_tmap_params q = p;
  q.address = 0x10000 + sizeof gmem - 1024; /* the tensor runs past the buffer */
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_tile(&q, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, &dg), TC5_EBOUNDS);
  assert_true(has(&dg, "inside the tensor map's tensor, is outside global memory"));
  /* a store writes a row's last 16-byte piece whole: past a 1D tensor's end */
  q = p;
  q.rank = 1;
  q.dims[0] = 4;
  q.address = 0x10000 + sizeof gmem - 8;
  q.box[0] = 8;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_tile(&q, c, TC5_TMA_STORE, TC5_TMA_ADD, &s, 2048, &g, &dg), TC5_EBOUNDS);
  assert_true(has(&dg, "writes whole"));
  q = p;
  q.interleave = TC5_TMAP_INTERLEAVE_16B;
  assert_int_equal(tc5_tma_tile(&q, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, NULL), TC5_EUNSUPPORTED);
  q = p;
  q.mode = TC5_TMAP_IM2COL;
  assert_int_equal(tc5_tma_tile(&q, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, NULL), TC5_EUNSUPPORTED);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_REDUCE, TC5_TMA_INC, &s, 2048, &g, &dg), TC5_EILLEGAL); /* inc of bf16 */
  assert_true(has(&dg, "not defined for bf16"));
  assert_int_equal(tc5_tma_tile(&p, c, (tc5_tma_dir)3, TC5_TMA_ADD, &s, 2048, &g, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tma_tile(NULL, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tma_box_bytes(NULL, &n), TC5_EINVAL);
  assert_int_equal(tc5_tma_box_tx_bytes(NULL, &n), TC5_EINVAL);
  assert_int_equal(tc5_tma_box_tx_bytes(&p, NULL), TC5_EINVAL);
  tc5_smem_free(&s);
}

/* The bytes a load completes on its mbarrier: the box's packed bytes. For
 * 16U4_ALIGN16B / 16U6_ALIGN16B (16 bytes of shared memory a 16 values)
 * that is half / three quarters of what lands in shared memory, as
 * CUTLASS's SM100 block-scaled mainloop, DeepGEMM and Triton 3.9 count
 * (Triton's tutorial 10: expect_tx 34,304 for its mixed mxfp8 x mxfp4
 * stage); every other type counts its shared-memory bytes. */
static void test_box_tx_bytes(void **state) {
  (void)state;
  static const struct {
    const char *spec;
    uint32_t smem, tx;
  } cases[] = {
      {"type=bf16,dims=64x32,strides=128,box=64x32", 4096, 4096},
      {"type=u8,dims=128x64,strides=128,box=128x64", 8192, 8192},
      {"type=16u4_align16b,dims=256x64,strides=128,box=128x64", 64 * 128, 64 * 64},
      {"type=16u6_align16b,dims=256x64,strides=192,box=128x64", 64 * 128, 64 * 96},
      {"type=16u4_align8b,dims=256x64,strides=128,box=128x64", 64 * 64, 64 * 64},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc5_tmap_params p;
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_tmap_params_parse(cases[i].spec, &p, NULL, NULL, &dg)) fail_msg("%s: %s", cases[i].spec, dg.issue[0].message);
    uint32_t smem, tx;
    assert_int_equal(tc5_tma_box_bytes(&p, &smem), TC5_OK);
    assert_int_equal(tc5_tma_box_tx_bytes(&p, &tx), TC5_OK);
    if (smem != cases[i].smem || tx != cases[i].tx)
      fail_msg("%s: %u bytes in shared memory, %u transaction bytes; want %u, %u", cases[i].spec, smem, tx,
               cases[i].smem, cases[i].tx);
  }
}

/* reductions on a small row, against each operation written out here */
/* im2col: an NWC u8 tensor (C 16, W 10, N 2), a box with lower corner -1
 * and upper 0: pixels walk W from the start to W 9, wrap to -1 and the next
 * image; the offset shifts every pixel; outside the tensor, zeros. The
 * H100 corpus (tests/data/ptx/tma90) checks the same rule in every mode. */
static void test_im2col(void **state) {
  (void)state;
  tc5_smem s;
  assert_int_equal(tc5_smem_init(&s, 32768), TC5_OK);
  for (unsigned i = 0; i < sizeof gmem; i++) gmem[i] = (uint8_t)(i * 7 + 3);
  tc5_tma_global g = {gmap, NULL};
  tc5_tmap_params p;
  memset(&p, 0, sizeof p);
  p.mode = TC5_TMAP_IM2COL;
  p.type = TC5_TMAP_U8;
  p.rank = 3;
  p.address = 0x10000;
  p.dims[0] = 16, p.dims[1] = 10, p.dims[2] = 2;
  p.strides[0] = 16, p.strides[1] = 160;
  p.estrides[0] = p.estrides[1] = p.estrides[2] = 1;
  p.lower[0] = -1, p.upper[0] = 0;
  p.channels = 16, p.pixels = 14;
  tc5_diag dg;
  tc5_diag_init(&dg);
  int32_t c[3] = {0, 7, 0};
  uint16_t off[3] = {1, 0, 0};
  assert_int_equal(tc5_tma_im2col(&p, c, off, &s, 2048, &g, &dg), TC5_OK);
  /* pixel k: position 7, 8, 9, then -1, 0, ... 9 of image 1; loads w + 1 */
  int w[14] = {7, 8, 9, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, n[14] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  for (unsigned k = 0; k < 14; k++) {
    int x = w[k] + 1;
    if (x < 10) assert_memory_equal(s.bytes + 2048 + 16 * k, gmem + n[k] * 160 + x * 16, 16);
    else
      for (unsigned b = 0; b < 16; b++) assert_int_equal(s.bytes[2048 + 16 * k + b], 0);
  }
  uint32_t bytes;
  assert_int_equal(tc5_tma_box_bytes(&p, &bytes), TC5_OK);
  assert_int_equal(bytes, 14 * 16);
  /* traversal stride 2 along W: 7, 9, then -1, 1, 3 ... */
  p.estrides[1] = 2;
  p.pixels = 4;
  assert_int_equal(tc5_tma_im2col(&p, c, off, &s, 4096, &g, NULL), TC5_OK);
  assert_memory_equal(s.bytes + 4096, gmem + 8 * 16, 16);
  for (unsigned b = 0; b < 16; b++) assert_int_equal(s.bytes[4096 + 16 + b], 0); /* 9 + 1 */
  assert_memory_equal(s.bytes + 4096 + 32, gmem + 160, 16);                        /* image 1, -1 + 1 */
  assert_memory_equal(s.bytes + 4096 + 48, gmem + 160 + 2 * 16, 16);
  /* the errors: a tiled map, a tile copy of an im2col map, alignment */
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_LOAD, TC5_TMA_ADD, &s, 2048, &g, &dg), TC5_EUNSUPPORTED);
  assert_true(has(&dg, "im2col tensor map"));
  tc5_tmap_params t = base();
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_im2col(&t, c, off, &s, 2048, &g, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "the tensor map is a tiled one"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_im2col(&p, c, off, &s, 2049, &g, &dg), TC5_EALIGN);
  c[0] = 3;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_im2col(&p, c, off, &s, 2048, &g, &dg), TC5_EALIGN);
  assert_true(has(&dg, "16-byte boundary"));
  assert_int_equal(tc5_tma_im2col(NULL, c, off, &s, 2048, &g, NULL), TC5_EINVAL);
  tc5_smem_free(&s);
}

static void test_reduce(void **state) {
  (void)state;
  tc5_smem s;
  assert_int_equal(tc5_smem_init(&s, 8192), TC5_OK);
  tc5_tma_global g = {gmap, NULL};
  tc5_tmap_params p;
  assert_int_equal(tc5_tmap_params_parse("type=u32,dims=4,box=4", &p, NULL, NULL, NULL), TC5_OK);
  p.address = 0x10000;
  const uint32_t a[4] = {5, 0, 7, 0xffffffffu}, b[4] = {3, 9, 7, 1};
  const uint32_t want[8][4] = {{8, 9, 14, 0},        {3, 0, 7, 1},        {5, 9, 7, 0xffffffffu}, {0, 1, 0, 0},
                               {3, 9, 6, 1},          {1, 0, 7, 1},        {7, 9, 7, 0xffffffffu}, {6, 9, 0, 0xfffffffeu}};
  int32_t c[1] = {0};
  for (unsigned op = 0; op < 8; op++) {
    memcpy(gmem, a, 16);
    memcpy(s.bytes + 1024, b, 16);
    assert_int_equal(tc5_tma_tile(&p, c, TC5_TMA_REDUCE, (tc5_tma_redop)op, &s, 1024, &g, NULL), TC5_OK);
    assert_memory_equal(gmem, want[op], 16);
  }
  /* without a tensor map: element by element, whole elements only */
  uint8_t d8[16], s8[16];
  memset(d8, 1, sizeof d8);
  memset(s8, 2, sizeof s8);
  assert_int_equal(tc5_tma_reduce(d8, s8, 16, TC5_TMAP_U64, TC5_TMA_ADD, NULL), TC5_OK);
  assert_int_equal(d8[0], 3);
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tma_reduce(d8, s8, 12, TC5_TMAP_U64, TC5_TMA_ADD, &dg), TC5_EALIGN);
  assert_true(has(&dg, "not whole 8-byte elements"));
  assert_int_equal(tc5_tma_reduce(d8, s8, 16, TC5_TMAP_F64, TC5_TMA_MIN, NULL), TC5_EILLEGAL);
  assert_int_equal(tc5_tma_reduce(d8, s8, 16, TC5_TMAP_16U4_ALIGN8B, TC5_TMA_ADD, NULL), TC5_EINVAL);
  assert_int_equal(tc5_tma_reduce(NULL, s8, 16, TC5_TMAP_U32, TC5_TMA_ADD, NULL), TC5_EINVAL);
  tc5_smem_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_box_tx_bytes),
      cmocka_unit_test(test_encode_rules), cmocka_unit_test(test_im2col_rules), cmocka_unit_test(test_parse),
      cmocka_unit_test(test_tile), cmocka_unit_test(test_im2col),         cmocka_unit_test(test_reduce),     cmocka_unit_test(test_replace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
