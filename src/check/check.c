/* tc5 checker — happens-before tracking of the asynchronous tcgen05
 * operations, shared memory and Tensor Memory for the PTX runner (the model
 * is described in check_impl.h; the rules are rules.c's rows).
 *
 * The runner calls the hooks below from the instructions' semantics; each
 * finding is recorded once per (rule, instruction, earlier instruction) in
 * the launch's log and handed to the caller when the launch ends. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "check/check_impl.h"
#include "mma/mma_impl.h"
#include "tc5/descriptors.h"
#include "tc5/kind.h"
#include "tc5/layout.h"

/* the cluster's shadow across CTAs (issue 53; the section before the
 * smem-race across CTAs): entries of chk_cta's xmma / chk_mb's xk, one per
 * (CTA rank, warp) of a cluster of up to 16 CTAs */
#define XK_N (16u * 32u)
static void xcta_reset(chk_cta *k);
static void xk_phase_done(uint32_t *xk);
static void xcta_acquired(chk_cta *k, unsigned wi, const uint32_t *xk, bool cluster);
static void xcta_publish(const chk_warp *w);
static void xcta_release(const chk_warp *w);

const char *chk_rule_id(unsigned rule) {
  const tc5_check_rule *r;
  return tc5_check_rule_get(rule, &r) ? "?" : r->id;
}

/* scopes across CTAs (issue 53; at the end of this file) */
static void xscope_phase_done(chk_mb *x);
static void xscope_observe(chk_cta *k, unsigned wi, const struct chk_xph *ph);
static void chk_xscope_reset(chk_cta *k);
static void xpair_reads(chk_cta *k, chk_cta *p, const chk_desc_cache *e, uint32_t id);
static void xscope_reads(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, chk_cta *t,
                         const chk_desc_cache *e, uint32_t off, uint32_t n, const char *what);

/* ---- setup ---- */
tc5_status chk_new(chk_cta **out, const chk_setup *S) {
  chk_cta *k = calloc(1, sizeof *k);
  if (!k) return TC5_ENOMEM;
  k->code = S->code;
  k->mname = S->mname, k->target = S->target;
  k->rule_level = S->rule_level, k->lock = S->lock, k->log = S->log;
  k->smem = S->smem, k->ctaid = S->ctaid, k->rank = S->rank, k->peers = S->peers, k->npeers = S->npeers;
  k->strict = S->strict;
  k->n = S->nwarps; /* at most 32 (1024 threads) */
  if (k->n > 32) {
    free(k);
    return TC5_EINVAL;
  }
  k->nvc = CHK_CLOCKS * k->n;
  k->ngran = (S->shared_total + GRAN - 1) / GRAN;
  size_t V = (size_t)k->n * k->nvc;
  k->vc = calloc(V, 4), k->svc = calloc(V, 4), k->spend = calloc(V, 4);
  k->fence_seq = calloc(k->n, 4), k->mma_n = calloc(k->n, 4), k->ld_n = calloc(k->n, 4), k->st_n = calloc(k->n, 4);
  k->rel_l = calloc(k->n, 4), k->rel_s = calloc(k->n, 4), k->mma_lanes = calloc(k->n, 4), k->last_ev = calloc(k->n, 4);
  k->last_insn = calloc(k->n, 4);
  k->rg = calloc(k->ngran ? k->ngran : 1, sizeof *k->rg);
  k->last_rev = calloc(k->n, 4), k->last_rinsn = calloc(k->n, 4);
  k->cpa_m = calloc(k->ngran ? k->ngran : 1, 2), k->cpa_m2 = calloc(k->ngran ? k->ngran : 1, 2);
  k->cpa_w2 = calloc(k->ngran ? k->ngran : 1, 4);
  k->cpa_w = calloc(k->ngran ? k->ngran : 1, 4), k->tma_w = calloc(k->ngran ? k->ngran : 1, 4);
  k->bulk_r = calloc(k->ngran ? k->ngran : 1, 4), k->wg_r = calloc(k->ngran ? k->ngran : 1, 4);
  k->sm_w = calloc(k->ngran, 4), k->sm_r = calloc(k->ngran, 4);
  k->bar = calloc((size_t)CHK_BARS * k->nvc, 4), k->bar_s = calloc((size_t)CHK_BARS * k->nvc, 4);
  k->pend = calloc(k->n, sizeof *k->pend), k->npend = calloc(k->n, sizeof(uint32_t)),
  k->pend_cap = calloc(k->n, sizeof(uint32_t));
  k->pois = calloc(k->n, sizeof *k->pois), k->npois = calloc(k->n, 4), k->pois_cap = calloc(k->n, 4);
  k->nregs = S->nregs;
  k->rmark = calloc((size_t)k->n * (k->nregs ? k->nregs : 1), sizeof *k->rmark);
  k->pslot = calloc((size_t)k->n * (k->nregs ? k->nregs : 1), sizeof *k->pslot);
  k->scratch = calloc(k->nvc, 4);
  k->xs = calloc(1, sizeof *k->xs);
  if (k->xs) {
    k->xs->wt = calloc(k->ngran ? k->ngran : 1, 4);
    k->xs->nar = calloc(k->n, sizeof *k->xs->nar);
    k->xs->fenced = calloc(k->n, sizeof *k->xs->fenced);
  }
  if (!k->vc || !k->svc || !k->spend || !k->fence_seq || !k->mma_n || !k->ld_n || !k->st_n || !k->rel_l ||
      !k->rel_s || !k->mma_lanes || !k->last_ev || !k->last_insn || !k->rg ||
      !k->last_rev || !k->last_rinsn ||
      !k->cpa_w || !k->cpa_m || !k->cpa_w2 || !k->cpa_m2 || !k->tma_w || !k->bulk_r || !k->wg_r || !k->sm_w || !k->sm_r || !k->bar || !k->bar_s || !k->pend ||
      !k->npend || !k->pend_cap || !k->pois || !k->npois || !k->pois_cap || !k->rmark || !k->pslot || !k->scratch ||
      !k->xs || !k->xs->wt || !k->xs->nar || !k->xs->fenced) {
    chk_free(k);
    return TC5_ENOMEM;
  }
  *out = k;
  return TC5_OK;
}

void chk_free(chk_cta *k) {
  if (!k) return;
  free(k->vc), free(k->svc), free(k->spend), free(k->fence_seq), free(k->mma_n), free(k->ld_n), free(k->st_n);
  free(k->rel_l), free(k->rel_s), free(k->mma_lanes), free(k->last_ev), free(k->last_insn), free(k->sm_w), free(k->sm_r);
  free(k->rg), free(k->last_rev), free(k->last_rinsn);
  free(k->cpa_w), free(k->cpa_m), free(k->cpa_w2), free(k->cpa_m2), free(k->tma_w), free(k->bulk_r), free(k->wg_r), free(k->tma);
  free(k->ev), free(k->op), free(k->bar), free(k->bar_s), free(k->scratch);
  for (unsigned i = 0; i < k->nmb; i++) free(k->mb[i].cur), free(k->mb[i].xk), free(k->mb[i].xph);
  free(k->mb), free(k->xmma);
  if (k->pend)
    for (unsigned w = 0; w < k->n; w++) free(k->pend[w]);
  free(k->pend), free(k->npend), free(k->pend_cap);
  for (unsigned w = 0; w < 32; w++) free(k->snp[w]), free(k->sfree[w]);
  if (k->pois)
    for (unsigned w = 0; w < k->n; w++) free(k->pois[w]);
  free(k->pois), free(k->npois), free(k->pois_cap), free(k->rmark), free(k->pslot);
  free(k->sp_m), free(k->sp_org);
  for (unsigned i = 0; i < DESC_CACHE; i++) free(k->cache[i].g);
  if (k->wgs)
    for (unsigned w = 0; w < k->n; w++) free(k->wgs[w].reg), free(k->wgs[w].grp), free(k->wgs[w].insn);
  free(k->wgs);
  chk_xrace_free(k);
  if (k->xs) free(k->xs->wt), free(k->xs->nar), free(k->xs->fenced), free(k->xs);
  free(k->pr_cta), free(k->pr_op);
  free(k);
}

void chk_reset(chk_cta *k) {
  size_t V = (size_t)k->n * k->nvc;
  memset(k->vc, 0, V * 4), memset(k->svc, 0, V * 4), memset(k->spend, 0, V * 4);
  memset(k->fence_seq, 0, k->n * 4), memset(k->mma_n, 0, k->n * 4), memset(k->ld_n, 0, k->n * 4);
  memset(k->st_n, 0, k->n * 4), memset(k->rel_l, 0, k->n * 4), memset(k->rel_s, 0, k->n * 4);
  memset(k->mma_lanes, 0, k->n * 4), memset(k->last_ev, 0, k->n * 4);
  memset(k->sm_w, 0, k->ngran * 4), memset(k->sm_r, 0, k->ngran * 4);
  memset(k->rg, 0, k->ngran * sizeof *k->rg);
  memset(k->last_rev, 0, k->n * 4);
  memset(k->cpa_w, 0, k->ngran * 4), memset(k->tma_w, 0, k->ngran * 4), memset(k->cpa_w2, 0, k->ngran * 4);
  memset(k->bulk_r, 0, k->ngran * 4), memset(k->wg_r, 0, k->ngran * 4);
  free(k->sp_m), free(k->sp_org), k->sp_m = NULL, k->sp_org = NULL; /* stores take chk_smem_store's fast path again */
  memset(k->sp_insn, 0, sizeof k->sp_insn), memset(k->sp_lanes, 0, sizeof k->sp_lanes);
  memset(k->sh_insn, 0, sizeof k->sh_insn);
  memset(k->grp_n, 0, sizeof k->grp_n), memset(k->fence_hseq, 0, sizeof k->fence_hseq), memset(k->fence_htc, 0, sizeof k->fence_htc),
      memset(k->fence_hn, 0, sizeof k->fence_hn);
  k->ntma = 1; /* 0: none */
  if (k->tm_dirty) memset(k->tm_w, 0, sizeof k->tm_w), memset(k->tm_r, 0, sizeof k->tm_r); /* 32 KiB: only when used */
  k->tm_dirty = false;
  chk_xrace_reset(k);
  memset(k->bar, 0, (size_t)CHK_BARS * k->nvc * 4), memset(k->bar_s, 0, (size_t)CHK_BARS * k->nvc * 4);
  for (unsigned w = 0; w < k->n; w++) {
    k->npend[w] = k->npois[w] = 0;
    k->snp_top[w] = k->nsfree[w] = 0;
    VC(k, k->vc, w)[VT(k, w)] = 1; /* stores before a warp's first release carry clock 1: unknown to others */
  }
  if (k->wgs)
    for (unsigned w = 0; w < k->n; w++) k->wgs[w].n = k->wgs[w].commits = 0;
  memset(k->rmark, 0, (size_t)k->n * (k->nregs ? k->nregs : 1) * sizeof *k->rmark);
  memset(k->pslot, 0, (size_t)k->n * (k->nregs ? k->nregs : 1) * sizeof *k->pslot);
  k->pdup = 0;
  memset(k->npl, 0, sizeof k->npl);
  k->ndefer = 0;
  k->seq = 1;
  k->nev = 1; /* event and op 0 mean "none" */
  k->nop = 1;
  for (unsigned i = 0; i < k->nmb; i++) {
    memset(k->mb[i].cur, 0, ((size_t)6 * k->nvc + k->n) * 4);
    if (k->mb[i].xph) memset(k->mb[i].xph, 0, 3 * sizeof *k->mb[i].xph);
  }
  chk_xscope_reset(k);
  xcta_reset(k);
  if (k->pr_cta) memset(k->pr_cta, 0, k->ngran);
}

/* room for element n of a growable array: `pp` is the address of the array
 * pointer (read and written with memcpy, whatever its type), *cap its
 * elements of `size` bytes; doubles it, `first` elements at first; false
 * when out of memory (the array unchanged) */
static bool room(void *pp, uint32_t *cap, uint32_t n, size_t size, uint32_t first) {
  if (n < *cap) return true;
  uint32_t nc = *cap ? *cap * 2 : first;
  void *p, *np;
  memcpy(&p, pp, sizeof p);
  np = realloc(p, (size_t)nc * size);
  if (!np) return false;
  memcpy(pp, &np, sizeof np);
  *cap = nc;
  return true;
}
#define ROOM(arr, n, cap, first) room(&(arr), &(cap), (n), sizeof *(arr), (first))

/* d = max(d, s), element-wise (an unconditional store: the compiler vectorises it) */
static void join(uint32_t *d, const uint32_t *s, unsigned n) {
  for (unsigned i = 0; i < n; i++) d[i] = s[i] > d[i] ? s[i] : d[i];
}

/* ---- findings ---- */
typedef struct who { /* the earlier party of a finding */
  uint32_t insn;
  int warp, lane;
} who;
static who nobody(void) { return (who){NOINSN, -1, -1}; }
static who of_op(const chk_op *o) { return (who){o->insn, o->warp, o->lane == 0xFF ? -1 : o->lane}; }
static who of_ev(const chk_ev *e) { return (who){e->insn, e->warp, e->lane}; }
static const char *op_name(const chk_op *o) {
  static const char *const pipe[3] = {"tcgen05.mma", "tcgen05.cp", "tcgen05.shift"};
  return o->kind == OK_LD ? "tcgen05.ld" : o->kind == OK_ST ? "tcgen05.st" : pipe[o->sub < 3 ? o->sub : 0];
}

/* "FILE:LINE" of the source line the instruction came from (the outermost
 * inlined_at's when it was inlined, then " (in FILE:LINE)" of the .loc
 * itself), cut to cap bytes ("...tail"); "" without a .loc */
static void insn_source(const chk_insn *in, char *out, size_t cap) {
  out[0] = 0;
  if (!in->src_line) return;
  char tmp[1024];
  if (in->at_line) {
    const char *b = strrchr(in->file, '/');
    snprintf(tmp, sizeof tmp, "%s:%u (in %s:%u)", in->at_file, in->at_line, b ? b + 1 : in->file, in->src_line);
  } else
    snprintf(tmp, sizeof tmp, "%s:%u", in->file, in->src_line);
  size_t n = strlen(tmp);
  if (n < cap) {
    memcpy(out, tmp, n + 1);
  } else {
    size_t keep = cap - 4;
    memcpy(out, "...", 3);
    memcpy(out + 3, tmp + n - keep, keep + 1);
  }
}

/* whether key x's instance comes before (cluster, seq) in the launch's order (report, chk_log_order) */
static bool key_before(const struct chk_key *x, uint64_t cluster, uint64_t seq) {
  return x->cluster < cluster || (x->cluster == cluster && x->seq < seq);
}

/* cluster `cluster` reported finding `entry` once more (under the launch's lock): its record (chk_log.contrib) */
static void contrib_add(chk_log *log, unsigned entry, uint64_t cluster) {
  uint32_t c = log->keys[entry].last;
  if (c != UINT32_MAX && log->contrib[c].cluster == cluster) {
    log->contrib[c].count++;
    return;
  }
  if (log->ncontrib == log->ccap) {
    uint32_t nc = log->ccap ? log->ccap * 2 : 64;
    struct chk_contrib *n = log->ccap < MAX_CONTRIB ? realloc(log->contrib, nc * sizeof *n) : NULL;
    if (!n) return;
    log->contrib = n;
    log->ccap = nc;
  }
  log->keys[entry].last = log->ncontrib;
  log->contrib[log->ncontrib++] = (struct chk_contrib){cluster, entry, 1};
}

static void report(const chk_warp *w, unsigned rule, const chk_insn *in, int lane, who earlier, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static void report(const chk_warp *w, unsigned rule, const chk_insn *in, int lane, who earlier, const char *fmt, ...) {
  chk_cta *k = w->k;
  const tc5_check_rule *r;
  tc5_check_rule_get(rule, &r);
  unsigned lv = k->rule_level[rule];
  if (lv == TC5_RULE_OFF) return;
  bool warning = lv == TC5_RULE_WARNING || (lv == TC5_RULE_DEFAULT && r->severity == TC5_CHECK_WARNING);
  if (warning && lv == TC5_RULE_DEFAULT && !k->strict) return;
  uint32_t a = in ? (uint32_t)(in - k->code) : NOINSN, b = earlier.insn;
  chk_log *log = k->log;
  chk_cta *k0 = k->npeers && k->peers[0] ? k->peers[0] : k; /* the cluster's report count is rank 0's */
  pthread_mutex_lock(k->lock);
  uint64_t seq = k0->nrep++;
  if (warning) log->warnings++;
  else log->errors++;
  unsigned at = log->n;
  uint64_t count = 1;
  for (unsigned i = 0; i < log->n; i++)
    if (log->keys[i].rule == rule && log->keys[i].a == a && log->keys[i].b == b) {
      count = ++log->f[i].count;
      contrib_add(log, i, k->cluster);
      /* the text shows the earliest instance in the launch's order, not the first another thread reached */
      if (key_before(&log->keys[i], k->cluster, seq)) {
        pthread_mutex_unlock(k->lock);
        return;
      }
      at = i;
      break;
    }
  if (at == log->n && log->n == log->cap) {
    unsigned nc = log->cap ? log->cap * 2 : 16;
    if (nc > MAX_FINDINGS || log->n >= MAX_FINDINGS) {
      pthread_mutex_unlock(k->lock);
      return;
    }
    tc5_check_finding *nf = realloc(log->f, nc * sizeof *nf);
    if (nf) log->f = nf;
    struct chk_key *nk = realloc(log->keys, nc * sizeof *nk);
    if (nk) log->keys = nk;
    if (!nf || !nk) {
      pthread_mutex_unlock(k->lock);
      return;
    }
    log->cap = nc;
  }
  tc5_check_finding *f = &log->f[at];
  if (at == log->n) {
    log->keys[at] = (struct chk_key){rule, a, b, k->cluster, seq, UINT32_MAX};
    log->n++;
    contrib_add(log, at, k->cluster);
  } else { /* an earlier instance of a finding already counted */
    log->keys[at].cluster = k->cluster;
    log->keys[at].seq = seq;
  }
  memset(f, 0, sizeof *f);
  f->rule = rule;
  f->warning = warning;
  f->line = in ? in->line : 0;
  f->line2 = b != NOINSN ? k->code[b].line : 0;
  if (in) insn_source(in, f->src, sizeof f->src);
  if (b != NOINSN) insn_source(&k->code[b], f->src2, sizeof f->src2);
  f->count = count;
  char what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  size_t o = (size_t)snprintf(f->text, sizeof f->text, "%s [%s] (%s): %s\n", warning ? "warning" : "error", r->id,
                              r->section, what);
  if (o < sizeof f->text && in) {
    char thr[48];
    if (lane >= 0) snprintf(thr, sizeof thr, "thread %u", w->id * 32 + (unsigned)lane);
    else snprintf(thr, sizeof thr, "threads %u-%u", w->id * 32, w->id * 32 + 31);
    o += (size_t)snprintf(f->text + o, sizeof f->text - o, "  at    %s:%u: %s (CTA (%u,%u,%u) warp %u, %s)\n", k->mname,
                          in->line, in->text, k->ctaid[0], k->ctaid[1], k->ctaid[2], w->id, thr);
  }
  if (o < sizeof f->text && b != NOINSN) {
    char thr[48] = "";
    if (earlier.lane >= 0) snprintf(thr, sizeof thr, ", thread %u", (unsigned)(earlier.warp * 32 + earlier.lane));
    else if (earlier.warp >= 0)
      snprintf(thr, sizeof thr, ", threads %u-%u", (unsigned)earlier.warp * 32, (unsigned)earlier.warp * 32 + 31);
    o += (size_t)snprintf(f->text + o, sizeof f->text - o, "  after %s:%u: %s (warp %d%s)\n", k->mname, k->code[b].line,
                          k->code[b].text, earlier.warp, thr);
  }
  if (o < sizeof f->text) snprintf(f->text + o, sizeof f->text - o, "  fix:  %s\n", r->fix);
  pthread_mutex_unlock(k->lock);
}

void chk_cluster_order(chk_cta *k, uint64_t pos) {
  k->cluster = pos;
  k->nrep = 0;
}

void chk_log_order(chk_log *log) {
  /* insertion sort: findings are few (MAX_FINDINGS), and on one thread already in order */
  for (unsigned i = 1; i < log->n; i++) {
    tc5_check_finding f = log->f[i];
    struct chk_key key = log->keys[i];
    unsigned j = i;
    for (; j > 0 && key_before(&key, log->keys[j - 1].cluster, log->keys[j - 1].seq); j--) {
      log->f[j] = log->f[j - 1];
      log->keys[j] = log->keys[j - 1];
    }
    log->f[j] = f;
    log->keys[j] = key;
  }
}

void chk_log_trim(chk_log *log, uint64_t pos) {
  for (uint32_t c = 0; c < log->ncontrib; c++) {
    const struct chk_contrib *x = &log->contrib[c];
    if (x->cluster <= pos) continue;
    log->f[x->entry].count -= x->count;
    if (log->f[x->entry].warning) log->warnings -= x->count;
    else log->errors -= x->count;
  }
  unsigned n = 0;
  for (unsigned i = 0; i < log->n; i++)
    if (log->keys[i].cluster <= pos) { /* its earliest instance: in a cluster up to the failed one */
      log->f[n] = log->f[i];
      log->keys[n++] = log->keys[i];
    }
  log->n = n;
  log->ncontrib = 0; /* the records name entries by their old places */
}

void chk_log_free(chk_log *log) {
  free(log->f);
  free(log->keys);
  free(log->contrib);
  memset(log, 0, sizeof *log);
}

/* ---- clock vectors ---- */
#define known chk_known
/* what warp w releases: its vector (default) and its strict vector, with
 * its own ld/st entries as of its last before_thread_sync (a commit adds
 * its MMAs: the commit's implicit fence) */
static void contribution(chk_cta *k, unsigned w, bool commit, uint32_t *d, uint32_t *ds) {
  memcpy(d, VC(k, k->vc, w), k->nvc * 4);
  memcpy(ds, VC(k, k->svc, w), k->nvc * 4);
  ds[VL(k, w)] = k->rel_l[w];
  ds[VS(k, w)] = k->rel_s[w];
  if (commit) d[VM(k, w)] = ds[VM(k, w)] = k->mma_n[w];
}
static void acquire(chk_cta *k, unsigned w, const uint32_t *v, const uint32_t *vs) {
  join(VC(k, k->vc, w), v, k->nvc);
  join(VC(k, k->spend, w), vs, k->nvc);
}

static uint32_t new_op(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint8_t kind, uint32_t idx) {
  if (!ROOM(k->op, k->nop, k->op_cap, 256)) return 0;
  k->op[k->nop] = (chk_op){(uint32_t)(in - k->code), idx, kind, (uint8_t)w->id, (uint8_t)(lane < 0 ? 0xFF : lane), 0};
  return k->nop++;
}

/* ---- shared memory ---- */
/* a new store event for warp wi at instruction insn (the warp's current
 * one until its next release, fence or instruction) */
uint32_t chk_store_event(chk_cta *k, unsigned wi, uint32_t insn, int lane) {
  if (!ROOM(k->ev, k->nev, k->ev_cap, 1024)) return 0;
  uint32_t e = k->nev++;
  k->ev[e] = (chk_ev){k->seq, VC(k, k->vc, wi)[VT(k, wi)], insn, (uint8_t)wi, (uint8_t)(lane < 0 ? 0 : lane)};
  k->last_ev[wi] = e;
  k->last_insn[wi] = insn;
  return e;
}

static void xcta_overwrite(const chk_warp *w, chk_cta *k, const chk_insn *in, int lane, uint32_t g, uint32_t off,
                           const char *by);
static void xcta_war(const chk_warp *w, chk_cta *k, const chk_insn *in, int lane, uint32_t g, uint32_t z);
static void xpair_overwrite(const chk_warp *w, chk_cta *k, const chk_insn *in, int lane, uint32_t g, uint32_t off,
                            const char *by);
/* granules g..z of CTA k's shared memory written (by store event e, 0 for
 * the async proxy); overwriting what a tcgen05.mma of the writer's own CTA
 * still reads is reported (own: the writer is of k's CTA; another CTA's
 * copy: xcta_overwrite) */
static void smem_written(const chk_warp *w, chk_cta *k, bool own, const chk_insn *in, int lane, uint32_t off, uint32_t g,
                         uint32_t z, uint32_t e, const char *by) {
  for (; g <= z; g++) {
    uint32_t r = k->sm_r[g];
    if (own && r && !known(k, VC(k, k->vc, w->id), &k->op[r])) {
      report(w, CR_SMEM_OVERWRITE, in, lane, of_op(&k->op[r]),
             "shared memory 0x%x is overwritten%s while the tcgen05.mma that reads it is not known complete to this "
             "thread", g * GRAN > off ? g * GRAN : off, by);
      k->sm_r[g] = 0; /* reported once */
    }
    if (!own && r) xcta_overwrite(w, k, in, lane, g, off, by);
    if (k->pr_cta && k->pr_cta[g]) xpair_overwrite(w, k, in, lane, g, off, by); /* a pair MMA of the peer reads it */
    k->sm_w[g] = e;
  }
}

/* ---- shared memory holding values computed from never-written memory (issue 52) ----
 * Default mode. Triton 3.5-3.7's fp8 attention (tutorial 06, causal, not
 * warp-specialised) keeps P in shared memory: the pipeliner's peeled
 * zero-trip iteration loads S from never-written Tensor Memory, stores the
 * probabilities computed from it with an unpredicated st.shared, and then
 * skips the MMA that would read them; the next store of P overwrites them.
 * As with values discarded in the registers (poison_uses), such a store is
 * not the finding: its bytes are marked, and what reads them is (an MMA,
 * tcgen05.cp, wgmma or bulk-copy operand, an ld's value used, another
 * CTA's read); a store of other values unmarks them. */
static struct chk_poison *pois_find(chk_cta *k, unsigned wi, uint32_t reg);
static unsigned pois_rule(const struct chk_poison *p);
static const char *pois_from(const struct chk_poison *p, char *buf, size_t n);

/* bytes [off, off + n) no longer hold such values */
static void spois_clear(chk_cta *k, uint32_t off, uint32_t n) {
  if (!k || !k->sp_m || !n) return;
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++)
    if (k->sp_m[g]) k->sp_m[g] &= (uint16_t)~chk_gran_mask(g, off, n);
}

/* the first marked byte of [off, off + n) (its load in *org), UINT32_MAX: none */
static uint32_t spois_find(const chk_cta *k, uint32_t off, uint32_t n, struct chk_poison *org) {
  if (!k || !k->sp_m || !n) return UINT32_MAX;
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++) {
    uint16_t m = k->sp_m[g] & chk_gran_mask(g, off, n);
    if (m) {
      if (org) *org = k->sp_org[g];
      return g * GRAN + (uint32_t)__builtin_ctz(m);
    }
  }
  return UINT32_MAX;
}

static void spois_store(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n);

/* an access that reads bytes [off, off + n) of CTA k reads a marked byte: the finding */
static bool spois_read(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n,
                       const char *what) {
  struct chk_poison org;
  uint32_t b = spois_find(k, off, n, &org);
  if (b == UINT32_MAX) return false;
  char name[48], from[160];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(in->text, " \t"), in->text);
  report(w, pois_rule(&org), in, lane, (who){org.insn, (int)org.reg, -1},
         "%s reads %sshared memory 0x%x, which a st.shared filled with a value computed from %s", name, what, b,
         pois_from(&org, from, sizeof from));
  return true;
}

void chk_smem_write(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n) {
  chk_cta *k = w->k;
  if (!k || !n) return;
  chk_race(w, in, lane, off, n, true);
  unsigned wi = w->id;
  uint32_t e = k->last_ev[wi], insn = (uint32_t)(in - k->code);
  /* last_ev is cleared by the warp's releases and by fences */
  if (!e || k->last_insn[wi] != insn) e = chk_store_event(k, wi, insn, lane);
  uint32_t g = off / GRAN, z = (off + n - 1) / GRAN;
  if (z >= k->ngran) return;
  smem_written(w, k, true, in, lane, off, g, z, e, "");
  if (k->sp_m || k->npois[wi]) spois_store(k, w, in, lane, off, n);
}

static void inflight_sources(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t g, const char *by);
void chk_smem_async_write(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n) {
  chk_cta *k = t;
  if (!k || !n) return;
  uint32_t g = off / GRAN, z = (off + n - 1) / GRAN;
  if (z >= k->ngran) z = k->ngran - 1;
  if (t != w->k) xcta_war(w, k, in, lane, g, z);
  smem_written(w, k, t == w->k, in, lane, off, g, z, 0, " by a copy");
  spois_clear(k, off, n);
  if (k->xs && g <= z) memset(k->xs->wt + g, 0, (z - g + 1) * 4); /* chk_tma_load follows it when its mbarrier is here */
  for (uint32_t x = g; x <= z; x++) {
    k->rg[x].w = k->rg[x].r[0] = k->rg[x].r[1] = 0;
    if (t == w->k && k->any_src && (k->bulk_r[x] | k->wg_r[x])) inflight_sources(k, w, in, lane, x, "a copy (TMA, bulk)");
  }
}

/* ---- smem-race: ordinary loads and stores of different warps ---- */
/* whether the instruction's shared-memory accesses are weak (chk_iclass) */
static bool weak_access(chk_cta *k, const chk_insn *in) {
  (void)k;
  return chk_iclass(in) != 2;
}

/* ---- asynchronous copies in flight (issue 33) ---- */
static bool tma_known(const chk_cta *k, unsigned wi, const uint32_t *vc, const struct chk_tma *t) {
  for (unsigned q = 0; q < k->n; q++)
    if (t->kclock[q] && (q == wi || vc[VT(k, q)] + 1 >= t->kclock[q])) return true;
  return false;
}

/* the async reads of granule g that a write by warp w (a generic store or
 * a copy) must come after: TMA stores / bulk copies, wgmma operands */
static void inflight_sources(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t g, const char *by) {
  const uint32_t *vc = VC(k, k->vc, w->id);
  uint32_t o = k->bulk_r[g];
  if (o && !known(k, vc, &k->op[o]))
    report(w, CR_ASYNC_SRC_INFLIGHT, in, lane, of_op(&k->op[o]),
           "shared memory 0x%x is overwritten by %s while the bulk copy (TMA store) that reads it is not known to "
           "have read it (cp.async.bulk.wait_group.read of its bulk group)", g * GRAN, by);
  k->bulk_r[g] = 0;
  o = k->wg_r[g];
  if (o && !known(k, vc, &k->op[o]))
    report(w, CR_WGMMA_OPERAND_INFLIGHT, in, lane, of_op(&k->op[o]),
           "shared memory 0x%x is overwritten by %s while the wgmma.mma_async that reads it is not known complete "
           "(wgmma.wait_group of its group)", g * GRAN, by);
  k->wg_r[g] = 0;
}

/* the async writes of granule g that a read by warp w (generic or an MMA
 * operand) or a generic write must come after: cp.async, TMA loads */
/* (m: the bytes of the granule accessed; cp.asyncs are followed per byte:
 * Triton's tf32 kernels copy 4 bytes a thread, warps side by side) */
static void cpa_compact(chk_cta *k, uint32_t g) {
  if (k->cpa_w2[g] && !k->cpa_m2[g]) k->cpa_w2[g] = 0;
  if (k->cpa_w[g] && !k->cpa_m[g]) k->cpa_w[g] = k->cpa_w2[g], k->cpa_m[g] = k->cpa_m2[g], k->cpa_w2[g] = 0;
}

static void inflight_dests(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t g, uint16_t m,
                           const char *acc, int skip1) {
  const uint32_t *vc = VC(k, k->vc, w->id);
  /* each of the granule's two cp.async groups in flight, for the bytes it
   * writes (skip1: the first is the accessing warp's open group, no conflict;
   * skip1 2: the access is a cp.async, which another warp's cp.async in
   * flight does not conflict with — write after write, not followed (as for
   * smem-race): Triton replicates a small vector's cp.async across warps,
   * every copy the same bytes to the same place (FlagGems' varlen attention
   * on Triton 3.5); both stay in flight for a later read) */
  for (int s = skip1 & 1; s < 2; s++) {
    uint32_t o = s ? k->cpa_w2[g] : k->cpa_w[g];
    uint16_t *cm = s ? &k->cpa_m2[g] : &k->cpa_m[g];
    if (!o || !(*cm & m)) continue;
    if ((skip1 & 2) && k->op[o].warp != w->id) continue;
    if (!known(k, vc, &k->op[o]))
      report(w, CR_CP_ASYNC_UNWAITED, in, lane, of_op(&k->op[o]),
             "%s shared memory 0x%x, which a cp.async writes that is not known complete (cp.async.wait_group of "
             "its group in the issuing thread, then a barrier for another)", acc, g * GRAN + (unsigned)__builtin_ctz(*cm & m));
    *cm &= (uint16_t)~m;
  }
  cpa_compact(k, g);
  uint32_t o = k->tma_w[g];
  if (o && k->tma[o].remote && !tma_known(k, w->id, vc, &k->tma[o]))
    report(w, CR_ASYNC_DST_INFLIGHT, in, lane, (who){k->tma[o].insn, k->tma[o].warp, k->tma[o].lane},
           "%s shared memory 0x%x, which a CTA pair's copy writes that completes on another CTA's mbarrier (the "
           "leader's): no barrier.cluster or mbarrier wait of this CTA since orders its completion before this "
           "access", acc, g * GRAN);
  else if (o && !tma_known(k, w->id, vc, &k->tma[o]))
    report(w, CR_ASYNC_DST_INFLIGHT, in, lane, (who){k->tma[o].insn, k->tma[o].warp, k->tma[o].lane},
           "%s shared memory 0x%x, which a TMA load / bulk copy writes whose mbarrier phase (%u) this thread has not "
           "observed", acc, g * GRAN, k->tma[o].phase);
  k->tma_w[g] = 0;
}

static void inflight_access(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n,
                            bool write) {
  uint32_t g = off / GRAN, z = (off + n - 1) / GRAN;
  if (z >= k->ngran) z = k->ngran - 1;
  bool cpa = chk_iclass(in) == 3;
  for (; g <= z; g++) {
    if (!k->rg[g].busy) continue;
    uint16_t m = chk_gran_mask(g, off, n);
    /* a cp.async into the destination of a cp.async of the same warp's
     * open group (another lane's, another instruction's) is no conflict */
    const chk_op *o = k->cpa_w[g] ? &k->op[k->cpa_w[g]] : NULL;
    int skip1 = cpa && o && o->warp == w->id && o->idx == k->grp_n[0][w->id] + 1;
    if (skip1 && !k->cpa_w2[g]) continue;
    if (k->cpa_w[g] | k->tma_w[g])
      inflight_dests(k, w, in, lane, g, m, cpa ? "a cp.async into" : write ? "a store to" : "a load of",
                     skip1 | (cpa ? 2 : 0));
    if (write && (k->bulk_r[g] | k->wg_r[g])) inflight_sources(k, w, in, lane, g, "a store");
    k->rg[g].busy = (k->cpa_w[g] | k->tma_w[g] | k->bulk_r[g] | k->wg_r[g]) != 0;
  }
}

static uint32_t group_op(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint8_t kind, unsigned which,
                         unsigned owner) {
  return new_op(k, w, in, lane, kind, k->grp_n[which][owner] + 1);
}

void chk_cp_async(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n) {
  chk_cta *k = w->k;
  if (!k || !n) return;
  uint32_t id = group_op(k, w, in, lane, OK_CPA, 0, w->id);
  spois_clear(k, off, n);
  for (uint32_t g = off / GRAN; id && g <= (off + n - 1) / GRAN && g < k->ngran; g++) {
    uint16_t m = chk_gran_mask(g, off, n);
    uint32_t o = k->cpa_w[g];
    if (o && (k->op[o].warp != k->op[id].warp || k->op[o].idx != k->op[id].idx)) {
      /* another group in flight here: it keeps the bytes this copy does
       * not write, in the second slot (byte-precise for two groups a
       * granule); a third group merges the older two into the newer of
       * them, as one warp's later group completes after its earlier ones.
       * Another warp's copy keeps the bytes this one writes too (both in
       * flight: inflight_dests) */
      if (k->op[o].warp == k->op[id].warp) k->cpa_m[g] &= (uint16_t)~m;
      if (k->cpa_w2[g] && k->op[k->cpa_w2[g]].warp == k->op[id].warp) k->cpa_m2[g] &= (uint16_t)~m;
      cpa_compact(k, g);
      if (k->cpa_w[g]) {
        /* the older two merge only when one warp's (its later group
         * completes after the earlier); two warps' would give the newer one
         * bytes it does not write (a read of them after its own wait, with
         * the other's long complete, was a false cp-async-unwaited): the
         * older is dropped (a race on its bytes may be missed) */
        if (k->cpa_w2[g] && k->op[k->cpa_w2[g]].warp == k->op[k->cpa_w[g]].warp) k->cpa_m[g] |= k->cpa_m2[g];
        k->cpa_w2[g] = k->cpa_w[g], k->cpa_m2[g] = k->cpa_m[g];
        k->cpa_m[g] = 0;
      }
    }
    k->cpa_m[g] = (uint16_t)((k->cpa_w[g] ? k->cpa_m[g] : 0) | m);
    k->cpa_w[g] = id, k->any_cpa = true;
    k->rg[g].busy = 1;
    if (k->xs) k->xs->wt[g] = k->xs->xtime + 1;
  }
}

void chk_group(const chk_warp *w, unsigned which, bool wait, uint32_t n) {
  chk_cta *k = w->k;
  if (!k || which > 2) return;
  unsigned wi = w->id;
  if (!wait) {
    k->grp_n[which][wi]++;
    return;
  }
  uint32_t done = k->grp_n[which][wi] >= n ? k->grp_n[which][wi] - n : 0;
  unsigned e = which == 0 ? VA(k, wi) : which == 1 ? VB(k, wi) : VG(k, wi);
  uint32_t *vc = VC(k, k->vc, wi), *svc = VC(k, k->svc, wi);
  if (vc[e] < done) vc[e] = done;
  if (svc[e] < done) svc[e] = done;
}

void chk_tma_load(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n, const chk_mbar *mb,
                  uint32_t phase) {
  chk_cta *k = t;
  if (!k || !n || !mb) return;
  if (!ROOM(k->tma, k->ntma, k->tma_cap, 64)) return;
  uint32_t id = k->ntma++;
  struct chk_tma *x = &k->tma[id];
  memset(x, 0, sizeof *x);
  x->insn = (uint32_t)(in - k->code), x->mb = mb->idx, x->phase = phase;
  x->warp = (uint8_t)w->id, x->lane = (uint8_t)(lane < 0 ? 0 : lane);
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++) {
    k->tma_w[g] = id, k->rg[g].busy = 1;
    if (k->xs) k->xs->wt[g] = k->xs->xtime + 1; /* completes on this CTA's mbarrier (issue 53) */
  }
}

/* a warp observed phase c of mbarrier i: the TMA loads that phase completes are known to it */
static void tma_observed(chk_cta *k, unsigned wi, uint32_t i, uint32_t c) {
  for (uint32_t j = k->ntma; j-- > 1 && j + 512 >= k->ntma;) {
    struct chk_tma *x = &k->tma[j];
    if (x->mb == i && x->phase <= c && !x->kclock[wi]) x->kclock[wi] = VC(k, k->vc, wi)[VT(k, wi)] + 1;
  }
}

/* the clock of store x's warp at its first fence.proxy.async after x (the
 * oldest remembered one when the ring no longer holds it: a lower bound
 * of what the reader must know, so never a false alarm) */
static uint32_t first_fence_tc(const chk_cta *k, const chk_ev *x) {
  if (x->warp >= 32) return 0;
  uint32_t best_seq = UINT32_MAX, tc = 0, n = k->fence_hn[x->warp] < FENCE_HIST ? k->fence_hn[x->warp] : FENCE_HIST;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t sq = k->fence_hseq[x->warp][i];
    if (sq > x->seq && sq < best_seq) best_seq = sq, tc = k->fence_htc[x->warp][i];
  }
  return tc;
}

void chk_bulk_read(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n, bool grouped) {
  chk_cta *k = w->k;
  if (!k || !n) return;
  uint32_t id = grouped ? group_op(k, w, in, lane, OK_BULK, 1, w->id) : 0;
  const uint32_t *vc = VC(k, k->vc, w->id);
  uint32_t checked = 0;
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++) {
    if (k->cpa_w[g] | k->tma_w[g]) inflight_dests(k, w, in, lane, g, 0xFFFF, "a TMA store / bulk copy reads", 0);
    if (k->sp_m && k->sp_m[g]) spois_read(k, w, in, lane, g * GRAN > off ? g * GRAN : off, GRAN, "");
    if (id) k->bulk_r[g] = id, k->rg[g].busy = 1, k->any_src = true;
    uint32_t ev = k->sm_w[g];
    if (!ev || ev == checked) continue;
    checked = ev;
    const chk_ev *x = &k->ev[ev];
    /* the generic -> async proxy fence, after the store in the storing
     * warp and ordered before this copy (its release reached this thread),
     * or in this thread after the store */
    bool fenced = (k->fence_seq[x->warp] > x->seq && (x->warp == w->id || vc[VT(k, x->warp)] >= first_fence_tc(k, x))) ||
                  k->fence_seq[w->id] > x->seq;
    if (!fenced)
      report(w, CR_PROXY_FENCE, in, lane, of_ev(x),
             "a TMA store / bulk copy reads shared memory 0x%x, written by the generic proxy with no "
             "fence.proxy.async since", g * GRAN);
    else if (x->warp != w->id && vc[VT(k, x->warp)] < x->tclock)
      report(w, CR_SMEM_UNORDERED, in, lane, of_ev(x),
             "a TMA store / bulk copy reads shared memory 0x%x, written by warp %u with no barrier or mbarrier "
             "ordering the store before it", g * GRAN, x->warp);
  }
}

/* a wgmma.mma_async of the warpgroup from warp wg0 (w its last warp to
 * arrive, which executes it) reads granule g, last stored by event ev: the
 * async proxy reads A and B (9.7.15.4, 9.7.15.7.1: a generic write must be fenced by
 * fence.proxy.async), so as for a TMA store's source the store's warp must
 * have fenced after it and that fence be ordered before w, or a warp of the
 * warpgroup fenced after the store */
static void wgmma_proxy(chk_cta *k, const chk_warp *w, const chk_insn *in, unsigned wg0, uint32_t ev, uint32_t g) {
  const chk_ev *x = &k->ev[ev];
  /* cp.async's bytes are not judged: Triton 3.0-3.7's Hopper matmuls
   * (cp.async, cp.async.wait_group, bar.sync, wgmma, no proxy fence) match
   * H100 silicon byte for byte, while Triton 3.8 fences there; open
   * (docs/spec-departures.md) */
  if (k->code[x->insn].traits.flags & IT_CP_ASYNC) return;
  const uint32_t *vc = VC(k, k->vc, w->id);
  bool own = x->warp >= wg0 && x->warp < wg0 + 4;
  bool fenced = k->fence_seq[x->warp] > x->seq && (own || vc[VT(k, x->warp)] >= first_fence_tc(k, x));
  for (unsigned q = wg0; q < wg0 + 4 && q < k->n && !fenced; q++) fenced = k->fence_seq[q] > x->seq;
  if (!fenced)
    report(w, CR_PROXY_FENCE, in, -1, of_ev(x),
           "a wgmma.mma_async reads shared memory 0x%x (its A or B), written by the generic proxy with no "
           "fence.proxy.async since", g * GRAN);
  else if (!own && vc[VT(k, x->warp)] < x->tclock)
    report(w, CR_SMEM_UNORDERED, in, -1, of_ev(x),
           "a wgmma.mma_async reads shared memory 0x%x (its A or B), written by warp %u with no barrier or "
           "mbarrier ordering the store before it", g * GRAN, x->warp);
}

void chk_wgmma(const chk_warp *w, const chk_insn *in, unsigned wg0, const tc5_smem_desc *da, const tc5_operand *opa,
               const tc5_smem_desc *db, const tc5_operand *opb, unsigned N, unsigned K) {
  chk_cta *k = w->k;
  if (!k) return;
  uint32_t id = group_op(k, w, in, -1, OK_WG, 2, wg0);
  if (!id) return;
  k->op[id].warp = (uint8_t)wg0;
  uint32_t checked = 0;
  for (int which = 0; which < 2; which++) {
    const tc5_smem_desc *d = which ? db : da;
    const tc5_operand *op = which ? opb : opa;
    unsigned rows = which ? N : 64;
    for (unsigned r = 0; d && r < rows; r++)
      for (unsigned kk = 0; kk < K; kk++) {
        tc5_elem_loc loc;
        if (tc5_layout_addr(d, op, r, kk, &loc, NULL)) continue;
        uint32_t g = loc.addr / GRAN;
        if (g >= k->ngran) continue;
        if (k->cpa_w[g] | k->tma_w[g]) inflight_dests(k, w, in, -1, g, 0xFFFF, "a wgmma.mma_async reads", 0);
        if (k->sp_m && k->sp_m[g]) spois_read(k, w, in, -1, g * GRAN, GRAN, "");
        k->wg_r[g] = id, k->rg[g].busy = 1, k->any_src = true;
        uint32_t ev = k->sm_w[g];
        if (ev && ev != checked) checked = ev, wgmma_proxy(k, w, in, wg0, ev, g);
      }
  }
}

void chk_mbar_reinit(const chk_warp *w, const chk_insn *in, int lane, const chk_mbar *mb) {
  if (!w->k) return;
  report(w, CR_MBAR_REINIT, in, lane, nobody(),
         "mbarrier.init of the mbarrier at shared 0x%x, which is initialised (phase %u) and was not invalidated "
         "(mbarrier.inval)", mb->addr, mb->phase);
}

/* warp wi's read event for this instruction at its current clock */
uint32_t chk_read_event(chk_cta *k, unsigned wi, uint32_t insn, int lane) {
  uint32_t e = k->last_rev[wi];
  if (e && k->last_rinsn[wi] == insn && k->ev[e].tclock == VC(k, k->vc, wi)[VT(k, wi)]) return e;
  if (!ROOM(k->ev, k->nev, k->ev_cap, 1024)) return 0;
  e = k->nev++;
  k->ev[e] = (chk_ev){k->seq, VC(k, k->vc, wi)[VT(k, wi)], insn, (uint8_t)wi, (uint8_t)(lane < 0 ? 0 : lane)};
  k->last_rev[wi] = e;
  k->last_rinsn[wi] = insn;
  return e;
}


void chk_race(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n, bool write) {
  chk_cta *k = w->k;
  if (!k || !n || !in) return;
  inflight_access(k, w, in, lane, off, n, write);
  if (!weak_access(k, in)) return;
  unsigned wi = w->id;
  uint32_t insn = (uint32_t)(in - k->code);
  uint32_t e = write ? (k->last_ev[wi] && k->last_insn[wi] == insn ? k->last_ev[wi] : chk_store_event(k, wi, insn, lane))
                     : chk_read_event(k, wi, insn, lane);
  if (!e) return;
  const uint32_t *vc = VC(k, k->vc, wi);
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++) {
    uint16_t m = chk_gran_mask(g, off, n);
    struct chk_rg *q = &k->rg[g];
    uint32_t *r = q->r;
    uint16_t *rm = q->rm;
    /* write after write is not followed: Triton's warp-specialised
     * kernels store the same word from every warp at once (the partition
     * state, 0) and run on B200s */
    if (!write && q->w != e && chk_races(k, vc, wi, q->w, q->wm, m)) {
      const chk_ev *p = &k->ev[q->w];
      report(w, CR_SMEM_RACE, in, lane, of_ev(p),
             "this load of shared memory 0x%x and warp %u's store to it are not ordered: no bar.sync, barrier or "
             "mbarrier arrive -> wait between them (a read-after-write data race)",
             g * GRAN + (unsigned)__builtin_ctz(m & q->wm), p->warp);
      q->w = 0; /* reported once */
    }
    if (write) {
      for (int s = 0; s < 2; s++)
        if (chk_races(k, vc, wi, r[s], rm[s], m)) {
          const chk_ev *p = &k->ev[r[s]];
          report(w, CR_SMEM_RACE, in, lane, of_ev(p),
                 "this store to shared memory 0x%x and warp %u's load of it are not ordered: no bar.sync, barrier or "
                 "mbarrier arrive -> wait between them (a write-after-read data race)",
                 g * GRAN + (unsigned)__builtin_ctz(m & rm[s]), p->warp);
        }
      if (q->w == e) q->wm |= m;
      else q->w = e, q->wm = m;
      r[0] = r[1] = 0;
    } else if (r[0] == e) {
      rm[0] |= m;
    } else if (r[1] == e) {
      rm[1] |= m;
    } else {
      /* keep the read that is not ordered before this one (or the newer) */
      int s = chk_read_slot(k, vc, wi, r[0]);
      r[s] = e, rm[s] = m;
    }
  }
}

static bool smem_defer(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n);

void chk_smem_read(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n) {
  chk_cta *k = w->k;
  if (!k) return;
  if (chk_smem_read_common(k, w, in, lane, off, n)) return;
  chk_race(w, in, lane, off, n, false);
  if (!k->strict && smem_defer(k, w, in, lane, off, n)) return;
  const tc5_smem *s = k->smem;
  for (uint32_t b = off; b < off + n && b < s->size; b++)
    if (!(s->written[b >> 3] >> (b & 7) & 1)) {
      report(w, CR_SMEM_UNINIT, in, lane, nobody(), "shared memory 0x%x (%u bytes from 0x%x) is read but was never written",
             b, n, off);
      return;
    }
  if (!k->strict && (in->traits.flags & IT_MATRIX)) return; /* ldmatrix: chk_matrix follows marked bytes */
  spois_read(k, w, in, lane, off, n, "");
}

void chk_uninit_flush(const chk_warp *w, const chk_insn *in, tc5_uninit_log *g) {
  tc5_uninit_log u = *g;
  memset(g, 0, sizeof *g);
  if (!w->k) return; /* --check=none: not tracked */
  const char *op = in->text;
  char name[48];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(op, " \t"), op);
  if (u.smem)
    report(w, CR_SMEM_UNINIT, in, -1, nobody(),
           "%s reads shared memory 0x%x that no instruction wrote (%llu bytes never written in all; read as 0xFF)",
           name, u.smem_addr, (unsigned long long)u.smem);
  if (u.tmem)
    report(w, CR_TMEM_UNINIT, in, -1, nobody(),
           "%s reads Tensor Memory lane %u column %u that nothing wrote (%llu cells never written in all; read as "
           "0xFFFFFFFF)", name, TC5_TMEM_LANE(u.tmem_addr), TC5_TMEM_COL(u.tmem_addr), (unsigned long long)u.tmem);
}

void chk_fence_proxy_async(const chk_warp *w) {
  chk_cta *k = w->k;
  if (!k) return;
  k->fence_seq[w->id] = ++k->seq;
  if (w->id < 32) {
    uint32_t h = k->fence_hn[w->id]++ % FENCE_HIST;
    k->fence_hseq[w->id][h] = k->seq, k->fence_htc[w->id][h] = VC(k, k->vc, w->id)[VT(k, w->id)];
  }
  memset(k->last_ev, 0, k->n * 4); /* every store after this one is a new event (a new seq) */
}

/* the granules of shared memory rows x K elements of op through the
 * descriptor cover (cached under (desc, idesc, kind, which)) */
static const chk_desc_cache *granules(chk_cta *k, uint64_t desc, uint32_t idesc, tc5_kind kind, unsigned which,
                                      const tc5_operand *opp, unsigned rows, unsigned K) {
  /* set-associative: DESC_WAYS entries a set, the set from every field of
   * the key (an attention kernel's ~32 operand descriptors thrashed a
   * direct-mapped table hashed on the descriptor alone: 795 misses in
   * 5,120 look-ups on Triton 06, each a layout walk of rows x K) */
  uint64_t key = (desc ^ ((uint64_t)idesc << 17) ^ ((uint64_t)which << 61) ^ ((uint64_t)kind << 55)) *
                 0x9E3779B97F4A7C15ull;
  unsigned set = (unsigned)(key >> 40) % (DESC_CACHE / DESC_WAYS) * DESC_WAYS;
  chk_desc_cache *e = NULL;
  for (unsigned i = set; i < set + DESC_WAYS; i++) {
    chk_desc_cache *c = &k->cache[i];
    if (c->g && c->desc == desc && c->idesc == idesc && c->kind == (uint32_t)kind && c->which == which) return c;
    if (!e && !c->g) e = c;
  }
  if (!e) e = &k->cache[set + k->cache_victim++ % DESC_WAYS]; /* round robin */
  tc5_smem_desc sd;
  tc5_operand op = *opp;
  if (tc5_smem_desc_decode_mma(desc, &sd, NULL)) return NULL;
  uint32_t *g = realloc(e->g, (size_t)rows * K * sizeof *g);
  if (!g) return NULL;
  e->g = g;
  e->n = 0;
  uint32_t lastg = UINT32_MAX;
  for (unsigned r = 0; r < rows; r++)
    for (unsigned kk = 0; kk < K; kk++) {
      tc5_elem_loc loc;
      if (tc5_layout_addr(&sd, &op, r, kk, &loc, NULL)) continue;
      uint32_t a = loc.addr / GRAN, z = (loc.addr + (loc.bit + loc.width + 7u) / 8u - 1u) / GRAN;
      for (uint32_t x = a; x <= z; x++)
        if (x != lastg) {
          bool seen = false;
          for (uint32_t i = e->n > 8 ? e->n - 8 : 0; i < e->n; i++) seen |= g[i] == x;
          if (!seen) g[e->n++] = x;
          lastg = x;
        }
    }
  e->desc = desc, e->idesc = idesc, e->kind = (uint32_t)kind, e->which = which;
  return e;
}

/* the granules an MMA operand descriptor covers (which: 0 A, 1 B) */
static const chk_desc_cache *operand_granules(chk_cta *k, uint64_t desc, uint32_t idesc, tc5_kind kind,
                                             unsigned which, unsigned rows, unsigned K) {
  tc5_idesc d;
  tc5_type t;
  tc5_operand op;
  if (tc5_idesc_decode(idesc, kind, &d, NULL)) return NULL;
  if (which) tc5_idesc_btype(&d, &t);
  else tc5_idesc_atype(&d, &t);
  bool mn = which ? d.transpose_b : d.transpose_a;
  if (tc5_operand_for(kind, t, mn ? TC5_MAJOR_MN : TC5_MAJOR_K, &op)) return NULL;
  return granules(k, desc, idesc, kind, which, &op, rows, K);
}

/* an asynchronous tcgen05 operation (mma, cp) reads shared memory granules:
 * each granule's last store must be fenced for the async proxy and ordered
 * before this thread; `what` names the operand */
static void async_smem_reads(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t id,
                             const chk_desc_cache *e, const char *op, const char *what) {
  const uint32_t *vc = VC(k, k->vc, w->id);
  uint32_t checked = 0;
  /* tok: a TMA load this warp knows complete (its vector does not change in
   * this loop): a granule only it writes (no cp.async there: cpa_w2 is 0
   * when cpa_w is) needs no inflight_dests, which would only clear it */
  uint32_t tok = 0;
  for (uint32_t i = 0; e && i < e->n; i++) {
    uint32_t g = e->g[i];
    if (g >= k->ngran) continue;
    uint32_t cw = k->any_cpa ? k->cpa_w[g] : 0, tw = k->tma_w[g];
    if (!cw && tw && tw == tok) k->tma_w[g] = 0;
    else if (cw | tw) {
      inflight_dests(k, w, in, lane, g, 0xFFFF, "tcgen05.mma / cp reads", 0);
      if (!cw && tma_known(k, w->id, vc, &k->tma[tw])) tok = tw;
    }
    if (k->sp_m && k->sp_m[g]) spois_read(k, w, in, lane, g * GRAN, GRAN, "");
    uint32_t ev = k->sm_w[g];
    k->sm_r[g] = id;
    if (!ev || ev == checked) continue;
    checked = ev;
    const chk_ev *x = &k->ev[ev];
    if (k->fence_seq[x->warp] <= x->seq && k->fence_seq[w->id] <= x->seq)
      report(w, CR_PROXY_FENCE, in, lane, of_ev(x),
             "%s reads %s at shared memory 0x%x, written by the generic proxy with no fence.proxy.async since", op,
             what, g * GRAN);
    else if (x->warp != w->id && vc[VT(k, x->warp)] < x->tclock)
      report(w, CR_SMEM_UNORDERED, in, lane, of_ev(x),
             "%s reads %s at shared memory 0x%x, written by warp %u with no barrier or mbarrier ordering the store "
             "before the %s", op, what, g * GRAN, x->warp, op);
  }
}

/* ---- Tensor Memory ---- */
/* whether fence_warning would report: the access text is formatted only then */
static bool fence_due(const chk_cta *k, const chk_warp *w, const chk_op *o) {
  return k->strict && !known(k, VC(k, k->svc, w->id), o);
}
/* strict mode: o is ordered before warp w's operation only by a thread
 * synchronisation that lacks a tcgen05 fence (known in the default view,
 * not in the strict one): a fence warning, naming the fence missing (the
 * receiver's after_thread_sync when the knowledge arrived but was not
 * fenced, else the sender's before_thread_sync). `what` describes w's
 * access. Returns whether it reported. */
static bool fence_warning(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, const chk_op *o, const char *what) {
  if (!k->strict || known(k, VC(k, k->svc, w->id), o)) return false;
  bool via_after = known(k, VC(k, k->spend, w->id), o);
  report(w, via_after ? CR_FENCE_AFTER : CR_FENCE_BEFORE, in, lane, of_op(o),
         "%s, which an asynchronous tcgen05 operation accesses that is ordered before it only by a thread "
         "synchronisation without tcgen05.fence::%s_thread_sync", what, via_after ? "after" : "before");
  return true;
}

/* n cells of k's tm_w or tm_r set to the operation id (a plain fill: vectorised); the tables are then dirty
 * (chk_reset clears them): every write to them comes through here */
static void tm_fill(chk_cta *k, uint32_t *t, uint32_t n, uint32_t id) {
  k->tm_dirty = true;
  for (uint32_t i = 0; i < n; i++) t[i] = id;
}

/* whether the n cells from g all hold writer lw (and reader lr when write):
 * TM_SAME would skip each of them (a loop without an exit: vectorised) */
static bool tm_all_same(const chk_cta *k, uint32_t g, uint32_t n, uint32_t lr, uint32_t lw, bool write) {
  uint32_t d = 0;
  for (uint32_t i = 0; i < n; i++) d |= k->tm_w[g + i] ^ lw;
  for (uint32_t i = 0; write && i < n; i++) d |= k->tm_r[g + i] ^ lr;
  return !d;
}
/* the checks of cells [c0, c1) of 16-lane half h, `check` the call that
 * checks cell g (column c) and sets told: a cell like the last one checked
 * is skipped (TM_SAME), 16 cells at a time when all are (the same cells
 * skipped, in one vectorised pass) */
#define TM_CHECKS(k, h, c0, c1, lr, lw, write, told, check)                                          \
  do {                                                                                               \
  for (uint32_t c = (c0); c < (c1) && !(told);) {                                                    \
    uint32_t e_ = c + 16 < (c1) ? c + 16 : (c1);                                                     \
    if (tm_all_same(k, (h) * 512 + c, e_ - c, lr, lw, write)) {                                      \
      c = e_;                                                                                        \
      continue;                                                                                      \
    }                                                                                                \
    for (; c < e_ && !(told); c++) {                                                                 \
      uint32_t g = (h) * 512 + c;                                                                    \
      if (TM_SAME(k, g, lr, lw, write)) continue;                                                    \
      check;                                                                                         \
    }                                                                                                \
  }                                                                                                  \
  } while (0)

/* whether Tensor Memory cell g holds the operations the last cell checked
 * in this loop held (lr, lw: its reader and writer; updated when not):
 * tmem_read_check's verdict depends on the cell's writer only,
 * tmem_write_check's (write) on its reader and writer only, and a check that
 * found something ends the loop's checks, so a cell like the last one checked
 * needs no check (the columns of one instruction mostly hold one operation:
 * a tcgen05.ld/st of 64 columns or an MMA's N columns checked once) */
#define TM_SAME(k, g, lr, lw, write)                                                                 \
  ((k)->tm_w[g] == (lw) && (!(write) || (k)->tm_r[g] == (lr))                                       \
       ? true                                                                                        \
       : ((lw) = (k)->tm_w[g], (lr) = (k)->tm_r[g], false))

/* reader: -1 a tcgen05.ld, 0 a tcgen05.mma, 2 a tcgen05.shift; the
 * pipelined pairs of 9.7.16.6.2 from the same thread need no wait:
 * cp -> mma, shift -> mma, mma -> shift */
static bool tmem_read_check(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t g, uint32_t lane0,
                            uint32_t col, const char *what, int reader) {
  uint32_t o = k->tm_w[g];
  if (!o) return false;
  const chk_op *p = &k->op[o];
  if (reader >= 0 && p->kind == OK_MMA && p->warp == w->id && p->lane == (uint8_t)lane &&
      ((reader == 0 && p->sub != 0) || (reader == 2 && p->sub == 0)))
    return false;
  const uint32_t *vc = VC(k, k->vc, w->id);
  if (!known(k, vc, p)) {
    if (p->kind == OK_MMA)
      report(w, CR_TMEM_READ_INFLIGHT, in, lane, of_op(p),
             "%s reads Tensor Memory lane %u column %u, which a %s writes that is not known complete to "
             "this thread", what, lane0, col, op_name(p));
    else if (p->kind == OK_ST)
      report(w, CR_TMEM_ST_UNWAITED, in, lane, of_op(p),
             "%s reads Tensor Memory lane %u column %u before the tcgen05.st that wrote it is waited for", what, lane0,
             col);
    return true;
  }
  if (!fence_due(k, w, p)) return false;
  char acc[96];
  snprintf(acc, sizeof acc, "%s reads Tensor Memory lane %u column %u", what, lane0, col);
  return fence_warning(k, w, in, lane, p, acc);
}
static bool tmem_write_check(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t g, uint32_t lane0,
                             uint32_t col, const char *what, bool is_mma) {
  const uint32_t *vc = VC(k, k->vc, w->id);
  uint32_t r = k->tm_r[g];
  /* one thread's mma/cp/shift are taken to run in issue order: a cp
   * overwriting the scale factors an earlier MMA of the same thread reads
   * is not reported (docs/check.md; Triton's tutorial 10 does this and runs
   * on B200s) */
  bool same_pipe = r && is_mma && k->op[r].kind == OK_MMA && k->op[r].warp == w->id && k->op[r].lane == (uint8_t)lane;
  if (r && !same_pipe && !known(k, vc, &k->op[r])) {
    const chk_op *p = &k->op[r];
    report(w, CR_TMEM_WRITE_INFLIGHT, in, lane, of_op(p),
           "%s writes Tensor Memory lane %u column %u while the %s that reads it is not known complete to this thread",
           what, lane0, col, op_name(p));
    return true;
  }
  uint32_t o = k->tm_w[g];
  if (!o) return false;
  const chk_op *p = &k->op[o];
  if (p->kind == OK_MMA) {
    /* MMAs of one thread into one accumulator are pipelined (9.7.16.6.2) */
    if (is_mma && p->warp == w->id && p->lane == (uint8_t)lane) return false;
    if (!known(k, vc, p))
      return report(w, CR_TMEM_WRITE_INFLIGHT, in, lane, of_op(p),
             "%s writes Tensor Memory lane %u column %u while a %s of another thread that writes it is not "
             "known complete to this thread", what, lane0, col, op_name(p)), true;
  } else if (p->kind == OK_ST && is_mma) {
    if (!known(k, vc, p))
      return report(w, CR_TMEM_ST_UNWAITED, in, lane, of_op(p),
             "%s accumulates into Tensor Memory lane %u column %u before the tcgen05.st that wrote it is waited for",
             what, lane0, col), true;
    if (!fence_due(k, w, p)) return false;
    char acc[96];
    snprintf(acc, sizeof acc, "%s accumulates into Tensor Memory lane %u column %u", what, lane0, col);
    return fence_warning(k, w, in, lane, p, acc);
  }
  return false;
}

/* a tcgen05.mma / cp / shift (sub 0 / 1 / 2) of this lane: a new operation
 * of the warp's pipeline, completed by its commits; 0 when out of memory */
static uint32_t pipe_op(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint8_t sub) {
  uint32_t id = new_op(k, w, in, lane, OK_MMA, ++k->mma_n[w->id]);
  if (!id) return 0;
  k->op[id].sub = sub;
  k->mma_lanes[w->id] |= 1u << lane;
  return id;
}

/* an asynchronous operation `id` (`reader` as tmem_read_check takes it)
 * reads the 16-lane halves in `halves` (bit h: lanes 16h-16h+15) x columns
 * [c0, c0 + ncols); *told: one finding an instruction */
static void tmem_reads(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t id, unsigned halves,
                       uint32_t c0, uint32_t ncols, const char *what, int reader, bool *told) {
  uint32_t lr = UINT32_MAX, lw = UINT32_MAX;
  for (uint32_t h = 0; h < 8; h++) {
    uint32_t c1 = c0 + ncols < 512 ? c0 + ncols : 512;
    if (!(halves >> h & 1) || c0 >= c1) continue;
    TM_CHECKS(k, h, c0, c1, lr, lw, false, *told, *told = tmem_read_check(k, w, in, lane, g, h * 16, c, what, reader));
    tm_fill(k, k->tm_r + h * 512 + c0, c1 - c0, id);
  }
}

/* the 16-lane halves an MMA's D (or A in Tensor Memory) occupies from lane
 * l0: M = 64 without .ws (layout F) uses 16 lanes of each quarter, the
 * others [l0, l0 + nl) */
static unsigned d_halves(uint32_t l0, uint32_t nl, bool al16) {
  unsigned m = 0;
  if (al16) {
    for (uint32_t j = 0; j < 4; j++)
      if (l0 / 16 + 2 * j < 8) m |= 1u << (l0 / 16 + 2 * j);
    return m;
  }
  for (uint32_t h = l0 / 16; h < 8 && h * 16 < l0 + nl; h++) m |= 1u << h;
  return m;
}

void chk_target_feature(const chk_warp *w, const chk_insn *in, const char *what, const char *targets) {
  if (!w->k) return;
  report(w, CR_TARGET_FEATURE, in, -1, nobody(), "%s: .target %s does not have it (it has: %s)", what,
         w->k->target, targets);
}

/* strict: a descriptor with a base offset and no swizzling */
static void desc_base_offset(const chk_warp *w, const chk_insn *in, int lane, uint64_t raw, const char *what) {
  tc5_smem_desc d;
  if (!tc5_smem_desc_decode_mma(raw, &d, NULL) && d.swizzle == TC5_SWIZZLE_NONE && d.base_offset)
    report(w, CR_SMEM_DESC_BASE_OFFSET, in, lane, nobody(),
           "%s: its shared memory descriptor 0x%016llx has base offset %u and no swizzling", what,
           (unsigned long long)raw, d.base_offset);
}

void chk_mma(const chk_warp *w, const chk_insn *in, int lane, const tc5_mma_args *a) {
  chk_cta *k = w->k;
  if (!k) return;
  if (!a->a_in_tmem) desc_base_offset(w, in, lane, a->a_desc, "tcgen05.mma (A)");
  desc_base_offset(w, in, lane, a->b_desc, "tcgen05.mma (B)");
  uint32_t id = pipe_op(k, w, in, lane, 0);
  if (!id) return;
  tc5_idesc d;
  if (tc5_idesc_decode(a->idesc, a->variant.kind, &d, NULL)) return;
  unsigned K, M = d.m, N = d.n;
  tc5_idesc_k(&d, &K);
  /* shared-memory operands: every granule's last store must be fenced for
   * the async proxy and ordered before this thread (this CTA's rows of A
   * and columns of B: M / cta_group and N / cta_group) */
  unsigned cg = a->variant.cta_group ? a->variant.cta_group : 1;
  for (unsigned which = a->a_in_tmem ? 1 : 0; which < 2; which++)
    async_smem_reads(k, w, in, lane, id,
                     operand_granules(k, which ? a->b_desc : a->a_desc, a->idesc, a->variant.kind, which,
                                      (which ? N : M) / cg, K),
                     "tcgen05.mma", which ? "B" : "A");
  for (unsigned which = a->a_in_tmem ? 1 : 0; cg == 2 && (k->rank ^ 1u) < k->npeers && which < 2; which++) {
    const chk_desc_cache *pe = operand_granules(k, which ? a->b_desc : a->a_desc, a->idesc, a->variant.kind, which,
                                                (which ? N : M) / cg, K);
    xscope_reads(k, w, in, lane, k->peers[k->rank ^ 1u], pe, 0, 0, "tcgen05.mma.cta_group::2"); /* issue 53 */
    xpair_reads(k, k->peers[k->rank ^ 1u], pe, id); /* the peer's half, in the peer's shadow */
  }
  /* Tensor Memory: D (read with enable-input-d, written), A when there */
  uint32_t nl, nc;
  bool al16;
  tc5__mma_d_extent(M, a->variant.cta_group, a->variant.ws, N, &nl, &nc, &al16);
  uint32_t dl = TC5_TMEM_LANE(a->d_tmem), dc = TC5_TMEM_COL(a->d_tmem);
  unsigned dh = d_halves(dl, nl, al16);
  bool told = false; /* one finding per instruction */
  uint32_t lr = UINT32_MAX, lw = UINT32_MAX;
  for (uint32_t h = 0; h < 8; h++) {
    uint32_t c1 = dc + nc < 512 ? dc + nc : 512;
    if (!(dh >> h & 1) || dc >= c1) continue;
    /* each cell's check reads only that cell: all checked, then all written */
    TM_CHECKS(k, h, dc, c1, lr, lw, true, told, told = tmem_write_check(k, w, in, lane, g, h * 16, c, "tcgen05.mma", true));
    tm_fill(k, k->tm_w + h * 512 + dc, c1 - dc, id);
  }
  /* A: the columns the engine reads, K elements packed by their width (K
   * columns, an upper bound, when the idesc names no A type: the engine
   * refuses that MMA) */
  tc5_type at;
  unsigned acols = tc5_idesc_atype(&d, &at) ? K : tc5__mma_a_tmem_cols(a->variant.kind, at, a->variant.sparse ? K / 2 : K);
  if (a->a_in_tmem)
    tmem_reads(k, w, in, lane, id, d_halves(TC5_TMEM_LANE(a->a_tmem), nl, al16), TC5_TMEM_COL(a->a_tmem), acols,
               "tcgen05.mma (A in Tensor Memory)", 0, &told);
  /* .sp: the metadata, in all 128 lanes */
  if (a->variant.sparse)
    tmem_reads(k, w, in, lane, id, 0xFFu, TC5_TMEM_COL(a->sp_meta_tmem), tc5__mma_sp_meta_cols(a->variant.kind, K),
               "tcgen05.mma.sp (metadata)", 0, &told);
  /* block scaling: the scale factors, in all four lane quarters */
  for (int b = 0; b < 2 && a->variant.block_scale; b++)
    tmem_reads(k, w, in, lane, id, 0xFFu, TC5_TMEM_COL((b ? a->sfb_tmem : a->sfa_tmem) & 0x3FFFFFFFu),
               tc5__mma_sf_cols(b, M, a->variant.cta_group, b ? N : M / a->variant.cta_group),
               b ? "tcgen05.mma (scale factors B)" : "tcgen05.mma (scale factors A)", 0, &told);
}

void chk_cp(const chk_warp *w, const chk_insn *in, int lane, const tc5_cp_args *a) {
  chk_cta *k = w->k;
  if (!k) return;
  desc_base_offset(w, in, lane, a->sdesc, "tcgen05.cp");
  uint32_t id = pipe_op(k, w, in, lane, 1);
  if (!id) return;
  const tc5_cp_shape_info *si = tc5_cp_shape_get(a->shape);
  tc5_operand op;
  tc5_operand_for(TC5_KIND_F8F6F4, TC5_E4M3, TC5_MAJOR_K, &op);
  async_smem_reads(k, w, in, lane, id, granules(k, a->sdesc, 0xC0u + (uint32_t)a->shape, TC5_KIND_F8F6F4, 2, &op,
                                                si->rows, si->bits / 8),
                   "tcgen05.cp", "its source");
  if (a->cta_group == 2 && (k->rank ^ 1u) < k->npeers) /* the peer's source (issue 53) */
    xscope_reads(k, w, in, lane, k->peers[k->rank ^ 1u],
                 granules(k, a->sdesc, 0xC0u + (uint32_t)a->shape, TC5_KIND_F8F6F4, 2, &op, si->rows, si->bits / 8), 0,
                 0, "tcgen05.cp.cta_group::2");
  uint32_t l0 = TC5_TMEM_LANE(a->taddr), c0 = TC5_TMEM_COL(a->taddr);
  bool told = false;
  for (unsigned r = 0; r < si->rows; r++)
    for (unsigned rep = 0; rep < si->replicas; rep++) {
      uint32_t l;
      tc5_cp_lane(a->shape, r, rep, &l);
      l += l0;
      for (uint32_t c = c0; l < 128 && c < c0 + si->bits / 32 && c < 512; c++) {
        uint32_t g = TM_G(l, c);
        if (!told) told = tmem_write_check(k, w, in, lane, g, l / 16 * 16, c, "tcgen05.cp", true);
        tm_fill(k, &k->tm_w[g], 1, id);
      }
    }
}

void chk_shift(const chk_warp *w, const chk_insn *in, int lane, uint32_t taddr) {
  chk_cta *k = w->k;
  if (!k) return;
  uint32_t id = pipe_op(k, w, in, lane, 2);
  if (!id) return;
  uint32_t q = TC5_TMEM_LANE(taddr) / 32, c0 = TC5_TMEM_COL(taddr);
  bool told = false;
  for (uint32_t h = 2 * q; h < 2 * q + 2 && h < 8; h++)
    for (uint32_t c = c0; c < c0 + 8 && c < 512; c++) {
      uint32_t g = h * 512 + c;
      if (!told) told = tmem_read_check(k, w, in, lane, g, h * 16, c, "tcgen05.shift", 2);
      if (!told) told = tmem_write_check(k, w, in, lane, g, h * 16, c, "tcgen05.shift", true);
      tm_fill(k, &k->tm_w[g], 1, id), tm_fill(k, &k->tm_r[g], 1, id);
    }
}

static void unmark(chk_cta *k, unsigned wi, uint32_t reg) {
  if (reg < k->nregs) k->rmark[(size_t)wi * k->nregs + reg]--;
}

static uint16_t *pslot_of(chk_cta *k, unsigned wi, uint32_t reg) {
  return &k->pslot[(size_t)wi * k->nregs + reg];
}
/* the warp's pending tcgen05.ld number seq gains (d = 1) or loses (d = -1) a register */
static void pl_count(chk_cta *k, unsigned wi, uint32_t seq, int d) {
  if (wi >= 32 || k->npl[wi] > 8) return;
  struct chk_pl *q = k->pl[wi];
  for (unsigned i = 0; i < k->npl[wi]; i++)
    if (q[i].seq == seq) {
      q[i].left += (uint32_t)d;
      if (!q[i].left) q[i] = q[--k->npl[wi]];
      return;
    }
  if (d < 0) return;
  if (k->npl[wi] == 8) {
    k->npl[wi] = 9; /* too many: pend is searched */
    return;
  }
  q[k->npl[wi]++] = (struct chk_pl){seq, 1};
}
/* removes pend entry i of warp wi (the last one takes its place) */
static void pend_remove(chk_cta *k, unsigned wi, unsigned i) {
  chk_pend *e = k->pend[wi];
  uint32_t last = --k->npend[wi];
  k->sfree[wi][k->nsfree[wi]++] = e[i].slot; /* room: the stack holds at most the slots made */
  unmark(k, wi, e[i].reg);
  if (!e[i].store) pl_count(k, wi, e[i].seq, -1);
  if (e[i].reg < k->nregs && *pslot_of(k, wi, e[i].reg) == i + 1) *pslot_of(k, wi, e[i].reg) = 0;
  if (i != last) {
    e[i] = e[last];
    if (e[i].reg < k->nregs && *pslot_of(k, wi, e[i].reg) == last + 1) *pslot_of(k, wi, e[i].reg) = (uint16_t)(i + 1);
  }
  if (!k->npend[wi]) k->pdup &= ~(1u << wi);
}

static void pend_add(chk_cta *k, const chk_warp *w, uint32_t reg, uint32_t insn, bool store) {
  unsigned wi = w->id;
  if (!ROOM(k->pend[wi], k->npend[wi], k->pend_cap[wi], 64)) return;
  uint32_t slot;
  if (k->nsfree[wi]) slot = k->sfree[wi][--k->nsfree[wi]];
  else {
    if (k->snp_top[wi] == k->snp_cap[wi]) {
      uint32_t nc = k->snp_cap[wi] ? 2 * k->snp_cap[wi] : 64;
      uint64_t *sn = realloc(k->snp[wi], (size_t)nc * 32 * sizeof *sn);
      if (sn) k->snp[wi] = sn;
      uint32_t *fr = sn ? realloc(k->sfree[wi], (size_t)nc * sizeof *fr) : NULL;
      if (fr) k->sfree[wi] = fr;
      if (!fr) return; /* out of memory: not followed */
      k->snp_cap[wi] = nc;
    }
    slot = k->snp_top[wi]++;
  }
  chk_pend *p = &k->pend[wi][k->npend[wi]++];
  p->reg = reg, p->insn = insn, p->store = store, p->slot = slot;
  p->seq = store ? k->st_n[wi] : k->ld_n[wi];
  memcpy(k->snp[wi] + (size_t)slot * 32, CHK_R(w, reg), 32 * sizeof(uint64_t));
  p->lanes = w->live;
  if (reg < k->nregs) {
    k->rmark[(size_t)wi * k->nregs + reg]++;
    uint16_t *sl = pslot_of(k, wi, reg);
    if (*sl && *sl <= k->npend[wi] - 1 && k->pend[wi][*sl - 1].reg == reg) k->pdup |= 1u << wi;
    *sl = k->npend[wi] <= 0xFFFFu ? (uint16_t)k->npend[wi] : 0;
    if (!*sl) k->pdup |= 1u << wi;
  }
  if (!store) pl_count(k, wi, p->seq, 1);
  *w->pending = 1;
}

void chk_tmem_ldst(const chk_warp *w, const chk_insn *in, bool store, uint32_t taddr, const tc5_tmem_ldst *op,
                   const uint32_t *regs, unsigned nr) {
  chk_cta *k = w->k;
  if (!k) return;
  unsigned wi = w->id;
  uint32_t id = new_op(k, w, in, -1, store ? OK_ST : OK_LD, store ? ++k->st_n[wi] : ++k->ld_n[wi]);
  if (!id) return;
  uint32_t nregs, nl, nc;
  if (tc5_tmem_ldst_size(op, &nregs, &nl, &nc)) return;
  /* the warp's quarter; a 16-lane shape reads the half its lane names */
  uint32_t q = (wi % 4), c0 = TC5_TMEM_COL(taddr);
  uint32_t h0 = 2 * q + (nl < 32 && TC5_TMEM_LANE(taddr) % 32 >= 16), h1 = nl < 32 ? h0 + 1 : 2 * q + 2;
  bool told = false; /* one finding per instruction */
  uint32_t lr = UINT32_MAX, lw = UINT32_MAX; /* the last cell checked (its operations): see TM_SAME */
  uint32_t c1 = c0 + nc < 512 ? c0 + nc : 512;
  for (uint32_t h = h0; h < h1 && c0 < c1; h++) {
    if (store)
      TM_CHECKS(k, h, c0, c1, lr, lw, true, told, told = tmem_write_check(k, w, in, -1, g, h * 16, c, "tcgen05.st", false));
    else
      TM_CHECKS(k, h, c0, c1, lr, lw, false, told, told = tmem_read_check(k, w, in, -1, g, h * 16, c, "tcgen05.ld", -1));
    tm_fill(k, (store ? k->tm_w : k->tm_r) + h * 512 + c0, c1 - c0, id);
  }
  const uint32_t *vr = regs;
  uint32_t insn = (uint32_t)(in - k->code);
  for (unsigned i = 0; i < nr; i++) pend_add(k, w, vr[i], insn, store);
}

void chk_tc_wait(const chk_warp *w, bool store) {
  chk_cta *k = w->k;
  if (!k) return;
  unsigned wi = w->id;
  uint32_t *vc = VC(k, k->vc, wi), *svc = VC(k, k->svc, wi);
  if (store) vc[VS(k, wi)] = svc[VS(k, wi)] = k->st_n[wi];
  else vc[VL(k, wi)] = svc[VL(k, wi)] = k->ld_n[wi];
  for (unsigned i = k->npend[wi]; i-- > 0;)
    if (k->pend[wi][i].store == store) pend_remove(k, wi, i);
  if (!store && wi < 32) k->npl[wi] = 0;
  *w->pending = chk_follows(k, wi);
}

void chk_tc_fence(const chk_warp *w, bool after) {
  chk_cta *k = w->k;
  if (!k) return;
  unsigned wi = w->id;
  if (after) {
    join(VC(k, k->svc, wi), VC(k, k->spend, wi), k->nvc);
  } else {
    k->rel_l[wi] = VC(k, k->vc, wi)[VL(k, wi)];
    k->rel_s[wi] = VC(k, k->vc, wi)[VS(k, wi)];
  }
}

/* the lanes that executed the instruction: active, guard true */
static uint32_t executed(const chk_warp *w, const chk_insn *in) {
  uint32_t lanes = w->active;
  if (in->guard != CHK_NOREG) {
    const uint64_t *g = CHK_R(w, in->guard);
    uint32_t gm = 0;
    for (unsigned l = 0; l < 32; l++) gm |= (uint32_t)(g[l] != 0) << l;
    lanes &= in->guard_neg ? ~gm : gm;
  }
  return lanes;
}

/* after each instruction while registers of a tcgen05.ld/st are pending */
/* An instruction that reads a destination register of a tcgen05.ld before
 * tcgen05.wait::ld has a true register dependency on it, which is respected
 * (9.7.16.6.4.5): the load is complete for that register, which may then be
 * written again (CuTe DSL's kernels have no tcgen05.wait::ld and reuse the
 * registers of loads they consumed). A load whose registers were all read is
 * complete, as after a wait (its Tensor Memory may be written or freed). In
 * strict mode the read is a warning (ld-reg-use: nothing else is ordered). */
static void ld_reads(chk_cta *k, const chk_warp *w, const chk_insn *in, uint32_t self, uint32_t lanes) {
  unsigned wi = w->id;
  bool told = false, took = false, scan = k->pdup >> wi & 1;
  if (!lanes || !k->npend[wi]) return;
  const uint16_t *mk = k->rmark + (size_t)wi * k->nregs;
  {
    /* the registers it reads: operand 0 is a destination but for stores'
     * addresses; a pair's second register is not followed */
    for (unsigned e = 0; e < in->nregs; e++) {
      if (in->regs[e].flags & (CHK_R_DST | CHK_R_SECOND)) continue;
      uint32_t reg = in->regs[e].reg;
      if (reg >= k->nregs || !(mk[reg] & 0x7FFFu)) continue;
      unsigned i0 = 0, i1 = k->npend[wi];
      if (!scan) { /* the register's one entry */
        uint16_t sl = *pslot_of(k, wi, reg);
        if (!sl || sl > k->npend[wi] || k->pend[wi][sl - 1].reg != reg) continue;
        i0 = sl - 1u, i1 = sl;
      }
      for (unsigned i = i0; i < i1 && i < k->npend[wi]; i++) {
        chk_pend *p = &k->pend[wi][i];
        if (p->store || p->reg != reg || p->insn == self) continue;
        if (!told && k->strict)
          report(w, CR_LD_REG_USE, in, -1, (who){p->insn, (int)wi, -1},
                 "a destination register of the tcgen05.ld is read before tcgen05.wait::ld");
        told = true;
        p->lanes &= ~lanes;
        if (p->lanes) continue; /* lanes that have not read it: their load is not complete */
        pend_remove(k, wi, i);
        i--, i1--;
        took = true;
      }
    }
  }
  if (!took) return;
  /* the loads before the oldest with a register still pending are complete */
  uint32_t oldest = k->ld_n[wi] + 1;
  if (wi < 32 && k->npl[wi] <= 8) {
    for (unsigned i = 0; i < k->npl[wi]; i++)
      if (k->pl[wi][i].seq < oldest) oldest = k->pl[wi][i].seq;
  } else {
    for (unsigned i = 0; i < k->npend[wi]; i++)
      if (!k->pend[wi][i].store && k->pend[wi][i].seq < oldest) oldest = k->pend[wi][i].seq;
  }
  uint32_t *vc = VC(k, k->vc, wi), *svc = VC(k, k->svc, wi);
  if (vc[VL(k, wi)] < oldest - 1) vc[VL(k, wi)] = oldest - 1;
  if (svc[VL(k, wi)] < oldest - 1) svc[VL(k, wi)] = oldest - 1;
  *w->pending = chk_follows(k, wi);
}

/* a read of a register of a wgmma.mma_async whose group no wgmma.wait_group
 * has covered: ptxas injects a warpgroup wait there ("warpgroup.wait is
 * injected ... to allow use of registers defined by GMMA", C7517), so the
 * read waits for all of the warp's wgmma; the spec calls it undefined */
static void wgmma_reads(chk_cta *k, const chk_warp *w, const chk_insn *in) {
  struct chk_wgmma *g = &k->wgs[w->id];
  if (in->traits.group == IG_WGMMA) return; /* wgmma accumulates into its D: no read of the value */
  {
    for (unsigned e = 0; e < in->nregs && g->n; e++) {
      if (in->regs[e].flags & (CHK_R_DST | CHK_R_SECOND)) continue; /* as ld_reads */
      uint32_t reg = in->regs[e].reg;
      for (unsigned i = 0; i < g->n; i++)
        if (g->reg[i] == reg) {
          report(w, CR_WGMMA_REG_INFLIGHT, in, -1, (who){g->insn[i], (int)w->id, -1},
                 "reads a register of a wgmma.mma_async before the wgmma.wait_group that covers its group: ptxas "
                 "waits for the warpgroup's wgmma here (the pipeline serialised); the spec calls it undefined");
          g->n = 0; /* the injected wait completes them all */
          break;
        }
    }
  }
}

void chk_wgmma_issue(const chk_warp *w, const chk_insn *in) {
  chk_cta *k = w->k;
  if (!k) return;
  if (!k->wgs && !(k->wgs = calloc(k->n, sizeof *k->wgs))) return;
  struct chk_wgmma *g = &k->wgs[w->id];
  { /* D, and A when in registers */
    for (unsigned e = 0; e < in->nregs; e++) {
      if (in->regs[e].op >= 2 || !(in->regs[e].flags & CHK_R_VEC)) continue;
      if (g->n == g->cap) {
        uint32_t nc = g->cap ? 2 * g->cap : 64;
        uint32_t *r = realloc(g->reg, nc * 4), *gr = r ? realloc(g->grp, nc * 4) : NULL,
                 *ins = gr ? realloc(g->insn, nc * 4) : NULL;
        if (r) g->reg = r;
        if (gr) g->grp = gr;
        if (ins) g->insn = ins;
        if (!ins) return;
        g->cap = nc;
      }
      g->reg[g->n] = in->regs[e].reg, g->grp[g->n] = g->commits, g->insn[g->n] = (uint32_t)(in - k->code);
      g->n++;
    }
  }
  *w->pending = chk_follows(k, w->id);
}

void chk_wgmma_commit(const chk_warp *w) {
  chk_cta *k = w->k;
  if (k && k->wgs) k->wgs[w->id].commits++;
}

void chk_wgmma_wait(const chk_warp *w, unsigned n) {
  chk_cta *k = w->k;
  if (!k || !k->wgs) return;
  struct chk_wgmma *g = &k->wgs[w->id];
  /* the groups older than the n newest committed ones are complete (and
   * wgmma issued after the last commit belong to no group yet) */
  uint32_t done = g->commits > n ? g->commits - n : 0;
  unsigned j = 0;
  for (unsigned i = 0; i < g->n; i++)
    if (g->grp[i] >= done) g->reg[j] = g->reg[i], g->grp[j] = g->grp[i], g->insn[j] = g->insn[i], j++;
  g->n = j;
  *w->pending = chk_follows(k, w->id);
}

/* the statements for each register operand `reg` of `in` (dst: in the
 * destination position, operand 0 but an address, as ld_reads takes it) */
#define EACH_REG(k, in, ...)                                                                         \
  for (unsigned e_ = 0; e_ < (in)->nregs; e_++) {                                                  \
    unsigned o_ = (in)->regs[e_].op;                                                               \
    bool dst = (in)->regs[e_].flags & CHK_R_DST;                                                   \
    uint32_t reg = (in)->regs[e_].reg;                                                             \
    (void)o_, (void)dst, (void)(k);                                                                \
    __VA_ARGS__                                                                                    \
  }

void chk_tmem_poison(const chk_warp *w, const chk_insn *in, const uint32_t *regs, unsigned n, const uint32_t *lanes,
                     uint32_t taddr) {
  chk_cta *k = w->k;
  if (!k) return;
  unsigned wi = w->id;
  uint32_t insn = (uint32_t)(in - k->code);
  for (unsigned i = 0; i < n; i++) {
    if (!lanes[i]) continue;
    struct chk_poison *p = NULL;
    for (unsigned j = 0; j < k->npois[wi] && !p; j++)
      if (k->pois[wi][j].reg == regs[i]) p = &k->pois[wi][j];
    if (!p) {
      if (!ROOM(k->pois[wi], k->npois[wi], k->pois_cap[wi], 16)) return;
      p = &k->pois[wi][k->npois[wi]++];
      if (regs[i] < k->nregs) k->rmark[(size_t)wi * k->nregs + regs[i]]++;
    }
    *p = (struct chk_poison){regs[i], insn, lanes[i], taddr, false};
    k->pois_new |= 1u << wi;
  }
  *w->pending = chk_follows(k, wi);
}

static struct chk_poison *pois_find(chk_cta *k, unsigned wi, uint32_t reg) {
  if (reg >= k->nregs || !(k->rmark[(size_t)wi * k->nregs + reg] & 0x7FFFu)) return NULL;
  for (unsigned j = 0; j < k->npois[wi]; j++)
    if (k->pois[wi][j].reg == reg) return &k->pois[wi][j];
  return NULL;
}
/* the register's poisoned lanes become `lanes` (0: none), from the load `org` */
static void pois_set(chk_cta *k, unsigned wi, uint32_t reg, uint32_t lanes, const struct chk_poison *org) {
  struct chk_poison *p = pois_find(k, wi, reg);
  if (!lanes) {
    if (!p) return;
    unmark(k, wi, reg);
    *p = k->pois[wi][--k->npois[wi]];
    return;
  }
  if (!p) {
    if (reg >= k->nregs || !ROOM(k->pois[wi], k->npois[wi], k->pois_cap[wi], 16)) return;
    p = &k->pois[wi][k->npois[wi]++];
    k->rmark[(size_t)wi * k->nregs + reg]++;
  }
  *p = (struct chk_poison){reg, org->insn, lanes, org->taddr, org->smem};
}

/* default mode: an ld of shared memory (lane's bytes [off, off + n)) that read bytes nothing wrote
 * marks the destination registers of that lane instead of reporting, as a tcgen05.ld of
 * never-written Tensor Memory does: reported where the value leaves the registers (poison_uses).
 * Triton computes an atomic min/max of floats as two predicated atomics whose results pass
 * through shared memory and keeps one by a select: the other's slot was never written. A
 * destination register holds the bytes [off + i n / ndst, ...) of the load. False when the
 * instruction is not a plain ld (ldmatrix: a lane's address feeds other lanes' registers; an
 * atomic writes what it read): reported at the access. */
/* whether every byte of [off, off + n) below the size of s was written (eight a byte of the written bits at once) */
static bool smem_all_written(const tc5_smem *s, uint32_t off, uint32_t n) {
  uint32_t end = off + n < s->size ? off + n : s->size, b = off;
  for (; b < end && (b & 7); b++)
    if (!(s->written[b >> 3] >> (b & 7) & 1)) return false;
  for (; b + 8 <= end; b += 8)
    if (s->written[b >> 3] != 0xFF) return false;
  for (; b < end; b++)
    if (!(s->written[b >> 3] >> (b & 7) & 1)) return false;
  return true;
}
static bool smem_defer(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n) {
  if (!(in->traits.flags & IT_LOAD) || lane < 0 || lane > 31) return false;
  unsigned ndst = 0;
  EACH_REG(k, in, { (void)reg; ndst += dst; });
  if (!ndst || (ndst > 1 && n % ndst)) return false; /* (one destination, the common load: no division) */
  const tc5_smem *s = k->smem;
  unsigned wi = w->id, i = 0, per = ndst == 1 ? n : n / ndst;
  /* every byte written, no register of the warp marked (npois) and no followed value stored (sp_m): the loop
   * below finds nothing to mark or unmark (each destination's bad and sb none, pois_find none) */
  if (!k->npois[wi] && !k->sp_m && smem_all_written(s, off, n)) {
    *w->pending = chk_follows(k, wi);
    return true;
  }
  uint32_t bit = 1u << lane;
  bool any = false;
  EACH_REG(k, in, {
    if (dst) {
      uint32_t bad = UINT32_MAX;
      for (uint32_t b = off + i * per; b < off + (i + 1) * per && b < s->size && bad == UINT32_MAX; b++)
        if (!(s->written[b >> 3] >> (b & 7) & 1)) bad = b;
      struct chk_poison *p = pois_find(k, wi, reg), stored;
      uint32_t sb = bad == UINT32_MAX ? spois_find(k, off + i * per, per, &stored) : UINT32_MAX;
      if (sb != UINT32_MAX) { /* bytes a st.shared filled with a followed value: followed on from its load */
        pois_set(k, wi, reg, (p ? p->lanes : 0) | bit, &stored);
        any = true;
      } else if (bad != UINT32_MAX) {
        struct chk_poison org = {reg, (uint32_t)(in - k->code), 0, bad, true};
        pois_set(k, wi, reg, (p ? p->lanes : 0) | bit, &org);
        any = true;
      } else if (p && (p->lanes & bit)) {
        pois_set(k, wi, reg, p->lanes & ~bit, p); /* the lane loaded written bytes */
      }
      i++;
    }
  });
  if (any) k->pois_new |= 1u << wi;
  *w->pending = chk_follows(k, wi);
  return true;
}

/* instructions through which a value loaded from never-written Tensor
 * Memory flows into their destination registers unreported: arithmetic,
 * conversions, moves, comparisons and selects of one thread's registers.
 * Any other instruction that reads such a value (a store to memory, a
 * tcgen05.st or mma, a shuffle, an address, an atomic) or a guard that
 * depends on one is tmem-uninit-read. */
static bool pure_op(const chk_insn *in) { return (in->traits.flags & IT_PURE) != 0; }

/* where a marked value came from, for its finding: its rule and the words that name the load */
static unsigned pois_rule(const struct chk_poison *p) { return p->smem ? CR_SMEM_UNINIT : CR_TMEM_UNINIT; }
static const char *pois_from(const struct chk_poison *p, char *buf, size_t n) {
  if (p->smem)
    snprintf(buf, n, "what a load read of shared memory that nothing wrote (first such byte: 0x%x; read as 0xFF)",
             p->taddr);
  else
    snprintf(buf, n, "what the tcgen05.ld read of Tensor Memory that nothing wrote (first such cell of the load: "
             "lane %u column %u; read as 0xFFFFFFFF)", TC5_TMEM_LANE(p->taddr), TC5_TMEM_COL(p->taddr));
  return buf;
}

/* the shadow of marked bytes, allocated at the first store of a followed value (false: no memory) */
static bool spois_alloc(chk_cta *k) {
  if (k->sp_m) return true;
  k->sp_m = calloc(k->ngran ? k->ngran : 1, sizeof *k->sp_m);
  k->sp_org = calloc(k->ngran ? k->ngran : 1, sizeof *k->sp_org);
  if (k->sp_m && k->sp_org) return true;
  free(k->sp_m), free(k->sp_org), k->sp_m = NULL, k->sp_org = NULL;
  return false;
}
/* bytes `bits` of granule g marked as holding warp wi's followed value p (spois_store, chk_matrix) */
static void spois_mark(chk_cta *k, uint32_t g, uint16_t bits, const struct chk_poison *p, unsigned wi) {
  k->sp_m[g] |= bits, k->sp_org[g] = *p, k->sp_org[g].reg = wi; /* reg: the warp */
}

/* a plain st.shared (lane's bytes [off, off + n)) of the own CTA: the bytes of
 * its data registers that hold (in this lane) a followed value are marked, the
 * others unmarked; the lane is remembered for chk_after, which then does not
 * report the store. Data register i holds bytes [off + i n / nsrc, ...). */
static void spois_store(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n) {
  unsigned wi = w->id;
  const unsigned mem = IT_READ | IT_WRITE | IT_ATOMIC | IT_ASYNC | IT_CP_ASYNC | IT_COLLECTIVE;
  bool plain = !k->strict && (in->traits.flags & mem) == IT_WRITE && lane >= 0 && lane < 32;
  if (!plain || !k->npois[wi]) {
    spois_clear(k, off, n);
    return;
  }
  unsigned nsrc = 0, i = 0;
  EACH_REG(k, in, { (void)reg; nsrc += !dst && o_ >= 1; });
  if (!nsrc || n % nsrc) {
    spois_clear(k, off, n);
    return;
  }
  uint32_t per = n / nsrc, bit = 1u << lane, self = (uint32_t)(in - k->code);
  bool any = false;
  EACH_REG(k, in, {
    if (!dst && o_ >= 1) {
      struct chk_poison *p = pois_find(k, wi, reg);
      uint32_t a = off + i * per;
      if (p && (p->lanes & bit)) {
        if (!spois_alloc(k)) return; /* not followed: chk_after reports the store */
        for (uint32_t g = a / GRAN; g <= (a + per - 1) / GRAN && g < k->ngran; g++)
          spois_mark(k, g, chk_gran_mask(g, a, per), p, wi);
        any = true;
      } else {
        spois_clear(k, a, per);
      }
      i++;
    }
  });
  if (!any) return;
  if (k->sp_insn[wi] != self + 1) k->sp_insn[wi] = self + 1, k->sp_lanes[wi] = 0;
  k->sp_lanes[wi] |= bit;
}

/* ldmatrix / stmatrix (issue 50): FlagGems' attention kernels (flash_fwd_kernel, _attn_fwd; Triton
 * 3.6) move the row scale exp2(m_old - m_new) from the layout of S's tcgen05.ld to that of O's
 * through shared memory, stmatrix then ldmatrix; in the peeled zero-trip iteration of a causal
 * kernel S was never written, and the scaled O is stored back by a tcgen05.st predicated off.
 * The bytes and registers follow the values lane by lane with the runner's map (chk_matrix). */
void chk_matrix(const chk_warp *w, const chk_insn *in, bool store, unsigned nrows, const uint32_t *off,
                const chk_mx (*src)[16]) {
  chk_cta *k = w->k;
  unsigned wi = w->id;
  if (!chk_matrix_follows(k, wi, store)) return;
  uint32_t vreg[8];
  unsigned nv = 0;
  for (unsigned j = 0; j < in->nregs && nv < 8; j++)
    if (in->regs[j].flags & CHK_R_VEC) vreg[nv++] = in->regs[j].reg;
  uint32_t lanes[8] = {0}; /* store: the lanes whose element went to memory marked; load: received marked bytes */
  struct chk_poison org[8];
  for (unsigned r = 0; r < nrows; r++) {
    if (off[r] == UINT32_MAX || off[r] / GRAN >= k->ngran || (off[r] + 15) / GRAN >= k->ngran) continue;
    for (unsigned b = 0; b < 16; b++) {
      chk_mx x = src[r][b];
      if (x.reg >= nv || x.lane > 31) continue;
      uint32_t a = off[r] + b, g = a / GRAN, bit = 1u << (a % GRAN);
      if (store) {
        struct chk_poison *p = pois_find(k, wi, vreg[x.reg]);
        if (!p || !(p->lanes >> x.lane & 1)) continue;
        if (!spois_alloc(k)) return; /* not followed: chk_after reports the store */
        spois_mark(k, g, (uint16_t)bit, p, wi);
        lanes[0] |= 1u << x.lane;
      } else if (k->sp_m[g] & bit) {
        if (!lanes[x.reg]) org[x.reg] = k->sp_org[g];
        lanes[x.reg] |= 1u << x.lane;
      }
    }
  }
  uint32_t self = (uint32_t)(in - k->code);
  if (store) {
    if (lanes[0]) k->sp_insn[wi] = self + 1, k->sp_lanes[wi] = lanes[0]; /* poison_uses: not the finding */
    return;
  }
  bool any = false;
  for (unsigned i = 0; i < nv; i++) { /* every lane wrote each element: marked where it received marked bytes */
    struct chk_poison *p = pois_find(k, wi, vreg[i]);
    if (lanes[i] || p) pois_set(k, wi, vreg[i], lanes[i], lanes[i] ? &org[i] : p);
    any |= lanes[i] != 0;
  }
  if (any) k->pois_new |= 1u << wi; /* chk_after: these registers are this load's, not used by it */
  *w->pending = chk_follows(k, wi);
}

/* shfl.sync (issue 50): where each lane's operand a came from, for poison_uses of the same
 * instruction. CuTe DSL's row reductions (Liger's LayerNorm forward) load and reduce the rows a
 * tile has beyond the tensor's last row, never written, with shfl.sync.bfly among the row's own
 * lanes, and store nothing of those rows: the marks move with the values, lane to lane, and are
 * reported where a value leaves the registers, as in one thread's arithmetic. */
void chk_shfl(const chk_warp *w, const chk_insn *in, const uint8_t *src) {
  chk_cta *k = w->k;
  if (!k || !k->npois[w->id]) return;
  k->sh_insn[w->id] = (uint32_t)(in - k->code) + 1;
  memcpy(k->sh_src[w->id], src, 32);
}

/* An instruction naming a register that holds (in some lanes) a value a
 * tcgen05.ld read from Tensor Memory nothing wrote (0xFFFFFFFF). Triton's
 * pipeliner loads S in a loop that may run zero times, computes on it and
 * discards the results (a select, a predicated store): the values are
 * followed through register arithmetic (pure_op) per lane and reported where
 * they leave the registers or steer the program (docs/check.md). */
static void poison_uses(chk_cta *k, const chk_warp *w, const chk_insn *in, uint32_t lanes) {
  unsigned wi = w->id;
  const char *op = in->text;
  char name[48];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(op, " \t"), op);
  struct chk_poison org = {0, NOINSN, 0, 0, false}, *g;
  if (in->guard != CHK_NOREG && (g = pois_find(k, wi, in->guard)) && (g->lanes & w->active)) {
    int lane = __builtin_ctz(g->lanes & w->active);
    char from[160];
    report(w, pois_rule(g), in, lane, (who){g->insn, (int)wi, -1},
           "%s is guarded by a predicate (lane %d of the warp) computed from %s", name, lane, pois_from(g, from, sizeof from));
    pois_set(k, wi, in->guard, 0, &org);
  }
  if (!lanes) return;
  bool selp = (in->traits.flags & IT_SELECT) && in->nops == 4;
  uint32_t pm = 0; /* selp: the lanes that select its first source */
  if (selp) {
    const uint64_t *pr = CHK_R(w, in->op3);
    for (unsigned l = 0; l < 32; l++) pm |= (uint32_t)(pr[l] != 0) << l;
  }
  uint32_t self = (uint32_t)(in - k->code);
  bool shfl = k->sh_insn[wi] == self + 1; /* chk_shfl: the lane each lane read operand a from */
  if (shfl) k->sh_insn[wi] = 0;
  uint32_t T = 0; /* the lanes whose result depends on such a value */
  uint32_t Ta = 0; /* those through operand 0 (a store's address) */
  uint32_t Ts = 0; /* a shfl.sync's: those that received a marked operand a (followed, not reported) */
  EACH_REG(k, in, {
    struct chk_poison *p;
    if (!dst && (p = pois_find(k, wi, reg))) {
      uint32_t t = p->lanes & lanes;
      if (selp && o_ == 1) t &= pm;
      else if (selp && o_ == 2) t &= ~pm;
      if (shfl && o_ == 1) { /* the marks of the lanes read, in the lanes that read them */
        uint32_t r = 0;
        for (unsigned l = 0; l < 32; l++)
          if ((lanes >> l & 1) && k->sh_src[wi][l] < 32 && (p->lanes >> k->sh_src[wi][l] & 1)) r |= 1u << l;
        if (r && !T && !Ts) org = *p;
        Ts |= r;
        continue;
      }
      if (t && !T && !Ts) org = *p;
      T |= t;
      if (o_ == 0) Ta |= t;
    }
  });
  if (k->sp_insn[wi] == self + 1) { /* a st.shared whose marked data spois_store followed into memory */
    if (!Ta && !(T & ~k->sp_lanes[wi])) T = 0;
    k->sp_insn[wi] = 0, k->sp_lanes[wi] = 0;
  }
  if (T && !pure_op(in)) {
    int lane = __builtin_ctz(T);
    char from[160];
    report(w, pois_rule(&org), in, lane, (who){org.insn, (int)wi, -1},
           "%s uses a value (lane %d of the warp) computed from %s", name, lane, pois_from(&org, from, sizeof from));
    T = 0;
  }
  EACH_REG(k, in, {
    if (dst) {
      struct chk_poison *p = pois_find(k, wi, reg);
      uint32_t keep = p ? p->lanes & ~lanes : 0; /* lanes the instruction does not write */
      /* a shfl.sync's predicate (d|p) says whether the source lane was in range: b and c, not a */
      uint32_t t = T | (shfl && (in->regs[e_].flags & CHK_R_SECOND) ? 0 : Ts);
      if (p || t) {
        struct chk_poison from = t || !p ? org : *p;
        pois_set(k, wi, reg, keep | t, &from);
      }
    }
  });
}

static void overwrite_check(const chk_warp *w, const chk_insn *in, chk_pend *p) {
  const uint64_t *r = CHK_R(w, p->reg);
  uint64_t *snap = w->k->snp[w->id] + (size_t)p->slot * 32;
  if (!memcmp(r, snap, 32 * sizeof *snap)) return;
  int lane = 0;
  while (lane < 31 && r[lane] == snap[lane]) lane++;
  report(w, p->store ? CR_ST_REG_OVERWRITE : CR_LD_REG_OVERWRITE, in, lane, (who){p->insn, (int)w->id, -1},
         "a %s register of the %s is overwritten before tcgen05.wait::%s", p->store ? "source" : "destination",
         p->store ? "tcgen05.st" : "tcgen05.ld", p->store ? "st" : "ld");
  memcpy(snap, r, 32 * sizeof *snap);
}

void chk_after(const chk_warp *w, const chk_insn *in) {
  chk_cta *k = w->k;
  if (!k) return;
  unsigned wi = w->id;
  uint32_t self = (uint32_t)(in - k->code);
  if (k->wgs && k->wgs[wi].n) wgmma_reads(k, w, in);
  bool fresh = k->pois_new >> wi & 1; /* chk_tmem_poison just marked this tcgen05.ld's registers */
  k->pois_new &= ~(1u << wi);
  if (!k->npend[wi] && !k->npois[wi]) return;
  /* only registers the instruction names can be read or written by it:
   * flag those with entries (bit 15 of their mark), look no further if none */
  uint16_t *mk = k->rmark + (size_t)wi * k->nregs;
  bool hit = false;
  /* dup: a register of the warp in two pend entries; the flags are needed
   * then only (without, a register's pslot entry, valid after ld_reads,
   * says as much: ld_reads only removes entries) */
  bool dup = k->pdup >> wi & 1;
  if (dup) {
    EACH_REG(k, in, {
      if (reg < k->nregs && mk[reg]) mk[reg] |= 0x8000u, hit = true;
    });
  } else {
    EACH_REG(k, in, {
      if (reg < k->nregs && mk[reg]) {
        hit = true;
        break;
      }
    });
  }
  if (in->guard != CHK_NOREG && in->guard < k->nregs && mk[in->guard]) hit = true;
  if (!hit) return;
  uint32_t lanes = executed(w, in);
  ld_reads(k, w, in, self, lanes);
  if (k->npois[wi] && !fresh) poison_uses(k, w, in, lanes);
  /* the snapshots of the pending registers it names: an overwrite */
  if (k->pdup >> wi & 1) {
    for (unsigned i = 0; i < k->npend[wi]; i++)
      if (k->pend[wi][i].insn != self && k->pend[wi][i].reg < k->nregs && (mk[k->pend[wi][i].reg] & 0x8000u))
        overwrite_check(w, in, &k->pend[wi][i]);
  } else {
    EACH_REG(k, in, {
      uint16_t sl = reg < k->nregs && (!dup || (mk[reg] & 0x8000u)) ? *pslot_of(k, wi, reg) : 0;
      if (sl && sl <= k->npend[wi] && k->pend[wi][sl - 1].reg == reg && k->pend[wi][sl - 1].insn != self)
        overwrite_check(w, in, &k->pend[wi][sl - 1]);
    });
  }
  if (dup)
    EACH_REG(k, in, {
      if (reg < k->nregs) mk[reg] &= 0x7FFFu;
    });
  *w->pending = chk_follows(k, wi);
}

void chk_dealloc(const chk_warp *w, const chk_insn *in, uint32_t taddr, uint32_t ncols) {
  chk_cta *k = w->k;
  if (!k) return;
  const uint32_t *vc = VC(k, k->vc, w->id);
  uint32_t c0 = TC5_TMEM_COL(taddr);
  bool told = false;
  for (uint32_t h = 0; h < 8; h++)
    for (uint32_t c = c0; c < c0 + ncols && c < 512; c++) {
      uint32_t g = h * 512 + c, q = h / 2;
      uint32_t ids[2] = {k->tm_w[g], k->tm_r[g]};
      for (int i = 0; i < 2 && !told; i++) {
        if (ids[i] && known(k, vc, &k->op[ids[i]]) && fence_due(k, w, &k->op[ids[i]])) {
          char acc[96];
          snprintf(acc, sizeof acc, "tcgen05.dealloc frees Tensor Memory column %u", c);
          told = fence_warning(k, w, in, -1, &k->op[ids[i]], acc);
        }
        if (ids[i] && !known(k, vc, &k->op[ids[i]])) {
          const chk_op *p = &k->op[ids[i]];
          if (!k->strict && p->kind == OK_MMA) { /* reported if Tensor Memory is used after it */
            if (k->ndefer < 4) k->defer[k->ndefer++] = (struct chk_defer){*w, (uint32_t)(in - k->code), ids[i], c};
            told = true;
            continue;
          }
          report(w, CR_DEALLOC_INFLIGHT, in, -1, of_op(p),
                 "tcgen05.dealloc frees Tensor Memory column %u (lanes %u-%u) while the %s that accesses it is not "
                 "known complete to this warp", c, q * 32, q * 32 + 31, op_name(p));
          told = true;
        }
      }
      k->tm_w[g] = k->tm_r[g] = 0;
    }
}

void chk_dealloc_used(chk_cta *k) {
  if (!k || !k->ndefer) return;
  for (unsigned i = 0; i < k->ndefer; i++) {
    const struct chk_defer *d = &k->defer[i];
    const chk_op *p = &k->op[d->op];
    report(&d->w, CR_DEALLOC_INFLIGHT, &k->code[d->insn], -1, of_op(p),
           "tcgen05.dealloc frees Tensor Memory column %u while the %s that accesses it is not known complete to "
           "this warp, and the CTA uses Tensor Memory after it", d->col, op_name(p));
  }
  k->ndefer = 0;
}


/* ---- mbarriers and barriers ---- */
static chk_mb *mb_of(chk_cta *k, const chk_mbar *mb) {
  unsigned i = mb->idx;
  while (k->nmb <= i) {
    if (!ROOM(k->mb, k->nmb, k->mb_cap, 16)) return NULL;
    uint32_t *v = calloc((size_t)6 * k->nvc + k->n, 4);
    if (!v) return NULL;
    chk_mb *x = &k->mb[k->nmb++];
    x->cur = v, x->cur_s = v + k->nvc, x->last = v + 2 * k->nvc, x->last_s = v + 3 * k->nvc;
    x->prev = v + 4 * k->nvc, x->prev_s = v + 5 * k->nvc;
    x->seen = v + 6 * k->nvc;
    x->xph = NULL;
    x->xk = NULL; /* issue 53: allocated when a commit targets the mbarrier */
  }
  return &k->mb[i];
}

void chk_mbar_init(const chk_warp *w, const chk_mbar *mb) {
  chk_cta *k = w->k;
  if (!k) return;
  chk_mb *x = mb_of(k, mb);
  if (x) memset(x->cur, 0, ((size_t)6 * k->nvc + k->n) * 4);
  if (x && x->xph) memset(x->xph, 0, 3 * sizeof *x->xph);
  if (x && x->xk) memset(x->xk, 0, XK_N * 3 * 4);
}

/* a phase completed: its arrivals become what a wait on it acquires */
static void phase_done(chk_cta *k, chk_mb *x) {
  memcpy(x->prev, x->last, k->nvc * 4);
  memcpy(x->prev_s, x->last_s, k->nvc * 4);
  join(x->last, x->cur, k->nvc);
  join(x->last_s, x->cur_s, k->nvc);
  memset(x->cur, 0, k->nvc * 4);
  memset(x->cur_s, 0, k->nvc * 4);
  xscope_phase_done(x);
  if (x->xk) xk_phase_done(x->xk);
}

void chk_mbar_arrive(const chk_warp *w, const chk_insn *in, int lane, const chk_mbar *mb, uint32_t phase_before, bool commit,
                     uint32_t *spill) {
  chk_cta *k = w->k;
  if (!k) return;
  unsigned wi = w->id;
  if (spill && *spill == mb->idx + 1)
    report(w, CR_MBAR_OVER_ARRIVAL, in, lane, nobody(),
           "this instruction's threads arrive on the mbarrier at shared 0x%x more often than its phase expects (%u "
           "arrivals): an earlier thread of the same instruction completed phase %u and this arrival counts "
           "towards the next", mb->addr, mb->expected, phase_before - 1);
  if (commit) {
    if (k->mma_lanes[wi] & ~(1u << lane))
      report(w, CR_COMMIT_OTHER, in, lane, nobody(),
             "tcgen05.commit by thread %u does not track the tcgen05.mma issued by thread(s) 0x%08x of warp %u and not "
             "yet committed", wi * 32 + (unsigned)lane, k->mma_lanes[wi] & ~(1u << lane), wi);
    k->mma_lanes[wi] = 0;
  }
  chk_mb *x = mb_of(k, mb);
  if (!x) return;
  uint32_t ds[CHK_CLOCKS * 32];
  contribution(k, wi, commit, k->scratch, ds);
  join(x->cur, k->scratch, k->nvc);
  join(x->cur_s, ds, k->nvc);
  VC(k, k->vc, wi)[VT(k, wi)]++;
  k->last_ev[wi] = 0;
  if (mb->phase != phase_before) { /* the phase completed */
    phase_done(k, x);
    if (spill) *spill = mb->idx + 1;
  }
}

/* a release of warp w into barrier slot `slot` (bar.sync's ids,
 * barrier.cluster's, the exports): what it knows joins the slot, and its
 * own clock moves past the release */
static void release_into(const chk_warp *w, bool commit, uint32_t slot) {
  chk_cta *k = w->k;
  if (!k || slot >= CHK_BARS) return;
  uint32_t ds[CHK_CLOCKS * 32];
  contribution(k, w->id, commit, k->scratch, ds);
  join(k->bar + (size_t)slot * k->nvc, k->scratch, k->nvc);
  join(k->bar_s + (size_t)slot * k->nvc, ds, k->nvc);
  VC(k, k->vc, w->id)[VT(k, w->id)]++;
  k->last_ev[w->id] = 0;
}

void chk_export(const chk_warp *w, bool commit) {
  xcta_release(w);
  release_into(w, commit, CHK_EXPORT_BAR);
}

void chk_mbar_remote(chk_cta *k, const chk_mbar *mb, uint32_t phase_before) {
  if (!k) return;
  chk_mb *x = mb_of(k, mb);
  if (!x) return;
  join(x->cur, k->bar + (size_t)CHK_EXPORT_BAR * k->nvc, k->nvc);
  join(x->cur_s, k->bar_s + (size_t)CHK_EXPORT_BAR * k->nvc, k->nvc);
  if (mb->phase != phase_before) phase_done(k, x);
}

void chk_mbar_observe(const chk_warp *w, const chk_insn *in, const chk_mbar *mb, unsigned parity) {
  chk_cta *k = w->k;
  if (!k) return;
  chk_mb *x = mb_of(k, mb);
  uint32_t ph = mb->phase;
  /* no phase of this parity completed yet: the wait passes on the phase
   * "before the first" (CUTLASS's producers start so): nothing to acquire */
  if (!x || !ph || (ph == 1 && (parity & 1) != 0)) return;
  bool last = ((ph - 1) & 1) == (parity & 1);
  uint32_t c = last ? ph - 1 : ph - 2; /* the phase observed */
  if (x->seen[w->id] && c + 1 <= x->seen[w->id])
    report(w, CR_MBAR_PHASE_REUSED, in, -1, nobody(),
           "the wait on the mbarrier at shared 0x%x passes on phase %u, which this warp already observed (the "
           "mbarrier is at phase %u): if it meant phase %u, the parity aliased", mb->addr, c, ph, c + 2);
  x->seen[w->id] = c + 1;
  acquire(k, w->id, last ? x->last : x->prev, last ? x->last_s : x->prev_s);
  if (k->ntma > 1) tma_observed(k, w->id, mb->idx, c);
  if (x->xph) xscope_observe(k, w->id, &x->xph[last ? 1 : 2]);
  xcta_acquired(k, w->id, x->xk ? x->xk + (last ? 1 : 2) * XK_N : NULL, false);
}

void chk_bar_arrive(const chk_warp *w, uint32_t id) { release_into(w, false, id); }

void chk_bar_done(chk_cta *k, uint32_t id, uint32_t waiting) {
  if (!k || id >= CHK_BARS) return;
  uint32_t *b = k->bar + (size_t)id * k->nvc, *bs = k->bar_s + (size_t)id * k->nvc;
  for (unsigned w = 0; w < k->n; w++)
    if (waiting >> w & 1) acquire(k, w, b, bs);
  memset(b, 0, k->nvc * 4);
  memset(bs, 0, k->nvc * 4);
}

/* barrier.cluster: slot CHK_CLUSTER_BAR gathers the phase's releases, slot
 * CHK_CLUSTER_BAR + 1 keeps the completed phase for the waits (a warp
 * waits before it can arrive in the next phase, which cannot complete
 * before every warp has) */
void chk_cluster_arrive(const chk_warp *w) {
  xcta_publish(w);
  chk_bar_arrive(w, CHK_CLUSTER_BAR);
  if (w->k && w->k->xs) w->k->xs->xcl = ++w->k->xs->xtime; /* a release at cluster scope (issue 53) */
}
void chk_cluster_done(chk_cta *k) {
  if (!k) return;
  if (k->xs) k->xs->xcl_done = k->xs->xcl; /* the completed phase's releases (issue 53) */
  size_t n = k->nvc, from = (size_t)CHK_CLUSTER_BAR * n, to = from + n;
  memcpy(k->bar + to, k->bar + from, n * 4);
  memcpy(k->bar_s + to, k->bar_s + from, n * 4);
  memset(k->bar + from, 0, n * 4);
  memset(k->bar_s + from, 0, n * 4);
}
void chk_cluster_wait(const chk_warp *w) {
  chk_cta *k = w->k;
  if (!k) return;
  size_t at = (size_t)(CHK_CLUSTER_BAR + 1) * k->nvc;
  acquire(k, w->id, k->bar + at, k->bar_s + at);
  for (uint32_t r = 0; k->xs && r < k->npeers && r < CHK_XRANKS; r++) /* every CTA's arrival: at cluster scope */
    if (k->peers[r] && k->peers[r] != k && k->peers[r]->xs && k->xs->wide[r] < k->peers[r]->xs->xcl_done)
      k->xs->wide[r] = k->peers[r]->xs->xcl_done;
  xcta_acquired(k, w->id, NULL, true);
}

/* ---- mbarrier.arrive.relaxed (issue 33) ---- */
/* An arrival with .relaxed has no memory ordering (9.7.13.15.13): nothing
 * the warp knows joins the phase (ConSan's "relaxed" cluster barrier, which
 * Triton lowers in warp-specialised partitions to mbarrier.arrive.relaxed
 * .cluster, publishes nothing either: test_fence_async_shared_across_warp_
 * specialize, test_ws_cluster_barrier_does_not_replace_local_handoff). The
 * phase may complete: what the other arrivals released is acquired by its
 * waiters as before. */
void chk_mbar_arrive_relaxed(const chk_warp *w, const chk_insn *in, int lane, const chk_mbar *mb, uint32_t phase_before,
                             uint32_t *spill) {
  chk_cta *k = w->k;
  if (!k) return;
  if (spill && *spill == mb->idx + 1)
    report(w, CR_MBAR_OVER_ARRIVAL, in, lane, nobody(),
           "this instruction's threads arrive on the mbarrier at shared 0x%x more often than its phase expects (%u "
           "arrivals): an earlier thread of the same instruction completed phase %u and this arrival counts "
           "towards the next", mb->addr, mb->expected, phase_before - 1);
  chk_mb *x = mb_of(k, mb);
  if (x && mb->phase != phase_before) {
    phase_done(k, x);
    if (spill) *spill = mb->idx + 1;
  }
}

/* ---- the cluster's shadow across CTAs (issue 53) ----
 * ConSan's three cross-CTA cases: what another CTA's copy writes into this
 * CTA's shared memory, and a CTA pair's copy into this CTA that completes on
 * the leader's mbarrier, are checked in this CTA's shadow:
 * - xcta_war: a copy of another CTA (a multicast TMA) writes granules that
 *   warps of this CTA read; a reading warp that released nothing since its
 *   read (no barrier.cluster.arrive without .relaxed, mbarrier arrive,
 *   bar.sync, commit) is not ordered before the copy: smem-race, write
 *   after read across CTAs (test_cluster_barrier_does_not_publish_later_
 *   read). As for chk_xrace_local, any release counts (whether the copying
 *   CTA acquired it is not followed): a race may be missed, none invented.
 * - xcta_overwrite: a copy of another CTA overwrites granules that a
 *   tcgen05.mma of this CTA reads, and the copying CTA does not know that
 *   MMA complete: no commit of it arrived on an mbarrier whose phase a warp
 *   of the copying CTA observed (chk_commit_target, xmma), nor did a
 *   barrier.cluster pass it on (xcta_publish): smem-overwrite-inflight
 *   (test_tma_tcgen05_mma_missing_multicast: the commit is not multicast to
 *   the CTAs whose multicast TMA refills the operands).
 * - chk_tma_load_remote: a CTA pair's copy into the peer completes on the
 *   leader's mbarrier, which the peer's warps cannot wait on; it is in
 *   flight for them until one acquires from the cluster after it (a
 *   barrier.cluster wait, an mbarrier wait): a load of it before that is
 *   async-dst-inflight (test_collapsed_wait_does_not_publish_peer_cta: only
 *   the leader waits).
 * - xpair_overwrite: a pair MMA's reads of the peer CTA's half are kept in
 *   the peer's shadow (xpair_reads); a write there before the MMA is known
 *   complete to the writer's CTA: smem-overwrite-inflight.
 * Not followed: knowledge passed on by an ordinary remote mbarrier arrival
 * (only commits and barrier.cluster carry it). */
static void xcta_reset(chk_cta *k) {
  k->ntma_remote = 0;
  memset(k->xscan, 0, sizeof k->xscan), memset(k->xrel, 0, sizeof k->xrel);
  if (k->xmma) memset(k->xmma, 0, (size_t)XK_N * 2 * 4);
  for (unsigned i = 0; i < k->nmb; i++)
    if (k->mb[i].xk) memset(k->mb[i].xk, 0, (size_t)XK_N * 3 * 4);
}
static uint32_t *xmma_of(chk_cta *k) {
  if (!k->xmma) k->xmma = calloc((size_t)XK_N * 2, 4); /* what it knows, then what it published */
  return k->xmma;
}
/* an mbarrier phase completed: its commits become what a wait acquires */
static void xk_phase_done(uint32_t *xk) {
  memcpy(xk + 2 * XK_N, xk + XK_N, (size_t)XK_N * 4);
  join(xk + XK_N, xk, XK_N);
  memset(xk, 0, (size_t)XK_N * 4);
}
/* warp wi of k acquired from the cluster (an mbarrier wait, whose phase's
 * commits of other CTAs' MMAs are xk (NULL: none), or a barrier.cluster
 * wait) */
static void xcta_acquired(chk_cta *k, unsigned wi, const uint32_t *xk, bool cluster) {
  if (xk && xmma_of(k)) join(k->xmma, xk, XK_N);
  if (cluster)
    for (uint32_t r = 0; r < k->npeers; r++) {
      const chk_cta *p = k->peers[r];
      if (p && p->xmma && xmma_of(k)) join(k->xmma, p->xmma + XK_N, XK_N);
    }
  if (!k->ntma_remote || wi >= 32) return;
  /* the copies issued since this warp's last acquire (xscan: where it stopped) */
  for (uint32_t j = k->xscan[wi] > 1 ? k->xscan[wi] : 1; j < k->ntma; j++) {
    struct chk_tma *x = &k->tma[j];
    if (x->remote && !x->kclock[wi]) x->kclock[wi] = VC(k, k->vc, wi)[VT(k, wi)] + 1;
  }
  k->xscan[wi] = k->ntma;
}
/* barrier.cluster.arrive (not .relaxed) of warp w: what its CTA knows of
 * MMAs complete (other CTAs' through commits, its own through w's clock)
 * is released to the cluster */
static void xcta_publish(const chk_warp *w) {
  chk_cta *k = w->k;
  xcta_release(w);
  if (!k || k->rank >= 16 || !xmma_of(k)) return;
  uint32_t *pub = k->xmma + XK_N;
  join(pub, k->xmma, XK_N);
  const uint32_t *vc = VC(k, k->vc, w->id);
  for (unsigned x = 0; x < k->n; x++)
    if (pub[k->rank * 32 + x] < vc[VM(k, x)]) pub[k->rank * 32 + x] = vc[VM(k, x)];
}
/* a release of warp w that another CTA can acquire (barrier.cluster.arrive
 * without .relaxed, an arrival on another CTA's mbarrier or a multicast
 * commit, a fence): its reads so far, and the reads of the CTA's warps that
 * it knows of (a bar.sync or an mbarrier of the CTA before it: the release
 * is cumulative), are ordered for xcta_war; on its own, a bar.sync or an
 * arrival on the CTA's own mbarrier is a release at CTA scope only */
static void xcta_release(const chk_warp *w) {
  chk_cta *k = w->k;
  if (!k) return;
  const uint32_t *vc = VC(k, k->vc, w->id);
  for (unsigned p = 0; p < k->n && p < 32; p++)
    if (k->xrel[p] < vc[VT(k, p)]) k->xrel[p] = vc[VT(k, p)];
}
void chk_cluster_arrive_relaxed(const chk_warp *w) {
  chk_cta *k = w->k;
  if (!k) return;
  /* its clock stays (it releases nothing: chk_xrace_local counts clock
   * moves): reads after it up to the warp's next release count too */
  xcta_release(w);
}
void chk_commit_target(const chk_warp *w, chk_cta *d, const chk_mbar *mb) {
  chk_cta *k = w->k;
  /* a commit to the CTA's own mbarrier tells its warps of their own MMAs
   * (the clocks say it): recorded only for other CTAs */
  if (!k || !d || d == k || !mb || k->rank >= 16 || w->id >= 32) return;
  chk_mb *x = mb_of(d, mb);
  if (!x || (!x->xk && !(x->xk = calloc((size_t)XK_N * 3, 4)))) return;
  uint32_t *c = &x->xk[k->rank * 32 + w->id];
  if (*c < k->mma_n[w->id]) *c = k->mma_n[w->id];
}
void chk_tma_load_remote(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n) {
  chk_cta *k = t;
  if (!k || !n || !ROOM(k->tma, k->ntma, k->tma_cap, 64)) return;
  uint32_t id = k->ntma++;
  struct chk_tma *x = &k->tma[id];
  memset(x, 0, sizeof *x);
  x->insn = (uint32_t)(in - k->code), x->mb = UINT32_MAX, x->remote = 1;
  x->warp = (uint8_t)w->id, x->lane = (uint8_t)(lane < 0 ? 0 : lane);
  k->ntma_remote++;
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++) k->tma_w[g] = id, k->rg[g].busy = 1;
}
static void xcta_war(const chk_warp *w, chk_cta *k, const chk_insn *in, int lane, uint32_t g, uint32_t z) {
  for (; g <= z; g++) {
    struct chk_rg *q = &k->rg[g];
    for (int s = 0; s < 2; s++) {
      const chk_ev *p = q->r[s] ? &k->ev[q->r[s]] : NULL;
      if (!p || p->warp >= 32 || k->xrel[p->warp] >= p->tclock) continue; /* released to the cluster since */
      report(w, CR_SMEM_RACE, in, lane, of_ev(p),
             "this copy writes shared memory 0x%x of the cluster's CTA rank %u, which warp %u of that CTA read and "
             "released nothing to the cluster since (no barrier.cluster.arrive without .relaxed, arrival on another "
             "CTA's mbarrier or fence; bar.sync and its own mbarriers are CTA-scoped): nothing orders the read "
             "before the copy (a write-after-read data race across CTAs)",
             g * GRAN + (unsigned)__builtin_ctz(q->rm[s] ? q->rm[s] : 1), k->rank, p->warp);
      q->r[s] = 0; /* reported once */
    }
  }
}
static void xcta_overwrite(const chk_warp *w, chk_cta *k, const chk_insn *in, int lane, uint32_t g, uint32_t off,
                           const char *by) {
  const chk_op *o = &k->op[k->sm_r[g]];
  const chk_cta *y = w->k;
  if (o->kind != OK_MMA || k->rank >= 16 || o->warp >= 32 || !y) return;
  if (y->xmma && y->xmma[k->rank * 32 + o->warp] >= o->idx) return;
  report(w, CR_SMEM_OVERWRITE, in, lane, of_op(o),
         "shared memory 0x%x of the cluster's CTA rank %u is overwritten%s of CTA rank %u while the tcgen05.mma of "
         "CTA rank %u (warp %u) that reads it is not known complete to CTA rank %u: no commit of it arrived on an "
         "mbarrier this CTA observed", g * GRAN > off ? g * GRAN : off, k->rank, by, y->rank, k->rank, o->warp, y->rank);
  k->sm_r[g] = 0; /* reported once */
}

/* a CTA pair's MMA (operation id of CTA k) reads the peer's half of its
 * operands, at the granules of e in the peer's shared memory (the same
 * descriptors: issue 53): recorded in the peer's shadow, so that a write
 * there before the MMA is known complete to the writer is seen */
static void xpair_reads(chk_cta *k, chk_cta *p, const chk_desc_cache *e, uint32_t id) {
  if (!p || p == k || !e || !e->n || k->rank >= 255) return;
  if (!p->pr_cta) {
    p->pr_cta = calloc(p->ngran ? p->ngran : 1, 1);
    p->pr_op = p->pr_cta ? calloc(p->ngran ? p->ngran : 1, 4) : NULL;
    if (!p->pr_op) {
      free(p->pr_cta), p->pr_cta = NULL;
      return;
    }
  }
  for (uint32_t i = 0; i < e->n; i++)
    if (e->g[i] < p->ngran) p->pr_cta[e->g[i]] = (uint8_t)(k->rank + 1), p->pr_op[e->g[i]] = id;
}
/* granule g of CTA k written (by warp w of its own CTA or, a copy, of
 * another) while the peer's pair MMA that reads it may be in flight: known
 * complete to the writer's CTA through a commit observed (xmma: a commit
 * arrived on an mbarrier of that CTA whose phase a warp observed, or a
 * barrier.cluster passed it on), or to the writer itself when it is of the
 * MMA's CTA (its clocks) */
static void xpair_overwrite(const chk_warp *w, chk_cta *k, const chk_insn *in, int lane, uint32_t g, uint32_t off,
                            const char *by) {
  uint32_t r = k->pr_cta[g] - 1u;
  const chk_cta *m = r < k->npeers ? k->peers[r] : NULL, *y = w->k;
  if (!m || !y || m == k || k->pr_op[g] >= m->nop) return;
  const chk_op *o = &m->op[k->pr_op[g]];
  if (o->kind != OK_MMA || o->warp >= 32) return;
  bool done = y == m ? known(m, VC(m, m->vc, w->id), o) : y->xmma && y->xmma[r * 32 + o->warp] >= o->idx;
  if (!done)
    report(w, CR_SMEM_OVERWRITE, in, lane, of_op(o),
           "shared memory 0x%x of the cluster's CTA rank %u is overwritten%s by CTA rank %u while the "
           "tcgen05.mma.cta_group::2 of CTA rank %u (warp %u) that reads it (the pair's half in CTA rank %u) is not "
           "known complete to CTA rank %u: no commit of it arrived on an mbarrier this CTA observed",
           g * GRAN > off ? g * GRAN : off, k->rank, by, y->rank, r, o->warp, k->rank, y->rank);
  k->pr_cta[g] = 0; /* reported once, or known complete */
}

/* ---- smem-race across the CTAs of a cluster (issue 33) ---- */
/* Each CTA's happens-before covers its own warps; a weak access of another
 * CTA's warp to this CTA's shared memory (ld/st.shared::cluster, a generic
 * address from mapa) is kept per granule with what that warp had released
 * then: its release clock T (barrier.cluster.arrive without .relaxed, bar
 * arrivals, mbarrier arrivals without .relaxed, commits) and its fences. A
 * later conflicting access of this CTA (a store after the remote load, or any
 * access after a remote store) with no release of the remote warp since is a
 * race: nothing can order the two (8.6; ConSan's test_local_indexed_cross_
 * cta_visibility: the peer's gather, then a relaxed cluster barrier, then the
 * store). Any release of the remote warp since counts as ordering (whether
 * this CTA acquired it is not followed): a race may be missed, none is
 * invented. Not followed: a remote access after a local one. */
static struct chk_xr *xr_of(chk_cta *k) {
  if (!k->xr) k->xr = calloc(k->ngran ? k->ngran : 1, sizeof *k->xr);
  return k->xr;
}
void chk_xrace_free(chk_cta *k) { free(k->xr), free(k->xfence); }
void chk_xrace_reset(chk_cta *k) {
  if (k->xr) memset(k->xr, 0, (k->ngran ? k->ngran : 1) * sizeof *k->xr);
  if (k->xfence) memset(k->xfence, 0, k->n * 4);
  k->nxr = 0;
}
static uint32_t xfences(chk_cta *k, unsigned wi) { return k->xfence ? k->xfence[wi] : 0; }
void chk_fence_order(const chk_warp *w) {
  chk_cta *k = w->k;
  if (!k) return;
  if (!k->xfence) k->xfence = calloc(k->n, 4);
  if (k->xfence) k->xfence[w->id]++;
  xcta_release(w);
}
void chk_remote_access(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t off, uint32_t n, bool write) {
  chk_cta *k = t, *src = w->k;
  if (!k || !src || !n || !in || chk_iclass(in) != 1) return;
  if (!write) xscope_reads(src, w, in, lane, k, NULL, off, n, "ld.shared::cluster"); /* issue 53 */
  if (write) spois_clear(k, off, n);
  else spois_read(k, w, in, lane, off, n, "another CTA's ");
  struct chk_xr *xr = xr_of(k);
  if (!xr) return;
  unsigned wi = w->id;
  uint32_t tc = VC(src, src->vc, wi)[VT(src, wi)], f = xfences(src, wi), insn = (uint32_t)(in - k->code);
  uint8_t cta1 = (uint8_t)(w->k->rank + 1);
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++) {
    struct chk_xr *r = &xr[g];
    uint16_t m = chk_gran_mask(g, off, n);
    if (r->cta1 == cta1 && r->warp == wi && r->t == tc && r->f == f && r->write == write) {
      r->m |= m;
      continue;
    }
    if (!r->cta1) k->nxr++;
    *r = (struct chk_xr){tc, f, insn, m, cta1, (uint8_t)wi, (uint8_t)(lane < 0 ? 0 : lane), write};
  }
}
void chk_xrace_local(const chk_warp *w, const chk_insn *in, int lane, uint32_t off, uint32_t n, bool write) {
  chk_cta *k = w->k;
  if (!k || !k->nxr || !k->xr || !n || !in || chk_iclass(in) != 1) return;
  for (uint32_t g = off / GRAN; g <= (off + n - 1) / GRAN && g < k->ngran; g++) {
    struct chk_xr *r = &k->xr[g];
    uint16_t m = chk_gran_mask(g, off, n);
    /* write after write is not followed (as within a CTA) */
    if (!r->cta1 || !(r->m & m) || write == (r->write != 0)) continue;
    chk_cta *o = r->cta1 - 1u < k->npeers ? k->peers[r->cta1 - 1] : NULL;
    bool released = !o || VC(o, o->vc, r->warp)[VT(o, r->warp)] > r->t || xfences(o, r->warp) > r->f;
    if (!released)
      report(w, CR_SMEM_RACE, in, lane, (who){r->insn, r->warp, r->lane},
             "this %s of shared memory 0x%x and the %s of it by warp %u of the cluster's CTA rank %u are not "
             "ordered: that warp released nothing after its access (no barrier.cluster.arrive without .relaxed, "
             "mbarrier arrive or fence; a .relaxed arrival releases nothing) (a %s data race across CTAs)",
             write ? "store" : "load", g * GRAN + (unsigned)__builtin_ctz(m & r->m),
             r->write ? "store" : "load (ld.shared::cluster)", r->warp, r->cta1 - 1u,
             write ? "write-after-read" : "read-after-write");
    r->cta1 = 0;
    if (k->nxr) k->nxr--;
  }
}

/* ---- scopes across the CTAs of a cluster (issue 53) ----
 * Each CTA counts its releases to other CTAs (xtime). An mbarrier's phase
 * gathers, per arriving CTA, the time of its latest arrival at cluster
 * scope or wider and of its latest .cta-scoped one; a warp that observes
 * the phase acquires them: the wide ones for its whole CTA (so that no
 * barrier of this CTA is needed for the check to see them: never a false
 * alarm for want of one), the .cta-scoped ones for itself. A read of a
 * peer's granule written (1 + time) by a copy completed in the peer is
 * release-scope when this warp acquired a .cta-scoped arrival of the peer
 * made after the write and this CTA no release at cluster scope of the
 * peer made after it: the only arrival ordering the write before the read
 * does not include the reading thread. Generic stores and copies that
 * complete on another CTA's mbarrier (a multicast, a 2-CTA TMA signalling
 * the leader: their complete_tx orders them) are not followed. */
static void chk_xscope_reset(chk_cta *k) {
  chk_xs *x = k->xs;
  if (!x) return;
  x->xtime = x->xcl = x->xcl_done = 0;
  memset(x->wt, 0, (k->ngran ? k->ngran : 1) * 4);
  memset(x->wide, 0, sizeof x->wide);
  memset(x->nar, 0, k->n * sizeof *x->nar);
  memset(x->fenced, 0, k->n * sizeof *x->fenced);
}
static void xscope_phase_done(chk_mb *x) {
  if (!x->xph) return;
  struct chk_xph *c = &x->xph[0], *l = &x->xph[1];
  x->xph[2] = *l;
  for (unsigned r = 0; r < CHK_XRANKS; r++) {
    if (l->wide[r] < c->wide[r]) l->wide[r] = c->wide[r];
    if (l->nar[r].t < c->nar[r].t) l->nar[r] = c->nar[r];
  }
  memset(c, 0, sizeof *c);
}
static void xscope_observe(chk_cta *k, unsigned wi, const struct chk_xph *ph) {
  if (!k->xs) return;
  for (unsigned r = 0; r < CHK_XRANKS; r++) {
    if (k->xs->wide[r] < ph->wide[r]) k->xs->wide[r] = ph->wide[r];
    if (k->xs->nar[wi][r].t < ph->nar[r].t) k->xs->nar[wi][r] = ph->nar[r];
  }
}
void chk_xscope_arrive(const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, const chk_mbar *mb) {
  chk_cta *k = w->k;
  if (!k || !t || t == k || !k->xs || k->rank >= CHK_XRANKS) return;
  chk_mb *x = mb_of(t, mb);
  if (!x) return;
  if (!x->xph && !(x->xph = calloc(3, sizeof *x->xph))) return;
  uint32_t now = ++k->xs->xtime, f = k->xs->fenced[w->id];
  struct chk_xph *c = &x->xph[0];
  /* only a written .cta scope: the default one of a remote arrival is taken at cluster scope, as
   * CUTLASS's ClusterBarrier::arrive(cta_id) and CuTe DSL's 2-CTA kernels (FA4's backward relay)
   * emit it for cross-CTA relays that run on B200s (docs/spec-departures.md) */
  if (in && in->traits.scope == ISC_CTA && (in->traits.set & ITS_SCOPE)) {
    c->nar[k->rank] = (chk_xn){now, (uint32_t)(in - k->code), (uint8_t)w->id, (uint8_t)(lane < 0 ? 0 : lane)};
    if (c->wide[k->rank] < f) c->wide[k->rank] = f; /* a fence at cluster scope before it releases what preceded the fence */
  } else {
    c->wide[k->rank] = now;
  }
}
void chk_xscope_fence(const chk_warp *w, const chk_insn *in) {
  chk_cta *k = w->k;
  if (!k || !k->xs || !in) return;
  if (in->traits.scope != ISC_CTA) k->xs->fenced[w->id] = ++k->xs->xtime; /* .cluster, .gpu, .sys (membar.gl / .sys) */
}
static bool xscope_gran(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, chk_cta *t, uint32_t g,
                        const char *what) {
  uint32_t r = t->rank, wt = g < t->ngran ? t->xs->wt[g] : 0;
  if (!wt || r >= CHK_XRANKS) return false;
  const chk_xn *nar = &k->xs->nar[w->id][r];
  if (nar->t < wt || k->xs->wide[r] >= wt) return false;
  report(w, CR_RELEASE_SCOPE, in, lane, (who){nar->insn, nar->warp, nar->lane},
         "%s reads shared memory 0x%x of the cluster's CTA rank %u, which a copy completed there wrote; this warp "
         "knows of that write only through the arrival of that CTA's warp %u on this CTA's mbarrier with scope "
         ".cta (the instruction below), whose release does not include this CTA's threads: nothing orders the "
         "write before this read (scope .cta, needed .cluster)",
         what, g * GRAN, r, nar->warp);
  return true;
}
static void xscope_reads(chk_cta *k, const chk_warp *w, const chk_insn *in, int lane, chk_cta *t,
                         const chk_desc_cache *e, uint32_t off, uint32_t n, const char *what) {
  if (!k->xs || !t || t == k || !t->xs) return;
  bool any = false; /* has this warp acquired any .cta-scoped arrival of t? */
  for (unsigned r = 0; r < CHK_XRANKS && !any; r++) any = k->xs->nar[w->id][r].t != 0;
  if (!any) return;
  if (e) {
    for (uint32_t i = 0; i < e->n; i++)
      if (xscope_gran(k, w, in, lane, t, e->g[i], what)) return;
  } else {
    for (uint32_t g = off / GRAN; n && g <= (off + n - 1) / GRAN; g++)
      if (xscope_gran(k, w, in, lane, t, g, what)) return;
  }
}
