/* tc5 — the Python extension module: a thin layer over the C library on
 * the CPython C API (no NumPy C API: arrays arrive through the buffer
 * protocol, already contiguous uint32 code arrays prepared by tc5/__init__.py).
 * The work releases the GIL; errors raise tc5.Error subclasses carrying the
 * library's diagnostics. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "tc5/arith.h"
#include "tc5/formats.h"
#include "tc5/kind.h"

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
static PyObject *raise(tc5_status st, const tc5_diag *dg, const char *what) {
  PyObject *cls = (unsigned)st <= TC5_EHAZARD && error_of[st] ? error_of[st] : error_base;
  PyObject *msgs = PyList_New(0);
  if (!msgs) return NULL;
  char text[4096];
  size_t o = (size_t)snprintf(text, sizeof text, "%s: %s", what, tc5_strerror(st));
  for (unsigned i = 0; dg && i < dg->count; i++) {
    PyObject *m = PyUnicode_FromString(dg->issue[i].message);
    if (m) {
      PyList_Append(msgs, m);
      Py_DECREF(m);
    }
    if (o < sizeof text) o += (size_t)snprintf(text + o, sizeof text - o, "\n  - %s", dg->issue[i].message);
  }
  PyObject *exc = PyObject_CallFunction(cls, "s", text);
  if (exc) {
    PyObject_SetAttrString(exc, "status", PyUnicode_FromString(tc5_status_name(st)));
    PyObject_SetAttrString(exc, "messages", msgs);
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
  }
  Py_DECREF(msgs);
  return NULL;
}

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

PyDoc_STRVAR(gemm_doc,
             "gemm(model, kind, atype, btype, dtype, stype, block, saturate, M, N, K, A, B, SA, SB, D,\n"
             "     negate_a, negate_b, enable_input_d, scale_input_d, threads)\n\n"
             "tc5_gemm on uint32 code buffers: A (M x K), B (K x N), D (M x N, read as C with\n"
             "enable_input_d, written), SA/SB the block scales or None. Releases the GIL.");
static PyObject *py_gemm(PyObject *self, PyObject *args) {
  (void)self;
  const char *model_s, *kind_s, *at_s, *bt_s, *dt_s, *st_s;
  unsigned block, M, N, K, scale_d, threads;
  int saturate, neg_a, neg_b, enable_d;
  PyObject *oa, *ob, *osa, *osb, *od;
  if (!PyArg_ParseTuple(args, "sssssziIIIIOOOOOpppII", &model_s, &kind_s, &at_s, &bt_s, &dt_s, &st_s, &block, &saturate,
                        &M, &N, &K, &oa, &ob, &osa, &osb, &od, &neg_a, &neg_b, &enable_d, &scale_d, &threads))
    return NULL;
  tc5_model model;
  tc5_kind kind;
  tc5_type at, bt, dt, stype;
  if (tc5_model_parse(model_s, &model)) return PyErr_Format(PyExc_ValueError, "model is blackwell or hopper, not '%s'", model_s);
  if (tc5_kind_parse(kind_s, &kind)) return PyErr_Format(PyExc_ValueError, "unknown kind '%s'", kind_s);
  if (!type_of(at_s, &at) || !type_of(bt_s, &bt) || !type_of(dt_s, &dt) || !type_of(st_s, &stype)) return NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_dot m;
  tc5_status st = tc5_dot_model(model, kind, at, bt, dt, stype, block, saturate != 0, &m, &dg);
  if (st) return raise(st, &dg, "tc5.gemm");
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.negate_a = neg_a, o.negate_b = neg_b, o.enable_input_d = enable_d, o.scale_input_d = scale_d;
  st = tc5_dot_check(&m, K, &o, &dg);
  if (st) return raise(st, &dg, "tc5.gemm");
  Py_buffer ba, bb, bsa = {0}, bsb = {0}, bd;
  bool have_s = osa != Py_None;
  size_t nblk = have_s && block ? K / block : 0;
  if (!codes(oa, &ba, (size_t)M * K, false, "a")) return NULL;
  if (!codes(ob, &bb, (size_t)K * N, false, "b")) goto fa;
  if (have_s && !codes(osa, &bsa, (size_t)M * nblk, false, "scale_a")) goto fb;
  if (have_s && !codes(osb, &bsb, nblk * N, false, "scale_b")) goto fsa;
  if (!codes(od, &bd, (size_t)M * N, true, "d")) goto fsb;
  Py_BEGIN_ALLOW_THREADS
  st = tc5_gemm(&m, M, N, K, ba.buf, bb.buf, have_s ? bsa.buf : NULL, have_s ? bsb.buf : NULL, bd.buf, &o, threads);
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&bd);
  if (have_s) PyBuffer_Release(&bsb);
  if (have_s) PyBuffer_Release(&bsa);
  PyBuffer_Release(&bb);
  PyBuffer_Release(&ba);
  if (st) return raise(st, &dg, "tc5.gemm");
  Py_RETURN_NONE;
fsb:
  if (have_s) PyBuffer_Release(&bsb);
fsa:
  if (have_s) PyBuffer_Release(&bsa);
fb:
  PyBuffer_Release(&bb);
fa:
  PyBuffer_Release(&ba);
  return NULL;
}

PyDoc_STRVAR(type_bits_doc, "type_bits(name) -> the element type's width in bits (tc5_type_bits)");
static PyObject *py_type_bits(PyObject *self, PyObject *arg) {
  (void)self;
  const char *name = PyUnicode_AsUTF8(arg);
  tc5_type t;
  if (!name || !type_of(name, &t)) return NULL;
  return PyLong_FromUnsignedLong(tc5_type_bits(t));
}

static PyMethodDef methods[] = {
    {"gemm", py_gemm, METH_VARARGS, gemm_doc},
    {"type_bits", py_type_bits, METH_O, type_bits_doc},
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
