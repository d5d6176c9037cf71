/* tc5 — little-endian fields of a 128-byte tensor map, shared by tc5's own
 * encoding (tensormap.c) and CUDA's (tensormap_cuda.c). Internal. */
#ifndef TC5_TENSORMAP_BYTES_H
#define TC5_TENSORMAP_BYTES_H
#include <stdint.h>

/* the n bytes at b + off, little-endian, from / into v */
static inline void tmap_put(uint8_t *b, unsigned off, uint64_t v, unsigned n) {
  for (unsigned k = 0; k < n; k++) b[off + k] = (uint8_t)(v >> (8 * k));
}
static inline uint64_t tmap_get(const uint8_t *b, unsigned off, unsigned n) {
  uint64_t v = 0;
  for (unsigned k = 0; k < n; k++) v |= (uint64_t)b[off + k] << (8 * k);
  return v;
}
#endif
