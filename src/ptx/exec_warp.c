/* tc5 PTX runner — control flow and warp-level instructions: bra, ret,
 * exit, call (vprintf), trap, bar/barrier, elect, shfl, vote, match,
 * activemask, and the mbarrier instructions on shared-memory addresses
 * (PTX ISA "Control Flow Instructions", "Parallel Synchronization and
 * Communication Instructions").
 *
 * Waiting: bar.sync puts the warp to sleep until the barrier completes
 * (PX_WAIT: the warp's pc has moved on). mbarrier.test_wait and try_wait
 * return false when the phase has not completed; when the same wait is
 * polled again and nothing in the CTA changed since, the warp sleeps at it
 * until something changes (PX_BLOCK), instead of spinning: the program sees
 * the same answers, only fewer of them. When every live warp waits and
 * nothing can change, the CTA is deadlocked. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "check/check_impl.h"
#include "ptx/decode_impl.h"

static PTX_EXEC(x_bra) {
  w->br_taken = mask;
  w->br_target = (uint32_t)in->o[0].imm;
  return PX_BRANCH;
}
PTX_DEC(dec_bra) {
  d_take(d, "uni");
  if (!d_nops(d, 1, 1) || !d_label(d, 0, &d->in->o[0])) return d->st;
  d->in->fn = x_bra;
  return TC5_OK;
}

/* brx.idx index, table: each lane goes to the table's target `index`
 * (o[1]: the targets' pcs, o[1].n of them) */
static PTX_EXEC(x_brx) {
  const uint32_t *pcs = w->cta->L->m->vregs + in->o[1].vec;
  const uint64_t *ix = PTX_R(w, in->o[0].reg);
  uint32_t pc = (uint32_t)(in - w->cta->L->m->code);
  PTX_LANES(mask, {
    if ((uint32_t)ix[l] >= in->o[1].n)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, ix[l], "brx.idx: index %u is past the table's %u targets", (uint32_t)ix[l],
                      in->o[1].n);
  });
  if (w->converged) {
    PTX_LANES(w->live, w->tpc[l] = w->pc);
    w->converged = false;
  }
  PTX_LANES(w->active & ~mask, w->tpc[l] = pc + 1);
  PTX_LANES(mask, w->tpc[l] = pcs[(uint32_t)ix[l]]);
  return PX_JUMPED;
}
PTX_DEC(dec_brx) {
  ptx_insn *in = d->in;
  if (!d_take(d, "idx")) return d_fail(d, TC5_EPARSE, "brx needs .idx");
  d_take(d, "uni");
  if (!d_nops(d, 2, 2) || !d_src(d, 0, PT_U32, &in->o[0])) return d->st;
  const ptx_raw_opnd *t = &d->r->ops[1];
  const char *const *names;
  unsigned n;
  if (t->kind != RO_SYM || !d->res->table || !d->res->table(d->res->ctx, d->r->scope, t->sym, &names, &n))
    return d_fail(d, TC5_EPARSE, "brx.idx: operand 2 must name a .branchtargets table");
  in->o[1].kind = PO_VEC;
  in->o[1].n = (uint16_t)n;
  in->o[1].vec = d->m->nvregs;
  for (unsigned k = 0; k < n; k++) {
    uint32_t pc;
    if (!d->res->label(d->res->ctx, d->r->scope, names[k], &pc))
      return d_fail(d, TC5_EPARSE, "brx.idx: '%s' of the table is not a label", names[k]);
    /* labels are the function's instruction indexes: the module's are
     * those plus the function's first (decode_body rebases PO_LABEL
     * operands the same way; the function's code starts at m->ncode) */
    if (!d_push_vreg(d, pc + d->m->ncode)) return d->st;
  }
  in->fn = x_brx;
  return TC5_OK;
}

static PTX_EXEC(x_exit) {
  (void)in;
  w->live &= ~mask;
  return PX_EXIT;
}
/* ret from a .func: each lane goes back to its caller, the return value
 * copied into the caller's .param variable (frames are per function, laid
 * side by side in local memory: the parser's frame_base) */
static PTX_EXEC(x_ret) {
  const tc5_ptx_module *m = w->cta->L->m;
  uint32_t pc = (uint32_t)(in - m->code);
  if (w->converged) {
    PTX_LANES(w->live, w->tpc[l] = w->pc);
    w->converged = false;
  }
  PTX_LANES(w->active & ~mask, w->tpc[l] = pc + 1);
  PTX_LANES(mask, {
    if (!w->depth[l]) return ptx_fail(w, in, (int)l, TC5_ESTATE, 0, "ret from a .func that was not called");
    struct ptx_frame *fr = &w->calls[--w->depth[l]][l];
    const ptx_func *f = &m->funcs[fr->func];
    if (fr->ret_off >= 0 && f->nrets) {
      uint8_t *base = w->local + (size_t)l * w->local_bytes;
      memmove(base + fr->ret_off, base + f->frame_base + f->rets[0].offset, f->rets[0].size);
    }
    w->tpc[l] = fr->ret_pc;
  });
  return PX_JUMPED;
}

PTX_DEC(dec_exit) {
  d_take(d, "uni");
  if (!d_nops(d, 0, 0)) return d->st;
  bool entry = d->m->funcs[d->r->func].is_entry;
  d->in->fn = !strcmp(d->tok[0], "ret") && !entry ? x_ret : x_exit;
  return TC5_OK;
}

/* isspacep.space p, a */
static PTX_EXEC(x_isspacep) {
  uint64_t *p = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  PTX_LANES(mask, {
    uint64_t x = a[l];
    bool sh = x >= PTX_GENERIC_SHARED && x < PTX_GENERIC_SHARED + PTX_WINDOW_SIZE;
    bool lo = x >= PTX_GENERIC_LOCAL && x < PTX_GENERIC_LOCAL + PTX_WINDOW_SIZE;
    p[l] = in->space == PS_SHARED ? sh : in->space == PS_LOCAL ? lo : (!sh && !lo);
  });
  return PX_NEXT;
}
PTX_DEC(dec_isspacep) {
  int sp = d_take_space(d);
  if (sp != PS_SHARED && sp != PS_LOCAL && sp != PS_GLOBAL) return d_fail(d, TC5_EUNSUPPORTED, "isspacep takes .global, .shared or .local here");
  d->in->space = (uint8_t)sp;
  if (!d_nops(d, 2, 2) || !d_dst(d, 0, &d->in->o[0]) || !d_src(d, 1, PT_U64, &d->in->o[1])) return d->st;
  d->in->fn = x_isspacep;
  return TC5_OK;
}

/* trap, and brkpt (in->aux 1): the kernel stops with an error (a
 * breakpoint stops it on silicon under a debugger; CUTLASS's
 * device_breakpoint marks paths it rejects) */
static PTX_EXEC(x_trap) {
  if (!mask) return PX_NEXT;
  return ptx_fail(w, in, (int)__builtin_ctz(mask), TC5_EILLEGAL, 0,
                  in->aux ? "brkpt executed (a breakpoint: the kernel reached a path it stops on)" : "trap executed");
}
PTX_DEC(dec_trap) {
  d->in->fn = x_trap;
  d->in->aux = d->tok[0][0] == 'b';
  return d_nops(d, 0, 0) ? TC5_OK : d->st;
}

/* ---- bar.sync / barrier.sync / bar.arrive ---- */
/* in->aux bit 0: arrive only (no wait); operand 0 the barrier, operand 1
 * (optional) the thread count */
static PTX_EXEC(x_bar) {
  uint32_t id = (uint32_t)PTX_R(w, in->o[0].reg)[__builtin_ctz(mask ? mask : 1)];
  uint32_t count = in->nops > 1 ? (uint32_t)PTX_R(w, in->o[1].reg)[__builtin_ctz(mask ? mask : 1)] : 0;
  if (!mask) return PX_NEXT;
  if (id >= PTX_MAX_BARRIERS)
    return ptx_fail(w, in, -1, TC5_ERANGE, id, "barrier %u: there are %d barriers (0-%d)", id, PTX_MAX_BARRIERS,
                    PTX_MAX_BARRIERS - 1);
  if (count % 32)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, count, "barrier thread count %u is not a multiple of the warp size",
                    count);
  return ptx_bar_arrive(w, in, id, count, !(in->aux & 1));
}
/* bar.red.{popc.u32, and.pred, or.pred} d, a{, b}, {!}c: a barrier whose
 * threads all receive the reduction of c over the threads that took part.
 * in->aux2: 0 popc, 1 and, 2 or; operands d, a, [b], c */
static PTX_EXEC(x_bar_red) {
  ptx_cta *c = w->cta;
  unsigned li = (unsigned)__builtin_ctz(mask ? mask : 1);
  uint32_t id = (uint32_t)PTX_R(w, in->o[1].reg)[li];
  bool has_count = in->nops == 4;
  uint32_t count = has_count ? (uint32_t)PTX_R(w, in->o[2].reg)[li] : 0;
  const ptx_opnd *pc = &in->o[has_count ? 3 : 2];
  uint64_t *d = PTX_R(w, in->o[0].reg);
  if (id >= PTX_MAX_BARRIERS)
    return ptx_fail(w, in, -1, TC5_ERANGE, id, "barrier %u: there are %d barriers", id, PTX_MAX_BARRIERS);
  ptx_bar *b = &c->bar[id];
  if (!w->red_arrived) {
    const uint64_t *pv = PTX_R(w, pc->reg);
    PTX_LANES(mask, {
      bool v = (pv[l] != 0) != pc->neg;
      b->red_popc += v;
      b->red_and = b->red_and && v;
      b->red_or = b->red_or || v;
    });
    w->red_arrived = true;
    w->red_phase = b->phase;
    int r = ptx_bar_arrive(w, in, id, count, true);
    if (r == PX_ERROR) return r;
    if (r == PX_WAIT) return PX_WAIT_HERE;
  }
  if (b->phase == w->red_phase) return PX_WAIT_HERE;
  w->red_arrived = false;
  uint64_t v = in->aux2 == 0 ? b->result_popc : in->aux2 == 1 ? b->result_and : b->result_or;
  PTX_LANES(mask, d[l] = v);
  return PX_NEXT;
}

/* barrier.cluster.arrive / .wait: the cluster-wide split barrier; a phase
 * completes when every live thread of the cluster has arrived */
static PTX_EXEC(x_cluster_arrive) {
  (void)in;
  if (!mask) return PX_NEXT;
  ptx_cluster *cl = w->cta->cl;
  if (w->cl_arrived)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, 0, "barrier.cluster.arrive twice without a barrier.cluster.wait between");
  w->cl_arrived = true;
  w->cl_phase = cl->bar_phase;
  cl->bar_arrived += (uint32_t)__builtin_popcount(mask);
  if (w->cta->chk && !in->mods) chk_cluster_arrive(CHK_W(w));
  else if (w->cta->chk) chk_cluster_arrive_relaxed(CHK_W(w)); /* issue 53: orders the warp's reads (xcta_war) */
  ptx_cluster_bar_check(cl);
  if (w->cta->tm) tm_mbar_signal(w->cta->tm, w->id, TM_PC(w, in), &cl->tm_bar, 0, cl->bar_phase);
  return PX_NEXT;
}
static PTX_EXEC(x_cluster_wait) {
  if (!mask) return PX_NEXT;
  if (!w->cl_arrived)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, 0, "barrier.cluster.wait without a barrier.cluster.arrive before it");
  if (w->cta->cl->bar_phase == w->cl_phase) return PX_BLOCK; /* runs again when the phase completes */
  w->cl_arrived = false;
  ptx_px_sync(w); /* the proxies (seeded schedules, issue 53) */
  if (w->cta->chk) chk_cluster_wait(CHK_W(w));
  if (w->cta->tm) tm_mbar_wait(w->cta->tm, w->id, &w->cta->cl->tm_bar);
  return PX_NEXT;
}

/* bar.warp.sync membermask: the warp's threads of membermask meet. Threads
 * of a diverged warp run from the smallest pc, so those behind arrive
 * before the others go on; what is checked is that the mask names only
 * threads that are there */
static PTX_EXEC(x_bar_warp) {
  const uint64_t *mm = PTX_R(w, in->o[0].reg);
  PTX_LANES(mask, {
    if ((uint32_t)mm[l] & ~w->live)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, mm[l], "bar.warp.sync: membermask 0x%08x names threads that have exited (live 0x%08x)",
                      (uint32_t)mm[l], w->live);
    if (!((uint32_t)mm[l] >> l & 1))
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, mm[l], "bar.warp.sync: membermask 0x%08x leaves out the executing thread",
                      (uint32_t)mm[l]);
  });
  return PX_NEXT;
}

PTX_DEC(dec_bar) {
  ptx_insn *in = d->in;
  if (d_take(d, "warp")) {
    if (!d_take(d, "sync")) return d_fail(d, TC5_EPARSE, "bar.warp needs .sync");
    if (!d_nops(d, 1, 1) || !d_src(d, 0, PT_U32, &in->o[0])) return d->st;
    in->fn = x_bar_warp;
    return TC5_OK;
  }
  if (d_take(d, "cluster")) {
    bool arrive = d_take(d, "arrive"), wait = !arrive && d_take(d, "wait");
    if (!arrive && !wait) return d_fail(d, TC5_EPARSE, "barrier.cluster needs .arrive or .wait");
    static const char *const sem[] = {"relaxed", "release", "acquire", NULL};
    in->mods = d_take_one(d, sem) == 0; /* .relaxed: an arrival that releases nothing */
    if (d_take(d, "aligned")) in->flags |= PF_ALIGNED;
    if (!d_nops(d, 0, 0)) return d->st;
    in->fn = arrive ? x_cluster_arrive : x_cluster_wait;
    return TC5_OK;
  }
  bool arrive = d_take(d, "arrive");
  bool sync = d_take(d, "sync");
  bool aligned = d_take(d, "aligned") || !strcmp(d->tok[0], "bar");
  if (d_take(d, "red")) {
    static const char *const ops[] = {"popc", "and", "or", NULL};
    int op = d_take_one(d, ops);
    ptx_type t = d_take_type(d);
    if (op < 0 || (op == 0 ? t != PT_U32 : t != PT_PRED)) return d_fail(d, TC5_EPARSE, "bar.red takes .popc.u32, .and.pred or .or.pred");
    in->aux2 = (uint32_t)op;
    if (aligned) in->flags |= PF_ALIGNED;
    if (!d_nops(d, 3, 4) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, PT_U32, &in->o[1])) return d->st;
    unsigned ci = d->r->nops - 1;
    if (ci == 3 && !d_src(d, 2, PT_U32, &in->o[2])) return d->st;
    if (!d_src(d, ci, PT_PRED, &in->o[ci])) return d->st;
    in->fn = x_bar_red;
    return TC5_OK;
  }
  if (!arrive && !sync && d->ntok > 1 && !d->used[1]) return d_fail(d, TC5_EPARSE, "needs .sync or .arrive");
  if (!arrive && !sync) sync = true; /* bar 0 == bar.sync 0 */
  if (d_take(d, "cta")) { /* barrier.cta.* of PTX 8.0: the same */
  }
  if (arrive) in->aux = 1;
  if (aligned) in->flags |= PF_ALIGNED;
  if (!d_nops(d, 1, 2) || !d_src(d, 0, PT_U32, &in->o[0])) return d->st;
  if (d->r->nops > 1 && !d_src(d, 1, PT_U32, &in->o[1])) return d->st;
  if (arrive && d->r->nops < 2) return d_fail(d, TC5_EILLEGAL, "bar.arrive needs a thread count");
  in->fn = x_bar;
  return TC5_OK;
}

/* ---- elect.sync d|p, membermask ---- */
static PTX_EXEC(x_elect) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  uint64_t *p = in->o[0].reg2 != PTX_NOREG ? PTX_R(w, in->o[0].reg2) : NULL;
  uint32_t mm = (uint32_t)PTX_R(w, in->o[1].reg)[__builtin_ctz(mask ? mask : 1)];
  uint32_t cand = mask & mm;
  if ((mm & w->live) & ~mask)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, mm,
                    "[%s] elect.sync: membermask 0x%08x names threads that did not execute it (active 0x%08x)", chk_rule_id(CR_PARTIAL_WARP), mm, mask);
  unsigned leader = cand ? (unsigned)__builtin_ctz(cand) : 0;
  PTX_LANES(mask, {
    d[l] = leader;
    if (p) p[l] = cand && l == leader;
  });
  return PX_NEXT;
}
PTX_DEC(dec_elect) {
  ptx_insn *in = d->in;
  if (!d_take(d, "sync")) return d_fail(d, TC5_EPARSE, "needs .sync");
  if (!d_nops(d, 2, 2) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, PT_B32, &in->o[1])) return d->st;
  if (in->o[0].reg2 == PTX_NOREG) return d_fail(d, TC5_EPARSE, "elect.sync writes d|p: the predicate p is mandatory (d may be _)");
  in->fn = x_elect;
  return TC5_OK;
}

/* ---- redux.sync.op{.abs}{.NaN}.type d, a, membermask: the reduction of
 * a over the lanes of membermask, given to each of them (PTX ISA, redux.sync:
 * .add/.min/.max on .u32/.s32, .and/.or/.xor on .b32; sm_100a:
 * .min/.max{.abs}{.NaN}.f32). Every lane of membermask must execute it. ---- */
enum { RX_ADD, RX_MIN, RX_MAX, RX_AND, RX_OR, RX_XOR };
enum { RX_SIGNED = 1, RX_F32 = 2, RX_ABS = 4, RX_NAN = 8 };
static float rx_f32(uint64_t b, unsigned mods) {
  uint32_t x = (uint32_t)b & ((mods & RX_ABS) ? 0x7fffffffu : 0xffffffffu);
  float f;
  memcpy(&f, &x, 4);
  return f;
}
static uint64_t rx_fold(unsigned op, unsigned mods, uint64_t acc, uint64_t v) {
  if (mods & RX_F32) { /* min/max: -0 below +0; a NaN is ignored unless .NaN */
    float x = rx_f32(acc, mods), y = rx_f32(v, mods);
    if (x != x) return (mods & RX_NAN) ? acc : v;
    if (y != y) return (mods & RX_NAN) ? v : acc;
    bool below = y < x || (y == x && signbit(y) && !signbit(x));
    bool above = y > x || (y == x && !signbit(y) && signbit(x));
    return (op == RX_MIN ? below : above) ? v : acc;
  }
  uint32_t a = (uint32_t)acc, b = (uint32_t)v;
  bool sg = mods & RX_SIGNED;
  switch (op) {
  case RX_ADD: return (uint32_t)(a + b);
  case RX_MIN: return sg ? ((int32_t)b < (int32_t)a ? b : a) : (b < a ? b : a);
  case RX_MAX: return sg ? ((int32_t)b > (int32_t)a ? b : a) : (b > a ? b : a);
  case RX_AND: return a & b;
  case RX_OR: return a | b;
  default: return a ^ b;
  }
}
static PTX_EXEC(x_redux) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  uint32_t mm = (uint32_t)PTX_R(w, in->o[2].reg)[__builtin_ctz(mask ? mask : 1)];
  if ((mm & w->live) & ~mask || !(mm & mask))
    return ptx_fail(w, in, -1, TC5_EILLEGAL, mm,
                    "redux.sync: membermask 0x%08x must name threads that execute it together (active 0x%08x)", mm, mask);
  unsigned op = in->aux, mods = in->aux2;
  uint32_t lanes = mm & mask;
  uint64_t acc = a[__builtin_ctz(lanes)];
  PTX_LANES(lanes & (lanes - 1), acc = rx_fold(op, mods, acc, a[l]));
  if (mods & RX_F32) { /* the result is the value (its magnitude with .abs); a NaN is the canonical NaN */
    uint32_t x = (uint32_t)acc & ((mods & RX_ABS) ? 0x7fffffffu : 0xffffffffu);
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) x = 0x7fffffffu;
    acc = x;
  }
  PTX_LANES(lanes, d[l] = acc & 0xffffffffu);
  static const char f32[] = "sm_100f sm_103f";
  if ((mods & RX_F32) && w->cta->chk && !ptx_target_in(w->cta->L->m, f32)) chk_target_feature(CHK_W(w), CHK_IN(w, in), "redux.sync .f32", f32);
  return PX_NEXT;
}
PTX_DEC(dec_redux) {
  ptx_insn *in = d->in;
  if (!d_take(d, "sync")) return d_fail(d, TC5_EPARSE, "needs .sync");
  static const char *const ops[] = {"add", "min", "max", "and", "or", "xor", NULL};
  int op = d_take_one(d, ops);
  bool abs = d_take(d, "abs"), nan = d_take(d, "NaN");
  ptx_type t = d_take_type(d);
  if (op < 0 || t == PT_NONE) return d_fail(d, TC5_EPARSE, "needs an operation (.add .min .max .and .or .xor) and a type");
  unsigned mods = 0;
  if (t == PT_F32) {
    if (op != RX_MIN && op != RX_MAX) return d_fail(d, TC5_EILLEGAL, "redux.sync.%s has no .f32 form (.min/.max only)", ops[op]);
    mods = RX_F32 | (abs ? RX_ABS : 0) | (nan ? RX_NAN : 0);
  } else {
    if (abs || nan) return d_fail(d, TC5_EILLEGAL, ".abs/.NaN belong to redux.sync's .f32 forms");
    bool logic = op >= RX_AND;
    if (logic ? t != PT_B32 : (t != PT_U32 && t != PT_S32))
      return d_fail(d, TC5_EILLEGAL, "redux.sync.%s takes %s, not .%s", ops[op], logic ? ".b32" : ".u32/.s32", ptx_types[t].name);
    if (t == PT_S32) mods = RX_SIGNED;
  }
  in->type = (uint8_t)t;
  in->aux = (uint32_t)op;
  in->aux2 = mods;
  if (!d_nops(d, 3, 3) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t == PT_F32 ? PT_F32 : PT_B32, &in->o[1]) ||
      !d_src(d, 2, PT_B32, &in->o[2]))
    return d->st;
  in->fn = x_redux;
  return TC5_OK;
}

/* ---- shfl.sync ---- */
/* the lane that `lane` reads in mode 0 up, 1 down, 2 bfly, 3 idx with b, c's
 * clamp and segment mask, and the predicate (false: its own lane) */
static inline int shfl_source(unsigned mode, int lane, int bval, int cval, int seg, bool *ok) {
  int maxl = (lane & seg) | (cval & ~seg), j;
  switch (mode) {
  case 0: j = lane - bval; *ok = j >= maxl; break;                 /* up   */
  case 1: j = lane + bval; *ok = j <= maxl; break;                 /* down */
  case 2: j = lane ^ bval; *ok = j <= maxl; break;                 /* bfly */
  default: j = (lane & seg) | (bval & ~seg); *ok = j <= maxl; break; /* idx  */
  }
  return *ok ? j : lane;
}
/* The common form (issue 50, size): the whole warp active, every lane's
 * membermask the whole warp, b and c the same in every lane (immediates,
 * Triton's reductions): no lane can fail, and each lane's source lane and
 * predicate follow from the mode alone, as in x_shfl's general loop. Returns
 * false (nothing written) when the form does not apply. */
static bool shfl_uniform(ptx_warp *w, const ptx_insn *in, uint32_t mask, uint64_t *d, uint64_t *p, const uint64_t *a,
                         const uint64_t *b, const uint64_t *c, const uint64_t *mmr) {
  if (mask != 0xFFFFFFFFu) return false;
  uint64_t diff = 0;
  if (in->aux2) /* b, c and the membermask immediates (dec_shfl): the same in every lane */
    diff = (uint32_t)mmr[0] ^ 0xFFFFFFFFu;
  else
    for (unsigned l = 0; l < 32; l++) diff |= ((uint32_t)mmr[l] ^ 0xFFFFFFFFu) | ((b[l] ^ b[0]) & 31) | ((c[l] ^ c[0]) & 0x1F1F);
  if (diff) return false;
  int bval = (int)(b[0] & 31), cval = (int)(c[0] & 31), seg = (int)((c[0] >> 8) & 31);
  uint8_t from[32];
  if (seg == 0 && ((in->aux == 0 && cval == 0) || (in->aux == 1 && cval == 31))) {
    /* up with c = 0, down with c = 31 (Triton's scans): lane l reads l - b (up, when l >= b) or
     * l + b (down, when l + b <= 31), else its own value with a false predicate (shfl_source
     * with maxl 0 or 31); in place, in the order that reads each source before it is written */
    unsigned bv = (unsigned)bval;
    bool up = in->aux == 0;
    if (up && d != a) { /* (forward: the loops vectorize) */
      for (unsigned l = 0; l < bv; l++) d[l] = a[l] & 0xffffffffu;
      for (unsigned l = bv; l < 32; l++) d[l] = a[l - bv] & 0xffffffffu;
    } else if (up) {
      for (unsigned l = 32; l-- > bv;) d[l] = a[l - bv] & 0xffffffffu;
      for (unsigned l = 0; l < bv; l++) d[l] = a[l] & 0xffffffffu;
    } else {
      for (unsigned l = 0; l + bv < 32; l++) d[l] = a[l + bv] & 0xffffffffu;
      for (unsigned l = 32 - bv; l < 32; l++) d[l] = a[l] & 0xffffffffu;
    }
    if (p)
      for (unsigned l = 0; l < 32; l++) p[l] = up ? l >= bv : l + bv <= 31;
    if (w->cta->chk && w->chk_pending) {
      for (unsigned l = 0; l < 32; l++) from[l] = (uint8_t)(up ? (l >= bv ? l - bv : l) : (l + bv <= 31 ? l + bv : l));
      chk_shfl(CHK_W(w), CHK_IN(w, in), from);
    }
    return true;
  }
  uint64_t src[32];
  const uint64_t *s = a;
  if (d == a) { /* the destination is the source: read the old values */
    memcpy(src, a, sizeof src);
    s = src;
  }
  if (in->aux == 2 && seg == 0 && cval == 31) { /* bfly across the whole warp: lane ^ b <= 31, every predicate true */
    for (unsigned l = 0; l < 32; l++) d[l] = s[l ^ (unsigned)bval] & 0xffffffffu;
    if (p)
      for (unsigned l = 0; l < 32; l++) p[l] = 1;
    if (w->cta->chk && w->chk_pending) {
      for (unsigned l = 0; l < 32; l++) from[l] = (uint8_t)(l ^ (unsigned)bval);
      chk_shfl(CHK_W(w), CHK_IN(w, in), from);
    }
    return true;
  }
  unsigned pv = 0;
  for (int lane = 0; lane < 32; lane++) {
    bool ok;
    from[lane] = (uint8_t)shfl_source(in->aux, lane, bval, cval, seg, &ok);
    pv |= (unsigned)ok << lane;
  }
  for (unsigned l = 0; l < 32; l++) d[l] = s[from[l]] & 0xffffffffu;
  if (p)
    for (unsigned l = 0; l < 32; l++) p[l] = pv >> l & 1;
  if (w->cta->chk && w->chk_pending) chk_shfl(CHK_W(w), CHK_IN(w, in), from);
  return true;
}

static PTX_EXEC(x_shfl) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  uint64_t *p = in->o[0].reg2 != PTX_NOREG ? PTX_R(w, in->o[0].reg2) : NULL;
  const uint64_t *a = PTX_R(w, in->o[1].reg), *b = PTX_R(w, in->o[2].reg), *c = PTX_R(w, in->o[3].reg);
  const uint64_t *mmr = PTX_R(w, in->o[4].reg);
  if (shfl_uniform(w, in, mask, d, p, a, b, c, mmr)) return PX_NEXT;
  uint64_t src[32];
  memcpy(src, a, sizeof src);
  uint8_t from[32]; /* the lane each lane read (the checker follows never-written values with it) */
  memset(from, 0xFF, sizeof from);
  unsigned mode = in->aux;
  PTX_LANES(mask, {
    uint32_t mm = (uint32_t)mmr[l];
    if (!(mm >> l & 1) || (mm & ~mask & w->live))
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, mm,
                      "shfl.sync: membermask 0x%08x must include the thread and only threads executing it (active 0x%08x)",
                      mm, mask);
    bool pv;
    int j = shfl_source(mode, (int)l, (int)(b[l] & 31), (int)(c[l] & 31), (int)((c[l] >> 8) & 31), &pv);
    if (!(mask >> j & 1))
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, (uint64_t)j, "shfl.sync reads lane %d, which is not active", j);
    d[l] = src[j] & 0xffffffffu;
    if (p) p[l] = pv;
    from[l] = (uint8_t)j;
  });
  if (w->cta->chk && w->chk_pending) chk_shfl(CHK_W(w), CHK_IN(w, in), from);
  return PX_NEXT;
}
/* whether in is a shfl.sync (run.c's dyn-uniform registers: dyn_uniform_pcs) */
bool ptx_is_shfl(const ptx_insn *in) { return in->fn == x_shfl; }
PTX_DEC(dec_shfl) {
  ptx_insn *in = d->in;
  if (!d_take(d, "sync")) return d_fail(d, TC5_EUNSUPPORTED, "shfl without .sync is not modelled (removed in PTX 6.4+ targets)");
  static const char *const modes[] = {"up", "down", "bfly", "idx", NULL};
  int m = d_take_one(d, modes);
  if (m < 0 || d_take_type(d) != PT_B32) return d_fail(d, TC5_EPARSE, "needs .up/.down/.bfly/.idx and .b32");
  in->aux = (uint32_t)m;
  if (!d_nops(d, 5, 5) || !d_dst(d, 0, &in->o[0])) return d->st;
  for (unsigned k = 1; k < 5; k++)
    if (!d_src(d, k, PT_B32, &in->o[k])) return d->st;
  /* b, c and the membermask immediates: shfl_uniform need not compare the lanes' */
  in->aux2 = d->r->ops[2].kind == RO_INT && d->r->ops[3].kind == RO_INT && d->r->ops[4].kind == RO_INT;
  in->fn = x_shfl;
  return TC5_OK;
}

/* ---- vote.sync / match.sync / activemask ---- */
static PTX_EXEC(x_vote) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  bool neg = in->o[1].neg;
  uint32_t ballot = 0;
  PTX_LANES(mask, ballot |= (uint32_t)(((a[l] != 0) != neg)) << l);
  PTX_LANES(mask, {
    uint32_t mm = (uint32_t)PTX_R(w, in->o[2].reg)[l];
    uint32_t b = ballot & mm;
    switch (in->aux) {
    case 0: d[l] = (b & mask & mm) == (mask & mm); break; /* all */
    case 1: d[l] = b != 0; break;                         /* any */
    case 2: d[l] = b == 0 || (b & mask & mm) == (mask & mm); break; /* uni */
    default: d[l] = b; break;                             /* ballot */
    }
  });
  return PX_NEXT;
}
PTX_DEC(dec_vote) {
  ptx_insn *in = d->in;
  if (!d_take(d, "sync")) return d_fail(d, TC5_EUNSUPPORTED, "vote without .sync is not modelled");
  static const char *const modes[] = {"all", "any", "uni", "ballot", NULL};
  int m = d_take_one(d, modes);
  ptx_type t = d_take_type(d);
  if (m < 0 || (m == 3 ? t != PT_B32 : t != PT_PRED)) return d_fail(d, TC5_EPARSE, "vote.sync needs a mode and its type");
  in->aux = (uint32_t)m;
  if (!d_nops(d, 3, 3) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, PT_PRED, &in->o[1]) || !d_src(d, 2, PT_B32, &in->o[2]))
    return d->st;
  in->fn = x_vote;
  return TC5_OK;
}
static PTX_EXEC(x_match) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  uint64_t *p = in->o[0].reg2 != PTX_NOREG ? PTX_R(w, in->o[0].reg2) : NULL;
  const uint64_t *a = PTX_R(w, in->o[1].reg);
  PTX_LANES(mask, {
    uint32_t mm = (uint32_t)PTX_R(w, in->o[2].reg)[l] & mask, same = 0;
    for (unsigned k = 0; k < 32; k++)
      if ((mm >> k & 1) && a[k] == a[l]) same |= 1u << k;
    if (in->aux == 0) {
      d[l] = same;
    } else {
      bool all = same == mm;
      d[l] = all ? mm : 0;
      if (p) p[l] = all;
    }
  });
  return PX_NEXT;
}
PTX_DEC(dec_match) {
  ptx_insn *in = d->in;
  if (!d_take(d, "sync")) return d_fail(d, TC5_EPARSE, "needs .sync");
  static const char *const modes[] = {"any", "all", NULL};
  int m = d_take_one(d, modes);
  ptx_type t = d_take_type(d);
  if (m < 0 || (t != PT_B32 && t != PT_B64)) return d_fail(d, TC5_EPARSE, "needs .any/.all and .b32/.b64");
  in->aux = (uint32_t)m;
  if (!d_nops(d, 3, 3) || !d_dst(d, 0, &in->o[0]) || !d_src(d, 1, t, &in->o[1]) || !d_src(d, 2, PT_B32, &in->o[2]))
    return d->st;
  in->fn = x_match;
  return TC5_OK;
}
static PTX_EXEC(x_activemask) {
  uint64_t *d = PTX_R(w, in->o[0].reg);
  uint32_t act = mask;
  PTX_LANES(mask, d[l] = act);
  return PX_NEXT;
}
PTX_DEC(dec_activemask) {
  if (d_take_type(d) != PT_B32 || !d_nops(d, 1, 1) || !d_dst(d, 0, &d->in->o[0]))
    return d_fail(d, TC5_EPARSE, "activemask.b32 d");
  d->in->fn = x_activemask;
  return TC5_OK;
}

/* the shared::cluster address of an mbarrier operand for lane l (its
 * CTA's offset when the CTA is the warp's own); checks alignment and bounds */
static bool mbar_addr(ptx_warp *w, const ptx_insn *in, const ptx_opnd *o, unsigned l, uint32_t *addr) {
  uint64_t a = PTX_R(w, o->reg)[l] + (uint64_t)o->imm;
  uint32_t off;
  ptx_cta *t = ptx_cluster_addr(w, in->space, a, &off);
  if (!t) {
    ptx_fail(w, in, (int)l, TC5_EILLEGAL, a, "address 0x%llx is not in the shared memory of the cluster's CTAs",
             (unsigned long long)a);
    return false;
  }
  *addr = PTX_CLUSTER_FORM(t, off);
  return ptx_mem(w, in, (int)l, PS_SHARED_CLUSTER, *addr, 8, false) != NULL;
}

enum { MB_INIT, MB_ARRIVE, MB_ARRIVE_DROP, MB_EXPECT_TX, MB_COMPLETE_TX, MB_TEST_WAIT, MB_TRY_WAIT, MB_INVAL,
       MB_PENDING };
/* the operations whose first operand is a result (the state, or the wait's predicate) */
static bool mb_has_result(unsigned op) {
  return op == MB_ARRIVE || op == MB_ARRIVE_DROP || op == MB_TEST_WAIT || op == MB_TRY_WAIT;
}

/* in->aux = operation; in->mods bit 0: .parity, bit 1: .expect_tx (arrive), bit 2: .relaxed */
static PTX_EXEC(x_mbarrier) {
  unsigned op = in->aux;
  bool has_state = mb_has_result(op);
  const ptx_opnd *ad = &in->o[has_state ? 1 : 0];
  uint64_t *d = has_state ? PTX_R(w, in->o[0].reg) : NULL;
  const uint64_t *x = in->nops > (has_state ? 2u : 1u) ? PTX_R(w, in->o[has_state ? 2 : 1].reg) : NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (op == MB_TEST_WAIT || op == MB_TRY_WAIT) {
    /* all lanes' waits first: retry the whole instruction unless all are done */
    bool all = true;
    ptx_mbar *observed = NULL;
    PTX_LANES(mask, {
      uint32_t off;
      if (!mbar_addr(w, in, ad, l, &off)) return PX_ERROR;
      if (off >> PTX_CLUSTER_SHIFT != w->cta->rank)
        return ptx_fail(w, in, (int)l, TC5_EILLEGAL, off, "a wait on another CTA's mbarrier (waits take .shared::cta)");
      ptx_mbar *mb = ptx_mbar_live(w, in, (int)l, off, NULL);
      if (!mb) return PX_ERROR;
      bool done;
      if (in->mods & 1) {
        tc5_mbarrier_test_wait(&mb->mb, (unsigned)(x[l] & 1), &done, NULL);
      } else {
        done = mb->mb.phase != (uint32_t)x[l]; /* the state names the phase of the arrival */
      }
      d[l] = done;
      if (done && w->cta->tm) tm_mbar_wait(w->cta->tm, w->id, &mb->tm); /* the timing model: the phase's time */
      if (!done) {
        all = false;
        w->wait_id = PTX_CLUSTER_OFF(off);
      } else if (w->cta->chk && mb != observed) { /* the warp observes once per mbarrier */
        chk_mbar_observe(CHK_W(w), CHK_IN(w, in), CHK_MB(w->cta, mb), (unsigned)(x[l] & 1)); /* parity, or the state's phase */
        observed = mb;
      }
    });
    if (all) {
      ptx_px_sync(w); /* the proxies (seeded schedules, issue 53) */
      return PX_NEXT;
    }
    /* false is a legal answer, and the program sees it once; a wait polled
     * again with nothing changed in the CTA meanwhile would spin: the warp
     * then sleeps until something changes (as try_wait, with or without a
     * suspend-time hint, suspends the thread on the hardware). Any wait of
     * the warp, not only the same instruction: compilers unroll a poll loop
     * into many (tma90's multicast kernels: 16). */
    uint32_t pc = (uint32_t)(in - w->cta->L->m->code);
    if (w->poll_pc != UINT32_MAX && w->poll_epoch == w->cta->epoch) return PX_BLOCK;
    w->poll_pc = pc;
    w->poll_epoch = w->cta->epoch;
    return PX_NEXT;
  }
  uint32_t spill = 0; /* the checker: a phase this instruction completed */
  ptx_mbar *inited[32];   /* the checker: mbarriers earlier lanes of this init initialised */
  unsigned ninited = 0;
  PTX_LANES(mask, {
    uint32_t off;
    if (!mbar_addr(w, in, ad, l, &off)) return PX_ERROR;
    tc5_status st = TC5_OK;
    ptx_cta *t = w->cta;
    if (op == MB_INIT) {
      if (off >> PTX_CLUSTER_SHIFT != w->cta->rank)
        return ptx_fail(w, in, (int)l, TC5_EILLEGAL, off, "mbarrier.init of another CTA's mbarrier (init takes .shared::cta)");
      off = PTX_CLUSTER_OFF(off);
      ptx_mbar *mb = ptx_mbar_get(w->cta, off, true);
      if (!mb) return ptx_fail(w, in, (int)l, TC5_ENOMEM, 0, "out of memory");
      mb->tx_line = 0;
      bool again = false; /* every lane of a warp initialising one mbarrier is one initialisation */
      for (unsigned i = 0; i < ninited; i++) again |= inited[i] == mb;
      if (mb->mb.initialized && !again && w->cta->chk) chk_mbar_reinit(CHK_W(w), CHK_IN(w, in), (int)l, CHK_MB(w->cta, mb));
      if (!again) inited[ninited++] = mb;
      st = tc5_mbarrier_init(&mb->mb, (uint32_t)x[l], &dg);
      memset(&mb->tm, 0, sizeof mb->tm); /* the timing model's phase times start again */
      if (w->cta->chk) chk_mbar_init(CHK_W(w), CHK_MB(w->cta, mb));
      uint8_t *p = ptx_mem(w, in, (int)l, PS_SHARED, off, 8, true);
      if (!p) return PX_ERROR;
      memset(p, 0, 8);
    } else {
      ptx_mbar *mb = ptx_mbar_live(w, in, (int)l, off, &t);
      if (!mb) return PX_ERROR;
      uint32_t before = mb->mb.phase;
      switch (op) {
      case MB_ARRIVE:
      case MB_ARRIVE_DROP: {
        uint32_t cnt = 1;
        if (in->mods & 2) {
          st = tc5_mbarrier_expect_tx(&mb->mb, (uint32_t)x[l], &dg);
        } else if (x) {
          cnt = (uint32_t)x[l];
        }
        /* arrive_drop: the next phases expect cnt arrivals fewer; this one
         * still takes them (the model's arrival completes the phase and
         * refills the pending count from the lowered expectation) */
        if (!st && op == MB_ARRIVE_DROP) {
          if (mb->mb.expected < cnt) st = tc5_diag_add(&dg, TC5_ESTATE, "count", cnt, "arrive_drop below zero expected arrivals");
          else mb->mb.expected -= cnt;
        }
        bool relaxed = (in->mods & 4) != 0; /* 9.7.13.15.13: .relaxed arrives with no memory ordering */
        if (!st && t != w->cta && !relaxed) chk_export(CHK_W(w), false);
        if (!st) st = tc5_mbarrier_arrive(&mb->mb, cnt, NULL, &dg);
        if (!st && w->cta->tm) tm_mbar_signal(w->cta->tm, w->id, TM_PC(w, in), &mb->tm, 0, mb->mb.phase); /* the arrival's time */
        if (!st && t == w->cta && w->cta->chk && !relaxed) chk_mbar_arrive(CHK_W(w), CHK_IN(w, in), (int)l, CHK_MB(w->cta, mb), before, false, &spill);
        if (!st && t == w->cta && w->cta->chk && relaxed) chk_mbar_arrive_relaxed(CHK_W(w), CHK_IN(w, in), (int)l, CHK_MB(w->cta, mb), before, &spill);
        if (!st && t != w->cta && !relaxed && w->cta->chk) chk_xscope_arrive(CHK_W(w), CHK_IN(w, in), (int)l, t->chk, CHK_MB(t, mb));
        if (!st && t != w->cta) chk_mbar_remote(t->chk, CHK_MB(t, mb), before);
        d[l] = before;
        break;
      }
      case MB_EXPECT_TX: st = tc5_mbarrier_expect_tx(&mb->mb, (uint32_t)x[l], &dg); break;
      case MB_COMPLETE_TX: {
        int r = ptx_mbar_complete_tx_lane(w, in, (int)l, off, (uint32_t)x[l]);
        if (r != PX_NEXT) return r;
        break;
      }
      default: mb->mb.initialized = false; break; /* inval */
      }
    }
    if (st) return ptx_fail(w, in, (int)l, st, off, "%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
    w->cta->progress = true;
    t->progress = true;
  });
  return PX_NEXT;
}
PTX_DEC(dec_mbarrier) {
  ptx_insn *in = d->in;
  static const char *const ops[] = {"init", "arrive", "arrive_drop", "expect_tx", "complete_tx", "test_wait",
                                    "try_wait", "inval", "pending_count", NULL};
  int op = d_take_one(d, ops);
  if (op < 0) return d_fail(d, TC5_EUNSUPPORTED, "this mbarrier operation is not modelled");
  if (op == MB_PENDING)
    return d_fail(d, TC5_EUNSUPPORTED, "mbarrier.pending_count reads the hardware's opaque state encoding: not modelled");
  in->aux = (uint32_t)op;
  if (d_take(d, "parity")) in->mods |= 1;
  if (d_take(d, "expect_tx")) in->mods |= 2;
  if (d_take(d, "noComplete")) return d_fail(d, TC5_EUNSUPPORTED, ".noComplete is not modelled");
  static const char *const ign[] = {"release", "acquire", "relaxed", "cta", "cluster", NULL};
  for (int q; (q = d_take_one(d, ign)) >= 0;)
    if (q == 2) in->mods |= 4; /* .relaxed: an arrival that releases nothing (the checker) */
  int sp = d_take_space(d);
  if (d_take_type(d) != PT_B64) return d_fail(d, TC5_EPARSE, "needs .b64");
  in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
  bool has_state = mb_has_result((unsigned)op);
  unsigned a = has_state ? 1 : 0;
  unsigned need_x = op == MB_INIT || op == MB_EXPECT_TX || op == MB_COMPLETE_TX || op == MB_TEST_WAIT || op == MB_TRY_WAIT;
  if (in->mods & 2) need_x = 1;
  unsigned lo = a + 1 + need_x, hi = lo + (op == MB_ARRIVE || op == MB_ARRIVE_DROP || op == MB_TRY_WAIT ? 1 : 0);
  if (!d_nops(d, lo, hi)) return d->st;
  if (has_state && !d_dst(d, 0, &in->o[0])) return d->st;
  if (!d_addr(d, a, &in->o[a], NULL)) return d->st;
  if (d->r->nops > a + 1 && !d_src(d, a + 1, PT_U64, &in->o[a + 1])) return d->st;
  if (op == MB_TRY_WAIT) in->nops = (uint8_t)(a + 2); /* a suspend-time hint: every wait sleeps (x_mbarrier) */
  in->fn = x_mbarrier;
  in->flags |= PF_MBAR;
  return TC5_OK;
}

/* ---- call: vprintf ---- */
static bool read_generic(ptx_warp *w, const ptx_insn *in, unsigned lane, uint64_t addr, void *dst, uint32_t n) {
  const uint8_t *p = ptx_mem(w, in, (int)lane, PS_GENERIC, addr, 1, false);
  if (!p) return false;
  for (uint32_t k = 1; k < n; k++) { /* byte by byte: a string may end anywhere */
    if (!ptx_mem(w, in, (int)lane, PS_GENERIC, addr + k, 1, false)) return false;
  }
  memcpy(dst, p, n);
  return true;
}

static int do_vprintf(ptx_warp *w, const ptx_insn *in, unsigned l, uint64_t fmt, uint64_t args) {
  char out[4096];
  size_t o = 0;
  uint64_t ap = args;
  for (;;) {
    char ch;
    if (!read_generic(w, in, l, fmt++, &ch, 1)) return PX_ERROR;
    if (!ch) break;
    if (ch != '%') {
      if (o < sizeof out - 1) out[o++] = ch;
      continue;
    }
    char spec[32];
    size_t s = 0;
    spec[s++] = '%';
    int lng = 0;
    for (;;) {
      if (!read_generic(w, in, l, fmt++, &ch, 1)) return PX_ERROR;
      if (!ch) return ptx_fail(w, in, (int)l, TC5_EILLEGAL, 0, "printf: format ends inside a conversion");
      if (ch == 'l') {
        lng++;
        continue;
      }
      if (ch == 'h' || ch == 'z' || ch == 'j' || ch == 't') continue;
      /* flags, width and precision as digits only ('*' would take an
       * argument that is not there) */
      if (!strchr("-+ #0123456789.diouxXcsfFeEgGaAp%", ch))
        return ptx_fail(w, in, (int)l, TC5_EUNSUPPORTED, (uint8_t)ch,
                        "printf: '%c' in a conversion specification is not modelled", ch);
      if (s < sizeof spec - 4) spec[s++] = ch;
      if (strchr("diouxXcsfFeEgGaAp%", ch)) break;
    }
    spec[s] = 0;
    char buf[512];
    int n = 0;
    if (ch == '%') {
      n = snprintf(buf, sizeof buf, "%%");
    } else if (strchr("fFeEgGaA", ch)) {
      ap = (ap + 7) & ~7ull;
      double v;
      if (!read_generic(w, in, l, ap, &v, 8)) return PX_ERROR;
      ap += 8;
      n = snprintf(buf, sizeof buf, spec, v);
    } else if (ch == 's' || ch == 'p' || lng) {
      ap = (ap + 7) & ~7ull;
      uint64_t v;
      if (!read_generic(w, in, l, ap, &v, 8)) return PX_ERROR;
      ap += 8;
      if (ch == 's') {
        char str[256];
        size_t k = 0;
        for (; k < sizeof str - 1; k++) {
          if (!read_generic(w, in, l, v + k, &str[k], 1)) return PX_ERROR;
          if (!str[k]) break;
        }
        str[k] = 0;
        n = snprintf(buf, sizeof buf, spec, str);
      } else if (ch == 'p') {
        n = snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
      } else {
        spec[s - 1] = 0;
        char full[40];
        snprintf(full, sizeof full, "%sll%c", spec, ch);
        n = snprintf(buf, sizeof buf, full, (long long)v);
      }
    } else {
      ap = (ap + 3) & ~3ull;
      uint32_t v;
      if (!read_generic(w, in, l, ap, &v, 4)) return PX_ERROR;
      ap += 4;
      if (ch == 'c') n = snprintf(buf, sizeof buf, spec, (int)(char)v);
      else if (ch == 'd' || ch == 'i') n = snprintf(buf, sizeof buf, spec, (int)v);
      else n = snprintf(buf, sizeof buf, spec, (unsigned)v);
    }
    if (n < 0) n = 0;
    if ((size_t)n > sizeof buf - 1) n = sizeof buf - 1;
    for (int k = 0; k < n && o < sizeof out - 1; k++) out[o++] = buf[k];
  }
  ptx_launch *L = w->cta->L;
  if (L->cfg.print) {
    pthread_mutex_lock(L->lock);
    L->cfg.print(L->cfg.print_ctx, out, o);
    pthread_mutex_unlock(L->lock);
  }
  return PX_NEXT;
}
/* in->o[1], o[2]: the local-frame offsets of vprintf's two parameters; o[0]
 * the return value's register slot (or none) */
static PTX_EXEC(x_vprintf) {
  PTX_LANES(mask, {
    uint64_t fmt, args;
    memcpy(&fmt, w->local + (size_t)l * w->local_bytes + in->o[1].imm, 8);
    memcpy(&args, w->local + (size_t)l * w->local_bytes + in->o[2].imm, 8);
    int r = do_vprintf(w, in, l, fmt, args);
    if (r != PX_NEXT) return r;
    if (in->o[0].kind == PO_ADDR) {
      int32_t zero = 0;
      memcpy(w->local + (size_t)l * w->local_bytes + in->o[0].imm, &zero, 4);
    }
  });
  return PX_NEXT;
}
/* call of a .func: o[0].imm the callee, o[1].imm the caller's return-value
 * variable (-1: none), o[2...] the argument variables' frame offsets */
static PTX_EXEC(x_call) {
  const tc5_ptx_module *m = w->cta->L->m;
  uint32_t pc = (uint32_t)(in - m->code), callee = (uint32_t)in->o[0].imm;
  const ptx_func *f = &m->funcs[callee];
  if (!f->defined) return ptx_fail(w, in, -1, TC5_EUNSUPPORTED, callee, ".func '%s' is declared but not defined", f->name);
  PTX_LANES(mask, {
    if (w->depth[l] >= PTX_MAX_CALL_DEPTH)
      return ptx_fail(w, in, (int)l, TC5_EUNSUPPORTED, w->depth[l], "calls nested deeper than %d", PTX_MAX_CALL_DEPTH);
    for (unsigned k = 0; k < w->depth[l]; k++)
      if (w->calls[k][l].func == callee)
        return ptx_fail(w, in, (int)l, TC5_EUNSUPPORTED, callee, "recursive call of '%s' (frames are static: not modelled)",
                        f->name);
    uint8_t *base = w->local + (size_t)l * w->local_bytes;
    for (unsigned k = 0; k < f->nparams; k++)
      memmove(base + f->frame_base + f->params[k].offset, base + in->o[2 + k].imm, f->params[k].size);
    struct ptx_frame *fr = &w->calls[w->depth[l]++][l];
    fr->ret_pc = pc + 1;
    fr->func = callee;
    fr->ret_off = (int32_t)in->o[1].imm;
  });
  w->br_taken = mask;
  w->br_target = f->first;
  return PX_BRANCH;
}

/* a call's argument or return-value list element: an in-body .param variable */
static bool call_var(dctx *d, const ptx_raw_opnd *e, uint32_t size, int64_t *off) {
  int k = e->kind == RO_SYM ? d_var(d, e->sym) : -1;
  const ptx_var *v = k >= 0 ? &d->m->vars[k] : NULL;
  if (!v || v->space != PS_PARAM_LOCAL) {
    d_fail(d, TC5_EUNSUPPORTED, "call arguments and results must be .param variables of the caller (registers are not modelled)");
    return false;
  }
  if (v->size < size) {
    d_fail(d, TC5_EILLEGAL, "'%s' has %u bytes; the callee's parameter %u", e->sym, v->size, size);
    return false;
  }
  *off = (int64_t)v->addr;
  return true;
}

PTX_DEC(dec_call) {
  ptx_insn *in = d->in;
  d_take(d, "uni");
  const ptx_raw *r = d->r;
  unsigned k = 0;
  const ptx_raw_opnd *ret = NULL, *fn = NULL, *args = NULL;
  if (k < r->nops && r->ops[k].kind == RO_LIST) ret = &r->ops[k++];
  if (k < r->nops && r->ops[k].kind == RO_SYM) fn = &r->ops[k++];
  if (k < r->nops && r->ops[k].kind == RO_LIST) args = &r->ops[k++];
  if (!fn || k != r->nops) return d_fail(d, TC5_EPARSE, "call [(ret),] function, (args)");
  if (strcmp(fn->sym, "vprintf")) {
    /* a .func of this module: it may be defined after the call */
    const ptx_func *f = NULL;
    unsigned fi = 0;
    for (unsigned j = 0; j < d->m->nfuncs; j++)
      if (!strcmp(d->m->funcs[j].name, fn->sym) && !d->m->funcs[j].is_entry) {
        f = &d->m->funcs[j];
        fi = j;
        if (f->defined) break;
      }
    if (!f) return d_fail(d, TC5_EPARSE, "'%s' is not a .func of this module", fn->sym);
    unsigned na = args ? args->n : 0, nr = ret ? ret->n : 0;
    if (na != f->nparams || nr != f->nrets || nr > 1)
      return d_fail(d, TC5_EPARSE, "'%s' takes %u parameters and returns %u values; the call gives %u and %u", fn->sym,
                    f->nparams, f->nrets, na, nr);
    if (na + 2 > PTX_MAX_OPS) return d_fail(d, TC5_EUNSUPPORTED, "calls with more than %d arguments", PTX_MAX_OPS - 2);
    memset(in->o, 0, sizeof in->o);
    in->o[0].imm = fi;
    in->o[1].imm = -1;
    if (nr && !call_var(d, &r->elems[ret->first], f->rets[0].size, &in->o[1].imm)) return d->st;
    for (unsigned j = 0; j < na; j++)
      if (!call_var(d, &r->elems[args->first + j], f->params[j].size, &in->o[2 + j].imm)) return d->st;
    in->nops = (uint8_t)(2 + na);
    in->fn = x_call;
    return TC5_OK;
  }
  if (!args || args->n != 2 || (ret && ret->n != 1)) return d_fail(d, TC5_EPARSE, "vprintf takes two parameters and returns one");
  /* the arguments are in-body .param variables: their frame offsets */
  const ptx_raw_opnd *list[3] = {ret ? &r->elems[ret->first] : NULL, &r->elems[args->first], &r->elems[args->first + 1]};
  for (unsigned j = 0; j < 3; j++) {
    memset(&in->o[j], 0, sizeof in->o[j]);
    if (!list[j]) continue;
    int vi = list[j]->kind == RO_SYM ? d_var(d, list[j]->sym) : -1;
    const ptx_var *v = vi >= 0 ? &d->m->vars[vi] : NULL;
    if (list[j]->kind != RO_SYM || !v || v->space != PS_PARAM_LOCAL)
      return d_fail(d, TC5_EPARSE, "call parameters must be .param variables of this function");
    in->o[j].kind = PO_ADDR;
    in->o[j].imm = (int64_t)v->addr;
  }
  in->nops = 3;
  in->fn = x_vprintf;
  return TC5_OK;
}
