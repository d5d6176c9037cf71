/* CUDA's own tensor maps (tc5_tensormap_cuda_encode / _decode): every map
 * an H100's driver wrote in tests/data/tma/cuda_tensormaps.txt
 * (gpu/tensormap_dump.c: cuTensorMapEncodeTiled, CUDA 13.0, driver 580.159)
 * encoded to the same 128 bytes and decoded to the same parameters; what the
 * driver refused, refused by name; maps with a bit the layout does not
 * explain, refused by name; a CUDA map run by the PTX runner is
 * test_ptx_tma's. */
#include <stdio.h>

#include "testutil.h"
#include "tc5/tensormap.h"

static bool has(const tc5_diag *d, const char *s) {
  for (unsigned i = 0; i < d->count; i++)
    if (strstr(d->issue[i].message, s)) return true;
  return false;
}

static int hexval(char c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

/* the driver's maps: each line "SPEC address=0x... HEX" or "SPEC address=0x... error N" */
static void driver_maps(void **state) {
  (void)state;
  FILE *f = fopen(TC5_TEST_DATA_DIR "/tma/cuda_tensormaps.txt", "r");
  assert_non_null(f);
  char line[1024], spec[512], tail[300];
  unsigned long long addr;
  unsigned n = 0, refused = 0, driver_only = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    assert_int_equal(sscanf(line, "%511s address=0x%llx %299s", spec, &addr, tail), 3);
    tc5_tmap_params p, q;
    tc5_diag dg;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_tmap_params_parse(spec, &p, NULL, NULL, &dg), TC5_OK);
    p.address = addr;
    tc5_tensormap m, golden, own;
    if (!strcmp(tail, "error")) { /* the driver refused: packed types and the atom swizzles, unmeasured */
      assert_int_equal(tc5_tensormap_cuda_encode(&m, &p, &dg), TC5_EUNSUPPORTED);
      assert_true(has(&dg, "no measured encoding"));
      assert_int_equal(tc5_tensormap_encode(&own, &p, &dg), TC5_OK); /* tc5's own encoding carries them */
      refused++;
      continue;
    }
    assert_int_equal(strlen(tail), 256);
    for (unsigned k = 0; k < 128; k++) golden.bytes[k] = (uint8_t)(hexval(tail[2 * k]) << 4 | hexval(tail[2 * k + 1]));
    if (strstr(spec, "interleave=32B,swizzle=128B")) {
      /* the H100's driver takes it, cuda.h forbids it, tc5 refuses it: what the copy does with it is
       * not measured (docs/spec-departures.md) */
      assert_int_equal(tc5_tensormap_cuda_encode(&m, &p, &dg), TC5_EILLEGAL);
      assert_true(has(&dg, "interleave 32B needs swizzle 32B"));
      driver_only++;
      continue;
    }
    memset(&m, 0x5A, sizeof m);
    tc5_status st = tc5_tensormap_cuda_encode(&m, &p, &dg);
    if (st) fail_msg("%s: %s", spec, dg.count ? dg.issue[0].message : tc5_strerror(st));
    if (memcmp(m.bytes, golden.bytes, 128)) fail_msg("%s: tc5's bytes differ from the driver's", spec);
    assert_true(tc5_tensormap_is_cuda(&golden));
    assert_int_equal(tc5_tensormap_cuda_decode(&golden, &q, &dg), TC5_OK);
    /* the same parameters: tc5's own encodings of both are equal */
    tc5_tensormap e1, e2;
    assert_int_equal(tc5_tensormap_encode(&e1, &p, &dg), TC5_OK);
    assert_int_equal(tc5_tensormap_encode(&e2, &q, &dg), TC5_OK);
    if (memcmp(e1.bytes, e2.bytes, 128)) fail_msg("%s: decoded to other parameters", spec);
    assert_false(tc5_tensormap_is_cuda(&e1));
    n++;
  }
  fclose(f);
  print_message("%u maps equal to the driver's, %u refused as the driver refused them\n", n, refused);
  assert_true(n >= 90);
  assert_int_equal(refused, 6);
  assert_int_equal(driver_only, 1);
}

/* the Blackwell form: CuTe DSL's host code's own maps (bit 1 of byte 8; bytes 60-127 unwritten) */
static void cute_dsl_maps(void **state) {
  (void)state;
  FILE *f = fopen(TC5_TEST_DATA_DIR "/tma/cute_dsl_tensormap.txt", "r");
  assert_non_null(f);
  char line[1024], spec[512], tail[300];
  unsigned long long addr;
  unsigned n = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    assert_int_equal(sscanf(line, "%511s address=0x%llx %299s", spec, &addr, tail), 3);
    tc5_tmap_params p, q;
    tc5_diag dg;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_tmap_params_parse(spec, &p, NULL, NULL, &dg), TC5_OK);
    p.address = addr;
    tc5_tensormap m, e1, e2;
    for (unsigned k = 0; k < 128; k++) m.bytes[k] = (uint8_t)(hexval(tail[2 * k]) << 4 | hexval(tail[2 * k + 1]));
    assert_true(tc5_tensormap_is_cuda(&m));
    assert_int_equal(tc5_tensormap_cuda_decode(&m, &q, &dg), TC5_OK);
    assert_int_equal(tc5_tensormap_encode(&e1, &p, &dg), TC5_OK);
    assert_int_equal(tc5_tensormap_encode(&e2, &q, &dg), TC5_OK);
    if (memcmp(e1.bytes, e2.bytes, 128)) fail_msg("%s: decoded to other parameters", spec);
    /* the same parameters in the H100's form: bytes 0-59 equal but for the form's bit */
    tc5_tensormap h;
    assert_int_equal(tc5_tensormap_cuda_encode(&h, &p, &dg), TC5_OK);
    h.bytes[8] |= 2;
    assert_memory_equal(h.bytes, m.bytes, 60);
    n++;
  }
  fclose(f);
  assert_int_equal(n, 2);
}

static tc5_tensormap base_map(tc5_tmap_params *p) {
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tmap_params_parse("type=bf16,dims=64x256,strides=128,box=64x64,swizzle=128B", p, NULL, NULL, &dg),
                   TC5_OK);
  p->address = 0x7f0000001000ull;
  tc5_tensormap m;
  assert_int_equal(tc5_tensormap_cuda_encode(&m, p, &dg), TC5_OK);
  return m;
}

static void refused_maps(void **state) {
  (void)state;
  tc5_tmap_params p, q;
  tc5_tensormap m = base_map(&p), b;
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tensormap_cuda_decode(NULL, &q, &dg), TC5_EINVAL);
  assert_int_equal(tc5_tensormap_cuda_encode(NULL, &p, &dg), TC5_EINVAL);
  /* every bit the layout gives no meaning: refused, naming the byte */
  unsigned unknown = 0;
  for (unsigned k = 0; k < 128; k++)
    for (unsigned bit = 0; bit < 8; bit++) {
      b = m;
      b.bytes[k] ^= (uint8_t)(1u << bit);
      tc5_diag_init(&dg);
      tc5_status st = tc5_tensormap_cuda_decode(&b, &q, &dg);
      if (st == TC5_EUNSUPPORTED && has(&dg, "has no measured meaning")) unknown++;
    }
  assert_int_equal(unknown, 1024 - 475); /* the layout explains 474 bits, and bit 1 of byte 8 is the Blackwell form */
  /* a box's byte count that its dimensions do not make */
  b = m;
  b.bytes[64] ^= 0x40;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tensormap_cuda_decode(&b, &q, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "bytes 64-67"));
  /* a swizzle repeat that is not the swizzle's */
  b = m;
  b.bytes[73] = 2;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tensormap_cuda_decode(&b, &q, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "bytes 72-73"));
  /* a rule of the driver's broken in the bytes: the box's inner 128 bytes over a 64B swizzle */
  b = m;
  b.bytes[9] = (uint8_t)((b.bytes[9] & ~0x60) | 0x40);
  b.bytes[72] = 0, b.bytes[73] = 2;
  tc5_diag_init(&dg);
  assert_int_not_equal(tc5_tensormap_cuda_decode(&b, &q, &dg), TC5_OK);
  /* parameters the driver refuses, refused by encode with the same rule's message */
  p.box[0] = 65;
  tc5_diag_init(&dg);
  assert_int_not_equal(tc5_tensormap_cuda_encode(&b, &p, &dg), TC5_OK);
  assert_true(dg.count > 0);
  /* unmeasured: im2col, a stride 1..3 of 2^36 bytes or more */
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tmap_params_parse("type=bf16,dims=64x4x4,strides=128x68719476736,box=64x4x4", &p, NULL, NULL, &dg),
                   TC5_OK);
  p.address = 0x10000;
  assert_int_equal(tc5_tensormap_cuda_encode(&b, &p, &dg), TC5_EUNSUPPORTED);
  assert_true(has(&dg, "globalStrides[1]"));
  /* tc5's own map written before the mark (CUTLASS Params under tests/data): still tc5's */
  tc5_tmap_params own_p;
  tc5_tensormap own = base_map(&own_p);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_tensormap_encode(&own, &own_p, &dg), TC5_OK);
  assert_false(tc5_tensormap_is_cuda(&own));
  memset(own.bytes + 124, 0, 4);
  assert_false(tc5_tensormap_is_cuda(&own));
  assert_true(tc5_tensormap_is_cuda(&m));
  /* zeros (no map at all) are neither encoding's */
  memset(&b, 0, sizeof b);
  assert_false(tc5_tensormap_is_cuda(&b));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(driver_maps), cmocka_unit_test(cute_dsl_maps), cmocka_unit_test(refused_maps)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
