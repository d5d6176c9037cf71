// The PTX memory model's litmus tests on the GPU (issue 53): MP, SB, LB and
// IRIW, each with its ordering (none, fence.acq_rel / fence.sc at .cta and
// .cluster / .gpu scope, and for MP a st.release / ld.acquire pair at each
// scope), the threads of an instance placed in one CTA (different warps), in
// different CTAs (any), or in different CTAs of one cluster of 4 (a cluster
// launch: the placement of tc5's cross-CTA tests). A stress harness in the style of GPU litmus testing
// (Alglave et al., "GPU concurrency: weak behaviours and programming
// assumptions", ASPLOS 2015): many instances a launch, the warps of every
// instance and its two locations drawn at random for each launch, a spin
// barrier so that an instance's threads start together, the spare warps
// hammering other lines (memory stress). Every access is .relaxed.gpu
// (morally strong: no data race, PTX ISA 8.6), so each outcome is defined.
//
// Output, one line a variant: test ordering placement instances weak (the
// weak outcome's count) and the counts of (a, b) = 00 01 10 11, where a, b
// are MP: thread 1's r0 = y, r1 = x (weak: 1 0); SB: r0, r1 (weak: 0 0);
// LB: r0, r1 (weak: 1 1); IRIW: a = thread 2 saw x = 1 then y = 0, b =
// thread 3 saw y = 1 then x = 0 (weak: 1 1).
//
// Usage: litmus [LAUNCHES]  (default 2000)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <random>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x)                                                                                         \
  do {                                                                                                \
    cudaError_t e_ = (x);                                                                             \
    if (e_ != cudaSuccess) {                                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                     \
      exit(1);                                                                                        \
    }                                                                                                 \
  } while (0)

enum { MP, SB, LB, IRIW };
enum { O_NONE, O_FACQ_CTA, O_FACQ_GPU, O_FSC_CTA, O_FSC_GPU, O_RA_CTA, O_RA_GPU, O_FACQ_CL, O_FSC_CL, O_RA_CL };
static const char *tname[] = {"MP", "SB", "LB", "IRIW"};
static const char *oname[] = {"none", "fence.acq_rel.cta", "fence.acq_rel.gpu", "fence.sc.cta", "fence.sc.gpu",
                              "rel-acq.cta", "rel-acq.gpu", "fence.acq_rel.cluster", "fence.sc.cluster",
                              "rel-acq.cluster"};
static bool is_ra(int o) { return o == O_RA_CTA || o == O_RA_GPU || o == O_RA_CL; }

__device__ __forceinline__ void st_rlx(unsigned *p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned ld_rlx(unsigned *p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
template <int O> __device__ __forceinline__ void fence() {
  if (O == O_FACQ_CTA) asm volatile("fence.acq_rel.cta;" ::: "memory");
  if (O == O_FACQ_GPU) asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if (O == O_FSC_CTA) asm volatile("fence.sc.cta;" ::: "memory");
  if (O == O_FSC_GPU) asm volatile("fence.sc.gpu;" ::: "memory");
  if (O == O_FACQ_CL) asm volatile("fence.acq_rel.cluster;" ::: "memory");
  if (O == O_FSC_CL) asm volatile("fence.sc.cluster;" ::: "memory");
}
template <int O> __device__ __forceinline__ void st_rel(unsigned *p, unsigned v) {
  if (O == O_RA_CTA) asm volatile("st.release.cta.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if (O == O_RA_GPU) asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if (O == O_RA_CL) asm volatile("st.release.cluster.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else st_rlx(p, v);
}
template <int O> __device__ __forceinline__ unsigned ld_acq(unsigned *p) {
  unsigned v;
  if (O == O_RA_CTA) asm volatile("ld.acquire.cta.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if (O == O_RA_GPU) asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if (O == O_RA_CL) asm volatile("ld.acquire.cluster.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else v = ld_rlx(p);
  return v;
}

// role[warp]: instance * 4 + thread (0..3), or -1: a stressor.
// loc[instance * 2 + {0,1}]: the word offsets of x and y in mem.
template <int T, int O>
__global__ void litmus(const int *role, const unsigned *loc, unsigned *mem, unsigned *bar, unsigned *res,
                       unsigned *scratch, unsigned nscratch, unsigned seed) {
  int wid = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (threadIdx.x % 32) return;
  int r = role[wid];
  if (r < 0) { // stress: loads and stores to other lines while the instances run
    unsigned s = seed ^ (wid * 2654435761u);
    for (int i = 0; i < 128; i++) {
      s = s * 1664525u + 1013904223u;
      unsigned *p = scratch + (s >> 8) % nscratch * 32;
      if (s & 1) st_rlx(p, s);
      else (void)ld_rlx(p);
    }
    return;
  }
  int inst = r / 4, th = r % 4, nth = T == IRIW ? 4 : 2;
  unsigned *x = mem + loc[2 * inst], *y = mem + loc[2 * inst + 1];
  // the instance's threads start together
  atomicAdd(&bar[inst], 1);
  while (atomicAdd(&bar[inst], 0) < (unsigned)nth) {
  }
  unsigned a = 0, b = 0;
  if (T == MP) {
    if (th == 0) { st_rlx(x, 1); fence<O>(); st_rel<O>(y, 1); }
    else { a = ld_acq<O>(y); fence<O>(); b = ld_rlx(x); }
  } else if (T == SB) {
    if (th == 0) { st_rlx(x, 1); fence<O>(); a = ld_rlx(y); }
    else { st_rlx(y, 1); fence<O>(); a = ld_rlx(x); }
  } else if (T == LB) {
    if (th == 0) { a = ld_rlx(x); fence<O>(); st_rlx(y, 1); }
    else { a = ld_rlx(y); fence<O>(); st_rlx(x, 1); }
  } else { // IRIW
    if (th == 0) st_rlx(x, 1);
    else if (th == 1) st_rlx(y, 1);
    else if (th == 2) { a = ld_rlx(x); fence<O>(); b = ld_rlx(y); }
    else { a = ld_rlx(y); fence<O>(); b = ld_rlx(x); }
  }
  res[inst * 8 + th * 2] = a;
  res[inst * 8 + th * 2 + 1] = b;
}

typedef void (*kfn)(const int *, const unsigned *, unsigned *, unsigned *, unsigned *, unsigned *, unsigned, unsigned);
template <int T> static kfn pick(int o) {
  switch (o) {
  case O_NONE: return litmus<T, O_NONE>;
  case O_FACQ_CTA: return litmus<T, O_FACQ_CTA>;
  case O_FACQ_GPU: return litmus<T, O_FACQ_GPU>;
  case O_FSC_CTA: return litmus<T, O_FSC_CTA>;
  case O_FSC_GPU: return litmus<T, O_FSC_GPU>;
  case O_RA_CTA: return litmus<T, O_RA_CTA>;
  case O_FACQ_CL: return litmus<T, O_FACQ_CL>;
  case O_FSC_CL: return litmus<T, O_FSC_CL>;
  case O_RA_CL: return litmus<T, O_RA_CL>;
  default: return litmus<T, O_RA_GPU>;
  }
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? atoi(argv[1]) : 2000;
  int nsm = 0;
  CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
  const int WPC = 8, CTAS = nsm * 2, NW = CTAS * WPC, NLOC = 1 << 16, NSCR = 1 << 14;
  const int CL = 4; // the in-cluster placement's cluster size (IRIW's 4 threads)
  if (CTAS % CL) {
    fprintf(stderr, "litmus: %d CTAs are not clusters of %d\n", CTAS, CL);
    return 1;
  }
  int *d_role;
  unsigned *d_loc, *d_mem, *d_bar, *d_res, *d_scr;
  CK(cudaMalloc(&d_role, NW * 4));
  CK(cudaMalloc(&d_loc, NW * 2 * 4));
  CK(cudaMalloc(&d_mem, (size_t)NLOC * 32 * 4));
  CK(cudaMalloc(&d_bar, NW * 4));
  CK(cudaMalloc(&d_res, NW * 8 * 4));
  CK(cudaMalloc(&d_scr, (size_t)NSCR * 32 * 4));
  std::vector<int> role(NW);
  std::vector<unsigned> loc(NW * 2), res(NW * 8);
  std::mt19937 rng(53);
  printf("# litmus on %s, %d SMs: %d CTAs of %d warps a launch, %d launches a variant\n", [] {
    static cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    return p.name;
  }(), nsm, CTAS, WPC, launches);
  printf("# test ordering placement instances weak outcomes(00 01 10 11 of the two observed values)\n");
  for (int T = MP; T <= IRIW; T++)
    for (int O = O_NONE; O <= O_RA_CL; O++) {
      if (is_ra(O) && T != MP) continue;
      // 0: one CTA, 1: different CTAs (any), 2: different CTAs of one cluster of CL (a cluster launch);
      // the .cluster orderings in one CTA and in one cluster only
      for (int P = 0; P < 3; P++) {
        if (O >= O_FACQ_CL && P == 1) continue;
        kfn k = T == MP ? pick<MP>(O) : T == SB ? pick<SB>(O) : T == LB ? pick<LB>(O) : pick<IRIW>(O);
        int nth = T == IRIW ? 4 : 2;
        long long n = 0, weak = 0, cnt[4] = {0, 0, 0, 0};
        for (int it = 0; it < launches; it++) {
          // placement: an instance's threads in one CTA's warps, or one warp of each of nth CTAs
          std::fill(role.begin(), role.end(), -1);
          int ninst = 0;
          if (P == 2) { // nth warps of different CTAs of one cluster for each instance
            for (int c0 = 0; c0 + CL <= CTAS; c0 += CL) {
              std::vector<std::vector<int>> fw(CL);
              for (int c = 0; c < CL; c++) {
                for (int i = 0; i < WPC; i++) fw[c].push_back(i);
                std::shuffle(fw[c].begin(), fw[c].end(), rng);
                fw[c].resize(WPC - 2); // keep 2 stressors a CTA
              }
              for (;;) {
                int cs[CL];
                for (int c = 0; c < CL; c++) cs[c] = c;
                std::shuffle(cs, cs + CL, rng);
                bool room = true;
                for (int t = 0; t < nth; t++) room &= !fw[cs[t]].empty();
                if (!room) break;
                for (int t = 0; t < nth; t++) {
                  role[(c0 + cs[t]) * WPC + fw[cs[t]].back()] = ninst * 4 + t;
                  fw[cs[t]].pop_back();
                }
                ninst++;
              }
            }
          } else if (P == 0) {
            for (int c = 0; c < CTAS; c++) {
              std::vector<int> w(WPC);
              for (int i = 0; i < WPC; i++) w[i] = i;
              std::shuffle(w.begin(), w.end(), rng);
              int per = (WPC - 2) / nth; // keep 2 stressors a CTA
              for (int i = 0; i < per; i++, ninst++)
                for (int t = 0; t < nth; t++) role[c * WPC + w[i * nth + t]] = ninst * 4 + t;
            }
          } else {
            std::vector<int> w(NW);
            for (int i = 0; i < NW; i++) w[i] = i;
            std::shuffle(w.begin(), w.end(), rng);
            int used = 0;
            // draw nth warps of different CTAs for each instance
            std::vector<char> taken(NW, 0);
            int target = (NW * 3 / 4) / nth;
            for (int i = 0; i < NW && ninst < target; i++) {
              if (taken[w[i]]) continue;
              int pick_[4], np = 0;
              pick_[np++] = w[i];
              for (int j = i + 1; j < NW && np < nth; j++) {
                if (taken[w[j]]) continue;
                bool ok = true;
                for (int q = 0; q < np; q++) ok &= w[j] / WPC != pick_[q] / WPC;
                if (ok) pick_[np++] = w[j];
              }
              if (np < nth) break;
              for (int q = 0; q < np; q++) taken[pick_[q]] = 1, role[pick_[q]] = ninst * 4 + q;
              ninst++, used += np;
            }
          }
          // x and y of instance i: the two lines of pair (base + i * stride) mod NLOC/2 (distinct pairs)
          unsigned base = rng() % (NLOC / 2), stride = (rng() % (NLOC / 2)) | 1;
          for (int i = 0; i < ninst; i++) {
            unsigned pr = (base + (unsigned)i * stride) % (NLOC / 2);
            loc[2 * i] = pr * 2 * 32, loc[2 * i + 1] = pr * 2 * 32 + 32;
          }
          CK(cudaMemcpy(d_role, role.data(), NW * 4, cudaMemcpyHostToDevice));
          CK(cudaMemcpy(d_loc, loc.data(), ninst * 2 * 4, cudaMemcpyHostToDevice));
          CK(cudaMemsetAsync(d_bar, 0, NW * 4));
          CK(cudaMemsetAsync(d_mem, 0, (size_t)NLOC * 32 * 4));
          unsigned sd = (unsigned)rng();
          if (P == 2) {
            cudaLaunchConfig_t cfg = {};
            cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeClusterDimension;
            at[0].val.clusterDim.x = CL, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
            cfg.gridDim = dim3(CTAS), cfg.blockDim = dim3(WPC * 32), cfg.attrs = at, cfg.numAttrs = 1;
            CK(cudaLaunchKernelEx(&cfg, k, (const int *)d_role, (const unsigned *)d_loc, d_mem, d_bar, d_res, d_scr,
                                  (unsigned)NSCR, sd));
          } else {
            k<<<CTAS, WPC * 32>>>(d_role, d_loc, d_mem, d_bar, d_res, d_scr, NSCR, sd);
          }
          CK(cudaGetLastError());
          CK(cudaMemcpy(res.data(), d_res, ninst * 8 * 4, cudaMemcpyDeviceToHost));
          for (int i = 0; i < ninst; i++) {
            const unsigned *q = &res[i * 8];
            unsigned a, b;
            bool w8;
            if (T == MP) a = q[2], b = q[3], w8 = a == 1 && b == 0; // thread 1: r0 = y, r1 = x
            else if (T == SB) a = q[0], b = q[2], w8 = a == 0 && b == 0;
            else if (T == LB) a = q[0], b = q[2], w8 = a == 1 && b == 1;
            else { // a: thread 2 saw x = 1, y = 0; b: thread 3 saw y = 1, x = 0
              a = q[4] == 1 && q[5] == 0, b = q[6] == 1 && q[7] == 0;
              w8 = a && b;
            }
            n++, weak += w8;
            cnt[(a & 1) * 2 + (b & 1)]++;
          }
        }
        printf("%s %s %s %lld %lld %lld %lld %lld %lld\n", tname[T], oname[O],
               P == 2 ? "cluster" : P ? "cross-cta" : "one-cta", n, weak,
               cnt[0], cnt[1], cnt[2], cnt[3]);
        fflush(stdout);
      }
    }
  return 0;
}
