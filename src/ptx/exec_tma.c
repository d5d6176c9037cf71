/* tc5 PTX runner — the Tensor Memory Accelerator and bulk copies:
 * cp.async.bulk.tensor (tile mode, loads, stores), cp.reduce.async.bulk.tensor,
 * cp.async.bulk (global <-> shared), cp.async.bulk.commit_group /
 * wait_group, cp.async.bulk.prefetch (PTX ISA "Data Movement and
 * Conversion Instructions: cp.async.bulk*", "Tensor copy").
 *
 * A copy is performed when issued (tc5/tma.h does the tile's elements): a
 * load's bytes are in shared memory and its complete_tx is on the mbarrier
 * before the next instruction, a store's in global memory. A correct kernel
 * waits for the mbarrier (or the bulk group) before it uses them, so it
 * sees what silicon gives it; reading a destination early is a race on
 * silicon, which the sanitizer issue reports. */
#include <pthread.h>
#include <string.h>

#include "check/check_impl.h"
#include "ptx/decode_impl.h"
#include "tc5/tma.h"

/* global memory for tc5_tma_tile: the launch's buffers and variables */
static uint8_t *global_map(void *ctx, uint64_t addr, uint64_t n, bool write) {
  ptx_launch *L = ctx;
  (void)write;
  for (unsigned k = 0; k < L->nregions; k++) {
    ptx_region *r = &L->regions[k];
    if (addr >= r->base && addr - r->base < r->size) return addr - r->base + n <= r->size ? r->host + (addr - r->base) : NULL;
  }
  return NULL;
}

/* the tensor map at generic (or param/global/const) address a for lane l:
 * read in two 64-byte halves (a map is 64-byte aligned) and decoded */
static bool read_map(ptx_warp *w, const ptx_insn *in, unsigned l, uint8_t space, uint64_t a, tc5_tmap_params *p) {
  tc5_tensormap m;
  for (unsigned h = 0; h < 2; h++) {
    const uint8_t *src = ptx_mem(w, in, (int)l, space, a + 64 * h, 64, false);
    if (!src) return false;
    memcpy(m.bytes + 64 * h, src, 64);
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  /* tc5's own encoding, or CUDA's (what cuTensorMapEncodeTiled writes on the host) */
  tc5_status st = tc5_tensormap_is_cuda(&m) ? tc5_tensormap_cuda_decode(&m, p, &dg) : tc5_tensormap_decode(&m, p, &dg);
  if (st) {
    ptx_fail(w, in, (int)l, st, a, "the tensor map at 0x%llx is not valid: %s", (unsigned long long)a,
             dg.count ? dg.issue[0].message : tc5_strerror(st));
    return false;
  }
  return true;
}

/* a shared-memory operand: the CTA of the cluster it names and the offset
 * there (NULL after reporting) */
static ptx_cta *smem_at(ptx_warp *w, const ptx_insn *in, unsigned l, uint8_t space, const ptx_opnd *o, uint32_t *off) {
  uint64_t a = PTX_R(w, o->reg)[l] + (uint64_t)o->imm;
  ptx_cta *t = ptx_cluster_addr(w, space, a, off);
  if (!t) ptx_fail(w, in, (int)l, TC5_EILLEGAL, a, "address 0x%llx is not in the shared memory of the cluster's CTAs", (unsigned long long)a);
  return t;
}

/* in->mods: */
enum {
  TM_LOAD = 0, TM_STORE = 1, TM_REDUCE = 2, /* bits 0-1: direction */
  TM_MBAR = 1u << 2,                         /* .mbarrier::complete_tx::bytes */
  TM_MULTICAST = 1u << 3,                    /* .multicast::cluster: ctaMask operand */
  TM_HINT = 1u << 4,                         /* .level::cache_hint: a cache-policy operand */
  TM_REDUCE_BULK = 1u << 5,                  /* cp.reduce.async.bulk (no tensor map) */
  TM_PAIR = 1u << 6,                         /* .cta_group::2 */
  TM_IM2COL = 1u << 7,                       /* .im2col: o[5] the offsets */
  TM_CP_MASK = 1u << 8                       /* cp.async.bulk .cp_mask: o[3] the byte mask */
};
/* in->aux: rank; in->aux2: reduction */

/* the timing model's view of a tensor copy issued by several lanes: ptxas
 * compiles cp.async.bulk.tensor to a uniform-datapath instruction
 * (UTMALDG / UTMASTG, operands in uniform registers), issued once per warp
 * for lanes whose operands agree; FA4's epilogue issues its O stores from
 * a whole warp, unpredicated (one UTMASTG in the SASS, ptxas 13 /
 * cuobjdump: docs/timing.md "Which PTX becomes which SASS"). True when an
 * earlier active lane of this instruction has the same tensor map,
 * coordinates and shared-memory operand as lane l: the copy the hardware
 * issued already (the runner still performs each lane's, as the PTX says) */
static bool tma_lane_repeats(const ptx_warp *w, uint32_t mask, unsigned l, const ptx_opnd *mo,
                             const ptx_opnd *so, const uint32_t *cv, unsigned nc) {
  for (uint32_t m = mask & ((1u << l) - 1u); m; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctz(m);
    bool same = PTX_R(w, mo->reg)[k] == PTX_R(w, mo->reg)[l] && PTX_R(w, so->reg)[k] == PTX_R(w, so->reg)[l];
    for (unsigned i = 0; same && i < nc; i++) same = PTX_R(w, cv[i])[k] == PTX_R(w, cv[i])[l];
    if (same) return true;
  }
  return false;
}
/* operands: load  o[0] dst, o[1] map, o[2] coords, o[3] mbar [, o[4] ctaMask] [, o[5] im2col offsets]
 *           store o[0] map, o[1] coords, o[2] src */
/* the proxies under a seeded schedule (issue 53, machine.c ptx_px_*): a
 * TMA store's box is read by the async proxy (stale granules swapped in
 * until ptx_px_stale_end), a TMA load's is written by it */
static void px_box(ptx_cta *d, const tc5_tmap_params *p, uint32_t off, bool read) {
  if (__builtin_expect(d->px == NULL, 1)) return;
  uint32_t foot;
  if (tc5_tma_box_footprint(p, &foot)) return;
  if (read) ptx_px_stale_begin(d, off, foot ? foot : 1);
  else ptx_px_clear(d, off, foot);
}
static PTX_EXEC(x_tensor) {
  ptx_launch *L = w->cta->L;
  unsigned dir = in->mods & 3;
  bool load = dir == TM_LOAD;
  const ptx_opnd *mo = &in->o[load ? 1 : 0], *co = &in->o[load ? 2 : 1], *so = &in->o[load ? 0 : 2];
  const uint32_t *cv = L->m->vregs + co->vec;
  const tc5_tma_global g = {global_map, L};
  PTX_LANES(mask, {
    tc5_tmap_params p;
    if (!read_map(w, in, l, PS_GENERIC, PTX_R(w, mo->reg)[l] + (uint64_t)mo->imm, &p)) return PX_ERROR;
    if (p.rank != in->aux)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, p.rank, "a .%ud copy with a tensor map of rank %u", in->aux, p.rank);
    int32_t c[TC5_TENSORMAP_MAX_RANK];
    for (unsigned i = 0; i < in->aux; i++) c[i] = (int32_t)PTX_R(w, cv[i])[l];
    uint32_t off, mboff = 0;
    ptx_cta *t = smem_at(w, in, l, load ? in->space : PS_SHARED, so, &off), *mt = w->cta;
    /* .cta_group::2: the mbarrier may be the peer CTA's, even with a .shared::cta destination */
    uint8_t mbsp = (in->mods & TM_PAIR) && in->space == PS_SHARED ? PS_SHARED_CLUSTER : in->space;
    if (!t || (load && !(mt = smem_at(w, in, l, mbsp, &in->o[3], &mboff)))) return PX_ERROR;
    if ((in->mods & TM_PAIR) && (mt->rank | 1u) != (w->cta->rank | 1u) && !(in->mods & TM_MULTICAST))
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, mt->rank,
                      "[cta-pair] .cta_group::2: the mbarrier is in CTA rank %u, neither this CTA (%u) nor its peer",
                      mt->rank, w->cta->rank);
    /* .multicast::cluster: the same offsets in every CTA of ctaMask */
    uint32_t cta_mask = 1u << t->rank;
    if (in->mods & TM_MULTICAST) {
      cta_mask = (uint32_t)PTX_R(w, in->o[4].reg)[l] & 0xffffu;
      if (cta_mask >> w->cta->cl->n)
        return ptx_fail(w, in, (int)l, TC5_EILLEGAL, cta_mask, "ctaMask 0x%04x names CTAs past the cluster's %u", cta_mask,
                        w->cta->cl->n);
    }
    for (uint32_t m = cta_mask; m; m &= m - 1) {
      ptx_cta *d = (in->mods & TM_MULTICAST) ? &w->cta->cl->ctas[__builtin_ctz(m)] : t;
      tc5_diag dg;
      tc5_diag_init(&dg);
      tc5_status st;
      if (in->mods & TM_IM2COL) {
        uint16_t offs[3] = {0, 0, 0};
        const uint32_t *ov = L->m->vregs + in->o[5].vec;
        for (unsigned i = 0; i < in->o[5].n && i < 3; i++) offs[i] = (uint16_t)PTX_R(w, ov[i])[l];
        st = tc5_tma_im2col(&p, c, offs, &d->smem, off, &g, &dg);
      } else {
        if (dir == TM_REDUCE) pthread_mutex_lock(L->lock); /* as a bulk reduction's (bulk_one) */
        if (!load) px_box(d, &p, off, true); /* the async proxy reads the box (seeded schedules: maybe stale) */
        st = tc5_tma_tile(&p, c, dir == TM_LOAD ? TC5_TMA_LOAD : dir == TM_STORE ? TC5_TMA_STORE : TC5_TMA_REDUCE,
                          (tc5_tma_redop)in->aux2, &d->smem, off, &g, &dg);
        if (!load) ptx_px_stale_end(d);
        if (dir == TM_REDUCE) pthread_mutex_unlock(L->lock);
      }
      if (st) return ptx_fail(w, in, (int)l, st, off, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
      if (load) px_box(d, &p, off, false); /* the async proxy wrote it: it sees these bytes */
      if (load && d->chk) {
        uint32_t foot;
        tc5_tma_box_footprint(&p, &foot);
        chk_smem_async_write(CHK_W(w), CHK_IN(w, in), (int)l, d->chk, off, foot);
      }
      if (!load && d == w->cta && w->cta->tm && !tma_lane_repeats(w, mask, l, mo, so, cv, in->aux)) {
        /* the timing model: the store's bytes through the TMA engine, once per warp-uniform copy */
        uint32_t bytes;
        tc5_tma_box_tx_bytes(&p, &bytes);
        tm_tma_store(w->cta->tm, w->id, bytes);
      }
      if (!load && d == w->cta && d->chk) { /* a store / reduction reads the box from shared memory */
        uint32_t foot;
        tc5_tma_box_footprint(&p, &foot);
        chk_bulk_read(CHK_W(w), CHK_IN(w, in), (int)l, off, foot, true);
      }
      if (load) {
        /* the bytes land in d; the mbarrier at the same offset in d's CTA
         * (multicast) or the one the instruction names */
        uint32_t bytes;
        tc5_tma_box_tx_bytes(&p, &bytes);
        ptx_cta *bt = (in->mods & TM_MULTICAST) ? d : mt;
        if ((in->mods & (TM_MULTICAST | TM_PAIR)) == (TM_MULTICAST | TM_PAIR)) {
          /* .cta_group::2: the mbarrier of the destination's CTA pair on
           * the side (even / odd) the mbar operand names (CUTLASS's
           * SM100_TMA_2SM_LOAD_MULTICAST signals the even CTA's) */
          uint32_t r = (d->rank & ~1u) | (mt->rank & 1u);
          if (r >= w->cta->cl->n)
            return ptx_fail(w, in, (int)l, TC5_EILLEGAL, r, "[cta-pair] .cta_group::2: CTA rank %u has no peer in a cluster of %u",
                            d->rank, w->cta->cl->n);
          bt = &w->cta->cl->ctas[r];
        }
        if (bt == d && d->chk) { /* in flight until a warp observes the phase its bytes complete */
          ptx_mbar *pm = ptx_mbar_find(bt, mboff);
          uint32_t foot;
          tc5_tma_box_footprint(&p, &foot);
          if (pm && pm->mb.initialized) chk_tma_load(CHK_W(w), CHK_IN(w, in), (int)l, d->chk, off, foot, CHK_MB(d, pm), pm->mb.phase);
        } else if (d->chk) { /* the mbarrier is another CTA's (the pair's leader's): issue 53 */
          uint32_t foot;
          tc5_tma_box_footprint(&p, &foot);
          chk_tma_load_remote(CHK_W(w), CHK_IN(w, in), (int)l, d->chk, off, foot);
        }
        int r = ptx_mbar_complete_tx_lane(w, in, (int)l, PTX_CLUSTER_FORM(bt, mboff), bytes);
        if (r != PX_NEXT) return r;
        d->progress = true;
      }
    }
  });
  return PX_NEXT;
}

/* cp.async.bulk: o[0] dst, o[1] src, o[2] size [, o[3] mbar [, o[4]
 * ctaMask]] or [, o[3] byteMask] (.cp_mask); in->space the destination's
 * space, in->type the source's (as a ptx_space); with TM_REDUCE_BULK
 * cp.reduce.async.bulk (in->aux the element type, a tc5_tmap_type,
 * in->aux2 the operation). With .multicast::cluster the bytes land at the
 * same offset in each CTA of ctaMask, each completing them on its mbarrier
 * at the mbar operand's offset. */
static int bulk_one(ptx_warp *w, const ptx_insn *in, unsigned l, uint64_t d, uint64_t s, uint32_t size);
static PTX_EXEC(x_bulk) {
  PTX_LANES(mask, {
    uint32_t size = (uint32_t)PTX_R(w, in->o[2].reg)[l];
    uint64_t d = PTX_R(w, in->o[0].reg)[l] + (uint64_t)in->o[0].imm;
    uint64_t s = PTX_R(w, in->o[1].reg)[l] + (uint64_t)in->o[1].imm;
    if (!(in->mods & TM_MULTICAST)) {
      int r = bulk_one(w, in, l, d, s, size);
      if (r != PX_NEXT) return r;
      continue;
    }
    uint32_t off, mboff, cta_mask = (uint32_t)PTX_R(w, in->o[4].reg)[l] & 0xffffu;
    if (!smem_at(w, in, l, in->space, &in->o[0], &off) || !smem_at(w, in, l, PS_SHARED_CLUSTER, &in->o[3], &mboff))
      return PX_ERROR;
    if (cta_mask >> w->cta->cl->n)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, cta_mask, "ctaMask 0x%04x names CTAs past the cluster's %u", cta_mask,
                      w->cta->cl->n);
    for (uint32_t m = cta_mask; m; m &= m - 1) {
      ptx_cta *t = &w->cta->cl->ctas[__builtin_ctz(m)];
      int r = bulk_one(w, in, l, PTX_CLUSTER_FORM(t, off), s, size);
      if (r == PX_NEXT) r = ptx_mbar_complete_tx_lane(w, in, (int)l, PTX_CLUSTER_FORM(t, mboff), size);
      if (r != PX_NEXT) return r;
      t->progress = true;
    }
  });
  return PX_NEXT;
}
/* one copy (or reduction) of `size` bytes from s to d, and its
 * complete_tx on the mbarrier the instruction names (without multicast) */
/* the async proxy reads 16 bytes of the CTA's own shared memory at s
 * (into tmp): a seeded schedule may give it stale bytes (machine.c) */
static void px_piece(ptx_warp *w, const ptx_insn *in, uint64_t s, uint8_t *tmp) {
  uint32_t off;
  if (ptx_cluster_addr(w, in->type, s, &off) == w->cta) ptx_px_read(w->cta, off, tmp, 16);
}
static int bulk_one(ptx_warp *w, const ptx_insn *in, unsigned l, uint64_t d, uint64_t s, uint32_t size) {
  if (size % 16 || d % 16 || s % 16)
    return ptx_fail(w, in, (int)l, TC5_EALIGN, size % 16 ? size : d % 16 ? d : s,
                    "%s: the size (%u) and both addresses (0x%llx, 0x%llx) must be multiples of 16",
                    (in->mods & TM_REDUCE_BULK) ? "cp.reduce.async.bulk" : "cp.async.bulk", size, (unsigned long long)d,
                    (unsigned long long)s);
  if (size) {
    /* 16 bytes at a time: every piece is bounds-checked (and, in shared
     * memory, marked written) */
    for (uint32_t k = 0; k < size; k += 16) {
      const uint8_t *sp = ptx_mem(w, in, (int)l, in->type, s + k, 16, false);
      if (!sp) return PX_ERROR;
      uint8_t tmp[16];
      memcpy(tmp, sp, 16);
      if (__builtin_expect(w->cta->px != NULL, 0) && in->type != PS_GLOBAL) px_piece(w, in, s + k, tmp);
      uint8_t *dp = ptx_mem(w, in, (int)l, in->space, d + k, 16, true);
      if (!dp) return PX_ERROR;
      if (in->mods & TM_REDUCE_BULK) {
        tc5_diag dg;
        tc5_diag_init(&dg);
        /* under the launch's lock: CTAs on other host threads may reduce
         * into the same bytes (FA4's backward accumulates dQ so) */
        pthread_mutex_lock(w->cta->L->lock);
        tc5_status st = tc5_tma_reduce(dp, tmp, 16, (tc5_tmap_type)in->aux, (tc5_tma_redop)in->aux2, &dg);
        pthread_mutex_unlock(w->cta->L->lock);
        if (st) return ptx_fail(w, in, (int)l, st, d + k, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
      } else if (in->mods & TM_CP_MASK) { /* byte i of each 16-byte piece when mask bit i is set */
        uint32_t bm = (uint32_t)PTX_R(w, in->o[3].reg)[l];
        for (unsigned b = 0; b < 16; b++)
          if (bm >> b & 1) dp[b] = tmp[b];
      } else {
        memcpy(dp, tmp, 16);
      }
    }
    uint32_t doff, soff;
    ptx_cta *t = in->space != PS_GLOBAL ? ptx_cluster_addr(w, in->space, d, &doff) : NULL;
    if (t && t->chk) chk_smem_async_write(CHK_W(w), CHK_IN(w, in), (int)l, t->chk, doff, size);
    ptx_cta *sc = in->type != PS_GLOBAL ? ptx_cluster_addr(w, in->type, s, &soff) : NULL;
    if (sc == w->cta && sc->chk) chk_bulk_read(CHK_W(w), CHK_IN(w, in), (int)l, soff, size, !(in->mods & TM_MBAR));
  }
  if ((in->mods & TM_MBAR) && !(in->mods & TM_MULTICAST)) {
    uint32_t mb;
    ptx_cta *t = smem_at(w, in, l, PS_SHARED_CLUSTER, &in->o[3], &mb);
    if (!t) return PX_ERROR;
    uint32_t doff;
    ptx_cta *dt = size ? ptx_cluster_addr(w, in->space, d, &doff) : NULL;
    if (dt == t && t->chk) {
      ptx_mbar *pm = ptx_mbar_find(t, mb);
      if (pm && pm->mb.initialized) chk_tma_load(CHK_W(w), CHK_IN(w, in), (int)l, t->chk, doff, size, CHK_MB(t, pm), pm->mb.phase);
    }
    int r = ptx_mbar_complete_tx_lane(w, in, (int)l, PTX_CLUSTER_FORM(t, mb), size);
    if (r != PX_NEXT) return r;
  }
  return PX_NEXT;
}

static PTX_EXEC(x_bulk_group) {
  if (mask && w->cta->chk)
    chk_group(CHK_W(w), 1, in->aux == 1, in->aux == 1 ? (uint32_t)PTX_R(w, in->o[0].reg)[__builtin_ctz(mask)] : 0);
  return PX_NEXT;
}
static PTX_EXEC(x_done) {
  (void)w;
  (void)in;
  (void)mask;
  return PX_NEXT;
}

static int take_dst_src(dctx *d, int *dst, int *src) {
  *dst = d_take_space(d);
  *src = d_take_space(d);
  return *dst >= 0 && *src >= 0;
}

/* .L2::cache_hint (the ISA's .level::cache_hint): a cache-policy operand,
 * a hint with nothing to model */
static bool take_hint(dctx *d) { return d_take(d, "L2::cache_hint") || d_take(d, "level::cache_hint"); }

/* cp.async.bulk.tensor.Nd.dst.src{.tile|.im2col}[.mbarrier::complete_tx::bytes][.multicast::cluster][.cta_group::1|2][.L2::cache_hint] */
static tc5_status dec_tensor(dctx *d, bool reduce) {
  ptx_insn *in = d->in;
  unsigned rank = 0;
  for (unsigned k = 1; k < d->ntok && !rank; k++)
    if (!d->used[k] && d->tok[k][1] == 'd' && !d->tok[k][2] && d->tok[k][0] >= '1' && d->tok[k][0] <= '5') {
      rank = (unsigned)(d->tok[k][0] - '0');
      d->used[k] = true;
    }
  if (!rank) return d_fail(d, TC5_EPARSE, "needs the dimension (.1d to .5d)");
  in->aux = rank;
  int dst, src;
  if (!take_dst_src(d, &dst, &src)) return d_fail(d, TC5_EPARSE, "needs the destination and source state spaces");
  static const char *const ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", NULL};
  if (reduce) {
    int op = d_take_one(d, ops);
    if (op < 0) return d_fail(d, TC5_EPARSE, "needs the reduction (.add .min .max .inc .dec .and .or .xor)");
    in->aux2 = (uint32_t)op;
  }
  if (d_take(d, "im2col::w") || d_take(d, "im2col::w::128") || d_take(d, "tile::gather4") || d_take(d, "tile::scatter4") ||
      d_take(d, "im2col_no_offs"))
    return d_fail(d, TC5_EUNSUPPORTED, "cp.async.bulk.tensor: .tile and .im2col loads are modelled (not .im2col::w, gather4, scatter4)");
  if (d_take(d, "im2col")) {
    if (reduce || dst == PS_GLOBAL) return d_fail(d, TC5_EPARSE, ".im2col loads: global to shared memory");
    if (rank < 3) return d_fail(d, TC5_EILLEGAL, ".im2col needs .3d to .5d");
    in->mods |= TM_IM2COL;
  }
  d_take(d, "tile");
  if (take_hint(d)) in->mods |= TM_HINT;
  if (dst == PS_GLOBAL) {
    /* a store or a reduction: [map, {coords}], [src] */
    if (src != PS_SHARED) return d_fail(d, TC5_EPARSE, "a store to .global copies from .shared::cta");
    if (!d_take(d, "bulk_group")) return d_fail(d, TC5_EPARSE, "a store completes through .bulk_group");
    in->mods |= reduce ? TM_REDUCE : TM_STORE;
    if (!d_nops(d, 2, 3) || !d_tensor_addr(d, 0, rank, &in->o[0], &in->o[1]) || !d_addr(d, 1, &in->o[2], NULL)) return d->st;
    if (d->r->nops == 3 && !(in->mods & TM_HINT)) return d_fail(d, TC5_EPARSE, "a third operand needs .L2::cache_hint");
    in->fn = x_tensor;
    in->flags |= PF_LATE;
    return TC5_OK;
  }
  if (reduce) return d_fail(d, TC5_EPARSE, "a reduction writes .global");
  if (src != PS_GLOBAL || (dst != PS_SHARED_CLUSTER && dst != PS_SHARED))
    return d_fail(d, TC5_EPARSE, "a load copies .global to .shared::cluster or .shared::cta");
  if (!d_take(d, "mbarrier::complete_tx::bytes")) return d_fail(d, TC5_EPARSE, "a load completes through .mbarrier::complete_tx::bytes");
  in->mods |= TM_MBAR;
  /* .cta_group::2: the mbarrier may be the peer CTA's (9.7.9.25.5.1) */
  const char *cg = d_take_prefix(d, "cta_group::");
  if (cg && strcmp(cg, "1") && strcmp(cg, "2")) return d_fail(d, TC5_EPARSE, ".cta_group::%s: 1 or 2", cg);
  if (cg && cg[0] == '2') in->mods |= TM_PAIR;
  if (d_take(d, "multicast::cluster")) in->mods |= TM_MULTICAST;
  in->space = (uint8_t)dst;
  bool i2c = in->mods & TM_IM2COL;
  unsigned want = 3 + i2c + ((in->mods & TM_MULTICAST) != 0) + ((in->mods & TM_HINT) != 0);
  if (!d_nops(d, want, want) || !d_addr(d, 0, &in->o[0], NULL) || !d_tensor_addr(d, 1, rank, &in->o[1], &in->o[2]) ||
      !d_addr(d, 2, &in->o[3], NULL) || (i2c && !d_vec(d, 3, rank - 2, false, PT_U16, &in->o[5])) ||
      ((in->mods & TM_MULTICAST) && !d_src(d, 3 + i2c, PT_U16, &in->o[4])))
    return d->st;
  in->fn = x_tensor;
  in->flags |= PF_LATE;
  return TC5_OK;
}

/* cp.async.bulk{.dst.src}{.mbarrier::complete_tx::bytes | .bulk_group}... [dst], [src], size[, mbar] */
static tc5_status dec_bulk_copy(dctx *d) {
  ptx_insn *in = d->in;
  int dst, src;
  if (!take_dst_src(d, &dst, &src)) return d_fail(d, TC5_EPARSE, "needs the destination and source state spaces");
  bool mc = d_take(d, "multicast::cluster");
  if (take_hint(d)) in->mods |= TM_HINT;
  bool mbar = d_take(d, "mbarrier::complete_tx::bytes");
  bool group = d_take(d, "bulk_group");
  bool cp_mask = d_take(d, "cp_mask");
  if (!mc) mc = d_take(d, "multicast::cluster"); /* either order */
  if (mc && (dst != PS_SHARED_CLUSTER || src != PS_GLOBAL))
    return d_fail(d, TC5_EPARSE, ".multicast::cluster copies .global to .shared::cluster");
  if (cp_mask && dst != PS_GLOBAL) return d_fail(d, TC5_EPARSE, ".cp_mask copies .shared::cta to .global");
  if (dst == PS_GLOBAL) {
    if (src != PS_SHARED || !group) return d_fail(d, TC5_EPARSE, "a copy to .global is from .shared::cta, completing through .bulk_group");
  } else if ((dst == PS_SHARED_CLUSTER || dst == PS_SHARED) && (src == PS_GLOBAL || src == PS_SHARED)) {
    if (!mbar) return d_fail(d, TC5_EPARSE, "a copy to shared memory completes through .mbarrier::complete_tx::bytes");
    in->mods |= TM_MBAR;
  } else {
    return d_fail(d, TC5_EPARSE, "cp.async.bulk copies global -> shared, shared -> global or shared::cta -> shared::cluster");
  }
  in->space = (uint8_t)dst;
  in->type = (uint8_t)src;
  if (mc) in->mods |= TM_MULTICAST;
  if (cp_mask) in->mods |= TM_CP_MASK;
  unsigned want = 3 + (mbar ? 1 : 0) + mc + cp_mask + ((in->mods & TM_HINT) != 0);
  if (!d_nops(d, want, want) || !d_addr(d, 0, &in->o[0], NULL) || !d_addr(d, 1, &in->o[1], NULL) ||
      !d_src(d, 2, PT_U32, &in->o[2]) || (mbar && !d_addr(d, 3, &in->o[3], NULL)) ||
      (mc && !d_src(d, 4, PT_U16, &in->o[4])) || (cp_mask && !d_src(d, 3, PT_U16, &in->o[3])))
    return d->st;
  in->fn = x_bulk;
  in->flags |= PF_ASYNC | PF_LATE;
  return TC5_OK;
}

/* cp.async.bulk.* and cp.reduce.async.bulk.* */
static tc5_status dec_bulk_reduce(dctx *d) {
  ptx_insn *in = d->in;
  int dst = d_take_space(d), src = d_take_space(d);
  if ((dst != PS_GLOBAL && dst != PS_SHARED_CLUSTER) || src != PS_SHARED)
    return d_fail(d, TC5_EPARSE, "cp.reduce.async.bulk reduces .shared::cta into .global or .shared::cluster");
  bool mbar = dst == PS_SHARED_CLUSTER;
  if (mbar ? !d_take(d, "mbarrier::complete_tx::bytes") : !d_take(d, "bulk_group"))
    return d_fail(d, TC5_EPARSE, "completes through %s", mbar ? ".mbarrier::complete_tx::bytes" : ".bulk_group");
  static const char *const ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", NULL};
  int op = d_take_one(d, ops);
  if (op < 0) return d_fail(d, TC5_EPARSE, "needs the reduction (.add .min .max .inc .dec .and .or .xor)");
  d_take(d, "noftz");
  bool hint = take_hint(d); /* a cache-policy operand last: nothing to model */
  ptx_type t = d_take_type(d);
  static const struct { ptx_type p; tc5_tmap_type t; } map[] = {
      {PT_B32, TC5_TMAP_U32}, {PT_U32, TC5_TMAP_U32}, {PT_S32, TC5_TMAP_S32}, {PT_B64, TC5_TMAP_U64}, {PT_U64, TC5_TMAP_U64},
      {PT_S64, TC5_TMAP_S64}, {PT_F32, TC5_TMAP_F32}, {PT_F64, TC5_TMAP_F64}, {PT_F16, TC5_TMAP_F16}, {PT_BF16, TC5_TMAP_BF16}};
  int k = -1;
  for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
    if (map[i].p == t) k = (int)i;
  if (k < 0) return d_fail(d, TC5_EPARSE, "needs the element type");
  if (mbar) { /* into shared memory: .and/.or/.xor .b32, .add/.inc/.dec/.min/.max .u32, .add/.min/.max .s32, .add .u64 */
    bool ok = t == PT_B32 ? op >= 5 : t == PT_U32 ? op <= 4 : t == PT_S32 ? op <= 2 : t == PT_U64 && op == 0;
    if (!ok)
      return d_fail(d, TC5_EILLEGAL, ".%s.%s is no reduction into .shared::cluster (.and/.or/.xor .b32; .add/.inc/.dec/.min/.max "
                    ".u32; .add/.min/.max .s32; .add .u64)", ops[op], ptx_types[t].name);
  }
  in->aux = map[k].t;
  in->aux2 = (uint32_t)op;
  unsigned want = (mbar ? 4 : 3) + hint;
  if (!d_nops(d, want, want) || !d_addr(d, 0, &in->o[0], NULL) || !d_addr(d, 1, &in->o[1], NULL) ||
      !d_src(d, 2, PT_U32, &in->o[2]) || (mbar && !d_addr(d, 3, &in->o[3], NULL)))
    return d->st;
  in->mods |= TM_REDUCE_BULK | (mbar ? TM_MBAR : 0);
  in->space = (uint8_t)dst;
  in->type = PS_SHARED;
  in->fn = x_bulk;
  in->flags |= PF_ASYNC | PF_LATE;
  return TC5_OK;
}

PTX_DEC(dec_cp_async_bulk) { return ptx_dec_bulk(d, false); } /* "bulk" taken by the row's name */
PTX_DEC(dec_cp_reduce) {
  if (!d_take(d, "async") || !d_take(d, "bulk")) return d_fail(d, TC5_EPARSE, "expected cp.reduce.async.bulk");
  return ptx_dec_bulk(d, true);
}
tc5_status ptx_dec_bulk(dctx *d, bool reduce) {
  ptx_insn *in = d->in;
  bool wait = !reduce && d_take(d, "wait_group");
  if (wait || (!reduce && d_take(d, "commit_group"))) {
    /* every bulk copy completed when issued: nothing to wait for (the
     * checker follows the bulk groups: in->aux 1 for wait_group; a late
     * schedule keeps a commit_group in the FIFO and completes the warp's
     * copies at wait_group) */
    in->aux = wait;
    in->flags |= PF_GROUP | (wait ? PF_FLUSH_WARP : PF_LATE);
    in->aux2 = PTX_GROUP_BULK;
    d_take(d, "read");
    in->fn = x_bulk_group;
    if (!d_nops(d, in->aux, in->aux)) return d->st;
    return in->aux && !d_src(d, 0, PT_U32, &in->o[0]) ? d->st : TC5_OK;
  }
  if (!reduce && d_take(d, "prefetch")) {
    for (unsigned k = 1; k < d->ntok; k++) d->used[k] = true;
    in->fn = x_done;
    return TC5_OK;
  }
  if (d_take(d, "tensor")) return dec_tensor(d, reduce);
  if (reduce) return dec_bulk_reduce(d);
  return dec_bulk_copy(d);
}

/* ---- tensormap.replace / tensormap.cp_fenceproxy (device-side tensor maps) ---- */
/* in->aux: the field; operands o[0] the map's address, [o[1] ordinal], o[n] the value */
static PTX_EXEC(x_tmap_replace) {
  bool has_ord = in->nops == 3;
  const uint64_t *val = PTX_R(w, in->o[has_ord ? 2 : 1].reg);
  PTX_LANES(mask, {
    uint64_t a = PTX_R(w, in->o[0].reg)[l] + (uint64_t)in->o[0].imm;
    uint8_t *p = ptx_mem(w, in, (int)l, in->space, a, 128, true);
    if (!p) return PX_ERROR;
    tc5_tensormap m;
    memcpy(m.bytes, p, 128);
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_tmap_params cp;
    /* CUDA's encoding: edited as tc5's own (the same fields); anything else (a map being built from
     * zeros or from tc5's) is edited as it is */
    if (tc5_tensormap_is_cuda(&m) && !tc5_tensormap_cuda_decode(&m, &cp, &dg)) tc5_tensormap_encode(&m, &cp, &dg);
    tc5_diag_init(&dg);
    tc5_status st = tc5_tensormap_replace(&m, (tc5_tmap_field)in->aux, has_ord ? (unsigned)PTX_R(w, in->o[1].reg)[l] : 0,
                                          val[l], &dg);
    if (st) return ptx_fail(w, in, (int)l, st, val[l], "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
    memcpy(p, m.bytes, 128);
  });
  return PX_NEXT;
}
/* tensormap.cp_fenceproxy: 128 bytes of a map from shared to global memory */
static PTX_EXEC(x_tmap_copy) {
  PTX_LANES(mask, {
    uint64_t d = PTX_R(w, in->o[0].reg)[l] + (uint64_t)in->o[0].imm, s = PTX_R(w, in->o[1].reg)[l] + (uint64_t)in->o[1].imm;
    const uint8_t *sp = ptx_mem(w, in, (int)l, PS_SHARED, s, 128, false);
    if (!sp) return PX_ERROR;
    uint8_t tmp[128];
    memcpy(tmp, sp, 128);
    uint8_t *dp = ptx_mem(w, in, (int)l, PS_GLOBAL, d, 128, true);
    if (!dp) return PX_ERROR;
    memcpy(dp, tmp, 128);
  });
  return PX_NEXT;
}
PTX_DEC(dec_tensormap) {
  ptx_insn *in = d->in;
  if (d_take(d, "cp_fenceproxy")) {
    static const char *const ign[] = {"tensormap::generic", "release", "acquire", "gpu", "cta", "cluster", "sys", NULL};
    while (d_take_one(d, ign) >= 0) {
    }
    int dst = d_take_space(d), src = d_take_space(d);
    if (dst != PS_GLOBAL || src != PS_SHARED) return d_fail(d, TC5_EPARSE, "tensormap.cp_fenceproxy copies .shared::cta to .global");
    if (!d_take(d, "sync") || !d_take(d, "aligned")) return d_fail(d, TC5_EPARSE, "needs .sync.aligned");
    int64_t size;
    if (!d_nops(d, 3, 3) || !d_addr(d, 0, &in->o[0], NULL) || !d_addr(d, 1, &in->o[1], NULL) || !d_imm(d, 2, &size)) return d->st;
    if (size != 128) return d_fail(d, TC5_EILLEGAL, "tensormap.cp_fenceproxy copies 128 bytes, not %lld", (long long)size);
    in->flags |= PF_ALIGNED | PF_ASYNC;
    in->fn = x_tmap_copy;
    return TC5_OK;
  }
  if (!d_take(d, "replace")) return d_fail(d, TC5_EUNSUPPORTED, "this tensormap instruction is not modelled");
  if (!d_take(d, "tile")) return d_fail(d, TC5_EPARSE, "tensormap.replace needs .tile");
  static const char *const fields[] = {"global_address", "rank", "box_dim", "global_dim", "global_stride", "element_stride",
                                       "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity", "fill_mode", NULL};
  int f = d_take_one(d, fields);
  if (f < 0) return d_fail(d, TC5_EPARSE, "tensormap.replace needs a field");
  int sp = d_take_space(d);
  if (!d_take(d, "b1024")) return d_fail(d, TC5_EPARSE, "needs .b1024");
  ptx_type t = d_take_type(d);
  bool wide = f == TC5_TMAP_F_GLOBAL_ADDRESS || f == TC5_TMAP_F_GLOBAL_STRIDE;
  if (t != (wide ? PT_B64 : PT_B32)) return d_fail(d, TC5_EPARSE, "the %s field takes .%s", fields[f], wide ? "b64" : "b32");
  bool has_ord = f == TC5_TMAP_F_BOX_DIM || f == TC5_TMAP_F_GLOBAL_DIM || f == TC5_TMAP_F_GLOBAL_STRIDE ||
                 f == TC5_TMAP_F_ELEMENT_STRIDE;
  unsigned n = has_ord ? 3 : 2;
  in->aux = (uint32_t)f;
  in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
  if (!d_nops(d, n, n) || !d_addr(d, 0, &in->o[0], NULL) || (has_ord && !d_src(d, 1, PT_U32, &in->o[1])) ||
      !d_src(d, n - 1, t, &in->o[n - 1]))
    return d->st;
  in->nops = (uint8_t)n;
  in->flags |= PF_ASYNC;
  in->fn = x_tmap_replace;
  return TC5_OK;
}
