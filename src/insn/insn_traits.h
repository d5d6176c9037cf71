/* tc5 — what an instruction is (issue 51): the traits the runner's opcode
 * table (src/ptx/opcodes.def) gives each instruction, and the ones its
 * decoder adds from the modifiers (state space, scope, semantics, the
 * timing class of a typed instruction).
 *
 * A neutral header: the runner (src/ptx/) fills an insn_traits per decoded
 * instruction; the checker (src/check/check_event.h: chk_insn.traits) and
 * the timing model read them. It includes no header of src/ptx/ nor of
 * src/check/, so that neither listener learns what an instruction is by
 * reading its opcode text or the runner's structures. */
#ifndef TC5_INSN_TRAITS_H
#define TC5_INSN_TRAITS_H
#include <stdint.h>

/* static traits (a row of the opcode table; the decoder may add some) */
enum {
  IT_PURE = 1u << 0,       /* register-pure: its destinations are a function of its source
                              registers in one thread (arithmetic, logic, bits, conversions,
                              moves, comparisons, selects): the checker follows a never-written
                              value through it instead of reporting a use */
  IT_READ = 1u << 1,       /* reads memory (any state space, Tensor Memory included) */
  IT_WRITE = 1u << 2,      /* writes memory */
  IT_ASYNC = 1u << 3,      /* its memory work is done by an asynchronous unit (the async proxy:
                              TMA and bulk copies, wgmma's and tcgen05's operands) */
  IT_COLLECTIVE = 1u << 4, /* warp-collective: the lanes of a warp (or a warpgroup) execute it
                              together (.sync/.aligned; shfl, vote, bar.warp, wgmma, tcgen05...) */
  IT_ATOMIC = 1u << 5,     /* an atomic read-modify-write or a reduction (atom, red, cp.reduce) */
  IT_STRONG = 1u << 6,     /* not a weak access: atom/red/redux, .volatile, .relaxed, .acquire,
                              .release, and anything naming an mbarrier (the decoder sets it from
                              the modifiers); the checker's races skip such accesses */
  IT_CP_ASYNC = 1u << 7,   /* the cp.async family (cp.async..., cp.async.bulk...): the checker
                              follows a weak one's destination as written asynchronously */
  IT_SELECT = 1u << 8,     /* selp: its destination is source 1 or source 2, chosen per lane by
                              the predicate in operand 3 */
  IT_LOAD = 1u << 9,       /* ld: its destination registers hold the bytes it read, in order */
  IT_BRANCH = 1u << 10,    /* may change the warp's control flow (bra, brx, call, ret, exit, trap) */
  IT_BARRIER = 1u << 11,   /* a barrier or an mbarrier operation (synchronises threads) */
  IT_FENCE = 1u << 12,     /* a fence (fence, membar, tcgen05.fence, cp_fenceproxy) */
  IT_MATRIX = 1u << 13,    /* ldmatrix / stmatrix: a lane's address names a row of shared memory whose
                              bytes other lanes' registers hold; the runner hands the checker each
                              byte's lane and register (chk_matrix) */
};

/* the family an instruction belongs to (the row's group) */
typedef enum insn_group {
  IG_NONE = 0,
  IG_INT,      /* integer arithmetic, logic, bits (typed rows: the type decides the timing class) */
  IG_FLOAT,    /* float arithmetic and the special functions */
  IG_MOVE,     /* moves, selects, comparisons, conversions, address arithmetic */
  IG_MEM,      /* ld, st, atom, red, ldmatrix, stmatrix, prefetch */
  IG_COPY,     /* cp.async, cp.async.bulk*, cp.reduce.async.bulk*, tensormap */
  IG_CONTROL,  /* branches, calls, exit, trap */
  IG_WARP,     /* warp-level: shfl, vote, match, redux, elect, activemask */
  IG_BARRIER,  /* bar, barrier */
  IG_MBARRIER, /* mbarrier.*, clusterlaunchcontrol (completes on an mbarrier) */
  IG_FENCE,    /* fence, membar */
  IG_MMA,      /* mma.sync (sm_80 and later) */
  IG_WGMMA,    /* Hopper's warpgroup MMA (wgmma.*) */
  IG_TCGEN05,  /* the 5th-generation Tensor Core (tcgen05.*) */
  IG_MISC,     /* hints and no-ops: nanosleep, discard, griddepcontrol, setmaxnreg */
  IG_COUNT
} insn_group;

/* the timing class: which unit issues or executes it (the timing model's key) */
typedef enum insn_tclass {
  TC_OTHER = 0,   /* hints, no-ops, allocation, anything not below */
  TC_INT,         /* integer ALU */
  TC_FP32,        /* fp32 (and tf32) arithmetic */
  TC_FP16X2,      /* f16, bf16 and their x2 pairs */
  TC_FP64,        /* fp64 arithmetic (also rcp/sqrt .f64) */
  TC_SFU,         /* transcendental / special functions (rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh) */
  TC_CVT,         /* conversions */
  TC_MOVE,        /* moves and misc (mov, cvta, mapa, createpolicy; ld of .const/.param) */
  TC_LDST_SHARED, /* loads and stores of shared memory (ldmatrix, stmatrix included) */
  TC_LDST_GLOBAL, /* loads and stores of global memory (a generic address counts here) */
  TC_LDST_LOCAL,  /* loads and stores of local memory (.local, a .func's .param) */
  TC_ATOMIC,      /* atomics and reductions (atom, red) */
  TC_WARP,        /* shuffle, vote, match, redux, elect, activemask */
  TC_BAR,         /* bar, barrier */
  TC_MBARRIER,    /* mbarrier.* */
  TC_BRANCH,      /* branches and control */
  TC_TMA,         /* TMA and bulk copies (cp.async.bulk*, cp.reduce.async.bulk*) */
  TC_MMA,         /* tcgen05.mma, wgmma.mma_async, mma.sync */
  TC_TMEM,        /* Tensor Memory: tcgen05.ld, st, cp, shift */
  TC_FENCE,       /* fences (fence, membar, tcgen05.fence, tcgen05.wait, wgmma.fence, wait_group) */
  TC_CP_ASYNC,    /* Ampere's cp.async (and its commit/wait) */
  TC_COUNT,
  TC_TYPED = 0xFF /* in a row only: the decoder picks int / fp32 / fp16x2 / fp64 by the type */
} insn_tclass;

/* the state space an instruction names (the first one: a copy's destination) */
typedef enum insn_space {
  IS_NONE = 0,     /* no memory, or none named */
  IS_GENERIC,      /* a memory instruction with no state space: a generic address */
  IS_GLOBAL,
  IS_SHARED,       /* .shared, .shared::cta */
  IS_SHARED_CLUSTER,
  IS_LOCAL,
  IS_CONST,
  IS_PARAM,        /* .param, .param::entry, .param::func */
  IS_TMEM,         /* Tensor Memory (tcgen05.ld, st, cp, shift, mma) */
} insn_space;

/* the scope of a strong operation or a fence (.cta .cluster .gpu .sys),
 * the PTX default where the modifier is left out (atom/red: .gpu;
 * mbarrier: .cta; membar.cta/.gl/.sys name theirs) */
typedef enum insn_scope { ISC_NONE = 0, ISC_CTA, ISC_CLUSTER, ISC_GPU, ISC_SYS } insn_scope;

/* the memory-order semantics (.weak .relaxed .acquire .release .acq_rel
 * .sc .volatile .mmio), the PTX default where left out (ld/st: weak;
 * atom/red: relaxed; fence: acq_rel; membar: sc; mbarrier.arrive:
 * release; mbarrier.test_wait/try_wait: acquire) */
typedef enum insn_sem {
  ISEM_NONE = 0, ISEM_WEAK, ISEM_RELAXED, ISEM_ACQUIRE, ISEM_RELEASE, ISEM_ACQ_REL, ISEM_SC,
  ISEM_VOLATILE, ISEM_MMIO
} insn_sem;

/* flag bits of insn_traits.set: which of scope and sem the opcode named */
enum { ITS_SCOPE = 1u << 0, ITS_SEM = 1u << 1 };

typedef struct insn_traits {
  uint32_t flags; /* IT_* */
  uint16_t op;    /* the row of the opcode table (the runner's numbering; for tables, not for tests) */
  uint8_t group;  /* insn_group */
  uint8_t tclass; /* insn_tclass */
  uint8_t space;  /* insn_space */
  uint8_t scope;  /* insn_scope */
  uint8_t sem;    /* insn_sem */
  uint8_t set;    /* ITS_*: the scope / semantics was written, not the default */
} insn_traits;

#endif
