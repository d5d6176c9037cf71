/* tc5 internal — the vectors checker's line model and format plug-ins. */
#ifndef TC5_VECTORS_IMPL_H
#define TC5_VECTORS_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc5/vectors.h"

#define TC5_VLINE_MAX_KV 48

typedef struct tc5_vline {
  const char *text; /* the whole line (NUL-terminated, no newline) */
  int n;
  struct {
    const char *key, *val;
    size_t klen, vlen;
  } kv[TC5_VLINE_MAX_KV];
} tc5_vline;

/* Value of `key` (not NUL-terminated; length in *len), or NULL. */
const char *tc5_vline_get(const tc5_vline *l, const char *key, size_t *len);
/* Copies a value into buf as a C string; false when absent or too long. */
bool tc5_vline_str(const tc5_vline *l, const char *key, char *buf, size_t cap);
/* Parses a value as an unsigned number in `base` (16 or 10). */
bool tc5_vline_u64(const tc5_vline *l, const char *key, int base, uint64_t *v);

typedef struct tc5_vformat {
  const char *name;  /* "idesc" */
  const char *key;   /* key that starts a line of this format ("idesc") */
  const char *key2;  /* alternative first key, or NULL ("idesc_bs") */
  size_t ctx_size;
  /* Called once before the first vector: file name (may be NULL) and the
   * comment lines before it. */
  tc5_status (*begin)(void *ctx, const char *name, const char *header,
                      tc5_vectors_report *rep, tc5_diag *diag);
  /* Checks one vector: TC5_OK, TC5_EMISMATCH (reason in why) or TC5_EPARSE.
   * Sets *noted when the line passes under the format's documented
   * convention (see tc5_vectors_report.note). */
  tc5_status (*check)(void *ctx, const tc5_vline *l, char *why, size_t cap,
                      bool *noted);
  void (*end)(void *ctx);
} tc5_vformat;

extern const tc5_vformat tc5_vformat_idesc;
extern const tc5_vformat tc5_vformat_zcmask;
extern const tc5_vformat tc5_vformat_smem;
extern const tc5_vformat tc5_vformat_mmasim;

#endif
