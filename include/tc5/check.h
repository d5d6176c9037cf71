/* tc5 — the tcgen05 checker: the rules of the spec's memory consistency
 * model for the 5th-generation Tensor Core (9.7.16.6: asynchronous
 * operations, pipelined pairs, the mbarrier and tcgen05.wait completion
 * mechanisms, the tcgen05 fences around thread synchronisation, the
 * cross-proxy fence for shared memory) and of Tensor Memory management
 * (9.7.16.7), as a table of rules that `tc5 run` checks while a kernel runs.
 *
 * Each rule is one row: a short id ("tmem-read-inflight"), the section of
 * the spec it rests on, the spec's words, what breaking it looks like and
 * how a fix looks. A finding names its rule, both instructions involved
 * (file:line and text), the threads, the address or the Tensor Memory cell.
 *
 * Severity: TC5_CHECK_ERROR rules are broken rules (a finding ends the run
 * with TC5_EHAZARD); TC5_CHECK_WARNING rules flag what is legal or what
 * widely used compilers emit, but fragile: reported with --check=strict
 * only. TC5_CHECK_ALWAYS rules are undefined behaviour the interpreter
 * cannot execute: errors in every mode, --check=none included.
 */
#ifndef TC5_CHECK_H
#define TC5_CHECK_H
#include <stdbool.h>
#include <stdint.h>
#include "tc5/status.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum tc5_check_mode {
  TC5_CHECK_DEFAULT = 0, /* the error rules                                */
  TC5_CHECK_NONE,        /* no hazard tracking (TC5_CHECK_ALWAYS rules stay) */
  TC5_CHECK_STRICT       /* the error rules and the warnings               */
} tc5_check_mode;

typedef enum tc5_check_severity {
  TC5_CHECK_ERROR = 0,
  TC5_CHECK_WARNING,
  TC5_CHECK_ALWAYS
} tc5_check_severity;

typedef struct tc5_check_rule {
  const char *id;        /* "tmem-read-inflight"                           */
  tc5_check_severity severity;
  const char *section;   /* "9.7.16.6.4.2"                                 */
  const char *spec;      /* the spec's words the rule rests on             */
  const char *broken;    /* what a kernel that breaks it does              */
  const char *fix;       /* what a fix looks like                          */
} tc5_check_rule;

/* The rules, in table order. */
tc5_status tc5_check_rule_count(unsigned *count);
tc5_status tc5_check_rule_get(unsigned index, const tc5_check_rule **rule);
/* The rule with this id: TC5_EINVAL when there is none. */
tc5_status tc5_check_rule_find(const char *id, unsigned *index);
/* "none", "default", "strict" */
tc5_status tc5_check_mode_parse(const char *text, tc5_check_mode *mode);

/* A rule's level for one launch (tc5_ptx_launch_cfg.rules; `tc5 run --rule
 * NAME=LEVEL`): TC5_RULE_OFF: not reported; TC5_RULE_WARNING: reported as a
 * warning in default and strict mode (the launch does not fail for it);
 * TC5_RULE_ERROR: reported as an error in default and strict mode (the
 * launch ends with TC5_EHAZARD). With --check=none nothing is tracked.
 * TC5_CHECK_ALWAYS rules (undefined behaviour the interpreter cannot run
 * past) take no level. */
typedef enum tc5_check_level {
  TC5_RULE_DEFAULT = 0, /* the rule's severity and the mode decide          */
  TC5_RULE_OFF,
  TC5_RULE_WARNING,
  TC5_RULE_ERROR
} tc5_check_level;

typedef struct tc5_check_override {
  unsigned rule;         /* index into the rule table                      */
  tc5_check_level level;
} tc5_check_override;

/* "NAME=off|warning|error" (NAME a rule id): TC5_EINVAL with a diag issue
 * naming the text, the value and the rule (an unknown NAME: the message
 * lists the rules' ids; an always rule; an unknown level). */
tc5_status tc5_check_override_parse(const char *text, tc5_check_override *out, tc5_diag *diag);

/* One finding, as the checker reports it. */
typedef struct tc5_check_finding {
  unsigned rule;       /* index into the rule table                     */
  bool warning;        /* a warning rule (reported with strict only)     */
  uint32_t line;       /* the instruction that broke the rule            */
  uint32_t line2;      /* the earlier instruction it conflicts with (0: none) */
  uint64_t count;      /* times seen (findings of one rule and instruction
                          pair are reported once)                        */
  char text[1024];     /* the finding in full: rule, both instructions,
                          threads, address or cell, the fix             */
  char src[256];       /* "FILE:LINE" of the source line the instruction
                          came from (its .loc: tc5_ptx_source_at), "" when
                          the PTX carries none                           */
  char src2[256];      /* the same for the earlier instruction (line2)   */
} tc5_check_finding;

#ifdef __cplusplus
}
#endif
#endif
