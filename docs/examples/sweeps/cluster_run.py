"""The across-nodes run of docs/sweeps.md: a Ray head (no CPUs) and two worker
nodes of one CPU each on this machine (ray.cluster_utils.Cluster: separate
processes and ports, object stores of 1 GiB for a 24 GB machine), the
12-point subset of the Gluon tutorial 07 sweep (BLOCK_M 128, warps 4) through
the cluster's address, one worker node's raylet killed by its process id
after the first point arrives; the rows compared with the local sweep's
(the same points of its table, eval_s and cpu_s aside).

usage: TC5_GLUON_TUTORIALS=SRC python cluster_run.py LOCAL_TABLE.json OUT.json
"""
import json
import os
import signal
import sys
import time

import tc5.sweep as S

HERE = os.path.dirname(os.path.abspath(__file__))


def main(local_path, out):
    from ray._private import ray_constants
    from ray.cluster_utils import Cluster
    spec = json.load(open(os.path.join(HERE, "gluon07_matmul.json")))
    os.environ.update(spec.get("env", {}))  # the nodes' processes inherit it
    params = dict(spec["params"], BLOCK_M=[128], num_warps=[4])
    gib = 1 << 30
    t0 = time.time()
    cluster = Cluster(initialize_head=True, head_node_args=dict(num_cpus=0, object_store_memory=gib))
    workers = [cluster.add_node(num_cpus=1, object_store_memory=gib) for _ in range(2)]
    cluster.wait_for_nodes()
    print(f"cluster: head + 2 workers at {cluster.address} in {time.time() - t0:.0f} s", flush=True)
    killed = []

    def kill_one(i, row):
        print(f"  point {i}: {row['status']} {row['predicted_us']} us ({time.time() - t0:.0f} s)", flush=True)
        if not killed:
            pid = workers[0].all_processes[ray_constants.PROCESS_TYPE_RAYLET][0].process.pid
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            print(f"  killed worker node 1's raylet, pid {pid}", flush=True)

    address = cluster.address
    t1 = time.time()
    try:
        rows = S.sweep(os.path.join(HERE, spec["kernel"]), params, spec["shapes"], gpu=spec["gpu"],
                       small=spec["small"], rtol=spec["rtol"], atol=spec["atol"], address=cluster.address,
                       progress=False, on_result=kill_one)
    finally:
        cluster.shutdown()
    wall = time.time() - t1
    S.write(rows, out)
    local = json.load(open(local_path))
    keys = list(params)

    def key(r):
        return tuple(r[k] for k in keys)

    def strip(r):
        return {k: v for k, v in r.items() if k not in ("eval_s", "cpu_s")}

    mine = {key(r): strip(r) for r in json.loads(json.dumps(rows, default=str))}
    theirs = {key(r): strip(r) for r in local if key(r) in mine}
    same = mine == theirs
    print(f"{len(rows)} points through {address} in {wall:.0f} s, worker killed: {bool(killed)}; "
          f"equal to the local run's {len(theirs)} rows: {same}")
    if not same:
        for k in mine:
            if mine[k] != theirs.get(k):
                print("  differs:", k, mine[k], theirs.get(k))
    return 0 if same and len(rows) == 12 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
