/* The NaNs of f64 arithmetic as the H100 gives them (gpu/run.sh f64nan:
 * tests/data/ptx/f64nan, 512 NaN-heavy triples through add/sub/mul/fma/div/
 * sqrt/rcp in every rounding, min, max, neg, abs and cvt; and gpu/run.sh
 * mma for mma.sync's m8n8k4 .f64): a NaN operand comes out quieted (bit 51
 * set) with its sign and payload kept, the first NaN in an order of
 * operands each instruction has (add/sub/mul: b then a; fma and each step of
 * mma's f64 chain: b, c, a; div: a then b; one-operand forms: a); a NaN the
 * operation makes itself (0 x inf, inf - inf, 0/0, sqrt of a negative) is
 * 0xfff8000000000000. f32 differs: every NaN result is 0x7fffffff. */
#ifndef TC5_PTX_F64_NAN_H
#define TC5_PTX_F64_NAN_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define F64_QUIET (1ull << 51)
#define F64_MADE_NAN 0xfff8000000000000ull /* a NaN no operand carried */

static inline bool f64_is_nan(uint64_t x) {
  return (x & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (x & 0xfffffffffffffull);
}
/* the first NaN among n operands, in the instruction's order, quieted into *r */
static inline bool f64_nan_operand(const uint64_t *ops, unsigned n, uint64_t *r) {
  for (unsigned i = 0; i < n; i++)
    if (f64_is_nan(ops[i])) {
      *r = ops[i] | F64_QUIET;
      return true;
    }
  return false;
}
/* a result computed from operands that carry no NaN */
static inline uint64_t f64_made(double d) {
  uint64_t x;
  memcpy(&x, &d, 8);
  return f64_is_nan(x) ? F64_MADE_NAN : x;
}
#endif
