"""KOALA's Python clients.

- :mod:`koala.runner`: the framework runner's grow/shrink RPC (standard library only).
- :mod:`koala.framework`: framework JDFs and the ``koala`` CLI (standard library only).
- :mod:`koala.dask`: ``KoalaCluster``, a Dask cluster manager whose workers are KOALA nodes
  (needs ``distributed``).
- :mod:`koala.dask_worker`: what each of those workers runs, ``dask-worker`` retired through Dask
  on SIGTERM (needs ``distributed``; self-contained: its text is shipped in the worker's command).
"""

__all__ = ["runner", "framework", "dask", "dask_worker"]
