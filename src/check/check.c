/* tc5 checker — happens-before tracking of the asynchronous tcgen05
 * operations, shared memory and Tensor Memory for the PTX runner (the model
 * is described in check_impl.h; the rules are rules.c's rows).
 *
 * The runner calls the hooks below from the instructions' semantics; each
 * finding is recorded once per (rule, instruction, earlier instruction) in
 * the launch's log and handed to the caller when the launch ends. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "check/check_impl.h"
#include "mma/mma_impl.h"
#include "tc5/descriptors.h"
#include "tc5/kind.h"
#include "tc5/layout.h"

const char *chk_rule_id(unsigned rule) {
  const tc5_check_rule *r;
  return tc5_check_rule_get(rule, &r) ? "?" : r->id;
}

/* ---- setup ---- */
tc5_status chk_new(ptx_chk **out, const ptx_launch *L) {
  ptx_chk *k = calloc(1, sizeof *k);
  if (!k) return TC5_ENOMEM;
  k->L = L;
  k->code = L->m->code;
  k->strict = L->cfg.check == TC5_CHECK_STRICT;
  k->n = L->warps_per_cta; /* at most 32 (1024 threads) */
  if (k->n > 32) {
    free(k);
    return TC5_EINVAL;
  }
  k->nvc = 4 * k->n;
  size_t V = (size_t)k->n * k->nvc;
  k->vc = calloc(V, 4), k->svc = calloc(V, 4), k->spend = calloc(V, 4);
  k->fence_seq = calloc(k->n, 4), k->mma_n = calloc(k->n, 4), k->ld_n = calloc(k->n, 4), k->st_n = calloc(k->n, 4);
  k->rel_l = calloc(k->n, 4), k->rel_s = calloc(k->n, 4), k->mma_lanes = calloc(k->n, 4), k->last_ev = calloc(k->n, 4);
  k->last_insn = calloc(k->n, 4);
  k->ngran = (L->shared_total + GRAN - 1) / GRAN;
  k->sm_w = calloc(k->ngran, 4), k->sm_r = calloc(k->ngran, 4);
  k->bar = calloc((size_t)CHK_BARS * k->nvc, 4), k->bar_s = calloc((size_t)CHK_BARS * k->nvc, 4);
  k->pend = calloc(k->n, sizeof *k->pend), k->npend = calloc(k->n, sizeof(uint32_t)),
  k->pend_cap = calloc(k->n, sizeof(uint32_t));
  k->scratch = calloc(k->nvc, 4);
  if (!k->vc || !k->svc || !k->spend || !k->fence_seq || !k->mma_n || !k->ld_n || !k->st_n || !k->rel_l ||
      !k->rel_s || !k->mma_lanes || !k->last_ev || !k->last_insn || !k->sm_w || !k->sm_r || !k->bar || !k->bar_s || !k->pend ||
      !k->npend || !k->pend_cap || !k->scratch) {
    chk_free(k);
    return TC5_ENOMEM;
  }
  *out = k;
  return TC5_OK;
}

void chk_free(ptx_chk *k) {
  if (!k) return;
  free(k->vc), free(k->svc), free(k->spend), free(k->fence_seq), free(k->mma_n), free(k->ld_n), free(k->st_n);
  free(k->rel_l), free(k->rel_s), free(k->mma_lanes), free(k->last_ev), free(k->last_insn), free(k->sm_w), free(k->sm_r);
  free(k->ev), free(k->op), free(k->bar), free(k->bar_s), free(k->scratch);
  for (unsigned i = 0; i < k->nmb; i++) free(k->mb[i].cur);
  free(k->mb);
  if (k->pend)
    for (unsigned w = 0; w < k->n; w++) free(k->pend[w]);
  free(k->pend), free(k->npend), free(k->pend_cap);
  for (unsigned i = 0; i < DESC_CACHE; i++) free(k->cache[i].g);
  if (k->wgs)
    for (unsigned w = 0; w < k->n; w++) free(k->wgs[w].reg), free(k->wgs[w].grp), free(k->wgs[w].insn);
  free(k->wgs);
  free(k);
}

void chk_reset(ptx_chk *k) {
  size_t V = (size_t)k->n * k->nvc;
  memset(k->vc, 0, V * 4), memset(k->svc, 0, V * 4), memset(k->spend, 0, V * 4);
  memset(k->fence_seq, 0, k->n * 4), memset(k->mma_n, 0, k->n * 4), memset(k->ld_n, 0, k->n * 4);
  memset(k->st_n, 0, k->n * 4), memset(k->rel_l, 0, k->n * 4), memset(k->rel_s, 0, k->n * 4);
  memset(k->mma_lanes, 0, k->n * 4), memset(k->last_ev, 0, k->n * 4);
  memset(k->sm_w, 0, k->ngran * 4), memset(k->sm_r, 0, k->ngran * 4);
  memset(k->tm_w, 0, sizeof k->tm_w), memset(k->tm_r, 0, sizeof k->tm_r);
  memset(k->bar, 0, (size_t)CHK_BARS * k->nvc * 4), memset(k->bar_s, 0, (size_t)CHK_BARS * k->nvc * 4);
  for (unsigned w = 0; w < k->n; w++) {
    k->npend[w] = 0;
    VC(k, k->vc, w)[VT(k, w)] = 1; /* stores before a warp's first release carry clock 1: unknown to others */
  }
  if (k->wgs)
    for (unsigned w = 0; w < k->n; w++) k->wgs[w].n = k->wgs[w].commits = 0;
  k->seq = 1;
  k->nev = 1; /* event and op 0 mean "none" */
  k->nop = 1;
  for (unsigned i = 0; i < k->nmb; i++) memset(k->mb[i].cur, 0, ((size_t)6 * k->nvc + k->n) * 4);
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

static void join(uint32_t *d, const uint32_t *s, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (s[i] > d[i]) d[i] = s[i];
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

static void report(ptx_warp *w, unsigned rule, const ptx_insn *in, int lane, who earlier, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static void report(ptx_warp *w, unsigned rule, const ptx_insn *in, int lane, who earlier, const char *fmt, ...) {
  ptx_cta *c = w->cta;
  ptx_launch *L = c->L;
  const tc5_ptx_module *m = L->m;
  const tc5_check_rule *r;
  tc5_check_rule_get(rule, &r);
  bool warning = r->severity == TC5_CHECK_WARNING;
  if (warning && L->cfg.check != TC5_CHECK_STRICT) return;
  uint32_t a = in ? (uint32_t)(in - m->code) : NOINSN, b = earlier.insn;
  chk_log *log = L->log;
  pthread_mutex_lock(L->lock);
  if (warning) log->warnings++;
  else log->errors++;
  for (unsigned i = 0; i < log->n; i++)
    if (log->keys[i].rule == rule && log->keys[i].a == a && log->keys[i].b == b) {
      log->f[i].count++;
      pthread_mutex_unlock(L->lock);
      return;
    }
  if (log->n == log->cap) {
    unsigned nc = log->cap ? log->cap * 2 : 16;
    if (nc > MAX_FINDINGS || log->n >= MAX_FINDINGS) {
      pthread_mutex_unlock(L->lock);
      return;
    }
    tc5_check_finding *nf = realloc(log->f, nc * sizeof *nf);
    if (nf) log->f = nf;
    struct chk_key *nk = realloc(log->keys, nc * sizeof *nk);
    if (nk) log->keys = nk;
    if (!nf || !nk) {
      pthread_mutex_unlock(L->lock);
      return;
    }
    log->cap = nc;
  }
  tc5_check_finding *f = &log->f[log->n];
  log->keys[log->n] = (struct chk_key){rule, a, b};
  log->n++;
  memset(f, 0, sizeof *f);
  f->rule = rule;
  f->warning = warning;
  f->line = in ? in->line : 0;
  f->line2 = b != NOINSN ? m->code[b].line : 0;
  if (in) ptx_insn_source(m, in, f->src, sizeof f->src);
  if (b != NOINSN) ptx_insn_source(m, &m->code[b], f->src2, sizeof f->src2);
  f->count = 1;
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
    o += (size_t)snprintf(f->text + o, sizeof f->text - o, "  at    %s:%u: %s (CTA (%u,%u,%u) warp %u, %s)\n", m->name,
                          in->line, ptx_insn_text(m, in), c->ctaid[0], c->ctaid[1], c->ctaid[2], w->id, thr);
  }
  if (o < sizeof f->text && b != NOINSN) {
    char thr[48] = "";
    if (earlier.lane >= 0) snprintf(thr, sizeof thr, ", thread %u", (unsigned)(earlier.warp * 32 + earlier.lane));
    else if (earlier.warp >= 0)
      snprintf(thr, sizeof thr, ", threads %u-%u", (unsigned)earlier.warp * 32, (unsigned)earlier.warp * 32 + 31);
    o += (size_t)snprintf(f->text + o, sizeof f->text - o, "  after %s:%u: %s (warp %d%s)\n", m->name, m->code[b].line,
                          ptx_insn_text(m, &m->code[b]), earlier.warp, thr);
  }
  if (o < sizeof f->text) snprintf(f->text + o, sizeof f->text - o, "  fix:  %s\n", r->fix);
  pthread_mutex_unlock(L->lock);
}

void chk_log_free(chk_log *log) {
  free(log->f);
  free(log->keys);
  memset(log, 0, sizeof *log);
}

/* ---- clock vectors ---- */
#define known chk_known
/* what warp w releases: its vector (default) and its strict vector, with
 * its own ld/st entries as of its last before_thread_sync (a commit adds
 * its MMAs: the commit's implicit fence) */
static void contribution(ptx_chk *k, unsigned w, bool commit, uint32_t *d, uint32_t *ds) {
  memcpy(d, VC(k, k->vc, w), k->nvc * 4);
  memcpy(ds, VC(k, k->svc, w), k->nvc * 4);
  ds[VL(k, w)] = k->rel_l[w];
  ds[VS(k, w)] = k->rel_s[w];
  if (commit) d[VM(k, w)] = ds[VM(k, w)] = k->mma_n[w];
}
static void acquire(ptx_chk *k, unsigned w, const uint32_t *v, const uint32_t *vs) {
  join(VC(k, k->vc, w), v, k->nvc);
  join(VC(k, k->spend, w), vs, k->nvc);
}

static uint32_t new_op(ptx_chk *k, ptx_warp *w, const ptx_insn *in, int lane, uint8_t kind, uint32_t idx) {
  if (!ROOM(k->op, k->nop, k->op_cap, 256)) return 0;
  k->op[k->nop] = (chk_op){(uint32_t)(in - k->code), idx, kind, (uint8_t)w->id, (uint8_t)(lane < 0 ? 0xFF : lane), 0};
  return k->nop++;
}

/* ---- shared memory ---- */
/* a new store event for warp wi at instruction insn (the warp's current
 * one until its next release, fence or instruction) */
static uint32_t store_event(ptx_chk *k, unsigned wi, uint32_t insn, int lane) {
  if (!ROOM(k->ev, k->nev, k->ev_cap, 1024)) return 0;
  uint32_t e = k->nev++;
  k->ev[e] = (chk_ev){k->seq, VC(k, k->vc, wi)[VT(k, wi)], insn, (uint8_t)wi, (uint8_t)(lane < 0 ? 0 : lane)};
  k->last_ev[wi] = e;
  k->last_insn[wi] = insn;
  return e;
}

/* granules g..z of CTA k's shared memory written (by store event e, 0 for
 * the async proxy); overwriting what a tcgen05.mma of the writer's own CTA
 * still reads is reported (own: the writer is of k's CTA) */
static void smem_written(ptx_warp *w, ptx_chk *k, bool own, const ptx_insn *in, int lane, uint32_t off, uint32_t g,
                         uint32_t z, uint32_t e, const char *by) {
  for (; g <= z; g++) {
    uint32_t r = k->sm_r[g];
    if (own && r && !known(k, VC(k, k->vc, w->id), &k->op[r])) {
      report(w, CR_SMEM_OVERWRITE, in, lane, of_op(&k->op[r]),
             "shared memory 0x%x is overwritten%s while the tcgen05.mma that reads it is not known complete to this "
             "thread", g * GRAN > off ? g * GRAN : off, by);
      k->sm_r[g] = 0; /* reported once */
    }
    k->sm_w[g] = e;
  }
}

void chk_smem_write(ptx_warp *w, const ptx_insn *in, int lane, uint32_t off, uint32_t n) {
  ptx_chk *k = w->cta->chk;
  if (!k || !n) return;
  unsigned wi = w->id;
  uint32_t e = k->last_ev[wi], insn = (uint32_t)(in - k->code);
  /* last_ev is cleared by the warp's releases and by fences */
  if (!e || k->last_insn[wi] != insn) e = store_event(k, wi, insn, lane);
  uint32_t g = off / GRAN, z = (off + n - 1) / GRAN;
  if (z >= k->ngran) return;
  smem_written(w, k, true, in, lane, off, g, z, e, "");
}

void chk_smem_async_write(ptx_warp *w, const ptx_insn *in, int lane, ptx_cta *t, uint32_t off, uint32_t n) {
  ptx_chk *k = t->chk;
  if (!k || !n) return;
  uint32_t g = off / GRAN, z = (off + n - 1) / GRAN;
  if (z >= k->ngran) z = k->ngran - 1;
  smem_written(w, k, t == w->cta, in, lane, off, g, z, 0, " by a copy");
}

void chk_smem_read(ptx_warp *w, const ptx_insn *in, int lane, uint32_t off, uint32_t n) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  const tc5_smem *s = &w->cta->smem;
  for (uint32_t b = off; b < off + n && b < s->size; b++)
    if (!(s->written[b >> 3] >> (b & 7) & 1)) {
      report(w, CR_SMEM_UNINIT, in, lane, nobody(), "shared memory 0x%x (%u bytes from 0x%x) is read but was never written",
             b, n, off);
      return;
    }
}

void chk_fence_proxy_async(ptx_warp *w) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  k->fence_seq[w->id] = ++k->seq;
  memset(k->last_ev, 0, k->n * 4); /* every store after this one is a new event (a new seq) */
}

/* the granules of shared memory rows x K elements of op through the
 * descriptor cover (cached under (desc, idesc, kind, which)) */
static const chk_desc_cache *granules(ptx_chk *k, uint64_t desc, uint32_t idesc, tc5_kind kind, unsigned which,
                                      const tc5_operand *opp, unsigned rows, unsigned K) {
  unsigned h = (unsigned)((desc * 0x9E3779B97F4A7C15ull ^ idesc * 31u ^ which) >> 58) % DESC_CACHE;
  chk_desc_cache *e = &k->cache[h];
  if (e->g && e->desc == desc && e->idesc == idesc && e->kind == (uint32_t)kind && e->which == which) return e;
  tc5_smem_desc sd;
  tc5_operand op = *opp;
  if (tc5_smem_desc_decode(desc, &sd, NULL)) return NULL;
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
static const chk_desc_cache *operand_granules(ptx_chk *k, uint64_t desc, uint32_t idesc, tc5_kind kind,
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
static void async_smem_reads(ptx_chk *k, ptx_warp *w, const ptx_insn *in, int lane, uint32_t id,
                             const chk_desc_cache *e, const char *op, const char *what) {
  const uint32_t *vc = VC(k, k->vc, w->id);
  uint32_t checked = 0;
  for (uint32_t i = 0; e && i < e->n; i++) {
    uint32_t g = e->g[i];
    if (g >= k->ngran) continue;
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
/* strict mode: o is ordered before warp w's operation only by a thread
 * synchronisation that lacks a tcgen05 fence (known in the default view,
 * not in the strict one): a fence warning, naming the fence missing (the
 * receiver's after_thread_sync when the knowledge arrived but was not
 * fenced, else the sender's before_thread_sync). `what` describes w's
 * access. Returns whether it reported. */
static bool fence_warning(ptx_chk *k, ptx_warp *w, const ptx_insn *in, int lane, const chk_op *o, const char *what) {
  if (!k->strict || known(k, VC(k, k->svc, w->id), o)) return false;
  bool via_after = known(k, VC(k, k->spend, w->id), o);
  report(w, via_after ? CR_FENCE_AFTER : CR_FENCE_BEFORE, in, lane, of_op(o),
         "%s, which an asynchronous tcgen05 operation accesses that is ordered before it only by a thread "
         "synchronisation without tcgen05.fence::%s_thread_sync", what, via_after ? "after" : "before");
  return true;
}

/* reader: -1 a tcgen05.ld, 0 a tcgen05.mma, 2 a tcgen05.shift; the
 * pipelined pairs of 9.7.16.6.2 from the same thread need no wait:
 * cp -> mma, shift -> mma, mma -> shift */
static bool tmem_read_check(ptx_chk *k, ptx_warp *w, const ptx_insn *in, int lane, uint32_t g, uint32_t lane0,
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
  char acc[96];
  snprintf(acc, sizeof acc, "%s reads Tensor Memory lane %u column %u", what, lane0, col);
  return fence_warning(k, w, in, lane, p, acc);
}
static bool tmem_write_check(ptx_chk *k, ptx_warp *w, const ptx_insn *in, int lane, uint32_t g, uint32_t lane0,
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
    char acc[96];
    snprintf(acc, sizeof acc, "%s accumulates into Tensor Memory lane %u column %u", what, lane0, col);
    return fence_warning(k, w, in, lane, p, acc);
  }
  return false;
}

/* a tcgen05.mma / cp / shift (sub 0 / 1 / 2) of this lane: a new operation
 * of the warp's pipeline, completed by its commits; 0 when out of memory */
static uint32_t pipe_op(ptx_chk *k, ptx_warp *w, const ptx_insn *in, int lane, uint8_t sub) {
  uint32_t id = new_op(k, w, in, lane, OK_MMA, ++k->mma_n[w->id]);
  if (!id) return 0;
  k->op[id].sub = sub;
  k->mma_lanes[w->id] |= 1u << lane;
  return id;
}

/* an asynchronous operation `id` (`reader` as tmem_read_check takes it)
 * reads the 16-lane halves in `halves` (bit h: lanes 16h-16h+15) x columns
 * [c0, c0 + ncols); *told: one finding an instruction */
static void tmem_reads(ptx_chk *k, ptx_warp *w, const ptx_insn *in, int lane, uint32_t id, unsigned halves,
                       uint32_t c0, uint32_t ncols, const char *what, int reader, bool *told) {
  for (uint32_t h = 0; h < 8; h++)
    for (uint32_t c = c0; (halves >> h & 1) && c < c0 + ncols && c < 512; c++) {
      uint32_t g = h * 512 + c;
      if (!*told) *told = tmem_read_check(k, w, in, lane, g, h * 16, c, what, reader);
      k->tm_r[g] = id;
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

void chk_target_feature(ptx_warp *w, const ptx_insn *in, const char *what, const char *targets) {
  if (!w->cta->chk) return;
  report(w, CR_TARGET_FEATURE, in, -1, nobody(), "%s: .target %s does not have it (it has: %s)", what,
         w->cta->L->m->target, targets);
}

/* strict: a descriptor with a base offset and no swizzling */
static void desc_base_offset(ptx_warp *w, const ptx_insn *in, int lane, uint64_t raw, const char *what) {
  tc5_smem_desc d;
  if (!tc5_smem_desc_decode(raw, &d, NULL) && d.swizzle == TC5_SWIZZLE_NONE && d.base_offset)
    report(w, CR_SMEM_DESC_BASE_OFFSET, in, lane, nobody(),
           "%s: its shared memory descriptor 0x%016llx has base offset %u and no swizzling", what,
           (unsigned long long)raw, d.base_offset);
}

void chk_mma(ptx_warp *w, const ptx_insn *in, int lane, const tc5_mma_args *a) {
  ptx_chk *k = w->cta->chk;
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
  /* Tensor Memory: D (read with enable-input-d, written), A when there */
  uint32_t nl, nc;
  bool al16;
  tc5__mma_d_extent(M, a->variant.cta_group, a->variant.ws, N, &nl, &nc, &al16);
  uint32_t dl = TC5_TMEM_LANE(a->d_tmem), dc = TC5_TMEM_COL(a->d_tmem);
  unsigned dh = d_halves(dl, nl, al16);
  bool told = false; /* one finding per instruction */
  for (uint32_t h = 0; h < 8; h++)
    for (uint32_t c = dc; (dh >> h & 1) && c < dc + nc && c < 512; c++) {
      uint32_t g = h * 512 + c;
      if (!told) told = tmem_write_check(k, w, in, lane, g, h * 16, c, "tcgen05.mma", true);
      k->tm_w[g] = id;
    }
  if (a->a_in_tmem) /* columns: an upper bound, K elements of at most 32 bits */
    tmem_reads(k, w, in, lane, id, d_halves(TC5_TMEM_LANE(a->a_tmem), nl, al16), TC5_TMEM_COL(a->a_tmem), K,
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

void chk_cp(ptx_warp *w, const ptx_insn *in, int lane, const tc5_cp_args *a) {
  ptx_chk *k = w->cta->chk;
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
        k->tm_w[g] = id;
      }
    }
}

void chk_shift(ptx_warp *w, const ptx_insn *in, int lane, uint32_t taddr) {
  ptx_chk *k = w->cta->chk;
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
      k->tm_w[g] = k->tm_r[g] = id;
    }
}

static void pend_add(ptx_chk *k, ptx_warp *w, uint32_t reg, uint32_t insn, bool store) {
  unsigned wi = w->id;
  if (!ROOM(k->pend[wi], k->npend[wi], k->pend_cap[wi], 64)) return;
  chk_pend *p = &k->pend[wi][k->npend[wi]++];
  p->reg = reg, p->insn = insn, p->store = store;
  p->seq = store ? k->st_n[wi] : k->ld_n[wi];
  memcpy(p->snap, PTX_R(w, reg), sizeof p->snap);
  p->lanes = w->live;
  w->chk_pending = 1;
}

void chk_tmem_ldst(ptx_warp *w, const ptx_insn *in, bool store, uint32_t taddr, const tc5_tmem_ldst *op,
                   const ptx_opnd *regs) {
  ptx_chk *k = w->cta->chk;
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
  for (uint32_t h = h0; h < h1; h++)
    for (uint32_t c = c0; c < c0 + nc && c < 512; c++) {
      uint32_t g = h * 512 + c;
      if (store) {
        if (!told) told = tmem_write_check(k, w, in, -1, g, h * 16, c, "tcgen05.st", false);
        k->tm_w[g] = id;
      } else {
        if (!told) told = tmem_read_check(k, w, in, -1, g, h * 16, c, "tcgen05.ld", -1);
        k->tm_r[g] = id;
      }
    }
  const uint32_t *vr = w->cta->L->m->vregs + regs->vec;
  uint32_t insn = (uint32_t)(in - w->cta->L->m->code);
  for (unsigned i = 0; i < regs->n; i++) pend_add(k, w, vr[i], insn, store);
}

void chk_tc_wait(ptx_warp *w, bool store) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  unsigned wi = w->id;
  uint32_t *vc = VC(k, k->vc, wi), *svc = VC(k, k->svc, wi);
  if (store) vc[VS(k, wi)] = svc[VS(k, wi)] = k->st_n[wi];
  else vc[VL(k, wi)] = svc[VL(k, wi)] = k->ld_n[wi];
  unsigned j = 0;
  for (unsigned i = 0; i < k->npend[wi]; i++)
    if (k->pend[wi][i].store != store) k->pend[wi][j++] = k->pend[wi][i];
  k->npend[wi] = j;
  w->chk_pending = j != 0;
}

void chk_tc_fence(ptx_warp *w, bool after) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  unsigned wi = w->id;
  if (after) {
    join(VC(k, k->svc, wi), VC(k, k->spend, wi), k->nvc);
  } else {
    k->rel_l[wi] = VC(k, k->vc, wi)[VL(k, wi)];
    k->rel_s[wi] = VC(k, k->vc, wi)[VS(k, wi)];
  }
}

/* after each instruction while registers of a tcgen05.ld/st are pending */
/* An instruction that reads a destination register of a tcgen05.ld before
 * tcgen05.wait::ld has a true register dependency on it, which is respected
 * (9.7.16.6.4.5): the load is complete for that register, which may then be
 * written again (CuTe DSL's kernels have no tcgen05.wait::ld and reuse the
 * registers of loads they consumed). A load whose registers were all read is
 * complete, as after a wait (its Tensor Memory may be written or freed). In
 * strict mode the read is a warning (ld-reg-use: nothing else is ordered). */
static void ld_reads(ptx_chk *k, ptx_warp *w, const ptx_insn *in, uint32_t self) {
  unsigned wi = w->id;
  const tc5_ptx_module *m = w->cta->L->m;
  bool told = false, took = false;
  uint32_t lanes = w->active; /* the lanes that executed the instruction: active, guard true */
  if (in->guard != PTX_NOREG) {
    const uint64_t *g = PTX_R(w, in->guard);
    uint32_t gm = 0;
    for (unsigned l = 0; l < 32; l++) gm |= (uint32_t)(g[l] != 0) << l;
    lanes &= in->guard_neg ? ~gm : gm;
  }
  if (!lanes) return;
  for (unsigned o = 0; o < in->nops; o++) {
    const ptx_opnd *x = &in->o[o];
    if (o == 0 && x->kind != PO_ADDR) continue; /* operand 0 is a destination but for stores' addresses */
    unsigned cnt = x->kind == PO_VEC ? x->n : (x->kind == PO_REG || x->kind == PO_ADDR) ? 1 : 0;
    for (unsigned e = 0; e < cnt; e++) {
      uint32_t reg = x->kind == PO_VEC ? m->vregs[x->vec + e] : x->reg;
      for (unsigned i = 0; i < k->npend[wi]; i++) {
        chk_pend *p = &k->pend[wi][i];
        if (p->store || p->reg != reg || p->insn == self) continue;
        if (!told && k->strict)
          report(w, CR_LD_REG_USE, in, -1, (who){p->insn, (int)wi, -1},
                 "a destination register of the tcgen05.ld is read before tcgen05.wait::ld");
        told = true;
        p->lanes &= ~lanes;
        if (p->lanes) continue; /* lanes that have not read it: their load is not complete */
        *p = k->pend[wi][--k->npend[wi]];
        i--;
        took = true;
      }
    }
  }
  if (!took) return;
  /* the loads before the oldest with a register still pending are complete */
  uint32_t oldest = k->ld_n[wi] + 1;
  for (unsigned i = 0; i < k->npend[wi]; i++)
    if (!k->pend[wi][i].store && k->pend[wi][i].seq < oldest) oldest = k->pend[wi][i].seq;
  uint32_t *vc = VC(k, k->vc, wi), *svc = VC(k, k->svc, wi);
  if (vc[VL(k, wi)] < oldest - 1) vc[VL(k, wi)] = oldest - 1;
  if (svc[VL(k, wi)] < oldest - 1) svc[VL(k, wi)] = oldest - 1;
  w->chk_pending = k->npend[wi] != 0 || (k->wgs && k->wgs[wi].n);
}

/* a read of a register of a wgmma.mma_async whose group no wgmma.wait_group
 * has covered: ptxas injects a warpgroup wait there ("warpgroup.wait is
 * injected ... to allow use of registers defined by GMMA", C7517), so the
 * read waits for all of the warp's wgmma; the spec calls it undefined */
static void wgmma_reads(ptx_chk *k, ptx_warp *w, const ptx_insn *in) {
  struct chk_wgmma *g = &k->wgs[w->id];
  const tc5_ptx_module *m = w->cta->L->m;
  if (!strncmp(ptx_insn_text(m, in), "wgmma.", 6)) return; /* wgmma accumulates into its D: no read of the value */
  for (unsigned o = 0; o < in->nops && g->n; o++) {
    const ptx_opnd *x = &in->o[o];
    if (o == 0 && x->kind != PO_ADDR) continue; /* operand 0 is a destination but for stores' addresses */
    unsigned cnt = x->kind == PO_VEC ? x->n : (x->kind == PO_REG || x->kind == PO_ADDR) ? 1 : 0;
    for (unsigned e = 0; e < cnt && g->n; e++) {
      uint32_t reg = x->kind == PO_VEC ? m->vregs[x->vec + e] : x->reg;
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

void chk_wgmma_issue(ptx_warp *w, const ptx_insn *in) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  if (!k->wgs && !(k->wgs = calloc(k->n, sizeof *k->wgs))) return;
  struct chk_wgmma *g = &k->wgs[w->id];
  const tc5_ptx_module *m = w->cta->L->m;
  for (unsigned o = 0; o < 2; o++) { /* D, and A when in registers */
    const ptx_opnd *x = &in->o[o];
    if (x->kind != PO_VEC) continue;
    for (unsigned e = 0; e < x->n; e++) {
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
      g->reg[g->n] = m->vregs[x->vec + e], g->grp[g->n] = g->commits, g->insn[g->n] = (uint32_t)(in - m->code);
      g->n++;
    }
  }
  w->chk_pending = g->n != 0 || k->npend[w->id];
}

void chk_wgmma_commit(ptx_warp *w) {
  ptx_chk *k = w->cta->chk;
  if (k && k->wgs) k->wgs[w->id].commits++;
}

void chk_wgmma_wait(ptx_warp *w, unsigned n) {
  ptx_chk *k = w->cta->chk;
  if (!k || !k->wgs) return;
  struct chk_wgmma *g = &k->wgs[w->id];
  /* the groups older than the n newest committed ones are complete (and
   * wgmma issued after the last commit belong to no group yet) */
  uint32_t done = g->commits > n ? g->commits - n : 0;
  unsigned j = 0;
  for (unsigned i = 0; i < g->n; i++)
    if (g->grp[i] >= done) g->reg[j] = g->reg[i], g->grp[j] = g->grp[i], g->insn[j] = g->insn[i], j++;
  g->n = j;
  w->chk_pending = g->n != 0 || k->npend[w->id];
}

void chk_after(ptx_warp *w, const ptx_insn *in) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  unsigned wi = w->id;
  const tc5_ptx_module *m = w->cta->L->m;
  uint32_t self = (uint32_t)(in - m->code);
  if (k->wgs && k->wgs[wi].n) wgmma_reads(k, w, in);
  ld_reads(k, w, in, self);
  for (unsigned i = 0; i < k->npend[wi]; i++) {
    chk_pend *p = &k->pend[wi][i];
    if (p->insn == self) continue;
    const uint64_t *r = PTX_R(w, p->reg);
    if (memcmp(r, p->snap, sizeof p->snap)) {
      int lane = 0;
      while (lane < 31 && r[lane] == p->snap[lane]) lane++;
      report(w, p->store ? CR_ST_REG_OVERWRITE : CR_LD_REG_OVERWRITE, in, lane, (who){p->insn, (int)wi, -1},
             "a %s register of the %s is overwritten before tcgen05.wait::%s", p->store ? "source" : "destination",
             p->store ? "tcgen05.st" : "tcgen05.ld", p->store ? "st" : "ld");
      memcpy(p->snap, r, sizeof p->snap);
    }
  }
}

void chk_dealloc(ptx_warp *w, const ptx_insn *in, uint32_t taddr, uint32_t ncols) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  const uint32_t *vc = VC(k, k->vc, w->id);
  uint32_t c0 = TC5_TMEM_COL(taddr);
  bool told = false;
  for (uint32_t h = 0; h < 8; h++)
    for (uint32_t c = c0; c < c0 + ncols && c < 512; c++) {
      uint32_t g = h * 512 + c, q = h / 2;
      uint32_t ids[2] = {k->tm_w[g], k->tm_r[g]};
      for (int i = 0; i < 2 && !told; i++) {
        if (ids[i] && known(k, vc, &k->op[ids[i]])) {
          char acc[96];
          snprintf(acc, sizeof acc, "tcgen05.dealloc frees Tensor Memory column %u", c);
          told = fence_warning(k, w, in, -1, &k->op[ids[i]], acc);
        }
        if (ids[i] && !known(k, vc, &k->op[ids[i]])) {
          const chk_op *p = &k->op[ids[i]];
          report(w, CR_DEALLOC_INFLIGHT, in, -1, of_op(p),
                 "tcgen05.dealloc frees Tensor Memory column %u (lanes %u-%u) while the %s that accesses it is not "
                 "known complete to this warp", c, q * 32, q * 32 + 31, op_name(p));
          told = true;
        }
      }
      k->tm_w[g] = k->tm_r[g] = 0;
    }
}

/* ---- mbarriers and barriers ---- */
static chk_mb *mb_of(ptx_chk *k, ptx_cta *c, ptx_mbar *mb) {
  unsigned i = (unsigned)(mb - c->mbars);
  while (k->nmb <= i) {
    if (!ROOM(k->mb, k->nmb, k->mb_cap, 16)) return NULL;
    uint32_t *v = calloc((size_t)6 * k->nvc + k->n, 4);
    if (!v) return NULL;
    chk_mb *x = &k->mb[k->nmb++];
    x->cur = v, x->cur_s = v + k->nvc, x->last = v + 2 * k->nvc, x->last_s = v + 3 * k->nvc;
    x->prev = v + 4 * k->nvc, x->prev_s = v + 5 * k->nvc;
    x->seen = v + 6 * k->nvc;
  }
  return &k->mb[i];
}

void chk_mbar_init(ptx_warp *w, ptx_mbar *mb) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  chk_mb *x = mb_of(k, w->cta, mb);
  if (x) memset(x->cur, 0, ((size_t)6 * k->nvc + k->n) * 4);
}

/* a phase completed: its arrivals become what a wait on it acquires */
static void phase_done(ptx_chk *k, chk_mb *x) {
  memcpy(x->prev, x->last, k->nvc * 4);
  memcpy(x->prev_s, x->last_s, k->nvc * 4);
  join(x->last, x->cur, k->nvc);
  join(x->last_s, x->cur_s, k->nvc);
  memset(x->cur, 0, k->nvc * 4);
  memset(x->cur_s, 0, k->nvc * 4);
}

void chk_mbar_arrive(ptx_warp *w, const ptx_insn *in, int lane, ptx_mbar *mb, uint32_t phase_before, bool commit,
                     ptx_mbar **spill) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  unsigned wi = w->id;
  if (spill && *spill == mb)
    report(w, CR_MBAR_OVER_ARRIVAL, in, lane, nobody(),
           "this instruction's threads arrive on the mbarrier at shared 0x%x more often than its phase expects (%u "
           "arrivals): an earlier thread of the same instruction completed phase %u and this arrival counts "
           "towards the next", mb->addr, mb->mb.expected, phase_before - 1);
  if (commit) {
    if (k->mma_lanes[wi] & ~(1u << lane))
      report(w, CR_COMMIT_OTHER, in, lane, nobody(),
             "tcgen05.commit by thread %u does not track the tcgen05.mma issued by thread(s) 0x%08x of warp %u and not "
             "yet committed", wi * 32 + (unsigned)lane, k->mma_lanes[wi] & ~(1u << lane), wi);
    k->mma_lanes[wi] = 0;
  }
  chk_mb *x = mb_of(k, w->cta, mb);
  if (!x) return;
  uint32_t ds[4 * 32];
  contribution(k, wi, commit, k->scratch, ds);
  join(x->cur, k->scratch, k->nvc);
  join(x->cur_s, ds, k->nvc);
  VC(k, k->vc, wi)[VT(k, wi)]++;
  k->last_ev[wi] = 0;
  if (mb->mb.phase != phase_before) { /* the phase completed */
    phase_done(k, x);
    if (spill) *spill = mb;
  }
}

/* a release of warp w into barrier slot `slot` (bar.sync's ids,
 * barrier.cluster's, the exports): what it knows joins the slot, and its
 * own clock moves past the release */
static void release_into(ptx_warp *w, bool commit, uint32_t slot) {
  ptx_chk *k = w->cta->chk;
  if (!k || slot >= CHK_BARS) return;
  uint32_t ds[4 * 32];
  contribution(k, w->id, commit, k->scratch, ds);
  join(k->bar + (size_t)slot * k->nvc, k->scratch, k->nvc);
  join(k->bar_s + (size_t)slot * k->nvc, ds, k->nvc);
  VC(k, k->vc, w->id)[VT(k, w->id)]++;
  k->last_ev[w->id] = 0;
}

void chk_export(ptx_warp *w, bool commit) { release_into(w, commit, CHK_EXPORT_BAR); }

void chk_mbar_remote(ptx_cta *c, ptx_mbar *mb, uint32_t phase_before) {
  ptx_chk *k = c->chk;
  if (!k) return;
  chk_mb *x = mb_of(k, c, mb);
  if (!x) return;
  join(x->cur, k->bar + (size_t)CHK_EXPORT_BAR * k->nvc, k->nvc);
  join(x->cur_s, k->bar_s + (size_t)CHK_EXPORT_BAR * k->nvc, k->nvc);
  if (mb->mb.phase != phase_before) phase_done(k, x);
}

void chk_mbar_observe(ptx_warp *w, const ptx_insn *in, ptx_mbar *mb, unsigned parity) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  chk_mb *x = mb_of(k, w->cta, mb);
  uint32_t ph = mb->mb.phase;
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
}

void chk_bar_arrive(ptx_warp *w, uint32_t id) { release_into(w, false, id); }

void chk_bar_done(ptx_cta *c, uint32_t id, uint32_t waiting) {
  ptx_chk *k = c->chk;
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
void chk_cluster_arrive(ptx_warp *w) { chk_bar_arrive(w, CHK_CLUSTER_BAR); }
void chk_cluster_done(ptx_cta *c) {
  ptx_chk *k = c->chk;
  if (!k) return;
  size_t n = k->nvc, from = (size_t)CHK_CLUSTER_BAR * n, to = from + n;
  memcpy(k->bar + to, k->bar + from, n * 4);
  memcpy(k->bar_s + to, k->bar_s + from, n * 4);
  memset(k->bar + from, 0, n * 4);
  memset(k->bar_s + from, 0, n * 4);
}
void chk_cluster_wait(ptx_warp *w) {
  ptx_chk *k = w->cta->chk;
  if (!k) return;
  size_t at = (size_t)(CHK_CLUSTER_BAR + 1) * k->nvc;
  acquire(k, w->id, k->bar + at, k->bar_s + at);
}
