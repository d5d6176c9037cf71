/* tc5 timing model — per-warp clocks, the register scoreboard, barriers and
 * mbarriers carrying time, and the SM's asynchronous units (tensor core,
 * TMA, Tensor Memory, group FIFOs). Every function here runs on the worker
 * thread of the CTA's cluster: no locks. docs/timing.md gives the
 * equations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "timing/timing_impl.h"

static inline double dmax(double a, double b) { return a > b ? a : b; }

tc5_status tm_cta_new(tm_launch *l, uint32_t nwarps, tm_cta **out) {
  tm_cta *t = calloc(1, sizeof *t);
  if (!t) return TC5_ENOMEM;
  t->l = l;
  t->nwarps = nwarps;
  size_t nr = l->s.reg_hi > l->s.reg_lo ? l->s.reg_hi - l->s.reg_lo : 1;
  t->w = calloc(nwarps ? nwarps : 1, sizeof *t->w);
  t->ready = calloc((size_t)(nwarps ? nwarps : 1) * nr, sizeof *t->ready);
  if (!t->w || !t->ready) {
    tm_cta_free(t);
    return TC5_ENOMEM;
  }
  for (uint32_t k = 0; k < nwarps; k++) t->w[k].ready = t->ready + (size_t)k * nr;
  *out = t;
  return TC5_OK;
}

void tm_cta_free(tm_cta *t) {
  if (!t) return;
  free(t->w);
  free(t->ready);
  free(t->ev.e);
  free(t);
}

void tm_cta_begin(tm_cta *t, uint64_t cluster, uint32_t rank, uint64_t linear) {
  tm_launch *l = t->l;
  size_t nr = l->s.reg_hi > l->s.reg_lo ? l->s.reg_hi - l->s.reg_lo : 1;
  memset(t->ready, 0, (size_t)t->nwarps * nr * sizeof *t->ready);
  for (uint32_t k = 0; k < t->nwarps; k++) {
    double *r = t->w[k].ready;
    memset(&t->w[k], 0, sizeof t->w[k]);
    t->w[k].ready = r;
    t->w[k].span_start = -1;
    t->w[k].pending_wait = -1;
  }
  memset(t->bar, 0, sizeof t->bar);
  memset(t->cal, 0, sizeof t->cal);
  memset(t->pcal, 0, sizeof t->pcal);
  memset(t->wg_done, 0, sizeof t->wg_done);
  memset(t->wg_seq, 0, sizeof t->wg_seq);
  memset(t->work, 0, sizeof t->work);
  memset(t->pipe, 0, sizeof t->pipe);
  t->tc_free = t->tc_done = t->tma_free = 0;
  t->tc_src = 0;
  t->gmem_bytes = t->flops = t->cp_bytes = t->gst_bytes = 0;
  t->end = 0;
  t->cluster = cluster;
  t->rank = rank;
  t->linear = linear;
  t->next_id = 1;
  t->sfu_e = -1;
  t->ev.n = 0;
  t->ev.full = false;
}

/* ---- the trace's events (kept only with a trace file) ---- */
static uint32_t ev_span(tm_cta *t, uint32_t tid, double ts, double dur, const char *name, uint32_t line, uint32_t line2) {
  if (!t->l->s.trace) return 0;
  uint32_t id = t->next_id++ & 0xFFFFFu;
  tm_event e = {ts, dur, name, tid, 'X', id, line, line2};
  tm_ev_add(&t->ev, &e);
  return tid << 20 | id;
}
static void ev_flow(tm_cta *t, uint32_t src, double src_ts, uint32_t warp, double ts) {
  if (!t->l->s.trace || !src) return;
  uint32_t id = t->next_id++;
  tm_event s = {src_ts - 0.5, 0, "completes", src >> 20, 's', id, 0, 0};
  tm_event f = {ts, 0, "completes", warp, 'f', id, 0, 0};
  tm_ev_add(&t->ev, &s);
  tm_ev_add(&t->ev, &f);
}
/* the warp's open span ends at its clock (a loop's iteration, a wait) */
static void span_close(tm_cta *t, uint32_t warp) {
  tm_warp *w = &t->w[warp];
  if (w->span_start < 0) return;
  if (t->l->s.trace && w->clock > w->span_start)
    ev_span(t, warp, w->span_start, w->clock - w->span_start, w->span_name, w->span_line, 0);
  w->span_start = -1;
}
/* a wait lets warp go on at time `at`: the span ends where it waited */
static void wait_until(tm_cta *t, uint32_t warp, double at, uint32_t src, double src_ts) {
  tm_warp *w = &t->w[warp];
  if (at <= w->clock) return;
  span_close(t, warp);
  ev_flow(t, src, src_ts, warp, at);
  w->clock = at;
  w->front = dmax(w->front, at);
}

/* the SFU track: spans merged while the unit stays busy (a gap of more
 * than an SFU latency starts a new one), so a softmax is a few spans */
static void sfu_span(tm_cta *t, double s, double e, uint32_t line) {
  if (t->sfu_e >= 0 && s <= t->sfu_e + t->l->p.lat_sfu) {
    if (e > t->sfu_e) t->sfu_e = e;
    if (s < t->sfu_s) t->sfu_s = s;
    return;
  }
  tm_sfu_flush(t);
  t->sfu_s = s, t->sfu_e = e, t->sfu_line = line;
}
void tm_sfu_flush(tm_cta *t) {
  if (t->sfu_e >= 0) ev_span(t, TM_TID_SFU, t->sfu_s, t->sfu_e - t->sfu_s, "SFU", t->sfu_line, 0);
  t->sfu_e = -1;
}

/* ---- groups: cp.async and bulk (per warp), wgmma (per warpgroup) ---- */
static void grp_commit(tm_groups *g) {
  double prev = g->n ? g->done[(g->n - 1) % 32] : 0;
  g->done[g->n % 32] = dmax(prev, g->cur);
  g->n++;
  g->cur = 0;
}
/* wait_group keep: the groups but the `keep` most recent complete */
static double grp_wait(const tm_groups *g, uint32_t keep) {
  double t = keep == 0 ? g->cur : 0; /* wait_all / wait_group 0 also covers uncommitted ones (cp.async.wait_all) */
  if (g->n > keep) t = dmax(t, g->done[(g->n - 1 - keep) % 32]);
  return t;
}

/* ---- dispatch: one warp-instruction a cycle a scheduler (t47b2) ----
 * Warps sharing a scheduler (warp % schedulers) cannot dispatch in the
 * same cycle. The runner runs a warp until it blocks, so the warps of a
 * scheduler are simulated one after another over the same stretch of
 * time: each dispatch takes a slot in the scheduler's calendar and a
 * later-simulated warp takes the first free slot at or after its own
 * start. The calendar is a sliding window of TM_CAL_BITS cycles; a start
 * before the window (a warp simulated far behind the others) is not
 * tracked and dispatches as it is. */
double tm_cal_take(tm_cal *c, double start) {
  if (start < 0) start = 0;
  uint64_t t = (uint64_t)start;
  if (t < c->base) return start;
  for (unsigned tries = 0; tries < 4 * TM_CAL_BITS; tries++, t++) {
    if (t >= c->base + TM_CAL_BITS) { /* slide: the window ends at t + half a window */
      uint64_t nb = t + 1 + TM_CAL_BITS / 2 - TM_CAL_BITS;
      if (nb - c->base >= TM_CAL_BITS) memset(c->bits, 0, sizeof c->bits);
      else
        for (uint64_t x = c->base; x < nb; x++) c->bits[(x % TM_CAL_BITS) / 64] &= ~(1ull << (x % 64));
      c->base = nb;
    }
    uint64_t *wd = &c->bits[(t % TM_CAL_BITS) / 64], m = 1ull << (t % 64);
    if (!(*wd & m)) {
      *wd |= m;
      return t == (uint64_t)start ? start : (double)t;
    }
  }
  return start;
}

/* a calendar's window moved on so that it holds cycle t */
static void cal_slide(tm_cal *c, uint64_t t) {
  if (t < c->base + TM_CAL_BITS) return;
  uint64_t nb = t + 1 + TM_CAL_BITS / 2 - TM_CAL_BITS;
  if (nb - c->base >= TM_CAL_BITS) memset(c->bits, 0, sizeof c->bits);
  else
    for (uint64_t x = c->base; x < nb; x++) c->bits[(x % TM_CAL_BITS) / 64] &= ~(1ull << (x % 64));
  c->base = nb;
}
/* cycle t taken (a cycle before the window counts as free, as in tm_cal_take) */
static bool cal_busy(tm_cal *c, uint64_t t) {
  if (t < c->base) return false;
  cal_slide(c, t);
  return (c->bits[(t % TM_CAL_BITS) / 64] >> (t % 64)) & 1;
}
static void cal_mark(tm_cal *c, uint64_t t) {
  if (t < c->base) return;
  cal_slide(c, t);
  c->bits[(t % TM_CAL_BITS) / 64] |= 1ull << (t % 64);
}

/* the pipe calendar a pipe (tm_pipe_of) keeps, or -1 */
int tm_pipe_slot(unsigned pipe) {
  switch (pipe) {
  case TM_C_INT: return TM_PS_INT;
  case TM_C_FP32: return TM_PS_FP32;
  case TM_C_FP64: return TM_PS_FP64;
  case TM_C_SFU: return TM_PS_SFU;
  case TM_C_CONV: return TM_PS_CONV;
  case TM_C_SHFL: return TM_PS_SHFL;
  case TM_C_MMA_SYNC: return TM_PS_MMA_SYNC;
  case TM_C_IMAD: return TM_PS_IMAD;
  default: return -1;
  }
}

/* dispatch and pipe (t47p): a scheduler dispatches one warp-instruction a
 * clock (its slot), and an instruction's pipe is then busy `busy` clocks
 * (its class's issue cost): the next instruction of that pipe from any
 * warp of the scheduler waits for it, an instruction of another pipe does
 * not (run 6/7's unit rows, tests/data/timing/h200_micro_run6.tsv and
 * _run7.tsv: alu ISETP+SEL 2.01 a SASS instruction, FFMA 1.0; intf's
 * ffma_isetp_sel loops at one dispatch a SASS instruction and 2 clk an
 * ALU instruction, no extra cost for mixing them). The first cycle >=
 * start with the dispatch slot free and the pipe free for busy cycles
 * from it; both taken */
double tm_dispatch_take(tm_cal *dispatch, tm_cal *pipe, double start, unsigned busy) {
  if (start < 0) start = 0;
  uint64_t t = (uint64_t)start;
  for (unsigned tries = 0; tries < 4 * TM_CAL_BITS; tries++, t++) {
    if (cal_busy(dispatch, t)) continue;
    unsigned k = 0;
    while (k < busy && !cal_busy(pipe, t + k)) k++;
    if (k < busy) continue;
    cal_mark(dispatch, t);
    for (k = 0; k < busy; k++) cal_mark(pipe, t + k);
    return t == (uint64_t)start ? start : (double)t;
  }
  return start;
}

/* an instruction's operand 0 value in its first active lane (wait_group N) */
static uint32_t imm0(const chk_insn *ci, const uint64_t *r, uint32_t mask) {
  if (!ci->nregs || !mask) return 0;
  return (uint32_t)CHK_R(&(chk_warp){.r = r}, ci->regs[0].reg)[__builtin_ctz(mask)];
}

/* FP32 operations a lane of an FP32-class instruction does: 2 for the
 * packed .f32x2 forms (FFMA2, FMUL2, FADD2 on sm_100; 8 bytes an
 * operand), else 1. The vendor's FP32 rate is one FMA a lane a clock
 * (HGX B200 datasheet: 75 TFLOP/s FP32 = 148 SMs x 128 lanes x 2 FLOP x
 * 1.98 GHz; docs/timing.md "FA4's forward"), so a packed instruction's
 * 64 FMAs a warp hold one sub-partition's 32 lanes for two issue slots */
double tm_fp32_lanes(const tm_insn *ti) { return ti->bytes > 4 ? 2 : 1; }

/* the pipe a class's issue cost occupies: its own, but the f32 compares,
 * selects, min and max (TM_C_FSEL) share the integer ALU's (TM_C_INT's)
 * where the table says so (fsel_alu_pipe: on the H200 FSETP + FSEL issue
 * at 2.01 clk a warp-instruction together, as ISETP + SEL, run 6), else
 * the FP32 pipe's */
unsigned tm_pipe_of(const tm_params *p, unsigned cls) {
  if (cls >= TM_C_COUNT) return 0;
  if (cls == TM_C_FSEL) return p->fsel_alu_pipe ? TM_C_INT : TM_C_FP32;
  if (cls == TM_C_IMAD) return p->imad_pipe ? TM_C_IMAD : TM_C_INT; /* t47s: IMAD's own pipe (run 8), else the ALU's */
  return cls;
}

/* a cp.async's bytes read from global memory: with a src-size operand
 * (operand 3), each lane's min(src-size, cp-size); a zero-fill (src-size
 * 0, Triton's pipelined prologue past a CTA's last row) reads nothing
 * (t47h2: on the H200 it still moves through the SM's cp.async path at
 * the same rate, run 5's cpasync_allsm_8cta256_s4_zfill, so it stays in
 * the CTA's cp.async bytes and shared-memory work); without it, all */
static double cp_async_src_bytes(const tm_insn *ti, const chk_insn *ci, const uint64_t *r, uint32_t mask, double all) {
  unsigned cp = ti->bytes ? ti->bytes : 16;
  for (unsigned k = 0; k < ci->nregs; k++) {
    const chk_reg *g = &ci->regs[k];
    if (g->op != 3 || (g->flags & CHK_R_DST)) continue;
    const uint64_t *v = CHK_R(&(chk_warp){.r = r}, g->reg);
    double b = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
      uint64_t s = v[__builtin_ctz(m)];
      b += s < cp ? (double)s : cp;
    }
    return b;
  }
  return all;
}

/* the order a class keeps among the warp's instructions where ptxas's
 * SASS is known and the table says so (ptxas_order, t47s). ptxas lists-
 * schedules each stretch of straight-line code: an arithmetic instruction
 * that waits for an operand is placed after the independent instructions
 * that follow it, so on silicon its wait holds back only what depends on
 * it (run 6's intf loops: ISETP, ISETP, FFMA, SEL, ISETP, FFMA, ... at the
 * ALU pipe's 4 clk a pair, not the PTX order's 6). Three kinds:
 *   TM_ORD_FLOAT  register arithmetic: issues when its operands are ready,
 *                 at or after the warp's in-order front; a wait for an
 *                 operand does not move the front (later independent
 *                 instructions go first);
 *   TM_ORD_FRONT  shared/global/local memory, shuffles, mma.sync: in order
 *                 with each other at the front (ptxas hoists them above
 *                 independent arithmetic, never across each other), a
 *                 wait for an operand moves the front;
 *   TM_ORD_FLUSH  everything else (branches, barriers, mbarriers, waits,
 *                 asynchronous units, fences, atomics): after every
 *                 instruction before it, as without the rule */
enum { TM_ORD_FLUSH, TM_ORD_FRONT, TM_ORD_FLOAT };
int tm_order_of(unsigned cls) {
  switch (cls) {
  case TM_C_INT:
  case TM_C_FP32:
  case TM_C_FP16X2:
  case TM_C_FP64:
  case TM_C_SFU:
  case TM_C_CONV:
  case TM_C_CONV_FLOAT:
  case TM_C_MOVE:
  case TM_C_FSEL:
  case TM_C_IMAD: return TM_ORD_FLOAT;
  case TM_C_LD_SHARED:
  case TM_C_ST_SHARED:
  case TM_C_LD_GLOBAL:
  case TM_C_ST_GLOBAL:
  case TM_C_LOCAL:
  case TM_C_SHFL:
  case TM_C_MMA_SYNC: return TM_ORD_FRONT;
  default: return TM_ORD_FLUSH;
  }
}

/* a class whose SASS has a fixed latency on Hopper (ptxas covers it with
 * stall counts, no scoreboard): the integer ALU, IMAD, FP32, FP16x2, FSEL and
 * the float-width conversions (F2FP, HADD2.F32) */
bool tm_fixed_latency(unsigned cls) {
  return cls == TM_C_INT || cls == TM_C_IMAD || cls == TM_C_FP32 || cls == TM_C_FP16X2 || cls == TM_C_FSEL ||
         cls == TM_C_CONV_FLOAT;
}

/* a class's issue cost: cycles its pipe is busy a warp-instruction (>= 1) */
static double issue_of(const tm_params *p, const tm_insn *ti) {
  double issue = p->issue_other;
  switch ((tm_class)ti->cls) {
  case TM_C_INT:
  case TM_C_IMAD: issue = p->issue_int; break; /* IMAD: its pipe, tm_pipe_of */
  case TM_C_FP32: issue = p->issue_fp32 * tm_fp32_lanes(ti); break;
  case TM_C_FSEL: issue = p->issue_fsel; break; /* its pipe: tm_pipe_of */
  case TM_C_FP16X2: issue = p->issue_fp16x2; break;
  case TM_C_FP64: issue = p->issue_fp64; break;
  case TM_C_SFU: issue = p->issue_sfu; break;
  case TM_C_CONV: issue = p->issue_conv; break;
  case TM_C_CONV_FLOAT: issue = p->issue_conv_float; break;
  case TM_C_SHFL: issue = p->issue_shfl; break;
  case TM_C_MMA_SYNC: issue = (double)ti->flops * 64 / (p->mma_sync_flops_per_clk / p->schedulers); break;
  default: break;
  }
  return issue < 1 ? 1 : issue;
}

void tm_step(tm_cta *t, uint32_t warp, uint32_t pc, uint32_t mask, const uint64_t *r, int what) {
  tm_launch *l = t->l;
  const tm_params *p = &l->p;
  tm_warp *w = &t->w[warp];
  const tm_insn *ti = &l->s.insn[pc];
  const chk_insn *ci = &l->s.ck[pc];
  if (what == TM_BLOCKED) { /* a wait that will be retried: the span ends here */
    span_close(t, warp);
    return;
  }
  uint32_t lo = l->s.reg_lo, hi = l->s.reg_hi;
  if (ti->cls == TM_C_REG_MOVE) { /* coalesced by ptxas: no dispatch, its destination ready when its source is */
    double src = 0;
    for (unsigned k = 0; k < ci->nregs; k++) {
      const chk_reg *g = &ci->regs[k];
      if (!(g->flags & CHK_R_DST) && g->reg >= lo && g->reg < hi) src = dmax(src, w->ready[g->reg - lo]);
    }
    for (unsigned k = 0; k < ci->nregs; k++) {
      const chk_reg *g = &ci->regs[k];
      if ((g->flags & CHK_R_DST) && g->reg >= lo && g->reg < hi) w->ready[g->reg - lo] = src;
    }
    return;
  }
  /* the scoreboard: sources (and the guard) ready */
  double opnd = 0;
  if (ci->guard >= lo && ci->guard < hi) opnd = dmax(opnd, w->ready[ci->guard - lo]);
  for (unsigned k = 0; k < ci->nregs; k++) {
    const chk_reg *g = &ci->regs[k];
    if (!(g->flags & CHK_R_DST) && g->reg >= lo && g->reg < hi) opnd = dmax(opnd, w->ready[g->reg - lo]);
  }
  /* ptxas's order (tm_order_of): off, or the SASS unknown, every instruction flushes (PTX order) */
  int ord = p->ptxas_order && l->issue_w ? tm_order_of(ti->cls) : TM_ORD_FLUSH;
  /* mem_space_order (t47z): memory operations keep their order within a state space (shared, global), not
   * across them; a store that waits for its data lets the instructions after it go first (ptxas hoists the
   * global loads of a copy loop above its shared stores: r2p_mask's LDG x 16 then STS x 16) */
  int space = ti->cls == TM_C_LD_SHARED || ti->cls == TM_C_ST_SHARED ? 0
              : ti->cls == TM_C_LD_GLOBAL || ti->cls == TM_C_ST_GLOBAL ? 1 : -1;
  bool msord = p->mem_space_order > 0 && ord == TM_ORD_FRONT && space >= 0;
  if (msord && (ti->cls == TM_C_ST_SHARED || ti->cls == TM_C_ST_GLOBAL)) ord = TM_ORD_FLOAT;
  double start = dmax(ord == TM_ORD_FLUSH ? w->clock : w->front, opnd);
  if (msord) start = dmax(start, w->st_at[space]);
  bool floated = ord == TM_ORD_FLOAT && opnd > w->front;
  uint32_t nsch = p->schedulers >= 1 && p->schedulers <= TM_CAL_SCHED ? (uint32_t)p->schedulers : 1;
  double issue = issue_of(p, ti);
  /* ptxas's SASS known (sass_weights.c): the instruction is the n SASS
   * instructions ptxas made of it; n = 0 (folded into another's SASS) costs nothing */
  double n = l->issue_w ? l->issue_w[pc] : 1.0;
  /* its scheduler's dispatch slot (warps sharing a scheduler take turns),
   * and its pipe's (t47p: tm_dispatch_take) */
  unsigned pipe = tm_pipe_of(p, ti->cls);
  int ps = p->pipe_dispatch ? tm_pipe_slot(pipe) : -1; /* off: the warp holds the pipe's issue cost (B200) */
  double busy = (n < 1 ? n : 1) * issue;
  if (ps >= 0 && busy >= 1.5) start = tm_dispatch_take(&t->cal[warp % nsch], &t->pcal[warp % nsch][ps], start, (unsigned)lround(busy));
  else start = tm_cal_take(&t->cal[warp % nsch], start);
  if (msord && (ti->cls == TM_C_ST_SHARED || ti->cls == TM_C_ST_GLOBAL)) w->st_at[space] = start;
  if (w->span_start < 0) {
    w->span_start = start;
    w->span_line = ti->line;
    w->span_name = ti->text;
  }
  unsigned lanes = (unsigned)__builtin_popcount(mask);
  double bytes = (double)lanes * ti->bytes;
  double lat = p->lat_alu;
  const double share = l->rates.share;
  switch ((tm_class)ti->cls) {
  case TM_C_FP64: lat = p->lat_fp64; break;
  case TM_C_SFU:
    lat = p->lat_sfu;
    t->work[TC5_TU_SFU] += p->issue_sfu / p->schedulers;
    /* t47v (run 10): a MUFU also holds the FP32 pipe sfu_fp32_clk clocks (k MUFU.EX2 + 16 - k FFMA
     * saturate above max(dispatch, SFU, FFMA) where they balance; with SEL, at max(ALU, SFU)). Counted
     * in the CTA's FP32 pipe work, the saturated bound U; not on the warp's calendar, where FFMA's own
     * 1 clk is not kept either. 0 (B200): nothing */
    t->pipe[TM_C_FP32] += (n < 1 ? n : 1) * p->sfu_fp32_clk / p->schedulers;
    if (l->s.trace) sfu_span(t, start, start + lat, ti->line);
    break;
  case TM_C_CONV: lat = p->lat_conv; break;
  case TM_C_SHFL: lat = p->lat_shfl; break;
  case TM_C_LD_SHARED:
  case TM_C_ST_SHARED:
    lat = p->lat_smem + bytes / p->smem_bytes_per_clk;
    t->work[TC5_TU_SMEM] += bytes / p->smem_bytes_per_clk;
    break;
  case TM_C_LD_GLOBAL:
  case TM_C_ST_GLOBAL:
    lat = l->rates.gmem_latency;
    t->gmem_bytes += bytes;
    if (ti->cls == TM_C_ST_GLOBAL) t->gst_bytes += bytes;
    break;
  case TM_C_LOCAL: lat = p->lat_local; break;
  case TM_C_ATOMIC:
    lat = p->lat_atomic;
    t->gmem_bytes += bytes;
    break;
  case TM_C_CP_ASYNC: {
    double b = lanes * (ti->bytes ? ti->bytes : 16);
    t->gmem_bytes += cp_async_src_bytes(ti, ci, r, mask, b);
    t->cp_bytes += b;
    t->work[TC5_TU_SMEM] += b / p->smem_bytes_per_clk;
    w->cp.cur = dmax(w->cp.cur, start + l->rates.cp_latency + b / l->rates.cp_bpc);
    break;
  }
  case TM_C_CP_COMMIT: grp_commit(&w->cp); break;
  case TM_C_CP_WAIT: wait_until(t, warp, grp_wait(&w->cp, ci->nregs ? imm0(ci, r, mask) : 0), 0, 0); start = dmax(start, w->clock); break;
  case TM_C_BULK_COMMIT: grp_commit(&w->bulk); break;
  case TM_C_BULK_WAIT: wait_until(t, warp, grp_wait(&w->bulk, imm0(ci, r, mask)), 0, 0); start = dmax(start, w->clock); break;
  case TM_C_TMA:
    /* a load's time comes with its complete_tx (tm_mbar_signal); a store
     * or prefetch completes its bulk group after the TMA latency */
    w->bulk.cur = dmax(w->bulk.cur, dmax(start, t->tma_free) + p->tma_latency);
    break;
  case TM_C_MMA:
    if (!l->s.insn[pc].bytes) w->wg_issued++; /* wgmma (bytes 1: tcgen05.mma) */
    break;
  case TM_C_WG_COMMIT:
    w->wg_bound[w->wg_groups % 32] = w->wg_issued;
    w->wg_groups++;
    break;
  case TM_C_WG_WAIT: {
    uint32_t keep = imm0(ci, r, mask), g = warp / 4;
    if (w->wg_groups > keep && g < 8) {
      uint32_t b = w->wg_bound[(w->wg_groups - 1 - keep) % 32];
      if (b) wait_until(t, warp, t->wg_done[g][(b - 1) % 64], 0, 0);
    }
    start = dmax(start, w->clock);
    break;
  }
  case TM_C_TMEM_LD:
  case TM_C_TMEM_ST: {
    double b = (double)(ci->nregs > 1 ? ci->nregs - 1 : 1) * 4 * 32;
    double done = start + p->tmem_ld_latency + (p->tmem_bytes_per_clk > 0 ? b / p->tmem_bytes_per_clk * share : 0);
    if (ti->cls == TM_C_TMEM_LD) w->tmem_ld = dmax(w->tmem_ld, done);
    else w->tmem_st = dmax(w->tmem_st, done);
    if (l->s.trace) ev_span(t, TM_TID_TMEM, start, done - start, ti->cls == TM_C_TMEM_LD ? "tcgen05.ld" : "tcgen05.st/cp", ti->line, 0);
    break;
  }
  case TM_C_TMEM_WAIT: wait_until(t, warp, dmax(w->tmem_ld, w->tmem_st), 0, 0); start = dmax(start, w->clock); break;
  case TM_C_MMA_SYNC: { /* its own rate and latency (measured: mma.sync m16n8k16) */
    double f = (double)ti->flops * 64;
    lat = p->mma_sync_latency;
    t->work[TC5_TU_TENSOR] += f / p->mma_sync_flops_per_clk;
    t->flops += f;
    break;
  }
  default: break;
  }
  /* a scheduler dispatches one warp-instruction a cycle: the warp's n
   * SASS instructions hold it n cycles; the class's pipe is busy for its
   * issue cost (taken above on the pipe's calendar: the warp does not
   * wait for it, the pipe's next instruction does) */
  t->work[TC5_TU_ISSUE] += n / p->schedulers;
  t->pipe[pipe] += busy / p->schedulers;
  double hold = ps >= 0 || issue <= 1 ? n : n < 1 ? n * issue : n > issue ? n : issue;
  /* ptxas's stall schedule (t47z, stall_sched): the stall counts ptxas wrote
   * in the control bits of the line's SASS hold the warp that long (its own
   * static issue time: fixed-latency dependencies and a warp's own pipe
   * throughput, in ptxas's order); a fixed-latency result is then ready when
   * the warp may issue again (the schedule already waited for it), while a
   * variable-latency one (MUFU, memory, conversions, shuffles, FP64) keeps
   * its class's latency on the scoreboard, as ptxas's wait masks do */
  double sig = l->issue_stall ? l->issue_stall[pc] : -1;
  if (sig >= 0 && sig > hold) hold = sig;
  double end = start + hold;
  w->clock = dmax(w->clock, end);
  if (!floated) w->front = ord == TM_ORD_FLUSH ? w->clock : end; /* a floated instruction leaves the front where it was */
  /* an arithmetic instruction folded into another's SASS (n = 0: a shift
   * into an LEA, and + setp into an R2P, a parameter into a constant
   * operand) has no latency of its own: the SASS that does its work is
   * charged on its line */
  if (n == 0 && (ti->cls <= TM_C_MOVE || ti->cls == TM_C_FSEL || ti->cls == TM_C_IMAD)) lat = 0;
  else if (sig >= 0 && tm_fixed_latency(ti->cls)) lat = hold;
  for (unsigned k = 0; k < ci->nregs; k++) {
    const chk_reg *g = &ci->regs[k];
    if ((g->flags & CHK_R_DST) && g->reg >= lo && g->reg < hi) w->ready[g->reg - lo] = start + lat;
  }
  if (what == TM_LOOP) span_close(t, warp);
}

/* ---- mbarriers ---- */
static void mb_stamp(tm_mb *mb, double at, uint32_t src, uint32_t phase) {
  if (at >= mb->cur) mb->cur = at, mb->cur_src = src;
  if (phase != mb->phase) { /* this arrival completed the phase */
    mb->done = mb->cur;
    mb->done_src = mb->cur_src;
    mb->cur = 0;
    mb->cur_src = 0;
    mb->phase = phase;
  }
}

void tm_mbar_signal(tm_cta *t, uint32_t warp, uint32_t pc, tm_mb *mb, uint32_t bytes, uint32_t phase) {
  tm_launch *l = t->l;
  const tm_params *p = &l->p;
  tm_warp *w = &t->w[warp];
  const tm_insn *ti = &l->s.insn[pc];
  double at = w->clock;
  uint32_t src = 0;
  if (bytes && ti->cls == TM_C_TMA) { /* a TMA load's bytes landed: behind the SM's earlier TMA traffic */
    double s = dmax(w->clock, t->tma_free), x = bytes / l->rates.tma_bpc;
    t->tma_free = s + x;
    at = s + x + l->rates.tma_load_latency; /* L2 hit/miss mix (t47u) */
    t->work[TC5_TU_TMA] += bytes / p->tma_bytes_per_clk;
    t->gmem_bytes += bytes;
    t->work[TC5_TU_SMEM] += bytes / p->smem_bytes_per_clk;
    src = ev_span(t, TM_TID_TMA, s, at - s, "TMA load", ti->line, bytes);
  } else if (ti->cls == TM_C_CP_ASYNC_ARRIVE) { /* cp.async.mbarrier.arrive: when the warp's copies land */
    at = dmax(at, w->cp.cur);
  }
  mb_stamp(mb, at, src, phase);
}

void tm_tma_store(tm_cta *t, uint32_t warp, uint32_t bytes) {
  tm_launch *l = t->l;
  const tm_params *p = &l->p;
  tm_warp *w = &t->w[warp];
  double s = dmax(w->clock, t->tma_free), x = bytes / l->rates.tma_bpc;
  t->tma_free = s + x;
  w->bulk.cur = dmax(w->bulk.cur, s + x + p->tma_latency);
  t->work[TC5_TU_TMA] += bytes / p->tma_bytes_per_clk;
  t->work[TC5_TU_SMEM] += bytes / p->smem_bytes_per_clk;
  t->gmem_bytes += bytes;
  t->gst_bytes += bytes; /* a write (HBM write efficiency) */
  if (l->s.trace) ev_span(t, TM_TID_TMA, s, x + p->tma_latency, "TMA store", 0, bytes);
}

void tm_commit(tm_cta *t, uint32_t warp, tm_mb *mb, uint32_t phase) {
  double at = dmax(t->w[warp].clock, t->tc_done);
  mb_stamp(mb, at, t->tc_src, phase);
}

void tm_mbar_wait(tm_cta *t, uint32_t warp, const tm_mb *mb) {
  if (mb->done > 0) wait_until(t, warp, mb->done + t->l->p.lat_mbar, mb->done_src, mb->done);
}

/* ---- the tensor core ---- */
static double rate_of(const tm_params *p, unsigned rate) {
  double s = 1;
  switch (rate) {
  case TM_RATE_TF32: s = p->tc_tf32_scale; break;
  case TM_RATE_FP8: s = p->tc_fp8_scale; break;
  case TM_RATE_FP4: s = p->tc_fp4_scale; break;
  case TM_RATE_INT8: s = p->tc_int8_scale; break;
  case TM_RATE_FP64: s = p->tc_fp64_scale; break;
  default: break;
  }
  return p->tc_flops_per_clk * s;
}

/* a tcgen05.mma's cycles on each SM it uses: its FLOPs (half on each SM of
 * a pair) at the kind's rate; cta_group::1 also by its shape (published
 * per-shape throughput: an M = 64 instruction takes as long as M = 128, and
 * an M = 128 one at least tc_floor_clk + N / tc_floor_n_per_clk) */
double tm_tcgen05_cycles(const tm_params *p, uint32_t m, uint32_t n, double flops, unsigned rate, unsigned cta_group) {
  double cyc = (cta_group == 2 ? flops / 2 : flops) / rate_of(p, rate);
  if (cta_group != 2 && m && m < 128) cyc *= 128.0 / m;
  else if (cta_group != 2 && p->tc_floor_n_per_clk > 0) cyc = dmax(cyc, p->tc_floor_clk + n / p->tc_floor_n_per_clk);
  return cyc;
}

static void mma_run(tm_cta *t, uint32_t warp, uint32_t pc, double flops, double unshared, tm_cta *peer, bool wgmma);

void tm_mma(tm_cta *t, uint32_t warp, uint32_t pc, double flops, unsigned rate, tm_cta *peer, bool wgmma) {
  mma_run(t, warp, pc, flops, (peer ? flops / 2 : flops) / rate_of(&t->l->p, rate), peer, wgmma);
}

void tm_tcgen05(tm_cta *t, uint32_t warp, uint32_t pc, uint32_t m, uint32_t n, double flops, unsigned rate, tm_cta *peer) {
  mma_run(t, warp, pc, flops, tm_tcgen05_cycles(&t->l->p, m, n, flops, rate, peer ? 2 : 1), peer, false);
}

/* the tensor core in order: `unshared` cycles of it on each SM (x share) */
static void mma_run(tm_cta *t, uint32_t warp, uint32_t pc, double flops, double unshared, tm_cta *peer, bool wgmma) {
  tm_launch *l = t->l;
  const tm_params *p = &l->p;
  /* tc_queue (t47z): the tensor core's wait for the co-resident CTAs is the queue's (tm_issue_tc_queue), not share x */
  double cyc = unshared * (p->tc_queue > 0 ? 1 : l->rates.share);
  double s = dmax(t->w[warp].clock, t->tc_free);
  if (peer) s = dmax(s, peer->tc_free);
  double done = s + cyc + p->mma_latency;
  t->tc_free = s + cyc;
  t->tc_done = dmax(t->tc_done, done);
  t->work[TC5_TU_TENSOR] += unshared;
  t->flops += flops;
  t->tc_src = ev_span(t, TM_TID_MMA, s, done - s, wgmma ? "wgmma" : "tcgen05.mma", l->s.insn[pc].line, 0);
  if (peer) { /* the pair's other tensor core works too */
    peer->tc_free = t->tc_free;
    peer->tc_done = dmax(peer->tc_done, done);
    peer->work[TC5_TU_TENSOR] += unshared;
  }
  if (wgmma) {
    uint32_t g = warp / 4;
    if (g < 8) {
      uint32_t q = t->wg_seq[g]++;
      double prev = q ? t->wg_done[g][(q - 1) % 64] : 0;
      t->wg_done[g][q % 64] = dmax(prev, done);
    }
  }
}

/* ---- bar.sync ---- */
void tm_bar_arrive(tm_cta *t, uint32_t warp, uint32_t id) {
  if (id < 16) t->bar[id] = dmax(t->bar[id], t->w[warp].clock);
}
/* bar.sync's latency grows with the warps it releases (the lent H200:
 * 20.7, 28.7 and 76.7 clk at 4, 8 and 32 warps, one line of 2.0 clk a
 * warp: lat_bar at 4 warps + lat_bar_per_warp for each warp more or less) */
double tm_bar_latency(const tm_params *p, unsigned warps) {
  double lat = p->lat_bar + p->lat_bar_per_warp * ((double)warps - 4);
  return lat > 1 ? lat : 1;
}

void tm_bar_done(tm_cta *t, uint32_t id, uint32_t waiting) {
  if (id >= 16) return;
  double at = t->bar[id] + tm_bar_latency(&t->l->p, (unsigned)__builtin_popcount(waiting));
  for (uint32_t k = 0; k < t->nwarps && k < 32; k++)
    if (waiting >> k & 1) wait_until(t, k, at, 0, 0);
  t->bar[id] = 0;
}
