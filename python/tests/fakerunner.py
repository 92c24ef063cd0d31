"""A framework runner's RPC served in-process on 127.0.0.1, for tests.

``FakeRunner`` answers what a test tells it (``on(method, path, answer)``) and records every
request. ``WorkerRunner`` is a stateful one that keeps an instance's entities the way a runner
does (grow adds STARTING workers up to f_max, shrink releases named workers, refusing unknown
ones with 409) and can run a hook per grown or released worker, so that a test can start and
stop real processes for them.
"""

import json
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: Any


class FakeRunner:
    def __init__(self, token: str = "s3cret-token"):
        self.token = token
        self.requests: list[Request] = []
        self.routes: dict[tuple[str, str], Any] = {}
        self.lock = threading.RLock()
        runner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                request = Request(self.command, self.path, dict(self.headers), body)
                with runner.lock:
                    runner.requests.append(request)
                status, answer = runner.answer(request)
                if status is None:
                    return  # the answer was written (or withheld) by the route itself
                data = b"" if answer is None else json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = _serve
            do_POST = _serve

        self.handler = Handler
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> "FakeRunner":
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def on(self, method: str, path: str, answer: Any):
        """``answer``: a dict (200), a (status, dict) pair, or a callable(request) returning one of those."""
        self.routes[(method, path)] = answer

    def answer(self, request: Request) -> tuple[Optional[int], Any]:
        if request.headers.get("Authorization") != f"Bearer {self.token}":
            return 401, {"error": "token: wrong token for instance 31"}
        route = self.routes.get((request.method, request.path))
        if route is None:
            route = self.route(request)
        if route is None:
            return 404, {"error": f"no such resource: {request.path}"}
        if callable(route):
            route = route(request)
        if isinstance(route, tuple):
            return route
        return 200, route

    def route(self, request: Request) -> Any:
        """A subclass's own routes; None for none."""
        return None

    def calls(self, method: str, path: str) -> list[Any]:
        """The bodies of the requests to ``method path``, in order."""
        with self.lock:
            return [r.body for r in self.requests if r.method == method and r.path == path]


@dataclass
class Worker:
    node: str
    state: str = "STARTING"
    idle_since: Optional[datetime] = None   # None: busy (while RUNNING)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now() -> datetime:
    return datetime.now(timezone.utc)


class WorkerRunner(FakeRunner):
    """A runner of instance ``instance`` that keeps its workers: grow, shrink, status, give-back."""

    def __init__(self, instance: int = 31, policy: str = "ondemand", f_max: int = 8, master: str = None,
                 token: str = "s3cret-token", t_idle: float = 0.0):
        super().__init__(token)
        self.t_idle = t_idle
        self.instance = instance
        self.policy = policy
        self.f_max = f_max
        self.master = master
        self.workers: dict[str, Worker] = {}
        self.next_worker = 0
        self.grid_idle: Optional[int] = None   # nodes the grid still has idle; None for plenty
        self.refuse_shrink: dict[str, str] = {}  # node -> reason the policy keeps it
        self.ask: Optional[dict] = None          # the give-back ask
        self.on_grow: Callable[[str], None] = lambda node: None
        self.on_release: Callable[[str], None] = lambda node: None
        self.on_shrink_request: Callable[[str, list], None] = lambda path, nodes: None
        self.activities: list[tuple[str, dict]] = []
        self.state = "RUNNING"

    def route(self, request: Request) -> Any:
        with self.lock:
            key = (request.method, request.path)
            if key == ("GET", "/status"):
                return self.status()
            if key == ("POST", "/grow"):
                return self.grow(request.body)
            if key == ("POST", "/shrink"):
                return self.shrink(request.body, give_back=False)
            if key == ("GET", "/give-back"):
                return {"ask": self.ask} if self.ask else {}
            if key == ("POST", "/give-back"):
                return self.shrink(request.body, give_back=True)
            if request.method == "POST" and request.path.startswith("/workers/") and request.path.endswith("/activity"):
                return self.activity(request.path.split("/")[2], request.body)
        return None

    def status(self) -> dict:
        entities = [{"node": f"{self.instance}.0.0", "role": "master", "site": "fs0", "host": "127.0.0.1",
                     "state": "RUNNING", "busy": True, "cpuPercent": 1.0, "orchestrators": 0},
                    {"node": f"{self.instance}.1.0", "role": "orchestrator", "site": "fs0", "host": "127.0.0.1",
                     "state": "RUNNING", "busy": True, "cpuPercent": 0.0, "orchestrators": 0}]
        for w in self.workers.values():
            entity = {"node": w.node, "role": "worker", "site": "fs0", "host": "127.0.0.1", "state": w.state,
                      "busy": w.state == "RUNNING" and w.idle_since is None, "cpuPercent": 0.0, "orchestrators": 0}
            if w.state == "RUNNING" and w.idle_since is not None:
                entity["idleSince"] = iso(w.idle_since)
            entities.append(entity)
        answer = {"instance": self.instance, "name": "dask", "state": self.state, "policy": self.policy,
                  "settings": [f"fMax = {self.f_max} from jdf"], "entities": entities,
                  "events": [], "tIdleMillis": int(self.t_idle * 1000), "samplePeriodMillis": 5000}
        if self.master:
            answer["master"] = self.master
        return answer

    def grow(self, body: dict) -> Any:
        n = body.get("nodes")
        if not isinstance(n, int) or n < 1:
            return 400, {"error": "nodes: ask for at least 1 node", "field": "nodes"}
        if self.policy == "static":
            return {"requested": n, "granted": 0, "nodes": [],
                    "reason": f"static provisioning keeps its initial {len(self.workers)} workers"}
        room = self.f_max - len(self.workers)
        granted = max(0, min(n, room))
        reason = None
        if granted < n:
            reason = f"grow {granted} of {n} requested: F_max {self.f_max} leaves room for {max(room, 0)}"
        if self.grid_idle is not None and self.grid_idle < granted:
            granted = self.grid_idle
            reason = f"partial: {granted} of {n} nodes, the grid has no more idle on fs0"
        if self.grid_idle is not None:
            self.grid_idle -= granted
        nodes = []
        for _ in range(granted):
            node = f"{self.instance}.2.{self.next_worker}"
            self.next_worker += 1
            self.workers[node] = Worker(node)
            nodes.append(node)
        for node in nodes:
            self.on_grow(node)
        return {"requested": n, "granted": granted, "nodes": nodes, "reason": reason}

    def shrink(self, body: dict, give_back: bool) -> Any:
        if body.get("idle") and not give_back:
            return {"released": [], "refused": [], "reason": "no worker idle for t_idle"}
        nodes = body.get("nodes")
        if not isinstance(nodes, list):
            return 400, {"error": "nodes: missing", "field": "nodes"}
        strangers = [n for n in nodes if n not in self.workers]
        if strangers:
            return 409, {"error": f"node {strangers[0]} is not a worker of instance {self.instance}",
                         "field": "nodes"}
        self.on_shrink_request("/give-back" if give_back else "/shrink", list(nodes))
        released, refused = [], []
        for node in nodes:
            why = self.refuse_shrink.get(node) or (None if give_back else self.why_kept(self.workers[node]))
            if why:
                refused.append({"node": node, "reason": why})
            else:
                released.append(node)
        if give_back and self.ask:
            allowed = self.ask["workers"]
            refused += [{"node": n, "reason": f"only {allowed} asked back"} for n in released[allowed:]]
            released = released[:allowed]
            self.ask = None
        for node in released:
            del self.workers[node]
            self.on_release(node)
        return {"released": released, "refused": refused,
                "reason": f"released {len(released)}" if released else "nothing released"}

    def why_kept(self, worker: Worker) -> Optional[str]:
        """OnDemand's rule: a running worker idle at least t_idle goes."""
        if worker.state != "RUNNING":
            return "not a worker of this instance"
        if worker.idle_since is None:
            return "busy"
        idle = (now() - worker.idle_since).total_seconds()
        if idle < self.t_idle:
            return f"{worker.node} idle {idle:.3f} s < t_idle {self.t_idle:g} s"
        return None

    def activity(self, node: str, body: dict) -> Any:
        worker = self.workers.get(node)
        if worker is None or worker.state != "RUNNING":
            return 409, {"error": f"node {node} is not a running worker of instance {self.instance}"}
        self.activities.append((node, body))
        worker.idle_since = None if body["busy"] else datetime.fromisoformat(body["since"].replace("Z", "+00:00"))
        return {"node": node, "busy": body["busy"]}

    def report_in(self, node: str):
        with self.lock:
            if node in self.workers:
                self.workers[node].state = "RUNNING"
                self.workers[node].idle_since = now()
