/* tc5 — vectors format "smem-layouts": shared-memory offsets of every
 * element of canonical tiles that CUTLASS builds (../shared/oracle/cutlass/
 * smem-layouts.txt) or that silicon reads (tests/data/h100/). Each line:
 *   smem_desc=HEX type=T [bits=B] major=K|MN [atom=NAME] mn=R k=K
 *   [kblock=J] [start=S] [packing=natural|padded16|fp4x2] offsets=O,O,...
 * offsets list the byte address of element (mn, k), k fastest. tc5 must find
 * every one from the descriptor, the type and the major-ness alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/layout.h"
#include "vectors/vectors_impl.h"

#define FAIL(...)                                                              \
  do {                                                                         \
    snprintf(why, cap, __VA_ARGS__);                                           \
    return TC5_EMISMATCH;                                                      \
  } while (0)

static tc5_status begin(void *ctx, const char *name, const char *header,
                        tc5_vectors_report *rep, tc5_diag *diag) {
  (void)ctx, (void)name, (void)header, (void)rep, (void)diag;
  return TC5_OK;
}

/* the atom name CuTe gives a major-ness and swizzle */
static const char *atom_name(tc5_major mj, unsigned sw) {
  static const char *k[] = {"K_INTER", "?", "K_SW128", "?", "K_SW64", "?", "K_SW32", "?"};
  static const char *mn[] = {"MN_INTER", "MN_SW128_32B", "MN_SW128", "?", "MN_SW64", "?", "MN_SW32", "?"};
  return mj == TC5_MAJOR_K ? k[sw & 7] : mn[sw & 7];
}

static tc5_status check(void *ctx, const tc5_vline *l, char *why, size_t cap, bool *noted) {
  (void)ctx, (void)noted;
  uint64_t raw, rows, kdim, start, bits;
  char tname[16], mname[8], atom[24], pack[16];
  if (!tc5_vline_u64(l, "smem_desc", 16, &raw)) FAIL("bad or missing smem_desc=");
  if (!tc5_vline_str(l, "type", tname, sizeof tname) || !tc5_vline_str(l, "major", mname, sizeof mname))
    FAIL("missing type= or major=");
  if (!tc5_vline_u64(l, "mn", 10, &rows) || !tc5_vline_u64(l, "k", 10, &kdim) || rows == 0 ||
      kdim == 0 || rows > 4096 || kdim > 4096)
    FAIL("bad or missing mn=/k=");
  tc5_type t;
  tc5_major mj;
  if (tc5_type_parse(tname, &t) != TC5_OK) FAIL("unknown type '%s'", tname);
  if (tc5_major_parse(mname, &mj) != TC5_OK) FAIL("unknown major '%s'", mname);
  if (tc5_vline_u64(l, "bits", 10, &bits) && bits != tc5_type_bits(t))
    FAIL("bits=%llu, but %s has %u bits", (unsigned long long)bits, tname, tc5_type_bits(t));
  tc5_operand op = {t, mj, tc5_type_bits(t) < 8 ? TC5_PACK_PADDED16 : TC5_PACK_NATURAL};
  if (tc5_vline_str(l, "packing", pack, sizeof pack)) {
    if (!strcmp(pack, "natural")) op.packing = TC5_PACK_NATURAL;
    else if (!strcmp(pack, "padded16")) op.packing = TC5_PACK_PADDED16;
    else if (!strcmp(pack, "fp4x2")) op.packing = TC5_PACK_FP4X2;
    else FAIL("unknown packing '%s'", pack);
  }
  tc5_smem_desc d;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_smem_desc_decode(raw, &d, &dg) != TC5_OK)
    FAIL("descriptor: %s", dg.count ? dg.issue[0].message : "invalid");
  if (tc5_vline_u64(l, "start", 10, &start) && start != d.start_address)
    FAIL("start=%llu, the descriptor says %u", (unsigned long long)start, d.start_address);
  if (tc5_vline_str(l, "atom", atom, sizeof atom) && strcmp(atom, atom_name(mj, d.swizzle)))
    FAIL("atom=%s, the descriptor and major-ness give %s", atom, atom_name(mj, d.swizzle));
  size_t len;
  const char *v = tc5_vline_get(l, "offsets", &len);
  if (!v) FAIL("missing offsets=");
  const char *p = v, *end = v + len;
  for (unsigned r = 0; r < rows; r++)
    for (unsigned k = 0; k < kdim; k++) {
      if (p >= end) FAIL("offsets= lists fewer than %llu x %llu values", (unsigned long long)rows,
                         (unsigned long long)kdim);
      char *e;
      unsigned long want = strtoul(p, &e, 10);
      if (e == p) FAIL("bad number in offsets= at element (%u, %u)", r, k);
      p = e + (e < end && *e == ',');
      tc5_elem_loc loc;
      tc5_diag_init(&dg);
      if (tc5_layout_addr(&d, &op, r, k, &loc, &dg) != TC5_OK)
        FAIL("element (%u, %u): %s", r, k, dg.count ? dg.issue[0].message : "no address");
      if (loc.addr != want || loc.bit != 0)
        FAIL("element (%u, %u): tc5 byte %u%s, file %lu", r, k, loc.addr, loc.bit ? " (+4 bits)" : "",
             want);
    }
  if (p < end) FAIL("offsets= lists more than %llu x %llu values", (unsigned long long)rows,
                    (unsigned long long)kdim);
  return TC5_OK;
}

const tc5_vformat tc5_vformat_smem = {"smem-layouts", "smem_desc", NULL, 0, begin, check, NULL};
