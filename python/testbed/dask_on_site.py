"""A Dask cluster wholly on one site: run by koala.scheduler.it.SlurmSiteIT on the testbed's Slurm cell.

Environment: KOALA_CONFIG (the test's grid configuration), KOALA_AS (whom root acts for), KOALA_BIN (the
checkout's bin/koala), OUT_DIR (a directory for the JDF), SITE (the site every node goes to). An OnDemand
instance with every node on SITE: Dask's scheduler, the orchestrator and the workers are that site's
pilots. It starts with one worker, grows to two, computes over TLS, shrinks back to one and closes.
Prints one line per check; exits 1 on the first that fails.
"""
import os
import socket
import time

import dask.array as da
from distributed import Client

from koala.dask import KoalaCluster

from checks import check



def await_workers(client, cluster, count, within=60):
    """Until the Dask scheduler and the runner both count ``count`` workers; whether they did."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if len(client.scheduler_info()["workers"]) == count and len(cluster.observed) == count:
            return True
        time.sleep(0.5)
    return False


def main():
    site = os.environ["SITE"]
    with KoalaCluster(workers=1, f_max=2, provisioning="ondemand", t_idle="1s", sample_period="1s", site=site,
                      dashboard=False, koala=os.environ["KOALA_BIN"], jdf_dir=os.environ["OUT_DIR"]) as cluster:
        print(f"instance {cluster.instance}", flush=True)
        client = Client(cluster)
        client.wait_for_workers(1, timeout=120)
        master = client.run_on_scheduler(socket.gethostname)
        check(f"Dask's scheduler runs on {site}", master.startswith(site + "-"), master)
        cluster.scale(2)
        client.wait_for_workers(2, timeout=120)
        hosts = sorted(client.run(socket.gethostname).values())
        check(f"both workers run on {site}", len(hosts) == 2 and all(h.startswith(site + "-") for h in hosts),
              str(hosts))
        x = da.random.RandomState(7).random_sample((2000, 2000), chunks=(500, 500))
        mean = float(x.mean().compute())
        check("it computes over TLS", cluster.scheduler_address.startswith("tls://") and abs(mean - 0.5) < 0.001,
              f"{cluster.scheduler_address} {mean:.4f}")
        cluster.scale(1)
        check("shrunk back to one worker", await_workers(client, cluster, 1),
              f"{len(client.scheduler_info()['workers'])} in Dask, {len(cluster.observed)} in the runner")
        client.close()
    print(f"closed instance {cluster.instance}", flush=True)


if __name__ == "__main__":
    main()
