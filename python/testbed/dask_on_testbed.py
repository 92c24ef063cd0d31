"""Dask on the KOALA testbed, end to end: run by koala.scheduler.it.DaskIT against its own scheduler.

Environment: KOALA_CONFIG (the test's grid configuration), KOALA_AS (whom root acts for), KOALA_BIN (the
checkout's bin/koala), COUNT_DIR (a directory every node sees). Prints one line per check; exits 1 on the
first that fails.
"""
import logging
import os
import sys
import time
from pathlib import Path

import dask.array as da
import numpy as np
from distributed import Client

from koala.dask import KoalaCluster

logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + (f": {detail}" if detail else ""), flush=True)
    if not ok:
        sys.exit(1)


def wait(condition, seconds, step=1.0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def worker_sites(cluster):
    return {e.node: e.site for e in cluster.runner.status().entities if e.role == "worker" and e.state == "RUNNING"}


def counted(x, block_info=None):
    """A chunk computed: one line in COUNT_DIR per computation, from whichever node runs it."""
    loc = block_info[None]["chunk-location"] if block_info else (0, 0)
    with open(os.path.join(os.environ["COUNT_DIR"], "computed"), "a") as f:
        f.write(f"{loc}\n")
    return x + 1


def slow_counted(x, block_info=None):
    """A chunk that takes half a second, counted as `counted` does."""
    time.sleep(0.5)
    return counted(x, block_info)


def lost_worker(cluster, client, count_dir):
    """A worker's pilot deleted with qdel (by DaskIT, asked through a file) while it holds chunks of a
    persisted array: Dask computes those chunks again when the sum needs them, the answer is right, and
    the runner reports the loss. The chunks are persisted (the client holds them), so what the worker
    held is still wanted when it goes, whenever that is; a chunk merely computed on its way into a sum
    could be used up before its worker went, and then nothing was lost (DaskIT failed so once)."""
    (count_dir / "computed").write_text("")
    ones = client.persist(da.ones((8, 8), chunks=(1, 1)).map_blocks(slow_counted, dtype=float,
                                                                     meta=np.array((), dtype=float)))
    wanted = {str(key) for row in ones.__dask_keys__() for key in row}  # has_what() names keys as strings
    holding = {}

    def two_workers_holding_chunks():
        holding.clear()
        for w, held in client.has_what().items():
            mine = [k for k in held if str(k) in wanted]
            if mine:
                holding[w] = mine
        return len(holding) >= 2

    check("two workers, persisted chunks held", wait(two_workers_holding_chunks, 180, 0.2),
          {w: len(held) for w, held in holding.items()})
    names = {address: w["name"] for address, w in client.scheduler_info()["workers"].items()}
    address = next(iter(holding))
    victim = str(names[address])  # Dask's worker names are KOALA's node ids
    (count_dir / "qdel-request").write_text(f"{cluster.instance} {victim}\n")
    check("its pilot deleted", wait(lambda: (count_dir / "qdel-done").exists(), 60, 0.2),
          f"{victim}, which held {len(holding[address])} of the {len(wanted)} chunks")
    check("the sum is right after the loss", float(client.compute(ones.sum()).result(timeout=300)) == 128.0)
    computed = len((count_dir / "computed").read_text().splitlines())
    check("what was lost was computed again", computed > 64, f"{computed} chunk computations for 64 chunks")
    lost = [e for e in cluster.runner.status().events if victim in e and " lost: " in e]
    check("the runner reports the loss", bool(lost), str(lost))


def main():
    count_dir = Path(os.environ["COUNT_DIR"])
    cluster = KoalaCluster(workers=0, f_max=6, provisioning="ondemand", t_idle="15s", sample_period="2s",
                           koala=os.environ["KOALA_BIN"], jdf_dir=count_dir, retry_after="5s",
                           environment={"COUNT_DIR": str(count_dir)})
    check("deployed", cluster.instance is not None, repr(cluster))
    cluster.adapt(minimum=0, maximum=6)
    client = Client(cluster)

    small = np.arange(400.0).reshape(20, 20)
    check("a small sum is NumPy's", float(da.from_array(small, chunks=5).sum().compute()) == float(small.sum()))
    x = da.random.RandomState(42).random_sample((20000, 20000), chunks=(1000, 800))
    check("500 chunks", x.npartitions == 500, str(x.npartitions))
    total = float(x.sum().compute())
    check("the big sum is about half its size", abs(total / 4e8 - 0.5) < 0.001, f"{total:.1f}")
    sites = worker_sites(cluster)
    check("grew over two clusters", len(set(sites.values())) >= 2 and len(sites) >= 3, str(sites))

    # results held on workers, then the cluster shrinks: each retired worker's results move first
    (count_dir / "computed").write_text("")
    os.chmod(count_dir / "computed", 0o666)  # written by the workers, which run as the instance's owner
    kept = client.persist(da.ones((12, 12), chunks=(2, 2)).map_blocks(counted, dtype=float,
                                                                       meta=np.array((), dtype=float)))
    wait(lambda: len((count_dir / "computed").read_text().splitlines()) >= 36, 120)
    before = len((count_dir / "computed").read_text().splitlines())
    check("36 chunks computed once", before == 36, str(before))
    shrunk = wait(lambda: len(client.scheduler_info()["workers"]) <= 1, 180)
    check("shrank to at most one worker while idle", shrunk, str(len(client.scheduler_info()["workers"])))
    check("the persisted results are right", float(kept.sum().compute()) == 288.0)
    after = len((count_dir / "computed").read_text().splitlines())
    check("no result recomputed because KOALA took a node", after == before, f"{before} then {after}")

    del kept
    lost_worker(cluster, client, count_dir)
    empty = wait(lambda: len(client.scheduler_info()["workers"]) == 0 and not worker_sites(cluster), 180)
    check("back to 0 workers", empty, str(worker_sites(cluster)))
    instance = cluster.instance
    client.close()
    cluster.close()
    print(f"closed instance {instance}", flush=True)


if __name__ == "__main__":
    main()
