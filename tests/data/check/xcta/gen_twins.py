#!/usr/bin/env python3
"""The fixed twins of ConSan's three cross-CTA bug cases (issue 53). ConSan's
suite (tests/data/consan) has a correct twin for one of them
(test_tma_tcgen05_mma_missing_multicast[4ctas]: test_tma_tcgen05_mma_multicast_
loop[4ctas-False], whose commit is multicast to the CTAs that refill its
operands); for the other two this script writes one from the bug case's PTX,
adding the cluster barrier whose absence is the bug:

  cluster_barrier_publishes_read.ptx  test_cluster_barrier_does_not_publish_later_read
      with barrier.cluster.arrive/wait after the reads of smem (before the
      fence.proxy.async that precedes the multicast TMA): every CTA's reads
      are released to the cluster before any CTA issues the copy into them.
  collapsed_wait_publishes_peer.ptx   test_collapsed_wait_does_not_publish_peer_cta
      with barrier.cluster.arrive/wait after the leader's wait on the TMA
      mbarrier (the peer's loads of its half follow the leader's observation
      of the pair's copies), and again after the stores and their
      fence.proxy.async (the leader's 2-CTA MMA follows the peer's stores).

usage: python3 gen_twins.py   (reads ../../consan/ptx, writes beside itself)"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CONSAN = os.path.join(HERE, "..", "..", "consan", "ptx")
BARRIER = "\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;\n"

# twin: (ConSan's PTX, [(anchor line, insert before it or after it)])
TWINS = {
    "cluster_barrier_publishes_read.ptx": ("cluster_barrier_does_not_publish_later_read_a8243e97.ptx",
                                           [("\tfence.proxy.async.shared::cluster;\n", "before")]),
    "collapsed_wait_publishes_peer.ptx": ("collapsed_wait_does_not_publish_peer_cta_3bb20f3c.ptx",
                                          [("\tskipWait:\n}\n", "after"),
                                           ("\tfence.proxy.async.shared::cluster;\n", "after")]),
}


def main():
    for out, (src, edits) in TWINS.items():
        text = open(os.path.join(CONSAN, src)).read()
        for anchor, where in edits:
            if text.count(anchor) != 1:
                raise SystemExit(f"{src}: the anchor {anchor!r} is not there exactly once")
            text = text.replace(anchor, BARRIER + anchor if where == "before" else anchor + BARRIER)
        header = f"// issue 53: the fixed twin of tests/data/consan/ptx/{src} (gen_twins.py)\n"
        with open(os.path.join(HERE, out), "w") as f:
            f.write(header + text)
        print(out)


if __name__ == "__main__":
    main()
