"""KOALA's Python clients.

- :mod:`koala.runner`: the framework runner's grow/shrink RPC (standard library only).
- :mod:`koala.framework`: framework JDFs and the ``koala`` CLI (standard library only).
- :mod:`koala.dask`: ``KoalaCluster``, a Dask cluster manager whose workers are KOALA nodes
  (needs ``distributed``).
"""

__all__ = ["runner", "framework", "dask"]
