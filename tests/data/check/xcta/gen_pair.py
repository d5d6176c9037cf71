#!/usr/bin/env python3
"""A CTA pair's MMA reading the peer's half (issue 53): a bug kernel and its
fixed twin, written from collapsed_wait_publishes_peer.ptx (ConSan's 2-CTA
kernel with its cluster barriers; gen_twins.py). The leader (rank 0) issues
eight tcgen05.mma.cta_group::2, which read A and B in both CTAs' shared
memory; after the closing barrier.cluster the peer (rank 1) stores over its
half of A:

  pair_peer_overwrite.ptx        the leader never waits for its MMAs: the
      peer's store overwrites operands a pair MMA may still read
      (smem-overwrite-inflight, seen in the peer's shadow).
  pair_peer_overwrite_fixed.ptx  the leader commits the MMAs to an mbarrier
      of its own (tcgen05.commit.cta_group::2) and waits on it before the
      barrier.cluster, which passes that knowledge to the peer: silent.

usage: python3 gen_pair.py   (reads and writes beside itself; --shared-bytes 49168)"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = "collapsed_wait_publishes_peer.ptx"


def sub(text, old, new):
    if text.count(old) != 1:
        raise SystemExit(f"{SRC}: {old!r} is not there exactly once")
    return text.replace(old, new)


def main():
    base = open(os.path.join(HERE, SRC)).read()
    base = sub(base, ".reg .pred \t%p<20>;", ".reg .pred \t%p<24>;")
    base = sub(base, ".reg .b32 \t%r<69>;", ".reg .b32 \t%r<72>;")
    # the peer overwrites its half of A after the closing cluster barrier
    tail = "$L__BB0_2:\n\t.loc\t1 341 5                         // test_consan.py:341:5\n" \
           "\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;\n"
    base = sub(base, tail, tail + "\tsetp.eq.b32 \t%p21, %r15, 1;\n\t@%p21 st.shared.v2.b64 \t[%r33], {%rd5, %rd6};\n")
    bug = base
    fixed = sub(base, "\t@%p2 mbarrier.init.shared::cta.b64 [%r3], 2;\n",
                "\t@%p2 mbarrier.init.shared::cta.b64 [%r3], 2;\n\tadd.s32 \t%r70, %r3, 8;\n"
                "\t@%p2 mbarrier.init.shared::cta.b64 [%r70], 1;\n")
    last = "\t@%p18 tcgen05.mma.cta_group::2.kind::f16 [ %r68 + 0 ], %rd51, %rd52, %r49, %p19;\n"
    fixed = sub(fixed, last, last +
                "\t@%p18 tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.b64 [%r70];\n"
                "$L__pairwait:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p22, [%r70], 0;\n"
                "\t@!%p22 bra.uni $L__pairwait;\n")
    for name, text, what in (("pair_peer_overwrite.ptx", bug, "bug: the peer overwrites its half of A while the"
                              " leader's pair MMAs may read it"),
                             ("pair_peer_overwrite_fixed.ptx", fixed, "fixed: the leader waits for its pair MMAs'"
                              " commit before the cluster barrier")):
        with open(os.path.join(HERE, name), "w") as f:
            f.write(f"// issue 53 (gen_pair.py, from {SRC}): {what}\n" + text)
        print(name)


if __name__ == "__main__":
    main()
