// Runs the kernels of a PTX file on the GPU through the driver API (the
// same file `tc5 run` executes), for the silicon comparison of issue 16.
// usage: ptx_silicon FILE.ptx MANIFEST IN.bin OUT.bin
//   MANIFEST: one kernel a line, "NAME GRID BLOCK OUTBYTES" (# comments);
//   each kernel is NAME(const uint32_t *in, uint32_t *out) with `out`
//   zeroed; OUT.bin gets every kernel's `out`, in manifest order. printf
//   output goes to stdout. gpu/run.sh ptx builds and runs it.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                 \
  do {                                                                        \
    CUresult r_ = (x);                                                        \
    if (r_ != CUDA_SUCCESS) {                                                 \
      const char *s_ = "?";                                                   \
      cuGetErrorString(r_, &s_);                                              \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);         \
      exit(2);                                                                \
    }                                                                         \
  } while (0)

static std::vector<char> slurp(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f) { fprintf(stderr, "cannot read %s\n", p); exit(2); }
  std::vector<char> b;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  fclose(f);
  return b;
}

int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: ptx_silicon FILE.ptx MANIFEST IN.bin OUT.bin\n"); return 2; }
  std::vector<char> ptx = slurp(argv[1]);
  ptx.push_back(0);
  std::vector<char> in = slurp(argv[3]);
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  char log[8192] = {0};
  CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *val[2] = {log, (void *)(size_t)sizeof log};
  CUmodule mod;
  if (cuModuleLoadDataEx(&mod, ptx.data(), 2, opt, val) != CUDA_SUCCESS) {
    fprintf(stderr, "ptx_silicon: the PTX does not load: %s\n", log);
    return 2;
  }
  CUdeviceptr din;
  CK(cuMemAlloc(&din, in.size()));
  CK(cuMemcpyHtoD(din, in.data(), in.size()));
  FILE *man = fopen(argv[2], "r");
  FILE *out = fopen(argv[4], "wb");
  if (!man || !out) { fprintf(stderr, "cannot open the manifest or the output\n"); return 2; }
  char line[512];
  int n = 0;
  while (fgets(line, sizeof line, man)) {
    char name[128];
    unsigned grid, block;
    unsigned long bytes;
    if (line[0] == '#' || sscanf(line, "%127s %u %u %lu", name, &grid, &block, &bytes) != 4) continue;
    CUfunction f;
    CK(cuModuleGetFunction(&f, mod, name));
    CUdeviceptr dout;
    CK(cuMemAlloc(&dout, bytes));
    CK(cuMemsetD8(dout, 0, bytes));
    void *args[2] = {&din, &dout};
    CK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, 0, args, 0));
    CK(cuCtxSynchronize());
    fflush(stdout);
    std::vector<char> h(bytes);
    CK(cuMemcpyDtoH(h.data(), dout, bytes));
    fwrite(h.data(), 1, bytes, out);
    CK(cuMemFree(dout));
    n++;
  }
  fclose(out);
  fprintf(stderr, "ptx_silicon: %d kernels run\n", n);
  return 0;
}
