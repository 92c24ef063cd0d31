"""What the testbed's Dask scripts share: a check printed as one line, and the logging they keep quiet."""
import logging
import sys

logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")


def check(what, ok, detail=""):
    """Prints ``ok`` or ``FAIL`` and what was checked; exits 1 on a failure, so a test reads the first one."""
    print(("ok   " if ok else "FAIL ") + what + (f": {detail}" if detail else ""), flush=True)
    if not ok:
        sys.exit(1)
