/* tc5 — the CUDA runtime that CuTe DSL's compiled programs call, backed by
 * tc5's PTX runner (docs/cute.md).
 *
 * cute.compile links the host half of a program (MLIR's ExecutionEngine)
 * against the library CUTE_DSL_LIBS names, by default CuTe DSL's own
 * libcute_dsl_runtime.so: a statically linked CUDA runtime whose entry
 * points carry a leading underscore (_cudaLibraryLoadData,
 * _cudaLibraryGetKernel, _cudaLaunchKernelEx, _cuTensorMapEncodeTiled,
 * _cudaMalloc...; the list below is that library's, nvidia-cutlass-dsl
 * 4.8.1). This library exports the same names, so CUTE_DSL_LIBS=<this
 * file> (tc5.cute.activate(), TC5_CUTE=1) puts tc5 behind the door the
 * program already uses: its kernel parameters, grid, cluster and dynamic
 * shared memory come from the program itself.
 *
 *   - libraries and kernels: the cubin CuTe DSL embeds cannot run on tc5,
 *     so the PTX the same compile wrote is registered first
 *     (tc5cute_register_ptx; tc5.cute does it from the compiled function's
 *     artifacts) and _cudaLibraryGetKernel finds the .entry by name;
 *   - launches: each .param's bytes as the program packed them
 *     (TC5_PTX_ARG_BYTES), at host addresses; the memory a kernel may touch
 *     is this library's allocations plus the regions the host names
 *     through tc5cute_set_region_callback (tc5.cute: the live NumPy arrays
 *     and PyTorch CPU tensors that contain the pointers found in the
 *     parameters and in the tensor maps);
 *   - tensor maps: _cuTensorMapEncodeTiled writes CUDA's own bytes (those of
 *     an H100's driver: tc5_tensormap_cuda_encode) where they are measured
 *     and tc5's encoding for the Blackwell-only modes; the runner reads both;
 *   - memory: cudaMalloc is host memory (256-byte aligned), copies are
 *     memcpy, streams and events are the host's order and clock.
 *
 * Every entry returns an error code and never aborts or prints; the last
 * failure's text (a kernel tc5 refuses, a checker finding, an entry point
 * tc5 does not model) is tc5cute_last_error(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include "tc5/check.h"
#include "tc5/ptx.h"
#include "tc5/tensormap.h"

#define EXPORT __attribute__((visibility("default")))

/* cudaError_t / CUresult values this library returns */
enum {
  OK = 0, E_INVALID_VALUE = 1, E_MEMORY = 2, E_INVALID_DEVICE_FUNCTION = 98, E_INVALID_DEVICE = 101,
  E_INVALID_PTX = 218, E_NOT_FOUND = 500, E_LAUNCH_FAILURE = 719, E_NOT_SUPPORTED = 801
};

/* ---- the last failure ---- */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char last_error[65536];
static int last_status; /* the tc5_status of the last launch failure, 0 none */
static int last_findings;

static int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static int fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return code;
}

/* ---- the API of this library for its host (tc5.cute) ---- */
EXPORT const char *tc5cute_last_error(void);
EXPORT int tc5cute_last_status(void);
EXPORT int tc5cute_last_findings(void);
EXPORT void tc5cute_clear_error(void);
EXPORT int tc5cute_register_ptx(const char *text, const char *name);
typedef unsigned (*tc5cute_region_fn)(const uint64_t *candidates, unsigned n, uint64_t *lo, uint64_t *size,
                                      unsigned max);
EXPORT void tc5cute_set_region_callback(tc5cute_region_fn fn);
EXPORT void tc5cute_set_check(int mode);
EXPORT void tc5cute_set_threads(unsigned threads);
EXPORT unsigned tc5cute_launches(void);
/* the timing model's predictions of the launches so far (TC5_TIMING): how
 * many launches had one, and their predicted seconds summed (issue 47) */
EXPORT unsigned tc5cute_timed_launches(void);
EXPORT double tc5cute_timed_seconds(void);

const char *tc5cute_last_error(void) { return last_error; }
int tc5cute_last_status(void) { return last_status; }
int tc5cute_last_findings(void) { return last_findings; }
void tc5cute_clear_error(void) { last_error[0] = 0, last_status = 0, last_findings = 0; }

/* the registered PTX, newest first */
typedef struct ptx_text {
  struct ptx_text *next;
  char *name;
  tc5_ptx_module *m;
} ptx_text;
static ptx_text *texts;
static tc5cute_region_fn region_fn;
static tc5_check_mode check_mode = TC5_CHECK_DEFAULT;
static unsigned host_threads;
static unsigned launches;

void tc5cute_set_region_callback(tc5cute_region_fn fn) { region_fn = fn; }
void tc5cute_set_check(int mode) { check_mode = (tc5_check_mode)mode; }
void tc5cute_set_threads(unsigned threads) { host_threads = threads; }
unsigned tc5cute_launches(void) { return launches; }
static unsigned timed_launches;
static double timed_seconds;
unsigned tc5cute_timed_launches(void) { return timed_launches; }
double tc5cute_timed_seconds(void) { return timed_seconds; }

int tc5cute_register_ptx(const char *text, const char *name) {
  if (!text) return fail(E_INVALID_VALUE, "tc5cute_register_ptx: no text");
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m = NULL;
  tc5_status st = tc5_ptx_load(text, strlen(text), name ? name : "cute.ptx", &m, &dg);
  if (st) {
    last_status = (int)st;
    return fail(E_INVALID_PTX, "tc5 cannot load the kernel's PTX (%s): %s", tc5_strerror(st),
                dg.count ? dg.issue[0].message : "");
  }
  ptx_text *t = calloc(1, sizeof *t);
  if (!t) {
    tc5_ptx_free(m);
    return fail(E_MEMORY, "tc5cute_register_ptx: out of memory");
  }
  t->m = m;
  t->name = strdup(name ? name : "cute.ptx");
  pthread_mutex_lock(&lock);
  t->next = texts;
  texts = t;
  pthread_mutex_unlock(&lock);
  return OK;
}

/* ---- allocations: host memory that kernels may use ---- */
typedef struct alloc {
  struct alloc *next;
  void *raw, *p;
  size_t n;
} alloc;
static alloc *allocs;

static int do_malloc(void **out, size_t n) {
  if (!out) return E_INVALID_VALUE;
  alloc *a = calloc(1, sizeof *a);
  void *raw = a ? calloc(1, n + 256) : NULL;
  if (!raw) {
    free(a);
    return fail(E_MEMORY, "cudaMalloc: %zu bytes of host memory could not be allocated", n);
  }
  a->raw = raw;
  a->p = (void *)(((uintptr_t)raw + 255) & ~(uintptr_t)255);
  a->n = n ? n : 1;
  pthread_mutex_lock(&lock);
  a->next = allocs;
  allocs = a;
  pthread_mutex_unlock(&lock);
  *out = a->p;
  return OK;
}
static int do_free(void *p) {
  if (!p) return OK;
  pthread_mutex_lock(&lock);
  for (alloc **q = &allocs; *q; q = &(*q)->next)
    if ((*q)->p == p) {
      alloc *a = *q;
      *q = a->next;
      pthread_mutex_unlock(&lock);
      free(a->raw);
      free(a);
      return OK;
    }
  pthread_mutex_unlock(&lock);
  return fail(E_INVALID_VALUE, "cudaFree: %p is no allocation of cudaMalloc", p);
}

/* ---- libraries and kernels ---- */
typedef struct kernel {
  char *name;
  const tc5_ptx_module *m;
  unsigned nparams;
  uint32_t *sizes;
  uint32_t static_shared;
} kernel;
typedef struct library {
  unsigned magic;
} library;
#define LIB_MAGIC 0x7c5c0de5u

static int library_load(void **lib) {
  if (!lib) return E_INVALID_VALUE;
  library *l = calloc(1, sizeof *l);
  if (!l) return E_MEMORY;
  l->magic = LIB_MAGIC;
  *lib = l;
  return OK;
}

static int get_kernel(void **out, const char *name) {
  if (!out || !name) return E_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  for (ptx_text *t = texts; t; t = t->next) {
    unsigned n = 0;
    tc5_ptx_entry_count(t->m, &n);
    for (unsigned i = 0; i < n; i++) {
      const char *en = NULL;
      unsigned np = 0;
      uint32_t ss = 0, rq[3] = {0, 0, 0};
      if (tc5_ptx_entry_info(t->m, i, &en, &np, NULL, 0, &ss, rq) || !en || strcmp(en, name)) continue;
      kernel *k = calloc(1, sizeof *k);
      tc5_ptx_param_info *pi = calloc(np ? np : 1, sizeof *pi);
      if (!k || !pi) {
        free(k), free(pi);
        pthread_mutex_unlock(&lock);
        return E_MEMORY;
      }
      tc5_ptx_entry_info(t->m, i, &en, &np, pi, np, &ss, rq);
      k->sizes = calloc(np ? np : 1, sizeof *k->sizes);
      for (unsigned j = 0; k->sizes && j < np; j++) k->sizes[j] = pi[j].size;
      free(pi);
      k->name = strdup(name);
      k->m = t->m, k->nparams = np, k->static_shared = ss;
      pthread_mutex_unlock(&lock);
      if (!k->name || !k->sizes) {
        free(k->name), free(k->sizes), free(k);
        return fail(E_MEMORY, "tc5: out of memory");
      }
      *out = k;
      return OK;
    }
  }
  pthread_mutex_unlock(&lock);
  return fail(E_INVALID_DEVICE_FUNCTION,
              "tc5: no registered PTX has kernel %s (tc5.cute registers the PTX of each compiled function; "
              "a function compiled before tc5.cute.activate() has none)", name);
}

/* ---- launches ---- */
typedef struct finding_buf {
  char *text;
  size_t len, cap;
  unsigned n;
} finding_buf;
static void add_text(finding_buf *b, const char *s) {
  size_t n = strlen(s);
  if (b->len + n + 1 > b->cap) {
    size_t cap = (b->len + n + 1) * 2;
    char *t = realloc(b->text, cap);
    if (!t) return;
    b->text = t, b->cap = cap;
  }
  memcpy(b->text + b->len, s, n + 1);
  b->len += n;
}
static void on_finding(void *ctx, const tc5_check_finding *f) {
  finding_buf *b = ctx;
  const tc5_check_rule *r = NULL;
  tc5_check_rule_get(f->rule, &r);
  char head[1024];
  snprintf(head, sizeof head, "%s[%s] at PTX line %u%s%s%s", b->n ? "\n" : "", r ? r->id : "?", (unsigned)f->line,
           f->src[0] ? " (" : "", f->src, f->src[0] ? ")" : "");
  add_text(b, head);
  if (f->count > 1) {
    snprintf(head, sizeof head, " x%llu", (unsigned long long)f->count);
    add_text(b, head);
  }
  add_text(b, "\n");
  add_text(b, f->text);
  b->n++;
}

static void print_fn(void *ctx, const char *text, size_t len) {
  (void)ctx;
  fwrite(text, 1, len, stdout);
  fflush(stdout);
}

#define MAX_REGIONS 4096
typedef struct region_set {
  uint64_t lo[MAX_REGIONS], size[MAX_REGIONS];
  unsigned n;
} region_set;

static int launch(const kernel *k, const uint32_t grid[3], const uint32_t block[3], size_t smem,
                  const uint32_t cluster[3], void **args) {
  if (!k || !k->name) return fail(E_INVALID_DEVICE_FUNCTION, "tc5: a launch of no kernel");
  if (k->nparams && !args) return fail(E_INVALID_VALUE, "tc5: kernel %s takes %u parameters, no arguments given",
                                       k->name, k->nparams);
  unsigned np = k->nparams;
  /* candidate pointers: every aligned 8-byte word of the parameters (pointers, tensor maps' addresses) */
  size_t words = 1;
  for (unsigned i = 0; i < np; i++) words += k->sizes[i] / 8;
  uint64_t *cand = calloc(words, sizeof *cand);
  region_set *rs = calloc(1, sizeof *rs);
  tc5_ptx_arg *pa = calloc((size_t)np + MAX_REGIONS + 1024, sizeof *pa);
  if (!cand || !rs || !pa) {
    free(cand), free(rs), free(pa);
    return fail(E_MEMORY, "tc5: out of memory");
  }
  unsigned nc = 0;
  for (unsigned i = 0; i < np; i++) {
    if (!args[i]) {
      free(cand), free(rs), free(pa);
      return fail(E_INVALID_VALUE, "tc5: kernel %s: argument %u is NULL", k->name, i);
    }
    for (uint32_t o = 0; o + 8 <= k->sizes[i] && nc < words; o += 8) {
      uint64_t v;
      memcpy(&v, (const uint8_t *)args[i] + o, 8);
      if (v >= 0x10000 && v < 0x800000000000ull) cand[nc++] = v;
    }
  }
  unsigned na = 0;
  for (unsigned i = 0; i < np; i++) {
    pa[na].kind = TC5_PTX_ARG_BYTES;
    pa[na].data = args[i];
    pa[na].bytes = k->sizes[i];
    na++;
  }
  /* the host's regions that hold any candidate, then this library's allocations */
  if (region_fn && nc) rs->n = region_fn(cand, nc, rs->lo, rs->size, MAX_REGIONS);
  if (rs->n > MAX_REGIONS) rs->n = MAX_REGIONS;
  for (unsigned r = 0; r < rs->n; r++) {
    pa[na].kind = TC5_PTX_ARG_GLOBAL;
    pa[na].data = (void *)(uintptr_t)rs->lo[r];
    pa[na].bytes = rs->size[r];
    na++;
  }
  pthread_mutex_lock(&lock);
  for (alloc *a = allocs; a && na < np + MAX_REGIONS + 1024; a = a->next) {
    pa[na].kind = TC5_PTX_ARG_GLOBAL;
    pa[na].data = a->p;
    pa[na].bytes = a->n;
    na++;
  }
  pthread_mutex_unlock(&lock);
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.entry = k->name;
  for (unsigned d = 0; d < 3; d++) {
    cfg.grid[d] = grid[d], cfg.block[d] = block[d];
    cfg.cluster[d] = cluster ? cluster[d] : 0;
  }
  cfg.dynamic_shared = (uint32_t)smem;
  cfg.threads = host_threads;
  cfg.print = print_fn;
  cfg.check = check_mode;
  finding_buf fb = {0};
  cfg.on_finding = on_finding;
  cfg.finding_ctx = &fb;
  cfg.host_addresses = true;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_stats stats;
  tc5_timing_result tr; /* TC5_TIMING's prediction (cfg.timing NULL: the environment's) */
  memset(&tr, 0, sizeof tr);
  cfg.timing_result = &tr;
  tc5_status st = tc5_ptx_launch(k->m, &cfg, pa, na, &stats, &dg);
  free(cand), free(rs), free(pa);
  launches++;
  if (tr.valid) {
    pthread_mutex_lock(&lock);
    timed_launches++;
    timed_seconds += tr.seconds;
    pthread_mutex_unlock(&lock);
  }
  if (st == TC5_EHAZARD) {
    last_status = (int)st;
    last_findings = (int)fb.n;
    fail(E_LAUNCH_FAILURE, "tc5: kernel %s breaks the tcgen05 rules (the checker's %u finding(s)):\n%s", k->name, fb.n,
         fb.text ? fb.text : "");
    free(fb.text);
    return E_LAUNCH_FAILURE;
  }
  free(fb.text);
  if (st) {
    last_status = (int)st;
    char msg[8192] = "";
    size_t off = 0;
    for (unsigned i = 0; i < dg.count && off < sizeof msg - 2; i++)
      off += (size_t)snprintf(msg + off, sizeof msg - off, "%s%s", i ? "\n  - " : "", dg.issue[i].message);
    return fail(E_LAUNCH_FAILURE, "tc5: kernel %s failed (%s): %s", k->name, tc5_strerror(st), msg);
  }
  return OK;
}

/* ---- the CUDA runtime's types, as cuda_runtime_api.h lays them out ---- */
typedef struct dim3 {
  unsigned x, y, z;
} dim3;
typedef struct launch_attr {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } cluster;
  } val;
} launch_attr;
typedef struct launch_config {
  dim3 grid, block;
  size_t smem;
  void *stream;
  launch_attr *attrs;
  unsigned nattrs;
} launch_config;
enum { ATTR_CLUSTER_DIMENSION = 4 };

/* ---- the entry points ---- */
#define E(ret, name, ...) EXPORT ret name(__VA_ARGS__)
E(int, _cudaLibraryLoadData, void **lib, const void *code, void *jo, void **jov, unsigned njo, void *lo, void **lov,
  unsigned nlo);
E(int, _cuLibraryLoadData, void **lib, const void *code, void *jo, void **jov, unsigned njo, void *lo, void **lov,
  unsigned nlo);
E(int, _cudaLibraryUnload, void *lib);
E(int, _cuLibraryUnload, void *lib);
E(int, _cudaLibraryGetKernel, void **k, void *lib, const char *name);
E(int, _cuLibraryGetKernel, void **k, void *lib, const char *name);
E(int, _cudaKernelSetAttributeForDevice, void *k, int attr, int value, int device);
E(int, _cudaFuncSetAttribute, const void *f, int attr, int value);
E(int, _cuKernelGetAttribute, int *v, int attr, void *k, int dev);
E(int, _cudaLaunchKernelEx, const launch_config *cfg, const void *f, void **args);
E(int, _cudaLaunchKernel, const void *f, dim3 grid, dim3 block, void **args, size_t smem, void *stream);
E(int, _cuTensorMapEncodeTiled, void *map, int type, unsigned rank, void *addr, const uint64_t *dims,
  const uint64_t *strides, const uint32_t *box, const uint32_t *es, int il, int sw, int l2, int oob);
E(int, _cudaMalloc, void **p, size_t n);
E(int, _cudaMallocAsync, void **p, size_t n, void *stream);
E(int, _cudaMallocHost, void **p, size_t n);
E(int, _cudaMallocManaged, void **p, size_t n, unsigned flags);
E(int, _cudaFree, void *p);
E(int, _cudaFreeAsync, void *p, void *stream);
E(int, _cudaFreeHost, void *p);
E(int, _cudaMemcpy, void *d, const void *s, size_t n, int kind);
E(int, _cudaMemcpyAsync, void *d, const void *s, size_t n, int kind, void *stream);
E(int, _cudaMemset, void *p, int v, size_t n);
E(int, _cudaMemsetAsync, void *p, int v, size_t n, void *stream);
E(int, _cudaGetDevice, int *d);
E(int, _cudaSetDevice, int d);
E(int, _cudaGetDeviceCount, int *n);
E(int, _cuDeviceGet, int *d, int ordinal);
E(int, _cudaDeviceGetAttribute, int *v, int attr, int device);
E(int, _cudaDeviceSynchronize, void);
E(int, _cudaGetLastError, void);
E(int, _cudaStreamCreate, void **s);
E(int, _cudaStreamDestroy, void *s);
E(int, _cudaStreamSynchronize, void *s);
E(int, _cudaStreamWaitEvent, void *s, void *e, unsigned flags);
E(int, _cudaEventCreate, void **e);
E(int, _cudaEventCreateWithFlags, void **e, unsigned flags);
E(int, _cudaEventDestroy, void *e);
E(int, _cudaEventRecord, void *e, void *s);
E(int, _cudaEventRecordWithFlags, void *e, void *s, unsigned flags);
E(int, _cudaEventSynchronize, void *e);
E(int, _cudaEventQuery, void *e);
E(int, _cudaEventElapsedTime, float *ms, void *a, void *b);
E(int, _cudaOccupancyMaxActiveBlocksPerMultiprocessor, int *n, const void *f, int block, size_t smem);
E(int, _cudaProfilerStart, void);
E(int, _cudaProfilerStop, void);
E(void, cuda_dialect_assert_success, int code);
E(const char *, cuda_dialect_get_error_name, int code);
E(void, cuda_dialect_print_on_error, int code);

int _cudaLibraryLoadData(void **lib, const void *code, void *jo, void **jov, unsigned njo, void *lo, void **lov,
                         unsigned nlo) {
  (void)code, (void)jo, (void)jov, (void)njo, (void)lo, (void)lov, (void)nlo;
  return library_load(lib);
}
int _cuLibraryLoadData(void **lib, const void *code, void *jo, void **jov, unsigned njo, void *lo, void **lov,
                       unsigned nlo) {
  return _cudaLibraryLoadData(lib, code, jo, jov, njo, lo, lov, nlo);
}
int _cudaLibraryUnload(void *lib) {
  free(lib);
  return OK;
}
int _cuLibraryUnload(void *lib) { return _cudaLibraryUnload(lib); }
int _cudaLibraryGetKernel(void **k, void *lib, const char *name) {
  (void)lib;
  return get_kernel(k, name);
}
int _cuLibraryGetKernel(void **k, void *lib, const char *name) { return _cudaLibraryGetKernel(k, lib, name); }
int _cudaKernelSetAttributeForDevice(void *k, int attr, int value, int device) {
  (void)k, (void)attr, (void)value, (void)device;
  return OK;
}
int _cudaFuncSetAttribute(const void *f, int attr, int value) {
  (void)f, (void)attr, (void)value;
  return OK;
}
int _cuKernelGetAttribute(int *v, int attr, void *k, int dev) {
  (void)attr, (void)k, (void)dev;
  if (v) *v = 0;
  return OK;
}
int _cudaLaunchKernelEx(const launch_config *cfg, const void *f, void **args) {
  if (!cfg) return fail(E_INVALID_VALUE, "cudaLaunchKernelEx: no configuration");
  uint32_t grid[3] = {cfg->grid.x, cfg->grid.y, cfg->grid.z}, block[3] = {cfg->block.x, cfg->block.y, cfg->block.z};
  uint32_t cluster[3] = {0, 0, 0};
  for (unsigned i = 0; cfg->attrs && i < cfg->nattrs; i++)
    if (cfg->attrs[i].id == ATTR_CLUSTER_DIMENSION) {
      cluster[0] = cfg->attrs[i].val.cluster.x, cluster[1] = cfg->attrs[i].val.cluster.y;
      cluster[2] = cfg->attrs[i].val.cluster.z;
    }
  return launch(f, grid, block, cfg->smem, cluster, args);
}
int _cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t smem, void *stream) {
  (void)stream;
  uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  return launch(f, g, b, smem, NULL, args);
}
int _cuTensorMapEncodeTiled(void *map, int type, unsigned rank, void *addr, const uint64_t *dims,
                            const uint64_t *strides, const uint32_t *box, const uint32_t *es, int il, int sw, int l2,
                            int oob) {
  if (!map || !dims || !box || !es || (rank > 1 && !strides) || rank < 1 || rank > TC5_TENSORMAP_MAX_RANK)
    return fail(E_INVALID_VALUE, "cuTensorMapEncodeTiled: tensorRank %u or a NULL array", rank);
  tc5_tmap_params p;
  memset(&p, 0, sizeof p);
  p.mode = TC5_TMAP_TILED;
  p.type = (tc5_tmap_type)type;
  p.rank = rank;
  p.address = (uint64_t)(uintptr_t)addr;
  for (unsigned i = 0; i < rank; i++) {
    p.dims[i] = dims[i], p.box[i] = box[i], p.estrides[i] = es[i];
    if (i + 1 < rank) p.strides[i] = strides[i];
  }
  p.interleave = (tc5_tmap_interleave)il, p.swizzle = (tc5_tmap_swizzle)sw, p.l2 = (tc5_tmap_l2)l2;
  p.oob = (tc5_tmap_oob)oob;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_tensormap m;
  tc5_status st = tc5_tensormap_cuda_encode(&m, &p, &dg);
  if (st == TC5_EUNSUPPORTED) { /* a Blackwell-only mode: tc5's own encoding, which the runner reads too */
    tc5_diag_init(&dg);
    st = tc5_tensormap_encode(&m, &p, &dg);
  }
  if (st) {
    last_status = (int)st;
    return fail(E_INVALID_VALUE, "cuTensorMapEncodeTiled: %s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  }
  memcpy(map, m.bytes, TC5_TENSORMAP_BYTES);
  return OK;
}
int _cudaMalloc(void **p, size_t n) { return do_malloc(p, n); }
int _cudaMallocAsync(void **p, size_t n, void *stream) {
  (void)stream;
  return do_malloc(p, n);
}
int _cudaMallocHost(void **p, size_t n) { return do_malloc(p, n); }
int _cudaMallocManaged(void **p, size_t n, unsigned flags) {
  (void)flags;
  return do_malloc(p, n);
}
int _cudaFree(void *p) { return do_free(p); }
int _cudaFreeAsync(void *p, void *stream) {
  (void)stream;
  return do_free(p);
}
int _cudaFreeHost(void *p) { return do_free(p); }
int _cudaMemcpy(void *d, const void *s, size_t n, int kind) {
  (void)kind;
  if (n && (!d || !s)) return fail(E_INVALID_VALUE, "cudaMemcpy: a NULL pointer");
  if (n) memmove(d, s, n);
  return OK;
}
int _cudaMemcpyAsync(void *d, const void *s, size_t n, int kind, void *stream) {
  (void)stream;
  return _cudaMemcpy(d, s, n, kind);
}
int _cudaMemset(void *p, int v, size_t n) {
  if (n && !p) return fail(E_INVALID_VALUE, "cudaMemset: a NULL pointer");
  if (n) memset(p, v, n);
  return OK;
}
int _cudaMemsetAsync(void *p, int v, size_t n, void *stream) {
  (void)stream;
  return _cudaMemset(p, v, n);
}
int _cudaGetDevice(int *d) {
  if (d) *d = 0;
  return d ? OK : E_INVALID_VALUE;
}
int _cudaSetDevice(int d) { return d == 0 ? OK : fail(E_INVALID_DEVICE, "cudaSetDevice: tc5 is device 0 only, not %d", d); }
int _cudaGetDeviceCount(int *n) {
  if (n) *n = 1;
  return n ? OK : E_INVALID_VALUE;
}
int _cuDeviceGet(int *d, int ordinal) {
  if (!d) return E_INVALID_VALUE;
  *d = 0;
  return ordinal == 0 ? OK : E_INVALID_DEVICE;
}
/* a B200's cudaDeviceAttr values (tc5.triton.B200) */
int _cudaDeviceGetAttribute(int *v, int attr, int device) {
  if (!v) return E_INVALID_VALUE;
  if (device != 0) return E_INVALID_DEVICE;
  switch (attr) {
  case 1: *v = 1024; break;                          /* max threads per block */
  case 2: case 3: *v = 1024; break;                  /* max block x, y */
  case 4: *v = 64; break;                            /* max block z */
  case 5: *v = 2147483647; break;                    /* max grid x */
  case 6: case 7: *v = 65535; break;                 /* max grid y, z */
  case 8: *v = 49152; break;                         /* shared per block */
  case 10: *v = 32; break;                           /* warp size */
  case 12: *v = 65536; break;                        /* registers per block */
  case 13: *v = 1965000; break;                      /* clock (kHz) */
  case 16: *v = 148; break;                          /* multiprocessors */
  case 75: *v = 10; break;                           /* compute capability major */
  case 76: *v = 0; break;                            /* minor */
  case 81: *v = 233472; break;                       /* shared per multiprocessor */
  case 82: *v = 65536; break;                        /* registers per multiprocessor */
  case 97: *v = 232448; break;                       /* shared per block (opt-in) */
  default: *v = 0; break;
  }
  return OK;
}
int _cudaDeviceSynchronize(void) { return OK; }
int _cudaGetLastError(void) { return OK; }
int _cudaStreamCreate(void **s) {
  if (s) *s = NULL;
  return s ? OK : E_INVALID_VALUE;
}
int _cudaStreamDestroy(void *s) {
  (void)s;
  return OK;
}
int _cudaStreamSynchronize(void *s) {
  (void)s;
  return OK;
}
int _cudaStreamWaitEvent(void *s, void *e, unsigned flags) {
  (void)s, (void)e, (void)flags;
  return OK;
}
/* events: the host's monotonic clock */
typedef struct event {
  double t;
} event;
static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
int _cudaEventCreate(void **e) {
  if (!e) return E_INVALID_VALUE;
  *e = calloc(1, sizeof(event));
  return *e ? OK : E_MEMORY;
}
int _cudaEventCreateWithFlags(void **e, unsigned flags) {
  (void)flags;
  return _cudaEventCreate(e);
}
int _cudaEventDestroy(void *e) {
  free(e);
  return OK;
}
int _cudaEventRecord(void *e, void *s) {
  (void)s;
  if (!e) return E_INVALID_VALUE;
  ((event *)e)->t = now_ms();
  return OK;
}
int _cudaEventRecordWithFlags(void *e, void *s, unsigned flags) {
  (void)flags;
  return _cudaEventRecord(e, s);
}
int _cudaEventSynchronize(void *e) {
  (void)e;
  return OK;
}
int _cudaEventQuery(void *e) {
  (void)e;
  return OK;
}
int _cudaEventElapsedTime(float *ms, void *a, void *b) {
  if (!ms || !a || !b) return E_INVALID_VALUE;
  *ms = (float)(((event *)b)->t - ((event *)a)->t);
  return OK;
}
int _cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int block, size_t smem) {
  (void)f, (void)block, (void)smem;
  if (n) *n = 1;
  return n ? OK : E_INVALID_VALUE;
}
int _cudaProfilerStart(void) { return OK; }
int _cudaProfilerStop(void) { return OK; }
void cuda_dialect_assert_success(int code) { (void)code; }
const char *cuda_dialect_get_error_name(int code) {
  switch (code) {
  case OK: return "cudaSuccess";
  case E_INVALID_VALUE: return "cudaErrorInvalidValue";
  case E_MEMORY: return "cudaErrorMemoryAllocation";
  case E_INVALID_DEVICE_FUNCTION: return "cudaErrorInvalidDeviceFunction";
  case E_INVALID_PTX: return "cudaErrorInvalidPtx";
  case E_LAUNCH_FAILURE: return "cudaErrorLaunchFailure";
  case E_NOT_SUPPORTED: return "cudaErrorNotSupported";
  default: return "cudaErrorUnknown";
  }
}
void cuda_dialect_print_on_error(int code) { (void)code; }

/* ---- CuTe DSL's TVM-FFI calling path (cute.compile(..., options="--enable-tvm-ffi")) ----
 * The host wrapper that CuTe DSL generates for a TVM-FFI function
 * (cutlass_dsl/tvm_ffi_provider.py, nvidia-cutlass-dsl 4.8.1: declare_extern_funcs,
 * insert_lazy_init_cuda, append_unload_to_global_dtors) loads its kernels' library lazily with
 *   cuda_dialect_init_library_once(&state, cuda_init, cuda_load_to_device, TVMFFIErrorSetRaisedFromCStr)
 * (a non-zero return: the error is already raised, the wrapper returns -1), unloads it from a global
 * destructor with cuda_dialect_unload_library_once(&state), and turns a CUDA error code into a
 * TVM-FFI error with CuteDSLRT_TVMFFISetRaisedCudaError(TVMFFIErrorSetRaisedFromCStrParts, code).
 * The header (nvidia_cutlass_dsl/cu12/include/CuteDSLRuntime.h) declares only the last; what the
 * three do is that of CuTe DSL's own libcute_dsl_runtime.so, read from its machine code:
 *   - init: nothing if *state is set; else, under a lock, load(&lib); then, if each is given,
 *     each(&lib, d) for every device d of cudaGetDeviceCount, failing only if every device failed;
 *     *state = lib. A failure raises kind "RuntimeError" with "Got Cuda Runtime Error: <name> <text>"
 *     and returns -1 (the state stays unset);
 *   - unload: *state swapped with NULL atomically, the library unloaded if there was one;
 *   - the error: set_error("CUDADialectError", {"CUDA Error Code: ", "<code>"}, 2), the message
 *     CuTe DSL's CUDADialectError parses ("CUDA Error Code: <code><detail>"); tc5 appends its
 *     last failure's text as the detail (a newline, then the text). */
typedef int (*cd_load_fn)(void **lib);
typedef int (*cd_device_fn)(void **lib, int device);
typedef void (*cd_raise_fn)(const char *kind, const char *message);
typedef void (*cd_raise_parts_fn)(const char *kind, const char **parts, int32_t num_parts);
EXPORT int cuda_dialect_init_library_once(void **state, cd_load_fn load, cd_device_fn each, cd_raise_fn raise);
EXPORT void cuda_dialect_unload_library_once(void **state);
EXPORT void CuteDSLRT_TVMFFISetRaisedCudaError(cd_raise_parts_fn set_error, int32_t code);

static pthread_mutex_t once_lock = PTHREAD_MUTEX_INITIALIZER;

static int raise_cuda_error(cd_raise_fn raise, int code) {
  if (raise) {
    char msg[sizeof last_error + 128];
    snprintf(msg, sizeof msg, "Got Cuda Runtime Error: %s %s", cuda_dialect_get_error_name(code),
             last_error[0] ? last_error : "(tc5: no further detail)");
    raise("RuntimeError", msg);
  }
  return -1;
}

int cuda_dialect_init_library_once(void **state, cd_load_fn load, cd_device_fn each, cd_raise_fn raise) {
  if (!state || !load) return raise_cuda_error(raise, E_INVALID_VALUE);
  if (__atomic_load_n(state, __ATOMIC_ACQUIRE)) return 0;
  pthread_mutex_lock(&once_lock);
  if (__atomic_load_n(state, __ATOMIC_ACQUIRE)) {
    pthread_mutex_unlock(&once_lock);
    return 0;
  }
  void *lib = NULL;
  int rc = load(&lib);
  if (rc) {
    pthread_mutex_unlock(&once_lock);
    return raise_cuda_error(raise, rc);
  }
  if (each) {
    int n = 0, failed = 0, last = 0;
    rc = _cudaGetDeviceCount(&n);
    if (rc) {
      pthread_mutex_unlock(&once_lock);
      return raise_cuda_error(raise, rc);
    }
    for (int d = 0; d < n; d++) {
      int r = each(&lib, d);
      if (r) failed++, last = r;
    }
    if (n > 0 && failed == n) {
      pthread_mutex_unlock(&once_lock);
      return raise_cuda_error(raise, last);
    }
  }
  __atomic_store_n(state, lib, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&once_lock);
  return 0;
}

void cuda_dialect_unload_library_once(void **state) {
  if (!state) return;
  void *lib = __atomic_exchange_n(state, NULL, __ATOMIC_ACQ_REL);
  if (lib) _cudaLibraryUnload(lib);
}

void CuteDSLRT_TVMFFISetRaisedCudaError(cd_raise_parts_fn set_error, int32_t code) {
  if (!set_error) return;
  char num[16];
  snprintf(num, sizeof num, "%d", (int)code);
  const char *parts[4] = {"CUDA Error Code: ", num, "\n", last_error};
  set_error("CUDADialectError", parts, last_error[0] ? 4 : 2);
}

/* the rest of CuTe DSL's runtime: graphs, im2col maps, managed symbols,
 * host callbacks... not modelled: an error naming the entry point */
#define UNMODELLED(name)                                                                                          \
  EXPORT int name(void);                                                                                          \
  int name(void) { return fail(E_NOT_SUPPORTED, "tc5: %s is not modelled (docs/cute.md)", #name); }
UNMODELLED(_cuLibraryGetGlobal)
UNMODELLED(_cuLibraryGetKernelCount)
UNMODELLED(_cuLibraryGetManaged)
UNMODELLED(_cuLibraryGetModule)
UNMODELLED(_cuLibraryGetUnifiedFunction)
UNMODELLED(_cuLibraryLoadFromFile)
UNMODELLED(_cudaLibraryGetGlobal)
UNMODELLED(_cudaLibraryGetKernelCount)
UNMODELLED(_cudaLibraryGetManaged)
UNMODELLED(_cudaLibraryGetUnifiedFunction)
UNMODELLED(_cudaLibraryLoadFromFile)
UNMODELLED(_cuTensorMapEncodeIm2col)
UNMODELLED(_cuTensorMapEncodeIm2colWide)
UNMODELLED(_cuTensorMapReplaceAddress)
UNMODELLED(_cudaGetDeviceProperties)
UNMODELLED(_cudaGraphAddKernelNode)
UNMODELLED(_cudaGraphCreate)
UNMODELLED(_cudaGraphDestroy)
UNMODELLED(_cudaGraphExecDestroy)
UNMODELLED(_cudaGraphInstantiate)
UNMODELLED(_cudaGraphLaunch)
UNMODELLED(_cudaGraphKernelNodeGetAttribute)
UNMODELLED(_cudaGraphKernelNodeSetAttribute)
UNMODELLED(_cudaStreamAddCallback)
UNMODELLED(_cudaStreamBeginCapture)
UNMODELLED(_cudaStreamEndCapture)
UNMODELLED(_cuEventCreate)
UNMODELLED(_cuEventDestroy_v2)
UNMODELLED(_cuEventElapsedTime_v2)
UNMODELLED(_cuEventQuery)
UNMODELLED(_cuEventRecord)
UNMODELLED(_cuEventRecordWithFlags)
UNMODELLED(_cuEventSynchronize)
