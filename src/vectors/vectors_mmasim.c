/* tc5 — vectors format "mmasim": golden dot products from MMA-Sim
 * (../shared/oracle/mmasim/, see its README). The architecture and the MMA
 * qualifier come from the header ("arch=Blackwell
 * qualifier=m64n8k16.f32.bf16.bf16") or else the file name
 * ("blackwell.m128n8k64.block16.f32.e2m1.e2m1.ue4m3.txt"). Each line holds
 * one output element: a= (row of A), b= (column of B), c=, [sa= sb=], d=,
 * raw hex codes; packed e2m1 rows list K/2 bytes, element 2i in the low
 * nibble of byte i. tc5_dot_run must give d bit for bit.
 *
 * The files' lines come from whole MMA calls: M x N consecutive lines, row
 * by row, share A's rows and B's columns (and scales). For Blackwell files
 * each complete call also runs as one tcgen05.mma through the engine (A and
 * B in shared memory through descriptors, scale factors and C in Tensor
 * Memory), and every element of D must equal its line's d; a mismatch is
 * reported on the call's last line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/arith.h"
#include "tc5/layout.h"
#include "tc5/mma.h"
#include "tc5/packing.h"
#include "vectors/vectors_impl.h"

typedef struct mm_ctx {
  tc5_dot model;
  tc5_kind kind;
  unsigned k, m, n;
  bool packed_fp4, engine;
  tc5_vectors_report *rep;
  /* the call being gathered: line `at` of m x n; `whole` while its lines
   * share rows and columns */
  unsigned at, call;
  bool whole;
  uint32_t *A, *B, *SA, *SB, *C, *D; /* m x k, k x n, m x ns, ns x n, m x n, m x n */
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
  c->k = kk, c->m = mm, c->n = nn, c->kind = kind, c->rep = rep;
  c->packed_fp4 = at == TC5_E2M1 && kind != TC5_KIND_F8F6F4 && kind != TC5_KIND_MXF8F6F4;
  c->engine = model == TC5_MODEL_BLACKWELL && mm && nn && mm <= 256 && nn <= 256 && kk <= 128;
  if (c->engine || rep->gemm) {
    size_t ns = block ? kk / block : 0;
    c->A = malloc(sizeof(uint32_t) * mm * kk), c->B = malloc(sizeof(uint32_t) * kk * nn);
    c->SA = malloc(sizeof(uint32_t) * (mm * ns + 1)), c->SB = malloc(sizeof(uint32_t) * (ns * nn + 1));
    c->C = malloc(sizeof(uint32_t) * mm * nn), c->D = malloc(sizeof(uint32_t) * mm * nn);
    if (!c->A || !c->B || !c->SA || !c->SB || !c->C || !c->D)
      return tc5_diag_add(diag, TC5_ENOMEM, "memory", 0, "vectors: out of memory");
    c->whole = true;
  }
  return TC5_OK;
}

static void mm_end(void *ctx) {
  mm_ctx *c = ctx;
  free(c->A), free(c->B), free(c->SA), free(c->SB), free(c->C), free(c->D);
}

/* One call through the engine: M x N x K tcgen05.mma.cta_group::1 in a
 * fresh CTA, A and B K-major without swizzle, D (holding C) at column 0,
 * scale factors A at column 256 and B at 320 with IDs 0. */
static tc5_status engine_call(mm_ctx *c, char *why, size_t cap) {
  tc5_smem sm;
  tc5_tmem tm;
  tc5_cta cta;
  memset(&cta, 0, sizeof cta);
  tc5_status st = tc5_smem_init(&sm, 128 * 1024);
  if (st) FAIL("engine: %s", tc5_strerror(st));
  if ((st = tc5_tmem_init(&tm, 0)) != TC5_OK) {
    tc5_smem_free(&sm);
    FAIL("engine: %s", tc5_strerror(st));
  }
  cta.smem = &sm, cta.tmem = &tm;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_mma_args a;
  tc5_idesc d;
  tc5_operand oa, ob;
  tc5_smem_desc da, db;
  uint32_t taddr, *Bt = malloc(sizeof(uint32_t) * c->k * c->n);
  unsigned M = c->m, N = c->n, K = c->k, ns = c->model.block ? K / c->model.block : 0, bad = 0, first = 0;
  uint32_t first_v = 0;
  st = Bt ? TC5_OK : TC5_ENOMEM;
  if (!st) st = tc5_mma_args_init(&a, c->kind);
  a.variant.block = (uint8_t)c->model.block;
  if (!st) st = tc5_idesc_init(&d, c->kind);
  if (!st) st = tc5_idesc_set_types(&d, c->model.atype, c->model.btype, c->model.ctype);
  d.m = (uint16_t)M, d.n = (uint16_t)N, d.scale_type = c->model.stype == TC5_UE8M0;
  if (!st) st = tc5_idesc_encode(&d, &a.idesc, &dg);
  if (!st) st = tc5_operand_for(c->kind, c->model.atype, TC5_MAJOR_K, &oa);
  if (!st) st = tc5_operand_for(c->kind, c->model.btype, TC5_MAJOR_K, &ob);
  for (unsigned n = 0; !st && n < N; n++)
    for (unsigned k = 0; k < K; k++) Bt[(size_t)n * K + k] = c->B[(size_t)k * N + n];
  if (!st) st = tc5_layout_scatter(&sm, 0, TC5_SWIZZLE_NONE, &oa, M, K, c->A, &da, &dg);
  if (!st) st = tc5_layout_scatter(&sm, 65536, TC5_SWIZZLE_NONE, &ob, N, K, Bt, &db, &dg);
  if (!st) st = tc5_smem_desc_encode(&da, &a.a_desc, &dg);
  if (!st) st = tc5_smem_desc_encode(&db, &a.b_desc, &dg);
  if (!st) st = tc5_tmem_alloc(&tm, 512, &taddr, &dg);
  a.d_tmem = 0, a.sfa_tmem = 256, a.sfb_tmem = 320;
  for (unsigned m = 0; !st && m < M; m++)
    for (unsigned n = 0; n < N; n++) {
      uint32_t l, col;
      tc5_mma_d_cell(M, 1, false, N, m, n, &l, &col, NULL);
      tc5_tmem_poke(&tm, l, col, c->C[(size_t)m * N + n]);
    }
  /* scale factors in every replica (tc5_mma_sf_cell) */
  for (int b = 0; !st && b < 2; b++)
    for (unsigned i = 0; i < (b ? N : M); i++)
      for (unsigned s = 0; s < ns; s++)
        for (unsigned r = 0; r < 4; r++) {
          uint32_t l, col, w = 0;
          unsigned byte;
          bool wr;
          tc5_mma_sf_cell(b, M, 1, b ? N : M, i, s, 0, r, &l, &col, &byte, NULL);
          col += b ? 320 : 256;
          tc5_tmem_peek(&tm, l, col, &w, &wr);
          if (!wr) w = 0;
          uint32_t v = b ? c->SB[(size_t)s * N + i] : c->SA[(size_t)i * ns + s];
          tc5_tmem_poke(&tm, l, col, (w & ~(0xFFu << 8 * byte)) | v << 8 * byte);
        }
  if (!st) st = tc5_mma(&cta, 1, &a, &dg);
  for (unsigned m = 0; !st && m < M; m++)
    for (unsigned n = 0; n < N; n++) {
      uint32_t l, col, v;
      tc5_mma_d_cell(M, 1, false, N, m, n, &l, &col, NULL);
      tc5_tmem_peek(&tm, l, col, &v, NULL);
      if (c->model.ctype == TC5_F16) v &= 0xFFFF;
      if (v != c->D[(size_t)m * N + n] && !bad++) first = m * N + n, first_v = v;
    }
  tc5_cta_free(&cta);
  tc5_smem_free(&sm);
  tc5_tmem_free(&tm);
  free(Bt);
  if (st) FAIL("engine: call %u: %s", c->call, dg.count ? dg.issue[0].message : tc5_strerror(st));
  c->rep->engine_calls++;
  if (bad)
    FAIL("engine: call %u (tcgen05.mma m%un%uk%u): %u of %u elements differ; first D[%u][%u] = 0x%08x, file 0x%08x",
         c->call, M, N, K, bad, M * N, first / N, first % N, first_v, c->D[first]);
  return TC5_OK;
}

/* the call through the report's GEMM (the GPU's): D from C, every element
 * equal to its line's d */
static tc5_status gemm_call(mm_ctx *c, char *why, size_t cap) {
  if (!c->rep->gemm) return TC5_OK;
  size_t mn = (size_t)c->m * c->n;
  uint32_t *D = malloc(mn * sizeof *D);
  if (!D) FAIL("out of memory");
  memcpy(D, c->C, mn * sizeof *D);
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  bool scaled = c->model.stype != TC5_TYPE_NONE;
  tc5_status st = c->rep->gemm(c->rep->gemm_ctx, &c->model, c->m, c->n, c->k, c->A, c->B, scaled ? c->SA : NULL,
                               scaled ? c->SB : NULL, D, &o);
  size_t bad = mn;
  for (size_t i = 0; !st && i < mn && bad == mn; i++)
    if (D[i] != c->D[i]) bad = i;
  uint32_t got = bad < mn ? D[bad] : 0;
  free(D);
  if (st) FAIL("call %u through the GEMM: %s", c->call, tc5_strerror(st));
  c->rep->gemm_calls++;
  if (bad < mn)
    FAIL("call %u through the GEMM: element (%zu, %zu) is 0x%08x, the file's d 0x%08x", c->call, bad / c->n,
         bad % c->n, got, c->D[bad]);
  return TC5_OK;
}

/* keeps the line's operands for the engine's call; at the call's last line
 * runs it */
static tc5_status gather_call(mm_ctx *c, const uint32_t *a, const uint32_t *b, const uint32_t *sa,
                              const uint32_t *sb, uint32_t cc, uint32_t d, char *why, size_t cap) {
  unsigned m = c->at / c->n, n = c->at % c->n, K = c->k, ns = c->model.block ? K / c->model.block : 0;
  if (n == 0) {
    memcpy(c->A + (size_t)m * K, a, K * sizeof *a);
    if (ns) memcpy(c->SA + (size_t)m * ns, sa, ns * sizeof *sa);
  } else if (memcmp(c->A + (size_t)m * K, a, K * sizeof *a) || (ns && memcmp(c->SA + (size_t)m * ns, sa, ns * sizeof *sa))) {
    c->whole = false;
  }
  for (unsigned k = 0; k < K; k++) {
    if (m == 0) c->B[(size_t)k * c->n + n] = b[k];
    else if (c->B[(size_t)k * c->n + n] != b[k]) c->whole = false;
  }
  for (unsigned s = 0; s < ns; s++) {
    if (m == 0) c->SB[(size_t)s * c->n + n] = sb[s];
    else if (c->SB[(size_t)s * c->n + n] != sb[s]) c->whole = false;
  }
  c->C[c->at] = cc, c->D[c->at] = d;
  if (++c->at < c->m * c->n) return TC5_OK;
  bool whole = c->whole;
  c->at = 0, c->whole = true, c->call++;
  if (!whole) return TC5_OK;
  tc5_status st = c->engine ? engine_call(c, why, cap) : TC5_OK;
  return st ? st : gemm_call(c, why, cap);
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
  if (c->engine || c->rep->gemm) {
    if (got != d) c->whole = false; /* reported below, not again by the engine */
    if ((st = gather_call(c, a, b, sa, sb, cc, d, why, cap)) != TC5_OK) return st;
  }
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
    "mmasim", "a", NULL, sizeof(mm_ctx), mm_begin, mm_check, mm_end,
};
