"""A stand-in for the ``koala`` command, for tests: a script that prints what the real CLI prints.

Its behaviour comes from the environment the test gives it:

- ``FAKE_KOALA_CALLS``: a file it appends each call's arguments to (one JSON list a line); a
  submitted JDF is copied beside it as ``submitted-N.jdf``.
- ``FAKE_KOALA_INSTANCE``, ``FAKE_KOALA_RUNNER_URL``, ``FAKE_KOALA_TOKEN``: the instance it "starts";
  ``submit`` writes the runner's state file (``url``, ``token``, as ``runner-ID.json``) in
  ``FAKE_KOALA_HOME/runners/``.
- ``FAKE_KOALA_SUBMIT``: ``ok`` (default), ``invalid`` (exit 2, a JDF error), ``failed`` (the
  instance FAILED, exit 1), ``hang`` (prints the first lines, then never ends).
- ``FAKE_KOALA_MASTER``: the address ``framework ID --json`` gives for the master.
- ``FAKE_KOALA_CANCEL_KILL``: a process ``cancel`` ends (SIGTERM), as the real one ends the master's, and
  then it waits a second, as the real one waits for the instance's end.
"""

import os
import stat
from pathlib import Path

SCRIPT = r'''#!/usr/bin/python3
import json, os, shutil, sys, time
args = sys.argv[1:]
calls = os.environ["FAKE_KOALA_CALLS"]
with open(calls, "a") as f:
    f.write(json.dumps(args) + "\n")
instance = int(os.environ.get("FAKE_KOALA_INSTANCE", "31"))
home = os.environ["FAKE_KOALA_HOME"]
runners = os.path.join(home, "runners")
if args[:1] == ["submit"]:
    mode = os.environ.get("FAKE_KOALA_SUBMIT", "ok")
    n = sum(1 for _ in open(calls))
    shutil.copy(args[1], os.path.join(os.path.dirname(calls), "submitted-%d.jdf" % n))
    if mode == "invalid":
        print(args[1] + ":3:5: fMax: 'many' is not a positive whole number", file=sys.stderr)
        sys.exit(2)
    os.makedirs(runners, exist_ok=True)
    state = os.path.join(runners, "runner-%d.json" % instance)
    with open(state, "w") as f:
        json.dump({"instance": instance, "url": os.environ["FAKE_KOALA_RUNNER_URL"],
                   "token": os.environ["FAKE_KOALA_TOKEN"], "pid": 4242, "launch": {}, "book": {}}, f)
    print("framework instance %d: runner pid 4242, RPC %s" % (instance, os.environ["FAKE_KOALA_RUNNER_URL"]))
    print("  token and address in %s, log %s" % (state, os.path.join(runners, "runner-%d.log" % instance)))
    print("  12:26:39 registered instance %d (ondemand)" % instance)
    sys.stdout.flush()
    if mode == "hang":
        time.sleep(3600)
    print("  12:26:39 grow 1 master [%d.0.0]: initial deployment: the master" % instance)
    if mode == "failed":
        print("instance %d FAILED" % instance)
        sys.exit(1)
    print("  12:26:42 initial deployment done in 2.924 s: 2 nodes")
    print("instance %d RUNNING; see bin/koala framework %d" % (instance, instance))
    sys.exit(0)
if args[:1] == ["framework"]:
    master = os.environ.get("FAKE_KOALA_MASTER")
    print(json.dumps({"id": int(args[1]), "name": "dask", "policy": "ondemand", "parameters": {},
                      "runner": os.environ.get("FAKE_KOALA_RUNNER_URL"), "state": "RUNNING", "sites": ["fs0"],
                      "master": {"node": "%s.0.0" % args[1], "address": master} if master else None,
                      "nodesPerRole": {"master": 1}, "history": []}, indent=2))
    sys.exit(0)
if args[:1] == ["cancel"]:
    if os.environ.get("FAKE_KOALA_CANCEL_KILL"):
        os.kill(int(os.environ["FAKE_KOALA_CANCEL_KILL"]), 15)
        time.sleep(1)
    print("job %s CANCELLED" % args[1])
    sys.exit(0)
print("koala: unknown command " + " ".join(args), file=sys.stderr)
sys.exit(2)
'''


def write(directory: Path) -> Path:
    path = Path(directory) / "koala"
    path.write_text(SCRIPT)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def environment(directory: Path, runner_url: str, token: str, instance: int = 31, **extra: str) -> dict:
    env = dict(os.environ)
    env.update(FAKE_KOALA_CALLS=str(Path(directory) / "calls.jsonl"), FAKE_KOALA_HOME=str(Path(directory) / "home"),
               FAKE_KOALA_INSTANCE=str(instance), FAKE_KOALA_RUNNER_URL=runner_url, FAKE_KOALA_TOKEN=token)
    env.update({f"FAKE_KOALA_{k.upper()}": v for k, v in extra.items()})
    return env


def calls(directory: Path) -> list:
    import json
    path = Path(directory) / "calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
