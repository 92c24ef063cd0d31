"""koala.dask.KoalaCluster against a runner served in-process, a stand-in koala CLI, and a real Dask
scheduler and workers in this process (tests/daskgrid.py) standing in for KOALA's nodes."""

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:
    import distributed  # noqa: F401
    from distributed import Client
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False

import fakecli  # noqa: E402
from fakerunner import WorkerRunner  # noqa: E402

PYTHON_DIR = Path(__file__).resolve().parents[1]
TOKEN = "s3cret-token"
SKIP = "distributed is not importable (Debian: apt-get install python3-distributed python3-dask)"


def wait_for(condition, timeout=20.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@unittest.skipUnless(HAVE_DASK, SKIP)
class KoalaClusterTest(unittest.TestCase):
    def setUp(self):
        from daskgrid import DaskGrid
        logging.getLogger("distributed").setLevel(logging.ERROR)
        self.dir = Path(tempfile.mkdtemp(prefix="koala-dask-test-"))
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.grid = DaskGrid(self.dir / "workers")
        self.addCleanup(self.grid.close)
        self.runner = WorkerRunner(master=self.grid.master, f_max=8).start()
        self.addCleanup(self.runner.stop)
        self.grid.attach(self.runner)
        self.koala = fakecli.write(self.dir)
        self.clusters = []
        self.retiring = []   # (path, {node: status at the scheduler}) at each shrink or give-back
        self.runner.on_shrink_request = lambda path, nodes: self.retiring.append((path, self.grid.statuses(nodes)))

    def tearDown(self):
        for cluster in self.clusters:
            cluster.close()

    def cluster(self, **options):
        from koala.dask import KoalaCluster
        settings = dict(workers=0, f_max=12, provisioning="ondemand", t_idle="30s", poll_interval="0.1s",
                        koala=str(self.koala), koala_env=fakecli.environment(self.dir, self.runner.url, TOKEN),
                        jdf_dir=self.dir / "jdf", connect_timeout=20, security=False)
        settings.update(options)
        cluster = KoalaCluster(**settings)
        self.clusters.append(cluster)
        return cluster

    def client(self, cluster):
        client = Client(cluster)
        self.addCleanup(client.close)
        return client

    def grows(self):
        """The grows the runner took (with the instance's current token)."""
        taken = f"Bearer {self.runner.token}"
        return [{k: v for k, v in r.body.items() if k != "requestId"} for r in self.runner.requests
                if (r.method, r.path) == ("POST", "/grow") and r.headers.get("Authorization") == taken]

    def shrinks(self):
        return [body["nodes"] for body in self.runner.calls("POST", "/shrink")]

    # -- deploying ------------------------------------------------------------------------------------

    def test_submits_a_framework_jdf_and_connects_to_its_master(self):
        cluster = self.cluster()
        calls = fakecli.calls(self.dir)
        self.assertEqual([["submit", str(cluster.jdf_path)]], calls)
        jdf = (self.dir / "submitted-1.jdf").read_text()
        for relation in ["(jobType = framework)", "(role = master)", "(provisioning = ondemand)", "(fMax = 12)",
                         "(tIdle = 30)", "(role = orchestrator)", "(executable = /bin/sleep)", "(role = worker)",
                         "(count = 0)", "distributed.cli.dask_scheduler --host \"$KOALA_ENTITY_HOST\" --port "
                         "\"$KOALA_ENTITY_PORT\"", "-P -c \"$1\" \"tcp://$KOALA_MASTER\" --name \"$KOALA_NODE_ID\"",
                         "--no-nanny", "koala-dask-worker", "def retire_and_close"]:
            self.assertIn(relation, jdf)
        self.assertEqual(31, cluster.instance)
        self.assertEqual(self.grid.scheduler.address, cluster.scheduler_address)
        self.assertIn("KoalaCluster(instance 31, 'tcp://127.0.0.1:", repr(cluster))
        self.assertIn("provisioning=ondemand", repr(cluster))
        self.assertIsNone(cluster.dashboard_link)
        self.assertEqual(set(), cluster.requested)

    def test_the_workers_threads_and_memory_are_asked_of_koala_in_the_jdf(self):
        self.cluster(worker_nthreads=2, worker_memory="1536M")
        jdf = (self.dir / "submitted-1.jdf").read_text()
        worker = jdf[jdf.index("(role = worker)"):]
        self.assertTrue(worker.startswith("(role = worker)\n    (count = 0)\n    (cores = 2)\n    (memory = 1536M)\n"
                                          "    (executable = /bin/sh)\n"), worker[:200])
        self.assertIn('--nthreads "${KOALA_NODE_CORES:-2}" --memory-limit "${KOALA_NODE_MEMORY_MIB:-1536}MiB" ',
                      worker)

    def test_the_workers_gpus_are_asked_of_koala_in_the_jdf(self):
        self.cluster(worker_nthreads=4, worker_memory="8G", worker_gpus=2)
        jdf = (self.dir / "submitted-1.jdf").read_text()
        worker = jdf[jdf.index("(role = worker)"):]
        self.assertTrue(worker.startswith("(role = worker)\n    (count = 0)\n    (cores = 4)\n    (memory = 8G)\n"
                                          "    (gpus = 2)\n    (executable = /bin/sh)\n"), worker[:200])
        self.assertIn('--memory-limit "${KOALA_NODE_MEMORY_MIB:-8192}MiB" --resources "GPU=${KOALA_NODE_GPUS:-2}" ',
                      worker)

    def test_worker_gpus_koala_cannot_ask_for_are_refused_before_anything_is_submitted(self):
        with self.assertRaises(ValueError) as caught:
            self.cluster(worker_gpus=-1)
        self.assertEqual("worker_gpus: -1 is not a whole number of 0 or more: the GPUs each worker's node asks of "
                         "KOALA (the JDF's gpus)", str(caught.exception))
        self.assertEqual([], fakecli.calls(self.dir))

    def test_a_worker_memory_koala_cannot_ask_for_is_refused_before_anything_is_submitted(self):
        with self.assertRaises(ValueError) as caught:
            self.cluster(worker_memory=0.5)
        self.assertEqual("worker_memory: 0.5 is not a size: give a size such as '8G' or '512M' (binary, as in a "
                         "JDF), or 'auto' for Dask's share of the host's memory with no memory asked of KOALA",
                         str(caught.exception))
        self.assertEqual([], fakecli.calls(self.dir))

    def test_a_jdf_koala_refuses_fails_the_start_with_koalas_message(self):
        with self.assertRaises(RuntimeError) as caught:
            self.cluster(koala_env=fakecli.environment(self.dir, self.runner.url, TOKEN, submit="invalid"))
        self.assertIn("fMax: 'many' is not a positive whole number", str(caught.exception))

    def test_a_failed_start_after_the_submit_cancels_the_instance(self):
        self.runner.master = None   # the master never reports in
        with self.assertRaises(RuntimeError):
            self.cluster(connect_timeout=1)
        self.assertEqual(["cancel", "31"], fakecli.calls(self.dir)[-1])

    # -- scaling ---------------------------------------------------------------------------------------

    def test_scale_3_grows_3_workers_named_after_their_nodes(self):
        cluster = self.cluster()
        client = cluster.get_client()
        self.addCleanup(client.close)
        cluster.scale(3)
        self.assertEqual([{"nodes": 3, "role": "worker"}], self.grows())
        self.assertEqual({"31.2.0", "31.2.1", "31.2.2"}, cluster.requested)
        client.wait_for_workers(3, timeout=20)
        self.assertEqual({"31.2.0", "31.2.1", "31.2.2"},
                         {w["name"] for w in client.scheduler_info()["workers"].values()})
        self.assertEqual(45, client.submit(sum, range(10)).result())
        cluster.scale(3)
        self.assertEqual(1, len(self.grows()), "no grow when the workers are there")

    def test_scale_down_retires_through_dask_then_shrinks_exactly_the_retired(self):
        self.runner.t_idle = 0
        cluster = self.cluster()
        client = self.client(cluster)
        cluster.scale(3)
        client.wait_for_workers(3, timeout=20)
        wait_for(lambda: cluster.observed == cluster.requested, what="workers reported in")
        cluster.scale(1)
        shrunk = self.shrinks()
        self.assertEqual(1, len(shrunk))
        self.assertEqual(2, len(shrunk[0]))
        path, statuses = self.retiring[0]
        self.assertEqual("/shrink", path)
        self.assertEqual({node: "closing_gracefully" for node in shrunk[0]}, statuses,
                         "each worker named in the shrink had been retired by Dask first")
        self.assertEqual(1, len(cluster.requested))
        wait_for(lambda: len(self.grid.names()) == 1, what="the released workers to leave Dask")
        self.assertEqual(cluster.requested, self.grid.names())

    def test_the_data_of_a_released_worker_is_moved_first(self):
        self.runner.t_idle = 0
        cluster = self.cluster()
        client = self.client(cluster)
        cluster.scale(2)
        client.wait_for_workers(2, timeout=20)
        wait_for(lambda: len(cluster.observed) == 2, what="workers reported in")
        data = client.submit(list, range(1000), workers=[self.address(client, "31.2.0")], pure=False)
        data.result()
        self.assertEqual(["31.2.0"], cluster.scale_down(["31.2.0"]))
        self.assertEqual([["31.2.0"]], self.shrinks())
        self.assertEqual({"31.2.1"}, cluster.requested)
        wait_for(lambda: self.grid.names() == {"31.2.1"}, what="31.2.0 gone from Dask")
        self.assertEqual(list(range(1000)), data.result(timeout=5))
        self.assertEqual({data.key: (self.address(client, "31.2.1"),)},
                         {k: tuple(v) for k, v in client.who_has(data).items()})

    def test_a_rotated_token_is_read_again_from_the_runners_state_file(self):
        cluster = self.cluster()
        state = self.dir / "home" / "runners" / "runner-31.json"
        content = json.loads(state.read_text())
        content["token"] = "rotated-token"
        state.with_name("runner-31.json.new").write_text(json.dumps(content))
        with self.runner.lock:   # the runner rotates the token and rewrites its state file (by rename)
            self.runner.token = "rotated-token"
            os.replace(state.with_name("runner-31.json.new"), state)
            before = len(self.runner.requests)
        cluster.scale(1)
        self.assertEqual({"31.2.0"}, cluster.requested)
        self.assertEqual([{"nodes": 1, "role": "worker"}], self.grows())
        since = [r.headers["Authorization"] for r in self.runner.requests[before:]]
        self.assertEqual([f"Bearer {TOKEN}"] + ["Bearer rotated-token"] * (len(since) - 1), since,
                         "one call refused with 401, asked again with the state file's new token, and every one since")

    def test_a_refused_grow_is_logged_with_koalas_reason(self):
        self.runner.f_max = 2
        cluster = self.cluster()
        with self.assertLogs("koala.dask", logging.WARNING) as logs:
            cluster.scale(3)
        self.assertIn("KOALA granted 2 (31.2.0, 31.2.1): grow 2 of 3 requested: F_max 2 leaves room for 2",
                      "\n".join(logs.output))
        self.assertEqual({"31.2.0", "31.2.1"}, cluster.requested)
        time.sleep(0.5)
        self.assertEqual(1, len(self.grows()), "Dask sees the workers that came; no grow again until asked")

    def test_a_lost_worker_is_grown_again_towards_the_target(self):
        cluster = self.cluster()
        client = self.client(cluster)
        cluster.scale(2)
        client.wait_for_workers(2, timeout=20)
        with self.runner.lock:   # KOALA lost the node (its pilot killed, say)
            del self.runner.workers["31.2.0"]
        wait_for(lambda: len(self.grows()) == 2, what="a grow for the lost worker")
        self.assertEqual({"nodes": 1, "role": "worker"}, self.grows()[1])
        wait_for(lambda: cluster.requested == {"31.2.1", "31.2.2"}, what="the new worker")

    def test_a_grow_granted_none_is_logged(self):
        self.runner.grid_idle = 0
        cluster = self.cluster()
        with self.assertLogs("koala.dask", logging.WARNING) as logs:
            cluster.scale(2)
        self.assertIn("KOALA granted none: partial: 0 of 2 nodes, the grid has no more idle on fs0",
                      "\n".join(logs.output))
        self.assertEqual(set(), cluster.requested)

    def test_workers_not_idle_for_t_idle_stay_until_they_are(self):
        self.runner.t_idle = 1.5
        cluster = self.cluster(t_idle=2)
        client = self.client(cluster)
        cluster.scale(2)
        client.wait_for_workers(2, timeout=20)
        wait_for(lambda: len(cluster.observed) == 2, what="workers reported in")
        with self.assertLogs("koala.dask", logging.INFO) as logs:
            cluster.scale(0)
        self.assertEqual([], self.shrinks(), "KOALA would refuse them: not asked")
        self.assertIn("kept 31.2.0 for now: idle", "\n".join(logs.output))
        self.assertEqual({"31.2.0": "running", "31.2.1": "running"}, self.grid.statuses(["31.2.0", "31.2.1"]),
                         "not retired while they stay")
        wait_for(lambda: not cluster.requested, timeout=10, what="the poll to release them after t_idle")
        self.assertEqual(["31.2.0", "31.2.1"], sorted(n for nodes in self.shrinks() for n in nodes))

    def test_a_worker_the_runner_keeps_is_put_back_to_work(self):
        self.runner.t_idle = 0
        self.runner.refuse_shrink["31.2.1"] = "the pool keeps 1 warm worker"
        cluster = self.cluster()
        client = self.client(cluster)
        cluster.scale(2)
        client.wait_for_workers(2, timeout=20)
        wait_for(lambda: len(cluster.observed) == 2, what="workers reported in")
        with self.assertLogs("koala.dask", logging.WARNING) as logs:
            cluster.scale_down(["31.2.1"])
        self.assertIn("shrink: KOALA keeps 31.2.1: the pool keeps 1 warm worker", "\n".join(logs.output))
        wait_for(lambda: self.grid.statuses(["31.2.1"]) == {"31.2.1": "running"}, what="31.2.1 running again")
        address = self.address(client, "31.2.1")
        self.assertEqual(3, client.submit(len, "abc", workers=[address], pure=False).result(timeout=10))
        time.sleep(0.5)
        self.assertEqual([["31.2.1"]], self.shrinks(), "not named again soon, nor another worker in its place")
        self.assertEqual({"31.2.0", "31.2.1"}, cluster.requested)

    def test_adapt_grows_for_work_and_shrinks_back_to_the_minimum(self):
        self.runner.t_idle = 0
        self.runner.f_max = 3
        cluster = self.cluster(f_max=3)
        client = self.client(cluster)
        adaptive = cluster.adapt(minimum=0, maximum=12, interval="100ms", wait_count=2, target_duration="1s")
        self.assertEqual(3, adaptive.maximum, "capped at F_max")
        futures = client.map(time.sleep, [0.5] * 12, pure=False)
        wait_for(lambda: self.grows(), what="a grow")
        client.gather(futures)
        self.assertTrue(all(body["role"] == "worker" for body in self.grows()))
        self.assertLessEqual(sum(body["nodes"] for body in self.grows()), 3 + len(self.shrinks()) * 3)
        del futures
        wait_for(lambda: not cluster.requested and self.shrinks(), timeout=30, what="adaptive scaling back to 0")
        for path, statuses in self.retiring:
            self.assertEqual({"closing_gracefully"}, set(statuses.values()))

    def test_a_give_back_ask_retires_then_gives_back(self):
        cluster = self.cluster()
        client = self.client(cluster)
        cluster.scale(2)
        client.wait_for_workers(2, timeout=20)
        wait_for(lambda: len(cluster.observed) == 2, what="workers reported in")
        with self.runner.lock:
            self.runner.ask = {"workers": 1, "by": "2026-11-21T12:01:00Z", "reason": "fair share 1 of 4 nodes"}
        wait_for(lambda: self.runner.calls("POST", "/give-back"), what="a give-back")
        given = self.runner.calls("POST", "/give-back")[0]["nodes"]
        self.assertEqual(1, len(given))
        self.assertEqual([("/give-back", {given[0]: "closing_gracefully"})], self.retiring)
        wait_for(lambda: len(cluster.requested) == 1, what="the worker given back gone")

    def test_activity_is_reported_from_dask(self):
        cluster = self.cluster()
        client = self.client(cluster)
        cluster.scale(1)
        client.wait_for_workers(1, timeout=20)
        wait_for(lambda: self.runner.activities, what="an activity report")
        node, body = self.runner.activities[0]
        self.assertEqual(("31.2.0", False), (node, body["busy"]))
        self.assertIn("since", body)
        future = client.submit(time.sleep, 1.0, pure=False)
        wait_for(lambda: any(b["busy"] for _, b in self.runner.activities), what="busy reported")
        future.result()
        wait_for(lambda: not self.runner.activities[-1][1]["busy"], what="idle reported again")

    def test_koala_sizes_a_proactive_cluster(self):
        self.runner.policy = "proactive"
        cluster = self.cluster(provisioning="proactive", workers=2, t_idle=None)
        jdf = (self.dir / "submitted-1.jdf").read_text()
        self.assertIn("(provisioning = proactive)", jdf)
        self.assertIn("(count = 2)", jdf)
        with self.assertLogs("koala.dask", logging.WARNING) as logs:
            cluster.scale(5)
            self.assertIsNone(cluster.adapt(minimum=0, maximum=5))
        self.assertIn("scale(5) ignored: KOALA sizes this cluster (proactive provisioning)", logs.output[0])
        self.assertIn("adapt() ignored", logs.output[1])
        self.assertEqual([], self.grows())

    def test_the_asynchronous_api(self):
        import asyncio
        from koala.dask import KoalaCluster

        async def main():
            async with KoalaCluster(koala=str(self.koala), jdf_dir=self.dir / "jdf", poll_interval="0.1s",
                                    koala_env=fakecli.environment(self.dir, self.runner.url, TOKEN),
                                    asynchronous=True, security=False) as cluster:
                await cluster.scale(2)
                async with Client(cluster, asynchronous=True) as client:
                    await client.wait_for_workers(2, timeout=20)
                    return sorted(w["name"] for w in client.scheduler_info()["workers"].values())

        self.assertEqual(["31.2.0", "31.2.1"], asyncio.run(main()))
        self.assertEqual(["cancel", "31"], fakecli.calls(self.dir)[-1])

    # -- ending -----------------------------------------------------------------------------------------

    def test_close_cancels_the_instance_once(self):
        cluster = self.cluster()
        cluster.close()
        cluster.close()
        self.assertEqual(["cancel", "31"], fakecli.calls(self.dir)[-1])
        self.assertEqual(1, sum(1 for call in fakecli.calls(self.dir) if call[0] == "cancel"))

    def test_close_closes_the_clusters_clients_before_the_scheduler_goes(self):
        """Left open, a client whose scheduler ended with the instance tries to reconnect and logs pages of
        tracebacks (the order of the example in docs/dask.md did that)."""
        cluster = self.cluster()
        client = cluster.get_client()
        other = Client(cluster)
        cluster.scale(1)
        client.wait_for_workers(1, timeout=20)
        self.assertEqual(45, client.submit(sum, range(10)).result(timeout=10))
        with self.assertLogs("distributed.client", logging.INFO) as logs:
            cluster.close()
            self.grid.close()    # the instance ended: its Dask scheduler is gone
            time.sleep(1.5)      # a client left open tries to reconnect now (every 0.1 s at first)
            logging.getLogger("distributed.client").info("done")
        self.assertEqual(("closed", "closed"), (client.status, other.status))
        self.assertEqual([], [r.getMessage() for r in logs.records if r.levelno >= logging.WARNING])

    def test_the_with_block_of_the_docs_closes_the_client_then_the_instance(self):
        with self.cluster() as cluster:
            cluster.adapt(minimum=0, maximum=2)
            client = cluster.get_client()
            self.assertEqual(45, client.submit(sum, range(10)).result(timeout=20))
        self.assertEqual("closed", client.status)
        self.assertEqual("closed", cluster.status.name)
        self.assertEqual(["cancel", "31"], fakecli.calls(self.dir)[-1])

    def test_a_python_process_that_exits_with_its_cluster_open_ends_it_quietly(self):
        """The instance's cancel at exit ends its Dask scheduler (a process here): adaptive scaling, the
        cluster's sync and the client, left running, would try to reconnect to it and log tracebacks."""
        from koala.dask import DaskFramework
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(KOALA_ENTITY_HOST="127.0.0.1", KOALA_ENTITY_PORT=str(port))
        master = subprocess.Popen(["/bin/sh", "-c", DaskFramework(dashboard=False).scheduler_command()], cwd=self.dir,
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(NodeCommandsTest.stop, master)
        self.runner.master = f"127.0.0.1:{port}"
        script = ("import sys, time; sys.path.insert(0, sys.argv[1]); from koala.dask import KoalaCluster; "
                  "c = KoalaCluster(koala=sys.argv[2], jdf_dir=sys.argv[3], poll_interval='0.1s', security=False, "
                  "dashboard=False); c.adapt(minimum=0, maximum=2, interval='100ms'); client = c.get_client(); "
                  "print(c.instance, flush=True); time.sleep(0.5)")
        done = subprocess.run([sys.executable, "-c", script, str(PYTHON_DIR), str(self.koala), str(self.dir / "j")],
                              env=fakecli.environment(self.dir, self.runner.url, TOKEN, cancel_kill=str(master.pid)),
                              capture_output=True, text=True, timeout=90)
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertEqual("31", done.stdout.strip())
        self.assertEqual(["cancel", "31"], fakecli.calls(self.dir)[-1])
        self.assertEqual(0, master.wait(10), "the cancel ended the scheduler")
        for noise in ("Traceback", "ERROR", "failed", "cannot schedule new futures"):
            self.assertNotIn(noise, done.stderr)

    def test_a_python_process_that_exits_cancels_its_instance(self):
        script = ("import sys; sys.path.insert(0, sys.argv[1]); from koala.dask import KoalaCluster; "
                  "c = KoalaCluster(koala=sys.argv[2], jdf_dir=sys.argv[3], poll_interval='0.1s', security=False); "
                  "print(c.instance, flush=True)")
        done = subprocess.run([sys.executable, "-c", script, str(PYTHON_DIR), str(self.koala), str(self.dir / "j")],
                              env=fakecli.environment(self.dir, self.runner.url, TOKEN), capture_output=True,
                              text=True, timeout=60)
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertEqual("31", done.stdout.strip())
        self.assertEqual(["cancel", "31"], fakecli.calls(self.dir)[-1])

    def address(self, client, name):
        return next(a for a, w in client.scheduler_info()["workers"].items() if w["name"] == name)


@unittest.skipUnless(HAVE_DASK, SKIP)
class NodeCommandsTest(unittest.TestCase):
    """The JDF's commands run as a node launcher runs them (/bin/sh -c, KOALA_* in the environment), in a
    directory and environment without this package."""

    def test_the_master_and_worker_commands_make_a_dask_cluster(self):
        from koala.dask import DaskFramework, _back_to_work
        framework = DaskFramework()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        work = tempfile.mkdtemp(prefix="koala-node-")
        self.addCleanup(shutil.rmtree, work, True)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(TMPDIR=work, KOALA_ENTITY_HOST="127.0.0.1", KOALA_ENTITY_PORT=str(port), KOALA_NODE_ID="31.2.0",
                   KOALA_MASTER=f"127.0.0.1:{port}")
        master = subprocess.Popen(["/bin/sh", "-c", framework.scheduler_command()], cwd=work, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self.stop, master)
        worker = subprocess.Popen(framework.worker_argv(), cwd=work, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self.stop, worker)
        client = Client(f"tcp://127.0.0.1:{port}", timeout=30)
        self.addCleanup(client.close)
        client.wait_for_workers(1, timeout=30)
        (address, info), = client.scheduler_info()["workers"].items()
        self.assertEqual("31.2.0", info["name"])
        self.assertEqual(worker.pid, client.run(os.getpid)[address], "no nanny: the worker is the entity's process")
        # retired without closing, the worker takes no task; put back to work by a function pickled by value
        client.retire_workers(names=["31.2.0"], remove=False, close_workers=False)
        self.assertEqual("closing_gracefully", client.run(lambda dask_worker: dask_worker.status.name)[address])
        client.run(_back_to_work("test"))
        self.assertEqual("running", client.run(lambda dask_worker: dask_worker.status.name)[address])
        self.assertEqual(6, client.submit(sum, [1, 2, 3]).result(timeout=10))
        worker.terminate()   # what the launcher does to a released node's entity
        self.assertEqual(0, worker.wait(15))

    def test_a_worker_runs_the_threads_and_memory_koala_gave_its_node_else_its_jdfs(self):
        """KOALA_NODE_CORES and KOALA_NODE_MEMORY_MIB, as the scheduler gives a node, size the worker; a node
        without them (a scheduler that does not give them) gets the figures the JDF asks."""
        from koala.dask import DaskFramework
        framework = DaskFramework(worker_nthreads=2, worker_memory="1G")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        work = tempfile.mkdtemp(prefix="koala-node-")
        self.addCleanup(shutil.rmtree, work, True)
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "MALLOC_ARENA_MAX") and not k.startswith("KOALA_NODE_")}
        env.update(TMPDIR=work, KOALA_ENTITY_HOST="127.0.0.1", KOALA_ENTITY_PORT=str(port),
                   KOALA_MASTER=f"127.0.0.1:{port}")
        master = subprocess.Popen(["/bin/sh", "-c", framework.scheduler_command()], cwd=work, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self.stop, master)
        for node, given in (("31.2.0", dict(KOALA_NODE_CORES="3", KOALA_NODE_MEMORY_MIB="700")), ("31.2.1", {})):
            worker = subprocess.Popen(framework.worker_argv(), cwd=work, env={**env, "KOALA_NODE_ID": node, **given},
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.addCleanup(self.stop, worker)
        client = Client(f"tcp://127.0.0.1:{port}", timeout=30)
        self.addCleanup(client.close)
        client.wait_for_workers(2, timeout=30)
        sizes = {info["name"]: (info["nthreads"], info["memory_limit"])
                 for info in client.scheduler_info()["workers"].values()}
        self.assertEqual({"31.2.0": (3, 700 * 2 ** 20), "31.2.1": (2, 1024 * 2 ** 20)}, sizes)
        arenas = client.run(lambda: os.environ.get("MALLOC_ARENA_MAX"))
        self.assertEqual(["2", "2"], list(arenas.values()), "glibc's arenas capped in a worker that asks memory")

    @staticmethod
    def stop(process):
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


@unittest.skipUnless(HAVE_DASK, SKIP)
class FrameworkJdfTest(unittest.TestCase):
    def test_the_jdf_of_a_default_cluster(self):
        from koala.dask import DaskFramework, worker_program
        text = DaskFramework(settings={"fMax": 12, "tIdle": 30}).jdf()
        self.assertIn("+( &(jobType = framework)\n    (name = dask)\n    (role = master)\n    (count = 1)\n"
                      "    (provisioning = ondemand)\n    (fMax = 12)\n    (tIdle = 30)\n"
                      "    (executable = /bin/sh)\n", text)
        worker = text[text.index("(role = worker)"):]
        arguments = worker[worker.index("(arguments = ") + len("(arguments = "):worker.rindex(")\n")]
        words = [m.group(1).replace("''", "'") if m.group(1) is not None else m.group(2)
                 for m in re.finditer(r"'((?:[^']|'')*)'|([^\s()']+)", arguments)]
        self.assertEqual(DaskFramework().worker_argv()[1:], words, "the JDF gives the launcher this very command")
        self.assertEqual("-c", words[0])
        self.assertTrue(words[1].startswith("exec /usr/bin/python3 -P -c \"$1\" \"tcp://$KOALA_MASTER\" "
                                            "--name \"$KOALA_NODE_ID\" --nthreads \"${KOALA_NODE_CORES:-1}\" "
                                            "--memory-limit auto --no-nanny "), words[1][:200])
        self.assertIn(" ( &(role = worker)\n    (count = 0)\n    (cores = 1)\n    (executable = /bin/sh)\n", text,
                      "one core, no memory asked")
        self.assertEqual(["koala-dask-worker", worker_program()], words[2:], "$0 and $1: the program's text")

    def test_a_sized_worker_asks_its_cores_and_memory_and_runs_with_what_its_node_got(self):
        from koala.dask import DaskFramework
        framework = DaskFramework(worker_nthreads=4, worker_memory="8G")
        self.assertIn(" ( &(role = worker)\n    (count = 0)\n    (cores = 4)\n    (memory = 8G)\n"
                      "    (executable = /bin/sh)\n", framework.jdf())
        self.assertIn(' --name "$KOALA_NODE_ID" --nthreads "${KOALA_NODE_CORES:-4}" '
                      '--memory-limit "${KOALA_NODE_MEMORY_MIB:-8192}MiB" --no-nanny ', framework.worker_command())
        self.assertTrue(framework.worker_command().startswith(
            'MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" exec /usr/bin/python3 -P -c "$1" '), "two malloc arenas")
        self.assertTrue(DaskFramework().worker_command().startswith("exec /usr/bin/python3 "), "no memory asked")
        self.assertNotIn("--resources", framework.worker_command(), "no GPU asked, none declared to Dask")
        self.assertNotIn("(gpus", framework.jdf())

    def test_a_worker_that_asks_gpus_declares_to_dask_as_many_as_its_node_got(self):
        from koala.dask import DaskFramework
        framework = DaskFramework(worker_nthreads=2, worker_gpus=1)
        self.assertIn(" ( &(role = worker)\n    (count = 0)\n    (cores = 2)\n    (gpus = 1)\n"
                      "    (executable = /bin/sh)\n", framework.jdf())
        self.assertIn(' --nthreads "${KOALA_NODE_CORES:-2}" --memory-limit auto --resources "GPU=${KOALA_NODE_GPUS:-1}" '
                      '--no-nanny ', framework.worker_command())


@unittest.skipUnless(HAVE_DASK, SKIP)
class WorkerResourcesTest(unittest.TestCase):
    """worker_nthreads, worker_memory and worker_gpus as the worker role's cores, memory and gpus."""

    def test_sizes_as_a_jdf_writes_them(self):
        from koala.dask import worker_resources
        cases = {"8G": "8G", "512M": "512M", "1536M": "1536M", "1T": "1T", "2048K": "2M", "1500K": "2M",
                 "8GiB": "8G", "512 MiB": "512M", "8GB": "7630M", 2 ** 30: "1G", 3 * 10 ** 9: "2862M",
                 "auto": None, "AUTO": None, None: None}
        for memory, written in cases.items():
            self.assertEqual((4, written), worker_resources(4, memory), memory)

    def test_what_is_not_a_size_or_a_number_of_threads(self):
        from koala.dask import worker_resources
        why = ("give a size such as '8G' or '512M' (binary, as in a JDF), or 'auto' for Dask's share of the "
               "host's memory with no memory asked of KOALA")
        cases = {
            "0.5": "worker_memory: '0.5' has no unit (Dask would read a fraction of the host's memory, or bytes): "
                   + why,
            "4096": "worker_memory: '4096' has no unit (Dask would read a fraction of the host's memory, or bytes): "
                    + why,
            0.5: "worker_memory: 0.5 is not a size: " + why,
            0: "worker_memory: 0 bytes is not a positive size: " + why,
            "-1G": "worker_memory: '-1G' is not a positive size: " + why,
            "lots of GB": "worker_memory: 'lots of GB' is not a size: " + why,
        }
        for memory, message in cases.items():
            with self.assertRaises(ValueError, msg=memory) as caught:
                worker_resources(1, memory)
            self.assertEqual(message, str(caught.exception))
        from koala.dask import worker_gpus
        self.assertEqual(0, worker_gpus(0))
        self.assertEqual(2, worker_gpus(2))
        for gpus in (-1, 1.5, "2", True, None):
            with self.assertRaises(ValueError) as caught:
                worker_gpus(gpus)
            self.assertEqual(f"worker_gpus: {gpus!r} is not a whole number of 0 or more: the GPUs each worker's node "
                             "asks of KOALA (the JDF's gpus)", str(caught.exception))
        for threads in (0, -2, 1.5, "4", True):
            with self.assertRaises(ValueError) as caught:
                worker_resources(threads, "auto")
            self.assertEqual(f"worker_nthreads: {threads!r} is not a whole number of 1 or more: a worker's threads "
                             "are its node's cores (the JDF's cores)", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
