"""How fast Dask gets the workers it asks for: through KOALA, and as dask-jobqueue would, by plain qsub.

Run by 'bin/koala bench dask' (as root, on the testbed). One Dask scheduler, KOALA's instance's master;
for each N, alternating, in one run:
  KOALA      cluster.scale(N) on an OnDemand instance held to one cell: the runner's grow, KOALA's claims
             and pilots, each node's launcher starting dask-worker;
  plain qsub N binary jobs of the same dask-worker command on the same cell, at once (the way
             dask-jobqueue's SGECluster starts workers), pointed at the same Dask scheduler.
Each time is from the ask to N workers connected to the Dask scheduler; then the workers go away
(scale(0) / qdel) and the next starts from none.

Environment: KOALA_BIN (the checkout's bin/koala), KOALA_AS (whom root acts for, the cell's user), SITE
(the cell), SGE_ENV (the cell's SGE variables, NAME=VALUE;...), WORK_DIR (a directory every node sees),
RUNS, WARMUP, SIZES (e.g. 1,4,8). Prints a line per run and the medians with the ratios.
"""
import logging
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from distributed import Client

from koala.dask import KoalaCluster

logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
PYTHON = "/usr/bin/python3"
WAIT = 300.0
# KOALA gives a worker back once it has been idle this long: longer than N workers take to come (so none
# leaves before the last arrives), short enough that scale(0) does not hold the run up for long
T_IDLE = "20s"


def wait(condition, seconds, step=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def connected(client, prefix=None):
    names = [str(w.get("name", "")) for w in client.scheduler_info()["workers"].values()]
    return len([n for n in names if prefix is None or n.startswith(prefix)])


class Qsub:
    """The cell's own commands, as its user runs them."""

    def __init__(self, user, sge_env):
        self.user = user
        self.env = dict(pair.split("=", 1) for pair in sge_env.split(";") if pair)

    def run(self, *args):
        line = ["runuser", "-u", self.user, "--", "/usr/bin/env", *[f"{k}={v}" for k, v in self.env.items()], *args]
        done = subprocess.run(line, capture_output=True, text=True, cwd="/")
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout} {done.stderr}")
        return done.stdout

    def workers(self, n, scheduler, run, work_dir, tls_options):
        ids = []
        for i in range(n):
            ids.append(self.run("qsub", "-terse", "-b", "y", "-N", f"dask-qsub-{run}-{i}", "-o", "/dev/null", "-j", "y",
                                "-wd", str(work_dir), PYTHON, "-P", "-m", "distributed.cli.dask_worker", scheduler,
                                "--name", f"qsub-{run}-{i}", "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                "--local-directory", "/tmp", *tls_options).strip())
        return ids


def main():
    sizes = [int(s) for s in os.environ.get("SIZES", "1,4,8").split(",")]
    runs = int(os.environ.get("RUNS", "5"))
    warmup = int(os.environ.get("WARMUP", "1"))
    site = os.environ["SITE"]
    work_dir = Path(os.environ["WORK_DIR"])
    qsub = Qsub(os.environ["KOALA_AS"], os.environ["SGE_ENV"])
    cluster = KoalaCluster(workers=0, f_max=max(sizes), provisioning="ondemand", t_idle=T_IDLE,
                           sample_period="2s", koala=os.environ["KOALA_BIN"], jdf_dir=work_dir, site=site,
                           master_site=site, retry_after="5s")
    client = Client(cluster)
    print(f"dask bench: KOALA instance {cluster.instance}, Dask scheduler {cluster.scheduler_address}, on {site}; "
          f"{runs} runs after {warmup} warm-up, sizes {sizes}", flush=True)
    times = {(way, n): [] for way in ("koala", "qsub") for n in sizes}
    try:
        for r in range(warmup + runs):
            for n in sizes:
                # KOALA: Dask asks the instance for n workers
                start = time.monotonic()
                cluster.scale(n)
                if not wait(lambda: connected(client, None) >= n, WAIT):
                    raise RuntimeError(f"KOALA: {connected(client)} of {n} workers after {WAIT:.0f} s")
                koala_s = time.monotonic() - start
                cluster.scale(0)
                if not wait(lambda: connected(client) == 0 and not cluster.observed, WAIT, 0.2):
                    raise RuntimeError("KOALA's workers did not leave")
                # plain qsub of the same worker command on the same cell, to the same Dask scheduler
                start = time.monotonic()
                # the instance's TLS files, as its own workers get them (the qsub'd workers run as its owner)
                ids = qsub.workers(n, cluster.scheduler_address, r, work_dir, cluster.tls.options())
                try:
                    if not wait(lambda: connected(client, f"qsub-{r}-") >= n, WAIT):
                        raise RuntimeError(f"qsub: {connected(client, f'qsub-{r}-')} of {n} workers after {WAIT:.0f} s")
                    qsub_s = time.monotonic() - start
                finally:
                    qsub.run("qdel", *ids)
                if not wait(lambda: connected(client) == 0, WAIT, 0.2):
                    raise RuntimeError("qsub's workers did not leave")
                if r >= warmup:
                    times[("koala", n)].append(koala_s)
                    times[("qsub", n)].append(qsub_s)
                print(f"  run {r + 1}{' (warm-up)' if r < warmup else ''}, N={n}: KOALA {koala_s:.2f} s, "
                      f"plain qsub {qsub_s:.2f} s", flush=True)
        print(f"\nDask asks for N workers -> N workers connected, median of {runs} runs on {site}")
        print(f"  {'N':>3} {'KOALA':>10} {'plain qsub':>12} {'ratio':>8}  target <= 1.30x")
        met = True
        for n in sizes:
            k = statistics.median(times[("koala", n)])
            q = statistics.median(times[("qsub", n)])
            ok = k / q <= 1.3
            met = met and ok
            print(f"  {n:>3} {k:>9.2f}s {q:>11.2f}s {k / q:>7.2f}x  {'met' if ok else 'NOT met'}")
        return 0
    finally:
        client.close()
        cluster.close()


if __name__ == "__main__":
    sys.exit(main())
