/* tc5 checker — what the PTX runner calls (the hooks) and what the rule
 * table (rules.c) and the checker (check.c) share.
 *
 * The model: happens-before by vector clocks over the warps of a CTA (a
 * warp is the unit: what one of its threads observes, the warp knows).
 * Each warp w has four clock entries:
 *   T(w)  its thread clock: advanced by each release (bar.sync/arrive,
 *         mbarrier arrive, tcgen05.commit);
 *   M(w)  how many of w's tcgen05.mma are known complete (a commit's
 *         mbarrier phase observed);
 *   L(w)  how many of w's tcgen05.ld are known complete (tcgen05.wait::ld);
 *   S(w)  the same for tcgen05.st (tcgen05.wait::st).
 * A warp's clock vector says what it knows. Releases put it into the
 * barrier or the mbarrier phase; acquires (the barrier completing, a
 * successful mbarrier wait) join it into the waiters'. A second vector
 * follows the strict reading of 9.7.16.6.3: knowledge gained by a thread
 * synchronisation reaches tcgen05 operations only through
 * tcgen05.fence::after_thread_sync, and a warp's own tcgen05.ld/st are
 * released only up to its last tcgen05.fence::before_thread_sync.
 *
 * Shadow state: shared memory in 16-byte granules (the last generic store
 * to each, the last tcgen05.mma reading it), Tensor Memory in granules of
 * one column of a warp's 32-lane quarter (the last asynchronous writer and
 * reader). */
#ifndef TC5_CHECK_IMPL_H
#define TC5_CHECK_IMPL_H
#include "check/check_event.h"
#include "tc5/check.h"
#include "tc5/cp.h"
#include "tc5/descriptors.h"
#include "tc5/layout.h"
#include "tc5/smem.h"
#include "tc5/mma.h"
#include "tc5/tmem.h"
#include <stdbool.h>

/* the rows of the rule table, in its order */
enum {
  CR_PROXY_FENCE = 0,
  CR_SMEM_UNORDERED,
  CR_SMEM_OVERWRITE,
  CR_TMEM_READ_INFLIGHT,
  CR_TMEM_WRITE_INFLIGHT,
  CR_TMEM_ST_UNWAITED,
  CR_LD_REG_OVERWRITE,
  CR_ST_REG_OVERWRITE,
  CR_LD_REG_USE,
  CR_FENCE_AFTER,
  CR_FENCE_BEFORE,
  CR_COMMIT_OTHER,
  CR_DEALLOC_INFLIGHT,
  CR_ALLOC_AT_EXIT,
  CR_ALLOC_NEVER,
  CR_MBAR_OVER_ARRIVAL,
  CR_MBAR_WAIT_NEVER,
  CR_MBAR_PHASE_REUSED,
  CR_PARTIAL_WARP,
  CR_TMEM_LANES,
  CR_TMEM_UNINIT,
  CR_SMEM_UNINIT,
  CR_SMEM_DESC_BASE_OFFSET,
  CR_TARGET_FEATURE,
  CR_SMEM_RACE,
  CR_CP_ASYNC_UNWAITED,
  CR_ASYNC_DST_INFLIGHT,
  CR_ASYNC_SRC_INFLIGHT,
  CR_WGMMA_OPERAND_INFLIGHT,
  CR_MBAR_REINIT,
  CR_BARRIER_COUNT,         /* issue 34: the runner reports it (its bar.sync arrival) */
  CR_PAIR_DEALLOC_EARLY,    /* issue 34: the runner reports it (exec_tcgen05.c, pair_op) */
  CR_WGMMA_REG_INFLIGHT,    /* issue 34 */
  CR_MBAR_UNINIT,           /* issue 33: the runner reports it (exec_warp.c live_mbar, exec_tcgen05.c commit) */
  CR_RELEASE_SCOPE,         /* issue 53: a .cta-scoped release a peer CTA relies on */
  CR_COUNT
};

/* the rule's id, for messages of the interpreter's own errors: "[id] " */
const char *chk_rule_id(unsigned rule);

/* ---- per launch: the findings ---- */
typedef struct chk_log {
  tc5_check_finding *f;
  unsigned n, cap;
  uint64_t errors, warnings; /* counting repeats */
  /* a finding's key, and the order of the instance its text shows: the cluster's position in the launch and the
   * cluster's report count then (the earliest instance in that order, whichever thread saw it first) */
  struct chk_key { uint32_t rule, a, b; uint64_t cluster, seq; uint32_t last; } *keys;
  /* the instances each cluster added to each finding (a finding's `last`: its latest such record,
   * added to while the same cluster reports it again), so that a failed launch's report holds what
   * the clusters up to the failed one found, as on one thread (chk_log_trim); at most
   * MAX_CONTRIB records: the instances a record could not hold stay counted, a later cluster's too) */
  struct chk_contrib { uint64_t cluster; uint32_t entry, count; } *contrib;
  uint32_t ncontrib, ccap;
} chk_log;
void chk_log_free(chk_log *log);
/* a launch that failed at the cluster at `pos` in its order: the findings and counts of the
 * clusters after it go (on one thread they never ran); before chk_log_order */
void chk_log_trim(chk_log *log, uint64_t pos);
/* the findings in the order of their instances (cluster, then report): a launch's report is the same on any
 * number of threads, and on one thread, clusters in order, the order they were found in */
void chk_log_order(chk_log *log);

/* ---- per CTA ---- */
#define GRAN 16u                 /* shared memory granule (bytes)          */
#define TM_GRANULES (8u * 512u)  /* Tensor Memory: 16-lane half of a quarter x column
                                    (M = 64 accumulators use lanes 0-15 or 16-31
                                    of each quarter: two share columns) */
#define TM_G(lane, col) ((lane) / 16u * 512u + (col))
#define MAX_FINDINGS 256u
#define MAX_CONTRIB (1u << 20) /* chk_log.contrib: 16 MiB */
#define NOINSN 0xFFFFFFFFu
/* barrier slots: bar.sync's ids, then barrier.cluster's phase and its last completed one */
#define CHK_MAX_BARRIERS 16u /* bar.sync's ids (the runner's barrier count) */
#define CHK_CLUSTER_BAR CHK_MAX_BARRIERS
#define CHK_EXPORT_BAR (CHK_MAX_BARRIERS + 2) /* what the CTA's warps released to other CTAs */
#define CHK_BARS (CHK_MAX_BARRIERS + 3)

/* OK_CPA: a cp.async (its commit group), OK_BULK: a TMA store / bulk copy
 * reading shared memory (its bulk group), OK_WG: a wgmma reading shared
 * memory (its wgmma group; the warp is the warpgroup's first) */
enum { OK_MMA = 1, OK_LD, OK_ST, OK_CPA, OK_BULK, OK_WG };
#define CHK_CLOCKS 7u /* clock entries a warp: T M L S A B G */

typedef struct chk_ev { /* one generic store (a warp-instruction) to shared memory */
  uint32_t seq, tclock, insn;
  uint8_t warp, lane;
} chk_ev;
typedef struct chk_op { /* one asynchronous tcgen05 operation */
  uint32_t insn, idx;
  uint8_t kind, warp, lane;
  uint8_t sub; /* OK_MMA: 0 tcgen05.mma, 1 tcgen05.cp, 2 tcgen05.shift (one pipeline, completed by commit) */
} chk_op;
typedef struct chk_mb { /* per mbarrier: clock vectors of its phases */
  uint32_t *cur, *cur_s;   /* arrivals of the current phase              */
  uint32_t *last, *last_s; /* up to the last completed phase             */
  uint32_t *prev, *prev_s; /* up to the one before                       */
  uint32_t *seen;          /* per warp: 1 + the last phase it observed (0: none) */
  struct chk_xph *xph;     /* scoped releases from other CTAs: cur, last, prev (issue 53; NULL: none yet) */
  uint32_t *xk;            /* issue 53: commits of other CTAs' MMAs that arrived here, as chk_cta's
                              xmma: the current phase's, up to the last completed phase, up to the one
                              before (3 x 512; NULL until a commit targets it) */
} chk_mb;
/* scoped releases across the CTAs of a cluster (issue 53): times are a
 * CTA's xtime (++ at each of its releases to other CTAs) */
#define CHK_XRANKS 16u
typedef struct chk_xn { uint32_t t, insn; uint8_t warp, lane; } chk_xn; /* a .cta-scoped release: its time, where */
struct chk_xph {                /* one phase of an mbarrier: the releases of other CTAs it gathered, by rank */
  uint32_t wide[CHK_XRANKS];    /* at .cluster scope or wider: the latest time */
  chk_xn nar[CHK_XRANKS];       /* at .cta scope: the latest */
};
typedef struct chk_xs {
  uint32_t xtime;               /* this CTA's releases to other CTAs so far */
  uint32_t xcl;                 /* xtime at its warps' last barrier.cluster arrival (a release at cluster scope) */
  uint32_t xcl_done;            /* xcl when the cluster barrier's phase last completed (what its waits acquire) */
  uint32_t *wt;                 /* per granule: 1 + xtime when a copy that completes in this CTA (cp.async; TMA or
                                   bulk copy on this CTA's mbarrier) last wrote it; 0: not followed */
  uint32_t wide[CHK_XRANKS];    /* per rank: the latest release at cluster scope of that CTA that a warp of this
                                   CTA acquired (the CTA as a whole: never a false alarm for want of a barrier) */
  chk_xn (*nar)[CHK_XRANKS];    /* per warp, per rank: the latest .cta-scoped release of that CTA it acquired */
  uint32_t *fenced;             /* per warp: xtime at its last fence at .cluster scope or wider (a release of what
                                   preceded it, through the warp's next arrival: 0 none) */
} chk_xs;
typedef struct chk_pend { /* a register a tcgen05.ld writes / tcgen05.st reads, until the wait */
  uint32_t reg, insn;
  uint32_t seq;  /* the warp's load (store) number of that instruction */
  uint32_t lanes; /* a load's: the lanes that have not read the register yet (9.7.16.6.4.5:
                     a true register dependency orders the load in its own thread only) */
  bool store;
  uint32_t slot; /* its register's 32 lanes when issued: chk_cta's snp[warp] + 32 * slot */
} chk_pend;
typedef struct chk_desc_cache { /* granules an operand descriptor covers */
  uint64_t desc;
  uint32_t idesc, kind, which, n;
  uint32_t *g;
} chk_desc_cache;
#define DESC_CACHE 128u
#define DESC_WAYS 4u

struct chk_cta {
  const tc5_smem *smem;            /* the CTA's shared memory (its written bits) */
  const uint32_t *ctaid;
  uint32_t rank;
  struct chk_cta *const *peers;    /* the cluster's checkers, by rank */
  uint32_t npeers;
  /* the launch's facts the runner hands over once (chk_new): the module's
   * instruction texts (stable strings), name, .target and vector registers;
   * the rule levels and the findings' log, shared by the launch's CTAs */
  const char *mname, *target;
  const uint8_t *rule_level;
  void *lock;                      /* pthread_mutex_t*, the launch's */
  chk_log *log;
  bool strict;
  unsigned n, nvc;
  uint32_t seq;
  uint32_t *vc, *svc, *spend;      /* n x nvc                                 */
  uint32_t *fence_seq;             /* per warp: seq of its last fence.proxy.async */
  uint32_t *mma_n, *ld_n, *st_n;   /* per warp: tcgen05 operations issued     */
  uint32_t *rel_l, *rel_s;         /* strict: L and S at its last before_thread_sync */
  uint32_t *mma_lanes;             /* lanes that issued MMAs not yet committed */
  uint32_t *last_ev;               /* per warp: its current store event (0: none) */
  uint32_t *last_insn;             /* per warp: that event's instruction      */
  const chk_insn *code;            /* the module's instructions (the runner's chk_code) */
  uint32_t ngran;
  uint32_t *sm_w, *sm_r;           /* per granule: store event, MMA reader op */
  chk_ev *ev;
  uint32_t nev, ev_cap;
  chk_op *op;
  uint32_t nop, op_cap;
  uint32_t tm_w[TM_GRANULES], tm_r[TM_GRANULES];
  bool tm_dirty;                   /* a cell of tm_w or tm_r was set since chk_reset (else all 0: not cleared again) */
  uint64_t cluster;                /* the cluster's position in the launch (chk_cluster_order)  */
  uint64_t nrep;                   /* rank 0's: the reports its cluster made so far            */
  uint32_t *bar, *bar_s;           /* 16 x nvc: arrivals of the current phase */
  chk_mb *mb;
  uint32_t nmb, mb_cap;
  chk_pend **pend;                 /* per warp: pending registers            */
  uint32_t *npend, *pend_cap;
  /* per warp: the pending registers' snapshots (32 lanes a slot, apart from
   * the entries: an entry that moves moves 24 bytes, not 280) and the free
   * slots, reused last-freed first (the pool stays in cache) */
  uint64_t *snp[32];
  uint32_t snp_top[32], snp_cap[32];
  uint32_t *sfree[32];
  uint32_t nsfree[32];
  /* per warp: registers a tcgen05.ld filled (in some lanes) from Tensor
   * Memory never written, or an ld from shared memory never written:
   * tmem-/smem-uninit-read when an instruction uses them (default mode;
   * strict reports at the load) */
  /* taddr: the first never-written cell (Tensor Memory) or byte (shared memory, smem set) the value came from */
  struct chk_poison { uint32_t reg, insn, lanes, taddr; bool smem; } **pois;
  uint32_t *npois, *pois_cap;
  uint32_t pois_new;               /* warps whose last tcgen05.ld or ld marked registers */
  /* default mode: a plain st.shared of such a value (issue 52) marks the
   * bytes it wrote instead of reporting (sp_m: per granule, the bytes; sp_org:
   * the load the value came from; NULL until the first such store); whatever
   * reads them later is reported, a later store of other values unmarks
   * them. sp_insn/sp_lanes: the store instruction and lanes of the warp just
   * so handled, for chk_after (docs/check.md) */
  uint16_t *sp_m;
  struct chk_poison *sp_org;
  uint32_t sp_insn[32], sp_lanes[32];
  /* default mode: a shfl.sync of such a value (issue 50) moves the marks with
   * the values: sh_src[w][lane] is the lane whose operand a the lane read
   * (0xFF: none), handed over by chk_shfl for the instruction sh_insn[w] - 1,
   * which chk_after's poison_uses then follows (docs/check.md) */
  uint8_t sh_src[32][32];
  uint32_t sh_insn[32];
  /* default mode: a tcgen05.dealloc of columns a tcgen05.mma / cp / shift
   * may still access is reported when the CTA uses Tensor Memory after it
   * (chk_dealloc_used), not when nothing follows (docs/check.md) */
  struct chk_defer { chk_warp w; uint32_t insn, op, col; } defer[4];
  uint32_t ndefer;
  /* n x nregs: how many pend and pois entries of the warp name each register
   * (chk_after looks no further for an instruction that names none) */
  uint16_t *rmark;
  uint32_t nregs;
  /* n x nregs: 1 + the index in pend of the entry of the register (0: none;
   * checked against the entry; pdup: the warp has a register in two entries,
   * then pend is searched) */
  uint16_t *pslot;
  uint32_t pdup;
  /* per warp: its tcgen05.ld with registers pending, and how many (npl > 8:
   * not followed, pend is searched) */
  struct chk_pl { uint32_t seq, left; } pl[32][8];
  uint8_t npl[32];
  chk_desc_cache cache[DESC_CACHE];
  uint32_t cache_victim;            /* the next way a full set of the cache replaces */
  uint32_t *scratch;               /* nvc */
  /* smem-race: ordinary (weak) ld/st.shared of different warps, per
   * granule: the last store event and up to two read events, each with
   * the bytes of the granule it touched */
  struct chk_rg {                  /* per granule, together (one cache line a few) */
    uint32_t w, r[2];
    uint16_t wm, rm[2];
    uint8_t busy;                  /* one of cpa_w, tma_w, bulk_r, wg_r may be set */
  } *rg;
  uint32_t *last_rev, *last_rinsn; /* per warp: its current read event        */
  /* asynchronous copies in flight (issue 33), per granule: the cp.async
   * writing it, the TMA load / bulk copy writing it (a chk_tma), the TMA
   * store / bulk copy reading it, the wgmma reading it (chk_op ids) */
  uint32_t *cpa_w, *tma_w, *bulk_r, *wg_r;
  uint16_t *cpa_m;                 /* the bytes of the granule cp.asyncs in flight write */
  /* a second cp.async group in flight in the granule, older than cpa_w's,
   * and its bytes (issue 53: two 4-byte copies side by side in different
   * groups, Triton's pipelined scalar; 0 when cpa_w is 0) */
  uint32_t *cpa_w2;
  uint16_t *cpa_m2;
  /* whether cpa_w (any_cpa) or bulk_r / wg_r (any_src) was ever set in this
   * CTA's checker: while not, they are all 0 and the loops over an MMA's
   * operand granules or a copy's destination need not read them */
  bool any_cpa, any_src;
  uint32_t grp_n[3][32];
  /* per warp: its last FENCE_HIST fence.proxy.async (seq, clock), a ring:
   * a store is fenced for a reader by the writer's FIRST fence after it,
   * which a later fence of the same warp must not hide */
#define FENCE_HIST 8u
  uint32_t fence_hseq[32][FENCE_HIST], fence_htc[32][FENCE_HIST];
  uint32_t fence_hn[32];           /* per warp: commit groups of cp.async, bulk, wgmma */
  struct chk_tma {                 /* a TMA load / bulk copy into this CTA */
    uint32_t insn, mb, phase;      /* its mbarrier (index) and the phase it completes */
    uint8_t warp, lane;
    uint8_t remote;                /* its mbarrier is another CTA's (a CTA pair's leader): chk_tma_load_remote */
    uint32_t kclock[32];           /* per warp: 1 + its clock when it observed the phase (0: not) */
  } *tma;
  uint32_t ntma, tma_cap;
  uint32_t ntma_remote;            /* chk_tma_load_remote's entries in tma (0: none to look at) */
  uint32_t xscan[32];              /* per warp: tma's entries up to here it looked at when it last acquired */
  uint32_t xrel[32];               /* per warp p: p's clock T up to which its reads are released to the
                                      cluster (by p or a warp that knew of them: xcta_release) */
  /* issue 53 (cross-CTA shadow): per (CTA rank r, warp x) of the cluster,
   * r * 32 + x: how many of that warp's tcgen05.mma this CTA knows complete,
   * because a commit of them arrived on an mbarrier whose phase a warp of
   * this CTA observed (NULL until one does; chk_commit_target) */
  uint32_t *xmma;
  struct chk_wgmma {               /* per warp: registers of wgmma.mma_async not yet waited */
    uint32_t *reg, *grp, *insn;    /* the register, its wgmma-group, the wgmma */
    uint32_t n, cap, commits;      /* commits: wgmma.commit_group executed */
  } *wgs;
  /* smem-race across the CTAs of a cluster (issue 33): per granule of this
   * CTA's shared memory, the last weak access of another CTA's warp
   * (ld/st.shared::cluster), with that warp's release clock and fence count
   * then (allocated at the first one); per warp, its fences (fence, membar) */
  struct chk_xr {
    uint32_t t, f, insn;
    uint16_t m;
    uint8_t cta1, warp, lane, write; /* cta1: the other CTA's rank + 1 (0: none) */
  } *xr;
  uint32_t nxr;
  uint32_t *xfence;
  chk_xs *xs;                      /* scoped releases across CTAs (issue 53) */
  /* issue 53: per granule of this CTA's shared memory, the last
   * tcgen05.mma.cta_group::2 of the peer CTA that reads it (the pair's half
   * here): the peer's rank + 1 (0: none) and the MMA's operation in the
   * peer's table (allocated at the first pair MMA of the peer; xpair_*) */
  uint8_t *pr_cta;
  uint32_t *pr_op;
};


#define VT(k, w) (w)
#define VM(k, w) ((k)->n + (w))
#define VL(k, w) (2 * (k)->n + (w))
#define VS(k, w) (3 * (k)->n + (w))
#define VA(k, w) (4 * (k)->n + (w)) /* cp.async groups waited (cp.async.wait_group) */
#define VB(k, w) (5 * (k)->n + (w)) /* bulk groups whose reads are done (cp.async.bulk.wait_group.read) */
#define VG(k, w) (6 * (k)->n + (w)) /* wgmma groups waited (wgmma.wait_group) */
#define VC(k, arr, w) ((arr) + (size_t)(w) * (k)->nvc)

typedef struct chk_cta chk_cta;
/* the checker of one CTA: the launch's module (code, its name, .target,
 * registers per thread), mode and findings' log; the CTA's warps, shared
 * memory (its written bits are read for smem-uninit-read), CTA id (read at
 * a finding), rank in its cluster, and the cluster's checkers (peers[rank]:
 * filled by the runner once all are made) */
typedef struct chk_setup {
  const chk_insn *code;
  uint32_t ncode, nregs;
  const char *mname, *target;
  bool strict;
  const uint8_t *rule_level;
  void *lock;
  struct chk_log *log;
  uint32_t nwarps, shared_total;
  const tc5_smem *smem;
  const uint32_t *ctaid;
  uint32_t rank;
  struct chk_cta *const *peers;
  uint32_t npeers;
} chk_setup;
tc5_status chk_new(chk_cta **out, const chk_setup *s);

void chk_free(chk_cta *k);
/* the cluster this CTA belongs to now: its position in the launch's order (set after chk_reset, per cluster) */
void chk_cluster_order(chk_cta *k, uint64_t pos);
/* what the runner may ask of a CTA's checker (inline: asked at every shared access) */
static inline bool chk_has_remote(const chk_cta *k) { return k->nxr != 0; }   /* chk_xrace_local has work */
static inline bool chk_has_deferred(const chk_cta *k) { return k->ndefer != 0; } /* chk_dealloc_used has work */
/* whether a read of never-written memory is judged by the use of its value
 * (the default mode: the runner marks the registers a tcgen05.ld filled
 * from such cells, chk_tmem_poison) rather than reported at the read (strict) */
static inline bool chk_defers_uninit(const chk_cta *k) { return !k->strict; }
void chk_reset(chk_cta *k);

/* hooks (each a no-op unless the CTA has a checker) */
void chk_smem_write(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n);
/* whether the asynchronous operation o is complete in the view vc */
static inline bool chk_known(const chk_cta *k, const uint32_t *vc, const chk_op *o) {
  switch (o->kind) {
  case OK_MMA: return vc[VM(k, o->warp)] >= o->idx;
  case OK_LD: return vc[VL(k, o->warp)] >= o->idx;
  case OK_CPA: return vc[VA(k, o->warp)] >= o->idx;
  case OK_BULK: return vc[VB(k, o->warp)] >= o->idx;
  case OK_WG:
    for (unsigned q = 0; q < 4 && o->warp + q < k->n; q++)
      if (vc[VG(k, o->warp + q)] >= o->idx) return true;
    return false;
  default: return vc[VS(k, o->warp)] >= o->idx;
  }
}
/* smem-race: a generic access of warp w to [off, off + n) of its CTA's
 * shared memory, checked against the other warps' (check.c) */
void chk_race(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n, bool write);
/* how the races treat an instruction's shared-memory accesses, from its
 * traits: 1 a weak access (plain ld, st, ldmatrix, stmatrix...), 2 not
 * followed (atomics, reductions and the strong forms: .volatile, .relaxed,
 * .acquire, .release, what names an mbarrier — they do not race in the
 * memory model's sense), 3 a weak cp.async (its destination written
 * asynchronously) */
static inline unsigned chk_iclass(const chk_insn *in) {
  return in->traits.flags & IT_STRONG ? 2 : in->traits.flags & IT_CP_ASYNC ? 3 : 1;
}

/* the bytes [off, off + n) of granule g as a mask of its 16 (off + n inside the granule or past it) */
static inline uint16_t chk_gran_mask(uint32_t g, uint32_t off, uint32_t n) {
  uint32_t lo = g * GRAN > off ? 0 : off - g * GRAN, hi = (off + n - g * GRAN) < GRAN ? off + n - g * GRAN : GRAN;
  return (uint16_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
}
/* an earlier access x (of another warp, touching bytes xm of the granule)
 * that the access of warp wi (bytes m) is not ordered after */
static inline bool chk_races(const chk_cta *k, const uint32_t *vc, unsigned wi, uint32_t x, uint16_t xm, uint16_t m) {
  if (!x || !(xm & m)) return false;
  const chk_ev *p = &k->ev[x];
  return p->warp != wi && vc[VT(k, p->warp)] < p->tclock;
}
/* chk_races over a loop's granules (chk_smem_store_rows, chk_rd_rows; session 16, ft): the order test of event x,
 * which depends on x and the warp alone, kept for the last x looked at (o->x 0: none; a loop's granules mostly name
 * the same few events: the 4 warps' reads of a tile, one warp's store) */
typedef struct chk_om {
  uint32_t x;
  bool r;
} chk_om;
static inline bool chk_races_m(const chk_cta *k, const uint32_t *vc, unsigned wi, uint32_t x, uint16_t xm, uint16_t m,
                               chk_om *o) {
  if (!x || !(xm & m)) return false;
  if (x != o->x) {
    const chk_ev *p = &k->ev[x];
    o->x = x, o->r = p->warp != wi && vc[VT(k, p->warp)] < p->tclock;
  }
  return o->r;
}
/* the common case inline: the warp's current store event, one granule
 * that no MMA still in flight (for this warp) reads */
/* (chk_smem_store_run: *last, the granule of the instruction's last lane that took the whole
 * common case, UINT32_MAX none; a store inside it again only adds its bytes, nothing else of
 * what that lane found having changed) */
/* warp wi's new store event at instruction insn, lane's (check.c store_event; 0: no room, nothing changed) */
uint32_t chk_store_event(chk_cta *k, unsigned wi, uint32_t insn, int lane);
static inline void chk_smem_store_run(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n,
                                      uint32_t *last) {
  chk_cta *k = w->k;
  unsigned wi = w->id;
  uint32_t e = k->last_ev[wi], g = off / GRAN, r, insn = (uint32_t)(in - k->code);
  if (g == *last && g == (off + n - 1) / GRAN) {
    k->rg[g].wm |= chk_gran_mask(g, off, n);
    return;
  }
  *last = UINT32_MAX;
  /* not when the warp holds followed values or shared memory does (sp_m): chk_smem_write marks the bytes */
  bool one = g == (off + n - 1) / GRAN && g < k->ngran && !k->npois[wi] && !k->sp_m &&
             (!(r = k->sm_r[g]) || chk_known(k, VC(k, k->vc, wi), &k->op[r]));
  /* the warp's store event not this instruction's (its first lane): the one chk_smem_write's
   * chk_race would make for this lane, made here where nothing chk_smem_write does before it
   * (inflight_access: the granule not busy) or apart from chk_race after it (smem_written: sm_w,
   * sm_r known, no pair MMA's read, pr_cta) differs from the common case below */
  if (one && (!e || k->last_insn[wi] != insn) && !k->rg[g].busy && !(k->pr_cta && k->pr_cta[g]))
    e = chk_store_event(k, wi, insn, lane);
  if (one && e && k->last_insn[wi] == insn) {
    k->sm_w[g] = e;
    /* smem-race, the common case: no load of another warp recorded that
     * is not ordered before it, nothing asynchronous in flight, a weak
     * store: the granule's last store (write after write is not reported) */
    struct chk_rg *q = &k->rg[g];
    uint16_t m = chk_gran_mask(g, off, n);
    const uint32_t *vc = VC(k, k->vc, wi);
    /* the granule's reads ordered before it (or this warp's, or of other bytes): chk_race reports none
     * and forgets them (a bar.sync between a scan's reads of partial results and the next stores) */
    if (!k->rg[g].busy && chk_iclass(in) == 1 && !chk_races(k, vc, wi, q->r[0], q->rm[0], m) &&
        !chk_races(k, vc, wi, q->r[1], q->rm[1], m)) {
      q->r[0] = q->r[1] = 0;
      if (q->w == e) q->wm |= m;
      else q->w = e, q->wm = m;
      *last = g;
      return;
    }
    chk_race(w, in, lane, off, n, true);
    return;
  }
  chk_smem_write(w, in, lane, off, n);
}
/* chk_rows_gran's step for one lane's bytes [x, + n) (M[i] is set by the first lane into index i) */
static inline void chk_rows_lane(uint32_t x, uint32_t n, uint32_t g0, uint16_t *M, uint64_t *touched, uint32_t *far,
                                 uint32_t *al, uint32_t *mx) {
  uint32_t i = x / GRAN - g0;
  uint64_t bit = 1ull << (i & 63);
  *far |= i, *al |= x, *mx = x > *mx ? x : *mx;
  /* (a whole granule, n 16 aligned: all its bytes, M not read back: session 16, ft, the radix sort's st.shared.v4) */
  M[i & 63] = n == GRAN ? 0xFFFFu : (uint16_t)((*touched & bit ? M[i & 63] : 0) | (((1u << n) - 1) << (x % GRAN)));
  *touched |= bit;
}
/* the granules of a whole mask's lanes (chk_smem_store_rows): lane l's bytes
 * [a[l], + n) (n a power of two up to GRAN) as bytes M[g - *g0] of granule g, *touched the indices
 * used (M's others not set), *mx the largest a[l]; false when a lane is not aligned to n or the
 * lanes' granules are not all within 31 below and 32 above the first lane's */
static inline bool chk_rows_gran(const uint32_t *a, uint32_t n, uint32_t mask, uint32_t *g0, uint16_t *M,
                                 uint64_t *touched, uint32_t *mx) {
  uint32_t far = 0, al = 0, g = a[__builtin_ctz(mask)] / GRAN - 31; /* granule g at index g - g0 (mod 2^32) */
  *touched = 0, *mx = 0, *g0 = g;
  if (mask == 0xFFFFFFFFu)
    for (unsigned l = 0; l < 32; l++) chk_rows_lane(a[l], n, g, M, touched, &far, &al, mx);
  else
    for (uint32_t left = mask; left; left &= left - 1) chk_rows_lane(a[__builtin_ctz(left)], n, g, M, touched, &far, &al, mx);
  return !(far >> 6) && !(al & (n - 1));
}
/* chk_smem_store_run's common case for every lane of mask at once (issue 50, size): lane l's
 * bytes [a[l], + n), n a power of two up to a granule's 16 (exec_mem.c's st.shared.v2.b64, .v4.b32: the whole
 * granule), each a[l] aligned to it (inside one granule).
 * A lane that takes it changes only the granule's sm_w and store (w, wm), which no lane's
 * conditions read (the warp's store event and instruction, its followed values, the granule's
 * sm_r and busy), and forgets its reads (none racing with the lane's bytes: then none with a later
 * lane's there either): so when every lane's hold (no read racing with the union of the lanes'
 * bytes there), the end state is that of the lanes one by one: per granule, sm_w and w the event
 * e, wm e's bytes there before (none when w was another's) with the union of the lanes', no reads. Checked first for all the lanes (their granules at
 * most 31 below and 32 above the first lane's), then done; false: not so, nothing changed,
 * chk_smem_store_run's turn. */
static inline bool chk_smem_store_rows(const chk_warp *w, const chk_insn *in, const uint32_t *a, uint32_t n,
                                       uint32_t mask) {
  chk_cta *k = w->k;
  unsigned wi = w->id;
  uint32_t e = k->last_ev[wi], insn = (uint32_t)(in - k->code);
  if (e && k->last_insn[wi] != insn) e = 0; /* the first lane's to make (chk_smem_store_run's), below */
  if (!mask || n > GRAN || (n & (n - 1)) || k->npois[wi] || k->sp_m || chk_iclass(in) != 1 || (!e && k->pr_cta))
    return false;
  uint32_t g0, mx;
  uint16_t M[64];
  uint64_t touched;
  if (!chk_rows_gran(a, n, mask, &g0, M, &touched, &mx) || mx / GRAN >= k->ngran) return false;
  const uint32_t *vc = VC(k, k->vc, wi);
  chk_om o0 = {0, false}, o1 = {0, false};
  for (uint64_t t = touched; t; t &= t - 1) {
    uint32_t g = g0 + (uint32_t)__builtin_ctzll(t), r = k->sm_r[g];
    const struct chk_rg *q = &k->rg[g];
    if ((r && !chk_known(k, vc, &k->op[r])) || q->busy) return false;
    /* its reads ordered before the stores (chk_smem_store_run's; the lanes' bytes there M: a race with some
     * lane's exactly when with their union; the first lane into it forgets the reads) */
    if (chk_races_m(k, vc, wi, q->r[0], q->rm[0], M[g - g0], &o0) ||
        chk_races_m(k, vc, wi, q->r[1], q->rm[1], M[g - g0], &o1))
      return false;
  }
  if (!e && !(e = chk_store_event(k, wi, insn, (int)__builtin_ctz(mask)))) return false;
  for (uint64_t t = touched; t; t &= t - 1) {
    unsigned i = (unsigned)__builtin_ctzll(t);
    struct chk_rg *q = &k->rg[g0 + i];
    k->sm_w[g0 + i] = e;
    q->r[0] = q->r[1] = 0;
    if (q->w == e) q->wm |= M[i];
    else q->w = e, q->wm = M[i];
  }
  return true;
}
static inline void chk_smem_store(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n) {
  uint32_t last = UINT32_MAX;
  chk_smem_store_run(w, in, lane, off, n, &last);
}
/* after an instruction whose engine read never-written shared or Tensor
 * Memory (the counts in *g, reset here): smem-uninit-read /
 * tmem-uninit-read, the run goes on (the bytes read were poison, 0xFF) */
void chk_uninit_flush(const chk_warp *w, const chk_insn *in, tc5_uninit_log *g);
void chk_smem_read(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n);
/* which of a granule's two read slots a new read event of warp wi takes: the one whose read x (slot 0's) is
 * not ordered before it, or the newer (chk_race's choice) */
static inline int chk_read_slot(const chk_cta *k, const uint32_t *vc, unsigned wi, uint32_t x) {
  return !x || k->ev[x].warp == wi || vc[VT(k, k->ev[x].warp)] >= k->ev[x].tclock ? 0 : 1;
}
/* whether the warp holds values the checker follows (pending tcgen05.ld or
 * wgmma registers, or values read from never-written memory) */
static inline bool chk_follows(const chk_cta *k, unsigned wi) {
  return k->npend[wi] || k->npois[wi] || (k->wgs && k->wgs[wi].n);
}
/* chk_smem_read's common case, the same result by a shorter way (issue 50,
 * size): the default mode, a weak load (into one register, or registers of
 * equal parts) of bytes inside one granule that no copy has in flight, all written; no followed value in the
 * warp nor in shared memory; the warp's current read event already this
 * instruction's; no race with the granule's store. Then chk_race only adds the
 * bytes to that read in the granule (or records the read there, in the slot
 * it would choose) and smem_defer changes nothing but the warp's pending
 * flag. false: nothing done, the general path's turn. Inline (as chk_smem_store's
 * common case) for the runner's loads of shared memory. */
/* its conditions that hold for the whole instruction (chk_rd_begin) and for one lane's bytes
 * (chk_rd_lane); a warp-instruction's lanes share the first (the runner's loads ask them once,
 * and again after a lane took the general path, which may change them) */
typedef struct chk_rd {
  chk_cta *k;
  const chk_insn *in;
  bool *pending;
  const uint32_t *vc;
  uint32_t e, wi;
  bool ok;
  bool follows; /* chk_follows(k, wi) at chk_rd_begin: the fast lanes change none of what it reads */
  /* the granule of the last lane chk_rd_lane took (UINT32_MAX: none since chk_rd_begin), the
   * slot of e there, and whether its store is another warp's not ordered before this warp
   * (chk_races but the bytes): a fast read changes nothing of the granule but its read slots */
  uint32_t g;
  int slot;
  bool unord;
} chk_rd;
/* an ldmatrix (IT_MATRIX, read, no IT_LOAD): chk_smem_read takes each row's bytes through chk_race and the
 * written bits' test alone (smem_defer takes no ldmatrix: no destination's bytes to follow, no pending flag
 * set; chk_matrix follows marked bytes, when chk_matrix_follows): chk_rd_lane's and chk_rd_rows' way is that
 * of a load whose destinations need no test, the pending flag left as it is (f->pending NULL) */
static inline bool chk_rd_matrix(const chk_insn *in) {
  return (in->traits.flags & (IT_MATRIX | IT_READ | IT_WRITE | IT_LOAD)) == (IT_MATRIX | IT_READ);
}
static inline void chk_rd_begin(chk_rd *f, chk_cta *k, const chk_warp *w, const chk_insn *in, uint32_t n) {
  unsigned wi = w->id;
  f->k = k, f->in = in, f->pending = w->pending, f->wi = wi, f->ok = false, f->g = UINT32_MAX;
  if (!k || k->strict || k->sp_m || k->npois[wi] || !n || !in || chk_iclass(in) != 1) return;
  bool mx = chk_rd_matrix(in);
  if (!(in->traits.flags & IT_LOAD) && !mx) return;
  uint32_t e = k->last_rev[wi];
  const uint32_t *vc = VC(k, k->vc, wi);
  /* the warp's read event not this instruction's at its clock: e 0, the first lane that takes
   * chk_rd_lane's (or chk_rd_rows') way makes it (chk_read_event's new event: what chk_race's
   * read_event would make for that lane at that point; no slot nor store holds it yet) */
  if (e && (k->last_rinsn[wi] != (uint32_t)(in - k->code) || k->ev[e].tclock != vc[VT(k, wi)])) e = 0;
  /* smem_defer's loop then finds every destination's bytes written (one destination, or
   * n / ndst bytes each: [off, off + n) in all) and no register marked (npois 0, sp_m NULL) */
  unsigned ndst = in->ndst; /* (its regs' CHK_R_DST entries, counted once by the runner: chk_insn) */
  if (mx) f->pending = NULL;
  else if (!ndst || (ndst > 1 && (ndst & (ndst - 1) ? n % ndst : n & (ndst - 1)))) return; /* (a vector's 2 or 4: no division) */
  f->e = e, f->vc = vc, f->ok = true;
  f->follows = chk_follows(k, wi);
}
/* warp wi's read event for instruction insn at its clock (check.c; a new one, lane's, when the warp's last is not
 * that; 0: no room) */
uint32_t chk_read_event(chk_cta *k, unsigned wi, uint32_t insn, int lane);
static inline bool chk_rd_lane(chk_rd *f, int lane, uint32_t off, uint32_t n) {
  chk_cta *k = f->k;
  unsigned wi = f->wi;
  uint32_t g = off / GRAN, e = f->e;
  const uint32_t *vc = f->vc;
  if (!f->ok || g != (off + n - 1) / GRAN || g >= k->ngran) return false;
  struct chk_rg *q = &k->rg[g];
  uint16_t m = chk_gran_mask(g, off, n);
  bool same = g == f->g; /* the last fast lane's granule: its busy, w and wm as that lane found them */
  int r;
  if (same) {
    if (f->unord && (q->wm & m)) return false;
    r = f->slot;
  } else {
    if (q->busy) return false;
    r = !e ? -1 : q->r[0] == e ? 0 : q->r[1] == e ? 1 : -1;
    if (q->w != e && chk_races(k, vc, wi, q->w, q->wm, m)) return false;
  }
  const tc5_smem *s = k->smem;
  if (off + n > s->size) return false;
  if ((off & 7) + n <= 8) { /* the bytes' written bits inside one byte of the map: at once */
    uint8_t want = (uint8_t)(((1u << n) - 1) << (off & 7));
    if ((s->written[off >> 3] & want) != want) return false;
  } else {
    for (uint32_t b = off, end = off + n; b < end;) {
      if (!(b & 7) && end - b >= 8) { /* eight bytes' written bits: one byte of the map */
        if (s->written[b >> 3] != 0xFFu) return false;
        b += 8;
      } else {
        if (!(s->written[b >> 3] >> (b & 7) & 1)) return false;
        b++;
      }
    }
  }
  if (!e && !(e = f->e = chk_read_event(k, wi, (uint32_t)(f->in - k->code), lane))) return false;
  if (r >= 0) {
    q->rm[r] |= m;
  } else { /* chk_race's choice: keep the read that is not ordered before this one (or the newer) */
    r = chk_read_slot(k, vc, wi, q->r[0]);
    q->r[r] = e, q->rm[r] = m;
  }
  if (!same) f->g = g, f->slot = r, f->unord = q->w != e && chk_races(k, vc, wi, q->w, q->wm, 0xFFFFu);
  if (f->pending) *f->pending = f->follows;
  return true;
}
/* chk_rd_rows's granules: the lanes of mask in order as runs, lane l's bytes [a[l], + n) (n a
 * power of two up to 16) adding to the run before when in its granule G[i] (bytes M[i]), else
 * starting one; *cnt runs, *mx the largest a[l]; false when a lane is not aligned to n. A
 * granule may be in two runs (lanes of a warp reading a tile's rows 2 KiB apart, mma.sync's
 * fragments: no window of granules holds them) */
static inline bool chk_rows_runs(const uint32_t *a, uint32_t n, uint32_t mask, uint32_t *G, uint16_t *M,
                                 unsigned *cnt, uint32_t *mx) {
  uint32_t al = 0, top = 0;
  unsigned c = 0;
  for (uint32_t left = mask; left; left &= left - 1) {
    uint32_t x = a[__builtin_ctz(left)], g = x / GRAN;
    uint16_t b = (uint16_t)(((1u << n) - 1) << (x % GRAN));
    al |= x, top = x > top ? x : top;
    if (c && G[c - 1] == g) M[c - 1] |= b;
    else G[c] = g, M[c] = b, c++;
  }
  *cnt = c, *mx = top;
  return !(al & (n - 1));
}
/* chk_rd_lane for every lane of mask at once (issue 50, size): lane l's bytes [a[l], + n), n a
 * power of two up to a granule's 16, each a[l] aligned to it (so inside one granule: an ldmatrix's
 * 16-byte rows, session 16). A fast lane changes nothing that another lane's conditions read (a granule's
 * busy, store and its bytes, the written map), only the granule's read slots: the first lane
 * into a granule finds e's slot there or chooses one (chk_read_slot), the others add their
 * bytes to it. So when every lane's conditions hold, the end state is that of the lanes one by
 * one: per granule, e's slot with the union of its lanes' bytes (a race with the granule's
 * store, a byte not written: for some lane exactly when for the union). Checked first for all
 * the lanes (by runs, chk_rows_runs: a granule's second run finds e's slot its first took, and
 * adds its bytes, the same union), then done; false: not so, nothing changed, chk_rd_lane's turn. */
static inline bool chk_rd_rows(chk_rd *f, const uint32_t *a, uint32_t n, uint32_t mask) {
  chk_cta *k = f->k;
  if (!f->ok || !mask || n > GRAN || (n & (n - 1))) return false;
  const tc5_smem *s = k->smem;
  const uint32_t *vc = f->vc;
  uint32_t e = f->e, wi = f->wi, mx, G[32];
  uint16_t M[32];
  unsigned c;
  /* every lane's bytes aligned, inside shared memory and its granules */
  if (!chk_rows_runs(a, n, mask, G, M, &c, &mx) || (uint64_t)mx + n > s->size || mx / GRAN >= k->ngran)
    return false;
  for (unsigned i = 0; i < c; i++) { /* a granule's bytes written: its two bytes of the map */
    uint32_t g = G[i], wr = s->written[2 * g] | (M[i] >> 8 ? (uint32_t)s->written[2 * g + 1] << 8 : 0);
    if ((wr & M[i]) != M[i]) return false;
  }
  chk_om o = {0, false};
  for (unsigned i = 0; i < c; i++) {
    const struct chk_rg *q = &k->rg[G[i]];
    if (q->busy || (q->w != e && chk_races_m(k, vc, wi, q->w, q->wm, M[i], &o))) return false;
  }
  if (!e && !(e = f->e = chk_read_event(k, wi, (uint32_t)(f->in - k->code), (int)__builtin_ctz(mask)))) return false;
  uint32_t rs = 0;
  int rr = 0;
  for (unsigned i = 0; i < c; i++) {
    struct chk_rg *q = &k->rg[G[i]];
    int r = q->r[0] == e ? 0 : q->r[1] == e ? 1 : -1;
    if (r >= 0) {
      q->rm[r] |= M[i];
    } else {
      /* chk_read_slot, its order test of slot 0's read kept for the last such read (rs) */
      uint32_t x = q->r[0];
      if (x && x != rs) rs = x, rr = chk_read_slot(k, vc, wi, x);
      r = x ? rr : 0;
      q->r[r] = e, q->rm[r] = M[i];
    }
  }
  f->g = UINT32_MAX; /* no lane's granule remembered: the next chk_rd_lane looks again */
  if (f->pending) *f->pending = f->follows;
  return true;
}
static inline bool chk_smem_read_common(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t off,
                                        uint32_t n) {
  if (lane < 0 || lane > 31) return false;
  chk_rd f;
  chk_rd_begin(&f, k, w, in, n);
  return chk_rd_lane(&f, lane, off, n);
}
/* shared memory [off, off + n) of CTA t written by the async proxy (a TMA
 * or bulk copy that w issued): no generic write waits for a fence there
 * any more; overwriting what an MMA of w's CTA still reads is reported */
void chk_smem_async_write(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n);
void chk_fence_proxy_async(const chk_warp *w);
/* ---- cluster: generic accesses to another CTA's shared memory (issue 33) ---- */
/* a weak ld/st of warp w to [off, off + n) of CTA t (t != w's CTA) */
void chk_remote_access(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n, bool write);
/* a weak ld/st of warp w to its own CTA's [off, off + n), checked against
 * other CTAs' accesses recorded there (only when there are: k->nxr) */
void chk_xrace_local(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n, bool write);
/* a memory fence (fence.sc / acq_rel / mbarrier_init, membar) of warp w */
void chk_fence_order(const chk_warp *w);
void chk_xrace_free(chk_cta *k);
void chk_xrace_reset(chk_cta *k);
/* ---- asynchronous copies (issue 33) ---- */
/* a cp.async of warp w writing [off, off + n) of its CTA (in flight until
 * the warp's cp.async.wait_group covers its group) */
void chk_cp_async(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n);
/* commit groups: which 0 cp.async, 1 bulk (cp.async.bulk), 2 wgmma; wait:
 * false commit_group, true wait_group n (n groups may stay pending) */
void chk_group(const chk_warp *w, unsigned which, bool wait, uint32_t n);
/* a TMA load or bulk copy into [off, off + n) of CTA t, completed by
 * the phase `phase` of mbarrier mb of t (in flight until a warp observes it) */
void chk_tma_load(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n, const chk_mbar *mb,
                  uint32_t phase);
/* a TMA store or bulk copy reading [off, off + n) of w's CTA (the async
 * proxy: the stores must be fenced; in flight until
 * cp.async.bulk.wait_group.read covers its bulk group) */
/* grouped: the copy completes through a bulk group (cp.async.bulk.wait_group
 * .read tells its source is read); a copy that completes through an
 * mbarrier (shared::cta -> shared::cluster) has its source read when the
 * destination's mbarrier completes, which the checker does not follow: its
 * source is not tracked as in flight, only the proxy fence is checked */
void chk_bulk_read(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n, bool grouped);
/* a wgmma of the warpgroup of w (wg0: its first warp) reading its shared
 * memory operands (da NULL: A in registers) */
void chk_wgmma(const chk_warp *w, const chk_insn *in, unsigned wg0, const tc5_smem_desc *da, const tc5_operand *opa,
               const tc5_smem_desc *db, const tc5_operand *opb, unsigned N, unsigned K);
/* mbarrier.init of an mbarrier already initialised and not invalidated */
void chk_mbar_reinit(const chk_warp *w, const chk_insn *in, int lane, const chk_mbar *mb);
void chk_tc_fence(const chk_warp *w, bool after);
void chk_mma(const chk_warp *w, const chk_insn *in, int lane, const tc5_mma_args *a);
void chk_cp(const chk_warp *w, const chk_insn *in, int lane, const tc5_cp_args *a);
void chk_shift(const chk_warp *w, const chk_insn *in, int lane, uint32_t taddr);
void chk_tmem_ldst(const chk_warp *w, const chk_insn *in, bool store, uint32_t taddr, const tc5_tmem_ldst *op,
                   const uint32_t *regs, unsigned nr);
void chk_tc_wait(const chk_warp *w, bool store);
/* a tcgen05.ld that read Tensor Memory never written (default mode): its
 * destination registers regs[i] hold such cells in the threads lanes[i]
 * (taddr: the first such cell); a read of one is tmem-uninit-read, an
 * overwrite clears it */
void chk_tmem_poison(const chk_warp *w, const chk_insn *in, const uint32_t *regs, unsigned n, const uint32_t *lanes,
                     uint32_t taddr);
/* wgmma (Hopper): a warp's part of a wgmma.mma_async (its D registers and A's,
 * until the wgmma.wait_group that covers its group), commit_group, wait_group N */
void chk_wgmma_issue(const chk_warp *w, const chk_insn *in);
void chk_wgmma_commit(const chk_warp *w);
void chk_wgmma_wait(const chk_warp *w, unsigned n);
/* strict: an instruction the module's .target does not have (targets: the ones that do) */
void chk_target_feature(const chk_warp *w, const chk_insn *in, const char *what, const char *targets);
void chk_after(const chk_warp *w, const chk_insn *in); /* while tcgen05.ld/st registers are pending */
/* a shfl.sync that the warp just executed while registers are followed: src[lane] is the lane whose
 * operand a the lane received (0xFF: the lane did not execute it); chk_after follows marks with it */
void chk_shfl(const chk_warp *w, const chk_insn *in, const uint8_t *src);
/* ldmatrix / stmatrix (default mode; issue 50): nrows rows of 16 bytes at off[r] of the CTA's own
 * shared memory (UINT32_MAX: another CTA's, not followed); byte b of row r is held by lane
 * src[r][b].lane's element src[r][b].reg of the instruction's vector operand. A store marks the
 * bytes of elements that hold (in their lane) a followed value, as a plain st.shared does
 * (spois_store), and is then not reported; a load marks the elements that receive marked bytes
 * (and unmarks the others), as a plain ld does (smem_defer). The runner calls it after the
 * instruction's rows went through chk_smem_write / chk_smem_read, when chk_matrix_follows. */
typedef struct chk_mx { uint8_t lane, reg; } chk_mx;
void chk_matrix(const chk_warp *w, const chk_insn *in, bool store, unsigned nrows, const uint32_t *off,
                const chk_mx (*src)[16]);
static inline bool chk_matrix_follows(const chk_cta *k, unsigned wi, bool store) {
  return k && !k->strict && (store ? k->npois[wi] != 0 : k->sp_m != NULL);
}
void chk_dealloc(const chk_warp *w, const chk_insn *in, uint32_t taddr, uint32_t ncols);
/* the CTA uses Tensor Memory again (a tcgen05.ld / st / mma / cp / shift /
 * commit / alloc, before it executes): the deferred dealloc-inflight findings */
void chk_dealloc_used(chk_cta *c);
/* an arrival on mbarrier mb (phase_before: its phase before the arrival);
 * commit: by tcgen05.commit (also releases the warp's MMAs). *spill: the
 * mbarrier whose phase an earlier lane of this instruction completed (the
 * caller keeps it across its lanes, NULL at first) */
void chk_mbar_arrive(const chk_warp *w, const chk_insn *in, int lane, const chk_mbar *mb, uint32_t phase_before, bool commit,
                     uint32_t *spill);
void chk_mbar_init(const chk_warp *w, const chk_mbar *mb);
void chk_mbar_observe(const chk_warp *w, const chk_insn *in, const chk_mbar *mb, unsigned parity);
void chk_bar_arrive(const chk_warp *w, uint32_t id);
void chk_bar_done(chk_cta *c, uint32_t id, uint32_t waiting);
/* barrier.cluster: within each CTA it orders like a CTA barrier (the
 * checker follows one CTA; what a CTA pair's MMA does in the peer is not
 * followed): a release arrival contributes, the completed phase is kept
 * until the warps' waits acquire it */
void chk_cluster_arrive(const chk_warp *w);
/* Synchronisation through another CTA: a warp's arrival on another CTA's
 * mbarrier (or a multicast commit) exports what the warp knows to its CTA's
 * exports (chk_export); an mbarrier signalled from another CTA gains its
 * CTA's exports and completes its phase like a local arrival
 * (chk_mbar_remote). A chain of arrivals that leaves a CTA and comes back
 * (CUTLASS's 2-SM epilogue -> leader -> peer) so carries the CTA's own
 * releases back to it; what the other CTA did in between is trusted. */
void chk_export(const chk_warp *w, bool commit);
/* mbarrier.arrive.relaxed by w on its CTA's mbarrier: an arrival that
 * releases nothing (no memory ordering, 9.7.13.15.13); the phase may complete */
void chk_mbar_arrive_relaxed(const chk_warp *w, const chk_insn *in, int lane, const chk_mbar *mb, uint32_t phase_before,
                             uint32_t *spill);
void chk_mbar_remote(chk_cta *c, const chk_mbar *mb, uint32_t phase_before);
/* ---- scopes across the CTAs of a cluster (issue 53) ----
 * A release reaches another CTA's thread only when its scope includes that
 * thread (8.6: morally strong; a .cta scope includes the CTA's threads
 * only). chk_xscope_arrive: warp w's arrival (release semantics; its
 * traits give the scope) on mbarrier mb of CTA t (t != w's CTA), before
 * the arrival completes a phase; a tcgen05.commit's arrival is taken at
 * cluster scope. chk_xscope_fence: a fence (its scope, from the traits).
 * A read of a peer CTA's shared memory (ld.shared::cluster, a
 * .cta_group::2 tcgen05.cp or MMA) that a copy completed in the peer wrote,
 * which the reading warp knows of only through a .cta-scoped arrival of
 * the peer (no later release at cluster scope of the peer was acquired in
 * this CTA, no barrier.cluster), is release-scope. */
void chk_xscope_arrive(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, const chk_mbar *mb);
void chk_xscope_fence(const chk_warp *w, const chk_insn *in);
/* ---- the cluster's shadow across CTAs (issue 53) ---- */
/* a TMA load / bulk copy into [off, off + n) of CTA t whose mbarrier is in
 * another CTA (a CTA pair's .cta_group::2 copy signals the leader's): in
 * flight for t's warps until one acquires from the cluster after it (a
 * barrier.cluster wait, an mbarrier wait): the checker does not follow the
 * other CTA's phase */
void chk_tma_load_remote(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n);
/* tcgen05.commit of warp w arrives on mbarrier mb of CTA d (w's own CTA or
 * another of a .multicast::cluster mask); called before the arrival's
 * chk_mbar_arrive / chk_mbar_remote: a warp of d that observes the phase
 * knows w's MMAs complete, which a copy of d into another CTA's shared
 * memory that they read needs */
void chk_commit_target(const chk_warp *w, chk_cta *d, const chk_mbar *mb);
/* barrier.cluster.arrive.relaxed of warp w: it releases nothing, but the
 * copies of other CTAs issued after the barrier's wait come after w's
 * reads (xcta_war counts it for reads only: ConSan's correct 2-CTA kernels
 * read the Tensor Memory address slot before one and multicast into it after) */
void chk_cluster_arrive_relaxed(const chk_warp *w);
void chk_cluster_done(chk_cta *c);
void chk_cluster_wait(const chk_warp *w);
#endif
