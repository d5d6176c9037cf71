/* tc5 timing model — internal structures (src/timing only). */
#ifndef TC5_TIMING_IMPL_H
#define TC5_TIMING_IMPL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "timing/timing_event.h"

typedef struct tm_param_row {
  const char *name;
  double value;
  const char *unit, *prov;
} tm_param_row;

/* every parameter the model reads (the .def rows' names) */
#define TM_FIELDS                                                                                           \
  TM_FIELD(sm_count) TM_FIELD(clock_ghz) TM_FIELD(hbm_bytes_per_s) TM_FIELD(hbm_efficiency) TM_FIELD(hbm_write_efficiency) TM_FIELD(l2_bytes) \
  TM_FIELD(l2_bytes_per_clk) TM_FIELD(l2_latency) TM_FIELD(dram_latency) TM_FIELD(smem_per_sm)               \
  TM_FIELD(smem_per_cta_reserved) TM_FIELD(regs_per_sm) TM_FIELD(reg_alloc_unit) TM_FIELD(max_threads_per_sm) \
  TM_FIELD(max_ctas_per_sm) TM_FIELD(schedulers) TM_FIELD(issue_int) TM_FIELD(issue_fp32)                    \
  TM_FIELD(issue_fp16x2) TM_FIELD(issue_fp64) TM_FIELD(issue_sfu) TM_FIELD(issue_conv) TM_FIELD(issue_conv_float) TM_FIELD(issue_other) TM_FIELD(issue_shfl) \
  TM_FIELD(lat_alu) TM_FIELD(lat_fp64) TM_FIELD(lat_sfu) TM_FIELD(lat_conv) TM_FIELD(lat_shfl)               \
  TM_FIELD(lat_smem) TM_FIELD(smem_bytes_per_clk) TM_FIELD(lat_atomic) TM_FIELD(lat_local) TM_FIELD(lat_bar) TM_FIELD(lat_bar_per_warp) \
  TM_FIELD(lat_mbar) TM_FIELD(tma_latency) TM_FIELD(tma_latency_dram) TM_FIELD(tma_bytes_per_clk) TM_FIELD(cp_async_bytes_per_clk_cta) TM_FIELD(cp_async_latency_l2) TM_FIELD(cp_async_latency_dram) TM_FIELD(tc_flops_per_clk)            \
  TM_FIELD(tc_tf32_scale) TM_FIELD(tc_fp8_scale) TM_FIELD(tc_fp4_scale) TM_FIELD(tc_int8_scale)              \
  TM_FIELD(tc_fp64_scale) TM_FIELD(mma_latency) TM_FIELD(tmem_ld_latency) TM_FIELD(tmem_bytes_per_clk) TM_FIELD(tc_floor_clk) TM_FIELD(tc_floor_n_per_clk)       \
  TM_FIELD(cta_launch) TM_FIELD(launch_overhead_us) TM_FIELD(l2_resident_bytes)                          \
  TM_FIELD(mma_sync_flops_per_clk) TM_FIELD(mma_sync_latency) TM_FIELD(l2_write_bytes_per_clk) TM_FIELD(issue_from_sass) \
  TM_FIELD(issue_queue) TM_FIELD(issue_fsel) TM_FIELD(fsel_alu_pipe) TM_FIELD(pipe_dispatch) TM_FIELD(ptxas_order) TM_FIELD(imad_pipe) \
  TM_FIELD(tmem_cols_per_sm) TM_FIELD(sfu_fp32_clk) TM_FIELD(stall_sched) TM_FIELD(mem_space_order) TM_FIELD(tc_queue)

typedef struct tm_params {
  const char *gpu;
#define TM_FIELD(f) double f;
  TM_FIELDS
#undef TM_FIELD
} tm_params;
tc5_status tm_params_load(const char *gpu, tm_params *p);

/* occupancy (occupancy.c); with the tools ptxas's answers need (occupancy.c, sass_weights.c): a command's
 * output, a hash key, an executable on the path, a cache file */
int tm_popen(const char *cmd, char **out);
uint64_t tm_fnv(const char *s, size_t n, uint64_t h);
const char *tm_find_exe(const char *env, const char *name, const char *beside, char *buf, size_t cap);
void tm_cache_path(const char *sub, uint64_t h, char *dir, size_t dcap, char *file, size_t fcap);
void tm_mkdirs(const char *dir);
typedef struct tm_occupancy {
  uint32_t ctas;        /* CTAs per SM */
  const char *limit;    /* what limits it */
  uint32_t tmem_cols;   /* Tensor Memory columns counted per CTA (tm_occupancy_tmem; 0: none) */
} tm_occupancy;
void tm_occupancy_of(const tm_params *p, uint32_t threads, uint32_t smem, uint32_t regs, uint32_t cluster,
                     tm_occupancy *o);
/* occupancy.c: o bounded by the Tensor Memory a CTA holds, `cols` columns (0: none; unknown: not
 * constant, the whole Tensor Memory assumed; a table without tmem_cols_per_sm: no bound) (t47u) */
void tm_occupancy_tmem(const tm_params *p, uint32_t cols, bool unknown, tm_occupancy *o);

/* the per-launch derived rates a CTA's simulation uses */
typedef struct tm_rates {
  double share;          /* co-resident CTAs sharing an SM's units (>= 1) */
  double tma_bpc;        /* TMA bytes per cycle for one CTA (engine and L2 share) */
  double l2_bpc;         /* one SM's share of L2 bandwidth, bytes per cycle */
  double cp_bpc;         /* one CTA's cp.async input rate: min(cp_async_bytes_per_clk_cta, l2_bpc / share) */
  double cp_latency;     /* cp.async's latency, issue to landing (L2 hit/miss mix as gmem_latency) */
  double gmem_latency;   /* ld.global latency (L2 hit/miss mix) */
  double tma_load_latency; /* a TMA load's latency: tma_latency, or for a footprint beyond L2 the mean of it and
                              tma_latency_dram (the L2 hit/miss mix as gmem_latency; t47u) */
} tm_rates;

/* a trace event (trace.c) */
typedef struct tm_event {
  double ts, dur;        /* cycles from the CTA's start */
  const char *name;
  uint32_t tid;          /* warp, or TM_TID_* */
  char ph;               /* 'X' span, 's'/'f' flow */
  uint32_t id;           /* flow id */
  uint32_t line, line2;  /* span: the PTX lines it covers */
} tm_event;
enum { TM_TID_TMA = 1000, TM_TID_MMA, TM_TID_TMEM, TM_TID_SFU, TM_TID_CP };
typedef struct tm_evbuf {
  tm_event *e;
  size_t n, cap;
  bool full;
} tm_evbuf;
void tm_ev_add(tm_evbuf *b, const tm_event *e);
struct tm_cta;
void tm_sfu_flush(struct tm_cta *t); /* warp_clock.c: the SFU track's open span */

/* a group FIFO (cp.async, bulk, per warp): cumulative completion times */
typedef struct tm_groups {
  double cur;            /* the open group's latest completion */
  double done[32];       /* committed groups, cumulative max, by count % 32 */
  uint32_t n;            /* groups committed */
} tm_groups;

typedef struct tm_warp {
  double clock;          /* cycles: when its next instruction can issue (every instruction so far dispatched) */
  double front;          /* ptxas_order (t47s): the in-order front of its register arithmetic; <= clock */
  double st_at[2];       /* mem_space_order (t47z): when its latest shared [0] / global [1] store issued */
  double span_start;     /* trace: the open span's start (<0: none) */
  uint32_t span_line;
  const char *span_name;
  tm_groups cp, bulk;
  uint32_t wg_issued;    /* wgmma.mma_async executed */
  uint32_t wg_bound[32]; /* wgmma.commit_group: wg_issued at each, by count % 32 */
  uint32_t wg_groups;
  double tmem_ld, tmem_st; /* tcgen05.ld / st outstanding until */
  double *ready;         /* per register (reg_lo .. reg_hi): ready time */
  double pending_wait;   /* a flow's end to emit: the wait's time (<0: none) */
  uint32_t pending_flow;
} tm_warp;

/* a scheduler's dispatch calendar (t47b2): which cycles of a sliding
 * window of TM_CAL_BITS already dispatch a warp-instruction (one a cycle) */
#define TM_CAL_WORDS 64
#define TM_CAL_BITS (TM_CAL_WORDS * 64)
#define TM_CAL_SCHED 8
typedef struct tm_cal {
  uint64_t base;             /* the window: cycles [base, base + TM_CAL_BITS), bit t % TM_CAL_BITS */
  uint64_t bits[TM_CAL_WORDS];
} tm_cal;
/* warp_clock.c: the first cycle >= start whose dispatch slot is free, taken */
double tm_cal_take(tm_cal *c, double start);
/* the pipes a scheduler keeps a busy calendar of (t47p): a class whose
 * pipe is busy more than one clock a warp-instruction (tm_pipe_slot) */
enum { TM_PS_INT, TM_PS_FP32, TM_PS_FP64, TM_PS_SFU, TM_PS_CONV, TM_PS_SHFL, TM_PS_MMA_SYNC, TM_PS_IMAD, TM_PS_COUNT };
int tm_pipe_slot(unsigned pipe); /* warp_clock.c: a pipe's calendar (TM_PS_*), or -1: none */
/* warp_clock.c: the first cycle >= start whose dispatch slot is free and
 * whose pipe is free for `busy` cycles from it, both taken */
double tm_dispatch_take(tm_cal *dispatch, tm_cal *pipe, double start, unsigned busy);

typedef struct tm_cta {
  struct tm_launch *l;
  uint32_t nwarps, rank;
  uint64_t cluster, linear;
  tm_warp *w;
  double *ready;         /* nwarps x nregs */
  double bar[16];        /* bar.sync: the latest arrival of the phase in progress */
  double tc_free, tc_done; /* the tensor core: free from, the last MMA's completion */
  double tma_free;       /* the TMA engine: free from */
  tm_cal cal[TM_CAL_SCHED]; /* each scheduler's dispatch slots (warp w on scheduler w % schedulers) */
  tm_cal pcal[TM_CAL_SCHED][TM_PS_COUNT]; /* each scheduler's pipes' busy cycles (t47p) */
  double wg_done[8][64]; /* wgmma per warpgroup: cumulative completion by sequence % 64 */
  uint32_t wg_seq[8];
  uint32_t tc_src;       /* trace: the last MMA's event id */
  /* work (cycles of the unit, unscaled by sharing) and bytes */
  double work[TC5_TU_COUNT]; /* TC5_TU_ISSUE: dispatch, one slot a warp-instruction */
  double pipe[TM_C_COUNT];  /* each class's pipe: issue cost / schedulers */
  double gmem_bytes, flops;
  double cp_bytes;       /* of gmem_bytes: cp.async (one CTA's cp.async rate cap) */
  double gst_bytes;      /* of gmem_bytes: st.global (HBM write efficiency) */
  double end;            /* the last warp's exit */
  double sfu_s, sfu_e;   /* trace: the SFU's open span (merged while busy; sfu_e < 0: none) */
  uint32_t sfu_line;
  uint32_t next_id;      /* trace ids */
  tm_evbuf ev;
} tm_cta;
double tm_fp32_lanes(const tm_insn *ti); /* warp_clock.c: 2 for an .f32x2 instruction, else 1 */
int tm_order_of(unsigned cls); /* warp_clock.c: the order a class keeps under ptxas_order (TM_ORD_*: 0 flush, 1 front, 2 float) */
unsigned tm_pipe_of(const tm_params *p, unsigned cls); /* warp_clock.c: the pipe a class's issue occupies (TM_C_FSEL: TM_C_INT's where fsel_alu_pipe) */

typedef struct tm_launch {
  tm_params p;
  tm_setup s;
  tm_rates rates;
  tm_occupancy occ;
  uint64_t nrun;          /* clusters run */
  uint64_t *pick;         /* which (NULL: all) */
  uint64_t gx;            /* sampled by grid column (dimension 0) of gx columns; 0: by linear index */
  bool l2_cold;           /* TC5_TIMING_L2=cold: the launch finds nothing in L2 (default warm) */
  double *dur;            /* per run cluster: its duration (cycles), by run index */
  double *dpath, *dunit;  /* per run cluster: its critical path, and its units' work per CTA unshared (the tail's share) */
  double *dissue;         /* per run cluster: its issue slot's work per CTA (tm_issue_queue's station; t47r) */
  double *dtensor;        /* per run cluster: its tensor-core cycles per CTA, unshared (tc_queue's second station; t47z) */
  double work[TC5_TU_COUNT], gmem_bytes, flops; /* sums over the run clusters */
  double gst_bytes;       /* of gmem_bytes: stores */
  double pipe[TM_C_COUNT];
  uint64_t ran;           /* clusters finished */
  /* the trace: every run CTA's events with its cluster index */
  struct tm_trace_cta {
    uint64_t cluster, linear;
    uint32_t rank;
    tm_event *e;
    size_t n;
  } *tc;
  size_t ntc, tc_cap;
  bool trace_full;
  float *issue_w;         /* per instruction: the SASS instructions ptxas made of it (sass_weights.c); NULL: 1 each */
  float *issue_stall;     /* per instruction: its SASS's stall counts (ptxas's schedule, sass_weights.c; < 0: unknown);
                             NULL: not known or the table's stall_sched off */
} tm_launch;

/* trace.c: writes the JSON file; start[i]: cycle at which run cluster i starts */
tc5_status tm_trace_write(const tm_launch *l, const double *start_of_cluster_run, tc5_diag *diag);
/* launch_schedule.c: list scheduling of n jobs of durations d on `slots`
 * slots in order; returns the makespan, starts (may be NULL) get each start */
/* warp_clock.c: a tcgen05.mma's cycles on each SM it uses (the shape rule,
 * docs/timing.md "The tensor core") */
double tm_tcgen05_cycles(const tm_params *p, uint32_t m, uint32_t n, double flops, unsigned rate, unsigned cta_group);
/* warp_clock.c: bar.sync's latency releasing `warps` warps (docs/timing.md "bar.sync") */
double tm_bar_latency(const tm_params *p, unsigned warps);
/* launch_schedule.c: every cluster's duration (cta_launch included) from the run ones' */
void tm_launch_durations(const tm_launch *l, double *d);
double tm_list_schedule(const double *d, uint64_t n, uint64_t slots, double *starts);
/* launch_schedule.c: the same, slot k first free at (k / per_rank) x stagger (an SM's CTAs launched one after another) */
double tm_list_schedule_staggered(const double *d, uint64_t n, uint64_t slots, uint64_t per_rank, double stagger,
                                  double *starts);
/* launch_schedule.c: the last partial wave's durations at its own share (d: every cluster's) */
void tm_tail_durations(tm_launch *l, double *d, uint64_t slots);
/* a CTA of path P and issue work S with n co-resident CTAs on one issue slot (t47r; launch_schedule.c) */
double tm_issue_queue(double P, double S, double n, double beta);
/* launch_schedule.c: the same with the tensor core as a second station (tc_queue, t47z): demand T a CTA */
double tm_issue_tc_queue(double P, double S, double T, double n, double beta);
/* launch_schedule.c: DRAM bytes of the launch from its footprint and global traffic (L2 state, overflow) */
double tm_dram_bytes(const tm_launch *l, double traffic);
/* sass_weights.c: l->issue_w from l->s.sass (a PTX line's SASS count shared by the line's instructions) */
/* warp_clock.c: the class's SASS has a fixed latency (covered by ptxas's stall counts) */
bool tm_fixed_latency(unsigned cls);
tc5_status tm_sass_weights(tm_launch *l);
/* sass_weights.c: the text with one `.loc 1 N 0` before each instruction line N (false: no .address_size) */
bool tm_sass_write_loc(FILE *f, const char *ptx, size_t len, const char *version);
/* sass_weights.c: the control bits of a 128-bit SASS instruction, from its high 64-bit word */
typedef struct tm_sass_ctrl_t {
  unsigned stall, yield, wbar, rbar, wait, reuse;
} tm_sass_ctrl_t;
void tm_sass_ctrl(uint64_t hi, tm_sass_ctrl_t *c);
/* sass_weights.c: nvdisasm -g [-hex]'s listing: cnt[N] += the non-NOP SASS instructions under "line N" (N <= nlines),
 * stall[N] += their stall counts (stall NULL: not summed; needs -hex) */
void tm_sass_count(const char *dis, uint16_t *cnt, uint16_t *stall, uint32_t nlines);
/* launch_schedule.c: L2's cycles for `traffic` global bytes of which `stores` are stores */
double tm_l2_cycles(const tm_params *p, double traffic, double stores);

#endif
