"""A Dask worker on a KOALA node: dask-worker, retired through Dask when KOALA ends it.

Each worker of a KoalaCluster runs this file: its command (koala.dask.DaskFramework.worker_argv)
is python3 -P -c TEXT tls://MASTER --name NODE --no-nanny --tls-... ..., TEXT being this file, so that
the nodes need Dask but not this package; where the package is on the module path,
python3 -m koala.dask_worker ARGS is the same. It takes the arguments of dask-worker and starts
the worker as dask-worker does (it runs the dask-worker command of distributed.cli.dask_worker
itself); only what follows SIGTERM or SIGINT differs.

Why. KOALA ends a worker on its own (t_idle, the grid taking the node back, a give-back ask
whose grace ran out) as it ends any released worker: SIGTERM to the entity and its descendants,
SIGKILL 5 s later. dask-worker (distributed 2022.12) waits for SIGINT or SIGTERM
(distributed._signals.wait_for_signals) and then, without a nanny, returns from its main
coroutine: asyncio.run cancels the task that runs the worker, the process exits, the scheduler
sees the connection drop and computes again every result held only there. Here the signal
retires the worker first: the scheduler copies the results held only there to other workers and
gives it no new task; then the worker closes. The retirement gets RETIRE_SECONDS (4 s, within
the 5 s grace); after that, or when no other worker can take the results, it closes all the same.

How. Worker.close_gracefully is that (scheduler.retire_workers with close_workers=False and
remove=False, then close), but it is not called as is: for a worker already closing_gracefully,
as is one KoalaCluster retired before the shrink whose SIGTERM this is, it waits for someone
else to close the worker: forever, here. So this makes the same call to the scheduler (for a
worker retired already it returns at once: nothing is left to copy), bounded, then closes
without waiting for a task still running: the scheduler gives that task to another worker once
this one has left. The hook is the name wait_for_signals in distributed.cli.dask_worker, which
its main coroutine calls; a second SIGTERM or SIGINT ends the process at once (the first one
puts the previous handlers back).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from contextlib import suppress

#: How long the scheduler gets to retire the worker before it closes anyway: the launcher of KOALA
#: sends SIGKILL 5 s after SIGTERM, and closing takes a fraction of a second.
RETIRE_SECONDS = 4.0

logger = logging.getLogger("distributed.dask_worker.koala")


async def retire_and_close(worker, seconds: float = RETIRE_SECONDS) -> bool:
    """Asks the scheduler to retire ``worker`` (results held only there copied to other workers) for
    up to ``seconds``, then closes it. True when the scheduler retired it."""
    from distributed.core import Status

    if worker.status in (Status.closed, Status.failed):
        return False
    if worker.status == Status.closing:   # closing already, by itself or a request of the scheduler
        with suppress(asyncio.TimeoutError):
            await asyncio.wait_for(worker.finished(), seconds)
        return False
    started = time.monotonic()
    retired = False
    try:
        answer = await asyncio.wait_for(worker.scheduler.retire_workers(
            workers=[worker.address], close_workers=False, remove=False,
            stimulus_id=f"koala-signal-{time.time()}"), seconds)
        retired = worker.address in (answer or {})
        if retired:
            logger.info("Retired %s in %.3f s: its results are on other workers", worker.address,
                        time.monotonic() - started)
        else:
            logger.warning("Not retired: the scheduler found no other worker for the results held on %s",
                           worker.address)
    except asyncio.TimeoutError:
        logger.warning("Not retired within %g s: closing %s all the same", seconds, worker.address)
    except Exception as e:
        logger.warning("Not retired (%s: %s): closing all the same", type(e).__name__, e)
    await worker.close(nanny=False, executor_wait=False, reason="koala: signal")
    return retired


async def _wait_for_signals_then_retire() -> None:
    """In place of the wait of dask-worker for SIGINT or SIGTERM: the same wait, then every worker
    of this process retired and closed before dask-worker ends."""
    from distributed import Worker
    from distributed._signals import wait_for_signals

    await wait_for_signals()
    workers = list(Worker._instances)
    for worker, outcome in zip(workers, await asyncio.gather(*(retire_and_close(w) for w in workers),
                                                            return_exceptions=True)):
        if isinstance(outcome, BaseException):
            logger.warning("Closing %s failed: %s: %s", worker.name, type(outcome).__name__, outcome)


def main(argv: list | None = None) -> None:
    """dask-worker with ``argv`` (default: the arguments of this process), retiring its worker on
    SIGTERM or SIGINT."""
    from distributed.cli import dask_worker

    if hasattr(dask_worker, "wait_for_signals"):
        dask_worker.wait_for_signals = _wait_for_signals_then_retire
    else:  # another distributed than the one this was written for: its dask-worker as it is
        logger.warning("distributed %s: cannot retire the worker on SIGTERM", getattr(
            sys.modules.get("distributed"), "__version__", "?"))
    dask_worker.main(args=list(sys.argv[1:] if argv is None else argv), prog_name="dask-worker")


if __name__ == "__main__":
    main()
