/* tc5 — the shared memory of one CTA, as tcgen05 instructions see it.
 *
 * A byte array of the CTA's shared-memory size (sm_100: up to 227 KB a
 * CTA, addressed through the 18-bit window of the matrix descriptors),
 * bounds-checked, remembering which bytes were ever written so that an MMA
 * reading garbage is reported (TC5_EUNINIT) instead of silently using it.
 */
#ifndef TC5_SMEM_H
#define TC5_SMEM_H

#include <stddef.h>
#include <stdint.h>

#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sm_100: 228 KB of shared memory per SM, at most 227 KB for one CTA */
#define TC5_SMEM_MAX_BYTES (227u * 1024u)
/* the descriptors address an 18-bit window (matrix-descriptor-encode) */
#define TC5_SMEM_WINDOW_BYTES (1u << 18)

typedef struct tc5_smem {
  uint32_t size;    /* bytes                                    */
  uint8_t *bytes;   /* size bytes                               */
  uint8_t *written; /* one bit per byte: ever written           */
  tc5_uninit_log *uninit; /* non-NULL: never-written reads tolerated, counted */
} tc5_smem;

/* Allocates `size` bytes (1 .. TC5_SMEM_MAX_BYTES), all unwritten. */
tc5_status tc5_smem_init(tc5_smem *s, uint32_t size);
/* Frees the memory (a zeroed or freed tc5_smem is fine). */
tc5_status tc5_smem_free(tc5_smem *s);
/* Writes n bytes at addr. TC5_EBOUNDS (nothing written) when
 * [addr, addr + n) is not inside the memory. */
tc5_status tc5_smem_write(tc5_smem *s, uint32_t addr, const void *src, uint32_t n,
                          tc5_diag *diag);
/* Reads n bytes at addr. TC5_EBOUNDS outside the memory, TC5_EUNINIT when a
 * byte was never written (the bytes are still copied: 0 where unwritten). */
tc5_status tc5_smem_read(const tc5_smem *s, uint32_t addr, void *dst, uint32_t n,
                         tc5_diag *diag);
/* Fills n bytes with `value` (marks them written), like st.bulk does. */
tc5_status tc5_smem_fill(tc5_smem *s, uint32_t addr, uint8_t value, uint32_t n,
                         tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
