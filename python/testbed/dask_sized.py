"""A Dask worker sized by its JDF, on the shaped testbed: run by koala.scheduler.it.ResourcesIT.

Environment: KOALA_CONFIG (the test's grid configuration), KOALA_AS (whom root acts for), KOALA_BIN (the
checkout's bin/koala), OUT_DIR (a directory for the JDF). A Static instance of one worker of 4 cores and
2G on fs1 (hosts of 8 cores and 16G): the worker runs 4 threads with a 2 GiB limit, as its node was
given. The instance stays until the test has read SGE's view of the worker's pilot (OUT_DIR/sge-checked).
Prints one line per check; exits 1 on the first that fails.
"""
import os
import time
from pathlib import Path

import dask.array as da
from distributed import Client

from koala.dask import KoalaCluster

from checks import check



def main():
    with KoalaCluster(workers=1, provisioning="static", worker_nthreads=4, worker_memory="2G", site="fs1",
                      dashboard=False, koala=os.environ["KOALA_BIN"], jdf_dir=os.environ["OUT_DIR"]) as cluster:
        print(f"instance {cluster.instance}", flush=True)
        check("the JDF asks each worker for 4 cores and 2G",
              "(role = worker)\n    (count = 1)\n    (cores = 4)\n    (memory = 2G)\n" in cluster.jdf())
        client = Client(cluster)
        client.wait_for_workers(1, timeout=120)
        (info,) = client.scheduler_info()["workers"].values()
        check("the worker runs 4 threads", info["nthreads"] == 4, str(info["nthreads"]))
        check("its memory limit is 2 GiB", info["memory_limit"] == 2 * 2 ** 30, str(info["memory_limit"]))
        (env,) = client.run(lambda: {k: os.environ.get(k) for k in ("KOALA_NODE_CORES", "KOALA_NODE_MEMORY_MIB",
                                                                    "MALLOC_ARENA_MAX")}).values()
        check("what KOALA gave its node", env == {"KOALA_NODE_CORES": "4", "KOALA_NODE_MEMORY_MIB": "2048",
                                                  "MALLOC_ARENA_MAX": "2"}, str(env))
        events = [e for e in cluster.runner.status().events if "grow 1 worker of 4 cores and 2G [" in e]
        check("the runner asked for a worker of 4 cores and 2G", len(events) == 1, str(events))
        x = da.random.RandomState(7).random_sample((4000, 4000), chunks=(500, 500))
        mean = float(x.mean().compute())
        check("it computes", abs(mean - 0.5) < 0.001, f"{mean:.4f}")
        client.close()
        # the test reads SGE's view of the worker's pilot while the instance runs, then says so
        checked = Path(os.environ["OUT_DIR"]) / "sge-checked"
        deadline = time.monotonic() + 120
        while not checked.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        check("the test read the pilot's claim", checked.exists())
    print(f"closed instance {cluster.instance}", flush=True)


if __name__ == "__main__":
    main()
