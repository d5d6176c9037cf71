// f64 arithmetic on NaN, infinities, zeros and subnormals, on the H100, for
// tc5's runner: which NaN a result carries (payload, sign, quieting) and
// which NaN an invalid operation makes. Each thread reads one triple
// (a, b, c) of 64-bit words, in[3 i .. 3 i + 2] (tests/data/ptx/f64nan/
// gen_inputs.py: NaN-heavy), and writes 16 results to out[16 i ..].
// Compiled to PTX for tests/data/ptx/f64nan (nvcc -arch=sm_90a -ptx
// -fmad=false); gpu/run.sh f64nan runs that PTX on the GPU through
// gpu/ptx_silicon.cu, tests/ptx/silicon.sh in tc5.
#include <cstdint>

#define GT (blockIdx.x * blockDim.x + threadIdx.x)
#define OP2(j, OP) asm(OP " %0, %1, %2;" : "=d"(r[j]) : "d"(a), "d"(b))
#define OP1(j, OP) asm(OP " %0, %1;" : "=d"(r[j]) : "d"(a))
#define FMA(j, OP) asm(OP " %0, %1, %2, %3;" : "=d"(r[j]) : "d"(a), "d"(b), "d"(c))

extern "C" __global__ void f64_nan_arith(const uint64_t *in, uint64_t *out) {
  double a = __longlong_as_double(in[3 * GT]), b = __longlong_as_double(in[3 * GT + 1]),
         c = __longlong_as_double(in[3 * GT + 2]), r[16];
  OP2(0, "add.rn.f64"); OP2(1, "add.rz.f64"); OP2(2, "sub.rn.f64"); OP2(3, "sub.rm.f64");
  OP2(4, "mul.rn.f64"); OP2(5, "mul.rp.f64");
  FMA(6, "fma.rn.f64"); FMA(7, "fma.rz.f64"); FMA(8, "fma.rm.f64");
  OP2(9, "div.rn.f64"); OP2(10, "div.rz.f64"); OP2(11, "div.rp.f64");
  OP1(12, "sqrt.rn.f64"); OP1(13, "sqrt.rp.f64"); OP1(14, "rcp.rn.f64"); OP1(15, "rcp.rm.f64");
  for (int j = 0; j < 16; j++) out[16 * GT + j] = __double_as_longlong(r[j]);
}

extern "C" __global__ void f64_nan_other(const uint64_t *in, uint64_t *out) {
  double a = __longlong_as_double(in[3 * GT]), b = __longlong_as_double(in[3 * GT + 1]), r[15];
  OP2(0, "min.f64"); OP2(1, "max.f64"); OP1(2, "neg.f64"); OP1(3, "abs.f64");
  OP2(4, "add.rm.f64"); OP2(5, "add.rp.f64"); OP2(6, "sub.rz.f64"); OP2(7, "sub.rp.f64");
  OP2(8, "mul.rz.f64"); OP2(9, "mul.rm.f64"); OP2(10, "div.rm.f64"); OP1(11, "sqrt.rz.f64");
  OP1(12, "sqrt.rm.f64"); OP1(13, "rcp.rz.f64");
  // f32 -> f64 of b's high word, f64 -> f32 of a
  asm("cvt.f64.f32 %0, %1;" : "=d"(r[14]) : "f"(__uint_as_float((uint32_t)(__double_as_longlong(b) >> 32))));
  float f;
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(a));
  for (int j = 0; j < 15; j++) out[16 * GT + j] = __double_as_longlong(r[j]);
  out[16 * GT + 15] = __float_as_uint(f);
}
