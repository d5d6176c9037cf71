/* tc5 checker — the rule table: one row per rule of the tcgen05 memory
 * consistency model (spec 9.7.16.6) and of Tensor Memory management
 * (9.7.16.7) that `tc5 run` checks. The checker (check.c) cites rows by
 * their index (check_impl.h's CR_* names the rows in the same order); the
 * docs' table (docs/check.md) is this table. */
#include <stdio.h>
#include <string.h>

#include "check/check_impl.h"

static const tc5_check_rule rules[CR_COUNT] = {
    [CR_PROXY_FENCE] = {"proxy-fence", TC5_CHECK_ERROR, "9.7.16.6.5",
                        "The shared memory accesses by tcgen05.mma and tcgen05.cp operations are performed in the "
                        "asynchronous proxy. Accessing the same memory location across multiple proxies needs a "
                        "cross-proxy fence. For the async proxy, fence.proxy.async should be used.",
                        "a tcgen05.mma reads shared memory that a generic-proxy store (st, cp.async, atom) wrote with "
                        "no fence.proxy.async after the store, in the storing thread or in the issuing thread",
                        "fence.proxy.async.shared::cta in the threads that wrote the operand, after their stores "
                        "and before the barrier that hands the buffer to the MMA thread"},
    [CR_SMEM_UNORDERED] = {"smem-unordered", TC5_CHECK_ERROR, "9.7.16.6.5",
                           "tcgen05.mma reads its operands when it executes; the stores that fill them must be "
                           "ordered before it (memory consistency model: a release by the writers, an acquire by the "
                           "issuing thread)",
                           "a tcgen05.mma reads shared memory written by another warp with no bar.sync or mbarrier "
                           "arrive/wait between the store and the MMA",
                           "bar.sync (or an mbarrier the writers arrive on and the MMA thread waits on) between the "
                           "stores and the tcgen05.mma"},
    [CR_SMEM_OVERWRITE] = {"smem-overwrite-inflight", TC5_CHECK_ERROR, "9.7.16.6.2.1.1",
                           "Completion of tcgen05.mma, tcgen05.cp and tcgen05.shift is observed through the mbarrier "
                           "based waiting mechanism; tcgen05.commit is used to track their completion.",
                           "a store overwrites shared memory that an issued tcgen05.mma reads before that MMA is known "
                           "complete to the storing thread (the mbarrier of its tcgen05.commit observed, directly or "
                           "through a thread synchronisation)",
                           "tcgen05.commit after the MMAs that read the buffer, and a wait on that mbarrier phase "
                           "before refilling the buffer (the 'empty' barrier of a pipeline)"},
    [CR_TMEM_READ_INFLIGHT] = {"tmem-read-inflight", TC5_CHECK_ERROR, "9.7.16.6.4.2",
                               "tcgen05.mma [d]; tcgen05.commit.mbarrier::arrive::one; mbarrier.try_wait (loop until "
                               "successful); tcgen05.fence::after_thread_sync; tcgen05.ld [d]: for the completion of "
                               "the asynchronous tcgen05.mma, tcgen05.commit is used.",
                               "tcgen05.ld reads Tensor Memory cells that a tcgen05.mma writes before that MMA is "
                               "known complete to the reading thread",
                               "tcgen05.commit after the last MMA, wait on its mbarrier, "
                               "tcgen05.fence::after_thread_sync, then tcgen05.ld"},
    [CR_TMEM_WRITE_INFLIGHT] = {"tmem-write-inflight", TC5_CHECK_ERROR, "9.7.16.6.2",
                                "The asynchronous tcgen05 operations may execute and complete in a different order "
                                "than they were issued; only the pairs listed (mma -> mma of the same thread, "
                                "accumulator and shape, cp/shift -> mma, ...) are pipelined.",
                                "tcgen05.mma or tcgen05.st writes Tensor Memory cells that an earlier asynchronous "
                                "operation still reads or writes: a tcgen05.ld not yet waited for (tcgen05.wait::ld), "
                                "or a tcgen05.mma of another thread not known complete",
                                "tcgen05.wait::ld in the reading warp, then tcgen05.fence::before_thread_sync, a thread "
                                "synchronisation and tcgen05.fence::after_thread_sync before the writer"},
    [CR_TMEM_ST_UNWAITED] = {"tmem-st-unwaited", TC5_CHECK_ERROR, "9.7.16.6.4.2",
                             "tcgen05.st; tcgen05.wait::st; tcgen05.ld: tcgen05.wait::st is used to wait for the "
                             "completion of the prior asynchronous instruction tcgen05.st.",
                             "tcgen05.ld or tcgen05.mma reads Tensor Memory cells that a tcgen05.st wrote before "
                             "that store is waited for (tcgen05.wait::st in the storing warp, then a thread "
                             "synchronisation for another thread)",
                             "tcgen05.wait::st after the tcgen05.st (and tcgen05.fence::before_thread_sync, a thread "
                             "synchronisation and tcgen05.fence::after_thread_sync when another thread reads)"},
    [CR_LD_REG_OVERWRITE] = {"ld-reg-overwrite", TC5_CHECK_ERROR, "9.7.16.6.4.5",
                             "A register dependency does not imply that a dependee instruction's memory accesses "
                             "will be performed before a dependent instruction's memory accesses. To enforce such "
                             "memory orderings and avoiding anti-dependency hazards around tcgen05.ld, "
                             "tcgen05.wait::ld must be used.",
                             "an instruction writes a destination register of a tcgen05.ld before the warp's "
                             "tcgen05.wait::ld (the load may land after the write)",
                             "tcgen05.wait::ld between the tcgen05.ld and any instruction that writes its "
                             "destination registers"},
    [CR_ST_REG_OVERWRITE] = {"st-reg-overwrite", TC5_CHECK_WARNING, "9.7.16.6.2.1.2",
                             "Completion of tcgen05.ld and tcgen05.st is observed through the tcgen05.wait based "
                             "waiting mechanism: tcgen05.st -> tcgen05.wait::st.",
                             "an instruction overwrites a source register of a tcgen05.st before the warp's "
                             "tcgen05.wait::st",
                             "tcgen05.wait::st between the tcgen05.st and any instruction that writes its source "
                             "registers"},
    [CR_LD_REG_USE] = {"ld-reg-use", TC5_CHECK_WARNING, "9.7.16.6.4.5",
                       "For tcgen05.ld, an intra-thread ordering through true register dependency will be respected "
                       "regardless of the presence or absence of other forms of synchronization.",
                       "an instruction reads a destination register of a tcgen05.ld before tcgen05.wait::ld: legal "
                       "(the register dependency orders it) but nothing else is ordered by it",
                       "tcgen05.wait::ld before using the loaded registers"},
    [CR_FENCE_AFTER] = {"fence-after-missing", TC5_CHECK_WARNING, "9.7.16.6.3",
                        "An asynchronous tcgen05 operation subsequent to a tcgen05.fence::after_thread_sync is "
                        "ordered after all the prior tcgen05 and the execution ordering operations.",
                        "a tcgen05 operation depends on another asynchronous tcgen05 operation that it is ordered "
                        "after only by a thread synchronisation (bar.sync, an mbarrier wait) with no "
                        "tcgen05.fence::after_thread_sync between the synchronisation and the operation (Triton "
                        "3.9 emits none: a warning, not an error)",
                        "tcgen05.fence::after_thread_sync after the barrier or mbarrier wait"},
    [CR_FENCE_BEFORE] = {"fence-before-missing", TC5_CHECK_WARNING, "9.7.16.6.3",
                         "An asynchronous tcgen05 operation prior to a tcgen05.fence::before_thread_sync is ordered "
                         "before all subsequent tcgen05 and the execution ordering operations.",
                         "a tcgen05.ld or tcgen05.st of one warp is ordered before another warp's tcgen05 operation "
                         "by a thread synchronisation with no tcgen05.fence::before_thread_sync between the "
                         "operation and the synchronisation in the first warp",
                         "tcgen05.fence::before_thread_sync before the barrier or mbarrier arrive"},
    [CR_COMMIT_OTHER] = {"commit-other-thread", TC5_CHECK_ERROR, "9.7.16.6.2.1",
                         "Instructions tcgen05.commit and tcgen05.wait are implicitly pipelined with respect to "
                         "previously issued tcgen05.{mma,cp,shift} and tcgen05.{ld,st} instructions respectively that "
                         "they track from the same thread.",
                         "tcgen05.commit is executed by a thread other than the one that issued the MMAs still "
                         "uncommitted: it does not track them",
                         "issue tcgen05.commit from the thread that issued the tcgen05.mma (the same elected lane)"},
    [CR_DEALLOC_INFLIGHT] = {"dealloc-inflight", TC5_CHECK_ERROR, "9.7.16.7.1",
                             "Instruction tcgen05.dealloc deallocates the Tensor Memory specified by taddr; the "
                             "asynchronous tcgen05 operations that access it must be complete (9.7.16.6.2.1).",
                             "tcgen05.dealloc of columns that a tcgen05.mma, tcgen05.ld or tcgen05.st may still "
                             "access (not known complete to the deallocating warp)",
                             "wait for the last MMA's mbarrier (and tcgen05.wait::ld/st in the accessing warps), then "
                             "a thread synchronisation, before tcgen05.dealloc"},
    [CR_ALLOC_AT_EXIT] = {"alloc-held-at-exit", TC5_CHECK_ALWAYS, "9.7.16.7.1",
                          "All of the Tensor Memory that was allocated using tcgen05.alloc instruction in a kernel, "
                          "must be explicitly deallocated using tcgen05.dealloc before the kernel exits.",
                          "a CTA exits holding Tensor Memory columns",
                          "tcgen05.dealloc of every allocation (same taddr and nCols) before the warps exit"},
    [CR_ALLOC_NEVER] = {"alloc-never", TC5_CHECK_ALWAYS, "9.7.16.7.1",
                        "tcgen05.alloc blocks if the requested amount of Tensor Memory is not available and unblocks "
                        "as soon as the requested amount becomes available for allocation.",
                        "a tcgen05.alloc waits for columns that no warp will ever free (every other warp waits or "
                        "has exited)",
                        "dealloc earlier allocations first, or allocate at most 512 columns in all"},
    [CR_MBAR_OVER_ARRIVAL] = {"mbarrier-over-arrival", TC5_CHECK_ERROR, "9.7.16.6.2.1.1",
                              "tcgen05.commit.mbarrier::arrive::one makes the mbarrier track the completion of the "
                              "thread's operations with one arrival; mbarrier.init sets the arrivals a phase expects.",
                              "one instruction's threads arrive more times than the phase expects: the phase "
                              "completes and the surplus arrivals count towards the next phase (a commit or arrive "
                              "executed by every lane instead of one elected thread)",
                              "guard the tcgen05.commit / mbarrier.arrive with elect.sync (one thread), or init the "
                              "mbarrier with the number of arriving threads"},
    [CR_MBAR_WAIT_NEVER] = {"mbarrier-wait-never", TC5_CHECK_ALWAYS, "9.7.16.6.2.1.1",
                            "Completion is observed through the mbarrier based waiting mechanism: the phase waited on "
                            "must complete.",
                            "a warp waits on an mbarrier phase that can never complete (its pending arrivals or "
                            "transaction bytes will never come): a deadlock, or a hang on silicon",
                            "make the producers arrive (or the tcgen05.commit execute) once per phase, with the "
                            "parity the consumers wait on"},
    [CR_MBAR_PHASE_REUSED] = {"mbarrier-phase-reused", TC5_CHECK_WARNING, "9.7.16.6.2.1.1",
                              "mbarrier.test_wait/try_wait.parity P is true once the phase of parity P has "
                              "completed: the parity names the phase only among the two most recent ones.",
                              "a warp's wait passes on an mbarrier phase the same warp already observed: if the "
                              "waiter meant the next phase of that parity (two phases on), the wait passed too "
                              "early (the phase was reused); legal when the warp re-checks a phase on purpose",
                              "flip the waited parity after every completed wait (one phase bit per pipeline "
                              "stage), so each wait names a phase not yet observed"},
    [CR_PARTIAL_WARP] = {"partial-warp-aligned", TC5_CHECK_ALWAYS, "9.7.16.7.1",
                         "The mandatory .aligned qualifier indicates that all threads in the warp must execute the "
                         "same instruction. In conditionally executed code, the instruction should only be used if it "
                         "is known that all threads in the warp evaluate the condition identically, otherwise "
                         "behavior is undefined.",
                         "a .sync.aligned instruction (tcgen05.alloc/ld/st/wait, bar.sync...) reached by part of a "
                         "warp, or with a guard that differs between its threads; an elect.sync whose membermask "
                         "names threads that did not execute it",
                         "move the instruction out of the divergent branch, or guard it with a warp-uniform "
                         "predicate"},
    [CR_TMEM_LANES] = {"tmem-lane-quarter", TC5_CHECK_ALWAYS, "9.7.16.8.1",
                       "The Tensor Memory of a CTA is divided into 4 equal chunks such that each warp of a warpgroup "
                       "in the CTA can access a chunk of the Tensor Memory. A lane of the Tensor Memory can be "
                       "accessed by a single warp in the warpgroup (warp 0: lanes 0-31 ... warp 3: lanes 96-127).",
                       "tcgen05.ld/st addresses Tensor Memory lanes outside the warp's quarter",
                       "add 32 * (warp % 4) to the lane of taddr (bits 31-16)"},
    [CR_TMEM_UNINIT] = {"tmem-uninit-read", TC5_CHECK_ERROR, "9.7.16.8",
                        "tcgen05.ld loads what the Tensor Memory cells hold: cells never written hold no defined "
                        "value.",
                        "tcgen05.ld, or tcgen05.mma with enable-input-d, reads Tensor Memory cells never written",
                        "tcgen05.st zeros first, or the first MMA with enable-input-d false"},
    [CR_SMEM_UNINIT] = {"smem-uninit-read", TC5_CHECK_ERROR, "9.7.16.6.5",
                        "A load returns the value of the last store to the location; shared memory is not "
                        "initialised at launch.",
                        "a load (ld.shared, ldmatrix...) or a tcgen05.mma operand reads shared memory that no "
                        "instruction of the CTA wrote",
                        "fill the buffer before reading it (cp.async with src-size 0 zero-fills)"},
    [CR_SMEM_DESC_BASE_OFFSET] = {"smem-desc-base-offset", TC5_CHECK_WARNING, "9.7.16.4.1",
                                  "The value of base offset is 0 when the repeating pattern of the specified "
                                  "swizzling mode starts as per shown in Table 41.",
                                  "a tcgen05.mma or tcgen05.cp shared memory descriptor has a non-zero base offset "
                                  "and no swizzling: the field locates a swizzle pattern and has no effect here "
                                  "(legal: Triton's block-scaled tcgen05.cp descriptors carry one and run on B200s)",
                                  "base offset 0 in descriptors without swizzling"},
    [CR_TARGET_FEATURE] = {"target-feature", TC5_CHECK_WARNING, "9.7.16.8.3 (Target ISA Notes)",
                           "tcgen05.ld.red is supported on following architectures: sm_101a, sm_101f or higher in "
                           "the same family, sm_103f or higher in the same family, sm_110f or higher in the same "
                           "family.",
                           "an instruction that the module's .target does not have: tcgen05.ld.red outside "
                           "sm_101/sm_103/sm_110, the f32 redux.sync outside sm_100a/sm_100f/sm_103 (tc5 runs them "
                           "for any target; ptxas refuses them)",
                           "a .target that has the instruction (sm_103a for tcgen05.ld.red), or the plain form"},
    [CR_SMEM_RACE] = {"smem-race", TC5_CHECK_ERROR, "8.6 (Memory Consistency Model: data races)",
                      "Two memory operations conflict if they overlap and at least one is a write; two conflicting "
                      "memory operations that are not morally strong and not related by causality order form a "
                      "data race (the values read are undefined).",
                      "an ordinary ld/st.shared of one warp and an ordinary store of another warp to the same bytes "
                      "with no happens-before between them: no bar.sync / barrier, no mbarrier arrive -> wait "
                      "(read after write, write after read, write after write; atomics and strong accesses "
                      "excepted)",
                      "a bar.sync (or a named barrier of both warps), or an mbarrier the first warp arrives on and "
                      "the second waits on, between the two accesses"},
    [CR_CP_ASYNC_UNWAITED] = {"cp-async-unwaited", TC5_CHECK_ERROR, "9.7.9.25.3 (cp.async.wait_group)",
                              "cp.async.wait_group instruction will cause executing thread to wait till only N or "
                              "fewer of the most recent cp.async-groups are pending and all the prior cp.async-groups "
                              "committed by the executing threads are complete.",
                              "shared memory that a cp.async writes is loaded, stored or read by an MMA before the "
                              "issuing thread's cp.async.wait_group covers the cp.async's group (and, for another "
                              "thread, a barrier after that wait)",
                              "cp.async.commit_group after the copies, cp.async.wait_group N (N: the groups that may "
                              "stay in flight) before the data is used, and a bar.sync when other warps use it"},
    [CR_ASYNC_DST_INFLIGHT] = {"async-dst-inflight", TC5_CHECK_ERROR, "9.7.9.25.4 (cp.async.bulk, mbarrier)",
                               "The completion of the asynchronous copy is signalled through the complete-tx mechanism "
                               "on the mbarrier object: the bytes written are visible to the threads that observe the "
                               "completion of the mbarrier's phase.",
                               "shared memory that a TMA load (cp.async.bulk.tensor) or bulk copy writes is loaded, "
                               "stored or read by an MMA by a thread that has not observed the mbarrier phase the "
                               "copy completes (directly, or through a barrier after a thread that did)",
                               "wait on the mbarrier (mbarrier.try_wait.parity of the phase the copy's bytes complete) "
                               "before using the buffer"},
    [CR_ASYNC_SRC_INFLIGHT] = {"async-src-inflight", TC5_CHECK_ERROR, "9.7.9.25.4 (cp.async.bulk.wait_group)",
                               "cp.async.bulk.wait_group.read indicates that the waiting has to be done until all the "
                               "bulk async operations in the specified bulk async-group have completed reading from "
                               "their source locations.",
                               "shared memory that a TMA store (cp.async.bulk.tensor shared -> global) or bulk copy "
                               "reads is overwritten (a store, a copy) before cp.async.bulk.wait_group.read covers its "
                               "bulk group",
                               "cp.async.bulk.commit_group after the store, cp.async.bulk.wait_group.read 0 (then a "
                               "barrier for other warps) before the buffer is written again"},
    [CR_WGMMA_OPERAND_INFLIGHT] = {"wgmma-operand-inflight", TC5_CHECK_ERROR, "9.7.15.6 (wgmma.wait_group)",
                                   "Accessing the accumulator register or the input registers or the shared memory "
                                   "containing matrix A or B of wgmma.mma_async before waiting for the completion of "
                                   "the wgmma-group is undefined behavior.",
                                   "shared memory that a wgmma.mma_async reads (A or B) is overwritten before the "
                                   "warpgroup's wgmma.wait_group retires its wgmma-group (and, for another warp, a "
                                   "barrier after that wait)",
                                   "wgmma.commit_group, wgmma.wait_group N, then release the buffer (an mbarrier "
                                   "arrive or bar.sync) before it is refilled"},
    [CR_MBAR_REINIT] = {"mbarrier-reinit", TC5_CHECK_ERROR, "9.7.13.15.9 (mbarrier.init)",
                        "Performing a mbarrier.init operation on a memory location containing a valid mbarrier object "
                        "is undefined; first use mbarrier.inval to invalidate the mbarrier object.",
                        "mbarrier.init of an mbarrier that is initialised and was not invalidated with mbarrier.inval",
                        "mbarrier.inval before initialising the mbarrier again"},
    [CR_BARRIER_COUNT] = {"barrier-count-mismatch", TC5_CHECK_ALWAYS, "9.7.13.1",
                          "Operand b specifies the number of threads participating in the barrier. If no thread "
                          "count is specified, all threads in the CTA participate in the barrier.",
                          "arrivals of one phase of a named barrier (bar.sync / bar.arrive / barrier.sync) give "
                          "different thread counts: two groups of warps use the same barrier id, and which group's "
                          "arrivals a phase collects depends on timing (a hang on silicon, intermittently)",
                          "give each group of warps a barrier id of its own, with the count of the threads that "
                          "execute it"},
    [CR_PAIR_DEALLOC_EARLY] = {"cta-pair-dealloc-early", TC5_CHECK_ALWAYS, "9.7.16.7.1",
                               "The instructions tcgen05.alloc, tcgen05.dealloc and tcgen05.relinquish_alloc_permit "
                               "with .cta_group::2 are issued by one warp of each CTA of the pair; tcgen05.dealloc "
                               "deallocates Tensor Memory that tcgen05.alloc allocated.",
                               "a CTA of a pair reaches tcgen05.dealloc.cta_group::2 while its peer's warp has not "
                               "returned from the pair's tcgen05.alloc (its allocation not yet complete): a launch "
                               "failure or a hang on sm_103a",
                               "a cluster barrier (barrier.cluster.arrive + wait) after tcgen05.alloc.cta_group::2, "
                               "before either CTA may deallocate"},
    [CR_WGMMA_REG_INFLIGHT] = {"wgmma-reg-inflight", TC5_CHECK_WARNING, "9.7.15 (wgmma)",
                               "Accessing the accumulator register or the input registers containing fragments of "
                               "matrix A of a wgmma.mma_async instruction without first performing a "
                               "wgmma.wait_group instruction that waits on a wgmma-group including that "
                               "wgmma.mma_async instruction is undefined behavior.",
                               "an instruction reads a D (or register A) register of a wgmma.mma_async before the "
                               "wgmma.wait_group that covers its group; ptxas waits there (it injects a warpgroup "
                               "wait, info C7517), so the value is the completed one, but the pipeline is "
                               "serialised",
                               "wgmma.commit_group after the MMAs, then wgmma.wait_group N (N: the groups that may "
                               "stay in flight) before reading the accumulator"},
    [CR_MBAR_UNINIT] = {"mbarrier-uninit", TC5_CHECK_ALWAYS, "9.7.13.15.10 (mbarrier.inval)",
                        "Performing any mbarrier operation except mbarrier.init on an invalidated mbarrier object "
                        "results in undefined behaviour; an mbarrier object must be initialised with mbarrier.init "
                        "before use.",
                        "an mbarrier operation (arrive, expect_tx, complete_tx, test_wait / try_wait, inval, a "
                        "tcgen05.commit or a copy completing on it) on shared memory where mbarrier.init never "
                        "initialised an mbarrier, or after mbarrier.inval: the run stops there (what the hardware "
                        "does with it is undefined)",
                        "mbarrier.init by one thread, then fence.mbarrier_init (for other CTAs) and a barrier, "
                        "before any thread uses the mbarrier; mbarrier.init again after mbarrier.inval"},
    [CR_RELEASE_SCOPE] = {"release-scope", TC5_CHECK_ERROR,
                          "8.7 (Memory Consistency Model: morally strong operations)",
                          "Two operations are morally strong relative to each other if they are related in program "
                          "order, or each operation is strong and specifies a scope that includes the thread "
                          "executing the other operation; .cta, the default scope of mbarrier.arrive, includes "
                          "only the threads of the executing thread's CTA.",
                          "a warp reads another CTA's shared memory (ld.shared::cluster, a .cta_group::2 tcgen05.cp "
                          "or tcgen05.mma) that a copy completed in that CTA wrote, and knows of the write only "
                          "through that CTA's mbarrier arrival at .cta scope on its own CTA's mbarrier: the "
                          "release does not include the reading thread, nothing orders the write before the read",
                          "mbarrier.arrive.release.cluster (or a fence.acq_rel.cluster before the arrival) when the "
                          "arrival tells another CTA that data is ready"},
};

tc5_status tc5_check_rule_count(unsigned *count) {
  if (!count) return TC5_EINVAL;
  *count = CR_COUNT;
  return TC5_OK;
}

tc5_status tc5_check_rule_get(unsigned index, const tc5_check_rule **rule) {
  if (!rule || index >= CR_COUNT) return TC5_EINVAL;
  *rule = &rules[index];
  return TC5_OK;
}

tc5_status tc5_check_rule_find(const char *id, unsigned *index) {
  if (!id || !index) return TC5_EINVAL;
  for (unsigned k = 0; k < CR_COUNT; k++)
    if (!strcmp(rules[k].id, id)) {
      *index = k;
      return TC5_OK;
    }
  return TC5_EINVAL;
}

tc5_status tc5_check_override_parse(const char *text, tc5_check_override *out, tc5_diag *diag) {
  if (!text || !out) return TC5_EINVAL;
  const char *eq = strchr(text, '=');
  size_t n = eq ? (size_t)(eq - text) : strlen(text);
  unsigned k;
  for (k = 0; k < CR_COUNT; k++)
    if (strlen(rules[k].id) == n && !strncmp(rules[k].id, text, n)) break;
  if (k == CR_COUNT) {
    char ids[1024];
    size_t o = 0;
    for (unsigned i = 0; i < CR_COUNT && o < sizeof ids; i++)
      if (rules[i].severity != TC5_CHECK_ALWAYS)
        o += (size_t)snprintf(ids + o, sizeof ids - o, "%s%s", o ? ", " : "", rules[i].id);
    return tc5_diag_add(diag, TC5_EINVAL, "rule", 0, "--rule %s: no rule '%.*s' (the rules: %s)", text, (int)n, text,
                        ids);
  }
  if (rules[k].severity == TC5_CHECK_ALWAYS)
    return tc5_diag_add(diag, TC5_EINVAL, "rule", k,
                        "--rule %s: rule '%s' is undefined behaviour that tc5 cannot run past (always an error): it "
                        "takes no level", text, rules[k].id);
  const char *v = eq ? eq + 1 : "";
  tc5_check_level lv;
  if (!strcmp(v, "off")) lv = TC5_RULE_OFF;
  else if (!strcmp(v, "warning")) lv = TC5_RULE_WARNING;
  else if (!strcmp(v, "error")) lv = TC5_RULE_ERROR;
  else
    return tc5_diag_add(diag, TC5_EINVAL, "level", 0,
                        "--rule %s: rule '%s' needs a level: NAME=off, NAME=warning or NAME=error (got '%s')", text,
                        rules[k].id, v);
  out->rule = k;
  out->level = lv;
  return TC5_OK;
}

tc5_status tc5_check_mode_parse(const char *text, tc5_check_mode *mode) {
  if (!text || !mode) return TC5_EINVAL;
  if (!strcmp(text, "default")) *mode = TC5_CHECK_DEFAULT;
  else if (!strcmp(text, "none")) *mode = TC5_CHECK_NONE;
  else if (!strcmp(text, "strict")) *mode = TC5_CHECK_STRICT;
  else return TC5_EINVAL;
  return TC5_OK;
}
