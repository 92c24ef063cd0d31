"""A bursty Dask workload on KOALA three ways: OnDemand with Dask's adapt, Proactive, and a static cluster of
the peak size. Run by 'bin/koala experiment dask' (as root, on the testbed).

The workload: trains of dask.array computations arriving over a few minutes, each chunk burning the CPU
for CHUNK_S seconds (so that Proactive's CPU rule has something to see). For each way it prints the time to
finish every computation, the mean time a computation took from its arrival, node-seconds held and busy, and writes the number of
workers over time (dask-workers.csv, dask-workers.png: the paper's Figure 7, for Dask) and a summary
(dask-summary.csv) into OUT.

Environment: KOALA_BIN, KOALA_AS, WORK_DIR (a directory every node sees), OUT, PEAK (workers of the static
cluster and F_max of the others), SCALE (a factor on the arrival times: 1 is the default train).
"""
import csv
import logging
import os
import sys
import threading
import time
from pathlib import Path

import dask.array as da
import numpy as np
from distributed import Client

from koala.dask import KoalaCluster

logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
CHUNK_S = 0.5
# (arrival, s; computations; chunks each): a burst, a lull, a bigger burst, a trickle
TRAIN = [(0, 2, 48), (20, 1, 48), (90, 3, 64), (100, 1, 32), (190, 1, 24), (200, 1, 24)]
T_IDLE = "20s"


def burn(x, block_info=None):
    end = time.process_time() + CHUNK_S
    while time.process_time() < end:
        pass
    return x + 1


def computation(chunks):
    return da.ones((chunks, 1), chunks=(1, 1)).map_blocks(burn, dtype=float, meta=np.array((), dtype=float)).sum()


class Sampler(threading.Thread):
    """Every second: the workers KOALA holds (the runner's RUNNING workers) and those Dask keeps busy."""

    def __init__(self, cluster, client, start):
        super().__init__(daemon=True)
        self.cluster, self.client, self.start_at = cluster, client, start
        self.samples = []  # (t, held, busy)
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            t = time.monotonic() - self.start_at
            try:
                held = sum(1 for e in self.cluster.runner.status().entities if e.role == "worker" and e.state == "RUNNING")
                busy = sum(1 for tasks in self.client.processing().values() if tasks)
                self.samples.append((t, held, busy))
            except Exception as e:  # a look that failed is a second without a sample
                logging.warning("sample at %.0f s: %s", t, e)
            self.stopping.wait(1.0)


def integral(samples, column, until):
    total, last_t, last_v = 0.0, None, 0
    for s in samples:
        t, v = s[0], s[column]
        if last_t is not None:
            total += last_v * (min(t, until) - last_t) if last_t < until else 0
        last_t, last_v = t, v
    return total


def run_way(name, options, scale, work_dir):
    cluster = KoalaCluster(koala=os.environ["KOALA_BIN"], jdf_dir=work_dir, retry_after="5s", sample_period="2s",
                           name=f"dask-{name}", **options)
    client = Client(cluster)
    try:
        if name == "ondemand":
            cluster.adapt(minimum=0, maximum=options["f_max"])
        if options["provisioning"] == "static":
            deadline = time.monotonic() + 300
            while len(client.scheduler_info()["workers"]) < options["workers"] and time.monotonic() < deadline:
                time.sleep(0.5)
        start = time.monotonic()
        sampler = Sampler(cluster, client, start)
        sampler.start()
        futures = []  # (arrival, future)
        done = {}  # future's key -> when it was done
        for arrival, count, chunks in TRAIN:
            wait_s = arrival * scale - (time.monotonic() - start)
            if wait_s > 0:
                time.sleep(wait_s)
            for _ in range(count):
                future = client.compute(computation(chunks))
                future.add_done_callback(lambda f: done.setdefault(f.key, time.monotonic() - start))
                futures.append((time.monotonic() - start, future))
        for _, future in futures:
            future.result(timeout=1800)
        ends = time.monotonic() - start
        responses = [done.get(f.key, ends) - arrival for arrival, f in futures]
        sampler.stopping.set()
        sampler.join()
        held = integral(sampler.samples, 1, ends)
        busy = integral(sampler.samples, 2, ends)
        return {"way": name, "finished_s": ends, "mean_response_s": sum(responses) / len(responses),
                "max_response_s": max(responses), "node_s_held": held, "node_s_busy": busy,
                "peak_workers": max((s[1] for s in sampler.samples), default=0), "samples": sampler.samples,
                "instance": cluster.instance}
    finally:
        client.close()
        cluster.close()


def main():
    out = Path(os.environ.get("OUT", "results"))
    out.mkdir(parents=True, exist_ok=True)
    work_dir = Path(os.environ["WORK_DIR"])
    peak = int(os.environ.get("PEAK", "6"))
    scale = float(os.environ.get("SCALE", "1"))
    work = sum(count * chunks for _, count, chunks in TRAIN) * CHUNK_S
    print(f"dask experiment: {sum(c for _, c, _ in TRAIN)} computations in {len(TRAIN)} arrivals over "
          f"{TRAIN[-1][0] * scale:.0f} s, {work:.0f} s of chunk work in all ({CHUNK_S} s of CPU each); "
          f"F_max and the static size {peak}", flush=True)
    ways = [("ondemand", dict(workers=0, f_max=peak, provisioning="ondemand", t_idle=T_IDLE)),
            # a dask-worker of one thread keeps one of a node's two cores busy: 50% at most, never above the
            # default U_max (50%); the band is set for such workers
            ("proactive", dict(workers=1, f_max=peak, provisioning="proactive", t_idle=T_IDLE, u_min=15, u_max=35)),
            ("static", dict(workers=peak, f_max=peak, provisioning="static"))]
    results = []
    for name, options in ways:
        print(f"  {name}: running ...", flush=True)
        r = run_way(name, options, scale, work_dir)
        results.append(r)
        print(f"  {name}: every computation done after {r['finished_s']:.0f} s (response mean "
              f"{r['mean_response_s']:.1f} s, worst {r['max_response_s']:.1f} s); {r['node_s_held']:.0f} node-s held, "
              f"{r['node_s_busy']:.0f} busy; at most {r['peak_workers']} workers (instance {r['instance']})",
              flush=True)
    static = next(r for r in results if r["way"] == "static")
    print(f"\nDask on KOALA, {sum(c for _, c, _ in TRAIN)} computations in bursts; F_max {peak}")
    print(f"  {'way':<10} {'all done':>9} {'mean response':>14} {'vs static':>10} {'node-s held':>12} {'vs static':>10} "
          f"{'node-s busy':>12}")
    for r in results:
        print(f"  {r['way']:<10} {r['finished_s']:>8.0f}s {r['mean_response_s']:>13.1f}s "
              f"{r['mean_response_s'] / static['mean_response_s']:>9.2f}x {r['node_s_held']:>12.0f} "
              f"{r['node_s_held'] / static['node_s_held']:>9.2f}x {r['node_s_busy']:>12.0f}")
    ondemand = results[0]
    # the last computations arrive at the end of the train: every way is done soon after, so the time each
    # computation took (arrival to result) is what tells them apart
    time_ok = ondemand["mean_response_s"] <= 1.2 * static["mean_response_s"]
    held_ok = ondemand["node_s_held"] <= 0.6 * static["node_s_held"]
    print(f"  goal: OnDemand's computations within 1.2x the static cluster's time ({'met' if time_ok else 'NOT met'}) "
          f"with at least "
          f"40% fewer node-seconds ({'met' if held_ok else 'NOT met'})")
    with open(out / "dask-summary.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["way", "finished_s", "mean_response_s", "max_response_s", "node_s_held", "node_s_busy",
                    "peak_workers"])
        for r in results:
            w.writerow([r["way"], f"{r['finished_s']:.1f}", f"{r['mean_response_s']:.1f}", f"{r['max_response_s']:.1f}",
                        f"{r['node_s_held']:.0f}", f"{r['node_s_busy']:.0f}", r["peak_workers"]])
    with open(out / "dask-workers.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["way", "t_s", "workers_held", "workers_busy"])
        for r in results:
            for t, held, busy in r["samples"]:
                w.writerow([r["way"], f"{t:.1f}", held, busy])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(len(results), 1, figsize=(8, 2.2 * len(results)), sharex=True)
        for ax, r in zip(axes, results):
            ts = [s[0] for s in r["samples"]]
            ax.step(ts, [s[1] for s in r["samples"]], where="post", label="workers held")
            ax.step(ts, [s[2] for s in r["samples"]], where="post", label="workers busy")
            for arrival, _, _ in TRAIN:
                ax.axvline(arrival * scale, color="grey", linewidth=0.5)
            ax.set_ylabel(r["way"])
            ax.set_ylim(0, peak + 1)
        axes[0].legend(loc="upper right")
        axes[-1].set_xlabel("seconds (grey: computations arrive)")
        fig.tight_layout()
        fig.savefig(out / "dask-workers.png", dpi=100)
    except ImportError:
        print("no matplotlib: no plot, the CSV has the series")
    print(f"\nresults in {out.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
