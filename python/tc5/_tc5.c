/* tc5 — the Python extension module: a thin layer over the C library on
 * the CPython C API (no NumPy C API: arrays arrive through the buffer
 * protocol, already contiguous uint32 code arrays prepared by tc5/__init__.py).
 * The work releases the GIL; errors raise tc5.Error subclasses carrying the
 * library's diagnostics. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include <stddef.h>
#include <stdlib.h>

#include "tc5/arith.h"
#include "tc5/descriptors.h"
#include "tc5/formats.h"
#include "tc5/kind.h"
#include "tc5/layout.h"
#include "tc5/tensormap.h"
#include "tc5/timing.h"
#ifdef TC5_HAVE_CUDA
#include "tc5/gemm_cuda.h"
#endif
#include "tc5/zcmask.h"
#include "tc5/ptx.h"

static PyObject *error_base;
static PyObject *error_of[TC5_EHAZARD + 1];
static const char *const error_names[TC5_EHAZARD + 1] = {
    [TC5_EINVAL] = "InvalidArgumentError", [TC5_ERANGE] = "RangeError",
    [TC5_ERESERVED] = "ReservedError",     [TC5_EALIGN] = "AlignmentError",
    [TC5_EILLEGAL] = "IllegalError",       [TC5_ENOTREPR] = "NotRepresentableError",
    [TC5_ETRUNC] = "TruncatedError",       [TC5_ENOMEM] = "OutOfMemoryError",
    [TC5_EPARSE] = "ParseError",           [TC5_EIO] = "FileError",
    [TC5_EMISMATCH] = "MismatchError",     [TC5_EWOULDBLOCK] = "WouldBlockError",
    [TC5_ESTATE] = "StateError",           [TC5_EACCESS] = "AccessError",
    [TC5_EUNINIT] = "UninitializedError",  [TC5_EBOUNDS] = "BoundsError",
    [TC5_EUNSUPPORTED] = "UnsupportedError", [TC5_EHAZARD] = "HazardError",
};

/* raises the Error subclass of st: message = the diagnostics, one a line;
 * .status = "TC5_E...", .messages = [...] */
/* tc5_ptx_launch_cfg.interrupt for run_ptx: the launch runs in the calling
 * thread with the GIL released; Python's signal handlers (SIGINT's
 * KeyboardInterrupt, a test's SIGALRM/SIGPROF time limit) run here, in the
 * main thread, and one that raises stops the launch, its exception pending */
static int py_interrupt(void *ctx) {
  (void)ctx;
  PyGILState_STATE g = PyGILState_Ensure();
  int r = PyErr_CheckSignals();
  PyGILState_Release(g);
  return r != 0;
}

static PyObject *raise(tc5_status st, const tc5_diag *dg, const char *what) {
  PyObject *cls = (unsigned)st <= TC5_EHAZARD && error_of[st] ? error_of[st] : error_base;
  PyObject *msgs = PyList_New(0);
  if (!msgs) return NULL;
  char text[4096];
  size_t o = (size_t)snprintf(text, sizeof text, "%s: %s", what, tc5_strerror(st));
  for (unsigned i = 0; dg && i < dg->count; i++) {
    /* messages quote the input, which need not be UTF-8 (nor whole: a
     * quote is cut at 60 bytes): undecodable bytes become U+FFFD */
    const char *s = dg->issue[i].message;
    PyObject *m = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
    if (!m || PyList_Append(msgs, m)) {
      Py_XDECREF(m);
      Py_DECREF(msgs);
      return NULL;
    }
    Py_DECREF(m);
    if (o < sizeof text) o += (size_t)snprintf(text + o, sizeof text - o, "\n  - %s", s);
  }
  PyObject *t = PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
  PyObject *exc = t ? PyObject_CallFunctionObjArgs(cls, t, NULL) : NULL;
  Py_XDECREF(t);
  if (exc) {
    PyObject *name = PyUnicode_FromString(tc5_status_name(st));
    if (name) PyObject_SetAttrString(exc, "status", name);
    Py_XDECREF(name);
    PyObject_SetAttrString(exc, "messages", msgs);
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
  }
  Py_DECREF(msgs);
  return NULL;
}

/* releases, last first, each buffer that holds an object: a wrapper
 * zero-initialises its buffers and releases them all on every way out,
 * those never filled (or already released by a failed check) skipped */
static void release_buffers(Py_buffer *const *bufs, size_t n) {
  while (n--)
    if (bufs[n]->obj) PyBuffer_Release(bufs[n]);
}
#define RELEASE_BUFFERS(...)                                                                                       \
  release_buffers((Py_buffer *const[]){__VA_ARGS__}, sizeof((Py_buffer *const[]){__VA_ARGS__}) / sizeof(Py_buffer *))

/* a buffer of n uint32 codes (writable when asked) */
static bool codes(PyObject *obj, Py_buffer *b, size_t n, bool writable, const char *name) {
  if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0))) return false;
  if ((size_t)b->len != n * 4) {
    PyErr_Format(PyExc_ValueError, "%s: %zd bytes, %zu uint32 codes expected", name, b->len, n);
    PyBuffer_Release(b);
    return false;
  }
  return true;
}

static bool type_of(const char *name, tc5_type *t) {
  if (!name) {
    *t = TC5_TYPE_NONE;
    return true;
  }
  if (tc5_type_parse(name, t)) {
    PyErr_Format(PyExc_ValueError, "unknown element type '%s'", name);
    return false;
  }
  return true;
}

/* the arithmetic model of a call: names parsed, tc5_dot_model; NULL after
 * raising */
static bool model_of(const char *model_s, const char *kind_s, const char *at_s, const char *bt_s, const char *dt_s,
                     const char *st_s, unsigned block, int saturate, tc5_dot *m, const char *what) {
  tc5_model model;
  tc5_kind kind;
  tc5_type at, bt, dt, stype;
  if (tc5_model_parse(model_s, &model)) {
    PyErr_Format(PyExc_ValueError, "model is blackwell or hopper, not '%s'", model_s);
    return false;
  }
  if (tc5_kind_parse(kind_s, &kind)) {
    PyErr_Format(PyExc_ValueError, "unknown kind '%s'", kind_s);
    return false;
  }
  if (!type_of(at_s, &at) || !type_of(bt_s, &bt) || !type_of(dt_s, &dt) || !type_of(st_s, &stype)) return false;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_dot_model(model, kind, at, bt, dt, stype, block, saturate != 0, m, &dg);
  if (st) raise(st, &dg, what);
  return st == TC5_OK;
}

#ifndef TC5_HAVE_CUDA
/* raises: this tc5 has no GPU GEMM (built without nvcc); `what` says for what */
static PyObject *no_cuda(const char *what) {
  tc5_diag nd;
  tc5_diag_init(&nd);
  tc5_diag_add(&nd, TC5_EUNSUPPORTED, "device", 0, "tc5.gemm: %s: this tc5 was built without CUDA (no nvcc)", what);
  return raise(TC5_EUNSUPPORTED, &nd, "tc5.gemm");
}
#endif

/* a GEMM call's options, checked with the model for K (tc5_dot_check);
 * false after raising */
static bool gemm_opts(const tc5_dot *m, unsigned K, int neg_a, int neg_b, int enable_d, unsigned scale_d,
                      tc5_dot_opts *o) {
  tc5_dot_opts_init(o);
  o->negate_a = neg_a, o->negate_b = neg_b, o->enable_input_d = enable_d, o->scale_input_d = scale_d;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_dot_check(m, K, o, &dg);
  if (st) raise(st, &dg, "tc5.gemm");
  return !st;
}

/* ---- DLPack (tc5.gemm on GPU tensors) ---------------------------------------- */

/* the DLPack ABI (github.com/dmlc/dlpack, include/dlpack/dlpack.h, v0.8 and
 * later): the fields read here */
typedef struct {
  int32_t device_type, device_id;
} tc5_dl_device;
typedef struct {
  uint8_t code, bits;
  uint16_t lanes;
} tc5_dl_dtype;
typedef struct {
  void *data;
  tc5_dl_device device;
  int32_t ndim;
  tc5_dl_dtype dtype;
  int64_t *shape, *strides;
  uint64_t byte_offset;
} tc5_dl_tensor;

PyDoc_STRVAR(dlpack_info_doc,
             "dlpack_info(capsule) -> (device_type, device_id, dtype_code, bits, shape, strides, address)\n\n"
             "What a 'dltensor' capsule (x.__dlpack__()) describes; the capsule stays the caller's\n"
             "(its owner frees the tensor when it is collected). strides in elements (row-major\n"
             "when the tensor gives none); address includes byte_offset.");
static PyObject *py_dlpack_info(PyObject *self, PyObject *cap) {
  (void)self;
  tc5_dl_tensor *t = PyCapsule_GetPointer(cap, "dltensor");
  if (!t) return NULL;
  if (t->ndim < 0 || t->ndim > 8) return PyErr_Format(PyExc_ValueError, "dlpack: ndim %d", (int)t->ndim);
  PyObject *shape = PyTuple_New(t->ndim), *strides = PyTuple_New(t->ndim);
  if (!shape || !strides) {
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    return NULL;
  }
  int64_t run = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(t->shape[i]));
    PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(t->strides ? t->strides[i] : run));
    run *= t->shape[i];
  }
  return Py_BuildValue("iiiiNNK", (int)t->device.device_type, (int)t->device.device_id, (int)t->dtype.code,
                       (int)t->dtype.bits * (t->dtype.lanes ? t->dtype.lanes : 1), shape, strides,
                       (unsigned long long)((uintptr_t)t->data + t->byte_offset));
}

#ifdef TC5_HAVE_CUDA
/* a (address, bytes, row_stride, col_stride) tuple, or None */
static bool matrix_of(PyObject *o, tc5_cuda_matrix *x, const char *name) {
  unsigned long long addr;
  long long rs, cs;
  if (!PyArg_ParseTuple(o, "KILL", &addr, &x->bytes, &rs, &cs)) {
    PyErr_Format(PyExc_ValueError, "%s: (address, bytes, row_stride, col_stride) expected", name);
    return false;
  }
  x->data = (void *)(uintptr_t)addr, x->row_stride = rs, x->col_stride = cs;
  return true;
}
#endif

PyDoc_STRVAR(gemm_matrices_doc,
             "gemm_matrices(model, kind, atype, btype, dtype, stype, block, saturate, M, N, K, A, B, SA, SB, D,\n"
             "              negate_a, negate_b, enable_input_d, scale_input_d)\n\n"
             "tc5_gemm_cuda_matrices on GPU memory: each matrix (address, bytes, row_stride, col_stride),\n"
             "SA/SB None when unscaled. Releases the GIL.");
static PyObject *py_gemm_matrices(PyObject *self, PyObject *args) {
  (void)self;
  const char *model_s, *kind_s, *at_s, *bt_s, *dt_s, *st_s;
  unsigned block, M, N, K, scale_d;
  int saturate, neg_a, neg_b, enable_d;
  PyObject *oa, *ob, *osa, *osb, *od;
  if (!PyArg_ParseTuple(args, "sssssziIIIIOOOOOpppI", &model_s, &kind_s, &at_s, &bt_s, &dt_s, &st_s, &block,
                        &saturate, &M, &N, &K, &oa, &ob, &osa, &osb, &od, &neg_a, &neg_b, &enable_d, &scale_d))
    return NULL;
#ifndef TC5_HAVE_CUDA
  (void)oa, (void)ob, (void)osa, (void)osb, (void)od, (void)neg_a, (void)neg_b, (void)enable_d, (void)scale_d;
  return no_cuda("GPU tensors");
#else
  tc5_dot m;
  if (!model_of(model_s, kind_s, at_s, bt_s, dt_s, st_s, block, saturate, &m, "tc5.gemm")) return NULL;
  tc5_cuda_matrix a, b, sa, sb, d;
  bool have_s = osa != Py_None;
  if (!matrix_of(oa, &a, "a") || !matrix_of(ob, &b, "b") || !matrix_of(od, &d, "d") ||
      (have_s && (!matrix_of(osa, &sa, "scale_a") || !matrix_of(osb, &sb, "scale_b"))))
    return NULL;
  tc5_dot_opts o;
  if (!gemm_opts(&m, K, neg_a, neg_b, enable_d, scale_d, &o)) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st;
  Py_BEGIN_ALLOW_THREADS
  st = tc5_gemm_cuda_matrices(&m, M, N, K, &a, &b, have_s ? &sa : NULL, have_s ? &sb : NULL, &d, &o, &dg);
  Py_END_ALLOW_THREADS
  if (st) return raise(st, &dg, "tc5.gemm");
  Py_RETURN_NONE;
#endif
}

PyDoc_STRVAR(gemm_doc,
             "gemm(model, kind, atype, btype, dtype, stype, block, saturate, M, N, K, A, B, SA, SB, D,\n"
             "     negate_a, negate_b, enable_input_d, scale_input_d, threads, device)\n\n"
             "tc5_gemm on uint32 code buffers: A (M x K), B (K x N), D (M x N, read as C with\n"
             "enable_input_d, written), SA/SB the block scales or None; device 'cpu' or 'cuda'\n"
             "(tc5_gemm_cuda: the same bits on the GPU). Releases the GIL.");
static PyObject *py_gemm(PyObject *self, PyObject *args) {
  (void)self;
  const char *model_s, *kind_s, *at_s, *bt_s, *dt_s, *st_s, *device = "cpu";
  unsigned block, M, N, K, scale_d, threads;
  int saturate, neg_a, neg_b, enable_d;
  PyObject *oa, *ob, *osa, *osb, *od;
  if (!PyArg_ParseTuple(args, "sssssziIIIIOOOOOpppII|s", &model_s, &kind_s, &at_s, &bt_s, &dt_s, &st_s, &block,
                        &saturate, &M, &N, &K, &oa, &ob, &osa, &osb, &od, &neg_a, &neg_b, &enable_d, &scale_d, &threads,
                        &device))
    return NULL;
  bool cuda = !strcmp(device, "cuda");
  if (!cuda && strcmp(device, "cpu")) return PyErr_Format(PyExc_ValueError, "device is 'cpu' or 'cuda', not '%s'", device);
#ifndef TC5_HAVE_CUDA
  if (cuda) return no_cuda("device='cuda'");
#endif
  tc5_dot m;
  if (!model_of(model_s, kind_s, at_s, bt_s, dt_s, st_s, block, saturate, &m, "tc5.gemm")) return NULL;
  tc5_dot_opts o;
  if (!gemm_opts(&m, K, neg_a, neg_b, enable_d, scale_d, &o)) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = TC5_OK; /* set when ok; GCC 13.3 (the device machine's) cannot tell: -Wmaybe-uninitialized */
  Py_buffer ba = {0}, bb = {0}, bsa = {0}, bsb = {0}, bd = {0};
  bool have_s = osa != Py_None;
  size_t nblk = have_s && block ? K / block : 0;
  bool ok = codes(oa, &ba, (size_t)M * K, false, "a") && codes(ob, &bb, (size_t)K * N, false, "b") &&
            (!have_s || codes(osa, &bsa, (size_t)M * nblk, false, "scale_a")) &&
            (!have_s || codes(osb, &bsb, nblk * N, false, "scale_b")) && codes(od, &bd, (size_t)M * N, true, "d");
  if (ok) {
    Py_BEGIN_ALLOW_THREADS
#ifdef TC5_HAVE_CUDA
    if (cuda)
      st = tc5_gemm_cuda(&m, M, N, K, ba.buf, bb.buf, have_s ? bsa.buf : NULL, have_s ? bsb.buf : NULL, bd.buf, &o,
                         NULL, &dg);
    else
#endif
      st = tc5_gemm(&m, M, N, K, ba.buf, bb.buf, have_s ? bsa.buf : NULL, have_s ? bsb.buf : NULL, bd.buf, &o,
                    threads);
    Py_END_ALLOW_THREADS
  }
  RELEASE_BUFFERS(&ba, &bb, &bsa, &bsb, &bd);
  if (!ok) return NULL;
  if (st) return raise(st, &dg, "tc5.gemm");
  Py_RETURN_NONE;
}

PyDoc_STRVAR(gemm_sparse_doc,
             "gemm_sparse(model, kind, atype, btype, dtype, stype, block, saturate, M, N, K, A, META, B, SA, SB, D,\n"
             "            negate_a, negate_b, enable_input_d, scale_input_d, threads)\n\n"
             "tc5_gemm_sparse on uint32 code buffers: A the M x K/2 kept elements, META M x K/g metadata\n"
             "nibbles (uint8, one a byte), B (K x N, K logical), SA/SB one scale a `block` kept elements\n"
             "(M x K/(2 block), K/(2 block) x N) or None, D (M x N). Releases the GIL.");
static PyObject *py_gemm_sparse(PyObject *self, PyObject *args) {
  (void)self;
  const char *model_s, *kind_s, *at_s, *bt_s, *dt_s, *st_s;
  unsigned block, M, N, K, scale_d, threads, g;
  int saturate, neg_a, neg_b, enable_d;
  PyObject *oa, *om, *ob, *osa, *osb, *od;
  if (!PyArg_ParseTuple(args, "sssssziIIIIOOOOOOpppII", &model_s, &kind_s, &at_s, &bt_s, &dt_s, &st_s, &block,
                        &saturate, &M, &N, &K, &oa, &om, &ob, &osa, &osb, &od, &neg_a, &neg_b, &enable_d, &scale_d,
                        &threads))
    return NULL;
  tc5_dot m;
  tc5_kind kind;
  if (!model_of(model_s, kind_s, at_s, bt_s, dt_s, st_s, block, saturate, &m, "tc5.gemm")) return NULL;
  tc5_kind_parse(kind_s, &kind);
  tc5_sparse_group(kind, &g);
  if (K % g || (block && K % (2 * block)))
    return PyErr_Format(PyExc_ValueError, "tc5.gemm: sparse .kind::%s: K %u is not a multiple of %u%s", kind_s, K,
                        block ? 2 * block : g, block ? " (2 x block: a scale factor covers block kept elements)"
                                                     : " (the elements a metadata nibble covers)");
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.negate_a = neg_a, o.negate_b = neg_b, o.enable_input_d = enable_d, o.scale_input_d = scale_d;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = TC5_OK; /* set when ok; GCC 13.3 (the device machine's) cannot tell: -Wmaybe-uninitialized */
  Py_buffer ba = {0}, bm = {0}, bb = {0}, bsa = {0}, bsb = {0}, bd = {0};
  bool have_s = osa != Py_None;
  size_t nblk = have_s && block ? K / 2 / block : 0;
  bool ok = codes(oa, &ba, (size_t)M * K / 2, false, "a") && !PyObject_GetBuffer(om, &bm, PyBUF_C_CONTIGUOUS);
  if (ok && (size_t)bm.len != (size_t)M * K / g) {
    PyErr_Format(PyExc_ValueError, "meta: %zd bytes, %zu metadata nibbles (one a byte) expected", bm.len,
                 (size_t)M * K / g);
    ok = false;
  }
  ok = ok && codes(ob, &bb, (size_t)K * N, false, "b") &&
       (!have_s || codes(osa, &bsa, (size_t)M * nblk, false, "scale_a")) &&
       (!have_s || codes(osb, &bsb, nblk * N, false, "scale_b")) && codes(od, &bd, (size_t)M * N, true, "d");
  if (ok) {
    Py_BEGIN_ALLOW_THREADS
    st = tc5_gemm_sparse(&m, kind, M, N, K, ba.buf, bm.buf, bb.buf, have_s ? bsa.buf : NULL, have_s ? bsb.buf : NULL,
                         bd.buf, &o, threads, &dg);
    Py_END_ALLOW_THREADS
  }
  RELEASE_BUFFERS(&ba, &bm, &bb, &bsa, &bsb, &bd);
  if (!ok) return NULL;
  if (st) return raise(st, &dg, "tc5.gemm");
  Py_RETURN_NONE;
}

PyDoc_STRVAR(dot_doc,
             "dot(model, kind, atype, btype, dtype, stype, block, saturate, a, b, sa, sb, c, negate_a, negate_b,\n"
             "    enable_input_d, scale_input_d) -> (d code, explanation): one element, its steps explained");
static PyObject *py_dot(PyObject *self, PyObject *args) {
  (void)self;
  const char *model_s, *kind_s, *at_s, *bt_s, *dt_s, *st_s;
  unsigned block, scale_d, c;
  int saturate, neg_a, neg_b, enable_d;
  PyObject *oa, *ob, *osa, *osb;
  if (!PyArg_ParseTuple(args, "sssssziIOOOOIpppI", &model_s, &kind_s, &at_s, &bt_s, &dt_s, &st_s, &block, &saturate,
                        &oa, &ob, &osa, &osb, &c, &neg_a, &neg_b, &enable_d, &scale_d))
    return NULL;
  tc5_dot m;
  if (!model_of(model_s, kind_s, at_s, bt_s, dt_s, st_s, block, saturate, &m, "tc5.dot")) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st;
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.negate_a = neg_a, o.negate_b = neg_b, o.enable_input_d = enable_d, o.scale_input_d = scale_d;
  Py_buffer ba = {0}, bb = {0}, bsa = {0}, bsb = {0};
  if (PyObject_GetBuffer(oa, &ba, PyBUF_C_CONTIGUOUS)) return NULL;
  if (PyObject_GetBuffer(ob, &bb, PyBUF_C_CONTIGUOUS)) {
    RELEASE_BUFFERS(&ba);
    return NULL;
  }
  bool have_s = osa != Py_None;
  PyObject *ret = NULL;
  size_t k = (size_t)ba.len / 4;
  if ((size_t)bb.len != k * 4) {
    PyErr_Format(PyExc_ValueError, "a and b: the same number of uint32 codes");
    goto out;
  }
  if (have_s && (PyObject_GetBuffer(osa, &bsa, PyBUF_C_CONTIGUOUS) || PyObject_GetBuffer(osb, &bsb, PyBUF_C_CONTIGUOUS))) {
    have_s = false;
    goto out;
  }
  st = tc5_dot_check(&m, k, &o, &dg);
  if (st) {
    raise(st, &dg, "tc5.dot");
    goto out;
  }
  if (have_s) { /* K / block codes each: tc5_dot_explain reads that many */
    size_t nb = m.block ? k / m.block : 0;
    if ((size_t)bsa.len != nb * 4 || (size_t)bsb.len != nb * 4) {
      PyErr_Format(PyExc_ValueError, "scale_a and scale_b: %zu uint32 codes each (K %zu / block %u), not %zd and %zd",
                   nb, k, m.block, bsa.len / 4, bsb.len / 4);
      goto out;
    }
  }
  uint32_t d = 0;
  size_t need = 0;
  st = tc5_dot_explain(&m, k, ba.buf, bb.buf, have_s ? bsa.buf : NULL, have_s ? bsb.buf : NULL, c, &o, &d, NULL, 0,
                       &need);
  char *text = malloc(need + 1);
  if (!text) {
    PyErr_NoMemory();
    goto out;
  }
  st = tc5_dot_explain(&m, k, ba.buf, bb.buf, have_s ? bsa.buf : NULL, have_s ? bsb.buf : NULL, c, &o, &d, text,
                       need + 1, &need);
  if (st) raise(st, &dg, "tc5.dot");
  else ret = Py_BuildValue("(Is)", d, text);
  free(text);
out:
  RELEASE_BUFFERS(&ba, &bb, &bsb, &bsa);
  return ret;
}

PyDoc_STRVAR(type_bits_doc, "type_bits(name) -> the element type's width in bits (tc5_type_bits)");
static PyObject *py_type_bits(PyObject *self, PyObject *arg) {
  (void)self;
  const char *name = PyUnicode_AsUTF8(arg);
  tc5_type t;
  if (!name || !type_of(name, &t)) return NULL;
  return PyLong_FromUnsignedLong(tc5_type_bits(t));
}

/* ---- descriptors: one field table per C struct (names as in the structs) ---- */
typedef struct field {
  const char *name;
  size_t off;
  unsigned size;  /* 1, 2, 4 bytes */
  unsigned count; /* array elements (zcmask's start_count, first_span) */
} field;
#define F(T, f, n) {#f, offsetof(T, f), sizeof(((T *)0)->f) / (n), n}
static const field smem_fields[] = {
    F(tc5_smem_desc, start_address, 1), F(tc5_smem_desc, lbo, 1),          F(tc5_smem_desc, sbo, 1),
    F(tc5_smem_desc, base_offset, 1),   F(tc5_smem_desc, lbo_mode, 1),     F(tc5_smem_desc, swizzle, 1),
    F(tc5_smem_desc, fixed_46_48, 1),   F(tc5_smem_desc, fixed_53_60, 1),  F(tc5_smem_desc, unused_14_15, 1),
    F(tc5_smem_desc, unused_30_31, 1),  {NULL, 0, 0, 0},
};
static const field idesc_fields[] = {
    F(tc5_idesc, sparse_selector, 1), F(tc5_idesc, sparse, 1),     F(tc5_idesc, saturate, 1),
    F(tc5_idesc, dtype, 1),           F(tc5_idesc, atype, 1),      F(tc5_idesc, btype, 1),
    F(tc5_idesc, negate_a, 1),        F(tc5_idesc, negate_b, 1),   F(tc5_idesc, transpose_a, 1),
    F(tc5_idesc, transpose_b, 1),     F(tc5_idesc, n, 1),          F(tc5_idesc, m, 1),
    F(tc5_idesc, max_shift, 1),       F(tc5_idesc, scale_type, 1), F(tc5_idesc, sfa_id, 1),
    F(tc5_idesc, sfb_id, 1),          F(tc5_idesc, k96, 1),        F(tc5_idesc, reserved_bits, 1),
    {NULL, 0, 0, 0},
};
static const field zcmask_fields[] = {
    F(tc5_zcmask_desc, start_count, 4), F(tc5_zcmask_desc, first_span, 4),     F(tc5_zcmask_desc, non_zero, 1),
    F(tc5_zcmask_desc, skip_span, 1),   F(tc5_zcmask_desc, use_span, 1),       F(tc5_zcmask_desc, column_shift, 1),
    F(tc5_zcmask_desc, reserved_36_38, 1), F(tc5_zcmask_desc, reserved_62_63, 1), {NULL, 0, 0, 0},
};
#undef F

static uint64_t get_u(const uint8_t *p, unsigned size) {
  return size == 1 ? *p : size == 2 ? *(const uint16_t *)(const void *)p : *(const uint32_t *)(const void *)p;
}
static void set_u(uint8_t *p, unsigned size, uint64_t v) {
  if (size == 1) *p = (uint8_t)v;
  else if (size == 2) *(uint16_t *)(void *)p = (uint16_t)v;
  else *(uint32_t *)(void *)p = (uint32_t)v;
}
/* the struct as a dict */
static PyObject *to_dict(const field *fs, const void *d) {
  PyObject *out = PyDict_New();
  for (const field *f = fs; out && f->name; f++) {
    const uint8_t *p = (const uint8_t *)d + f->off;
    PyObject *v;
    if (f->count > 1) {
      v = PyList_New(f->count);
      for (unsigned i = 0; v && i < f->count; i++) PyList_SET_ITEM(v, i, PyLong_FromUnsignedLongLong(get_u(p + i * f->size, f->size)));
    } else {
      v = PyLong_FromUnsignedLongLong(get_u(p, f->size));
    }
    if (!v || PyDict_SetItemString(out, f->name, v)) {
      Py_XDECREF(v);
      Py_DECREF(out);
      return NULL;
    }
    Py_DECREF(v);
  }
  return out;
}
/* a dict into the struct (fields absent keep their value); unknown keys are errors */
static bool from_dict(const field *fs, void *d, PyObject *dict) {
  PyObject *key, *val;
  Py_ssize_t pos = 0;
  while (PyDict_Next(dict, &pos, &key, &val)) {
    const char *k = PyUnicode_AsUTF8(key);
    if (!k) return false;
    const field *f = fs;
    while (f->name && strcmp(f->name, k)) f++;
    if (!f->name) {
      if (!strcmp(k, "kind")) continue;
      PyErr_Format(PyExc_KeyError, "no field '%s' in this descriptor", k);
      return false;
    }
    uint8_t *p = (uint8_t *)d + f->off;
    if (f->count > 1) { /* start_count, first_span: a sequence of exactly count values */
      if (!PySequence_Check(val) || PyUnicode_Check(val) || PyBytes_Check(val)) {
        PyErr_Format(PyExc_TypeError, "%s: a sequence of %u integers, not %s", f->name, f->count, Py_TYPE(val)->tp_name);
        return false;
      }
      Py_ssize_t n = PySequence_Size(val);
      if (n < 0) return false;
      if (n != (Py_ssize_t)f->count) {
        PyErr_Format(PyExc_ValueError, "%s: %u values, not %zd", f->name, f->count, n);
        return false;
      }
    }
    for (unsigned i = 0; i < f->count; i++) {
      PyObject *x = f->count > 1 ? PySequence_GetItem(val, i) : (Py_INCREF(val), val);
      if (!x) return false;
      unsigned long long v = PyLong_AsUnsignedLongLong(x);
      Py_DECREF(x);
      if (PyErr_Occurred()) return false;
      if (f->size < 8 && v >> (8 * f->size)) {
        PyErr_Format(PyExc_OverflowError, "%s: %llu does not fit its %u bits", f->name, v, 8 * f->size);
        return false;
      }
      set_u(p + i * f->size, f->size, v);
    }
  }
  return true;
}
static PyObject *issues(const tc5_diag *dg) {
  PyObject *l = PyList_New(0);
  for (unsigned i = 0; l && i < dg->count; i++) {
    PyObject *m = PyUnicode_FromString(dg->issue[i].message);
    if (!m || PyList_Append(l, m)) {
      Py_XDECREF(m);
      Py_DECREF(l);
      return NULL;
    }
    Py_DECREF(m);
  }
  return l;
}

typedef union anydesc {
  tc5_smem_desc s;
  tc5_idesc i;
  tc5_zcmask_desc z;
} anydesc;

/* which: "smem", "idesc", "zcmask"; kind for idesc */
static const field *desc_setup(const char *which, const char *kind_s, anydesc *d) {
  memset(d, 0, sizeof *d);
  if (!strcmp(which, "smem")) {
    tc5_smem_desc_init(&d->s);
    return smem_fields;
  }
  if (!strcmp(which, "zcmask")) {
    tc5_zcmask_desc_init(&d->z);
    return zcmask_fields;
  }
  if (!strcmp(which, "idesc")) {
    tc5_kind k;
    if (!kind_s || tc5_kind_parse(kind_s, &k)) {
      PyErr_Format(PyExc_ValueError, "an instruction descriptor needs a kind (f16, tf32, ...), not '%s'",
                   kind_s ? kind_s : "None");
      return NULL;
    }
    tc5_idesc_init(&d->i, k);
    return idesc_fields;
  }
  PyErr_Format(PyExc_ValueError, "descriptor is smem, idesc or zcmask, not '%s'", which);
  return NULL;
}

PyDoc_STRVAR(desc_decode_doc, "desc_decode(which, raw, kind) -> (fields, issues): every field and every rule broken");
static PyObject *py_desc_decode(PyObject *self, PyObject *args) {
  (void)self;
  const char *which, *kind_s;
  unsigned long long raw;
  if (!PyArg_ParseTuple(args, "sKz", &which, &raw, &kind_s)) return NULL;
  anydesc d;
  const field *fs = desc_setup(which, kind_s, &d);
  if (!fs) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st;
  if (fs == smem_fields) st = tc5_smem_desc_decode(raw, &d.s, &dg);
  else if (fs == zcmask_fields) st = tc5_zcmask_desc_decode(raw, &d.z, &dg);
  else st = raw >> 32 ? TC5_ERANGE : tc5_idesc_decode((uint32_t)raw, d.i.kind, &d.i, &dg);
  if (st == TC5_EINVAL || (st == TC5_ERANGE && fs == idesc_fields && raw >> 32)) return raise(st, &dg, "decode");
  PyObject *f = to_dict(fs, &d), *i = issues(&dg);
  if (!f || !i) {
    Py_XDECREF(f);
    Py_XDECREF(i);
    return NULL;
  }
  return Py_BuildValue("(NN)", f, i);
}

/* (which, fields, kind) into a descriptor: its field table, NULL after raising */
static const field *desc_of_args(PyObject *args, anydesc *d) {
  const char *which, *kind_s;
  PyObject *dict;
  if (!PyArg_ParseTuple(args, "sO!z", &which, &PyDict_Type, &dict, &kind_s)) return NULL;
  const field *fs = desc_setup(which, kind_s, d);
  return fs && from_dict(fs, d, dict) ? fs : NULL;
}

PyDoc_STRVAR(desc_encode_doc, "desc_encode(which, fields, kind) -> raw (raises with the rules broken)");
static PyObject *py_desc_encode(PyObject *self, PyObject *args) {
  (void)self;
  anydesc d;
  const field *fs = desc_of_args(args, &d);
  if (!fs) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  uint64_t raw = 0;
  uint32_t r32 = 0;
  tc5_status st = fs == smem_fields ? tc5_smem_desc_encode(&d.s, &raw, &dg)
                  : fs == zcmask_fields ? tc5_zcmask_desc_encode(&d.z, &raw, &dg)
                                        : tc5_idesc_encode(&d.i, &r32, &dg);
  if (st) return raise(st, &dg, "encode");
  return PyLong_FromUnsignedLongLong(fs == idesc_fields ? r32 : raw);
}

PyDoc_STRVAR(desc_check_doc, "desc_check(which, fields, kind) -> the rules the fields break (empty: valid)");
static PyObject *py_desc_check(PyObject *self, PyObject *args) {
  (void)self;
  anydesc d;
  const field *fs = desc_of_args(args, &d);
  if (!fs) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (fs == smem_fields) tc5_smem_desc_check(&d.s, &dg);
  else if (fs == zcmask_fields) tc5_zcmask_desc_check(&d.z, 0, &dg);
  else tc5_idesc_validate(&d.i, &dg);
  return issues(&dg);
}

/* ---- running PTX ---- */
/* what a launch hands back while the GIL is released (its callbacks run on
 * the launch's threads): findings and printed text, kept in C until the
 * launch returns */
typedef struct run_ctx {
  tc5_check_finding *f;
  size_t nf, capf;
  char *out;
  size_t nout, capout;
  bool oom;
} run_ctx;
static void collect_finding(void *ctx, const tc5_check_finding *f) {
  run_ctx *c = ctx;
  if (c->nf == c->capf) {
    size_t nc = c->capf ? 2 * c->capf : 16;
    tc5_check_finding *nf = realloc(c->f, nc * sizeof *nf);
    if (!nf) {
      c->oom = true;
      return;
    }
    c->f = nf, c->capf = nc;
  }
  c->f[c->nf++] = *f;
}
static void collect_print(void *ctx, const char *text, size_t len) {
  run_ctx *c = ctx;
  if (c->nout + len + 1 > c->capout) {
    size_t nc = (c->nout + len + 1) * 2;
    char *no = realloc(c->out, nc);
    if (!no) {
      c->oom = true;
      return;
    }
    c->out = no, c->capout = nc;
  }
  memcpy(c->out + c->nout, text, len);
  c->nout += len;
  c->out[c->nout] = 0;
}
static PyObject *findings_list(const run_ctx *c) {
  PyObject *l = PyList_New(0);
  for (size_t i = 0; l && i < c->nf; i++) {
    const tc5_check_finding *f = &c->f[i];
    const tc5_check_rule *r;
    tc5_check_rule_get(f->rule, &r);
    /* the text quotes the kernel, which need not be UTF-8 */
    PyObject *text = PyUnicode_DecodeUTF8(f->text, (Py_ssize_t)strlen(f->text), "replace");
    PyObject *src = PyUnicode_DecodeUTF8(f->src, (Py_ssize_t)strlen(f->src), "replace");
    PyObject *src2 = PyUnicode_DecodeUTF8(f->src2, (Py_ssize_t)strlen(f->src2), "replace");
    PyObject *d = text && src && src2
                      ? Py_BuildValue("{s:s,s:O,s:I,s:I,s:K,s:N,s:N,s:N}", "rule", r->id, "warning",
                                      f->warning ? Py_True : Py_False, "line", f->line, "line2", f->line2, "count",
                                      (unsigned long long)f->count, "text", text, "src", src, "src2", src2)
                      : NULL;
    if (!(text && src && src2)) { /* not handed to Py_BuildValue */
      Py_XDECREF(text);
      Py_XDECREF(src);
      Py_XDECREF(src2);
    }
    if (!d || PyList_Append(l, d)) {
      Py_XDECREF(d);
      Py_DECREF(l);
      return NULL;
    }
    Py_DECREF(d);
  }
  return l;
}

PyDoc_STRVAR(ptx_params_doc, "ptx_params(text, name, entry) -> [(size, is_ptr), ...] of the entry's .params");
static PyObject *py_ptx_params(PyObject *self, PyObject *args) {
  (void)self;
  const char *text, *name, *entry;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "s#sz", &text, &len, &name, &entry)) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m;
  tc5_status st = tc5_ptx_load(text, (size_t)len, name, &m, &dg);
  if (st) return raise(st, &dg, "run_ptx: load");
  unsigned n = 0, idx = 0, found = 0;
  tc5_ptx_entry_count(m, &n);
  for (unsigned i = 0; i < n; i++) {
    const char *nm;
    unsigned np;
    tc5_ptx_entry_info(m, i, &nm, &np, NULL, 0, NULL, NULL);
    if (!entry || !strcmp(entry, nm)) idx = i, found++;
  }
  if (found != 1) {
    tc5_ptx_free(m);
    return PyErr_Format(PyExc_ValueError, found ? "the module has several entries: name one (entry=)"
                                                : "no entry '%s' in the module", entry ? entry : "");
  }
  tc5_ptx_param_info *info = malloc(64 * sizeof *info); /* 4 KiB names each: not on the stack */
  if (!info) {
    tc5_ptx_free(m);
    return PyErr_NoMemory();
  }
  unsigned np;
  const char *nm;
  tc5_ptx_entry_info(m, idx, &nm, &np, info, 64, NULL, NULL);
  PyObject *out = PyList_New(0);
  for (unsigned i = 0; out && i < np && i < 64; i++) {
    PyObject *t = Py_BuildValue("(IO)", info[i].size, info[i].is_ptr ? Py_True : Py_False);
    if (t) PyList_Append(out, t);
    Py_XDECREF(t);
  }
  free(info);
  tc5_ptx_free(m);
  return out;
}

PyDoc_STRVAR(run_ptx_doc,
             "run_ptx(text, name, entry, grid, block, cluster, shared_bytes, check, threads, args, host_addresses=0,\n"
             "        rules=(), schedule=0, schedules=0)\n"
             "-> (findings, printed)\n"
             "args: for each .param, a writable buffer (a global buffer, written in place), (size, bits),\n"
             "('bytes', bytes) (a struct by value), ('tmap', params, i) (a tensor map over argument i's buffer)\n"
             "or ('tmap', params, buffer) (over a buffer of its own); ('global', buffer) is a buffer that\n"
             "is no parameter. Buffers get addresses in list order, or (host_addresses) their own.\n"
             "rules: 'NAME=off|warning|error' strings, the checker rules' levels (tc5 run --rule).\n"
             "schedule: an adversarial schedule's seed (0: the default schedule); schedules: N > 0 runs the\n"
             "default schedule and N seeds and compares every buffer (tc5_ptx_launch_schedules).\n"
             "timing, timing_trace, timing_sample, timing_regs: tc5_ptx_launch_cfg's (tc5/timing.h; timing None:\n"
             "TC5_TIMING's; timing_regs 0: ptxas's count where ptxas is found, else the model's estimate).\n"
             "Returns (findings, printed, timing): timing the prediction as a dict, or None when the model\n"
             "did not run.");

/* the timing model's prediction as a dict (None when it did not run) */
static PyObject *timing_dict(const tc5_timing_result *r) {
  if (!r->valid) Py_RETURN_NONE;
  PyObject *busy = PyDict_New();
  for (int u = 0; busy && u < TC5_TU_COUNT; u++) {
    PyObject *v = PyFloat_FromDouble(r->busy[u]);
    const char *nm = tc5_timing_unit_name((tc5_timing_unit)u);
    if (!v || PyDict_SetItemString(busy, nm ? nm : "?", v)) {
      Py_XDECREF(v);
      Py_DECREF(busy);
      return NULL;
    }
    Py_DECREF(v);
  }
  if (!busy) return NULL;
  char *text = malloc(8192);
  if (!text) {
    Py_DECREF(busy);
    return PyErr_NoMemory();
  }
  if (tc5_timing_format(r, text, 8192)) text[0] = 0;
  PyObject *d = Py_BuildValue(
      "{s:s,s:d,s:d,s:d,s:O,s:K,s:K,s:I,s:z,s:I,s:O,s:O,s:I,s:I,s:I,s:d,s:I,s:N,s:z,s:d,s:d,s:d,s:d,s:d,s:s}", "gpu", r->gpu,
      "seconds", r->seconds, "cycles", r->cycles, "clock_ghz", r->clock_ghz, "sampled",
      r->sampled ? Py_True : Py_False, "ctas_simulated", (unsigned long long)r->ctas_simulated, "ctas_total",
      (unsigned long long)r->ctas_total, "ctas_per_sm", r->ctas_per_sm, "occupancy_limit", r->occupancy_limit,
      "regs_per_thread", r->regs_per_thread, "regs_from_ptxas", r->regs_from_ptxas ? Py_True : Py_False,
      "issue_sass_missing", r->issue_sass_missing ? Py_True : Py_False,
      "smem_per_cta", r->smem_per_cta, "tmem_cols_per_cta", r->tmem_cols_per_cta, "tmem_cols_assumed_line",
      r->tmem_cols_assumed_line, "waves", r->waves, "sms", r->sms, "busy", busy, "limit",
      r->latency_bound ? "latency" : tc5_timing_unit_name(r->limit), "cta_cycles_min", r->cta_cycles_min,
      "cta_cycles_max", r->cta_cycles_max, "dram_bytes", r->dram_bytes, "l2_bytes", r->l2_bytes, "flops", r->flops,
      "text", text);
  free(text);
  return d;
}
static PyObject *py_run_ptx(PyObject *self, PyObject *args) {
  (void)self;
  const char *text, *name, *entry, *check_s;
  Py_ssize_t len;
  unsigned g[3], b[3], cl[3], shared, threads;
  PyObject *list, *rules_t = NULL;
  int host = 0;
  unsigned long long schedule = 0;
  unsigned nsched = 0;
  const char *timing = NULL, *trace = NULL;
  unsigned tsample = 0, tregs = 0;
  if (!PyArg_ParseTuple(args, "s#sz(III)(III)(III)IsIO!|pO!KIzzII", &text, &len, &name, &entry, &g[0], &g[1], &g[2],
                        &b[0], &b[1], &b[2], &cl[0], &cl[1], &cl[2], &shared, &check_s, &threads, &PyList_Type, &list,
                        &host, &PyTuple_Type, &rules_t, &schedule, &nsched, &timing, &trace, &tsample, &tregs))
    return NULL;
  tc5_check_mode mode;
  if (tc5_check_mode_parse(check_s, &mode)) return PyErr_Format(PyExc_ValueError, "check is none, default or strict, not '%s'", check_s);
  tc5_check_override ovr[64];
  unsigned novr = 0;
  for (Py_ssize_t i = 0; rules_t && i < PyTuple_Size(rules_t); i++) {
    const char *r = PyUnicode_Check(PyTuple_GET_ITEM(rules_t, i)) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(rules_t, i)) : NULL;
    if (!r) return PyErr_Format(PyExc_TypeError, "rules: 'NAME=LEVEL' strings");
    if (novr == 64) return PyErr_Format(PyExc_ValueError, "rules: at most 64");
    tc5_diag rd;
    tc5_diag_init(&rd);
    if (tc5_check_override_parse(r, &ovr[novr++], &rd))
      return PyErr_Format(PyExc_ValueError, "%s", rd.count ? rd.issue[0].message : "rules: bad NAME=LEVEL");
  }
  Py_ssize_t na = PyList_Size(list);
  if (na > 4096) return PyErr_Format(PyExc_ValueError, "at most 4096 kernel arguments and buffers, not %zd", na);
  tc5_ptx_arg *a = calloc((size_t)na + 1, sizeof *a);
  Py_buffer *bufs = calloc((size_t)na + 1, sizeof *bufs);
  bool *held = calloc((size_t)na + 1, sizeof *held);
  PyObject *ret = NULL;
  if (!a || !bufs || !held) {
    free(a), free(bufs), free(held);
    return PyErr_NoMemory();
  }
  tc5_ptx_module *m = NULL;
  run_ctx rc;
  memset(&rc, 0, sizeof rc);
  for (Py_ssize_t i = 0; i < na; i++) {
    PyObject *x = PyList_GET_ITEM(list, i);
    if (PyTuple_Check(x) && PyTuple_Size(x) >= 2 && PyUnicode_Check(PyTuple_GET_ITEM(x, 0))) {
      const char *tag = PyUnicode_AsUTF8(PyTuple_GET_ITEM(x, 0));
      if (!tag) goto out;
      PyObject *v = PyTuple_GET_ITEM(x, PyTuple_Size(x) - 1);
      if (!strcmp(tag, "tmap") && PyTuple_Size(x) == 3) {
        const char *spec = PyUnicode_AsUTF8(PyTuple_GET_ITEM(x, 1));
        if (!spec) goto out;
        tc5_diag pd;
        tc5_diag_init(&pd);
        if (tc5_tmap_params_parse(spec, &a[i].tmap, NULL, NULL, &pd)) {
          raise(TC5_EINVAL, &pd, "run_ptx: tensor map");
          goto out;
        }
        a[i].kind = TC5_PTX_ARG_TENSORMAP;
        if (PyLong_Check(v)) {
          a[i].buffer = (unsigned)PyLong_AsUnsignedLong(v);
          if (PyErr_Occurred()) goto out;
          continue;
        }
      } else if (strcmp(tag, "bytes") && strcmp(tag, "global")) {
        PyErr_Format(PyExc_ValueError, "argument %zd: a tagged argument is ('bytes', b), ('global', buffer) or "
                     "('tmap', params, index or buffer), not '%s'", i, tag);
        goto out;
      }
      bool bytes = !strcmp(tag, "bytes");
      if (PyObject_GetBuffer(v, &bufs[i], bytes ? PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)) goto out;
      held[i] = true;
      if (a[i].kind != TC5_PTX_ARG_TENSORMAP) a[i].kind = bytes ? TC5_PTX_ARG_BYTES : TC5_PTX_ARG_GLOBAL;
      a[i].data = bufs[i].buf, a[i].bytes = (size_t)bufs[i].len;
    } else if (PyTuple_Check(x)) {
      unsigned size;
      unsigned long long bits;
      if (!PyArg_ParseTuple(x, "IK", &size, &bits)) goto out;
      a[i].kind = TC5_PTX_ARG_VALUE, a[i].size = size, a[i].bits = bits;
    } else {
      if (PyObject_GetBuffer(x, &bufs[i], PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)) goto out;
      held[i] = true;
      a[i].kind = TC5_PTX_ARG_BUFFER, a[i].data = bufs[i].buf, a[i].bytes = (size_t)bufs[i].len;
    }
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_ptx_load(text, (size_t)len, name, &m, &dg);
  if (st) {
    raise(st, &dg, "run_ptx: load");
    goto out;
  }
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.entry = entry;
  memcpy(cfg.grid, g, sizeof g);
  memcpy(cfg.block, b, sizeof b);
  if (cl[0]) memcpy(cfg.cluster, cl, sizeof cl);
  cfg.dynamic_shared = shared;
  cfg.threads = threads;
  cfg.check = mode;
  cfg.on_finding = collect_finding;
  cfg.finding_ctx = &rc;
  cfg.print = collect_print;
  cfg.print_ctx = &rc;
  cfg.host_addresses = host != 0;
  cfg.rules = ovr;
  cfg.nrules = novr;
  cfg.schedule = schedule;
  tc5_timing_result tr;
  memset(&tr, 0, sizeof tr);
  cfg.timing = timing; /* NULL: TC5_TIMING's */
  cfg.timing_result = &tr;
  cfg.timing_trace = trace;
  cfg.timing_sample = tsample;
  cfg.timing_regs = tregs;
  cfg.interrupt = py_interrupt;
  /* the GPU the model predicts for, for ptxas's register count */
  const char *tgpu = timing ? timing : getenv("TC5_TIMING");
  bool want_regs = !tregs && tgpu && *tgpu && strcmp(tgpu, "none");
  tc5_ptx_schedules_report sr;
  Py_BEGIN_ALLOW_THREADS
  if (want_regs) { /* ptxas -v's count (cached on disk by the text's hash); none found: the model estimates */
    uint32_t r = 0;
    tc5_diag rd;
    tc5_diag_init(&rd);
    if (tc5_timing_ptxas_regs(text, (size_t)len, entry, tgpu, &r, &rd) == TC5_OK) cfg.timing_regs = r;
  }
  if (tgpu && *tgpu && strcmp(tgpu, "none")) { /* ptxas's SASS per PTX line (cached likewise), as tc5 run */
    uint16_t *sass = NULL;
    uint32_t nsl = 0;
    tc5_diag sd;
    tc5_diag_init(&sd);
    if (tc5_timing_ptxas_sass(text, (size_t)len, tgpu, &sass, &nsl, &sd) == TC5_OK)
      cfg.timing_sass = sass, cfg.timing_sass_lines = nsl, cfg.timing_sass_stall = sass + nsl;
  }
  if (nsched) st = tc5_ptx_launch_schedules(m, &cfg, a, (unsigned)na, NULL, nsched, &sr, NULL, &dg);
  else st = tc5_ptx_launch(m, &cfg, a, (unsigned)na, NULL, &dg);
  free((void *)cfg.timing_sass);
  cfg.timing_sass = NULL;
  cfg.timing_sass_stall = NULL;
  Py_END_ALLOW_THREADS
  if (st == TC5_ECANCELED && PyErr_Occurred()) goto out; /* a signal handler's exception */
  if (st && st != TC5_EHAZARD) {
    raise(st, &dg, "run_ptx");
    goto out;
  }
  if (rc.oom) {
    PyErr_NoMemory();
    goto out;
  }
  {
    PyObject *fl = findings_list(&rc);
    /* what the kernel printed: any bytes (U+FFFD for what is not UTF-8) */
    PyObject *printed = fl ? PyUnicode_DecodeUTF8(rc.out ? rc.out : "", (Py_ssize_t)rc.nout, "replace") : NULL;
    PyObject *td = fl && printed ? timing_dict(&tr) : NULL;
    if (fl && printed && td) ret = Py_BuildValue("(NNN)", fl, printed, td);
    else Py_XDECREF(fl), Py_XDECREF(printed);
  }
out:
  for (Py_ssize_t i = 0; i < na; i++)
    if (held[i]) PyBuffer_Release(&bufs[i]);
  free(a), free(bufs), free(held);
  if (m) tc5_ptx_free(m);
  free(rc.f);
  free(rc.out);
  return ret;
}

/* ---- zero-column masks and layouts ---- */
PyDoc_STRVAR(zcmask_show_doc, "zcmask_show(raw, m, n) -> (mask, explanation): the N-column mask ('1' zeroed) and tc5's text");
static PyObject *py_zcmask_show(PyObject *self, PyObject *args) {
  (void)self;
  unsigned long long raw;
  unsigned m, n;
  if (!PyArg_ParseTuple(args, "KII", &raw, &m, &n)) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_zcmask_desc d;
  tc5_colmask cm;
  tc5_status st = tc5_zcmask_desc_decode(raw, &d, &dg);
  if (!st) st = tc5_zcmask_generate(&d, m, n, &cm, &dg);
  if (st) return raise(st, &dg, "zcmask_show");
  char mask[TC5_ZCMASK_MAX_N + 1];
  for (unsigned j = 0; j < n; j++) mask[j] = tc5_colmask_bit(&cm, j) ? '1' : '0';
  mask[n] = 0;
  size_t need = 0;
  tc5_zcmask_explain(&d, m, n, NULL, 0, &need);
  char *buf = malloc(need + 1);
  if (!buf) return PyErr_NoMemory();
  tc5_zcmask_explain(&d, m, n, buf, need + 1, &need);
  PyObject *r = Py_BuildValue("(ss)", mask, buf);
  free(buf);
  return r;
}

PyDoc_STRVAR(zcmask_find_doc, "zcmask_find(m, mask, shift) -> raw descriptor generating exactly mask (a '0'/'1' string)");
static PyObject *py_zcmask_find(PyObject *self, PyObject *args) {
  (void)self;
  unsigned m, shift;
  const char *mask;
  if (!PyArg_ParseTuple(args, "IsI", &m, &mask, &shift)) return NULL;
  size_t n = strlen(mask);
  if (!n || n > TC5_ZCMASK_MAX_N) return PyErr_Format(PyExc_ValueError, "a mask of 1 to %d columns", TC5_ZCMASK_MAX_N);
  tc5_colmask want;
  memset(&want, 0, sizeof want);
  want.n = (unsigned)n;
  for (size_t j = 0; j < n; j++) {
    if (mask[j] != '0' && mask[j] != '1') return PyErr_Format(PyExc_ValueError, "mask: '0' and '1' only");
    if (mask[j] == '1') want.w[j >> 6] |= 1ull << (j & 63);
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_zcmask_desc d;
  unsigned bad = 0;
  tc5_status st = tc5_zcmask_synthesize(m, &want, shift, &d, &bad, &dg);
  uint64_t raw = 0;
  if (!st) st = tc5_zcmask_desc_encode(&d, &raw, &dg);
  if (st) return raise(st, &dg, "zcmask_find");
  return PyLong_FromUnsignedLongLong(raw);
}

PyDoc_STRVAR(layout_addr_doc,
             "layout_addr(desc, kind, type, major, mn, k) -> (addr, bit, width): where element (mn, k) of the\n"
             "operand a shared memory descriptor describes lives (major: 'K' or 'MN')");
static PyObject *py_layout_addr(PyObject *self, PyObject *args) {
  (void)self;
  unsigned long long raw;
  const char *kind_s, *type_s, *major_s;
  unsigned mn, k;
  if (!PyArg_ParseTuple(args, "KsssII", &raw, &kind_s, &type_s, &major_s, &mn, &k)) return NULL;
  tc5_kind kind;
  tc5_type t;
  tc5_major major;
  if (tc5_kind_parse(kind_s, &kind)) return PyErr_Format(PyExc_ValueError, "unknown kind '%s'", kind_s);
  if (!type_of(type_s, &t)) return NULL;
  if (tc5_major_parse(major_s, &major)) return PyErr_Format(PyExc_ValueError, "major is K or MN, not '%s'", major_s);
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_smem_desc d;
  tc5_operand op;
  tc5_elem_loc loc;
  tc5_status st = tc5_smem_desc_decode(raw, &d, &dg);
  if (!st) st = tc5_operand_for(kind, t, major, &op);
  if (!st) st = tc5_layout_addr(&d, &op, mn, k, &loc, &dg);
  if (st) return raise(st, &dg, "layout_addr");
  return Py_BuildValue("(III)", loc.addr, (unsigned)loc.bit, (unsigned)loc.width);
}

static PyMethodDef methods[] = {
    {"zcmask_show", py_zcmask_show, METH_VARARGS, zcmask_show_doc},
    {"zcmask_find", py_zcmask_find, METH_VARARGS, zcmask_find_doc},
    {"layout_addr", py_layout_addr, METH_VARARGS, layout_addr_doc},
    {"ptx_params", py_ptx_params, METH_VARARGS, ptx_params_doc},
    {"run_ptx", py_run_ptx, METH_VARARGS, run_ptx_doc},
    {"desc_decode", py_desc_decode, METH_VARARGS, desc_decode_doc},
    {"desc_encode", py_desc_encode, METH_VARARGS, desc_encode_doc},
    {"desc_check", py_desc_check, METH_VARARGS, desc_check_doc},
    {"gemm", py_gemm, METH_VARARGS, gemm_doc},
    {"gemm_sparse", py_gemm_sparse, METH_VARARGS, gemm_sparse_doc},
    {"gemm_matrices", py_gemm_matrices, METH_VARARGS, gemm_matrices_doc},
    {"dlpack_info", py_dlpack_info, METH_O, dlpack_info_doc},
    {"type_bits", py_type_bits, METH_O, type_bits_doc},
    {"dot", py_dot, METH_VARARGS, dot_doc},
    {NULL, NULL, 0, NULL},
};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "tc5._tc5", "tc5's C library", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tc5(void); /* the module's entry, found by name */
PyMODINIT_FUNC PyInit__tc5(void) {
  PyObject *mod = PyModule_Create(&module);
  if (!mod) return NULL;
  error_base = PyErr_NewExceptionWithDoc("tc5.Error", "A tc5 status other than TC5_OK: .status, .messages",
                                         NULL, NULL);
  if (!error_base || PyModule_AddObjectRef(mod, "Error", error_base)) return NULL;
  for (int s = 1; s <= TC5_EHAZARD; s++) {
    char qual[64];
    snprintf(qual, sizeof qual, "tc5.%s", error_names[s]);
    error_of[s] = PyErr_NewException(qual, error_base, NULL);
    if (!error_of[s] || PyModule_AddObjectRef(mod, error_names[s], error_of[s])) return NULL;
  }
  return mod;
}
