/* tc5 — golden-vector checking: line reader, format detection, report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/vectors_impl.h"

static const tc5_vformat *const formats[] = {
    &tc5_vformat_idesc,
    &tc5_vformat_zcmask,
    &tc5_vformat_smem,
    &tc5_vformat_mmasim,
};

const char *tc5_vline_get(const tc5_vline *l, const char *key, size_t *len) {
  size_t kl = strlen(key);
  for (int i = 0; i < l->n; i++) {
    if (l->kv[i].klen == kl && memcmp(l->kv[i].key, key, kl) == 0) {
      if (len) *len = l->kv[i].vlen;
      return l->kv[i].val;
    }
  }
  return NULL;
}

bool tc5_vline_str(const tc5_vline *l, const char *key, char *buf, size_t cap) {
  size_t len;
  const char *v = tc5_vline_get(l, key, &len);
  if (!v || len + 1 > cap) return false;
  memcpy(buf, v, len);
  buf[len] = '\0';
  return true;
}

bool tc5_vline_u64(const tc5_vline *l, const char *key, int base, uint64_t *out) {
  size_t len;
  const char *v = tc5_vline_get(l, key, &len);
  if (!v || len == 0 || len > 20) return false;
  uint64_t r = 0;
  for (size_t i = 0; i < len; i++) {
    char c = v[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
    else return false;
    if (d >= (unsigned)base) return false;
    r = r * (uint64_t)base + d;
  }
  *out = r;
  return true;
}

/* Splits "k=v k=v ..." in place (the line is not modified: pointers only). */
static bool split_line(const char *line, tc5_vline *l) {
  l->text = line;
  l->n = 0;
  const char *p = line;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    if (!*p) break;
    const char *k = p;
    while (*p && *p != '=' && *p != ' ') p++;
    if (*p != '=') return false;
    size_t kl = (size_t)(p - k);
    const char *v = ++p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
    if (l->n >= TC5_VLINE_MAX_KV) return false;
    l->kv[l->n].key = k;
    l->kv[l->n].klen = kl;
    l->kv[l->n].val = v;
    l->kv[l->n].vlen = (size_t)(p - v);
    l->n++;
  }
  return l->n > 0;
}

typedef struct session {
  const char *name;
  tc5_vectors_report *rep;
  tc5_diag *diag;
  const tc5_vformat *fmt;
  void *ctx;
  char header[1024];
  size_t header_len;
  uint64_t lineno;
  tc5_status fatal;
} session;

static void session_init(session *s, const char *name, tc5_vectors_report *rep,
                         tc5_diag *diag) {
  memset(s, 0, sizeof *s);
  s->name = name;
  s->rep = rep;
  s->diag = diag;
  tc5_vectors_gemm_fn gemm = rep->gemm; /* inputs, kept */
  void *gemm_ctx = rep->gemm_ctx;
  memset(rep, 0, sizeof *rep);
  rep->gemm = gemm, rep->gemm_ctx = gemm_ctx;
}

static void add_failure(session *s, const char *why, const char *line) {
  tc5_vectors_report *r = s->rep;
  r->failed++;
  if (r->shown < TC5_VECTORS_SHOW)
    snprintf(r->failure[r->shown++], sizeof r->failure[0], "line %llu: %s\n    %.400s",
             (unsigned long long)s->lineno, why, line);
}

static void process_line(session *s, const char *line) {
  s->lineno++;
  if (s->fatal) return;
  while (*line == ' ' || *line == '\t') line++;
  if (*line == '\0' || *line == '\r') return;
  if (*line == '#') {
    if (!s->fmt) {
      size_t n = strlen(line);
      if (s->header_len + n + 2 < sizeof s->header) {
        memcpy(s->header + s->header_len, line, n);
        s->header_len += n;
        s->header[s->header_len++] = '\n';
        s->header[s->header_len] = '\0';
      }
    }
    return;
  }
  tc5_vline l;
  if (!split_line(line, &l)) {
    add_failure(s, "not a line of key=value pairs", line);
    return;
  }
  if (!s->fmt) {
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
      const tc5_vformat *f = formats[i];
      size_t kl = strlen(f->key);
      if ((l.kv[0].klen == kl && memcmp(l.kv[0].key, f->key, kl) == 0) ||
          (f->key2 && l.kv[0].klen == strlen(f->key2) &&
           memcmp(l.kv[0].key, f->key2, l.kv[0].klen) == 0)) {
        s->fmt = f;
        break;
      }
    }
    if (!s->fmt) {
      s->fatal = tc5_diag_add(s->diag, TC5_EUNSUPPORTED, "format", s->lineno,
                              "vectors: %s line %llu: unknown format (first key "
                              "'%.*s'; known: idesc, idesc_bs, zcmask, smem_desc, a)",
                              s->name ? s->name : "input",
                              (unsigned long long)s->lineno, (int)l.kv[0].klen,
                              l.kv[0].key);
      return;
    }
    snprintf(s->rep->format, sizeof s->rep->format, "%s", s->fmt->name);
    if (s->fmt->ctx_size) {
      s->ctx = calloc(1, s->fmt->ctx_size);
      if (!s->ctx) {
        s->fatal = tc5_diag_add(s->diag, TC5_ENOMEM, "memory", 0,
                                "vectors: out of memory");
        return;
      }
    }
    if (s->fmt->begin) {
      tc5_status st = s->fmt->begin(s->ctx, s->name, s->header, s->rep, s->diag);
      if (st != TC5_OK) {
        s->fatal = st;
        return;
      }
    }
  }
  char why[512] = "";
  bool noted = false;
  tc5_status st = s->fmt->check(s->ctx, &l, why, sizeof why, &noted);
  s->rep->checked++;
  if (st == TC5_OK) {
    if (noted) s->rep->noted++;
  } else {
    add_failure(s, why[0] ? why : tc5_strerror(st), line);
  }
}

static tc5_status session_end(session *s) {
  if (s->fmt && s->fmt->end) s->fmt->end(s->ctx);
  free(s->ctx);
  s->ctx = NULL;
  if (s->fatal) return s->fatal;
  if (!s->fmt)
    return tc5_diag_add(s->diag, TC5_EPARSE, "vectors", 0,
                        "vectors: %s holds no vectors", s->name ? s->name : "input");
  return s->rep->failed ? TC5_EMISMATCH : TC5_OK;
}

tc5_status tc5_vectors_check_text(const char *text, const char *name,
                                  tc5_vectors_report *rep, tc5_diag *diag) {
  if (!text || !rep) return TC5_EINVAL;
  session s;
  session_init(&s, name, rep, diag);
  const char *p = text;
  char *line = NULL;
  size_t cap = 0;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n + 1 > cap) {
      char *nl = realloc(line, n + 1);
      if (!nl) {
        free(line);
        session_end(&s);
        return tc5_diag_add(diag, TC5_ENOMEM, "memory", 0, "vectors: out of memory");
      }
      line = nl;
      cap = n + 1;
    }
    memcpy(line, p, n);
    line[n] = '\0';
    process_line(&s, line);
    p += n + (e ? 1 : 0);
  }
  free(line);
  return session_end(&s);
}

tc5_status tc5_vectors_check_file(const char *path, tc5_vectors_report *rep,
                                  tc5_diag *diag) {
  if (!path || !rep) return TC5_EINVAL;
  FILE *f = fopen(path, "r");
  if (!f) {
    memset(rep, 0, sizeof *rep);
    return tc5_diag_add(diag, TC5_EIO, "file", 0, "vectors: cannot open %s", path);
  }
  session s;
  session_init(&s, path, rep, diag);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) >= 0) {
    if (n > 0 && line[n - 1] == '\n') line[n - 1] = '\0';
    process_line(&s, line);
  }
  free(line);
  fclose(f);
  return session_end(&s);
}
