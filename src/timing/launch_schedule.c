/* tc5 timing model — a whole launch: the sample of clusters run in detail,
 * every cluster's duration estimated from it, list scheduling onto the
 * GPU's SMs x CTA slots, L2/HBM shared by all SMs, and the result. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "timing/timing_impl.h"

static inline double dmax(double a, double b) { return a > b ? a : b; }

const char *tc5_timing_unit_name(tc5_timing_unit u) {
  static const char *const names[TC5_TU_COUNT] = {"tensor core", "TMA", "shared memory", "L2/HBM", "SFU", "issue"};
  return (unsigned)u < TC5_TU_COUNT ? names[u] : NULL;
}

#define TM_SAMPLE_DEFAULT 16u

#define TM_GX_MAX (1u << 22)
static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_range(const void *a, const void *b) {
  const tm_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

uint64_t tm_footprint(tm_range *r, size_t n) {
  if (!n) return 0;
  qsort(r, n, sizeof *r, cmp_range);
  uint64_t sum = 0, lo = r[0].lo, hi = r[0].hi;
  for (size_t k = 1; k < n; k++) {
    if (r[k].lo <= hi) { /* overlaps or touches the run so far */
      if (r[k].hi > hi) hi = r[k].hi;
      continue;
    }
    sum += hi - lo;
    lo = r[k].lo, hi = r[k].hi;
  }
  return sum + (hi - lo);
}

/* cp.async: one CTA's stream takes at most cp_async_bytes_per_clk_cta
 * (measured: 33.6 B/clk whatever the stages in flight and the source) and
 * its SM's L2 share split between the co-resident CTAs; its latency is
 * cp.async's own (issue to wait_group 0), from L2 or, for a footprint
 * beyond L2, the mean of the L2 and DRAM figures (as ld.global's). And the
 * L2 state the launch finds (TC5_TIMING_L2: warm, the default, or cold). */
static tc5_status cp_async_rates(tm_launch *l, tc5_diag *diag) {
  const tm_params *p = &l->p;
  double share_l2 = l->rates.l2_bpc / l->rates.share;
  l->rates.cp_bpc = p->cp_async_bytes_per_clk_cta < share_l2 ? p->cp_async_bytes_per_clk_cta : share_l2;
  l->rates.cp_latency = l->s.footprint <= p->l2_bytes ? p->cp_async_latency_l2 : 0.5 * (p->cp_async_latency_l2 + p->cp_async_latency_dram);
  const char *e = getenv("TC5_TIMING_L2");
  if (!e || !*e || !strcmp(e, "warm")) l->l2_cold = false;
  else if (!strcmp(e, "cold")) l->l2_cold = true;
  else return tc5_diag_add(diag, TC5_EINVAL, "timing", 0, "timing: TC5_TIMING_L2 '%.40s' is neither 'warm' nor 'cold'", e);
  return TC5_OK;
}

/* DRAM bytes: the buffers' footprint F once (compulsory), less what a
 * warm L2 still holds from the launch before (the same buffers, no flush:
 * graph replay, do_bench_cudagraph): nothing of F <= l2_resident_bytes,
 * all of F >= l2_bytes, linearly between (the measured re-launch sweep);
 * plus, for F beyond L2, half of the traffic past F scaled by the share
 * that does not fit */
double tm_dram_bytes(const tm_launch *l, double traffic) {
  const tm_params *p = &l->p;
  double F = (double)l->s.footprint, dram = F;
  if (!l->l2_cold && F < p->l2_bytes) {
    double R = p->l2_resident_bytes < p->l2_bytes ? p->l2_resident_bytes : p->l2_bytes;
    dram = F <= R ? 0 : F * (F - R) / (p->l2_bytes - R);
  }
  if (F > p->l2_bytes && traffic > F) dram += 0.5 * (traffic - F) * (1 - p->l2_bytes / F);
  return dram;
}

/* The default sample of a persistent grid: one wave (every CTA resident
 * at once: nclusters x cluster size <= SMs x CTAs an SM holds) of one
 * dimension whose CTAs are a multiple of the GPU's SMs, a grid sized from
 * the SM count as Triton's, Gluon's and FA4's persistent kernels launch
 * (NUM_SMS or NUM_SMS x occupancy CTAs that loop over tiles; a grid of
 * tiles that happens to fit one wave keeps the strata). Two clusters: 0, which a static
 * round-robin tile scheduler (tile = id + k x grid) gives the largest
 * share (ceil(tiles / grid), the launch's critical path: the grid is one
 * wave, so the launch lasts as long as its longest cluster), and
 * nclusters / 2, a second cluster on other data (FA4's conditional
 * rescaling, data-dependent, runs on each one's real inputs). Each runs
 * its whole tile loop, 1 / nclusters of the launch, so the default costs
 * two shares instead of 16 (the strata's sample: docs/timing.md
 * "Sampling"). Sets l->pick and l->nrun (l->pick NULL: out of memory);
 * false when the grid is not such a grid. */
#define TM_SAMPLE_PERSISTENT 2u
static bool persistent_pick(tm_launch *l) {
  const tm_setup *s = &l->s;
  uint64_t ncta = s->nclusters * s->cluster_size;
  uint64_t sms = (uint64_t)l->p.sm_count;
  if (s->grid[1] != 1 || s->grid[2] != 1 || !l->occ.ctas || !sms || ncta > sms * l->occ.ctas || ncta % sms)
    return false;
  l->nrun = TM_SAMPLE_PERSISTENT;
  l->pick = malloc(TM_SAMPLE_PERSISTENT * sizeof *l->pick);
  if (l->pick) l->pick[0] = 0, l->pick[1] = s->nclusters / 2;
  return true;
}

tc5_status tm_launch_new(tm_launch **out, const tm_setup *s, tc5_diag *diag) {
  *out = NULL;
  tm_launch *l = calloc(1, sizeof *l);
  if (!l) return TC5_ENOMEM;
  l->s = *s;
  if (tm_params_load(s->gpu, &l->p)) {
    free(l);
    return tc5_diag_add(diag, TC5_EINVAL, "timing", 0, "timing: no parameter table for GPU '%.40s'", s->gpu);
  }
  const tm_params *p = &l->p;
  /* registers: ptxas's count when given, else the estimate (docs/timing.md) */
  uint32_t regs = s->regs_per_thread ? s->regs_per_thread : 64;
  tm_occupancy_of(p, s->threads_per_cta, s->smem_per_cta, regs, s->cluster_size, &l->occ);
  tm_occupancy_tmem(p, s->tmem_cols, s->tmem_cols_line != 0, &l->occ); /* t47u */
  uint64_t ncta = s->nclusters * s->cluster_size;
  double per_sm = ceil((double)ncta / p->sm_count);
  l->rates.share = per_sm < l->occ.ctas ? (per_sm < 1 ? 1 : per_sm) : l->occ.ctas;
  /* L2 bandwidth is shared by the SMs that hold CTAs at once */
  double busy_sms = (double)ncta < p->sm_count ? (double)ncta : p->sm_count;
  l->rates.l2_bpc = p->l2_bytes_per_clk / (busy_sms < 1 ? 1 : busy_sms);
  l->rates.tma_bpc = (p->tma_bytes_per_clk < l->rates.l2_bpc ? p->tma_bytes_per_clk : l->rates.l2_bpc) / l->rates.share;
  l->rates.gmem_latency = s->footprint <= p->l2_bytes ? p->l2_latency : 0.5 * (p->l2_latency + p->dram_latency);
  /* a TMA load from L2 or HBM (t47u): the same mix (a table without tma_latency_dram: one value) */
  double tma_miss = p->tma_latency_dram > 0 ? p->tma_latency_dram : p->tma_latency;
  l->rates.tma_load_latency = s->footprint <= p->l2_bytes ? p->tma_latency : 0.5 * (p->tma_latency + tma_miss);
  tc5_status st = cp_async_rates(l, diag);
  if (st) {
    free(l);
    return st;
  }
  /* the sample: every cluster of a small grid; else `sample` clusters at
   * the middles of equal strata of the linear cluster index (a persistent
   * grid by default: persistent_pick) */
  uint64_t want = s->sample ? s->sample : TM_SAMPLE_DEFAULT;
  if (s->sample == TC5_TIMING_SAMPLE_ALL || s->nclusters <= 2 * want) {
    l->nrun = s->nclusters;
  } else if (!s->sample && persistent_pick(l)) {
    if (!l->pick) {
      free(l);
      return TC5_ENOMEM;
    }
  } else {
    l->nrun = want;
    l->pick = malloc(want * sizeof *l->pick);
    if (!l->pick) {
      free(l);
      return TC5_ENOMEM;
    }
    uint64_t gx = s->grid[0];
    if (s->cluster_size == 1 && gx > 1 && gx < s->nclusters && gx <= TM_GX_MAX && s->nclusters % gx == 0) {
      /* a grid of rows (dimensions 1, 2) of gx columns (dimension 0):
       * stratified in both, every column covered as evenly as S allows */
      uint64_t rows = s->nclusters / gx;
      for (uint64_t j = 0; j < want; j++) {
        uint64_t x = want <= gx ? (uint64_t)(((double)j + 0.5) * (double)gx / (double)want) : j % gx;
        uint64_t row = (uint64_t)(((double)j + 0.5) * (double)rows / (double)want);
        l->pick[j] = x + gx * row;
      }
      qsort(l->pick, want, sizeof *l->pick, cmp_u64);
      uint64_t n = 0;
      for (uint64_t j = 0; j < want; j++)
        if (!n || l->pick[j] != l->pick[n - 1]) l->pick[n++] = l->pick[j];
      l->nrun = n;
      l->gx = gx;
    } else {
      for (uint64_t j = 0; j < want; j++) l->pick[j] = (uint64_t)(((double)j + 0.5) * (double)s->nclusters / (double)want);
    }
  }
  l->dur = calloc(l->nrun ? l->nrun : 1, sizeof *l->dur);
  l->dpath = calloc(l->nrun ? l->nrun : 1, sizeof *l->dpath);
  l->dunit = calloc(l->nrun ? l->nrun : 1, sizeof *l->dunit);
  l->dissue = calloc(l->nrun ? l->nrun : 1, sizeof *l->dissue);
  l->dtensor = calloc(l->nrun ? l->nrun : 1, sizeof *l->dtensor);
  if (!l->dur || !l->dpath || !l->dunit || !l->dissue || !l->dtensor || tm_sass_weights(l)) {
    tm_launch_free(l);
    return TC5_ENOMEM;
  }
  *out = l;
  return TC5_OK;
}

void tm_launch_free(tm_launch *l) {
  if (!l) return;
  for (size_t k = 0; k < l->ntc; k++) free(l->tc[k].e);
  free(l->tc);
  free(l->pick);
  free(l->dur);
  free(l->dpath);
  free(l->dunit);
  free(l->dissue);
  free(l->dtensor);
  free(l->issue_w);
  free(l->issue_stall);
  free(l);
}

void tm_launch_plan(const tm_launch *l, uint64_t *n, const uint64_t **pick) {
  *n = l->nrun;
  *pick = l->pick;
}

/* the run index of cluster `cluster` */
static uint64_t run_index(const tm_launch *l, uint64_t cluster) {
  if (!l->pick) return cluster;
  uint64_t lo = 0, hi = l->nrun;
  while (lo + 1 < hi) {
    uint64_t mid = (lo + hi) / 2;
    if (l->pick[mid] <= cluster) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* the issue slot shared by co-resident CTAs (t47r): a CTA's duration when
 * n CTAs of path P (its warps' latency path, its own issue included) and
 * issue work S (cycles of one SM sub-partition's issue slot) share the SM,
 * by exact mean-value analysis of a closed queueing network (Reiser and
 * Lavenberg 1980): n customers, each alternating a think time Z = P - S
 * and S of service at one station; a request finds beta x the Q(n - 1)
 * others queued ahead of it (beta 1: exponential service, MVA proper;
 * beta 0: it never waits, D = max(P, n x S), the model before t47r):
 *   R(k) = S (1 + beta Q(k - 1)),  X(k) = k / (R(k) + Z),  Q(k) = X(k) R(k)
 *   D = max(R(n) + Z, n x S, P)
 * (Z = 0 when S >= P). At a fractional n the stretched path R + Z is
 * interpolated between n's floor and ceiling. beta is the table's issue_queue; every table sets 0 until
 * gpu/run.sh timing-micro's intf section calibrates it (docs/timing.md). */
double tm_issue_queue(double P, double S, double n, double beta) {
  if (n < 1) n = 1;
  if (!(S > 0)) return P;
  double Z = P > S ? P - S : 0, Q = 0, R = S, nf = floor(n);
  for (double k = 1; k <= nf; k++) {
    R = S * (1 + beta * Q);
    Q = k * R / (R + Z);
  }
  double w = R + Z; /* the path stretched at nf customers; at a fractional n, towards nf + 1's */
  if (n > nf) w += (n - nf) * (S * (1 + beta * Q) - R);
  return dmax(dmax(w, n * S), P);
}

/* tm_issue_queue with the SM's tensor core as a second station (tc_queue,
 * t47z): each of the n CTAs alternates a think time Z = P - S - T, S at the
 * issue slot and T (its tensor-core cycles, unshared) at the tensor core;
 * exact MVA over both stations (Reiser and Lavenberg 1980), a request
 * finding beta x the others' mean queue at its station ahead of it:
 *   R_s(k) = S (1 + beta Q_s(k-1)),  R_t(k) = T (1 + beta Q_t(k-1)),
 *   X(k) = k / (Z + R_s(k) + R_t(k)),  Q_x(k) = X(k) R_x(k)
 *   D = max(Z + R_s(n) + R_t(n), n S, n T, P)
 * (Z = 0 when S + T >= P; a fractional n interpolated as tm_issue_queue).
 * T = 0 is tm_issue_queue exactly. */
double tm_issue_tc_queue(double P, double S, double T, double n, double beta) {
  if (!(T > 0)) return tm_issue_queue(P, S, n, beta);
  if (n < 1) n = 1;
  if (!(S > 0)) S = 0;
  double Z = P > S + T ? P - S - T : 0, Qs = 0, Qt = 0, Rs = S, Rt = T, nf = floor(n);
  for (double k = 1; k <= nf; k++) {
    Rs = S * (1 + beta * Qs);
    Rt = T * (1 + beta * Qt);
    double X = k / (Z + Rs + Rt);
    Qs = X * Rs;
    Qt = X * Rt;
  }
  double w = Z + Rs + Rt;
  if (n > nf) w += (n - nf) * (S * (1 + beta * Qs) + T * (1 + beta * Qt) - Rs - Rt);
  return dmax(dmax(dmax(w, n * S), n * T), P);
}

/* the work of a CTA's issue slot (its dispatch, pipes and SFU): the
 * station tm_issue_queue queues on */
static double issue_work(const tm_cta *t) {
  double u = dmax(t->work[TC5_TU_ISSUE], t->work[TC5_TU_SFU]);
  for (unsigned k = 0; k < TM_C_COUNT; k++) u = dmax(u, t->pipe[k]);
  return u;
}

/* a CTA's duration: its critical path (the last warp's clock, the units'
 * last completions), stretched by its wait for the issue slot shared with
 * the co-resident CTAs (share; tm_issue_queue), or, when larger, the work
 * of its units shared with them */
static double cta_duration(const tm_cta *t, double *path, double *unit, double *issue) {
  const tm_launch *l = t->l;
  double d = dmax(t->tc_done, t->tma_free);
  for (uint32_t k = 0; k < t->nwarps; k++) {
    d = dmax(d, t->w[k].clock);
    d = dmax(d, t->w[k].bulk.cur);
  }
  d = dmax(d, t->cp_bytes / l->p.cp_async_bytes_per_clk_cta);
  double u = t->work[TC5_TU_ISSUE]; /* the units' work of this CTA alone */
  for (unsigned k = 0; k < TM_C_COUNT; k++) u = dmax(u, t->pipe[k]);
  u = dmax(u, t->work[TC5_TU_SFU]);
  u = dmax(u, t->work[TC5_TU_SMEM]);
  u = dmax(u, t->gmem_bytes / l->rates.l2_bpc);
  *path = d;
  *unit = u;
  *issue = issue_work(t);
  if (l->p.tc_queue > 0) /* the tensor core a station of the queue, not share x its time on the path (t47z) */
    return dmax(tm_issue_tc_queue(d, *issue, t->work[TC5_TU_TENSOR], l->rates.share, l->p.issue_queue), l->rates.share * u);
  return dmax(tm_issue_queue(d, *issue, l->rates.share, l->p.issue_queue), l->rates.share * u);
}

void tm_cluster_end(tm_launch *l, tm_cta *const *ctas, uint32_t n, uint64_t cluster, void *lock) {
  double d = 0, dp = 0, du = 0, di = 0, dtc = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (l->s.trace) tm_sfu_flush(ctas[k]);
    for (uint32_t w = 0; w < ctas[k]->nwarps; w++) {
      tm_warp *x = &ctas[k]->w[w];
      if (x->span_start >= 0 && l->s.trace && x->clock > x->span_start) {
        tm_event e = {x->span_start, x->clock - x->span_start, x->span_name, w, 'X', 0, x->span_line, 0};
        tm_ev_add(&ctas[k]->ev, &e);
      }
      x->span_start = -1;
    }
    double p1, u1, i1;
    d = dmax(d, cta_duration(ctas[k], &p1, &u1, &i1));
    dp = dmax(dp, p1), du = dmax(du, u1), di = dmax(di, i1), dtc = dmax(dtc, ctas[k]->work[TC5_TU_TENSOR]);
  }
  pthread_mutex_lock(lock);
  l->dur[run_index(l, cluster)] = d;
  l->dpath[run_index(l, cluster)] = dp;
  l->dunit[run_index(l, cluster)] = du;
  l->dissue[run_index(l, cluster)] = di;
  l->dtensor[run_index(l, cluster)] = dtc;
  l->ran++;
  for (uint32_t k = 0; k < n; k++) {
    for (unsigned u = 0; u < TC5_TU_COUNT; u++) l->work[u] += ctas[k]->work[u];
    for (unsigned u = 0; u < TM_C_COUNT; u++) l->pipe[u] += ctas[k]->pipe[u];
    l->gmem_bytes += ctas[k]->gmem_bytes;
    l->gst_bytes += ctas[k]->gst_bytes;
    l->flops += ctas[k]->flops;
    if (l->s.trace && ctas[k]->ev.n && !l->trace_full) {
      if (l->ntc == l->tc_cap) {
        size_t c = l->tc_cap ? 2 * l->tc_cap : 16;
        void *q = realloc(l->tc, c * sizeof *l->tc);
        if (!q) {
          l->trace_full = true;
          continue;
        }
        l->tc = q, l->tc_cap = c;
      }
      struct tm_trace_cta *tc = &l->tc[l->ntc++];
      tc->cluster = cluster;
      tc->linear = ctas[k]->linear;
      tc->rank = ctas[k]->rank;
      tc->n = ctas[k]->ev.n;
      tc->e = malloc(tc->n * sizeof *tc->e);
      if (tc->e) memcpy(tc->e, ctas[k]->ev.e, tc->n * sizeof *tc->e);
      else l->ntc--, l->trace_full = true;
      if (ctas[k]->ev.full) l->trace_full = true;
    }
  }
  pthread_mutex_unlock(lock);
}

/* a binary min-heap of slot free times */
static void sift_down(double *h, uint64_t n, uint64_t i) {
  for (;;) {
    uint64_t a = 2 * i + 1, b = a + 1, m = i;
    if (a < n && h[a] < h[m]) m = a;
    if (b < n && h[b] < h[m]) m = b;
    if (m == i) return;
    double x = h[i];
    h[i] = h[m], h[m] = x;
    i = m;
  }
}

/* every cluster's duration: the run ones' own; the others' interpolated
 * linearly between the nearest run ones: in the cluster index, or, for a
 * grid sampled by column (l->gx), in the column (grid dimension 0) over
 * the mean of the run clusters of each sampled column */
void tm_launch_durations(const tm_launch *l, double *d) {
  uint64_t N = l->s.nclusters;
  if (l->gx && l->pick) {
    uint64_t gx = l->gx, m = 0;
    double *sum = calloc(gx, sizeof *sum), *cnt = calloc(gx, sizeof *cnt), *est = calloc(gx, sizeof *est);
    uint64_t *xs = calloc(gx, sizeof *xs);
    if (sum && cnt && est && xs) {
      for (uint64_t j = 0; j < l->nrun; j++) sum[l->pick[j] % gx] += l->dur[j], cnt[l->pick[j] % gx] += 1;
      for (uint64_t x = 0; x < gx; x++)
        if (cnt[x] > 0) xs[m++] = x, sum[x] /= cnt[x];
      for (uint64_t x = 0, k = 0; x < gx; x++) {
        while (k + 1 < m && xs[k + 1] <= x) k++;
        if (x <= xs[0]) est[x] = sum[xs[0]];
        else if (k + 1 >= m) est[x] = sum[xs[m - 1]];
        else est[x] = sum[xs[k]] + (double)(x - xs[k]) / (double)(xs[k + 1] - xs[k]) * (sum[xs[k + 1]] - sum[xs[k]]);
      }
      for (uint64_t i = 0; i < N; i++) d[i] = est[i % gx] + l->p.cta_launch;
      free(sum), free(cnt), free(est), free(xs);
      return;
    }
    free(sum), free(cnt), free(est), free(xs); /* out of memory: by the index below */
  }
  for (uint64_t i = 0; i < N; i++) {
    if (!l->pick) {
      d[i] = l->dur[i];
    } else {
      uint64_t j = run_index(l, i);
      if (l->pick[j] == i || j + 1 >= l->nrun || i < l->pick[0]) d[i] = l->dur[j];
      else {
        double f = (double)(i - l->pick[j]) / (double)(l->pick[j + 1] - l->pick[j]);
        d[i] = l->dur[j] + f * (l->dur[j + 1] - l->dur[j]);
      }
    }
    d[i] += l->p.cta_launch;
  }
}

/* the last, partial wave (t47h): a grid of more clusters than slots ends
 * with r = N mod slots clusters, which share their SMs with fewer others
 * than `share` says (ceil(r x cluster size / SMs) CTAs an SM, at least 1):
 * their durations are max(critical path, that share x the units' work of
 * one CTA), interpolated as the others' (the path stretched by the issue
 * slot's queue at that share: tm_issue_queue) */
void tm_tail_durations(tm_launch *l, double *d, uint64_t slots) {
  uint64_t N = l->s.nclusters;
  if (N <= slots || !l->nrun) return;
  uint64_t r = N % slots;
  double st = ceil((double)r * l->s.cluster_size / l->p.sm_count);
  if (!r || st >= l->rates.share) return;
  if (st < 1) st = 1;
  double *dt = malloc(l->nrun * sizeof *dt), *d2 = malloc(N * sizeof *d2);
  if (dt && d2) {
    for (uint64_t j = 0; j < l->nrun; j++)
      dt[j] = dmax(l->p.tc_queue > 0 ? tm_issue_tc_queue(l->dpath[j], l->dissue[j], l->dtensor[j], st, l->p.issue_queue)
                                     : tm_issue_queue(l->dpath[j], l->dissue[j], st, l->p.issue_queue),
                   st * l->dunit[j]);
    double *full = l->dur;
    l->dur = dt;
    tm_launch_durations(l, d2);
    l->dur = full;
    for (uint64_t i = N - r; i < N; i++) d[i] = d2[i];
  }
  free(dt);
  free(d2);
}

double tm_list_schedule(const double *d, uint64_t n, uint64_t slots, double *starts) {
  return tm_list_schedule_staggered(d, n, slots, slots, 0, starts);
}

/* the same with the first wave's launches staggered (t47h2): an SM launches
 * its CTAs one after another, cta_launch apart (the empty-kernel rows of
 * gpu/run.sh timing-micro: 15 more CTAs an SM cost 15 x 79 ns), so slot k
 * (per_rank slots to a rank: one per SM) is first free at (k / per_rank) x
 * stagger; the heap's array, non-decreasing, is a heap */
double tm_list_schedule_staggered(const double *d, uint64_t n, uint64_t slots, uint64_t per_rank, double stagger,
                                  double *starts) {
  if (!n) return 0;
  if (slots < 1) slots = 1;
  if (slots > n) slots = n;
  if (per_rank < 1) per_rank = 1;
  double *h = calloc(slots, sizeof *h);
  if (!h) return -1;
  double end = 0;
  for (uint64_t i = 0; i < slots; i++) { /* the first wave: cluster i on slot i, launched (i / per_rank) x stagger in */
    double s = (double)(i / per_rank) * stagger;
    if (starts) starts[i] = s;
    h[i] = s + d[i];
    end = dmax(end, h[i]);
  }
  for (uint64_t i = slots / 2; i-- > 0;) sift_down(h, slots, i);
  for (uint64_t i = slots; i < n; i++) { /* then in order of the linear index, each on the slot free first */
    double s = h[0];
    if (starts) starts[i] = s;
    h[0] = s + d[i];
    end = dmax(end, h[0]);
    sift_down(h, slots, 0);
  }
  free(h);
  return end;
}

/* L2's time for the launch's global traffic: reads at l2_bytes_per_clk,
 * stores at l2_write_bytes_per_clk (t47h2: the H200 writes a re-launched
 * stream at about half its read rate, run 5's l2warm_write_us_*; a copy
 * stream's time is close to the two added: docs/timing.md) */
double tm_l2_cycles(const tm_params *p, double traffic, double stores) {
  if (stores > traffic) stores = traffic;
  if (stores < 0) stores = 0;
  double wr = p->l2_write_bytes_per_clk > 0 ? p->l2_write_bytes_per_clk : p->l2_bytes_per_clk;
  return (traffic - stores) / p->l2_bytes_per_clk + stores / wr;
}

tc5_status tm_launch_finish(tm_launch *l, tc5_timing_result *res, tc5_diag *diag) {
  const tm_params *p = &l->p;
  const tm_setup *s = &l->s;
  uint64_t N = s->nclusters;
  if (!l->ran) return TC5_OK;
  double *d = malloc(N * sizeof *d);
  if (!d) return TC5_ENOMEM;
  double dmin = INFINITY, dmx = 0;
  for (uint64_t j = 0; j < l->nrun; j++) dmin = fmin(dmin, l->dur[j]), dmx = dmax(dmx, l->dur[j]);
  tm_launch_durations(l, d);
  uint64_t slots = (uint64_t)(p->sm_count * l->occ.ctas / s->cluster_size);
  if (slots < 1) slots = 1;
  tm_tail_durations(l, d, slots);
  double *starts = s->trace ? calloc(N, sizeof *starts) : NULL;
  uint64_t per_rank = (uint64_t)(p->sm_count / s->cluster_size);
  double make = tm_list_schedule_staggered(d, N, slots, per_rank, p->cta_launch, starts);
  /* whole-launch sums, scaled from the run clusters to all */
  double scale = (double)N / (double)l->nrun;
  double work[TC5_TU_COUNT];
  for (unsigned u = 0; u < TC5_TU_COUNT; u++) work[u] = l->work[u] * scale;
  /* issue: the dispatch slots or the busiest pipe (SFU's is its own unit) */
  for (unsigned u = 0; u < TM_C_COUNT; u++)
    if (u != TM_C_SFU && l->pipe[u] * scale > work[TC5_TU_ISSUE]) work[TC5_TU_ISSUE] = l->pipe[u] * scale;
  double gbytes = l->gmem_bytes * scale, flops = l->flops * scale;
  /* L2/HBM: DRAM moves the buffers' footprint once (less what a warm L2
   * holds); traffic past it is served by L2 when the footprint fits, else
   * half of it misses */
  double dram = tm_dram_bytes(l, gbytes);
  double clk = p->clock_ghz * 1e9;
  /* reads and writes at their own efficiencies: DRAM's bytes split as the
   * launch's global traffic is (stores' share of it) */
  double wfrac = gbytes > 0 ? l->gst_bytes * scale / gbytes : 0;
  double hbm_cyc = (dram * (1 - wfrac) / p->hbm_efficiency + dram * wfrac / p->hbm_write_efficiency) / p->hbm_bytes_per_s * clk;
  double l2_cyc = tm_l2_cycles(p, gbytes, l->gst_bytes * scale);
  double T = dmax(make, dmax(hbm_cyc, l2_cyc));
  memset(res, 0, sizeof *res);
  res->valid = true;
  snprintf(res->gpu, sizeof res->gpu, "%s", p->gpu);
  res->cycles = T;
  res->clock_ghz = p->clock_ghz;
  res->seconds = T / clk + p->launch_overhead_us * 1e-6;
  res->ctas_per_sm = l->occ.ctas;
  res->occupancy_limit = l->occ.limit;
  res->regs_per_thread = s->regs_per_thread ? s->regs_per_thread : 64;
  res->regs_from_ptxas = s->regs_per_thread != 0;
  res->issue_sass_missing = p->issue_from_sass && !(s->sass && s->sass_lines);
  res->smem_per_cta = s->smem_per_cta;
  res->tmem_cols_per_cta = l->occ.tmem_cols;
  res->tmem_cols_assumed_line = p->tmem_cols_per_sm > 0 ? s->tmem_cols_line : 0;
  res->sms = (uint32_t)p->sm_count;
  res->ctas_total = N * s->cluster_size;
  res->waves = (double)res->ctas_total / (p->sm_count * l->occ.ctas);
  res->sampled = l->pick != NULL;
  res->ctas_simulated = l->ran * s->cluster_size;
  res->cta_cycles_min = dmin;
  res->cta_cycles_max = dmx;
  res->dram_bytes = dram;
  res->l2_bytes = gbytes;
  res->flops = flops;
  double denom = p->sm_count * T;
  for (unsigned u = 0; u < TC5_TU_COUNT; u++) res->busy[u] = denom > 0 ? work[u] / denom : 0;
  res->busy[TC5_TU_MEM] = T > 0 ? dmax(hbm_cyc, l2_cyc) / T : 0;
  res->limit = TC5_TU_TENSOR;
  for (unsigned u = 0; u < TC5_TU_COUNT; u++)
    if (res->busy[u] > res->busy[res->limit]) res->limit = (tc5_timing_unit)u;
  res->latency_bound = res->busy[res->limit] < 0.6;
  tc5_status st = TC5_OK;
  if (s->trace) {
    /* each run cluster's start: its place in the list schedule */
    double *rs = calloc(l->nrun ? l->nrun : 1, sizeof *rs);
    if (rs && starts)
      for (uint64_t j = 0; j < l->nrun; j++) rs[j] = starts[l->pick ? l->pick[j] : j];
    st = rs ? tm_trace_write(l, rs, diag) : TC5_ENOMEM;
    free(rs);
  }
  free(starts);
  free(d);
  return st;
}

tc5_status tc5_timing_format(const tc5_timing_result *r, char *buf, size_t cap) {
  if (!r || !buf || !cap) return TC5_EINVAL;
  size_t n = 0;
#define OUT(...) do { int k__ = snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__); if (k__ > 0) n += (size_t)k__; } while (0)
  OUT("tc5 run: timing: %llu CTAs, %.2f waves of %u SMs x %u CTAs/SM (limited by %s; %u registers/thread%s, %u B shared/CTA)\n",
      (unsigned long long)r->ctas_total, r->waves, r->sms, r->ctas_per_sm, r->occupancy_limit ? r->occupancy_limit : "?",
      r->regs_per_thread, r->regs_from_ptxas ? " from ptxas" : " estimated", r->smem_per_cta);
  if (r->tmem_cols_per_cta) { /* t47u: occupancy by Tensor Memory */
    if (r->tmem_cols_assumed_line)
      OUT("tc5 run: timing: Tensor Memory: %u columns a CTA assumed (tcgen05.alloc at line %u: nCols not constant in "
          "the PTX; counted as the whole Tensor Memory, the most one allocation takes)\n",
          r->tmem_cols_per_cta, r->tmem_cols_assumed_line);
    else
      OUT("tc5 run: timing: Tensor Memory: %u columns a CTA (its tcgen05.alloc nCols)\n", r->tmem_cols_per_cta);
  }
  if (r->issue_sass_missing)
    OUT("tc5 run: timing: issue counted per PTX instruction: ptxas's SASS counts not found (ptxas and nvdisasm: "
        "TC5_PTXAS, TC5_NVDISASM, PATH); %s's parameter table assumes them\n", r->gpu);
  OUT("tc5 run: timing: busy:");
  for (unsigned u = 0; u < TC5_TU_COUNT; u++) OUT(" %s %.0f%%%s", tc5_timing_unit_name((tc5_timing_unit)u), 100 * r->busy[u], u + 1 < TC5_TU_COUNT ? "," : "\n");
  OUT("tc5 run: timing: limited by %s\n", r->latency_bound ? "latency (no unit above 60% busy)" : tc5_timing_unit_name(r->limit));
  if (r->sampled)
    OUT("tc5 run: timing: sampled: %llu of %llu CTAs simulated in detail (outputs written for those only)\n",
        (unsigned long long)r->ctas_simulated, (unsigned long long)r->ctas_total);
  OUT("tc5 run: timing: predicted %.3f us on %s%s\n", r->seconds * 1e6, r->gpu, r->sampled ? " (sampled)" : "");
#undef OUT
  return n < cap ? TC5_OK : TC5_ETRUNC;
}
