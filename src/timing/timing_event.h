/* tc5 timing model — the events the runner hands over (issue 47).
 *
 * Like the checker (check/check_event.h), the model listens: the runner
 * describes each instruction once per launch (tm_insn: its timing class and
 * access width, next to the checker's chk_insn for its registers) and calls
 * the tm_* functions below at a few points, each guarded by one pointer
 * test (the CTA's tm is NULL with timing off). The model never calls back
 * into the runner and never reads opcode text; this header includes no
 * runner header. tm_cta and tm_launch are opaque to the runner. */
#ifndef TC5_TIMING_EVENT_H
#define TC5_TIMING_EVENT_H
#include <stdbool.h>
#include <stdint.h>
#include "check/check_event.h"
#include "tc5/status.h"
#include "tc5/timing.h"

/* an instruction's timing class: the opcode table's timing-class trait
 * (insn/insn_traits.h, issue 51), with the waits and commits of
 * asynchronous groups and loads/stores split out by the runner
 * (src/ptx/timing_class.c) */
typedef enum tm_class {
  TM_C_OTHER = 0,
  TM_C_INT, TM_C_FP32, TM_C_FP16X2, TM_C_FP64, TM_C_SFU, TM_C_CONV, TM_C_MOVE,
  TM_C_LD_SHARED, TM_C_ST_SHARED, TM_C_LD_GLOBAL, TM_C_ST_GLOBAL, TM_C_LOCAL, TM_C_ATOMIC,
  TM_C_SHFL, TM_C_BAR, TM_C_MBAR, TM_C_BRANCH, TM_C_FENCE,
  TM_C_TMA,            /* cp.async.bulk(.tensor), TMA loads/stores/prefetch              */
  TM_C_BULK_COMMIT,    /* cp.async.bulk.commit_group                                     */
  TM_C_BULK_WAIT,      /* cp.async.bulk.wait_group N                                     */
  TM_C_MMA,            /* tcgen05.mma, wgmma.mma_async (the unit's time: tm_mma)         */
  TM_C_WG_COMMIT,      /* wgmma.commit_group                                             */
  TM_C_WG_WAIT,        /* wgmma.wait_group N                                             */
  TM_C_TMEM_LD,        /* tcgen05.ld                                                     */
  TM_C_TMEM_ST,        /* tcgen05.st, tcgen05.cp, tcgen05.shift                          */
  TM_C_TMEM_WAIT,      /* tcgen05.wait::ld / ::st                                        */
  TM_C_TCGEN05,        /* tcgen05.alloc/dealloc/fence/commit and the rest                */
  TM_C_CP_ASYNC,       /* cp.async (non-bulk)                                            */
  TM_C_CP_COMMIT,      /* cp.async.commit_group                                          */
  TM_C_CP_WAIT,        /* cp.async.wait_group N / wait_all                               */
  TM_C_CP_ASYNC_ARRIVE, /* cp.async.mbarrier.arrive: arrives when the warp's copies land  */
  TM_C_MMA_SYNC,       /* mma.sync / wmma: a synchronous warp MMA                        */
  TM_C_CONV_FLOAT,     /* cvt between float widths (f16/bf16/f32): TM_C_CONV is int<->float */
  TM_C_REG_MOVE,       /* mov between registers (packs/unpacks included), unguarded: ptxas coalesces it (t47b2) */
  TM_C_FSEL,           /* f32 setp/selp/min/max (FSETP, FSEL, FMNMX): issue_fsel, on the ALU pipe where fsel_alu_pipe (t47r2) */
  TM_C_IMAD,           /* integer mul/mad (IMAD): issue_int, on a pipe of its own where imad_pipe, else the ALU's (t47s, run 8) */
  TM_C_COUNT
} tm_class;

/* one instruction of the module, as the model sees it */
typedef struct tm_insn {
  uint8_t cls;     /* tm_class */
  uint8_t bytes;   /* bytes each lane accesses (memory classes; 0: unknown);
                      TM_C_MMA: 1 tcgen05.mma, 0 wgmma.mma_async */
  uint16_t flops;  /* MMA_SYNC: FLOPs per warp-instruction / 64 */
  const char *text; /* the opcode text (a stable string): the trace's span names */
  uint32_t line;   /* its PTX line */
} tm_insn;

/* an mbarrier's time, kept in the runner's mbarrier object (zeroed at
 * mbarrier.init) and only read and written by the model */
typedef struct tm_mb {
  double cur;      /* the latest arrival (cycles) of the phase in progress */
  double done;     /* the time the last completed phase completed */
  uint32_t phase;  /* phases completed, as last seen */
  uint32_t cur_src, done_src; /* trace: the event that stamped it (0: none) */
} tm_mb;

/* the tensor core's rate classes (multiples of the bf16 dense rate) */
enum { TM_RATE_BF16 = 0, TM_RATE_TF32, TM_RATE_FP8, TM_RATE_FP4, TM_RATE_INT8, TM_RATE_FP64 };

/* what an instruction did, for tm_step */
enum { TM_DONE = 0, TM_BLOCKED, /* did not complete: it is retried later */
       TM_LOOP /* a taken backward branch: the end of a loop iteration */ };

struct tm_launch;
struct tm_cta;

/* a launch: what the runner knows before the first warp runs */
typedef struct tm_setup {
  const char *gpu, *target;     /* cfg.timing (resolved), the module's .target */
  const char *trace;            /* a trace file, NULL: none */
  uint32_t sample;              /* cfg.timing_sample (resolved) */
  uint32_t threads_per_cta, warps_per_cta, smem_per_cta, regs_per_thread;
  uint32_t cluster_size;
  uint64_t nclusters;
  uint32_t grid[3];
  uint64_t footprint;           /* bytes of the launch's global buffers */
  uint32_t reg_lo, reg_hi;      /* the registers a warp can touch */
  const tm_insn *insn;          /* ncode entries */
  const chk_insn *ck;           /* the same instructions' registers */
  uint32_t ncode;
  const uint16_t *sass;         /* SASS instructions per PTX line (NULL: one per PTX instruction) */
  uint32_t sass_lines;
  uint32_t tmem_cols;           /* Tensor Memory columns a CTA holds at most (its tcgen05.alloc nCols, summed) */
  uint32_t tmem_cols_line;      /* the line of a tcgen05.alloc whose nCols is not constant (0: none): the model
                                   assumes the whole Tensor Memory (docs/timing.md "Occupancy") */
  const uint16_t *sass_stall;   /* the stall counts of each line's SASS, sass_lines entries (NULL: unknown; t47z) */
} tm_setup;

/* a byte range [lo, hi) of a global buffer (host addresses) */
typedef struct tm_range {
  uint64_t lo, hi;
} tm_range;
/* the bytes the union of n ranges covers (sorts r in place): the launch's
 * footprint counts a buffer passed twice (a tensor map's view of a buffer
 * that is also an argument, as the Triton door passes them) once */
uint64_t tm_footprint(tm_range *r, size_t n);

tc5_status tm_launch_new(struct tm_launch **out, const tm_setup *s, tc5_diag *diag);
void tm_launch_free(struct tm_launch *l);
/* the clusters to run: *n of them; (*pick)[i] the i-th (NULL: 0 .. n-1) */
void tm_launch_plan(const struct tm_launch *l, uint64_t *n, const uint64_t **pick);
/* fills the result (and writes the trace) after the last cluster */
tc5_status tm_launch_finish(struct tm_launch *l, tc5_timing_result *res, tc5_diag *diag);

tc5_status tm_cta_new(struct tm_launch *l, uint32_t nwarps, struct tm_cta **out);
void tm_cta_free(struct tm_cta *t);
/* a CTA starts: cluster index, its rank, its linear index in the grid */
void tm_cta_begin(struct tm_cta *t, uint64_t cluster, uint32_t rank, uint64_t linear);
/* a cluster ended (its n CTAs): its duration and its units' work join the launch's */
void tm_cluster_end(struct tm_launch *l, struct tm_cta *const *ctas, uint32_t n, uint64_t cluster, void *lock);

/* ---- events ---- */
/* after each warp-instruction: pc, the lanes that executed (guard
 * applied), the warp's registers (CHK_R layout), what happened */
void tm_step(struct tm_cta *t, uint32_t warp, uint32_t pc, uint32_t mask, const uint64_t *r, int what);
/* an arrival (bytes 0) or a complete_tx of `bytes` on an mbarrier, by
 * instruction pc of the warp; phase: the mbarrier's phases completed after it */
void tm_mbar_signal(struct tm_cta *t, uint32_t warp, uint32_t pc, tm_mb *mb, uint32_t bytes, uint32_t phase);
/* a TMA store (or reduction) of `bytes` from shared memory: through the
 * SM's TMA engine like a load; its bulk group completes after them */
void tm_tma_store(struct tm_cta *t, uint32_t warp, uint32_t bytes);
/* tcgen05.commit's arrival on an mbarrier (when the CTA's MMAs finish) */
void tm_commit(struct tm_cta *t, uint32_t warp, tm_mb *mb, uint32_t phase);
/* a wait on the mbarrier succeeded */
void tm_mbar_wait(struct tm_cta *t, uint32_t warp, const tm_mb *mb);
/* an MMA issued to the tensor core: FLOPs, rate class, the peer CTA for
 * cta_group::2 (NULL: none); wgmma: a whole warpgroup's (warp: its last) */
void tm_mma(struct tm_cta *t, uint32_t warp, uint32_t pc, double flops, unsigned rate, struct tm_cta *peer, bool wgmma);
/* a tcgen05.mma of M x N (its FLOPs, rate class, the peer of a cta_group::2
 * pair or NULL): timed by its shape too (tm_tcgen05_cycles) */
void tm_tcgen05(struct tm_cta *t, uint32_t warp, uint32_t pc, uint32_t m, uint32_t n, double flops, unsigned rate,
                struct tm_cta *peer);
/* bar.sync / bar.arrive of a warp at barrier id, and the barrier's completion */
void tm_bar_arrive(struct tm_cta *t, uint32_t warp, uint32_t id);
void tm_bar_done(struct tm_cta *t, uint32_t id, uint32_t waiting);

#endif
