/* tc5 internal — shared pieces of the arithmetic core. */
#ifndef TC5_ARITH_IMPL_H
#define TC5_ARITH_IMPL_H

#include <stdint.h>

#include "tc5/arith.h"

enum { TC5_TERM_FINITE = 0, TC5_TERM_INF = 1, TC5_TERM_NAN = 2 };

/* A term of a fused sum: (-1)^sign * m * 2^x, with the model's nominal
 * exponent e (inputs' exponents summed, subnormals at their minimum). */
typedef struct tc5_term {
  int sign;
  int cls;
  uint64_t m;
  int x, e;
} tc5_term;

/* decomposes a code (NaN/Inf classes, zero as m = 0) */
void tc5__term_of(tc5_type t, uint32_t code, tc5_term *r);
/* the common start of tc5_dot_run and tc5_gemm: checks the model and the
 * options for K products and points *o at the defaults (in *def) when NULL */
tc5_status tc5__dot_begin(const tc5_dot *m, size_t k, const tc5_dot_opts **o, tc5_dot_opts *def);
/* rounds (-1)^sign * mag * 2^x to the output format's code */
uint32_t tc5__round_out(tc5_out_round out, int sign, uint64_t mag, int x);

/* the most products one step may fuse: 64, or 128 when products are first
 * summed exactly in groups (a step's terms are then chunk / group: sparse
 * mxf4/mxf4nvf4, docs/arithmetic.md) */
static inline unsigned tc5__max_chunk(const tc5_dot *m) { return m->group >= 2 ? 128u : 64u; }
/* whether a step of K products (chunk 0: all K in one) is one the model
 * fuses; tc5_dot_run, tc5_gemm and the GPU GEMM return TC5_EUNSUPPORTED
 * when not */
static inline bool tc5__step_fits(const tc5_dot *m, size_t k) { return (m->chunk ? m->chunk : k) <= tc5__max_chunk(m); }

/* tc5_gemm with a sparse A already expanded (tc5_sparse_expand) and the
 * sparse model (tc5_dot_sparse): the outputs whose row elides a position
 * where their column of B holds a NaN or an infinity are computed again by
 * the reference with B's elided elements read as zero (the pair is absent).
 * elided NULL: tc5_gemm. SA, SB as tc5_gemm takes them (logical blocks). */
tc5_status tc5__gemm_elided(const tc5_dot *m, unsigned M, unsigned N, unsigned K, const uint32_t *A,
                            const uint8_t *elided, const uint32_t *B, const uint32_t *SA, const uint32_t *SB,
                            uint32_t *D, const tc5_dot_opts *o, unsigned threads);

#endif
