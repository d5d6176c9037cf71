/* tc5 checker — the facts an event hands over (issue 34: the checker
 * listens, never reaches back).
 *
 * The runner (src/ptx/) describes each instruction of the module once per
 * launch as a chk_insn (chk_code, made before the first warp runs) and
 * hands a pointer into that table with every event; the checker reads the
 * table, never the runner's own instruction. Texts and paths are the
 * module's stable strings, so an event costs no formatting: a finding's
 * message is formatted by the checker when (and only when) it is reported.
 *
 * chk_cta, the checker's per-CTA state, is opaque to the runner: it stores
 * the pointer and passes it back. This header includes no runner header. */
#ifndef TC5_CHECK_EVENT_H
#define TC5_CHECK_EVENT_H
#include <stdbool.h>
#include <stdint.h>

#include "insn/insn_traits.h" /* what an instruction is: the runner's traits, no opcode text read */

#define CHK_NOREG 0xFFFFFFFFu /* no register (an unguarded instruction) */

struct chk_cta; /* the checker's state of one CTA (check_impl.h) */

/* one register an instruction names, in operand order: a vector's elements
 * one each, a register pair's second register after its first */
enum {
  CHK_R_DST = 1u << 0,    /* in operand 0, which is a destination (not a store's address) */
  CHK_R_VEC = 1u << 1,    /* an element of a vector operand { %r1, %r2, ... } */
  CHK_R_SECOND = 1u << 2, /* the second register of a pair (a|b) */
};
typedef struct chk_reg {
  uint32_t reg; /* the register's number (the module's numbering) */
  uint8_t op;   /* the operand it is in */
  uint8_t flags;
} chk_reg;

/* one instruction of the module, as the checker sees it */
typedef struct chk_insn {
  const char *text;              /* the opcode text with its operands (a stable string) */
  const char *file;              /* its .loc's source path ("" without a .loc) */
  const char *at_file;           /* the outermost inlined_at's path (when at_line) */
  uint32_t line;                 /* its PTX line */
  uint32_t src_line, at_line;    /* the .loc's line (0: none) and inlined_at's (0: not inlined) */
  uint32_t guard;                /* its guard predicate register, CHK_NOREG: none */
  uint8_t guard_neg;             /* @!p */
  uint8_t nops;                  /* operands */
  uint16_t nregs;                /* entries in regs */
  uint16_t ndst;                 /* of them, operand 0's destination registers (CHK_R_DST) */
  uint32_t op3;                  /* operand 3's register (selp's predicate), CHK_NOREG: none */
  insn_traits traits;            /* what the instruction is (its kind, memory access, scope, semantics) */
  const chk_reg *regs;           /* the registers it names */
} chk_insn;

/* the module's instructions, made by the runner once per launch */
typedef struct chk_code {
  chk_insn *insn;
  chk_reg *regs;
  uint32_t n, nregs;
} chk_code;


/* who: the warp an event comes from, made by the runner at the event (a
 * compound literal, CHK_W in the runner) */
typedef struct chk_warp {
  struct chk_cta *k;   /* its CTA's checker state (NULL: --check=none) */
  uint32_t id;         /* the warp's index in its CTA */
  uint32_t active;     /* the lanes executing the instruction */
  uint32_t live;       /* the threads that have not exited */
  const uint64_t *r;   /* its registers: CHK_R(w, reg)[lane] */
  bool *pending;       /* the checker sets it while it follows registers of the
                          warp (the runner then calls chk_after after each
                          instruction of the warp) */
} chk_warp;
#define CHK_R(w, reg) ((w)->r + (size_t)(reg) * 32u)

/* an mbarrier an event names: its index in its CTA's table, its shared
 * address, and its state when the event happens */
typedef struct chk_mbar {
  uint32_t idx, addr;
  uint32_t phase;    /* phases completed so far */
  uint32_t expected; /* arrivals a phase needs */
} chk_mbar;

#endif
