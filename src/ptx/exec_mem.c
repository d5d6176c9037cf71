/* tc5 PTX runner — memory instructions: ld, st, atom/red, cvta, ldmatrix,
 * stmatrix, cp.async (PTX ISA "Data Movement and Conversion
 * Instructions", "Parallel Synchronization and Communication: atom/red").
 *
 * Every access is checked: inside one buffer or variable of its state
 * space, naturally aligned (the access's whole size, vectors included),
 * not in the 1 KiB reserved at the start of shared memory. cp.async
 * copies when issued: commit_group / wait_group have nothing left to wait
 * for (reading the destination before the wait is a race on silicon,
 * which the sanitizer issue will report). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "check/check_impl.h"
#include "tc5/formats.h"
#include "ptx/decode_impl.h"

/* ---- ld / st ---- */

/* Global memory, fast: the buffer that served the warp's last access, when
 * [addr, addr + n) is inside it and aligned; NULL sends the access to
 * ptx_mem (other buffers, errors). */
static inline uint8_t *global_fast(ptx_warp *w, uint64_t addr, uint32_t n) {
  if (addr & (n - 1)) return NULL;
  for (unsigned k = 0; k < 4; k++) {
    const ptx_region *r = w->region[k];
    /* n <= size first: the region was remembered for an access of its own
     * width, and size - n must not wrap (a u32 load after a u8 one of a
     * 2-byte buffer read 2 bytes past it) */
    if (!r) break;
    if (n <= r->size && addr - r->base <= r->size - n) return r->host + (addr - r->base);
  }
  return NULL;
}
/* an access of n bytes at shared address addr (32-bit) that the fast paths take: in the CTA's window past the
 * reserved KiB, aligned */
static inline bool shared_fits(const tc5_smem *s, uint64_t addr, uint32_t n) {
  return addr >= 1024 && addr + n <= s->size && !(addr & (n - 1));
}
/* shared memory, fast: in the CTA's window past the reserved KiB, aligned */
static inline uint8_t *shared_fast(ptx_warp *w, const ptx_insn *in, unsigned lane, uint64_t addr, uint32_t n,
                                   bool write) {
  tc5_smem *s = &w->cta->smem;
  addr = (uint32_t)addr; /* 32-bit shared addresses (ptx_shared_addr) */
  if (!shared_fits(s, addr, n)) return NULL;
  if (w->cta->chk) {
    if (write) chk_smem_store(CHK_W(w), CHK_IN(w, in), (int)lane, (uint32_t)addr, n);
    else chk_smem_read(CHK_W(w), CHK_IN(w, in), (int)lane, (uint32_t)addr, n);
    if (chk_has_remote(w->cta->chk)) chk_xrace_local(CHK_W(w), CHK_IN(w, in), (int)lane, (uint32_t)addr, n, write);
  }
  if (write) ptx_mark_written(s, (uint32_t)addr, n);
  if (write && __builtin_expect(w->cta->cl->sched != NULL, 0)) ptx_px_write(w, (uint32_t)addr, n); /* seeded schedules: the proxies */
  return s->bytes + addr;
}
/* a load of shared memory, fast: shared_fast's read with the checker's common case asked
 * through f (chk_rd_begin once for the instruction, again after a lane's general path
 * chk_smem_read or a cluster's chk_xrace_local, which may change what it asks) */
static inline const uint8_t *shared_fast_ld(ptx_warp *w, const ptx_insn *in, chk_rd *f, unsigned lane, uint64_t addr,
                                            uint32_t n) {
  tc5_smem *s = &w->cta->smem;
  addr = (uint32_t)addr; /* 32-bit shared addresses (ptx_shared_addr) */
  if (!shared_fits(s, addr, n)) return NULL;
  chk_cta *k = w->cta->chk;
  if (k) {
    bool again = false;
    if (!chk_rd_lane(f, (int)lane, (uint32_t)addr, n)) {
      chk_smem_read(CHK_W(w), CHK_IN(w, in), (int)lane, (uint32_t)addr, n);
      again = true;
    }
    if (chk_has_remote(k)) chk_xrace_local(CHK_W(w), CHK_IN(w, in), (int)lane, (uint32_t)addr, n, false), again = true;
    if (again) chk_rd_begin(f, k, CHK_W(w), CHK_IN(w, in), n);
  }
  return s->bytes + addr;
}
/* whether base is the same in every lane of mask */
static inline bool lanes_same(const uint64_t *base, uint32_t mask) {
  uint64_t v = base[__builtin_ctz(mask)], diff = 0;
  if (mask == 0xFFFFFFFFu) {
    for (unsigned l = 0; l < 32; l++) diff |= base[l] ^ v;
  } else {
    PTX_LANES(mask, diff |= base[l] ^ v);
  }
  return diff == 0;
}
/* v into the lanes of mask, the others kept: without a branch a lane, v read once (x_ld's lanes at
 * one address, issue 50 st: the lane-by-lane loop stored and read again the first lane's value
 * for each of 31 lanes, a quarter of test_sort's sweep's ld.shared.v4 time) */
static inline void lanes_fill(uint64_t *d, uint32_t mask, uint64_t v) {
  if (mask == 0xFFFFFFFFu) { /* stores alone: no lane of d read */
    for (unsigned l = 0; l < 32; l++) d[l] = v;
    return;
  }
  for (unsigned l = 0; l < 32; l++) {
    uint64_t k = 0 - (uint64_t)(mask >> l & 1);
    d[l] = (d[l] & ~k) | (v & k);
  }
}
/* x_ld's lanes at one address of shared memory: whether this lane and every later one would
 * take shared_fast_ld's fast path and change nothing (then they read the bytes the first lane
 * read). Without the checker: the fast path's bounds. With it: a lane before took chk_rd_lane's
 * fast path into this granule (f->g; x_ld's lanes here all read [addr, + n)), so this lane's
 * chk_rd_lane, the same bytes, takes it again: nothing it tests has changed since (the granule's
 * busy, store and written bits; e's slot there holds the bytes: f->unord with them would have
 * failed that lane's race test), and it only adds the bytes the read already holds and sets the
 * pending flag as it was, so each later lane's would do the same: true without asking it again
 * (false: nothing changed, the lane's own path). */
static inline bool ld_same_settled(ptx_warp *w, chk_rd *f, uint64_t addr, uint32_t n) {
  const tc5_smem *s = &w->cta->smem;
  addr = (uint32_t)addr;
  if (!shared_fits(s, addr, n)) return false;
  chk_cta *k = w->cta->chk;
  if (!k) return true;
  return !chk_has_remote(k) && f->ok && f->g == (uint32_t)addr / GRAN;
}
/* a kernel parameter's bytes (ld.param of the entry's parameters: ptx_mem's PS_PARAM case) */
static inline const uint8_t *param_fast(ptx_warp *w, uint64_t addr, uint32_t n) {
  const ptx_launch *L = w->cta->L;
  if ((addr & (n - 1)) || addr + n > L->f->param_bytes || addr + n < addr) return NULL;
  return L->params + addr;
}
static inline void remember_region(ptx_warp *w, uint64_t addr) {
  ptx_launch *L = w->cta->L;
  const ptx_region *hit = NULL;
  for (unsigned k = 0; k < L->nregions; k++)
    if (addr - L->regions[k].base < L->regions[k].size) hit = &L->regions[k];
  if (!hit) return;
  /* the newest first; a kernel's loads and stores of a few tensors each find theirs */
  w->region[3] = w->region[2], w->region[2] = w->region[1], w->region[1] = w->region[0], w->region[0] = hit;
}

/* scalar loads and stores of global or shared memory: one loop, no calls
 * on the way unless an access leaves the fast path */
static PTX_EXEC(x_st1);
static bool ldq_names(const ptx_warp *w, const ptx_insn *in, uint32_t reg) {
  const tc5_ptx_module *m = w->cta->L->m;
  if (in->guard == reg) return true;
  for (unsigned i = 0; i < in->nops; i++) {
    const ptx_opnd *o = &in->o[i];
    if ((o->kind == PO_REG || o->kind == PO_ADDR) && (o->reg == reg || o->reg2 == reg)) return true;
    for (unsigned k = 0; o->kind == PO_VEC && k < o->n; k++)
      if (m->vregs[o->vec + k] == reg) return true;
  }
  return false;
}
bool ptx_ldq_due(ptx_warp *w, const ptx_insn *in, uint32_t mask) {
  const insn_traits *t = &in->traits;
  if (ldq_names(w, in, w->ldq.reg)) return true;
  if (t->group == IG_INT || t->group == IG_FLOAT || t->group == IG_MOVE)
    return (t->flags & (IT_READ | IT_WRITE | IT_ATOMIC | IT_FENCE | IT_BARRIER | IT_ASYNC | IT_CP_ASYNC)) != 0;
  if (t->group == IG_CONTROL) return in->nops < 1 || in->o[0].kind != PO_LABEL; /* a branch: not due */
  /* a fence.acq_rel.cta / fence.sc.cta orders the load before the warp's
   * later accesses for its own CTA only (8.7: morally strong within the
   * CTA): the load may stay late while later stores are held for the CTA
   * (sbuf.hold: the CTA sees them after the load is read) */
  if (t->group == IG_FENCE && (t->flags & IT_FENCE) && t->scope == ISC_CTA &&
      (t->sem == ISEM_ACQ_REL || t->sem == ISEM_SC) &&
      !(t->flags & (IT_READ | IT_WRITE | IT_ATOMIC | IT_BARRIER | IT_ASYNC | IT_CP_ASYNC))) {
    w->ldq_fenced = true;
    w->ldq_sc |= t->sem == ISEM_SC;
    return false;
  }
  /* a weak/relaxed scalar st.global to bytes the load does not read */
  if (in->fn != x_st1 || in->space != PS_GLOBAL ||
      !(t->sem == ISEM_NONE || t->sem == ISEM_WEAK || t->sem == ISEM_RELAXED))
    return true;
  const uint64_t *base = PTX_R(w, in->o[0].reg);
  const struct ptx_ldq *q = &w->ldq;
  bool hit = false;
  PTX_LANES(mask, {
    uint64_t a = base[l] + (uint64_t)in->o[0].imm;
    for (uint32_t m = q->mask; m && !hit; m &= m - 1) {
      uint64_t b = q->a[__builtin_ctz(m)];
      hit = a < b + q->eb && b < a + in->aux;
    }
  });
  return hit;
}
/* ld.param of the entry's parameters at one address in every lane (ld.param [name]: the
 * address a constant): read once, the value every lane's (what x_ld1's loop gives each
 * lane then: param_fast, ptx_ld_value). false: not so (or not inside the parameters), the
 * loop's turn, nothing written */
static bool param_uniform(ptx_warp *w, uint64_t *d, const uint64_t *base, int64_t off, unsigned eb, bool sgn,
                          uint64_t rm, uint32_t mask) {
  unsigned f = (unsigned)__builtin_ctz(mask);
  uint64_t b0 = base[f];
  bool uni = true;
  PTX_LANES(mask, uni &= base[l] == b0);
  const uint8_t *p = uni ? param_fast(w, b0 + (uint64_t)off, eb) : NULL;
  if (!p) return false;
  uint64_t v = ptx_ld_value(p, eb, sgn, rm);
  PTX_LANES(mask, d[l] = v);
  return true;
}
/* The buffer of a whole mask's global accesses (issue 50, size): the remembered one holding
 * lane f's address (global_fast's), else the launch's only buffer holding it, *fresh set (the
 * loop's first lane would take it through ptx_mem, then remember it); NULL: none or several */
static const ptx_region *rows_region(ptx_warp *w, uint64_t addr, bool *fresh) {
  *fresh = false;
  for (unsigned k = 0; k < 4 && w->region[k]; k++)
    if (addr - w->region[k]->base < w->region[k]->size) return w->region[k];
  const ptx_launch *L = w->cta->L;
  const ptx_region *hit = NULL;
  for (unsigned k = 0; k < L->nregions; k++)
    if (addr - L->regions[k].base < L->regions[k].size) {
      if (hit) return NULL;
      hit = &L->regions[k];
    }
  *fresh = hit != NULL;
  return hit;
}
/* rows_inside's lanes: whether every lane's offset base[l] - b0 (mod 2^64) is at most lim (their
 * largest is) and the addresses base[l] + off or'ed have no bit of am (aligned) */
static inline bool inside_lanes(const uint64_t *base, uint64_t b0, uint64_t lim, uint64_t off, uint64_t am,
                                uint32_t mask) {
  uint64_t mx = 0, al = 0;
  PTX_LANES(mask, {
    uint64_t x = base[l] - b0;
    mx = x > mx ? x : mx;
    al |= base[l] + off;
  });
  return mx <= lim && !(al & am);
}
/* rows_shared's lanes: at[l], the 32-bit address base[l] + off; r: their smallest, largest, or'ed */
static inline void shared_lanes(const uint64_t *base, uint64_t off, uint32_t *at, uint32_t *r, uint32_t mask) {
  uint32_t mn = UINT32_MAX, mx = 0, al = 0;
  PTX_LANES(mask, {
    uint32_t a = (uint32_t)(base[l] + off);
    at[l] = a;
    mn = a < mn ? a : mn;
    mx = a > mx ? a : mx;
    al |= a;
  });
  r[0] = mn, r[1] = mx, r[2] = al;
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* the same for a whole warp compiled for AVX2 (issue 50, size: SSE2 has no 64-bit compare nor
 * 32-bit min/max to take the loops by rows), called where the host has it (PTX_ROWS_AVX2) */
/* inside_lanes of any mask written out by four lanes a row (session 13, bc: the compiler's loop took
 * a third of upsample_bicubic2d_aa's ld.global time, its part-warp loop lane by lane): a lane's offset
 * above lim by the signed compare of both with the sign bit flipped, the lanes outside mask none */
__attribute__((target("avx2"))) static bool inside_lanes_avx2(const uint64_t *base, uint64_t b0, uint64_t lim,
                                                              uint64_t off, uint64_t am, uint32_t mask) {
  const __m256i sg = _mm256_set1_epi64x((long long)0x8000000000000000ull), bit = _mm256_setr_epi64x(1, 2, 4, 8);
  const __m256i vb = _mm256_set1_epi64x((long long)b0), vo = _mm256_set1_epi64x((long long)off);
  const __m256i vl = _mm256_xor_si256(_mm256_set1_epi64x((long long)lim), sg);
  __m256i bad = _mm256_setzero_si256(), al = _mm256_setzero_si256();
  if (mask == 0xFFFFFFFFu) /* every lane: no lane's bits to test */
    for (unsigned q = 0; q < 32; q += 4) {
      __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(base + q));
      bad = _mm256_or_si256(bad, _mm256_cmpgt_epi64(_mm256_xor_si256(_mm256_sub_epi64(x, vb), sg), vl));
      al = _mm256_or_si256(al, _mm256_add_epi64(x, vo));
    }
  for (unsigned q = 0; q < 32 && mask != 0xFFFFFFFFu; q += 4) {
    __m256i on = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)(mask >> q)), bit), bit);
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(base + q));
    __m256i over = _mm256_cmpgt_epi64(_mm256_xor_si256(_mm256_sub_epi64(x, vb), sg), vl); /* x - b0 > lim */
    bad = _mm256_or_si256(bad, _mm256_and_si256(over, on));
    al = _mm256_or_si256(al, _mm256_and_si256(_mm256_add_epi64(x, vo), on));
  }
  return _mm256_testz_si256(bad, bad) && _mm256_testz_si256(al, _mm256_set1_epi64x((long long)am));
}
__attribute__((target("avx2"))) static void shared_lanes_avx2(const uint64_t *base, uint64_t off, uint32_t *at,
                                                              uint32_t *r) {
  shared_lanes(base, off, at, r, 0xFFFFFFFFu);
}
#else
#define inside_lanes_avx2(base, b0, lim, off, am, mask) inside_lanes(base, b0, lim, off, am, mask)
#define shared_lanes_avx2(base, off, at, r) shared_lanes(base, off, at, r, 0xFFFFFFFFu)
#endif
/* whether every lane of mask accesses [base + off, + eb) inside r, aligned (b0 = r's base less off) */
static inline bool rows_inside(const ptx_region *r, const uint64_t *base, int64_t off, unsigned eb, uint32_t mask) {
  if (eb > r->size) return false;
  uint64_t lim = r->size - eb, b0 = r->base - (uint64_t)off;
  return PTX_HAS_AVX2() ? inside_lanes_avx2(base, b0, lim, (uint64_t)off, eb - 1, mask)
                       : inside_lanes(base, b0, lim, (uint64_t)off, eb - 1, mask);
}
/* a whole mask's loads of eb bytes, lane l's at h + ((base[l] + add) & am), as ptx_ld_value
 * gives each (its switch taken once for the mask, not per lane) */
static inline void load_rows(uint64_t *d, const uint8_t *h, const uint64_t *base, uint64_t add, uint64_t am,
                             unsigned eb, bool sgn, uint64_t rm, uint32_t mask) {
#define AT(l) (h + ((base[l] + add) & am))
  switch (eb) {
  case 1: PTX_LANES(mask, d[l] = ptx_ld_value(AT(l), 1, sgn, rm)); break;
  case 2: PTX_LANES(mask, d[l] = ptx_ld_value(AT(l), 2, sgn, rm)); break;
  case 4: PTX_LANES(mask, d[l] = ptx_ld_value(AT(l), 4, sgn, rm)); break;
  default: PTX_LANES(mask, d[l] = ptx_ld_value(AT(l), 8, sgn, rm)); break;
  }
#undef AT
}
/* a whole mask's stores of eb bytes, as load_rows's addresses, as ptx_st_value makes each */
static inline void store_rows(uint8_t *h, const uint64_t *src, const uint64_t *base, uint64_t add, uint64_t am,
                              unsigned eb, uint32_t mask) {
#define AT(l) (h + ((base[l] + add) & am))
  switch (eb) {
  case 1: PTX_LANES(mask, ptx_st_value(AT(l), 1, src[l])); break;
  case 2: PTX_LANES(mask, ptx_st_value(AT(l), 2, src[l])); break;
  case 4: PTX_LANES(mask, ptx_st_value(AT(l), 4, src[l])); break;
  default: PTX_LANES(mask, ptx_st_value(AT(l), 8, src[l])); break;
  }
#undef AT
}
/* ld.global of one register by the whole mask, fast: every lane's address inside one buffer
 * (rows_region), aligned, no store buffer nor late load (no seeded schedule's): what x_ld1's
 * loop gives each lane then, and the warp's buffers as it leaves them, with the element
 * size's load out of the loop. false: not so, nothing done, the loop's turn */
static bool ld_global_rows(ptx_warp *w, uint64_t *d, const uint64_t *base, int64_t off, unsigned eb, bool sgn,
                           uint64_t rm, uint32_t mask) {
  bool fresh;
  uint64_t a0 = mask ? base[__builtin_ctz(mask)] + (uint64_t)off : 0;
  const ptx_region *r = mask && !w->sb_n ? rows_region(w, a0, &fresh) : NULL;
  if (!r || !rows_inside(r, base, off, eb, mask)) return false;
  if (fresh) remember_region(w, a0);
  load_rows(d, r->host, base, (uint64_t)off - r->base, ~0ull, eb, sgn, rm, mask);
  return true;
}
/* st.global of one register by the whole mask, fast: as ld_global_rows, for x_st1's loop
 * when no store is buffered (no seeded schedule's) */
static bool st_global_rows(ptx_warp *w, const uint64_t *src, const uint64_t *base, int64_t off, unsigned eb,
                           uint32_t mask) {
  bool fresh;
  uint64_t a0 = mask ? base[__builtin_ctz(mask)] + (uint64_t)off : 0;
  const ptx_region *r = mask ? rows_region(w, a0, &fresh) : NULL;
  if (!r || !rows_inside(r, base, off, eb, mask)) return false;
  if (fresh) remember_region(w, a0);
  store_rows(r->host, src, base, (uint64_t)off - r->base, ~0ull, eb, mask);
  return true;
}
/* whether every lane of mask accesses [base + off, + eb) of the CTA's shared memory past the
 * reserved KiB, aligned (shared_fast's test, 32-bit addresses; at[l]: lane l's address; *one:
 * every lane's the same) */
static inline bool rows_shared(const tc5_smem *s, const uint64_t *base, int64_t off, unsigned eb, uint32_t mask,
                               uint32_t *at, bool *one) {
  /* every lane's address past the reserved KiB and its bytes inside: the smallest and the
   * largest are; aligned: the addresses' bits or'ed */
  uint32_t r[3];
  if (PTX_ROWS_AVX2(mask)) shared_lanes_avx2(base, (uint64_t)off, at, r);
  else shared_lanes(base, (uint64_t)off, at, r, mask);
  uint32_t mn = r[0], mx = r[1], al = r[2];
  *one = mn == mx;
  return mn >= 1024 && (uint64_t)mx + eb <= s->size && !(al & (eb - 1));
}
/* ld.shared of one register by the whole mask, fast (issue 50, size): every lane's address as
 * rows_shared says, no other CTA's access recorded (chk_has_remote): the checker asked lane by
 * lane in the loop's order (shared_fast_ld's calls; it reads no byte of shared memory), then
 * the element size's load out of the loop. false: not so, nothing done, the loop's turn */
/* ld_shared_rows's test and checker work for an access of n bytes a lane (at[l]: lane l's address) */
static bool shared_rows_read(ptx_warp *w, const ptx_insn *in, chk_rd *f, const uint64_t *base, int64_t off,
                             unsigned n, uint32_t mask, uint32_t *at, bool *one) {
  tc5_smem *s = &w->cta->smem;
  chk_cta *k = w->cta->chk;
  if (!mask || (k && chk_has_remote(k)) || !rows_shared(s, base, off, n, mask, at, one)) return false;
  /* every lane at one address (Triton's reads of a reduction's partial results, [global_smem+K]):
   * chk_rd_rows of the first lane alone is that of them all (the same granule and bytes, the event
   * the first lane's); not so, nothing changed, the lanes' way below */
  if (k && *one && f->ok && chk_rd_rows(f, at, n, mask & (0u - mask))) return true;
  /* the lanes in order; the lanes left at once (chk_rd_rows) where the checker's state lets all of
   * them take chk_rd_lane's way: at first and after a lane that took the general path (twice at most) */
  for (uint32_t left = mask, fresh = 1, tries = 2; k && left;) {
    if (fresh && f->ok && tries && (tries--, chk_rd_rows(f, at, n, left))) break;
    unsigned l = (unsigned)__builtin_ctz(left);
    left &= left - 1;
    fresh = !chk_rd_lane(f, (int)l, at[l], n);
    if (fresh) {
      chk_smem_read(CHK_W(w), CHK_IN(w, in), (int)l, at[l], n);
      chk_rd_begin(f, k, CHK_W(w), CHK_IN(w, in), n);
    }
  }
  return true;
}
/* (out of x_ld1: inlined, its one-address way made x_ld1's global loads slower, bicubic_gen 0.97x) */
__attribute__((noinline)) static bool ld_shared_rows(ptx_warp *w, const ptx_insn *in, chk_rd *f, uint32_t dreg,
                                                     const uint64_t *base, int64_t off, unsigned eb, bool sgn,
                                                     uint64_t rm, uint32_t mask) {
  uint32_t at[32];
  bool one;
  if (!shared_rows_read(w, in, f, base, off, eb, mask, at, &one)) return false;
  uint64_t *d = PTX_R(w, dreg);
  if (one) { /* one value (read before a lane of d, maybe base, is written) */
    uint64_t v = ptx_ld_value(w->cta->smem.bytes + at[__builtin_ctz(mask)], eb, sgn, rm);
    if (mask == 0xFFFFFFFFu && w->ub && !w->chk_pending) /* in w->u0 alone, as x_ld's lanes at one address */
      w->ub[dreg] = PTX_UB | PTX_LZ, w->u0[dreg] = v;
    else
      lanes_fill(d, mask, v);
    return true;
  }
  load_rows(d, w->cta->smem.bytes, base, (uint64_t)off, 0xffffffffu, eb, sgn, rm, mask); /* 32-bit shared addresses */
  return true;
}
/* ld.shared.v2 / .v4 of the CTA's shared memory by the whole mask, fast: ld_shared_rows for the
 * vector's n = eb * nv bytes a lane (shared_fast_ld's test and checker calls for n, lane by lane
 * in the loop's order), then each element from the lanes' addresses taken before any is written
 * (a destination may be the address register, as x_ld's loop reads each lane's address first) */
static bool ldv_shared_rows(ptx_warp *w, const ptx_insn *in, chk_rd *f, uint64_t *const *dk, const uint64_t *mk,
                            const uint64_t *base, int64_t off, unsigned eb, unsigned nv, bool sgn, uint32_t mask) {
  uint32_t at[32];
  bool one;
  if (!shared_rows_read(w, in, f, base, off, eb * nv, mask, at, &one)) return false;
  const uint8_t *h = w->cta->smem.bytes;
  for (unsigned k = 0; k < nv; k++) PTX_LANES(mask, dk[k][l] = ptx_ld_value(h + at[l] + k * eb, eb, sgn, mk[k]));
  return true;
}
/* the written bits of the mask's lanes' n bytes at at[l] (each aligned to n: rows_shared), as ptx_mark_written
 * sets them lane by lane; 16 bytes: two whole bytes of the map (session 16, ft: st.shared.v4.b32 of the sort) */
static inline void mark_rows(tc5_smem *s, const uint32_t *at, unsigned n, uint32_t mask) {
  if (n == 16) PTX_LANES(mask, s->written[at[l] >> 3] = s->written[(at[l] >> 3) + 1] = 0xFFu);
  else PTX_LANES(mask, ptx_mark_written(s, at[l], n));
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* st.shared.v4.b32 / .v2.b64 of a whole warp (16 bytes a lane at h + at[l], each aligned to 16: rows_shared), by
 * four lanes: the elements' low words paired (v4: s0 | s1 << 32, s2 | s3 << 32; v2: s0, s1), each lane's 16 bytes
 * one store, the lanes in order (two lanes at one address: the later lane's bytes, as store_rows' elements give
 * them) (session 16, ft: the radix sort's sweep stores 5 a bin a warp so) */
__attribute__((target("avx2"))) static void store_rows16_avx2(uint8_t *h, const uint64_t *const *src, unsigned nv,
                                                              const uint32_t *at) {
  const __m256i lo = _mm256_set1_epi64x(0xffffffffll);
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(src[0] + l));
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(src[1] + l));
    if (nv == 4) {
      __m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(src[2] + l));
      __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src[3] + l));
      x = _mm256_or_si256(_mm256_and_si256(x, lo), _mm256_slli_epi64(y, 32));
      y = _mm256_or_si256(_mm256_and_si256(u, lo), _mm256_slli_epi64(v, 32));
    }
    __m256i a = _mm256_unpacklo_epi64(x, y), b = _mm256_unpackhi_epi64(x, y); /* lanes l, l + 2 | l + 1, l + 3 */
    _mm_storeu_si128((__m128i *)(void *)(h + at[l]), _mm256_castsi256_si128(a));
    _mm_storeu_si128((__m128i *)(void *)(h + at[l + 1]), _mm256_castsi256_si128(b));
    _mm_storeu_si128((__m128i *)(void *)(h + at[l + 2]), _mm256_extracti128_si256(a, 1));
    _mm_storeu_si128((__m128i *)(void *)(h + at[l + 3]), _mm256_extracti128_si256(b, 1));
  }
}
#else
#define store_rows16_avx2(h, src, nv, at) ((void)0)
#endif
/* st.shared of one register (nv 1, src[0]) or of a vector's nv (.v2, .v4: src[k], eb bytes each, n = eb * nv
 * a lane) by the whole mask, fast: as ld_shared_rows, no seeded schedule (its proxies keep a granule's bytes
 * before its first store): shared_fast's work for n bytes lane by lane (the checker's store, the written bits),
 * then each element's stores (the lanes' n bytes aligned to n: two lanes' the same or apart, the last lane's
 * last either way, as x_st's loop) */
static bool st_shared_rows(ptx_warp *w, const ptx_insn *in, const uint64_t *const *src, unsigned nv, const uint64_t *base,
                           int64_t off, unsigned eb, uint32_t mask) {
  tc5_smem *s = &w->cta->smem;
  chk_cta *k = w->cta->chk;
  uint32_t at[32];
  const unsigned n = eb * nv;
  bool one;
  eb = n; /* (the checker's and the written bits' bytes a lane below) */
  if (!mask || w->cta->cl->sched || (k && chk_has_remote(k))) return false;
  if (!(mask & (mask - 1))) { /* one lane (Triton's partial results stored by a warp's last lane): the loop's one
                               * step below, chk_smem_store_run without chk_smem_store_rows' try for that lane first
                               * (the same conditions or fewer, the same effects when both take their common case) */
    unsigned l = (unsigned)__builtin_ctz(mask);
    uint32_t a = (uint32_t)(base[l] + (uint64_t)off), last = UINT32_MAX;
    if (!shared_fits(s, a, eb)) return false;
    if (k) chk_smem_store_run(CHK_W(w), CHK_IN(w, in), (int)l, a, eb, &last);
    ptx_mark_written(s, a, eb);
    for (unsigned e = 0; e < nv; e++) ptx_st_value(s->bytes + a + e * (n / nv), n / nv, src[e][l]);
    return true;
  }
  if (!rows_shared(s, base, off, eb, mask, at, &one)) return false;
  /* every lane at one address (Triton's stores of a reduction's results by every lane, [global_smem+K]):
   * chk_smem_store_rows of the first lane alone is that of them all (the same granule and bytes, the event
   * the first lane's), the written bits the first lane's, the bytes the last lane's (store_rows' last);
   * the checker's common case not so, nothing changed, the lanes' way below */
  if (one && (!k || chk_smem_store_rows(CHK_W(w), CHK_IN(w, in), at, eb, mask & (0u - mask)))) {
    unsigned f0 = (unsigned)__builtin_ctz(mask), la = 31u - (unsigned)__builtin_clz(mask);
    ptx_mark_written(s, at[f0], eb);
    for (unsigned e = 0; e < nv; e++) ptx_st_value(s->bytes + at[la] + e * (n / nv), n / nv, src[e][la]);
    return true;
  }
  uint32_t last = UINT32_MAX; /* chk_smem_store_run's, through the lanes */
  /* the lanes in order; the lanes left at once (chk_smem_store_rows) where the checker's state lets
   * all of them take chk_smem_store_run's common case: at first and after a lane that did not (twice
   * at most) */
  for (uint32_t left = mask, tries = 2; left;) {
    if (!k || (last == UINT32_MAX && tries && (tries--, chk_smem_store_rows(CHK_W(w), CHK_IN(w, in), at, eb, left)))) {
      mark_rows(s, at, eb, left); /* (the common case reads no written bit) */
      break;
    }
    unsigned l = (unsigned)__builtin_ctz(left);
    left &= left - 1;
    chk_smem_store_run(CHK_W(w), CHK_IN(w, in), (int)l, at[l], eb, &last);
    ptx_mark_written(s, at[l], eb);
  }
  if (n == 16 && (nv == 2 || nv == 4) && PTX_ROWS_AVX2(mask)) {
    store_rows16_avx2(s->bytes, src, nv, at);
    return true;
  }
  for (unsigned e = 0; e < nv; e++) /* 32-bit shared addresses */
    store_rows(s->bytes, src[e], base, (uint64_t)off + (uint64_t)e * (n / nv), 0xffffffffu, n / nv, mask);
  return true;
}
static PTX_EXEC(x_ld1) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *base = PTX_R(w, in->o[1].reg);
  int64_t off = in->o[1].imm;
  unsigned eb = in->aux;
  unsigned rb = w->cta->L->m->reg_bits[in->o[0].reg];
  uint64_t rm = rb >= 64 ? ~0ull : (1ull << rb) - 1;
  bool sgn = in->mods & 1;
  bool global = in->space == PS_GLOBAL, shared = in->space == PS_SHARED, param = in->space == PS_PARAM;
  if (param && mask && param_uniform(w, d, base, off, eb, sgn, rm, mask)) { /* first: nothing below applies to it */
    w->ldq_on = false; /* as the loop below leaves it (late is false for .param) */
    w->ldq_fenced = w->ldq_sc = false;
    return PX_NEXT;
  }
  bool dsmem = in->space == PS_SHARED_CLUSTER; /* another CTA's stores to it may be buffered (x_st1) */
  bool part = (global || dsmem) && w->cta->cl->sb_warps != 0; /* stores in store buffers (seeded schedules) */
  /* under a seeded schedule, a weak or relaxed load of global memory is
   * read late half the time (ptx_ldq_due says when it must be read) */
  bool late = global && w->cta->cl->sched &&
              (in->traits.sem == ISEM_NONE || in->traits.sem == ISEM_WEAK || in->traits.sem == ISEM_RELAXED) &&
              (ptx_splitmix(&w->cta->cl->sched->sb_rng) & 1);
  if (late) {
    struct ptx_ldq *q = &w->ldq;
    q->mask = mask, q->reg = in->o[0].reg, q->eb = (uint8_t)eb, q->sgn = sgn, q->rm = rm;
  }
  chk_rd f = {0};
  if (shared && w->cta->chk) chk_rd_begin(&f, w->cta->chk, CHK_W(w), CHK_IN(w, in), eb);
  if ((global && !late && !part && ld_global_rows(w, d, base, off, eb, sgn, rm, mask)) ||
      (shared && ld_shared_rows(w, in, &f, in->o[0].reg, base, off, eb, sgn, rm, mask))) {
    w->ldq_on = false; /* as the loop below leaves it */
    w->ldq_fenced = w->ldq_sc = false;
    return PX_NEXT;
  }
  PTX_LANES(mask, {
    uint64_t addr = base[l] + (uint64_t)off;
    const uint8_t *p = global ? global_fast(w, addr, eb) : shared ? shared_fast_ld(w, in, &f, l, addr, eb)
                       : param ? param_fast(w, addr, eb) : NULL;
    if (!p) {
      p = ptx_mem(w, in, (int)l, in->space, addr, eb, false);
      if (!p) return PX_ERROR;
      if (global) remember_region(w, addr);
    }
    if (__builtin_expect(w->sb_n != 0, 0) && (global || dsmem) && ptx_sb_overlaps(w, p, eb)) ptx_sb_drain(w); /* its own stores */
    if (__builtin_expect(late, 0)) {
      w->ldq.p[l] = p, w->ldq.a[l] = addr;
      continue;
    }
    uint8_t ov[8];
    if (__builtin_expect(part, 0)) p = ptx_sb_view(w, p, eb, ov); /* other warps' stores its CTA sees (machine.c) */
    d[l] = ptx_ld_value(p, eb, sgn, rm);
  });
  w->ldq_on = late;
  w->ldq_fenced = w->ldq_sc = false;
  return PX_NEXT;
}
/* a store the store buffer may keep (seeded schedules, issue 53): weak or
 * relaxed (.volatile is relaxed), not a release nor .mmio */
static inline bool sb_ok(const ptx_insn *in) {
  return in->traits.sem == ISEM_NONE || in->traits.sem == ISEM_WEAK || in->traits.sem == ISEM_RELAXED ||
         in->traits.sem == ISEM_VOLATILE || (in->traits.sem == ISEM_RELEASE && in->traits.scope == ISC_CTA);
}
static PTX_EXEC(x_st1) {
  const uint64_t *base = PTX_R(w, in->o[0].reg), *src = PTX_R(w, in->o[1].reg);
  int64_t off = in->o[0].imm;
  unsigned eb = in->aux;
  bool global = in->space == PS_GLOBAL, shared = in->space == PS_SHARED;
  /* st.shared::cluster to another CTA's shared memory too (distributed
   * shared memory: that CTA may read the old value until a release at
   * cluster scope, issue 53) */
  bool dsmem = in->space == PS_SHARED_CLUSTER;
  bool buf = (global || dsmem) && w->cta->cl->sched && sb_ok(in);
  /* a release at .cluster scope or wider: the warp's earlier stores and those its CTA sees first
   * (cumulativity); a .cta release is kept in the buffer after them (a CTA sees them in order) */
  if ((global || dsmem) && !buf && (w->sb_n | w->cta->cl->sb_part)) ptx_sb_release_all(w);
  if (buf && in->traits.sem == ISEM_RELEASE) ptx_sb_epoch(w, true); /* after the earlier ones, for its CTA */
  if ((global && !buf && st_global_rows(w, src, base, off, eb, mask)) ||
      (shared && st_shared_rows(w, in, &src, 1, base, off, eb, mask)))
    return PX_NEXT;
  PTX_LANES(mask, {
    uint64_t addr = base[l] + (uint64_t)off;
    uint8_t *p = global ? global_fast(w, addr, eb) : shared ? shared_fast(w, in, l, addr, eb, true) : NULL;
    if (!p) {
      p = ptx_mem(w, in, (int)l, in->space, addr, eb, true);
      if (!p) return PX_ERROR;
      if (global) remember_region(w, addr);
    }
    uint64_t v = src[l];
    /* the CTA's own shared memory through a cluster address: at once */
    if (buf && !(dsmem && p >= w->cta->smem.bytes && p < w->cta->smem.bytes + w->cta->smem.size)) ptx_sb_put(w, p, &v, eb);
    else memcpy(p, &v, eb);
  });
  return PX_NEXT;
}
/* an access of the CTA's own shared memory, not an mbarrier's or the async proxy's (x_ld, x_st):
 * shared_fast does what ptx_mem's shared case does for it at an in-bounds aligned address (the
 * checker's access, the same bytes) */
static inline bool plain_shared(const ptx_insn *in) {
  return in->space == PS_SHARED && !(in->flags & (PF_MBAR | PF_ASYNC));
}
/* in->aux = element bytes, in->vec = elements, in->space; in->mods bit 0:
 * sign-extend */
static PTX_EXEC(x_ld) {
  const ptx_opnd *dst = &in->o[0], *ad = &in->o[1];
  const uint64_t *base = PTX_R(w, ad->reg);
  unsigned eb = in->aux, nv = in->vec;
  const tc5_ptx_module *m = w->cta->L->m;
  const uint32_t *vr = dst->kind == PO_VEC ? m->vregs + dst->vec : &dst->reg;
  bool sgn = in->mods & 1, global = in->space == PS_GLOBAL;
  if (w->sb_n | w->cta->cl->sb_part) ptx_sb_release_all(w); /* the store buffers (seeded schedules) first */
  uint64_t *dk[8], mk[8]; /* each element's register and its width's mask */
  for (unsigned k = 0; k < nv && k < 8; k++) {
    unsigned rb = m->reg_bits[vr[k]];
    dk[k] = PTX_R(w, vr[k]);
    mk[k] = rb < 64 ? (1ull << rb) - 1 : ~0ull;
  }
  bool shared = plain_shared(in);
  chk_rd f = {0};
  if (shared && w->cta->chk) chk_rd_begin(&f, w->cta->chk, CHK_W(w), CHK_IN(w, in), eb * nv);
  /* every lane of the mask at one address of shared memory (Triton's reads of a reduction's or
   * a scan's partial results, [global_smem+K]): the lanes in order until the rest would each
   * find what a lane before them found (ld_same_settled), which then take the first lane's values */
  uint32_t left = mask;
  unsigned f0 = (unsigned)__builtin_ctz(mask | 0x80000000u);
  /* (an address register with its ub bit: its lanes one value, filled for the mask: run.c ub_fill) */
  bool same = shared && (mask & (mask - 1)) && ((w->ub && (w->ub[ad->reg] & PTX_UB)) || lanes_same(base, mask));
  if (shared && !same && nv * eb <= 16 && ldv_shared_rows(w, in, &f, dk, mk, base, ad->imm, eb, nv, sgn, mask))
    return PX_NEXT;
  /* a whole warp at one global address (session 16, ft: the radix sort's sweep reads its bin's offset and polls its
   * lookback so, an ld.global of one word a bin): the first lane's load is every lane's (global_fast reads no state,
   * and a ptx_mem that finds the buffer leaves it in the warp's last buffers, where a later lane's global_fast finds
   * it again; the store buffers were released above), its values filled into the lanes as the loop would */
  if (global && mask == 0xFFFFFFFFu && nv <= 8 && ((w->ub && (w->ub[ad->reg] & PTX_UB)) || lanes_same(base, mask))) {
    uint64_t addr = base[0] + (uint64_t)ad->imm, v[8];
    const uint8_t *p = global_fast(w, addr, eb * nv);
    if (!p) {
      p = ptx_mem(w, in, 0, in->space, addr, eb * nv, false);
      if (!p) return PX_ERROR;
      remember_region(w, addr);
    }
    for (unsigned k = 0; k < nv; k++) v[k] = ptx_ld_value(p + k * eb, eb, sgn, mk[k]);
    for (unsigned k = 0; k < nv; k++) lanes_fill(dk[k], mask, v[k]);
    return PX_NEXT;
  }
  const uint64_t addr0 = same ? base[f0] + (uint64_t)ad->imm : 0; /* (before a lane's value may overwrite base) */
  /* one address: the first lane's values held in v0 (held) until a later lane takes its own path (then
   * into their rows first, as the lanes one by one) or the lanes settle (then maybe into w->u0 alone) */
  uint64_t v0[8];
  bool held = false;
  while (left) {
    unsigned l = (unsigned)__builtin_ctz(left);
    uint64_t addr = same ? addr0 : base[l] + (uint64_t)ad->imm;
    if (same && l != f0 && ld_same_settled(w, &f, addr, eb * nv)) break;
    if (held) {
      for (unsigned k = 0; k < nv; k++) dk[k][f0] = v0[k];
      held = false;
    }
    const uint8_t *p = global ? global_fast(w, addr, eb * nv) /* the warp's last buffers */
                       : shared ? shared_fast_ld(w, in, &f, l, addr, eb * nv) : NULL;
    if (!p) {
      p = ptx_mem(w, in, (int)l, in->space, addr, eb * nv, false);
      if (!p) return PX_ERROR;
      if (global) remember_region(w, addr);
    }
    if (same && l == f0) {
      for (unsigned k = 0; k < nv && k < 8; k++) v0[k] = ptx_ld_value(p + k * eb, eb, sgn, mk[k]);
      held = true;
    } else {
      for (unsigned k = 0; k < nv; k++) dk[k][l] = ptx_ld_value(p + k * eb, eb, sgn, mk[k]);
    }
    left &= left - 1;
  }
  /* a whole warp: the lanes before `left` read the same bytes as the first, so every lane takes its value,
   * left in lane 0 alone where run_warp keeps registers of one value so (w->ub's PTX_LZ: run.c ub_run; not while the
   * checker follows registers): the rows not written */
  if (left && mask == 0xFFFFFFFFu && w->ub && !w->chk_pending) {
    for (unsigned k = 0; k < nv; k++) w->ub[vr[k]] = PTX_UB | PTX_LZ, w->u0[vr[k]] = held ? v0[k] : dk[k][f0];
    return PX_NEXT;
  }
  if (held)
    for (unsigned k = 0; k < nv; k++) dk[k][f0] = v0[k];
  for (unsigned k = 0; k < nv && left; k++) lanes_fill(dk[k], mask == 0xFFFFFFFFu ? mask : left, dk[k][f0]);
  return PX_NEXT;
}
static PTX_EXEC(x_st) {
  const ptx_opnd *ad = &in->o[0], *src = &in->o[1];
  const uint64_t *base = PTX_R(w, ad->reg);
  unsigned eb = in->aux, nv = in->vec;
  const uint32_t *vr = src->kind == PO_VEC ? w->cta->L->m->vregs + src->vec : &src->reg;
  if (w->sb_n | w->cta->cl->sb_part) ptx_sb_release_all(w); /* the store buffers (seeded schedules) first */
  bool global = in->space == PS_GLOBAL;
  bool shared = plain_shared(in);
  const uint64_t *sk[8];
  for (unsigned k = 0; k < nv && k < 8; k++) sk[k] = PTX_R(w, vr[k]);
  if (shared && nv <= 8 && st_shared_rows(w, in, sk, nv, base, ad->imm, eb, mask)) return PX_NEXT;
  PTX_LANES(mask, {
    uint64_t addr = base[l] + (uint64_t)ad->imm;
    uint8_t *p = global ? global_fast(w, addr, eb * nv) /* the warp's last buffers */
                 : shared ? shared_fast(w, in, l, addr, eb * nv, true) : NULL;
    if (!p) {
      p = ptx_mem(w, in, (int)l, in->space, addr, eb * nv, true);
      if (!p) return PX_ERROR;
      if (global) remember_region(w, addr);
    }
    for (unsigned k = 0; k < nv; k++) ptx_st_value(p + k * eb, eb, sk[k][l]);
  });
  return PX_NEXT;
}

/* ld / st .b128 of a .b128 register (its halves in reg and reg + 1) */
static PTX_EXEC(x_ldst128) {
  bool store = in->mods & 2;
  const ptx_opnd *ad = &in->o[store ? 0 : 1];
  uint32_t reg = in->o[store ? 1 : 0].reg;
  if (w->sb_n | w->cta->cl->sb_part) ptx_sb_release_all(w); /* the store buffers (seeded schedules) first */
  PTX_LANES(mask, {
    uint64_t addr = PTX_R(w, ad->reg)[l] + (uint64_t)ad->imm;
    uint8_t *p = ptx_mem(w, in, (int)l, in->space, addr, 16, store);
    if (!p) return PX_ERROR;
    for (unsigned h = 0; h < 2; h++) {
      if (store) memcpy(p + 8 * h, &PTX_R(w, reg + h)[l], 8);
      else memcpy(&PTX_R(w, reg + h)[l], p + 8 * h, 8);
    }
  });
  return PX_NEXT;
}

/* the qualifiers of ld/st that change nothing in a sequential model */
static void take_cache_ops(dctx *d) {
  static const char *const ign[] = {"weak", "volatile", "relaxed", "acquire", "release", "acq_rel", "mmio", "cta", "gpu",
                                    "sys", "cluster", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc",
                                    "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first",
                                    "L1::evict_last", "L1::no_allocate", "L2::evict_normal", "L2::evict_first",
                                    "L2::evict_last", "L2::64B", "L2::128B", "L2::256B", "L2::cache_hint",
                                    "unified", NULL};
  while (d_take_one(d, ign) >= 0) {
  }
}

static tc5_status dec_ldst(dctx *d, bool store) {
  ptx_insn *in = d->in;
  take_cache_ops(d);
  int sp = d_take_space(d);
  static const char *const vecs[] = {"v2", "v4", "v8", NULL};
  int v = d_take_one(d, vecs);
  ptx_type t = d_take_type(d);
  if (t == PT_NONE) return d_fail(d, TC5_EPARSE, "needs a type");
  if (t == PT_PRED) return d_fail(d, TC5_EILLEGAL, "ld/st do not take .pred");
  if (t == PT_B128 && v < 0) { /* a .b128 register */
    unsigned ai = store ? 0 : 1, vi = store ? 1 : 0;
    const ptx_raw_opnd *ro = &d->r->ops[vi];
    if (!d_nops(d, 2, 2) || !d_addr(d, ai, &in->o[ai], NULL)) return d->st;
    if (ro->kind != RO_REG || d->m->reg_bits[ro->reg] != 128) return d_fail(d, TC5_EPARSE, "ld/st .b128 needs a .b128 register");
    in->o[vi].kind = PO_REG;
    in->o[vi].reg = ro->reg;
    in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
    in->mods |= store ? 2 : 0;
    in->nops = 2;
    in->fn = x_ldst128;
    return TC5_OK;
  }
  if (ptx_types[t].bits > 64) return d_fail(d, TC5_EUNSUPPORTED, "%s.%s is not modelled", d->tok[0], ptx_types[t].name);
  in->type = (uint8_t)t;
  in->vec = (uint8_t)(v < 0 ? 1 : 2 << v);
  in->aux = ptx_types[t].bits / 8;
  if (ptx_types[t].cls == 's') in->mods |= 1;
  uint8_t hint = 0xff;
  unsigned ai = store ? 0 : 1, vi = store ? 1 : 0;
  if (!d_nops(d, 2, 3)) return d->st; /* a third operand: the L2 cache policy */
  if (!d_addr(d, ai, &in->o[0], &hint)) return d->st;
  if (sp < 0) sp = hint != 0xff ? hint : PS_GENERIC;
  if (sp == PS_PARAM && hint == PS_PARAM_LOCAL) sp = PS_PARAM_LOCAL;
  in->space = (uint8_t)sp;
  ptx_opnd val;
  const ptx_raw_opnd *ro = &d->r->ops[vi];
  if (ro->kind == RO_VEC) {
    if (!d_vec(d, vi, 0, !store, t, &val)) return d->st;
    if (val.n != in->vec) return d_fail(d, TC5_EPARSE, "the vector has %u elements, the opcode says %u", val.n, in->vec);
  } else {
    if (in->vec != 1) return d_fail(d, TC5_EPARSE, "a .v%u access needs a vector {...}", in->vec);
    if (!(store ? d_src(d, vi, t, &val) : d_dst(d, vi, &val))) return d->st;
  }
  /* operand 0 is the value for ld, the address for st: keep the order of
   * the semantics functions (ld: value, address; st: address, value) */
  if (store) {
    in->o[1] = val;
  } else {
    in->o[1] = in->o[0];
    in->o[0] = val;
  }
  in->nops = 2;
  /* a one-element vector ({%rs1}, as Triton writes) is a scalar */
  ptx_opnd *vo = &in->o[store ? 1 : 0];
  if (vo->kind == PO_VEC && vo->n == 1) {
    uint32_t reg = d->m->vregs[vo->vec];
    vo->kind = PO_REG;
    vo->reg = reg;
    vo->reg2 = PTX_NOREG;
  }
  bool scalar = in->vec == 1 && vo->kind == PO_REG;
  in->fn = store ? (scalar ? x_st1 : x_st) : (scalar ? x_ld1 : x_ld);
  return TC5_OK;
}
PTX_DEC(dec_ld) { return dec_ldst(d, false); }
static tc5_status dec_async_store(dctx *d, bool red);
PTX_DEC(dec_st) { return d_take(d, "async") ? dec_async_store(d, false) : dec_ldst(d, true); }

/* ---- atom / red ---- */
enum { A_ADD, A_AND, A_OR, A_XOR, A_CAS, A_EXCH, A_INC, A_DEC, A_MIN, A_MAX };
/* the new value of one atomic read-modify-write: op (A_*) of old and x
 * (c: cas's new value) on an eb-byte element of type t */
/* one half of atom/red .add.noftz.{f16,bf16}{x2}: the sum rounded once to
 * nearest even, subnormals kept (.noftz), as cp.reduce.async.bulk's f16/bf16
 * add (src/tma/tma.c: decoded, added in double, encoded by tc5_fmt_encode) */
static uint64_t atom_add16(bool bf, uint64_t a, uint64_t b) {
  tc5_type ft = bf ? TC5_BF16 : TC5_F16;
  double x = 0, y = 0;
  uint32_t code = 0;
  tc5_fmt_decode(ft, (uint32_t)a & 0xffff, &x, NULL);
  tc5_fmt_decode(ft, (uint32_t)b & 0xffff, &y, NULL);
  tc5_fmt_encode(ft, x + y, TC5_ROUND_RN, false, &code);
  return code & 0xffff;
}
/* one half of the vector atom/red .min/.max.noftz .{f16,bf16}{x2} (PTX ISA 8.1, sm_90): a NaN
 * operand gives the other, two NaNs the canonical NaN 0x7fff, -0 is below +0 (min.f16 without
 * .NaN, as the H200 gives it: tests/data/ptx/atom90) */
static uint64_t atom_minmax16(bool bf, bool max, uint64_t a, uint64_t b) {
  uint32_t x = (uint32_t)a & 0xffff, y = (uint32_t)b & 0xffff;
  uint32_t em = bf ? 0x7f80 : 0x7c00;
  bool xn = (x & em) == em && (x & ~em & 0x7fff), yn = (y & em) == em && (y & ~em & 0x7fff);
  if (xn && yn) return 0x7fff;
  if (xn) return y;
  if (yn) return x;
  double u = 0, v = 0;
  tc5_fmt_decode(bf ? TC5_BF16 : TC5_F16, x, &u, NULL);
  tc5_fmt_decode(bf ? TC5_BF16 : TC5_F16, y, &v, NULL);
  if (u == v) return ((x >> 15) != max) ? x : y; /* +-0: min takes the negative, max the positive */
  return (u < v) != max ? x : y;
}
/* atom/red .add.f32, as the H200 computes it (tests/data/ptx/atom90, global and shared memory):
 * rounded to nearest even; a NaN result is the canonical NaN 0x7fffffff whatever the inputs'
 * payloads (inf - inf too); on global memory (ftz) subnormal inputs and results are flushed to
 * zero of their sign (PTX ISA, atom: "Current implementation of atom.add.f32 on global memory
 * flushes subnormal inputs and results to sign-preserving zero"), on shared memory they are kept */
static uint32_t atom_add_f32(uint32_t a, uint32_t b, bool ftz) {
  if (ftz) {
    if (!(a & 0x7f800000)) a &= 0x80000000u;
    if (!(b & 0x7f800000)) b &= 0x80000000u;
  }
  float f, g;
  uint32_t r;
  memcpy(&f, &a, 4);
  memcpy(&g, &b, 4);
  f += g;
  memcpy(&r, &f, 4);
  if (f != f) return 0x7fffffffu;
  if (ftz && !(r & 0x7f800000)) r &= 0x80000000u;
  return r;
}
/* whether an access of this space at addr is to global memory (a generic address outside the
 * shared, local and parameter windows) */
static bool atom_global(uint8_t space, uint64_t addr) {
  if (space == PS_GLOBAL) return true;
  return space == PS_GENERIC && addr - PTX_GENERIC_SHARED >= PTX_WINDOW_SIZE && addr - PTX_GENERIC_LOCAL >= PTX_WINDOW_SIZE &&
         addr - PTX_GENERIC_PARAM >= PTX_WINDOW_SIZE;
}
static uint64_t atom_rmw(unsigned op, unsigned t, unsigned eb, uint64_t old, uint64_t x, uint64_t c, bool ftz) {
  char cls = ptx_types[t].cls;
  uint64_t wm = eb == 8 ? ~0ull : (1ull << (8 * eb)) - 1;
  if ((op == A_MIN || op == A_MAX) && (t == PT_F16 || t == PT_BF16 || t == PT_F16X2 || t == PT_BF16X2)) {
    bool bf = t == PT_BF16 || t == PT_BF16X2;
    uint64_t r = atom_minmax16(bf, op == A_MAX, old, x);
    if (eb == 4) r |= atom_minmax16(bf, op == A_MAX, old >> 16, x >> 16) << 16;
    return r;
  }
  switch (op) {
  case A_ADD:
    if (t == PT_F16 || t == PT_BF16 || t == PT_F16X2 || t == PT_BF16X2) {
      bool bf = t == PT_BF16 || t == PT_BF16X2;
      uint64_t r = atom_add16(bf, old, x);
      if (eb == 4) r |= atom_add16(bf, old >> 16, x >> 16) << 16;
      return r;
    }
    if (cls == 'f' && t == PT_F32) return atom_add_f32((uint32_t)old, (uint32_t)x, ftz);
    if (cls == 'f') {
      double f, g;
      uint64_t r;
      memcpy(&f, &old, 8);
      memcpy(&g, &x, 8);
      f += g;
      memcpy(&r, &f, 8);
      return r;
    }
    return (old + x) & wm;
  case A_AND: return old & x;
  case A_OR: return old | x;
  case A_XOR: return old ^ x;
  case A_CAS: return old == (x & wm) ? c & wm : old;
  case A_EXCH: return x & wm;
  case A_INC: return old >= (x & wm) ? 0 : old + 1;
  case A_DEC: return (old == 0 || old > (x & wm)) ? (x & wm) : old - 1;
  case A_MIN:
    if (cls == 's') return eb == 4 ? ((int32_t)old < (int32_t)x ? old : x & wm) : ((int64_t)old < (int64_t)x ? old : x);
    return old < (x & wm) ? old : x & wm;
  default:
    if (cls == 's') return eb == 4 ? ((int32_t)old > (int32_t)x ? old : x & wm) : ((int64_t)old > (int64_t)x ? old : x);
    return old > (x & wm) ? old : x & wm;
  }
}
static PTX_EXEC(x_atom) {
  bool red = in->mods & 2;
  const ptx_opnd *ad = &in->o[red ? 0 : 1];
  const uint64_t *base = PTX_R(w, ad->reg);
  const uint64_t *b = PTX_R(w, in->o[red ? 1 : 2].reg);
  const uint64_t *c = in->aux2 == A_CAS ? PTX_R(w, in->o[3].reg) : b;
  uint64_t *d = red ? NULL : PTX_R(w, in->o[0].reg);
  unsigned eb = in->aux, op = in->aux2, t = in->type;
  /* the addresses first (an error is reported under the launch's lock),
   * then every lane's read-modify-write in lane order under it */
  uint8_t *ptr[32];
  bool ftz[32];
  PTX_LANES(mask, {
    ptr[l] = ptx_mem(w, in, (int)l, in->space, base[l] + (uint64_t)ad->imm, eb, true);
    if (!ptr[l]) return PX_ERROR;
    ftz[l] = atom_global(in->space, base[l] + (uint64_t)ad->imm);
  });
  pthread_mutex_t *lock = w->cta->L->lock;
  pthread_mutex_lock(lock);
  PTX_LANES(mask, {
    uint64_t old = 0, r;
    memcpy(&old, ptr[l], eb);
    r = atom_rmw(op, t, eb, old, b[l], c[l], ftz[l]);
    memcpy(ptr[l], &r, eb);
    if (d) d[l] = old;
  });
  pthread_mutex_unlock(lock);
  return PX_NEXT;
}
/* the vector forms (PTX ISA 8.1, sm_90): atom/red .add.{v2,v4}.f32,
 * .{add,min,max}.noftz.{v2,v4,v8}.{f16,bf16} and .{v2,v4}.{f16x2,bf16x2} on global memory (or
 * a generic address of it): in->vec elements of in->aux bytes, each its own atomic operation
 * ("atomicity is guaranteed separately for each of the individual scalar elements"), d
 * (atom) the old values. The access is the vector's bytes, aligned to them. */
static PTX_EXEC(x_atom_vec) {
  bool red = in->mods & 2;
  const ptx_opnd *ad = &in->o[red ? 0 : 1];
  const tc5_ptx_module *m = w->cta->L->m;
  const uint32_t *br = m->vregs + in->o[red ? 1 : 2].vec, *dr = red ? NULL : m->vregs + in->o[0].vec;
  const uint64_t *base = PTX_R(w, ad->reg);
  unsigned eb = in->aux, nv = in->vec, op = in->aux2, t = in->type;
  uint8_t *ptr[32];
  PTX_LANES(mask, {
    uint64_t addr = base[l] + (uint64_t)ad->imm;
    if (!atom_global(in->space, addr))
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, addr,
                      "the generic address 0x%llx is not in global memory: vector %s works on .global only",
                      (unsigned long long)addr, red ? "red" : "atom");
    ptr[l] = ptx_mem(w, in, (int)l, in->space, addr, eb * nv, true);
    if (!ptr[l]) return PX_ERROR;
  });
  pthread_mutex_t *lock = w->cta->L->lock;
  pthread_mutex_lock(lock);
  PTX_LANES(mask, {
    for (unsigned k = 0; k < nv; k++) {
      uint64_t old = 0, r;
      memcpy(&old, ptr[l] + k * eb, eb);
      r = atom_rmw(op, t, eb, old, PTX_R(w, br[k])[l], 0, true); /* global memory only */
      memcpy(ptr[l] + k * eb, &r, eb);
      if (dr) PTX_R(w, dr[k])[l] = old;
    }
  });
  pthread_mutex_unlock(lock);
  return PX_NEXT;
}
static const char *const atom_ops[] = {"add", "and", "or", "xor", "cas", "exch", "inc", "dec", "min", "max", NULL};
static tc5_status dec_atom_vec(dctx *d, int op, bool red, int sp, unsigned nv, bool noftz, ptx_type t) {
  ptx_insn *in = d->in;
  const char *o = d->tok[0], *tn = ptx_types[t].name;
  bool h16 = t == PT_F16 || t == PT_BF16, h32 = t == PT_F16X2 || t == PT_BF16X2;
  if (t != PT_F32 && !h16 && !h32)
    return d_fail(d, TC5_EILLEGAL, "vector %s takes .f32, .f16, .bf16, .f16x2 or .bf16x2, not .%s", o, tn);
  if (t == PT_F32 ? op != A_ADD : (op != A_ADD && op != A_MIN && op != A_MAX))
    return d_fail(d, TC5_EILLEGAL, "vector %s.%s takes %s, not .%s", o, tn, t == PT_F32 ? ".add" : ".add, .min and .max",
                  atom_ops[op]);
  if (noftz != (t != PT_F32))
    return d_fail(d, TC5_EILLEGAL, "vector %s.%s.%s: .noftz %s", o, atom_ops[op], tn,
                  noftz ? "belongs to the f16/bf16 types" : "is required with f16/bf16 types");
  if (nv == 8 && !h16) return d_fail(d, TC5_EILLEGAL, "vector %s: .v8 takes .f16 and .bf16 (32-bit types take .v2 and .v4), not .%s", o, tn);
  if (sp >= 0 && sp != PS_GLOBAL)
    return d_fail(d, TC5_EILLEGAL, "vector %s works on .global memory (or a generic address of it) only", o);
  unsigned n = red ? 2 : 3;
  if (!d_nops(d, n, n + 1)) return d->st;
  in->type = (uint8_t)t;
  in->aux = ptx_types[t].bits / 8;
  in->aux2 = (uint32_t)op;
  in->vec = (uint8_t)nv;
  if (red) in->mods |= 2;
  unsigned a = red ? 0 : 1;
  if (!red && !d_vec(d, 0, nv, true, t, &in->o[0])) return d->st;
  if (!d_addr(d, a, &in->o[a], NULL) || !d_vec(d, a + 1, nv, false, t, &in->o[a + 1])) return d->st;
  if (d->r->nops == n + 1 && !d_src(d, n, PT_B64, &in->o[n])) return d->st; /* the cache policy, a hint */
  in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
  in->nops = (uint8_t)n;
  in->fn = x_atom_vec;
  return TC5_OK;
}
/* atom.{exch,cas}.b128 (sm_90): .b128 registers (halves in reg, reg + 1) */
static PTX_EXEC(x_atom128) {
  const ptx_opnd *ad = &in->o[1];
  uint32_t dr = in->o[0].reg, br = in->o[2].reg, cr = in->aux2 == A_CAS ? in->o[3].reg : br;
  uint8_t *ptr[32];
  PTX_LANES(mask, {
    ptr[l] = ptx_mem(w, in, (int)l, in->space, PTX_R(w, ad->reg)[l] + (uint64_t)ad->imm, 16, true);
    if (!ptr[l]) return PX_ERROR;
  });
  pthread_mutex_t *lock = w->cta->L->lock;
  pthread_mutex_lock(lock);
  PTX_LANES(mask, {
    uint64_t old[2], x[2] = {PTX_R(w, br)[l], PTX_R(w, br + 1)[l]}, nv[2] = {PTX_R(w, cr)[l], PTX_R(w, cr + 1)[l]};
    memcpy(old, ptr[l], 16);
    if (in->aux2 == A_EXCH) memcpy(ptr[l], x, 16);
    else if (old[0] == x[0] && old[1] == x[1]) memcpy(ptr[l], nv, 16);
    PTX_R(w, dr)[l] = old[0];
    PTX_R(w, dr + 1)[l] = old[1];
  });
  pthread_mutex_unlock(lock);
  return PX_NEXT;
}
/* st.async / red.async (sm_90): a store (or reduction) into the shared
 * memory of a CTA of the cluster that completes its bytes on that CTA's
 * mbarrier (.mbarrier::complete_tx::bytes); the forms without an mbarrier
 * (.release, PTX ISA 8.7) are ordered stores. in->aux = element bytes,
 * in->vec = elements, in->aux2 = A_* (red.async) or ~0u (st.async). In
 * this model the access is applied when it issues. */
static PTX_EXEC(x_async_store) {
  const ptx_opnd *ad = &in->o[0], *src = &in->o[1];
  unsigned eb = in->aux, nv = in->vec, op = in->aux2;
  const uint32_t *vr = src->kind == PO_VEC ? w->cta->L->m->vregs + src->vec : &src->reg;
  pthread_mutex_t *lock = w->cta->L->lock;
  PTX_LANES(mask, {
    uint64_t addr = PTX_R(w, ad->reg)[l] + (uint64_t)ad->imm;
    uint8_t *p = ptx_mem(w, in, (int)l, in->space, addr, eb * nv, true);
    if (!p) return PX_ERROR;
    if (op == ~0u) {
      for (unsigned k = 0; k < nv; k++) {
        uint64_t v = PTX_R(w, vr[k])[l];
        memcpy(p + k * eb, &v, eb);
      }
    } else {
      uint64_t old = 0, r;
      pthread_mutex_lock(lock);
      memcpy(&old, p, eb);
      r = atom_rmw(op, in->type, eb, old, PTX_R(w, vr[0])[l], 0, false); /* shared memory */
      memcpy(p, &r, eb);
      pthread_mutex_unlock(lock);
    }
    if (in->nops > 2) {
      uint32_t doff, boff;
      const ptx_opnd *mb = &in->o[2];
      uint64_t ba = PTX_R(w, mb->reg)[l] + (uint64_t)mb->imm;
      ptx_cta *dt = ptx_cluster_addr(w, in->space, addr, &doff), *bt = ptx_cluster_addr(w, in->space, ba, &boff);
      if (!bt || bt != dt)
        return ptx_fail(w, in, (int)l, TC5_EILLEGAL, ba,
                        "the mbarrier 0x%llx must be in the shared memory of the destination's CTA",
                        (unsigned long long)ba);
      int rc = ptx_mbar_complete_tx_lane(w, in, (int)l, PTX_CLUSTER_FORM(bt, boff), eb * nv);
      if (rc != PX_NEXT) return rc;
    }
  });
  return PX_NEXT;
}
static tc5_status dec_async_store(dctx *d, bool red) {
  ptx_insn *in = d->in;
  take_cache_ops(d);
  int sp = d_take_space(d);
  bool tx = d_take(d, "mbarrier::complete_tx::bytes");
  static const char *const vecs[] = {"v2", "v4", NULL};
  int v = red ? -1 : d_take_one(d, vecs);
  static const char *const ops[] = {"add", "and", "or", "xor", "cas", "exch", "inc", "dec", "min", "max", NULL};
  int op = red ? d_take_one(d, ops) : -1;
  ptx_type t = d_take_type(d);
  if (t == PT_NONE || (red && op < 0)) return d_fail(d, TC5_EPARSE, "%s.async needs %sa type", d->tok[0], red ? "an operation and " : "");
  unsigned W = ptx_types[t].bits;
  if (red) {
    /* .inc .dec: .u32; .min .max: .u32 .s32; .add: .u32 .s32 .u64; .and .or .xor: .b32 */
    bool ok = (op == A_INC || op == A_DEC)   ? t == PT_U32
              : (op == A_MIN || op == A_MAX) ? (t == PT_U32 || t == PT_S32)
              : op == A_ADD                  ? (t == PT_U32 || t == PT_S32 || t == PT_U64)
              : (op == A_AND || op == A_OR || op == A_XOR) ? t == PT_B32
                                                           : false;
    if (!ok) return d_fail(d, TC5_EILLEGAL, "red.async.%s does not take .%s", ops[op], ptx_types[t].name);
  } else if ((W != 32 && W != 64) || ptx_types[t].cls == 'p' || (v == 1 && W == 64)) {
    return d_fail(d, TC5_EILLEGAL, "st.async takes 32- or 64-bit types (.v4 32-bit only), not .%s%s", v == 1 ? "v4." : "",
                  ptx_types[t].name);
  }
  unsigned n = tx ? 3 : 2;
  if (!d_nops(d, n, n)) return d->st;
  if (tx && (sp < 0 ? PS_SHARED_CLUSTER : sp) != PS_SHARED_CLUSTER)
    return d_fail(d, TC5_EILLEGAL, ".mbarrier::complete_tx::bytes stores into .shared::cluster");
  if (!tx && sp == PS_SHARED_CLUSTER) return d_fail(d, TC5_EPARSE, "a .shared::cluster %s.async needs .mbarrier::complete_tx::bytes and an mbarrier", d->tok[0]);
  in->type = (uint8_t)t;
  in->aux = W / 8;
  in->vec = (uint8_t)(v < 0 ? 1 : 2 << v);
  in->aux2 = red ? (uint32_t)op : ~0u;
  in->space = (uint8_t)(sp < 0 ? (tx ? PS_SHARED_CLUSTER : PS_GLOBAL) : sp);
  in->flags |= tx ? PF_ASYNC : 0;
  if (!d_addr(d, 0, &in->o[0], NULL)) return d->st;
  if (d->r->ops[1].kind == RO_VEC) {
    if (!d_vec(d, 1, in->vec, false, t, &in->o[1])) return d->st;
  } else if (in->vec != 1) {
    return d_fail(d, TC5_EPARSE, "a .v%u access needs a vector {...}", in->vec);
  } else if (!d_src(d, 1, t, &in->o[1])) {
    return d->st;
  }
  if (tx && !d_addr(d, 2, &in->o[2], NULL)) return d->st;
  in->nops = (uint8_t)n;
  in->fn = x_async_store;
  return TC5_OK;
}
static tc5_status dec_atom128(dctx *d, int op, bool red, int sp) {
  ptx_insn *in = d->in;
  if (red || (op != A_EXCH && op != A_CAS))
    return d_fail(d, TC5_EILLEGAL, ".b128 takes atom.exch and atom.cas only");
  unsigned n = op == A_CAS ? 4 : 3;
  uint8_t hint = 0xff;
  if (!d_nops(d, n, n) || !d_reg128(d, 0, &in->o[0]) || !d_addr(d, 1, &in->o[1], &hint) ||
      !d_reg128(d, 2, &in->o[2]) || (op == A_CAS && !d_reg128(d, 3, &in->o[3])))
    return d->st;
  if (sp < 0) sp = hint != 0xff ? hint : PS_GENERIC;
  if (sp != PS_GLOBAL && sp != PS_SHARED && sp != PS_GENERIC && sp != PS_SHARED_CLUSTER)
    return d_fail(d, TC5_EILLEGAL, "atom works on global and shared memory");
  in->type = PT_B128;
  in->aux = 16;
  in->aux2 = (uint32_t)op;
  in->space = (uint8_t)sp;
  in->nops = (uint8_t)n;
  in->fn = x_atom128;
  return TC5_OK;
}
PTX_DEC(dec_atom) {
  ptx_insn *in = d->in;
  bool red = !strcmp(d->tok[0], "red");
  if (red && d_take(d, "async")) return dec_async_store(d, true);
  take_cache_ops(d);
  int sp = d_take_space(d);
  const char *const *ops = atom_ops;
  int op = d_take_one(d, ops);
  bool noftz = d_take(d, "noftz");
  static const char *const vecs[] = {"v2", "v4", "v8", NULL};
  int v = d_take_one(d, vecs);
  ptx_type t = d_take_type(d);
  if (op < 0 || t == PT_NONE) return d_fail(d, TC5_EPARSE, "%s needs an operation and a type", d->tok[0]);
  if (v >= 0) return dec_atom_vec(d, op, red, sp, 2u << v, noftz, t);
  unsigned W = ptx_types[t].bits;
  if (t == PT_B128) return dec_atom128(d, op, red, sp);
  /* .add.noftz.{f16,f16x2,bf16,bf16x2} (sm_90 for the bf16 forms) and .cas.b16: the 16-bit forms;
   * .noftz belongs to them alone, and they take it always */
  bool h16 = t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2;
  if (h16 != noftz)
    return d_fail(d, TC5_EILLEGAL, "%s.%s.%s: .noftz %s", d->tok[0], ops[op], ptx_types[t].name,
                  h16 ? "is required with f16/bf16 types" : "belongs to .add of .f16/.f16x2/.bf16/.bf16x2");
  if (h16 && op != A_ADD)
    return d_fail(d, TC5_EILLEGAL, "%s.%s.%s: the f16/bf16 types take .add.noftz only", d->tok[0], ops[op],
                  ptx_types[t].name);
  if (W == 16 && !h16 && !(t == PT_B16 && op == A_CAS && !red))
    return d_fail(d, TC5_EILLEGAL, "%s.%s.%s: 16-bit atomics are atom.cas.b16 and .add.noftz.{f16,bf16}", d->tok[0],
                  ops[op], ptx_types[t].name);
  if ((W != 16 && W != 32 && W != 64) || (ptx_types[t].cls == 'f' && op != A_ADD && op != A_EXCH))
    return d_fail(d, TC5_EUNSUPPORTED, "%s.%s.%s is not modelled", d->tok[0], ops[op], ptx_types[t].name);
  in->type = (uint8_t)t;
  in->aux = W / 8;
  in->aux2 = (uint32_t)op;
  if (red) in->mods |= 2;
  unsigned n = (red ? 2 : 3) + (op == A_CAS);
  uint8_t hint = 0xff;
  if (!d_nops(d, n, n + 1)) return d->st;
  unsigned a = red ? 0 : 1;
  if (!red && !d_dst(d, 0, &in->o[0])) return d->st;
  if (!d_addr(d, a, &in->o[a], &hint) || !d_src(d, a + 1, t, &in->o[a + 1])) return d->st;
  if (op == A_CAS && !d_src(d, a + 2, t, &in->o[a + 2])) return d->st;
  if (sp < 0) sp = hint != 0xff ? hint : PS_GENERIC;
  if (sp != PS_GLOBAL && sp != PS_SHARED && sp != PS_GENERIC && sp != PS_SHARED_CLUSTER)
    return d_fail(d, TC5_EILLEGAL, "%s works on global and shared memory", d->tok[0]);
  in->space = (uint8_t)sp;
  in->fn = x_atom;
  return TC5_OK;
}

/* ---- cvta ---- */
static PTX_EXEC(x_cvta) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  uint64_t base = in->space == PS_SHARED ? PTX_GENERIC_SHARED
                  : in->space == PS_LOCAL ? PTX_GENERIC_LOCAL
                  : in->space == PS_PARAM ? PTX_GENERIC_PARAM
                                          : 0;
  bool to = in->mods & 1;
  uint64_t m = in->aux == 32 ? 0xffffffffull : ~0ull;
  if (!base) {
    PTX_LANES(mask, d[l] = a[l] & m);
    return PX_NEXT;
  }
  PTX_LANES(mask, {
    if (to) {
      if (a[l] < base || a[l] >= base + PTX_WINDOW_SIZE)
        return ptx_fail(w, in, (int)l, TC5_EILLEGAL, a[l], "generic address 0x%llx is not in the %s window",
                        (unsigned long long)a[l], ptx_space_name(in->space));
      d[l] = (a[l] - base) & m;
    } else {
      d[l] = (a[l] + base) & m;
    }
  });
  return PX_NEXT;
}
/* ---- createpolicy.fractional.L2::primary{.L2::secondary}.b64 d, fraction ----
 * A cache policy is an opaque 64-bit word that ld/st .L2::cache_hint carry; tc5 keeps no cache,
 * so only the word matters (a kernel may store it). The words are the H100's for the forms
 * measured (tests/data/ptx/f64nan/half_pack.ptx, gpu/run.sh f64nan; Triton 3.9 emits the
 * first two for eviction_policy="evict_last"/"evict_first"); other forms and fractions are
 * refused by name. */
static const struct policy_word {
  const char *primary, *secondary; /* secondary "": none given */
  float fraction;
  uint64_t word;
} policy_words[] = {
    {"evict_last", "", 1.0f, 0x14f0000000000000ull},
    {"evict_first", "", 1.0f, 0x12f0000000000000ull},
    {"evict_normal", "", 1.0f, 0x16f0000000000000ull},
    {"evict_unchanged", "", 1.0f, 0x10f0000000000000ull},
    {"evict_last", "evict_unchanged", 0.5f, 0x1470000000000000ull},
};
static bool same_form(const struct policy_word *a, const struct policy_word *b) {
  return !strcmp(a->primary, b->primary) && !strcmp(a->secondary, b->secondary);
}
static PTX_EXEC(x_createpolicy) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *f = PTX_R(w, in->o[1].reg);
  const size_t n = sizeof policy_words / sizeof policy_words[0];
  const struct policy_word *form = &policy_words[in->aux];
  PTX_LANES(mask, {
    float x;
    uint32_t b = (uint32_t)f[l];
    memcpy(&x, &b, 4);
    size_t j = 0;
    while (j < n && !(same_form(&policy_words[j], form) && policy_words[j].fraction == x)) j++;
    if (j == n)
      return ptx_fail(w, in, (int)l, TC5_EUNSUPPORTED, b,
                      "createpolicy.fractional.L2::%s: fraction %g is not measured on silicon for this form (the "
                      "policy word is the hardware's: docs/ptx.md)", form->primary, (double)x);
    d[l] = policy_words[j].word;
  });
  return PX_NEXT;
}
PTX_DEC(dec_createpolicy) {
  ptx_insn *in = d->in;
  if (!d_take(d, "fractional"))
    return d_fail(d, TC5_EUNSUPPORTED, "createpolicy: only .fractional is modelled (.range is not)");
  const char *p = d_take_prefix(d, "L2::"), *s = d_take_prefix(d, "L2::");
  ptx_type t = d_take_type(d);
  if (!p || t != PT_B64) return d_fail(d, TC5_EPARSE, "createpolicy.fractional needs .L2::priority and .b64");
  const struct policy_word want = {p, s ? s : "", 0, 0};
  unsigned k = 0, n = sizeof policy_words / sizeof policy_words[0];
  while (k < n && !same_form(&policy_words[k], &want)) k++;
  if (k == n)
    return d_fail(d, TC5_EUNSUPPORTED, "createpolicy.fractional.L2::%s%s%s: this form's policy word is not "
                  "measured on silicon", p, s ? ".L2::" : "", s ? s : "");
  in->aux = k;
  if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, PT_F32, &in->o[1])) return d->st;
  in->fn = x_createpolicy;
  return TC5_OK;
}

PTX_DEC(dec_cvta) {
  ptx_insn *in = d->in;
  bool to = d_take(d, "to");
  int sp = d_take_space(d);
  ptx_type t = d_take_type(d);
  if (sp < 0 || (t != PT_U32 && t != PT_U64)) return d_fail(d, TC5_EPARSE, "cvta needs a state space and .u32/.u64");
  /* cvta.param: a kernel parameter's generic address (a __grid_constant__
   * parameter such as a tensor map); cvta.to.param is not in PTX */
  if (sp == PS_PARAM && to) return d_fail(d, TC5_EILLEGAL, "cvta.to.param does not exist");
  in->space = (uint8_t)(sp == PS_SHARED_CLUSTER ? PS_SHARED : sp);
  in->aux = ptx_types[t].bits;
  if (to) in->mods |= 1;
  if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1])) return d->st;
  in->fn = x_cvta;
  return TC5_OK;
}

/* ---- mapa, getctarank (distributed shared memory) ---- */
/* mapa[.shared::cluster].u32/u64 d, a, rank: a's offset in CTA `rank` */
static PTX_EXEC(x_mapa) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg), *r = PTX_R(w, in->o[2].reg);
  uint32_t n = w->cta->cl->n;
  PTX_LANES(mask, {
    uint32_t off;
    if (!ptx_cluster_addr(w, in->space, a[l], &off))
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, a[l], "mapa: 0x%llx is not a shared-memory address of the cluster",
                      (unsigned long long)a[l]);
    /* a rank past the cluster is an address all the same, which names no CTA: an access through it
     * fails there. Compilers hoist mapa above the test of its rank (CuTe DSL's CLC pipelines: the
     * tutorial fp16_gemm_5 maps ranks 0..7 of a cluster of 4 and uses those below 4); the PTX ISA
     * gives mapa no fault (docs/spec-departures.md) */
    uint64_t rank = r[l] < n ? r[l] : r[l] < 255 ? r[l] : 255;
    uint64_t m = (rank << PTX_CLUSTER_SHIFT) | off;
    d[l] = in->space == PS_GENERIC ? PTX_GENERIC_SHARED + m : m;
  });
  return PX_NEXT;
}
/* getctarank[.shared::cluster].u32 d, a: the rank of the CTA a names */
static PTX_EXEC(x_getctarank) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  PTX_LANES(mask, {
    uint32_t off;
    ptx_cta *t = ptx_cluster_addr(w, in->space, a[l], &off);
    if (!t)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, a[l], "getctarank: 0x%llx is not a shared-memory address of the cluster",
                      (unsigned long long)a[l]);
    d[l] = t->rank;
  });
  return PX_NEXT;
}
PTX_DEC(dec_mapa) {
  ptx_insn *in = d->in;
  int sp = d_take_space(d);
  ptx_type t = d_take_type(d);
  if (sp >= 0 && sp != PS_SHARED_CLUSTER) return d_fail(d, TC5_EPARSE, "%s takes .shared::cluster addresses (or generic ones)", d->tok[0]);
  if (t != PT_U32 && t != PT_U64) return d_fail(d, TC5_EPARSE, "%s needs .u32 or .u64", d->tok[0]);
  in->space = (uint8_t)(sp < 0 ? PS_GENERIC : PS_SHARED_CLUSTER);
  bool mapa = !strcmp(d->tok[0], "mapa");
  if (!d_nops(d, mapa ? 3 : 2, mapa ? 3 : 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1]) ||
      (mapa && !d_src(d, 2, PT_U32, &in->o[2])))
    return d->st;
  in->fn = mapa ? x_mapa : x_getctarank;
  return TC5_OK;
}

/* the checker's map of an ldmatrix / stmatrix (chk_matrix): the rows' offsets in the CTA's own
 * shared memory (UINT32_MAX: another CTA's), each byte's lane and vector element */
typedef struct mx_map {
  uint32_t off[32];
  chk_mx src[32][16];
} mx_map;
static void mx_rows(const ptx_warp *w, uint8_t *const *row, unsigned nrows, uint32_t *off) {
  const tc5_smem *s = &w->cta->smem;
  for (unsigned r = 0; r < nrows; r++)
    off[r] = row[r] >= s->bytes && row[r] < s->bytes + s->size ? (uint32_t)(row[r] - s->bytes) : UINT32_MAX;
}

/* ---- ldmatrix / stmatrix (m8n8, b16): matrix i's row r address comes
 * from thread 8i + r; thread t holds, of each matrix, the 32 bits of row
 * t/4, columns 2(t%4) and 2(t%4)+1 (.trans: column t/4 of rows 2(t%4),
 * 2(t%4)+1) ---- */
/* an ldmatrix's rows, fast (session 16, ft: FlagGems' radix sort moves each tile through shared memory by
 * ldmatrix, a third of its sweep's time was their 32 ptx_mem calls a warp, each asking the checker for its row):
 * .shared, every row address (lanes 0 .. nrows - 1) in the CTA's own shared memory past the reserved KiB and
 * 16-byte aligned (shared_fits of its 32-bit address: what ptx_mem finds for the own CTA then, rank bits 0),
 * no other CTA's access recorded (chk_has_remote), no marked bytes to follow (chk_matrix_follows), and the
 * checker's common case for every row at once (chk_rd_rows of 16-byte rows: the same slots, bytes and event as
 * chk_smem_read's rows one by one, chk_rd_matrix). Then at[r] the rows' offsets; false: not so, nothing
 * changed, the rows one by one through ptx_mem (its errors and findings, in the rows' order) */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* a matrix's eight rows of 16 bytes (at h + ai[r]) into its register's lanes 4r .. 4r + 3, a 32-bit word each
 * zero-extended (matrix_op's non-.trans lanes), a row a vpmovzxdq */
__attribute__((target("avx2"))) static void matrix_rows_avx2(uint64_t *reg, const uint8_t *h, const uint32_t *ai) {
  for (unsigned r = 0; r < 8; r++)
    _mm256_storeu_si256((__m256i *)(void *)(reg + 4 * r),
                        _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(h + ai[r]))));
}
#else
#define matrix_rows_avx2(reg, h, ai) \
  for (unsigned t = 0; t < 32; t++) { uint32_t x; memcpy(&x, (h) + (ai)[t / 4] + 4 * (t % 4), 4); (reg)[t] = x; }
#endif
static bool matrix_rows_ld(ptx_warp *w, const ptx_insn *in, const ptx_opnd *ad, unsigned nrows, uint32_t *at) {
  const tc5_smem *s = &w->cta->smem;
  chk_cta *k = w->cta->chk;
  const uint64_t *base = PTX_R(w, ad->reg);
  if (in->space != PS_SHARED || (k && (chk_has_remote(k) || chk_matrix_follows(k, w->id, false)))) return false;
  /* a matrix's register the address register, a later matrix's rows then read from it (matrix_op's order) */
  const uint32_t *vr = w->cta->L->m->vregs + in->o[0].vec;
  for (unsigned i = 0; i + 1 < nrows / 8; i++)
    if (vr[i] == ad->reg) return false;
  bool one; /* (rows_shared: shared_fits of every row's 32-bit address, by rows) */
  if (!rows_shared(s, base, ad->imm, 16, nrows == 32 ? 0xFFFFFFFFu : (1u << nrows) - 1, at, &one)) return false;
  if (!k) return true;
  chk_rd f;
  chk_rd_begin(&f, k, CHK_W(w), CHK_IN(w, in), 16);
  return chk_rd_rows(&f, at, 16, nrows == 32 ? 0xFFFFFFFFu : (1u << nrows) - 1);
}
static int matrix_op(ptx_warp *w, const ptx_insn *in, uint32_t mask, bool store) {
  const ptx_opnd *ad = &in->o[store ? 0 : 1], *v = &in->o[store ? 1 : 0];
  const uint32_t *vr = w->cta->L->m->vregs + v->vec;
  const uint64_t *base = PTX_R(w, ad->reg);
  unsigned nmat = v->n;
  bool trans = in->mods & 1;
  (void)mask; /* not 0: the executors return first */
  uint32_t at[32];
  if (!store && nmat <= 4 && matrix_rows_ld(w, in, ad, 8 * nmat, at)) {
    const uint8_t *h = w->cta->smem.bytes;
    for (unsigned i = 0; i < nmat; i++) {
      uint64_t *reg = PTX_R(w, vr[i]);
      const uint32_t *ai = at + 8 * i;
      if (!trans) { /* lane t: row t / 4's bytes 4 (t % 4) .. + 3 */
        if (PTX_HAS_AVX2()) matrix_rows_avx2(reg, h, ai);
        else
          for (unsigned t = 0; t < 32; t++) {
            uint32_t x;
            memcpy(&x, h + ai[t / 4] + 4 * (t % 4), 4);
            reg[t] = x;
          }
      } else { /* lane t: column t / 4 of rows 2 (t % 4) and 2 (t % 4) + 1 */
        for (unsigned t = 0; t < 32; t++) {
          uint16_t e0, e1;
          memcpy(&e0, h + ai[2 * (t % 4)] + 2 * (t / 4), 2);
          memcpy(&e1, h + ai[2 * (t % 4) + 1] + 2 * (t / 4), 2);
          reg[t] = (uint64_t)e0 | (uint64_t)e1 << 16;
        }
      }
    }
    return PX_NEXT;
  }
  mx_map m, *mp = w->cta->chk && chk_matrix_follows(w->cta->chk, w->id, store) ? &m : NULL;
  for (unsigned i = 0; i < nmat; i++) {
    uint8_t *row[8];
    for (unsigned r = 0; r < 8; r++) {
      unsigned t = 8 * i + r;
      uint64_t addr = base[t] + (uint64_t)ad->imm;
      if (addr & 15)
        return ptx_fail(w, in, (int)t, TC5_EALIGN, addr, "row address 0x%llx is not 16-byte aligned",
                        (unsigned long long)addr);
      row[r] = ptx_mem(w, in, (int)t, in->space, addr, 16, store);
      if (!row[r]) return PX_ERROR;
    }
    if (mp) mx_rows(w, row, 8, mp->off + 8 * i);
    uint64_t *reg = PTX_R(w, vr[i]);
    for (unsigned t = 0; t < 32; t++) {
      unsigned r0 = t / 4, c0 = 2 * (t % 4);
      uint16_t e[2];
      for (unsigned k = 0; k < 2; k++) {
        unsigned rr = trans ? c0 + k : r0, cc = trans ? r0 : c0 + k;
        if (mp) mp->src[8 * i + rr][2 * cc] = mp->src[8 * i + rr][2 * cc + 1] = (chk_mx){(uint8_t)t, (uint8_t)i};
        if (store) {
          e[k] = (uint16_t)(reg[t] >> (16 * k));
          memcpy(row[rr] + 2 * cc, &e[k], 2);
        } else {
          memcpy(&e[k], row[rr] + 2 * cc, 2);
        }
      }
      if (!store) reg[t] = (uint64_t)e[0] | (uint64_t)e[1] << 16;
    }
  }
  if (mp) chk_matrix(CHK_W(w), CHK_IN(w, in), store, 8 * nmat, mp->off, (const chk_mx(*)[16])mp->src);
  return PX_NEXT;
}
/* a guard false in every lane (a .aligned guard is the warp's: run.c refuses one that differs):
 * nothing is loaded or stored (before, the executors ignored the mask and moved the rows anyway) */
static PTX_EXEC(x_ldmatrix) { return mask ? matrix_op(w, in, mask, false) : PX_NEXT; }
static PTX_EXEC(x_stmatrix) { return mask ? matrix_op(w, in, mask, true) : PX_NEXT; }

/* The 8-bit shapes of sm_100: ldmatrix.m16n16.{x1,x2}.trans.b8 and
 * stmatrix.m16n8.{x1,x2,x4}.trans.b8. The PTX ISA gives their fragments in
 * figures only; tc5 takes them from CUTLASS's copy atoms
 * (include/cute/atom/copy_traits_sm100.hpp, Copy_Traits<SM100_U8x8_LDSM_T>,
 * <SM100_U8x16_LDSM_T>, <SM100_U8x4/8/16_STSM_T>), read as: byte k of thread
 * t's registers is byte C = t/4 + 8 ((k/2)%2) of the 16-byte row
 * R = 2 (t%4) + k%2 + 8 (k/4) (rows of the second 16-row matrix from 16 on).
 * stmatrix: thread R gives row R's address. ldmatrix: row R's address comes
 * from thread (R%2) + 2 ((R/8)%2) + 4 ((R/2)%4) + 16 (R/16) (CUTLASS's source
 * layout: stride 128 bits for t%2, 1024 for (t/2)%2, 256 for (t/4)%4), and
 * the layout above is that of CUTLASS's registers after its copy atom
 * interleaves each pair that ldmatrix wrote (copy_sm100.hpp, SM100_U8x8/16_LDSM_T:
 * dst{2p} = {tmp{2p}.x, .y, tmp{2p+1}.x, .y}, dst{2p+1} = {tmp{2p}.z, .w,
 * tmp{2p+1}.z, .w}, "RefLayout of ldmatrix.m16n16.x1.trans won't match
 * stmatrix.m16n8.x2.trans without additional transformations"): ldmatrix's own
 * byte k is byte e = 4 (2 (k/8) + (k%4)/2) + 2 ((k/4)%2) + k%2 of those. Triton's
 * int8 test_dot3d[4-4-64-64-64-32-32] (ldmatrix.m16n16.x2.trans.b8 feeding
 * mma.sync) gives NumPy's result with it, half its outputs wrong without (issue
 * 37). Not checked on silicon (the H100 has no such shapes). */
static int matrix_b8(ptx_warp *w, const ptx_insn *in, bool store) {
  const ptx_opnd *ad = &in->o[store ? 0 : 1], *v = &in->o[store ? 1 : 0];
  const uint32_t *vr = w->cta->L->m->vregs + v->vec;
  const uint64_t *base = PTX_R(w, ad->reg);
  unsigned nreg = v->n, rows = store ? 8 * nreg : 8 * nreg; /* ld: 2 registers a 16-row matrix */
  uint8_t *row[32];
  for (unsigned r = 0; r < rows; r++) {
    unsigned t = store ? r : (r % 2) + 2 * ((r / 8) % 2) + 4 * ((r / 2) % 4) + 16 * (r / 16);
    uint64_t addr = base[t] + (uint64_t)ad->imm;
    if (addr & 15)
      return ptx_fail(w, in, (int)t, TC5_EALIGN, addr, "row address 0x%llx is not 16-byte aligned", (unsigned long long)addr);
    row[r] = ptx_mem(w, in, (int)t, in->space, addr, 16, store);
    if (!row[r]) return PX_ERROR;
  }
  mx_map m, *mp = w->cta->chk && chk_matrix_follows(w->cta->chk, w->id, store) ? &m : NULL;
  if (mp) mx_rows(w, row, rows, mp->off);
  for (unsigned t = 0; t < 32; t++)
    for (unsigned k = 0; k < 4 * nreg; k++) {
      /* ldmatrix: raw byte k is byte e of CUTLASS's shuffled registers (its copy atom
       * interleaves register pairs: dst{2p} = {tmp{2p}.x, .y, tmp{2p+1}.x, .y}, dst{2p+1} =
       * {tmp{2p}.z, .w, tmp{2p+1}.z, .w}) */
      unsigned e = store ? k : 4 * (2 * (k / 8) + (k % 4) / 2) + 2 * ((k / 4) % 2) + k % 2;
      unsigned R = 2 * (t % 4) + e % 2 + 8 * (e / 4), C = t / 4 + 8 * ((e / 2) % 2);
      uint64_t *reg = PTX_R(w, vr[k / 4]);
      unsigned sh = 8 * (k % 4);
      if (mp) mp->src[R][C] = (chk_mx){(uint8_t)t, (uint8_t)(k / 4)};
      if (store) row[R][C] = (uint8_t)(reg[t] >> sh);
      else reg[t] = (reg[t] & ~(0xffull << sh)) | (uint64_t)row[R][C] << sh;
    }
  if (mp) chk_matrix(CHK_W(w), CHK_IN(w, in), store, rows, mp->off, (const chk_mx(*)[16])mp->src);
  return PX_NEXT;
}
static PTX_EXEC(x_ldmatrix_b8) { return mask ? matrix_b8(w, in, false) : PX_NEXT; }
static PTX_EXEC(x_stmatrix_b8) { return mask ? matrix_b8(w, in, true) : PX_NEXT; }

static tc5_status dec_matrix(dctx *d, bool store) {
  ptx_insn *in = d->in;
  if (!d_take(d, "sync") || !d_take(d, "aligned")) return d_fail(d, TC5_EPARSE, "needs .sync.aligned");
  if (d_take(d, store ? "m16n8" : "m16n16")) {
    static const char *const xs[] = {"x1", "x2", "x4", NULL};
    int x = d_take_one(d, xs);
    bool trans = d_take(d, "trans");
    int sp = d_take_space(d);
    if (d_take(d, "b8x16")) return d_fail(d, TC5_EUNSUPPORTED, "the .b6x16_p32 / .b4x16_p64 source formats are not modelled (their container bits are unconfirmed)");
    if (x < 0 || (!store && x == 2) || !trans || d_take_type(d) != PT_B8)
      return d_fail(d, TC5_EPARSE, "%s takes .x1/.x2%s, .trans and .b8", store ? "stmatrix.m16n8" : "ldmatrix.m16n16", store ? "/.x4" : "");
    in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
    in->flags |= PF_ALIGNED;
    unsigned n = store ? 1u << x : 2u << x;
    if (!d_nops(d, 2, 2)) return d->st;
    if (store) {
      if (!d_addr(d, 0, &in->o[0], NULL) || !d_vec(d, 1, n, false, PT_B32, &in->o[1])) return d->st;
    } else if (!d_vec(d, 0, n, true, PT_B32, &in->o[0]) || !d_addr(d, 1, &in->o[1], NULL)) {
      return d->st;
    }
    in->fn = store ? x_stmatrix_b8 : x_ldmatrix_b8;
    return TC5_OK;
  }
  if (!d_take(d, "m8n8")) return d_fail(d, TC5_EUNSUPPORTED, "this ldmatrix/stmatrix shape is not modelled (m8n8; m16n16 / m16n8 .b8)");
  static const char *const xs[] = {"x1", "x2", "x4", NULL};
  int x = d_take_one(d, xs);
  bool trans = d_take(d, "trans");
  int sp = d_take_space(d);
  if (x < 0 || d_take_type(d) != PT_B16) return d_fail(d, TC5_EPARSE, "needs .x1/.x2/.x4 and .b16");
  in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
  in->flags |= PF_ALIGNED;
  if (trans) in->mods |= 1;
  unsigned n = 1u << x;
  if (!d_nops(d, 2, 2)) return d->st;
  if (store) {
    if (!d_addr(d, 0, &in->o[0], NULL) || !d_vec(d, 1, n, false, PT_B32, &in->o[1])) return d->st;
  } else if (!d_vec(d, 0, n, true, PT_B32, &in->o[0]) || !d_addr(d, 1, &in->o[1], NULL)) {
    return d->st;
  }
  in->fn = store ? x_stmatrix : x_ldmatrix;
  return TC5_OK;
}
PTX_DEC(dec_ldmatrix) { return dec_matrix(d, false); }
PTX_DEC(dec_stmatrix) { return dec_matrix(d, true); }

/* ---- cp.async ---- */
static PTX_EXEC(x_cp_async) {
  const ptx_opnd *dst = &in->o[0], *src = &in->o[1];
  const uint64_t *db = PTX_R(w, dst->reg), *sb = PTX_R(w, src->reg);
  const uint64_t *ss = in->mods & 1 ? PTX_R(w, in->o[3].reg) : NULL;
  unsigned n = in->aux;
  PTX_LANES(mask, {
    uint32_t valid = ss ? (uint32_t)ss[l] : n;
    if (valid > n)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, valid, "src-size %u exceeds cp-size %u", valid, n);
    uint8_t *dp = ptx_mem(w, in, (int)l, PS_SHARED, db[l] + (uint64_t)dst->imm, n, true);
    if (!dp) return PX_ERROR;
    if (w->cta->chk) chk_cp_async(CHK_W(w), CHK_IN(w, in), (int)l, (uint32_t)(dp - w->cta->smem.bytes), n);
    if (valid) { /* the source: the warp's last buffers first (global_fast), as x_ld's */
      uint64_t sa = sb[l] + (uint64_t)src->imm;
      const uint8_t *sp = global_fast(w, sa, n);
      if (!sp) {
        sp = ptx_mem(w, in, (int)l, PS_GLOBAL, sa, n, false);
        if (!sp) return PX_ERROR;
        remember_region(w, sa);
      }
      memcpy(dp, sp, valid);
    }
    memset(dp + valid, 0, n - valid);
  });
  return PX_NEXT;
}
static PTX_EXEC(x_nop) {
  (void)w;
  (void)in;
  (void)mask;
  return PX_NEXT;
}
static PTX_EXEC(x_cp_async_arrive) {
  const uint64_t *a = PTX_R(w, in->o[0].reg);
  /* the checker: the mbarrier tracks the completion of the thread's
   * cp.asyncs so far (their group completes with the arrival; the waiters
   * of the phase learn it; the warp itself is taken to know it too) */
  if (mask && w->cta->chk) {
    chk_group(CHK_W(w), 0, false, 0);
    chk_group(CHK_W(w), 0, true, 0);
  }
  if (!(in->mods & 1)) return PX_NEXT; /* without .noinc the arrival is pre-counted: no net change */
  PTX_LANES(mask, {
    uint32_t off;
    if (!ptx_shared_addr(w, in->space, a[l] + (uint64_t)in->o[0].imm, &off))
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, a[l], "not a shared-memory address");
    int r = ptx_mbar_arrive_lane(w, in, (int)l, off, 1);
    if (r != PX_NEXT) return r;
  });
  return PX_NEXT;
}
/* cp.async.commit_group (in->aux 0), wait_group N (1), wait_all (2): the
 * copies completed when issued; the checker follows the groups */
static PTX_EXEC(x_cp_async_group) {
  if (!mask || !w->cta->chk) return PX_NEXT;
  if (in->aux != 1) chk_group(CHK_W(w), 0, false, 0);
  if (in->aux) chk_group(CHK_W(w), 0, true, in->aux == 1 ? (uint32_t)PTX_R(w, in->o[0].reg)[__builtin_ctz(mask)] : 0);
  return PX_NEXT;
}
PTX_DEC(dec_cp_async) {
  ptx_insn *in = d->in;
  bool wait_all = d_take(d, "wait_all");
  if (wait_all || d_take(d, "commit_group")) {
    /* wait_all: a late schedule completes the warp's copies here;
     * commit_group: a late schedule keeps the group's end in the FIFO */
    in->aux = wait_all ? 2 : 0;
    in->fn = x_cp_async_group;
    in->flags |= wait_all ? PF_FLUSH_WARP : PF_LATE | PF_GROUP;
    in->aux2 = PTX_GROUP_CP_ASYNC;
    return d_nops(d, 0, 0) ? TC5_OK : d->st;
  }
  if (d_take(d, "wait_group")) { /* a late schedule: all but the N most recent groups complete */
    in->aux = 1;
    in->fn = x_cp_async_group;
    in->flags |= PF_FLUSH_WARP | PF_GROUP;
    in->aux2 = PTX_GROUP_CP_ASYNC;
    return d_nops(d, 1, 1) && d_src(d, 0, PT_U32, &in->o[0]) ? TC5_OK : d->st;
  }
  if (d_take(d, "mbarrier")) {
    if (!d_take(d, "arrive")) return d_fail(d, TC5_EPARSE, "cp.async.mbarrier needs .arrive");
    if (d_take(d, "noinc")) in->mods |= 1;
    int sp = d_take_space(d);
    if (d_take_type(d) != PT_B64) return d_fail(d, TC5_EPARSE, "needs .b64");
    in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
    if (!d_nops(d, 1, 1) || !d_addr(d, 0, &in->o[0], NULL)) return d->st;
    in->fn = x_cp_async_arrive;
    /* a late schedule: .noinc arrives when the thread's copies complete; without
     * it the arrival was counted in advance, so the copies complete here */
    in->flags |= PF_MBAR | (in->mods & 1 ? PF_LATE : PF_FLUSH_WARP);
    return TC5_OK;
  }
  static const char *const lvl[] = {"ca", "cg", NULL};
  if (d_take_one(d, lvl) < 0) return d_fail(d, TC5_EPARSE, "cp.async needs .ca or .cg");
  take_cache_ops(d);
  int s1 = d_take_space(d), s2 = d_take_space(d);
  if (!((s1 == PS_SHARED || s1 == PS_SHARED_CLUSTER) && s2 == PS_GLOBAL))
    return d_fail(d, TC5_EPARSE, "cp.async copies .shared from .global");
  if (!d_nops(d, 3, 5) || !d_addr(d, 0, &in->o[0], NULL) || !d_addr(d, 1, &in->o[1], NULL)) return d->st;
  int64_t n;
  if (!d_imm(d, 2, &n)) return d->st;
  if (n != 4 && n != 8 && n != 16) return d_fail(d, TC5_EILLEGAL, "cp-size must be 4, 8 or 16, not %lld", (long long)n);
  in->aux = (uint32_t)n;
  if (d->r->nops >= 4 && d->r->ops[3].kind != RO_SINK) {
    /* src-size (a register or literal); a fifth operand is the cache policy */
    if (!d_src(d, 3, PT_U32, &in->o[3])) return d->st;
    in->mods |= 1;
  }
  in->fn = x_cp_async;
  in->flags |= PF_LATE;
  return TC5_OK;
}

/* fences, membar, prefetch, nanosleep: nothing to do in a model that
 * completes every access when it executes */
PTX_DEC(dec_nop) {
  for (unsigned k = 1; k < d->ntok; k++) d->used[k] = true;
  d->in->fn = x_nop;
  return TC5_OK;
}
/* fence.proxy.async (any state space): the checker follows it (the
 * cross-proxy fence of 9.7.16.6.5); under a seeded schedule it makes the
 * warp's generic writes of shared memory visible to the async proxy
 * (machine.c, ptx_px_fence) */
static PTX_EXEC(x_fence_proxy_async) {
  (void)in;
  if (mask) chk_fence_proxy_async(CHK_W(w));
  if (mask && __builtin_expect(w->cta->px != NULL, 0)) ptx_px_fence(w);
  return PX_NEXT;
}
/* the other fences and membar: the checker counts them as releases of the
 * warp for accesses to other CTAs' shared memory (chk_fence_order) */
static PTX_EXEC(x_fence_order) {
  if (mask && w->cta->chk) chk_fence_order(CHK_W(w));
  if (mask && w->cta->chk) chk_xscope_fence(CHK_W(w), CHK_IN(w, in)); /* its scope (issue 53) */
  return PX_NEXT;
}
PTX_DEC(dec_fence) {
  bool proxy_async = d->ntok > 2 && !strcmp(d->tok[1], "proxy") && !strncmp(d->tok[2], "async", 5);
  dec_nop(d);
  d->in->fn = proxy_async ? x_fence_proxy_async : x_fence_order;
  return TC5_OK;
}
