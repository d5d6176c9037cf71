/* tc5 on silicon: the arithmetic of sparse MMA, settled on the H100 with
 * wgmma.mma_async.sp (issue 17: Hopper's sparse datapath answers the two
 * questions the tcgen05 text leaves open, and tc5 applies the answer to
 * tcgen05.mma.sp).
 *
 *  Q1  Does a fused step take 16 kept products (32 logical K of f16) or the
 *      products of 16 logical K (8 kept)? This changes ordinary results.
 *  Q2  Is an elided element a zero product that takes part in the step's
 *      alignment (at the zero-term exponent, -133) or no term at all? This
 *      changes tiny results, when no other zero term (a zero C) is there:
 *      so the probe runs with scale-d = 0, and a dense control tells
 *      whether a disabled C is itself a zero term.
 *
 * Each tile is one m64n64 instruction, A and B in shared memory (K-major,
 * no swizzle; the compressed A, M x K/2, in the layout of a dense A of K/2),
 * C in the accumulator registers. The metadata register holds the same
 * nibble for every group of four in every thread (a random valid 2-of-4
 * pattern per tile), so that which thread's metadata serves which row does
 * not matter; sparsity selector 0. Every output is compared with tc5's
 * Hopper model under four hypotheses:
 *   zero/16L: A expanded to K with zeros where elided, steps of the dense
 *             kind's logical K (16 f16, 32 fp8)
 *   zero/32L: expanded, steps of twice that (16 kept f16 products)
 *   none/8k:  the kept products only (B gathered), steps of 8 kept (f16)
 *             or 16 (fp8), and no zero term at all (zero_exp -600)
 *   none/16k: the kept products only, steps of 16 kept (f16) or 32 (fp8)
 * and prints the mismatches of each, per kind and input distribution.
 *
 * Usage: wgmma_sparse [--dry-run] OUTDIR   (gpu/run.sh sparse; --dry-run takes
 * the first hypothesis for the silicon, to show how far apart the
 * hypotheses are on these inputs, without a GPU). Writes
 * OUTDIR/sparse-summary.txt. Exit 0 when one hypothesis matches every
 * output of every kind, 1 otherwise, 2 on errors. */
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gpu_util.cuh"
#include "tc5/arith.h"
#include "tc5/formats.h"

#include "kernels/wgmma_tile.cuh" /* WG_MMA32_META, make_desc */

enum Kind { F16_SP, BF16_SP, E4M3_SP, BF16_DENSE, NKINDS };

/* one instruction: sparse kinds take the metadata %34 and selector 0 */
template <int K>
__device__ __forceinline__ void mma(float (&d)[32], uint64_t da, uint64_t db, uint32_t meta, uint32_t scale_d) {
  if constexpr (K == F16_SP)
    WG_MMA32_META("sp.sync.aligned.m64n64k32.f32.f16.f16", ", %34, 0, p, 1, 1, 0, 0", scale_d);
  else if constexpr (K == BF16_SP)
    WG_MMA32_META("sp.sync.aligned.m64n64k32.f32.bf16.bf16", ", %34, 0, p, 1, 1, 0, 0", scale_d);
  else if constexpr (K == E4M3_SP)
    WG_MMA32_META("sp.sync.aligned.m64n64k64.f32.e4m3.e4m3", ", %34, 0, p, 1, 1", scale_d);
  else /* the dense control: meta unused */
    WG_MMA32_META("sync.aligned.m64n64k16.f32.bf16.bf16", ", p, 1, 1, 0, 0", scale_d);
}

/* abytes / bbytes: bytes a row of A (compressed) / a column of B */
template <int K>
__global__ void __launch_bounds__(128) tiles_kernel(const uint8_t *A, const uint8_t *B, const uint32_t *C,
                                                    const uint32_t *meta, const uint32_t *scale_d, uint32_t *D,
                                                    int abytes, int bbytes, int tiles) {
  __shared__ __align__(1024) uint8_t sa[64 * 64], sb[64 * 64];
  const int t = threadIdx.x;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const uint8_t *ga = A + (size_t)tile * 64 * abytes, *gb = B + (size_t)tile * 64 * bbytes;
    for (int c = t; c < 64 * abytes / 16; c += 128) {
      int r = c / (abytes / 16), kc = c % (abytes / 16);
      *(uint4 *)(sa + (r / 8) * 8 * abytes + kc * 128 + (r % 8) * 16) = *(const uint4 *)(ga + (size_t)c * 16);
    }
    for (int c = t; c < 64 * bbytes / 16; c += 128) {
      int r = c / (bbytes / 16), kc = c % (bbytes / 16);
      *(uint4 *)(sb + (r / 8) * 8 * bbytes + kc * 128 + (r % 8) * 16) = *(const uint4 *)(gb + (size_t)c * 16);
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const uint32_t *gc = C + (size_t)tile * 4096;
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = __uint_as_float(gc[frag_row(t, i) * 64 + frag_col(t, i)]);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    mma<K>(d, make_desc(sa, abytes / 16), make_desc(sb, bbytes / 16), meta[tile], scale_d[tile]);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 32; i++) D[(size_t)tile * 4096 + frag_row(t, i) * 64 + frag_col(t, i)] = __float_as_uint(d[i]);
    __syncthreads();
  }
}

/* ---- host ---------------------------------------------------------------------- */

struct KindInfo {
  Kind id;
  const char *name;
  tc5_kind kind;
  tc5_type t;
  int esz, K; /* element bytes, logical K of the instruction */
  bool sparse;
};
static const KindInfo kinds[NKINDS] = {
    {F16_SP, "m64n64k32.sp f16 -> f32", TC5_KIND_F16, TC5_F16, 2, 32, true},
    {BF16_SP, "m64n64k32.sp bf16 -> f32", TC5_KIND_F16, TC5_BF16, 2, 32, true},
    {E4M3_SP, "m64n64k64.sp e4m3 -> f32", TC5_KIND_F8F6F4, TC5_E4M3, 1, 64, true},
    {BF16_DENSE, "m64n64k16 bf16 -> f32 (dense control)", TC5_KIND_F16, TC5_BF16, 2, 16, false},
};

enum Dist { NARROW, WIDE, TINY_NOC, TINY_ZEROC, NDIST };
static const char *dist_name[NDIST] = {"narrow", "wide", "tiny, scale-d 0", "tiny, C = 0"};

static uint64_t rnd() { return splitmix(); }
static double unif() { return splitmix_unif(); }

static uint32_t gen(tc5_type t, Dist d) {
  double v;
  switch (d) {
  case NARROW: v = (1 + unif()) * ldexp(1.0, (int)(rnd() % 7) - 3); break;   /* cancellation and carries */
  case WIDE: v = (1 + unif()) * ldexp(1.0, (int)(rnd() % 25) - 12); break;   /* alignment of far terms */
  default: v = (1 + unif()) * ldexp(1.0, -67 - (int)(rnd() % 9)); break; /* products 2^-150 .. 2^-132 */
  }
  if (t == TC5_E4M3 && d != NARROW) v = (1 + unif()) * ldexp(1.0, (int)(rnd() % 13) - 6);
  if (rnd() & 1) v = -v;
  uint32_t c = 0;
  tc5_fmt_encode(t, v, d >= TINY_NOC ? TC5_ROUND_RZ : TC5_ROUND_RN, true, &c);
  return c;
}

/* the valid 2-of-4 nibbles: kept indices i0 < i1, i0 in bits 0-1, i1 in 2-3 */
static const uint32_t nibbles[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};

int main(int argc, char **argv) {
  splitmix_state = 0x5eed5eedull;
  bool dry = argc > 1 && !strcmp(argv[1], "--dry-run");
  const char *outdir = argc > 1 + dry ? argv[1 + dry] : ".";
  char path[512];
  snprintf(path, sizeof path, "%s/sparse-summary.txt", outdir);
  FILE *sum = fopen(path, "w");
  if (!sum) {
    fprintf(stderr, "wgmma_sparse: cannot write %s\n", path);
    return 2;
  }
  const int TILES = 256; /* per kind and distribution */
  enum { NZ = 41 };       /* zero-term exponents -160 .. -120 */
  static unsigned long long zbad[NKINDS][NZ];
  int nshow = 0;
  snprintf(path, sizeof path, "%s/sparse-mismatches.txt", outdir);
  FILE *vec = fopen(path, "w");
  snprintf(path, sizeof path, "%s/sparse-summary.txt", outdir);
  if (!vec) return 2;
  const char *hname[4] = {"zero/16L", "zero/32L", "none/8k", "none/16k"};
  bool any_full = true;
  for (int ki = 0; ki < NKINDS; ki++) {
    const KindInfo &k = kinds[ki];
    int KL = k.K, KC = k.sparse ? KL / 2 : KL, abytes = KC * k.esz, bbytes = KL * k.esz;
    unsigned long long bad[4] = {0, 0, 0, 0}, n = 0;
    unsigned long long bad_d[NDIST][4] = {{0}};
    for (int di = 0; di < NDIST; di++) {
      Dist dist = (Dist)di;
      std::vector<uint32_t> a((size_t)TILES * 64 * KC), b((size_t)TILES * 64 * KL), c((size_t)TILES * 4096),
          d((size_t)TILES * 4096), meta(TILES), sd(TILES);
      for (auto &x : a) x = gen(k.t, dist);
      for (auto &x : b) x = gen(k.t, dist);
      for (size_t i = 0; i < c.size(); i++) {
        float f = dist >= TINY_NOC ? 0.0f : (float)((1 + unif()) * ldexp(1.0, (int)(rnd() % 7) - 3));
        if (dist == TINY_NOC) f = (float)ldexp(1.0 + unif(), -5); /* ignored: scale-d 0 */
        memcpy(&c[i], &f, 4);
      }
      for (int tl = 0; tl < TILES; tl++) {
        uint32_t nb = nibbles[rnd() % 6];
        meta[tl] = nb * 0x11111111u;
        sd[tl] = dist == TINY_NOC ? 0 : 1;
      }
      if (dry) {
        d = c; /* checks the harness only */
      } else {
        std::vector<uint8_t> ab(a.size() * k.esz), bb(b.size() * k.esz);
        for (size_t i = 0; i < a.size(); i++)
          for (int j = 0; j < k.esz; j++) ab[i * k.esz + j] = (uint8_t)(a[i] >> (8 * j));
        for (size_t i = 0; i < b.size(); i++)
          for (int j = 0; j < k.esz; j++) bb[i * k.esz + j] = (uint8_t)(b[i] >> (8 * j));
        uint8_t *dA, *dB;
        uint32_t *dC, *dD, *dM, *dS;
        CK(cudaMalloc(&dA, ab.size()));
        CK(cudaMalloc(&dB, bb.size()));
        CK(cudaMalloc(&dC, c.size() * 4));
        CK(cudaMalloc(&dD, d.size() * 4));
        CK(cudaMalloc(&dM, TILES * 4));
        CK(cudaMalloc(&dS, TILES * 4));
        CK(cudaMemcpy(dA, ab.data(), ab.size(), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, bb.data(), bb.size(), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dC, c.data(), c.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dM, meta.data(), TILES * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dS, sd.data(), TILES * 4, cudaMemcpyHostToDevice));
        switch (k.id) {
        case F16_SP: tiles_kernel<F16_SP><<<132, 128>>>(dA, dB, dC, dM, dS, dD, abytes, bbytes, TILES); break;
        case BF16_SP: tiles_kernel<BF16_SP><<<132, 128>>>(dA, dB, dC, dM, dS, dD, abytes, bbytes, TILES); break;
        case E4M3_SP: tiles_kernel<E4M3_SP><<<132, 128>>>(dA, dB, dC, dM, dS, dD, abytes, bbytes, TILES); break;
        default: tiles_kernel<BF16_DENSE><<<132, 128>>>(dA, dB, dC, dM, dS, dD, abytes, bbytes, TILES); break;
        }
        CK(cudaGetLastError());
        CK(cudaMemcpy(d.data(), dD, d.size() * 4, cudaMemcpyDeviceToHost));
        cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dD), cudaFree(dM), cudaFree(dS);
      }
      /* the four hypotheses */
      tc5_dot base;
      if (tc5_dot_model(TC5_MODEL_HOPPER, k.kind, k.t, k.t, TC5_F32, TC5_TYPE_NONE, 0, false, &base, NULL)) return 2;
      unsigned L = base.chunk; /* the dense step: 16 f16/bf16, 32 fp8 */
      std::vector<uint32_t> ax(KL), bx(KL), ac(KC), bc(KC);
      for (int tl = 0; tl < TILES; tl++) {
        uint32_t nb = meta[tl] & 0xF, i0 = nb & 3, i1 = nb >> 2;
        tc5_dot_opts o;
        tc5_dot_opts_init(&o);
        o.enable_input_d = sd[tl] != 0;
        for (int r = 0; r < 64; r++)
          for (int col = 0; col < 64; col++) {
            const uint32_t *ar = &a[((size_t)tl * 64 + r) * KC], *bcol = &b[((size_t)tl * 64 + col) * KL];
            for (int kk = 0; kk < KL; kk++) ax[kk] = 0, bx[kk] = bcol[kk];
            for (int j = 0; j < KC; j++) {
              int kk = k.sparse ? 4 * (j / 2) + (int)(j % 2 ? i1 : i0) : j;
              ax[kk] = ar[j];
              ac[j] = ar[j];
              bc[j] = bcol[kk];
            }
            uint32_t cc = c[(size_t)tl * 4096 + r * 64 + col], got = d[(size_t)tl * 4096 + r * 64 + col], h[4];
            tc5_dot m = base;
            m.chunk = L;
            tc5_dot_run(&m, KL, ax.data(), bx.data(), NULL, NULL, cc, &o, &h[0]);
            m.chunk = 2 * L > 64 ? 64 : 2 * L;
            tc5_dot_run(&m, KL, ax.data(), bx.data(), NULL, NULL, cc, &o, &h[1]);
            m.zero_exp = -600;
            m.chunk = L / 2;
            tc5_dot_run(&m, KC, ac.data(), bc.data(), NULL, NULL, cc, &o, &h[2]);
            m.chunk = L;
            tc5_dot_run(&m, KC, ac.data(), bc.data(), NULL, NULL, cc, &o, &h[3]);
            if (dry) got = h[0]; /* --dry-run: how far apart the hypotheses are */
            for (int hi = 0; hi < 4; hi++) bad[hi] += h[hi] != got, bad_d[di][hi] += h[hi] != got;
            /* the tiny inputs: which zero-term exponent fits (steps of 2L) */
            if (dist >= TINY_NOC && k.t == TC5_BF16)
              for (int z = 0; z < NZ; z++) {
                uint32_t hz;
                tc5_dot mz = base;
                mz.chunk = k.sparse ? 2 * L : L;
                mz.zero_exp = -160 + z;
                tc5_dot_run(&mz, KL, ax.data(), bx.data(), NULL, NULL, cc, &o, &hz);
                zbad[ki][z] += hz != got;
              }
            if (h[1] != got && nshow < 12) {
              fprintf(vec, "%s %s: row a=", k.name, dist_name[di]);
              for (int kk = 0; kk < KL; kk++) fprintf(vec, "%s%0*x", kk ? "," : "", 2 * k.esz, ax[kk]);
              fprintf(vec, " b=");
              for (int kk = 0; kk < KL; kk++) fprintf(vec, "%s%0*x", kk ? "," : "", 2 * k.esz, bx[kk]);
              fprintf(vec, " c=%08x scale-d=%u silicon=%08x zero/32L=%08x\n", cc, sd[tl], got, h[1]);
              nshow++;
            }
            n++;
          }
      }
    }
    fprintf(sum, "%s: %llu outputs\n", k.name, n);
    bool full = false;
    for (int hi = 0; hi < 4; hi++) {
      fprintf(sum, "  %-9s %8llu mismatches (", hname[hi], bad[hi]);
      for (int di = 0; di < NDIST; di++) fprintf(sum, "%s%s %llu", di ? ", " : "", dist_name[di], bad_d[di][hi]);
      fprintf(sum, ")\n");
      full |= bad[hi] == 0;
    }
    any_full &= full;
    if (k.t == TC5_BF16) {
      fprintf(sum, "  tiny inputs, zero terms at exponent z (steps of %s): mismatches", k.sparse ? "32L" : "16L");
      for (int z = 0; z < NZ; z++)
        if (z % 4 == 0 || zbad[ki][z] < 40) fprintf(sum, " %d:%llu", -160 + z, zbad[ki][z]);
      fprintf(sum, "\n");
    }
  }
  fclose(vec);
  fclose(sum);
  FILE *f = fopen(path, "r");
  int ch;
  while ((ch = fgetc(f)) != EOF) putchar(ch);
  fclose(f);
  return any_full ? 0 : 1;
}
