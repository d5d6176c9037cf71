// Runs the kernels of PTX files on the GPU through the driver API (the
// same files `tc5 run` executes), for the silicon comparison of issue 16.
// usage: ptx_silicon DIR OUT.bin
//        ptx_silicon --rules RULES.txt VERDICTS.txt
//   DIR/kernels.txt: one kernel a line, "FILE NAME GRID BLOCK SHARED ARG...",
//   FILE a PTX file in DIR, GRID X or X,Y,Z, SHARED the dynamic shared bytes,
//   each ARG one of in:F (a buffer holding DIR/F), out:BYTES (a zeroed
//   buffer), inout:F (a buffer holding DIR/F, compared after the run),
//   u32:V, s32:V, u64:V, s64:V, f32:V, null (a zero pointer), and
//   tmap:... (a tensor map from cuTensorMapEncodeTiled, its parameters in
//   the text form of `tc5 run --arg tmap:` read by libtc5's
//   tc5_tmap_params_parse; its tensor a buffer of its own: in=F, out=BYTES,
//   inout=F) (# starts a comment). OUT.bin gets every out and inout buffer,
//   in order of appearance. printf output goes to stdout. --rules encodes
//   each line of RULES.txt (a tensor map's text; offset=N puts its address
//   N bytes past a 256-byte boundary) and writes "ok" or the driver's error
//   name for each. gpu/run.sh ptx and gpu/run.sh tma build and run it.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "tc5/tensormap.h"

#include "cuda_check.h" /* CK(call) */

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

/* the keys of a tmap: argument that libtc5 leaves to the caller */
struct tmap_keys {
  std::string in, inout, offset;
  size_t out = 0;
};
static bool tmap_key(void *ctx, const char *key, const char *value) {
  tmap_keys *k = (tmap_keys *)ctx;
  if (!strcmp(key, "in")) k->in = value;
  else if (!strcmp(key, "inout")) k->inout = value;
  else if (!strcmp(key, "out")) k->out = strtoull(value, NULL, 0);
  else if (!strcmp(key, "offset")) k->offset = value;
  else return false;
  return true;
}

/* cuTensorMapEncodeTiled (or ...Im2col) with tc5's parameters (same enum values) */
static CUresult encode(CUtensorMap *m, const tc5_tmap_params &p, uint64_t address) {
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], es[5];
  for (unsigned i = 0; i < p.rank; i++) {
    dims[i] = p.dims[i];
    box[i] = p.box[i];
    es[i] = p.estrides[i];
    if (i + 1 < p.rank) strides[i] = p.strides[i];
  }
  if (p.mode == TC5_TMAP_IM2COL) {
    int lower[3], upper[3];
    for (unsigned i = 0; i < 3; i++) lower[i] = p.lower[i], upper[i] = p.upper[i];
    return cuTensorMapEncodeIm2col(m, (CUtensorMapDataType)p.type, p.rank, (void *)address, dims, strides, lower, upper,
                                   p.channels, p.pixels, es, (CUtensorMapInterleave)p.interleave,
                                   (CUtensorMapSwizzle)p.swizzle, (CUtensorMapL2promotion)p.l2,
                                   (CUtensorMapFloatOOBfill)p.oob);
  }
  return cuTensorMapEncodeTiled(m, (CUtensorMapDataType)p.type, p.rank, (void *)address, dims, strides, box, es,
                                (CUtensorMapInterleave)p.interleave, (CUtensorMapSwizzle)p.swizzle,
                                (CUtensorMapL2promotion)p.l2, (CUtensorMapFloatOOBfill)p.oob);
}

static int rules(const char *in, const char *out) {
  FILE *f = fopen(in, "r"), *o = fopen(out, "w");
  if (!f || !o) { fprintf(stderr, "cannot open %s or %s\n", in, out); return 2; }
  CUdeviceptr base;
  CK(cuMemAlloc(&base, 1 << 20));
  char line[1024];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    tmap_keys k;
    tc5_tmap_params p;
    if (tc5_tmap_params_parse(line, &p, tmap_key, &k, NULL)) { fprintf(stderr, "does not parse: %s\n", line); return 2; }
    alignas(64) CUtensorMap m;
    CUresult r = encode(&m, p, base + strtoull(k.offset.c_str(), NULL, 0));
    const char *name = "?";
    if (r != CUDA_SUCCESS) cuGetErrorName(r, &name);
    fprintf(o, "%s\n", r == CUDA_SUCCESS ? "ok" : name);
    n++;
  }
  fclose(o);
  fprintf(stderr, "ptx_silicon: %d tensor maps encoded\n", n);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3 && !(argc == 4 && !strcmp(argv[1], "--rules"))) {
    fprintf(stderr, "usage: ptx_silicon DIR OUT.bin | --rules RULES.txt VERDICTS.txt\n");
    return 2;
  }
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  if (argc == 4) return rules(argv[2], argv[3]);
  std::string dir = argv[1];
  /* TC5_ONLY=N: run only the manifest's N-th kernel (0-based), so that a
   * kernel that faults (a sticky error) does not take the others with it */
  const char *only_env = getenv("TC5_ONLY");
  int only = only_env ? atoi(only_env) : -1;
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
    if (only >= 0 && n++ != only) continue;
    const std::string &file = w[0], &name = w[1];
    unsigned grid[3] = {1, 1, 1}, block = atoi(w[3].c_str()), shared = atoi(w[4].c_str());
    sscanf(w[2].c_str(), "%u,%u,%u", &grid[0], &grid[1], &grid[2]);
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
    std::vector<CUtensorMap> maps(na);
    std::vector<void *> args(na);
    std::vector<std::pair<CUdeviceptr, size_t>> outs;
    std::vector<CUdeviceptr> all;
    for (size_t k = 0; k < na; k++) {
      const std::string &a = w[5 + k];
      if (!a.compare(0, 3, "in:") || !a.compare(0, 6, "inout:")) {
        std::vector<char> d = slurp(dir + "/" + a.substr(a[2] == ':' ? 3 : 6));
        CUdeviceptr p;
        CK(cuMemAlloc(&p, d.size()));
        CK(cuMemcpyHtoD(p, d.data(), d.size()));
        hold[k] = p;
        all.push_back(p);
        if (a[2] != ':') outs.push_back({p, d.size()});
      } else if (!a.compare(0, 5, "tmap:")) {
        tmap_keys tk;
        tc5_tmap_params tp;
        if (tc5_tmap_params_parse(a.c_str() + 5, &tp, tmap_key, &tk, NULL)) {
          fprintf(stderr, "ptx_silicon: %s does not parse\n", a.c_str());
          return 2;
        }
        std::vector<char> d;
        if (!tk.in.empty() || !tk.inout.empty()) d = slurp(dir + "/" + (tk.in.empty() ? tk.inout : tk.in));
        else d.assign(tk.out, 0);
        CUdeviceptr p;
        CK(cuMemAlloc(&p, d.size()));
        CK(cuMemcpyHtoD(p, d.data(), d.size()));
        all.push_back(p);
        if (tk.out || !tk.inout.empty()) outs.push_back({p, d.size()});
        CUresult r = encode(&maps[k], tp, p + strtoull(tk.offset.c_str(), NULL, 0));
        if (r != CUDA_SUCCESS) {
          fprintf(stderr, "ptx_silicon: cuTensorMapEncodeTiled rejects %s\n", a.c_str());
          return 2;
        }
        args[k] = &maps[k];
        continue;
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
      } else if (!a.compare(0, 4, "u64:") || !a.compare(0, 4, "s64:")) {
        hold[k] = a[0] == 'u' ? strtoull(a.c_str() + 4, NULL, 0) : (uint64_t)strtoll(a.c_str() + 4, NULL, 0);
      } else if (!a.compare(0, 4, "f32:")) {
        float v = strtof(a.c_str() + 4, NULL);
        uint32_t b;
        memcpy(&b, &v, 4);
        hold[k] = b;
      } else if (a == "null") {
        hold[k] = 0;
      } else {
        fprintf(stderr, "ptx_silicon: unknown argument %s\n", a.c_str());
        return 2;
      }
      args[k] = &hold[k]; /* the driver reads as many bytes as the parameter has */
    }
    CK(cuLaunchKernel(f, grid[0], grid[1], grid[2], block, 1, 1, shared, 0, args.data(), 0));
    CK(cuCtxSynchronize());
    fflush(stdout);
    for (auto &o : outs) {
      std::vector<char> h(o.second);
      CK(cuMemcpyDtoH(h.data(), o.first, o.second));
      fwrite(h.data(), 1, o.second, out);
    }
    for (CUdeviceptr p : all) CK(cuMemFree(p));
    if (only < 0) n++;
  }
  fclose(out);
  fprintf(stderr, "ptx_silicon: %d kernels run\n", n);
  return 0;
}
