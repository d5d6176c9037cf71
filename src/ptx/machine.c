/* tc5 PTX runner — the machine's services, which the instruction families
 * (exec_*.c), the driver (run.c) and the scheduler (sched.c) call and which
 * call none of them (issue 51): the failure path (ptx_fail), special
 * registers, memory spaces and addresses (ptx_mem, ptx_shared_addr,
 * ptx_cluster_addr), the mbarrier store (ptx_mbar_*), the CTA's and the
 * cluster's barriers (ptx_bar_*, ptx_cluster_bar_check). Moved here whole
 * from run.c, exec_mem.c and exec_warp.c. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check_impl.h"
#include "ptx/ptx_impl.h"

static void thread_xyz(const ptx_launch *L, uint32_t linear, uint32_t t[3]) {
  t[0] = linear % L->cfg.block[0];
  t[1] = linear / L->cfg.block[0] % L->cfg.block[1];
  t[2] = linear / L->cfg.block[0] / L->cfg.block[1];
}

bool ptx_fail_claim(ptx_launch *L, uint64_t pos, tc5_status st) {
  if (ptx_failed(L)) {
    if (L->fail_pos <= pos) return false; /* an earlier cluster's (or this one's first) error stands */
    if (L->diag) { /* the later cluster's diagnostics go */
      L->diag->count = L->diag_mark[0];
      L->diag->total = L->diag_mark[1];
    }
  } else if (L->diag) {
    L->diag_mark[0] = L->diag->count;
    L->diag_mark[1] = L->diag->total;
  }
  __atomic_store_n(&L->fail_pos, pos, __ATOMIC_RELAXED);
  __atomic_store_n(&L->failed, 1, __ATOMIC_RELAXED);
  L->status = st;
  return true;
}

int ptx_fail(ptx_warp *w, const ptx_insn *in, int lane, tc5_status st, uint64_t value, const char *fmt, ...) {
  ptx_cta *c = w->cta;
  ptx_launch *L = c->L;
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(L->lock);
  /* the caller's interrupt (TC5_ECANCELED) stops every cluster: as if the first had failed */
  if (ptx_fail_claim(L, st == TC5_ECANCELED ? 0 : c->cl->pos, st)) {
    char who[96];
    if (lane >= 0) {
      uint32_t t[3];
      thread_xyz(L, w->id * 32 + (uint32_t)lane, t);
      snprintf(who, sizeof who, "CTA (%u,%u,%u) thread (%u,%u,%u)", c->ctaid[0], c->ctaid[1], c->ctaid[2], t[0], t[1], t[2]);
    } else {
      snprintf(who, sizeof who, "CTA (%u,%u,%u) warp %u", c->ctaid[0], c->ctaid[1], c->ctaid[2], w->id);
    }
    if (in) {
      tc5_diag_add(L->diag, st, "instruction", value, "%s:%u: %s: %s (%s)", L->m->name, in->line,
                   ptx_insn_text(L->m, in), msg, who);
      char src[256];
      if (*ptx_insn_source(L->m, in, src, sizeof src))
        tc5_diag_add(L->diag, st, "source", in->line, "%s:%u is %s", L->m->name, in->line, src);
    } else
      tc5_diag_add(L->diag, st, "kernel", value, "%s: %s (%s)", L->m->name, msg, who);
  }
  pthread_mutex_unlock(L->lock);
  return PX_ERROR;
}

/* the value of a special register */
uint64_t ptx_sreg_now(ptx_warp *w, unsigned which, unsigned lane) {
  ptx_cta *c = w->cta;
  ptx_launch *L = c->L;
  uint32_t t[3];
  switch (which) {
  case SR_TID_X: case SR_TID_Y: case SR_TID_Z: /* the thread's place: three divisions, for these only */
    thread_xyz(L, w->id * 32 + lane, t);
    return t[which - SR_TID_X];
  case SR_NTID_X: case SR_NTID_Y: case SR_NTID_Z: return L->cfg.block[which - SR_NTID_X];
  case SR_CTAID_X: case SR_CTAID_Y: case SR_CTAID_Z: return c->ctaid[which - SR_CTAID_X];
  case SR_NCTAID_X: case SR_NCTAID_Y: case SR_NCTAID_Z: return L->cfg.grid[which - SR_NCTAID_X];
  case SR_LANEID: return lane;
  case SR_WARPID: return w->id;
  case SR_NWARPID: return L->warps_per_cta;
  case SR_SMID: case SR_GRIDID: return 0;
  case SR_NSMID: return 1;
  case SR_LANEMASK_EQ: return 1u << lane;
  case SR_LANEMASK_LE: return lane == 31 ? 0xffffffffu : (2u << lane) - 1;
  case SR_LANEMASK_LT: return (1u << lane) - 1;
  case SR_LANEMASK_GE: return ~((1u << lane) - 1) & 0xffffffffu;
  case SR_LANEMASK_GT: return lane == 31 ? 0 : ~((2u << lane) - 1) & 0xffffffffu;
  /* without clusters, every CTA is a cluster of one */
  case SR_CLUSTERID_X: case SR_CLUSTERID_Y: case SR_CLUSTERID_Z: return c->cl->id[which - SR_CLUSTERID_X];
  case SR_NCLUSTERID_X: case SR_NCLUSTERID_Y: case SR_NCLUSTERID_Z:
    return L->cfg.grid[which - SR_NCLUSTERID_X] / L->cluster[which - SR_NCLUSTERID_X];
  case SR_CLUSTER_CTAID_X: case SR_CLUSTER_CTAID_Y: case SR_CLUSTER_CTAID_Z: return c->cid[which - SR_CLUSTER_CTAID_X];
  case SR_CLUSTER_NCTAID_X: case SR_CLUSTER_NCTAID_Y: case SR_CLUSTER_NCTAID_Z: return L->cluster[which - SR_CLUSTER_NCTAID_X];
  case SR_CLUSTER_CTARANK: return c->rank;
  case SR_CLUSTER_NCTARANK: return L->cluster_size;
  case SR_IS_EXPLICIT_CLUSTER: return L->cluster_size > 1 || L->f->explicit_cluster || L->f->reqcluster[0];
  case SR_DYN_SMEM: return L->cfg.dynamic_shared;
  case SR_TOTAL_SMEM: return L->shared_total;
  case SR_CLOCK: return (uint32_t)w->steps;
  case SR_CLOCK64: return w->steps;
  default: { /* %globaltimer: nanoseconds */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
  }
  }
}

/* A .shared (or .shared::cluster) address is 32 bits wide: [%r+imm] is
 * computed modulo 2^32, as the H100 does (nvcc's and Triton's sm_90a code
 * keeps a base below the variable and an offset that carries past 2^32:
 * the attention runs of tests/data/ptx/attn90 found it). A generic address
 * names the shared window only inside it. */
bool ptx_shared_addr(ptx_warp *w, uint8_t space, uint64_t addr, uint32_t *off) {
  (void)w;
  if (space == PS_GENERIC) {
    if (addr < PTX_GENERIC_SHARED || addr >= PTX_GENERIC_SHARED + PTX_WINDOW_SIZE) return false;
    addr -= PTX_GENERIC_SHARED;
    if (addr > 0xffffffffu) return false;
  }
  *off = (uint32_t)addr;
  return true;
}

ptx_cta *ptx_cluster_addr(ptx_warp *w, uint8_t space, uint64_t addr, uint32_t *off) {
  uint32_t a;
  if (!ptx_shared_addr(w, space, addr, &a)) return NULL;
  ptx_cluster *cl = w->cta->cl;
  uint32_t rank = a >> PTX_CLUSTER_SHIFT;
  *off = PTX_CLUSTER_OFF(a);
  if (rank == w->cta->rank) return w->cta;
  /* .shared::cta names the CTA's own memory: its offset alone (tc5's own
   * uses) or with its rank; another rank is no address of it */
  if (space == PS_SHARED) return rank ? NULL : w->cta;
  if (rank >= cl->n) return NULL;
  return &cl->ctas[rank];
}

/* the global region nearest [addr, addr + n), for a bounds error: "; nearest:
 * NAME (SIZE bytes at 0xBASE), K bytes past its end" (or before its start);
 * "" when the launch has no region */
static void nearest_region(const ptx_launch *L, uint64_t addr, uint32_t n, char *out, size_t cap) {
  const ptx_region *best = NULL;
  uint64_t dist = 0;
  for (unsigned k = 0; k < L->nregions; k++) {
    const ptx_region *r = &L->regions[k];
    uint64_t end = r->base + r->size, d = addr >= r->base ? (addr + n > end ? addr + n - end : 0) : r->base - addr;
    if (!best || d < dist) {
      best = r;
      dist = d;
    }
  }
  out[0] = 0;
  if (!best)
    return;
  if (addr < best->base)
    snprintf(out, cap, "; nearest: %s (%llu bytes at 0x%llx), %llu bytes before its start", best->name,
             (unsigned long long)best->size, (unsigned long long)best->base, (unsigned long long)dist);
  else
    snprintf(out, cap, "; nearest: %s (%llu bytes at 0x%llx): the access at its byte %llu ends %llu bytes past its end",
             best->name, (unsigned long long)best->size, (unsigned long long)best->base,
             (unsigned long long)(addr - best->base), (unsigned long long)dist);
}

uint8_t *ptx_mem(ptx_warp *w, const ptx_insn *in, int lane, uint8_t space, uint64_t addr, uint32_t n,
                 bool write) {
  ptx_cta *c = w->cta;
  ptx_launch *L = c->L;
  if (n > 1 && (addr & (n - 1))) {
    ptx_fail(w, in, lane, TC5_EALIGN, addr, "%s address 0x%llx is not aligned to the access's %u bytes",
             ptx_space_name(space), (unsigned long long)addr, n);
    return NULL;
  }
  if (space == PS_GENERIC) {
    if (addr >= PTX_GENERIC_SHARED && addr < PTX_GENERIC_SHARED + PTX_WINDOW_SIZE) {
      space = PS_SHARED_CLUSTER; /* a generic address may name another CTA's shared memory (mapa) */
      addr -= PTX_GENERIC_SHARED;
    } else if (addr >= PTX_GENERIC_LOCAL && addr < PTX_GENERIC_LOCAL + PTX_WINDOW_SIZE) {
      space = PS_LOCAL;
      addr -= PTX_GENERIC_LOCAL;
    } else if (addr >= PTX_GENERIC_PARAM && addr < PTX_GENERIC_PARAM + PTX_WINDOW_SIZE) {
      space = PS_PARAM;
      addr -= PTX_GENERIC_PARAM;
    } else {
      space = PS_GLOBAL;
    }
  }
  switch (space) {
  case PS_SHARED:
  case PS_SHARED_CLUSTER: {
    uint32_t off;
    ptx_cta *t = ptx_cluster_addr(w, space, addr, &off);
    if (!t) {
      ptx_fail(w, in, lane, TC5_EBOUNDS, addr, "shared address 0x%llx names no CTA of the cluster (%u CTAs)%s",
               (unsigned long long)addr, c->cl->n, space == PS_SHARED ? " (a .shared::cta access names its own CTA)" : "");
      return NULL;
    }
    if (off < 1024 || (uint64_t)off + n > t->smem.size) {
      ptx_fail(w, in, lane, TC5_EBOUNDS, addr,
               "shared address 0x%llx (%u bytes) is outside the %s shared memory [0x400, 0x%x)%s",
               (unsigned long long)addr, n, t == c ? "CTA's" : "cluster CTA's", t->smem.size,
               off < 1024 ? " (the first 1 KiB is reserved)" : "");
      return NULL;
    }
    if (t == c && c->chk && in && !(in->flags & (PF_MBAR | PF_ASYNC))) {
      if (write) chk_smem_write(CHK_W(w), CHK_IN(w, in), lane, off, n);
      else chk_smem_read(CHK_W(w), CHK_IN(w, in), lane, off, n);
      if (chk_has_remote(c->chk)) chk_xrace_local(CHK_W(w), CHK_IN(w, in), lane, off, n, write);
    } else if (t != c && c->chk && in && !(in->flags & (PF_MBAR | PF_ASYNC))) {
      chk_remote_access(CHK_W(w), CHK_IN(w, in), lane, t->chk, off, n, write); /* smem-race across CTAs */
    }
    if (write) ptx_mark_written(&t->smem, off, n);
    if (write && __builtin_expect(c->cl->sched != NULL, 0)) { /* the proxies (seeded schedules, issue 53) */
      if (t == c && in && !(in->flags & (PF_MBAR | PF_ASYNC))) {
        ptx_px_write(w, off, n);
        if (in->traits.flags & IT_CP_ASYNC) ptx_px_mark_cpa(c, off, n);
      }
      else ptx_px_clear(t, off, n); /* the async proxy's write, another CTA's */
    }
    return t->smem.bytes + off;
  }
  case PS_LOCAL:
  case PS_PARAM_LOCAL:
    if (addr + n > w->local_bytes) {
      ptx_fail(w, in, lane, TC5_EBOUNDS, addr, "local address 0x%llx (%u bytes) is outside the thread's %u bytes",
               (unsigned long long)addr, n, w->local_bytes);
      return NULL;
    }
    return w->local + (size_t)lane * w->local_bytes + addr;
  case PS_PARAM:
    if (write || addr + n > L->f->param_bytes) {
      ptx_fail(w, in, lane, TC5_EBOUNDS, addr, "kernel parameter offset 0x%llx (%u bytes) is %s",
               (unsigned long long)addr, n, write ? "read-only" : "outside the parameters");
      return NULL;
    }
    return L->params + addr;
  default:
    for (unsigned k = 0; k < L->nregions; k++) {
      ptx_region *r = &L->regions[k];
      if (addr >= r->base && addr - r->base < r->size) {
        if (addr - r->base + n > r->size) break;
        if (write && space == PS_CONST) break;
        return r->host + (addr - r->base);
      }
    }
    {
      char near[160];
      nearest_region(L, addr, n, near, sizeof near);
      ptx_fail(w, in, lane, TC5_EBOUNDS, addr, "%s address 0x%llx (%u bytes) is outside every buffer and variable%s",
               ptx_space_name(space), (unsigned long long)addr, n, near);
    }
    return NULL;
  }
}

/* ---- mbarrier ---- */
ptx_mbar *ptx_mbar_get(ptx_cta *c, uint32_t addr, bool create) {
  for (unsigned k = 0; k < c->nmbars; k++)
    if (c->mbars[k].addr == addr) return &c->mbars[k];
  if (!create) return NULL;
  if (c->nmbars == c->mbars_cap) {
    unsigned nc = c->mbars_cap ? c->mbars_cap * 2 : 16;
    ptx_mbar *np = realloc(c->mbars, nc * sizeof *np);
    if (!np) return NULL;
    c->mbars = np;
    c->mbars_cap = nc;
  }
  ptx_mbar *m = &c->mbars[c->nmbars++];
  memset(m, 0, sizeof *m);
  m->addr = addr;
  return m;
}
ptx_mbar *ptx_mbar_find(ptx_cta *c, uint32_t addr) { return ptx_mbar_get(c, addr, false); }

/* the initialised mbarrier at shared::cluster address addr (in *cta's) */
ptx_mbar *ptx_mbar_live(ptx_warp *w, const ptx_insn *in, int lane, uint32_t addr, ptx_cta **cta) {
  uint32_t off;
  ptx_cta *t = ptx_cluster_addr(w, PS_SHARED_CLUSTER, addr, &off);
  ptx_mbar *mb = t ? ptx_mbar_find(t, off) : NULL;
  if (!mb || !mb->mb.initialized) {
    ptx_fail(w, in, lane, TC5_ESTATE, addr,
             "[%s] no initialised mbarrier at shared address 0x%x%s (%s)", chk_rule_id(CR_MBAR_UNINIT), off,
             t && t != w->cta ? " of another CTA of the cluster" : "",
             mb ? "invalidated by mbarrier.inval" : "never initialised by mbarrier.init");
    return NULL;
  }
  if (cta) *cta = t;
  return mb;
}

/* an arrival (count) or bytes completed (tx) on the mbarrier at
 * shared::cluster address addr, by lane `lane` of w */
static int mbar_signal(ptx_warp *w, const ptx_insn *in, int lane, uint32_t addr, uint32_t n, bool tx) {
  ptx_cta *t;
  ptx_mbar *mb = ptx_mbar_live(w, in, lane, addr, &t);
  if (!mb) return PX_ERROR;
  tc5_diag dg;
  tc5_diag_init(&dg);
  uint32_t before = mb->mb.phase;
  if (t != w->cta) chk_export(CHK_W(w), false);
  tc5_status st = tx ? tc5_mbarrier_complete_tx(&mb->mb, n, &dg) : tc5_mbarrier_arrive(&mb->mb, n, NULL, &dg);
  if (st) return ptx_fail(w, in, lane, st, addr, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  if (t == w->cta && w->cta->chk && (!tx || mb->mb.phase != before)) chk_mbar_arrive(CHK_W(w), CHK_IN(w, in), lane, CHK_MB(w->cta, mb), before, false, NULL);
  if (t != w->cta && w->cta->chk) chk_xscope_arrive(CHK_W(w), NULL, lane, t->chk, CHK_MB(t, mb)); /* the async proxy's signal */
  if (t != w->cta) chk_mbar_remote(t->chk, CHK_MB(t, mb), before);
  if (w->cta->tm) tm_mbar_signal(w->cta->tm, w->id, TM_PC(w, in), &mb->tm, tx ? n : 0, mb->mb.phase);
  if (tx) {
    mb->tx_line = in->line;
    mb->tx_thread = w->id * 32 + (uint32_t)lane;
  }
  t->progress = true;
  return PX_NEXT;
}
int ptx_mbar_arrive_lane(ptx_warp *w, const ptx_insn *in, int lane, uint32_t addr, uint32_t count) {
  return mbar_signal(w, in, lane, addr, count, false);
}
int ptx_mbar_complete_tx_lane(ptx_warp *w, const ptx_insn *in, int lane, uint32_t addr, uint32_t bytes) {
  return mbar_signal(w, in, lane, addr, bytes, true);
}

/* ---- barriers ---- */
static uint32_t live_threads(const ptx_cta *c) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < c->nwarps; k++)
    if (!c->warps[k].done) n += ptx_popc32(c->warps[k].exists);
  return n;
}
bool ptx_bar_check(ptx_cta *c, uint32_t id) {
  ptx_bar *b = &c->bar[id];
  if (!b->arrived) return false;
  uint32_t need = b->expected ? b->expected : live_threads(c);
  if (b->arrived < need) return false;
  for (uint32_t k = 0; k < c->nwarps; k++)
    if (b->waiting >> k & 1) c->warps[k].wait = W_RUN, ptx_px_sync(&c->warps[k]);
  if (c->chk) chk_bar_done(c->chk, id, b->waiting);
  if (c->tm) tm_bar_done(c->tm, id, b->waiting);
  b->phase++;
  b->result_popc = b->red_popc;
  b->result_and = b->red_and;
  b->result_or = b->red_or;
  b->red_popc = 0;
  b->red_and = true;
  b->red_or = false;
  b->arrived = 0;
  b->waiting = 0;
  b->expected = 0;
  c->progress = true;
  return true;
}
int ptx_bar_arrive(ptx_warp *w, const ptx_insn *in, uint32_t id, uint32_t count, bool wait) {
  ptx_cta *c = w->cta;
  ptx_bar *b = &c->bar[id];
  if (b->arrived && b->expected != count)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, count,
                    "[%s] barrier %u: this arrival expects %u threads, an earlier one of the "
                    "same phase %u (0: all): two groups of threads share the barrier id", chk_rule_id(CR_BARRIER_COUNT), id,
                    count, b->expected);
  if (count && count > c->L->threads_per_cta)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, count, "barrier %u: count %u exceeds the CTA's %u threads", id, count,
                    c->L->threads_per_cta);
  b->expected = count;
  b->arrived += ptx_popc32(w->exists);
  if (c->chk) chk_bar_arrive(CHK_W(w), id);
  if (c->tm) tm_bar_arrive(c->tm, w->id, id);
  if (wait) b->waiting |= 1u << w->id;
  if (ptx_bar_check(c, id)) {
    w->wait = W_RUN;
    return PX_NEXT;
  }
  return wait ? PX_WAIT : PX_NEXT;
}

/* the live threads of the cluster: a barrier.cluster phase waits for them all */
static uint32_t cluster_live(const ptx_cluster *cl) {
  uint32_t n = 0;
  for (uint32_t r = 0; r < cl->n; r++) n += live_threads(&cl->ctas[r]);
  return n;
}
/* completes barrier.cluster's phase when every live thread has arrived */
bool ptx_cluster_bar_check(ptx_cluster *cl) {
  if (!cl->bar_arrived || cl->bar_arrived < cluster_live(cl)) return false;
  cl->bar_phase++;
  cl->bar_arrived = 0;
  for (uint32_t r = 0; r < cl->n; r++) {
    cl->ctas[r].progress = true;
    if (cl->ctas[r].chk) chk_cluster_done(cl->ctas[r].chk);
  }
  return true;
}

/* ---- the store buffer (issue 53): under a seeded schedule a warp's weak
 * or relaxed st.global reaches memory — and so the other warps — later
 * than it is made, as the PTX memory model allows (a store is visible to
 * another thread only through causality order: a release and an acquire,
 * fences, barriers; 8.6), and never later than the model requires: the
 * warp's own fences, barriers, mbarrier operations, atomics and other
 * memory instructions order it first (run.c), its own loads see it
 * (exec_mem.c), and the cluster's end drains every warp's.
 * Each entry records the CTAs that see it (`seen`, a bit a rank) and the
 * warp's ordering points before it (`ecta`: fences and releases at .cta
 * scope or wider; `eall`: at .cluster scope or wider). A CTA sees an entry
 * only with every older entry of the warp ordered before it for that CTA
 * (sb_before): one to the same bytes (coherence), one before a fence or
 * release whose scope includes the CTA. Otherwise a CTA may see a warp's
 * stores out of order (message passing's and store buffering's weak
 * outcomes with acquire-release fences, 8.7). An entry every CTA sees goes
 * to memory. ---- */
/* whether entry j (older) must be visible to CTA r before entry i */
static bool sb_before(const ptx_warp *w, unsigned j, unsigned i, uint32_t r) {
  const struct ptx_sbuf *a = &w->sb[j], *b = &w->sb[i];
  return (a->p < b->p + b->n && b->p < a->p + a->n) || a->eall != b->eall ||
         (r == w->cta->rank && a->ecta != b->ecta);
}
static uint32_t sb_all(const ptx_cluster *cl) { return cl->n >= 16 ? 0xFFFFu : (1u << cl->n) - 1u; }
/* the counters of the warp's cluster after its buffer changed */
static void sb_count(ptx_warp *w, bool had) {
  ptx_cluster *cl = w->cta->cl;
  bool part = false;
  for (unsigned i = 0; i < w->sb_n; i++) part |= (w->sb[i].seen | w->sb[i].wseen) != 0;
  if (part != w->sb_part) cl->sb_part += part ? 1 : (uint32_t)-1, w->sb_part = part;
  if (had != (w->sb_n != 0)) cl->sb_warps += had ? (uint32_t)-1 : 1;
}
void ptx_sb_drain(ptx_warp *w) {
  if (w->ldq_on && w->sb_n) ptx_ldq_perform(w); /* held stores: after the warp's late load */
  bool had = w->sb_n != 0;
  for (unsigned i = 0; i < w->sb_n; i++) memcpy(w->sb[i].p, w->sb[i].b, w->sb[i].n);
  w->sb_n = 0; /* sb_cum, sb_cumc stay: what the warp saw is still ordered before its later stores */
  sb_count(w, had);
}
/* the entries visible to every CTA of the cluster go to memory (oldest
 * first; an older entry to the same bytes is seen by every CTA already) */
void ptx_sb_settle(ptx_warp *w) {
  uint32_t all = sb_all(w->cta->cl);
  bool had = w->sb_n != 0;
  unsigned j = 0;
  for (unsigned i = 0; i < w->sb_n; i++)
    if ((w->sb[i].seen & all) == all) memcpy(w->sb[i].p, w->sb[i].b, w->sb[i].n);
    else w->sb[j++] = w->sb[i];
  w->sb_n = (uint8_t)j;
  sb_count(w, had);
}
/* entries held for the warp's late load (sbuf.hold; ptx_ldq_*): its CTA
 * sees them after the load is read, so read it first; false when the load
 * is being read already (a load of another warp it reveals needs these
 * entries: load buffering's cycle, which a .cta fence forbids within the
 * CTA, 8.7): they cannot be shown now */
static bool sb_hold(ptx_warp *w, const bool *need, unsigned i) {
  for (unsigned j = 0; j <= i; j++)
    if (need[j] && w->sb[j].hold) {
      if (w->ldq_busy) return false;
      if (w->ldq_on) ptx_ldq_perform(w); /* ordered after the late load for its CTA: read it first */
      return true;
    }
  return true;
}
void ptx_sb_show(ptx_warp *w, unsigned i, uint32_t r) {
  ptx_cluster *cl = w->cta->cl;
  bool need[PTX_SB_MAX] = {false}, cum = false;
  need[i] = true;
  for (unsigned j = i; j-- > 0;)
    for (unsigned m = j + 1; m <= i && !need[j]; m++) need[j] = need[m] && sb_before(w, j, m, r);
  if (r == w->cta->rank && !sb_hold(w, need, i)) return;
  for (unsigned j = 0; j <= i; j++)
    if (need[j] && !(w->sb[j].seen >> r & 1)) {
      /* another CTA's shared memory: seen by its CTA, it is in memory */
      w->sb[j].seen |= (uint16_t)(w->sb[j].owner == r + 1 ? sb_all(cl) : 1u << r);
      cum |= w->sb[j].cum || (w->sb[j].cumc && r == w->cta->rank);
    }
  bool had = w->sb_n != 0;
  sb_count(w, had);
  if (!cum) return;
  /* cumulativity: what the warp sees of other warps' stores (its CTA's, or
   * its own view within its CTA), first (recursion ends: each call marks
   * entries it had not marked) */
  for (uint32_t rk = 0; rk < cl->n; rk++)
    for (uint32_t k = 0; k < cl->ctas[rk].nwarps; k++) {
      ptx_warp *v = &cl->ctas[rk].warps[k];
      if (v == w || !v->sb_part) continue;
      for (unsigned e = v->sb_n; e-- > 0;)
        if (ptx_sb_sees(v, e, w) && !(v->sb[e].seen >> r & 1)) ptx_sb_show(v, e, r);
    }
}
/* per-warp visibility within the writer's CTA (issue 53): the PTX memory
 * model has no notion of a CTA seeing a store at once — two warps of one CTA
 * may read two other warps' independent stores in opposite orders unless a
 * fence.sc orders their reads (IRIW, 8.7: Fence-SC; acquire-release fences
 * do not make stores multi-copy atomic). A warp of the writer's CTA sees the
 * entry with the entries ordered before it for the CTA (a .cta fence or
 * release is one for every warp of it), and, after a fence.acq_rel of the
 * writer (cum, cumc), with the other warps' stores the writer saw. */
void ptx_sb_show_warp(ptx_warp *w, unsigned i, const ptx_warp *u) {
  ptx_cta *c = w->cta;
  uint32_t me = c->rank;
  bool need[PTX_SB_MAX] = {false}, cum = false;
  need[i] = true;
  for (unsigned j = i; j-- > 0;)
    for (unsigned m = j + 1; m <= i && !need[j]; m++) need[j] = need[m] && sb_before(w, j, m, me);
  if (!sb_hold(w, need, i)) return;
  for (unsigned j = 0; j <= i; j++)
    if (need[j] && !ptx_sb_sees(w, j, u)) {
      w->sb[j].wseen |= 1u << u->id;
      cum |= w->sb[j].cum || w->sb[j].cumc;
    }
  sb_count(w, w->sb_n != 0);
  if (!cum) return;
  /* what the writer sees of its CTA's other warps' stores, first (another
   * CTA's stores it sees, its CTA sees, and so u) */
  for (uint32_t k = 0; k < c->nwarps; k++) {
    ptx_warp *v = &c->warps[k];
    if (v == w || v == u || !v->sb_part) continue;
    for (unsigned e = v->sb_n; e-- > 0;)
      if (ptx_sb_sees(v, e, w) && !ptx_sb_sees(v, e, u)) ptx_sb_show_warp(v, e, u);
  }
}
void ptx_sb_epoch(ptx_warp *w, bool cta) {
  w->sb_ecta++;
  if (!cta) w->sb_eall++;
}
/* cumulativity at .cta scope: the stores of its CTA's other warps that w
 * alone (not its whole CTA) sees become visible to the CTA */
static void sb_cumulate_cta(ptx_warp *w) {
  ptx_cta *c = w->cta;
  w->sb_cumc = false;
  if (!c->cl->sb_part) return;
  for (uint32_t k = 0; k < c->nwarps; k++) {
    ptx_warp *v = &c->warps[k];
    if (v == w || !v->sb_part) continue;
    for (unsigned e = v->sb_n; e-- > 0;)
      if ((v->sb[e].wseen >> w->id & 1) && !(v->sb[e].seen >> c->rank & 1)) ptx_sb_show(v, e, c->rank);
    ptx_sb_settle(v);
  }
}
void ptx_sb_release_cta(ptx_warp *w) {
  ptx_sb_epoch(w, true);
  sb_cumulate_cta(w);
  if (!w->sb_n) return;
  if (w->ldq_on) ptx_ldq_perform(w); /* held entries become visible to the CTA: the late load first */
  for (unsigned i = 0; i < w->sb_n; i++) w->sb[i].seen |= (uint16_t)(1u << w->cta->rank);
  ptx_sb_settle(w);
}
/* cumulativity: what w's CTA sees of other warps' stores becomes visible
 * to every CTA */
static void sb_cumulate(ptx_warp *w) {
  ptx_cluster *cl = w->cta->cl;
  w->sb_cum = w->sb_cumc = false;
  if (!cl->sb_part) return;
  for (uint32_t rk = 0; rk < cl->n; rk++)
    for (uint32_t k = 0; k < cl->ctas[rk].nwarps; k++) {
      ptx_warp *v = &cl->ctas[rk].warps[k];
      if (v == w || !v->sb_part) continue;
      for (unsigned i = v->sb_n; i-- > 0;)
        if (ptx_sb_sees(v, i, w))
          for (uint32_t r = 0; r < cl->n; r++) ptx_sb_show(v, i, r);
    }
  for (uint32_t rk = 0; rk < cl->n; rk++) /* after every show: a show may mark entries of any warp */
    for (uint32_t k = 0; k < cl->ctas[rk].nwarps; k++)
      if (&cl->ctas[rk].warps[k] != w && cl->ctas[rk].warps[k].sb_n) ptx_sb_settle(&cl->ctas[rk].warps[k]);
}
void ptx_sb_release_all(ptx_warp *w) {
  ptx_sb_epoch(w, false);
  if (w->sb_n) ptx_sb_drain(w);
  sb_cumulate(w);
}
/* a fence.acq_rel (not .sc) orders the warp's earlier stores before its
 * later ones (and, at .cluster scope or wider, what its CTA saw of other
 * warps' before its later stores: each later entry has `cum`, ptx_sb_show),
 * and makes nothing visible now: a later load may still read before the
 * earlier stores are seen (store buffering with acquire-release fences) */
static void sb_fence_acq_rel(ptx_warp *w, bool cta) {
  ptx_sb_epoch(w, cta);
  /* unconditionally: a late load before the fence may still see stores
   * (ptx_ldq_perform), which the warp's later stores are ordered after */
  w->sb_cumc = true, w->sb_cum |= !cta;
}
const uint8_t *ptx_sb_view(ptx_warp *w, const uint8_t *p, unsigned n, uint8_t *buf) {
  ptx_cluster *cl = w->cta->cl;
  uint32_t me = w->cta->rank;
  /* a store not yet visible to this CTA becomes visible now with chance
   * 1/2 (it may at any time), with the warp's older ones ordered before it:
   * so each CTA's loads decide on their own which buffered stores they see */
  if (cl->sched)
    for (uint32_t rk = 0; rk < cl->n; rk++)
      for (uint32_t k = 0; k < cl->ctas[rk].nwarps; k++) {
        ptx_warp *v = &cl->ctas[rk].warps[k];
        if (v == w || !v->sb_n) continue;
        int j = -1;
        for (unsigned i = 0; i < v->sb_n; i++)
          if (!ptx_sb_sees(v, i, w) && v->sb[i].p < p + n && p < v->sb[i].p + v->sb[i].n) j = (int)i;
        if (j >= 0 && ptx_splitmix(&cl->sched->sb_rng) & 1) {
          if (v->cta == w->cta) ptx_sb_show_warp(v, (unsigned)j, w); /* to this warp alone */
          else ptx_sb_show(v, (unsigned)j, me);
          ptx_sb_settle(v);
        }
      }
  if (!cl->sb_part) return p;
  bool copied = false;
  for (uint32_t rk = 0; rk < cl->n; rk++)
    for (uint32_t k = 0; k < cl->ctas[rk].nwarps; k++) {
      const ptx_warp *v = &cl->ctas[rk].warps[k];
      if (v == w || !v->sb_part) continue;
      for (unsigned i = 0; i < v->sb_n; i++) { /* oldest first: the newest wins */
        const struct ptx_sbuf *e = &v->sb[i];
        if (!ptx_sb_sees(v, i, w) || !(e->p < p + n && p < e->p + e->n)) continue;
        if (!copied) memcpy(buf, p, n), copied = true;
        for (unsigned b = 0; b < e->n; b++)
          if (e->p + b >= p && e->p + b < p + n) buf[e->p + b - p] = e->b[b];
      }
    }
  return copied ? buf : p;
}
/* the warp's late load (issue 53; exec_mem.c's x_ld1 defers it, ptx_ldq_due says when) */
void ptx_ldq_perform(ptx_warp *w) {
  struct ptx_ldq *q = &w->ldq;
  uint64_t *d = PTX_R(w, q->reg);
  bool part = w->cta->cl->sb_warps != 0, sc = w->ldq_sc;
  w->ldq_on = false;
  w->ldq_fenced = w->ldq_sc = false;
  w->ldq_busy = true;
  PTX_LANES(q->mask, {
    uint8_t ov[8];
    const uint8_t *p = q->p[l];
    if (__builtin_expect(part, 0)) p = ptx_sb_view(w, p, q->eb, ov);
    d[l] = ptx_ld_value(p, q->eb, q->sgn, q->rm);
  });
  w->ldq_busy = false;
  for (unsigned i = 0; i < w->sb_n; i++) w->sb[i].hold = false; /* read: nothing is held any more */
  /* a fence.sc.cta since the load: the fence is, for the CTA, where the
   * load is read (its later stores were held: sbuf.hold), so what the load
   * saw of other warps' stores becomes visible to the CTA now (IRIW within
   * one CTA with fence.sc.cta stays forbidden: Fence-SC, 8.7) */
  if (sc) sb_cumulate_cta(w);
}
/* what an instruction makes visible before it runs (its traits, never its
 * text): fences and releases by their scope, the PTX memory model's
 * morally-strong synchronisation (8.6: a .cta scope includes only the
 * threads of the CTA); atomics, asynchronous copies and accesses outside
 * the scalar ld/st.global path see what their CTA sees through memory */
void ptx_sb_order(ptx_warp *w, const ptx_insn *in) {
  const insn_traits *t = &in->traits;
  bool release = t->sem == ISEM_RELEASE || t->sem == ISEM_ACQ_REL || t->sem == ISEM_SC;
  if (t->flags & (IT_ATOMIC | IT_ASYNC | IT_CP_ASYNC)) {
    ptx_sb_release_all(w);
  } else if (t->flags & IT_FENCE) {
    bool cta = t->scope == ISC_CTA;
    /* fence.acq_rel (fence's default semantics) orders stores after stores
     * only; fence.sc, membar, fence.proxy and the others make them visible */
    if (t->group == IG_FENCE && t->sem == ISEM_ACQ_REL) sb_fence_acq_rel(w, cta);
    else if (cta) ptx_sb_release_cta(w);
    else ptx_sb_release_all(w);
  } else if (t->group == IG_MBARRIER) {
    /* an arrival on a .shared::cluster address with no scope written is taken
     * at cluster scope, as the checker takes it (docs/spec-departures.md:
     * CUTLASS's ClusterBarrier::arrive(cta_id) relays run on B200s) */
    bool cta = t->scope == ISC_CTA && ((t->set & ITS_SCOPE) || t->space != IS_SHARED_CLUSTER);
    if (release) cta ? ptx_sb_release_cta(w) : ptx_sb_release_all(w);
    /* an acquire (test_wait, try_wait), a relaxed arrival, init, expect_tx: none */
  } else if (t->flags & IT_BARRIER) {
    if (t->sem == ISEM_RELAXED) return; /* barrier.cluster.arrive.relaxed releases nothing */
    if (t->scope == ISC_CTA || t->scope == ISC_NONE) ptx_sb_release_cta(w); /* bar.sync: the CTA */
    else ptx_sb_release_all(w);                                             /* barrier.cluster */
  } else {
    ptx_sb_release_all(w); /* a generic address, another state space */
  }
}

void ptx_sb_put(ptx_warp *w, uint8_t *p, const void *v, unsigned n) {
  ptx_cluster *cl = w->cta->cl;
  if (w->sb_n == PTX_SB_MAX) { /* full: the oldest becomes visible to every CTA */
    for (uint32_t r = 0; r < cl->n; r++) ptx_sb_show(w, 0, r);
    ptx_sb_settle(w);
  }
  /* coherence: a byte is held by one warp's buffer at most, so that every
   * CTA sees the stores to it in one order; another warp's older store to
   * these bytes becomes visible first */
  if (cl->sb_warps > (w->sb_n != 0))
    for (uint32_t rk = 0; rk < cl->n; rk++)
      for (uint32_t k = 0; k < cl->ctas[rk].nwarps; k++) {
        ptx_warp *o = &cl->ctas[rk].warps[k];
        if (o != w && o->sb_n && ptx_sb_overlaps(o, p, n)) ptx_sb_drain(o);
      }
  uint8_t owner = 0; /* a store to another CTA's shared memory (st.shared::cluster): its rank + 1 */
  for (uint32_t rk = 0; rk < cl->n && !owner; rk++)
    if (p >= cl->ctas[rk].smem.bytes && p < cl->ctas[rk].smem.bytes + cl->ctas[rk].smem.size) owner = (uint8_t)(rk + 1);
  bool had = w->sb_n != 0;
  struct ptx_sbuf *e = &w->sb[w->sb_n++];
  e->owner = owner;
  e->p = p, e->n = (uint8_t)n, e->seen = 0, e->wseen = 0, e->ecta = w->sb_ecta, e->eall = w->sb_eall, e->cum = w->sb_cum,
  e->cumc = w->sb_cumc, e->hold = w->ldq_on && w->ldq_fenced;
  memcpy(e->b, v, n);
  sb_count(w, had);
}

bool ptx_sb_overlaps(const ptx_warp *w, const uint8_t *p, unsigned n) {
  for (unsigned i = 0; i < w->sb_n; i++)
    if (w->sb[i].p < p + n && p < w->sb[i].p + w->sb[i].n) return true;
  return false;
}

/* ---- the generic and the async proxy (issue 53, seeded schedules) ----
 * The PTX memory model orders a generic-proxy write before an async-proxy
 * access only through a proxy fence (fence.proxy.async, 9.7.13.4; "Proxies",
 * 8.4: accesses through different proxies to one location need a
 * cross-proxy fence), then the usual synchronisation to the thread that
 * issues the asynchronous operation. Under a seeded schedule the CTA keeps,
 * by 16-byte granule of its shared memory, the generic writes no such
 * fence has ordered yet, with the bytes the async proxy saw before them;
 * an async-proxy read of one reads, seeded, the old bytes or the new ones
 * (the new ones from then on: the async proxy does not go back). */
#define PX_G 16u
static void px_free(struct ptx_px *p) {
  if (!p) return;
  free(p->old), free(p->save), free(p->t), free(p->pos), free(p->warp), free(p->dirty), free(p->swapped);
  free(p);
}
void ptx_px_free(ptx_cta *c) {
  px_free(c->px);
  c->px = NULL;
}
/* the CTA's record, made at its first tracked write (NULL without memory:
 * then nothing is read stale, never anything wrong) */
static struct ptx_px *px_get(ptx_cta *c) {
  if (c->px) return c->px;
  uint32_t ng = (c->smem.size + PX_G - 1) / PX_G;
  struct ptx_px *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->old = malloc((size_t)ng * PX_G), p->save = malloc((size_t)ng * PX_G);
  p->t = calloc(ng, sizeof *p->t), p->pos = malloc(ng * sizeof *p->pos), p->warp = malloc(ng);
  p->dirty = malloc(ng * sizeof *p->dirty), p->swapped = malloc(ng * sizeof *p->swapped);
  if (!p->old || !p->save || !p->t || !p->pos || !p->warp || !p->dirty || !p->swapped) {
    px_free(p);
    return NULL;
  }
  c->px = p;
  return p;
}
void ptx_px_reset(ptx_cta *c) {
  struct ptx_px *p = c->px;
  if (!p) return;
  for (uint32_t i = 0; i < p->ndirty; i++) p->t[p->dirty[i]] = 0;
  p->ndirty = p->nswapped = p->clock = 0;
}
static uint32_t px_len(const ptx_cta *c, uint32_t g) {
  return c->smem.size - g * PX_G < PX_G ? c->smem.size - g * PX_G : PX_G;
}
/* granule g is clean: the async proxy sees its bytes */
static void px_drop(struct ptx_px *p, uint32_t g) {
  uint32_t i = p->pos[g], last = p->dirty[--p->ndirty];
  p->dirty[i] = last, p->pos[last] = i;
  p->t[g] = 0;
}
/* a generic write of [off, off + n) of w's own CTA's shared memory, before
 * its bytes change */
void ptx_px_write(ptx_warp *w, uint32_t off, uint32_t n) {
  ptx_cta *c = w->cta;
  struct ptx_px *p = px_get(c);
  if (!p || !n || off >= c->smem.size) return;
  for (uint32_t g = off / PX_G, z = (off + n - 1) / PX_G; g <= z && g * PX_G < c->smem.size; g++) {
    if (!p->t[g]) {
      memcpy(p->old + (size_t)g * PX_G, c->smem.bytes + (size_t)g * PX_G, px_len(c, g));
      p->pos[g] = p->ndirty, p->dirty[p->ndirty++] = g;
    }
    if (!++p->clock) p->clock = 1;
    p->t[g] = p->clock;
    p->warp[g] = (uint8_t)w->id; /* bit 7 clear: not cp.async's (ptx_px_mark_cpa) */
  }
}
/* the generic write just recorded at [off, off + n) is cp.async's: a
 * wgmma.mma_async's read does not take it stale (ptx_px_stale_begin_wgmma) */
void ptx_px_mark_cpa(ptx_cta *c, uint32_t off, uint32_t n) {
  struct ptx_px *p = c->px;
  if (!p || !n || off >= c->smem.size) return;
  for (uint32_t g = off / PX_G, z = (off + n - 1) / PX_G; g <= z && g * PX_G < c->smem.size; g++)
    if (p->t[g]) p->warp[g] |= 0x80;
}
/* an async-proxy write (or another CTA's) of [off, off + n): the async
 * proxy sees the granules it touches */
void ptx_px_clear(ptx_cta *c, uint32_t off, uint32_t n) {
  struct ptx_px *p = c->px;
  if (!p || !p->ndirty || !n) return;
  for (uint32_t g = off / PX_G, z = (off + n - 1) / PX_G; g <= z && g * PX_G < c->smem.size; g++)
    if (p->t[g]) px_drop(p, g);
}
/* fence.proxy.async by w: its own generic writes, and those made before a
 * barrier or mbarrier wait it completed since, become visible to the async
 * proxy (the checker's proxy-fence rule takes the fence of the writer, or of
 * the reader after the write; a wait completed is a generous stand-in for
 * "ordered after the write": never a stale read the checker would not
 * explain) */
void ptx_px_fence(ptx_warp *w) {
  struct ptx_px *p = w->cta->px;
  if (!p) return;
  for (uint32_t i = 0; i < p->ndirty;) {
    uint32_t g = p->dirty[i];
    if ((p->warp[g] & 0x7f) == w->id || p->t[g] <= w->px_sync) px_drop(p, g);
    else i++;
  }
}
/* whether a dirty granule g is read stale now (else: as written, and
 * clean from then on) */
static bool px_stale(ptx_cta *c, struct ptx_px *p, uint32_t g) {
  if (ptx_splitmix(&c->cl->sched->px_rng) & 1) return true;
  px_drop(p, g);
  return false;
}
static void px_stale_begin(ptx_cta *c, uint32_t off, uint32_t n, bool skip_cpa) {
  struct ptx_px *p = c->px;
  if (!p || !p->ndirty || !c->cl->sched) return;
  uint64_t hi = n ? (uint64_t)off + n : UINT64_MAX;
  for (uint32_t i = 0; i < p->ndirty;) {
    uint32_t g = p->dirty[i];
    if ((uint64_t)g * PX_G + PX_G <= off || (uint64_t)g * PX_G >= hi || (skip_cpa && (p->warp[g] & 0x80))) {
      i++;
      continue;
    }
    if (!px_stale(c, p, g)) continue; /* dropped: dirty[i] is another granule now */
    size_t b = (size_t)g * PX_G;
    memcpy(p->save + b, c->smem.bytes + b, px_len(c, g));
    memcpy(c->smem.bytes + b, p->old + b, px_len(c, g));
    p->swapped[p->nswapped++] = g;
    i++;
  }
}
void ptx_px_stale_begin(ptx_cta *c, uint32_t off, uint32_t n) { px_stale_begin(c, off, n, false); }
void ptx_px_stale_begin_wgmma(ptx_cta *c) { px_stale_begin(c, 0, 0, true); }
void ptx_px_stale_end(ptx_cta *c) {
  struct ptx_px *p = c->px;
  if (!p) return;
  for (uint32_t i = 0; i < p->nswapped; i++) {
    size_t b = (size_t)p->swapped[i] * PX_G;
    memcpy(c->smem.bytes + b, p->save + b, px_len(c, p->swapped[i]));
  }
  p->nswapped = 0;
}
void ptx_px_read(ptx_cta *c, uint32_t off, uint8_t *buf, uint32_t n) {
  struct ptx_px *p = c->px;
  if (!p || !p->ndirty || !n || !c->cl->sched) return;
  for (uint32_t g = off / PX_G, z = (off + n - 1) / PX_G; g <= z && g * PX_G < c->smem.size; g++) {
    if (!p->t[g] || !px_stale(c, p, g)) continue;
    uint32_t lo = g * PX_G > off ? g * PX_G : off, e = g * PX_G + px_len(c, g) < off + n ? g * PX_G + px_len(c, g) : off + n;
    memcpy(buf + (lo - off), p->old + lo, e - lo);
  }
}
