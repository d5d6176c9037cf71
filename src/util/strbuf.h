/* tc5 internal — a growable string and a small JSON writer on top of it.
 * Used to build describe/JSON/text outputs before copying them into the
 * caller's buffer. Not part of the public API. */
#ifndef TC5_STRBUF_H
#define TC5_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/status.h"

typedef struct tc5_sb {
  char *p;
  size_t len, cap;
  bool oom;
} tc5_sb;

void tc5_sb_init(tc5_sb *b);
void tc5_sb_free(tc5_sb *b);
void tc5_sb_putc(tc5_sb *b, char c);
void tc5_sb_puts(tc5_sb *b, const char *s);
void tc5_sb_printf(tc5_sb *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tc5_sb_vprintf(tc5_sb *b, const char *fmt, va_list ap);
/* One field line of a describe output: "  label : value   [bits]". */
void tc5_sb_field(tc5_sb *b, const char *label, const char *bits, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Copies the string into buf (NUL-terminated) with snprintf semantics.
 * Sets *needed (if not NULL) to len+1. Returns TC5_ETRUNC when cap is too
 * small, TC5_ENOMEM if the builder ran out of memory, else TC5_OK. Frees b. */
tc5_status tc5_sb_finish(tc5_sb *b, char *buf, size_t cap, size_t *needed);

/* JSON writer: objects and arrays with automatic commas. */
typedef struct tc5_json {
  tc5_sb *sb;
  int depth;
  bool first[32];
} tc5_json;

void tc5_json_init(tc5_json *j, tc5_sb *sb);
void tc5_json_obj_begin(tc5_json *j, const char *key); /* key NULL in arrays */
void tc5_json_obj_end(tc5_json *j);
void tc5_json_arr_begin(tc5_json *j, const char *key);
void tc5_json_arr_end(tc5_json *j);
void tc5_json_str(tc5_json *j, const char *key, const char *v);
void tc5_json_int(tc5_json *j, const char *key, long long v);
void tc5_json_uint(tc5_json *j, const char *key, unsigned long long v);
void tc5_json_hex(tc5_json *j, const char *key, unsigned long long v, int digits);
void tc5_json_bool(tc5_json *j, const char *key, bool v);
void tc5_json_null(tc5_json *j, const char *key);
void tc5_json_raw(tc5_json *j, const char *key, const char *raw);
/* The diagnostics list as an array of {status, field, value, message}. */
void tc5_json_diag(tc5_json *j, const char *key, const tc5_diag *d);

#endif
