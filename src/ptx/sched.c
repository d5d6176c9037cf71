/* tc5 PTX runner — adversarial schedules (tc5_ptx_launch_cfg.schedule,
 * `tc5 run --schedule SEED`, docs/check.md "Schedules").
 *
 * The default schedule runs a warp until it waits and completes every
 * asynchronous operation when it is issued: one legal interleaving, and the
 * friendliest. A seeded schedule picks others, all legal:
 *
 * - warps: PCT-style (Burckhardt et al., "A randomized scheduler with
 *   probabilistic guarantees of finding bugs", ASPLOS 2010): each warp of
 *   the cluster gets a random priority; the runnable warp of highest
 *   priority runs until it waits, exits or reaches a change point (a random
 *   number of warp-instructions, 1..span), which drops its priority below
 *   every other (run.c, cluster_run_sched);
 * - asynchronous operations complete late: an instruction marked PF_LATE
 *   (tcgen05.mma/cp/shift and tcgen05.commit, TMA tensor and bulk copies,
 *   cp.async and cp.async.mbarrier.arrive.noinc) is not executed when issued
 *   but kept, with a copy of the registers it reads, in the cluster's FIFO;
 *   it executes later — after a turn with chance 1/late_den, when no warp
 *   can run, or when an instruction needs it (PF_FLUSH_WARP: the warp's
 *   wait_group, cp.async.mbarrier.arrive; PF_FLUSH_ALL: tcgen05.dealloc) —
 *   so its reads of shared memory, its writes, and the mbarrier arrival or
 *   complete_tx that signals it all come late. Completing in issue order is
 *   one of the orders the asynchronous rules allow (each operation is
 *   complete before whatever tracks it: a commit's arrival after the MMAs it
 *   tracks, a wait_group after its copies).
 *
 * Fairness: an operation completes at the latest max_age warp-instructions
 * (of the cluster) after it was issued (4,096, 65,536 or 2^20 by seed), as
 * the hardware completes it eventually: a kernel that polls an mbarrier a
 * bounded number of times (tests/data/ptx/tma90's wait(): 2^20 polls) is
 * right on silicon and must stay right here.
 *
 * The seed fixes everything: each cluster's generator starts from (seed,
 * cluster index), so --threads does not change a run. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_impl.h"

#define splitmix ptx_splitmix /* ptx_impl.h */
uint64_t ptx_sched_rand(ptx_sched *s) { return splitmix(&s->rng); }

tc5_status ptx_sched_new(ptx_sched **out, unsigned nwarps) {
  ptx_sched *s = calloc(1, sizeof *s);
  if (!s) return TC5_ENOMEM;
  s->prio = calloc(nwarps ? nwarps : 1, sizeof *s->prio);
  if (!s->prio) {
    free(s);
    return TC5_ENOMEM;
  }
  *out = s;
  return TC5_OK;
}

static void release_regs(ptx_sched *s, uint64_t *r) {
  if (!r) return;
  if (s->npool == s->pool_cap) {
    unsigned nc = s->pool_cap ? 2 * s->pool_cap : 16;
    uint64_t **np = realloc(s->pool, nc * sizeof *np);
    if (!np) {
      free(r);
      return;
    }
    s->pool = np, s->pool_cap = nc;
  }
  s->pool[s->npool++] = r;
}

void ptx_sched_free(ptx_sched *s) {
  if (!s) return;
  for (unsigned i = s->head; i < s->n; i++) free(s->q[i].regs);
  for (unsigned i = 0; i < s->npool; i++) free(s->pool[i]);
  free(s->pool);
  free(s->q);
  free(s->prio);
  free(s);
}

void ptx_sched_reset(ptx_sched *s, uint64_t seed, uint64_t cluster, unsigned nwarps) {
  for (unsigned i = s->head; i < s->n; i++) release_regs(s, s->q[i].regs);
  s->head = s->n = 0;
  s->rng = seed * 0x2545f4914f6cdd1dull ^ (cluster + 1) * 0x9e3779b97f4a7c15ull;
  splitmix(&s->rng);
  /* the seed's character: how late operations complete, how long turns are */
  static const uint32_t dens[5] = {2, 8, 32, 256, 0};
  static const uint32_t spans[4] = {4, 64, 1024, 1u << 16};
  s->late_den = dens[ptx_sched_rand(s) % 5];
  s->span = spans[ptx_sched_rand(s) % 4];
  static const uint64_t ages[3] = {1u << 12, 1u << 16, 1u << 20};
  s->max_age = ages[ptx_sched_rand(s) % 3];
  s->clock = 0;
  for (unsigned k = 0; k < nwarps; k++) s->prio[k] = (int64_t)(ptx_sched_rand(s) >> 2);
  s->low = 0;
  s->sb_rng = seed * 0xd1342543de82ef95ull ^ (cluster + 1) * 0xbf58476d1ce4e5b9ull;
  s->px_rng = seed * 0x94d049bb133111ebull ^ (cluster + 1) * 0xd6e8feb86659fd93ull; /* the proxies' (machine.c) */
  static const uint32_t sb_dens[3] = {2, 8, 32}; /* how long stores stay in the buffers */
  s->sb_den = sb_dens[splitmix(&s->sb_rng) % 3];
}

/* the registers an instruction reads: its guard and operands */
static void copy_operands(uint64_t *dst, const ptx_warp *w, const ptx_insn *in) {
  const tc5_ptx_module *m = w->cta->L->m;
  uint32_t nr = m->nregs;
#define CP(reg)                                                                              \
  do {                                                                                       \
    uint32_t r_ = (reg);                                                                     \
    if (r_ < nr) memcpy(dst + (size_t)r_ * 32u, PTX_R(w, r_), 32 * sizeof(uint64_t));          \
  } while (0)
  if (in->guard != PTX_NOREG) CP(in->guard);
  for (unsigned k = 0; k < PTX_MAX_OPS; k++) { /* in->nops counts the PTX operands, not o[] */
    const ptx_opnd *o = &in->o[k];
    switch (o->kind) {
    case PO_REG:
    case PO_ADDR:
      CP(o->reg);
      CP(o->reg2);
      break;
    case PO_VEC:
      for (unsigned j = 0; j < o->n; j++) CP(m->vregs[o->vec + j]);
      break;
    default: break;
    }
  }
#undef CP
}

int ptx_late_defer(ptx_warp *w, const ptx_insn *in, uint32_t mask) {
  ptx_cluster *cl = w->cta->cl;
  ptx_sched *s = cl->sched;
  const ptx_launch *L = w->cta->L;
  if (s->head && s->head == s->n) s->head = s->n = 0;
  if (s->n == s->cap) {
    if (s->head) { /* move the pending ones to the front */
      memmove(s->q, s->q + s->head, (s->n - s->head) * sizeof *s->q);
      s->n -= s->head, s->head = 0;
    } else {
      unsigned nc = s->cap ? 2 * s->cap : 32;
      ptx_late_op *nq = realloc(s->q, nc * sizeof *nq);
      if (!nq) return ptx_fail(w, in, -1, TC5_ENOMEM, 0, "out of memory (a late operation of --schedule)");
      s->q = nq, s->cap = nc;
    }
  }
  size_t bytes = (size_t)L->m->nregs * 32 * sizeof(uint64_t) + 8;
  uint64_t *r = s->npool ? s->pool[--s->npool] : malloc(bytes);
  if (!r) return ptx_fail(w, in, -1, TC5_ENOMEM, 0, "out of memory (a late operation of --schedule)");
  copy_operands(r, w, in);
  ptx_late_op *o = &s->q[s->n++];
  o->ghost = *w;
  o->ghost.r = r;
  o->in = in;
  o->mask = mask;
  o->regs = r;
  o->born = s->clock;
  return PX_NEXT;
}

int ptx_late_complete_one(ptx_cluster *cl) {
  ptx_sched *s = cl->sched;
  if (!s || s->head >= s->n) return PX_NEXT;
  ptx_late_op o = s->q[s->head++]; /* the FIFO may grow while it runs */
  int r = o.in->fn(&o.ghost, o.in, o.mask);
  release_regs(s, o.regs);
  for (uint32_t k = 0; k < cl->n; k++) cl->ctas[k].progress = true;
  return r == PX_ERROR || ptx_stop(o.ghost.cta->L, cl->pos) ? PX_ERROR : PX_NEXT;
}

int ptx_late_flush(ptx_cluster *cl, const ptx_warp *w) {
  ptx_sched *s = cl->sched;
  if (!s) return PX_NEXT;
  unsigned last = s->n;
  if (w) {
    last = s->head;
    for (unsigned i = s->head; i < s->n; i++)
      if (s->q[i].ghost.cta == w->cta && s->q[i].ghost.id == w->id) last = i + 1;
  }
  while (s->head < last)
    if (ptx_late_complete_one(cl) == PX_ERROR) return PX_ERROR;
  return PX_NEXT;
}

int ptx_late_flush_groups(ptx_cluster *cl, const ptx_warp *w, const ptx_insn *in, uint32_t keep, uint32_t *pending) {
  ptx_sched *s = cl->sched;
  *pending = 0;
  if (!s) return PX_NEXT;
  unsigned last = s->head;
  for (unsigned i = s->n; i-- > s->head;) {
    const ptx_late_op *o = &s->q[i];
    if (o->ghost.cta != w->cta || o->ghost.id != w->id || !(o->in->flags & PF_GROUP) || o->in->aux2 != in->aux2)
      continue;
    if (keep) {
      keep--;
      continue;
    }
    last = i + 1; /* this group's end: it and everything before it complete */
    break;
  }
  while (s->head < last)
    if (ptx_late_complete_one(cl) == PX_ERROR) return PX_ERROR;
  for (unsigned i = s->head; i < s->n; i++) {
    const ptx_late_op *o = &s->q[i];
    if (o->ghost.cta == w->cta && o->ghost.id == w->id && (o->in->flags & PF_GROUP) && o->in->aux2 == in->aux2)
      ++*pending;
  }
  return PX_NEXT;
}

/* between turns: each warp's buffer becomes visible with chance 1/den —
 * to every CTA of the cluster, or (a cluster of several CTAs) to a CTA
 * drawn at random, which lets CTAs see the stores of different warps in
 * different orders (no multi-copy atomicity across CTAs: IRIW, 8.6), or to
 * one warp of the writer's CTA (the same within a CTA) — or,
 * half of those times, one entry drawn at random becomes visible to one CTA
 * with the older ones ordered before it (stores of one warp to different
 * addresses with no fence between seen out of order: message passing's
 * weak outcome, 8.7); (den 0) every store to every CTA at the cluster's end */
void ptx_sb_drain_cluster(ptx_cluster *cl, ptx_sched *s, unsigned den) {
  for (uint32_t rk = 0; rk < cl->n; rk++)
    for (uint32_t k = 0; k < cl->ctas[rk].nwarps; k++) {
      ptx_warp *w = &cl->ctas[rk].warps[k];
      if (w->ldq_on && (!den || splitmix(&s->sb_rng) % (4 * den) == 0)) ptx_ldq_perform(w); /* a late load, now */
      if (!w->sb_n || (den && splitmix(&s->sb_rng) % den)) continue;
      bool one = den && splitmix(&s->sb_rng) & 1;
      unsigned i = one ? (unsigned)(splitmix(&s->sb_rng) % w->sb_n) : w->sb_n - 1u;
      /* half the times its own CTA does not see it yet: to one other warp of
       * that CTA alone (per-warp visibility: IRIW within one CTA, 8.7) */
      ptx_cta *c = &cl->ctas[rk];
      if (den && !(w->sb[i].seen >> rk & 1) && c->nwarps > 1 && splitmix(&s->sb_rng) & 1) {
        uint32_t u = (uint32_t)(splitmix(&s->sb_rng) % (c->nwarps - 1));
        const ptx_warp *uw = &c->warps[u >= k ? u + 1 : u];
        for (unsigned j = one ? i : 0; j <= i; j++) ptx_sb_show_warp(w, j, uw);
        ptx_sb_settle(w);
        continue;
      }
      if (!den || (cl->n == 1 && splitmix(&s->sb_rng) & 1)) {
        ptx_sb_drain(w);
        continue;
      }
      uint32_t left = 0;
      for (uint32_t r = 0; r < cl->n; r++) left += !(w->sb[i].seen >> r & 1);
      if (!left) continue; /* every CTA sees it: settled already */
      uint32_t pick = (uint32_t)(splitmix(&s->sb_rng) % left);
      for (uint32_t r = 0; r < cl->n; r++)
        if (!(w->sb[i].seen >> r & 1) && !pick--) {
          for (unsigned j = one ? i : 0; j <= i; j++) ptx_sb_show(w, j, r);
          break;
        }
      ptx_sb_settle(w);
    }
}
