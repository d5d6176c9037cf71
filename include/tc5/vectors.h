/* tc5 — checking tc5 against golden reference vectors.
 *
 * Reads the line formats of ../shared/oracle/ (see its README):
 *   idesc         cutlass/idesc.txt          idesc=HEX / idesc_bs=HEX + fields
 *   zcmask-conv   cutlass/zcmask-conv.txt    zcmask=HEX m= n= ... mask=BITS
 *   smem-layouts  cutlass/smem-layouts.txt   smem_desc=HEX type= major= ... offsets=
 *   mmasim        mmasim/<arch>.<qualifier>.txt  a= b= c= [sa= sb=] d=
 * and checks every line against tc5, bit for bit.
 */
#ifndef TC5_VECTORS_H
#define TC5_VECTORS_H

#include <stdint.h>

#include "tc5/arith.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC5_VECTORS_SHOW 8

/* A GEMM with tc5_gemm's contract (tc5_gemm_cuda, tc5/gemm_cuda.h) that
 * mmasim files' whole calls also run through (tc5_vectors_report.gemm) */
typedef tc5_status (*tc5_vectors_gemm_fn)(void *ctx, const tc5_dot *m, unsigned M, unsigned N, unsigned K,
                                          const uint32_t *A, const uint32_t *B, const uint32_t *SA,
                                          const uint32_t *SB, uint32_t *D, const tc5_dot_opts *o);

typedef struct tc5_vectors_report {
  /* input, kept by the checks: when set, each whole call of an mmasim file
   * (M x N lines sharing A's rows and B's columns) also runs through it,
   * every element equal to its line's d, counted in gemm_calls */
  tc5_vectors_gemm_fn gemm;
  void *gemm_ctx;
  uint64_t gemm_calls;
  char format[32];     /* detected format name                               */
  char qualifier[192]; /* mmasim: arch and qualifier from the header/name    */
  uint64_t checked;    /* vectors checked                                    */
  uint64_t failed;     /* vectors where tc5 differs                          */
  uint64_t noted;      /* vectors that pass under a documented convention    */
  uint64_t engine_calls; /* mmasim, Blackwell: whole MMA calls (M x N lines
                            sharing A's rows and B's columns) also run as one
                            tcgen05.mma through the engine (tc5/mma.h)      */
  char note[256];      /* what the noted vectors have in common              */
  unsigned shown;      /* failures stored below (first ones, in full)        */
  char failure[TC5_VECTORS_SHOW][640];
} tc5_vectors_report;

/* Checks every vector of a file. Returns TC5_OK when all pass,
 * TC5_EMISMATCH when any fails, TC5_EIO / TC5_EPARSE / TC5_EUNSUPPORTED when
 * the file cannot be read, parsed or is of an unknown format (with the
 * reason in diag). `name` (may be NULL) is used for format detection of
 * mmasim files, whose qualifier is in the file name and header. */
tc5_status tc5_vectors_check_file(const char *path, tc5_vectors_report *rep,
                                  tc5_diag *diag);
/* The same over text in memory (lines separated by '\n'). */
tc5_status tc5_vectors_check_text(const char *text, const char *name,
                                  tc5_vectors_report *rep, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
