/* tc5 PTX runner — the tcgen05 instructions, executed by tc5's models of
 * the spec's chapter (9.7.16): Tensor Memory allocation (tc5_tmem_alloc...,
 * 9.7.16.7), tcgen05.ld / st (tc5_tmem_ld / st, 9.7.16.8), tcgen05.mma
 * (tc5_mma_issue, 9.7.16.10) and tcgen05.commit (tc5_commit, 9.7.16.12.1).
 * What an MMA reads through a descriptor is the CTA's shared memory as
 * st.shared / cp.async wrote it; Tensor Memory is the CTA's tc5_tmem.
 *
 * tcgen05.ld and st complete when they execute, and tcgen05.wait::ld/st
 * have nothing left to wait for; tcgen05.mma completes when a commit
 * executes (the model of tc5/sync.h). The fences order nothing in this
 * sequential model. */
#include <stdlib.h>
#include <string.h>

#include "check/check_impl.h"
#include "ptx/decode_impl.h"
#include "tc5/cp.h"
#include "tc5/kind.h"

enum { T_ALLOC, T_DEALLOC, T_RELINQUISH, T_LD, T_ST, T_WAIT, T_FENCE, T_COMMIT, T_MMA, T_CP, T_SHIFT };

static int fail_diag(ptx_warp *w, const ptx_insn *in, int lane, tc5_status st, const tc5_diag *dg) {
  return ptx_fail(w, in, lane, st, 0, "%s", dg->count ? dg->issue[0].message : tc5_strerror(st));
}

/* the warp-uniform value of a register over the lanes of mask */
static bool uniform(ptx_warp *w, const ptx_insn *in, uint32_t reg, uint32_t mask, uint64_t *v, const char *what) {
  const uint64_t *r = PTX_R(w, reg);
  unsigned first = (unsigned)__builtin_ctz(mask);
  *v = r[first];
  PTX_LANES(mask, {
    if (r[l] != *v) {
      ptx_fail(w, in, (int)l, TC5_EILLEGAL, r[l], "%s must be the same in every thread of the warp (0x%llx in lane %u, 0x%llx in lane %u)",
               what, (unsigned long long)*v, first, (unsigned long long)r[l], l);
      return false;
    }
  });
  return true;
}

/* the engine's CTAs of an instruction of .cta_group::cg: the executing
 * CTA, or its CTA pair (the even CTA first, 9.7.16.5.1), whose peer must
 * exist and not have exited (Table 46). NULL after reporting. */
static tc5_cta *group_of(ptx_warp *w, const ptx_insn *in, int lane, unsigned cg) {
  ptx_cta *c = w->cta;
  if (cg == 1) return c->mma;
  ptx_cluster *cl = c->cl;
  if ((c->rank ^ 1u) >= cl->n) {
    ptx_fail(w, in, lane, TC5_EILLEGAL, c->rank,
             "[cta-pair] .cta_group::2 needs a CTA pair (9.7.16.5.1): CTA rank %u has no peer in a cluster of %u CTA%s",
             c->rank, cl->n, cl->n == 1 ? " (launch with --cluster or .reqnctapercluster)" : "s");
    return NULL;
  }
  if (ptx_cta_exited(&cl->ctas[c->rank ^ 1u])) {
    ptx_fail(w, in, lane, TC5_ESTATE, c->rank ^ 1u,
             "[cta-pair] the peer CTA (rank %u) has exited: a .cta_group::2 instruction needs it active (Table 46)",
             c->rank ^ 1u);
    return NULL;
  }
  return &cl->mma[c->rank & ~1u];
}

/* the .cta_group::2 allocation instructions (op T_ALLOC, T_DEALLOC,
 * T_RELINQUISH), executed by one warp of each CTA of the pair: the first to
 * arrive waits (PX_BLOCK, retried) for its peer's, which performs the
 * instruction for both (tc5_tmem_alloc2 ...) and lets it go on. */
static int pair_op(ptx_warp *w, const ptx_insn *in, unsigned op, uint32_t ncols, uint32_t taddr, uint32_t *out) {
  ptx_cta *c = w->cta;
  ptx_cluster *cl = c->cl;
  struct ptx_pair_op *p = &cl->pair[c->rank >> 1];
  unsigned h = c->rank & 1u;
  static const char *const name[] = {[T_ALLOC] = "tcgen05.alloc", [T_DEALLOC] = "tcgen05.dealloc",
                                     [T_RELINQUISH] = "tcgen05.relinquish_alloc_permit"};
  if (p->done >> h & 1u) { /* the peer performed it */
    p->done &= (uint8_t)~(1u << h);
    *out = p->taddr;
    return PX_NEXT;
  }
  if (op == T_DEALLOC && (p->done >> (h ^ 1u) & 1u) && p->op == T_ALLOC)
    return ptx_fail(w, in, -1, TC5_ESTATE, p->line,
                    "[%s] tcgen05.dealloc.cta_group::2 while the peer CTA's warp (rank %u) has not "
                    "returned from the pair's tcgen05.alloc (line %u): its allocation is not complete",
                    chk_rule_id(CR_PAIR_DEALLOC_EARLY), c->rank ^ 1u, p->line);
  w->wait_id = PTX_WAIT_PEER;
  if (p->arrived >> h & 1u) return PX_BLOCK;
  if (!group_of(w, in, -1, 2)) return PX_ERROR; /* the peer exists and has not exited */
  if (!(p->arrived >> (h ^ 1u) & 1u)) {
    p->arrived |= (uint8_t)(1u << h);
    p->op = (uint8_t)op, p->ncols = ncols, p->taddr = taddr, p->line = in->line;
    return PX_BLOCK;
  }
  if (p->op != op)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, op,
                    "[cta-pair] the peer CTA's warp waits in %s (line %u), this one executes %s: the two warps of a "
                    ".cta_group::2 allocation instruction must execute the same one (Table 46)",
                    name[p->op], p->line, name[op]);
  if (op != T_RELINQUISH && (p->ncols != ncols || (op == T_DEALLOC && p->taddr != taddr)))
    return ptx_fail(w, in, -1, TC5_EILLEGAL, ncols,
                    "[cta-pair] %s.cta_group::2: the peer CTA's warp (line %u) gives taddr 0x%x, nCols %u; this one "
                    "taddr 0x%x, nCols %u: the pair must agree", name[op], p->line, op == T_DEALLOC ? p->taddr : 0,
                    p->ncols, op == T_DEALLOC ? taddr : 0, ncols);
  tc5_tmem *pair[2] = {&cl->ctas[c->rank & ~1u].tmem, &cl->ctas[c->rank | 1u].tmem};
  tc5_diag dg;
  tc5_diag_init(&dg);
  uint32_t t = taddr;
  tc5_status st = op == T_ALLOC     ? tc5_tmem_alloc2(pair, ncols, &t, &dg)
                  : op == T_DEALLOC ? tc5_tmem_dealloc2(pair, taddr, ncols, &dg)
                                    : tc5_tmem_relinquish2(pair, &dg);
  if (st == TC5_EWOULDBLOCK) {
    w->wait_id = PTX_WAIT_ALLOC;
    return PX_BLOCK; /* both wait for columns */
  }
  if (st) return fail_diag(w, in, -1, st, &dg);
  p->arrived &= (uint8_t)~(1u << (h ^ 1u));
  p->done |= (uint8_t)(1u << (h ^ 1u));
  p->taddr = t;
  cl->ctas[c->rank ^ 1u].progress = c->progress = true;
  *out = t;
  return PX_NEXT;
}

static PTX_EXEC(x_alloc) {
  if (mask && w->cta->chk && chk_has_deferred(w->cta->chk)) chk_dealloc_used(w->cta->chk); /* Tensor Memory used after a dealloc */
  if (!mask) return PX_NEXT;
  ptx_cta *c = w->cta;
  uint64_t dst, ncols;
  if (!uniform(w, in, in->o[0].reg, mask, &dst, "the destination address") ||
      !uniform(w, in, in->o[1].reg, mask, &ncols, "nCols"))
    return PX_ERROR;
  dst += (uint64_t)in->o[0].imm;
  uint32_t off;
  if (!ptx_shared_addr(w, in->space, dst, &off))
    return ptx_fail(w, in, -1, TC5_EILLEGAL, dst, "tcgen05.alloc: 0x%llx is not a shared-memory address", (unsigned long long)dst);
  uint8_t *p = ptx_mem(w, in, -1, PS_SHARED, off, 4, true);
  if (!p) return PX_ERROR;
  if (c->chk) chk_smem_async_write(CHK_W(w), CHK_IN(w, in), -1, c->chk, off, 4);
  uint32_t taddr = 0;
  if (in->mods == 2) {
    int r = pair_op(w, in, T_ALLOC, (uint32_t)ncols, 0, &taddr);
    if (r != PX_NEXT) return r;
  } else {
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_tmem_use_cta_group(&c->tmem, 1, "tcgen05.alloc", &dg);
    if (!st) st = tc5_tmem_alloc(&c->tmem, (uint32_t)ncols, &taddr, &dg);
    if (st == TC5_EWOULDBLOCK) {
      w->wait_id = PTX_WAIT_ALLOC;
      return PX_BLOCK;
    }
    if (st) return fail_diag(w, in, -1, st, &dg);
  }
  memcpy(p, &taddr, 4);
  return PX_NEXT;
}
static PTX_EXEC(x_dealloc) {
  if (!mask) return PX_NEXT;
  ptx_cta *c = w->cta;
  uint64_t taddr, ncols;
  if (!uniform(w, in, in->o[0].reg, mask, &taddr, "taddr") || !uniform(w, in, in->o[1].reg, mask, &ncols, "nCols"))
    return PX_ERROR;
  if (in->mods == 2) {
    uint32_t t;
    int r = pair_op(w, in, T_DEALLOC, (uint32_t)ncols, (uint32_t)taddr, &t);
    if (r != PX_NEXT) return r;
  } else {
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_tmem_dealloc(&c->tmem, (uint32_t)taddr, (uint32_t)ncols, &dg);
    if (st) return fail_diag(w, in, -1, st, &dg);
  }
  if (c->chk) chk_dealloc(CHK_W(w), CHK_IN(w, in), (uint32_t)taddr, (uint32_t)ncols);
  c->progress = true;
  return PX_NEXT;
}
static PTX_EXEC(x_relinquish) {
  if (!mask) return PX_NEXT;
  if (in->mods == 2) {
    uint32_t t;
    return pair_op(w, in, T_RELINQUISH, 0, 0, &t);
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_tmem_relinquish(&w->cta->tmem, &dg);
  return st ? fail_diag(w, in, -1, st, &dg) : PX_NEXT;
}

/* tcgen05.ld / st: in->aux = index into the module's ldst table (kept in
 * the instruction's mods/aux2 fields): shape in aux2 bits 0-7, num in bits
 * 8-15 (log2), pack in bit 16, half-split in mods */
static void ldst_of(const ptx_insn *in, tc5_tmem_ldst *op) {
  memset(op, 0, sizeof *op);
  op->shape = (tc5_tmem_shape)(in->aux2 & 0xff);
  op->num = 1u << ((in->aux2 >> 8) & 0xff);
  op->pack16 = (in->aux2 >> 16) & 1;
  op->half_split = in->mods;
  /* tcgen05.ld.red: bits 17-18 the operation, 19-20 the type, 21 .abs, 22 .NaN */
  op->red = (tc5_tmem_redop)((in->aux2 >> 17) & 3);
  op->red_type = (tc5_tmem_redtype)((in->aux2 >> 19) & 3);
  op->red_abs = (in->aux2 >> 21) & 1;
  op->red_nan = (in->aux2 >> 22) & 1;
}
/* default mode: a tcgen05.ld that read cells never written is reported
 * where a thread reads such a register (chk_tmem_poison), not at the load:
 * the registers of thread t that hold such a cell (or half of one, read by
 * .pack::16b or written by .unpack::16b) are marked, the log's count of
 * the load taken back. False when out of memory. */
static bool defer_uninit(ptx_warp *w, const ptx_insn *in, const tc5_tmem_ldst *op, uint32_t taddr, const uint32_t *vr,
                         unsigned n, tc5_uninit_log *ul, uint64_t before) {
  const tc5_tmem *t = &w->cta->tmem;
  uint32_t stack[32], *lanes = n <= 32 ? stack : calloc(n, 4);
  if (!lanes) return false;
  uint32_t lane0 = TC5_TMEM_LANE(taddr), col0 = TC5_TMEM_COL(taddr);
  for (unsigned r = 0; r < n; r++) {
    lanes[r] = 0;
    for (uint32_t th = 0; th < 32; th++) {
      uint32_t l, c, nc;
      if (tc5_tmem_frag_cell(op, th, r, &l, &c, &nc)) continue;
      size_t i = (size_t)(lane0 + l) * TC5_TMEM_COLS + col0 + c;
      bool bad = op->pack16 ? !(t->written[i] & 1) || !(t->written[i + 1] & 1) : t->written[i] != 3;
      lanes[r] |= (uint32_t)bad << th;
    }
  }
  chk_tmem_poison(CHK_W(w), CHK_IN(w, in), vr, n, lanes, ul->tmem_addr);
  if (lanes != stack) free(lanes);
  if (!before) ul->tmem_addr = 0;
  ul->tmem = before;
  return true;
}
static PTX_EXEC(x_tld) {
  if (mask && w->cta->chk && chk_has_deferred(w->cta->chk)) chk_dealloc_used(w->cta->chk); /* Tensor Memory used after a dealloc */
  if (!mask) return PX_NEXT;
  bool store = in->aux == T_ST;
  const ptx_opnd *ad = &in->o[store ? 0 : 1], *v = &in->o[store ? 1 : 0];
  uint64_t taddr;
  if (!uniform(w, in, ad->reg, mask, &taddr, "taddr")) return PX_ERROR;
  taddr += (uint64_t)ad->imm;
  tc5_tmem_ldst op;
  ldst_of(in, &op);
  unsigned n = v->n;
  const uint32_t *vr = w->cta->L->m->vregs + v->vec;
  uint32_t stackbuf[32 * 8];
  uint32_t *regs = n <= 8 ? stackbuf : malloc(sizeof(uint32_t) * 32 * n);
  if (!regs) return ptx_fail(w, in, -1, TC5_ENOMEM, 0, "out of memory");
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st;
  if (store) {
    for (unsigned t = 0; t < 32; t++)
      for (unsigned k = 0; k < n; k++) regs[t * n + k] = (uint32_t)PTX_R(w, vr[k])[t];
    st = tc5_tmem_st(&w->cta->tmem, &op, w->id, (uint32_t)taddr, regs, &dg);
  } else {
    uint32_t redval[32];
    tc5_uninit_log *ul = w->cta->tmem.uninit;
    uint64_t before = ul ? ul->tmem : 0;
    st = tc5_tmem_ld(&w->cta->tmem, &op, w->id, (uint32_t)taddr, regs, op.red ? redval : NULL, &dg);
    if (!st || st == TC5_EUNINIT) {
      for (unsigned t = 0; t < 32; t++)
        for (unsigned k = 0; k < n; k++) PTX_R(w, vr[k])[t] = regs[t * n + k];
      if (op.red)
        for (unsigned t = 0; t < 32; t++) PTX_R(w, in->o[2].reg)[t] = redval[t];
    }
    if (!st && ul && ul->tmem != before && w->cta->chk && chk_defers_uninit(w->cta->chk) && !op.red &&
        !defer_uninit(w, in, &op, (uint32_t)taddr, vr, n, ul, before)) {
      if (regs != stackbuf) free(regs);
      return ptx_fail(w, in, -1, TC5_ENOMEM, 0, "out of memory");
    }
  }
  if (regs != stackbuf) free(regs);
  if (st == TC5_EUNINIT || st == TC5_EACCESS)
    return ptx_fail(w, in, -1, st, taddr, "[%s] %s", chk_rule_id(st == TC5_EUNINIT ? CR_TMEM_UNINIT : CR_TMEM_LANES),
                    dg.count ? dg.issue[0].message : tc5_strerror(st));
  if (st) return fail_diag(w, in, -1, st, &dg);
  if (w->cta->chk) {
    chk_tmem_ldst(CHK_W(w), CHK_IN(w, in), store, (uint32_t)taddr, &op, w->cta->L->m->vregs + v->vec, v->n);
    static const char ldred[] = "sm_101f sm_103f sm_110f";
    if (op.red && !ptx_target_in(w->cta->L->m, ldred)) chk_target_feature(CHK_W(w), CHK_IN(w, in), "tcgen05.ld.red", ldred);
  }
  return PX_NEXT;
}

/* tcgen05.wait::ld / ::st (in->mods: 1 for st) and the tcgen05 fences
 * (in->mods: 1 for after_thread_sync): nothing to wait for in this model
 * (ld and st complete when they execute); the checker follows them */
static PTX_EXEC(x_twait) {
  if (mask) chk_tc_wait(CHK_W(w), in->mods & 1);
  return PX_NEXT;
}
static PTX_EXEC(x_tfence) {
  if (mask) chk_tc_fence(CHK_W(w), in->mods & 1);
  return PX_NEXT;
}

/* The mbarrier of tcgen05.commit with no state space (generic addressing):
 * ptxas passes the low 32 bits of the generic address to the instruction
 * (UTCBAR takes a 32-bit shared::cluster address; no conversion in the
 * SASS), so a generic address of the shared window and its 32-bit offset
 * name the same mbarrier. Triton 3.3-3.6 write the offset zero-extended
 * (cvt.u64.u32; issue 52, docs/spec-departures.md). Other generic
 * addresses (global, local) are outside the .shared::cluster window the
 * PTX ISA requires: NULL, refused by the caller. */
static ptx_cta *commit_target(ptx_warp *w, const ptx_insn *in, uint64_t a, uint32_t *off) {
  if (in->space == PS_GENERIC && a <= 0xffffffffu) return ptx_cluster_addr(w, PS_SHARED_CLUSTER, a, off);
  return ptx_cluster_addr(w, in->space, a, off);
}

static PTX_EXEC(x_commit) {
  if (mask && w->cta->chk && chk_has_deferred(w->cta->chk)) chk_dealloc_used(w->cta->chk); /* Tensor Memory used after a dealloc */
  ptx_cta *c = w->cta;
  uint32_t spill = 0; /* the checker: a phase an earlier lane completed */
  PTX_LANES(mask, {
    uint64_t a = PTX_R(w, in->o[0].reg)[l] + (uint64_t)in->o[0].imm;
    uint32_t off;
    ptx_cta *t = commit_target(w, in, a, &off);
    if (!t)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, a, "0x%llx is not a shared-memory address of the cluster", (unsigned long long)a);
    /* .multicast::cluster: the mbarrier at the same offset in each CTA of ctaMask */
    uint32_t cta_mask = in->nops > 1 ? (uint32_t)PTX_R(w, in->o[1].reg)[l] & 0xffffu : 1u << t->rank;
    if (cta_mask >> c->cl->n)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, cta_mask, "ctaMask 0x%04x names CTAs past the cluster's %u", cta_mask, c->cl->n);
    tc5_mbarrier *mp[16];
    ptx_mbar *own = NULL, *pm[16];
    ptx_cta *pc[16];
    uint32_t pbefore[16];
    unsigned nm = 0;
    for (uint32_t m = cta_mask; m; m &= m - 1) {
      ptx_cta *d = &c->cl->ctas[__builtin_ctz(m)];
      if (!ptx_mem(w, in, (int)l, PS_SHARED_CLUSTER, PTX_CLUSTER_FORM(d, off), 8, false))
        return PX_ERROR;
      ptx_mbar *mb = ptx_mbar_find(d, off);
      if (!mb || !mb->mb.initialized)
        return ptx_fail(w, in, (int)l, TC5_ESTATE, off, "[%s] no initialised mbarrier at shared address 0x%x of CTA rank %u (%s)", chk_rule_id(CR_MBAR_UNINIT), off, d->rank,
                        mb ? "invalidated by mbarrier.inval" : "never initialised by mbarrier.init");
      if (d == c) own = mb;
      pm[nm] = mb, pc[nm] = d, pbefore[nm] = mb->mb.phase;
      mp[nm++] = &mb->mb;
      d->progress = true;
    }
    tc5_cta *g = group_of(w, in, (int)l, in->aux2);
    if (!g) return PX_ERROR;
    tc5_diag dg;
    tc5_diag_init(&dg);
    uint32_t before = own ? own->mb.phase : 0;
    tc5_status st = tc5_commit(g, in->aux2, mp, nm, &dg);
    if (st == TC5_EUNINIT) return ptx_fail(w, in, (int)l, st, 0, "[%s] %s", chk_rule_id(CR_TMEM_UNINIT), dg.count ? dg.issue[0].message : "");
    if (st) return fail_diag(w, in, (int)l, st, &dg);
    for (unsigned i = 0; c->chk && i < nm; i++) /* before the arrivals below complete their phases (issue 53) */
      if (pc[i]->chk) chk_commit_target(CHK_W(w), pc[i]->chk, CHK_MB(pc[i], pm[i]));
    if (c->chk && own) chk_mbar_arrive(CHK_W(w), CHK_IN(w, in), (int)l, CHK_MB(c, own), before, true, &spill);
    if (c->tm) for (unsigned i = 0; i < nm; i++) tm_commit(c->tm, w->id, &pm[i]->tm, pm[i]->mb.phase);
    if (nm > (own != NULL)) { /* other CTAs' mbarriers: through the exports */
      chk_export(CHK_W(w), true);
      for (unsigned i = 0; i < nm; i++)
        if (pc[i] != c) {
          if (c->chk) chk_xscope_arrive(CHK_W(w), NULL, (int)l, pc[i]->chk, CHK_MB(pc[i], pm[i])); /* a commit: cluster scope */
          chk_mbar_remote(pc[i]->chk, CHK_MB(pc[i], pm[i]), pbefore[i]);
        }
    }
    c->progress = true;
  });
  return PX_NEXT;
}

/* the timing model's view of an MMA: its FLOPs (dense-equivalent), the
 * rate of its kind, the peer CTA of a pair */
static void timing_mma(ptx_warp *w, const ptx_insn *in, const tc5_mma_args *a, unsigned cta_group) {
  tc5_idesc d;
  unsigned k = 16;
  if (tc5_idesc_decode(a->idesc, a->variant.kind, &d, NULL) || tc5_idesc_k(&d, &k)) return;
  static const unsigned rate[TC5_KIND_COUNT] = {TM_RATE_BF16, TM_RATE_TF32, TM_RATE_FP8, TM_RATE_INT8,
                                                TM_RATE_FP8, TM_RATE_FP4, TM_RATE_FP4};
  double flops = 2.0 * d.m * d.n * k * (d.sparse ? 0.5 : 1);
  ptx_cta *c = w->cta;
  tm_tcgen05(c->tm, w->id, TM_PC(w, in), d.m, d.n, flops,
             rate[(unsigned)a->variant.kind < TC5_KIND_COUNT ? a->variant.kind : 0],
             cta_group == 2 ? c->cl->ctas[c->rank ^ 1u].tm : NULL);
}

/* the async proxy reads shared memory through descriptors (an MMA's
 * operands, tcgen05.cp's source) of the CTA and, with .cta_group::2, its
 * peer: under a seeded schedule, generic writes no fence.proxy.async
 * ordered may be read stale (machine.c, ptx_px_*; every such granule of
 * the CTA is a candidate: the descriptors' footprint is the library's) */
static void px_operands(ptx_warp *w, unsigned cta_group, bool begin) {
  ptx_cta *c = w->cta;
  if (__builtin_expect(c->cl->sched == NULL, 1)) return;
  for (unsigned h = 0; h < (cta_group == 2 ? 2u : 1u); h++) {
    uint32_t r = c->rank ^ h;
    if (r >= c->cl->n) continue;
    ptx_cta *t = &c->cl->ctas[r];
    if (begin) ptx_px_stale_begin(t, 0, 0);
    else ptx_px_stale_end(t);
  }
}
/* tcgen05.mma: the variant is parsed from the opcode text once at decode
 * time (checked) and again here (cheap next to an MMA) */
static PTX_EXEC(x_mma) {
  if (mask && w->cta->chk && chk_has_deferred(w->cta->chk)) chk_dealloc_used(w->cta->chk); /* Tensor Memory used after a dealloc */
  ptx_cta *c = w->cta;
  const tc5_ptx_module *m = c->L->m;
  tc5_mma_variant var;
  tc5_mma_variant_parse(ptx_insn_text(m, in), &var, NULL);
  bool a_tmem = in->mods & 1, has_dol = in->mods & 2, has_scale = in->mods & 4, has_zc = in->mods & 8,
       has_sf = in->mods & 16, has_meta = in->mods & 32;
  unsigned k = 0;
  const ptx_opnd *od = &in->o[k++], *oa = &in->o[k++], *ob = &in->o[k++];
  const ptx_opnd *ometa = has_meta ? &in->o[k++] : NULL, *oi = &in->o[k++];
  const ptx_opnd *osfa = has_sf ? &in->o[k++] : NULL, *osfb = has_sf ? &in->o[k++] : NULL;
  const ptx_opnd *odol = has_dol ? &in->o[k++] : NULL;
  const ptx_opnd *oe = &in->o[k++];
  const ptx_opnd *os = has_scale ? &in->o[k++] : NULL;
  const ptx_opnd *oz = has_zc ? &in->o[k++] : NULL;
  PTX_LANES(mask, {
    tc5_mma_args args;
    tc5_mma_args_init(&args, var.kind);
    args.variant = var;
    args.d_tmem = (uint32_t)(PTX_R(w, od->reg)[l] + (uint64_t)od->imm);
    args.a_in_tmem = a_tmem;
    if (a_tmem) args.a_tmem = (uint32_t)(PTX_R(w, oa->reg)[l] + (uint64_t)oa->imm);
    else args.a_desc = PTX_R(w, oa->reg)[l];
    args.b_desc = PTX_R(w, ob->reg)[l];
    args.idesc = (uint32_t)PTX_R(w, oi->reg)[l];
    args.enable_input_d = (PTX_R(w, oe->reg)[l] != 0) != oe->neg;
    if (os) args.scale_input_d = (unsigned)PTX_R(w, os->reg)[l];
    if (ometa) args.sp_meta_tmem = (uint32_t)(PTX_R(w, ometa->reg)[l] + (uint64_t)ometa->imm);
    if (osfa) {
      args.sfa_tmem = (uint32_t)(PTX_R(w, osfa->reg)[l] + (uint64_t)osfa->imm);
      args.sfb_tmem = (uint32_t)(PTX_R(w, osfb->reg)[l] + (uint64_t)osfb->imm);
    }
    if (odol) {
      args.has_disable_output_lane = true;
      const uint32_t *vr = m->vregs + odol->vec;
      for (unsigned j = 0; j < odol->n && j < 8; j++) args.disable_output_lane[j] = (uint32_t)PTX_R(w, vr[j])[l];
    }
    if (oz) {
      args.has_zcmask = true;
      args.zcmask = PTX_R(w, oz->reg)[l];
    }
    tc5_cta *g = group_of(w, in, (int)l, var.cta_group);
    if (!g) return PX_ERROR;
    tc5_diag dg;
    tc5_diag_init(&dg);
    px_operands(w, var.cta_group, true); /* the async proxy reads the operands (seeded schedules: maybe stale) */
    tc5_status st = tc5_mma_issue(g, var.cta_group, &args, &dg);
    px_operands(w, var.cta_group, false);
    if (st == TC5_EUNINIT) return ptx_fail(w, in, (int)l, st, 0, "[%s] %s", chk_rule_id(CR_SMEM_UNINIT), dg.count ? dg.issue[0].message : "");
    if (st) return fail_diag(w, in, (int)l, st, &dg);
    if (c->chk) chk_mma(CHK_W(w), CHK_IN(w, in), (int)l, &args);
    if (c->tm) timing_mma(w, in, &args, var.cta_group);
  });
  return PX_NEXT;
}

/* default mode: a tcgen05.cp that read shared memory never written leaves
 * its destination cells never written (their values are the poison it
 * copied): the finding is tmem-uninit-read where they are read (an MMA's
 * scale factors, a tcgen05.ld whose values are used), not the copy's
 * smem-uninit-read, whose count is taken back. Gluon's tutorial 11 copies
 * scale factors of buffers never loaded in iterations whose MMA is
 * predicated off (docs/check.md). */
static void cp_unwritten(tc5_cta *g, const tc5_cp_args *a, tc5_uninit_log *ul, uint64_t before) {
  const tc5_cp_shape_info *si = tc5_cp_shape_get(a->shape);
  if (!si) return;
  uint32_t lane0 = TC5_TMEM_LANE(a->taddr), col0 = TC5_TMEM_COL(a->taddr), ncols = si->bits / 32;
  for (unsigned c = 0; c < a->cta_group; c++)
    for (unsigned r = 0; r < si->rows; r++)
      for (unsigned q = 0; q < si->replicas; q++) {
        uint32_t l;
        if (tc5_cp_lane(a->shape, r, q, &l) || lane0 + l >= TC5_TMEM_LANES) continue;
        for (uint32_t j = 0; j < ncols && col0 + j < TC5_TMEM_COLS; j++)
          g[c].tmem->written[(size_t)(lane0 + l) * TC5_TMEM_COLS + col0 + j] = 0;
      }
  if (!before) ul->smem_addr = 0;
  ul->smem = before;
}
/* tcgen05.cp [taddr], s-desc: the qualifiers parsed at decode time (in
 * aux2: shape, bit 8 decompress, bit 9 the source format) */
static PTX_EXEC(x_cp) {
  if (mask && w->cta->chk && chk_has_deferred(w->cta->chk)) chk_dealloc_used(w->cta->chk); /* Tensor Memory used after a dealloc */
  PTX_LANES(mask, {
    tc5_cp_args a;
    memset(&a, 0, sizeof a);
    a.shape = (tc5_cp_shape)(in->aux2 & 0xff);
    a.decompress = in->aux2 >> 8 & 1;
    a.src_fmt = (tc5_cp_src_fmt)(in->aux2 >> 9 & 1);
    a.cta_group = in->aux2 >> 10 & 3;
    a.taddr = (uint32_t)(PTX_R(w, in->o[0].reg)[l] + (uint64_t)in->o[0].imm);
    a.sdesc = PTX_R(w, in->o[1].reg)[l];
    tc5_cta *g = group_of(w, in, (int)l, a.cta_group);
    if (!g) return PX_ERROR;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_uninit_log *ul = w->cta->smem.uninit;
    uint64_t before = ul ? ul->smem : 0;
    px_operands(w, a.cta_group, true); /* the async proxy reads the source (seeded schedules: maybe stale) */
    tc5_status st = tc5_cp(g, a.cta_group, &a, &dg);
    px_operands(w, a.cta_group, false);
    if (st == TC5_EUNINIT) return ptx_fail(w, in, (int)l, st, 0, "[%s] %s", chk_rule_id(CR_SMEM_UNINIT), dg.count ? dg.issue[0].message : "");
    if (st) return fail_diag(w, in, (int)l, st, &dg);
    if (ul && ul->smem != before && w->cta->chk && chk_defers_uninit(w->cta->chk)) cp_unwritten(g, &a, ul, before);
    if (w->cta->chk) chk_cp(CHK_W(w), CHK_IN(w, in), (int)l, &a);
  });
  return PX_NEXT;
}
static PTX_EXEC(x_shift) {
  if (mask && w->cta->chk && chk_has_deferred(w->cta->chk)) chk_dealloc_used(w->cta->chk); /* Tensor Memory used after a dealloc */
  PTX_LANES(mask, {
    uint32_t taddr = (uint32_t)(PTX_R(w, in->o[0].reg)[l] + (uint64_t)in->o[0].imm);
    tc5_cta *g = group_of(w, in, (int)l, in->mods);
    if (!g) return PX_ERROR;
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_shift(g, in->mods, in->mods, taddr, &dg);
    if (st) return fail_diag(w, in, (int)l, st, &dg);
    if (w->cta->chk) chk_shift(CHK_W(w), CHK_IN(w, in), (int)l, taddr);
  });
  return PX_NEXT;
}

/* .cta_group::1 or ::2: 0 when missing or another (reported) */
static unsigned dec_cta_group(dctx *d) {
  const char *g = d_take_prefix(d, "cta_group::");
  if (!g || (strcmp(g, "1") && strcmp(g, "2"))) {
    d_fail(d, TC5_EPARSE, "needs .cta_group::1 or ::2");
    return 0;
  }
  return g[0] == '2' ? 2 : 1;
}

PTX_DEC(dec_tcgen05) {
  ptx_insn *in = d->in;
  const char *sub = d->ntok > 1 ? d->tok[1] : "";
  d->used[1] = true;
  if (!strcmp(sub, "alloc") || !strcmp(sub, "dealloc") || !strcmp(sub, "relinquish_alloc_permit")) {
    unsigned cg = dec_cta_group(d);
    if (!cg) return d->st;
    in->mods = cg;
    if (!d_take(d, "sync") || !d_take(d, "aligned")) return d_fail(d, TC5_EPARSE, "needs .sync.aligned");
    in->flags |= PF_ALIGNED;
    if (!strcmp(sub, "relinquish_alloc_permit")) {
      in->aux = T_RELINQUISH;
      in->fn = x_relinquish;
      return d_nops(d, 0, 0) ? TC5_OK : d->st;
    }
    int sp = d_take_space(d);
    if (d_take_type(d) != PT_B32) return d_fail(d, TC5_EPARSE, "needs .b32");
    if (!d_nops(d, 2, 2)) return d->st;
    if (!strcmp(sub, "alloc")) {
      in->aux = T_ALLOC;
      in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
      if (!d_addr(d, 0, &in->o[0], NULL) || !d_src(d, 1, PT_U32, &in->o[1])) return d->st;
      in->fn = x_alloc;
      /* the address is written by the Tensor Memory allocator, not a
       * generic-proxy data store of the warp: an MMA that later reads the
       * reused bytes as an operand needs no proxy fence for them (Gluon
       * reuses the slot; ConSan's test_tcgen5_mma is silent on it) */
      in->flags |= PF_ASYNC;
    } else {
      in->aux = T_DEALLOC;
      if (!d_src(d, 0, PT_B32, &in->o[0]) || !d_src(d, 1, PT_U32, &in->o[1])) return d->st;
      in->fn = x_dealloc;
      in->flags |= PF_FLUSH_ALL; /* a late schedule: what it frees must be complete */
    }
    return TC5_OK;
  }
  if (!strcmp(sub, "ld") || !strcmp(sub, "st")) {
    bool store = !strcmp(sub, "st");
    if (!d_take(d, "sync") || !d_take(d, "aligned")) return d_fail(d, TC5_EPARSE, "needs .sync.aligned");
    in->flags |= PF_ALIGNED;
    static const char *const shapes[] = {"32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2", NULL};
    int sh = d_take_one(d, shapes);
    const char *num = NULL;
    for (unsigned k = 1; k < d->ntok && !num; k++)
      if (!d->used[k] && d->tok[k][0] == 'x' && d->tok[k][1] >= '0' && d->tok[k][1] <= '9') {
        num = d->tok[k] + 1;
        d->used[k] = true;
      }
    bool pack = d_take(d, store ? "unpack::16b" : "pack::16b");
    /* tcgen05.ld.red.sync.aligned.shape.num.redOp{.abs}{.NaN}.type r, redval, [taddr]{, imm}
     * (PTX ISA 8.8; the ISA lists sm_101a/sm_103f/sm_110f: accepted for any
     * target, the checker's strict mode warns where .target lacks it) */
    bool red = !store && d_take(d, "red");
    static const char *const redops[] = {"min", "max", NULL};
    int redop = red ? d_take_one(d, redops) : -1;
    bool rabs = red && d_take(d, "abs"), rnan = red && d_take(d, "NaN");
    ptx_type ty = d_take_type(d);
    if (sh < 0 || !num) return d_fail(d, TC5_EPARSE, "needs a shape and a .num");
    unsigned rtype = 0;
    if (red) {
      if (redop < 0) return d_fail(d, TC5_EPARSE, "tcgen05.ld.red needs .min or .max");
      if (ty != PT_F32 && ty != PT_U32 && ty != PT_S32) return d_fail(d, TC5_EPARSE, "tcgen05.ld.red needs .f32, .u32 or .s32");
      rtype = ty == PT_F32 ? TC5_TMEM_RED_F32 : ty == PT_U32 ? TC5_TMEM_RED_U32 : TC5_TMEM_RED_S32;
    } else if (ty != PT_B32) {
      return d_fail(d, TC5_EPARSE, "needs .b32");
    }
    /* .num: a power of two to 128, digits only (atoi took .x32333333333,
     * overflowing, and the loop below then shifted by 32: the fuzzer's find) */
    unsigned nv = 0, lg = 0;
    for (const char *c = num; *c && nv <= 128; c++) nv = *c >= '0' && *c <= '9' ? nv * 10 + (unsigned)(*c - '0') : 1000;
    if (nv == 0 || nv > 128 || (nv & (nv - 1))) return d_fail(d, TC5_EILLEGAL, ".x%s is not a .num of Table 47/48", num);
    while ((1u << lg) < nv) lg++;
    in->aux = store ? T_ST : T_LD;
    in->aux2 = (uint32_t)sh | lg << 8 | (pack ? 1u : 0u) << 16;
    if (red)
      in->aux2 |= (uint32_t)(redop == 0 ? TC5_TMEM_RED_MIN : TC5_TMEM_RED_MAX) << 17 | rtype << 19 |
                  (rabs ? 1u : 0u) << 21 | (rnan ? 1u : 0u) << 22;
    bool split = sh == 4;
    unsigned nops = (split ? 3 : 2) + (red ? 1 : 0);
    if (!d_nops(d, nops, nops)) return d->st;
    /* .16x32bx2's immHalfSplitoff: ld {r}, [taddr], imm; st [taddr], imm, {r}
     * (the ISA's operand order, which ptxas takes and Triton emits) */
    unsigned vi = store ? (split ? 2 : 1) : 0;
    if (split) {
      int64_t off;
      if (!d_imm(d, store ? 1 : red ? 3 : 2, &off)) return d->st;
      in->mods = (uint32_t)off;
    }
    tc5_tmem_ldst op;
    ldst_of(in, &op);
    tc5_diag dg;
    tc5_diag_init(&dg);
    uint32_t nregs, nl, nc;
    tc5_status st = tc5_tmem_ldst_check(&op, store, &dg);
    if (!st) st = tc5_tmem_ldst_size(&op, &nregs, &nl, &nc);
    if (st) return d_fail(d, st, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
    if (store) {
      if (!d_addr(d, 0, &in->o[0], NULL) || !d_vec(d, vi, nregs, false, PT_B32, &in->o[1])) return d->st;
    } else if (!d_vec(d, 0, nregs, true, PT_B32, &in->o[0]) || !d_addr(d, red ? 2 : 1, &in->o[1], NULL) ||
               (red && !d_dst(d, 1, &in->o[2]))) {
      return d->st;
    }
    in->nops = red ? 3 : 2;
    in->fn = x_tld;
    return TC5_OK;
  }
  if (!strcmp(sub, "wait::ld") || !strcmp(sub, "wait::st")) {
    if (!d_take(d, "sync") || !d_take(d, "aligned")) return d_fail(d, TC5_EPARSE, "needs .sync.aligned");
    in->flags |= PF_ALIGNED;
    in->aux = T_WAIT;
    in->mods = !strcmp(sub, "wait::st");
    in->fn = x_twait;
    return d_nops(d, 0, 0) ? TC5_OK : d->st;
  }
  if (!strcmp(sub, "fence::before_thread_sync") || !strcmp(sub, "fence::after_thread_sync")) {
    in->aux = T_FENCE;
    in->mods = !strcmp(sub, "fence::after_thread_sync");
    in->fn = x_tfence;
    return d_nops(d, 0, 0) ? TC5_OK : d->st;
  }
  if (!strcmp(sub, "commit")) {
    unsigned cg = dec_cta_group(d);
    if (!cg) return d->st;
    in->aux2 = cg;
    if (!d_take(d, "mbarrier::arrive::one")) return d_fail(d, TC5_EPARSE, "needs .mbarrier::arrive::one");
    bool mc = d_take(d, "multicast::cluster");
    int sp = d_take_space(d);
    if (d_take_type(d) != PT_B64) return d_fail(d, TC5_EPARSE, "needs .b64");
    in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
    in->aux = T_COMMIT;
    if (!d_nops(d, mc ? 2 : 1, mc ? 2 : 1) || !d_addr(d, 0, &in->o[0], NULL)) return d->st;
    if (mc && !d_src(d, 1, PT_B16, &in->o[1])) return d->st;
    in->fn = x_commit;
    in->flags |= PF_MBAR | PF_LATE;
    return TC5_OK;
  }
  if (!strcmp(sub, "mma")) {
    /* the variant: tc5's parser of the opcode text (kind.h) */
    tc5_mma_variant var;
    tc5_diag dg;
    tc5_diag_init(&dg);
    char text[256];
    snprintf(text, sizeof text, "%.*s", (int)d->r->oplen, d->r->op);
    tc5_status st = tc5_mma_variant_parse(text, &var, &dg);
    if (st) return d_fail(d, st, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
    for (unsigned k = 1; k < d->ntok; k++) d->used[k] = true;
    const ptx_raw *r = d->r;
    unsigned k = 0, oi = 0;
    if (r->nops < 5) return d_fail(d, TC5_EPARSE, "tcgen05.mma takes [d-tmem], a, b-desc, idesc, ..., enable-input-d");
    if (!d_addr(d, k++, &in->o[oi++], NULL)) return d->st;
    if (r->ops[k].kind == RO_ADDR) {
      in->mods |= 1;
      if (!d_addr(d, k++, &in->o[oi++], NULL)) return d->st;
    } else if (!d_src(d, k++, PT_B64, &in->o[oi++])) {
      return d->st;
    }
    if (!d_src(d, k++, PT_B64, &in->o[oi++])) return d->st;
    if (var.sparse) { /* [sp-meta-tmem] before the idesc */
      in->mods |= 32;
      if (k >= r->nops || !d_addr(d, k++, &in->o[oi++], NULL))
        return d->st ? d->st : d_fail(d, TC5_EPARSE, ".sp takes [sp-meta-tmem] after b-desc");
    }
    if (!d_src(d, k++, PT_B32, &in->o[oi++])) return d->st;
    if (var.block_scale) { /* [scale-A-tmem], [scale-B-tmem] */
      in->mods |= 16;
      if (k + 2 > r->nops || !d_addr(d, k++, &in->o[oi++], NULL) || !d_addr(d, k++, &in->o[oi++], NULL))
        return d->st ? d->st : d_fail(d, TC5_EPARSE, ".block_scale takes [scale-A-tmem], [scale-B-tmem]");
    }
    if (k < r->nops && r->ops[k].kind == RO_VEC) {
      in->mods |= 2;
      if (!d_vec(d, k++, 0, false, PT_B32, &in->o[oi++])) return d->st;
    }
    if (k >= r->nops || !d_src(d, k++, PT_PRED, &in->o[oi++])) return d_fail(d, TC5_EPARSE, "enable-input-d is missing");
    if (k < r->nops) {
      if (var.ws) {
        in->mods |= 8;
        if (!d_src(d, k++, PT_B64, &in->o[oi++])) return d->st;
      } else {
        in->mods |= 4;
        if (!d_src(d, k++, PT_U32, &in->o[oi++])) return d->st;
      }
    }
    if (k != r->nops) return d_fail(d, TC5_EPARSE, "too many operands");
    in->nops = (uint8_t)oi;
    in->aux = T_MMA;
    in->fn = x_mma;
    in->flags |= PF_LATE;
    return TC5_OK;
  }
  if (!strcmp(sub, "cp")) {
    tc5_cp_args a;
    tc5_diag dg;
    tc5_diag_init(&dg);
    char text[256];
    snprintf(text, sizeof text, "%.*s", (int)d->r->oplen, d->r->op);
    tc5_status st = tc5_cp_parse(text, &a, &dg);
    if (st) return d_fail(d, st, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
    for (unsigned k = 1; k < d->ntok; k++) d->used[k] = true;
    if (!d_nops(d, 2, 2) || !d_addr(d, 0, &in->o[0], NULL) || !d_src(d, 1, PT_B64, &in->o[1])) return d->st;
    in->aux = T_CP;
    in->aux2 = (uint32_t)a.shape | (uint32_t)a.decompress << 8 | (uint32_t)a.src_fmt << 9 | a.cta_group << 10;
    in->fn = x_cp;
    in->flags |= PF_LATE;
    return TC5_OK;
  }
  if (!strcmp(sub, "shift")) {
    /* tcgen05.shift.cta_group::N.down, or .down.cta_group::N (the spec's examples) */
    bool down = d_take(d, "down");
    unsigned cg = dec_cta_group(d);
    if (!cg) return d->st;
    in->mods = cg;
    if (!down && !d_take(d, "down")) return d_fail(d, TC5_EPARSE, "needs .down");
    if (!d_nops(d, 1, 1) || !d_addr(d, 0, &in->o[0], NULL)) return d->st;
    in->aux = T_SHIFT;
    in->fn = x_shift;
    in->flags |= PF_LATE;
    return TC5_OK;
  }
  return d_fail(d, TC5_EUNSUPPORTED, "tcgen05.%s is not a modelled tcgen05 instruction", sub);
}
