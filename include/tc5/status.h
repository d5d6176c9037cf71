/* tc5 — status codes and diagnostics shared by every module.
 *
 * Every public tc5 function returns a tc5_status. Functions that check rules
 * also take an optional tc5_diag* in which they record every rule a value
 * breaks (not only the first), each with a message that names the field, the
 * value and the rule, e.g. "smem desc: swizzle mode 3 is reserved".
 * No tc5 function prints, aborts or exits.
 */
#ifndef TC5_STATUS_H
#define TC5_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tc5_status {
  TC5_OK = 0,
  TC5_EINVAL,      /* bad argument: NULL pointer, unknown name or enum value  */
  TC5_ERANGE,      /* a field value outside its range or encoding width      */
  TC5_ERESERVED,   /* a reserved value, or reserved/fixed bits not as defined */
  TC5_EALIGN,      /* misaligned address, offset or size                      */
  TC5_EILLEGAL,    /* a combination that a rule of the spec rejects           */
  TC5_ENOTREPR,    /* the requested result cannot be represented              */
  TC5_ETRUNC,      /* the caller's output buffer is too small                 */
  TC5_ENOMEM,      /* allocation failed                                       */
  TC5_EPARSE,      /* text could not be parsed                                */
  TC5_EIO,         /* file could not be read or written                      */
  TC5_EMISMATCH,   /* a check found a difference from the reference           */
  TC5_EWOULDBLOCK, /* the instruction would block (e.g. tcgen05.alloc)        */
  TC5_ESTATE,      /* not allowed in the current state of the model           */
  TC5_EACCESS,     /* access restriction broken (e.g. TMEM lanes per warp)    */
  TC5_EUNINIT,     /* read of memory that was never written                   */
  TC5_EBOUNDS,     /* address outside the modelled memory                     */
  TC5_EUNSUPPORTED, /* well-formed, but not modelled by tc5                   */
  TC5_EHAZARD,     /* the checker found a broken tcgen05 ordering rule       */
  TC5_ECANCELED    /* the caller stopped it (tc5_ptx_launch_cfg.interrupt)    */
} tc5_status;

/* "TC5_ERANGE" etc. Never NULL. */
const char *tc5_status_name(tc5_status s);
/* One-line English description of a status. Never NULL. */
const char *tc5_strerror(tc5_status s);

#define TC5_DIAG_CAP 64

typedef struct tc5_issue {
  tc5_status status;
  char field[48];    /* the spec's name of the field ("swizzle mode")       */
  uint64_t value;    /* the offending value                                 */
  char message[320]; /* "smem desc: swizzle mode 3 is reserved"             */
} tc5_issue;

typedef struct tc5_diag {
  unsigned count; /* issues stored (<= TC5_DIAG_CAP)                        */
  unsigned total; /* issues found, including those beyond the capacity     */
  tc5_issue issue[TC5_DIAG_CAP];
} tc5_diag;

/* Empties a diagnostics list. */
tc5_status tc5_diag_init(tc5_diag *d);

/* Reads of never-written memory, tolerated (the PTX runner's mode: such a
 * read is a checker finding, never the end of the run). A tc5_smem or
 * tc5_tmem whose `uninit` points to one of these does not fail a read of
 * bytes or cells never written (no TC5_EUNINIT): the read gets what the
 * memory holds (the runner fills it with 0xFF first: a NaN in every float
 * type, as Triton's ConSan fills allocations with NaN) and is counted here.
 * NULL (the default) keeps TC5_EUNINIT. */
typedef struct tc5_uninit_log {
  uint64_t smem, tmem;           /* never-written bytes / cells read       */
  uint32_t smem_addr, tmem_addr; /* the first: byte / TC5_TMEM_ADDR        */
} tc5_uninit_log;
static inline void tc5_uninit_note(tc5_uninit_log *g, bool tmem, uint32_t addr) {
  if (tmem) {
    if (!g->tmem++) g->tmem_addr = addr;
  } else if (!g->smem++) {
    g->smem_addr = addr;
  }
}

/* The first stored issue's status, or TC5_OK when the list is empty. */
tc5_status tc5_diag_first(const tc5_diag *d);

/* Records an issue (used by every module; exposed for tools built on tc5).
 * Returns `status` so that callers can write `return tc5_diag_add(...)`.
 * `d` may be NULL, in which case nothing is recorded. */
tc5_status tc5_diag_add(tc5_diag *d, tc5_status status, const char *field,
                        uint64_t value, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
