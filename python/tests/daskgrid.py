"""A Dask scheduler and workers in this process, standing in for the ones KOALA's nodes would run.

The scheduler and the workers live on an event loop of their own (a thread), apart from the
cluster manager's. ``attach(runner)`` makes a :class:`fakerunner.WorkerRunner` start a Dask worker
named after each node it grows (the node reports in once the worker has joined) and stop it when
the node is released, as a node launcher would.
"""

import asyncio
import threading

from distributed import Scheduler, Worker


class DaskGrid:
    def __init__(self, directory):
        self.directory = str(directory)   # the workers' local directory
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.workers = {}
        self.scheduler = self.run(self._scheduler())

    async def _scheduler(self):
        scheduler = Scheduler(host="127.0.0.1", port=0, dashboard=False)
        await scheduler
        return scheduler

    @property
    def master(self) -> str:
        """host:port, as the runner's status gives it."""
        return self.scheduler.address.split("://", 1)[1]

    def run(self, coroutine, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def attach(self, runner, report_in: bool = True):
        def grown(node):
            asyncio.run_coroutine_threadsafe(self._worker(node, runner if report_in else None), self.loop)

        def released(node):
            worker = self.workers.pop(node, None)
            if worker is not None:
                asyncio.run_coroutine_threadsafe(worker.close(), self.loop)

        runner.on_grow = grown
        runner.on_release = released

    async def _worker(self, name, runner):
        worker = Worker(self.scheduler.address, name=name, nthreads=1, host="127.0.0.1", dashboard=False,
                        local_directory=self.directory)
        await worker
        self.workers[name] = worker
        if runner is not None:
            runner.report_in(name)

    def statuses(self, names) -> dict:
        """Each named worker's status at the scheduler (closing_gracefully once retired), or None if gone."""
        async def read():
            by_name = {str(ws.name): ws for ws in self.scheduler.workers.values()}
            return {n: by_name[n].status.name if n in by_name else None for n in names}
        return self.run(read())

    def names(self) -> set:
        async def read():
            return {str(ws.name) for ws in self.scheduler.workers.values()}
        return self.run(read())

    def close(self):
        if not self.thread.is_alive():
            return
        async def stop():
            for worker in list(self.workers.values()):
                await worker.close()
            await self.scheduler.close()
        try:
            self.run(stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
