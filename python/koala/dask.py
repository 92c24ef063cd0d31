"""``KoalaCluster``: a Dask cluster whose scheduler and workers run on KOALA nodes.

Written against Debian 12's ``python3-distributed`` (2022.12)::

    from koala.dask import KoalaCluster
    cluster = KoalaCluster(workers=0, f_max=12, provisioning="ondemand", t_idle="30s")
    cluster.adapt(minimum=0, maximum=12)
    client = cluster.get_client()
    print(client.submit(sum, range(10)).result())
    cluster.close()            # its clients closed, then koala cancel ID (also when the Python process exits)

The cluster is one KOALA framework instance (see ``docs/dask.md``):

- its **master** runs ``dask-scheduler`` on ``$KOALA_ENTITY_HOST:$KOALA_ENTITY_PORT``; its single
  **orchestrator** node (KOALA's framework JDFs require one) sleeps; its **workers** run
  ``dask-worker tls://$KOALA_MASTER --name $KOALA_NODE_ID --no-nanny``, so that each Dask worker's
  name is its KOALA node id, through :mod:`koala.dask_worker` (its text is in the command), which
  retires the worker through Dask when KOALA ends it (SIGTERM) on its own;
- the scheduler, the workers and the owner's client speak Dask's TLS with credentials made for the
  instance (:mod:`koala.dask_tls`: its own CA, a key only the owner reads): each refuses a peer
  without them, so no other user runs code on the instance's nodes;
- it is submitted with ``koala submit`` and found through the runner's state file and ``/status``
  (the master's ``host:port``), to which the cluster's scheduler comm connects;
- ``scale(n)`` and adaptive scaling up become the runner's ``grow`` for the missing workers;
  scaling down retires the workers through Dask first (their data copied to other workers, no new
  task given to them) and then asks the runner's ``shrink`` for exactly those workers; a worker
  KOALA keeps (t_idle not reached, say) is put back to work in Dask;
- the runner's give-back asks (a shared grid taking workers back) are answered the same way:
  retire through Dask, then ``give_back``;
- under ``provisioning="static"`` or ``"proactive"`` KOALA sizes the cluster: ``scale`` and
  ``adapt`` only log that.

``requested`` is the workers the runner lists (starting or running), ``observed`` those that have
reported in (RUNNING); both are read from the runner's ``/status``, polled every ``poll_interval``.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import functools
import logging
import math
import os
import re
import shlex
import time
import uuid
import weakref
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from dask.utils import parse_timedelta
from distributed.core import Status, rpc
from distributed.deploy.adaptive import Adaptive
from distributed.deploy.cluster import Cluster
from distributed.protocol.pickle import dumps
from distributed.security import Security
from distributed.utils import NoOpAwaitable, format_dashboard_link

from koala.dask_tls import InstanceTls, instance_owner, make_instance_tls
from koala.framework import KoalaCli, KoalaCliError, framework_jdf, local_site, seconds, write_jdf
from koala.runner import GrowResult, RunnerClient, RunnerError, RunnerUnreachable, Status as RunnerStatus
from koala.runner import koala_home, state_file

__all__ = ["KoalaCluster", "KoalaAdaptive", "DaskFramework", "KOALA_SIZED", "worker_program", "worker_resources",
           "worker_gpus"]

logger = logging.getLogger("koala.dask")

#: Policies under which KOALA, not the framework, decides the number of workers.
KOALA_SIZED = frozenset({"static", "proactive"})

_F_MAX = re.compile(r"^fMax = (\d+)\b")

#: This process's clusters that own an instance and may still be open: closed when the interpreter exits.
_OPEN: "weakref.WeakSet" = weakref.WeakSet()
_EXIT_HOOK: list = []


@dataclass(frozen=True)
class DaskFramework:
    """What a :class:`KoalaCluster` deploys: the framework JDF of a Dask instance (see :meth:`jdf`)."""
    name: str = "dask"
    workers: int = 0
    provisioning: str = "ondemand"
    settings: Mapping[str, Any] = field(default_factory=dict)
    worker_nthreads: int = 1
    worker_memory: Any = "auto"
    worker_options: Sequence[str] = ()
    scheduler_options: Sequence[str] = ()
    python: str = "/usr/bin/python3"
    python_flags: Sequence[str] = ("-P",)
    environment: Mapping[str, str] = field(default_factory=dict)
    dashboard: bool = True
    site: Optional[str] = None
    master_site: Optional[str] = None
    tls: Optional[InstanceTls] = None
    worker_gpus: int = 0

    @property
    def scheme(self) -> str:
        """The Dask comm's protocol: ``tls`` with the instance's credentials, else ``tcp``."""
        return "tls" if self.tls else "tcp"

    def _tls_options(self) -> list:
        return self.tls.options() if self.tls else []

    def scheduler_command(self) -> str:
        """The master's shell command: dask-scheduler on the address KOALA's launcher gives it (with ``tls``, on
        ``tls://`` only, taking only peers that hold the instance's key)."""
        return ("exec " + _join([self.python, *self.python_flags, "-m", "distributed.cli.dask_scheduler"])
                + ' --host "$KOALA_ENTITY_HOST" --port "$KOALA_ENTITY_PORT" '
                + ("--dashboard-address :0" if self.dashboard else "--no-dashboard --dashboard-address 127.0.0.1:0")
                + (_options(["--protocol", "tls", *self._tls_options()]) if self.tls else "")
                + _options(self.scheduler_options))

    def __post_init__(self):
        worker_resources(self.worker_nthreads, self.worker_memory)   # refused here, before anything is submitted
        worker_gpus(self.worker_gpus)

    def worker_command(self) -> str:
        """A worker's shell command: dask-worker on the master, named after its KOALA node, without a nanny
        (KOALA's launcher watches the worker process itself and ends it), its HTTP port (metrics) on the node's
        loopback, run by :mod:`koala.dask_worker`,
        whose text is the shell's ``$1`` (see :meth:`worker_argv`): on SIGTERM the worker is retired
        through Dask before it exits.

        Its threads and memory limit are what KOALA gave the node (``KOALA_NODE_CORES``,
        ``KOALA_NODE_MEMORY_MIB``: the worker role's ``cores`` and ``memory``), else the same figures from
        the JDF as this command was written; without ``memory`` the limit is Dask's ``auto`` (the host's
        memory shared by its cores). With ``memory``, glibc keeps two malloc arenas (``MALLOC_ARENA_MAX``,
        unless the environment sets it): SGE limits each process's address space to about the memory
        claimed, and 64 MiB reserved per arena and thread would run a many-threaded worker out of it long
        before its data does (16 threads failed to start under 1 GiB with glibc's own count, ran under
        640 MiB with two arenas).

        A worker that asks GPUs (``worker_gpus``) declares them to Dask as the abstract resource ``GPU``, as
        many as KOALA gave the node (``KOALA_NODE_GPUS``), so that a task submitted with
        ``resources={"GPU": 1}`` runs only there; its devices are in ``CUDA_VISIBLE_DEVICES``."""
        cores, memory = worker_resources(self.worker_nthreads, self.worker_memory)
        gpus = worker_gpus(self.worker_gpus)
        limit = "auto" if memory is None else f'"${{KOALA_NODE_MEMORY_MIB:-{_mib(memory)}}}MiB"'
        arenas = "" if memory is None else 'MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" '
        return (arenas + "exec " + _join([self.python, *self.python_flags, "-c"]) + ' "$1"'
                + f' "{self.scheme}://$KOALA_MASTER" --name "$KOALA_NODE_ID"'
                + f' --nthreads "${{KOALA_NODE_CORES:-{cores}}}" --memory-limit {limit}'
                + (f' --resources "GPU=${{KOALA_NODE_GPUS:-{gpus}}}"' if gpus else "")
                + ' --no-nanny --no-dashboard --dashboard-address 127.0.0.1:0 --local-directory "${TMPDIR:-/tmp}"'
                + _options(self._tls_options()) + _options(self.worker_options))

    def worker_argv(self) -> list:
        """A worker's command line: ``/bin/sh -c COMMAND koala-dask-worker TEXT``, TEXT being ``koala/dask_worker.py``
        (the nodes need Dask, not this package)."""
        return ["/bin/sh", "-c", self.worker_command(), "koala-dask-worker", worker_program()]

    def worker_jdf_resources(self) -> dict:
        """What each worker node asks in the JDF: ``cores`` (``worker_nthreads``), ``memory``
        (``worker_memory``) unless it is ``auto``, and ``gpus`` (``worker_gpus``) unless it is 0."""
        cores, memory = worker_resources(self.worker_nthreads, self.worker_memory)
        gpus = worker_gpus(self.worker_gpus)
        asked = {"cores": cores, "memory": memory, "gpus": gpus or None}
        return {k: v for k, v in asked.items() if v is not None}

    def jdf(self) -> str:
        worker = self.worker_argv()
        return framework_jdf(
            self.name, ("/bin/sh", ["-c", self.scheduler_command()]), (worker[0], worker[1:]),
            orchestrator=("/bin/sleep", ["infinity"]), workers=self.workers, provisioning=self.provisioning,
            worker_resources=self.worker_jdf_resources(),
            settings=dict(self.settings), environment=dict(self.environment) or None, site=self.site,
            master_site=self.master_site,
            comment=f"Dask on KOALA ({self.provisioning} provisioning): the master runs dask-scheduler, each "
                    "worker dask-worker named after its KOALA node (koala/dask_worker.py: retired through Dask "
                    "on SIGTERM); the orchestrator node only waits."
                    + (f" Dask's TLS with credentials made for the instance ({self.tls.directory})." if self.tls
                       else ""))


_JDF_SIZE = re.compile(r"^([1-9][0-9]{0,8})([KMGT])$")
_UNIT_MIB = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}


def worker_resources(nthreads: Any, memory: Any) -> tuple:
    """A worker's ``cores`` and ``memory`` as the JDF writes them, from ``worker_nthreads`` and
    ``worker_memory``: ``(4, "8G")``, or ``(1, None)`` when no memory is asked (``"auto"`` or None).

    ``memory`` is a size as KOALA's JDFs write it (``8G``, ``512M``: binary, 1G = 1024M), or one with a unit
    Dask reads (``"8GiB"``, ``"7.5 GB"``) or a whole number of bytes, rounded up to whole MiB; a fraction
    of the host's memory (``0.5``) is refused: KOALA places and claims a worker by what it asks, so it
    must be a size."""
    if isinstance(nthreads, bool) or not isinstance(nthreads, int) or nthreads < 1:
        raise ValueError(f"worker_nthreads: {nthreads!r} is not a whole number of 1 or more: a worker's threads "
                         "are its node's cores (the JDF's cores)")
    if memory is None or (isinstance(memory, str) and memory.strip().lower() == "auto"):
        return nthreads, None
    return nthreads, _jdf_size(_memory_mib(memory))


def worker_gpus(gpus: Any) -> int:
    """A worker's ``gpus`` as the JDF writes them, from ``worker_gpus``: a whole number, 0 (no GPU asked,
    the default) or more."""
    if isinstance(gpus, bool) or not isinstance(gpus, int) or gpus < 0:
        raise ValueError(f"worker_gpus: {gpus!r} is not a whole number of 0 or more: the GPUs each worker's node "
                         "asks of KOALA (the JDF's gpus)")
    return gpus


def _memory_mib(memory: Any) -> int:
    """MiB, rounded up, of a ``worker_memory`` that is a size."""
    why = ("give a size such as '8G' or '512M' (binary, as in a JDF), or 'auto' for Dask's share of the "
           "host's memory with no memory asked of KOALA")
    if isinstance(memory, bool) or isinstance(memory, float):
        raise ValueError(f"worker_memory: {memory!r} is not a size: {why}")
    if isinstance(memory, int):
        if memory < 1:
            raise ValueError(f"worker_memory: {memory!r} bytes is not a positive size: {why}")
        return math.ceil(memory / 2 ** 20)
    text = str(memory).strip()
    match = _JDF_SIZE.fullmatch(text)
    if match:
        return math.ceil(int(match.group(1)) * _UNIT_MIB[match.group(2)])
    if not re.search(r"[A-Za-z]", text):
        raise ValueError(f"worker_memory: {memory!r} has no unit (Dask would read a fraction of the host's "
                         f"memory, or bytes): {why}")
    from dask.utils import parse_bytes
    try:
        size = parse_bytes(text)
    except ValueError:
        raise ValueError(f"worker_memory: {memory!r} is not a size: {why}") from None
    if size < 1:
        raise ValueError(f"worker_memory: {memory!r} is not a positive size: {why}")
    return math.ceil(size / 2 ** 20)


def _jdf_size(mib: int) -> str:
    """MiB as a JDF writes them, in the largest unit that shows them whole: 8192 is ``8G``, 1536 ``1536M``."""
    for unit, factor in (("T", 1024 * 1024), ("G", 1024)):
        if mib % factor == 0:
            return f"{mib // factor}{unit}"
    return f"{mib}M"


def _mib(size: str) -> int:
    """The MiB of a JDF size that :func:`_jdf_size` wrote."""
    match = _JDF_SIZE.fullmatch(size)
    return math.ceil(int(match.group(1)) * _UNIT_MIB[match.group(2)])


@functools.lru_cache(maxsize=1)
def worker_program() -> str:
    """The text of :mod:`koala.dask_worker`, which each worker runs with ``python -c``."""
    return Path(__file__).with_name("dask_worker.py").read_text(encoding="utf-8")


def _master_site(master_site: Any, site: Optional[str], koala_env: Optional[Mapping[str, str]]) -> Optional[str]:
    """Where the Dask scheduler goes: ``master_site`` as given, or with "auto" a site whose nodes this host
    reaches when the grid also has remote sites (this process talks to the scheduler directly)."""
    if master_site != "auto":
        return master_site
    if site:
        return None
    config = (koala_env or {}).get("KOALA_CONFIG") or os.environ.get("KOALA_CONFIG")
    return local_site(config)


class KoalaAdaptive(Adaptive):
    """Dask's adaptive scaling on a :class:`KoalaCluster`.

    Dask's own ``Adaptive.scale_down`` retires workers with ``close_workers=True``: the worker
    processes would exit and KOALA count them lost. Here scaling down goes through
    :meth:`KoalaCluster.scale_down` (retire without closing, then the runner's shrink, which ends
    the processes), and scaling up through the runner's grow.
    """

    async def scale_up(self, n: int) -> None:
        await self.cluster._grow_to(n, adaptive=True)

    async def scale_down(self, workers: Iterable) -> None:
        if workers:
            await self.cluster._scale_down(list(workers))


class KoalaCluster(Cluster):
    """A Dask cluster on KOALA nodes: one framework instance, its master the Dask scheduler.

    Parameters
    ----------
    workers: the workers the instance starts with (the JDF's worker count).
    f_max, t_idle, t_idle_factor, u_min, u_max, sample_period: the provisioning settings the JDF
        names (``fMax``, ``tIdle``, ...); durations as seconds or ``"30s"``, ``"2m"``; None leaves
        KOALA's site defaults.
    provisioning: ``"ondemand"`` (Dask sizes the cluster), ``"proactive"`` or ``"static"`` (KOALA
        does); any other policy KOALA knows (``pool``, ``reserve``) is taken as framework-sized.
    settings: other framework attributes for the JDF (``{"weight": 2, "minShare": 1}``).
    name: the instance's name in KOALA (and the cluster's name in Dask).
    worker_nthreads, worker_memory: what each worker node asks of KOALA, the worker role's ``cores`` and
        ``memory`` in the JDF (``worker_memory="8G"``: binary, as a JDF's; ``"auto"``, the default: no
        memory asked); the worker's ``--nthreads`` and ``--memory-limit`` follow what KOALA gave the node.
    worker_gpus: the GPUs each worker node asks of KOALA, the worker role's ``gpus`` (0, the default: none);
        the worker declares them to Dask as the resource ``GPU`` and finds its devices in ``CUDA_VISIBLE_DEVICES``.
    worker_options, scheduler_options: more options for ``dask-worker`` and ``dask-scheduler``.
    python, python_flags: the interpreter the nodes run Dask with (Debian's by default) and its flags
        (``-P``: the node's working directory is not put on the module path).
    environment: variables given to every entity (the JDF's ``environment``).
    dashboard: run the scheduler's dashboard (on a free port; it needs ``bokeh`` on the nodes). Its HTTP port is
        not behind TLS (read-only pages); False keeps it, and the scheduler's other pages, on the node's loopback.
    site: the cluster (SGE cell) every node of the instance is placed on, for grids whose sites'
        nodes cannot all reach one another or the client; None lets KOALA place each grow.
    master_site: the cluster the Dask scheduler (the master) is placed on: this process talks to it
        directly, so by default ("auto") on a grid with remote sites it is the configuration's first
        local site (a remote site's nodes are private); None lets KOALA place it.
    koala: the ``koala`` command (a path or argument list; default: on the PATH, else this checkout's
        ``bin/koala``); koala_env: its environment.
    jdf_dir: where the JDF is written (default ``KOALA_HOME/dask``).
    poll_interval: how often the runner's status and give-back asks are read.
    retry_after: after KOALA refused or cut short a grow, how long adaptive scaling waits before
        growing again; after the runner kept a worker a shrink named, how long before naming it again.
    report_activity: tell the runner when each worker starts and stops running Dask tasks, so
        that KOALA's idle timers (t_idle) follow Dask's view rather than the node's CPU use.
    runner_timeout, submit_timeout, connect_timeout: seconds for one RPC, for ``koala submit`` (the
        initial deployment), for the master to report in and its Dask scheduler to answer.
    security: True (the default): Dask's TLS with credentials made for the instance
        (:mod:`koala.dask_tls`): the scheduler and the workers take only peers that hold the instance's
        key, which only its owner reads; this cluster's ``security`` is the owner's client's. A ``Security``
        of your own: used as is, the nodes' ``--tls-*`` options are yours to give (``scheduler_options``,
        ``worker_options``). False: plain TCP, and whoever reaches the nodes runs code there as you.
    tls_dir: where the instance's TLS directory is made: a directory of the owner's that every node of
        the instance sees (default ``~/.koala/dask``).
    """

    def __init__(self, workers: int = 0, *, f_max: Optional[int] = None, provisioning: str = "ondemand",
                 t_idle: Any = None, t_idle_factor: Optional[float] = None, u_min: Optional[float] = None,
                 u_max: Optional[float] = None, sample_period: Any = None,
                 settings: Optional[Mapping[str, Any]] = None, name: str = "dask",
                 worker_nthreads: int = 1, worker_memory: Any = "auto", worker_gpus: int = 0,
                 worker_options: Sequence[str] = (),
                 scheduler_options: Sequence[str] = (), python: str = "/usr/bin/python3",
                 python_flags: Sequence[str] = ("-P",), environment: Optional[Mapping[str, str]] = None,
                 dashboard: bool = True, site: Optional[str] = None, master_site: Any = "auto",
                 koala: Any = None,
                 koala_env: Optional[Mapping[str, str]] = None,
                 jdf_dir: Any = None, poll_interval: Any = "2s", retry_after: Any = "30s",
                 report_activity: bool = True, runner_timeout: float = 30.0, submit_timeout: float = 420.0,
                 connect_timeout: float = 120.0, asynchronous: bool = False, loop=None,
                 security: Any = True, tls_dir: Any = None, quiet: bool = True):
        if workers < 0:
            raise ValueError(f"workers: {workers} is below 0")
        if f_max is not None and f_max < max(1, workers):
            raise ValueError(f"f_max: {f_max} is below the {workers} initial workers (or 1)")
        self.provisioning = str(provisioning).lower()
        self.initial_workers = int(workers)
        self.instance: Optional[int] = None
        self.runner: Optional[RunnerClient] = None
        self.jdf_path: Optional[Path] = None
        self._cli = koala if isinstance(koala, KoalaCli) else KoalaCli(koala, env=koala_env)
        self.tls: Optional[InstanceTls] = None
        if isinstance(security, Security):
            self.security = security
        elif security is False:
            self.security = Security(require_encryption=False)
        else:
            self.tls = make_instance_tls(name, tls_dir, instance_owner(koala_env))
            self.security = self.tls.security()
        self._scheme = "tls" if (self.security.require_encryption or self.security.tls_ca_file) else "tcp"
        self._f_max = f_max
        jdf_settings = {"fMax": f_max, "tIdle": None if t_idle is None else seconds(t_idle),
                        "tIdleFactor": t_idle_factor, "uMin": u_min, "uMax": u_max,
                        "samplePeriod": None if sample_period is None else seconds(sample_period)}
        jdf_settings.update(settings or {})
        self.framework = DaskFramework(name, int(workers), self.provisioning, jdf_settings, worker_nthreads,
                                       worker_memory, tuple(worker_options), tuple(scheduler_options), python,
                                       tuple(python_flags), dict(environment or {}), dashboard, site,
                                       _master_site(master_site, site, koala_env), self.tls, worker_gpus)
        self._jdf_dir = Path(jdf_dir) if jdf_dir is not None else koala_home() / "dask"
        self._poll_interval = parse_timedelta(poll_interval, "seconds")
        self._retry_after = parse_timedelta(retry_after, "seconds")
        self._report_activity = report_activity
        self._runner_timeout = runner_timeout
        self._submit_timeout = submit_timeout
        self._connect_timeout = connect_timeout
        self._status: Optional[RunnerStatus] = None
        self._target: Optional[int] = None
        self._grow_blocked_until = 0.0
        self._activity: dict[str, bool] = {}
        self._kept: dict[str, str] = {}
        self._refused: dict[str, tuple[float, str]] = {}   # node -> (until, the runner's reason)
        self._poller: Optional[asyncio.Task] = None
        self._lock: Optional[asyncio.Lock] = None
        self._finalizer: Optional[weakref.finalize] = None
        self._dashboard_running = False
        self._exiting = False
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="koala-runner")
        super().__init__(asynchronous=asynchronous, loop=loop, quiet=quiet, name=name)
        if security is False:
            self._note("no TLS (security=False): whoever reaches the instance's nodes may run code there as its owner",
                       logging.WARNING)
        if not asynchronous:
            self._loop_runner.start()
            try:
                self.sync(self._start)
            except BaseException:
                self._loop_runner.stop()
                raise

    # -- what Dask reads ----------------------------------------------------------------------------

    @property
    def koala_sized(self) -> bool:
        """True under static and proactive provisioning: KOALA, not Dask, decides how many workers run."""
        return self.provisioning in KOALA_SIZED

    @property
    def requested(self) -> set:
        """The workers the runner lists, starting or running (their KOALA node ids = Dask worker names)."""
        return {w.node for w in self._status.workers()} if self._status else set()

    @property
    def observed(self) -> set:
        """The workers whose node has reported in to the runner (RUNNING)."""
        return {w.node for w in self._status.workers() if w.running} if self._status else set()

    @property
    def plan(self) -> set:
        return self.requested

    @property
    def f_max(self) -> Optional[int]:
        """F_max in force: the runner's (a site may cap the JDF's), else the one asked for."""
        for line in self._status.settings if self._status else []:
            match = _F_MAX.match(line)
            if match:
                return int(match.group(1))
        return self._f_max

    @property
    def dashboard_link(self) -> Optional[str]:
        """The Dask scheduler's dashboard, or None when it runs none (no bokeh on the node, or dashboard=False)."""
        if not self._dashboard_running:
            return None
        try:
            port = self.scheduler_info["services"]["dashboard"]
        except (KeyError, TypeError):
            return None
        host = self.scheduler_address.split("://")[-1].rsplit(":", 1)[0]
        return format_dashboard_link(host, port)

    def __repr__(self) -> str:
        workers = self.scheduler_info.get("workers", {}) if isinstance(self.scheduler_info, dict) else {}
        threads = sum(w.get("nthreads", 0) for w in workers.values())
        return (f"KoalaCluster(instance {self.instance}, {self.scheduler_address!r}, workers={len(workers)}, "
                f"threads={threads}, provisioning={self.provisioning})")

    # -- the JDF --------------------------------------------------------------------------------------

    def jdf(self) -> str:
        """The framework JDF this cluster submits."""
        return self.framework.jdf()

    # -- starting and ending --------------------------------------------------------------------------

    def __await__(self):
        async def _():
            if self.status == Status.created:
                await self._start()
            return self
        return _().__await__()

    async def _start(self) -> None:
        while self.status == Status.starting:
            await asyncio.sleep(0.05)
        if self.status == Status.running:
            return
        if self.status == Status.closed:
            raise ValueError("Cluster is closed")
        self.status = Status.starting
        self._lock = asyncio.Lock()
        try:
            await self._deploy()
            address = await self._master_address()
            self._note(f"instance {self.instance}: Dask scheduler at {address}")
            self.scheduler_comm = rpc(address, connection_args=self.security.get_connection_args("client"))
            await self._connect()
            self._dashboard_running = self.framework.dashboard and await self._probe_dashboard()
        except BaseException as e:
            self.status = Status.failed
            with suppress(Exception):
                await self._close()
            if isinstance(e, (asyncio.CancelledError, KeyboardInterrupt)):
                raise
            raise RuntimeError(f"KoalaCluster failed to start: {e}") from e
        self._poller = asyncio.ensure_future(self._poll())

    async def _deploy(self) -> None:
        self.jdf_path = write_jdf(self.jdf(), self._jdf_dir, self.name)
        self._note(f"koala submit {self.jdf_path}")
        try:
            submitted = await self._io(self._cli.submit, self.jdf_path, self._submit_timeout, self._cli_line)
        except KoalaCliError as e:
            if e.instance is not None:
                self._own(e.instance)
            raise
        self._own(submitted.instance)
        path = submitted.state_file or state_file(submitted.instance)
        self.runner = RunnerClient.from_state_file(path, timeout=self._runner_timeout)

    def _own(self, instance: int) -> None:
        """From now on the instance is ended with the cluster, or when the Python process exits."""
        self.instance = instance
        if self._finalizer is None:
            self._finalizer = weakref.finalize(self, _cancel, self._cli, instance, self.tls)
            _OPEN.add(self)
            if not _EXIT_HOOK:   # registered after the finalizer's own hook, so that it runs first
                _EXIT_HOOK.append(atexit.register(_close_at_exit))

    async def _master_address(self) -> str:
        deadline = time.monotonic() + self._connect_timeout
        while True:
            status = await self._refresh()
            if status is not None and status.state not in ("DEPLOYING", "RUNNING"):
                raise RuntimeError(f"instance {self.instance} is {status.state}")
            if status is not None and status.master:
                return f"{self._scheme}://{status.master}"
            with suppress(KoalaCliError, ValueError):
                view = await self._io(self._cli.framework, self.instance)
                address = (view.get("master") or {}).get("address")
                if address:
                    return f"{self._scheme}://{address}"
            if time.monotonic() > deadline:
                raise TimeoutError(f"instance {self.instance}: no master address within {self._connect_timeout:g} s")
            await asyncio.sleep(1)

    async def _connect(self) -> None:
        """Cluster._start (subscribe to the scheduler's worker changes), tried until the scheduler answers."""
        deadline = time.monotonic() + self._connect_timeout
        while True:
            try:
                await super()._start()
                return
            except (OSError, asyncio.TimeoutError) as e:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the Dask scheduler at {self.scheduler_address} did not answer within "
                                       f"{self._connect_timeout:g} s: {e}") from e
                self.status = Status.starting
                await asyncio.sleep(1)

    async def _probe_dashboard(self) -> bool:
        """Whether the Dask scheduler serves its dashboard (it needs bokeh on the master's node); without it
        the scheduler's HTTP port only answers health and metrics."""
        try:
            answer = await self.scheduler_comm.run_function(function=dumps(_dashboard_probe()), args=dumps(()),
                                                            kwargs=dumps({}))
            return answer.get("status") == "OK" and bool(answer.get("result"))
        except Exception as e:
            logger.debug("cannot tell whether the scheduler runs a dashboard: %s", e)
            return False

    async def _close(self) -> None:
        if self.status == Status.closed:
            return
        for client in self._clients():
            if client.asynchronous:
                with suppress(Exception):
                    await client.close()
        if self._poller is not None:
            self._poller.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._poller
        await self._adaptive_stopped()
        await super()._close()
        if self._finalizer is not None and self._finalizer.alive:
            if self._exiting:   # the interpreter's executors are shut: the cancel runs here, the loop has no more to do
                self._finalizer()
            else:
                await self._io(self._finalizer)
        elif self.tls is not None:
            self.tls.remove()
        self._executor.shutdown(wait=False)

    async def _adaptive_stopped(self, within: float = 5.0) -> None:
        """Stops adaptive scaling and waits, up to ``within`` seconds, for a call of it under way: Dask's own close
        stops it but closes the scheduler's connection at once, and a call then in flight fails with a traceback
        in the log ("Adaptive stopping due to error")."""
        adaptive = self._adaptive
        if adaptive is None:
            return
        with suppress(Exception):
            adaptive.stop()
        deadline = time.monotonic() + within
        while getattr(adaptive, "_adapting", False) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    def close(self, timeout=None):
        """Closes this cluster's clients, then the cluster: ``koala cancel ID``, and the instance's TLS files
        deleted. A client left open would lose its scheduler with the instance and try to reconnect to it,
        logging pages of tracebacks."""
        if self.status != Status.closed and not self._on_loop_thread():
            for client in self._clients():
                if not client.asynchronous:
                    with suppress(Exception):
                        client.close()
        return super().close(timeout)

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()
        super().__exit__(exc_type, exc_value, traceback)
        self._loop_runner.stop()

    def _clients(self) -> list:
        """The open Dask clients of this cluster (``Client(cluster)``, ``cluster.get_client()``)."""
        from distributed import Client
        return [c for c in list(getattr(Client, "_instances", ())) if getattr(c, "cluster", None) is self
                and c.status not in ("closed", "closing", "newly-created")]

    def _on_loop_thread(self) -> bool:
        try:
            return asyncio.get_running_loop() is self.loop.asyncio_loop
        except (RuntimeError, AttributeError):
            return False

    # -- scaling ----------------------------------------------------------------------------------------

    def scale(self, n: int) -> Any:
        """Scale to ``n`` workers: grow the missing ones (KOALA may grant fewer: logged with its reason,
        and the target drops to what was granted), or retire and shrink the extra ones. Workers that
        KOALA does not let go yet (t_idle) are released by later polls while the target stands."""
        if self.koala_sized:
            self._note(f"scale({n}) ignored: KOALA sizes this cluster ({self.provisioning} provisioning)",
                       logging.WARNING)
            return NoOpAwaitable() if self.asynchronous else None
        if self._adaptive is not None and self._adaptive.periodic_callback is not None:
            self._note(f"scale({n}) while adaptive scaling is on: it will resize the cluster again",
                       logging.WARNING)
        self._target = max(0, int(n))
        return self.sync(self._correct, True)

    def scale_down(self, workers: Iterable) -> Any:
        """Retire these workers (Dask names, i.e. KOALA node ids, or addresses) through Dask, then shrink them."""
        return self.sync(self._scale_down, list(workers))

    def adapt(self, Adaptive: type = KoalaAdaptive, minimum: int = 0, maximum: float = math.inf,
              **kwargs: Any) -> Optional[Adaptive]:
        """Dask's adaptive scaling (``interval``, ``wait_count``, ``target_duration``... as Dask's ``Adaptive``),
        with ``maximum`` capped at F_max. Under static or proactive provisioning KOALA sizes the cluster:
        nothing is started and None is returned."""
        if self.koala_sized:
            self._note(f"adapt() ignored: KOALA sizes this cluster ({self.provisioning} provisioning)",
                       logging.WARNING)
            return None
        f_max = self.f_max
        if f_max is not None and maximum > f_max:
            self._note(f"adapt: maximum {maximum} capped at F_max {f_max}")
            maximum = f_max
        self._target = None
        return super().adapt(Adaptive=Adaptive, minimum=minimum, maximum=maximum, **kwargs)

    async def _correct(self, asked: bool = False) -> None:
        """Brings the workers towards the target set by ``scale``: grows what is missing (when ``scale`` asks,
        or when workers were lost since), releases what is too many as KOALA lets them go."""
        async with self._lock:
            if self._target is None or self.status != Status.running:
                return
            await self._refresh()
            have = self.requested
            if self._target > len(have) and (asked or time.monotonic() >= self._grow_blocked_until):
                # asked by scale(), or a worker was lost since: what KOALA does not grant is not asked again
                result = await self._grow(self._target - len(have))
                if result is None or result.granted < result.requested:
                    self._target = len(have) + (result.granted if result else 0)
                    self._grow_blocked_until = time.monotonic() + self._retry_after
                await self._refresh()
            elif self._target < len(have):
                excess = len(have) - self._target
                ok, kept = self._releasable(await self._candidates(have))
                if len(ok) < excess:
                    self._log_kept(kept)
                await self._release(ok[:excess], give_back=False)

    async def _grow_to(self, n: int, adaptive: bool = False) -> None:
        """Grow to ``n`` workers (Adaptive's scale up); after a refusal, not again for ``retry_after``."""
        async with self._lock:
            if self.koala_sized or self.status != Status.running:
                return
            await self._refresh()
            missing = n - len(self.requested)
            if missing <= 0:
                return
            if adaptive and time.monotonic() < self._grow_blocked_until:
                logger.debug("grow of %d deferred: KOALA refused the last one", missing)
                return
            result = await self._grow(missing)
            if result is None or result.granted < missing:
                self._grow_blocked_until = time.monotonic() + self._retry_after
            await self._refresh()

    async def _scale_down(self, workers: list) -> list:
        async with self._lock:
            if self.status != Status.running:
                return []
            await self._refresh()
            ok, kept = self._releasable(self._names(workers))
            self._log_kept(kept)
            released = await self._release(ok, give_back=False)
            if self._target is not None:
                self._target = min(self._target, len(self.requested))
            return released

    async def _grow(self, n: int) -> Optional[GrowResult]:
        """One grow RPC, asked again once under the same request id when the answer was lost."""
        request_id = f"dask-{uuid.uuid4().hex[:12]}"
        for attempt in (1, 2):
            try:
                result = await self._io(self.runner.grow, n, request_id)
                break
            except RunnerUnreachable as e:
                if attempt == 2:
                    self._note(f"grow {n}: the runner did not answer: {e}", logging.WARNING)
                    return None
                await asyncio.sleep(1)
            except RunnerError as e:
                self._note(f"grow {n} refused by the runner: {e}", logging.WARNING)
                return None
        if result.granted == result.requested:
            self._note(f"grow {n}: KOALA granted {', '.join(result.nodes)}")
        elif result.granted:
            self._note(f"grow {n}: KOALA granted {result.granted} ({', '.join(result.nodes)}): {result.reason}",
                       logging.WARNING)
        else:
            self._note(f"grow {n}: KOALA granted none: {result.reason}", logging.WARNING)
        return result

    # -- releasing workers: retire through Dask, then shrink or give back ------------------------------

    async def _candidates(self, among: set) -> list:
        """``among``, best to release first: running workers that never joined Dask, then in Dask's order
        (idle before busy, less data first), then workers still starting."""
        entities = {w.node: w for w in self._status.workers()} if self._status else {}
        joined = self._dask_names()
        running = [w for w in sorted(among) if w in entities and entities[w].running]
        order = [w for w in running if w not in joined]
        in_dask = [w for w in running if w in joined]
        if in_dask:
            picked = await self.scheduler_comm.workers_to_close(n=len(joined), attribute="name")
            order += [str(w) for w in picked if str(w) in in_dask]
            order += [w for w in in_dask if w not in order]
        return order + [w for w in sorted(among) if w not in order]

    def _releasable(self, names: list) -> tuple[list, dict]:
        """Those of ``names`` the runner would let go now, and why each other one stays."""
        if self._status is None:
            return [], {}
        entities = {w.node: w for w in self._status.workers()}
        now = datetime.now(timezone.utc)
        t_idle = self._status.t_idle_millis / 1000.0
        ok, kept = [], {}
        clock = time.monotonic()
        self._refused = {n: r for n, r in self._refused.items() if r[0] > clock}
        for name in names:
            worker = entities.get(name)
            if worker is None:
                continue
            if name in self._refused:
                kept[name] = f"the runner kept it lately: {self._refused[name][1]}"
            elif not worker.running:
                kept[name] = "still starting: KOALA releases workers once they have reported in"
            elif worker.idle_since is None:
                kept[name] = "busy as KOALA sees it"
            elif self.provisioning == "ondemand" and (now - worker.idle_since).total_seconds() < t_idle:
                idle = (now - worker.idle_since).total_seconds()
                kept[name] = f"idle {idle:.0f} s < t_idle {t_idle:g} s"
            else:
                ok.append(name)
        return ok, kept

    def _log_kept(self, kept: dict) -> None:
        """Logs why workers stay, once per worker and kind of reason."""
        for name, why in kept.items():
            if self._kept.get(name) != why.split(" ", 1)[0]:
                self._note(f"kept {name} for now: {why}")
        self._kept = {name: why.split(" ", 1)[0] for name, why in kept.items()}

    async def _release(self, names: list, give_back: bool) -> list:
        """Retires ``names`` in Dask (no new tasks, data copied elsewhere), then shrinks (or gives back)
        exactly the retired ones; puts back to work any the runner keeps. Returns the released."""
        if not names:
            return []
        joined = self._dask_names()
        retired: list = []
        in_dask = [n for n in names if n in joined]
        if in_dask:
            info = await self.scheduler_comm.retire_workers(names=in_dask, remove=False, close_workers=False)
            retired = [str(w.get("name")) for w in info.values()]
            stuck = sorted(set(in_dask) - set(retired))
            if stuck:
                self._note(f"kept {', '.join(stuck)}: Dask could not copy their data to another worker",
                           logging.WARNING)
        to_release = retired + [n for n in names if n not in joined]
        if not to_release:
            return []
        call = self.runner.give_back if give_back else self.runner.shrink
        verb = "give back" if give_back else "shrink"
        try:
            result = await self._io(call, to_release)
        except RunnerError as e:
            self._note(f"{verb} {', '.join(to_release)} refused by the runner: {e}", logging.WARNING)
            await self._unretire(retired)
            return []
        if result.released:
            self._note(f"{verb}: KOALA released {', '.join(result.released)}" +
                       (f" ({result.reason})" if result.reason else ""))
        for refusal in result.refused:
            self._note(f"{verb}: KOALA keeps {refusal.node}: {refusal.reason}", logging.WARNING)
            self._refused[refusal.node] = (time.monotonic() + self._retry_after, refusal.reason)
        await self._unretire([n for n in retired if n not in result.released])
        for node in result.released:
            self._activity.pop(node, None)
        await self._refresh()
        return list(result.released)

    async def _unretire(self, names: list) -> None:
        """Puts retired (closing-gracefully) workers back to work: the runner kept their nodes."""
        addresses = [a for a, w in self.scheduler_info["workers"].items() if str(w.get("name")) in set(names)]
        if not addresses:
            return
        msg = dict(op="run", function=dumps(_back_to_work(f"koala-kept-{time.time()}")), args=dumps(()),
                   kwargs=dumps({}), wait=True)
        try:
            await self.scheduler_comm.broadcast(msg=msg, workers=addresses, on_error="return")
            logger.info("put %s back to work in Dask", ", ".join(sorted(names)))
        except Exception as e:  # the worker stays retired: it takes no new task until KOALA ends it
            self._note(f"could not put {', '.join(names)} back to work: {e}", logging.WARNING)

    # -- the poll: status, activity, give-back asks -----------------------------------------------------

    async def _poll(self) -> None:
        failures = 0
        while self.status == Status.running:
            await asyncio.sleep(self._poll_interval)
            try:
                await self._refresh(strict=True)
                if self._report_activity:
                    await self._tell_activity()
                await self._answer_give_back()
                if self._target is not None:
                    await self._correct()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if isinstance(e, RuntimeError) and "cannot schedule new futures" in str(e):
                    # the executor is shut: the interpreter is exiting (its threads stop before the atexit close
                    # runs) or the cluster closing; nothing to poll for any more
                    return
                failures += 1
                if failures in (1, 10) or failures % 100 == 0:
                    logger.warning("polling instance %s failed (%d in a row): %s", self.instance, failures, e)

    async def _refresh(self, strict: bool = False) -> Optional[RunnerStatus]:
        try:
            self._status = await self._io(self.runner.status)
        except RunnerError:
            if strict:
                raise
        return self._status

    async def _tell_activity(self) -> None:
        """Tells the runner when a worker starts or stops running Dask tasks (only changes are sent)."""
        if self._status is None:
            return
        by_name = {str(w.get("name")): a for a, w in self.scheduler_info["workers"].items()}
        processing = await self.scheduler_comm.processing()
        now = datetime.now(timezone.utc)
        present = set()
        for worker in self._status.workers():
            address = by_name.get(worker.node)
            if not worker.running or address is None:
                continue
            present.add(worker.node)
            busy = bool(processing.get(address))
            if self._activity.get(worker.node) == busy:
                continue
            since = None if busy else (worker.idle_since if worker.node not in self._activity and worker.idle_since
                                       else now)
            try:
                await self._io(self.runner.activity, worker.node, busy, since)
                self._activity[worker.node] = busy
            except RunnerError as e:
                logger.debug("activity of %s not taken: %s", worker.node, e)
        for gone in set(self._activity) - present:
            del self._activity[gone]

    async def _answer_give_back(self) -> None:
        """The grid asks for workers back: retire that many through Dask, then give them back."""
        ask = await self._io(self.runner.give_back_ask)
        if ask is None or ask.workers <= 0:
            return
        async with self._lock:
            await self._refresh()
            workers = self._status.workers() if self._status else []
            joined = self._dask_names()
            idle_first = sorted((w for w in workers if w.running and w.node in joined),
                                key=lambda w: (w.idle_since is None, w.idle_since or now_utc(), w.node))
            order = [w.node for w in workers if not w.running or w.node not in joined]
            order += [w.node for w in idle_first]
            chosen = order[:ask.workers]
            if not chosen:
                return
            self._note(f"KOALA asks {ask.workers} worker(s) back ({ask.reason}); giving {', '.join(chosen)}")
            released = await self._release(chosen, give_back=True)
            if len(released) < ask.workers:
                by = ask.by.isoformat() if ask.by else "its grace period"
                self._note(f"gave back {len(released)} of {ask.workers}; KOALA ends the rest after {by}",
                           logging.WARNING)
            if self._target is not None:
                self._target = min(self._target, len(self.requested))

    # -- helpers ------------------------------------------------------------------------------------------

    def _dask_names(self) -> set:
        return {str(w.get("name")) for w in self.scheduler_info["workers"].values()}

    def _names(self, workers: Iterable) -> list:
        """Worker names (KOALA node ids) from names or addresses."""
        by_address = {a: str(w.get("name")) for a, w in self.scheduler_info["workers"].items()}
        return [by_address.get(str(w), str(w)) for w in workers]

    async def _io(self, fn, *args):
        """Runs a blocking call (an RPC, the CLI) off the event loop, one at a time."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, functools.partial(fn, *args))

    def _cli_line(self, line: str) -> None:
        logger.info("koala: %s", line)
        self._cluster_manager_logs.append((datetime.now(), f"koala: {line}"))

    def _note(self, message: str, level: int = logging.INFO) -> None:
        """Logs ``message`` (logger ``koala.dask``) and keeps it for ``get_logs()``; printed unless quiet."""
        logger.log(level, "%s", message)
        self._cluster_manager_logs.append((datetime.now(), message))
        if not self.quiet:
            print(message)


def now_utc() -> datetime:
    return datetime.now(timezone.utc)


def _join(words: Sequence[str]) -> str:
    return " ".join(shlex.quote(str(w)) for w in words)


def _options(options: Sequence[str]) -> str:
    return (" " + _join(options)) if options else ""


def _back_to_work(stimulus_id: str):
    """A function for Dask's ``run`` that sets a retired worker running again; nested, so that it is pickled by
    value (the nodes need not have this package)."""
    def back_to_work(dask_worker):
        if dask_worker.status.name == "closing_gracefully":
            dask_worker.handle_worker_status_change("running", stimulus_id)
    return back_to_work


def _dashboard_probe():
    """A function for the scheduler's ``run_function``: whether its bokeh dashboard was loaded."""
    def probe(dask_scheduler):
        import sys
        return "distributed.dashboard.scheduler" in sys.modules
    return probe


def _close_at_exit() -> None:
    """Closes the clusters still open when the interpreter exits, as ``close()`` does. Left to the finalizer's
    cancel alone, their adaptive scaling, cluster-info sync and clients would try to reconnect to the scheduler
    the cancel ends, with the executors that resolve host names already shut: tracebacks by the page."""
    for cluster in list(_OPEN):
        if cluster.status != Status.closed and not cluster.asynchronous:
            cluster._exiting = True
            with suppress(Exception):
                cluster.close(timeout=120)


def _cancel(cli: KoalaCli, instance: int, tls: Optional[InstanceTls] = None) -> None:
    """Ends the instance (``koala cancel ID``) and deletes its TLS files; at close, or when the Python process
    exits. The files stay with an instance that did not end: a master KOALA restarts reads them again."""
    try:
        answer = cli.cancel(instance)
        logger.info("koala cancel %s: %s", instance, answer)
    except (KoalaCliError, OSError) as e:
        logger.warning("could not end KOALA instance %s (%s): end it with 'koala cancel %s'", instance, e, instance)
        return
    if tls is not None:
        tls.remove()
