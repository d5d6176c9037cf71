/* tc5 — zero-column masks eight at a time (tc5_zcmask_generate_many).
 *
 * The model of src/zcmask.c, lane by lane in 64-bit vector lanes: with
 * A = Skip Span + 1 ones and period P = A + Use Span + 1, sub-mask i starts
 * at phase f = (sc_i + (fs_i ? 0 : A)) mod P, and for P > 64 the 64 columns
 * from phase f hold at most two runs of ones: phases [f, A) of this period
 * (the low min(A - f, 64) bits when f < A) and the run that starts P - f
 * columns on (min(A, 64) ones shifted there). The next 64 columns start at
 * phase (f + 64) mod P. Everything is masks and shifts, no branch and no
 * table: GCC's vector extensions give AVX-512 or AVX2 code through
 * target_clones, plain 64-bit code elsewhere. */
#include <stddef.h>
#include <string.h>

#include "util/simd.h"
#include "zcmask/zcmask_impl.h"

typedef uint64_t v8u __attribute__((vector_size(64)));

#define V8(x) ((v8u){(x), (x), (x), (x), (x), (x), (x), (x)})

/* lanes of x where m is all ones, of y elsewhere (macros: a function
 * taking 512-bit vectors would change the ABI by the target) */
#define SEL(m, x, y) (((x) & (m)) | ((y) & ~(m)))

/* the low k bits, k in [0, 64] (a shift by 64 would be undefined) */
#define LOW(k) SEL((v8u)((k) >= V8(64)), V8(~0ull), (V8(1) << ((k) & V8(63))) - V8(1))

/* byte b of each lane */
#define BYTE(v, b) (((v) >> (8 * (b))) & V8(0xFF))

_Static_assert(sizeof(tc5_zcmask_desc) == 14 && offsetof(tc5_zcmask_desc, first_span) == 4 &&
                   offsetof(tc5_zcmask_desc, non_zero) == 8 && offsetof(tc5_zcmask_desc, skip_span) == 9 &&
                   offsetof(tc5_zcmask_desc, use_span) == 10 && offsetof(tc5_zcmask_desc, column_shift) == 11 &&
                   offsetof(tc5_zcmask_desc, reserved_36_38) == 12 && offsetof(tc5_zcmask_desc, reserved_62_63) == 13,
               "the byte view of tc5_zcmask_desc below");

TC5_CLONES bool tc5__zcmask_gen8(const tc5_zcmask_desc *d, unsigned lg, unsigned n, tc5_colmask *out) {
  unsigned subs = 1u << lg, s = n >> lg;
  /* the fields as bytes of two words a descriptor: start counts and first
   * spans (bytes 0-7), and bytes 6-13 (non_zero at 2, skip at 3, use at 4,
   * column shift at 5, the reserved fields at 6 and 7) */
  uint64_t lo8[8], hi8[8];
  for (int j = 0; j < 8; j++) {
    memcpy(&lo8[j], d[j].start_count, 8);
    memcpy(&hi8[j], (const uint8_t *)&d[j] + 6, 8);
  }
  v8u lo, hi;
  memcpy(&lo, lo8, sizeof lo);
  memcpy(&hi, hi8, sizeof hi);
  /* the rules tc5_zcmask_generate checks on its hot path, all lanes at once */
  v8u bad = ((lo >> 32) & V8(0xFEFEFEFEull)) | (hi >> 48) | (v8u)(BYTE(hi, 2) > V8(1)) |
            (v8u)(BYTE(hi, 5) > V8(lg == 2 ? 16 : 32));
  uint64_t any = 0;
  for (int j = 0; j < 8; j++) any |= bad[j];
  if (any) return false;
  v8u a = BYTE(hi, 3) + V8(1), p = a + BYTE(hi, 4) + V8(1), nz = (v8u)(BYTE(hi, 2) != V8(0));
  v8u run = LOW(a), w[4] = {V8(0), V8(0), V8(0), V8(0)};
  for (unsigned i = 0; i < subs; i++) {
    /* f = x mod p: x < 512 and p > 64 (the lanes that count) make x < 8p */
    v8u f = BYTE(lo, i) + (a & (v8u)(BYTE(lo, 4 + i) == V8(0)));
    f -= (p << 2) & (v8u)(f >= (p << 2));
    f -= (p << 1) & (v8u)(f >= (p << 1));
    f -= p & (v8u)(f >= p);
    for (unsigned k = 0; k < s; k += 64) {
      v8u e1 = (a - f) & (v8u)(a > f), s2 = p - f;
      v8u ch = (LOW(e1) | ((run << (s2 & V8(63))) & (v8u)(s2 < V8(64)))) & nz;
      if (s >= 64) {
        w[(i * s + k) >> 6] = ch;
      } else {
        w[(i * s) >> 6] |= (ch & V8((1ull << s) - 1)) << ((i * s) & 63);
      }
      f += V8(64);
      f -= p & (v8u)(f >= p);
    }
  }
  uint64_t wl[4][8], small[8];
  memcpy(wl, w, sizeof wl);
  v8u sm = (v8u)(p <= V8(64)) & nz; /* several runs a word: the scalar generator */
  memcpy(small, &sm, sizeof small);
  unsigned words = n >> 6;
  for (int j = 0; j < 8; j++) {
    out[j].n = n;
    for (unsigned q = 0; q < 4; q++) out[j].w[q] = q < words ? wl[q][j] : 0;
    if (small[j]) {
      out[j].w[0] = out[j].w[1] = out[j].w[2] = out[j].w[3] = 0;
      tc5__zcmask_words(&d[j], lg, n, &out[j]);
    }
  }
  return true;
}
