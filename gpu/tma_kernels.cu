// TMA kernels for the silicon comparison of issue 18: the same PTX
// (tests/data/ptx/tma90/kernels.ptx, `nvcc -arch=sm_90a -ptx`) runs on the
// H100 with tensor maps from cuTensorMapEncodeTiled (gpu/ptx_silicon.cu)
// and in `tc5 run` with tensor maps from the same parameters
// (tests/ptx/silicon.sh); tests/data/ptx/tma90/kernels.txt lists the
// launches (gen_manifest.py). Written with CUDA's <cuda/ptx> wrappers.
//
// Every kernel works on a window of dynamic shared memory at `off` bytes
// past a 1024-byte boundary: zero-filled first, then the copy, then the
// window's bytes go to `out` (loads), or the window is filled from `in`
// and copied to the tensor (stores, reductions: the tensor's buffer is the
// compared output).
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__device__ static uint8_t *window(uint32_t off) {
  extern __shared__ __align__(1024) uint8_t dyn[];
  return (uint8_t *)(((uintptr_t)dyn + 1023) & ~(uintptr_t)1023) + off;
}

// the mbarrier's phase 0, or false after about a second (a transaction
// count that never completes; tc5 reports that as a deadlock)
__device__ static bool wait(uint64_t *bar) {
  for (uint32_t spin = 0; spin < (1u << 20); spin++)
    if (ptx::mbarrier_try_wait_parity(bar, 0)) return true;
  return false;
}

template <int R>
__device__ static void load(const CUtensorMap *tm, uint8_t *out, uint32_t off, uint32_t img, uint32_t bytes, int c0,
                            int c1, int c2, int c3, int c4) {
  __shared__ uint64_t bar;
  uint8_t *w = window(off);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) w[i] = 0;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared); // the zeros and the mbarrier, before the async proxy
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int c[5] = {c0, c1, c2, c3, c4};
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);
    if constexpr (R == 1) ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, w, tm, (const int(&)[1])c, &bar);
    if constexpr (R == 2) ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, w, tm, (const int(&)[2])c, &bar);
    if constexpr (R == 3) ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, w, tm, (const int(&)[3])c, &bar);
    if constexpr (R == 4) ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, w, tm, (const int(&)[4])c, &bar);
    if constexpr (R == 5) ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, w, tm, (const int(&)[5])c, &bar);
  }
  bool late = !wait(&bar);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) out[i] = w[i];
  if (late && threadIdx.x == 0) out[0] = out[1] = 0xEE; // the mbarrier's phase never completed
}

#define LOAD(R)                                                                                                     \
  extern "C" __global__ void tma_load_##R##d(const __grid_constant__ CUtensorMap tm, uint8_t *out, uint32_t off,     \
                                             uint32_t img, uint32_t bytes, int c0, int c1, int c2, int c3, int c4) { \
    load<R>(&tm, out, off, img, bytes, c0, c1, c2, c3, c4);                                                        \
  }
LOAD(1)
LOAD(2)
LOAD(3)
LOAD(4)
LOAD(5)

// im2col loads (no <cuda/ptx> wrapper: inline PTX): coordinates C, W[, H[,
// D]], N and the im2col offsets W[, H[, D]] (16-bit)
template <int R>
__device__ static void load_im2col(const CUtensorMap *tm, uint8_t *out, uint32_t off, uint32_t img, uint32_t bytes, int c0,
                                   int c1, int c2, int c3, int c4, uint16_t o0, uint16_t o1, uint16_t o2) {
  __shared__ uint64_t bar;
  uint8_t *w = window(off);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) w[i] = 0;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);
    uint32_t d = (uint32_t)__cvta_generic_to_shared(w), mb = (uint32_t)__cvta_generic_to_shared(&bar);
    if constexpr (R == 3)
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                   :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(mb), "h"(o0) : "memory");
    if constexpr (R == 4)
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                   :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(mb), "h"(o0), "h"(o1) : "memory");
    if constexpr (R == 5)
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                   :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(mb), "h"(o0), "h"(o1), "h"(o2) : "memory");
  }
  bool late = !wait(&bar);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) out[i] = w[i];
  if (late && threadIdx.x == 0) out[0] = out[1] = 0xEE;
}
#define LOAD_IM2COL(R)                                                                                               \
  extern "C" __global__ void tma_im2col_##R##d(const __grid_constant__ CUtensorMap tm, uint8_t *out, uint32_t off,    \
                                               uint32_t img, uint32_t bytes, int c0, int c1, int c2, int c3, int c4,  \
                                               uint32_t o0, uint32_t o1, uint32_t o2) {                              \
    load_im2col<R>(&tm, out, off, img, bytes, c0, c1, c2, c3, c4, (uint16_t)o0, (uint16_t)o1, (uint16_t)o2);       \
  }
LOAD_IM2COL(3)
LOAD_IM2COL(4)
LOAD_IM2COL(5)

// the window filled from `in`, then stored (or reduced, op) to the tensor
template <int R, int OP>
__device__ static void store(const CUtensorMap *tm, const uint8_t *in, uint32_t off, uint32_t img, int c0, int c1,
                             int c2, int c3, int c4) {
  uint8_t *w = window(off);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) w[i] = in[i];
  ptx::fence_proxy_async(ptx::space_shared); // each thread's writes, before the async proxy reads them
  __syncthreads();
  if (threadIdx.x == 0) {
    int c[5] = {c0, c1, c2, c3, c4};
    const int(&c1d)[1] = (const int(&)[1])c;
    const int(&c2d)[2] = (const int(&)[2])c;
    const int(&c3d)[3] = (const int(&)[3])c;
    const int(&c5d)[5] = (const int(&)[5])c;
    if constexpr (OP < 0) {
      if constexpr (R == 1) ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tm, c1d, w);
      if constexpr (R == 2) ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tm, c2d, w);
      if constexpr (R == 3) ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tm, c3d, w);
      if constexpr (R == 5) ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tm, c5d, w);
    } else {
      if constexpr (OP == 0) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, tm, c2d, w);
      if constexpr (OP == 1) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_min, tm, c2d, w);
      if constexpr (OP == 2) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_max, tm, c2d, w);
      if constexpr (OP == 3) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_inc, tm, c2d, w);
      if constexpr (OP == 4) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_dec, tm, c2d, w);
      if constexpr (OP == 5) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_and_op, tm, c2d, w);
      if constexpr (OP == 6) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_or_op, tm, c2d, w);
      if constexpr (OP == 7) ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_xor_op, tm, c2d, w);
    }
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}

#define STORE(R)                                                                                            \
  extern "C" __global__ void tma_store_##R##d(const __grid_constant__ CUtensorMap tm, const uint8_t *in,    \
                                              uint32_t off, uint32_t img, int c0, int c1, int c2, int c3, \
                                              int c4) {                                                   \
    store<R, -1>(&tm, in, off, img, c0, c1, c2, c3, c4);                                                  \
  }
STORE(1)
STORE(2)
STORE(3)
STORE(5)
#define REDUCE(NAME, OP)                                                                                     \
  extern "C" __global__ void tma_reduce_##NAME(const __grid_constant__ CUtensorMap tm, const uint8_t *in,   \
                                               uint32_t off, uint32_t img, int c0, int c1) {               \
    store<2, OP>(&tm, in, off, img, c0, c1, 0, 0, 0);                                                      \
  }
REDUCE(add, 0)
REDUCE(min, 1)
REDUCE(max, 2)
REDUCE(inc, 3)
REDUCE(dec, 4)
REDUCE(and, 5)
REDUCE(or, 6)
REDUCE(xor, 7)

// non-tensor bulk copies: global -> shared (mbarrier), shared -> global (bulk group)
extern "C" __global__ void bulk_copy(const uint8_t *in, uint8_t *out, uint32_t off, uint32_t n) {
  __shared__ uint64_t bar;
  uint8_t *w = window(off);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, n);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, w, in, n, &bar);
  }
  if (!wait(&bar)) return;
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + 16, w, n);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

// ---- clusters: distributed shared memory, cluster barriers, multicast ----
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// each CTA fills its window with its rank's pattern; after a cluster barrier
// it reads the next CTA's window (mapa + ld.shared::cluster), writes into the
// previous CTA's second window (st.shared::cluster), adds to CTA 0's counter
// (atom.shared::cluster), and after a second barrier copies its own windows out
template <int C>
__device__ static void dsmem(uint32_t *out) {
  __shared__ uint32_t mine[256], got[256], counter;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank(), t = threadIdx.x;
  mine[t] = r * 0x01000000u + t * 3 + 1;
  got[t] = 0;
  if (t == 0) counter = 0;
  cl.sync();
  uint32_t *next = cl.map_shared_rank(mine, (r + 1) % C);
  uint32_t *prev_got = cl.map_shared_rank(got, (r + C - 1) % C);
  uint32_t *c0 = cl.map_shared_rank(&counter, 0);
  prev_got[t] = next[(t * 7) % 256] ^ 0x5a5a0000u;
  atomicAdd(c0, t + r);
  cl.sync();
  uint32_t *o = out + blockIdx.x * 513;
  o[t] = mine[t];
  o[256 + t] = got[t];
  if (t == 0) o[512] = counter;
}
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_dsmem_2(uint32_t *out) { dsmem<2>(out); }
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_dsmem_4(uint32_t *out) { dsmem<4>(out); }

// every CTA of the cluster arrives on CTA 0's mbarrier (mbarrier.arrive on a
// shared::cluster address); CTA 0 waits for them all, then writes out
template <int C>
__device__ static void remote_arrive(uint32_t *out) {
  __shared__ uint64_t bar;
  __shared__ uint32_t val[C];
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  if (threadIdx.x == 0 && r == 0) ptx::mbarrier_init(&bar, C);
  cl.sync();
  if (threadIdx.x == 0) {
    uint32_t *v0 = cl.map_shared_rank(val, 0);
    v0[r] = 100 + r * r;
    uint64_t *b0 = cl.map_shared_rank(&bar, 0);
    ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, b0);
  }
  if (r == 0) {
    if (!wait(&bar)) out[0] = 0xEEEE;
    else if (threadIdx.x < C) out[threadIdx.x] = val[threadIdx.x];
  }
  cl.sync(); // CTA 0's shared memory outlives the others' accesses
}
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_arrive_2(uint32_t *out) { remote_arrive<2>(out); }
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_arrive_4(uint32_t *out) { remote_arrive<4>(out); }

// TMA multicast: CTA r loads the rows [r * rows, (r + 1) * rows) of a 2D box
// into the same offset of every CTA in `mask` (each CTA's mbarrier counts
// the bytes that land in it); then each CTA copies its window out
template <int C>
__device__ static void multicast(const CUtensorMap *tm, uint8_t *out, uint32_t img, uint32_t slice, uint32_t rows,
                                 uint32_t mask, int c0, int c1) {
  __shared__ uint64_t bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  uint8_t *w = window(0);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) w[i] = 0;
  unsigned senders = 0; // the CTAs whose slices land here: every CTA when mask names this one
  if (mask >> r & 1) senders = C;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar, senders * slice);
  }
  cl.sync(); // every mbarrier initialised before any copy lands
  if (threadIdx.x == 0) {
    int c[2] = {c0, c1 + (int)(r * rows)};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, w + r * slice, tm, c, &bar, (uint16_t)mask);
  }
  bool late = !wait(&bar);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) out[blockIdx.x * img + i] = w[i];
  if (late && threadIdx.x == 0) out[blockIdx.x * img] = 0xEE;
  cl.sync(); // no CTA leaves while a copy may still land in it
}
extern "C" __global__ void __cluster_dims__(2, 1, 1)
    tma_multicast_2(const __grid_constant__ CUtensorMap tm, uint8_t *out, uint32_t img, uint32_t slice, uint32_t rows,
                    uint32_t mask, int c0, int c1) {
  multicast<2>(&tm, out, img, slice, rows, mask, c0, c1);
}
extern "C" __global__ void __cluster_dims__(4, 1, 1)
    tma_multicast_4(const __grid_constant__ CUtensorMap tm, uint8_t *out, uint32_t img, uint32_t slice, uint32_t rows,
                    uint32_t mask, int c0, int c1) {
  multicast<4>(&tm, out, img, slice, rows, mask, c0, c1);
}

// cp.async.bulk ... .multicast::cluster (no tensor map): CTA r copies bytes
// [r * slice, (r + 1) * slice) of `in` to the same offset of every CTA in
// `mask`; each CTA's mbarrier counts what lands in it; then the windows out
template <int C>
__device__ static void bulk_multicast(const uint8_t *in, uint8_t *out, uint32_t img, uint32_t slice, uint32_t mask) {
  __shared__ uint64_t bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  uint8_t *w = window(0);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) w[i] = 0;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar,
                                   (mask >> r & 1) ? C * slice : 0);
  }
  cl.sync();
  if (threadIdx.x == 0) {
    uint32_t d = (uint32_t)__cvta_generic_to_shared(w + r * slice), mb = (uint32_t)__cvta_generic_to_shared(&bar);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
                 :: "r"(d), "l"(in + r * slice), "r"(slice), "r"(mb), "h"((uint16_t)mask) : "memory");
  }
  bool late = !wait(&bar);
  for (uint32_t i = threadIdx.x; i < img; i += blockDim.x) out[blockIdx.x * img + i] = w[i];
  if (late && threadIdx.x == 0) out[blockIdx.x * img] = 0xEE;
  cl.sync();
}
extern "C" __global__ void __cluster_dims__(4, 1, 1) bulk_multicast_4(const uint8_t *in, uint8_t *out, uint32_t img,
                                                                     uint32_t slice, uint32_t mask) {
  bulk_multicast<4>(in, out, img, slice, mask);
}

// cp.reduce.async.bulk into another CTA's shared memory: CTA 0's window
// holds in[0 .. n), CTA 1 reduces its window (in[n .. 2n)) into it
// (.shared::cluster.shared::cta, CTA 0's mbarrier counting the bytes), op
// 0 add.u32, 1 min.s32, 2 xor.b32, 3 add.u64 (inline PTX: the ISA's spelling)
__device__ static void cluster_reduce(const uint8_t *in, uint8_t *out, uint32_t n, uint32_t op) {
  __shared__ uint64_t bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  uint8_t *w = window(0);
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) w[i] = in[r * n + i];
  if (threadIdx.x == 0 && r == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar, n);
  }
  ptx::fence_proxy_async(ptx::space_shared);
  cl.sync();
  if (threadIdx.x == 0 && r == 1) {
    uint32_t d = (uint32_t)__cvta_generic_to_shared(cl.map_shared_rank(w, 0));
    uint32_t mb = (uint32_t)__cvta_generic_to_shared(cl.map_shared_rank(&bar, 0));
    uint32_t s = (uint32_t)__cvta_generic_to_shared(w);
    if (op == 0)
      asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], %2, [%3];"
                   :: "r"(d), "r"(s), "r"(n), "r"(mb) : "memory");
    else if (op == 1)
      asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32 [%0], [%1], %2, [%3];"
                   :: "r"(d), "r"(s), "r"(n), "r"(mb) : "memory");
    else if (op == 2)
      asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.xor.b32 [%0], [%1], %2, [%3];"
                   :: "r"(d), "r"(s), "r"(n), "r"(mb) : "memory");
    else
      asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u64 [%0], [%1], %2, [%3];"
                   :: "r"(d), "r"(s), "r"(n), "r"(mb) : "memory");
  }
  if (r == 0) {
    bool late = !wait(&bar);
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = w[i];
    if (late && threadIdx.x == 0) out[0] = 0xEE;
  }
  cl.sync();
}
extern "C" __global__ void __cluster_dims__(2, 1, 1) bulk_reduce_cluster(const uint8_t *in, uint8_t *out, uint32_t n,
                                                                        uint32_t op) {
  cluster_reduce(in, out, n, op);
}

// cp.reduce.async.bulk without a tensor map: the window (filled from `in`)
// reduced into `out` (an inout buffer), n bytes
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <typename T, typename OP>
__device__ static void bulk_reduce(const uint8_t *in, T *out, uint32_t n, OP op) {
  uint8_t *w = window(0);
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) w[i] = in[i];
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, op, out, (const T *)w, n);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}
#define BULK_RED(NAME, T, OP)                                                                        \
  extern "C" __global__ void bulk_reduce_##NAME(const uint8_t *in, T *out, uint32_t n) {             \
    bulk_reduce<T>(in, out, n, OP);                                                                  \
  }
BULK_RED(add_u32, uint32_t, ptx::op_add)
BULK_RED(add_s32, int32_t, ptx::op_add)
BULK_RED(add_u64, uint64_t, ptx::op_add)
BULK_RED(add_f32, float, ptx::op_add)
BULK_RED(add_f64, double, ptx::op_add)
BULK_RED(min_u32, uint32_t, ptx::op_min)
BULK_RED(max_s32, int32_t, ptx::op_max)
BULK_RED(min_s64, int64_t, ptx::op_min)
BULK_RED(max_u64, uint64_t, ptx::op_max)
BULK_RED(inc_u32, uint32_t, ptx::op_inc)
BULK_RED(dec_u32, uint32_t, ptx::op_dec)
BULK_RED(and_b32, uint32_t, ptx::op_and_op)
BULK_RED(or_b64, uint64_t, ptx::op_or_op)
BULK_RED(xor_b32, uint32_t, ptx::op_xor_op)
BULK_RED(add_f16, __half, ptx::op_add)
BULK_RED(min_f16, __half, ptx::op_min)
BULK_RED(max_bf16, __nv_bfloat16, ptx::op_max)
BULK_RED(add_bf16, __nv_bfloat16, ptx::op_add)
