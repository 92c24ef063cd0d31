"""Another user's attempts on a Dask instance of KOALA: run as that user (DaskIT: runuser), it tries what
the instance's TLS must refuse, and prints one line per attempt.

    python3 dask_intruder.py SCHEDULER WORKER [FILE...]

SCHEDULER and WORKER are host:port (a worker's address as the scheduler lists it); FILEs are the
owner's files to read (the instance's key). Each attempt prints ``refused WHAT: why`` or ``ACCEPTED
WHAT: ...`` (with the uid the code ran as), after ``reachable HOST:PORT`` (a plain TCP connection is
made, so a refusal is the listener's, not the network's). Exit status: 0 when every attempt was refused,
1 when one was accepted, 3 when an address was not reachable at all.

The attempts: a plain ``distributed.Client`` (what anyone reading ``koala frameworks`` can do), a client
with a CA and certificate of its own (Dask's ``Security.temporary()``), the same two against a
worker (``run``, as the scheduler asks workers), and reading each FILE.
"""

import asyncio
import os
import socket
import sys

TIMEOUT = 5


def reachable(address: str) -> bool:
    host, port = address.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=TIMEOUT):
            return True
    except OSError:
        return False


def at_scheduler(address: str, security) -> int:
    """A client's ``run_on_scheduler(os.getuid)``: says the uid the scheduler ran it as."""
    from distributed import Client
    scheme = "tls" if security is not None else "tcp"
    with Client(f"{scheme}://{address}", security=security, timeout=TIMEOUT) as client:
        return f"ran as uid {client.run_on_scheduler(os.getuid)}"


def at_worker(address: str, security) -> int:
    """The worker's ``run`` handler with ``os.getuid``, as the scheduler calls it: says the uid it ran as."""
    from distributed.core import rpc
    from distributed.protocol.pickle import dumps

    async def call():
        scheme = "tls" if security is not None else "tcp"
        args = security.get_connection_args("client") if security is not None else {}
        async with rpc(f"{scheme}://{address}", connection_args=args, timeout=TIMEOUT) as worker:
            answer = await asyncio.wait_for(worker.run(function=dumps(os.getuid), args=dumps(()),
                                                       kwargs=dumps({})), TIMEOUT * 2)
        return f"ran as uid {answer['result']}"
    return asyncio.run(call())


def attempt(what: str, fn) -> bool:
    """Runs ``fn`` (what it got, when it was let in); True when it was refused."""
    try:
        got = fn()
    except Exception as e:   # what a refusal looks like varies: a closed stream, a time-out, an SSL alert
        print(f"refused {what}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300], flush=True)
        return True
    print(f"ACCEPTED {what}: {got} (this process is uid {os.getuid()})", flush=True)
    return False


def main(argv) -> int:
    import logging
    from distributed.security import Security
    logging.basicConfig(level=logging.CRITICAL)   # Dask logs each failed handshake; the lines here say it
    scheduler, worker, files = argv[0], argv[1], argv[2:]
    for address in (scheduler, worker):
        if not reachable(address):
            print(f"unreachable {address}", flush=True)
            return 3
        print(f"reachable {address}", flush=True)
    own = Security.temporary()
    refused = [attempt("a plain client at the scheduler", lambda: at_scheduler(scheduler, None)),
               attempt("a client with its own certificate at the scheduler", lambda: at_scheduler(scheduler, own)),
               attempt("a plain connection at a worker", lambda: at_worker(worker, None)),
               attempt("a connection with its own certificate at a worker", lambda: at_worker(worker, own))]
    for path in files:
        refused.append(attempt(f"reading {path}", lambda p=path: f"read {len(open(p).read())} characters"))
    return 0 if all(refused) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
