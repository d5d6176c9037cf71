/* tc5 on silicon: the canonical shared-memory layouts as Hopper's wgmma
 * reads them, against tc5's address function.
 *
 * Shared memory is filled so that every element slot holds a value that
 * names the slot (two passes of 8 bits each); wgmma m64nNk multiplies the
 * operand A, read through a descriptor, by B = identity, so D[m][k] is the
 * value of the slot that the hardware took for element (m, k) of A. For
 * every swizzle mode x major-ness x element size that wgmma has (16-bit K-
 * and M-major, tf32 and 8-bit K-major: Hopper transposes only 16-bit
 * operands), for each K block of a canonical tile, for padded strides and
 * for patterns that start off their boundary with several base offsets,
 * every element's address is compared with tc5_layout_addr.
 *
 * Usage: wgmma_layout [--dry-run] OUTDIR   (gpu/run.sh layout builds and runs it)
 * Writes OUTDIR/summary.txt and OUTDIR/hopper-layouts.txt: one line per
 * configuration in the smem-layouts vectors format (the silicon's offsets),
 * which `tc5 vectors check` reads. Exit status 0 when every address matches.
 *
 * Descriptor (PTX wgmma "Matrix Descriptor Format"): start >> 4 in bits
 * 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset in 49-51, layout
 * type in 62-63 (tc5_smem_desc_to_wgmma). Accumulator fragment of m64nN:
 * gpu/gpu_util.cuh. */
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
static const int kinst_of[NOPS] = {16, 16, 8, 32}; /* K of one wgmma = N of the identity */

#define IMG_BYTES (64 * 1024) /* the slot image: A lives somewhere in it */
#define B_BYTES 2048          /* the identity: N x K, K-major, no swizzle  */

/* ---- device ------------------------------------------------------------------ */


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

/* one CTA per configuration: copy the image and the identity into shared
 * memory, read A through its descriptor (start relative to the shared
 * window's base, added here), write D (64 x 32 codes) */
template <int OP>
__global__ void __launch_bounds__(128) probe(const uint8_t *img, const uint8_t *ident,
                                             const uint64_t *descs, uint32_t *out, uint32_t *base) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const int t = threadIdx.x;
  for (int i = t * 16; i < IMG_BYTES; i += 128 * 16) *(uint4 *)(smem + i) = *(const uint4 *)(img + i);
  for (int i = t * 16; i < B_BYTES; i += 128 * 16) *(uint4 *)(smem + IMG_BYTES + i) = *(const uint4 *)(ident + i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t sbase = (uint32_t)__cvta_generic_to_shared(smem);
  if (blockIdx.x == 0 && t == 0) *base = sbase;
  uint64_t da = descs[blockIdx.x] + (sbase >> 4);
  /* B: N x K identity, K-major no swizzle: LBO = (N/8)*128, SBO = 128 */
  const int N = OP == TF32_K ? 8 : OP == U8_K ? 32 : 16;
  uint64_t db = (uint64_t)(((sbase + IMG_BYTES) >> 4) & 0x3FFF) | (uint64_t)((N / 8 * 128) >> 4) << 16 |
                (uint64_t)(128 >> 4) << 32;
  mma<OP>(da, db, out + (size_t)blockIdx.x * 64 * 32, t);
}

/* ---- host ---------------------------------------------------------------------- */

struct Config {
  Op op;
  tc5_smem_desc d; /* start relative to the shared window's base */
  std::string what;
};

static tc5_operand operand_of(Op op) {
  tc5_operand o;
  o.type = op == TF32_K ? TC5_TF32 : op == U8_K ? TC5_U8 : TC5_F16;
  o.major = op == F16_MN ? TC5_MAJOR_MN : TC5_MAJOR_K;
  o.packing = TC5_PACK_NATURAL;
  return o;
}

/* the slot image of pass p: slot s holds (s >> 8p) & 255, as a value that D
 * returns exactly (f16/tf32: 256 + that; u8: that) */
static void make_image(Op op, int pass, std::vector<uint8_t> &img) {
  img.assign(IMG_BYTES, 0);
  int esz = esz_of[op];
  for (int s = 0; s < IMG_BYTES / esz; s++) {
    unsigned v = (unsigned)(s >> (8 * pass)) & 255;
    if (op == U8_K) img[s] = (uint8_t)v;
    else if (op == TF32_K) {
      float f = 256.0f + (float)v;
      memcpy(&img[(size_t)s * 4], &f, 4);
    } else {
      /* f16 of 256 + v: exponent 8 (bias 15 -> 23), mantissa v << 2 */
      uint16_t h = (uint16_t)(23u << 10 | (v << 2));
      memcpy(&img[(size_t)s * 2], &h, 2);
    }
  }
}

static void make_identity(Op op, std::vector<uint8_t> &b) {
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

static void add(std::vector<Config> &cs, Op op, const tc5_smem_desc &d, const std::string &what) {
  cs.push_back({op, d, what});
}

static std::vector<Config> configs() {
  std::vector<Config> cs;
  const tc5_swizzle sws[] = {TC5_SWIZZLE_NONE, TC5_SWIZZLE_32B, TC5_SWIZZLE_64B, TC5_SWIZZLE_128B};
  for (int op = 0; op < NOPS; op++) {
    tc5_operand o = operand_of((Op)op);
    int K = kinst_of[op];
    for (tc5_swizzle sw : sws) {
      const char *swn = tc5_swizzle_name(sw);
      /* a canonical 64 x 4K tile at 4096: each K block */
      tc5_smem_desc d0;
      uint32_t bytes;
      if (tc5_layout_canonical(4096, sw, &o, 64, 4 * K, &d0, &bytes, NULL) != TC5_OK) continue;
      for (int j = 0; j < 4; j++) {
        tc5_smem_desc dk;
        tc5_layout_kblock(&d0, &o, 64, (unsigned)(j * K), &dk, NULL);
        add(cs, (Op)op, dk, std::string("canonical ") + swn + " kblock " + std::to_string(j));
      }
      /* padded strides: every LBO/SBO one 256 (or 1024) bytes larger */
      tc5_smem_desc p = d0;
      p.sbo += sw == TC5_SWIZZLE_NONE ? 256 : 1024;
      if (!(o.major == TC5_MAJOR_K && sw != TC5_SWIZZLE_NONE)) p.lbo += sw == TC5_SWIZZLE_NONE ? 512 : 1024;
      add(cs, (Op)op, p, std::string("padded ") + swn);
      /* a pattern that starts off its boundary: start 8192 + 128 r, with
       * the base offset of Table 41 and with others */
      if (sw != TC5_SWIZZLE_NONE) {
        for (int r : {1, 3})
          for (int b : {0, r, (r + 2) % 8}) {
            tc5_smem_desc q = d0;
            q.start_address = 8192 + 128 * r;
            q.base_offset = (uint8_t)b;
            add(cs, (Op)op, q, std::string("pattern at +") + std::to_string(128 * r) + " " + swn +
                                   " base_offset " + std::to_string(b));
          }
      }
    }
  }
  return cs;
}

template <int OP>
static void launch(const uint8_t *img, const uint8_t *id, const uint64_t *descs, uint32_t *out, uint32_t *base,
                   int n) {
  int smem = IMG_BYTES + B_BYTES;
  CK(cudaFuncSetAttribute(probe<OP>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  probe<OP><<<n, 128, smem>>>(img, id, descs, out, base);
  CK(cudaGetLastError());
}

static bool dry_run;

/* D of every configuration of one operand kind, for one image pass */
static void run(Op op, const std::vector<const Config *> &cs, int pass, std::vector<uint32_t> &d,
                uint32_t *sbase) {
  size_t n = cs.size();
  d.assign(n * 64 * 32, 0);
  std::vector<uint8_t> img, id;
  make_image(op, pass, img);
  make_identity(op, id);
  if (dry_run) { /* D from tc5's own addresses: checks the harness */
    *sbase = 0;
    tc5_operand o = operand_of(op);
    for (size_t c = 0; c < n; c++)
      for (int m = 0; m < 64; m++)
        for (int k = 0; k < kinst_of[op]; k++) {
          tc5_elem_loc l;
          tc5_layout_addr(&cs[c]->d, &o, m, k, &l, NULL);
          unsigned slot = l.addr / esz_of[op];
          d[c * 2048 + m * 32 + k] = op == U8_K ? (slot >> 8 * pass) & 255 : 256 + ((slot >> 8 * pass) & 255);
        }
    return;
  }
  std::vector<uint64_t> descs(n);
  for (size_t c = 0; c < n; c++) {
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_smem_desc_to_wgmma(&cs[c]->d, &descs[c], &dg) != TC5_OK) {
      fprintf(stderr, "descriptor: %s\n", dg.count ? dg.issue[0].message : "?");
      exit(2);
    }
  }
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
  if (argc > 1 && !strcmp(argv[1], "--dry-run")) dry_run = true, ai++;
  const char *outdir = argc > ai ? argv[ai] : ".";
  std::string sp = std::string(outdir) + "/summary.txt", vp = std::string(outdir) + "/hopper-layouts.txt";
  FILE *sum = fopen(sp.c_str(), "w"), *vf = fopen(vp.c_str(), "w");
  if (!sum || !vf) {
    perror(outdir);
    return 2;
  }
  char devname[256] = "dry run (tc5 itself)";
  if (!dry_run) {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    snprintf(devname, sizeof devname, "%s", prop.name);
  }
  fprintf(sum, "device: %s\n", devname);
  fprintf(vf, "# shared-memory offsets read by H100 wgmma (gpu/wgmma_layout.cu), device %s\n"
              "# smem_desc= is the tcgen05 descriptor with the same fields; wgmma_desc= what ran\n",
          devname);
  std::vector<Config> all = configs();
  unsigned total = 0, bad_cfg = 0;
  unsigned long long elems = 0, bad_elems = 0;
  for (int op = 0; op < NOPS; op++) {
    std::vector<const Config *> cs;
    for (auto &c : all)
      if (c.op == op) cs.push_back(&c);
    std::vector<uint32_t> d0, d1;
    uint32_t base = 0, base1 = 0;
    run((Op)op, cs, 0, d0, &base);
    run((Op)op, cs, 1, d1, &base1);
    tc5_operand o = operand_of((Op)op);
    int K = kinst_of[op], esz = esz_of[op];
    for (size_t c = 0; c < cs.size(); c++) {
      tc5_smem_desc d = cs[c]->d;
      d.start_address += base; /* absolute */
      /* which reading of the base offset the silicon follows: as tc5
       * models it, ignored (0), or added instead of subtracted */
      tc5_smem_desc alt[3] = {d, d, d};
      alt[1].base_offset = 0;
      alt[2].base_offset = (uint8_t)((8 - d.base_offset) & 7);
      unsigned mism[3] = {0, 0, 0};
      std::string offs;
      for (int m = 0; m < 64; m++)
        for (int k = 0; k < K; k++) {
          size_t i = c * 2048 + m * 32 + k;
          uint32_t v0 = d0[i], v1 = d1[i];
          if (op != U8_K) v0 -= 256, v1 -= 256;
          uint32_t addr = base + ((v1 << 8 | v0) * (uint32_t)esz);
          if (!offs.empty()) offs += ",";
          offs += std::to_string(addr);
          for (int h = 0; h < 3; h++) {
            tc5_elem_loc l;
            tc5_layout_addr(&alt[h], &o, m, k, &l, NULL);
            mism[h] += l.addr != addr;
          }
        }
      total++;
      elems += 64u * K;
      bad_elems += mism[0];
      if (mism[0]) bad_cfg++;
      uint64_t raw = 0, wraw = 0;
      tc5_smem_desc_encode(&d, &raw, NULL);
      tc5_smem_desc_to_wgmma(&d, &wraw, NULL);
      fprintf(sum, "%-6s %-44s tc5 %s (%u of %d differ); base offset ignored: %u, added: %u\n",
              op == F16_K ? "f16 K" : op == F16_MN ? "f16 MN" : op == TF32_K ? "tf32 K" : "u8 K",
              cs[c]->what.c_str(), mism[0] ? "MISMATCH" : "match", mism[0], 64 * K, mism[1], mism[2]);
      fprintf(vf, "smem_desc=%016llx wgmma_desc=%016llx type=%s major=%s mn=64 k=%d start=%u what=%s offsets=%s\n",
              (unsigned long long)raw, (unsigned long long)wraw, tc5_type_name(o.type), tc5_major_name(o.major), K,
              d.start_address, [&] {
                std::string w = cs[c]->what;
                for (auto &ch : w)
                  if (ch == ' ') ch = '_';
                return w;
              }().c_str(),
              offs.c_str());
    }
  }
  fprintf(sum, "%u configurations, %llu element addresses: %u configurations and %llu addresses differ\n", total,
          elems, bad_cfg, bad_elems);
  printf("%u configurations, %llu element addresses: %u configurations and %llu addresses differ\n", total, elems,
         bad_cfg, bad_elems);
  fclose(sum);
  fclose(vf);
  return bad_cfg ? 1 : 0;
}
