// Times the kernels of PTX files on the GPU through the driver API (the same
// PTX `tc5 run --timing=h200` predicts), for issue 47's Hopper validation.
// usage: ptx_timing DIR OUT.tsv
//   DIR/launches.txt (scripts/timing_corpus.py): one launch a line,
//   "NAME FILE ENTRY GRID BLOCK SHARED ARG...", GRID X,Y,Z, SHARED the dynamic
//   shared bytes; each ARG one of
//     buf:ID:BYTES:FILL   a device buffer (one per ID and line), FILL f16|bf16|f32
//                         (uniform values in [-1, 1) of that type, from a hash of
//                         the index), i32 (0..15) or zero
//     in:F                a device buffer holding the bytes of DIR/F
//     raw:HEX             the parameter's bytes (a struct passed by value)
//     s32:V s64:V u32:V u64:V f32:V   a scalar;  null  a zero pointer (Triton's
//                         global_scratch/profile_scratch when their size is 0)
//     tmap:buf=ID:BYTES:FILL,TEXT   a tensor map (cuTensorMapEncodeTiled) over
//                         that buffer, TEXT as `tc5 run --arg tmap:` (libtc5's
//                         tc5_tmap_params_parse)
//   TC5_ONLY=N runs only line N (0-based; gpu/run.sh runs each line in a process
//   of its own, so that a fault takes no other launch with it).
// Timing: one warm-up launch (errors checked), one launch timed by events (t1);
// a CUDA graph of k = clamp(2 ms / t1, 1, 200) launches of the kernel on the
// same arguments, replayed 3 times to warm up and then 25 times, each replay
// timed by events; per launch = replay / k. OUT.tsv gets a line per launch:
// name, grid, block, shared, k, median_us, min_us, max_us, replays.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
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
  b.push_back(0);
  return b;
}

__device__ __forceinline__ float unif(unsigned long long i, unsigned seed) {
  unsigned long long z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (float)(z >> 40) * 0x1p-23f - 1.0f;
}

/* kind: 0 f16, 1 bf16, 2 f32, 3 i32 */
__global__ void fill_kernel(void *p, size_t n, int kind, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float v = unif(i, seed);
    if (kind == 0) {
      __half_raw h = __half(v);
      ((unsigned short *)p)[i] = h.x;
    } else if (kind == 1) {
      __nv_bfloat16_raw h = __nv_bfloat16(v);
      ((unsigned short *)p)[i] = h.x;
    } else if (kind == 2) {
      ((float *)p)[i] = v;
    } else {
      ((int *)p)[i] = (int)((v + 1.0f) * 8.0f) & 15;
    }
  }
}

struct buffer {
  CUdeviceptr p = 0;
  size_t bytes = 0;
};

/* buf spec "ID:BYTES:FILL": allocates and fills on first sight */
static CUdeviceptr get_buf(std::map<std::string, buffer> &bufs, const std::string &spec, unsigned &seed) {
  size_t c1 = spec.find(':'), c2 = spec.find(':', c1 + 1);
  if (c1 == std::string::npos || c2 == std::string::npos) { fprintf(stderr, "bad buffer %s\n", spec.c_str()); exit(2); }
  std::string id = spec.substr(0, c1), fill = spec.substr(c2 + 1);
  size_t bytes = strtoull(spec.substr(c1 + 1, c2 - c1 - 1).c_str(), NULL, 0);
  auto it = bufs.find(id);
  if (it != bufs.end()) {
    if (it->second.bytes < bytes) { fprintf(stderr, "buffer %s named with two sizes\n", id.c_str()); exit(2); }
    return it->second.p;
  }
  buffer b;
  b.bytes = bytes;
  CK(cuMemAlloc(&b.p, bytes ? bytes : 16));
  CK(cuMemsetD8(b.p, 0, bytes ? bytes : 16));
  int kind = fill == "f16" ? 0 : fill == "bf16" ? 1 : fill == "f32" ? 2 : fill == "i32" ? 3 : -1;
  if (kind >= 0 && bytes) {
    size_t n = bytes / (kind < 2 ? 2 : 4);
    fill_kernel<<<1024, 256>>>((void *)b.p, n, kind, seed++);
    CK(cudaGetLastError());
  }
  bufs[id] = b;
  return b.p;
}

struct tmap_keys {
  std::string buf;
};
static bool tmap_key(void *ctx, const char *key, const char *value) {
  if (strcmp(key, "buf")) return false;
  ((tmap_keys *)ctx)->buf = value;
  return true;
}

static CUresult encode(CUtensorMap *m, const tc5_tmap_params &p, CUdeviceptr address) {
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], es[5];
  for (unsigned i = 0; i < p.rank; i++) {
    dims[i] = p.dims[i];
    box[i] = p.box[i];
    es[i] = p.estrides[i];
    if (i + 1 < p.rank) strides[i] = p.strides[i];
  }
  return cuTensorMapEncodeTiled(m, (CUtensorMapDataType)p.type, p.rank, (void *)address, dims, strides, box, es,
                                (CUtensorMapInterleave)p.interleave, (CUtensorMapSwizzle)p.swizzle,
                                (CUtensorMapL2promotion)p.l2, (CUtensorMapFloatOOBfill)p.oob);
}

struct alignas(64) param_slot {
  unsigned char b[128];
};

static float time_graph(CUgraphExec ge, CUstream s, cudaEvent_t e0, cudaEvent_t e1) {
  CK(cudaEventRecord(e0, (cudaStream_t)s));
  CK(cuGraphLaunch(ge, s));
  CK(cudaEventRecord(e1, (cudaStream_t)s));
  CK(cudaEventSynchronize(e1));
  float ms;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  return ms;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ptx_timing DIR OUT.tsv\n");
    return 2;
  }
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CK(cudaSetDevice(0));
  std::string dir = argv[1];
  const char *only_env = getenv("TC5_ONLY");
  int only = only_env ? atoi(only_env) : -1;
  FILE *man = fopen((dir + "/launches.txt").c_str(), "r");
  FILE *out = fopen(argv[2], "a");
  if (!man || !out) { fprintf(stderr, "cannot open the manifest or the output\n"); return 2; }
  static char line[1 << 16];
  int n = -1;
  while (fgets(line, sizeof line, man)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    n++;
    if (only >= 0 && n != only) continue;
    std::vector<std::string> w;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) w.push_back(t);
    if (w.size() < 6) { fprintf(stderr, "short line %d\n", n); return 2; }
    const std::string &name = w[0];
    std::vector<char> ptx = slurp(dir + "/" + w[1]);
    char log[8192] = "";
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(size_t)sizeof log};
    CUmodule mod;
    if (cuModuleLoadDataEx(&mod, ptx.data(), 2, opt, val) != CUDA_SUCCESS) {
      fprintf(stderr, "%s: the driver does not load %s: %s\n", name.c_str(), w[1].c_str(), log);
      return 2;
    }
    CUfunction f;
    CK(cuModuleGetFunction(&f, mod, w[2].c_str()));
    unsigned grid[3] = {1, 1, 1};
    sscanf(w[3].c_str(), "%u,%u,%u", &grid[0], &grid[1], &grid[2]);
    unsigned block = strtoul(w[4].c_str(), NULL, 0), shared = strtoul(w[5].c_str(), NULL, 0);
    if (shared > 48 * 1024) CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
    std::map<std::string, buffer> bufs;
    unsigned seed = 1;
    std::vector<std::unique_ptr<param_slot>> slots;
    std::vector<void *> args;
    for (size_t i = 6; i < w.size(); i++) {
      const std::string &a = w[i];
      slots.emplace_back(new param_slot());
      unsigned char *b = slots.back()->b;
      if (a == "null") {
        memset(b, 0, 8);
      } else if (!a.compare(0, 4, "buf:")) {
        CUdeviceptr p = get_buf(bufs, a.substr(4), seed);
        memcpy(b, &p, 8);
      } else if (!a.compare(0, 3, "in:")) {
        std::vector<char> d = slurp(dir + "/" + a.substr(3));
        buffer bf;
        bf.bytes = d.size() - 1;
        CK(cuMemAlloc(&bf.p, bf.bytes));
        CK(cuMemcpyHtoD(bf.p, d.data(), bf.bytes));
        bufs["in:" + a.substr(3)] = bf;
        memcpy(b, &bf.p, 8);
      } else if (!a.compare(0, 4, "raw:")) {
        size_t nb = (a.size() - 4) / 2;
        if (nb > sizeof(param_slot)) { fprintf(stderr, "%s: raw argument too long\n", name.c_str()); return 2; }
        for (size_t j = 0; j < nb; j++) b[j] = (unsigned char)strtoul(a.substr(4 + 2 * j, 2).c_str(), NULL, 16);
      } else if (!a.compare(0, 4, "s32:") || !a.compare(0, 4, "u32:")) {
        unsigned v = (unsigned)strtoll(a.c_str() + 4, NULL, 0);
        memcpy(b, &v, 4);
      } else if (!a.compare(0, 4, "s64:") || !a.compare(0, 4, "u64:")) {
        long long v = strtoll(a.c_str() + 4, NULL, 0);
        memcpy(b, &v, 8);
      } else if (!a.compare(0, 4, "f32:")) {
        float v = strtof(a.c_str() + 4, NULL);
        memcpy(b, &v, 4);
      } else if (!a.compare(0, 5, "tmap:")) {
        tmap_keys k;
        tc5_tmap_params p;
        if (tc5_tmap_params_parse(a.c_str() + 5, &p, tmap_key, &k, NULL) || k.buf.empty()) {
          fprintf(stderr, "%s: tensor map does not parse: %s\n", name.c_str(), a.c_str());
          return 2;
        }
        CK(encode((CUtensorMap *)b, p, get_buf(bufs, k.buf, seed)));
      } else {
        fprintf(stderr, "%s: argument %s not understood\n", name.c_str(), a.c_str());
        return 2;
      }
      args.push_back(b);
    }
    CK(cudaDeviceSynchronize());
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cuLaunchKernel(f, grid[0], grid[1], grid[2], block, 1, 1, shared, s, args.data(), 0));
    CK(cuStreamSynchronize(s));
    CK(cudaEventRecord(e0, (cudaStream_t)s));
    CK(cuLaunchKernel(f, grid[0], grid[1], grid[2], block, 1, 1, shared, s, args.data(), 0));
    CK(cudaEventRecord(e1, (cudaStream_t)s));
    CK(cudaEventSynchronize(e1));
    float t1;
    CK(cudaEventElapsedTime(&t1, e0, e1));
    int k = (int)std::min(200.0, std::max(1.0, 2.0 / std::max(t1, 1e-4f)));
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < k; i++) CK(cuLaunchKernel(f, grid[0], grid[1], grid[2], block, 1, 1, shared, s, args.data(), 0));
    CUgraph g;
    CK(cuStreamEndCapture(s, &g));
    CUgraphExec ge;
    CK(cuGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 3; i++) time_graph(ge, s, e0, e1);
    const int R = 25;
    std::vector<double> us;
    for (int i = 0; i < R; i++) us.push_back(1000.0 * time_graph(ge, s, e0, e1) / k);
    std::sort(us.begin(), us.end());
    fprintf(out, "%s\t%u,%u,%u\t%u\t%u\t%d\t%.3f\t%.3f\t%.3f\t%d\n", name.c_str(), grid[0], grid[1], grid[2], block,
            shared, k, us[R / 2], us[0], us[R - 1], R);
    fflush(out);
    printf("%-52s k=%3d median %10.3f us (min %.3f max %.3f)\n", name.c_str(), k, us[R / 2], us[0], us[R - 1]);
    fflush(stdout);
    CK(cuGraphExecDestroy(ge));
    CK(cuGraphDestroy(g));
    CK(cuStreamDestroy(s));
    for (auto &b : bufs) CK(cuMemFree(b.second.p));
    CK(cuModuleUnload(mod));
  }
  fclose(out);
  return 0;
}
