/* tc5 — vectors format "mmasim": golden dot products from MMA-Sim
 * (../shared/oracle/mmasim/, see its README). The architecture and the MMA
 * qualifier come from the header ("arch=Blackwell
 * qualifier=m64n8k16.f32.bf16.bf16") or else the file name
 * ("blackwell.m128n8k64.block16.f32.e2m1.e2m1.ue4m3.txt"). Each line holds
 * one output element: a= (row of A), b= (column of B), c=, [sa= sb=], d=,
 * raw hex codes; packed e2m1 rows list K/2 bytes, element 2i in the low
 * nibble of byte i. tc5_dot_run must give d bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/arith.h"
#include "tc5/packing.h"
#include "vectors/vectors_impl.h"

typedef struct mm_ctx {
  tc5_dot model;
  unsigned k;
  bool packed_fp4;
} mm_ctx;

#define FAIL(...)                                                              \
  do {                                                                         \
    snprintf(why, cap, __VA_ARGS__);                                           \
    return TC5_EMISMATCH;                                                      \
  } while (0)

/* "arch qualifier" from the header or the file name */
static bool find_qualifier(const char *name, const char *header, char *arch, char *qual) {
  const char *a = header ? strstr(header, "arch=") : NULL;
  const char *q = header ? strstr(header, "qualifier=") : NULL;
  if (a && q) {
    sscanf(a + 5, "%31s", arch);
    sscanf(q + 10, "%127s", qual);
    return true;
  }
  if (!name) return false;
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  const char *dot = strchr(base, '.');
  if (!dot) return false;
  size_t al = (size_t)(dot - base);
  if (al >= 32) return false;
  memcpy(arch, base, al);
  arch[al] = '\0';
  snprintf(qual, 128, "%s", dot + 1);
  char *txt = strstr(qual, ".txt");
  if (txt) *txt = '\0';
  return true;
}

static tc5_status mm_begin(void *ctx, const char *name, const char *header,
                           tc5_vectors_report *rep, tc5_diag *diag) {
  mm_ctx *c = ctx;
  char arch[32] = "", qual[128] = "";
  if (!find_qualifier(name, header, arch, qual))
    return tc5_diag_add(diag, TC5_EPARSE, "qualifier", 0,
                        "vectors: %s: no arch/qualifier in the header or the file name",
                        name ? name : "input");
  snprintf(rep->qualifier, sizeof rep->qualifier, "%s %s", arch, qual);
  tc5_model model;
  if (tc5_model_parse(arch, &model) != TC5_OK)
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "arch", 0, "vectors: unknown architecture '%s'", arch);
  /* mMnNkK[.blockB].D.A.B[.S] */
  char buf[128], *tok[8];
  int nt = 0;
  snprintf(buf, sizeof buf, "%s", qual);
  for (char *save = NULL, *t = strtok_r(buf, ".", &save); t && nt < 8; t = strtok_r(NULL, ".", &save))
    tok[nt++] = t;
  unsigned mm, nn, kk, block = 0;
  int i = 0;
  if (nt < 4 || sscanf(tok[i++], "m%un%uk%u", &mm, &nn, &kk) != 3)
    return tc5_diag_add(diag, TC5_EPARSE, "qualifier", 0, "vectors: bad qualifier '%s'", qual);
  if (!strncmp(tok[i], "block", 5)) block = (unsigned)atoi(tok[i++] + 5);
  tc5_type dt, at, bt, st = TC5_TYPE_NONE;
  if (nt - i < 3 || tc5_type_parse(tok[i], &dt) || tc5_type_parse(tok[i + 1], &at) ||
      tc5_type_parse(tok[i + 2], &bt) || (nt - i > 3 && tc5_type_parse(tok[i + 3], &st)))
    return tc5_diag_add(diag, TC5_EPARSE, "qualifier", 0, "vectors: bad types in '%s'", qual);
  tc5_kind kind;
  if (at == TC5_F16 || at == TC5_BF16) kind = TC5_KIND_F16;
  else if (at == TC5_TF32) kind = TC5_KIND_TF32;
  else if (at == TC5_S8 || at == TC5_U8) kind = TC5_KIND_I8;
  else if (!block) kind = TC5_KIND_F8F6F4;
  else if (at == TC5_E2M1 && bt == TC5_E2M1 && kk == 64) kind = TC5_KIND_MXF4NVF4;
  else kind = TC5_KIND_MXF8F6F4;
  tc5_status s = tc5_dot_model(model, kind, at, bt, dt, st, block, false, &c->model, diag);
  if (s != TC5_OK) return s;
  c->k = kk;
  c->packed_fp4 = at == TC5_E2M1 && kind != TC5_KIND_F8F6F4 && kind != TC5_KIND_MXF8F6F4;
  return TC5_OK;
}

/* comma-separated hex codes */
static bool read_list(const tc5_vline *l, const char *key, uint32_t *out, unsigned max,
                      unsigned *n) {
  size_t len;
  const char *v = tc5_vline_get(l, key, &len);
  if (!v) return false;
  unsigned cnt = 0;
  size_t i = 0;
  while (i < len) {
    uint32_t x = 0;
    size_t st = i;
    while (i < len && v[i] != ',') {
      char ch = v[i];
      unsigned dgt = (ch >= '0' && ch <= '9') ? (unsigned)(ch - '0')
                     : (ch >= 'a' && ch <= 'f') ? (unsigned)(ch - 'a' + 10)
                     : (ch >= 'A' && ch <= 'F') ? (unsigned)(ch - 'A' + 10) : 99;
      if (dgt > 15 || i - st >= 8) return false;
      x = x * 16 + dgt;
      i++;
    }
    if (i == st || cnt >= max) return false;
    out[cnt++] = x;
    i++; /* comma */
  }
  *n = cnt;
  return true;
}

static tc5_status mm_check(void *ctx, const tc5_vline *l, char *why, size_t cap, bool *noted) {
  (void)noted;
  mm_ctx *c = ctx;
  uint32_t a[128], b[128], sa[8], sb[8], cc, d;
  unsigned na, nb, nsa = 0, nsb = 0, n1;
  if (!read_list(l, "a", a, 128, &na) || !read_list(l, "b", b, 128, &nb))
    FAIL("bad or missing a=/b=");
  if (!read_list(l, "c", &cc, 1, &n1) || !read_list(l, "d", &d, 1, &n1)) FAIL("bad or missing c=/d=");
  bool scaled = c->model.stype != TC5_TYPE_NONE;
  if (scaled && (!read_list(l, "sa", sa, 8, &nsa) || !read_list(l, "sb", sb, 8, &nsb)))
    FAIL("missing sa=/sb=");
  if (c->packed_fp4) {
    if (na * 2 != c->k || nb * 2 != c->k) FAIL("expected %u packed bytes", c->k / 2);
    uint8_t bytes[64], codes[128];
    for (unsigned i = 0; i < na; i++) bytes[i] = (uint8_t)a[i];
    tc5_unpack_fp4x2(bytes, c->k, codes);
    for (unsigned i = 0; i < c->k; i++) a[i] = codes[i];
    for (unsigned i = 0; i < nb; i++) bytes[i] = (uint8_t)b[i];
    tc5_unpack_fp4x2(bytes, c->k, codes);
    for (unsigned i = 0; i < c->k; i++) b[i] = codes[i];
  } else if (na != c->k || nb != c->k) {
    FAIL("expected %u elements in a and b, got %u and %u", c->k, na, nb);
  }
  if (scaled && (nsa * c->model.block != c->k || nsb * c->model.block != c->k))
    FAIL("expected %u scales", c->k / c->model.block);
  uint32_t got;
  tc5_status st = tc5_dot_run(&c->model, c->k, a, b, scaled ? sa : NULL, scaled ? sb : NULL, cc, NULL, &got);
  if (st != TC5_OK) FAIL("tc5_dot_run: %s", tc5_strerror(st));
  if (got != d) {
    double gv, dv;
    tc5_fmt_decode(c->model.ctype, got, &gv, NULL);
    tc5_fmt_decode(c->model.ctype, d, &dv, NULL);
    FAIL("d: tc5 0x%0*x (%a), file 0x%0*x (%a)", c->model.ctype == TC5_F16 ? 4 : 8, got, gv,
         c->model.ctype == TC5_F16 ? 4 : 8, d, dv);
  }
  return TC5_OK;
}

const tc5_vformat tc5_vformat_mmasim = {
    "mmasim", "a", NULL, sizeof(mm_ctx), mm_begin, mm_check, NULL,
};
