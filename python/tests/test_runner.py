"""koala.runner against a runner served in-process (tests/fakerunner.py)."""

import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
import unittest
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from koala.runner import (TOKEN_FILE_VARIABLE, Clock, GiveBackAsk, GrowResult, Refusal,  # noqa: E402
                          RunnerClient, RunnerError, RunnerTimeout, RunnerUnreachable, ShrinkResult, state_file)
from fakerunner import FakeRunner  # noqa: E402

TOKEN = "s3cret-token"

STATUS = {
    "instance": 31, "name": "dask-demo", "state": "RUNNING", "policy": "ondemand",
    "settings": ["provisioning = ondemand from jdf", "fMax = 12 from jdf"],
    "master": "fs0-n3:40123",
    "entities": [
        {"node": "31.0.0", "role": "master", "site": "fs0", "host": "fs0-n3", "state": "RUNNING", "busy": True,
         "cpuPercent": 2.5, "orchestrators": 0},
        {"node": "31.1.0", "role": "orchestrator", "site": "fs0", "host": "fs0-n4", "state": "RUNNING",
         "busy": True, "cpuPercent": 0.0, "orchestrators": 0},
        {"node": "31.2.0", "role": "worker", "site": "fs1", "host": "fs1-n2", "state": "RUNNING", "busy": False,
         "cpuPercent": 0.0, "idleSince": "2026-11-21T12:00:00.250Z", "orchestrators": 0},
        {"node": "31.2.1", "role": "worker", "site": "fs1", "state": "STARTING", "busy": False,
         "cpuPercent": 0.0, "orchestrators": 0},
    ],
    "events": ["12:00:00 grow 2 workers [31.2.0, 31.2.1]: on the framework's request"],
    "tIdleMillis": 30000, "samplePeriodMillis": 5000,
}


class RunnerClientTest(unittest.TestCase):
    def setUp(self):
        self.runner = FakeRunner(TOKEN).start()
        self.client = RunnerClient(self.runner.url, TOKEN, timeout=5)

    def tearDown(self):
        self.runner.stop()

    def last(self):
        return self.runner.requests[-1]

    def test_every_call_carries_the_token_as_a_bearer(self):
        self.runner.on("GET", "/status", STATUS)
        self.client.status()
        self.assertEqual(f"Bearer {TOKEN}", self.last().headers["Authorization"])

    def test_status_reads_entities_master_and_settings(self):
        self.runner.on("GET", "/status", STATUS)
        status = self.client.status()
        self.assertEqual((31, "RUNNING", "ondemand", "fs0-n3:40123"),
                         (status.instance, status.state, status.policy, status.master))
        self.assertEqual(["31.2.0", "31.2.1"], [w.node for w in status.workers()])
        first = status.workers()[0]
        self.assertTrue(first.running)
        self.assertEqual(datetime(2026, 11, 21, 12, 0, 0, 250000, tzinfo=timezone.utc), first.idle_since)
        self.assertFalse(status.workers()[1].running)
        self.assertIsNone(status.workers()[1].host)
        self.assertEqual((30000, 5000), (status.t_idle_millis, status.sample_period_millis))

    def test_grow_posts_nodes_and_role_worker(self):
        self.runner.on("POST", "/grow", {"requested": 2, "granted": 2, "nodes": ["31.2.0", "31.2.1"],
                                         "reason": None})
        result = self.client.grow(2)
        self.assertEqual({"nodes": 2, "role": "worker"}, self.last().body)
        self.assertEqual("application/json", self.last().headers["Content-Type"])
        self.assertEqual(GrowResult(2, 2, ["31.2.0", "31.2.1"], None), result)

    def test_grow_with_a_request_id_sends_it(self):
        self.runner.on("POST", "/grow", {"requested": 5, "granted": 1, "nodes": ["31.2.4"],
                                         "reason": "grow 1 of 5 requested: F_max 3 leaves room for 1"})
        result = self.client.grow(5, request_id="batch-17")
        self.assertEqual({"nodes": 5, "role": "worker", "requestId": "batch-17"}, self.last().body)
        self.assertEqual((5, 1, "grow 1 of 5 requested: F_max 3 leaves room for 1"),
                         (result.requested, result.granted, result.reason))

    def test_shrink_names_the_nodes(self):
        self.runner.on("POST", "/shrink", {"released": ["31.2.0"], "refused": [
            {"node": "31.2.1", "reason": "31.2.1 idle since 12:27:47, 3 s < t_idle 4 s"}], "reason": "released 1"})
        result = self.client.shrink(["31.2.0", "31.2.1"])
        self.assertEqual({"nodes": ["31.2.0", "31.2.1"]}, self.last().body)
        self.assertEqual(ShrinkResult(["31.2.0"], [Refusal("31.2.1", "31.2.1 idle since 12:27:47, 3 s < t_idle 4 s")],
                                      "released 1"), result)

    def test_shrink_refuses_one_string_for_a_list(self):
        with self.assertRaises(TypeError):
            self.client.shrink("31.2.0")
        self.assertEqual([], self.runner.requests)

    def test_shrink_idle_posts_idle_true(self):
        self.runner.on("POST", "/shrink", {"released": [], "refused": []})
        result = self.client.shrink_idle()
        self.assertEqual({"idle": True}, self.last().body)
        self.assertEqual(ShrinkResult([], [], None), result)

    def test_give_back_ask_reads_the_ask_or_none(self):
        self.runner.on("GET", "/give-back", {"ask": {"workers": 1, "by": "2026-11-21T12:01:00Z",
                                                     "reason": "fair share 2 of 4 nodes"}})
        self.assertEqual(GiveBackAsk(1, datetime(2026, 11, 21, 12, 1, tzinfo=timezone.utc),
                                     "fair share 2 of 4 nodes"), self.client.give_back_ask())
        self.assertEqual(("GET", None), (self.last().method, self.last().body))
        self.runner.on("GET", "/give-back", {})
        self.assertIsNone(self.client.give_back_ask())
        self.runner.on("GET", "/give-back", {"ask": None})
        self.assertIsNone(self.client.give_back_ask())

    def test_give_back_posts_the_chosen_nodes(self):
        self.runner.on("POST", "/give-back", {"released": ["31.2.1"], "refused": [
            {"node": "31.2.0", "reason": "only 1 asked back"}], "reason": "gave back 1"})
        result = self.client.give_back(["31.2.1", "31.2.0"])
        self.assertEqual({"nodes": ["31.2.1", "31.2.0"]}, self.last().body)
        self.assertEqual(["31.2.1"], result.released)
        self.assertEqual("only 1 asked back", result.refused[0].reason)

    def test_activity_posts_busy_and_since_in_utc(self):
        self.runner.on("POST", "/workers/31.2.0/activity", lambda r: {"node": "31.2.0", "busy": r.body["busy"]})
        since = datetime(2026, 11, 21, 13, 0, 0, tzinfo=timezone.utc)
        self.assertEqual({"node": "31.2.0", "busy": False}, self.client.activity("31.2.0", False, since))
        self.assertEqual({"busy": False, "since": "2026-11-21T13:00:00.000Z"}, self.last().body)
        self.client.activity("31.2.0", True)
        self.assertEqual({"busy": True}, self.last().body)

    def test_figure_posts_the_value(self):
        self.runner.on("POST", "/figure", {"value": 1.25})
        self.assertEqual({"value": 1.25}, self.client.figure(1.25))
        self.assertEqual({"value": 1.25}, self.last().body)
        self.runner.on("POST", "/figure", {"value": 1.25, "rejectRate": 0.2})
        self.client.figure(1.25, reject_rate=0.2)
        self.assertEqual({"value": 1.25, "rejectRate": 0.2}, self.last().body)

    def test_a_wrong_token_is_a_401_runner_error(self):
        client = RunnerClient(self.runner.url, "not-the-token", timeout=5)
        with self.assertRaises(RunnerError) as caught:
            client.status()
        self.assertEqual((401, "token: wrong token for instance 31", None, False),
                         (caught.exception.status, caught.exception.error, caught.exception.field,
                          caught.exception.transient))
        self.assertNotIsInstance(caught.exception, RunnerUnreachable)

    def test_a_409_carries_the_field(self):
        self.runner.on("POST", "/shrink", (409, {"error": "31.0.0 is not a worker of instance 31", "field": "nodes"}))
        with self.assertRaises(RunnerError) as caught:
            self.client.shrink(["31.0.0"])
        self.assertEqual((409, "31.0.0 is not a worker of instance 31", "nodes"),
                         (caught.exception.status, caught.exception.error, caught.exception.field))
        self.assertIn("409 (nodes): 31.0.0 is not a worker", str(caught.exception))

    def test_a_400_carries_the_field(self):
        self.runner.on("POST", "/grow", (400, {"error": "nodes: 0: ask for at least 1 node", "field": "nodes"}))
        with self.assertRaises(RunnerError) as caught:
            self.client.grow(0)
        self.assertEqual((400, "nodes"), (caught.exception.status, caught.exception.field))
        self.assertFalse(caught.exception.transient)

    def test_a_503_from_the_runner_is_transient(self):
        self.runner.on("POST", "/grow", (503, {"error": "the scheduler is busy; try again"}))
        with self.assertRaises(RunnerError) as caught:
            self.client.grow(1)
        self.assertTrue(caught.exception.transient)
        self.assertNotIsInstance(caught.exception, RunnerUnreachable)

    def test_an_answer_that_is_not_json(self):
        self.runner.on("GET", "/status", (500, None))
        with self.assertRaises(RunnerError) as caught:
            self.client.status()
        self.assertEqual(500, caught.exception.status)

    def test_a_url_with_a_path_keeps_it(self):
        self.runner.on("GET", "/base/status", STATUS)
        RunnerClient(self.runner.url + "/base/", TOKEN, timeout=5).status()
        self.assertEqual("/base/status", self.last().path)


class FailuresTest(unittest.TestCase):
    def test_connection_refused_is_unreachable_and_transient(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        client = RunnerClient(f"http://127.0.0.1:{port}", TOKEN, timeout=5)
        with self.assertRaises(RunnerUnreachable) as caught:
            client.status()
        self.assertEqual((503, True), (caught.exception.status, caught.exception.transient))
        self.assertIn("connection refused", caught.exception.error)
        self.assertNotIsInstance(caught.exception, RunnerTimeout)

    def test_a_runner_that_never_answers_times_out_within_the_time_out(self):
        with socket.socket() as silent:  # listens, never accepts nor answers
            silent.bind(("127.0.0.1", 0))
            silent.listen(8)
            client = RunnerClient(f"http://127.0.0.1:{silent.getsockname()[1]}", TOKEN, timeout=0.5)
            started = time.monotonic()
            with self.assertRaises(RunnerTimeout) as caught:
                client.grow(1)
            took = time.monotonic() - started
        self.assertGreaterEqual(took, 0.45)
        self.assertLess(took, 1.5)
        self.assertEqual((504, True), (caught.exception.status, caught.exception.transient))
        self.assertIsInstance(caught.exception, RunnerUnreachable)
        self.assertIn("within 0.5 s", str(caught.exception))

    def test_an_answer_trickling_in_times_out_as_a_whole(self):
        """Each byte comes within the time-out, the whole answer does not: the call's deadline fires."""
        stop = threading.Event()

        def trickle(handler):
            handler.send_response(200)
            handler.send_header("Content-Length", "1000")
            handler.end_headers()
            for _ in range(1000):
                if stop.is_set():
                    return
                handler.wfile.write(b" ")
                handler.wfile.flush()
                time.sleep(0.05)

        runner = FakeRunner(TOKEN)
        handler_class = runner.handler
        handler_class._serve = lambda self: trickle(self)
        handler_class.do_GET = handler_class._serve
        runner.start()
        try:
            client = RunnerClient(runner.url, TOKEN, timeout=0.6)
            started = time.monotonic()
            with self.assertRaises(RunnerTimeout):
                client.status()
            self.assertLess(time.monotonic() - started, 1.5)
        finally:
            stop.set()
            runner.stop()


class FakeClock(Clock):
    """Virtual time: ``sleep`` moves it on and then does what the test planned for that moment."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = []
        self.plan = []   # (at, action), e.g. the launcher's rename of the token file

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds
        for at, action in list(self.plan):
            if self.now >= at - 1e-9:
                self.plan.remove((at, action))
                action()


def write_token(path: Path, token: str):
    """As the launcher does: a private file, one line, replaced by rename."""
    temporary = path.with_name(path.name + ".new")
    with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write(token + "\n")
    os.replace(temporary, path)


class TokenRotationTest(unittest.TestCase):
    """The runner replaces the instance's token (a node lost, a foreign node that used it): tokens A then B."""

    def setUp(self):
        self.runner = FakeRunner("token-A").start()
        self.addCleanup(self.runner.stop)
        self.dir = Path(tempfile.mkdtemp(prefix="koala-token-test-"))
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.token_file = self.dir / "token"
        write_token(self.token_file, "token-A")
        self.clock = FakeClock()
        self.grants = 0

        def grow(request):
            self.grants += 1
            return {"requested": 1, "granted": 1, "nodes": [f"31.2.{self.grants - 1}"], "reason": None}
        self.runner.on("POST", "/grow", grow)
        self.runner.on("GET", "/status", STATUS)

    def entity(self, **env):
        """An entity's client, as KOALA's launcher starts it: the token of its start and the token file."""
        environ = {"KOALA_RUNNER_URL": self.runner.url, "KOALA_RUNNER_TOKEN": "token-A",
                   TOKEN_FILE_VARIABLE: str(self.token_file)}
        environ.update(env)
        return RunnerClient.from_environment(timeout=5, environ={k: v for k, v in environ.items() if v is not None},
                                             clock=self.clock)

    def rotate(self, token: str):
        with self.runner.lock:
            self.runner.token = token

    def tokens_sent(self):
        return [r.headers["Authorization"].removeprefix("Bearer ") for r in self.runner.requests]

    # -- an entity: KOALA_RUNNER_TOKEN_FILE ---------------------------------------------------------------

    def test_a_rotation_between_two_calls_is_read_from_the_file(self):
        client = self.entity()
        self.assertEqual(31, client.status().instance)
        self.rotate("token-B")
        write_token(self.token_file, "token-B")
        self.assertEqual(31, client.status().instance)
        self.assertEqual(["token-A", "token-B"], self.tokens_sent(), "no 401: the file is read at each call")
        self.assertEqual([], self.clock.sleeps)

    def test_a_runner_started_elsewhere_is_called_at_the_address_its_file_names_now(self):
        url_file = self.dir / "runner-url"
        url_file.write_text("http://127.0.0.1:9/\n")  # the runner of the start, whose host went: nothing answers
        client = self.entity(KOALA_RUNNER_URL="http://127.0.0.1:9", KOALA_RUNNER_URL_FILE=str(url_file))
        with self.assertRaises(RunnerUnreachable):
            client.status()
        url_file.write_text(self.runner.url + "\n")  # the launcher, told by the scheduler where it serves now
        self.assertEqual(31, client.status().instance)
        self.assertEqual(self.runner.url.rstrip("/"), client.url)
        url_file.write_text("not a url\n")  # a file half written by hand: the address in force stays
        self.assertEqual(31, client.status().instance)

    def test_the_file_wins_over_the_token_of_the_start(self):
        write_token(self.token_file, "token-B")
        self.rotate("token-B")
        self.entity(KOALA_RUNNER_TOKEN="token-A").status()
        self.assertEqual(["token-B"], self.tokens_sent())

    def test_a_401_waits_for_the_launcher_to_write_the_new_token(self):
        client = self.entity()
        self.rotate("token-B")   # the runner rotated; the launcher hears of it at its next heartbeat, 0.5 s on
        self.clock.plan.append((0.5, lambda: write_token(self.token_file, "token-B")))
        self.assertEqual(GrowResult(1, 1, ["31.2.0"], None), client.grow(1))
        # the file read at 0 (token-A, just refused), 0.2, 0.4 (still A) and 0.6 s (B): asked again at 0.6 s
        self.assertEqual([0.2, 0.2, 0.2], self.clock.sleeps)
        self.assertAlmostEqual(0.6, self.clock.now)
        self.assertEqual(["token-A", "token-B"], self.tokens_sent())
        self.assertEqual(1, self.grants, "the grow refused with 401 changed nothing; asked again, granted once")

    def test_a_file_already_rotated_at_the_401_is_asked_again_at_once(self):
        client = self.entity()
        answer = self.runner.answer

        def rotating(request):   # the rotation lands between the client's read of the file and its request
            status, body = answer(request)
            if status == 401:
                write_token(self.token_file, "token-B")
            return status, body
        self.runner.answer = rotating
        self.rotate("token-B")
        self.assertEqual(31, client.status().instance)
        self.assertEqual(["token-A", "token-B"], self.tokens_sent())
        self.assertEqual([], self.clock.sleeps)

    def test_a_401_with_a_file_that_never_changes_stands_after_15_s(self):
        client = self.entity()
        self.rotate("token-B")
        started = time.monotonic()
        with self.assertRaises(RunnerError) as caught:
            client.grow(1)
        self.assertEqual((401, "token: wrong token for instance 31"), (caught.exception.status, caught.exception.error))
        # read at 0, 0.2, ..., 15 s: 75 waits of 0.2 s, then the 401 as the runner sent it
        self.assertEqual(75, len(self.clock.sleeps))
        self.assertAlmostEqual(15.0, self.clock.now)
        self.assertEqual(["token-A"], self.tokens_sent(), "not asked again with the same token")
        self.assertEqual(0, self.grants)
        self.assertLess(time.monotonic() - started, 2, "virtual time: no real 15 s wait")

    def test_asked_again_once_only(self):
        client = self.entity()
        self.rotate("token-C")   # rotated twice; the file catches up with the first rotation only, at 0.5 s
        self.clock.plan.append((0.5, lambda: write_token(self.token_file, "token-B")))
        with self.assertRaises(RunnerError) as caught:
            client.status()
        self.assertEqual(401, caught.exception.status)
        self.assertEqual(["token-A", "token-B"], self.tokens_sent())
        self.assertAlmostEqual(0.6, self.clock.now, msg="no second wait after the second 401")

    def test_the_rotation_wait_can_be_shortened(self):
        client = RunnerClient.from_environment(timeout=5, environ={"KOALA_RUNNER_URL": self.runner.url,
                                                                  TOKEN_FILE_VARIABLE: str(self.token_file)},
                                               rotation_wait=1, clock=self.clock)
        self.rotate("token-B")
        with self.assertRaises(RunnerError):
            client.status()
        self.assertEqual(5, len(self.clock.sleeps))
        self.assertAlmostEqual(1.0, self.clock.now)

    def test_an_unreadable_file_falls_back_on_the_last_token(self):
        self.token_file.unlink()
        client = self.entity(KOALA_RUNNER_TOKEN="token-A")   # the token of its start until the file is there
        client.status()
        write_token(self.token_file, "token-B")
        self.rotate("token-B")
        client.status()
        self.token_file.unlink()   # between the launcher's writes, say: the last token read is still good
        client.status()
        self.assertEqual(["token-A", "token-B", "token-B"], self.tokens_sent())

    def test_no_file_and_no_token_is_no_entity(self):
        self.token_file.unlink()
        with self.assertRaises(RuntimeError) as caught:
            self.entity(KOALA_RUNNER_TOKEN=None)
        self.assertIn(TOKEN_FILE_VARIABLE, str(caught.exception))

    def test_without_the_file_variable_the_token_of_the_start(self):
        client = self.entity(**{TOKEN_FILE_VARIABLE: None})
        client.status()
        self.rotate("token-B")
        write_token(self.token_file, "token-B")
        with self.assertRaises(RunnerError):
            client.status()
        self.assertEqual(["token-A", "token-A"], self.tokens_sent())
        self.assertEqual([], self.clock.sleeps, "nothing to wait for")

    # -- the submitter: the runner's state file -------------------------------------------------------------

    def state(self, token: str) -> Path:
        path = self.dir / "runner-31.json"
        temporary = self.dir / "runner-31.json.new"
        temporary.write_text(json.dumps({"instance": 31, "url": self.runner.url, "token": token, "pid": 4242}))
        os.replace(temporary, path)
        return path

    def test_the_owner_reads_the_state_file_again_after_a_401(self):
        client = RunnerClient.from_state_file(self.state("token-A"), timeout=5)
        client.status()
        self.rotate("token-B")
        self.state("token-B")   # the runner rewrites its state file when it rotates
        self.assertEqual(GrowResult(1, 1, ["31.2.0"], None), client.grow(1))
        client.status()
        self.assertEqual(["token-A", "token-A", "token-B", "token-B"], self.tokens_sent(),
                         "the refused grow asked again with B; B kept for the next call")
        self.assertEqual(1, self.grants)

    def test_the_owner_gets_the_401_at_once_when_the_state_file_did_not_change(self):
        client = RunnerClient.from_state_file(self.state("token-A"), timeout=5)
        self.rotate("token-B")
        started = time.monotonic()
        with self.assertRaises(RunnerError) as caught:
            client.status()
        self.assertEqual(401, caught.exception.status)
        self.assertEqual(["token-A"], self.tokens_sent())
        self.assertLess(time.monotonic() - started, 1)

    def test_the_owner_gets_the_401_when_the_state_file_is_gone(self):
        path = self.state("token-A")
        client = RunnerClient.from_state_file(path, timeout=5)
        path.unlink()
        self.rotate("token-B")
        with self.assertRaises(RunnerError) as caught:
            client.status()
        self.assertEqual(401, caught.exception.status)


class ConstructionTest(unittest.TestCase):
    def test_from_environment(self):
        client = RunnerClient.from_environment(environ={"KOALA_RUNNER_URL": "http://127.0.0.1:7501",
                                                        "KOALA_RUNNER_TOKEN": "t"}, timeout=3)
        self.assertEqual(("http://127.0.0.1:7501", 3.0), (client.url, client.timeout))
        with self.assertRaises(RuntimeError):
            RunnerClient.from_environment(environ={"KOALA_RUNNER_URL": "http://127.0.0.1:7501"})

    def test_from_state_file_reads_url_and_token(self):
        with FakeRunner(TOKEN) as runner, tempfile.TemporaryDirectory() as home:
            runner.on("GET", "/status", STATUS)
            path = state_file(31, home)
            self.assertEqual(Path(home, "runners", "runner-31.json"), path)
            path.parent.mkdir()
            # the fields around url and token as the runner writes them (RunnerState)
            path.write_text(json.dumps({"instance": 31, "url": runner.url, "token": TOKEN, "pid": 4242,
                                        "launch": {}, "book": {"state": "RUNNING"}}))
            self.assertEqual(31, RunnerClient.from_state_file(path).status().instance)
            path.write_text(json.dumps({"instance": 31, "url": runner.url}))
            with self.assertRaises(ValueError):
                RunnerClient.from_state_file(path)

    def test_state_file_follows_koala_home(self):
        old = os.environ.get("KOALA_HOME")
        os.environ["KOALA_HOME"] = "/srv/koala"
        try:
            self.assertEqual(Path("/srv/koala/runners/runner-7.json"), state_file(7))
        finally:
            if old is None:
                del os.environ["KOALA_HOME"]
            else:
                os.environ["KOALA_HOME"] = old

    def test_bad_arguments(self):
        for url, token, timeout in [("ftp://x", "t", 1), ("http://x", "", 1), ("http://x", "t", 0)]:
            with self.assertRaises(ValueError):
                RunnerClient(url, token, timeout)

    def test_repr_hides_the_token(self):
        self.assertNotIn("s3cret", repr(RunnerClient("http://127.0.0.1:1", "s3cret", 2)))


if __name__ == "__main__":
    unittest.main()
