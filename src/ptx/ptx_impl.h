/* tc5 PTX runner — internal structures shared by the parser, the decoder,
 * the instruction semantics (exec_*.c) and the scheduler (run.c).
 *
 * After loading, every instruction is a ptx_insn: its semantics function,
 * its guard predicate and its operands as register indices. Immediates and
 * the constant special registers (%tid, %ctaid, %laneid...) are registers
 * too, filled when a warp starts, so that an instruction's function runs
 * one tight loop over the 32 lanes of a warp reading registers only
 * (the Spike way: one small function per instruction, no per-thread
 * switch). */
#ifndef TC5_PTX_IMPL_H
#define TC5_PTX_IMPL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "tc5/mma.h"
#include "tc5/ptx.h"
#include "tc5/smem.h"
#include "tc5/sync.h"
#include "tc5/tmem.h"
#include "check/check_event.h" /* the checker's events: the runner depends on the checker, not back */
#include "timing/timing_event.h" /* the timing model's events (issue 47), likewise */

#define PTX_NOREG 0xFFFFFFFFu
#define PTX_MAX_OPS 8
#define PTX_MAX_CALL_DEPTH 16
#define PTX_NAME_MAX TC5_PTX_NAME_MAX /* C++ kernels' mangled names are long */

/* ---- types (the .b32, .f16x2 ... of an instruction) ---- */
typedef enum ptx_type {
  PT_NONE = 0,
  PT_B8, PT_B16, PT_B32, PT_B64, PT_B128,
  PT_U8, PT_U16, PT_U32, PT_U64,
  PT_S8, PT_S16, PT_S32, PT_S64,
  PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_F32, PT_F32X2, PT_F64, PT_TF32,
  PT_E4M3, PT_E5M2, PT_E4M3X2, PT_E5M2X2, PT_E2M1X2, PT_E2M3X2, PT_E3M2X2, PT_UE8M0X2,
  PT_PRED,
  PT_COUNT
} ptx_type;
typedef struct ptx_type_info {
  const char *name; /* "u32" */
  uint8_t bits;
  char cls;         /* 'b' bits, 'u' unsigned, 's' signed, 'f' float, 'p' predicate */
} ptx_type_info;
extern const ptx_type_info ptx_types[PT_COUNT];
ptx_type ptx_type_parse(const char *s, size_t n);

/* ---- state spaces ---- */
typedef enum ptx_space {
  PS_GENERIC = 0, PS_GLOBAL, PS_SHARED, PS_SHARED_CLUSTER, PS_LOCAL, PS_CONST, PS_PARAM,
  PS_PARAM_LOCAL /* .param declared inside a function body: per thread */
} ptx_space;

/* ---- operands after decoding ---- */
typedef enum ptx_okind {
  PO_NONE = 0,
  PO_REG,   /* reg (immediates and constant special registers included)  */
  PO_VEC,   /* n registers: vec[0 .. n-1] (index into module->vregs)     */
  PO_ADDR,  /* [reg + imm] (reg may be the zero register)               */
  PO_LABEL, /* imm = target instruction index                           */
  PO_SREG,  /* a special register read when executed (imm = which)      */
  PO_SINK   /* _ */
} ptx_okind;
typedef struct ptx_opnd {
  uint8_t kind;
  uint8_t neg;  /* !%p */
  uint16_t n;   /* PO_VEC: count                                     */
  uint32_t reg; /* PO_REG, PO_ADDR base; second register of a|b pairs: reg2 */
  uint32_t reg2;
  uint32_t vec; /* PO_VEC: first index into module->vregs            */
  int64_t imm;  /* PO_ADDR: offset; PO_LABEL: target; immediates' value */
} ptx_opnd;

struct ptx_warp;
struct ptx_insn;
struct chk_cta;
struct chk_log;
/* An instruction's semantics for the lanes of `mask` (a subset of the
 * warp's active lanes, the guard applied). Returns one of PX_*. */
typedef int (*ptx_exec_fn)(struct ptx_warp *w, const struct ptx_insn *in, uint32_t mask);
enum { PX_NEXT = 0, PX_BRANCH, PX_BLOCK, PX_ERROR, PX_EXIT, PX_WAIT, PX_WAIT_HERE, PX_JUMPED };
/* PX_BLOCK: retry the instruction once something changed; PX_WAIT: go on
 * after the barrier completes; PX_WAIT_HERE: re-execute the instruction
 * after the barrier completes (bar.red reads its result then); PX_JUMPED:
 * the instruction set each lane's pc itself (call, ret) */

enum {
  PF_ALIGNED = 1u << 0,   /* .sync.aligned / .aligned: the whole warp, converged */
  PF_UNGUARDED = 1u << 1, /* runs even for lanes whose guard is false (bra) */
  PF_MBAR = 1u << 2,      /* an mbarrier object's access (mbarrier.*, tcgen05.commit): not data
                             for the checker's shared-memory shadow */
  PF_ASYNC = 1u << 3,     /* a bulk copy's access (the async proxy): not one of the generic
                             proxy's for the checker */
  /* adversarial schedules (cfg.schedule, sched.c): */
  PF_LATE = 1u << 4,       /* an asynchronous operation that completes late: tcgen05.mma/cp/shift/
                              commit, TMA and bulk copies, cp.async, cp.async.mbarrier.arrive.noinc */
  PF_FLUSH_WARP = 1u << 5, /* waits for the warp's asynchronous operations (cp.async.wait_group,
                              cp.async.bulk.wait_group, cp.async.mbarrier.arrive) */
  PF_FLUSH_ALL = 1u << 6,  /* needs every operation of the cluster complete (tcgen05.dealloc) */
  PF_GROUP = 1u << 7,      /* with PF_LATE: a commit_group (the group's end in the FIFO); with
                              PF_FLUSH_WARP: a wait_group N (operand o[0]) for the groups of kind in->aux2 */
  PF_LANE_STATE = 1u << 8, /* reads or writes a thread's state besides its registers (CC.CF: add.cc, addc...) */
};
enum { PTX_GROUP_CP_ASYNC = 1, PTX_GROUP_BULK = 2 };

/* a source position a .loc directive gives (file numbers as .file names
 * them; 0 where absent): the .loc's own, and the outermost call site it
 * was inlined at (inlined_at; line 0: not inlined) */
typedef struct ptx_loc {
  uint32_t file, line, col;
  uint32_t at_file, at_line, at_col;
} ptx_loc;

typedef struct ptx_insn {
  ptx_exec_fn fn;
  uint32_t guard;   /* predicate register or PTX_NOREG */
  uint8_t guard_neg;
  uint8_t type, type2; /* primary / secondary type (cvt: dst, src) */
  uint8_t space;
  uint8_t nops;
  uint8_t vec;      /* .v2 / .v4 / .v8: elements; 1 otherwise */
  uint16_t flags;
  uint32_t mods;    /* instruction-specific modifier bits  */
  uint32_t aux;     /* instruction-specific value          */
  uint32_t aux2;
  ptx_opnd o[PTX_MAX_OPS];
  uint32_t line, col;
  uint32_t text;    /* offset of the opcode text in module->strings */
  uint32_t func;    /* index of the function it belongs to */
  ptx_loc loc;      /* the source position of the .loc before it (line 0: none) */
  insn_traits traits; /* what it is (ptx/opcodes.def's row and its modifiers; decode.c) */
  /* to a whole number of cache lines, the array on a line's start (parse.c decode_body): the fields a
   * step reads (fn to o[3], 128 bytes) on two lines, not three (session 13, bc: the records of a long
   * loop share the host's L1 with its registers; upsample_bicubic2d_aa 1.05x) */
  uint8_t pad_to_line[40];
} ptx_insn;
_Static_assert(sizeof(ptx_insn) % 64 == 0, "ptx_insn: a whole number of cache lines (pad_to_line)");

/* ---- module-level variables and functions ---- */
typedef struct ptx_var {
  char name[PTX_NAME_MAX];
  uint8_t space;
  uint32_t align, size;
  bool is_extern;  /* .extern .shared x[] (dynamic) */
  uint64_t used_by; /* bit f: function f names it (bit 63: functions 63 and later) */
  uint8_t *init;   /* initialiser (size bytes) or NULL */
  uint64_t addr;   /* global/const: offset in the module's image; local/param:
                      place in every thread's local memory (shared: per entry,
                      ptx_shared_layout) */
} ptx_var;

typedef struct ptx_param {
  char name[PTX_NAME_MAX];
  uint32_t size, align, offset;
  bool is_ptr;
} ptx_param;

typedef struct ptx_func {
  char name[PTX_NAME_MAX];
  bool is_entry, defined;
  uint32_t first, count;   /* instructions [first, first + count) */
  ptx_param *params;       /* entry parameters, or .func parameters */
  unsigned nparams;
  ptx_param *rets;         /* .func return parameters */
  unsigned nrets;
  uint32_t param_bytes;
  uint32_t frame_base;     /* this function's frame in every thread's local
                              memory: .func parameters and return values,
                              then .local and in-body .param variables */
  uint32_t frame_bytes;
  uint32_t reqntid[3], maxntid[3];
  uint32_t reqcluster[3];  /* .reqnctapercluster (0: none) */
  bool explicit_cluster;   /* .explicitcluster */
  uint32_t line;
} ptx_func;

/* Constant registers: filled once per warp (immediates, special registers). */
enum ptx_sreg {
  SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
  SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
  SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
  SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE, SR_LANEMASK_GT,
  SR_CLUSTERID_X, SR_CLUSTERID_Y, SR_CLUSTERID_Z, SR_NCLUSTERID_X, SR_NCLUSTERID_Y, SR_NCLUSTERID_Z,
  SR_CLUSTER_CTAID_X, SR_CLUSTER_CTAID_Y, SR_CLUSTER_CTAID_Z,
  SR_CLUSTER_NCTAID_X, SR_CLUSTER_NCTAID_Y, SR_CLUSTER_NCTAID_Z,
  SR_CLUSTER_CTARANK, SR_CLUSTER_NCTARANK, SR_IS_EXPLICIT_CLUSTER,
  SR_DYN_SMEM, SR_TOTAL_SMEM,
  SR_NCONST, /* the ones below are read when executed */
  SR_CLOCK = SR_NCONST, SR_CLOCK64, SR_GLOBALTIMER,
  SR_COUNT
};
extern const char *const ptx_sreg_names[SR_COUNT];

struct tc5_ptx_module {
  char *strings;        /* opcode texts, for messages */
  size_t strings_len, strings_cap;
  char name[128];
  ptx_insn *code;
  uint32_t ncode, code_cap;
  uint32_t *vregs;
  uint32_t nvregs, vregs_cap;
  uint32_t nregs;       /* registers per thread (all functions share one numbering) */
  uint8_t *reg_bits;    /* declared width of each register (8..128, 1 for .pred) */
  uint32_t regs_cap;
  /* constant registers: index, value (special registers: value = SR id) */
  uint32_t nconsts, consts_cap;
  struct ptx_const {
    uint32_t reg;
    uint8_t kind;   /* PC_VALUE, PC_SREG (value = SR_*), PC_VAR (value = variable index) */
    uint64_t value;
    int64_t off;    /* PC_VAR: added to the variable's address */
  } *consts;
  uint32_t zero_reg;
  ptx_func *funcs;
  unsigned nfuncs, funcs_cap;
  ptx_var *vars;
  unsigned nvars, vars_cap;
  uint64_t global_bytes;   /* the .global/.const variables' image */
  uint32_t local_bytes;    /* per thread: every function's frame, side by side */
  uint32_t version_major, version_minor;
  char target[32];
  /* .file directives: number and path (an offset in strings) */
  struct ptx_srcfile {
    uint32_t num, path;
  } *files;
  uint32_t nfiles, files_cap;
};

/* ---- execution state ---- */
#define PTX_MAX_BARRIERS 16
#define PTX_GENERIC_SHARED 0x00007e0000000000ull /* generic window of shared memory */
#define PTX_GENERIC_LOCAL 0x00007d0000000000ull  /* generic window of local memory  */
#define PTX_GENERIC_PARAM 0x00007c0000000000ull  /* generic window of the kernel parameters */
#define PTX_WINDOW_SIZE (1ull << 32)
#define PTX_GLOBAL_BASE 0x0000000200000000ull    /* first global buffer             */
#define PTX_HOST_OWN_BASE 0x0000800000000000ull  /* host addresses: tc5's own regions, past user space */

typedef struct ptx_region {
  uint64_t base, size;
  uint8_t *host;
  char name[64];
} ptx_region;

enum { PTX_UNI_RESULT = 1, PTX_UNI_GUARD = 2, PTX_UNI_COPY = 4 };
/* ptx_launch.duni's record of an instruction (run.c: dyn_uniform_pcs): flags, and the registers its
 * operands name (r[0, nd): operand 0's; r[nd, nd + ns): the others'), where they fit (PTX_DUNI_WALK:
 * not, the instruction's operands walked instead) */
enum { PTX_DUNI_RUN = 1, PTX_DUNI_SHFL = 2, PTX_DUNI_SELP = 4, PTX_DUNI_WALK = 8, PTX_DUNI_DST = 16, PTX_DUNI_SRCS = 32,
       PTX_DUNI_FRESH = 64, PTX_DUNI_PAD4 = 128, PTX_DUNI_HIT = 256, PTX_DUNI_LANES = 512,
       PTX_DUNI_SKIP0 = 1024 };
#define PTX_DUNI_REGS 7
typedef struct ptx_duni {
  uint16_t f;
  uint8_t nd, ns;
  uint32_t r[PTX_DUNI_REGS];
  ptx_exec_fn l0; /* its function's lane-0 build (ptx_alu_lane0, ptx_float_lane0), else in->fn (then no PTX_DUNI_RUN) */
} ptx_duni;
/* run.c hit_run's record of an instruction (ptx_launch.hrec, from its ptx_duni), half a cache line: the
 * run reads this and its registers' bytes and words (ptx_warp.ub, u0), and the instruction for its function */
typedef struct ptx_hrec {
  ptx_exec_fn l0; /* PTX_DUNI_HIT: ptx_duni's l0 */
  uint32_t s[4];  /* PTX_DUNI_HIT: its four sources (PTX_DUNI_PAD4's); PTX_DUNI_SKIP0: s[0] its guard */
  uint32_t d0;    /* PTX_DUNI_HIT: operand 0's first register (the others: ptx_duni's r[1, nd)) */
  uint16_t f;     /* ptx_duni's flags, and PTX_HREC_* */
  uint8_t nd;     /* PTX_DUNI_HIT: ptx_duni's nd */
  uint8_t neg;    /* PTX_DUNI_SKIP0: the guard's negation */
} ptx_hrec;
_Static_assert(sizeof(ptx_hrec) == 32, "ptx_hrec: half a cache line");
/* ptx_hrec.f's own bits (past ptx_duni's): PTX_HREC_BLK, the first record of a block (a straight run of
 * PTX_DUNI_HIT records: run.c hit_blocks), ptx_launch.hblks[hblk[pc]]; PTX_HREC_ND, nd > 1;
 * PTX_HREC_XP, a selp of a block whose predicate is a source of the block's list (hit_run's memo); PTX_HREC_FIN, the
 * one instruction of the module that writes its destinations, none of them its source (run.c hit_full: PTX_FIN);
 * PTX_HREC_GEN, a plain ld or st that hit_run runs as run_warp_body would (run.c hit_gen) */
enum { PTX_HREC_BLK = 2048, PTX_HREC_ND = 4096, PTX_HREC_XP = 8192, PTX_HREC_FIN = 16384, PTX_HREC_GEN = 32768 };
/* a block's source read before the block writes it (run.c hit_blocks): the register, and the first record
 * (an instruction index) that reads it; a block's list ends with register nregs + 1 (its ub byte never PTX_UB)
 * at the block's end */
typedef struct ptx_hsrc {
  uint32_t reg, at;
} ptx_hsrc;
/* a block (run.c hit_blocks): its sources read before written (ptx_launch.hsrc[src, src + nsrc), then the list's
 * end, then its selps' predicates of the list: nxp), the registers its records write (hdst[dst, dst + ndst)), the
 * pc past its last record, and its entry in a worker's memo of its last inputs and results (ptx_cluster.hmemo +
 * memo: 2 + nsrc + 2 nxp + ndst words) */
typedef struct ptx_hblk {
  uint32_t src, nsrc, nxp, dst, ndst, end, memo;
} ptx_hblk;
typedef struct ptx_launch {
  const tc5_ptx_module *m;
  const ptx_func *f;
  tc5_ptx_launch_cfg cfg;
  uint8_t rule_level[64];   /* per checker rule: tc5_check_level (cfg.rules) */
  ptx_region *regions;
  unsigned nregions;
  tc5_tensormap *tmaps;     /* tensor maps passed by address (regions of their own) */
  unsigned ntmaps;
  uint8_t *params;          /* the entry's parameter buffer */
  uint8_t *globals;         /* module variables' image */
  uint32_t shared_total;    /* 1 KiB + static + dynamic */
  uint32_t dyn_base;        /* shared address of the .extern array */
  uint32_t *shared_addr;    /* per variable: its shared address for this entry */
  uint32_t threads_per_cta, warps_per_cta;
  uint32_t reg_lo, reg_hi;  /* the registers the entry and the .funcs touch: a warp's window */
  bool tmem_used;           /* an instruction of the module names Tensor Memory (tcgen05.*): else no CTA
                               gets one (its 320 KiB set up and freed a CTA: issue 50, speed) */
  /* a CTA after a worker's first (issue 50, size: a grid of millions of small CTAs): the
   * registers of the window an instruction may read before the thread wrote them (zero_regs,
   * nzero of them; NULL: not known, the whole window is zeroed each CTA) and the constants
   * that differ between CTAs (cta_consts, indices into m->consts); the rest keep the first
   * CTA's values (run.c: read_first) */
  uint32_t *zero_regs, nzero;
  uint32_t *cta_consts, ncta_consts;
  /* per instruction: PTX_UNI_RESULT when its result is the same in every lane, PTX_UNI_GUARD
   * when its guard is, PTX_UNI_COPY when its result is read in every lane (run.c: uniform_pcs;
   * NULL none) */
  uint8_t *uni;
  /* the registers whose 32 lanes hold one value, found as the warp runs (issue 50, st: run.c
   * ub_run): per instruction whether it may run for one lane while every register it reads is
   * so, and its registers (dyn_uniform_pcs; NULL: none, as under a seeded schedule or the timing
   * model); a warp's bytes (ptx_warp.ub) start as a row of ub_init (ub_bytes bytes) */
  ptx_duni *duni;
  ptx_hrec *hrec; /* (with duni) hit_run's records */
  uint32_t *hblk; /* (with duni) at a PTX_HREC_BLK record's pc: its block in hblks */
  ptx_hblk *hblks;
  ptx_hsrc *hsrc;
  uint32_t *hdst;
  size_t hmemo_words; /* a worker's memo of the blocks (ptx_cluster.hmemo) */
  uint8_t *ub_init;
  uint32_t ub_bytes;
  /* the warps of every CTA left out of the run: each would store nothing and read only what a lower warp
   * that runs reads first (issue 50, bc2: run.c idle_warps; a bit a warp, 0: none) */
  uint32_t idle;
  uint64_t max_steps;
  /* The launch's error is that of the earliest failing cluster in the launch's order, as on one
   * thread (machine.c ptx_fail): an error stops its cluster and every later one (ptx_stop), an
   * earlier cluster still runs to its end and, failing, replaces it (the diagnostics from
   * diag_mark on); the caller's interrupt stops them all (fail_pos 0) */
  int failed; /* set under lock, read anywhere: ptx_failed() (relaxed atomics, issue 53's TSan build) */
  uint64_t fail_pos; /* the failed cluster's place in the launch's order (set under lock, read: ptx_stop) */
  unsigned diag_mark[2]; /* L->diag's count and total before the first failure */
  tc5_status status;
  tc5_diag *diag;
  void *lock;               /* pthread_mutex_t*: errors, atomics, printf */
  uint64_t next_cta;        /* the next cluster to run (a cluster index) */
  uint64_t ncta;
  uint32_t cluster[3];      /* CTAs of a cluster along x, y, z */
  uint32_t cluster_size;
  uint64_t nclusters;
  uint64_t thread_insns, warp_insns;
  struct chk_log *log;      /* the checker's findings (cfg.check != none) */
  chk_code ck;              /* the checker's view of m->code (cfg.check != none) */
  uint64_t schedule;        /* 0: the default schedule; else the seed of an adversarial one */
  /* the timing model (NULL: off): its launch, the instructions' classes,
   * the clusters to run (run_n; run_pick[i] the i-th, NULL: in order) */
  const char *tm_gpu;        /* cfg.timing or TC5_TIMING, resolved (NULL: off) */
  const char *tm_trace;
  uint32_t tm_sample;
  struct tm_launch *tm;
  tm_insn *tmi;
  uint64_t run_n;
  const uint64_t *run_pick;
  unsigned mma_threads;     /* host threads each CTA's MMA arithmetic may use: those
                               the launch has beyond one a worker (fewer clusters
                               to run than threads: a sampled launch) */
} ptx_launch;
/* whether the launch failed: read by every worker while one sets it (under L->lock) */
static inline int ptx_failed(const ptx_launch *L) { return __atomic_load_n(&L->failed, __ATOMIC_RELAXED); }
/* whether the cluster at `pos` in the launch's order is to stop: it or an earlier one failed (a later
 * one's failure lets it run on: its own error, if any, is the launch's) */
static inline bool ptx_stop(const ptx_launch *L, uint64_t pos) {
  return ptx_failed(L) && __atomic_load_n(&L->fail_pos, __ATOMIC_RELAXED) <= pos;
}

typedef struct ptx_mbar {
  uint32_t addr;
  tc5_mbarrier mb;
  uint32_t tx_line;   /* the last complete_tx (a TMA copy's): its line, 0 none ... */
  uint32_t tx_thread; /* ... and the thread (in the CTA) that issued it */
  tm_mb tm;           /* the timing model's time of it (zeroed at init) */
} ptx_mbar;

struct ptx_cta;
/* what a warp retrying (PX_BLOCK) waits for, in wait_id, when it is not an
 * mbarrier (whose shared offset wait_id is otherwise) */
#define PTX_WAIT_ALLOC 0xA110Cu /* Tensor Memory columns (tcgen05.alloc) */
#define PTX_WAIT_PEER 0xBEE2u   /* the peer CTA's warp (a .cta_group::2 allocation instruction) */
#define PTX_SB_MAX 8 /* a warp's store buffer under a seeded schedule: entries */
/* what a warp waits for (ptx_warp.wait) */
enum { W_RUN = 0, W_BAR, W_RETRY };
typedef struct ptx_warp {
  struct ptx_cta *cta;
  uint64_t *r;          /* nregs x 32 */
  uint8_t *ub;          /* a byte a register (L->duni; run.c ub_run): PTX_UB, its 32 lanes hold one value;
                           PTX_LZ (with PTX_UB), that value in u0 alone, its 32 lanes stale */
  uint64_t *u0;         /* (with ub) a register with its PTX_UB byte: its one value, a word a register (run.c) */
  uint32_t id;          /* warp index in the CTA */
  uint32_t exists;      /* threads that exist (a last warp may be partial) */
  uint32_t live;        /* threads that have not exited */
  uint32_t pc;          /* when converged */
  uint32_t active;      /* the lanes executing the current instruction */
  bool converged;
  bool done;
  uint8_t wait;         /* W_RUN, W_BAR (bar.sync), W_RETRY (an mbarrier wait, a tcgen05.alloc) */
  uint32_t wait_id;
  uint32_t poll_pc;     /* mbarrier test/try_wait that last returned false ... */
  uint64_t poll_epoch;  /* ... and the CTA's epoch then */
  bool red_arrived;     /* bar.red: arrived, waiting for the phase's result */
  uint32_t cl_phase;    /* barrier.cluster.arrive: the cluster barrier's phase it arrived in */
  bool cl_arrived;      /* ... and has not waited yet */
  uint32_t red_phase;
  uint32_t tpc[32];     /* per-thread pc when not converged */
  uint32_t aligned_wait; /* the live threads when part of the warp first waited at a .aligned
                          * instruction for the rest (0: none waits) */
  /* branch results (PX_BRANCH) */
  uint32_t br_taken;
  uint32_t br_target;
  const struct ptx_region *region[4]; /* the global buffers of the last accesses, newest first */
  uint8_t *local;       /* 32 x local_bytes */
  uint32_t local_bytes;
  uint8_t depth[32];    /* call depth of each thread */
  struct ptx_frame {
    uint32_t ret_pc;    /* where ret goes back to */
    uint32_t func;      /* the function called */
    int32_t ret_off;    /* the caller's return-value variable, -1 none */
  } (*calls)[32];       /* PTX_MAX_CALL_DEPTH x 32 */
  uint64_t wait_epoch;  /* c->epoch when it started to wait for a retry */
  uint64_t steps;
  uint64_t thread_insns;
  bool chk_pending;     /* the checker follows registers of a tcgen05.ld/st */
  uint8_t cf[32];       /* CC.CF of each thread: the carry out of add.cc/sub.cc/mad.cc (9.7.2; of a + ~b for sub) */
  /* under a seeded schedule (issue 53): the warp's weak/relaxed st.global
   * not yet visible to other warps, oldest first (ptx_sb_*, sched.c) */
  /* scoped visibility (issue 53): seen, the CTAs of the cluster (a bit a
   * rank) whose warps see the entry (an entry every CTA sees is written to
   * memory); ecta, eall: the warp's fences and releases before it, at .cta
   * scope or wider and at .cluster scope or wider (machine.c, sb_before);
   * cum: after a fence.acq_rel at .cluster scope or wider, a CTA sees it only
   * with the other warps' stores the warp's CTA saw (cumulativity); hold:
   * made after a .cta fence while the warp's late load was pending: its CTA
   * sees it only after that load is read (ptx_ldq_*); owner: a store of
   * st.shared::cluster to another CTA's shared memory, that CTA's rank + 1
   * (0: global memory): once that CTA sees it, it is written (every CTA sees
   * it: shared memory's other readers read memory); wseen: the warps of the
   * writer's own CTA (a bit a warp id) that see it before the CTA does (a
   * CTA's warps may disagree on the order of two other warps' stores: IRIW
   * within one CTA, 8.7); cumc: after a fence.acq_rel at any scope, a warp
   * of its CTA sees it only with the other warps' stores the writer saw */
  struct ptx_sbuf { uint8_t *p; uint8_t n; uint8_t b[8]; uint16_t seen, ecta, eall; bool cum, cumc, hold; uint8_t owner; uint32_t wseen; } sb[PTX_SB_MAX];
  uint8_t sb_n;
  uint16_t sb_ecta, sb_eall; /* the warp's counts of those fences and releases */
  bool sb_part;              /* some entry is visible to some CTA, not yet to all */
  bool sb_cum;               /* a fence.acq_rel at .cluster scope or wider since its last release_all: new entries get cum */
  bool sb_cumc;              /* a fence.acq_rel at any scope since its last release to its CTA: new entries get cumc */
  /* a load performed late (issue 53, seeded schedules: ptx_ldq_*): a weak
   * or relaxed scalar ld.global's value is read when an instruction needs
   * it, so the warp's later stores to other addresses may be seen first
   * (load buffering's weak outcome, 8.7) */
  struct ptx_ldq { const uint8_t *p[32]; uint64_t a[32]; uint64_t rm; uint32_t mask, reg; uint8_t eb; bool sgn; } ldq;
  bool ldq_on;
  bool ldq_fenced; /* a .cta fence since the late load: later stores are held for the CTA (sbuf.hold) */
  bool ldq_sc;     /* a fence.sc.cta since the late load: what it reads is made visible to the CTA (cumulativity) */
  bool ldq_busy;   /* the late load is being read (ptx_ldq_perform): its held stores cannot be shown in the meantime */
  uint32_t px_sync; /* the CTA's proxy clock when the warp last completed a barrier or mbarrier wait (ptx_px_*) */
} ptx_warp;

typedef struct ptx_bar {
  uint32_t phase;       /* phases completed */
  uint32_t red_popc;    /* bar.red: the current phase's contributions */
  bool red_and, red_or;
  uint32_t result_popc; /* bar.red: the last completed phase's results */
  bool result_and, result_or;
  uint32_t arrived;     /* warps arrived */
  uint32_t expected;    /* warps expected (0: all live warps) */
  uint32_t waiting;     /* bitmask of waiting warps (up to 32 warps) */
} ptx_bar;

typedef struct ptx_wg {
  uint32_t arrived; /* warps of the warpgroup at its wgmma.mma_async (bit per warp) */
  uint32_t pc;
} ptx_wg;

struct ptx_cta;
/* the CTAs of one cluster, run together by one host thread (a grid
 * without clusters has clusters of one CTA) */
typedef struct ptx_cluster {
  struct ptx_cta *ctas;  /* by rank (%cluster_ctarank) */
  uint32_t n;
  /* run.c's registers uniform as the warp runs (L->duni) on this worker's clusters: the warp-instructions
   * run so and all of them while on, and off for the rest of the launch when few ran so (cta_setup) */
  uint64_t duni_hits, duni_seen;
  bool duni_off;
  uint64_t *hmemo; /* (L->duni) run.c hit_run's memo of its blocks (ptx_hblk.memo) */
  uint32_t id[3];        /* %clusterid */
  uint64_t pos;          /* its place in the launch's order (worker_run; ptx_stop) */
  /* barrier.cluster: phases completed, threads arrived in this one */
  uint32_t bar_phase, bar_arrived;
  /* reads of never-written shared / Tensor Memory by the engine (MMA and
   * cp operands, tcgen05.ld, wgmma) of any CTA of the cluster: tolerated,
   * the memory filled with 0xFF at the CTA's start; the checker reports
   * them after the instruction (ptx_uninit_flush) */
  tc5_uninit_log uninit;
  /* the engine's view of each CTA, by rank: a CTA pair (ranks 2i, 2i + 1)
   * is adjacent, as tc5_mma_issue / tc5_cp / tc5_commit take it */
  tc5_cta *mma;
  /* a .cta_group::2 alloc / dealloc / relinquish_alloc_permit of each pair
   * (9.7.16.5, Table 46: one warp of each CTA): the first warp to arrive
   * waits for its peer's, which performs it for both */
  struct ptx_pair_op {
    uint8_t op;       /* the instruction (exec_tcgen05's T_ALLOC ...) */
    uint8_t arrived;  /* bit h: the warp of CTA 2i + h waits */
    uint8_t done;     /* bit h: performed, the waiting warp may go on */
    uint32_t ncols, taddr, line;
  } pair[8];
  struct ptx_sched *sched;  /* an adversarial schedule (NULL: the default one) */
  uint32_t sb_part;         /* warps with stores visible to some CTAs, not all (ptx_sb_*: loads overlay them) */
  uint32_t sb_warps;        /* warps whose store buffer holds entries */
  tm_mb tm_bar;             /* the timing model's time of barrier.cluster's phases */
} ptx_cluster;

/* ---- adversarial schedules (sched.c) ----
 * A seeded schedule of a cluster: PCT-style priorities over its warps (the
 * runnable warp of highest priority runs until it waits or reaches a change
 * point, which drops it below every other), and asynchronous operations
 * that complete late: an instruction marked PF_LATE is kept, with a copy of
 * the registers it reads, in a FIFO and executed later (at random between
 * turns, when no warp can run, or when an instruction needs it: PF_FLUSH_*),
 * which is a legal order under the asynchronous rules. */
typedef struct ptx_late_op {
  ptx_warp ghost;           /* the issuing warp as it was, registers: regs */
  const struct ptx_insn *in;
  uint32_t mask;
  uint64_t *regs;           /* nregs x 32, only the instruction's operands filled */
  uint64_t born;            /* the schedule's clock when it was issued */
} ptx_late_op;
typedef struct ptx_sched {
  uint64_t rng;
  uint64_t sb_rng;          /* the store buffers' own stream (issue 53): rng's draws stay those of before */
  uint64_t px_rng;          /* the proxy boundary's own stream (ptx_px_*) */
  uint32_t sb_den;          /* a store buffer becomes visible further after a turn with chance 1/sb_den (by cluster) */
  uint32_t late_den;        /* a pending operation completes after a turn with chance 1/late_den (0: never) */
  uint32_t span;            /* change points: a turn runs 1..span warp-instructions */
  uint64_t clock;           /* warp-instructions the cluster has run */
  uint64_t max_age;         /* fairness: an operation completes at the latest this many later */
  int64_t *prio;            /* per warp of the cluster (rank * nwarps + warp) */
  int64_t low;              /* the lowest priority given so far */
  ptx_late_op *q;
  unsigned head, n, cap;
  uint64_t **pool;          /* register files not in use */
  unsigned npool, pool_cap;
  size_t regs_bytes;
} ptx_sched;
tc5_status ptx_sched_new(ptx_sched **out, unsigned nwarps);
void ptx_sched_free(ptx_sched *s);
void ptx_sched_reset(ptx_sched *s, uint64_t seed, uint64_t cluster, unsigned nwarps);
uint64_t ptx_sched_rand(ptx_sched *s);
int ptx_late_defer(struct ptx_warp *w, const struct ptx_insn *in, uint32_t mask);
/* completes the oldest pending operation: PX_NEXT, PX_ERROR (the launch failed) */
int ptx_late_complete_one(ptx_cluster *cl);
/* the store buffer of a warp under a seeded schedule (issue 53): a weak or
 * relaxed st.global of at most 8 bytes is kept (ptx_sb_put) and reaches
 * memory later (ptx_sb_drain: at the warp's fences, barriers, atomics and
 * other memory instructions, between turns at random, at the cluster's end) */
void ptx_sb_put(struct ptx_warp *w, uint8_t *p, const void *v, unsigned n);
void ptx_sb_drain(struct ptx_warp *w);
bool ptx_sb_overlaps(const struct ptx_warp *w, const uint8_t *p, unsigned n);
void ptx_sb_drain_cluster(ptx_cluster *cl, ptx_sched *s, unsigned den);
/* scoped visibility (issue 53): the warp's stores become visible to its own
 * CTA (a .cta fence, bar.sync, a .cta release), or to every CTA together
 * with whatever other warps' stores its CTA sees (a release or fence at
 * .cluster scope or wider, an atomic, an asynchronous copy, an access
 * that does not go through the scalar ld/st path: cumulativity) */
void ptx_sb_release_cta(struct ptx_warp *w);
/* after entries' `seen` changed: the entries visible to every CTA go to memory */
void ptx_sb_settle(struct ptx_warp *w);
/* entry i of w becomes visible to the CTA of rank r, with the warp's older
 * entries ordered before it for that CTA (then ptx_sb_settle) */
void ptx_sb_show(struct ptx_warp *w, unsigned i, uint32_t r);
/* entry i of w becomes visible to warp u of w's own CTA alone (not yet to
 * the CTA's other warps), with the entries ordered before it for the CTA */
void ptx_sb_show_warp(struct ptx_warp *w, unsigned i, const struct ptx_warp *u);
/* a fence or release of w at .cta scope (cta) or wider: its later stores
 * are ordered after its earlier ones for its CTA, or for every CTA */
void ptx_sb_epoch(struct ptx_warp *w, bool cta);
void ptx_sb_release_all(struct ptx_warp *w);
/* by the instruction's traits: what it makes visible before it runs */
void ptx_sb_order(struct ptx_warp *w, const struct ptx_insn *in);
/* a load of n bytes at p by w: the memory's bytes with the stores of other
 * warps visible to w (its CTA or w alone) and not yet in memory laid over
 * them (into buf); under a seeded schedule, a store not yet visible to w
 * may become so (to w alone when the writer is of w's CTA) */
const uint8_t *ptx_sb_view(struct ptx_warp *w, const uint8_t *p, unsigned n, uint8_t *buf);
/* a load's value from p (eb bytes), sign-extended (sgn) and masked (rm) */
static inline uint64_t ptx_ld_value(const uint8_t *p, unsigned eb, bool sgn, uint64_t rm) {
  uint64_t v;
  switch (eb) {
  case 1: v = *p; break;
  case 2: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
  case 4: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
  default: memcpy(&v, p, 8); break;
  }
  if (sgn && eb < 8 && (v >> (8 * eb - 1)) & 1) v |= ~0ull << (8 * eb);
  return v & rm;
}
/* a store's eb low bytes of v at p (little-endian, as memcpy(p, &v, eb)) */
static inline void ptx_st_value(uint8_t *p, unsigned eb, uint64_t v) {
  switch (eb) {
  case 1: *p = (uint8_t)v; break;
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  case 8: memcpy(p, &v, 8); break;
  default: memcpy(p, &v, eb); break;
  }
}
/* the warp's deferred load (w->ldq_on): read it now (machine.c) */
void ptx_ldq_perform(struct ptx_warp *w);
/* whether `in` (lanes `mask`) needs the warp's deferred load read first:
 * every instruction but one that names none of its registers and is
 * arithmetic, a move, a branch, or a weak/relaxed scalar st.global to other
 * addresses */
bool ptx_ldq_due(struct ptx_warp *w, const struct ptx_insn *in, uint32_t mask);
/* SplitMix64 (Steele et al., OOPSLA 2014): the schedules' generator */
static inline uint64_t ptx_splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* completes the pending operations up to the last one w issued (NULL: all) */
int ptx_late_flush(ptx_cluster *cl, const struct ptx_warp *w);
/* wait_group N: completes the pending operations up to w's commit_group of
 * that kind (in->aux2) that has N (keep) more recent ones after it; *pending:
 * the commit_groups of that kind of w still in the FIFO after it (at most
 * N), which the checker has not counted yet */
int ptx_late_flush_groups(ptx_cluster *cl, const struct ptx_warp *w, const struct ptx_insn *in, uint32_t keep,
                          uint32_t *pending);

typedef struct ptx_cta {
  ptx_launch *L;
  ptx_cluster *cl;
  uint32_t rank;            /* in the cluster */
  uint32_t cid[3];          /* %cluster_ctaid */
  uint32_t ctaid[3];
  uint64_t linear;
  tc5_smem smem;
  tc5_tmem tmem;
  tc5_cta *mma;             /* &cl->mma[rank] */
  ptx_warp *warps;
  uint32_t nwarps;
  ptx_bar bar[PTX_MAX_BARRIERS];
  ptx_wg wg[8];
  ptx_mbar *mbars;
  unsigned nmbars, mbars_cap;
  uint32_t cp_async_pending;  /* cp.async groups are completed when issued */
  bool progress;              /* something a waiting warp may see changed */
  uint64_t epoch;             /* counts the changes: a retrying warp waits for a new one */
  struct chk_cta *chk;        /* the checker's state, NULL with --check=none */
  struct tm_cta *tm;          /* the timing model's, NULL with timing off */
  struct ptx_px *px;          /* generic writes the async proxy may not see yet (seeded schedules; ptx_px_*) */
} ptx_cta;

/* the generic / async proxy boundary under a seeded schedule (issue 53,
 * machine.c): a generic-proxy write to the CTA's own shared memory
 * (st.shared, stmatrix, atom, cp.async: what the checker counts as a
 * generic store) stays invisible to the async proxy until a
 * fence.proxy.async of its warp (or of a warp that completed a barrier or
 * an mbarrier wait after it); an async-proxy read (TMA store/reduction,
 * bulk copy from shared memory, tcgen05.mma/cp operands) reads each such
 * 16-byte granule stale or, with chance 1/2, as written (from then on
 * visible). An async-proxy write makes its bytes visible. Never with the
 * default schedule (c->px stays NULL). */
void ptx_px_write(ptx_warp *w, uint32_t off, uint32_t n);
void ptx_px_clear(ptx_cta *c, uint32_t off, uint32_t n);
void ptx_px_fence(ptx_warp *w);
/* an async-proxy read of [off, off + n) of c's shared memory (n 0: all of
 * it, for operands read through descriptors): stale granules' old bytes are
 * in shared memory until ptx_px_stale_end (nothing else may write it then) */
void ptx_px_stale_begin(ptx_cta *c, uint32_t off, uint32_t n);
void ptx_px_stale_end(ptx_cta *c);
/* the same for a wgmma.mma_async's operands (all of c's shared memory),
 * granules last written by cp.async excepted (ptx_px_mark_cpa: whether
 * cp.async -> wgmma needs the proxy fence is open, docs/spec-departures.md) */
void ptx_px_stale_begin_wgmma(ptx_cta *c);
void ptx_px_mark_cpa(ptx_cta *c, uint32_t off, uint32_t n);
/* the same for n bytes the async proxy copies from off into buf (the
 * current bytes there): stale granules' bytes laid over them */
void ptx_px_read(ptx_cta *c, uint32_t off, uint8_t *buf, uint32_t n);
void ptx_px_reset(ptx_cta *c);
void ptx_px_free(ptx_cta *c);
struct ptx_px {
  uint32_t clock;    /* counts the tracked generic writes */
  uint32_t ndirty, nswapped;
  uint8_t *old;      /* a dirty granule's bytes as the async proxy sees them */
  uint8_t *save;     /* a swapped granule's current bytes (ptx_px_stale_begin) */
  uint32_t *t;       /* by granule: the clock of its last generic write, 0: clean */
  uint32_t *pos;     /* by granule: its place in dirty */
  uint8_t *warp;     /* by granule: the warp of its last generic write */
  uint32_t *dirty, *swapped;
};
static inline void ptx_px_sync(ptx_warp *w) {
  if (__builtin_expect(w->cta->px != NULL, 0)) w->px_sync = w->cta->px->clock;
}

/* whether reader u sees entry i of w's buffer (u == w: its own) */
static inline bool ptx_sb_sees(const ptx_warp *w, unsigned i, const ptx_warp *u) {
  return u == w || (w->sb[i].seen >> u->cta->rank & 1) || (u->cta == w->cta && (w->sb[i].wseen >> u->id & 1));
}

/* ---- helpers for semantics functions ---- */
#define PTX_R(w, reg) ((w)->r + (size_t)(reg) * 32u)
/* v's low `bits` bits sign-extended; the mask of `bits` low bits (1 to 64) */
static inline int64_t sx(uint64_t v, unsigned bits) {
  return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
static inline uint64_t wmask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
/* the host's AVX2, asked at run time (x86-64 under GCC or Clang; 0 elsewhere): the semantics functions' whole-warp
 * row loops take their AVX2 builds where it is there. PTX_ROWS_AVX2(mask): a whole warp's mask and AVX2 (one
 * definition for every family: exec_alu.c, exec_float.c, exec_mem.c, run.c) */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define PTX_HAS_AVX2() __builtin_cpu_supports("avx2")
#else
#define PTX_HAS_AVX2() 0
#endif
#define PTX_ROWS_AVX2(mask) ((mask) == 0xFFFFFFFFu && PTX_HAS_AVX2())
/* for each lane of `mask`: `body` with `l` the lane */
#define PTX_LANES(mask, ...)                                    \
  do {                                                          \
    uint32_t m__ = (mask);                                      \
    if (m__ == 0xFFFFFFFFu) {                                   \
      for (unsigned l = 0; l < 32; l++) { __VA_ARGS__; }        \
    } else {                                                    \
      while (m__) {                                             \
        unsigned l = (unsigned)__builtin_ctz(m__);              \
        m__ &= m__ - 1;                                         \
        { __VA_ARGS__; }                                        \
      }                                                         \
    }                                                           \
  } while (0)

/* ---- the machine's services (machine.c): the failure path, special
 * registers, memory spaces and addresses, the mbarrier store ---- */
/* Records a kernel error at instruction `in` for lane `lane` (or -1 for the
 * warp): "line L: OPCODE: message (CTA (x,y,z) thread (x,y,z))". Returns
 * PX_ERROR. */
int ptx_fail(ptx_warp *w, const ptx_insn *in, int lane, tc5_status st, uint64_t value,
             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Under L->lock: whether a failure of the cluster at `pos` (in the launch's order) becomes the
 * launch's error: none yet, or the recorded one is a later cluster's (its diagnostics are then
 * dropped). If so, the launch now fails with `st` at `pos`; the caller adds the diagnostics. */
bool ptx_fail_claim(ptx_launch *L, uint64_t pos, tc5_status st);
/* whether the module's .target is one of `targets` (space-separated; a
 * name ending in "f" stands for its family's f and a targets, "sm_100f"
 * for sm_100a/sm_100f) */
bool ptx_target_in(const tc5_ptx_module *m, const char *targets);
/* the checker's view of the module's instructions (check/check_event.h),
 * made once per launch; CHK_IN: the entry of instruction `in` of warp w */
tc5_status ptx_chk_code(const tc5_ptx_module *m, chk_code *out);
void ptx_chk_code_free(chk_code *c);
/* the timing model's view of the instructions (timing_class.c; INTERIM
 * until the opcode table's timing class) */
tc5_status ptx_timing_code(const tc5_ptx_module *m, tm_insn **out);
/* timing_class.c: the Tensor Memory columns a CTA of entry f holds at most, and the line of an
 * allocation whose nCols is not constant (0: none; t47u) */
void ptx_timing_tmem(const tc5_ptx_module *m, const ptx_func *f, const chk_insn *ck, uint32_t *cols, uint32_t *line);
#define TM_PC(w, in) ((uint32_t)((in) - (w)->cta->L->m->code))
#define CHK_IN(w, in) ((w)->cta->L->ck.insn + ((in) - (w)->cta->L->m->code))
/* the checker's view of warp w (who) and of mbarrier mb of CTA c, made at the event */
#define CHK_W(w) (&(chk_warp){(w)->cta->chk, (w)->id, (w)->active, (w)->live, (w)->r, &(w)->chk_pending})
#define CHK_MB(c, m) (&(chk_mbar){(uint32_t)((m) - (c)->mbars), (m)->addr, (m)->mb.phase, (m)->mb.expected})
/* the opcode text of an instruction (module.c) */
const char *ptx_insn_text(const tc5_ptx_module *m, const ptx_insn *in);
/* "FILE:LINE" of the source line instruction `in` came from (the outermost
 * inlined_at's when it was inlined, then " (in FILE:LINE)" of the .loc
 * itself), cut to cap bytes; "" when it carries no .loc. Returns out. */
char *ptx_insn_source(const tc5_ptx_module *m, const ptx_insn *in, char *out, size_t cap);

/* ---- memory (machine.c) ---- */
/* a state space's name, for messages */
static inline const char *ptx_space_name(uint8_t s) {
  static const char *const n[] = {"generic", "global", "shared", "shared::cluster", "local", "const", "param", "param"};
  return s < 8 ? n[s] : "?";
}
/* the bytes' "ever written" bits (tc5_smem), as a store sets them */
static inline void ptx_mark_written(tc5_smem *s, uint32_t addr, uint32_t n) {
  if ((addr & 7) + n <= 8) { /* inside one byte of the map (every aligned access of up to 8 bytes): its bits at once */
    s->written[addr >> 3] |= (uint8_t)(((1u << n) - 1) << (addr & 7));
    return;
  }
  /* wider (cp.async's 16 bytes, v4 stores): the first byte's high bits, whole bytes, the last byte's low bits */
  uint32_t end = addr + n;
  if (addr & 7) s->written[addr >> 3] |= (uint8_t)(0xFFu << (addr & 7)), addr = (addr | 7) + 1;
  for (; addr + 8 <= end; addr += 8) s->written[addr >> 3] = 0xFFu;
  if (addr < end) s->written[addr >> 3] |= (uint8_t)((1u << (end - addr)) - 1);
}
/* Translates [addr, addr + n) in `space` for lane `lane` to host memory;
 * NULL after recording the error. For shared: *smem_off gets the offset. */
uint8_t *ptx_mem(ptx_warp *w, const ptx_insn *in, int lane, uint8_t space, uint64_t addr,
                 uint32_t n, bool write);
/* a shared-memory address's mbarrier object (created by init) */
ptx_mbar *ptx_mbar_find(ptx_cta *c, uint32_t addr);
ptx_mbar *ptx_mbar_get(ptx_cta *c, uint32_t addr, bool create);
/* the initialised mbarrier at shared::cluster address addr (its CTA in
 * *cta when cta is not NULL); NULL after failing (the rule mbarrier-uninit) */
ptx_mbar *ptx_mbar_live(ptx_warp *w, const ptx_insn *in, int lane, uint32_t addr, ptx_cta **cta);
/* one arrival on the mbarrier at shared address addr (machine.c) */
int ptx_mbar_arrive_lane(ptx_warp *w, const ptx_insn *in, int lane, uint32_t addr, uint32_t count);
/* complete_tx of `bytes` on the mbarrier at shared address addr, as a TMA
 * copy issued by `lane` does (machine.c) */
int ptx_mbar_complete_tx_lane(ptx_warp *w, const ptx_insn *in, int lane, uint32_t addr, uint32_t bytes);
/* completes barrier id's phase of CTA c when its threads have arrived
 * (machine.c) */
bool ptx_bar_check(ptx_cta *c, uint32_t id);
/* completes barrier.cluster's phase when every live thread of the
 * cluster has arrived (machine.c) */
bool ptx_cluster_bar_check(ptx_cluster *cl);
/* a warp's arrival at barrier id (count threads, 0 = all); wait: bar.sync
 * rather than bar.arrive (machine.c) */
int ptx_bar_arrive(ptx_warp *w, const ptx_insn *in, uint32_t id, uint32_t count, bool wait);
/* the value of a special register now (machine.c) */
uint64_t ptx_sreg_now(ptx_warp *w, unsigned which, unsigned lane);
/* a generic or shared-space address as a 32-bit shared address (the CTA's
 * own offset, or a shared::cluster address: ptx_cluster_addr decodes it);
 * false outside the shared window */
bool ptx_shared_addr(ptx_warp *w, uint8_t space, uint64_t addr, uint32_t *off);
/* A shared::cluster address (or a generic one in the shared window): the
 * CTA of the cluster it names and the offset there; NULL when it names no
 * CTA of the cluster. The shared window of a cluster's CTAs is
 * (rank << 24) | offset, and a CTA's own shared::cta addresses are its
 * place in it, as the H100 gives them (gpu/cluster_addr.cu: rank 1's first
 * variable is 0x1000400, mapa to rank 0 gives 0x400); a .shared::cta
 * access names the CTA's own memory only. */
#define PTX_CLUSTER_SHIFT 24
ptx_cta *ptx_cluster_addr(ptx_warp *w, uint8_t space, uint64_t addr, uint32_t *off);
/* the shared::cluster address of offset `off` in CTA t, and an address's
 * offset in its CTA */
#define PTX_CLUSTER_FORM(t, off) ((uint32_t)(t)->rank << PTX_CLUSTER_SHIFT | (uint32_t)(off))
#define PTX_CLUSTER_OFF(a) ((uint32_t)(a) & ((1u << PTX_CLUSTER_SHIFT) - 1))
/* every warp of CTA c has exited */
static inline bool ptx_cta_exited(const ptx_cta *c) {
  for (uint32_t k = 0; k < c->nwarps; k++)
    if (!c->warps[k].done) return false;
  return true;
}


/* ---- an instruction as parsed, before decoding ---- */
typedef enum ptx_rkind {
  RO_REG = 1,   /* reg (a register, or a|b pair with reg2)           */
  RO_INT,       /* integer literal: ival                             */
  RO_F32,       /* 0fXXXXXXXX: bits                                  */
  RO_F64,       /* 0dXXXX... or a decimal float: bits (f64)          */
  RO_SYM,       /* a name that is no register: sym (label, variable,
                   parameter, function), resolved by the decoder     */
  RO_ADDR,      /* [base + ival]: reg or sym base (or neither); with n > 0
                   [base, {e...}] (a tensor map and its coordinates)  */
  RO_VEC,       /* {a, b, ...}: the elements follow in the raw list   */
  RO_LIST,      /* (a, b, ...) of call: the elements follow          */
  RO_SREG,      /* %tid.x ...: ival = SR_*                           */
  RO_SINK       /* _                                                 */
} ptx_rkind;
typedef struct ptx_raw_opnd {
  uint8_t kind;
  uint8_t neg;
  uint16_t n;        /* RO_VEC / RO_LIST: elements (stored in raw->elems) */
  uint32_t reg, reg2;
  uint32_t first;    /* RO_VEC / RO_LIST: first element index */
  int64_t ival;
  uint64_t bits;
  const char *sym;   /* RO_SYM, RO_ADDR's symbol base: interned by the parser (NULL: none) */
  uint32_t col;
} ptx_raw_opnd;
#define PTX_RAW_MAX_ELEMS 256
typedef struct ptx_raw {
  const char *op;
  size_t oplen;
  uint32_t guard;
  uint8_t guard_neg;
  unsigned nops;
  ptx_raw_opnd ops[PTX_MAX_OPS];
  unsigned nelems;
  uint32_t elem_base;           /* the elements' place in the parser's pool */
  const ptx_raw_opnd *elems;    /* set before decoding: pool + elem_base    */
  uint32_t line, col;
  uint32_t scope;    /* label scope of the instruction */
  uint32_t func;
  ptx_loc loc;
} ptx_raw;

/* Resolution of names the parser could not (labels, symbols), given to
 * the decoder by the parser. */
typedef struct ptx_resolver {
  void *ctx;
  /* a label visible from `scope`: its instruction index */
  bool (*label)(void *ctx, uint32_t scope, const char *name, uint32_t *pc);
  /* a variable visible from `scope` of function `func` (the block's own
   * .local/.param first, then the enclosing blocks', then the module's):
   * its index in module->vars */
  bool (*var)(void *ctx, uint32_t func, uint32_t scope, const char *name, unsigned *index);
  /* a .branchtargets table named by the label before it: its targets */
  bool (*table)(void *ctx, uint32_t scope, const char *name, const char *const **targets, unsigned *n);
} ptx_resolver;

/* ---- decoding (decode.c) ---- */
tc5_status ptx_decode(tc5_ptx_module *m, const ptx_raw *raw, const ptx_resolver *res,
                      ptx_insn *out, tc5_diag *diag);
/* ---- building a module (module.c) ---- */
/* registers holding a constant in every lane (created once per value) */
enum { PC_VALUE = 0, PC_SREG, PC_VAR };
uint32_t ptx_const_reg(tc5_ptx_module *m, uint8_t kind, uint64_t value, int64_t off);
/* the constant register reg's entry (its kind and value), or NULL: reg is not a constant register */
const struct ptx_const *ptx_const_of(const tc5_ptx_module *m, uint32_t reg);
uint32_t ptx_new_reg(tc5_ptx_module *m, unsigned bits);
/* marks variable k as named by function f */
void ptx_var_use(tc5_ptx_module *m, unsigned k, unsigned f);
/* The shared memory of a CTA running function f, as the H100 lays it out
 * (gpu/smem_layout.cu): 1 KiB reserved, then the .shared variables that f
 * names, in declaration order, each at its alignment; then the dynamic
 * (.extern) array at the largest .align its declarations give (16 when f
 * names none). addr (may be NULL) gets each variable's shared address. */
void ptx_shared_layout(const tc5_ptx_module *m, unsigned f, uint32_t *addr, uint32_t *static_bytes,
                       uint32_t *dyn_base);

/* the semantics, by file */
#define PTX_EXEC(name) int name(ptx_warp *w, const ptx_insn *in, uint32_t mask)
/* an instruction's function and its build for lane 0 alone (name##_l0: the same body, mask 1, so that its lane
 * loop and a whole warp's row paths fold away, its registers read and written through PTX_RL: their words in
 * w->u0): run.c's run of hits calls the latter (ptx_duni.l0), for a register-pure instruction whose sources hold
 * one value each. Written PTX_EXEC_L0(x_add) { body }, the body's registers PTX_RL's (exec_alu.c OPSL2..4) */
#define PTX_EXEC_L0(name)                                                                                 \
  static inline __attribute__((always_inline)) int name##_body(ptx_warp *w, const ptx_insn *in, uint32_t mask, \
                                                               bool l0__);                                \
  static PTX_EXEC(name) { return name##_body(w, in, mask, false); }                                       \
  static __attribute__((flatten)) PTX_EXEC(name##_l0) {                                                   \
    (void)mask;                                                                                           \
    return name##_body(w, in, 1u, true);                                                                  \
  }                                                                                                       \
  static inline __attribute__((always_inline)) int name##_body(ptx_warp *w, const ptx_insn *in, uint32_t mask, \
                                                               bool l0__)
/* a register's lanes in a PTX_EXEC_L0 body: in its lane-0 build, the register's word in w->u0 (run.c: the value of
 * a register whose 32 lanes hold one), its lane 0; else its row (PTX_R) */
#define PTX_RL(w, reg) (l0__ ? (w)->u0 + (reg) : PTX_R(w, reg))
/* the lane-0 build of an instruction's function (PTX_EXEC_L0), else fn itself: exec_alu.c, exec_float.c */
ptx_exec_fn ptx_alu_lane0(ptx_exec_fn fn);
ptx_exec_fn ptx_float_lane0(ptx_exec_fn fn);
/* a family's functions and their lane-0 builds (ptx_alu_lane0, ptx_float_lane0): fn's in t[0..n), else fn */
typedef struct ptx_lane0_pair {
  ptx_exec_fn fn, l0;
} ptx_lane0_pair;
static inline ptx_exec_fn ptx_lane0_find(const ptx_lane0_pair *t, size_t n, ptx_exec_fn fn) {
  for (size_t i = 0; i < n; i++)
    if (t[i].fn == fn) return t[i].l0;
  return fn;
}
bool ptx_is_shfl(const ptx_insn *in); /* exec_warp.c */
/* the bits set in v, without libgcc's __popcountdi2 (the build assumes no popcnt instruction: a call a mask, 1.5% of
 * FlagGems' sort sweep in run_warp's count of thread instructions) */
static inline unsigned ptx_popc32(uint32_t v) {
  v -= (v >> 1) & 0x55555555u;
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}
/* a register's byte in a warp's row (ptx_warp.ub; run.c: registers uniform as the warp runs): a byte, not a
 * bit, so that setting one register's is a store, not a read-modify-write of a word its neighbours share.
 * PTX_FIN (run.c hit_full): the register's value is final, the same until the CTA ends (a constant's, or the
 * result of its one writer run on final values); PTX_GM (not with PTX_UB; run.c run_warp_body), the register's
 * word in u0 holds the bits of its lanes not 0 (a guard's lanes). Any write of a register sets its byte anew
 * (run.c ub_after, the runs of one value, exec_mem.c's loads of one value): both bits clear */
enum { PTX_UB = 1, PTX_LZ = 2, PTX_FIN = 4, PTX_GM = 8 };

#endif
