/* tc5 PTX runner — Hopper's warpgroup MMA: wgmma.mma_async (PTX ISA
 * "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions"),
 * wgmma.fence, commit_group and wait_group.
 *
 * wgmma.mma_async is executed by the four warps of a warpgroup together:
 * each warp arrives at it and sleeps; the fourth one computes for all 128
 * threads (the warps' register files are all at hand), then wakes them.
 * The MMA completes at once, so commit_group / wait_group have nothing to
 * wait for. Operands: A from registers or through a matrix descriptor, B
 * through a descriptor; the descriptors' layouts are tc5's canonical
 * layouts (tc5_smem_desc_from_wgmma, tc5_layout_gather: the same layouts,
 * checked against wgmma on the H100 by gpu/wgmma_layout.cu). Arithmetic:
 * tc5's Hopper model (tc5_dot_model(TC5_MODEL_HOPPER, ...)), the whole
 * 64 x N x K product through one tc5_gemm call (the same results as
 * tc5_dot_run element by element, 17x to 96x faster for the float kinds:
 * bench/bench_wgmma.c, whose CTest bench_wgmma_outputs compares the two).
 *
 * Register fragments (PTX ISA "Register Fragments and Shared Memory Matrix
 * Layouts" of wgmma), thread t of the warpgroup, lane l = t % 32, warp
 * w = t / 32:
 *   D (f32/s32), register i < N/2: row 16w + l/4 + 8 ((i/2)%2),
 *     column 8 (i/4) + 2 (l%4) + i%2; f16 D packs elements 2j, 2j+1 into
 *     register j (low half first);
 *   A (16-bit), register r < 4, half h: row 16w + l/4 + 8 (r%2),
 *     column 2 (l%4) + 8 (r/2) + h; 8-bit: byte h < 4 of register r:
 *     column 4 (l%4) + 16 (r/2) + h; tf32: column l%4 + 4 (r/2). */
#include <stdlib.h>
#include <string.h>

#include "check/check_impl.h"
#include "ptx/decode_impl.h"
#include "tc5/arith.h"
#include "tc5/descriptors.h"
#include "tc5/layout.h"

enum { G_FENCE, G_COMMIT, G_WAIT, G_MMA };
/* in->mods: bit 0 A from registers, bits 8-16 the N of the shape (up to 256: nine bits);
 * in->type = D type, in->type2 = A type, in->space = B type (fp8 may mix);
 * in->aux2 = number of immediates */

static PTX_EXEC(x_wg_nop) {
  (void)w;
  (void)in;
  (void)mask;
  return PX_NEXT;
}
/* wgmma.commit_group (in->aux G_COMMIT) / wait_group N (G_WAIT): the MMA
 * completed at once; the checker follows the groups of each warp */
static PTX_EXEC(x_wg_group) {
  if (mask && w->cta->chk) {
    uint32_t n = in->aux == G_WAIT ? (uint32_t)PTX_R(w, in->o[0].reg)[__builtin_ctz(mask)] : 0;
    chk_group(CHK_W(w), 2, in->aux == G_WAIT, n);
    if (in->aux == G_WAIT) chk_wgmma_wait(CHK_W(w), n); /* wgmma-reg-inflight (issue 34) */
    else chk_wgmma_commit(CHK_W(w));
  }
  return PX_NEXT;
}

static tc5_type fmt(unsigned t) {
  switch (t) {
  case PT_F16: return TC5_F16;
  case PT_BF16: return TC5_BF16;
  case PT_TF32: return TC5_TF32;
  case PT_E4M3: return TC5_E4M3;
  case PT_E5M2: return TC5_E5M2;
  case PT_S8: return TC5_S8;
  case PT_U8: return TC5_U8;
  case PT_F32: return TC5_F32;
  case PT_S32: return TC5_S32;
  default: return TC5_TYPE_NONE;
  }
}
static tc5_kind kind_of(unsigned t) {
  switch (t) {
  case PT_F16: case PT_BF16: return TC5_KIND_F16;
  case PT_TF32: return TC5_KIND_TF32;
  case PT_S8: case PT_U8: return TC5_KIND_I8;
  default: return TC5_KIND_F8F6F4;
  }
}

/* element (m, k) of A from the registers of warpgroup thread t */
static uint32_t a_reg_code(ptx_warp *const *wg, const uint32_t *vr, unsigned abits, unsigned m, unsigned k) {
  unsigned w = m / 16, r0 = m % 16, half = r0 / 8, l4 = r0 % 8;
  unsigned per = 32 / abits; /* elements per register */
  unsigned kk = k % (4 * per), hi = k / (4 * per);
  unsigned lane = l4 * 4 + kk / per, e = kk % per;
  unsigned r = half + 2 * hi;
  uint64_t v = PTX_R(wg[w], vr[r])[lane];
  return (uint32_t)(v >> (abits * e)) & (abits == 32 ? 0xffffffffu : (1u << abits) - 1);
}

static int wg_fail_diag(ptx_warp *w, const ptx_insn *in, tc5_status st, const tc5_diag *dg) {
  return ptx_fail(w, in, -1, st, 0, "%s", dg->count ? dg->issue[0].message : tc5_strerror(st));
}

/* the whole warpgroup's MMA, executed by its last warp to arrive */
static int wg_compute(ptx_warp *w, const ptx_insn *in, ptx_warp *const *wg) {
  ptx_cta *c = w->cta;
  const tc5_ptx_module *m = c->L->m;
  unsigned N = (in->mods >> 8) & 0x1ff, ab = in->type2, bt = in->space, dt = in->type;
  bool a_regs = in->mods & 1;
  unsigned K = ab == PT_TF32 ? 8 : (ab == PT_F16 || ab == PT_BF16) ? 16 : 32;
  unsigned abits = ptx_types[ab].bits;
  const ptx_opnd *od = &in->o[0], *oa = &in->o[1], *ob = &in->o[2], *op = &in->o[3];
  unsigned nimm = in->aux2;
  int32_t imm[4] = {1, 1, 0, 0};
  for (unsigned k = 0; k < nimm; k++) imm[k] = (int32_t)PTX_R(w, in->o[4 + k].reg)[0];
  /* immediates: scale-a, scale-b, then trans-a (A in shared memory) and trans-b */
  bool trans_a = nimm == 4 && imm[2], trans_b = nimm == 4 ? imm[3] != 0 : nimm == 3 ? imm[2] != 0 : false;
  tc5_diag dg;
  tc5_diag_init(&dg);
  /* the descriptors and scale-d must agree across the warpgroup */
  uint64_t bdesc = PTX_R(wg[0], ob->reg)[0], adesc = a_regs ? 0 : PTX_R(wg[0], oa->reg)[0];
  uint64_t scale_d = PTX_R(wg[0], op->reg)[0] != 0;
  if (op->neg) scale_d = !scale_d;
  for (unsigned q = 0; q < 4; q++)
    for (unsigned l = 0; l < 32; l++)
      if (PTX_R(wg[q], ob->reg)[l] != bdesc || (!a_regs && PTX_R(wg[q], oa->reg)[l] != adesc))
        return ptx_fail(w, in, -1, TC5_EILLEGAL, 0,
                        "the matrix descriptors differ between the threads of the warpgroup (warp %u lane %u)",
                        wg[q]->id, l);
  tc5_operand opb, opa;
  tc5_smem_desc db, da;
  tc5_status st = tc5_operand_for(kind_of(bt), fmt(bt), trans_b ? TC5_MAJOR_MN : TC5_MAJOR_K, &opb);
  if (!st) st = tc5_smem_desc_from_wgmma(bdesc, &db, &dg);
  if (!st) st = tc5_layout_check_read(&db, &opb, N, K, c->smem.size, &dg);
  if (st) return wg_fail_diag(w, in, st, &dg);
  /* A 64 x K, B gathered N x K then K x N (Bt), D 64 x N: one block */
  uint32_t *B = malloc(sizeof(uint32_t) * (N * K + K * N + 64 * K + 64 * N));
  if (!B) return ptx_fail(w, in, -1, TC5_ENOMEM, 0, "out of memory");
  uint32_t *Bt = B + N * K, *A = Bt + K * N, *D = A + 64 * K;
  /* the async proxy reads A and B (PTX 9.7.15.4): under a seeded schedule,
   * generic writes no fence.proxy.async ordered may be read stale (machine.c,
   * ptx_px_*; every such granule of the CTA is a candidate, as for tcgen05.mma,
   * those cp.async wrote excepted: see the checker's wgmma_proxy) */
  bool px = c->cl->sched != NULL;
  if (px) ptx_px_stale_begin_wgmma(c);
  st = tc5_layout_gather(&c->smem, &db, &opb, N, K, B, &dg);
  if (!st && !a_regs) {
    st = tc5_operand_for(kind_of(ab), fmt(ab), trans_a ? TC5_MAJOR_MN : TC5_MAJOR_K, &opa);
    if (!st) st = tc5_smem_desc_from_wgmma(adesc, &da, &dg);
    if (!st) st = tc5_layout_check_read(&da, &opa, 64, K, c->smem.size, &dg);
    if (!st) st = tc5_layout_gather(&c->smem, &da, &opa, 64, K, A, &dg);
  }
  if (px) ptx_px_stale_end(c);
  if (!st && a_regs) {
    const uint32_t *vr = m->vregs + oa->vec;
    for (unsigned mm = 0; mm < 64; mm++)
      for (unsigned k = 0; k < K; k++) A[mm * K + k] = a_reg_code(wg, vr, abits, mm, k);
  }
  if (!st && c->chk) chk_wgmma(CHK_W(w), CHK_IN(w, in), wg[0]->id, a_regs ? NULL : &da, &opa, &db, &opb, N, K);
  if (!st && c->tm)
    tm_mma(c->tm, w->id, TM_PC(w, in), 2.0 * 64 * N * K, ab == PT_TF32 ? TM_RATE_TF32 : ab == PT_F16 || ab == PT_BF16 ? TM_RATE_BF16 : ab == PT_S8 || ab == PT_U8 ? TM_RATE_INT8 : TM_RATE_FP8, NULL, true);
  tc5_dot dot;
  if (!st)
    st = tc5_dot_model(TC5_MODEL_HOPPER, kind_of(ab), fmt(ab), fmt(bt), fmt(dt), TC5_TYPE_NONE, 0,
                       in->aux == 1, &dot, &dg);
  if (st) {
    free(B);
    return wg_fail_diag(w, in, st, &dg);
  }
  tc5_dot_opts o;
  tc5_dot_opts_init(&o);
  o.enable_input_d = scale_d;
  o.negate_a = imm[0] == -1;
  o.negate_b = imm[1] == -1;
  const uint32_t *dv = m->vregs + od->vec;
  bool d16 = dt == PT_F16;
  for (unsigned n = 0; n < N; n++)
    for (unsigned k = 0; k < K; k++) Bt[k * N + n] = B[n * K + k];
  /* C from the fragments into D (row-major), the product, D back */
  for (unsigned t = 0; t < 128; t++) {
    const ptx_warp *q = wg[t / 32];
    unsigned l = t % 32;
    for (unsigned i = 0; i < N / 2; i++) {
      unsigned row = 16 * (t / 32) + l / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
      const uint64_t *reg = PTX_R(q, dv[d16 ? i / 2 : i]);
      unsigned sh = d16 ? 16 * (i % 2) : 0;
      D[row * N + col] = (uint32_t)(reg[l] >> sh) & (d16 ? 0xffffu : 0xffffffffu);
    }
  }
  st = tc5_gemm(&dot, 64, N, K, A, Bt, NULL, NULL, D, &o, 1);
  for (unsigned t = 0; t < 128 && !st; t++) {
    ptx_warp *q = wg[t / 32];
    unsigned l = t % 32;
    for (unsigned i = 0; i < N / 2; i++) {
      unsigned row = 16 * (t / 32) + l / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
      uint64_t *reg = PTX_R(q, dv[d16 ? i / 2 : i]);
      unsigned sh = d16 ? 16 * (i % 2) : 0;
      uint32_t dout = D[row * N + col];
      if (d16) reg[l] = (reg[l] & ~(0xffffull << sh)) | (uint64_t)(dout & 0xffff) << sh;
      else reg[l] = dout;
    }
  }
  free(B);
  if (st) {
    tc5_diag_init(&dg);
    tc5_dot_check(&dot, K, &o, &dg);
    return wg_fail_diag(w, in, st, &dg);
  }
  return PX_NEXT;
}

static PTX_EXEC(x_wgmma) {
  (void)mask;
  ptx_cta *c = w->cta;
  unsigned g = w->id / 4;
  if (g * 4 + 3 >= c->nwarps)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, w->id, "wgmma needs a whole warpgroup: warp %u's group has fewer than 4 warps", w->id);
  uint32_t pc = (uint32_t)(in - c->L->m->code);
  ptx_wg *s = &c->wg[g];
  if (s->arrived && s->pc != pc)
    return ptx_fail(w, in, -1, TC5_EILLEGAL, pc,
                    "the warps of warpgroup %u are at different wgmma.mma_async instructions (lines %u and %u)", g,
                    c->L->m->code[s->pc].line, in->line);
  s->pc = pc;
  s->arrived |= 1u << (w->id % 4);
  if (s->arrived != 0xf) return PX_WAIT;
  ptx_warp *wg[4];
  for (unsigned q = 0; q < 4; q++) {
    wg[q] = &c->warps[g * 4 + q];
    if (wg[q]->live != 0xffffffffu)
      return ptx_fail(w, in, -1, TC5_EILLEGAL, wg[q]->live, "wgmma with part of warp %u (threads 0x%08x)", wg[q]->id,
                      wg[q]->live);
  }
  s->arrived = 0;
  int r = wg_compute(w, in, wg);
  if (r == PX_NEXT && c->chk)
    for (unsigned q = 0; q < 4; q++) chk_wgmma_issue(CHK_W(wg[q]), CHK_IN(wg[q], in));
  for (unsigned q = 0; q < 4; q++)
    if (wg[q] != w) wg[q]->wait = 0;
  c->progress = true;
  return r;
}

PTX_DEC(dec_wgmma) {
  ptx_insn *in = d->in;
  const char *sub = d->ntok > 1 ? d->tok[1] : "";
  d->used[1] = true;
  if (!d_take(d, "sync") || !d_take(d, "aligned")) return d_fail(d, TC5_EPARSE, "needs .sync.aligned");
  in->flags |= PF_ALIGNED;
  if (!strcmp(sub, "fence") || !strcmp(sub, "commit_group")) {
    in->aux = sub[0] == 'c' ? G_COMMIT : G_FENCE;
    in->fn = sub[0] == 'c' ? x_wg_group : x_wg_nop;
    return d_nops(d, 0, 0) ? TC5_OK : d->st;
  }
  if (!strcmp(sub, "wait_group")) {
    in->aux = G_WAIT;
    in->fn = x_wg_group;
    return d_nops(d, 1, 1) && d_src(d, 0, PT_U32, &in->o[0]) ? TC5_OK : d->st;
  }
  if (strcmp(sub, "mma_async")) return d_fail(d, TC5_EUNSUPPORTED, "wgmma.%s is not modelled", sub);
  const char *shape = NULL;
  for (unsigned k = 2; k < d->ntok && !shape; k++)
    if (!d->used[k] && d->tok[k][0] == 'm' && strchr(d->tok[k], 'n')) {
      shape = d->tok[k];
      d->used[k] = true;
    }
  unsigned M = 0, N = 0, K = 0;
  if (!shape || sscanf(shape, "m%un%uk%u", &M, &N, &K) != 3 || M != 64 || N < 8 || N > 256 || N % 8)
    return d_fail(d, TC5_EPARSE, "needs a shape m64nNk*, N a multiple of 8 up to 256");
  bool satf = d_take(d, "satfinite");
  ptx_type dt = d_take_type(d), at = d_take_type(d), bt = d_take_type(d);
  if (dt == PT_NONE || at == PT_NONE || bt == PT_NONE) return d_fail(d, TC5_EPARSE, "needs .dtype.atype.btype");
  bool integer = (at == PT_S8 || at == PT_U8) && (bt == PT_S8 || bt == PT_U8);
  if (at != bt && !integer && !((at == PT_E4M3 || at == PT_E5M2) && (bt == PT_E4M3 || bt == PT_E5M2)))
    return d_fail(d, TC5_EUNSUPPORTED, "mixed A and B types are not modelled here");
  unsigned kexp = at == PT_TF32 ? 8 : (at == PT_F16 || at == PT_BF16) ? 16 : 32;
  if (K != kexp) return d_fail(d, TC5_EILLEGAL, "K of .%s is %u, not %u", ptx_types[at].name, kexp, K);
  if (at == PT_B32 || at == PT_NONE || (fmt(at) == TC5_TYPE_NONE))
    return d_fail(d, TC5_EUNSUPPORTED, "wgmma .%s is not modelled", ptx_types[at].name);
  /* integer wgmma (.s32.{s8,u8}.{s8,u8}, m64nNk32): N is 8, 16, 24 or a
   * multiple of 16, no scale or transpose immediates; .satfinite clamps
   * the s32 result */
  if (integer && (dt != PT_S32 || (N > 24 && N % 16)))
    return d_fail(d, TC5_EILLEGAL, "integer wgmma takes .s32 D and N in {8, 16, 24, 32, 48, ..., 256}, not .%s n%u",
                  ptx_types[dt].name, N);
  if (!integer && (at == PT_S8 || at == PT_U8 || bt == PT_S8 || bt == PT_U8))
    return d_fail(d, TC5_EILLEGAL, "an 8-bit integer A pairs with an 8-bit integer B");
  if (satf && !integer) return d_fail(d, TC5_EILLEGAL, ".satfinite belongs to the integer wgmma");
  in->type = (uint8_t)dt;
  in->type2 = (uint8_t)at;
  in->space = (uint8_t)bt;
  in->aux = satf;
  in->mods = N << 8;
  const ptx_raw *r = d->r;
  bool a_regs = r->nops > 1 && r->ops[1].kind == RO_VEC;
  if (a_regs) in->mods |= 1;
  unsigned ndreg = dt == PT_F16 ? N / 4 : N / 2;
  bool transposable = at == PT_F16 || at == PT_BF16;
  unsigned nimm = integer ? 0 : transposable ? (a_regs ? 3 : 4) : 2;
  if (!d_nops(d, 4 + nimm, 4 + nimm)) return d->st;
  if (!d_vec(d, 0, ndreg, true, PT_B32, &in->o[0])) return d->st;
  if (a_regs) {
    if (!d_vec(d, 1, 4, false, PT_B32, &in->o[1])) return d->st;
  } else if (!d_src(d, 1, PT_B64, &in->o[1])) {
    return d->st;
  }
  if (!d_src(d, 2, PT_B64, &in->o[2]) || !d_src(d, 3, PT_PRED, &in->o[3])) return d->st;
  for (unsigned k = 0; k < nimm; k++) {
    int64_t v;
    if (!d_imm(d, 4 + k, &v)) return d->st;
    if (k < 2 && v != 1 && v != -1) return d_fail(d, TC5_EILLEGAL, "imm-scale-%c is 1 or -1, not %lld", 'a' + k, (long long)v);
    if (k >= 2 && v != 0 && v != 1) return d_fail(d, TC5_EILLEGAL, "imm-trans is 0 or 1, not %lld", (long long)v);
    if (!d_src(d, 4 + k, PT_S32, &in->o[4 + k])) return d->st;
  }
  in->aux2 = nimm;
  in->nops = (uint8_t)(4 + nimm);
  in->fn = x_wgmma;
  return TC5_OK;
}
