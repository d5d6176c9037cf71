/* tc5 — the bytes the CUDA driver's cuTensorMapEncodeTiled writes, for a set
 * of encodings that vary one parameter at a time from a base map: the golden
 * bytes of tests/data/tma/cuda_tensormaps.txt, which src/tma/tensormap_cuda.c
 * decodes (docs/tma.md, "CUDA's tensor maps"). Host code only: needs a GPU's
 * driver (libcuda), not a kernel.
 *   gcc -O1 -std=c11 -I/usr/local/cuda/include gpu/tensormap_dump.c -lcuda -o dump && ./dump
 * Each line: the parameters in tc5's text form, address=0x..., then the 128
 * bytes in hex (or "error N" where the driver refused them). */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

typedef struct enc {
  int type, rank;
  unsigned long long addr;
  unsigned long long dims[5], strides[4];
  unsigned box[5], es[5];
  int il, sw, l2, oob;
} enc;

static const char *tn[] = {"u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16", "f32_ftz", "tf32",
                           "tf32_ftz", "16u4_align8b", "16u4_align16b", "16u6_align16b"};
static const char *swn[] = {"none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"};
static const char *iln[] = {"none", "16B", "32B"};
static const char *l2n[] = {"none", "64B", "128B", "256B"};

static void list(const char *key, const unsigned long long *v, int n) {
  printf(",%s=", key);
  for (int i = 0; i < n; i++) printf("%s%llu", i ? "x" : "", v[i]);
}

static void one(const enc *e) {
  CUtensorMap m;
  memset(&m, 0xA5, sizeof m);
  cuuint64_t d[5], s[4];
  cuuint32_t b[5], es[5];
  for (int i = 0; i < 5; i++) d[i] = e->dims[i], b[i] = e->box[i], es[i] = e->es[i];
  for (int i = 0; i < 4; i++) s[i] = e->strides[i];
  CUresult r = cuTensorMapEncodeTiled(&m, (CUtensorMapDataType)e->type, e->rank, (void *)(uintptr_t)e->addr, d, s,
                                      b, es, (CUtensorMapInterleave)e->il, (CUtensorMapSwizzle)e->sw,
                                      (CUtensorMapL2promotion)e->l2, (CUtensorMapFloatOOBfill)e->oob);
  unsigned long long bx[5], ee[5];
  for (int i = 0; i < 5; i++) bx[i] = e->box[i], ee[i] = e->es[i];
  printf("type=%s", tn[e->type]);
  list("dims", e->dims, e->rank);
  if (e->rank > 1) list("strides", e->strides, e->rank - 1);
  list("box", bx, e->rank);
  list("estrides", ee, e->rank);
  printf(",interleave=%s,swizzle=%s,l2=%s,oob=%s address=0x%llx ", iln[e->il], swn[e->sw], l2n[e->l2],
         e->oob ? "nan" : "zero", e->addr);
  if (r != CUDA_SUCCESS) {
    printf("error %d\n", (int)r);
    return;
  }
  const unsigned char *p = (const unsigned char *)&m;
  for (int i = 0; i < 128; i++) printf("%02x", p[i]);
  printf("\n");
}

int main(void) {
  if (cuInit(0) != CUDA_SUCCESS) { printf("cuInit failed\n"); return 2; }
  int v = 0;
  CUdevice dev;
  CUcontext ctx;
  if (cuDeviceGet(&dev, 0) != CUDA_SUCCESS || cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS ||
      cuCtxSetCurrent(ctx) != CUDA_SUCCESS) { printf("no context\n"); return 2; }
  cuDriverGetVersion(&v);
  printf("# driver %d\n", v);
  /* the base: a bf16 matrix 256 x 64 (dims 64x256), rows 128 bytes, box 64x64, 128B swizzle */
  const enc base = {9, 2, 0x7f0000001000ull, {64, 256, 1, 1, 1}, {128, 0, 0, 0}, {64, 64, 1, 1, 1}, {1, 1, 1, 1, 1},
                    0, 3, 2, 0};
  enc e;
  one(&base);
  /* addresses */
  unsigned long long addrs[] = {0x10, 0x20, 0x100, 0x12340, 0x7fffffff0000ull, 0x1ull << 40, 0xfffffffffff0ull, 0x123456789ab0ull};
  for (unsigned i = 0; i < sizeof addrs / sizeof *addrs; i++) e = base, e.addr = addrs[i], one(&e);
  /* types (with a box whose inner bytes fit the swizzle) */
  for (int t = 0; t < 16; t++) {
    e = base, e.type = t;
    int bits = t == 13 || t == 14 ? 4 : t == 15 ? 6 : (t == 0 ? 8 : t == 1 || t == 6 || t == 9 ? 16 : t == 4 || t == 5 || t == 8 ? 64 : 32);
    e.box[0] = (unsigned)(128 * 8 / bits);
    if (e.box[0] > 256) e.box[0] = 256;
    e.dims[0] = 256;
    e.strides[0] = 256ull * bits / 8 < 16 ? 16 : (256ull * bits / 8 + 15) / 16 * 16;
    if (t == 14 || t == 15) e.box[0] = 128, e.dims[0] = 128, e.strides[0] = 128;
    one(&e);
  }
  /* dims of every rank, strides */
  unsigned long long dv[] = {1, 2, 3, 17, 1000, 65535, 65536, 1ull << 20, (1ull << 32) - 1, 1ull << 32};
  for (unsigned i = 0; i < sizeof dv / sizeof *dv; i++) e = base, e.dims[1] = dv[i], one(&e);
  for (unsigned i = 0; i < 6; i++) e = base, e.dims[0] = 8ull << i, e.box[0] = 8, e.sw = 0, one(&e);
  unsigned long long sv[] = {16, 32, 144, 4096, 1ull << 20, 1ull << 32, (1ull << 40) - 16};
  for (unsigned i = 0; i < sizeof sv / sizeof *sv; i++) e = base, e.strides[0] = sv[i], one(&e);
  for (int r = 1; r <= 5; r++) {
    e = base, e.rank = r, e.sw = 0;
    unsigned long long st = 128;
    for (int k = 0; k < r; k++) e.dims[k] = k == 0 ? 64 : 3 + k, e.box[k] = k == 0 ? 32 : 2 + (k & 1);
    for (int k = 0; k + 1 < r; k++) e.strides[k] = st, st *= e.dims[k + 1] + 1;
    one(&e);
    for (int k = 0; k < r; k++) {  /* each element stride */
      enc f = e;
      f.es[k] = 2 + k;
      one(&f);
    }
  }
  /* boxes */
  unsigned bv[] = {1, 2, 8, 16, 32, 100, 255, 256};
  for (unsigned i = 0; i < sizeof bv / sizeof *bv; i++) e = base, e.box[1] = bv[i], one(&e);
  for (unsigned i = 0; i < 5; i++) e = base, e.sw = 0, e.box[0] = 8u << i, one(&e);
  /* swizzles, interleaves, L2, OOB */
  for (int s = 0; s < 7; s++) e = base, e.sw = s, e.box[0] = s == 1 ? 16 : s == 2 ? 32 : 64, one(&e);
  for (int il = 1; il < 3; il++) {
    e = base, e.rank = 3, e.il = il, e.sw = il == 1 ? 1 : 3, e.dims[0] = 64, e.dims[1] = 8, e.dims[2] = 4;
    e.box[0] = 64, e.box[1] = 8, e.box[2] = 2, e.strides[0] = 128, e.strides[1] = 1024;
    one(&e);
    e.sw = 0, one(&e);
  }
  for (int l = 0; l < 4; l++) e = base, e.l2 = l, one(&e);
  e = base, e.oob = 1, one(&e);
  e = base, e.type = 7, e.oob = 1, e.box[0] = 32, one(&e);
  return 0;
}
