/* tc5 on silicon (issue 52): the fields of Hopper's wgmma shared-memory
 * descriptor that a configuration may leave unused or set unusually, as the
 * H200 reads them.
 *
 * The method of gpu/wgmma_layout.cu: shared memory holds a slot image (each
 * element slot names itself, three passes of 8 bits), wgmma m64nNk reads A
 * through the descriptor under test and multiplies it by B = identity, so
 * D[m][k] names the slot the hardware took for element (m, k) of A. For each
 * operand (f16 K- and M-major, tf32 K, u8 K) and swizzle mode, starting from
 * the canonical tile (tc5_layout_canonical) at byte 4096:
 *   lbo / sbo: the LBO and SBO fields 0, 1 and 0x300 (12288 bytes), each
 *     alone and both together;
 *   base offset 0..7 at a start 128 r past the pattern's boundary (r 0 and 3);
 *   "--far G" (a process of its own for each group G, f16 operands: a reading
 *     that used these bits would leave the shared memory, and a fault loses
 *     one group): 0 LBO 0x3fff, 1 bits 14-15, 2 bits 30-31, 3 bits 46-48,
 *     4 bits 52-61 (the bits around and beyond Hopper's fields).
 * Output: OUTDIR/descriptors.txt (OUTDIR/descriptors-farG.txt), one line per descriptor: the raw 64-bit
 * descriptor (start relative to the slot image), the operand, what was set,
 * and the byte offsets (relative to the image) of the 64 x K elements of A,
 * row-major, as runs "first:step:count". tests/desc/test_wgmma_silicon.c
 * compares each with tc5 (tc5_smem_desc_from_wgmma, tc5_layout_check,
 * tc5_layout_addr) and counts agreements (docs/fidelity.md).
 *
 * Usage: wgmma_descriptors [--far G] OUTDIR   (gpu/run.sh descriptors) */
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_util.cuh"
#include "tc5/descriptors.h"
#include "tc5/layout.h"

enum Op { F16_K, F16_MN, TF32_K, U8_K, NOPS };
static const int esz_of[NOPS] = {2, 2, 4, 1};
static const int kinst_of[NOPS] = {16, 16, 8, 32};
static const char *op_name[NOPS] = {"f16_K", "f16_MN", "tf32_K", "u8_K"};

#define IMG_BYTES (200 * 1024) /* the slot image */
#define B_BYTES 2048           /* the identity: N x K, K-major, no swizzle */

template <int OP>
__device__ void mma(uint64_t da, uint64_t db, uint32_t *out, int t) {
  if constexpr (OP == F16_K || OP == F16_MN) {
    float d[8] = {0};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, %11, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
        : "l"(da), "l"(db), "r"(0), "n"(OP == F16_MN ? 1 : 0)
        : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 8; i++) out[frag_row(t, i) * 32 + frag_col(t, i)] = (uint32_t)d[i];
  } else if constexpr (OP == TF32_K) {
    float d[4] = {0};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "l"(da), "l"(db), "r"(0)
        : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) out[frag_row(t, i) * 32 + frag_col(t, i)] = (uint32_t)d[i];
  } else {
    int32_t d[16] = {0};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, p;\n}\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),
          "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
        : "l"(da), "l"(db), "r"(0)
        : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 16; i++) out[frag_row(t, i) * 32 + frag_col(t, i)] = (uint32_t)d[i];
  }
}

/* one CTA per descriptor; the start field is relative to the image, the
 * shared window's base added here */
template <int OP>
__global__ void __launch_bounds__(128) probe(const uint8_t *img, const uint8_t *ident, const uint64_t *descs,
                                             uint32_t *out, uint32_t *base) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const int t = threadIdx.x;
  for (int i = t * 16; i < IMG_BYTES; i += 128 * 16) *(uint4 *)(smem + i) = *(const uint4 *)(img + i);
  for (int i = t * 16; i < B_BYTES; i += 128 * 16) *(uint4 *)(smem + IMG_BYTES + i) = *(const uint4 *)(ident + i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t sbase = (uint32_t)__cvta_generic_to_shared(smem);
  if (blockIdx.x == 0 && t == 0) *base = sbase;
  uint64_t da = descs[blockIdx.x] + (sbase >> 4);
  const int N = OP == TF32_K ? 8 : OP == U8_K ? 32 : 16;
  uint64_t db = (uint64_t)(((sbase + IMG_BYTES) >> 4) & 0x3FFF) | (uint64_t)((N / 8 * 128) >> 4) << 16 |
                (uint64_t)(128 >> 4) << 32;
  mma<OP>(da, db, out + (size_t)blockIdx.x * 64 * 32, t);
}

static tc5_operand operand_of(int op) {
  tc5_operand o;
  o.type = op == TF32_K ? TC5_TF32 : op == U8_K ? TC5_U8 : TC5_F16;
  o.major = op == F16_MN ? TC5_MAJOR_MN : TC5_MAJOR_K;
  o.packing = TC5_PACK_NATURAL;
  return o;
}

static void make_image(int op, int pass, std::vector<uint8_t> &img) {
  img.assign(IMG_BYTES, 0);
  int esz = esz_of[op];
  for (int s = 0; s < IMG_BYTES / esz; s++) {
    unsigned v = (unsigned)(s >> (8 * pass)) & 255;
    if (op == U8_K) img[s] = (uint8_t)v;
    else if (op == TF32_K) {
      float f = 256.0f + (float)v;
      memcpy(&img[(size_t)s * 4], &f, 4);
    } else {
      uint16_t h = (uint16_t)(23u << 10 | (v << 2));
      memcpy(&img[(size_t)s * 2], &h, 2);
    }
  }
}

static void make_identity(int op, std::vector<uint8_t> &b) {
  b.assign(B_BYTES, 0);
  int N = kinst_of[op], K = kinst_of[op], esz = esz_of[op];
  tc5_operand o = operand_of(op);
  o.major = TC5_MAJOR_K;
  tc5_smem_desc d;
  tc5_smem_desc_init(&d);
  d.lbo = N / 8 * 128;
  d.sbo = 128;
  for (int n = 0; n < N; n++)
    for (int k = 0; k < K; k++) {
      tc5_elem_loc l;
      tc5_layout_addr(&d, &o, n, k, &l, NULL);
      uint32_t one = op == U8_K ? 1u : op == TF32_K ? 0x3F800000u : 0x3C00u;
      if (n == k) memcpy(&b[l.addr], &one, esz);
    }
}

struct Config {
  int op;
  uint64_t desc;
  std::string what;
};

static uint64_t with(uint64_t d, int lo, int bits, uint64_t v) {
  uint64_t m = ((1ull << bits) - 1) << lo;
  return (d & ~m) | (v << lo & m);
}

static std::vector<Config> configs(int far) {
  std::vector<Config> cs;
  const tc5_swizzle sws[] = {TC5_SWIZZLE_NONE, TC5_SWIZZLE_32B, TC5_SWIZZLE_64B, TC5_SWIZZLE_128B};
  for (int op = 0; op < NOPS; op++) {
    tc5_operand o = operand_of(op);
    for (tc5_swizzle sw : sws) {
      tc5_smem_desc d0;
      uint32_t bytes;
      if (tc5_layout_canonical(4096, sw, &o, 64, (unsigned)kinst_of[op], &d0, &bytes, NULL) != TC5_OK) continue;
      uint64_t raw;
      if (tc5_smem_desc_to_wgmma(&d0, &raw, NULL) != TC5_OK) continue;
      std::string sn = tc5_swizzle_name(sw);
      if (far >= 0) { /* group `far`: f16 operands only, a process each group (a fault loses one) */
        const uint64_t fd[5] = {with(raw, 16, 14, 0x3fff), raw | 3ull << 14, raw | 3ull << 30, raw | 7ull << 46,
                                raw | 0x3ffull << 52};
        static const char *fw[5] = {"_lbo=0x3fff", "_bits_14-15", "_bits_30-31", "_bits_46-48", "_bits_52-61"};
        if (op == F16_K || op == F16_MN) cs.push_back({op, fd[far], sn + fw[far]});
        continue;
      }
      cs.push_back({op, raw, sn + "_canonical"});
      const uint64_t vals[] = {0, 1, 0x300};
      for (uint64_t v : vals) {
        char w[64];
        snprintf(w, sizeof w, "_lbo=0x%llx", (unsigned long long)v);
        cs.push_back({op, with(raw, 16, 14, v), sn + w});
        snprintf(w, sizeof w, "_sbo=0x%llx", (unsigned long long)v);
        cs.push_back({op, with(raw, 32, 14, v), sn + w});
        snprintf(w, sizeof w, "_lbo=sbo=0x%llx", (unsigned long long)v);
        cs.push_back({op, with(with(raw, 16, 14, v), 32, 14, v), sn + w});
      }
      for (int r : {0, 3})
        for (int b = 0; b < 8; b++) {
          char w[64];
          snprintf(w, sizeof w, "_start+%d_base_offset=%d", 128 * r, b);
          uint64_t q = with(with(raw, 0, 14, (8192u + 128u * r) >> 4), 49, 3, (uint64_t)b);
          cs.push_back({op, q, sn + w});
        }
    }
  }
  return cs;
}

template <int OP>
static void launch(const uint8_t *img, const uint8_t *id, const uint64_t *descs, uint32_t *out, uint32_t *base, int n) {
  int smem = IMG_BYTES + B_BYTES;
  CK(cudaFuncSetAttribute(probe<OP>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  probe<OP><<<n, 128, smem>>>(img, id, descs, out, base);
  CK(cudaGetLastError());
}

static void run(int op, const std::vector<const Config *> &cs, int pass, std::vector<uint32_t> &d, uint32_t *sbase) {
  size_t n = cs.size();
  d.assign(n * 64 * 32, 0);
  std::vector<uint8_t> img, id;
  make_image(op, pass, img);
  make_identity(op, id);
  std::vector<uint64_t> descs(n);
  for (size_t c = 0; c < n; c++) descs[c] = cs[c]->desc;
  uint8_t *dimg, *did;
  uint64_t *ddesc;
  uint32_t *dout, *dbase;
  CK(cudaMalloc(&dimg, img.size()));
  CK(cudaMalloc(&did, id.size()));
  CK(cudaMalloc(&ddesc, n * 8));
  CK(cudaMalloc(&dout, d.size() * 4));
  CK(cudaMalloc(&dbase, 4));
  CK(cudaMemcpy(dimg, img.data(), img.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(did, id.data(), id.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ddesc, descs.data(), n * 8, cudaMemcpyHostToDevice));
  switch (op) {
  case F16_K: launch<F16_K>(dimg, did, ddesc, dout, dbase, (int)n); break;
  case F16_MN: launch<F16_MN>(dimg, did, ddesc, dout, dbase, (int)n); break;
  case TF32_K: launch<TF32_K>(dimg, did, ddesc, dout, dbase, (int)n); break;
  default: launch<U8_K>(dimg, did, ddesc, dout, dbase, (int)n); break;
  }
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(d.data(), dout, d.size() * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sbase, dbase, 4, cudaMemcpyDeviceToHost));
  cudaFree(dimg), cudaFree(did), cudaFree(ddesc), cudaFree(dout), cudaFree(dbase);
}

int main(int argc, char **argv) {
  int ai = 1;
  int far = -1;
  if (argc > 2 && !strcmp(argv[1], "--far")) far = atoi(argv[2]), ai += 2;
  if (far > 4) return 2;
  const char *outdir = argc > ai ? argv[ai] : ".";
  std::string vp = std::string(outdir) + (far >= 0 ? "/descriptors-far" + std::to_string(far) + ".txt" : "/descriptors.txt");
  FILE *vf = fopen(vp.c_str(), "w");
  if (!vf) {
    perror(vp.c_str());
    return 2;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  fprintf(vf, "# wgmma descriptors on %s (gpu/wgmma_descriptors.cu%s): DESC OPERAND WHAT OFFSETS\n", prop.name,
          far >= 0 ? " --far" : "");
  std::vector<Config> all = configs(far);
  unsigned n = 0;
  for (int op = 0; op < NOPS; op++) {
    std::vector<const Config *> cs;
    for (auto &c : all)
      if (c.op == op) cs.push_back(&c);
    if (cs.empty()) continue;
    std::vector<uint32_t> d[3];
    uint32_t base = 0;
    for (int p = 0; p < 3; p++) run(op, cs, p, d[p], &base);
    int K = kinst_of[op], esz = esz_of[op];
    for (size_t c = 0; c < cs.size(); c++) {
      std::vector<long> offs;
      for (int m = 0; m < 64; m++)
        for (int k = 0; k < K; k++) {
          size_t i = c * 2048 + m * 32 + k;
          uint32_t v[3];
          for (int p = 0; p < 3; p++) v[p] = d[p][i] - (op == U8_K ? 0 : 256);
          offs.push_back((long)((v[2] << 16 | v[1] << 8 | v[0]) * (uint32_t)esz));
        }
      fprintf(vf, "%016llx %s %s ", (unsigned long long)cs[c]->desc, op_name[op], cs[c]->what.c_str());
      for (size_t i = 0; i < offs.size();) { /* runs first:step:count */
        size_t j = i + 1;
        long step = j < offs.size() ? offs[j] - offs[i] : 0;
        while (j < offs.size() && offs[j] - offs[j - 1] == step) j++;
        fprintf(vf, "%s%ld:%ld:%zu", i ? "," : "", offs[i], step, j - i);
        i = j;
      }
      fprintf(vf, "\n");
      n++;
    }
  }
  fclose(vf);
  printf("%u descriptors read by wgmma on %s: %s\n", n, prop.name, vp.c_str());
  return 0;
}
