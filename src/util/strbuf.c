/* tc5 internal — growable string and JSON writer. */
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tc5_sb_init(tc5_sb *b) {
  b->p = NULL;
  b->len = b->cap = 0;
  b->oom = false;
}

void tc5_sb_free(tc5_sb *b) {
  free(b->p);
  tc5_sb_init(b);
}

static bool sb_reserve(tc5_sb *b, size_t extra) {
  if (b->oom) return false;
  if (b->len + extra + 1 <= b->cap) return true;
  size_t ncap = b->cap ? b->cap : 256;
  while (ncap < b->len + extra + 1) ncap *= 2;
  char *np = realloc(b->p, ncap);
  if (!np) {
    b->oom = true;
    return false;
  }
  b->p = np;
  b->cap = ncap;
  return true;
}

void tc5_sb_putc(tc5_sb *b, char c) {
  if (!sb_reserve(b, 1)) return;
  b->p[b->len++] = c;
  b->p[b->len] = '\0';
}

void tc5_sb_puts(tc5_sb *b, const char *s) {
  size_t n = strlen(s);
  if (!sb_reserve(b, n)) return;
  memcpy(b->p + b->len, s, n + 1);
  b->len += n;
}

void tc5_sb_vprintf(tc5_sb *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0 || !sb_reserve(b, (size_t)n)) return;
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void tc5_sb_printf(tc5_sb *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tc5_sb_vprintf(b, fmt, ap);
  va_end(ap);
}

void tc5_sb_field(tc5_sb *b, const char *label, const char *bits, const char *fmt, ...) {
  char val[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(val, sizeof val, fmt, ap);
  va_end(ap);
  if (bits && *bits)
    tc5_sb_printf(b, "  %-22s: %-52s [%s]\n", label, val, bits);
  else
    tc5_sb_printf(b, "  %-22s: %s\n", label, val);
}

tc5_status tc5_sb_finish(tc5_sb *b, char *buf, size_t cap, size_t *needed) {
  tc5_status st = TC5_OK;
  if (b->oom) {
    st = TC5_ENOMEM;
  } else {
    const char *s = b->p ? b->p : "";
    if (needed) *needed = b->len + 1;
    if (!buf || cap < b->len + 1) {
      if (buf && cap > 0) {
        memcpy(buf, s, cap - 1);
        buf[cap - 1] = '\0';
      }
      st = TC5_ETRUNC;
    } else {
      memcpy(buf, s, b->len + 1);
    }
  }
  tc5_sb_free(b);
  return st;
}

/* ---- JSON ---------------------------------------------------------------- */

void tc5_json_init(tc5_json *j, tc5_sb *sb) {
  j->sb = sb;
  j->depth = 0;
  j->first[0] = true;
}

static void json_escape(tc5_sb *b, const char *s) {
  tc5_sb_putc(b, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '"': tc5_sb_puts(b, "\\\""); break;
    case '\\': tc5_sb_puts(b, "\\\\"); break;
    case '\n': tc5_sb_puts(b, "\\n"); break;
    case '\t': tc5_sb_puts(b, "\\t"); break;
    case '\r': tc5_sb_puts(b, "\\r"); break;
    default:
      if (c < 0x20)
        tc5_sb_printf(b, "\\u%04x", c);
      else
        tc5_sb_putc(b, (char)c);
    }
  }
  tc5_sb_putc(b, '"');
}

static void json_key(tc5_json *j, const char *key) {
  if (!j->first[j->depth]) tc5_sb_putc(j->sb, ',');
  j->first[j->depth] = false;
  if (key) {
    json_escape(j->sb, key);
    tc5_sb_putc(j->sb, ':');
  }
}

static void json_open(tc5_json *j, const char *key, char c) {
  json_key(j, key);
  tc5_sb_putc(j->sb, c);
  if (j->depth < 31) j->depth++;
  j->first[j->depth] = true;
}

static void json_close(tc5_json *j, char c) {
  if (j->depth > 0) j->depth--;
  tc5_sb_putc(j->sb, c);
}

void tc5_json_obj_begin(tc5_json *j, const char *key) { json_open(j, key, '{'); }
void tc5_json_obj_end(tc5_json *j) { json_close(j, '}'); }
void tc5_json_arr_begin(tc5_json *j, const char *key) { json_open(j, key, '['); }
void tc5_json_arr_end(tc5_json *j) { json_close(j, ']'); }

void tc5_json_str(tc5_json *j, const char *key, const char *v) {
  json_key(j, key);
  json_escape(j->sb, v ? v : "");
}

void tc5_json_int(tc5_json *j, const char *key, long long v) {
  json_key(j, key);
  tc5_sb_printf(j->sb, "%lld", v);
}

void tc5_json_uint(tc5_json *j, const char *key, unsigned long long v) {
  json_key(j, key);
  tc5_sb_printf(j->sb, "%llu", v);
}

void tc5_json_hex(tc5_json *j, const char *key, unsigned long long v, int digits) {
  json_key(j, key);
  tc5_sb_printf(j->sb, "\"0x%0*llx\"", digits, v);
}

void tc5_json_bool(tc5_json *j, const char *key, bool v) {
  json_key(j, key);
  tc5_sb_puts(j->sb, v ? "true" : "false");
}

void tc5_json_null(tc5_json *j, const char *key) {
  json_key(j, key);
  tc5_sb_puts(j->sb, "null");
}

void tc5_json_raw(tc5_json *j, const char *key, const char *raw) {
  json_key(j, key);
  tc5_sb_puts(j->sb, raw);
}

void tc5_json_diag(tc5_json *j, const char *key, const tc5_diag *d) {
  tc5_json_arr_begin(j, key);
  if (d) {
    for (unsigned i = 0; i < d->count; i++) {
      tc5_json_obj_begin(j, NULL);
      tc5_json_str(j, "status", tc5_status_name(d->issue[i].status));
      tc5_json_str(j, "field", d->issue[i].field);
      tc5_json_uint(j, "value", d->issue[i].value);
      tc5_json_str(j, "message", d->issue[i].message);
      tc5_json_obj_end(j);
    }
  }
  tc5_json_arr_end(j);
}
