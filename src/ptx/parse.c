/* tc5 PTX runner — the parser: PTX text (ISA 8.x/9.x as nvcc 13 and Triton
 * 3.x emit it) into a module of pre-decoded instructions.
 *
 * Handled: .version/.target/.address_size, .file/.loc (kept: each
 * instruction's source position), .section (skipped),
 * .entry and .func (prototypes too) with their .param lists (.ptr .global
 * .align), performance directives (.reqntid .maxntid .minnctapersm
 * .maxnreg .pragma .noreturn ...), .reg with <N> ranges, .shared /
 * .extern .shared / .global / .const / .local / in-body .param variables
 * with initialisers, labels, guards (@%p, @!%p), vector operands {...},
 * a|b pairs, and { } scoping blocks (inline asm), whose registers and
 * labels are local to the block. Instructions are decoded (decode.c) as
 * each function's body closes. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_impl.h"

typedef struct pscope {
  uint32_t parent;
} pscope;

typedef struct name_ent {
  char name[96];
  uint32_t scope;
  uint32_t value; /* register index, or label pc */
} name_ent;

typedef struct nametab {
  name_ent *e;
  uint32_t n, cap; /* open addressing, cap a power of two */
} nametab;

typedef struct parser {
  const char *s;
  size_t n, i;
  uint32_t line;
  size_t line_start;
  tc5_diag *diag;
  tc5_status st;
  tc5_ptx_module *m;
  /* the function being parsed */
  pscope *scopes;
  uint32_t nscopes, scopes_cap;
  uint32_t cur;
  nametab regs, labels;
  ptx_raw *raws;
  uint32_t nraws, raws_cap;
  ptx_raw_opnd *pool; /* the vector and list elements of the function's instructions */
  uint32_t npool, pool_cap;
  ptx_func *fn;
  unsigned fn_index;
  struct name_block *names; /* interned symbol names (raw operands point into them) */
  /* .branchtargets tables of the function: the label before each, its
   * scope, and its targets' names (interned) */
  struct btab {
    const char *label;
    uint32_t scope;
    const char **targets;
    unsigned n;
  } *btabs;
  unsigned nbtabs, btabs_cap;
  const char *last_label;   /* the label just defined, while no instruction followed */
  uint32_t last_label_at;
  ptx_loc loc;              /* the last .loc: the source of the instructions after it */
} parser;

/* a block of interned names: they never move, so raw operands keep pointers */
typedef struct name_block {
  struct name_block *next;
  size_t used;
  char text[65536];
} name_block;
static const char *intern(parser *p, const char *s) {
  size_t n = strlen(s) + 1;
  if (!p->names || p->names->used + n > sizeof p->names->text) {
    name_block *b = malloc(sizeof *b);
    if (!b) return NULL;
    b->next = p->names;
    b->used = 0;
    p->names = b;
  }
  char *d = p->names->text + p->names->used;
  memcpy(d, s, n);
  p->names->used += n;
  return d;
}

/* ------------------------------------------------------------------ */
/* errors */

static tc5_status perr(parser *p, tc5_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static tc5_status perr(parser *p, tc5_status st, const char *fmt, ...) {
  if (p->st) return p->st;
  char msg[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* the text of the line, for the message */
  size_t e = p->line_start;
  while (e < p->n && p->s[e] != '\n') e++;
  size_t b = p->line_start;
  while (b < e && isspace((unsigned char)p->s[b])) b++;
  int len = (int)(e - b > 60 ? 60 : e - b);
  tc5_diag_add(p->diag, st, "line", p->line, "%s:%u:%u: %s: '%.*s'", p->m->name, p->line,
               (unsigned)(p->i - p->line_start + 1), msg, len, p->s + b);
  p->st = st;
  return st;
}

/* ------------------------------------------------------------------ */
/* characters */

static int peek(parser *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }

static void advance(parser *p) {
  if (p->i < p->n) {
    if (p->s[p->i] == '\n') {
      p->line++;
      p->line_start = p->i + 1;
    }
    p->i++;
  }
}

static void skip_ws(parser *p) {
  for (;;) {
    int c = peek(p);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      advance(p);
    } else if (c == '/' && p->i + 1 < p->n && p->s[p->i + 1] == '/') {
      while (p->i < p->n && p->s[p->i] != '\n') advance(p);
    } else if (c == '/' && p->i + 1 < p->n && p->s[p->i + 1] == '*') {
      advance(p);
      advance(p);
      while (p->i < p->n && !(p->s[p->i] == '*' && p->i + 1 < p->n && p->s[p->i + 1] == '/'))
        advance(p);
      if (p->i >= p->n) {
        perr(p, TC5_EPARSE, "unterminated comment");
        return;
      }
      advance(p);
      advance(p);
    } else {
      return;
    }
  }
}

static void skip_line(parser *p) {
  while (p->i < p->n && p->s[p->i] != '\n') advance(p);
}

static bool is_id_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static bool is_id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* An opcode or directive: letters, digits, _ $ . and "::". */
static size_t read_word(parser *p, const char **w) {
  skip_ws(p);
  size_t b = p->i;
  while (p->i < p->n) {
    int c = (unsigned char)p->s[p->i];
    if (is_id_char(c) || c == '.' || c == '%') {
      advance(p);
    } else if (c == ':' && p->i + 1 < p->n && p->s[p->i + 1] == ':') {
      advance(p);
      advance(p);
    } else {
      break;
    }
  }
  *w = p->s + b;
  return p->i - b;
}

/* A name: [%]id[.x] (special registers keep their .x suffix). */
static size_t read_name(parser *p, char *out, size_t cap) {
  skip_ws(p);
  size_t b = p->i;
  if (peek(p) == '%' || peek(p) == '$' || isalpha(peek(p)) || peek(p) == '_') advance(p);
  while (p->i < p->n && is_id_char((unsigned char)p->s[p->i])) advance(p);
  /* %tid.x, %ctaid.y ... */
  if (b < p->n && p->s[b] == '%' && peek(p) == '.' && p->i + 1 < p->n && isalpha((unsigned char)p->s[p->i + 1])) {
    advance(p);
    while (p->i < p->n && is_id_char((unsigned char)p->s[p->i])) advance(p);
  }
  size_t len = p->i - b;
  if (len == 0) {
    perr(p, TC5_EPARSE, "expected a name");
    return 0;
  }
  if (len >= cap) {
    perr(p, TC5_EUNSUPPORTED, "name longer than %zu characters", cap - 1);
    return 0;
  }
  memcpy(out, p->s + b, len);
  out[len] = 0;
  return len;
}

static bool accept(parser *p, char c) {
  skip_ws(p);
  if (peek(p) == c) {
    advance(p);
    return true;
  }
  return false;
}

static bool expect(parser *p, char c) {
  if (accept(p, c)) return true;
  perr(p, TC5_EPARSE, "expected '%c'", c);
  return false;
}

static bool word_is(const char *w, size_t n, const char *lit) {
  return strlen(lit) == n && !memcmp(w, lit, n);
}

/* ------------------------------------------------------------------ */
/* numbers */

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* An integer or float literal. *kind: RO_INT (ival), RO_F32 / RO_F64 (bits). */
static bool read_number(parser *p, uint8_t *kind, int64_t *ival, uint64_t *bits) {
  skip_ws(p);
  bool neg = false;
  if (peek(p) == '-') {
    neg = true;
    advance(p);
    skip_ws(p);
  } else if (peek(p) == '+') {
    advance(p);
  }
  size_t b = p->i;
  const char *s = p->s;
  if (p->i + 1 < p->n && s[p->i] == '0' && (s[p->i + 1] == 'f' || s[p->i + 1] == 'F' ||
                                            s[p->i + 1] == 'd' || s[p->i + 1] == 'D')) {
    bool f32 = s[p->i + 1] == 'f' || s[p->i + 1] == 'F';
    unsigned nd = f32 ? 8 : 16;
    advance(p);
    advance(p);
    uint64_t v = 0;
    for (unsigned k = 0; k < nd; k++) {
      int h = hexval(peek(p));
      if (h < 0) {
        perr(p, TC5_EPARSE, "a %s literal needs %u hexadecimal digits", f32 ? "0f" : "0d", nd);
        return false;
      }
      v = v << 4 | (uint64_t)h;
      advance(p);
    }
    if (neg) v ^= f32 ? 0x80000000ull : 0x8000000000000000ull;
    *kind = f32 ? RO_F32 : RO_F64;
    *bits = v;
    return true;
  }
  /* decimal float? */
  size_t j = p->i;
  while (j < p->n && isdigit((unsigned char)s[j])) j++;
  if (j > p->i && j < p->n && (s[j] == '.' || s[j] == 'e' || s[j] == 'E') &&
      !(s[p->i] == '0' && j == p->i + 1 && (s[j] == 'x'))) {
    char buf[64];
    size_t k = p->i;
    while (k < p->n && (isdigit((unsigned char)s[k]) || s[k] == '.' || s[k] == 'e' || s[k] == 'E' ||
                        ((s[k] == '-' || s[k] == '+') && (s[k - 1] == 'e' || s[k - 1] == 'E'))))
      k++;
    if (k - p->i >= sizeof buf - 1) {
      perr(p, TC5_EPARSE, "number too long");
      return false;
    }
    memcpy(buf, s + p->i, k - p->i);
    buf[k - p->i] = 0;
    double d = strtod(buf, NULL);
    if (neg) d = -d;
    while (p->i < k) advance(p);
    memcpy(bits, &d, 8);
    *kind = RO_F64;
    return true;
  }
  uint64_t v = 0;
  if (p->i + 1 < p->n && s[p->i] == '0' && (s[p->i + 1] == 'x' || s[p->i + 1] == 'X')) {
    advance(p);
    advance(p);
    if (hexval(peek(p)) < 0) {
      perr(p, TC5_EPARSE, "expected hexadecimal digits");
      return false;
    }
    while (hexval(peek(p)) >= 0) {
      v = v << 4 | (uint64_t)hexval(peek(p));
      advance(p);
    }
  } else if (p->i + 1 < p->n && s[p->i] == '0' && (s[p->i + 1] == 'b' || s[p->i + 1] == 'B')) {
    advance(p);
    advance(p);
    while (peek(p) == '0' || peek(p) == '1') {
      v = v << 1 | (uint64_t)(peek(p) - '0');
      advance(p);
    }
  } else if (isdigit(peek(p))) {
    bool octal = peek(p) == '0';
    while (isdigit(peek(p))) {
      v = octal ? v * 8 + (uint64_t)(peek(p) - '0') : v * 10 + (uint64_t)(peek(p) - '0');
      advance(p);
    }
  } else {
    perr(p, TC5_EPARSE, "expected a number");
    return false;
  }
  if (peek(p) == 'U') advance(p);
  if (p->i == b) {
    perr(p, TC5_EPARSE, "expected a number");
    return false;
  }
  *kind = RO_INT;
  *ival = neg ? -(int64_t)v : (int64_t)v;
  return true;
}

/* ------------------------------------------------------------------ */
/* name tables */

static uint32_t hash_name(const char *s, uint32_t scope) {
  uint32_t h = 2166136261u ^ scope;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static tc5_status tab_put(parser *p, nametab *t, const char *name, uint32_t sc, uint32_t value) {
  if (strlen(name) >= sizeof t->e[0].name)
    return perr(p, TC5_EUNSUPPORTED, "a register or label name longer than %zu characters", sizeof t->e[0].name - 1);
  if ((t->n + 1) * 2 > t->cap) {
    uint32_t nc = t->cap ? t->cap * 2 : 64;
    name_ent *ne = calloc(nc, sizeof *ne);
    if (!ne) return perr(p, TC5_ENOMEM, "out of memory");
    for (uint32_t k = 0; k < t->cap; k++)
      if (t->e[k].name[0]) {
        uint32_t h = hash_name(t->e[k].name, t->e[k].scope) & (nc - 1);
        while (ne[h].name[0]) h = (h + 1) & (nc - 1);
        ne[h] = t->e[k];
      }
    free(t->e);
    t->e = ne;
    t->cap = nc;
  }
  uint32_t h = hash_name(name, sc) & (t->cap - 1);
  while (t->e[h].name[0]) {
    if (t->e[h].scope == sc && !strcmp(t->e[h].name, name))
      return perr(p, TC5_EPARSE, "'%s' is declared twice in the same scope", name);
    h = (h + 1) & (t->cap - 1);
  }
  snprintf(t->e[h].name, sizeof t->e[h].name, "%s", name);
  t->e[h].scope = sc;
  t->e[h].value = value;
  t->n++;
  return TC5_OK;
}

static bool tab_get1(const nametab *t, const char *name, uint32_t sc, uint32_t *value) {
  if (!t->cap) return false;
  uint32_t h = hash_name(name, sc) & (t->cap - 1);
  while (t->e[h].name[0]) {
    if (t->e[h].scope == sc && !strcmp(t->e[h].name, name)) {
      *value = t->e[h].value;
      return true;
    }
    h = (h + 1) & (t->cap - 1);
  }
  return false;
}

/* looks `name` up in scope `sc` and its parents */
static bool tab_get(const parser *p, const nametab *t, const char *name, uint32_t sc, uint32_t *value) {
  for (;;) {
    if (tab_get1(t, name, sc, value)) return true;
    if (sc == 0) return false;
    sc = p->scopes[sc].parent;
  }
}

static void tab_clear(nametab *t) {
  free(t->e);
  memset(t, 0, sizeof *t);
}

static bool label_cb(void *ctx, uint32_t sc, const char *name, uint32_t *pc) {
  parser *p = ctx;
  return tab_get(p, &p->labels, name, sc, pc);
}
static bool table_cb(void *ctx, uint32_t sc, const char *name, const char *const **targets, unsigned *n) {
  parser *p = ctx;
  (void)sc; /* tables are named by labels, unique in the function */
  for (unsigned k = 0; k < p->nbtabs; k++)
    if (!strcmp(p->btabs[k].label, name)) {
      *targets = p->btabs[k].targets;
      *n = p->btabs[k].n;
      return true;
    }
  return false;
}

static bool find_var_exact(const tc5_ptx_module *m, const char *name, unsigned *index) {
  for (unsigned k = 0; k < m->nvars; k++)
    if (!strcmp(m->vars[k].name, name)) {
      *index = k;
      return true;
    }
  return false;
}

static bool var_cb(void *ctx, uint32_t func, uint32_t sc, const char *name, unsigned *index) {
  parser *p = ctx;
  char full[96];
  for (;;) {
    snprintf(full, sizeof full, "%u:%u:%s", func, sc, name);
    if (find_var_exact(p->m, full, index)) return true;
    if (sc == 0) break;
    sc = p->scopes[sc].parent;
  }
  return find_var_exact(p->m, name, index);
}

/* ------------------------------------------------------------------ */
/* module growth */

#define GROW(ptr, n, cap, init)                                              \
  do {                                                                       \
    if ((n) >= (cap)) {                                                      \
      size_t nc__ = (cap) ? (size_t)(cap) * 2 : (init);                      \
      void *np__ = realloc((ptr), nc__ * sizeof *(ptr));                     \
      if (!np__) return perr(p, TC5_ENOMEM, "out of memory");                \
      memset((char *)np__ + (size_t)(cap) * sizeof *(ptr), 0,                \
             (nc__ - (size_t)(cap)) * sizeof *(ptr));                        \
      (ptr) = np__;                                                          \
      (cap) = (uint32_t)nc__;                                                \
    }                                                                        \
  } while (0)


static uint32_t add_string(parser *p, const char *s, size_t n) {
  tc5_ptx_module *m = p->m;
  if (m->strings_len + n + 1 > m->strings_cap) {
    size_t nc = m->strings_cap ? m->strings_cap * 2 : 4096;
    while (nc < m->strings_len + n + 1) nc *= 2;
    char *ns = realloc(m->strings, nc);
    if (!ns) {
      perr(p, TC5_ENOMEM, "out of memory");
      return 0;
    }
    m->strings = ns;
    m->strings_cap = nc;
  }
  uint32_t off = (uint32_t)m->strings_len;
  memcpy(m->strings + off, s, n);
  m->strings[off + n] = 0;
  m->strings_len += n + 1;
  return off;
}

/* ------------------------------------------------------------------ */
/* declarations */

typedef struct decl_head {
  uint8_t space;
  uint32_t align;
  ptx_type type;
  unsigned vec;
  bool is_ptr, is_extern;
} decl_head;

/* .align N, .v2/.v4, .ptr, state-space qualifiers after .ptr, the type */
static tc5_status read_decl_head(parser *p, decl_head *h) {
  for (;;) {
    skip_ws(p);
    if (peek(p) != '.') break;
    const char *w;
    size_t n = read_word(p, &w);
    if (word_is(w, n, ".align")) {
      uint8_t k;
      int64_t v;
      uint64_t b;
      if (!read_number(p, &k, &v, &b)) return p->st;
      if (k != RO_INT || v <= 0 || (v & (v - 1)))
        return perr(p, TC5_EPARSE, ".align must be a power of two");
      if (!h->is_ptr) h->align = (uint32_t)v; /* .ptr ... .align N: the pointee's alignment, not the parameter's */
    } else if (word_is(w, n, ".v2") || word_is(w, n, ".v4") || word_is(w, n, ".v8")) {
      h->vec = (unsigned)(w[2] - '0');
    } else if (word_is(w, n, ".ptr")) {
      h->is_ptr = true;
    } else if (word_is(w, n, ".global") || word_is(w, n, ".shared") || word_is(w, n, ".const") ||
               word_is(w, n, ".local")) {
      if (h->is_ptr) continue; /* .ptr .global: where the pointer points */
      h->space = word_is(w, n, ".global") ? PS_GLOBAL
                 : word_is(w, n, ".shared") ? PS_SHARED
                 : word_is(w, n, ".const")  ? PS_CONST
                                            : PS_LOCAL;
    } else if (word_is(w, n, ".param")) {
      h->space = PS_PARAM;
    } else {
      ptx_type t = ptx_type_parse(w + 1, n - 1);
      if (t == PT_NONE || t == PT_PRED)
        return perr(p, TC5_EUNSUPPORTED, "unknown qualifier '%.*s' in a declaration", (int)n, w);
      h->type = t; /* .ptr .global .align N may follow */
    }
  }
  if (h->type == PT_NONE) return perr(p, TC5_EPARSE, "a declaration needs a type");
  if (!h->vec) h->vec = 1;
  return TC5_OK;
}

static uint32_t type_bytes(ptx_type t) {
  unsigned b = ptx_types[t].bits;
  return b < 8 ? 1 : b / 8;
}

/* [N] or [] after a name: *count elements (0 for []) */
static tc5_status read_dims(parser *p, uint64_t *count, bool *unsized) {
  *count = 1;
  *unsized = false;
  while (accept(p, '[')) {
    if (accept(p, ']')) {
      *unsized = true;
      continue;
    }
    uint8_t k;
    int64_t v;
    uint64_t b;
    if (!read_number(p, &k, &v, &b)) return p->st;
    if (k != RO_INT || v < 0) return perr(p, TC5_EPARSE, "an array size must be a non-negative integer");
    *count *= (uint64_t)v;
    if (!expect(p, ']')) return p->st;
  }
  return TC5_OK;
}

/* = value or = {v, v, ...} (nested), into init (elem bytes each) */
static tc5_status read_init(parser *p, uint8_t *init, uint64_t cap_elems, uint32_t elem, ptx_type t,
                            uint64_t *pos) {
  if (accept(p, '{')) {
    if (accept(p, '}')) return TC5_OK;
    do {
      if (read_init(p, init, cap_elems, elem, t, pos)) return p->st;
    } while (accept(p, ','));
    return expect(p, '}') ? TC5_OK : p->st;
  }
  uint8_t k;
  int64_t v;
  uint64_t bits;
  skip_ws(p);
  if (isalpha(peek(p)) || peek(p) == '$' || peek(p) == '_')
    return perr(p, TC5_EUNSUPPORTED, "initialisers naming variables (generic()) are not modelled");
  if (!read_number(p, &k, &v, &bits)) return p->st;
  if (*pos >= cap_elems) return perr(p, TC5_EPARSE, "too many initialisers");
  uint64_t raw;
  if (ptx_types[t].cls == 'f') {
    double d;
    if (k == RO_INT) d = (double)v;
    else if (k == RO_F32) {
      float f;
      uint32_t b32 = (uint32_t)bits;
      memcpy(&f, &b32, 4);
      d = f;
    } else memcpy(&d, &bits, 8);
    if (t == PT_F32) {
      float f = (float)d;
      uint32_t b32;
      memcpy(&b32, &f, 4);
      raw = b32;
    } else if (t == PT_F64) {
      memcpy(&raw, &d, 8);
    } else {
      return perr(p, TC5_EUNSUPPORTED, "initialisers of type .%s are not modelled", ptx_types[t].name);
    }
  } else {
    raw = k == RO_INT ? (uint64_t)v : bits;
  }
  memcpy(init + *pos * elem, &raw, elem); /* little-endian host */
  (*pos)++;
  return TC5_OK;
}

/* a module-level or in-body variable: after the state space was read */
static tc5_status parse_var(parser *p, decl_head h, bool is_extern, bool in_body) {
  tc5_ptx_module *m = p->m;
  do {
    /* room for the variable first: v.init, once allocated, has no error
     * path left that would drop it but its own initialisers' */
    GROW(m->vars, m->nvars, m->vars_cap, 16);
    char name[PTX_NAME_MAX];
    if (!read_name(p, name, sizeof name)) return p->st;
    uint64_t count;
    bool unsized;
    if (read_dims(p, &count, &unsized)) return p->st;
    uint32_t elem = type_bytes(h.type) * h.vec;
    uint64_t size = count * elem;
    if (size > (1ull << 30)) return perr(p, TC5_EUNSUPPORTED, "variable '%s' is larger than 1 GiB", name);
    ptx_var v;
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "%s", name);
    v.space = h.space;
    v.align = h.align ? h.align : elem;
    v.size = (uint32_t)size;
    v.is_extern = is_extern || unsized;
    if (accept(p, '=')) {
      if (h.space != PS_GLOBAL && h.space != PS_CONST)
        return perr(p, TC5_EPARSE, "only .global and .const variables take initialisers");
      v.init = calloc(size ? size : 1, 1);
      if (!v.init) return perr(p, TC5_ENOMEM, "out of memory");
      uint64_t pos = 0;
      if (read_init(p, v.init, count * h.vec, type_bytes(h.type), h.type, &pos)) {
        free(v.init);
        return p->st;
      }
    }
    if (in_body && (h.space == PS_LOCAL || h.space == PS_PARAM)) {
      /* per-thread: a slot in the function's frame */
      ptx_func *f = p->fn;
      uint32_t a = v.align ? v.align : 1;
      f->frame_bytes = (f->frame_bytes + a - 1) / a * a;
      v.addr = f->frame_base + f->frame_bytes;
      f->frame_bytes += v.size;
      v.space = h.space == PS_LOCAL ? PS_LOCAL : PS_PARAM_LOCAL;
      /* local variables are named per function: prefix with the function */
      if (snprintf(v.name, sizeof v.name, "%u:%u:%s", p->fn_index, p->cur, name) >= (int)sizeof v.name) /* function:block:name */
        return perr(p, TC5_EUNSUPPORTED, "a local variable's name longer than %d characters", PTX_NAME_MAX - 24);
    } else if (h.space == PS_LOCAL) {
      free(v.init);
      return perr(p, TC5_EUNSUPPORTED, "module-level .local variables are not modelled");
    }
    m->vars[m->nvars++] = v;
  } while (accept(p, ','));
  expect(p, ';');
  return p->st;
}

/* ( .param ... name, ... ) */
static tc5_status parse_params(parser *p, ptx_param **out, unsigned *nout, uint32_t *bytes) {
  *out = NULL;
  *nout = 0;
  uint32_t off = 0;
  if (!expect(p, '(')) return p->st;
  if (accept(p, ')')) return TC5_OK;
  unsigned cap = 0;
  do {
    const char *w;
    size_t n = read_word(p, &w);
    if (!word_is(w, n, ".param") && !word_is(w, n, ".reg"))
      return perr(p, TC5_EPARSE, "expected .param in a parameter list");
    decl_head h;
    memset(&h, 0, sizeof h);
    if (read_decl_head(p, &h)) return p->st;
    char name[PTX_NAME_MAX];
    if (!read_name(p, name, sizeof name)) return p->st;
    uint64_t count;
    bool unsized;
    if (read_dims(p, &count, &unsized)) return p->st;
    if (*nout >= cap) {
      cap = cap ? cap * 2 : 8;
      ptx_param *np = realloc(*out, cap * sizeof *np);
      if (!np) return perr(p, TC5_ENOMEM, "out of memory");
      *out = np;
    }
    ptx_param *q = &(*out)[(*nout)++];
    memset(q, 0, sizeof *q);
    snprintf(q->name, sizeof q->name, "%s", name);
    q->size = (uint32_t)(count * type_bytes(h.type) * h.vec);
    q->align = h.align ? h.align : type_bytes(h.type) * h.vec;
    q->is_ptr = h.is_ptr;
    off = (off + q->align - 1) / q->align * q->align;
    q->offset = off;
    off += q->size;
  } while (accept(p, ','));
  *bytes = off;
  expect(p, ')');
  return p->st;
}

/* ------------------------------------------------------------------ */
/* function bodies */

static tc5_status new_scope(parser *p, uint32_t parent) {
  GROW(p->scopes, p->nscopes, p->scopes_cap, 16);
  p->scopes[p->nscopes].parent = parent;
  p->cur = p->nscopes++;
  return TC5_OK;
}

/* .reg .b32 %r<829>, %x; */
static tc5_status parse_reg_decl(parser *p) {
  decl_head h;
  memset(&h, 0, sizeof h);
  skip_ws(p);
  const char *w;
  size_t n = read_word(p, &w);
  if (word_is(w, n, ".v2") || word_is(w, n, ".v4")) {
    h.vec = (unsigned)(w[2] - '0');
    n = read_word(p, &w);
  }
  if (n < 2 || w[0] != '.') return perr(p, TC5_EPARSE, ".reg needs a type");
  ptx_type t = ptx_type_parse(w + 1, n - 1);
  if (t == PT_NONE) return perr(p, TC5_EUNSUPPORTED, "unknown register type '%.*s'", (int)n, w);
  if (h.vec) return perr(p, TC5_EUNSUPPORTED, "vector registers (.reg .v%u) are not modelled", h.vec);
  unsigned bits = t == PT_PRED ? 1 : ptx_types[t].bits;
  do {
    char name[PTX_NAME_MAX];
    if (!read_name(p, name, sizeof name)) return p->st;
    if (accept(p, '<')) {
      uint8_t k;
      int64_t v;
      uint64_t b;
      if (!read_number(p, &k, &v, &b)) return p->st;
      if (k != RO_INT || v < 0 || v > 1000000)
        return perr(p, TC5_EPARSE, "a register range <N> needs N in [0, 10^6]");
      if (!expect(p, '>')) return p->st;
      for (int64_t k2 = 0; k2 < v; k2++) {
        char full[PTX_NAME_MAX + 24];
        snprintf(full, sizeof full, "%s%lld", name, (long long)k2);
        uint32_t r = ptx_new_reg(p->m, bits);
        if (r == PTX_NOREG || (bits == 128 && ptx_new_reg(p->m, 64) == PTX_NOREG)) return perr(p, TC5_ENOMEM, "out of memory");
        if (tab_put(p, &p->regs, full, p->cur, r)) return p->st;
      }
    } else {
      /* a .b128 register: two cells, the low half and the high half next */
      uint32_t r = ptx_new_reg(p->m, bits);
      if (r == PTX_NOREG || (bits == 128 && ptx_new_reg(p->m, 64) == PTX_NOREG)) return perr(p, TC5_ENOMEM, "out of memory");
      if (tab_put(p, &p->regs, name, p->cur, r)) return p->st;
    }
  } while (accept(p, ','));
  expect(p, ';');
  return p->st;
}

static int sreg_lookup(const char *name) {
  for (int k = 0; k < SR_COUNT; k++)
    if (!strcmp(ptx_sreg_names[k], name)) return k;
  return -1;
}

/* a name operand: register, special register, pair a|b, or a symbol */
/* the second register of a pair "a|b" after a register or the sink (a
 * setp, elect.sync, shfl.sync destination): o->reg2, PTX_NOREG when none */
static tc5_status pair_second(parser *p, ptx_raw_opnd *o) {
  o->reg2 = PTX_NOREG;
  skip_ws(p);
  if (peek(p) != '|') return TC5_OK;
  advance(p);
  char n2[PTX_NAME_MAX];
  if (!read_name(p, n2, sizeof n2)) return p->st;
  if (!tab_get(p, &p->regs, n2, p->cur, &o->reg2)) return perr(p, TC5_EPARSE, "'%s' is not a declared register", n2);
  return TC5_OK;
}

static tc5_status name_operand(parser *p, ptx_raw_opnd *o) {
  char name[PTX_NAME_MAX];
  o->col = (uint32_t)(p->i - p->line_start + 1);
  if (!read_name(p, name, sizeof name)) return p->st;
  if (!strcmp(name, "_")) { /* the sink, also as the first half of a pair: _|%p */
    o->kind = RO_SINK;
    return pair_second(p, o);
  }
  uint32_t r;
  if (tab_get(p, &p->regs, name, p->cur, &r)) {
    o->kind = RO_REG;
    o->reg = r;
    return pair_second(p, o);
  }
  if (name[0] == '%') {
    int s = sreg_lookup(name);
    if (s < 0) return perr(p, TC5_EUNSUPPORTED, "'%s' is neither a declared register nor a modelled special register", name);
    o->kind = RO_SREG;
    o->ival = s;
    return TC5_OK;
  }
  o->kind = RO_SYM;
  o->sym = intern(p, name);
  if (!o->sym) return perr(p, TC5_ENOMEM, "out of memory");
  return TC5_OK;
}

static tc5_status scalar_operand(parser *p, ptx_raw_opnd *o) {
  skip_ws(p);
  o->col = (uint32_t)(p->i - p->line_start + 1);
  int c = peek(p);
  if (c == '!') {
    advance(p);
    if (name_operand(p, o)) return p->st;
    o->neg = 1;
    return TC5_OK;
  }
  if (c == '-' || c == '+' || isdigit(c)) {
    uint8_t k;
    if (!read_number(p, &k, &o->ival, &o->bits)) return p->st;
    o->kind = k;
    return TC5_OK;
  }
  if (is_id_start(c) && c != '.') return name_operand(p, o);
  return perr(p, TC5_EPARSE, "expected an operand");
}

static tc5_status add_elem(parser *p, ptx_raw *r, const ptx_raw_opnd *e) {
  if (r->nelems >= PTX_RAW_MAX_ELEMS)
    return perr(p, TC5_EUNSUPPORTED, "more than %u elements in one instruction's lists", PTX_RAW_MAX_ELEMS);
  GROW(p->pool, p->npool, p->pool_cap, 256);
  p->pool[p->npool++] = *e;
  r->nelems++;
  return TC5_OK;
}

/* the elements of a list up to `close` (taken): into r's pool as o's */
static tc5_status elems(parser *p, ptx_raw *r, ptx_raw_opnd *o, char close) {
  o->first = r->nelems;
  if (accept(p, close)) return TC5_OK;
  do {
    ptx_raw_opnd e;
    memset(&e, 0, sizeof e);
    if (scalar_operand(p, &e)) return p->st;
    if (add_elem(p, r, &e)) return p->st;
    o->n++;
  } while (accept(p, ','));
  expect(p, close);
  return p->st;
}

static tc5_status operand(parser *p, ptx_raw *r, ptx_raw_opnd *o) {
  skip_ws(p);
  memset(o, 0, sizeof *o);
  o->col = (uint32_t)(p->i - p->line_start + 1);
  int c = peek(p);
  if (c == '[') {
    advance(p);
    o->kind = RO_ADDR;
    o->reg = PTX_NOREG;
    skip_ws(p);
    if (peek(p) != ']' && !isdigit(peek(p)) && peek(p) != '-') {
      ptx_raw_opnd b;
      memset(&b, 0, sizeof b);
      if (name_operand(p, &b)) return p->st;
      if (b.kind == RO_REG) o->reg = b.reg;
      else if (b.kind == RO_SYM) o->sym = b.sym;
      else return perr(p, TC5_EPARSE, "an address is [register + offset] or [variable + offset]");
    }
    for (;;) {
      skip_ws(p);
      if (peek(p) == '+' || peek(p) == '-' || isdigit(peek(p))) {
        bool minus = false;
        if (peek(p) == '+') advance(p);
        skip_ws(p);
        if (peek(p) == '-') {
          minus = true;
          advance(p);
        }
        uint8_t k;
        int64_t v;
        uint64_t b;
        if (!read_number(p, &k, &v, &b)) return p->st;
        if (k != RO_INT) return perr(p, TC5_EPARSE, "an address offset must be an integer");
        o->ival += minus ? -v : v;
      } else {
        break;
      }
    }
    /* [tensorMap, {coordinates}] (cp.async.bulk.tensor): the coordinates
     * are the address operand's elements */
    if (accept(p, ',')) {
      if (!expect(p, '{') || elems(p, r, o, '}')) return p->st;
      if (!o->n) return perr(p, TC5_EPARSE, "a tensor's coordinates cannot be empty");
    }
    expect(p, ']');
    return p->st;
  }
  if (c == '{' || c == '(') {
    advance(p);
    o->kind = c == '{' ? RO_VEC : RO_LIST;
    return elems(p, r, o, c == '{' ? '}' : ')');
  }
  return scalar_operand(p, o);
}

/* a decimal number of a directive's line (cur: its position; false: none) */
static bool loc_number(const char *s, size_t n, size_t *cur, uint32_t *v) {
  size_t i = *cur;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ',')) i++;
  if (i >= n || !isdigit((unsigned char)s[i])) return false;
  uint64_t x = 0;
  while (i < n && isdigit((unsigned char)s[i])) {
    x = x * 10 + (uint64_t)(s[i] - '0');
    if (x > UINT32_MAX) x = UINT32_MAX;
    i++;
  }
  *v = (uint32_t)x;
  *cur = i;
  return true;
}

/* .loc FILE LINE COL [, function_name LABEL, inlined_at FILE LINE COL] and
 * .file N "PATH" [, TIMESTAMP, SIZE] (what compilers emit with line
 * information: Triton always, nvcc with -lineinfo): the source position of
 * the instructions that follow a .loc, for messages and findings. A line
 * that does not read so is skipped, as the directives were before. */
static tc5_status parse_source_directive(parser *p, bool is_file) {
  size_t b = p->i;
  skip_line(p);
  const char *s = p->s + b;
  size_t n = p->i - b, cur = 0;
  for (size_t k = 0; k + 1 < n; k++) /* a trailing comment is no part of it */
    if (s[k] == '/' && s[k + 1] == '/') {
      n = k;
      break;
    }
  if (!is_file) {
    ptx_loc l;
    memset(&l, 0, sizeof l);
    if (!loc_number(s, n, &cur, &l.file) || !loc_number(s, n, &cur, &l.line)) return TC5_OK;
    loc_number(s, n, &cur, &l.col);
    for (size_t k = cur; k + 10 <= n; k++)
      if (!memcmp(s + k, "inlined_at", 10)) {
        size_t c = k + 10;
        if (loc_number(s, n, &c, &l.at_file) && loc_number(s, n, &c, &l.at_line)) loc_number(s, n, &c, &l.at_col);
        else l.at_file = l.at_line = 0;
        break;
      }
    p->loc = l;
    return TC5_OK;
  }
  uint32_t num;
  if (!loc_number(s, n, &cur, &num)) return TC5_OK;
  while (cur < n && s[cur] != '"') cur++;
  if (cur >= n) return TC5_OK;
  size_t q = ++cur;
  while (cur < n && s[cur] != '"') cur++;
  tc5_ptx_module *m = p->m;
  GROW(m->files, m->nfiles, m->files_cap, 4);
  uint32_t off = add_string(p, s + q, cur - q);
  if (p->st) return p->st;
  m->files[m->nfiles].num = num;
  m->files[m->nfiles].path = off;
  m->nfiles++;
  return TC5_OK;
}

static tc5_status parse_instruction(parser *p, const char *op, size_t oplen, uint32_t guard,
                                    uint8_t guard_neg, uint32_t line, uint32_t col) {
  GROW(p->raws, p->nraws, p->raws_cap, 64);
  ptx_raw *r = &p->raws[p->nraws];
  memset(r, 0, sizeof *r);
  r->elem_base = p->npool;
  r->op = op;
  r->oplen = oplen;
  r->guard = guard;
  r->guard_neg = guard_neg;
  r->line = line;
  r->col = col;
  r->scope = p->cur;
  r->func = p->fn_index;
  r->loc = p->loc;
  skip_ws(p);
  if (!accept(p, ';')) {
    do {
      if (r->nops >= PTX_MAX_OPS) return perr(p, TC5_EUNSUPPORTED, "more than %d operands", PTX_MAX_OPS);
      if (operand(p, r, &r->ops[r->nops])) return p->st;
      r->nops++;
    } while (accept(p, ','));
    if (!expect(p, ';')) return p->st;
  }
  p->nraws++;
  return TC5_OK;
}

static tc5_status skip_braced(parser *p) {
  int depth = 0;
  for (;;) {
    skip_ws(p);
    int c = peek(p);
    if (c < 0) return perr(p, TC5_EPARSE, "unterminated '{'");
    if (c == '"') {
      advance(p);
      while (peek(p) >= 0 && peek(p) != '"') advance(p);
    }
    if (c == '{') depth++;
    if (c == '}' && --depth == 0) {
      advance(p);
      return TC5_OK;
    }
    advance(p);
  }
}

static tc5_status parse_body(parser *p) {
  ptx_func *f = p->fn;
  uint32_t depth = 1;
  if (new_scope(p, 0)) return p->st;
  for (;;) {
    skip_ws(p);
    if (p->st) return p->st;
    int c = peek(p);
    if (c < 0) return perr(p, TC5_EPARSE, "end of text inside the body of '%s'", f->name);
    if (c == '{') {
      advance(p);
      if (new_scope(p, p->cur)) return p->st;
      depth++;
      continue;
    }
    if (c == '}') {
      advance(p);
      if (--depth == 0) return TC5_OK;
      p->cur = p->scopes[p->cur].parent;
      continue;
    }
    uint32_t line = p->line, col = (uint32_t)(p->i - p->line_start + 1);
    uint32_t guard = PTX_NOREG;
    uint8_t gneg = 0;
    if (c == '@') {
      advance(p);
      if (accept(p, '!')) gneg = 1;
      char name[PTX_NAME_MAX];
      if (!read_name(p, name, sizeof name)) return p->st;
      if (!tab_get(p, &p->regs, name, p->cur, &guard))
        return perr(p, TC5_EPARSE, "guard '%s' is not a declared register", name);
      if (p->m->reg_bits[guard] != 1) return perr(p, TC5_EPARSE, "guard '%s' is not a predicate", name);
    }
    const char *w;
    size_t n = read_word(p, &w);
    if (n == 0) return perr(p, TC5_EPARSE, "unexpected character '%c'", c);
    skip_ws(p);
    if (guard == PTX_NOREG && peek(p) == ':' && w[0] != '.') {
      advance(p);
      char name[PTX_NAME_MAX];
      if (n >= sizeof name) return perr(p, TC5_EUNSUPPORTED, "label too long");
      memcpy(name, w, n);
      name[n] = 0;
      if (tab_put(p, &p->labels, name, p->cur, p->nraws)) return p->st;
      if (!(p->last_label = intern(p, name))) return perr(p, TC5_ENOMEM, "out of memory");
      p->last_label_at = p->nraws;
      continue;
    }
    if (w[0] == '.') {
      if (word_is(w, n, ".branchtargets")) {
        /* LABEL: .branchtargets L1, L2, ...; (a brx.idx table) */
        if (!p->last_label || p->last_label_at != p->nraws)
          return perr(p, TC5_EPARSE, ".branchtargets needs a label just before it");
        GROW(p->btabs, p->nbtabs, p->btabs_cap, 8);
        /* counted at once: the table owns its targets from the first one,
         * so an error half-way through the list frees them with the rest
         * (tc5_ptx_load's cleanup walks nbtabs) */
        struct btab *t = &p->btabs[p->nbtabs++];
        memset(t, 0, sizeof *t);
        t->label = p->last_label;
        t->scope = p->cur;
        unsigned cap = 0;
        do {
          char tn[PTX_NAME_MAX];
          skip_ws(p);
          if (!read_name(p, tn, sizeof tn)) return p->st;
          if (t->n == cap) {
            cap = cap ? 2 * cap : 8;
            const char **nt = realloc(t->targets, cap * sizeof *nt);
            if (!nt) return perr(p, TC5_ENOMEM, "out of memory");
            t->targets = nt;
          }
          if (!(t->targets[t->n++] = intern(p, tn))) return perr(p, TC5_ENOMEM, "out of memory");
        } while (accept(p, ','));
        if (!expect(p, ';')) return p->st;
        continue;
      }
      if (word_is(w, n, ".reg")) {
        if (parse_reg_decl(p)) return p->st;
      } else if (word_is(w, n, ".loc") || word_is(w, n, ".file")) {
        if (parse_source_directive(p, word_is(w, n, ".file"))) return p->st;
      } else if (word_is(w, n, ".pragma")) {
        while (peek(p) >= 0 && peek(p) != ';') advance(p);
        expect(p, ';');
      } else if (word_is(w, n, ".local") || word_is(w, n, ".param") || word_is(w, n, ".shared")) {
        decl_head h;
        memset(&h, 0, sizeof h);
        h.space = word_is(w, n, ".local") ? PS_LOCAL : word_is(w, n, ".param") ? PS_PARAM : PS_SHARED;
        if (read_decl_head(p, &h)) return p->st;
        if (parse_var(p, h, false, true)) return p->st;
      } else {
        return perr(p, TC5_EUNSUPPORTED, "directive '%.*s' in a function body is not modelled", (int)n, w);
      }
      continue;
    }
    if (parse_instruction(p, w, n, guard, gneg, line, col)) return p->st;
  }
}

/* decodes the raw instructions of the function just parsed */
static tc5_status decode_body(parser *p) {
  tc5_ptx_module *m = p->m;
  ptx_func *f = p->fn;
  f->first = m->ncode;
  f->count = p->nraws;
  if (m->ncode + p->nraws + 1 > m->code_cap) {
    uint32_t nc = m->code_cap ? m->code_cap : 64;
    while (nc < m->ncode + p->nraws + 1) nc *= 2;
    ptx_insn *np = aligned_alloc(64, nc * sizeof *np); /* (on a cache line's start: ptx_insn's pad_to_line) */
    if (!np) return perr(p, TC5_ENOMEM, "out of memory");
    if (m->ncode) memcpy(np, m->code, m->ncode * sizeof *np);
    free(m->code);
    m->code = np;
    m->code_cap = nc;
  }
  ptx_resolver res = {p, label_cb, var_cb, table_cb};
  for (uint32_t k = 0; k < p->nraws; k++) {
    ptx_raw *r = &p->raws[k];
    r->elems = p->pool ? p->pool + r->elem_base : NULL;
    ptx_insn *in = &m->code[m->ncode + k];
    memset(in, 0, sizeof *in);
    in->text = add_string(p, r->op, r->oplen);
    if (p->st) return p->st;
    tc5_status st = ptx_decode(m, r, &res, in, p->diag);
    if (st) {
      p->st = st;
      return st;
    }
    in->func = p->fn_index;
  }
  /* labels are relative to the function: rebase */
  for (uint32_t k = 0; k < p->nraws; k++) {
    ptx_insn *in = &m->code[m->ncode + k];
    for (unsigned j = 0; j < in->nops; j++)
      if (in->o[j].kind == PO_LABEL) in->o[j].imm += m->ncode;
  }
  /* falling off the end of a body: an implicit ret (exit for an entry),
   * decoded as one through the opcode table */
  ptx_insn *end = &m->code[m->ncode + p->nraws];
  memset(end, 0, sizeof *end);
  ptx_raw ret = {.op = "ret", .oplen = 3, .guard = PTX_NOREG, .line = p->line, .func = p->fn_index};
  tc5_status st = ptx_decode(m, &ret, &res, end, p->diag);
  if (st) return p->st = st;
  end->text = add_string(p, "ret (end of function)", 21);
  end->func = p->fn_index;
  f->count = p->nraws + 1;
  m->ncode += p->nraws + 1;
  return p->st;
}

/* room for one more function (a function of its own: parse_function frees
 * the parameter lists it holds when this fails) */
static tc5_status grow_funcs(parser *p) {
  tc5_ptx_module *m = p->m;
  GROW(m->funcs, m->nfuncs, m->funcs_cap, 8);
  return TC5_OK;
}

/* .entry / .func, after the keyword */
static tc5_status parse_function(parser *p, bool is_entry) {
  tc5_ptx_module *m = p->m;
  ptx_func f;
  memset(&f, 0, sizeof f);
  f.is_entry = is_entry;
  skip_ws(p);
  if (!is_entry && peek(p) == '(') {
    uint32_t rb;
    if (parse_params(p, &f.rets, &f.nrets, &rb)) goto fail;
  }
  if (!read_name(p, f.name, sizeof f.name)) goto fail;
  f.line = p->line;
  skip_ws(p);
  if (peek(p) == '(') {
    if (parse_params(p, &f.params, &f.nparams, &f.param_bytes)) goto fail;
  }
  for (;;) {
    skip_ws(p);
    if (peek(p) != '.') break;
    const char *w;
    size_t n = read_word(p, &w);
    if (word_is(w, n, ".reqntid") || word_is(w, n, ".maxntid") || word_is(w, n, ".reqnctapercluster") ||
        word_is(w, n, ".minnctapersm") || word_is(w, n, ".maxnreg") || word_is(w, n, ".maxclusterrank") ||
        word_is(w, n, ".maxnctapersm")) {
      uint32_t v[3] = {1, 1, 1};
      unsigned k = 0;
      do {
        uint8_t kind;
        int64_t iv;
        uint64_t b;
        if (!read_number(p, &kind, &iv, &b)) goto fail;
        if (k < 3) v[k++] = (uint32_t)iv;
      } while (accept(p, ','));
      if (word_is(w, n, ".reqntid")) memcpy(f.reqntid, v, sizeof v);
      if (word_is(w, n, ".maxntid")) memcpy(f.maxntid, v, sizeof v);
      if (word_is(w, n, ".reqnctapercluster")) memcpy(f.reqcluster, v, sizeof v);
    } else if (word_is(w, n, ".explicitcluster")) {
      f.explicit_cluster = true;
    } else if (word_is(w, n, ".noreturn") || word_is(w, n, ".blocksareclusters")) {
      /* nothing to do */
    } else if (word_is(w, n, ".pragma")) {
      while (peek(p) >= 0 && peek(p) != ';') advance(p);
      expect(p, ';');
    } else {
      perr(p, TC5_EUNSUPPORTED, "directive '%.*s' of a function is not modelled", (int)n, w);
      goto fail;
    }
  }
  skip_ws(p);
  if (accept(p, ';')) { /* a prototype */
    for (unsigned k = 0; k < m->nfuncs; k++)
      if (!strcmp(m->funcs[k].name, f.name)) {
        free(f.params);
        free(f.rets);
        return TC5_OK;
      }
    if (grow_funcs(p)) goto fail; /* f's parameter lists are still f's to free */
    m->funcs[m->nfuncs++] = f; /* declared, not defined (vprintf...) */
    return TC5_OK;
  }
  if (!expect(p, '{')) goto fail;
  {
    /* a function declared earlier (a prototype) is defined in its record */
    unsigned slot = m->nfuncs;
    for (unsigned k = 0; k < m->nfuncs; k++)
      if (!m->funcs[k].defined && !strcmp(m->funcs[k].name, f.name)) {
        free(m->funcs[k].params);
        free(m->funcs[k].rets);
        slot = k;
      }
    if (slot == m->nfuncs && grow_funcs(p)) goto fail;
    f.defined = true;
    /* the frame: .func parameters, then return values, then the body's variables */
    f.frame_base = (m->local_bytes + 15) / 16 * 16;
    if (!f.is_entry) {
      uint32_t o = f.param_bytes;
      for (unsigned k = 0; k < f.nrets; k++) {
        uint32_t a = f.rets[k].align ? f.rets[k].align : 1;
        o = (o + a - 1) / a * a;
        f.rets[k].offset = o;
        o += f.rets[k].size;
      }
      f.frame_bytes = o;
    }
    p->fn_index = slot;
    m->funcs[slot] = f;
    if (slot == m->nfuncs) m->nfuncs++;
    p->fn = &m->funcs[p->fn_index];
    p->nscopes = 0;
    p->nraws = 0;
    p->npool = 0;
    for (unsigned k = 0; k < p->nbtabs; k++) free(p->btabs[k].targets);
    p->nbtabs = 0;
    p->last_label = NULL;
    tab_clear(&p->labels);
    /* registers are per function, but numbered module-wide */
    tab_clear(&p->regs);
    if (parse_body(p)) return p->st;
    if (decode_body(p)) return p->st;
    ptx_func *df = &m->funcs[p->fn_index];
    m->local_bytes = df->frame_base + df->frame_bytes;
    return TC5_OK;
  }
fail:
  free(f.params);
  free(f.rets);
  return p->st;
}

static tc5_status parse_module(parser *p) {
  tc5_ptx_module *m = p->m;
  for (;;) {
    skip_ws(p);
    if (p->st) return p->st;
    if (peek(p) < 0) return TC5_OK;
    const char *w;
    size_t n = read_word(p, &w);
    if (n == 0) return perr(p, TC5_EPARSE, "unexpected character '%c'", peek(p));
    if (word_is(w, n, ".version")) {
      /* MAJOR.MINOR, read in place (the text need not end in a NUL) */
      skip_ws(p);
      unsigned part[2] = {0, 0}, digits[2] = {0, 0};
      for (int q = 0; q < 2; q++) {
        while (isdigit(peek(p)) && digits[q] < 6) {
          part[q] = part[q] * 10 + (unsigned)(peek(p) - '0');
          digits[q]++;
          advance(p);
        }
        if (q == 0 && !accept(p, '.')) break;
      }
      if (!digits[0] || !digits[1]) return perr(p, TC5_EPARSE, ".version needs MAJOR.MINOR");
      m->version_major = part[0];
      m->version_minor = part[1];
    } else if (word_is(w, n, ".target")) {
      const char *t;
      size_t tn = read_word(p, &t);
      snprintf(m->target, sizeof m->target, "%.*s", (int)tn, t);
      while (accept(p, ',')) read_word(p, &t);
    } else if (word_is(w, n, ".address_size")) {
      uint8_t k;
      int64_t v;
      uint64_t b;
      if (!read_number(p, &k, &v, &b)) return p->st;
      if (v != 64) return perr(p, TC5_EUNSUPPORTED, ".address_size %lld: only 64 is modelled", (long long)v);
    } else if (word_is(w, n, ".file") || word_is(w, n, ".loc")) {
      if (parse_source_directive(p, word_is(w, n, ".file"))) return p->st;
    } else if (word_is(w, n, ".section")) {
      skip_line(p);
      skip_ws(p);
      if (peek(p) == '{' && skip_braced(p)) return p->st;
    } else if (word_is(w, n, ".visible") || word_is(w, n, ".weak") || word_is(w, n, ".common")) {
      continue;
    } else if (word_is(w, n, ".extern")) {
      skip_ws(p);
      const char *w2;
      size_t s = p->i;
      uint32_t line = p->line;
      size_t ls = p->line_start;
      size_t n2 = read_word(p, &w2);
      if (word_is(w2, n2, ".func")) {
        if (parse_function(p, false)) return p->st;
        continue;
      }
      p->i = s;
      p->line = line;
      p->line_start = ls;
      decl_head h;
      memset(&h, 0, sizeof h);
      if (read_decl_head(p, &h)) return p->st;
      if (parse_var(p, h, true, false)) return p->st;
    } else if (word_is(w, n, ".entry")) {
      if (parse_function(p, true)) return p->st;
    } else if (word_is(w, n, ".func")) {
      if (parse_function(p, false)) return p->st;
    } else if (word_is(w, n, ".global") || word_is(w, n, ".shared") || word_is(w, n, ".const") ||
               word_is(w, n, ".local")) {
      decl_head h;
      memset(&h, 0, sizeof h);
      h.space = word_is(w, n, ".global") ? PS_GLOBAL
                : word_is(w, n, ".shared") ? PS_SHARED
                : word_is(w, n, ".const")  ? PS_CONST
                                           : PS_LOCAL;
      if (read_decl_head(p, &h)) return p->st;
      if (parse_var(p, h, false, false)) return p->st;
    } else if (word_is(w, n, ".pragma")) {
      while (peek(p) >= 0 && peek(p) != ';') advance(p);
      expect(p, ';');
    } else {
      return perr(p, TC5_EUNSUPPORTED, "'%.*s' at module level is not modelled", (int)n, w);
    }
  }
}

/* global/const variables get offsets in the module's image (the launch
 * places the image after the buffers); shared ones are laid out per entry
 * (ptx_shared_layout) */
static tc5_status layout_vars(parser *p) {
  tc5_ptx_module *m = p->m;
  uint64_t g = 0;
  for (unsigned k = 0; k < m->nvars; k++) {
    ptx_var *v = &m->vars[k];
    uint32_t a = v->align ? v->align : 1;
    if (v->space == PS_GLOBAL || v->space == PS_CONST) {
      if (v->is_extern) return perr(p, TC5_EUNSUPPORTED, "extern .global variable '%s' is not modelled", v->name);
      g = (g + a - 1) / a * a;
      v->addr = g; /* offset in the image; the launch adds the base */
      g += v->size;
    }
  }
  m->global_bytes = g;
  return TC5_OK;
}

tc5_status tc5_ptx_load(const char *text, size_t len, const char *name, tc5_ptx_module **out,
                        tc5_diag *diag) {
  if (!text || !out) return TC5_EINVAL;
  *out = NULL;
  tc5_ptx_module *m = calloc(1, sizeof *m);
  if (!m) return TC5_ENOMEM;
  snprintf(m->name, sizeof m->name, "%s", name ? name : "<ptx>");
  parser p;
  memset(&p, 0, sizeof p);
  p.s = text;
  p.n = len;
  p.line = 1;
  p.diag = diag;
  p.m = m;
  m->zero_reg = ptx_const_reg(m, PC_VALUE, 0, 0);
  if (m->zero_reg == PTX_NOREG) p.st = TC5_ENOMEM;
  if (!p.st) parse_module(&p);
  if (!p.st) layout_vars(&p);
  free(p.scopes);
  free(p.raws);
  for (unsigned k = 0; k < p.nbtabs; k++) free(p.btabs[k].targets);
  free(p.btabs);
  free(p.pool);
  while (p.names) {
    name_block *b = p.names;
    p.names = b->next;
    free(b);
  }
  tab_clear(&p.regs);
  tab_clear(&p.labels);
  if (p.st) {
    tc5_ptx_free(m);
    return p.st;
  }
  *out = m;
  return TC5_OK;
}

tc5_status tc5_ptx_free(tc5_ptx_module *m) {
  if (!m) return TC5_OK;
  for (unsigned k = 0; k < m->nfuncs; k++) {
    free(m->funcs[k].params);
    free(m->funcs[k].rets);
  }
  for (unsigned k = 0; k < m->nvars; k++) free(m->vars[k].init);
  free(m->funcs);
  free(m->vars);
  free(m->code);
  free(m->vregs);
  free(m->reg_bits);
  free(m->consts);
  free(m->strings);
  free(m->files);
  free(m);
  return TC5_OK;
}
