/* tc5 PTX runner — cluster launch control (PTX ISA 9.7.17.1, sm_100):
 * clusterlaunchcontrol.try_cancel asks to cancel a cluster of the grid that
 * has not started and to hand its work to the asking one; query_cancel
 * decodes the 16-byte response.
 *
 * tc5 models the stealing: a cluster is launched when a host worker takes
 * the next cluster index (ptx_launch.next_cta), and try_cancel takes it the
 * same way, so it succeeds while clusters remain unlaunched and reports
 * "no more work" after. The response is opaque in the ISA; tc5's is: word 0
 * bit 0 set when a cluster was cancelled, words 1-3 the %ctaid x, y, z of
 * its first CTA (rank 0). It is written to the shared memory of the asking
 * CTA (or, with .multicast::cluster::all, at the same offset in every CTA
 * of the cluster), each copy completing 16 transaction bytes on the
 * mbarrier at the same offset in its CTA. */
#include <stdio.h>
#include <string.h>

#include "check/check_impl.h"
#include "ptx/decode_impl.h"

/* the response of one try_cancel: take the next unlaunched cluster */
static void cancel_one(ptx_launch *L, uint32_t resp[4]) {
  memset(resp, 0, 16);
  if (L->run_pick) return; /* the timing model's sample: each sampled cluster does its own work (docs/timing.md) */
  uint64_t i = __atomic_fetch_add(&L->next_cta, 1, __ATOMIC_RELAXED);
  if (i >= L->nclusters) return;
  uint32_t ncx = L->cfg.grid[0] / L->cluster[0], ncy = L->cfg.grid[1] / L->cluster[1];
  resp[0] = 1;
  resp[1] = (uint32_t)(i % ncx) * L->cluster[0];
  resp[2] = (uint32_t)(i / ncx % ncy) * L->cluster[1];
  resp[3] = (uint32_t)(i / ncx / ncy) * L->cluster[2];
}

/* try_cancel [addr], [mbar]: in->mods bit 0 .multicast::cluster::all */
static PTX_EXEC(x_try_cancel) {
  ptx_cta *c = w->cta;
  PTX_LANES(mask, {
    uint64_t a = PTX_R(w, in->o[0].reg)[l] + (uint64_t)in->o[0].imm, mb = PTX_R(w, in->o[1].reg)[l] + (uint64_t)in->o[1].imm;
    uint32_t off, mboff;
    if (ptx_cluster_addr(w, in->space, a, &off) != c || ptx_cluster_addr(w, in->space, mb, &mboff) != c)
      return ptx_fail(w, in, (int)l, TC5_EILLEGAL, a, "the response and the mbarrier must be the CTA's own shared memory");
    if (off & 15) return ptx_fail(w, in, (int)l, TC5_EALIGN, a, "the 16-byte response needs a 16-byte aligned address");
    uint32_t resp[4];
    cancel_one(c->L, resp);
    uint32_t first = (in->mods & 1) ? 0 : c->rank, last = (in->mods & 1) ? c->cl->n - 1 : c->rank;
    for (uint32_t r = first; r <= last; r++) {
      ptx_cta *d = &c->cl->ctas[r];
      uint8_t *p = ptx_mem(w, in, (int)l, PS_SHARED_CLUSTER, PTX_CLUSTER_FORM(d, off), 16, true);
      if (!p) return PX_ERROR;
      memcpy(p, resp, 16);
      if (d->chk) {
        chk_smem_async_write(CHK_W(w), CHK_IN(w, in), (int)l, d->chk, off, 16);
        /* the response is in flight until a warp observes the mbarrier phase */
        ptx_mbar *pm = ptx_mbar_find(d, mboff);
        if (pm && pm->mb.initialized) chk_tma_load(CHK_W(w), CHK_IN(w, in), (int)l, d->chk, off, 16, CHK_MB(d, pm), pm->mb.phase);
      }
      int rc = ptx_mbar_complete_tx_lane(w, in, (int)l, PTX_CLUSTER_FORM(d, mboff), 16);
      if (rc != PX_NEXT) return rc;
      d->progress = true;
    }
  });
  return PX_NEXT;
}

/* query_cancel.is_canceled.pred.b128 p, r / .get_first_ctaid{.v4.b32 | ::x
 * ::y ::z .b32}.b128 d, r: the response in the b128 register r (its low
 * half in r, its high half in r + 1); in->aux 0 is_canceled, 1 the v4, 2-4
 * ::x ::y ::z */
static PTX_EXEC(x_query_cancel) {
  const uint64_t *lo = PTX_R(w, in->o[1].reg), *hi = PTX_R(w, in->o[1].reg + 1);
  PTX_LANES(mask, {
    uint32_t resp[4] = {(uint32_t)lo[l], (uint32_t)(lo[l] >> 32), (uint32_t)hi[l], (uint32_t)(hi[l] >> 32)};
    if (in->aux == 0) {
      PTX_R(w, in->o[0].reg)[l] = resp[0] & 1;
      continue;
    }
    /* get_first_ctaid of a response that cancelled no cluster is undefined
     * (the ISA); Gluon's CLC scheduler reads it before testing is_canceled
     * and ignores it then, and runs on B200s: the value is 0xffffffff in
     * every word, so that a use of it shows */
    if (!(resp[0] & 1)) resp[1] = resp[2] = resp[3] = 0xffffffffu;
    if (in->aux >= 2) {
      PTX_R(w, in->o[0].reg)[l] = resp[in->aux - 1];
      continue;
    }
    const uint32_t *vr = w->cta->L->m->vregs + in->o[0].vec;
    for (unsigned k = 0; k < in->o[0].n; k++)
      if (vr[k] != PTX_NOREG) PTX_R(w, vr[k])[l] = k < 3 ? resp[k + 1] : 0;
  });
  return PX_NEXT;
}

PTX_DEC(dec_clc) {
  ptx_insn *in = d->in;
  const ptx_raw *r = d->r;
  if (d_take(d, "try_cancel")) {
    if (!d_take(d, "async")) return d_fail(d, TC5_EPARSE, "try_cancel needs .async");
    int sp = d_take_space(d);
    if (!d_take(d, "mbarrier::complete_tx::bytes")) return d_fail(d, TC5_EPARSE, "try_cancel completes through .mbarrier::complete_tx::bytes");
    if (d_take(d, "multicast::cluster::all")) in->mods |= 1;
    if (d_take_type(d) != PT_B128) return d_fail(d, TC5_EPARSE, "needs .b128");
    in->space = (uint8_t)(sp < 0 ? PS_GENERIC : sp);
    if (!d_nops(d, 2, 2) || !d_addr(d, 0, &in->o[0], NULL) || !d_addr(d, 1, &in->o[1], NULL)) return d->st;
    in->fn = x_try_cancel;
    in->flags |= PF_MBAR;
    return TC5_OK;
  }
  if (!d_take(d, "query_cancel")) return d_fail(d, TC5_EUNSUPPORTED, "clusterlaunchcontrol: try_cancel and query_cancel");
  bool pred = false;
  if (d_take(d, "is_canceled")) {
    in->aux = 0;
    pred = true;
    if (d_take_type(d) != PT_PRED) return d_fail(d, TC5_EPARSE, "is_canceled needs .pred");
  } else if (d_take(d, "get_first_ctaid")) {
    in->aux = 1;
    if (!d_take(d, "v4")) return d_fail(d, TC5_EPARSE, "get_first_ctaid needs .v4.b32");
  } else if (d_take(d, "get_first_ctaid::x") || d_take(d, "get_first_ctaid::y") || d_take(d, "get_first_ctaid::z")) {
    char text[160];
    snprintf(text, sizeof text, "%.*s", (int)r->oplen, r->op);
    const char *t = strstr(text, "get_first_ctaid::");
    in->aux = t ? 2u + (unsigned)(t[17] - 'x') : 2u;
  } else {
    return d_fail(d, TC5_EPARSE, "query_cancel needs .is_canceled or .get_first_ctaid");
  }
  if (!pred && d_take_type(d) != PT_B32) return d_fail(d, TC5_EPARSE, "needs .b32");
  if (d_take_type(d) != PT_B128) return d_fail(d, TC5_EPARSE, "needs .b128");
  if (!d_nops(d, 2, 2)) return d->st;
  if (r->ops[1].kind != RO_REG || d->m->reg_bits[r->ops[1].reg] != 128)
    return d_fail(d, TC5_EPARSE, "the response operand is a .b128 register");
  in->o[1].kind = PO_REG;
  in->o[1].reg = r->ops[1].reg;
  if (in->aux == 1) {
    if (!d_vec(d, 0, 4, true, PT_B32, &in->o[0])) return d->st;
  } else if (!d_dst(d, 0, &in->o[0])) {
    return d->st;
  }
  in->fn = x_query_cancel;
  return TC5_OK;
}
