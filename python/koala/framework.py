"""Framework instances from Python: writing a framework JDF and driving the ``koala`` CLI.

Standard library only; :mod:`koala.dask` builds on it.

- :func:`framework_jdf` writes a framework JDF (KOALA's RSL dialect, see ``jdf-examples/framework-*.jdf``):
  one master, one orchestrator node, ``workers`` initial workers, a provisioning policy and its
  settings (``fMax``, ``tIdle``, ...), each role's command and an environment for all of them.
- :class:`KoalaCli` runs ``koala submit FILE`` (and reads what it prints: the instance's id, the
  runner's address and its state file), ``koala framework ID --json`` and ``koala cancel ID``.
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import shlex
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, Optional, Sequence, Union

from koala.runner import koala_home

__all__ = ["framework_jdf", "jdf_value", "seconds", "Command", "KoalaCli", "KoalaCliError", "Submitted",
           "find_koala", "local_site"]

#: A role's command: the executable (an absolute path) and its arguments.
Command = tuple[str, Sequence[str]]

_WORD = re.compile(r"[^\s()=&|<>!\"']+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DURATION = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?\s*")
_UNITS = {"ms": 0.001, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "m": 60, "min": 60, "mins": 60,
          "minute": 60, "minutes": 60, "h": 3600, "hour": 3600, "hours": 3600}


def jdf_value(value: object) -> str:
    """A JDF literal: the text as a word when it can be one, else single-quoted ('' for a ')."""
    text = str(value)
    if _WORD.fullmatch(text) and not text.startswith("(*"):
        return text
    return "'" + text.replace("'", "''") + "'"


def seconds(duration: Union[int, float, str]) -> int:
    """Whole seconds, as ``tIdle`` and ``samplePeriod`` take them: 30, 30.0, "30s", "2m", "1500ms" (rounded up)."""
    if isinstance(duration, bool):
        raise ValueError(f"{duration!r} is not a duration")
    if isinstance(duration, (int, float)):
        value = float(duration)
    else:
        match = _DURATION.fullmatch(str(duration))
        if not match:
            raise ValueError(f"{duration!r} is not a duration (write 30, '30s', '2m' or '500ms')")
        value = float(match.group(1)) * _UNITS[match.group(2) or "s"]
    if value < 0 or math.isnan(value) or math.isinf(value):
        raise ValueError(f"{duration!r} is not a duration of 0 s or more")
    return math.ceil(value - 1e-9)


def framework_jdf(name: str, master: Command, worker: Command, *,
                  orchestrator: Command = ("/bin/sleep", ["infinity"]), workers: int = 0,
                  provisioning: str = "ondemand", settings: Optional[Mapping[str, object]] = None,
                  environment: Optional[Mapping[str, str]] = None, site: Optional[str] = None,
                  master_site: Optional[str] = None, comment: Optional[str] = None,
                  worker_resources: Optional[Mapping[str, object]] = None) -> str:
    """The text of a framework JDF.

    ``settings`` are the framework-level attributes (``fMax``, ``tIdle``, ``tIdleFactor``, ``uMin``,
    ``uMax``, ``samplePeriod``, ``weight``, ``minShare``, ``pool``, ``reserve``, ``placement``, ...),
    written as given (None values are left out); ``environment`` is given to every role; ``site`` pins
    every role's nodes to that cluster (``resourceManagerContact``), ``master_site`` the master's alone;
    ``worker_resources`` is what each worker node needs on its host (``{"cores": 4, "memory": "8G", "gpus": 1}``,
    written as the worker role's ``cores``, ``memory`` and ``gpus``; None values are left out). KOALA's own
    checks (``koala validate``) apply when it is submitted: an orchestrator component is required,
    the master is one node, ``fMax`` is not below ``workers``.
    """
    if workers < 0:
        raise ValueError(f"workers: {workers} is below 0")
    settings = {k: v for k, v in (settings or {}).items() if v is not None}
    sizes = {k: v for k, v in (worker_resources or {}).items() if v is not None}
    unknown = sorted(set(sizes) - {"cores", "memory", "gpus"})
    if unknown:
        raise ValueError(f"worker_resources: {', '.join(map(repr, unknown))}: a node asks for cores, memory and gpus")
    for key in list(settings) + list(environment or {}):
        if not _NAME.fullmatch(key):
            raise ValueError(f"{key!r} is not an attribute or variable name")
    lines = []
    if comment:
        lines.append("(* " + comment.replace("*)", "* )") + " *)")
    pinned = [("resourceManagerContact", site)] if site else []
    master_pin = [("resourceManagerContact", master_site or site)] if (master_site or site) else []
    head = [("jobType", "framework"), ("name", name), ("role", "master"), ("count", 1)] + master_pin
    head += [("provisioning", provisioning)] + list(settings.items())
    lines.append("+( &" + _relations(head, master, environment))
    lines.append(" )")
    lines.append(" ( &" + _relations([("role", "orchestrator"), ("count", 1)] + pinned, orchestrator, environment))
    lines.append(" )")
    lines.append(" ( &" + _relations([("role", "worker"), ("count", workers)] + list(sizes.items()) + pinned, worker,
                                     environment))
    lines.append(" )")
    return "\n".join(lines) + "\n"


def _relations(pairs: list, command: Command, environment: Optional[Mapping[str, str]]) -> str:
    executable, arguments = command
    if not str(executable).startswith("/") and not str(executable).startswith("${"):
        raise ValueError(f"executable: {executable!r} is not an absolute path")
    pairs = pairs + [("executable", executable)]
    out = []
    for i, (key, value) in enumerate(pairs):
        out.append(("" if i == 0 else "    ") + f"({key} = {jdf_value(value)})")
    if arguments:
        out.append("    (arguments = " + " ".join(jdf_value(a) for a in arguments) + ")")
    if environment:
        out.append("    (environment = " + " ".join(f"({k} {jdf_value(v)})" for k, v in environment.items()) + ")")
    return "\n".join(out)


def local_site(config: Optional[os.PathLike] = None) -> Optional[str]:
    """The first site of the grid configuration whose nodes this host reaches (not a remote one, reached
    by SSH to its head node), when the grid has remote sites; None when every site is local or the
    configuration cannot be read. ``config``: ``KOALA_CONFIG``, ``KOALA_HOME/grid.properties``, or
    ``/etc/koala/grid.properties``, the first that exists."""
    candidates = [config] if config else [os.environ.get("KOALA_CONFIG"), koala_home() / "grid.properties",
                                          "/etc/koala/grid.properties"]
    path = next((Path(c) for c in candidates if c and Path(c).is_file()), None)
    if path is None:
        return None
    values = {}
    try:
        for line in path.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith(("#", "!")) and "=" in line:
                key, value = line.split("=", 1)
                values[key.strip()] = value.strip()
    except OSError:
        return None
    sites = [s.strip() for s in values.get("grid.sites", "").split(",") if s.strip()]
    remote = {s for s in sites if values.get(f"site.{s}.ssh.host")}
    local = [s for s in sites if s not in remote]
    return local[0] if remote and local else None


# -- the CLI ----------------------------------------------------------------------------------------

class KoalaCliError(RuntimeError):
    """A ``koala`` command that failed: its exit status (None when it ran past its time-out), what it printed,
    and the instance it started when it got that far (its runner may still run: cancel it)."""

    def __init__(self, message: str, returncode: Optional[int], output: str = "", instance: Optional[int] = None):
        super().__init__(message)
        self.returncode = returncode
        self.output = output
        self.instance = instance


@dataclass(frozen=True)
class Submitted:
    """What ``koala submit`` said of a framework JDF: the instance, its runner and how the deployment ended."""
    instance: int
    runner_url: Optional[str]
    state_file: Optional[Path]
    log: Optional[Path]
    state: str
    lines: list[str] = field(default_factory=list)


_INSTANCE = re.compile(r"^framework instance (\d+): runner pid (\d+), RPC (\S+)\s*$")
_STATE_FILE = re.compile(r"^\s*token and address in (\S+), log (\S+)\s*$")
_ENDED = re.compile(r"^instance (\d+) (\S+)")


def find_koala() -> list[str]:
    """``koala`` on the PATH, else this checkout's ``bin/koala``."""
    on_path = shutil.which("koala")
    if on_path:
        return [on_path]
    here = Path(__file__).resolve().parents[2] / "bin" / "koala"
    if here.exists():
        return [str(here)]
    raise FileNotFoundError("no koala command: put bin/koala on the PATH or give its path")


class KoalaCli:
    """The ``koala`` command: ``command`` is its path (or an argument list), found by :func:`find_koala` when None."""

    def __init__(self, command: Union[None, str, Sequence[str]] = None, env: Optional[Mapping[str, str]] = None):
        if command is None:
            self.command = find_koala()
        elif isinstance(command, (str, os.PathLike)):
            self.command = [str(command)]
        else:
            self.command = [str(c) for c in command]
        self.env = None if env is None else dict(env)

    def __repr__(self) -> str:
        return f"KoalaCli({shlex.join(self.command)!r})"

    def submit(self, jdf: os.PathLike, timeout: float = 420.0,
               on_line: Optional[Callable[[str], None]] = None) -> Submitted:
        """``koala submit JDF``: returns once the instance is RUNNING (its initial deployment done).

        Raises :class:`KoalaCliError` when the file is refused, the instance did not reach RUNNING, or the
        command ran past ``timeout`` (then it is stopped; the runner it started, if any, is not).
        """
        process = subprocess.Popen(self.command + ["submit", str(jdf)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=self.env,
                                   start_new_session=True)
        lines: list[str] = []
        errors: list[str] = []
        found: dict = {}
        pipe: "queue.Queue[Optional[str]]" = queue.Queue()
        readers = [threading.Thread(target=_pump, args=(process.stdout, pipe), daemon=True),
                   threading.Thread(target=_collect, args=(process.stderr, errors), daemon=True)]
        for reader in readers:
            reader.start()
        deadline = time.monotonic() + timeout
        open_pipes = 1
        while open_pipes:
            try:
                line = pipe.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                _stop(process)
                for reader in readers:
                    reader.join(timeout=2)
                for stream in (process.stdout, process.stderr):
                    stream.close()
                raise KoalaCliError(f"koala submit {jdf}: no end within {timeout:g} s", None,
                                    "\n".join(lines + errors), found.get("instance")) from None
            if line is None:
                open_pipes -= 1
                continue
            line = line.rstrip("\n")
            lines.append(line)
            _read_line(line, found)
            if on_line:
                on_line(line)
        try:
            status = process.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _stop(process)
            status = None
        readers[1].join(timeout=5)
        for stream in (process.stdout, process.stderr):
            stream.close()
        output = "\n".join(lines + errors)
        instance = found.get("instance")
        if status != 0 or instance is None:
            why = "; ".join(e.strip() for e in errors if e.strip()) or (lines[-1] if lines else "no output")
            raise KoalaCliError(f"koala submit {jdf} failed (exit status {status}): {why}", status, output, instance)
        return Submitted(instance, found.get("url"), found.get("state_file"), found.get("log"),
                         found.get("state", "RUNNING"), lines)

    def framework(self, instance: int, timeout: float = 60.0) -> dict:
        """``koala framework ID --json``: the FrameworkJobManager's record (``master`` is ``{node, address}``)."""
        return json.loads(self._run(["framework", str(int(instance)), "--json"], timeout))

    def cancel(self, instance: int, timeout: float = 60.0) -> str:
        """``koala cancel ID``: ends the instance, every node given back."""
        return self._run(["cancel", str(int(instance))], timeout).strip()

    def _run(self, arguments: list[str], timeout: float) -> str:
        try:
            done = subprocess.run(self.command + arguments, capture_output=True, text=True, timeout=timeout,
                                  env=self.env, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as e:
            raise KoalaCliError(f"koala {' '.join(arguments)}: no answer within {timeout:g} s", None,
                                _text(e.stdout) + _text(e.stderr)) from None
        if done.returncode != 0:
            why = done.stderr.strip() or done.stdout.strip() or "no output"
            raise KoalaCliError(f"koala {' '.join(arguments)} failed (exit status {done.returncode}): {why}",
                                done.returncode, done.stdout + done.stderr)
        return done.stdout


def _read_line(line: str, found: dict) -> None:
    match = _INSTANCE.match(line)
    if match:
        found.update(instance=int(match.group(1)), url=match.group(3))
        return
    match = _STATE_FILE.match(line)
    if match:
        found.update(state_file=Path(match.group(1)), log=Path(match.group(2)))
        return
    match = _ENDED.match(line)
    if match:
        found.setdefault("instance", int(match.group(1)))
        found["state"] = match.group(2).rstrip(";")


def _pump(stream, pipe: "queue.Queue[Optional[str]]") -> None:
    try:
        for line in stream:
            pipe.put(line)
    finally:
        pipe.put(None)


def _collect(stream, into: list) -> None:
    for line in stream:
        into.append(line.rstrip("\n"))


def _stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, 15)
        process.wait(timeout=5)
    except (ProcessLookupError, subprocess.TimeoutExpired, PermissionError):
        process.kill()


def _text(data: Union[None, str, bytes]) -> str:
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def write_jdf(text: str, directory: os.PathLike, name: str) -> Path:
    """Writes ``text`` to ``directory/name-STAMP.jdf`` (the directory and any missing parent made 0700); returns the path."""
    folder = Path(directory)
    # mkdir(parents=True) would make the parents 0755, and the first parent is often ~/.koala, which
    # holds the runners' state and tokens: each missing one is made 0700 here
    missing = [d for d in [folder, *folder.parents] if not d.exists()]
    for d in reversed(missing):
        d.mkdir(mode=0o700, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}-{stamp}-{os.getpid()}.jdf"
    path.write_text(text, encoding="utf-8")
    return path


def command_line(program: Iterable[str]) -> str:
    """A shell command line of these words, each quoted as needed."""
    return shlex.join(list(program))
