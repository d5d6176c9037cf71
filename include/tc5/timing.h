/* tc5 — the timing model (issue 47): how long a launch tc5 runs would take
 * on a B200, H100 or H200.
 *
 * The model listens to the PTX runner as the checker does (docs/timing.md):
 * each warp has a clock in SM cycles that its instructions advance (issue
 * cost by the instruction's timing class, register dependencies through a
 * scoreboard), mbarriers and bar.sync carry time (a wait that succeeds takes
 * the completing phase's time), asynchronous units complete at modelled
 * times (TMA behind the SM's earlier TMA traffic, tcgen05.mma/wgmma in order
 * on the SM's tensor core, commit when the MMAs it tracks finish), per-SM
 * units (tensor core, TMA, shared memory, SFU, issue slots) and L2/HBM keep
 * busy time. A sample of CTAs (clusters) runs in detail; every CTA's
 * duration is estimated from the sample, and all CTAs are list-scheduled on
 * SMs x CTA slots (occupancy) to give the launch's time.
 *
 * A launch asks for it with tc5_ptx_launch_cfg.timing ("b200", "h100",
 * "h200"; or the environment's TC5_TIMING when cfg.timing is NULL) and gets
 * the prediction in *cfg.timing_result (include/tc5/ptx.h). The parameter
 * tables (src/timing/params_*.def) are data with provenance. */
#ifndef TC5_TIMING_H
#define TC5_TIMING_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tc5/status.h"
#ifdef __cplusplus
extern "C" {
#endif

/* tc5_ptx_launch_cfg.timing_sample: every cluster runs (no sampling) */
#define TC5_TIMING_SAMPLE_ALL 0xFFFFFFFFu

/* the units whose busy fraction a prediction reports */
typedef enum tc5_timing_unit {
  TC5_TU_TENSOR = 0, /* the tensor core: tcgen05.mma, wgmma                     */
  TC5_TU_TMA,        /* the TMA engine: bulk/tensor copies                       */
  TC5_TU_SMEM,       /* shared-memory bandwidth: ld/st.shared (and TMEM ld/st)   */
  TC5_TU_MEM,        /* L2/HBM: global traffic against the SM's bandwidth share  */
  TC5_TU_SFU,        /* the special function units: ex2, rsqrt, sin ...          */
  TC5_TU_ISSUE,      /* issue slots: 4 schedulers per SM                         */
  TC5_TU_COUNT
} tc5_timing_unit;
/* "tensor core", "TMA", "shared memory", "L2/HBM", "SFU", "issue"; NULL
 * for a value out of range */
const char *tc5_timing_unit_name(tc5_timing_unit u);

/* what a launch with timing returns (all zero when timing was off) */
typedef struct tc5_timing_result {
  bool valid;                /* the launch ran with timing                            */
  char gpu[8];               /* "b200", "h100", "h200"                                */
  double seconds;            /* the predicted duration of the whole launch            */
  double cycles;             /* the same in SM cycles (launch overhead excluded)      */
  double clock_ghz;          /* the clock cycles are counted at (the table's)         */
  /* occupancy */
  uint32_t ctas_per_sm;      /* CTAs resident on one SM at once                       */
  const char *occupancy_limit; /* what limits it: "shared memory", "threads",
                                  "registers", "CTA slots", "Tensor Memory"
                                  (a static string)          */
  uint32_t regs_per_thread;  /* used for occupancy                                    */
  bool regs_from_ptxas;      /* from ptxas -v (cfg.timing_regs), else an estimate      */
  bool issue_sass_missing;   /* the GPU's table counts issue from ptxas's SASS, but no
                                counts were given (cfg.timing_sass: ptxas or nvdisasm
                                not found): one issue per PTX instruction instead     */
  uint32_t smem_per_cta;     /* bytes, the 1 KiB reserved included                    */
  uint32_t tmem_cols_per_cta; /* Tensor Memory columns a CTA holds, counted for occupancy
                                (the entry's tcgen05.alloc nCols summed; 0: none)      */
  uint32_t tmem_cols_assumed_line; /* non-zero: the PTX line of a tcgen05.alloc whose nCols
                                is not constant: tmem_cols_per_cta is then the assumed
                                whole Tensor Memory (512 on the B200)                 */
  double waves;              /* CTAs / (SMs x ctas_per_sm)                            */
  uint32_t sms;              /* SMs of the GPU                                        */
  /* each unit's busy fraction over the launch, averaged over the SMs (0..1) */
  double busy[TC5_TU_COUNT];
  tc5_timing_unit limit;     /* the unit with the largest busy fraction ...            */
  bool latency_bound;        /* ... or true when no unit is above 0.6: the launch is
                                bound by latencies and dependencies (the limit line
                                then says "latency")                                 */
  /* sampling */
  bool sampled;              /* only some clusters ran (the others' outputs were not
                                computed)                                             */
  uint64_t ctas_simulated;   /* CTAs run in detail                                    */
  uint64_t ctas_total;       /* CTAs of the grid                                      */
  double cta_cycles_min, cta_cycles_max; /* the simulated CTAs' durations              */
  /* memory */
  double dram_bytes;         /* modelled HBM traffic of the whole launch              */
  double l2_bytes;           /* global traffic served through L2 (whole launch)       */
  double flops;              /* tensor-core FLOPs of the whole launch (estimated)     */
} tc5_timing_result;

/* The GPUs with a parameter table, as names ("b200 h100 h200"). */
const char *tc5_timing_gpus(void);
/* TC5_OK when `gpu` names a table and can run PTX of `target` (the
 * module's .target: "sm_100a"..., "sm_90a"...): b200 runs sm_100, sm_100a,
 * sm_100f; h100 and h200 run sm_90, sm_90a (and older targets: sm_80 ...).
 * TC5_EINVAL naming the GPU (unknown: "a100", "sm_103") or the pair. */
tc5_status tc5_timing_check(const char *gpu, const char *target, tc5_diag *diag);

/* Parameter `index` of a GPU's table (index from 0 until TC5_EINVAL):
 * name, value, unit and provenance (static strings). */
tc5_status tc5_timing_param(const char *gpu, unsigned index, const char **name, double *value, const char **unit,
                            const char **provenance);

/* Registers per thread of entry `entry` (NULL: the module's only one) of
 * the PTX text, from `ptxas -v -arch=ARCH` (ARCH: sm_100a for b200,
 * sm_90a for h100/h200). ptxas is looked up as $TC5_PTXAS, else on PATH,
 * else /usr/local/cuda/bin/ptxas; results are cached by a hash of the text
 * in $XDG_CACHE_HOME/tc5/ptxas (else ~/.cache/tc5/ptxas). TC5_EUNSUPPORTED
 * when no ptxas is found or it fails (the caller then
 * leaves cfg.timing_regs 0 and the model estimates: docs/timing.md). */
tc5_status tc5_timing_ptxas_regs(const char *ptx, size_t len, const char *entry, const char *gpu, uint32_t *regs,
                                 tc5_diag *diag);

/* The SASS instructions ptxas makes of each line of the PTX text (issue
 * 47): *per_line (malloc'd, *nlines entries, indexed by the text's 1-based
 * line number; 0 where a line has no instruction or ptxas folded it into
 * another's SASS), from `ptxas -lineinfo -arch=ARCH` on the text with one
 * `.loc` per instruction line and `nvdisasm -g` (looked up as
 * $TC5_NVDISASM, else on PATH, else beside ptxas, else
 * /usr/local/cuda/bin); cached by a hash of the text in
 * $XDG_CACHE_HOME/tc5/sass (else ~/.cache/tc5/sass). TC5_EUNSUPPORTED
 * when either tool is missing or fails (the caller then leaves
 * cfg.timing_sass NULL and the model counts one issue per PTX instruction:
 * docs/timing.md "Issue from ptxas's SASS"). *per_line holds 2 x *nlines
 * entries: the counts, then (from *per_line + *nlines) the sums of the
 * stall counts ptxas wrote in the control bits of each line's SASS (read
 * with nvdisasm -hex; cfg.timing_sass_stall; docs/timing.md "ptxas's stall
 * schedule"). The caller frees *per_line. */
tc5_status tc5_timing_ptxas_sass(const char *ptx, size_t len, const char *gpu, uint16_t **per_line, uint32_t *nlines,
                                 tc5_diag *diag);

/* The lines `tc5 run --timing` prints (the breakdown, then
 * "tc5 run: timing: predicted T us on GPU"), into buf (cap bytes, NUL
 * terminated, cut if short). */
tc5_status tc5_timing_format(const tc5_timing_result *r, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
