// Runs the kernels of PTX files on the GPU through the driver API (the
// same files `tc5 run` executes), for the silicon comparison of issue 16.
// usage: ptx_silicon DIR OUT.bin
//   DIR/kernels.txt: one kernel a line, "FILE NAME GRID BLOCK SHARED ARG...",
//   FILE a PTX file in DIR, SHARED the dynamic shared bytes, each ARG one of
//   in:F (a buffer holding DIR/F), out:BYTES (a zeroed buffer), u32:V, s32:V
//   (# starts a comment). OUT.bin gets every out buffer, in order. printf
//   output goes to stdout. gpu/run.sh ptx builds and runs it.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
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

static std::vector<char> slurp(const std::string &p) {
  FILE *f = fopen(p.c_str(), "rb");
  if (!f) { fprintf(stderr, "cannot read %s\n", p.c_str()); exit(2); }
  std::vector<char> b;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  fclose(f);
  return b;
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: ptx_silicon DIR OUT.bin\n"); return 2; }
  std::string dir = argv[1];
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  std::map<std::string, CUmodule> mods;
  FILE *man = fopen((dir + "/kernels.txt").c_str(), "r");
  FILE *out = fopen(argv[2], "wb");
  if (!man || !out) { fprintf(stderr, "cannot open the manifest or the output\n"); return 2; }
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, man)) {
    std::vector<std::string> w;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) w.push_back(t);
    if (w.empty() || w[0][0] == '#') continue;
    if (w.size() < 5) { fprintf(stderr, "ptx_silicon: short line for %s\n", w[0].c_str()); return 2; }
    const std::string &file = w[0], &name = w[1];
    unsigned grid = atoi(w[2].c_str()), block = atoi(w[3].c_str()), shared = atoi(w[4].c_str());
    if (!mods.count(file)) {
      std::vector<char> ptx = slurp(dir + "/" + file);
      ptx.push_back(0);
      char log[8192] = {0};
      CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
      void *val[2] = {log, (void *)(size_t)sizeof log};
      CUmodule mod;
      if (cuModuleLoadDataEx(&mod, ptx.data(), 2, opt, val) != CUDA_SUCCESS) {
        fprintf(stderr, "ptx_silicon: %s does not load: %s\n", file.c_str(), log);
        return 2;
      }
      mods[file] = mod;
    }
    CUfunction f;
    CK(cuModuleGetFunction(&f, mods[file], name.c_str()));
    if (shared > 48 * 1024) CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
    size_t na = w.size() - 5;
    std::vector<uint64_t> hold(na); /* each argument's value: a device address or an integer */
    std::vector<void *> args(na);
    std::vector<std::pair<CUdeviceptr, size_t>> outs;
    std::vector<CUdeviceptr> all;
    for (size_t k = 0; k < na; k++) {
      const std::string &a = w[5 + k];
      if (!a.compare(0, 3, "in:")) {
        std::vector<char> d = slurp(dir + "/" + a.substr(3));
        CUdeviceptr p;
        CK(cuMemAlloc(&p, d.size()));
        CK(cuMemcpyHtoD(p, d.data(), d.size()));
        hold[k] = p;
        all.push_back(p);
      } else if (!a.compare(0, 4, "out:")) {
        size_t b = strtoull(a.c_str() + 4, NULL, 0);
        CUdeviceptr p;
        CK(cuMemAlloc(&p, b));
        CK(cuMemsetD8(p, 0, b));
        hold[k] = p;
        outs.push_back({p, b});
        all.push_back(p);
      } else if (!a.compare(0, 4, "u32:") || !a.compare(0, 4, "s32:")) {
        hold[k] = (uint32_t)strtoll(a.c_str() + 4, NULL, 0);
      } else {
        fprintf(stderr, "ptx_silicon: unknown argument %s\n", a.c_str());
        return 2;
      }
      args[k] = &hold[k]; /* the driver reads as many bytes as the parameter has */
    }
    CK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shared, 0, args.data(), 0));
    CK(cuCtxSynchronize());
    fflush(stdout);
    for (auto &o : outs) {
      std::vector<char> h(o.second);
      CK(cuMemcpyDtoH(h.data(), o.first, o.second));
      fwrite(h.data(), 1, o.second, out);
    }
    for (CUdeviceptr p : all) CK(cuMemFree(p));
    n++;
  }
  fclose(out);
  fprintf(stderr, "ptx_silicon: %d kernels run\n", n);
  return 0;
}
