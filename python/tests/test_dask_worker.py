"""koala/dask_worker.py for real: a Dask scheduler in this process, two workers started as KOALA's node
launcher starts them (the JDF's command, in a directory and environment without this package), and
SIGTERM as the launcher sends it when KOALA ends a worker on its own."""

import asyncio
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:
    from distributed import Client
    from distributed.core import Status
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False

SKIP = "distributed is not importable (Debian: apt-get install python3-distributed python3-dask)"
#: KOALA's launcher sends SIGKILL this long after SIGTERM.
GRACE = 5.0


def wait_for(condition, timeout=20.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def counted(path, value):
    """A task that appends a line to ``path`` each time it runs; nested, so that Dask pickles it by value
    (the workers cannot import this module)."""
    def compute():
        with open(path, "a") as f:
            f.write("ran\n")
        return value
    return compute


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@unittest.skipUnless(HAVE_DASK, SKIP)
class WorkerSignalTest(unittest.TestCase):
    def setUp(self):
        from daskgrid import DaskGrid
        from koala.dask import DaskFramework
        logging.getLogger("distributed").setLevel(logging.ERROR)
        self.dir = Path(tempfile.mkdtemp(prefix="koala-worker-test-"))
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.grid = DaskGrid(self.dir / "scheduler")   # the master: only its scheduler
        self.addCleanup(self.grid.close)
        self.framework = DaskFramework()
        self.workers = {node: self.start(node) for node in ("31.2.0", "31.2.1")}
        self.client = Client(self.grid.scheduler.address, timeout=20)
        self.addCleanup(self.client.close)
        self.client.wait_for_workers(2, timeout=20)
        self.address = {w["name"]: a for a, w in self.client.scheduler_info()["workers"].items()}
        self.runs = self.dir / "runs"

    def start(self, node):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(TMPDIR=str(self.dir), KOALA_MASTER=self.grid.master, KOALA_NODE_ID=node)
        log = open(self.dir / f"{node}.log", "w")
        self.addCleanup(log.close)
        process = subprocess.Popen(self.framework.worker_argv(), cwd=self.dir, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
        self.addCleanup(stop, process)
        return process

    def end(self, node) -> float:
        """SIGTERM to the worker's process, as the launcher ends an entity; how long it took to exit (exit 0)."""
        started = time.monotonic()
        self.workers[node].send_signal(signal.SIGTERM)
        self.assertEqual(0, self.workers[node].wait(GRACE + 5), self.log(node))
        took = time.monotonic() - started
        wait_for(lambda: self.address[node] not in self.client.scheduler_info()["workers"], 10,
                 f"{node} gone from the scheduler")
        return took

    def log(self, node) -> str:
        return (self.dir / f"{node}.log").read_text()

    def who_has(self, future) -> tuple:
        return tuple(self.client.who_has(future)[future.key])

    def test_sigterm_retires_the_worker_first_so_its_result_survives_uncomputed(self):
        a, b = self.address["31.2.0"], self.address["31.2.1"]
        future = self.client.submit(counted(self.runs, 42), workers=[a], pure=False)
        self.assertEqual(42, future.result(timeout=10))
        self.assertEqual((a,), self.who_has(future))
        took = self.end("31.2.0")
        self.assertLess(took, GRACE, "out before the launcher's SIGKILL")
        self.assertEqual((b,), self.who_has(future), "copied to 31.2.1 before 31.2.0 left")
        self.assertEqual(42, future.result(timeout=10))
        self.assertEqual(1, self.runs.read_text().count("ran"), "not computed again")
        self.assertRegex(self.log("31.2.0"), r"distributed\.dask_worker\.koala - INFO - Retired tcp://")

    def test_a_worker_retired_before_its_shrink_exits_at_once(self):
        """KoalaCluster retires a worker, then the runner's shrink ends it: Worker.close_gracefully would wait
        for a close nobody makes (until the launcher's SIGKILL); this worker is out well within its 4 s."""
        future = self.client.submit(counted(self.runs, 7), workers=[self.address["31.2.0"]], pure=False)
        future.result(timeout=10)
        retired = self.client.retire_workers(names=["31.2.0"], remove=False, close_workers=False)
        self.assertEqual([self.address["31.2.0"]], list(retired))
        self.assertLess(self.end("31.2.0"), 3)
        self.assertRegex(self.log("31.2.0"), r"Retired tcp://\S+ in 0\.\d+ s", "asked again, at once: nothing to copy")
        self.assertEqual(7, future.result(timeout=10))
        self.assertEqual(1, self.runs.read_text().count("ran"))

    def test_the_last_worker_holding_a_result_closes_within_the_grace_all_the_same(self):
        future = self.client.submit(counted(self.runs, 9), workers=[self.address["31.2.0"]], pure=False)
        future.result(timeout=10)
        self.end("31.2.1")
        self.assertLess(self.end("31.2.0"), GRACE)
        self.assertIn("Not retired: the scheduler found no other worker", self.log("31.2.0"))


@unittest.skipUnless(HAVE_DASK, SKIP)
class RetireAndCloseTest(unittest.TestCase):
    """retire_and_close against a stand-in worker: the bound on the scheduler's retirement."""

    class StandIn:
        address = "tcp://10.0.0.5:40001"

        def __init__(self, retire):
            self.status = Status.running
            self.closed = []
            self.scheduler = type("Rpc", (), {"retire_workers": staticmethod(retire)})()

        async def close(self, **how):
            self.closed.append(how)
            self.status = Status.closed

    def test_a_scheduler_that_does_not_answer_in_time_and_the_worker_closes_anyway(self):
        from koala.dask_worker import retire_and_close

        async def never(**request):
            await asyncio.Event().wait()
        worker = self.StandIn(never)
        started = time.monotonic()
        with self.assertLogs("distributed.dask_worker.koala", logging.WARNING) as logs:
            self.assertFalse(asyncio.run(retire_and_close(worker, seconds=0.2)))
        self.assertLess(time.monotonic() - started, 1.5)
        self.assertEqual([{"nanny": False, "executor_wait": False, "reason": "koala: signal"}], worker.closed)
        self.assertIn("Not retired within 0.2 s", logs.output[0])

    def test_retired_then_closed(self):
        from koala.dask_worker import retire_and_close
        asked = []

        async def retire(**request):
            asked.append(request)
            return {request["workers"][0]: {"name": "31.2.0"}}
        worker = self.StandIn(retire)
        with self.assertLogs("distributed.dask_worker.koala", logging.INFO) as logs:
            self.assertTrue(asyncio.run(retire_and_close(worker)))
        self.assertIn("Retired tcp://10.0.0.5:40001 in ", logs.output[0])
        self.assertEqual(([worker.address], False, False),
                         (asked[0]["workers"], asked[0]["close_workers"], asked[0]["remove"]))
        self.assertEqual(1, len(worker.closed))


@unittest.skipUnless(HAVE_DASK, SKIP)
class WorkerProgramTest(unittest.TestCase):
    def test_the_program_has_no_variable_the_launcher_would_fill_in(self):
        from koala.dask import worker_program
        self.assertIsNone(re.search(r"\$\{[A-Za-z_][A-Za-z0-9_]*}", worker_program()),
                          "KOALA's launcher replaces ${NAME} in arguments with the node's environment")
        self.assertIn("def retire_and_close", worker_program())


if __name__ == "__main__":
    unittest.main()
