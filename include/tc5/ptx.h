/* tc5 — running PTX: the text that nvcc (-arch=sm_100a -ptx) and Triton
 * emit, loaded once into a pre-decoded form and executed on the CPU as a
 * grid of CTAs of warps of 32 threads, with the tcgen05 instructions run by
 * tc5's models (Tensor Memory, the MMA engine, mbarriers, commit) and
 * Hopper's wgmma by tc5's layouts and Hopper arithmetic.
 *
 * Memory as a kernel sees it:
 *   global   the launch's buffers (tc5_ptx_arg), 256-byte aligned as
 *            cudaMalloc's, plus the module's .global/.const variables;
 *            every access is checked against them (out of bounds, across
 *            two buffers, misaligned: the kernel stops naming the
 *            instruction, the thread and the address).
 *   shared   one tc5_smem per CTA laid out as the H100 does: 1 KiB
 *            reserved at shared address 0, then the .shared variables the
 *            kernel names, in order of declaration with their alignment,
 *            then the .extern (dynamic) array at its declaration's .align
 *            (gpu/smem_layout.cu).
 *   local    per thread: every function's frame (.local variables, in-body
 *            .param variables, a .func's parameters and return values).
 *   generic  global addresses are generic addresses as they are; the
 *            shared window and the local window are two ranges of their own
 *            (cvta converts).
 *
 * Every function returns a tc5_status and records what went wrong in the
 * optional tc5_diag: a parse error names the line, the column and the text;
 * a kernel error names the instruction (with its line), the thread
 * (CTA and thread index) and, for memory, the address.
 */
#ifndef TC5_PTX_H
#define TC5_PTX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tc5/check.h"
#include "tc5/status.h"
#include "tc5/tensormap.h"
#include "tc5/timing.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc5_ptx_module tc5_ptx_module;

/* Parses PTX text (len bytes; need not be NUL-terminated). `name` names
 * the file in messages (may be NULL). On success *out is a module to free
 * with tc5_ptx_free. Errors: TC5_EPARSE (malformed text), TC5_EUNSUPPORTED
 * (well-formed but not modelled: an instruction, a modifier, a directive),
 * each naming line, column and text. */
tc5_status tc5_ptx_load(const char *text, size_t len, const char *name, tc5_ptx_module **out,
                        tc5_diag *diag);
tc5_status tc5_ptx_free(tc5_ptx_module *m);

/* The entries (.entry) of a module, in order of appearance. */
tc5_status tc5_ptx_entry_count(const tc5_ptx_module *m, unsigned *count);
/* Name and parameters of entry `index`: the number of .param and, for
 * each (up to cap), its size in bytes and whether it was declared .ptr. */
#define TC5_PTX_NAME_MAX 4096 /* the longest name (C++ kernels' mangled ones are long) */
typedef struct tc5_ptx_param_info {
  char name[TC5_PTX_NAME_MAX];
  uint32_t size;  /* bytes */
  uint32_t align; /* bytes */
  bool is_ptr;    /* .ptr */
} tc5_ptx_param_info;
tc5_status tc5_ptx_entry_info(const tc5_ptx_module *m, unsigned index, const char **name,
                              unsigned *nparams, tc5_ptx_param_info *params, unsigned cap,
                              uint32_t *static_shared, uint32_t *reqntid);

/* The source position of the instruction that starts on PTX line
 * `ptx_line`, as the compiler recorded it with .loc and .file (Triton
 * always does; nvcc with -lineinfo): `file` (the .file path; "" when no
 * .file names its number) and `line`, `col` of the .loc, and the call site
 * the code was inlined at (`at_file`, `at_line`, `at_col`: for code Triton
 * inlined from its libraries, the kernel's own line; at_line 0: not
 * inlined). line 0: the instruction carries no .loc. TC5_EINVAL: no
 * instruction starts on that line. The strings live as long as the module.
 * Findings (tc5_check_finding.src) and kernel errors (a diag issue of
 * field "source") name the same position. */
typedef struct tc5_ptx_source {
  const char *file;
  uint32_t line, col;
  const char *at_file;
  uint32_t at_line, at_col;
} tc5_ptx_source;
tc5_status tc5_ptx_source_at(const tc5_ptx_module *m, uint32_t ptx_line, tc5_ptx_source *src);

/* One kernel argument, for each .param of the entry in order. */
typedef enum tc5_ptx_arg_kind {
  TC5_PTX_ARG_VALUE = 0, /* `bits` passed as the parameter's size */
  TC5_PTX_ARG_BUFFER,    /* a global buffer; its address is passed */
  TC5_PTX_ARG_TENSORMAP, /* a tensor map (tc5/tensormap.h) over a buffer argument:
                            by value to a 128-byte .param (CUDA's
                            __grid_constant__ CUtensorMap), or, to an 8-byte
                            .param, the address of a copy in global memory */
  TC5_PTX_ARG_BYTES,     /* `bytes` bytes at `data`, the whole .param (a
                            struct passed by value: CUTLASS's Params) */
  TC5_PTX_ARG_GLOBAL     /* a global buffer (data, bytes) that is no
                            parameter: the kernel finds it through an address
                            inside another argument; it takes no .param */
} tc5_ptx_arg_kind;
typedef struct tc5_ptx_arg {
  tc5_ptx_arg_kind kind;
  uint32_t size;   /* VALUE: 4 or 8 (bytes) as the caller typed it        */
  uint64_t bits;   /* VALUE: the raw bits                                  */
  void *data;      /* BUFFER: host memory the kernel reads and writes     */
  size_t bytes;    /* BUFFER: its size                                     */
  uint64_t device_address; /* BUFFER, GLOBAL: set by tc5_ptx_launch. Buffers
                              (BUFFER, GLOBAL and TENSORMAP's own) get their
                              addresses in argument order: the first at
                              0x200000000, each next at the end of the one
                              before plus 64 KiB, rounded up to 256 bytes */
  /* TENSORMAP: the map's parameters, with tmap.address the byte offset of
   * the tensor in its buffer: `data`/`bytes` when data is not NULL (a
   * buffer of the map's own, as a kernel that receives only the map sees
   * it), else buffer argument `buffer` (0-based index of a BUFFER
   * argument); encoded when the buffers have their addresses, every rule
   * of cuTensorMapEncodeTiled checked (an error names the parameter) */
  tc5_tmap_params tmap;
  unsigned buffer;
} tc5_ptx_arg;

/* What the kernel printed (vprintf), passed to the callback as text. */
typedef void (*tc5_ptx_print_fn)(void *ctx, const char *text, size_t len);

typedef struct tc5_ptx_launch_cfg {
  const char *entry;        /* NULL: the module's only entry                  */
  uint32_t grid[3];         /* CTAs                                           */
  uint32_t block[3];        /* threads per CTA                                */
  uint32_t dynamic_shared;  /* bytes of the .extern .shared array             */
  uint32_t cluster[3];      /* CTAs of a cluster (0,0,0: the entry's
                               .reqnctapercluster, else 1,1,1); the grid is
                               a whole number of clusters, at most 16 CTAs a
                               cluster (8 portable)                           */
  unsigned threads;         /* host threads running CTAs: 0 = the environment's
                               TC5_THREADS (1 to 256) when set, else one per
                               core                                           */
  uint64_t max_steps;       /* warp-instructions per CTA before it is stopped
                               as a hang; 0 = 2^34                            */
  tc5_ptx_print_fn print;   /* kernel printf output; NULL drops it            */
  void *print_ctx;
  tc5_check_mode check;     /* the tcgen05 checker (tc5/check.h): default on */
  /* each finding once, when the launch ends (NULL: counted in the stats
   * and the first one named in the diag) */
  void (*on_finding)(void *ctx, const tc5_check_finding *f);
  void *finding_ctx;
  /* per-rule levels (tc5/check.h: tc5_check_override_parse), nrules of
   * them, the later winning for a rule named twice; NULL: none */
  const tc5_check_override *rules;
  unsigned nrules;
  /* false: buffers get tc5's addresses (tc5_ptx_arg.device_address).
   * true: every buffer's device address is its host address (data), as
   * CUDA's unified addressing gives a framework's tensors, so pointers the
   * caller stored in buffers (pointer arrays) are valid in the kernel.
   * Buffers may overlap (views of one allocation: one region); none may
   * lie in [0x7c0000000000, 0x7e0100000000), the generic windows of
   * parameter, local and shared memory (TC5_EINVAL names it); tensor maps
   * passed by address and the module's variables lie past 2^47. */
  bool host_addresses;
  /* 0: the default schedule (a warp runs until it waits; asynchronous
   * operations complete when issued). Else the seed of an adversarial
   * schedule (docs/check.md, "Schedules"): warps in a seeded PCT-style
   * order, and TMA/bulk copies, cp.async, tcgen05.mma/cp/shift/commit
   * completing as late as the asynchronous rules allow. The same seed
   * gives the same run whatever `threads` is. When 0, the environment's
   * TC5_SCHEDULE (a number) is used. */
  uint64_t schedule;
  /* The timing model (tc5/timing.h, docs/timing.md): "b200", "h100" or
   * "h200" predicts the launch's duration on that GPU into *timing_result;
   * NULL: the environment's TC5_TIMING (unset or empty: off); "" or
   * "none": off whatever TC5_TIMING says. An unknown GPU, or one that
   * cannot run the module's .target (b200: sm_100*; h100/h200: sm_90* and
   * older), is TC5_EINVAL naming it. Timing with an adversarial schedule is
   * TC5_EINVAL. */
  const char *timing;
  tc5_timing_result *timing_result; /* filled when timing runs; may be NULL */
  /* a Chrome trace-event JSON file (Perfetto opens it) of the CTAs run in
   * detail; NULL: none (TC5_TIMING_TRACE in the environment when NULL) */
  const char *timing_trace;
  /* clusters of CTAs run in detail: 0: the default (TC5_TIMING_SAMPLE from
   * the environment, else 16; grids of at most twice that many clusters
   * run whole); TC5_TIMING_SAMPLE_ALL: every cluster (no sampling, outputs
   * complete); else that many, spread evenly over the grid's linear index.
   * A sampled launch computes only the sampled clusters' outputs. */
  uint32_t timing_sample;
  /* registers per thread for occupancy (tc5_timing_ptxas_regs gives
   * ptxas's count); 0: estimated (docs/timing.md) */
  uint32_t timing_regs;
  /* SASS instructions per PTX line of the module's text
   * (tc5_timing_ptxas_sass), timing_sass_lines entries; NULL: every PTX
   * instruction issues once (docs/timing.md) */
  const uint16_t *timing_sass;
  uint32_t timing_sass_lines;
  /* the stall counts ptxas wrote in the control bits of each PTX line's
   * SASS, summed (tc5_timing_ptxas_sass's second half: timing_sass +
   * timing_sass_lines), timing_sass_lines entries; NULL: unknown (the
   * model then holds a warp its dispatches; docs/timing.md "ptxas's stall
   * schedule") */
  const uint16_t *timing_sass_stall;
  /* polled by the thread that called tc5_ptx_launch (which runs clusters
   * too) between clusters, about every 65,536 warp-instructions it runs,
   * and every 20 ms while it waits for the other workers' clusters after
   * its own; nonzero stops the launch: every worker stops, the launch returns
   * TC5_ECANCELED and the outputs hold what ran. NULL: never polled. The
   * Python package polls Python's signal handlers, so a KeyboardInterrupt
   * or a test's time limit stops a long launch. */
  int (*interrupt)(void *ctx);
  void *interrupt_ctx;
} tc5_ptx_launch_cfg;

typedef struct tc5_ptx_stats {
  uint64_t thread_insns; /* instructions executed, counted per active thread */
  uint64_t warp_insns;   /* instructions executed, counted per warp          */
  uint64_t ctas;         /* CTAs run                                         */
  double seconds;        /* wall time of the launch                          */
  uint64_t findings;     /* checker errors found (repeats counted)           */
  uint64_t warnings;     /* checker warnings (--check=strict)                */
} tc5_ptx_stats;

/* Fills cfg with zeros, grid and block {1, 1, 1}. */
tc5_status tc5_ptx_launch_init(tc5_ptx_launch_cfg *cfg);

/* Runs the grid to completion. Buffers are read and written in place.
 * Errors: TC5_EINVAL (bad configuration or argument list: the message names
 * the parameter), and the first kernel error: TC5_EBOUNDS / TC5_EALIGN
 * (memory), TC5_EILLEGAL (an undefined-behaviour rule: part of a warp at a
 * .sync.aligned instruction...), TC5_ESTATE (deadlock: every live thread
 * waits; or a hang), and the tcgen05 models' statuses. When the kernel ran
 * to its end but the checker found a broken rule: TC5_EHAZARD (findings in
 * cfg->on_finding; the first also in diag). stats may be NULL. */
tc5_status tc5_ptx_launch(const tc5_ptx_module *m, const tc5_ptx_launch_cfg *cfg,
                          tc5_ptx_arg *args, unsigned nargs, tc5_ptx_stats *stats,
                          tc5_diag *diag);

/* What tc5_ptx_launch_schedules found. */
typedef struct tc5_ptx_schedules_report {
  unsigned runs;          /* launches made: the default schedule and the seeds */
  bool agree;             /* every buffer the same byte for byte in every run */
  uint64_t seed_a, seed_b; /* two schedules that disagree (0: the default one), or
                              seed_a: the schedule under which a launch failed */
  unsigned arg;           /* the first argument (0-based) whose buffer differs */
  uint64_t offset;        /* its first differing byte, and the two values */
  uint8_t byte_a, byte_b;
} tc5_ptx_schedules_report;

/* Runs the kernel under the default schedule, then under n seeded
 * schedules (seeds cfg->schedule .. cfg->schedule + n - 1; cfg->schedule 0:
 * 1 .. n), each from the same inputs, and compares every buffer (BUFFER,
 * GLOBAL and a TENSORMAP's own; compare[k] false: argument k's buffer is
 * not compared; compare NULL: all) byte for byte with the default run's. The
 * buffers end with the default run's contents. TC5_EMISMATCH (rep and diag
 * name the argument, the byte and the seed) when a schedule's outputs
 * differ; a launch's error (diag names the schedule); TC5_EHAZARD when the
 * checker found something in any run and the outputs agree; else TC5_OK.
 * stats: summed over the runs. Checker findings go to cfg->on_finding from
 * the default run only (a seeded run's first one is in diag). */
tc5_status tc5_ptx_launch_schedules(const tc5_ptx_module *m, const tc5_ptx_launch_cfg *cfg,
                                    tc5_ptx_arg *args, unsigned nargs, const bool *compare,
                                    unsigned n, tc5_ptx_schedules_report *rep,
                                    tc5_ptx_stats *stats, tc5_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
