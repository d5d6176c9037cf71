/* tc5 tests — the PTX runner's TMA and clusters: tensor-map arguments and
 * their errors, a copy whose transaction count never completes (a deadlock
 * naming the copy), the H100's coordinate rule, and every cluster error.
 * What the copies and clusters compute is compared with the H100 by
 * ptx_silicon_tma (tests/data/ptx/tma90). */
#include "testutil.h"
#include "tc5/ptx.h"

static bool has(const tc5_diag *dg, const char *s) {
  for (unsigned k = 0; k < dg->count; k++)
    if (strstr(dg->issue[k].message, s)) return true;
  return false;
}

static tc5_ptx_module *load(const char *body) {
  static char text[1 << 14];
  snprintf(text, sizeof text, ".version 8.7\n.target sm_90a\n.address_size 64\n%s", body);
  tc5_ptx_module *m = NULL;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_ptx_load(text, strlen(text), "t.ptx", &m, &dg);
  if (st) fail_msg("does not load: %s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  return m;
}

/* one thread loads a 2D bf16 box (64 x 32, 4096 bytes) at (cx, 0) through
 * the tensor map, expecting `bytes`, and copies its first word to out[2048] */
static const char *tma_kernel =
    ".visible .entry k(.param .align 64 .b8 tm[128], .param .u64 out, .param .u32 cx, .param .u32 bytes) {\n"
    " .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n"
    " .shared .align 1024 .b8 buf[4096];\n"
    " .shared .align 8 .b64 bar;\n"
    " mov.u32 %r2, bar; mov.u32 %r3, 1; mbarrier.init.shared.b64 [%r2], %r3;\n"
    " ld.param.u32 %r4, [bytes]; mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r2], %r4;\n"
    " mov.b64 %rd2, tm; cvta.param.u64 %rd3, %rd2;\n"
    " mov.u32 %r5, buf; ld.param.u32 %r6, [cx]; mov.u32 %r7, 0;\n"
    " cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd3, {%r6, %r7}], [%r2];\n"
    "LOOP: mbarrier.try_wait.parity.shared.b64 %p2, [%r2], 0;\n"
    " @!%p2 bra LOOP;\n"
    " ld.shared.u32 %r8, [buf]; ld.param.u64 %rd4, [out]; st.global.u32 [%rd4+8192], %r8;\n"
    " ret;\n}\n";

static tc5_status run_tma(const char *tmap, uint32_t cx, uint32_t bytes, unsigned tm_size_kind, uint8_t *out,
                          tc5_diag *dg) {
  tc5_ptx_module *m = load(tma_kernel);
  tc5_ptx_arg a[4];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_TENSORMAP;
  assert_int_equal(tc5_tmap_params_parse(tmap, &a[0].tmap, NULL, NULL, NULL), TC5_OK);
  a[0].buffer = tm_size_kind; /* the index of the buffer argument */
  a[1].kind = TC5_PTX_ARG_BUFFER;
  a[1].data = out;
  a[1].bytes = 16384;
  a[2].kind = a[3].kind = TC5_PTX_ARG_VALUE;
  a[2].size = a[3].size = 4;
  a[2].bits = cx;
  a[3].bits = bytes;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.threads = 1;
  cfg.max_steps = 1u << 20;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_launch(m, &cfg, a, 4, NULL, dg);
  tc5_ptx_free(m);
  return st;
}

static const char *bf16map = "type=bf16,dims=64x32,strides=128,box=64x32";

static void test_tma_runs(void **state) {
  (void)state;
  static uint8_t out[16384];
  for (unsigned i = 0; i < sizeof out; i++) out[i] = (uint8_t)(i * 13 + 1);
  tc5_diag dg;
  assert_int_equal(run_tma(bf16map, 0, 4096, 1, out, &dg), TC5_OK);
  assert_memory_equal(out + 8192, out, 4);
  /* a box across the tensor's end: the fill is zero, the whole box counted */
  assert_int_equal(run_tma(bf16map, 64, 4096, 1, out, &dg), TC5_OK);
  assert_int_equal(out[8192] | out[8193] | out[8194] | out[8195], 0);
}

/* tensormap.replace.global_stride's operand counts bytes in every PTX ISA version (issue 52). Triton
 * 3.1-3.3 write it shifted right by 4 for PTX <= 8.5 ("workaround for a ptxas bug"; CUTLASS likewise
 * under CUDA < 12.5): ptxas 12.4 (Triton 3.3's for sm_90a) stores the operand in the map's 16-byte-unit
 * field as it is, ptxas 12.8 and 13.0 store it shifted right by 4 (their SASS), and the H200 (its
 * driver's ptxas 13.0) reads a PTX 8.4 kernel's 32 as 32 bytes (tests/data/ptx/tmreplace90,
 * ptx_silicon_tmreplace). tc5 follows the silicon. One thread builds a 64 x 64 f16 map from zeros
 * with a row stride of `stride`, copies it to out, and the map is decoded. */
static const char *replace_kernel =
    ".visible .entry k(.param .u64 out, .param .u64 stride) {\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<8>;\n"
    " .shared .align 128 .b8 map[128];\n"
    " mov.u32 %r1, map; mov.u64 %rd1, 0;\n"
    " st.shared.v2.u64 [%r1], {%rd1, %rd1}; st.shared.v2.u64 [%r1+16], {%rd1, %rd1};\n"
    " st.shared.v2.u64 [%r1+32], {%rd1, %rd1}; st.shared.v2.u64 [%r1+48], {%rd1, %rd1};\n"
    " st.shared.v2.u64 [%r1+64], {%rd1, %rd1}; st.shared.v2.u64 [%r1+80], {%rd1, %rd1};\n"
    " st.shared.v2.u64 [%r1+96], {%rd1, %rd1}; st.shared.v2.u64 [%r1+112], {%rd1, %rd1};\n"
    " cvt.u64.u32 %rd2, %r1; ld.param.u64 %rd3, [out]; ld.param.u64 %rd4, [stride];\n"
    " tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%rd2], %rd3;\n"
    " tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd2], 1;\n"
    " tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd2], 0, 8;\n"
    " tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd2], 1, 8;\n"
    " tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd2], 0, 64;\n"
    " tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd2], 1, 64;\n"
    " tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%rd2], 0, %rd4;\n"
    " tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%rd2], 0, 1;\n"
    " tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%rd2], 1, 1;\n"
    " tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%rd2], 6;\n"
    " tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd3], [%rd2], 128;\n"
    " ret;\n}\n";

static tc5_status replace_stride(const char *version, uint64_t stride, uint64_t *bytes, tc5_diag *dg) {
  static char text[1 << 13];
  snprintf(text, sizeof text, ".version %s\n.target sm_90a\n.address_size 64\n%s", version, replace_kernel);
  tc5_ptx_module *m = NULL;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_load(text, strlen(text), "t.ptx", &m, dg);
  if (st) return st;
  static uint8_t out[65536];
  memset(out, 0, sizeof out);
  tc5_ptx_arg a[2];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_BUFFER;
  a[0].data = out;
  a[0].bytes = sizeof out;
  a[1].kind = TC5_PTX_ARG_VALUE;
  a[1].size = 8;
  a[1].bits = stride;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.threads = 1;
  st = tc5_ptx_launch(m, &cfg, a, 2, NULL, dg);
  tc5_ptx_free(m);
  if (st) return st;
  tc5_tensormap map;
  memcpy(map.bytes, out, sizeof map.bytes);
  tc5_tmap_params p;
  st = tc5_tensormap_decode(&map, &p, dg);
  *bytes = p.strides[0];
  return st;
}

static void test_replace_stride_units(void **state) {
  (void)state;
  tc5_diag dg;
  const char *versions[] = {"8.3", "8.4", "8.5", "8.6", "9.0"};
  for (unsigned i = 0; i < 5; i++) {
    uint64_t b = 0;
    assert_int_equal(replace_stride(versions[i], 256 + 128 * i, &b, &dg), TC5_OK);
    assert_int_equal(b, 256 + 128 * i);
  }
}

static void test_tma_errors(void **state) {
  (void)state;
  static uint8_t out[16384];
  tc5_diag dg;
  /* the transaction count never completes: a deadlock naming the copy */
  assert_int_equal(run_tma(bf16map, 0, 8192, 1, out, &dg), TC5_ESTATE);
  assert_true(has(&dg, "[mbarrier-wait-never]"));
  assert_true(has(&dg, "4096 tx bytes pending; the last complete_tx came from line 12, thread 0"));
  /* the innermost coordinate off a 16-byte boundary (the H100 faults) */
  assert_int_equal(run_tma(bf16map, 3, 4096, 1, out, &dg), TC5_EALIGN);
  assert_true(has(&dg, "t.ptx:12: cp.async.bulk.tensor"));
  assert_true(has(&dg, "an illegal instruction on the H100"));
  assert_true(has(&dg, "thread (0,0,0)"));
  /* a box that leaves shared memory: the copy and the thread named */
  char small[4096];
  snprintf(small, sizeof small, "%s", tma_kernel);
  char *at = strstr(small, "buf[4096]");
  memcpy(at, "buf[2048]", 9);
  tc5_ptx_module *m = load(small);
  tc5_ptx_arg a[4];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_TENSORMAP;
  assert_int_equal(tc5_tmap_params_parse(bf16map, &a[0].tmap, NULL, NULL, NULL), TC5_OK);
  a[0].buffer = 1;
  a[1].kind = TC5_PTX_ARG_BUFFER;
  a[1].data = out;
  a[1].bytes = 16384;
  a[2].kind = a[3].kind = TC5_PTX_ARG_VALUE;
  a[2].size = a[3].size = 4;
  a[3].bits = 4096;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, a, 4, NULL, &dg), TC5_EBOUNDS);
  assert_true(has(&dg, "leave the CTA's shared memory"));
  assert_true(has(&dg, "t.ptx:12:"));
  assert_true(has(&dg, "thread (0,0,0)"));
  tc5_ptx_free(m);
  /* the map's buffer is not a buffer argument */
  assert_int_equal(run_tma(bf16map, 0, 4096, 2, out, &dg), TC5_EINVAL);
  assert_true(has(&dg, "the tensor map's buffer, argument 3, is not a buffer"));
  /* a map cuTensorMapEncodeTiled rejects: the rule named */
  assert_int_equal(run_tma("type=bf16,dims=64x32,strides=120,box=64x32", 0, 4096, 1, out, &dg), TC5_EALIGN);
  assert_true(has(&dg, "globalStrides[0] = 120 is not a multiple of 16"));
  assert_true(has(&dg, "the tensor map was rejected"));
}

/* a tensor map to a parameter that is neither 128 bytes nor a pointer, or
 * not aligned to 64 */
static void test_tmap_params(void **state) {
  (void)state;
  static const char *const kernels[] = {
      ".visible .entry k(.param .u32 tm) { ret; }\n",
      ".visible .entry k(.param .align 16 .b8 tm[128]) { ret; }\n",
      ".visible .entry k(.param .u64 tm) {\n .reg .b64 %rd<4>; .reg .b32 %r<4>;\n ld.param.u64 %rd1, [tm];\n"
      " prefetch.tensormap [%rd1];\n ld.global.u32 %r1, [%rd1+95];\n ret;\n}\n",
  };
  static const tc5_status want[] = {TC5_EINVAL, TC5_EALIGN, TC5_EALIGN};
  static const char *const msg[] = {"a tensor map is passed in 128 bytes", "needs .align 64", "not aligned"};
  static uint8_t buf[4096];
  for (unsigned k = 0; k < 3; k++) {
    tc5_ptx_module *m = load(kernels[k]);
    tc5_ptx_arg a[2];
    memset(a, 0, sizeof a);
    a[0].kind = TC5_PTX_ARG_TENSORMAP;
    assert_int_equal(tc5_tmap_params_parse(bf16map, &a[0].tmap, NULL, NULL, NULL), TC5_OK);
    a[0].data = buf; /* a buffer of its own */
    a[0].bytes = sizeof buf;
    tc5_ptx_launch_cfg cfg;
    tc5_ptx_launch_init(&cfg);
    tc5_diag dg;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_ptx_launch(m, &cfg, a, 1, NULL, &dg), want[k]);
    if (!has(&dg, msg[k])) fail_msg("kernel %u: '%s' not in '%s'", k, msg[k], dg.count ? dg.issue[0].message : "");
    tc5_ptx_free(m);
  }
}

/* clusters */
static tc5_status run_cluster(const char *body, uint32_t grid, uint32_t cluster, uint32_t block, uint32_t *out,
                              tc5_diag *dg) {
  tc5_ptx_module *m = load(body);
  tc5_ptx_arg a;
  memset(&a, 0, sizeof a);
  a.kind = TC5_PTX_ARG_BUFFER;
  a.data = out;
  a.bytes = 4096;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = grid;
  cfg.cluster[0] = cluster;
  cfg.block[0] = block;
  cfg.threads = 2;
  cfg.max_steps = 1u << 20;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_launch(m, &cfg, &a, 1, NULL, dg);
  tc5_ptx_free(m);
  return st;
}

#define CK(code)                                                                                  \
  ".visible .entry k(.param .u64 out) {\n .reg .pred %p<4>; .reg .b16 %rs<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n" \
  " .shared .align 8 .b64 bar; .shared .align 4 .b32 word; .shared .align 16 .b8 buf[64];\n"       \
  " ld.param.u64 %rd1, [out];\n"                                                                 \
  " mov.u32 %r1, %cluster_ctarank; mov.u32 %r2, %cluster_nctarank; mov.u32 %r3, %ctaid.x;\n" code \
  "\n ret;\n}\n"

static void test_cluster(void **state) {
  (void)state;
  static uint32_t out[1024];
  tc5_diag dg;
  /* the special registers, and a word written into the next CTA's shared memory */
  const char *ring = CK(" mov.u32 %r4, word; add.u32 %r5, %r1, 1; rem.u32 %r5, %r5, %r2;"
                        " mapa.shared::cluster.u32 %r6, %r4, %r5; add.u32 %r7, %r3, 100;"
                        " st.shared::cluster.u32 [%r6], %r7; barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;"
                        " ld.shared.u32 %r8, [word]; mul.wide.u32 %rd2, %r3, 16; add.s64 %rd3, %rd1, %rd2;"
                        " getctarank.shared::cluster.u32 %r9, %r6; mov.u32 %r10, %clusterid.x;"
                        " st.global.v4.u32 [%rd3], {%r1, %r8, %r9, %r10};");
  memset(out, 0, sizeof out);
  assert_int_equal(run_cluster(ring, 8, 4, 32, out, &dg), TC5_OK);
  for (unsigned c = 0; c < 8; c++) {
    unsigned rank = c % 4, prev = c / 4 * 4 + (rank + 3) % 4;
    assert_int_equal(out[4 * c], rank);
    assert_int_equal(out[4 * c + 1], prev + 100);
    assert_int_equal(out[4 * c + 2], (rank + 1) % 4);
    assert_int_equal(out[4 * c + 3], c / 4);
  }
  /* the launch's rules */
  assert_int_equal(run_cluster(ring, 6, 4, 32, out, &dg), TC5_EINVAL);
  assert_true(has(&dg, "grid x (6) is not a multiple of the cluster's 4"));
  assert_int_equal(run_cluster(ring, 32, 32, 32, out, &dg), TC5_EINVAL);
  assert_true(has(&dg, "at most 16 CTAs"));
  const char *req = ".visible .entry k(.param .u64 out) .reqnctapercluster 2, 1, 1 { ret; }\n";
  assert_int_equal(run_cluster(req, 4, 4, 32, out, &dg), TC5_EINVAL);
  assert_true(has(&dg, "requires .reqnctapercluster 2,1,1"));
  assert_int_equal(run_cluster(req, 4, 0, 32, out, &dg), TC5_OK); /* the entry's clusters */
  /* instruction errors */
  assert_int_equal(run_cluster(CK(" barrier.cluster.wait;"), 2, 2, 32, out, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "barrier.cluster.wait without a barrier.cluster.arrive"));
  assert_int_equal(run_cluster(CK(" barrier.cluster.arrive; barrier.cluster.arrive;"), 2, 2, 32, out, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "arrive twice"));
  /* mapa to a rank past the cluster is an address (compilers hoist it above the rank's test); using it is an error */
  assert_int_equal(run_cluster(CK(" mov.u32 %r4, word; mapa.shared::cluster.u32 %r6, %r4, 2;"), 2, 2, 32, out, &dg),
                   TC5_OK);
  assert_int_equal(run_cluster(CK(" mov.u32 %r4, word; mov.u32 %r7, 1000; mapa.shared::cluster.u32 %r6, %r4, %r7;"), 2, 2,
                               32, out, &dg),
                   TC5_OK);
  assert_int_equal(run_cluster(CK(" mov.u32 %r4, word; mapa.shared::cluster.u32 %r6, %r4, 2;"
                                  " ld.shared::cluster.u32 %r5, [%r6];"),
                               2, 2, 32, out, &dg),
                   TC5_EBOUNDS);
  assert_true(has(&dg, "names no CTA of the cluster"));
  assert_int_equal(run_cluster(CK(" mov.u32 %r4, word; mov.u32 %r7, 256; mapa.shared::cluster.u32 %r6, %r4, %r7;"
                                  " ld.shared::cluster.u32 %r5, [%r6];"),
                               2, 2, 32, out, &dg),
                   TC5_EBOUNDS);
  assert_int_equal(run_cluster(CK(" mov.u32 %r4, 0x3000400; ld.shared::cluster.u32 %r5, [%r4];"), 2, 2, 32, out, &dg),
                   TC5_EBOUNDS);
  assert_true(has(&dg, "names no CTA of the cluster"));
  assert_int_equal(run_cluster(CK(" mov.u32 %r4, word; mapa.shared::cluster.u32 %r6, %r4, 1; ld.shared.u32 %r5, [%r6];"), 2,
                               2, 32, out, &dg),
                   TC5_EBOUNDS);
  assert_true(has(&dg, "a .shared::cta access names its own CTA"));
  assert_int_equal(run_cluster(CK(" mov.u32 %r4, bar; mapa.shared::cluster.u32 %r6, %r4, 1;"
                                  " mbarrier.try_wait.parity.shared::cluster.b64 %p1, [%r6], 0;"),
                               2, 2, 32, out, &dg),
                   TC5_EILLEGAL);
  assert_true(has(&dg, "a wait on another CTA's mbarrier"));
  /* CTA 0's mbarrier wants two arrivals; CTA 1 gives one: a deadlock naming the CTA */
  const char *short_arrive = CK(" mov.u32 %r4, bar; setp.eq.u32 %p1, %r1, 0; mov.u32 %r5, 2;"
                                " @%p1 mbarrier.init.shared.b64 [%r4], %r5;"
                                " barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;"
                                " @%p1 bra WAIT;"
                                " mapa.shared::cluster.u32 %r6, %r4, 0;"
                                " mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r6];"
                                " bra DONE;"
                                "WAIT: mbarrier.try_wait.parity.shared.b64 %p2, [%r4], 0; @!%p2 bra WAIT;"
                                "DONE:");
  assert_int_equal(run_cluster(short_arrive, 2, 2, 1, out, &dg), TC5_ESTATE);
  assert_true(has(&dg, "CTA (0,0,0) warp 0 waits at line"));
  assert_true(has(&dg, "phase 0 has 1 of 2 arrivals"));
}

/* shared addresses in a cluster are (rank << 24) | offset, a CTA's own
 * included (the H100: gpu/cluster_addr.cu); and the .cta_group::2
 * allocation instructions of a CTA pair, one warp of each CTA */
static void test_cta_pair(void **state) {
  (void)state;
  static uint32_t out[1024];
  tc5_diag dg;
  memset(out, 0, sizeof out);
  const char *addr = CK(" mov.u32 %r4, word; mapa.shared::cluster.u32 %r6, %r4, 0; cvta.shared.u64 %rd4, word;"
                        " cvta.to.shared.u64 %rd5, %rd4; cvt.u32.u64 %r7, %rd5;"
                        " mul.wide.u32 %rd2, %r3, 16; add.s64 %rd3, %rd1, %rd2; st.global.v4.u32 [%rd3], {%r4, %r6, %r7, %r1};");
  assert_int_equal(run_cluster(addr, 4, 4, 32, out, &dg), TC5_OK);
  for (unsigned c = 0; c < 4; c++) {
    uint32_t off = out[4 * 0 + 1]; /* rank 0's address of word is its offset */
    assert_true(off >= 0x400 && off < 0x1000000);
    assert_int_equal(out[4 * c], c << 24 | off);
    assert_int_equal(out[4 * c + 1], off);
    assert_int_equal(out[4 * c + 2], c << 24 | off);
  }
  /* alloc / relinquish / dealloc by warp 0 of each CTA: the same columns in both */
#define PAIR(code) CK(" mov.u32 %r4, word;" code)
  const char *pair = PAIR(" tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r4], 64;"
                          " tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;"
                          " ld.shared.u32 %r5, [word]; mul.wide.u32 %rd2, %r3, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r5;"
                          " tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r5, 64;");
  memset(out, 0xff, sizeof out);
  assert_int_equal(run_cluster(pair, 4, 2, 32, out, &dg), TC5_OK);
  for (unsigned c = 0; c < 4; c++) assert_int_equal(out[c], 0);
  /* errors: no peer; a peer that never comes; disagreeing warps; mixed groups */
  assert_int_equal(run_cluster(pair, 2, 1, 32, out, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "[cta-pair] .cta_group::2 needs a CTA pair"));
  assert_true(has(&dg, "has no peer in a cluster of 1 CTA"));
  const char *lonely = PAIR(" setp.ne.u32 %p1, %r1, 0; @%p1 bra DONE;"
                            " tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r4], 32;"
                            " ld.shared.u32 %r5, [word]; tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r5, 32; DONE:");
  assert_int_equal(run_cluster(lonely, 2, 2, 32, out, &dg), TC5_ESTATE);
  assert_true(has(&dg, "[cta-pair] deadlock"));
  assert_true(has(&dg, "for a warp of its peer CTA (rank 1) to execute it too (it has exited)"));
  const char *ncols = PAIR(" mov.u32 %r5, 32; shl.b32 %r5, %r5, %r1;"
                           " tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r4], %r5;");
  assert_int_equal(run_cluster(ncols, 2, 2, 32, out, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "taddr 0x0, nCols 32; this one taddr 0x0, nCols 64: the pair must agree"));
  const char *which = PAIR(" setp.eq.u32 %p1, %r1, 0;"
                           " @%p1 tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r4], 32;"
                           " @!%p1 tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;");
  assert_int_equal(run_cluster(which, 2, 2, 32, out, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "waits in tcgen05.alloc"));
  assert_true(has(&dg, "must execute the same one"));
  const char *mixed = PAIR(" tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r4], 32;"
                           " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  assert_int_equal(run_cluster(mixed, 2, 2, 32, out, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "must specify the same .cta_group"));
#undef PAIR
}

/* clusterlaunchcontrol: try_cancel takes clusters not yet launched (one
 * host thread: CTA 0 takes every other CTA's work), query_cancel reads the
 * .b128 response; get_first_ctaid of a refusal is an error */
static tc5_status run_clc(const char *src, unsigned threads, uint32_t *out, tc5_diag *dg) {
  tc5_ptx_module *m = load(src);
  tc5_ptx_arg a;
  memset(&a, 0, sizeof a);
  a.kind = TC5_PTX_ARG_BUFFER;
  a.data = out;
  a.bytes = 4096;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = 4;
  cfg.block[0] = 1;
  cfg.threads = threads;
  tc5_diag_init(dg);
  tc5_status st = tc5_ptx_launch(m, &cfg, &a, 1, NULL, dg);
  tc5_ptx_free(m);
  return st;
}
#define CLC(tail)                                                                                              \
  ".visible .entry k(.param .u64 out) {\n .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .b128 %q1;\n" \
  " .shared .align 16 .b8 resp[16]; .shared .align 8 .b64 bar;\n ld.param.u64 %rd1, [out];\n"                   \
  " mov.u32 %r1, %ctaid.x; mov.u32 %r2, %r1; mov.u32 %r3, bar; mov.u32 %r4, resp; mov.u32 %r9, 0;\n"            \
  " mbarrier.init.shared.b64 [%r3], 1;\n"                                                                        \
  "LOOP: mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2; atom.global.add.u32 %r5, [%rd3], 1;\n"             \
  " st.global.u32 [%rd3+64], %r1;\n"                                                                             \
  " mbarrier.arrive.expect_tx.shared.b64 _, [%r3], 16;\n"                                                        \
  " clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%r4], [%r3];\n"         \
  "WAIT: mbarrier.try_wait.parity.shared.b64 %p1, [%r3], %r9; @!%p1 bra WAIT; xor.b32 %r9, %r9, 1;\n"           \
  " ld.shared.b128 %q1, [%r4];\n clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p2, %q1;\n" tail       \
  "DONE: ret;\n}\n"
static void test_clc(void **state) {
  (void)state;
  static uint32_t out[1024];
  tc5_diag dg;
  const char *steal = CLC(" @!%p2 bra DONE;\n"
                          " clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r2, %r6, %r7, _}, %q1;\n"
                          " bra LOOP;\n");
  for (unsigned threads = 1; threads <= 2; threads++) {
    memset(out, 0, sizeof out);
    assert_int_equal(run_clc(steal, threads, out, &dg), TC5_OK);
    for (unsigned c = 0; c < 4; c++) assert_int_equal(out[c], 1); /* each CTA's work done once */
    if (threads == 1)
      for (unsigned c = 0; c < 4; c++) assert_int_equal(out[16 + c], 0); /* all by CTA 0 */
  }
  const char *ask = CLC(" @!%p2 bra BAD;\n"
                        " clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r2, %r6, %r7, _}, %q1;\n"
                        " bra LOOP;\n"
                        "BAD: clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %r2, %q1;\n");
  memset(out, 0, sizeof out);
  /* the request that finds nothing left: its ctaid is undefined, read as
   * 0xffffffff (Gluon's scheduler reads it before is_canceled and ignores it) */
  assert_int_equal(run_clc(ask, 1, out, &dg), TC5_OK);
}

/* cp.async.bulk .cp_mask (sm_100: no H100 check): byte i of each 16-byte
 * piece is copied when bit i of the mask is set; and a reduction into
 * shared memory the ISA does not have */
static void test_bulk_forms(void **state) {
  (void)state;
  static uint32_t out[1024];
  tc5_diag dg;
  const char *masked = CK(" mov.u32 %r4, buf; mov.u32 %r5, 0x04030201; st.shared.u32 [%r4], %r5;"
                          " mov.u32 %r5, 0x08070605; st.shared.u32 [%r4+4], %r5; st.shared.u32 [%r4+8], %r5; st.shared.u32 [%r4+12], %r5;"
                          " fence.proxy.async.shared::cta; mov.u16 %rs1, 0x0f0f;"
                          " cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r4], 16, %rs1;"
                          " cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;");
  memset(out, 0xee, sizeof out);
  assert_int_equal(run_cluster(masked, 1, 1, 1, out, &dg), TC5_OK);
  assert_int_equal(out[0], 0x04030201); /* bytes 0-3: bits 0-3 */
  assert_int_equal(out[1], 0xeeeeeeee); /* bytes 4-7: bits 4-7 clear */
  assert_int_equal(out[2], 0x08070605);
  assert_int_equal(out[3], 0xeeeeeeee);
  const char *bad = CK(" mov.u32 %r4, buf; mov.u32 %r6, bar;"
                       " cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.xor.b64 [%r4], [%r4], 16, [%r6];");
  tc5_ptx_module *m = NULL;
  char text[4096];
  snprintf(text, sizeof text, ".version 8.7\n.target sm_90a\n.address_size 64\n%s", bad);
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_load(text, strlen(text), "t.ptx", &m, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, ".xor.b64 is no reduction into .shared::cluster"));
}

/* reductions into global memory from CTAs on different host threads are
 * atomic: 32 CTAs, each adding 1 to four words 200 times by
 * cp.reduce.async.bulk and 200 times by cp.reduce.async.bulk.tensor (a
 * lost update once cost FA4's backward part of dQ on a many-core machine) */
static void test_reduce_threads(void **state) {
  (void)state;
  static const char *src =
      ".visible .entry k(.param .align 64 .b8 tm[128], .param .u64 out) {\n"
      " .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n"
      " .shared .align 128 .b8 buf[16];\n"
      " ld.param.u64 %rd1, [out]; mov.b64 %rd2, tm; cvta.param.u64 %rd3, %rd2;\n"
      " mov.u32 %r4, buf; mov.u32 %r5, 1;\n"
      " st.shared.v4.u32 [%r4], {%r5, %r5, %r5, %r5}; fence.proxy.async.shared::cta; mov.u32 %r6, 0; mov.u32 %r7, 0;\n"
      "LOOP: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r4], 16;\n"
      " cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd3, {%r7}], [%r4];\n"
      " add.u32 %r6, %r6, 1; setp.lt.u32 %p1, %r6, 200; @%p1 bra LOOP;\n"
      " cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;\n"
      " ret;\n}\n";
  tc5_ptx_module *m = load(src);
  static uint32_t out[8];
  memset(out, 0, sizeof out);
  tc5_ptx_arg a[2];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_TENSORMAP;
  assert_int_equal(tc5_tmap_params_parse("type=u32,dims=4,box=4", &a[0].tmap, NULL, NULL, NULL), TC5_OK);
  a[0].buffer = 1; /* the buffer argument's index: the map reduces into out[0..3] too */
  a[1].kind = TC5_PTX_ARG_BUFFER;
  a[1].data = (uint8_t *)out;
  a[1].bytes = sizeof out;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.grid[0] = 32;
  cfg.threads = 8;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_ptx_launch(m, &cfg, a, 2, NULL, &dg);
  if (st) fail_msg("%s", dg.count ? dg.issue[0].message : tc5_strerror(st));
  tc5_ptx_free(m);
  for (unsigned k = 0; k < 4; k++) assert_int_equal(out[k], 32 * 400);
}

/* a struct passed by value (TC5_PTX_ARG_BYTES) holding the address of a
 * buffer that is no parameter (TC5_PTX_ARG_GLOBAL): buffers get their
 * addresses in argument order from 0x200000000 */
static void test_struct_param(void **state) {
  (void)state;
  tc5_ptx_module *m = load(".visible .entry k(.param .align 8 .b8 s[16]) {\n .reg .b64 %rd<4>; .reg .b32 %r<4>;\n"
                           " ld.param.u64 %rd1, [s]; ld.param.u32 %r1, [s+8]; st.global.u32 [%rd1+4], %r1;\n ret;\n}\n");
  uint32_t out[4] = {0, 0, 0, 0};
  struct { uint64_t p; uint32_t v, pad; } st = {0x200000000ull, 77, 0};
  tc5_ptx_arg a[2];
  memset(a, 0, sizeof a);
  a[0].kind = TC5_PTX_ARG_GLOBAL;
  a[0].data = out;
  a[0].bytes = sizeof out;
  a[1].kind = TC5_PTX_ARG_BYTES;
  a[1].data = &st;
  a[1].bytes = sizeof st;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  tc5_diag dg;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, a, 2, NULL, &dg), TC5_OK);
  assert_int_equal(a[0].device_address, 0x200000000ull);
  assert_int_equal(out[1], 77);
  a[1].bytes = 8; /* the .param is 16 */
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, a, 2, NULL, &dg), TC5_EINVAL);
  assert_true(has(&dg, "parameter 1 (s) is 16 bytes; the argument's bytes are 8"));
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, a, 1, NULL, &dg), TC5_EINVAL); /* no parameter given */
  assert_true(has(&dg, "has 1 parameters; 0 arguments were given"));
  tc5_ptx_free(m);
}

/* brx.idx through a .branchtargets table (Triton's warp-specialized
 * kernels switch on the warp's role this way), and bar.warp.sync */
static void test_branch_table(void **state) {
  (void)state;
  static uint32_t out[1024];
  tc5_diag dg;
  const char *sw = ".visible .entry k(.param .u64 out, .param .u32 mod) {\n"
                   " .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n"
                   " ld.param.u64 %rd1, [out]; ld.param.u32 %r9, [mod]; mov.u32 %r1, %tid.x; rem.u32 %r2, %r1, %r9;\n"
                   "TAB:\n .branchtargets L0, L1, L2;\n"
                   " brx.idx %r2, TAB;\n"
                   "L0: mov.u32 %r3, 100; bra.uni DONE;\n"
                   "L1: mov.u32 %r3, 200; bra.uni DONE;\n"
                   "L2: mov.u32 %r3, 300;\n"
                   "DONE: bar.warp.sync -1;\n"
                   " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r3;\n ret;\n}\n";
  /* mod 3 and 4; then 3 with a .func before the entry: the table's labels
   * are the entry's, which no longer starts at instruction 0 (the
   * allocation-failure test's kernel found brx.idx jumping into the .func) */
  for (uint32_t run = 0; run < 3; run++) {
    uint32_t mod = run == 1 ? 4 : 3;
    static char text[2048];
    snprintf(text, sizeof text, "%s%s", run == 2 ? ".func f() {\n ret;\n}\n.func g() {\n ret;\n}\n" : "", sw);
    memset(out, 0, sizeof out);
    tc5_ptx_module *m = load(text);
    tc5_ptx_arg a[2];
    memset(a, 0, sizeof a);
    a[0].kind = TC5_PTX_ARG_BUFFER;
    a[0].data = out;
    a[0].bytes = sizeof out;
    a[1].kind = TC5_PTX_ARG_VALUE;
    a[1].size = 4;
    a[1].bits = mod;
    tc5_ptx_launch_cfg cfg;
    tc5_ptx_launch_init(&cfg);
    cfg.block[0] = 64;
    cfg.max_steps = 1u << 16; /* a wrong jump loops: stopped as a hang */
    tc5_diag_init(&dg);
    tc5_status st = tc5_ptx_launch(m, &cfg, a, 2, NULL, &dg);
    tc5_ptx_free(m);
    if (mod == 3) {
      assert_int_equal(st, TC5_OK);
      for (unsigned t = 0; t < 64; t++) assert_int_equal(out[t], 100 * (t % 3 + 1));
    } else {
      assert_int_equal(st, TC5_EILLEGAL); /* index 3 of a table of 3 */
      assert_true(has(&dg, "index 3 is past the table's 3 targets"));
    }
  }
  /* bar.warp.sync naming a thread that is not there */
  tc5_ptx_module *m = load(".visible .entry k(.param .u64 out) {\n bar.warp.sync 0xffffffff;\n ret;\n}\n");
  tc5_ptx_arg a;
  memset(&a, 0, sizeof a);
  a.kind = TC5_PTX_ARG_BUFFER;
  a.data = out;
  a.bytes = sizeof out;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.block[0] = 16;
  tc5_diag_init(&dg);
  assert_int_equal(tc5_ptx_launch(m, &cfg, &a, 1, NULL, &dg), TC5_EILLEGAL);
  assert_true(has(&dg, "names threads that have exited"));
  tc5_ptx_free(m);
  /* a table without its label, brx.idx of something else */
  static const char *const bad[] = {
      ".visible .entry k() {\n .branchtargets L0;\nL0: ret;\n}\n",
      ".visible .entry k() {\n .reg .b32 %r<2>;\n mov.u32 %r1, 0;\n brx.idx %r1, L0;\nL0: ret;\n}\n",
  };
  for (unsigned k = 0; k < 2; k++) {
    char text[512];
    snprintf(text, sizeof text, ".version 8.7\n.target sm_90a\n.address_size 64\n%s", bad[k]);
    tc5_ptx_module *mm = NULL;
    tc5_diag_init(&dg);
    assert_int_equal(tc5_ptx_load(text, strlen(text), "t.ptx", &mm, &dg), TC5_EPARSE);
    assert_true(has(&dg, k ? "must name a .branchtargets table" : "needs a label just before it"));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tma_runs),
      cmocka_unit_test(test_tma_errors),
      cmocka_unit_test(test_tmap_params),
      cmocka_unit_test(test_replace_stride_units),
      cmocka_unit_test(test_cluster),
      cmocka_unit_test(test_cta_pair),
      cmocka_unit_test(test_clc),
      cmocka_unit_test(test_struct_param),
      cmocka_unit_test(test_bulk_forms),
      cmocka_unit_test(test_reduce_threads),
      cmocka_unit_test(test_branch_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
