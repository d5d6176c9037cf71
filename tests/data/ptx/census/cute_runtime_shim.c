/*
 * tc5_cuda_shim.c -- a stand-in for CuTe DSL's libcute_dsl_runtime.so that
 * lets a CuTe DSL compiled host function run on a machine without a GPU.
 *
 * CuTe DSL JIT-compiles the host side of a @cute.jit function to native code
 * (MLIR ExecutionEngine) and links it against the libraries listed in
 * CUTE_DSL_LIBS.  That host code only calls the "_cuda*"/"_cu*" wrappers that
 * libcute_dsl_runtime.so exports.  This shim exports the same names: it
 * records library loads, kernel look-ups, attribute sets and every launch
 * (grid, block, cluster, dynamic smem, and the raw bytes of each kernel
 * parameter) as JSON lines in $TC5_SHIM_LOG, and returns success.
 *
 * Parameter sizes are unknown to cudaLaunchKernelEx, so the caller registers
 * them per kernel name with tc5_shim_register() (sizes come from the PTX).
 *
 * Written for the tc5 corpus generator; contains no NVIDIA code.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned x, y, z; } dim3_t;
typedef struct {
  dim3_t grid;
  dim3_t block;
  size_t smem;
  void *stream;
  struct attr_t *attrs;
  unsigned num_attrs;
} launch_cfg_t; /* cudaLaunchConfig_t, 56 bytes */
typedef struct attr_t {
  int id;
  int pad;
  unsigned char val[64];
} attr_t; /* cudaLaunchAttribute, 72 bytes */

#define KERN_MAGIC 0x7c5c0de5u
typedef struct kern_t {
  unsigned magic;
  char name[1024];
  void *lib;
} kern_t;

#define MAXREG 256
static struct {
  char name[1024];
  int n;
  int sizes[256];
} g_reg[MAXREG];
static int g_nreg;
static int g_nlib;
static int g_nlaunch;

static const char *kname(const void *k) {
  const kern_t *kk = (const kern_t *)k;
  return kk && kk->magic == KERN_MAGIC ? kk->name : "?unknown-kernel-handle";
}

static FILE *logf_(void) {
  static FILE *f;
  if (!f) {
    const char *p = getenv("TC5_SHIM_LOG");
    f = p ? fopen(p, "a") : stderr;
    if (!f) f = stderr;
  }
  return f;
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void hex(FILE *f, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  fputc('"', f);
  for (size_t i = 0; i < n; i++) fprintf(f, "%02x", b[i]);
  fputc('"', f);
}

/* ---- API for the Python side (ctypes) ---- */
int tc5_shim_register(const char *name, int n, const int *sizes) {
  int i;
  for (i = 0; i < g_nreg; i++)
    if (!strcmp(g_reg[i].name, name)) break;
  if (i == g_nreg) {
    if (g_nreg == MAXREG) return -1;
    g_nreg++;
  }
  snprintf(g_reg[i].name, sizeof g_reg[i].name, "%s", name);
  g_reg[i].n = n > 256 ? 256 : n;
  for (int k = 0; k < g_reg[i].n; k++) g_reg[i].sizes[k] = sizes[k];
  return 0;
}
int tc5_shim_launch_count(void) { return g_nlaunch; }
void tc5_shim_flush(void) { fflush(logf_()); }

/* ---- device queries: answer as one B200 (sm_100, 148 SMs) ---- */
int _cudaGetDevice(int *d) { if (d) *d = 0; return 0; }
int _cudaSetDevice(int d) { (void)d; return 0; }
int _cudaGetDeviceCount(int *c) { if (c) *c = 1; return 0; }
int _cuDeviceGet(int *d, int o) { if (d) *d = o; return 0; }
int _cudaDeviceGetAttribute(int *v, int attr, int dev) {
  int r = 0;
  switch (attr) {
  case 1: r = 1024; break;     /* max threads per block */
  case 8: r = 49152; break;    /* max shared per block */
  case 16: r = 148; break;     /* SM count */
  case 38: r = 128 << 20; break;
  case 75: r = 10; break;      /* cc major */
  case 76: r = 0; break;       /* cc minor */
  case 81: r = 233472; break;  /* max shared per SM */
  case 97: r = 232448; break;  /* max shared per block opt-in */
  case 106: r = 32; break;
  case 120: r = 1; break;      /* cluster launch */
  default: r = 0;
  }
  if (v) *v = r;
  FILE *f = logf_();
  fprintf(f, "{\"call\":\"cudaDeviceGetAttribute\",\"attr\":%d,\"dev\":%d,\"value\":%d}\n", attr, dev, r);
  return 0;
}
int _cudaGetDeviceProperties(void *prop, int dev) { (void)prop; (void)dev; return 0; }
int _cuKernelGetAttribute(int *pi, int attr, void *k, int dev) {
  if (pi) *pi = 0; /* static smem etc.: unknown, report 0 */
  FILE *f = logf_();
  fprintf(f, "{\"call\":\"cuKernelGetAttribute\",\"attr\":%d,\"kernel\":", attr);
  json_str(f, kname(k));
  fprintf(f, ",\"dev\":%d}\n", dev);
  return 0;
}
int _cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *fn, int bs, size_t smem) {
  (void)fn; (void)bs; (void)smem;
  if (n) *n = 1;
  return 0;
}

/* ---- libraries and kernels ---- */
static void lib_load_log(const void *code, const char *how) {
  const unsigned char *b = (const unsigned char *)code;
  uint32_t magic = 0;
  uint64_t size = 0;
  if (b) memcpy(&magic, b, 4);
  if (magic == 0xBA55ED50u) { memcpy(&size, b + 8, 8); size += 16; }
  FILE *f = logf_();
  fprintf(f, "{\"call\":\"%s\",\"lib\":%d,\"magic\":\"0x%08x\",\"fatbin_bytes\":%llu}\n", how,
          g_nlib, magic, (unsigned long long)size);
  const char *dir = getenv("TC5_SHIM_DUMP");
  if (dir && size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/lib%d.fatbin", dir, g_nlib);
    FILE *o = fopen(path, "wb");
    if (o) { fwrite(b, 1, size, o); fclose(o); }
  }
}
int _cudaLibraryLoadData(void **lib, const void *code, void *a, void *b, unsigned c, void *d, void *e, unsigned g) {
  (void)a; (void)b; (void)c; (void)d; (void)e; (void)g;
  lib_load_log(code, "cudaLibraryLoadData");
  if (lib) *lib = (void *)(uintptr_t)(0x1000 + 0x10 * (++g_nlib));
  return 0;
}
int _cuLibraryLoadData(void **lib, const void *code, void *a, void *b, unsigned c, void *d, void *e, unsigned g) {
  return _cudaLibraryLoadData(lib, code, a, b, c, d, e, g);
}
int _cudaLibraryLoadFromFile(void **lib, const char *fn, void *a, void *b, unsigned c, void *d, void *e, unsigned g) {
  (void)a; (void)b; (void)c; (void)d; (void)e; (void)g;
  FILE *f = logf_();
  fprintf(f, "{\"call\":\"cudaLibraryLoadFromFile\",\"file\":");
  json_str(f, fn ? fn : "");
  fprintf(f, "}\n");
  if (lib) *lib = (void *)(uintptr_t)(0x1000 + 0x10 * (++g_nlib));
  return 0;
}
int _cuLibraryLoadFromFile(void **lib, const char *fn, void *a, void *b, unsigned c, void *d, void *e, unsigned g) {
  return _cudaLibraryLoadFromFile(lib, fn, a, b, c, d, e, g);
}
int _cudaLibraryUnload(void *lib) { (void)lib; return 0; }
int _cuLibraryUnload(void *lib) { (void)lib; return 0; }
int _cudaLibraryGetKernel(void **k, void *lib, const char *name) {
  kern_t *kk = (kern_t *)calloc(1, sizeof *kk);
  kk->magic = KERN_MAGIC;
  snprintf(kk->name, sizeof kk->name, "%s", name ? name : "");
  kk->lib = lib;
  if (k) *k = kk;
  FILE *f = logf_();
  fprintf(f, "{\"call\":\"cudaLibraryGetKernel\",\"name\":");
  json_str(f, kk->name);
  fprintf(f, "}\n");
  return 0;
}
int _cuLibraryGetKernel(void **k, void *lib, const char *name) { return _cudaLibraryGetKernel(k, lib, name); }
int _cudaLibraryGetKernelCount(unsigned *n, void *lib) { (void)lib; if (n) *n = 0; return 0; }
int _cuLibraryGetKernelCount(unsigned *n, void *lib) { (void)lib; if (n) *n = 0; return 0; }

static void attr_log(const char *how, void *k, int attr, int value, int dev) {
  FILE *f = logf_();
  fprintf(f, "{\"call\":\"%s\",\"kernel\":", how);
  json_str(f, kname(k));
  fprintf(f, ",\"attr\":%d,\"value\":%d,\"dev\":%d}\n", attr, value, dev);
}
int _cudaKernelSetAttributeForDevice(void *k, int attr, int value, int dev) {
  attr_log("cudaKernelSetAttributeForDevice", k, attr, value, dev);
  return 0;
}
int _cudaFuncSetAttribute(void *k, int attr, int value) {
  attr_log("cudaFuncSetAttribute", k, attr, value, -1);
  return 0;
}

/* ---- launches ---- */
static void launch_log(const char *how, kern_t *k, dim3_t g, dim3_t b, size_t smem, void *stream,
                       const attr_t *attrs, unsigned nattrs, void **args) {
  FILE *f = logf_();
  const char *name = kname(k);
  g_nlaunch++;
  fprintf(f, "{\"call\":\"%s\",\"kernel\":", how);
  json_str(f, name);
  fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"smem\":%zu,\"stream\":%llu,\"attrs\":[",
          g.x, g.y, g.z, b.x, b.y, b.z, smem, (unsigned long long)(uintptr_t)stream);
  for (unsigned i = 0; i < nattrs; i++) {
    unsigned v[3];
    memcpy(v, attrs[i].val, sizeof v);
    fprintf(f, "%s{\"id\":%d,\"u32\":[%u,%u,%u]}", i ? "," : "", attrs[i].id, v[0], v[1], v[2]);
  }
  fprintf(f, "],\"params\":");
  int r;
  for (r = 0; r < g_nreg; r++)
    if (!strcmp(g_reg[r].name, name)) break;
  if (r == g_nreg || !args) {
    fprintf(f, "null}\n");
    fflush(f);
    return;
  }
  fputc('[', f);
  for (int i = 0; i < g_reg[r].n; i++) {
    if (i) fputc(',', f);
    hex(f, args[i], (size_t)g_reg[r].sizes[i]);
  }
  fprintf(f, "]}\n");
  fflush(f);
}
int _cudaLaunchKernelEx(const launch_cfg_t *cfg, void *k, void **args) {
  launch_log("cudaLaunchKernelEx", (kern_t *)k, cfg->grid, cfg->block, cfg->smem, cfg->stream,
             cfg->attrs, cfg->num_attrs, args);
  return 0;
}
int _cudaLaunchKernel(void *k, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                      unsigned bz, void **args, size_t smem, void *stream) {
  dim3_t g = {gx, gy, gz}, b = {bx, by, bz};
  launch_log("cudaLaunchKernel", (kern_t *)k, g, b, smem, stream, NULL, 0, args);
  return 0;
}

/* ---- memory: host memory stands in for device memory ---- */
int _cudaMalloc(void **p, size_t n) { *p = calloc(1, n ? n : 1); return 0; }
int _cudaMallocAsync(void **p, size_t n, void *s) { (void)s; *p = calloc(1, n ? n : 1); return 0; }
int _cudaMallocHost(void **p, size_t n) { *p = calloc(1, n ? n : 1); return 0; }
int _cudaMallocManaged(void **p, size_t n, unsigned fl) { (void)fl; *p = calloc(1, n ? n : 1); return 0; }
int _cudaFree(void *p) { (void)p; return 0; }
int _cudaFreeAsync(void *p, void *s) { (void)p; (void)s; return 0; }
int _cudaFreeHost(void *p) { (void)p; return 0; }
int _cudaMemcpy(void *d, const void *s, size_t n, int k) { (void)k; if (d && s && n) memmove(d, s, n); return 0; }
int _cudaMemcpyAsync(void *d, const void *s, size_t n, int k, void *st) { (void)k; (void)st; if (d && s && n) memmove(d, s, n); return 0; }
int _cudaMemset(void *d, int v, size_t n) { if (d && n) memset(d, v, n); return 0; }
int _cudaMemsetAsync(void *d, int v, size_t n, void *st) { (void)st; if (d && n) memset(d, v, n); return 0; }

/* ---- tensor maps (the DSL usually encodes them itself, inline) ---- */
int _cuTensorMapEncodeTiled(void *tm, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                            const uint64_t *strides, const unsigned *box, const unsigned *estr,
                            int interleave, int swizzle, int l2, int oob) {
  FILE *f = logf_();
  fprintf(f, "{\"call\":\"cuTensorMapEncodeTiled\",\"dtype\":%d,\"rank\":%u,\"addr\":%llu,\"dims\":[", dtype,
          rank, (unsigned long long)(uintptr_t)addr);
  for (unsigned i = 0; i < rank; i++) fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)dims[i]);
  fprintf(f, "],\"strides\":[");
  for (unsigned i = 0; i + 1 < rank; i++) fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)strides[i]);
  fprintf(f, "],\"box\":[");
  for (unsigned i = 0; i < rank; i++) fprintf(f, "%s%u", i ? "," : "", box[i]);
  fprintf(f, "],\"elem_strides\":[");
  for (unsigned i = 0; i < rank; i++) fprintf(f, "%s%u", i ? "," : "", estr[i]);
  fprintf(f, "],\"interleave\":%d,\"swizzle\":%d,\"l2\":%d,\"oob\":%d}\n", interleave, swizzle, l2, oob);
  if (tm) memset(tm, 0, 128);
  return 0;
}

/* ---- everything else: succeed and do nothing ---- */
#define STUB(n) int n(void) { return 0; }
STUB(_cudaDeviceSynchronize)
STUB(_cudaEventCreate)
STUB(_cudaEventDestroy)
STUB(_cudaEventElapsedTime)
STUB(_cudaEventRecord)
STUB(_cudaGraphDestroy)
STUB(_cudaGraphExecDestroy)
STUB(_cudaGraphInstantiate)
STUB(_cudaGraphLaunch)
STUB(_cudaLibraryGetGlobal)
STUB(_cudaLibraryGetManaged)
STUB(_cudaLibraryGetUnifiedFunction)
STUB(_cuLibraryGetGlobal)
STUB(_cuLibraryGetManaged)
STUB(_cuLibraryGetModule)
STUB(_cuLibraryGetUnifiedFunction)
STUB(_cudaProfilerStart)
STUB(_cudaProfilerStop)
STUB(_cudaStreamAddCallback)
STUB(_cudaStreamBeginCapture)
STUB(_cudaStreamCreate)
STUB(_cudaStreamDestroy)
STUB(_cudaStreamEndCapture)
STUB(_cudaStreamSynchronize)
STUB(_cudaStreamWaitEvent)
STUB(cuda_dialect_assert_success)
STUB(cuda_dialect_print_on_error)
/* TVM-FFI host code: load the module's library once (device 0 only).
   init(&lib) runs cudaLibraryLoadData; load(&lib, dev) looks the kernels up. */
typedef int (*init_fn)(void **);
typedef int (*load_fn)(void **, int);
int cuda_dialect_init_library_once(int64_t *state, init_fn init, load_fn load, void *err_fn) {
  (void)err_fn;
  if (state && *state) return 0;
  void *lib = NULL;
  int r = init(&lib);
  if (r) return r;
  r = load(&lib, 0);
  if (r) return r;
  if (state) *state = (int64_t)(uintptr_t)lib;
  return 0;
}
void cuda_dialect_unload_library_once(int64_t *state) { (void)state; }
const char *cuda_dialect_get_error_name(int e) { (void)e; return "cudaSuccess"; }
const char *CuteDSLRT_GetErrorName(int e) { (void)e; return "CUTE_DSL_SUCCESS"; }
const char *CuteDSLRT_GetErrorString(int e) { (void)e; return "shim"; }
STUB(CuteDSLRT_TVMFFISetRaisedCudaError)
STUB(CuteDSLRT_TVMFFISetRaisedCudaLaunchError)
