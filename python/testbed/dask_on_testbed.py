"""Dask on the KOALA testbed, end to end: run by koala.scheduler.it.DaskIT against its own scheduler.

Environment: KOALA_CONFIG (the test's grid configuration), KOALA_AS (whom root acts for), KOALA_BIN (the
checkout's bin/koala), COUNT_DIR (a directory every node sees), INTRUDER (another user of the grid, who tries
the instance's scheduler and a worker: dask_intruder.py), TAKE_OVER (set: the scheduler is killed once the
cluster grew, and its standby takes over: takeover-request, takeover-done in COUNT_DIR). Prints one line per
check; exits 1 on the first that fails.
"""
import logging
import os
import pwd
import shutil
import stat
import subprocess
import time
from pathlib import Path

import dask.array as da
import numpy as np
from distributed import Client, Event

from koala.dask import KoalaCluster

from checks import check



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


def another_user(cluster, client, intruder):
    """INTRUDER, on the KOALA host as any user is, tries the instance: a plain Dask client and one with a
    certificate of its own at the scheduler, the same at a worker (held busy, so that KOALA keeps it meanwhile),
    and reading the instance's key. Every attempt must be refused, and the owner's client still served."""
    key = cluster.tls.key_file
    mode, owner = stat.S_IMODE(key.stat().st_mode), pwd.getpwuid(key.stat().st_uid).pw_name
    check("the instance's key is its owner's alone", mode == 0o600 and owner == os.environ["KOALA_AS"],
          f"{key}: {mode:o}, {owner}")
    check("the owner's client speaks TLS", cluster.scheduler_address.startswith("tls://")
          and client.run_on_scheduler(os.getuid) == pwd.getpwnam(os.environ["KOALA_AS"]).pw_uid,
          cluster.scheduler_address)
    worker = sorted(client.scheduler_info()["workers"])[0]
    release = Event(f"koala-hold-{time.time()}", client=client)
    hold = client.submit(held, release.name, workers=[worker], pure=False)
    check("a worker held busy", wait(lambda: bool(client.processing().get(worker)), 60, 0.2), worker)
    program = (Path(__file__).parent / "dask_intruder.py").read_text()
    runuser = shutil.which("runuser") or "/usr/sbin/runuser"   # the test's PATH may lack /usr/sbin
    done = subprocess.run([runuser, "-u", intruder, "--", "/usr/bin/python3", "-P", "-c", program,
                           cluster.scheduler_address.split("://", 1)[1], worker.split("://", 1)[1], str(key)],
                          capture_output=True, text=True, timeout=180, cwd="/",
                          env={"PATH": "/usr/bin:/bin", "HOME": pwd.getpwnam(intruder).pw_dir, "LANG": "C.UTF-8"})
    for line in done.stdout.splitlines():
        print(f"     {intruder}: {line}", flush=True)
    still = worker in client.scheduler_info()["workers"]
    release.set()
    hold.result(timeout=60)
    refused = [line for line in done.stdout.splitlines() if line.startswith("refused ")]
    check(f"{intruder} is refused at the scheduler and at a worker", done.returncode == 0 and len(refused) == 5
          and still, f"exit {done.returncode}, {len(refused)} of 5 refused, the worker {'still' if still else 'gone'}"
          f"{(': ' + done.stderr.strip()[-500:]) if done.returncode else ''}")
    check("the owner's client still served", client.submit(sum, [1, 2, 3], pure=False).result(timeout=60) == 6)


def held(name):
    """A task that keeps its worker busy until the Dask event ``name`` is set."""
    from distributed import Event as DaskEvent
    DaskEvent(name).wait(300)


class Caught(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


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
    lost = []

    def reported():  # the scheduler sees the pilot gone at its next look at the cell, then tells the runner
        lost[:] = [e for e in cluster.runner.status().events if victim in e and " lost: " in e]
        return bool(lost)

    check("the runner reports the loss", wait(reported, 60, 0.5), str(lost))


def taken_over(cluster, count_dir):
    """The scheduler that deployed the instance killed with kill -9 (by DaskIT, asked through a file) and
    its standby leading: the cluster computes on, and what follows (its shrink when idle, a lost worker
    replaced, the last workers given back, the close) goes through the scheduler that took over."""
    (count_dir / "takeover-request").write_text(f"{cluster.instance}\n")
    check("the leader killed, the standby leads", wait(lambda: (count_dir / "takeover-done").exists(), 120, 0.2))
    check("the cluster computes on after the take-over",
          float(da.ones((40, 40), chunks=(10, 10)).sum().compute()) == 1600.0)


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
    another_user(cluster, client, os.environ["INTRUDER"])
    if os.environ.get("TAKE_OVER"):
        taken_over(cluster, count_dir)

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
    caught = Caught()
    logging.getLogger("distributed").addHandler(caught)
    cluster.close()   # its client still open: closed first, before the instance's scheduler goes
    time.sleep(3)     # a client left open would try to reconnect now, logging tracebacks
    check("closing the cluster closed its client, quietly", client.status == "closed" and not caught.records,
          f"client {client.status}; {[r.getMessage()[:200] for r in caught.records]}")
    check("the instance's TLS files went with it", not cluster.tls.directory.exists(), str(cluster.tls.directory))
    print(f"closed instance {instance}", flush=True)


if __name__ == "__main__":
    main()
