"""A client of a KOALA framework runner's grow/shrink RPC (HTTP/JSON), standard library only.

Every framework instance has a runner of its own; its address and the instance's secret token are
given to each entity as ``KOALA_RUNNER_URL`` and ``KOALA_RUNNER_TOKEN``
(:meth:`RunnerClient.from_environment`) and kept for the submitter in the runner's state file
``KOALA_HOME/runners/runner-ID.json`` (:meth:`RunnerClient.from_state_file`, :func:`state_file`).

The token rotates: the runner replaces it when one of the instance's nodes is lost or a foreign
node used it. ``KOALA_RUNNER_TOKEN`` is the token of the entity's start and may go stale;
``KOALA_RUNNER_TOKEN_FILE`` names a private file (0600) holding the current one, one line, which
the node's launcher replaces (by rename) once its next heartbeat brings the new token. So the
clients follow it:

- an entity's client (:class:`TokenFile`) reads the file at each call; a call refused with 401
  reads it again and, while it still holds the token just refused, waits for it to change
  (every 0.2 s, up to 15 s), then asks once more with the new token; without the variable it
  uses ``KOALA_RUNNER_TOKEN`` as before;
- the submitter's client (:class:`StateFileToken`) keeps the state file's token and, after a 401,
  reads the file again (the runner rewrites it when it rotates) and asks once more if it changed.

A call is asked again at most once; a refusal changes nothing at the runner, so a grow refused
with 401 and asked again is granted once.

The routes and bodies are those of the Java client ``koala.api.runner.RunnerClient`` (see
``docs/http-api.md``, "Framework runner")::

    client = RunnerClient.from_state_file(state_file(31))
    grown = client.grow(2)                  # GrowResult(requested=2, granted=2, nodes=['31.2.0', '31.2.1'], reason=None)
    client.shrink(["31.2.0"])               # ShrinkResult(released=['31.2.0'], refused=[], reason=...)
    [w.node for w in client.status().workers()]

Answers are small frozen dataclasses (:class:`GrowResult`, :class:`ShrinkResult`,
:class:`Status` with its :class:`Entity` list, :class:`GiveBackAsk`); ``activity`` and ``figure``
return the runner's answer as a plain dict. Times are timezone-aware ``datetime`` objects.

Failures: a refusal (any status of 400 or more) raises :class:`RunnerError` with the HTTP status
and the server's ``error`` and ``field`` (its body is ``{"error": ..., "field": ...}``); a refused
request changed nothing. A runner that cannot be reached raises :class:`RunnerUnreachable`
(status 503) and one that does not answer within the client's time-out :class:`RunnerTimeout`
(status 504); both have ``transient`` true, as has a 503 the runner sent: asking again later may
work. The time-out bounds each exchange (connecting, sending, the answer's headers and body); a
call asked again after a rotation makes two, with the wait for the token file between them.
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import socket
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Optional, Union
from urllib.parse import quote, urlsplit

__all__ = [
    "RunnerClient", "RunnerError", "RunnerUnreachable", "RunnerTimeout",
    "GrowResult", "ShrinkResult", "Refusal", "Entity", "Status", "GiveBackAsk",
    "TokenSource", "StaticToken", "TokenFile", "StateFileToken", "Clock",
    "state_file", "koala_home", "URL_VARIABLE", "TOKEN_VARIABLE", "TOKEN_FILE_VARIABLE", "URL_FILE_VARIABLE",
]

URL_VARIABLE = "KOALA_RUNNER_URL"
#: The token when the entity was started; stale after a rotation.
TOKEN_VARIABLE = "KOALA_RUNNER_TOKEN"
#: The path of the file holding the current token (one line), rewritten by rename when it rotates.
TOKEN_FILE_VARIABLE = "KOALA_RUNNER_TOKEN_FILE"
#: The path of the file holding the runner's address in force (one line), rewritten by rename when the runner
#: is started on another host in the place of one whose host went.
URL_FILE_VARIABLE = "KOALA_RUNNER_URL_FILE"

#: The Java client's time-out, in seconds.
DEFAULT_TIMEOUT = 30.0
#: The largest answer read; the runner's status is a few kilobytes.
MAX_ANSWER_BYTES = 16 * 1024 * 1024
#: After a 401, how long an entity waits for its token file to change: the launcher learns the new
#: token at its next heartbeat.
ROTATION_WAIT = 15.0
#: How often the token file is read while waiting.
ROTATION_POLL = 0.2


class RunnerError(Exception):
    """A call the runner refused, or could not be made.

    ``status`` is the HTTP status (503 for a runner not reached, 504 for one that did not answer
    in time), ``error`` the runner's reason, ``field`` the part of the request at fault or None,
    ``transient`` true when asking again later may work.
    """

    def __init__(self, status: int, error: str, field: Optional[str] = None, *, url: str = "",
                 transient: Optional[bool] = None):
        self.status = status
        self.error = error
        self.field = field
        self.url = url
        self.transient = status == 503 if transient is None else transient
        super().__init__(self._message())

    def _message(self) -> str:
        where = f" ({self.field})" if self.field else ""
        return f"{self.status}{where}: {self.error}"


class RunnerUnreachable(RunnerError):
    """The runner could not be reached (refused, reset, unknown host): status 503, transient."""

    def __init__(self, url: str, why: str, status: int = 503):
        super().__init__(status, f"cannot reach {url}: {why}", url=url, transient=True)


class RunnerTimeout(RunnerUnreachable):
    """The runner did not answer within the time-out: status 504, transient."""

    def __init__(self, url: str, seconds: float):
        super().__init__(url, f"no answer within {seconds:g} s", status=504)
        self.error = f"no answer from {url} within {seconds:g} s"
        self.args = (self._message(),)


def _instant(text: Optional[str]) -> Optional[datetime]:
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _iso(moment: datetime) -> str:
    """An ISO-8601 instant as the runner reads it (UTC, 'Z'); a naive datetime is taken as local time."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class GrowResult:
    """What a grow got: ``granted`` may be below ``requested`` (a partial grant or a refusal), with the reason."""
    requested: int
    granted: int
    nodes: list[str]
    reason: Optional[str]

    @classmethod
    def from_json(cls, d: dict) -> "GrowResult":
        return cls(int(d.get("requested", 0)), int(d.get("granted", 0)), list(d.get("nodes") or []), d.get("reason"))


@dataclass(frozen=True)
class Refusal:
    """A worker a shrink named that stays, and why."""
    node: str
    reason: str


@dataclass(frozen=True)
class ShrinkResult:
    """The workers released, those refused with their reasons, and the runner's summary."""
    released: list[str]
    refused: list[Refusal]
    reason: Optional[str]

    @classmethod
    def from_json(cls, d: dict) -> "ShrinkResult":
        return cls(list(d.get("released") or []),
                   [Refusal(r.get("node"), r.get("reason")) for r in d.get("refused") or []], d.get("reason"))


@dataclass(frozen=True)
class Entity:
    """One entity of the instance as its runner sees it (``state`` STARTING or RUNNING)."""
    node: str
    role: str
    site: Optional[str]
    host: Optional[str]
    state: str
    busy: bool
    cpu_percent: float
    idle_since: Optional[datetime]
    orchestrators: int

    @property
    def running(self) -> bool:
        return self.state == "RUNNING"

    @classmethod
    def from_json(cls, d: dict) -> "Entity":
        return cls(d["node"], d["role"], d.get("site"), d.get("host"), d.get("state", ""), bool(d.get("busy")),
                   float(d.get("cpuPercent", 0.0)), _instant(d.get("idleSince")), int(d.get("orchestrators", 0)))


@dataclass(frozen=True)
class Status:
    """The instance as its runner sees it: state, policy, settings, the master's ``host:port``
    (None until it has reported in), entities, recent decisions, t_idle and the sample period."""
    instance: int
    name: str
    state: str
    policy: str
    settings: list[str]
    master: Optional[str]
    entities: list[Entity]
    events: list[str]
    t_idle_millis: int
    sample_period_millis: int

    def role(self, role: str) -> list[Entity]:
        return [e for e in self.entities if e.role == role]

    def workers(self) -> list[Entity]:
        """The workers, starting or running (a released worker is no longer listed)."""
        return self.role("worker")

    @classmethod
    def from_json(cls, d: dict) -> "Status":
        return cls(int(d.get("instance", 0)), d.get("name", ""), d.get("state", ""), d.get("policy", ""),
                   list(d.get("settings") or []), d.get("master"),
                   [Entity.from_json(e) for e in d.get("entities") or []], list(d.get("events") or []),
                   int(d.get("tIdleMillis", 0)), int(d.get("samplePeriodMillis", 0)))


@dataclass(frozen=True)
class GiveBackAsk:
    """What the grid's arbitration asks the instance to give back: ``workers`` of its choosing by ``by``."""
    workers: int
    by: Optional[datetime]
    reason: Optional[str]

    @classmethod
    def from_json(cls, d: Optional[dict]) -> Optional["GiveBackAsk"]:
        ask = (d or {}).get("ask")
        if not ask:
            return None
        return cls(int(ask.get("workers", 0)), _instant(ask.get("by")), ask.get("reason"))


def koala_home() -> Path:
    """``$KOALA_HOME``, else ``/var/lib/koala`` for root and ``~/.koala`` for anyone else (as the Java side)."""
    env = os.environ.get("KOALA_HOME", "").strip()
    if env:
        return Path(env)
    user = pwd.getpwuid(os.getuid()).pw_name
    return Path("/var/lib/koala") if user == "root" else Path.home() / ".koala"


def state_file(instance: int, home: Optional[os.PathLike] = None) -> Path:
    """Instance ``instance``'s runner state file, ``KOALA_HOME/runners/runner-ID.json`` (its submitter's alone)."""
    return Path(home if home is not None else koala_home()) / "runners" / f"runner-{int(instance)}.json"


def _read_state(path: os.PathLike) -> dict:
    with open(path, encoding="utf-8") as f:
        state = json.load(f)
    if not isinstance(state, dict):
        raise ValueError(f"{path}: not a runner's state file")
    return state


# -- where the token comes from --------------------------------------------------------------------

class Clock:
    """The time a wait for a rotated token is measured in: the real one here, a fake one in tests."""

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class TokenSource:
    """Where a client's token comes from: the one to send now, and a new one after a 401."""

    def current(self) -> str:
        raise NotImplementedError

    def renewed(self, refused: str) -> Optional[str]:
        """After a call with ``refused`` got a 401: another token to ask once more with, or None (the 401 stands)."""
        return None


class StaticToken(TokenSource):
    """A token that never changes (a client made with a token string)."""

    def __init__(self, token: str):
        if not token:
            raise ValueError("no token: every call to a runner carries the instance's token")
        self._token = token

    def current(self) -> str:
        return self._token


class TokenFile(TokenSource):
    """An entity's token: the file its launcher keeps current (``KOALA_RUNNER_TOKEN_FILE``), read at each call.

    While the file cannot be read (or is empty) the last token read is used, at first ``fallback``
    (``KOALA_RUNNER_TOKEN``). After a 401 the file is read again; while it still holds the refused
    token it is read every ``poll`` seconds for up to ``wait``: the launcher writes the new token
    once its next heartbeat brings it. Worked example (poll 0.2 s, wait 15 s): a 401 at t = 0 with
    the launcher's rename at t = 0.5 s reads the file at 0, 0.2, 0.4 and 0.6 s and asks again at
    0.6 s; a file that never changes is read 76 times (0, 0.2, ..., 15 s) and the 401 stands.
    """

    def __init__(self, path: os.PathLike, fallback: Optional[str] = None, wait: float = ROTATION_WAIT,
                 poll: float = ROTATION_POLL, clock: Optional[Clock] = None):
        if wait < 0 or poll <= 0:
            raise ValueError(f"wait {wait!r} and poll {poll!r}: wait 0 s or more, poll every more than 0 s")
        self.path = Path(path)
        self.wait = float(wait)
        self.poll = float(poll)
        self._clock = clock or Clock()
        self._last = self._read() or fallback or None
        if not self._last:
            raise ValueError(f"{self.path}: no token to read, and no {TOKEN_VARIABLE}")

    def _read(self) -> Optional[str]:
        try:
            with open(self.path, encoding="utf-8") as f:
                return f.readline(4096).strip() or None
        except (OSError, UnicodeDecodeError):
            return None

    def current(self) -> str:
        token = self._read()
        if token:
            self._last = token
        return self._last

    def renewed(self, refused: str) -> Optional[str]:
        deadline = self._clock.monotonic() + self.wait
        while True:
            token = self._read()
            if token and token != refused:
                self._last = token
                return token
            left = deadline - self._clock.monotonic()
            if left <= 1e-9:
                return None
            self._clock.sleep(min(self.poll, left))


class StateFileToken(TokenSource):
    """The submitter's token: the ``token`` of the runner's state file, read again after a 401 (the runner
    rewrites the file, by rename, when it rotates the token; it does so before the new token is in force,
    so there is nothing to wait for)."""

    def __init__(self, path: os.PathLike, token: str):
        if not token:
            raise ValueError(f"{path}: gives no token")
        self.path = Path(path)
        self._token = token

    def current(self) -> str:
        return self._token

    def renewed(self, refused: str) -> Optional[str]:
        try:
            token = _read_state(self.path).get("token")
        except (OSError, ValueError):
            return None
        if not token or not isinstance(token, str) or token == refused:
            return None
        self._token = token
        return token


class RunnerClient:
    """A framework instance's line to its runner. Thread-safe: each call opens its own connection.

    ``token``: the instance's token, or a :class:`TokenSource` that follows its rotations. ``url_file``: a file
    holding the runner's address in force, read at each call (the address moves when the runner is started on
    another host); ``url`` until it names one.
    """

    def __init__(self, url: str, token: Union[str, TokenSource], timeout: float = DEFAULT_TIMEOUT,
                 url_file: Optional[os.PathLike] = None):
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        if timeout is None or timeout <= 0:
            raise ValueError(f"timeout: {timeout!r} is not a positive number of seconds")
        self.url = url.rstrip("/")
        self.timeout = float(timeout)
        self._tokens = token if isinstance(token, TokenSource) else StaticToken(token)
        self._parts = urlsplit(self.url)
        self._url_file = url_file

    def _follow(self) -> None:
        """The address in ``url_file`` from now on, when it names another valid one."""
        if self._url_file is None:
            return
        try:
            url = Path(self._url_file).read_text(encoding="utf-8").strip().rstrip("/")
        except OSError:
            return
        parts = urlsplit(url)
        if url and url != self.url and parts.scheme in ("http", "https") and parts.hostname:
            self._parts, self.url = parts, url

    def __repr__(self) -> str:
        return f"RunnerClient({self.url!r}, timeout={self.timeout:g})"

    @classmethod
    def from_environment(cls, timeout: float = DEFAULT_TIMEOUT, environ: Optional[dict] = None, *,
                         rotation_wait: float = ROTATION_WAIT, clock: Optional[Clock] = None) -> "RunnerClient":
        """Inside a framework entity: ``KOALA_RUNNER_URL``, and the token from the file ``KOALA_RUNNER_TOKEN_FILE``
        names (:class:`TokenFile`: read at each call, waited for up to ``rotation_wait`` seconds after a 401),
        or ``KOALA_RUNNER_TOKEN`` where that variable is not set; the address as ``KOALA_RUNNER_URL_FILE``'s file
        names it at each call, where that variable is set."""
        env = os.environ if environ is None else environ
        url, token, token_file = env.get(URL_VARIABLE), env.get(TOKEN_VARIABLE), env.get(TOKEN_FILE_VARIABLE)
        url_file = env.get(URL_FILE_VARIABLE)
        if not url or not (token or token_file):
            raise RuntimeError(f"{URL_VARIABLE} and {TOKEN_FILE_VARIABLE} or {TOKEN_VARIABLE} are set only for "
                               "framework entities")
        if not token_file:
            return cls(url, token, timeout, url_file)
        try:
            return cls(url, TokenFile(token_file, token, wait=rotation_wait, clock=clock), timeout, url_file)
        except ValueError as e:
            raise RuntimeError(f"{TOKEN_FILE_VARIABLE}: {e}") from None

    @classmethod
    def from_state_file(cls, path: os.PathLike, timeout: float = DEFAULT_TIMEOUT) -> "RunnerClient":
        """For the submitter: the runner's ``runner-ID.json``, whose ``url`` and ``token`` name it (the token read
        again when a call gets 401: :class:`StateFileToken`)."""
        state = _read_state(path)
        url, token = state.get("url"), state.get("token")
        if not url or not token:
            raise ValueError(f"{path}: gives no url or no token")
        return cls(url, StateFileToken(path, token), timeout)

    # -- the RPC -------------------------------------------------------------------------------

    def status(self) -> Status:
        return Status.from_json(self._call("GET", "/status"))

    def grow(self, n: int, request_id: Optional[str] = None) -> GrowResult:
        """``n`` more workers. A grow repeated with the same ``request_id`` gets the first answer and no more nodes."""
        body: dict[str, Any] = {"nodes": int(n), "role": "worker"}
        if request_id is not None:
            body["requestId"] = str(request_id)
        return GrowResult.from_json(self._call("POST", "/grow", body))

    def shrink(self, node_ids: Iterable[str]) -> ShrinkResult:
        """Releases the named workers; the policy may refuse some (each with its reason)."""
        return ShrinkResult.from_json(self._call("POST", "/shrink", {"nodes": _ids(node_ids)}))

    def shrink_idle(self) -> ShrinkResult:
        """Releases whichever workers the policy lets go (idle at least t_idle)."""
        return ShrinkResult.from_json(self._call("POST", "/shrink", {"idle": True}))

    def give_back_ask(self) -> Optional[GiveBackAsk]:
        """What the grid's arbitration asks the instance to give back now; None for nothing."""
        return GiveBackAsk.from_json(self._call("GET", "/give-back"))

    def give_back(self, node_ids: Iterable[str]) -> ShrinkResult:
        """Gives back these workers, the framework's choice, at the grid's request."""
        return ShrinkResult.from_json(self._call("POST", "/give-back", {"nodes": _ids(node_ids)}))

    def activity(self, node: str, busy: bool, since: Optional[datetime] = None) -> dict:
        """Worker ``node`` runs something (``busy``), or nothing since ``since`` (required when not busy)."""
        body: dict[str, Any] = {"busy": bool(busy)}
        if since is not None:
            body["since"] = _iso(since)
        return self._call("POST", f"/workers/{quote(node, safe='')}/activity", body)

    def figure(self, value: float, reject_rate: Optional[float] = None) -> dict:
        """How well the framework does now, a slowdown (1 = as if alone), for the grid's arbitration;
        with ``reject_rate``, the share of its work it rejected lately (0 to 1), for the scheduler's metrics."""
        body: dict[str, Any] = {"value": float(value)}
        if reject_rate is not None:
            body["rejectRate"] = float(reject_rate)
        return self._call("POST", "/figure", body)

    # -- HTTP ----------------------------------------------------------------------------------

    def _call(self, method: str, path: str, body: Optional[dict] = None) -> Any:
        """One call; refused with 401, asked once more if the token source has a new token (a rotation)."""
        token = self._tokens.current()
        try:
            return self._call_with(token, method, path, body)
        except RunnerError as e:
            if e.status != 401:
                raise
            refused = e
        renewed = self._tokens.renewed(token)
        if renewed is None:
            raise refused
        return self._call_with(renewed, method, path, body)

    def _call_with(self, token: str, method: str, path: str, body: Optional[dict]) -> Any:
        self._follow()
        deadline = time.monotonic() + self.timeout
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        status, text = self._exchange(method, self._parts.path + path, data, headers, deadline)
        answer = _json_or_none(text)
        if status >= 400:
            if isinstance(answer, dict) and "error" in answer:
                raise RunnerError(status, str(answer["error"]), answer.get("field"), url=self.url + path)
            raise RunnerError(status, text.strip()[:500] or f"HTTP {status}", url=self.url + path)
        if text.strip() and answer is None:
            raise RunnerError(502, f"not JSON from {self.url + path}: {text.strip()[:200]}", url=self.url + path)
        return answer if answer is not None else {}

    def _exchange(self, method: str, path: str, data: Optional[bytes], headers: dict,
                  deadline: float) -> tuple[int, str]:
        """One request and its whole answer before ``deadline`` (each socket wait gets what time is left)."""
        def left() -> float:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RunnerTimeout(self.url, self.timeout)
            return remaining

        kind = http.client.HTTPSConnection if self._parts.scheme == "https" else http.client.HTTPConnection
        conn = kind(self._parts.hostname, self._parts.port, timeout=left())
        try:
            conn.connect()
            sock = conn.sock
            sock.settimeout(left())
            conn.request(method, path or "/", body=data, headers=headers)
            sock.settimeout(left())
            response = conn.getresponse()
            chunks, size = [], 0
            while True:
                sock.settimeout(left())
                chunk = response.read1(65536)
                if not chunk:
                    break
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    raise RunnerError(502, f"answer from {self.url} larger than {MAX_ANSWER_BYTES} bytes", url=self.url)
                chunks.append(chunk)
            left()
            return response.status, b"".join(chunks).decode("utf-8", errors="replace")
        except RunnerError:
            raise
        except (socket.timeout, TimeoutError):
            raise RunnerTimeout(self.url, self.timeout) from None
        except (OSError, http.client.HTTPException) as e:
            raise RunnerUnreachable(self.url, _why(e)) from None
        finally:
            conn.close()


def _ids(node_ids: Iterable[str]) -> list[str]:
    if isinstance(node_ids, str):
        raise TypeError("node_ids: give a list of node ids, not one string")
    return [str(n) for n in node_ids]


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text) if text.strip() else None
    except ValueError:
        return None


def _why(error: BaseException) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, ConnectionResetError):
        return "connection reset"
    if isinstance(error, http.client.RemoteDisconnected):
        return "closed the connection without answering"
    if isinstance(error, socket.gaierror):
        return f"unknown host ({error.strerror})"
    return str(error) or type(error).__name__
