// mma.sync.aligned on the H100, for tc5's runner (issue 37): each warp runs
// one instruction on one tile; every thread reads its fragment registers
// straight from the inputs, in fragment order (A[(tile * NA + r) * 32 +
// lane], the same for B, C; D written so), and nothing else: the
// fragments' meaning (which lane holds which element) is tc5's to get right,
// and a wrong one shows as wrong products. Compiled to PTX for
// tests/data/ptx/mma90 (nvcc -arch=sm_90a -ptx); gpu/run.sh mma runs that
// PTX on the GPU through gpu/ptx_silicon.cu, tests/ptx/silicon.sh in tc5.
#include <cstdint>

#define LANE (threadIdx.x % 32)
#define TILE ((blockIdx.x * blockDim.x + threadIdx.x) / 32)

// NA, NB, ND 32-bit registers of A, B and C/D
#define MMA_KERNEL(NAME, QUAL, NA, NB, ND, ASM_OPS, ...)                                        \
  extern "C" __global__ void NAME(const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D) { \
    uint32_t a[NA], b[NB], c[ND], d[ND];                                                        \
    for (int r = 0; r < NA; r++) a[r] = A[(TILE * NA + r) * 32 + LANE];                         \
    for (int r = 0; r < NB; r++) b[r] = B[(TILE * NB + r) * 32 + LANE];                         \
    for (int r = 0; r < ND; r++) c[r] = C[(TILE * ND + r) * 32 + LANE];                         \
    asm volatile("mma.sync.aligned." QUAL " " ASM_OPS ";\n" : __VA_ARGS__);                     \
    for (int r = 0; r < ND; r++) D[(TILE * ND + r) * 32 + LANE] = d[r];                         \
  }

#define OPS_4_4_2_4 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13}"
#define ARGS_4_4_2_4                                                                            \
  "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), \
      "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
#define OPS_2_4_2_2 "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9}"
#define ARGS_2_4_2_2                                                                            \
  "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),   \
      "r"(c[0]), "r"(c[1])
#define OPS_4_2_1_4 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10}"
#define ARGS_4_2_1_4                                                                            \
  "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), \
      "r"(c[1]), "r"(c[2]), "r"(c[3])

MMA_KERNEL(mma_f16_f32_k16, "m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, OPS_4_4_2_4, ARGS_4_4_2_4)
MMA_KERNEL(mma_bf16_f32_k16, "m16n8k16.row.col.f32.bf16.bf16.f32", 4, 2, 4, OPS_4_4_2_4, ARGS_4_4_2_4)
MMA_KERNEL(mma_f16_f16_k16, "m16n8k16.row.col.f16.f16.f16.f16", 4, 2, 2, OPS_2_4_2_2, ARGS_2_4_2_2)
MMA_KERNEL(mma_tf32_k8, "m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 4, OPS_4_4_2_4, ARGS_4_4_2_4)
MMA_KERNEL(mma_tf32_k4, "m16n8k4.row.col.f32.tf32.tf32.f32", 2, 1, 4, OPS_4_2_1_4, ARGS_4_2_1_4)
MMA_KERNEL(mma_f16_f32_k8, "m16n8k8.row.col.f32.f16.f16.f32", 2, 1, 4, OPS_4_2_1_4, ARGS_4_2_1_4)
MMA_KERNEL(mma_bf16_f32_k8, "m16n8k8.row.col.f32.bf16.bf16.f32", 2, 1, 4, OPS_4_2_1_4, ARGS_4_2_1_4)
MMA_KERNEL(mma_s8s8_sat_k32, "m16n8k32.row.col.satfinite.s32.s8.s8.s32", 4, 2, 4, OPS_4_4_2_4, ARGS_4_4_2_4)
MMA_KERNEL(mma_u8s8_k32, "m16n8k32.row.col.s32.u8.s8.s32", 4, 2, 4, OPS_4_4_2_4, ARGS_4_4_2_4)
MMA_KERNEL(mma_s8u8_sat_k16, "m16n8k16.row.col.satfinite.s32.s8.u8.s32", 2, 1, 4, OPS_4_2_1_4, ARGS_4_2_1_4)

// m8n8k4 .f64: one 64-bit register of A and of B, two of C/D
extern "C" __global__ void mma_f64_k4(const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D) {
  double a = __longlong_as_double(A[TILE * 32 + LANE]), b = __longlong_as_double(B[TILE * 32 + LANE]);
  double c0 = __longlong_as_double(C[(TILE * 2) * 32 + LANE]), c1 = __longlong_as_double(C[(TILE * 2 + 1) * 32 + LANE]);
  double d0, d1;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};\n"
               : "=d"(d0), "=d"(d1)
               : "d"(a), "d"(b), "d"(c0), "d"(c1));
  D[(TILE * 2) * 32 + LANE] = __double_as_longlong(d0);
  D[(TILE * 2 + 1) * 32 + LANE] = __double_as_longlong(d1);
}
