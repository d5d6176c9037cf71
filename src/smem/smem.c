/* tc5 — the shared memory of one CTA: bounds and never-written bytes. */
#include <stdlib.h>
#include <string.h>

#include "tc5/smem.h"

tc5_status tc5_smem_init(tc5_smem *s, uint32_t size) {
  if (!s) return TC5_EINVAL;
  memset(s, 0, sizeof *s);
  if (size == 0 || size > TC5_SMEM_MAX_BYTES) return TC5_ERANGE;
  s->bytes = calloc(size, 1);
  s->written = calloc((size + 7) / 8, 1);
  if (!s->bytes || !s->written) {
    free(s->bytes);
    free(s->written);
    s->bytes = s->written = NULL;
    return TC5_ENOMEM;
  }
  s->size = size;
  return TC5_OK;
}

tc5_status tc5_smem_free(tc5_smem *s) {
  if (!s) return TC5_EINVAL;
  free(s->bytes);
  free(s->written);
  memset(s, 0, sizeof *s);
  return TC5_OK;
}

static tc5_status in_bounds(const tc5_smem *s, uint32_t addr, uint32_t n, const char *what,
                            tc5_diag *diag) {
  if (!s->bytes) return tc5_diag_add(diag, TC5_EINVAL, "smem", 0, "smem: not initialised");
  if ((uint64_t)addr + n > s->size)
    return tc5_diag_add(diag, TC5_EBOUNDS, "address", addr,
                        "smem: %s of %u bytes at 0x%x is outside the %u bytes of shared memory",
                        what, n, addr, s->size);
  return TC5_OK;
}

tc5_status tc5_smem_write(tc5_smem *s, uint32_t addr, const void *src, uint32_t n,
                          tc5_diag *diag) {
  if (!s || (n && !src)) return TC5_EINVAL;
  tc5_status st = in_bounds(s, addr, n, "write", diag);
  if (st) return st;
  memcpy(s->bytes + addr, src, n);
  for (uint32_t i = addr; i < addr + n; i++) s->written[i / 8] |= (uint8_t)(1u << (i % 8));
  return TC5_OK;
}

tc5_status tc5_smem_fill(tc5_smem *s, uint32_t addr, uint8_t value, uint32_t n, tc5_diag *diag) {
  if (!s) return TC5_EINVAL;
  tc5_status st = in_bounds(s, addr, n, "fill", diag);
  if (st) return st;
  memset(s->bytes + addr, value, n);
  for (uint32_t i = addr; i < addr + n; i++) s->written[i / 8] |= (uint8_t)(1u << (i % 8));
  return TC5_OK;
}

tc5_status tc5_smem_read(const tc5_smem *s, uint32_t addr, void *dst, uint32_t n,
                         tc5_diag *diag) {
  if (!s || (n && !dst)) return TC5_EINVAL;
  tc5_status st = in_bounds(s, addr, n, "read", diag);
  if (st) return st;
  memcpy(dst, s->bytes + addr, n);
  for (uint32_t i = addr; i < addr + n; i++)
    if (!(s->written[i / 8] & (1u << (i % 8)))) {
      if (s->uninit) {
        tc5_uninit_note(s->uninit, false, i);
        continue;
      }
      return tc5_diag_add(diag, TC5_EUNINIT, "address", i,
                          "smem: byte 0x%x was read but never written", i);
    }
  return TC5_OK;
}
