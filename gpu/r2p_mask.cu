/* tc5 on silicon: bitmask ("R2P") masking of attention scores on Hopper,
 * against per-element compares and against tc5's mask module.
 *
 * A warpgroup computes a 64 x 128 score tile S = Q K^T with wgmma
 * (m64n128k16, bf16 -> f32, head dimension 64) for each key block of its
 * query block, masks it and folds it into a running row max and sum of
 * exp2 (the shape of FlashAttention's inner loop; blocks the mask empties
 * are skipped, full blocks are not masked). Three masks (key/query length
 * only, causal, local window) x two ways of masking:
 *   compare  every element tests its column against the row's limits
 *            (one ISETP pair and an FSEL per element),
 *   bitmask  the row's limits, transformed into fragment indices (a thread
 *            holds columns 2q, 2q+1, 8+2q, ... of its row, q = lane % 4),
 *            become one 32-bit word per row whose bits select the elements;
 *            ptxas turns the bit tests into R2P.
 * The check run stores the masked tiles of odd-sized problems and compares
 * them with the unmasked scores masked by tc5_mask_row_bits_sm90 (the C
 * module); the timed runs use 8192 x 8192. run.sh counts SASS instructions.
 *
 * Usage: r2p_mask [--dry-run] OUTDIR   (gpu/run.sh mask builds, counts, runs)
 */
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_util.cuh"
#include "kernels/mask_rows.cuh" /* MASK_*, wgmma128, Lim, row_limits, frag_below, bits_below */
#include "tc5/layout.h"
#include "tc5/mask.h"

static const char *mask_name[] = {"no mask", "causal", "local"};

struct Spec {
  int seqlen_q, seqlen_k, offset, wl, wr; /* wl/wr < 0: unbounded */
};

/* ---- device ------------------------------------------------------------------ */

/* the mask kinds, wgmma128, row_limits, frag_below, bits_below: gpu/kernels/mask_rows.cuh (shared with
 * attn_mask.cuh); its Lim is this Spec under other field names */
__device__ __forceinline__ Lim lim_of(const Spec &s) { return Lim{s.seqlen_q, s.seqlen_k, s.offset, s.wl, s.wr}; }

template <int MK, bool R2P, bool STORE>
__global__ void __launch_bounds__(128) attn_scores(const uint8_t *qk, Spec s, uint64_t qdesc0, uint64_t kdesc0,
                                                   uint32_t qstep, uint32_t kstep, float *sout, int ldk, float *rows) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const int t = threadIdx.x, lane = t % 32, q = lane % 4;
  for (int i = t * 16; i < 24576; i += 128 * 16) *(uint4 *)(smem + i) = *(const uint4 *)(qk + i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem) >> 4;
  const int m0 = blockIdx.x * 64;
  const int r0 = m0 + 16 * (t / 32) + lane / 4; /* rows r0 and r0 + 8 */
  /* the limits grow with the row: the first and the last valid row give
   * the key blocks to visit */
  int lo_first, hi_first, lo_last, hi_last;
  row_limits<MK>(lim_of(s), m0, lo_first, hi_first);
  row_limits<MK>(lim_of(s), min(m0 + 63, s.seqlen_q - 1), lo_last, hi_last);
  int nb_lo = lo_first / 128, nb_hi = (hi_last + 127) / 128;
  if (m0 >= s.seqlen_q) nb_hi = nb_lo;
  float rmax[2] = {-INFINITY, -INFINITY}, rsum[2] = {0.f, 0.f};
  for (int nb = nb_lo; nb < nb_hi; nb++) {
    const int n0 = nb * 128;
    float d[64];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int ks = 0; ks < 4; ks++) wgmma128(d, qdesc0 + base + ks * qstep, kdesc0 + base + ks * kstep, ks);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    /* full blocks need no mask */
    bool full = m0 + 63 < s.seqlen_q && lo_last <= n0 && hi_first >= n0 + 128;
    if (!full) {
#pragma unroll
      for (int h = 0; h < 2; h++) {
        int lo, hi;
        row_limits<MK>(lim_of(s), r0 + 8 * h, lo, hi);
        if (R2P) {
          /* the limits transformed into fragment indices: one word a row */
          uint32_t keep = bits_below(frag_below(hi - n0, q));
          if (MK == MASK_LOCAL) keep &= ~bits_below(frag_below(lo - n0, q));
#pragma unroll
          for (int e = 0; e < 32; e++) {
            int i = (e / 2) * 4 + 2 * h + e % 2;
            d[i] = ((keep >> e) & 1) ? d[i] : -INFINITY;
          }
        } else {
#pragma unroll
          for (int e = 0; e < 32; e++) {
            int i = (e / 2) * 4 + 2 * h + e % 2;
            int col = n0 + 8 * (e / 2) + 2 * q + e % 2;
            bool ok = col < hi;
            if (MK == MASK_LOCAL) ok = ok && col >= lo;
            d[i] = ok ? d[i] : -INFINITY;
          }
        }
      }
    }
    if (STORE) {
#pragma unroll
      for (int i = 0; i < 64; i++) {
        int row = r0 + 8 * ((i / 2) % 2), col = n0 + 8 * (i / 4) + 2 * q + i % 2;
        sout[(size_t)row * ldk + col] = d[i];
      }
    }
    /* the running row max and sum of exp2 (what softmax does next) */
#pragma unroll
    for (int h = 0; h < 2; h++) {
      float mx = -INFINITY;
#pragma unroll
      for (int e = 0; e < 32; e++) mx = fmaxf(mx, d[(e / 2) * 4 + 2 * h + e % 2]);
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      float mnew = fmaxf(rmax[h], mx);
      if (mnew == -INFINITY) continue;
      float acc = rsum[h] * exp2f(rmax[h] - mnew);
#pragma unroll
      for (int e = 0; e < 32; e++) acc += exp2f(d[(e / 2) * 4 + 2 * h + e % 2] - mnew);
      rmax[h] = mnew;
      rsum[h] = acc;
    }
  }
  if (rows && q == 0 && blockIdx.y == 0)
    for (int h = 0; h < 2; h++) {
      rows[2 * (r0 + 8 * h)] = rmax[h];
      rows[2 * (r0 + 8 * h) + 1] = rsum[h];
    }
}

/* ---- host ---------------------------------------------------------------------- */

static uint64_t rng_state = 12345;
static uint32_t rnd() {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

/* Q (64 x 64) and K (128 x 64), bf16, K-major, no swizzle, through tc5's
 * canonical layout: the image (24 KB) and the descriptors of k step 0 */
static void make_qk(std::vector<uint8_t> &img, uint64_t &qd, uint64_t &kd, uint32_t &qstep, uint32_t &kstep) {
  tc5_smem sm;
  tc5_smem_init(&sm, 24576);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F16, TC5_BF16, TC5_MAJOR_K, &op);
  std::vector<uint32_t> qv(64 * 64), kv(128 * 64);
  for (auto &x : qv) x = 0x3C00u + (rnd() % 256) - 128; /* bf16 near 2^-7 .. 2^-6 */
  for (auto &x : kv) x = (rnd() & 1 ? 0x8000u : 0) | (0x3F00u + rnd() % 256);
  tc5_smem_desc dq, dk, d1;
  tc5_layout_scatter(&sm, 0, TC5_SWIZZLE_NONE, &op, 64, 64, qv.data(), &dq, NULL);
  tc5_layout_scatter(&sm, 8192, TC5_SWIZZLE_NONE, &op, 128, 64, kv.data(), &dk, NULL);
  /* the descriptor of each 16-element k step advances by a fixed amount */
  tc5_layout_kblock(&dq, &op, 64, 16, &d1, NULL);
  qstep = (d1.start_address - dq.start_address) >> 4;
  tc5_layout_kblock(&dk, &op, 128, 16, &d1, NULL);
  kstep = (d1.start_address - dk.start_address) >> 4;
  tc5_smem_desc_to_wgmma(&dq, &qd, NULL);
  tc5_smem_desc_to_wgmma(&dk, &kd, NULL);
  img.assign(sm.bytes, sm.bytes + 24576);
  tc5_smem_free(&sm);
}

template <int MK, bool R2P, bool STORE>
static void launch(const uint8_t *qk, Spec s, uint64_t qd, uint64_t kd, uint32_t qs, uint32_t ks, float *out, int ldk,
                   float *rows, int heads) {
  CK(cudaFuncSetAttribute(attn_scores<MK, R2P, STORE>, cudaFuncAttributeMaxDynamicSharedMemorySize, 24576));
  dim3 grid((s.seqlen_q + 63) / 64, heads);
  attn_scores<MK, R2P, STORE><<<grid, 128, 24576>>>(qk, s, qd, kd, qs, ks, out, ldk, rows);
  CK(cudaGetLastError());
}

static void run(int mk, bool r2p, bool store, const uint8_t *qk, Spec s, uint64_t qd, uint64_t kd, uint32_t qs,
                uint32_t ks, float *out, int ldk, float *rows, int heads) {
#define L(M, R, S) launch<M, R, S>(qk, s, qd, kd, qs, ks, out, ldk, rows, heads)
  if (store) {
    if (mk == 0) r2p ? L(0, true, true) : L(0, false, true);
    if (mk == 1) r2p ? L(1, true, true) : L(1, false, true);
    if (mk == 2) r2p ? L(2, true, true) : L(2, false, true);
  } else {
    if (mk == 0) r2p ? L(0, true, false) : L(0, false, false);
    if (mk == 1) r2p ? L(1, true, false) : L(1, false, false);
    if (mk == 2) r2p ? L(2, true, false) : L(2, false, false);
  }
#undef L
}

static tc5_mask_spec c_spec(int mk, const Spec &s) {
  tc5_mask_spec m;
  tc5_mask_spec_init(&m, s.seqlen_q, s.seqlen_k);
  m.offset = s.offset;
  m.causal = mk == MASK_CAUSAL;
  if (mk == MASK_LOCAL) {
    m.local = true;
    m.window_left = s.wl;
    m.window_right = s.wr;
  }
  return m;
}

int main(int argc, char **argv) {
  int ai = 1;
  bool dry = argc > 1 && !strcmp(argv[1], "--dry-run");
  if (dry) ai++;
  const char *outdir = argc > ai ? argv[ai] : ".";
  std::string sp = std::string(outdir) + "/mask-summary.txt";
  FILE *sum = fopen(sp.c_str(), "w");
  if (!sum) {
    perror(sp.c_str());
    return 2;
  }
  if (dry) {
    /* the host side alone: the C module's masks of the check problems */
    fprintf(sum, "dry run: no GPU\n");
    fclose(sum);
    return 0;
  }
  std::vector<uint8_t> img;
  uint64_t qd, kd;
  uint32_t qs, ks;
  make_qk(img, qd, kd, qs, ks);
  uint8_t *dqk;
  CK(cudaMalloc(&dqk, img.size()));
  CK(cudaMemcpy(dqk, img.data(), img.size(), cudaMemcpyHostToDevice));
  /* ---- check: odd lengths, offsets and windows ---- */
  const Spec checks[] = {{300, 520, 220, -1, -1}, {257, 257, 0, 37, 5}, {512, 700, -40, 100, -1},
                         {640, 640, 0, -1, 64},  {200, 1000, 800, 300, 0}};
  unsigned long long checked = 0, bad = 0;
  for (const Spec &s : checks) {
    int ldk = (s.seqlen_k + 127) / 128 * 128 + 128, rowsq = (s.seqlen_q + 63) / 64 * 64;
    size_t n = (size_t)rowsq * ldk;
    float *draw, *dmask;
    CK(cudaMalloc(&draw, n * 4));
    CK(cudaMalloc(&dmask, n * 4));
    /* the raw scores: the no-mask kernel with lengths covering every tile */
    Spec all = {rowsq, ldk, 0, -1, -1};
    CK(cudaMemset(draw, 0xFF, n * 4));
    run(MASK_LEN, false, true, dqk, all, qd, kd, qs, ks, draw, ldk, nullptr, 1);
    CK(cudaDeviceSynchronize());
    std::vector<float> raw(n), got(n);
    CK(cudaMemcpy(raw.data(), draw, n * 4, cudaMemcpyDeviceToHost));
    for (int mk = 0; mk < 3; mk++)
      for (int r2p = 0; r2p < 2; r2p++) {
        CK(cudaMemset(dmask, 0xFF, n * 4)); /* NaN: a tile never visited */
        run(mk, r2p, true, dqk, s, qd, kd, qs, ks, dmask, ldk, nullptr, 1);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), dmask, n * 4, cudaMemcpyDeviceToHost));
        tc5_mask_spec m = c_spec(mk, s);
        for (int row = 0; row < rowsq; row++)
          for (int n0 = 0; n0 + 128 <= ldk; n0 += 128) {
            tc5_tile_class cls;
            tc5_mask_tile(&m, row / 64 * 64, 64, n0, 128, &cls);
            for (int q = 0; q < 4; q++) {
              /* the thread's row fragment: the raw scores, masked by the C module */
              uint32_t w[1], want[32];
              tc5_mask_row_bits_sm90(&m, row, n0, 128, q, w);
              for (int e = 0; e < 32; e++)
                memcpy(&want[e], &raw[(size_t)row * ldk + n0 + 8 * (e / 2) + 2 * q + e % 2], 4);
              tc5_mask_apply(w, 32, want);
              for (int e = 0; e < 32; e++) {
                int col = n0 + 8 * (e / 2) + 2 * q + e % 2;
                size_t idx = (size_t)row * ldk + col;
                uint32_t g;
                memcpy(&g, &got[idx], 4);
                bool visited = !std::isnan(got[idx]);
                checked++;
                /* an empty tile must not be visited; others must match */
                bool ok = cls == TC5_TILE_EMPTY ? (!visited || g == 0xFF800000u) : (visited && g == want[e]);
                if (!ok && bad++ < 5)
                  fprintf(sum, "MISMATCH %s %s seqlen %d/%d: row %d col %d: gpu %08x, tc5 %08x (tile %s)\n",
                          mask_name[mk], r2p ? "bitmask" : "compare", s.seqlen_q, s.seqlen_k, row, col, g, want[e],
                          tc5_tile_class_name(cls));
              }
            }
          }
      }
    cudaFree(draw), cudaFree(dmask);
  }
  fprintf(sum, "check: %llu masked scores compared with tc5_mask_row_bits_sm90, %llu differ\n", checked, bad);
  printf("check: %llu masked scores compared with tc5_mask_row_bits_sm90, %llu differ\n", checked, bad);
  /* ---- time: 8192 x 8192, 16 heads ---- */
  const Spec big[3] = {{8192, 8192 - 100, -100, -1, -1}, {8192, 8192, 0, -1, -1}, {8192, 8192, 0, 256, 0}};
  float *drows;
  CK(cudaMalloc(&drows, 8192 * 2 * 4));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  /* local visits ~3 key blocks a query block: more heads for a measurable time */
  const int heads[3] = {16, 16, 128};
  fprintf(sum, "\ntimes (8192 queries; 16 heads, 128 for local; key length 8092 without mask, 8192 otherwise; "
               "local window 256 left, 0 right)\n");
  fprintf(sum, "| mask | compare (ms) | bitmask (ms) | speedup |\n|---|---|---|---|\n");
  for (int mk = 0; mk < 3; mk++) {
    float ms[2];
    for (int r2p = 0; r2p < 2; r2p++) {
      run(mk, r2p, false, dqk, big[mk], qd, kd, qs, ks, nullptr, 0, drows, heads[mk]); /* warm up */
      CK(cudaDeviceSynchronize());
      float best = 1e30f;
      for (int rep = 0; rep < 5; rep++) {
        cudaEventRecord(e0);
        for (int it = 0; it < 10; it++) run(mk, r2p, false, dqk, big[mk], qd, kd, qs, ks, nullptr, 0, drows, heads[mk]);
        cudaEventRecord(e1);
        CK(cudaEventSynchronize(e1));
        float t;
        cudaEventElapsedTime(&t, e0, e1);
        best = fminf(best, t / 10);
      }
      ms[r2p] = best;
    }
    fprintf(sum, "| %s | %.3f | %.3f | %+.1f%% |\n", mask_name[mk], ms[0], ms[1], (ms[0] / ms[1] - 1) * 100);
    printf("%-8s compare %.3f ms, bitmask %.3f ms\n", mask_name[mk], ms[0], ms[1]);
  }
  fclose(sum);
  return bad ? 1 : 0;
}
