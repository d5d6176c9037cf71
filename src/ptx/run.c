/* tc5 PTX runner — the launcher and the scheduler.
 *
 * A grid runs CTA by CTA on a pool of host threads (CTAs of one grid do not
 * wait for one another without clusters). Within a CTA the warps take turns:
 * a warp runs until it waits (bar.sync), must retry (an mbarrier wait that
 * would return false, a tcgen05.alloc that would block), or exits. A warp
 * executes one instruction at a time for all its active lanes.
 *
 * Reconvergence: while a warp's live threads share one pc it runs them
 * together; after a divergent branch each thread keeps its own pc and the
 * warp runs, each step, the threads at the smallest pc. Compilers lay out
 * structured code so that a branch's reconvergence point comes after both
 * of its sides, so threads meet again there (and leave a loop together);
 * this is the minimum-pc policy, which needs no knowledge of the control
 * flow graph. Threads at an instruction marked .aligned wait there while
 * other threads of the warp have somewhere else to go: LLVM may place a
 * loop one side of a branch runs after the point where both sides meet
 * (Triton's tl.atomic_poll with a timeout: thread 0 polls in a loop laid
 * out after the function's ret, the others wait at the bar.sync they all
 * reach), and a B200 runs that kernel. An instruction marked .aligned that
 * only part of a warp reaches (the rest wait at another .aligned
 * instruction, or exited while they waited) is undefined behaviour in PTX,
 * and reported. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "check/check_impl.h"
#include "mma/mma_impl.h"
#include "ptx/ptx_impl.h"
#include "ptx/decode_impl.h" /* OPC_<id>: idle_warps' instructions */
_Static_assert(PTX_MAX_BARRIERS == CHK_MAX_BARRIERS, "the checker's barrier slots follow the runner's ids");

tc5_status tc5_ptx_launch_init(tc5_ptx_launch_cfg *cfg) {
  if (!cfg) return TC5_EINVAL;
  memset(cfg, 0, sizeof *cfg);
  for (int k = 0; k < 3; k++) cfg->grid[k] = cfg->block[k] = 1;
  return TC5_OK;
}

static uint64_t const_value(ptx_warp *w, const struct ptx_const *k, unsigned lane) {
  ptx_launch *L = w->cta->L;
  switch (k->kind) {
  case PC_VALUE: return k->value;
  case PC_SREG: return ptx_sreg_now(w, (unsigned)k->value, lane);
  default: {
    const ptx_var *v = &L->m->vars[k->value];
    uint64_t a;
    if (v->space == PS_SHARED) /* the CTA's rank in bits 24-27, as on the H100 (ptx_cluster_addr) */
      a = L->shared_addr[k->value] | (uint64_t)w->cta->rank << PTX_CLUSTER_SHIFT;
    else if (v->space == PS_GLOBAL || v->space == PS_CONST) a = L->regions[L->nregions - 1].base + v->addr;
    else a = v->addr; /* local frame offset */
    return a + (uint64_t)k->off;
  }
  }
}

/* ---- one warp ---- */
static void advance(ptx_warp *w, uint32_t active, uint32_t pc) {
  if (w->converged) {
    w->pc = pc + 1;
    return;
  }
  PTX_LANES(active, w->tpc[l] = pc + 1);
}

/* the lanes, of all 32, whose register g is not 0 (a guard's: every lane's read, then masked) */
static inline uint32_t lanes_true_c(const uint64_t *g) {
  uint32_t m = 0;
  for (unsigned q = 0; q < 32; q += 8) {
    uint32_t b = 0;
    for (unsigned l = 0; l < 8; l++) b |= (uint32_t)(g[q + l] != 0) << l;
    m |= b << q;
  }
  return m;
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* the same by four lanes a compare in AVX2 where the host has it (issue 50, bc: upsample_bicubic2d_aa's
 * 26 guarded loads and stores an iteration) */
__attribute__((target("avx2"))) static uint32_t lanes_true_avx2(const uint64_t *g) {
  const __m256i z = _mm256_setzero_si256();
  uint32_t m = 0;
  for (unsigned q = 0; q < 32; q += 4) {
    __m256i e = _mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(g + q)), z);
    m |= (uint32_t)(~_mm256_movemask_pd(_mm256_castsi256_pd(e)) & 0xf) << q;
  }
  return m;
}
static inline uint32_t lanes_true(const uint64_t *g) {
  return PTX_HAS_AVX2() ? lanes_true_avx2(g) : lanes_true_c(g);
}
#else
#define lanes_true lanes_true_c
#endif

/* an instruction whose result is the same in every lane (L->uni: uniform_pcs): executed for
 * the mask's first lane, its destination copied to the others when another instruction
 * reads them (copy) */
static int run_uniform(ptx_warp *w, const ptx_insn *in, uint32_t mask, bool copy) {
  unsigned f = (unsigned)__builtin_ctz(mask);
  int r = in->fn(w, in, 1u << f);
  if (copy) {
    uint64_t *d = PTX_R(w, in->o[0].reg), v = d[f];
    PTX_LANES(mask, d[l] = v);
  }
  return r;
}

/* x each register that operands k0 on of instruction in name, then body: a register's, an
 * address's or a pair's (reg, reg2: PTX_NOREG and registers outside a window included, each
 * body's to skip) and a vector's; no label's nor special register's. The one walk of
 * reg_window, read_first and uniform_pcs (the guard is each one's own); uniform_def's differs
 * (a vector's parts only, a special register ends it) */
#define INSN_OPND_REGS(m, in, k0, x, body)                                                       \
  for (unsigned k__ = (k0); k__ < PTX_MAX_OPS; k__++) {                                          \
    const ptx_opnd *o__ = &(in)->o[k__];                                                         \
    if (o__->kind == PO_NONE || o__->kind == PO_LABEL || o__->kind == PO_SREG) continue;         \
    uint32_t x = o__->reg;                                                                       \
    body;                                                                                        \
    x = o__->reg2;                                                                               \
    body;                                                                                        \
    for (unsigned e__ = 0; o__->kind == PO_VEC && e__ < o__->n && o__->vec + e__ < (m)->nvregs; \
         e__++) {                                                                                \
      x = (m)->vregs[o__->vec + e__];                                                            \
      body;                                                                                      \
    }                                                                                            \
  }

/* ---- registers uniform as the warp runs (issue 50, st) ----
 * FlagGems' dim-0 sort (a sweep over rows of 4 or 8 elements in tiles of 2,048) computes most of
 * its values in lanes whose elements are masked off, where they are the same in every lane
 * (88% of its sweep's whole-warp instructions: their result one value); each lane's copy cost
 * the host a 256-byte row of the register file read or written an instruction. Two bits a
 * register (w->ub, a byte a register, so that setting one is a store): PTX_UB, its 32 lanes hold
 * one value, which is also its word in w->u0 (a compact row, a word a register: the lane-0 lines of
 * a CTA's ~2,800 registers did not stay in the host's L1); PTX_LZ (with PTX_UB), that value is in
 * w->u0 alone and its 32 lanes are stale. A register-pure instruction of the whole warp whose sources
 * all have their ub bit runs for lane 0 on their words (its function's lane-0 build, PTX_EXEC_L0)
 * and leaves its result there (lz); so does a whole warp's shfl.sync of such a source (every lane
 * reads a lane of it), and a selp of two such sources of one value (whatever its predicate):
 * ub_run, and run_warp_body's run of them (PTX_DUNI_HIT) in a loop of its own (hit_run). Any
 * other instruction first fills the lanes of every lz register it names (ub_fill: its operands;
 * an instruction reads and writes only the registers it names, operand 0's written: uniform_pcs's
 * rule), runs as before, and its operand 0's ub bits are found from their lanes (ub_after); but
 * not a destination it writes in every lane (PTX_DUNI_FRESH), and, of one that keeps to the lanes
 * of its mask (PTX_DUNI_LANES), a source's lanes outside the mask. A guard with its ub bit is read
 * in w->u0 (run_warp; a plain ld or st whose such guard is false does nothing: PTX_DUNI_SKIP0).
 * The registers a CTA zeroes are lz (cta_setup: their words zeroed). The checker follows registers
 * lane by lane while w->chk_pending: no instruction runs for lane 0 then, and what it reads is
 * named, so filled (selp's predicate), or filled before it reads (the guard). */
/* register x's ub (one value) and lz (in w->u0 alone) bits */
#define ub_has(w, x) (((w)->ub[x] & PTX_UB) != 0)
#define lz_has(w, x) (((w)->ub[x] & PTX_LZ) != 0)
/* whether the 32 lanes of r hold one value */
static inline bool lanes_one_c(const uint64_t *r) {
  uint64_t d = 0;
  for (unsigned l = 0; l < 32; l++) d |= r[l] ^ r[0];
  return d == 0;
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* the same by four lanes an xor in AVX2 where the host has it (ub_after: every general step's destinations) */
__attribute__((target("avx2"))) static bool lanes_one_avx2(const uint64_t *r) {
  const __m256i v = _mm256_set1_epi64x((long long)r[0]);
  __m256i d = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)r), v);
  if (!_mm256_testz_si256(d, d)) return false; /* (lanes 0-3 differ: most lane-varying results, hit_full's) */
  for (unsigned l = 4; l < 32; l += 4)
    d = _mm256_or_si256(d, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(r + l)), v));
  return _mm256_testz_si256(d, d) != 0;
}
static inline bool lanes_one(const uint64_t *r) { return PTX_HAS_AVX2() ? lanes_one_avx2(r) : lanes_one_c(r); }
#else
#define lanes_one lanes_one_c
#endif
/* register x's value (w->u0) into its 32 lanes when it is lz */
static inline void ub_fill1(ptx_warp *w, uint32_t x) {
  if (x == PTX_NOREG || !lz_has(w, x)) return;
  uint64_t *r = PTX_R(w, x), v = w->u0[x];
  for (unsigned l = 0; l < 32; l++) r[l] = v;
  w->ub[x] = PTX_UB;
}
/* register x's value into the lanes of mask when it is lz, its lz bit kept (its other lanes stale still) */
static inline void ub_fill_lanes(ptx_warp *w, uint32_t x, uint32_t mask) {
  if (x == PTX_NOREG || !lz_has(w, x)) return;
  uint64_t *r = PTX_R(w, x), v = w->u0[x];
  PTX_LANES(mask, r[l] = v);
}
/* the lanes of every lz register in's operands name (its record d: r[0, nd + ns), else walked); operand
 * 0's that in writes in every lane of a whole warp's mask (PTX_DUNI_FRESH) lose their lz bit unfilled, the
 * sources filled first (one may be a destination too). An instruction that reads and writes its registers
 * in the lanes of its mask alone (PTX_DUNI_LANES), of part of the warp: its sources' lanes of the mask
 * filled (their lz bits kept), its destinations' all (none when the mask is empty: nothing written) */
static inline __attribute__((always_inline)) void ub_fill(ptx_warp *w, const ptx_insn *in, const ptx_duni *d,
                                                         const tc5_ptx_module *m, uint32_t mask) {
  if (!(d->f & PTX_DUNI_WALK)) {
    const ptx_duni e = *d; /* (its registers in locals: the byte stores below may alias anything) */
    const unsigned n = (unsigned)e.nd + e.ns;
    if ((e.f & PTX_DUNI_LANES) && mask != 0xFFFFFFFFu && !w->chk_pending) {
      for (unsigned i = e.nd; i < n; i++) ub_fill_lanes(w, e.r[i], mask);
      for (unsigned i = 0; mask && i < e.nd; i++) ub_fill1(w, e.r[i]);
      return;
    }
    const unsigned nd = (e.f & PTX_DUNI_FRESH) && mask == 0xFFFFFFFFu && !w->chk_pending ? e.nd : 0;
    for (unsigned i = nd; i < n; i++) ub_fill1(w, e.r[i]);
    for (unsigned i = 0; i < nd; i++) w->ub[e.r[i]] &= (uint8_t)~PTX_LZ;
    return;
  }
  INSN_OPND_REGS(m, in, 0, x, ub_fill1(w, x));
}
/* the ub bits of the registers in's operand 0 names, from their lanes now (filled before it ran:
 * an lz bit now is the instruction's own: exec_mem.c x_ld's or x_ld1's of one address, its ub bit set) */
static inline void ub_after1(ptx_warp *w, uint32_t x) {
  if (x == PTX_NOREG || lz_has(w, x)) return;
  const uint64_t *r = PTX_R(w, x);
  w->ub[x] = lanes_one(r) ? PTX_UB : 0;
  w->u0[x] = r[0]; /* (its value when it has its ub bit) */
}
static inline __attribute__((always_inline)) void ub_after(ptx_warp *w, const ptx_insn *in, const ptx_duni *d,
                                                          const tc5_ptx_module *m) {
  if (!(d->f & PTX_DUNI_WALK)) {
    if (d->f & PTX_DUNI_DST)
      for (unsigned i = 0; i < d->nd; i++) ub_after1(w, d->r[i]);
    return;
  }
  const ptx_opnd *o = &in->o[0];
  if (o->kind == PO_REG) {
    ub_after1(w, o->reg);
    ub_after1(w, o->reg2);
  } else if (o->kind == PO_VEC) {
    for (unsigned e = 0; e < o->n && o->vec + e < m->nvregs; e++) ub_after1(w, m->vregs[o->vec + e]);
  }
}
/* a whole warp's shfl.sync d, a, b, c, membermask of a with one value: false when membermask (its word) is not
 * the whole warp's, else every lane reads a lane of a: d = a, its word (w->u0) */
static inline bool shfl_lane0(ptx_warp *w, uint32_t d, uint32_t a, uint32_t membermask) {
  if ((uint32_t)w->u0[membermask] != 0xFFFFFFFFu) return false;
  w->u0[d] = w->u0[a] & 0xffffffffu;
  return true;
}
/* selp d, a, b, c of a and b with their ub bits and one value (whatever c): false when not, else d = a in its
 * word, d lz */
static inline bool selp_lane0(ptx_warp *w, uint32_t d, uint32_t a, uint32_t b) {
  if (!(w->ub[a] & w->ub[b] & PTX_UB) || w->u0[a] != w->u0[b]) return false;
  w->u0[d] = w->u0[a];
  w->ub[d] = PTX_UB | PTX_LZ;
  return true;
}
/* in for lane 0 alone, its sources one value each (ub_run's): a shfl.sync (PTX_DUNI_SHFL) reads the word of a
 * when its membermask (r[4]) is the whole warp's (else false, nothing done), any other its lane-0 build (d->l0);
 * operand 0's registers then lz */
static inline bool ub_lane0(ptx_warp *w, const ptx_insn *in, const ptx_duni *d, int *r) {
  const uint32_t *s = d->r + d->nd;
  if (d->f & PTX_DUNI_SHFL) {
    if (!shfl_lane0(w, d->r[0], s[0], s[3])) return false;
    *r = PX_NEXT;
  } else {
    *r = d->l0(w, in, 1u);
  }
  for (unsigned i = 0; i < d->nd; i++) w->ub[d->r[i]] = PTX_UB | PTX_LZ;
  return true;
}
/* in for lane 0 alone, its result (operand 0's registers, d->r[0, nd)) left in their words: a register-pure
 * instruction (PTX_DUNI_RUN) whose sources (d->r[nd, nd + ns), every operand past 0 a register's:
 * PTX_DUNI_SRCS) all have their ub bit, a shfl.sync of such a source (PTX_DUNI_SHFL: immediates b
 * and c, no predicate out) of a whole warp with membermask 0xffffffff, whose every lane reads a
 * lane of a (d[l] = a[j] & 0xffffffff, no error), or a selp d, a, b, c (PTX_DUNI_SELP) of a and b
 * with their ub bits and one value (whatever c): false where it does not apply, nothing done */
static bool ub_run(ptx_warp *w, const ptx_insn *in, const ptx_duni *d, uint32_t mask, int *r) {
  if (mask != 0xFFFFFFFFu || w->chk_pending || !(d->f & PTX_DUNI_SRCS)) return false;
  const uint8_t *u = w->ub;
  const uint32_t *s = d->r + d->nd;
  bool all = true;
  if (d->f & PTX_DUNI_PAD4) /* four sources, padded with the row's last byte (PTX_UB): no branch a source */
    all = (u[s[0]] & u[s[1]] & u[s[2]] & u[s[3]] & PTX_UB) != 0;
  else
    for (unsigned i = 0; i < d->ns && all; i++) all = ub_has(w, s[i]);
  if (all) return ub_lane0(w, in, d, r);
  if (!(d->f & PTX_DUNI_SELP) || !selp_lane0(w, d->r[0], s[0], s[1])) return false;
  *r = PX_NEXT;
  return true;
}

/* the lanes of active whose guard (in->guard, not PTX_NOREG) lets in run: with dyn (run_warp's registers uniform as
 * the warp runs), a guard of one value in every lane (ub: its word in w->u0 holds it, lz or not) or one whose lanes'
 * bits are kept (PTX_GM: in its word, set here); a uniform guard (uniform_pcs): the first lane's */
static inline uint32_t guard_mask(ptx_warp *w, const ptx_insn *in, uint8_t upc, uint32_t active, bool dyn) {
  const uint8_t gb = dyn ? w->ub[in->guard] : 0;
  uint32_t gm;
  if (gb & PTX_UB) {
    gm = w->u0[in->guard] != 0 ? active : 0;
  } else if (gb & PTX_GM) {
    gm = (uint32_t)w->u0[in->guard] & active;
  } else if (upc & PTX_UNI_GUARD) {
    gm = PTX_R(w, in->guard)[__builtin_ctz(active)] != 0 ? active : 0;
  } else {
    const uint32_t t = lanes_true(PTX_R(w, in->guard));
    if (dyn) w->u0[in->guard] = t, w->ub[in->guard] = gb | PTX_GM; /* (its next reads' until it is written) */
    gm = t & active;
  }
  return in->guard_neg ? active & ~gm : gm;
}

/* run_warp_body's run of instructions ub_run would take (PTX_DUNI_HIT: unguarded, not .aligned, a whole warp
 * converged), their sources' ub bits set (PTX_DUNI_PAD4's four), with none of run_warp_body's tests: such an
 * instruction reads and writes registers alone (no store buffer, checker nor uninitialised read to flush); its
 * function (d->l0: its build for lane 0) returns PX_NEXT or PX_ERROR (exec_alu.c, exec_float.c). A guarded plain
 * ld or st whose guard has its ub bit and is false (PTX_DUNI_SKIP0) is passed (x->skips), a selp of two sources
 * of one value whatever its predicate runs (ub_run's PTX_DUNI_SELP, a hit), and such an instruction whose sources
 * do not all hold one value runs for the whole warp as run_warp_body would run it (hit_full). At most max instructions
 * from w->pc, which it leaves at the first not run; the instructions run or passed. A function of its own, out
 * of line, so that its few values stay in registers across the calls */
typedef struct hit_ctx {
  const ptx_hrec *hr;
  const uint32_t *hblk; /* ptx_launch's blocks (hit_blocks) */
  const ptx_hblk *hblks;
  const ptx_hsrc *hsrc;
  const uint32_t *hdst;
  uint64_t *memo; /* the worker's (ptx_cluster.hmemo) */
  const ptx_duni *duni;
  const tc5_ptx_module *m;
  const uint8_t *uni; /* ptx_launch's uniform_pcs flags (NULL: none) */
  tc5_uninit_log *un; /* the CTA's cluster's (run_warp_body's un) */
  uint64_t skips, fulls; /* the instructions passed, and those run for the whole warp or by run_warp_body's way */
  uint64_t tless;        /* the thread instructions those run by its way (hit_gen) ran fewer than 32 each */
} hit_ctx;
/* (hit_run) record h's instruction in, whose sources do not all hold one value: run_warp_body's general way for a
 * register-pure instruction of a whole warp (no guard, checker, store buffer nor uninitialised read of its), not
 * a hit: its lz registers filled, its function, its operand 0's ub bits found */
static __attribute__((noinline)) int hit_full(ptx_warp *w, hit_ctx *x, const ptx_hrec *h, const ptx_insn *in) {
  const ptx_duni *d = &x->duni[h - x->hr];
  uint8_t *const u = w->ub;
  x->fulls++;
  if (h->f & PTX_HREC_FIN) {
    uint8_t fin = PTX_FIN;
    for (unsigned i = 0; i < d->nd; i++) fin &= u[d->r[i]];
    if (fin) return PX_NEXT; /* (its destinations hold what it would write again) */
  }
  ub_fill(w, in, d, x->m, 0xFFFFFFFFu);
  int r = in->fn(w, in, 0xFFFFFFFFu);
  ub_after(w, in, d, x->m);
  if ((h->f & PTX_HREC_FIN) && (u[h->s[0]] & u[h->s[1]] & u[h->s[2]] & u[h->s[3]] & PTX_FIN) && r == PX_NEXT)
    for (unsigned i = 0; i < d->nd; i++) u[d->r[i]] |= PTX_FIN;
  return r;
}
/* (hit_run) record h's instruction in, a plain ld or st (PTX_HREC_GEN), run as run_warp_body runs it (a whole warp,
 * converged, no seeded schedule nor timing model: its guard, its lz registers filled, its function, its operand 0's
 * ub bits found, the checker's registers and uninitialised reads after it); *stop when run_warp_body must go on
 * from the next instruction itself (the checker follows registers, an uninitialised read was flushed) */
static __attribute__((noinline)) int hit_gen(ptx_warp *w, hit_ctx *x, const ptx_hrec *h, const ptx_insn *in,
                                             bool *stop) {
  const uint32_t pc = (uint32_t)(h - x->hr);
  const ptx_duni *d = &x->duni[pc];
  const uint8_t upc = x->uni ? x->uni[pc] : 0;
  const uint32_t mask = in->guard != PTX_NOREG ? guard_mask(w, in, upc, 0xFFFFFFFFu, true) : 0xFFFFFFFFu;
  ub_fill(w, in, d, x->m, mask);
  int r = (upc & PTX_UNI_RESULT) && (mask & (mask - 1)) ? run_uniform(w, in, mask, (upc & PTX_UNI_COPY) != 0)
                                                       : in->fn(w, in, mask);
  ub_after(w, in, d, x->m);
  if (w->chk_pending) {
    ub_fill1(w, in->guard); /* (run_warp_body's) */
    chk_after(CHK_W(w), CHK_IN(w, in));
    *stop = true;
  }
  if (__builtin_expect((x->un->smem | x->un->tmem) != 0, 0)) {
    chk_uninit_flush(CHK_W(w), CHK_IN(w, in), x->un);
    *stop = true;
  }
  x->fulls++;
  x->tless += 32 - ptx_popc32(mask);
  return r;
}
/* (hit_run) a PTX_DUNI_SKIP0 record h whose guard holds one value, false: its plain ld or st does nothing */
static inline bool hit_skip0(const ptx_warp *w, const ptx_hrec *h) {
  return (w->ub[h->s[0]] & PTX_UB) && (w->u0[h->s[0]] != 0) == h->neg;
}
/* (hit_run) a hit's result, operand 0's registers, in their words alone (ub_lane0's) */
static inline void hit_dst(ptx_warp *w, const hit_ctx *x, const ptx_hrec *h) {
  w->ub[h->d0] = PTX_UB | PTX_LZ;
  if (__builtin_expect(h->f & PTX_HREC_ND, 0))
    for (unsigned i = 1; i < h->nd; i++) w->ub[x->duni[h - x->hr].r[i]] = PTX_UB | PTX_LZ;
}
/* A block's records (PTX_HREC_BLK: hit_blocks) run with none of their sources' tests from its first record up to
 * the first that reads a source of the block's list (one it reads before writing it) without its ub bit: each
 * other source is an earlier record's result, a hit's, so one value. A selp of a predicate without its ub bit
 * there runs as below (selp_lane0), or the block's rest does when its two sources differ; a shfl.sync whose
 * membermask is not the whole warp's stops the run there. A block whose sources
 * all have their ub bit is a function of their words alone (its records' lane-0 builds of them; a selp of a
 * predicate of the list without its ub bit: its two sources, equal): the worker's memo keeps
 * the last words it ran on and its results (the words of the registers it writes), which it gives again for the
 * same words; a block that gives back fewer than one in eight of its first 64 or more is no longer kept. The selps'
 * predicates of the list (PTX_HREC_XP) are part of those words by their ub bits, and their words with it, when one
 * such selp's two sources differed (else, the same words of the list, they are equal again: none matters) */
enum { HIT_MEMO_EMPTY = 0, HIT_MEMO_SET, HIT_MEMO_OFF, HIT_XP_ANY = 2 };
/* a block's words in the memo (ptx_hblk.memo, 2 + nsrc + 2 nxp + ndst of them): its state and counts, its list's
 * words [2, 2 + nsrc), its selps' predicates' (ub bit, word) pairs (hit_memo_xp), the words of the registers it
 * writes (hit_memo_out) */
static inline uint64_t *hit_memo_xp(uint64_t *mo, const ptx_hblk *b, uint32_t i) { return mo + 2 + b->nsrc + 2 * i; }
static inline uint64_t *hit_memo_out(uint64_t *mo, const ptx_hblk *b) { return hit_memo_xp(mo, b, b->nxp); }
static __attribute__((noinline)) uint64_t hit_run(ptx_warp *w, hit_ctx *x, uint64_t max, int *rp) {
  const uint32_t ncode = x->m->ncode;
  uint8_t *const u = w->ub;
  const uint32_t pc = w->pc;
  const ptx_hrec *h = x->hr + pc, *const end = h + (max < ncode - pc ? max : ncode - pc);
  const ptx_insn *in = x->m->code + pc;
  int r = PX_NEXT;
  while (h < end) {
    if (h->f & PTX_HREC_BLK) {
      /* the block's sources read before written: the records before the first without its ub bit run as hits;
       * with its memo set, their words against the memo's too */
      const ptx_hblk *const b = &x->hblks[x->hblk[h - x->hr]];
      const ptx_hsrc *const e0 = x->hsrc + b->src;
      const ptx_hsrc *e = e0;
      uint64_t *const u0 = w->u0, *mo = x->memo + b->memo;
      const uint64_t state = mo[0];
      uint64_t diff = 0;
      if (state == HIT_MEMO_SET)
        for (const uint64_t *k = mo + 2; u[e->reg] & PTX_UB; e++, k++) diff |= u0[e->reg] ^ *k;
      else
        while (u[e->reg] & PTX_UB) e++; /* (the list's last register: never) */
      const ptx_hrec *lim = x->hr + e->at < end ? x->hr + e->at : end;
      /* the selps' predicates of the list (after its end): their ub bits, and the words of those with it */
      const ptx_hsrc *const xp = e0 + b->nsrc + 1;
      const uint32_t nxp = b->nxp;
      if (lim == x->hr + b->end && state == HIT_MEMO_SET)
        for (uint32_t i = 0; i < nxp; i++) {
          const uint64_t *const k = hit_memo_xp(mo, b, i), ub = u[xp[i].reg] & PTX_UB;
          if (k[0] != HIT_XP_ANY) diff |= (ub ^ k[0]) | ((u0[xp[i].reg] ^ k[1]) & (0 - ub));
        }
      if (lim != x->hr + b->end || state == HIT_MEMO_OFF) {
        mo = NULL; /* (not the whole block as hits) */
      } else if (state == HIT_MEMO_SET && !diff) { /* the same words as last: its results */
        const uint32_t *const d = x->hdst + b->dst, nd = b->ndst;
        const uint64_t *const v = hit_memo_out(mo, b);
        for (uint32_t k = 0; k < nd; k++) {
          const uint32_t y = d[k];
          u0[y] = v[k], u[y] = PTX_UB | PTX_LZ;
        }
        mo[1] += 1ull << 32;
        in += lim - h, h = lim;
        if (h >= end) break;
        goto own;
      } else {
        const uint32_t ns = b->nsrc;
        for (uint32_t i = 0; i < ns; i++) mo[2 + i] = u0[e0[i].reg];
        for (uint32_t i = 0; i < nxp; i++) {
          uint64_t *const k = hit_memo_xp(mo, b, i);
          k[0] = u[xp[i].reg] & PTX_UB, k[1] = u0[xp[i].reg];
        }
        mo[0] = HIT_MEMO_EMPTY;
        if ((uint32_t)++mo[1] >= 64 && (mo[1] >> 32) * 8 < (uint32_t)mo[1]) mo[0] = HIT_MEMO_OFF, mo = NULL;
      }
      bool xpw = false; /* a selp of a predicate of the list with its ub bit gave one of two different sources */
      for (; h < lim; h++, in++) {
        const unsigned f = h->f;
        if (__builtin_expect(f & (PTX_DUNI_SELP | PTX_DUNI_SHFL), 0)) {
          if (f & PTX_DUNI_SHFL) { /* (ub_lane0's) */
            if (!shfl_lane0(w, h->d0, h->s[0], h->s[3])) break; /* (below: run_warp_body's way) */
            hit_dst(w, x, h);
            continue;
          }
          if (!(u[h->s[2]] & PTX_UB)) {
            if (!selp_lane0(w, h->d0, h->s[0], h->s[1])) break; /* (below: hit_full) */
            continue;
          }
          xpw |= (f & PTX_HREC_XP) && u0[h->s[0]] != u0[h->s[1]];
        }
        r = h->l0(w, in, 1u);
        hit_dst(w, x, h);
        if (__builtin_expect(r != PX_NEXT, 0)) {
          h++; /* (run: its error stops the warp) */
          goto out;
        }
      }
      if (mo && h == lim) { /* its results kept */
        const uint32_t *const d = x->hdst + b->dst, nd = b->ndst;
        uint64_t *const v = hit_memo_out(mo, b);
        for (uint32_t k = 0; k < nd; k++) v[k] = u0[d[k]];
        for (uint32_t i = 0; !xpw && i < nxp; i++) *hit_memo_xp(mo, b, i) = HIT_XP_ANY; /* (none of them mattered) */
        mo[0] = HIT_MEMO_SET;
      }
      if (h >= end) break;
    }
  own:;
    /* a record on its own: its sources' ub bits tested */
    const unsigned f = h->f;
    if (!(f & PTX_DUNI_HIT)) {
      if ((f & PTX_DUNI_SKIP0) && hit_skip0(w, h)) {
        x->skips++; /* its mask empty: nothing done */
      } else if (f & PTX_HREC_GEN) {
        bool stop = false;
        r = hit_gen(w, x, h, in, &stop);
        if (stop && r == PX_NEXT) {
          h++, in++;
          break;
        }
      } else {
        break;
      }
    } else if (!(u[h->s[0]] & u[h->s[1]] & u[h->s[2]] & u[h->s[3]] & PTX_UB)) {
      if (!(f & PTX_DUNI_SELP) || !selp_lane0(w, h->d0, h->s[0], h->s[1])) { /* (ub_run's, a hit too) */
        if (f & PTX_DUNI_SHFL) break;
        r = hit_full(w, x, h, in);
      }
    } else {
      if (!(f & PTX_DUNI_SHFL)) r = h->l0(w, in, 1u);
      else if (!shfl_lane0(w, h->d0, h->s[0], h->s[3])) break;
      hit_dst(w, x, h);
    }
    h++, in++;
    if (r != PX_NEXT) break; /* (run: its error stops the warp) */
  }
out:;
  const uint64_t n = (uint64_t)(h - (x->hr + pc));
  w->pc = pc + (uint32_t)n - (r != PX_NEXT);
  *rp = r;
  return n;
}
/* hit_run's blocks (PTX_HREC_BLK): straight runs of PTX_DUNI_HIT records, each with the list of
 * the sources its records read before one of them writes them (a selp's predicate not: hit_run tests it there;
 * PTX_HREC_XP), each once, at the first record that reads it, ended by register nregs + 1 (its ub byte never
 * PTX_UB) at the block's end, then the selps' predicates of the list, and the registers its records write. false
 * when out of memory */
typedef struct hit_lists {
  ptx_hsrc *src;
  uint32_t *dst;
  ptx_hblk *blk;
  size_t nsrc, ndst, nblk, csrc, cdst, cblk;
} hit_lists;
static bool hit_grow(void **p, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return true;
  void *t = realloc(*p, 2 * *cap * size);
  if (!t) return false;
  *p = t, *cap *= 2;
  return true;
}
static bool sreg_per_lane(unsigned which);
/* whether the record at pc is in a block (hit_blocks): a PTX_DUNI_HIT record not cut out (hit_cuts) */
#define HIT_IN_BLOCK(pc) ((hr[pc].f & PTX_DUNI_HIT) && !cut_pc[pc])
/* (hit_records) by pc, 1 for the records no block holds (hit_blocks): those reading a register whose lanes differ
 * whenever a warp runs it, a value register-pure instructions computed from the lanes' own special registers (%tid,
 * %laneid...; a predicate not: a comparison of such values may be one value, as a sort's masked lanes' are). In a
 * block such a record ended the run of the block as hits there, every record after it then on its own, each time;
 * out of the blocks, the records before and after it make blocks of their own, which run whole and replay from the
 * memo. Which records make a block changes no result (any straight run of records may). NULL, out of memory */
static uint8_t *hit_cuts(const tc5_ptx_module *m, const ptx_duni *duni) {
  const size_t nr = m->nregs + 1;
  uint8_t *lane = calloc(nr + m->ncode, 1), *cut = lane + nr;
  if (!lane) return NULL;
  for (uint32_t j = 0; j < m->nconsts; j++)
    if (m->consts[j].reg < m->nregs && m->consts[j].kind == PC_SREG && sreg_per_lane((unsigned)m->consts[j].value))
      lane[m->consts[j].reg] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
      const ptx_duni *d = &duni[pc];
      if (!(d->f & PTX_DUNI_RUN)) continue;
      bool any = false;
      for (unsigned j = d->nd; j < (unsigned)d->nd + d->ns; j++) any |= d->r[j] < m->nregs && lane[d->r[j]];
      for (unsigned i = 0; any && i < d->nd; i++)
        if (d->r[i] < m->nregs && m->reg_bits[d->r[i]] > 1 && !lane[d->r[i]]) lane[d->r[i]] = 1, changed = true;
    }
  }
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const ptx_duni *d = &duni[pc];
    for (unsigned j = d->nd; (d->f & PTX_DUNI_HIT) && j < (unsigned)d->nd + d->ns; j++)
      if (d->r[j] < m->nregs && lane[d->r[j]]) cut[pc] = 1;
  }
  return lane;
}
/* (hit_blocks) the registers only a block names, by register: its first record's pc + 1 when every instruction of the
 * module that names it (any operand, the guard) is in that block and no branch of the module goes into the block past
 * its first record, else UINT32_MAX (0: named nowhere). Such a register's value at the block's end is read by no
 * other instruction, and within the block only after the block wrote it when the block does not list it (it reads
 * it before writing it otherwise: each pass of the block writes it before reading it, a pass being the block from
 * its first record, the block being entered there alone). NULL with *none when a branch's targets are not all
 * labels (brx.idx: every block then keeps every register); NULL, out of memory */
static uint32_t *hit_own(const tc5_ptx_module *m, const ptx_hrec *hr, const uint8_t *cut_pc, bool *none) {
  const uint32_t nr = m->nregs + 2;
  *none = false;
  /* at: a record's block (its first pc + 1); cut: a block's first pc's, the block entered past it */
  uint32_t *own = calloc(nr + 2 * (size_t)m->ncode, sizeof *own), *at = own + nr, *cut = at + m->ncode;
  if (!own) return NULL;
  for (uint32_t pc = 0; pc < m->ncode; pc++)
    if (HIT_IN_BLOCK(pc)) at[pc] = pc && HIT_IN_BLOCK(pc - 1) ? at[pc - 1] : pc + 1;
#define HIT_OWN(x, b) \
  if ((x) < m->nregs) own[x] = (b) && (own[x] == 0 || own[x] == (b)) ? (b) : UINT32_MAX;
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const ptx_insn *in = &m->code[pc];
    const uint32_t b = at[pc];
    HIT_OWN(in->guard, b);
    INSN_OPND_REGS(m, in, 0, x, HIT_OWN(x, b));
    for (unsigned k = 0; k < PTX_MAX_OPS; k++) {
      const ptx_opnd *o = &in->o[k];
      if (o->kind == PO_LABEL && o->imm >= 0 && (uint64_t)o->imm < m->ncode && at[o->imm] && at[o->imm] != (uint64_t)o->imm + 1)
        cut[at[o->imm] - 1] = 1;
      else if (in->traits.group == IG_CONTROL && o->kind != PO_NONE && o->kind != PO_LABEL) *none = true;
    }
  }
#undef HIT_OWN
  for (uint32_t j = 0; j < m->nconsts; j++)
    if (m->consts[j].reg < m->nregs) own[m->consts[j].reg] = UINT32_MAX;
  for (uint32_t x = 0; x < m->nregs; x++) /* (a block entered past its first record keeps its registers) */
    if (own[x] && own[x] != UINT32_MAX && cut[own[x] - 1]) own[x] = UINT32_MAX;
  if (*none) free(own), own = NULL;
  return own;
}
static bool hit_blocks(const tc5_ptx_module *m, const ptx_duni *duni, ptx_hrec *hr, ptx_launch *L,
                       const uint8_t *fixed, const uint8_t *cut_pc) {
  const uint32_t nr = m->nregs + 2;
  /* by register: the block (its pc + 1) that lists it, writes it, lists it as a selp's predicate */
  uint32_t *seen = calloc(3 * (size_t)nr, sizeof *seen), *made = seen + nr, *pred = made + nr;
  uint32_t *xps = malloc(nr * sizeof *xps); /* a block's selps' predicates of the list */
  hit_lists t = {malloc(64 * sizeof *t.src), malloc(64 * sizeof *t.dst), malloc(16 * sizeof *t.blk), 0, 0, 0, 64, 64, 16};
  L->hblk = calloc(m->ncode ? m->ncode : 1, sizeof *L->hblk);
  bool none = false;
  uint32_t *own = hit_own(m, hr, cut_pc, &none);
  bool ok = seen && xps && t.src && t.dst && t.blk && L->hblk && (own || none);
  size_t words = 0;
  for (uint32_t pc = 0; ok && pc < m->ncode; pc++) {
    if (!HIT_IN_BLOCK(pc) || (pc && HIT_IN_BLOCK(pc - 1))) continue;
    uint32_t q = pc, b = pc + 1, nxp = 0;
    ptx_hblk k = {.src = (uint32_t)t.nsrc, .dst = (uint32_t)t.ndst};
    for (; ok && q < m->ncode && HIT_IN_BLOCK(q); q++) {
      ptx_hrec *h = &hr[q];
      for (unsigned i = 0; ok && i < 4; i++) {
        uint32_t x = h->s[i];
        if (x >= m->nregs || made[x] == b) continue;
        if (i == 2 && (h->f & PTX_DUNI_SELP)) { /* (tested at the record) */
          h->f |= PTX_HREC_XP;
          if (pred[x] != b) pred[x] = b, xps[nxp++] = x;
          continue;
        }
        if (seen[x] == b || fixed[x]) continue; /* (fixed: the same word in every warp, never written) */
        seen[x] = b;
        if (!(ok = hit_grow((void **)&t.src, &t.csrc, t.nsrc + 1, sizeof *t.src))) break;
        t.src[t.nsrc++] = (ptx_hsrc){x, q};
      }
      for (unsigned i = 0; ok && i < h->nd; i++) {
        uint32_t x = duni[q].r[i];
        if (made[x] == b) continue;
        made[x] = b;
        if (own && own[x] == b && seen[x] != b && pred[x] != b) continue; /* (read by no other: hit_own) */
        if (!(ok = hit_grow((void **)&t.dst, &t.cdst, t.ndst + 1, sizeof *t.dst))) break;
        t.dst[t.ndst++] = x;
      }
    }
    if (!ok || !(ok = hit_grow((void **)&t.src, &t.csrc, t.nsrc + 1, sizeof *t.src)) ||
        !(ok = hit_grow((void **)&t.blk, &t.cblk, t.nblk + 1, sizeof *t.blk)))
      break;
    t.src[t.nsrc++] = (ptx_hsrc){m->nregs + 1, q};
    for (uint32_t i = 0; ok && i < nxp; i++)
      if ((ok = hit_grow((void **)&t.src, &t.csrc, t.nsrc + 1, sizeof *t.src))) t.src[t.nsrc++] = (ptx_hsrc){xps[i], q};
    if (!ok) break;
    k.nsrc = (uint32_t)(t.nsrc - 1 - nxp - k.src);
    k.nxp = nxp;
    k.ndst = (uint32_t)(t.ndst - k.dst);
    k.end = q;
    k.memo = (uint32_t)words;
    words += 2 + k.nsrc + 2 * (size_t)k.nxp + k.ndst;
    hr[pc].f |= PTX_HREC_BLK;
    L->hblk[pc] = (uint32_t)t.nblk;
    t.blk[t.nblk++] = k;
  }
  free(seen), free(xps), free(own);
  if (!ok || words > UINT32_MAX) {
    free(t.src), free(t.dst), free(t.blk), free(L->hblk), L->hblk = NULL;
    return false;
  }
  L->hsrc = t.src, L->hdst = t.dst, L->hblks = t.blk, L->hmemo_words = words;
  return true;
}
/* (hit_records) by register, the instructions of the module writing it, 0, 1 or 2 (two or more: operand 0's registers;
 * any instruction naming one in its operand 0 counts as writing it), then (past m->nregs + 1 bytes) 1 for a constant
 * of one value in every warp of the launch (PC_VALUE: an immediate's, a parameter's offset) that no instruction
 * writes. NULL when out of memory */
static uint8_t *hit_writes(const tc5_ptx_module *m) {
  const size_t nr = m->nregs + 1;
  uint8_t *writes = calloc(2 * nr, 1), *fixed = writes + nr;
  if (!writes) return NULL;
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const ptx_opnd *o = &m->code[pc].o[0];
    if (o->kind != PO_REG && o->kind != PO_VEC) continue;
#define HIT_WRITES(x) \
  if ((x) < m->nregs && writes[x] < 2) writes[x]++;
    HIT_WRITES(o->reg);
    HIT_WRITES(o->reg2);
    for (unsigned e = 0; o->kind == PO_VEC && e < o->n && o->vec + e < m->nvregs; e++) HIT_WRITES(m->vregs[o->vec + e]);
#undef HIT_WRITES
  }
  for (uint32_t j = 0; j < m->nconsts; j++)
    if (m->consts[j].reg < m->nregs && m->consts[j].kind == PC_VALUE && !writes[m->consts[j].reg])
      fixed[m->consts[j].reg] = 1;
  return writes;
}
/* (hit_records) hit_full's final values (PTX_FIN): the records of instructions that alone write their destinations
 * (operand 0's registers: any other instruction naming one in its operand 0 counts as writing it), none of them a
 * source of theirs (PTX_HREC_FIN), and the first rows of the warps' bytes (L->ub_init) with PTX_FIN on the constants
 * no instruction writes and on PTX_DUNI_PAD4's register. Run on final sources with the whole warp, such an
 * instruction's destinations are final: its next runs give their lanes the same values (writes: hit_writes') */
static void hit_fins(const tc5_ptx_module *m, const ptx_duni *duni, ptx_hrec *hr, ptx_launch *L, const uint8_t *writes) {
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const ptx_duni *d = &duni[pc];
    if (!(d->f & PTX_DUNI_HIT)) continue;
    bool one = true;
    for (unsigned i = 0; one && i < d->nd; i++) {
      one = d->r[i] < m->nregs && writes[d->r[i]] == 1;
      for (unsigned j = d->nd; one && j < (unsigned)d->nd + d->ns; j++) one = d->r[j] != d->r[i];
    }
    if (one) hr[pc].f |= PTX_HREC_FIN;
  }
  for (unsigned row = 0; row < 2; row++) {
    uint8_t *ub = L->ub_init + row * (size_t)L->ub_bytes;
    for (uint32_t j = 0; j < m->nconsts; j++)
      if (m->consts[j].reg < m->nregs && !writes[m->consts[j].reg]) ub[m->consts[j].reg] |= PTX_FIN;
    ub[m->nregs] |= PTX_FIN;
  }
}
/* hit_run's records of the instructions (ptx_launch.hrec), from their duni records, and their blocks (hit_blocks):
 * NULL when out of memory */
static ptx_hrec *hit_records(const tc5_ptx_module *m, const ptx_duni *duni, ptx_launch *L) {
  ptx_hrec *hr = calloc(m->ncode ? m->ncode : 1, sizeof *hr);
  for (uint32_t pc = 0; hr && pc < m->ncode; pc++) {
    const ptx_duni *d = &duni[pc];
    ptx_hrec *h = &hr[pc];
    h->f = d->f;
    if (d->f & PTX_DUNI_HIT) {
      h->l0 = d->l0;
      memcpy(h->s, d->r + d->nd, sizeof h->s);
      h->d0 = d->r[0];
      h->nd = d->nd;
      if (d->nd > 1) h->f |= PTX_HREC_ND;
    } else if (d->f & PTX_DUNI_SKIP0) {
      h->s[0] = m->code[pc].guard;
      h->neg = m->code[pc].guard_neg;
    }
    /* a plain ld or st (its registers read and written in the lanes of its mask: PTX_DUNI_LANES), not .aligned:
     * hit_run runs it as run_warp_body would (hit_gen) */
    const ptx_insn *in = &m->code[pc];
    if ((d->f & PTX_DUNI_LANES) && !(d->f & (PTX_DUNI_RUN | PTX_DUNI_SHFL | PTX_DUNI_WALK)) &&
        in->traits.group == IG_MEM && !(in->flags & PF_ALIGNED))
      h->f |= PTX_HREC_GEN;
  }
  uint8_t *writes = hr ? hit_writes(m) : NULL, *lane = hr ? hit_cuts(m, duni) : NULL;
  if (writes) hit_fins(m, duni, hr, L, writes);
  if (hr && (!writes || !lane || !hit_blocks(m, duni, hr, L, writes + m->nregs + 1, lane + m->nregs + 1)))
    free(hr), hr = NULL;
  free(writes), free(lane);
  return hr;
}

/* run_warp's loop, compiled twice (dyn: run_warp's registers uniform as the warp runs on, ub_run), so that
 * a launch without them pays no test of theirs an instruction (bench_runner_ab: topk_stage1 0.93x else) */
static inline __attribute__((always_inline)) int run_warp_body(ptx_warp *w, uint64_t budget, const bool dyn) {
  ptx_cta *c = w->cta;
  ptx_launch *L = c->L;
  const ptx_insn *code = L->m->code;
  const uint8_t *uni = L->uni;
  /* no seeded schedule nor timing model (fixed for the launch): no late load nor store
   * buffer either (only a seeded schedule makes them), their tests skipped */
  const bool plain = dyn || (!c->cl->sched && !c->tm);
  /* (dyn: run_warp found them on for this launch and warp) */
  const ptx_duni *duni = dyn ? L->duni : NULL;
  const ptx_hrec *hrec = dyn ? L->hrec : NULL;
  uint64_t hits = 0;
  const tc5_ptx_module *m = L->m;
  const tc5_uninit_log *un = &c->cl->uninit; /* (the CTA's cluster: fixed while the warp runs) */
  uint64_t steps = 0, tins = 0;
  int ret = 0;
  while (steps < budget) {
    /* (dyn) a run of instructions ub_run would take, with none of the tests below (hit_run) */
    if (dyn && w->converged && (hrec[w->pc].f & (PTX_DUNI_HIT | PTX_DUNI_SKIP0 | PTX_HREC_GEN)) &&
        w->live == 0xFFFFFFFFu && !w->chk_pending && !(un->smem | un->tmem)) {
      hit_ctx x = {hrec, L->hblk, L->hblks, L->hsrc, L->hdst, c->cl->hmemo, duni, m, uni, &c->cl->uninit, 0, 0, 0};
      int r = PX_NEXT;
      w->active = 0xFFFFFFFFu;
      uint64_t n = hit_run(w, &x, budget - steps, &r);
      steps += n;
      hits += n - x.skips - x.fulls; /* (skips and fulls: not ub_run's, as before: cta_setup's duni_off test) */
      tins += 32 * (n - x.skips) - x.tless;
      if (r != PX_NEXT) {
        ret = -1;
        break;
      }
      if (steps >= budget) break;
    }
    uint32_t pc, active;
    if (w->converged) {
      pc = w->pc;
      active = w->live;
    } else {
      /* the smallest pc of the threads not at a .aligned instruction; when every thread is at one,
       * the smallest of those */
      uint32_t apc = UINT32_MAX, aact = 0;
      pc = UINT32_MAX;
      active = 0;
      PTX_LANES(w->live, {
        uint32_t t = w->tpc[l];
        if (code[t].flags & PF_ALIGNED) {
          if (t < apc) apc = t, aact = 0;
          if (t == apc) aact |= 1u << l;
        } else {
          if (t < pc) pc = t, active = 0;
          if (t == pc) active |= 1u << l;
        }
      });
      if (!active) {
        pc = apc;
        active = aact;
      } else if (aact && !w->aligned_wait) {
        w->aligned_wait = w->live;
      }
      if (active == w->live) {
        w->converged = true;
        w->pc = pc;
      }
    }
    const ptx_insn *in = &code[pc]; /* every function ends in an implicit ret / exit */
    const uint8_t upc = uni ? uni[pc] : 0; /* uniform_pcs's flags of the instruction */
    w->active = active;
    uint32_t mask = active;
    const ptx_duni *dr = duni ? &duni[pc] : NULL;
    if (in->guard != PTX_NOREG) mask = guard_mask(w, in, upc, active, duni != NULL);
    uint32_t whole = w->live; /* the threads a .aligned instruction needs */
    if (in->flags & PF_ALIGNED) {
      if (w->aligned_wait) whole = w->aligned_wait; /* and those that exited while these waited */
      w->aligned_wait = 0;
    }
    if ((in->flags & PF_ALIGNED) && (active != whole || (mask && mask != active))) {
      ptx_fail(w, in, -1, TC5_EILLEGAL, active,
               active != whole ? "[%s] a .aligned instruction reached by part of the warp (threads 0x%08x of live 0x%08x): undefined behaviour"
                               : "[%s] the guard of a .aligned instruction differs between the threads of the warp (true for 0x%08x of 0x%08x)",
               chk_rule_id(CR_PARTIAL_WARP), active != whole ? active : mask, whole);
      return -1;
    }
    int r;
    if (!plain && __builtin_expect(w->ldq_on, 0) && ptx_ldq_due(w, in, mask)) ptx_ldq_perform(w); /* a late load (issue 53) */
    /* the store buffer (seeded schedules, issue 53): what orders or reaches
     * memory otherwise than a plain ld/st.global makes the warp's stores visible first */
    if (!plain && __builtin_expect((w->sb_n | c->cl->sb_part) != 0, 0) &&
        ((in->traits.flags & (IT_FENCE | IT_BARRIER | IT_ATOMIC | IT_ASYNC | IT_CP_ASYNC)) ||
         ((in->traits.flags & (IT_READ | IT_WRITE)) && in->traits.space != IS_GLOBAL && in->traits.space != IS_SHARED &&
          in->traits.space != IS_LOCAL && in->traits.space != IS_PARAM && in->traits.space != IS_CONST &&
          /* ld/st.shared::cluster: their own paths (exec_mem.c: buffered, or drained first) */
          !(in->traits.space == IS_SHARED_CLUSTER && in->traits.group == IG_MEM))))
      ptx_sb_order(w, in); /* by its scope (machine.c) */
    if (!plain && c->cl->sched && (in->flags & (PF_LATE | PF_FLUSH_WARP | PF_FLUSH_ALL)) && mask) {
      if (in->flags & PF_LATE) r = ptx_late_defer(w, in, mask); /* completes later (sched.c) */
      else if (in->flags & PF_GROUP) { /* wait_group N */
        uint32_t keep = (uint32_t)PTX_R(w, in->o[0].reg)[__builtin_ctz(mask)], pend = 0;
        r = ptx_late_flush_groups(c->cl, w, in, keep, &pend) == PX_ERROR ? PX_ERROR : in->fn(w, in, mask);
        /* the checker counts a group at its commit_group, which is still in
         * the FIFO for the pend most recent ones: the groups waited are the
         * warp's commits less N, not the counted ones less N */
        if (r != PX_ERROR && pend && w->cta->chk)
          chk_group(CHK_W(w), in->aux2 == PTX_GROUP_CP_ASYNC ? 0 : 1, true, keep > pend ? keep - pend : 0);
      } else
        r = ptx_late_flush(c->cl, in->flags & PF_FLUSH_ALL ? NULL : w) == PX_ERROR ? PX_ERROR : in->fn(w, in, mask);
    } else if (dr && (dr->f & (PTX_DUNI_RUN | PTX_DUNI_SHFL)) && ub_run(w, in, dr, mask, &r)) {
      hits++; /* lane 0 alone: its sources one value each, so is its result */
    } else if (dr) { /* (plain) the lanes of its lz registers filled, its operand 0's ub bits found */
      ub_fill(w, in, dr, m, mask);
      r = (upc & PTX_UNI_RESULT) && (mask & (mask - 1)) ? run_uniform(w, in, mask, (upc & PTX_UNI_COPY) != 0)
                                                         : in->fn(w, in, mask);
      ub_after(w, in, dr, m);
    } else if ((upc & PTX_UNI_RESULT) && (mask & (mask - 1))) {
      r = run_uniform(w, in, mask, !plain || (upc & PTX_UNI_COPY)); /* the timing model may read any lane */
    } else
      r = in->fn(w, in, mask);
    if (w->chk_pending) {
      if (duni) ub_fill1(w, in->guard); /* (the checker reads its lanes: run_warp read the word of a ub guard) */
      chk_after(CHK_W(w), CHK_IN(w, in));
    }
    if (!plain && c->tm) tm_step(c->tm, w->id, pc, mask, w->r, r == PX_BLOCK ? TM_BLOCKED : r == PX_BRANCH && w->br_taken && w->br_target <= pc ? TM_LOOP : TM_DONE);
    if (__builtin_expect((un->smem | un->tmem) != 0, 0)) chk_uninit_flush(CHK_W(w), CHK_IN(w, in), &c->cl->uninit);
    steps++;
    tins += mask == 0xFFFFFFFFu ? 32u : ptx_popc32(mask);
    if (r == PX_NEXT) {
      advance(w, active, pc);
      continue;
    }
    if (r == PX_BRANCH) {
      uint32_t taken = w->br_taken, target = w->br_target;
      if (w->converged) {
        if (taken == active) {
          w->pc = target;
        } else if (taken == 0) {
          w->pc = pc + 1;
        } else {
          PTX_LANES(w->live, w->tpc[l] = (taken >> l & 1) ? target : pc + 1);
          w->converged = false;
        }
      } else {
        PTX_LANES(active, w->tpc[l] = (taken >> l & 1) ? target : pc + 1);
      }
      continue;
    }
    if (r == PX_BLOCK) {
      w->wait = W_RETRY;
      w->wait_epoch = c->epoch;
      break;
    }
    if (r == PX_WAIT || r == PX_WAIT_HERE) {
      if (r == PX_WAIT) advance(w, active, pc);
      w->wait = W_BAR; /* until another warp completes the barrier */
      break;
    }
    if (r == PX_JUMPED) continue; /* call / ret set the lanes' pcs */
    if (r == PX_EXIT) {
      if (!w->live) {
        w->done = true;
        ret = 1;
        break;
      }
      advance(w, active & w->live, pc);
      continue;
    }
    ret = -1;
    break;
  }
  w->steps += steps;
  w->thread_insns += tins;
  if (duni) c->cl->duni_hits += hits, c->cl->duni_seen += steps;
  return ret;
}
static int run_warp(ptx_warp *w, uint64_t budget) {
  const ptx_cta *c = w->cta;
  /* (no seeded schedule nor timing model: dyn_uniform_pcs's record; w->ub: cta_setup left them on) */
  return !c->cl->sched && !c->tm && w->ub && c->L->duni ? run_warp_body(w, budget, true) : run_warp_body(w, budget, false);
}


/* the registers entry f can touch, [*lo, *hi): those its instructions and
 * every .func's (one it may call) name, and the slot past the highest (a
 * 128-bit register's second half) */
static void reg_window(const tc5_ptx_module *m, const ptx_func *f, uint32_t *lo, uint32_t *hi) {
  uint32_t a = m->nregs, b = 0;
#define REG_SEEN(x)                     \
  do {                                  \
    uint32_t x__ = (x);                 \
    if (x__ < m->nregs) {               \
      if (x__ < a) a = x__;             \
      if (x__ + 2 > b) b = x__ + 2;     \
    }                                   \
  } while (0)
  for (unsigned g = 0; g < m->nfuncs; g++) {
    const ptx_func *fn = &m->funcs[g];
    if (fn != f && fn->is_entry) continue;
    for (uint32_t pc = fn->first; pc < fn->first + fn->count && pc < m->ncode; pc++) {
      const ptx_insn *in = &m->code[pc];
      REG_SEEN(in->guard);
      INSN_OPND_REGS(m, in, 0, x, REG_SEEN(x));
    }
  }
#undef REG_SEEN
  if (b > m->nregs) b = m->nregs;
  if (a >= b) a = b = 0;
  *lo = a;
  *hi = b;
}


/* whether in, when it runs, writes operand 0's registers in every lane of its mask (read_first's
 * definitions): unguarded, register-pure or a plain ld, into one register or (an ld's, a mov's
 * parts) into each of a vector's */
static bool first_writes(const ptx_insn *in) {
  const insn_traits *t = &in->traits;
  if (in->guard != PTX_NOREG || !(t->flags & (IT_PURE | IT_LOAD))) return false;
  if (in->o[0].kind == PO_REG) return in->o[0].reg2 == PTX_NOREG;
  return in->o[0].kind == PO_VEC && ((t->flags & IT_LOAD) || t->group == IG_MOVE);
}

/* Which registers of the window [lo, hi) a thread of entry f may read before it wrote
 * them (issue 50, size: a CTA's set-up zeroes only those after a worker's first CTA; the
 * others are written before any read, so what the previous CTA left there is never seen).
 * A must-analysis over the entry's control flow, per thread (a thread runs the instructions
 * on its own path in order, whatever the warp's divergence): a register is written on entry
 * to pc when every path from the entry writes it; an instruction writes operand 0's registers
 * when it is unguarded and register-pure (IT_PURE) or a plain ld (first_writes); any other
 * mention of a register (sources, guards, addresses, a store's value, a pair's or vector's
 * parts) reads it. Only kernels of instructions whose lanes read their own registers
 * (register-pure, selects and moves, plain ld/st, bra/ret/exit, barriers, fences, hints) and
 * no .func, no 128-bit register; warp-level ones too when warp_ok): otherwise false (every
 * register zeroed, as before).
 * *zero (malloc'd, *nzero) lists the registers to zero; the constants are defined at entry. */
static bool read_first(const tc5_ptx_module *m, const ptx_func *f, uint32_t lo, uint32_t hi, bool warp_ok,
                       uint32_t **zero, uint32_t *nzero) {
  *zero = NULL, *nzero = 0;
  uint32_t W = hi - lo, n = f->count, first = f->first;
  if (!n || first + n > m->ncode || (uint64_t)(n + 2) * W > (1u << 24)) return false;
  for (unsigned g = 0; g < m->nfuncs; g++)
    if (!m->funcs[g].is_entry && m->funcs[g].defined && m->funcs[g].count) return false;
  for (uint32_t r = lo; r < hi; r++)
    if (m->reg_bits[r] > 64) return false;
  for (uint32_t pc = first; pc < first + n; pc++) {
    const ptx_insn *in = &m->code[pc];
    const insn_traits *t = &in->traits;
    bool ok = (t->flags & (IT_PURE | IT_SELECT)) || t->group == IG_MOVE || t->group == IG_BARRIER ||
              t->group == IG_FENCE || t->group == IG_MISC ||
              (t->group == IG_MEM && !(t->flags & (IT_COLLECTIVE | IT_ASYNC | IT_ATOMIC | IT_CP_ASYNC))) ||
              (t->group == IG_CONTROL && (in->nops == 0 || (in->nops == 1 && in->o[0].kind == PO_LABEL &&
                                                             in->o[0].imm >= first && in->o[0].imm < first + n)));
    /* warp-level instructions (shfl, vote, redux...) read other lanes' registers: only when those
     * lanes ran the same path (warp_ok: the lanes of a warp never part, every warp whole) */
    if (warp_ok && t->group == IG_WARP) continue;
    if (!ok || (t->flags & IT_COLLECTIVE && t->group != IG_BARRIER)) return false;
  }
  size_t words = (W + 63) / 64;
  /* def: per instruction (and past the last), the registers written on entry to it; then one
   * row for an instruction's exit */
  uint64_t *def = malloc((size_t)(n + 2) * words * 8), *need = calloc(words, 8);
  uint8_t *isk = calloc(W ? W : 1, 1);
  bool done = def && need && isk;
  if (done) {
    for (uint32_t j = 0; j < m->nconsts; j++)
      if (m->consts[j].reg >= lo && m->consts[j].reg < hi) isk[m->consts[j].reg - lo] = 1;
    memset(def, 0xFF, (size_t)(n + 1) * words * 8); /* not reached yet: every register (the meet's identity) */
    for (uint32_t r = 0; r < W; r++)
      if (!isk[r]) def[r / 64] &= ~(1ull << (r % 64)); /* the entry: the constants only */
  }
  /* round-robin passes to the fixed point (forward code: one or two) */
  bool changed = done;
  for (unsigned pass = 0; changed && pass < 64; pass++) {
    changed = false;
    for (uint32_t i = 0; i < n; i++) {
      const ptx_insn *in = &m->code[first + i];
      uint64_t *out = def + (size_t)(n + 1) * words;
      memcpy(out, def + (size_t)i * words, words * 8);
      const ptx_opnd *o0 = &in->o[0];
      for (unsigned e = 0; first_writes(in) && e < (o0->kind == PO_VEC ? o0->n : 1u); e++) {
        uint32_t x = o0->kind == PO_VEC ? (o0->vec + e < m->nvregs ? m->vregs[o0->vec + e] : PTX_NOREG) : o0->reg;
        if (x >= lo && x < hi) out[(x - lo) / 64] |= 1ull << ((x - lo) % 64);
      }
      uint32_t succ[2] = {i + 1, UINT32_MAX}; /* the next one always (an extra edge only defines less) */
      if (in->traits.group == IG_CONTROL && in->nops == 1) succ[1] = (uint32_t)in->o[0].imm - first;
      for (unsigned s = 0; s < 2; s++) {
        if (succ[s] > n) continue;
        uint64_t *d = def + (size_t)succ[s] * words;
        for (size_t k = 0; k < words; k++)
          if (d[k] & ~out[k]) d[k] &= out[k], changed = true;
      }
    }
    if (pass == 63 && changed) done = false;
  }
  if (done) {
    for (uint32_t i = 0; i < n; i++) {
      const ptx_insn *in = &m->code[first + i];
      const uint64_t *d = def + (size_t)i * words;
      bool writes = first_writes(in);
#define READS(x)                                                               \
  do {                                                                         \
    uint32_t x__ = (x);                                                        \
    if (x__ >= lo && x__ < hi && !(d[(x__ - lo) / 64] >> ((x__ - lo) % 64) & 1)) \
      need[(x__ - lo) / 64] |= 1ull << ((x__ - lo) % 64);                      \
  } while (0)
      READS(in->guard);
      INSN_OPND_REGS(m, in, writes ? 1 : 0, x, READS(x)); /* operand 0 written, not read, when writes */
#undef READS
    }
    uint32_t c = 0;
    for (uint32_t r = 0; r < W; r++) c += need[r / 64] >> (r % 64) & 1;
    *zero = malloc((c ? c : 1) * sizeof **zero);
    done = *zero != NULL;
    for (uint32_t r = 0; done && r < W; r++)
      if (need[r / 64] >> (r % 64) & 1) (*zero)[(*nzero)++] = lo + r;
  }
  free(def), free(need), free(isk);
  return done;
}

/* in writes one register, with a value the same in every lane when the registers it reads
 * are (u: per register of the window [lo, hi), 1 uniform) */
static bool uniform_def(const tc5_ptx_module *m, const ptx_insn *in, const uint8_t *u, uint32_t lo, uint32_t hi) {
#define UNI(x) ((x) >= lo && (x) < hi && u[(x) - lo])
  const insn_traits *t = &in->traits;
  bool load_param = (t->flags & IT_LOAD) && t->group == IG_MEM && in->space == PS_PARAM &&
                    !(t->flags & (IT_ATOMIC | IT_ASYNC | IT_COLLECTIVE | IT_CP_ASYNC));
  if ((!(t->flags & (IT_PURE | IT_SELECT)) && !load_param) || (in->flags & PF_LANE_STATE)) return false;
  if (in->o[0].kind != PO_REG || in->o[0].reg2 != PTX_NOREG || (in->guard != PTX_NOREG && !UNI(in->guard))) return false;
  for (unsigned k = 1; k < PTX_MAX_OPS; k++) {
    const ptx_opnd *o = &in->o[k];
    if (o->kind == PO_NONE || o->kind == PO_LABEL) continue;
    if (o->kind == PO_SREG) return false;
    if (o->kind == PO_VEC) {
      for (unsigned e = 0; e < o->n; e++)
        if (o->vec + e >= m->nvregs || !UNI(m->vregs[o->vec + e])) return false;
    } else if (!UNI(o->reg) || (o->reg2 != PTX_NOREG && !UNI(o->reg2))) {
      return false;
    }
  }
  return true;
}

/* Which instructions of entry f compute one value for every lane of the warp (issue 50, size:
 * a grid's address arithmetic from %ctaid and the parameters): run_warp executes them for the
 * first lane of the mask and copies its result to the others (run_uniform). A register is
 * warp-uniform when every instruction that writes it is register-pure (IT_PURE, IT_SELECT; no
 * other state of the thread, as the carry flag, PF_LANE_STATE) or an ld.param, unguarded or guarded by a uniform predicate, of one destination, and reads
 * only uniform registers (the constants but the thread's place and lane masks; no special
 * register read when executed); its first value, 0, is the same in every lane (what a CTA
 * after a worker's first left there is never read: read_first). That holds only while the
 * lanes of a warp never take different paths: every branch, ret or exit unguarded or guarded
 * by a uniform predicate, no .func; otherwise NULL (none). The rest of the module's
 * instructions write their operand 0's registers (conservative: a source there only makes
 * fewer registers uniform). A flow-insensitive fixed point; returns flags per instruction
 * (malloc'd, indexed by pc: PTX_UNI_RESULT, PTX_UNI_GUARD its guard is uniform, PTX_UNI_COPY its
 * result is read in every lane) or NULL; *one_path: the analysis found no divergence. */
static uint8_t *uniform_pcs(const tc5_ptx_module *m, const ptx_func *f, uint32_t lo, uint32_t hi, bool *one_path) {
  uint32_t W = hi - lo, first = f->first, n = f->count;
  *one_path = false;
  if (!n || !W || first + n > m->ncode) return NULL;
  for (unsigned g = 0; g < m->nfuncs; g++)
    if (!m->funcs[g].is_entry && m->funcs[g].defined && m->funcs[g].count) return NULL;
  uint8_t *u = malloc(W), *pcs = calloc(m->ncode, 1);
  if (!u || !pcs) {
    free(u), free(pcs);
    return NULL;
  }
  memset(u, 1, W);
  for (uint32_t j = 0; j < m->nconsts; j++) {
    const struct ptx_const *k = &m->consts[j];
    if (k->reg >= lo && k->reg < hi && k->kind == PC_SREG && sreg_per_lane((unsigned)k->value)) u[k->reg - lo] = 0;
  }
  bool changed = true, diverge = false;
  while (changed && !diverge) {
    changed = false;
    for (uint32_t pc = first; pc < first + n; pc++) {
      const ptx_insn *in = &m->code[pc];
      const ptx_opnd *d = &in->o[0];
      if (in->traits.flags & IT_BRANCH) {
        /* bra LABEL, ret, exit (trap ends the run): one path for every lane while the guard is uniform */
        if ((in->guard != PTX_NOREG && !UNI(in->guard)) || !(in->nops == 0 || (in->nops == 1 && d->kind == PO_LABEL)))
          diverge = true;
        continue;
      }
      if (d->kind != PO_REG && d->kind != PO_VEC) continue;           /* no register written (an address, a label) */
      if (in->traits.group == IG_BARRIER && in->nops <= 2) continue; /* bar.sync / barrier a{, b}: sources */
      if (uniform_def(m, in, u, lo, hi)) continue;
      /* a value that may differ between lanes: the registers it writes are not uniform */
      for (unsigned e = 0; e < (d->kind == PO_VEC ? d->n : 2u); e++) {
        uint32_t x = d->kind == PO_VEC ? (d->vec + e < m->nvregs ? m->vregs[d->vec + e] : PTX_NOREG) : e ? d->reg2 : d->reg;
        if (UNI(x)) u[x - lo] = 0, changed = true;
      }
    }
  }
  bool any = false;
  for (uint32_t pc = first; pc < first + n && !diverge; pc++) {
    const ptx_insn *in = &m->code[pc];
    if (!(in->traits.flags & IT_BRANCH) && uniform_def(m, in, u, lo, hi) && UNI(in->o[0].reg)) pcs[pc] |= PTX_UNI_RESULT;
    if (in->guard != PTX_NOREG && UNI(in->guard)) pcs[pc] |= PTX_UNI_GUARD;
    any |= pcs[pc] != 0;
  }
  /* the lanes of a warp never part, so such an instruction reads the first live lane of its
   * sources: a uniform result that no other instruction reads needs no copy in the other lanes
   * (u now: 1, read in every lane somewhere). The checker reads every lane of a guard and of a
   * selp's predicate (check.c executed, chk_after): those are copied */
  memset(u, 0, W);
  for (uint32_t pc = first; pc < first + n && any; pc++) {
    const ptx_insn *in = &m->code[pc];
    if (in->guard != PTX_NOREG && in->guard >= lo && in->guard < hi) u[in->guard - lo] = 1;
    if ((pcs[pc] & PTX_UNI_RESULT) && !(in->traits.flags & IT_SELECT)) continue;
    INSN_OPND_REGS(m, in, 0, x, if (x >= lo && x < hi) u[x - lo] = 1);
  }
  for (uint32_t pc = first; pc < first + n && any; pc++)
    if ((pcs[pc] & PTX_UNI_RESULT) && u[m->code[pc].o[0].reg - lo]) pcs[pc] |= PTX_UNI_COPY;
#undef UNI
  free(u);
  *one_path = !diverge;
  if (!any) free(pcs), pcs = NULL;
  return pcs;
}

/* ---- warps that change nothing another warp does not (issue 50, bc2) ----
 * Triton lays a tile smaller than the CTA across all its threads: FlagGems' upsample_bicubic2d_aa (BLOCK_X 64,
 * 8 warps) computes each output in four warps and stores it from one (`and %r14, %tid.x, 192; setp.eq %p71,
 * %r14, 0; @%p71 st.global`). A warp k is left out of the run (its CTAs set it up done: cta_setup) when nothing
 * of it could be seen:
 *  - the entry's instructions are register-pure ones of the integer, float and move families (no carry),
 *    selects, loads of global, .param or .const memory and stores to global memory (none atomic,
 *    asynchronous or collective), bra/ret/exit/trap; no .func, no special register read when executed; one
 *    thread-block dimension, whole warps; no seeded schedule nor timing model; read_first's registers known;
 *  - every branch's guard, load's guard and load's address depends on the warp's place only through the
 *    warp-index bits `need` (tid.x bits 5-9: followed bit by bit through mov, and/or/xor and zero-extending
 *    cvt, as `and %r31, %tid.x, 63` keeps bit 5 alone; through anything else, every bit it had), and on no
 *    loaded value (memory may change between two warps' loads): so warp j = k & need < k takes the same path
 *    and reads the same addresses in each lane, before k (a CTA's warps run in order, one budget each): a load
 *    that fails in k failed in j first, with the message the run gave;
 *  - each store's guard is a predicate (not negated) false in k's 32 lanes: found once for the launch by running
 *    the instructions it is computed from (idle_slice: each its register's only definition, unguarded, integer
 *    or move, never read before written (read_first), from constants of the thread's place or the launch and
 *    such registers) in a scratch warp with k's %tid.x: their own functions, so their semantics.
 * The checker sees nothing of such a kernel's warps (no shared memory, barrier, fence nor asynchronous
 * operation; ld/st.global have no checker call): the findings, outputs and errors are the same; --stats counts
 * the instructions run, the left-out warps' not. Returns the mask of warps to leave out (0: none). */
typedef struct idle_taint {
  uint64_t ex; /* value bits that are tid.x's own bits 5 and up (bit i: tid.x's bit i) */
  uint32_t ws; /* warp-index bits (tid.x bits 5-9) the value depends on otherwise */
  bool data;   /* depends on a loaded value */
} idle_taint;
static uint32_t idle_ws(const idle_taint *t) { return (t->ws | (uint32_t)(t->ex >> 5)) & 31u; }
/* register x's (a source) into *ws and *data (outside the window: nothing); whether its bits are tid.x's own */
static bool idle_src(const idle_taint *T, uint32_t lo, uint32_t hi, uint32_t x, uint32_t *ws, bool *data) {
  if (x < lo || x >= hi) return true;
  *ws |= idle_ws(&T[x - lo]);
  *data |= T[x - lo].data;
  return T[x - lo].ws == 0;
}
/* a constant register's: tid.x's bits 5 and up its own; the CTA's, the launch's and the lane's none; others any */
static idle_taint idle_const(const struct ptx_const *k) {
  idle_taint t = {0, 0, false};
  if (k->kind != PC_SREG) return t;
  switch ((unsigned)k->value) {
  case SR_TID_X: t.ex = ~(uint64_t)31; break;
  case SR_TID_Y: case SR_TID_Z: case SR_NTID_X: case SR_NTID_Y: case SR_NTID_Z:
  case SR_CTAID_X: case SR_CTAID_Y: case SR_CTAID_Z: case SR_NCTAID_X: case SR_NCTAID_Y: case SR_NCTAID_Z:
  case SR_LANEID: case SR_LANEMASK_EQ: case SR_LANEMASK_LE: case SR_LANEMASK_LT: case SR_LANEMASK_GE:
  case SR_LANEMASK_GT: break;
  default: t.ws = 31; break;
  }
  return t;
}
/* idle_warps' record of the entry's registers [lo, hi) and instructions [first, first + n) */
typedef struct idle_ctx {
  const tc5_ptx_module *m;
  uint32_t lo, hi, first;
  uint16_t *ndef;  /* per register: its definitions (operand 0 of an instruction that writes registers) */
  uint32_t *defpc; /* ... the last one's pc */
  uint32_t *kidx;  /* a constant's index in m->consts + 1 (0: not a constant) */
  uint8_t *kfit;   /* a constant's: 1 a scratch warp holds it (an immediate, tid, ntid, laneid), 2 not */
  uint8_t *zero;   /* read_first's: may be read before written */
  uint8_t *st;     /* idle_slice's: 0 not looked at, 1 fit, 2 not, 3 being looked at */
  uint8_t *slice;  /* per instruction: idle_slice's */
} idle_ctx;
/* whether register x is computed as idle_warps says a store's guard must be (a constant a scratch warp holds,
 * or its only definition's instruction unguarded, of those below, never read before written, from such
 * registers defined before it); those instructions marked in c->slice */
static bool idle_slice(idle_ctx *c, uint32_t x, unsigned depth) {
  if (x < c->lo || x >= c->hi) return false;
  uint32_t r = x - c->lo;
  if (c->st[r] == 1 || c->st[r] == 2) return c->st[r] == 1;
  if (c->st[r] == 3 || depth > 64) return false;
  if (c->kfit[r]) return (c->st[r] = c->kfit[r]) == 1;
  if (c->ndef[r] != 1 || c->zero[r]) return (c->st[r] = 2) == 1;
  c->st[r] = 3;
  uint32_t pc = c->defpc[r];
  const ptx_insn *in = &c->m->code[pc];
  unsigned op = in->traits.op;
  bool ok = in->guard == PTX_NOREG && (in->traits.flags & (IT_PURE | IT_SELECT)) && !(in->flags & PF_LANE_STATE) &&
            (op == OPC_add || op == OPC_sub || op == OPC_mul || op == OPC_mad || op == OPC_min || op == OPC_max ||
             op == OPC_and || op == OPC_or || op == OPC_xor || op == OPC_not || op == OPC_shl || op == OPC_shr ||
             op == OPC_setp || op == OPC_selp || op == OPC_mov || op == OPC_cvt) &&
            in->o[0].kind == PO_REG && in->o[0].reg == x && in->o[0].reg2 == PTX_NOREG;
  for (unsigned k = 1; ok && k < PTX_MAX_OPS; k++) {
    const ptx_opnd *o = &in->o[k];
    if (o->kind == PO_NONE) continue;
    ok = o->kind == PO_REG && o->reg2 == PTX_NOREG && !o->neg && idle_slice(c, o->reg, depth + 1) &&
         (c->kfit[o->reg - c->lo] || c->defpc[o->reg - c->lo] < pc);
  }
  c->st[r] = ok ? 1 : 2;
  if (ok) c->slice[pc - c->first] = 1;
  return ok;
}
static uint32_t idle_warps(const ptx_launch *L) {
  const tc5_ptx_module *m = L->m;
  const ptx_func *f = L->f;
  uint32_t lo = L->reg_lo, hi = L->reg_hi, W = hi - lo, first = f->first, n = f->count, nw = L->warps_per_cta;
  if (L->schedule || L->tm_gpu || !L->zero_regs || nw < 2 || nw > 32 || L->cfg.block[1] != 1 || L->cfg.block[2] != 1 ||
      L->threads_per_cta % 32 || !n || !W || first + n > m->ncode)
    return 0;
  for (unsigned g = 0; g < m->nfuncs; g++)
    if (!m->funcs[g].is_entry && m->funcs[g].defined && m->funcs[g].count) return 0;
  bool any_store = false;
  for (uint32_t pc = first; pc < first + n; pc++) {
    const ptx_insn *in = &m->code[pc];
    const insn_traits *t = &in->traits;
    for (unsigned k = 0; k < PTX_MAX_OPS; k++)
      if (in->o[k].kind == PO_SREG || in->o[k].kind == PO_SINK) return 0;
    bool mem = t->group == IG_MEM && !(t->flags & (IT_ATOMIC | IT_ASYNC | IT_COLLECTIVE | IT_CP_ASYNC | IT_MATRIX));
    bool load = mem && (t->flags & IT_LOAD) && !(t->flags & IT_WRITE) &&
                (t->space == IS_GLOBAL || t->space == IS_PARAM || t->space == IS_CONST);
    bool store = mem && (t->flags & IT_WRITE) && !(t->flags & (IT_READ | IT_LOAD)) && t->space == IS_GLOBAL;
    bool pure = (t->flags & (IT_PURE | IT_SELECT)) && !(in->flags & PF_LANE_STATE) &&
                (t->group == IG_INT || t->group == IG_FLOAT || t->group == IG_MOVE);
    bool branch = t->group == IG_CONTROL && (t->flags & IT_BRANCH) &&
                  (in->nops == 0 || (in->nops == 1 && in->o[0].kind == PO_LABEL));
    if (!(load || store || pure || branch)) return 0;
    any_store |= store;
  }
  if (!any_store) return 0; /* (a kernel that stores nothing: left as it is) */
  idle_ctx c = {m, lo, hi, first, calloc(W, sizeof(uint16_t)), calloc(W, sizeof(uint32_t)), calloc(W, sizeof(uint32_t)),
                calloc(W, 1), calloc(W, 1), calloc(W, 1), calloc(n, 1)};
  idle_taint *T = calloc(W, sizeof *T);
  uint32_t idle = 0;
  if (!T || !c.ndef || !c.defpc || !c.kidx || !c.kfit || !c.zero || !c.st || !c.slice) goto out;
  /* constants: their taints; kfit 1 where a scratch warp can hold them, 2 where not */
  for (uint32_t j = 0; j < m->nconsts; j++) {
    const struct ptx_const *k = &m->consts[j];
    if (k->reg < lo || k->reg >= hi) continue;
    unsigned v = (unsigned)k->value;
    T[k->reg - lo] = idle_const(k);
    c.kidx[k->reg - lo] = j + 1;
    c.kfit[k->reg - lo] = k->kind == PC_VALUE || (k->kind == PC_SREG && (v == SR_TID_X || v == SR_TID_Y || v == SR_TID_Z ||
                                                                         v == SR_NTID_X || v == SR_NTID_Y || v == SR_NTID_Z ||
                                                                         v == SR_LANEID)) ? 1 : 2;
  }
  for (uint32_t j = 0; j < L->nzero; j++)
    if (L->zero_regs[j] >= lo && L->zero_regs[j] < hi) c.zero[L->zero_regs[j] - lo] = 1;
  /* each register's definitions (operand 0 of an instruction that writes registers) */
  for (uint32_t pc = first; pc < first + n; pc++) {
    const ptx_insn *in = &m->code[pc];
    const ptx_opnd *o0 = &in->o[0];
    if ((in->traits.flags & IT_BRANCH) || (o0->kind != PO_REG && o0->kind != PO_VEC)) continue;
    for (unsigned e = 0; e < (o0->kind == PO_VEC ? o0->n : 2u); e++) {
      uint32_t x = o0->kind == PO_VEC ? (o0->vec + e < m->nvregs ? m->vregs[o0->vec + e] : PTX_NOREG) : e ? o0->reg2 : o0->reg;
      if (x == PTX_NOREG && o0->kind == PO_REG) continue;
      if (x < lo || x >= hi || c.kidx[x - lo]) goto out; /* (outside the window, or a constant written: not this kernel) */
      if (c.ndef[x - lo] < UINT16_MAX) c.ndef[x - lo]++;
      c.defpc[x - lo] = pc;
    }
  }
  /* the taints, to a fixed point (flow-insensitive: a register's is all its definitions'; each pass only adds) */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t pc = first; pc < first + n; pc++) {
      const ptx_insn *in = &m->code[pc];
      const insn_traits *t = &in->traits;
      const ptx_opnd *o0 = &in->o[0];
      if ((t->flags & IT_BRANCH) || (o0->kind != PO_REG && o0->kind != PO_VEC)) continue;
      uint32_t ws = 0;
      /* (a loaded value: global memory's, which a store may change; .param and .const memory's do not change) */
      bool data = (t->flags & IT_LOAD) && t->space == IS_GLOBAL;
      bool exact = in->guard == PTX_NOREG && o0->kind == PO_REG && o0->reg2 == PTX_NOREG && !(t->flags & IT_LOAD);
      if (in->guard != PTX_NOREG) exact = false, (void)idle_src(T, lo, hi, in->guard, &ws, &data);
      INSN_OPND_REGS(m, in, 1, x, exact &= idle_src(T, lo, hi, x, &ws, &data));
      idle_taint r = {0, 0, data};
      const ptx_opnd *a = &in->o[1], *b = &in->o[2];
      unsigned op = t->op;
      bool ra = a->kind == PO_REG && a->reg2 == PTX_NOREG && a->reg >= lo && a->reg < hi && !a->neg;
      bool rb = b->kind == PO_REG && b->reg2 == PTX_NOREG && b->reg >= lo && b->reg < hi && !b->neg;
      if (exact && op == OPC_mov && in->nops == 2 && ra) {
        r.ex = T[a->reg - lo].ex;
      } else if (exact && (op == OPC_and || op == OPC_or || op == OPC_xor) && in->nops == 3 && ra && rb) {
        r.ex = T[a->reg - lo].ex | T[b->reg - lo].ex;
        for (unsigned s = 0; s < 2; s++) { /* an immediate's bits: and's zeros, or's ones are no longer the warp's */
          uint32_t j = c.kidx[(s ? b->reg : a->reg) - lo];
          if (!j || m->consts[j - 1].kind != PC_VALUE) continue;
          uint64_t v = m->consts[j - 1].value;
          r.ex &= op == OPC_and ? v : op == OPC_or ? ~v : ~(uint64_t)0;
        }
      } else if (exact && op == OPC_cvt && in->nops == 2 && ra && ptx_types[in->type2].cls == 'u' &&
                 ptx_types[in->type].cls != 'f' && ptx_types[in->type2].bits <= ptx_types[in->type].bits) {
        r.ex = T[a->reg - lo].ex & wmask(ptx_types[in->type2].bits);
      } else {
        r.ws = ws;
      }
      for (unsigned e = 0; e < (o0->kind == PO_VEC ? o0->n : 2u); e++) {
        uint32_t x = o0->kind == PO_VEC ? m->vregs[o0->vec + e] : e ? o0->reg2 : o0->reg;
        if (x == PTX_NOREG) continue;
        idle_taint *d = &T[x - lo];
        if ((d->ex | r.ex) != d->ex || (d->ws | r.ws) != d->ws || (r.data && !d->data))
          d->ex |= r.ex, d->ws |= r.ws, d->data |= r.data, changed = true;
      }
    }
  }
  /* what warps must share: branches' guards, loads' guards and addresses (none may depend on a loaded value) */
  uint32_t need = 0;
  for (uint32_t pc = first; pc < first + n; pc++) {
    const ptx_insn *in = &m->code[pc];
    bool load = in->traits.flags & IT_LOAD, branch = in->traits.flags & IT_BRANCH;
    if (!load && !branch) continue;
    bool data = false;
    if (in->guard != PTX_NOREG) (void)idle_src(T, lo, hi, in->guard, &need, &data);
    if (load) INSN_OPND_REGS(m, in, 1, x, (void)idle_src(T, lo, hi, x, &need, &data));
    if (data) goto out;
  }
  /* the warps another covers (k & need < k) whose every store is guarded (not negated) by a computable predicate */
  uint32_t cand = 0;
  for (uint32_t k = 1; k < nw; k++)
    if (k & ~need) cand |= 1u << k;
  for (uint32_t pc = first; cand && pc < first + n; pc++) {
    const ptx_insn *in = &m->code[pc];
    if ((in->traits.flags & IT_WRITE) && (in->guard == PTX_NOREG || in->guard_neg || !idle_slice(&c, in->guard, 0))) cand = 0;
  }
  if (!cand) goto out;
  /* those predicates in a scratch warp with each candidate's %tid.x, by the instructions' own functions */
  ptx_cta *sc = calloc(1, sizeof *sc);
  ptx_warp *sw = calloc(1, sizeof *sw);
  uint64_t *regs = calloc((size_t)m->nregs * 32, sizeof *regs);
  if (sc && sw && regs) {
    sc->L = (ptx_launch *)L; /* (cvt reads its destination's width there) */
    sw->cta = sc;
    sw->r = regs;
    for (uint32_t k = 1; k < nw; k++) {
      if (!(cand >> k & 1)) continue;
      for (uint32_t r = 0; r < W; r++) {
        if (c.kfit[r] != 1) continue;
        const struct ptx_const *q = &m->consts[c.kidx[r] - 1];
        uint64_t *x = PTX_R(sw, lo + r);
        for (unsigned l = 0; l < 32; l++)
          x[l] = q->kind == PC_VALUE        ? q->value
                 : q->value == SR_TID_X     ? 32u * k + l
                 : q->value == SR_LANEID    ? l
                 : q->value >= SR_NTID_X && q->value <= SR_NTID_Z ? L->cfg.block[q->value - SR_NTID_X]
                                            : 0; /* tid.y, tid.z */
      }
      for (uint32_t i = 0; i < n; i++)
        if (c.slice[i]) (void)m->code[first + i].fn(sw, &m->code[first + i], 0xFFFFFFFFu);
      bool off = true;
      for (uint32_t pc = first; off && pc < first + n; pc++) {
        const ptx_insn *in = &m->code[pc];
        if (!(in->traits.flags & IT_WRITE)) continue;
        const uint64_t *g = PTX_R(sw, in->guard);
        for (unsigned l = 0; l < 32; l++) off &= g[l] == 0;
      }
      if (off) idle |= 1u << k;
    }
  }
  free(sc), free(sw), free(regs);
out:
  free(T), free(c.ndef), free(c.defpc), free(c.kidx), free(c.kfit), free(c.zero), free(c.st), free(c.slice);
  return idle;
}

/* the constants whose value differs between CTAs of a launch: the CTA's and its
 * cluster's place in the grid (ptx_sreg_now); the others are the warp's, the CTA
 * rank's or the launch's */
static bool const_per_cta(const struct ptx_const *k) {
  if (k->kind != PC_SREG) return false;
  switch ((unsigned)k->value) {
  case SR_CTAID_X: case SR_CTAID_Y: case SR_CTAID_Z:
  case SR_CLUSTERID_X: case SR_CLUSTERID_Y: case SR_CLUSTERID_Z:
    return true;
  default:
    return k->value >= SR_NCONST; /* never a constant: as cta_setup, per CTA */
  }
}

/* dyn_uniform's (run_warp) per-instruction flags for entry f, or NULL where it does not apply:
 * a .func defined (its registers written through calls), a 128-bit register (two slots), or an
 * instruction outside the integer, float, move, memory, warp, barrier, fence, control and hint
 * families, or asynchronous (wgmma, tcgen05, mma, TMA, cp.async, ldmatrix write registers
 * beyond operand 0, or later). PTX_DUNI_RUN: register-pure (as uniform_def, the registers aside),
 * its destinations operand 0's registers, the other operands registers; not uniform_pcs's already.
 * The warps' first bits (malloc'd, two rows of *bytes, a byte a register: PTX_UB): [0] a CTA's whose registers the worker
 * primed (cta_setup: the constants, refilled or kept, and the registers read before written,
 * zeroed), the constants the same in every lane and those registers; [1] a CTA's set up in full
 * (every register of the window [lo, hi) zeroed, the constants filled): those registers but the
 * constants that differ between lanes */
static ptx_duni *dyn_uniform_pcs(const tc5_ptx_module *m, const ptx_func *f, const uint8_t *uni, uint32_t lo, uint32_t hi,
                                 const uint32_t *zero, uint32_t nzero, uint8_t **ub_init, uint32_t *bytes) {
  uint32_t first = f->first, n = f->count;
  *ub_init = NULL;
  /* and PTX_DUNI_PAD4's register, past the last: PTX_UB always; and one past it, never (the end of hit_blocks' lists) */
  *bytes = m->nregs + 2;
  if (!n || first + n > m->ncode) return NULL;
  for (unsigned g = 0; g < m->nfuncs; g++)
    if (!m->funcs[g].is_entry && m->funcs[g].defined && m->funcs[g].count) return NULL;
  for (uint32_t x = 0; x < m->nregs; x++)
    if (m->reg_bits[x] > 64) return NULL;
  for (uint32_t pc = first; pc < first + n; pc++) {
    const insn_traits *t = &m->code[pc].traits;
    switch (t->group) {
    case IG_INT: case IG_FLOAT: case IG_MOVE: case IG_MEM: case IG_CONTROL: case IG_WARP: case IG_BARRIER:
    case IG_FENCE: case IG_MISC:
      break;
    default:
      return NULL;
    }
    if (t->flags & (IT_ASYNC | IT_CP_ASYNC | IT_MATRIX)) return NULL;
  }
  ptx_duni *pcs = calloc(m->ncode, sizeof *pcs);
  uint8_t *ub = calloc(2 * (size_t)*bytes + 1, 1), *full = ub + *bytes;
  if (!pcs || !ub) {
    free(pcs), free(ub);
    return NULL;
  }
  for (uint32_t x = lo; x < hi && x < m->nregs; x++) full[x] = PTX_UB | PTX_LZ;
  ub[m->nregs] = full[m->nregs] = PTX_UB;
  for (uint32_t j = 0; j < m->nconsts; j++) {
    const struct ptx_const *k = &m->consts[j];
    bool one = !(k->kind == PC_SREG && sreg_per_lane((unsigned)k->value));
    if (k->reg < m->nregs) ub[k->reg] = full[k->reg] = one ? PTX_UB : 0;
  }
  for (uint32_t j = 0; zero && j < nzero; j++)
    if (zero[j] < m->nregs) ub[zero[j]] = PTX_UB | PTX_LZ;
  for (uint32_t pc = first; pc < first + n; pc++) {
    const ptx_insn *in = &m->code[pc];
    ptx_duni *d = &pcs[pc];
    /* the registers: operand 0's, then the others' (reg, reg2, a vector's; INSN_OPND_REGS's) */
    unsigned nr = 0;
    bool srcs = true; /* every operand past 0 a register, a pair or a vector */
    for (unsigned k = 0; k < PTX_MAX_OPS; k++) {
      const ptx_opnd *o = &in->o[k];
      if (o->kind == PO_NONE || o->kind == PO_LABEL) continue;
      if (k && o->kind != PO_REG && o->kind != PO_VEC) srcs = false;
      if (o->kind == PO_SREG || o->kind == PO_SINK) continue;
      uint32_t x[2] = {o->reg, o->reg2};
      for (unsigned e = 0; e < 2; e++)
        if (x[e] != PTX_NOREG && o->kind != PO_VEC) {
          if (nr < PTX_DUNI_REGS) d->r[nr] = x[e];
          nr++;
        }
      for (unsigned e = 0; o->kind == PO_VEC && e < o->n; e++) {
        if (o->vec + e < m->nvregs && nr < PTX_DUNI_REGS) d->r[nr] = m->vregs[o->vec + e];
        nr += o->vec + e < m->nvregs;
      }
      if (!k) d->nd = (uint8_t)(nr < PTX_DUNI_REGS ? nr : PTX_DUNI_REGS);
    }
    if (nr > PTX_DUNI_REGS) {
      d->f = PTX_DUNI_WALK; /* operands walked; not run for lane 0 */
      continue;
    }
    d->ns = (uint8_t)(nr - d->nd);
    if (in->o[0].kind == PO_REG || in->o[0].kind == PO_VEC) d->f |= PTX_DUNI_DST;
    if (srcs) d->f |= PTX_DUNI_SRCS;
    bool run = (in->traits.flags & (IT_PURE | IT_SELECT)) && !(in->flags & PF_LANE_STATE) &&
               ((in->o[0].kind == PO_REG && in->o[0].reg2 == PTX_NOREG) || in->o[0].kind == PO_VEC) &&
               !(uni && (uni[pc] & PTX_UNI_RESULT)) && srcs;
    /* (run for lane 0: by its build for it, PTX_EXEC_L0, whose registers are their words in w->u0) */
    d->l0 = ptx_float_lane0(ptx_alu_lane0(in->fn));
    if (run && d->l0 == in->fn) run = false;
    if (run) d->f |= PTX_DUNI_RUN;
    /* operand 0's registers written in every lane of the mask (first_writes: unguarded, register-pure or
     * a plain ld), by in->fn itself (not run_uniform's first lane alone) */
    if (first_writes(in) && !(uni && (uni[pc] & PTX_UNI_RESULT))) d->f |= PTX_DUNI_FRESH;
    /* each lane's registers read and written in that lane alone, and only in the lanes of the mask: register-pure
     * instructions of the integer, float and move families (PTX_LANES over the mask, run_uniform's first lane of
     * it), plain ld and st (exec_mem.c: the lanes of the mask's addresses and values) */
    const uint32_t tf = in->traits.flags;
    if (!(tf & (IT_ATOMIC | IT_COLLECTIVE | IT_ASYNC | IT_CP_ASYNC | IT_MATRIX)) && !(in->flags & PF_LANE_STATE) &&
        (((tf & (IT_PURE | IT_SELECT)) &&
          (in->traits.group == IG_INT || in->traits.group == IG_FLOAT || in->traits.group == IG_MOVE)) ||
         (in->traits.group == IG_MEM && (tf & (IT_LOAD | IT_WRITE)))))
      d->f |= PTX_DUNI_LANES;
    /* run_warp_body's run of hits passes a guarded plain ld or st whose guard is false in every lane (one value,
     * lane 0's): exec_mem.c's x_ld, x_ld1, x_st and x_st1 do nothing for an empty mask without a seeded schedule
     * (their store buffers and late loads) */
    if ((d->f & PTX_DUNI_LANES) && in->traits.group == IG_MEM && in->guard != PTX_NOREG && !(in->flags & PF_ALIGNED))
      d->f |= PTX_DUNI_SKIP0;
    /* selp (x_selp: d[l] = c[l] ? a[l] : b[l], the lanes' bits as they are) of registers a and b: r[1], r[2] */
    if (run && (in->traits.flags & IT_SELECT) && in->nops == 4 && d->nd == 1 && in->o[1].kind == PO_REG &&
        in->o[2].kind == PO_REG && in->o[1].reg2 == PTX_NOREG && in->o[2].reg2 == PTX_NOREG)
      d->f |= PTX_DUNI_SELP;
    /* shfl.sync d, a, b, c, membermask with immediates b, c and membermask (dec_shfl's aux2): a r[1],
     * membermask r[4] */
    if (in->traits.group == IG_WARP && ptx_is_shfl(in) && in->aux2 && in->o[0].kind == PO_REG &&
        in->o[0].reg2 == PTX_NOREG && d->nd == 1 && d->ns == 4 && srcs)
      for (unsigned k = 1; k <= 4 && in->o[k].kind == PO_REG && in->o[k].reg2 == PTX_NOREG; k++)
        if (k == 4) d->f |= PTX_DUNI_SHFL;
    /* ub_run's sources, four, the rest padded with register nregs (its ub byte PTX_UB always) */
    if ((d->f & (PTX_DUNI_RUN | PTX_DUNI_SHFL)) && srcs && d->ns <= 4 && d->nd + 4u <= PTX_DUNI_REGS) {
      for (unsigned i = d->nd + d->ns; i < d->nd + 4u; i++) d->r[i] = m->nregs;
      d->f |= PTX_DUNI_PAD4;
      /* run_warp_body's run of hits: unguarded, not .aligned */
      if (in->guard == PTX_NOREG && !(in->flags & PF_ALIGNED)) d->f |= PTX_DUNI_HIT;
    }
  }
  *ub_init = ub;
  return pcs;
}

/* does an instruction of the module (any function: conservative) name
 * Tensor Memory: a tcgen05.* instruction, or an access whose space is it */
static bool tmem_used(const tc5_ptx_module *m) {
  for (uint32_t pc = 0; pc < m->ncode; pc++)
    if (m->code[pc].traits.group == IG_TCGEN05 || m->code[pc].traits.space == IS_TMEM) return true;
  return false;
}

/* ---- one cluster of CTAs ---- */
typedef struct worker {
  ptx_launch *L;
  ptx_cluster cl;
  ptx_cta *c;      /* cl.n CTAs */
  uint64_t *regs;  /* every warp's register file (all CTAs of the cluster) */
  uint8_t *ubits;  /* every warp's ub and lz bits (L->duni: run_warp's dyn-uniform registers) */
  uint64_t *u0s;   /* (with ubits) every warp's values of its registers with their ub bit (ptx_warp.u0) */
  uint8_t *local;  /* every warp's local memory */
  struct ptx_frame (*calls)[32]; /* every warp's call stacks */
  struct chk_cta **chks; /* the CTAs' checkers, by rank (their peers) */
  struct tm_cta **tms;   /* the CTAs' timing states, by rank (timing on) */
  bool caller;           /* the thread that called tc5_ptx_launch: it polls cfg.interrupt */
  bool primed;           /* a cluster was set up in full: its registers and constants hold values (cta_setup) */
  uint64_t polled;       /* its warp-instructions at the last poll */
  struct launch_join *join; /* the other workers' end, which the caller awaits */
} worker;

/* The workers other than the caller, still running: the calling thread,
 * done with its own clusters, waits for them here and polls cfg.interrupt
 * meanwhile (a long cluster on another thread is still stopped by it). */
typedef struct launch_join {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned left;
} launch_join;

/* The cluster at `pos` in the launch's order fails with `st` (the earliest
 * cluster's failure is the launch's: ptx_fail_claim): for failures that
 * belong to no warp, where ptx_fail does not apply. */
static void launch_fail(ptx_launch *L, uint64_t pos, tc5_status st, const char *field, uint64_t value, const char *msg) {
  pthread_mutex_lock(L->lock);
  if (ptx_fail_claim(L, pos, st)) tc5_diag_add(L->diag, st, field, value, "%s", msg);
  pthread_mutex_unlock(L->lock);
}

#define INTERRUPTED "stopped by the caller's interrupt"
/* the caller's interrupt asked where no warp is running (before the calling
 * thread's clusters, while it waits for the others): true, the launch failed */
static bool interrupt_asked(ptx_launch *L) {
  if (!L->cfg.interrupt(L->cfg.interrupt_ctx)) return false;
  launch_fail(L, 0, TC5_ECANCELED, "launch", 0, INTERRUPTED); /* every cluster stops */
  return true;
}

/* The caller's interrupt (tc5_ptx_launch_cfg.interrupt), polled by the
 * calling thread about every 2^16 warp-instructions it runs (`steps`, its
 * running count; UINT64_MAX: poll now): true when the launch is to stop,
 * the launch failed with TC5_ECANCELED. */
static bool interrupted(worker *wk, ptx_warp *w, uint64_t steps) {
  ptx_launch *L = wk->L;
  if (!wk->caller || !L->cfg.interrupt) return false;
  if (steps != UINT64_MAX && steps - wk->polled < (1u << 16)) return false;
  if (steps != UINT64_MAX) wk->polled = steps;
  if (!L->cfg.interrupt(L->cfg.interrupt_ctx)) return false;
  ptx_fail(w, NULL, -1, TC5_ECANCELED, 0, INTERRUPTED);
  return true;
}

/* whether special register `which` differs between the lanes of a warp (the
 * thread's place, its lane, the lane masks; a register read when executed,
 * as the clocks, is never a constant): the others are the warp's or the CTA's,
 * filled from lane 0's value (ptx_sreg_now) */
static bool sreg_per_lane(unsigned which) {
  switch (which) {
  case SR_TID_X: case SR_TID_Y: case SR_TID_Z: case SR_LANEID:
  case SR_LANEMASK_EQ: case SR_LANEMASK_LE: case SR_LANEMASK_LT: case SR_LANEMASK_GE: case SR_LANEMASK_GT:
    return true;
  default:
    return which >= SR_NCONST;
  }
}

/* constant k's register in each lane of warp w */
static void const_fill(ptx_warp *w, const struct ptx_const *k) {
  uint64_t *r = PTX_R(w, k->reg);
  if (k->kind == PC_SREG && sreg_per_lane((unsigned)k->value))
    for (unsigned l = 0; l < 32; l++) r[l] = const_value(w, k, l);
  else {
    uint64_t v = const_value(w, k, 0);
    for (unsigned l = 0; l < 32; l++) r[l] = v;
    if (w->u0 && k->reg < w->cta->L->m->nregs) w->u0[k->reg] = v; /* (its ub bit set: dyn_uniform_pcs) */
  }
}

/* CTA `rank` of cluster `cluster` */
static tc5_status cta_setup(worker *wk, uint64_t cluster, uint32_t rank) {
  ptx_launch *L = wk->L;
  ptx_cta *c = &wk->c[rank];
  const tc5_ptx_module *m = L->m;
  c->L = L;
  c->cl = &wk->cl;
  c->rank = rank;
  /* clusters tile the grid: cluster (i,j,k) holds CTAs cluster * (i,j,k) + cid */
  uint32_t ncx = L->cfg.grid[0] / L->cluster[0], ncy = L->cfg.grid[1] / L->cluster[1];
  uint32_t clid[3] = {(uint32_t)(cluster % ncx), (uint32_t)(cluster / ncx % ncy), (uint32_t)(cluster / ncx / ncy)};
  c->cid[0] = rank % L->cluster[0];
  c->cid[1] = rank / L->cluster[0] % L->cluster[1];
  c->cid[2] = rank / L->cluster[0] / L->cluster[1];
  for (int k = 0; k < 3; k++) {
    c->ctaid[k] = clid[k] * L->cluster[k] + c->cid[k];
    wk->cl.id[k] = clid[k];
  }
  c->linear = c->ctaid[0] + (uint64_t)L->cfg.grid[0] * (c->ctaid[1] + (uint64_t)L->cfg.grid[1] * c->ctaid[2]);
  /* never-written memory reads as poison (0xFF: a NaN in every float
   * type, as ConSan's fill); a read of it is a finding, not the run's end */
  memset(c->smem.bytes, 0xFF, c->smem.size);
  memset(c->smem.written, 0, (c->smem.size + 7) / 8);
  ptx_px_reset(c); /* the proxies' record (seeded schedules, issue 53) */
  if (L->tmem_used) {
    tc5_status st = tc5_tmem_init(&c->tmem, rank);
    if (st) return st;
    memset(c->tmem.cells, 0xFF, (size_t)TC5_TMEM_LANES * TC5_TMEM_COLS * sizeof *c->tmem.cells);
  } else {
    memset(&c->tmem, 0, sizeof c->tmem); /* never read: no instruction names it */
  }
  memset(&wk->cl.uninit, 0, sizeof wk->cl.uninit);
  c->smem.uninit = c->tmem.uninit = &wk->cl.uninit;
  c->mma = &wk->cl.mma[rank];
  c->mma->smem = &c->smem;
  c->mma->tmem = &c->tmem;
  if (tc5__mma_threads(c->mma, L->mma_threads)) return TC5_ENOMEM;
  memset(c->bar, 0, sizeof c->bar);
  memset(c->wg, 0, sizeof c->wg);
  for (unsigned b = 0; b < PTX_MAX_BARRIERS; b++) c->bar[b].red_and = true;
  c->nmbars = 0;
  if (c->chk) chk_reset(c->chk);
  if (c->tm) tm_cta_begin(c->tm, cluster, rank, c->linear);
  c->progress = false;
  c->epoch = 0;
  /* run_warp's registers uniform as the warp runs cost a kernel whose lanes differ more than they save
   * (bench_runner_ab: bicubic 0.74x, topk_stage1 0.85x): off for this worker's later CTAs when fewer than half its
   * warp-instructions so far (65,536 at least) ran for lane 0. Registers are not carried from one CTA to
   * the next (read_first: those read before written are zeroed), so either way runs the same */
  if (L->duni && !wk->cl.duni_off && wk->cl.duni_seen >= 65536 && wk->cl.duni_hits * 2 < wk->cl.duni_seen)
    wk->cl.duni_off = true;
  uint32_t lb = L->m->local_bytes;
  for (uint32_t k = 0; k < c->nwarps; k++) {
    ptx_warp *w = &c->warps[k];
    size_t g = (size_t)rank * c->nwarps + k; /* the warp's place in the cluster's buffers */
    memset(w, 0, sizeof *w);
    w->cta = c;
    w->id = k;
    w->r = wk->regs + g * m->nregs * 32;
    if (L->duni && !wk->cl.duni_off) { /* the registers the set-up below leaves one value a warp: the rest found as the warp runs */
      w->ub = wk->ubits + g * L->ub_bytes;
      w->u0 = wk->u0s + g * L->ub_bytes;
      memcpy(w->ub, L->ub_init + (wk->primed && L->zero_regs ? 0 : L->ub_bytes), L->ub_bytes);
    }
    w->local = wk->local + g * 32 * lb;
    w->calls = wk->calls + g * PTX_MAX_CALL_DEPTH;
    w->local_bytes = lb;
    uint32_t n = L->threads_per_cta - k * 32;
    w->exists = n >= 32 ? 0xffffffffu : (1u << n) - 1;
    w->live = w->exists;
    w->converged = true;
    w->pc = L->f->first;
    if (L->idle >> k & 1) { /* a warp idle_warps leaves out: set up done, never run */
      w->live = 0;
      w->done = true;
      continue;
    }
    w->poll_pc = UINT32_MAX;
    /* the window of registers the kernel can touch: a module's registers
     * are numbered across all its functions (tma90's kernels.ptx: 48
     * entries), an entry's are a part */
    memset(w->local, 0, (size_t)32 * lb);
    /* (w->ub: the registers zeroed below are lz, their value (w->u0) alone zeroed: a warp's window of 1,030
     * registers (FlagGems' radix sort) was 264 KB of memset a warp, 1 MB a CTA, which pushed the code out of the
     * cache; a constant with its ub bit has its value in w->u0 too) */
    if (wk->primed && L->zero_regs) { /* the registers read before written, the CTA's own constants */
      for (uint32_t j = 0; j < L->nzero; j++)
        if (w->ub) w->u0[L->zero_regs[j]] = 0;
        else memset(PTX_R(w, L->zero_regs[j]), 0, 32 * sizeof(uint64_t));
      for (uint32_t j = 0; j < L->ncta_consts; j++) const_fill(w, &m->consts[L->cta_consts[j]]);
      continue;
    }
    if (w->ub)
      for (uint32_t x = L->reg_lo; x < L->reg_hi; x++) w->u0[x] = 0;
    else
      memset(PTX_R(w, L->reg_lo), 0, (size_t)(L->reg_hi - L->reg_lo) * 32 * sizeof(uint64_t));
    for (uint32_t j = 0; j < m->nconsts; j++) {
      if (m->consts[j].reg < L->reg_lo || m->consts[j].reg >= L->reg_hi) continue;
      const_fill(w, &m->consts[j]);
    }
  }
  return TC5_OK;
}

/* a warp of c left: the barriers it no longer holds back may be complete (ptx_bar_check, for
 * those with arrivals: it returns at once for the others) */
static void bars_check(ptx_cta *c) {
  for (uint32_t b = 0; b < PTX_MAX_BARRIERS; b++)
    if (c->bar[b].arrived) ptx_bar_check(c, b);
}

/* every live warp of the cluster waits and nothing can change: a
 * deadlock, reported with each waiting warp and what it waits for (the
 * rule: an mbarrier phase that never completes, an allocation never
 * satisfiable) */
static void deadlock(ptx_cluster *cl) {
  ptx_launch *L = cl->ctas[0].L;
  char line[32][240];
  unsigned nl = 0;
  bool alloc = false, mbar = false, peer = false;
  for (uint32_t r = 0; r < cl->n; r++) {
    ptx_cta *c = &cl->ctas[r];
    for (uint32_t k = 0; k < c->nwarps && nl < 32; k++) {
      ptx_warp *w = &c->warps[k];
      if (w->done) continue;
      uint32_t pc = w->converged ? w->pc : w->tpc[__builtin_ctz(w->live)];
      const ptx_insn *in = &L->m->code[pc < L->f->first + L->f->count ? pc : L->f->first];
      char who[48];
      if (cl->n > 1) snprintf(who, sizeof who, "CTA (%u,%u,%u) warp %u", c->ctaid[0], c->ctaid[1], c->ctaid[2], k);
      else snprintf(who, sizeof who, "warp %u", k);
      char *t = line[nl++];
      if (w->wait == W_BAR) {
        snprintf(t, 240, "%s waits at line %u (bar.sync)", who, L->m->code[pc - 1].line);
        continue;
      }
      bool special = w->wait_id == PTX_WAIT_ALLOC || w->wait_id == PTX_WAIT_PEER;
      ptx_mbar *mb = !special ? ptx_mbar_find(c, w->wait_id) : NULL;
      if (w->wait_id == PTX_WAIT_ALLOC) {
        alloc = true;
        snprintf(t, 240, "%s waits at line %u (%.40s) for Tensor Memory columns", who, in->line, ptx_insn_text(L->m, in));
      } else if (w->wait_id == PTX_WAIT_PEER) {
        peer = true;
        bool gone = ptx_cta_exited(&cl->ctas[c->rank ^ 1u]);
        snprintf(t, 240, "%s waits at line %u (%.50s) for a warp of its peer CTA (rank %u) to execute it too%s", who,
                 in->line, ptx_insn_text(L->m, in), c->rank ^ 1u, gone ? " (it has exited)" : "");
      } else if (mb) {
        mbar = true;
        char tx[80] = "";
        if (mb->mb.tx && mb->tx_line)
          snprintf(tx, sizeof tx, "; the last complete_tx came from line %u, thread %u", mb->tx_line, mb->tx_thread);
        snprintf(t, 240, "%s waits at line %u on the mbarrier at shared 0x%x: phase %u has %u of %u arrivals and %lld tx bytes pending%s",
                 who, in->line, mb->addr, mb->mb.phase, mb->mb.pending, mb->mb.expected, (long long)mb->mb.tx, tx);
      } else {
        snprintf(t, 240, "%s waits at line %u (%.60s)", who, in->line, ptx_insn_text(L->m, in));
      }
    }
  }
  const char *tag = alloc ? chk_rule_id(CR_ALLOC_NEVER) : peer ? "cta-pair" : mbar ? chk_rule_id(CR_MBAR_WAIT_NEVER) : NULL;
  ptx_fail(&cl->ctas[0].warps[0], NULL, -1, TC5_ESTATE, 0, "%s%s%sdeadlock: every live warp waits and nothing can wake it",
           tag ? "[" : "", tag ? tag : "", tag ? "] " : "");
  pthread_mutex_lock(L->lock);
  if (L->status == TC5_ESTATE && L->fail_pos == cl->pos) /* this cluster's deadlock is the launch's error */
    for (unsigned i = 0; i < nl; i++) tc5_diag_add(L->diag, TC5_ESTATE, "deadlock", i, "  %s", line[i]);
  pthread_mutex_unlock(L->lock);
}

/* each CTA whose state changed starts a new epoch (its retrying warps run again) */
static void new_epochs(ptx_cluster *cl) {
  for (uint32_t r = 0; r < cl->n; r++)
    if (cl->ctas[r].progress) {
      cl->ctas[r].epoch++;
      cl->ctas[r].progress = false;
    }
}

static void cluster_finish(worker *wk);

/* An adversarial schedule (sched.c): the runnable warp of highest priority
 * runs until it waits or reaches a change point, which drops it below every
 * other; between turns, pending asynchronous operations complete at random,
 * and when no warp can run, the oldest completes before anything is called
 * a deadlock. */
static void cluster_run_sched(worker *wk) {
  ptx_cluster *cl = &wk->cl;
  ptx_launch *L = wk->L;
  ptx_sched *s = cl->sched;
  uint64_t total = 0;
  uint32_t nw = cl->ctas[0].nwarps;
  for (;;) {
    ptx_warp *best = NULL;
    int64_t bp = 0;
    bool all_done = true;
    for (uint32_t rk = 0; rk < cl->n; rk++) {
      ptx_cta *c = &cl->ctas[rk];
      for (uint32_t k = 0; k < c->nwarps; k++) {
        ptx_warp *w = &c->warps[k];
        if (w->done) continue;
        all_done = false;
        if (w->wait == W_BAR || (w->wait == W_RETRY && w->wait_epoch == c->epoch)) continue;
        int64_t p = s->prio[rk * nw + k];
        if (!best || p > bp) best = w, bp = p;
      }
    }
    if (ptx_stop(L, cl->pos) || all_done) break;
    if (!best) {
      if (s->head < s->n) { /* nothing can run: an operation completes, as late as it can */
        if (ptx_late_complete_one(cl) == PX_ERROR) return;
        new_epochs(cl);
        continue;
      }
      deadlock(cl);
      return;
    }
    ptx_cta *c = best->cta;
    best->wait = W_RUN;
    uint64_t before = best->steps;
    uint64_t budget = 1 + ptx_sched_rand(s) % s->span;
    int r = run_warp(best, budget);
    total += best->steps - before;
    s->clock += best->steps - before;
    new_epochs(cl);
    if (r < 0 || interrupted(wk, best, total)) return;
    if (r == 1) {
      bars_check(c);
      ptx_cluster_bar_check(cl);
    } else if (best->wait == W_RUN && best->steps - before >= budget) {
      s->prio[c->rank * nw + best->id] = --s->low; /* a change point */
    }
    new_epochs(cl);
    ptx_sb_drain_cluster(cl, s, s->sb_den); /* stores become visible at random (1/2, 1/8 or 1/32 a turn, by cluster) */
    while (s->head < s->n && ((s->late_den && ptx_sched_rand(s) % s->late_den == 0) ||
                              s->clock - s->q[s->head].born > s->max_age)) /* at random, or overdue */
      if (ptx_late_complete_one(cl) == PX_ERROR) return;
    new_epochs(cl);
    if (ptx_stop(L, cl->pos)) return;
    if (total > L->max_steps * cl->n) {
      ptx_fail(&cl->ctas[0].warps[0], NULL, -1, TC5_ESTATE, total,
               "still running after %llu warp-instructions: stopped as a hang (raise the limit if it is not one)",
               (unsigned long long)total);
      return;
    }
  }
  cluster_finish(wk);
}

/* The CTAs of a cluster take turns, warp by warp, so that a CTA waiting
 * for another's arrival (a cluster barrier, a remote mbarrier, a
 * multicast copy) sees it. */
static void cluster_run(worker *wk) {
  ptx_cluster *cl = &wk->cl;
  ptx_launch *L = wk->L;
  uint64_t total = 0;
  for (;;) {
    bool ran = false, all_done = true;
    for (uint32_t rk = 0; rk < cl->n && !ptx_stop(L, cl->pos); rk++) {
      ptx_cta *c = &cl->ctas[rk];
      for (uint32_t k = 0; k < c->nwarps && !ptx_stop(L, cl->pos); k++) {
        ptx_warp *w = &c->warps[k];
        if (w->done) continue;
        all_done = false;
        if (w->wait == W_BAR) continue;
        if (w->wait == W_RETRY && w->wait_epoch == c->epoch) continue;
        w->wait = W_RUN;
        uint64_t before = w->steps, limit = L->max_steps * cl->n, left = total < limit ? limit - total : 0;
        int r = run_warp(w, left < (1u << 16) ? left + 1 : 1u << 16); /* a hang stops at the limit */
        total += w->steps - before;
        ran = true;
        new_epochs(cl);
        if (r < 0 || interrupted(wk, w, total)) return;
        if (r == 1) { /* a warp left: barriers may now be complete */
          bars_check(c);
          ptx_cluster_bar_check(cl);
        }
        new_epochs(cl);
      }
    }
    if (ptx_stop(L, cl->pos) || all_done) break;
    if (total > L->max_steps * cl->n) {
      ptx_fail(&cl->ctas[0].warps[0], NULL, -1, TC5_ESTATE, total,
               "still running after %llu warp-instructions: stopped as a hang (raise the limit if it is not one)",
               (unsigned long long)total);
      return;
    }
    if (!ran) {
      deadlock(cl);
      return;
    }
  }
  cluster_finish(wk);
}

/* every warp has exited: Tensor Memory must be free */
static void cluster_finish(worker *wk) {
  ptx_cluster *cl = &wk->cl;
  ptx_launch *L = wk->L;
  if (cl->sched) ptx_sb_drain_cluster(cl, cl->sched, 0); /* the kernel's end: every store visible */
  if (ptx_stop(L, cl->pos)) return;
  if (cl->sched && ptx_late_flush(cl, NULL) == PX_ERROR) return;
  for (uint32_t rk = 0; rk < cl->n; rk++) {
    ptx_cta *c = &cl->ctas[rk];
    if (!L->tmem_used) continue; /* nothing could allocate it */
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_status st = tc5_tmem_exit(&c->tmem, &dg);
    if (st) {
      ptx_fail(&c->warps[0], NULL, -1, st, 0, "[%s] at exit: %s", chk_rule_id(CR_ALLOC_AT_EXIT),
               dg.count ? dg.issue[0].message : tc5_strerror(st));
      return;
    }
  }
}

static void worker_run(worker *wk) {
  ptx_launch *L = wk->L;
  /* the calling thread polls once before it takes a cluster: the other workers may take every cluster
   * before it does (a short launch on several threads), and the caller's interrupt is still asked once */
  if (wk->caller && L->cfg.interrupt && interrupt_asked(L)) return;
  for (;;) {
    uint64_t i = __atomic_fetch_add(&L->next_cta, 1, __ATOMIC_RELAXED);
    /* the clusters after a failed one do not run (as on one thread); those before it run to their end */
    if (i >= L->run_n || ptx_stop(L, i)) break;
    uint64_t pos = i;                    /* the cluster's place in the launch's order (its findings' and errors' order) */
    wk->cl.pos = pos;
    if (L->run_pick) i = L->run_pick[i]; /* the timing model's sample */
    tc5_status st = TC5_OK;
    for (uint32_t r = 0; r < wk->cl.n && !st; r++) st = cta_setup(wk, i, r);
    for (uint32_t r = 0; r < wk->cl.n && !st; r++)
      if (wk->c[r].chk) chk_cluster_order(wk->c[r].chk, pos);
    wk->primed = !st;
    wk->cl.bar_phase = wk->cl.bar_arrived = 0;
    wk->cl.sb_part = wk->cl.sb_warps = 0; /* the store buffers (issue 53): every warp starts empty */
    memset(&wk->cl.tm_bar, 0, sizeof wk->cl.tm_bar);
    memset(wk->cl.pair, 0, sizeof wk->cl.pair);
    if (st) {
      char msg[96];
      snprintf(msg, sizeof msg, "could not set up cluster %llu: %s", (unsigned long long)i, tc5_strerror(st));
      launch_fail(L, pos, st, "cta", i, msg);
      break;
    }
    wk->polled = 0;
    if (interrupted(wk, &wk->c[0].warps[0], UINT64_MAX)) break;
    if (wk->cl.sched) {
      ptx_sched_reset(wk->cl.sched, L->schedule, i, wk->cl.n * L->warps_per_cta);
      cluster_run_sched(wk);
    } else
      cluster_run(wk);
    if (L->tm && !ptx_failed(L)) tm_cluster_end(L->tm, wk->tms, wk->cl.n, i, L->lock);
    uint64_t ti = 0, wi = 0;
    for (uint32_t r = 0; r < wk->cl.n; r++) {
      ptx_cta *c = &wk->c[r];
      for (uint32_t k = 0; k < c->nwarps; k++) {
        ti += c->warps[k].thread_insns;
        wi += c->warps[k].steps;
      }
      tc5_cta_free(c->mma);
      memset(c->mma, 0, sizeof *c->mma);
      tc5_tmem_free(&c->tmem);
    }
    __atomic_fetch_add(&L->thread_insns, ti, __ATOMIC_RELAXED);
    __atomic_fetch_add(&L->warp_insns, wi, __ATOMIC_RELAXED);
  }
}

/* a worker's thread (not the caller's): runs clusters, then says it is done */
static void *worker_main(void *arg) {
  worker *wk = arg;
  worker_run(wk);
  pthread_mutex_lock(&wk->join->mu);
  wk->join->left--;
  pthread_cond_signal(&wk->join->cv);
  pthread_mutex_unlock(&wk->join->mu);
  return NULL;
}

/* the caller, done with its clusters: waits for the other workers, asking
 * cfg.interrupt every 20 ms while any runs */
static void await_workers(ptx_launch *L, launch_join *j) {
  pthread_mutex_lock(&j->mu);
  while (j->left) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += 20 * 1000 * 1000;
    if (t.tv_nsec >= 1000000000L) {
      t.tv_sec++;
      t.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&j->cv, &j->mu, &t);
    if (!j->left || !L->cfg.interrupt || ptx_failed(L)) continue;
    pthread_mutex_unlock(&j->mu); /* the callback may take its time: the workers need mu to finish */
    interrupt_asked(L);
    pthread_mutex_lock(&j->mu);
  }
  pthread_mutex_unlock(&j->mu);
}

static void worker_free(worker *wk) {
  free(wk->regs);
  free(wk->ubits);
  free(wk->u0s);
  free(wk->cl.hmemo);
  free(wk->calls);
  free(wk->local);
  free(wk->chks);
  for (uint32_t r = 0; wk->c && r < wk->cl.n; r++) {
    ptx_cta *c = &wk->c[r];
    tm_cta_free(c->tm);
    free(c->smem.bytes);
    free(c->smem.written);
    ptx_px_free(c);
    free(c->warps);
    free(c->mbars);
    chk_free(c->chk);
    tc5_tmem_free(&c->tmem);
  }
  for (uint32_t r = 0; wk->cl.mma && r < wk->cl.n; r++) tc5_cta_free(&wk->cl.mma[r]);
  free(wk->cl.mma);
  ptx_sched_free(wk->cl.sched);
  free(wk->c);
  free(wk->tms);
}

static tc5_status worker_init(worker *wk, ptx_launch *L) {
  memset(wk, 0, sizeof *wk);
  wk->L = L;
  const tc5_ptx_module *m = L->m;
  uint32_t n = L->cluster_size;
  size_t nw = (size_t)L->warps_per_cta * n;
  wk->c = calloc(n, sizeof *wk->c);
  wk->cl.mma = calloc(n, sizeof *wk->cl.mma);
  if (!wk->c || !wk->cl.mma) { /* the one that was allocated is the worker's to free */
    worker_free(wk);
    return TC5_ENOMEM;
  }
  wk->cl.ctas = wk->c;
  wk->cl.n = n;
  /* each register's 32 lanes (256 bytes) on whole cache lines (session 13, bc: malloc's 16-byte alignment split
   * every other 32-byte row that an instruction's AVX2 rows load or store across two lines; upsample_bicubic2d_aa
   * 1.08x) */
  wk->regs = aligned_alloc(64, (nw * m->nregs * 32 * sizeof(uint64_t) + 64) / 64 * 64);
  wk->local = malloc(nw * 32 * (L->m->local_bytes ? L->m->local_bytes : 1));
  wk->ubits = L->duni ? malloc(nw * L->ub_bytes + 1) : NULL;
  wk->u0s = L->duni ? calloc(nw * L->ub_bytes, sizeof *wk->u0s) : NULL;
  wk->cl.hmemo = L->duni ? calloc(L->hmemo_words + 1, sizeof *wk->cl.hmemo) : NULL;
  wk->calls = malloc(nw * PTX_MAX_CALL_DEPTH * sizeof *wk->calls);
  wk->chks = calloc(n ? n : 1, sizeof *wk->chks);
  wk->tms = calloc(n ? n : 1, sizeof *wk->tms);
  bool ok = wk->regs && wk->local && ((wk->ubits && wk->u0s && wk->cl.hmemo) || !L->duni) && wk->calls && wk->chks && wk->tms && (!L->schedule || !ptx_sched_new(&wk->cl.sched, (unsigned)nw));
  for (uint32_t r = 0; r < n && ok; r++) {
    ptx_cta *c = &wk->c[r];
    c->nwarps = L->warps_per_cta;
    c->warps = calloc(L->warps_per_cta, sizeof(ptx_warp));
    c->smem.size = L->shared_total;
    c->smem.bytes = malloc(L->shared_total);
    c->smem.written = malloc((L->shared_total + 7) / 8);
    ok = c->warps && c->smem.bytes && c->smem.written;
    if (ok && L->cfg.check != TC5_CHECK_NONE) {
      chk_setup cs = {L->ck.insn, L->ck.n, L->m->nregs, L->m->name, L->m->target, L->cfg.check == TC5_CHECK_STRICT,
                      L->rule_level, L->lock, L->log, L->warps_per_cta, L->shared_total, &c->smem, c->ctaid, r,
                      wk->chks, n};
      ok = !chk_new(&c->chk, &cs);
      if (ok) wk->chks[r] = c->chk;
    }
    if (ok && L->tm) {
      ok = !tm_cta_new(L->tm, L->warps_per_cta, &c->tm);
      wk->tms[r] = c->tm;
    }
  }
  if (!ok) {
    worker_free(wk);
    return TC5_ENOMEM;
  }
  return TC5_OK;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a global region of the launch: [base, base + size) backed by host, named */
__attribute__((format(printf, 5, 6))) static void add_region(ptx_launch *L, uint64_t base, uint64_t size, void *host,
                                                              const char *fmt, ...) {
  ptx_region *r = &L->regions[L->nregions++];
  r->base = base;
  r->size = size;
  r->host = host;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->name, sizeof r->name, fmt, ap);
  va_end(ap);
}

/* a buffer at its host address (cfg.host_addresses): anywhere but in the
 * generic windows of shared, local and parameter memory, and not at 0 */
static tc5_status host_address(tc5_ptx_arg *a, unsigned k, tc5_diag *diag) {
  uint64_t lo = (uint64_t)(uintptr_t)a->data, hi = lo + a->bytes;
  if (!a->data) { /* an empty buffer with no memory: nothing can be read at its address */
    a->device_address = 0;
    return TC5_OK;
  }
  if (hi < lo || hi > PTX_HOST_OWN_BASE)
    return tc5_diag_add(diag, TC5_EINVAL, "args", lo,
                        "argument %u: a buffer at host address 0x%llx (%zu bytes) runs past the user address space",
                        k + 1, (unsigned long long)lo, a->bytes);
  if (hi > PTX_GENERIC_PARAM && lo < PTX_GENERIC_SHARED + PTX_WINDOW_SIZE)
    return tc5_diag_add(diag, TC5_EINVAL, "args", lo,
                        "argument %u: a buffer at host address 0x%llx (%zu bytes) overlaps the generic windows of "
                        "parameter, local and shared memory [0x%llx, 0x%llx): host addresses cannot be device addresses",
                        k + 1, (unsigned long long)lo, a->bytes, (unsigned long long)PTX_GENERIC_PARAM,
                        (unsigned long long)(PTX_GENERIC_SHARED + PTX_WINDOW_SIZE));
  a->device_address = lo;
  return TC5_OK;
}

static int region_cmp(const void *x, const void *y) {
  const ptx_region *a = x, *b = y;
  return a->base < b->base ? -1 : a->base > b->base;
}

/* host addresses: buffers that overlap (views of one allocation) or touch
 * are one region, so an access that crosses from one into the other is in
 * bounds as it is on the host; a region keeps the lowest buffer's name */
static void merge_host_regions(ptx_launch *L) {
  unsigned n = 0, own = 0;
  for (unsigned k = 0; k < L->nregions; k++) { /* the identity-mapped ones first, in place */
    if (L->regions[k].host == (uint8_t *)(uintptr_t)L->regions[k].base && L->regions[k].base) {
      ptx_region t = L->regions[k];
      memmove(&L->regions[n + 1], &L->regions[n], (k - n) * sizeof t);
      L->regions[n++] = t;
    } else {
      own++;
    }
  }
  qsort(L->regions, n, sizeof *L->regions, region_cmp);
  unsigned w = 0;
  for (unsigned k = 0; k < n; k++) {
    ptx_region *r = &L->regions[k];
    if (w && r->base <= L->regions[w - 1].base + L->regions[w - 1].size) {
      ptx_region *p = &L->regions[w - 1];
      if (r->base + r->size > p->base + p->size) p->size = r->base + r->size - p->base;
      continue;
    }
    L->regions[w++] = *r;
  }
  memmove(&L->regions[w], &L->regions[n], own * sizeof *L->regions);
  L->nregions = w + own;
}

/* cfg->threads 0: the environment's TC5_THREADS (1 to 256) when set, so
 * that a test suite can run every launch on several host threads (the
 * ThreadSanitizer build, scripts/test.sh --tsan); unset or empty: n is kept */
static tc5_status threads_of(unsigned *n, tc5_diag *diag) {
  const char *e = getenv("TC5_THREADS");
  if (!e || !*e) return TC5_OK;
  char *end;
  unsigned long v = strtoul(e, &end, 10);
  if (*end || e[0] == '-' || v < 1 || v > 256)
    return tc5_diag_add(diag, TC5_EINVAL, "TC5_THREADS", 0, "TC5_THREADS='%.40s' is not a thread count (1 to 256)", e);
  *n = (unsigned)v;
  return TC5_OK;
}

/* the timing model for launch L (L->tm_gpu set): its instruction view,
 * its launch state and the clusters to run */
static tc5_status timing_setup(ptx_launch *L, const tc5_ptx_arg *args, unsigned nargs, tc5_diag *diag) {
  tc5_status st = ptx_timing_code(L->m, &L->tmi);
  if (st) return st;
  /* the global buffers' bytes: DRAM's compulsory traffic; memory passed
   * twice (the door's tensor-map views of its global buffers) counts once */
  tm_range *rg = malloc((nargs ? nargs : 1) * sizeof *rg);
  if (!rg) return TC5_ENOMEM;
  unsigned nr = 0;
  uint64_t foot = 0; /* buffers without host memory: each its own */
  for (unsigned k = 0; k < nargs; k++)
    if (args[k].kind == TC5_PTX_ARG_BUFFER || args[k].kind == TC5_PTX_ARG_GLOBAL ||
        (args[k].kind == TC5_PTX_ARG_TENSORMAP && args[k].data)) {
      if (!args[k].data) foot += args[k].bytes;
      else if (args[k].bytes) rg[nr].lo = (uint64_t)(uintptr_t)args[k].data, rg[nr].hi = rg[nr].lo + args[k].bytes, nr++;
    }
  foot += tm_footprint(rg, nr);
  free(rg);
  tm_setup s = {L->tm_gpu, L->m->target, L->tm_trace, L->tm_sample, L->threads_per_cta, L->warps_per_cta,
                L->shared_total, L->cfg.timing_regs, L->cluster_size, L->nclusters,
                {L->cfg.grid[0], L->cfg.grid[1], L->cfg.grid[2]}, foot, L->reg_lo, L->reg_hi, L->tmi, L->ck.insn,
                L->m->ncode, L->cfg.timing_sass, L->cfg.timing_sass_lines, 0, 0, L->cfg.timing_sass_stall};
  ptx_timing_tmem(L->m, L->f, L->ck.insn, &s.tmem_cols, &s.tmem_cols_line); /* occupancy by Tensor Memory (t47u) */
  st = tm_launch_new(&L->tm, &s, diag);
  if (!st) tm_launch_plan(L->tm, &L->run_n, &L->run_pick);
  return st;
}

/* cfg.timing, else TC5_TIMING (runner-wide, like TC5_SCHEDULE): the GPU,
 * checked against the module's target; the trace and the sample likewise */
static tc5_status timing_of(const tc5_ptx_module *m, const tc5_ptx_launch_cfg *cfg, ptx_launch *L, uint64_t schedule,
                            tc5_diag *diag) {
  const char *g = cfg->timing ? cfg->timing : getenv("TC5_TIMING");
  if (!g || !*g || !strcmp(g, "none")) return TC5_OK;
  tc5_status st = tc5_timing_check(g, m->target, diag);
  if (st) return st;
  if (schedule)
    return tc5_diag_add(diag, TC5_EINVAL, "timing", schedule,
                        "timing: the model times the default schedule; schedule %llu is an adversarial one",
                        (unsigned long long)schedule);
  L->tm_gpu = g;
  L->tm_trace = cfg->timing_trace ? cfg->timing_trace : getenv("TC5_TIMING_TRACE");
  if (L->tm_trace && !*L->tm_trace) L->tm_trace = NULL;
  L->tm_sample = cfg->timing_sample;
  const char *e = getenv("TC5_TIMING_SAMPLE");
  if (!L->tm_sample && e && *e) {
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    if (!strcmp(e, "all")) L->tm_sample = TC5_TIMING_SAMPLE_ALL;
    else if (*end || !v || e[0] == '-')
      return tc5_diag_add(diag, TC5_EINVAL, "TC5_TIMING_SAMPLE", 0,
                          "TC5_TIMING_SAMPLE='%.40s' is not a count of clusters (a positive number, or all)", e);
    else L->tm_sample = (uint32_t)(v > 0xFFFFFFFEu ? 0xFFFFFFFEu : v);
  }
  return TC5_OK;
}

static tc5_status launch(const tc5_ptx_module *m, const tc5_ptx_launch_cfg *cfg, tc5_ptx_arg *args, unsigned nargs,
                         tc5_ptx_stats *stats, tc5_diag *diag, uint64_t schedule) {
  if (!m || !cfg || (nargs && !args)) return TC5_EINVAL;
  double t0 = now_s();
  ptx_launch L;
  memset(&L, 0, sizeof L);
  L.m = m;
  L.cfg = *cfg;
  L.schedule = schedule;
  L.diag = diag;
  chk_log log;
  memset(&log, 0, sizeof log);
  L.log = &log;
  if ((unsigned)cfg->check > TC5_CHECK_STRICT)
    return tc5_diag_add(diag, TC5_EINVAL, "check", (uint64_t)cfg->check, "check mode %d is not none, default or strict",
                        (int)cfg->check);
  tc5_status tst = timing_of(m, cfg, &L, schedule, diag);
  if (tst) return tst;
  if (cfg->nrules && !cfg->rules) return tc5_diag_add(diag, TC5_EINVAL, "rules", cfg->nrules, "nrules is %u but rules is NULL", cfg->nrules);
  for (unsigned i = 0; i < cfg->nrules; i++) {
    const tc5_check_rule *r;
    const tc5_check_override *o = &cfg->rules[i];
    if (tc5_check_rule_get(o->rule, &r) || o->rule >= sizeof L.rule_level)
      return tc5_diag_add(diag, TC5_EINVAL, "rules", o->rule, "rules[%u].rule %u is not a rule's index", i, o->rule);
    if (r->severity == TC5_CHECK_ALWAYS || (unsigned)o->level > TC5_RULE_ERROR)
      return tc5_diag_add(diag, TC5_EINVAL, "rules", o->level, "rules[%u]: rule '%s' cannot take level %d%s", i, r->id,
                          (int)o->level, r->severity == TC5_CHECK_ALWAYS ? " (an always rule takes none)" : "");
    L.rule_level[o->rule] = (uint8_t)o->level;
  }
  /* the entry */
  for (unsigned k = 0; k < m->nfuncs; k++) {
    const ptx_func *f = &m->funcs[k];
    if (!f->is_entry || !f->defined) continue; /* a declared entry has no body to run */
    if (cfg->entry ? !strcmp(f->name, cfg->entry) : !L.f) {
      if (!cfg->entry && L.f) L.f = NULL;
      L.f = f;
      if (cfg->entry) break;
    } else if (!cfg->entry) {
      return tc5_diag_add(diag, TC5_EINVAL, "entry", 0, "the module has several entries: name one (--entry)");
    }
  }
  if (!L.f)
    return tc5_diag_add(diag, TC5_EINVAL, "entry", 0, "no entry '%s' in the module", cfg->entry ? cfg->entry : "");
  uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
  uint64_t ncta = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
  if (threads == 0 || threads > 1024)
    return tc5_diag_add(diag, TC5_EINVAL, "block", threads, "a CTA has 1 to 1024 threads, not %llu", (unsigned long long)threads);
  if (cfg->block[2] > 64)
    return tc5_diag_add(diag, TC5_EINVAL, "block", cfg->block[2], "block z is at most 64, not %u", cfg->block[2]);
  if (ncta == 0 || cfg->grid[1] > 65535 || cfg->grid[2] > 65535)
    return tc5_diag_add(diag, TC5_EINVAL, "grid", ncta, "grid y and z are 1 to 65535, and no dimension is 0");
  if (cfg->grid[0] > 0x7fffffffu)
    return tc5_diag_add(diag, TC5_EINVAL, "grid", cfg->grid[0], "grid x is 1 to 2^31 - 1 (CUDA's maxGridSize), not %u",
                        cfg->grid[0]);
  const uint32_t *req = L.f->reqntid;
  if (req[0] && (req[0] != cfg->block[0] || req[1] != cfg->block[1] || req[2] != cfg->block[2]))
    return tc5_diag_add(diag, TC5_EINVAL, "block", threads, "entry '%s' requires .reqntid %u,%u,%u; the launch has %u,%u,%u",
                        L.f->name, req[0], req[1], req[2], cfg->block[0], cfg->block[1], cfg->block[2]);
  const uint32_t *mx = L.f->maxntid;
  if (mx[0] && threads > (uint64_t)mx[0] * mx[1] * mx[2])
    return tc5_diag_add(diag, TC5_EINVAL, "block", threads, "entry '%s' allows at most %u threads (.maxntid)", L.f->name,
                        mx[0] * mx[1] * mx[2]);
  /* clusters */
  const uint32_t *rc = L.f->reqcluster;
  bool given = cfg->cluster[0] || cfg->cluster[1] || cfg->cluster[2];
  for (int k = 0; k < 3; k++) L.cluster[k] = given ? (cfg->cluster[k] ? cfg->cluster[k] : 1) : rc[0] ? rc[k] : 1;
  if (rc[0] && given && (L.cluster[0] != rc[0] || L.cluster[1] != rc[1] || L.cluster[2] != rc[2]))
    return tc5_diag_add(diag, TC5_EINVAL, "cluster", L.cluster[0], "entry '%s' requires .reqnctapercluster %u,%u,%u; the launch has %u,%u,%u",
                        L.f->name, rc[0], rc[1], rc[2], L.cluster[0], L.cluster[1], L.cluster[2]);
  L.cluster_size = L.cluster[0] * L.cluster[1] * L.cluster[2];
  if (L.cluster_size > 16)
    return tc5_diag_add(diag, TC5_EINVAL, "cluster", L.cluster_size, "a cluster has at most 16 CTAs (8 portable), not %u",
                        L.cluster_size);
  for (int k = 0; k < 3; k++)
    if (cfg->grid[k] % L.cluster[k])
      return tc5_diag_add(diag, TC5_EINVAL, "cluster", L.cluster[k], "grid %c (%u) is not a multiple of the cluster's %u",
                          "xyz"[k], cfg->grid[k], L.cluster[k]);
  L.nclusters = ncta / L.cluster_size;
  L.threads_per_cta = (uint32_t)threads;
  L.warps_per_cta = (uint32_t)((threads + 31) / 32);
  L.ncta = ncta;
  /* shared memory */
  uint32_t stat;
  L.shared_addr = calloc(m->nvars ? m->nvars : 1, sizeof *L.shared_addr);
  if (!L.shared_addr) return TC5_ENOMEM;
  ptx_shared_layout(m, (unsigned)(L.f - m->funcs), L.shared_addr, &stat, &L.dyn_base);
  uint64_t total = (uint64_t)L.dyn_base + cfg->dynamic_shared;
  if (total - 1024 > TC5_SMEM_MAX_BYTES) {
    free(L.shared_addr);
    return tc5_diag_add(diag, TC5_EINVAL, "shared", total - 1024,
                        "the CTA needs %llu bytes of shared memory (static %u, dynamic %u, alignment): sm_100 allows %u",
                        (unsigned long long)(total - 1024), stat, cfg->dynamic_shared, TC5_SMEM_MAX_BYTES);
  }
  L.shared_total = (uint32_t)total;
  /* arguments: kinds known, and a buffer's bytes somewhere */
  for (unsigned k = 0; k < nargs; k++) {
    const tc5_ptx_arg *a = &args[k];
    if ((unsigned)a->kind > TC5_PTX_ARG_GLOBAL) {
      free(L.shared_addr);
      return tc5_diag_add(diag, TC5_EINVAL, "args", (uint64_t)a->kind,
                          "argument %u: kind %u is none of VALUE, BUFFER, TENSORMAP, BYTES, GLOBAL", k + 1,
                          (unsigned)a->kind);
    }
    if ((a->kind == TC5_PTX_ARG_BUFFER || a->kind == TC5_PTX_ARG_GLOBAL) && !a->data && a->bytes) {
      free(L.shared_addr);
      return tc5_diag_add(diag, TC5_EINVAL, "args", a->bytes,
                          "argument %u: a buffer of %zu bytes needs its memory (data is NULL)", k + 1, a->bytes);
    }
  }
  unsigned nparams_given = 0;
  for (unsigned k = 0; k < nargs; k++) nparams_given += args[k].kind != TC5_PTX_ARG_GLOBAL;
  if (nparams_given != L.f->nparams) {
    free(L.shared_addr);
    return tc5_diag_add(diag, TC5_EINVAL, "args", nparams_given, "entry '%s' has %u parameters; %u arguments were given",
                        L.f->name, L.f->nparams, nparams_given);
  }
  L.params = calloc(L.f->param_bytes ? L.f->param_bytes : 1, 1);
  L.regions = calloc(2 * nargs + 1, sizeof *L.regions);
  L.tmaps = calloc(nargs ? nargs : 1, sizeof *L.tmaps);
  pthread_mutex_t lock;
  pthread_mutex_init(&lock, NULL);
  L.lock = &lock;
  tc5_status st = TC5_OK;
  worker *wk = NULL;
  pthread_t *tids = NULL;
  unsigned nthreads = 0;
  if (!L.params || !L.regions || !L.tmaps) {
    st = TC5_ENOMEM;
    goto out;
  }
  if ((cfg->check != TC5_CHECK_NONE || L.tm_gpu) && (st = ptx_chk_code(m, &L.ck))) goto out;
  /* host addresses: tc5's own regions (tensor maps passed by address, the
   * module's variables) lie past every user-space address */
  uint64_t next = cfg->host_addresses ? PTX_HOST_OWN_BASE : PTX_GLOBAL_BASE;
  /* the buffers first: a tensor map needs its buffer's address */
  for (unsigned k = 0; k < nargs; k++)
    if (args[k].kind == TC5_PTX_ARG_BUFFER || args[k].kind == TC5_PTX_ARG_GLOBAL ||
        (args[k].kind == TC5_PTX_ARG_TENSORMAP && args[k].data)) {
      if (cfg->host_addresses) {
        st = host_address(&args[k], k, diag);
        if (st) goto out;
        continue;
      }
      args[k].device_address = next;
      next = (next + args[k].bytes + 65536 + 255) / 256 * 256; /* a gap: overruns do not land in the next buffer */
    }
  for (unsigned k = 0, pk = 0; k < nargs; k++) {
    tc5_ptx_arg *a = &args[k];
    if (a->kind == TC5_PTX_ARG_GLOBAL) { /* no parameter: a region only */
      add_region(&L, a->device_address, a->bytes, a->data, "global buffer %u", k + 1);
      continue;
    }
    const ptx_param *p = &L.f->params[pk++];
    uint64_t v;
    if (a->kind == TC5_PTX_ARG_BYTES) {
      if (a->bytes != p->size || !a->data) {
        st = tc5_diag_add(diag, TC5_EINVAL, p->name, a->bytes, "parameter %u (%s) is %u bytes; the argument's bytes are %zu",
                          pk, p->name, p->size, a->bytes);
        goto out;
      }
      memcpy(L.params + p->offset, a->data, p->size);
      continue;
    }
    if (a->kind == TC5_PTX_ARG_TENSORMAP) {
      if (a->data) { /* the tensor's own buffer */
        add_region(&L, a->device_address, a->bytes, a->data, "tensor of %.52s", p->name);
      } else if (a->buffer >= nargs || (args[a->buffer].kind != TC5_PTX_ARG_BUFFER && args[a->buffer].kind != TC5_PTX_ARG_GLOBAL)) {
        st = tc5_diag_add(diag, TC5_EINVAL, p->name, k, "parameter %u (%s): the tensor map's buffer, argument %u, is not a buffer",
                          pk, p->name, a->buffer + 1);
        goto out;
      }
      if (p->size != TC5_TENSORMAP_BYTES && p->size != 8) {
        st = tc5_diag_add(diag, TC5_EINVAL, p->name, k,
                          "parameter %u (%s) is %u bytes: a tensor map is passed in 128 bytes, or by an 8-byte address", pk,
                          p->name, p->size);
        goto out;
      }
      tc5_tmap_params tp = a->tmap;
      tp.address = (a->data ? a->device_address : args[a->buffer].device_address) + a->tmap.address;
      tc5_tensormap *tm = &L.tmaps[L.ntmaps];
      st = tc5_tensormap_encode(tm, &tp, diag);
      if (st) {
        tc5_diag_add(diag, st, p->name, k, "parameter %u (%s): the tensor map was rejected", pk, p->name);
        goto out;
      }
      if (p->size == TC5_TENSORMAP_BYTES) {
        if (p->align < 64) {
          st = tc5_diag_add(diag, TC5_EALIGN, p->name, p->align, "parameter %u (%s): a tensor map needs .align 64, not %u", pk,
                            p->name, p->align);
          goto out;
        }
        memcpy(L.params + p->offset, tm->bytes, TC5_TENSORMAP_BYTES);
        continue;
      }
      /* by address: a 128-byte region of its own (64-byte aligned) */
      add_region(&L, next, TC5_TENSORMAP_BYTES, tm->bytes, "tensor map of %.48s", p->name);
      v = next;
      next += 65536;
      L.ntmaps++;
      memcpy(L.params + p->offset, &v, 8);
      continue;
    }
    if (a->kind == TC5_PTX_ARG_BUFFER) {
      if (p->size != 8) {
        st = tc5_diag_add(diag, TC5_EINVAL, p->name, k, "parameter %u (%s) is %u bytes: a buffer's address needs 8", pk,
                          p->name, p->size);
        goto out;
      }
      add_region(&L, a->device_address, a->bytes, a->data, "%.63s", p->name);
      v = a->device_address;
    } else {
      if (a->size != p->size) {
        st = tc5_diag_add(diag, TC5_EINVAL, p->name, a->size, "parameter %u (%s) is %u bytes; the argument is %u", pk,
                          p->name, p->size, a->size);
        goto out;
      }
      v = a->bits;
    }
    memcpy(L.params + p->offset, &v, p->size < 8 ? p->size : 8);
  }
  if (cfg->host_addresses) merge_host_regions(&L);
  /* the module's .global/.const variables: one region after the buffers */
  L.globals = calloc(m->global_bytes ? m->global_bytes : 1, 1);
  if (!L.globals) {
    st = TC5_ENOMEM;
    goto out;
  }
  for (unsigned k = 0; k < m->nvars; k++)
    if ((m->vars[k].space == PS_GLOBAL || m->vars[k].space == PS_CONST) && m->vars[k].init)
      memcpy(L.globals + m->vars[k].addr, m->vars[k].init, m->vars[k].size);
  add_region(&L, next, m->global_bytes, L.globals, "module variables");
  L.max_steps = cfg->max_steps ? cfg->max_steps : (1ull << 34);
  reg_window(m, L.f, &L.reg_lo, &L.reg_hi);
  bool one_path;
  L.uni = uniform_pcs(m, L.f, L.reg_lo, L.reg_hi, &one_path);
  if (read_first(m, L.f, L.reg_lo, L.reg_hi, one_path && L.threads_per_cta % 32 == 0, &L.zero_regs, &L.nzero)) {
    L.cta_consts = malloc((m->nconsts ? m->nconsts : 1) * sizeof *L.cta_consts);
    for (uint32_t j = 0; L.cta_consts && j < m->nconsts; j++)
      if (m->consts[j].reg >= L.reg_lo && m->consts[j].reg < L.reg_hi && const_per_cta(&m->consts[j]))
        L.cta_consts[L.ncta_consts++] = j;
    if (!L.cta_consts) free(L.zero_regs), L.zero_regs = NULL; /* every CTA in full, as before */
  }
  if (!L.schedule && !L.tm_gpu)
    L.duni = dyn_uniform_pcs(m, L.f, L.uni, L.reg_lo, L.reg_hi, L.zero_regs, L.nzero, &L.ub_init, &L.ub_bytes);
  if (L.duni && !(L.hrec = hit_records(m, L.duni, &L)))
    free(L.duni), free(L.ub_init), L.duni = NULL, L.ub_init = NULL;
  L.idle = idle_warps(&L);
  L.tmem_used = tmem_used(m);
  L.run_n = L.nclusters;
  if (L.tm_gpu && (st = timing_setup(&L, args, nargs, diag))) goto out;
  /* workers */
  nthreads = cfg->threads ? cfg->threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
  if (!cfg->threads && (st = threads_of(&nthreads, diag))) goto out;
  if (nthreads < 1) nthreads = 1;
  /* threads beyond one a cluster to run (a small launch, or a sampled one:
   * FA4's persistent grid runs one cluster) go to the clusters' MMA
   * arithmetic (tc5_gemm's threads; the results are the same) */
  L.mma_threads = L.run_n && nthreads > L.run_n ? (unsigned)(nthreads / L.run_n) : 1;
  if (nthreads > L.run_n) nthreads = (unsigned)L.run_n;
  if (nthreads > 256) nthreads = 256;
  wk = calloc(nthreads, sizeof *wk);
  tids = calloc(nthreads, sizeof *tids);
  if (!wk || !tids) {
    st = TC5_ENOMEM;
    goto out;
  }
  unsigned started = 0;
  for (unsigned k = 0; k < nthreads; k++) {
    if (worker_init(&wk[k], &L)) {
      st = TC5_ENOMEM;
      break;
    }
    started++;
  }
  if (started) wk[0].caller = true; /* worker 0 runs in this thread: it polls cfg.interrupt */
  if (!st) {
    launch_join join = {.left = 0};
    pthread_mutex_init(&join.mu, NULL);
    pthread_cond_init(&join.cv, NULL);
    bool running[256] = {false};
    for (unsigned k = 1; k < started && k < 256; k++) {
      wk[k].join = &join;
      pthread_mutex_lock(&join.mu);
      running[k] = !pthread_create(&tids[k], NULL, worker_main, &wk[k]);
      join.left += running[k];
      pthread_mutex_unlock(&join.mu);
    }
    worker_run(&wk[0]);
    await_workers(&L, &join);
    for (unsigned k = 1; k < started && k < 256; k++)
      if (running[k]) pthread_join(tids[k], NULL);
    pthread_cond_destroy(&join.cv);
    pthread_mutex_destroy(&join.mu);
  }
  for (unsigned k = 0; k < started; k++) worker_free(&wk[k]);
  if (!st && ptx_failed(&L)) st = L.status ? L.status : TC5_ESTATE;
  if (!st && L.tm) {
    tc5_timing_result tr;
    st = tm_launch_finish(L.tm, cfg->timing_result ? cfg->timing_result : &tr, diag);
  }
  /* the checker's findings: each once, errors first in order of discovery (the launch's order: chk_log_order) */
  if (ptx_failed(&L) && L.status != TC5_ECANCELED) chk_log_trim(&log, L.fail_pos); /* as on one thread */
  chk_log_order(&log);
  for (unsigned pass = 0; pass < 2; pass++)
    for (unsigned k = 0; k < log.n; k++)
      if (log.f[k].warning == (pass == 1) && cfg->on_finding) cfg->on_finding(cfg->finding_ctx, &log.f[k]);
  if (log.errors && !st) {
    for (unsigned k = 0; k < log.n; k++)
      if (!log.f[k].warning) {
        const char *nl = strchr(log.f[k].text, '\n');
        tc5_diag_add(diag, TC5_EHAZARD, "check", log.errors, "%s:%u: %.*s", m->name, log.f[k].line,
                     nl ? (int)(nl - log.f[k].text) : 200, log.f[k].text);
        break;
      }
    st = TC5_EHAZARD;
  }
out:
  if (stats) {
    stats->findings = log.errors;
    stats->warnings = log.warnings;
    stats->thread_insns = L.thread_insns;
    stats->warp_insns = L.warp_insns;
    stats->ctas = (L.next_cta < L.run_n ? L.next_cta : L.run_n) * (L.cluster_size ? L.cluster_size : 1);
    stats->seconds = now_s() - t0;
  }
  free(wk);
  free(tids);
  free(L.params);
  free(L.regions);
  free(L.tmaps);
  free(L.globals);
  free(L.shared_addr);
  pthread_mutex_destroy(&lock);
  chk_log_free(&log);
  ptx_chk_code_free(&L.ck);
  free(L.zero_regs);
  free(L.cta_consts);
  free(L.uni);
  free(L.duni);
  free(L.hrec);
  free(L.hblk);
  free(L.hblks);
  free(L.hsrc);
  free(L.hdst);
  free(L.ub_init);
  tm_launch_free(L.tm);
  free(L.tmi);
  return st;
}

/* the seed of cfg->schedule, else of the environment's TC5_SCHEDULE (a
 * decimal or 0x-hex number; unset or empty: 0, the default schedule) */
static tc5_status schedule_of(const tc5_ptx_launch_cfg *cfg, uint64_t *seed, tc5_diag *diag) {
  *seed = cfg->schedule;
  const char *e = getenv("TC5_SCHEDULE");
  if (*seed || !e || !*e) return TC5_OK;
  char *end;
  unsigned long long v = strtoull(e, &end, 0);
  if (*end || e[0] == '-')
    return tc5_diag_add(diag, TC5_EINVAL, "TC5_SCHEDULE", 0,
                        "TC5_SCHEDULE='%.40s' is not a seed (a number; 0: the default schedule)", e);
  *seed = v;
  return TC5_OK;
}

tc5_status tc5_ptx_launch(const tc5_ptx_module *m, const tc5_ptx_launch_cfg *cfg, tc5_ptx_arg *args,
                          unsigned nargs, tc5_ptx_stats *stats, tc5_diag *diag) {
  if (!m || !cfg || (nargs && !args)) return TC5_EINVAL;
  uint64_t seed;
  tc5_status st = schedule_of(cfg, &seed, diag);
  return st ? st : launch(m, cfg, args, nargs, stats, diag, seed);
}

/* the memory an argument's buffer occupies (NULL: none) */
static uint8_t *arg_bytes(const tc5_ptx_arg *a, size_t *n) {
  bool buf = a->kind == TC5_PTX_ARG_BUFFER || a->kind == TC5_PTX_ARG_GLOBAL ||
             (a->kind == TC5_PTX_ARG_TENSORMAP && a->data);
  *n = buf && a->data ? a->bytes : 0;
  return *n ? a->data : NULL;
}

tc5_status tc5_ptx_launch_schedules(const tc5_ptx_module *m, const tc5_ptx_launch_cfg *cfg, tc5_ptx_arg *args,
                                    unsigned nargs, const bool *compare, unsigned n, tc5_ptx_schedules_report *rep,
                                    tc5_ptx_stats *stats, tc5_diag *diag) {
  if (!m || !cfg || (nargs && !args) || !rep) return TC5_EINVAL;
  memset(rep, 0, sizeof *rep);
  uint64_t first = cfg->schedule ? cfg->schedule : 1;
  if (first + n < first)
    return tc5_diag_add(diag, TC5_EINVAL, "schedule", first, "seeds %llu..%llu + %u overflow",
                        (unsigned long long)first, (unsigned long long)first, n);
  /* the inputs (restored before each run) and the default schedule's outputs */
  size_t total = 0;
  for (unsigned k = 0; k < nargs; k++) {
    size_t b;
    arg_bytes(&args[k], &b);
    total += b;
  }
  uint8_t *in = malloc(total + 1), *ref = malloc(total + 1);
  if (!in || !ref) {
    free(in), free(ref);
    return TC5_ENOMEM;
  }
  for (unsigned k = 0, o = 0; k < nargs; k++) {
    size_t b;
    uint8_t *p = arg_bytes(&args[k], &b);
    if (p) memcpy(in + o, p, b), o += (unsigned)b;
  }
  tc5_ptx_stats sum;
  memset(&sum, 0, sizeof sum);
  tc5_status st = TC5_OK, first_hazard = TC5_OK;
  rep->agree = true;
  for (uint64_t s = 0; s <= n; s++) {
    uint64_t seed = s ? first + s - 1 : 0;
    size_t o = 0;
    for (unsigned k = 0; k < nargs && s; k++) { /* each run starts from the same inputs */
      size_t b;
      uint8_t *p = arg_bytes(&args[k], &b);
      if (p) memcpy(p, in + o, b), o += b;
    }
    tc5_ptx_stats one;
    memset(&one, 0, sizeof one);
    tc5_ptx_launch_cfg c1 = *cfg;
    if (s) c1.on_finding = NULL; /* the default run's findings are the ones reported */
    if (s) c1.timing = "none";   /* the timing model times the default schedule only */
    st = launch(m, &c1, args, nargs, &one, diag, seed);
    sum.thread_insns += one.thread_insns, sum.warp_insns += one.warp_insns, sum.ctas += one.ctas;
    sum.seconds += one.seconds, sum.findings += one.findings, sum.warnings += one.warnings;
    rep->runs++;
    if (st == TC5_EHAZARD) {
      if (!first_hazard) first_hazard = st;
      st = TC5_OK;
    }
    if (st) {
      rep->seed_a = seed;
      char which[48] = "the default schedule";
      if (seed) snprintf(which, sizeof which, "schedule %llu", (unsigned long long)seed);
      tc5_diag_add(diag, st, "schedule", seed, "under %s: %s", which, tc5_strerror(st));
      break;
    }
    o = 0;
    for (unsigned k = 0; k < nargs; k++) {
      size_t b;
      uint8_t *p = arg_bytes(&args[k], &b);
      if (!p) continue;
      if (!s) memcpy(ref + o, p, b);
      else if (rep->agree && (!compare || compare[k]) && memcmp(ref + o, p, b)) {
        size_t i = 0;
        while (p[i] == ref[o + i]) i++;
        rep->agree = false;
        rep->seed_a = 0, rep->seed_b = seed, rep->arg = k, rep->offset = i;
        rep->byte_a = ref[o + i], rep->byte_b = p[i];
      }
      o += b;
    }
    if (!rep->agree) break;
  }
  /* the buffers keep the default schedule's outputs */
  if (rep->runs > 1 && !st) {
    size_t o = 0;
    for (unsigned k = 0; k < nargs; k++) {
      size_t b;
      uint8_t *p = arg_bytes(&args[k], &b);
      if (p) memcpy(p, ref + o, b), o += b;
    }
  }
  free(in), free(ref);
  if (stats) *stats = sum;
  if (st) return st;
  if (!rep->agree)
    return tc5_diag_add(diag, TC5_EMISMATCH, "schedule", rep->seed_b,
                        "argument %u: byte %llu is 0x%02x under the default schedule, 0x%02x under schedule %llu",
                        rep->arg + 1, (unsigned long long)rep->offset, rep->byte_a, rep->byte_b,
                        (unsigned long long)rep->seed_b);
  return first_hazard;
}
