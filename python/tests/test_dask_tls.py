"""Dask's TLS for a KOALA instance (koala/dask_tls.py): the credentials, their files, and the JDF's commands
run as a node launcher runs them, against the attempts another user would make
(testbed/dask_intruder.py)."""

import datetime
import io
import logging
import os
import pwd
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testbed"))

try:
    import cryptography  # noqa: F401
    HAVE_CRYPTOGRAPHY = True
except ImportError:
    HAVE_CRYPTOGRAPHY = False
try:
    from distributed import Client
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False

import fakecli  # noqa: E402
from fakerunner import WorkerRunner  # noqa: E402

SKIP = "distributed or cryptography is not importable (Debian: apt-get install python3-distributed python3-cryptography)"
TOKEN = "s3cret-token"


def wait_for(condition, timeout=30.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def other_user() -> pwd.struct_passwd:
    """An account that is not this process's (for files that must be someone else's)."""
    return next(p for p in (pwd.getpwnam(n) for n in ("nobody", "daemon") if _exists(n)) if p.pw_uid != os.getuid())


def _exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


@unittest.skipUnless(HAVE_CRYPTOGRAPHY, SKIP)
class CredentialsTest(unittest.TestCase):
    def test_the_instances_certificate_is_signed_by_its_own_ca_for_both_ends(self):
        from cryptography import x509
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID
        from koala.dask_tls import make_credentials
        now = datetime.datetime(2026, 12, 5, 12, 0, tzinfo=datetime.timezone.utc)
        made = make_credentials("dask", now)
        ca = x509.load_pem_x509_certificate(made.ca_cert)
        cert = x509.load_pem_x509_certificate(made.cert)
        ca.public_key().verify(cert.signature, cert.tbs_certificate_bytes, ec.ECDSA(cert.signature_hash_algorithm))
        self.assertTrue(ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca)
        self.assertFalse(cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca)
        self.assertEqual([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH],
                         list(cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value))
        self.assertEqual(datetime.datetime(2026, 12, 5, 11, 0), cert.not_valid_before, "an hour of clock skew")
        self.assertEqual(datetime.datetime(2036, 12, 2, 12, 0), cert.not_valid_after, "3650 days")
        self.assertIn(b"-----BEGIN PRIVATE KEY-----", made.key)
        self.assertNotIn(b"PRIVATE KEY", made.ca_cert + made.cert, "the CA's key is not kept anywhere")

    def test_each_instance_has_a_ca_of_its_own(self):
        from koala.dask_tls import make_credentials
        a, b = make_credentials("dask"), make_credentials("dask")
        self.assertNotEqual(a.ca_cert, b.ca_cert)
        self.assertNotEqual(a.key, b.key)


@unittest.skipUnless(HAVE_CRYPTOGRAPHY, SKIP)
class InstanceFilesTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="koala-tls-test-"))
        self.addCleanup(shutil.rmtree, self.dir, True)

    def test_a_new_private_directory_holds_the_ca_the_certificate_and_the_key_0600(self):
        from koala.dask_tls import make_instance_tls
        tls = make_instance_tls("my dask", self.dir / "home" / ".koala" / "dask")
        self.assertEqual(self.dir / "home" / ".koala" / "dask", tls.directory.parent)
        self.assertTrue(tls.directory.name.startswith("tls-my_dask-"))
        for d in (tls.directory, tls.directory.parent, tls.directory.parent.parent):
            self.assertEqual(0o700, stat.S_IMODE(d.stat().st_mode), d)
        self.assertEqual(0o600, stat.S_IMODE(tls.key_file.stat().st_mode))
        self.assertIn("PRIVATE KEY", tls.key_file.read_text())
        self.assertIn("CERTIFICATE", tls.ca_file.read_text())
        self.assertEqual(["--tls-ca-file", str(tls.ca_file), "--tls-cert", str(tls.cert_file),
                          "--tls-key", str(tls.key_file)], tls.options(), "file names, never the key")
        security = tls.security()
        self.assertTrue(security.require_encryption)
        self.assertEqual(str(tls.key_file), security.tls_client_key)
        tls.remove()
        self.assertFalse(tls.directory.exists())

    def test_a_directory_that_is_not_the_owners_is_refused(self):
        from koala.dask_tls import make_instance_tls
        with self.assertRaises(PermissionError) as caught:
            make_instance_tls("dask", self.dir, owner=other_user())
        self.assertIn("is not a directory of", str(caught.exception))
        self.assertEqual([], list(self.dir.iterdir()), "nothing left behind")

    @unittest.skipUnless(os.getuid() == 0, "root acts for another user")
    def test_root_acting_for_a_user_makes_the_files_the_users(self):
        from koala.dask_tls import instance_owner, make_instance_tls
        user = other_user()
        self.assertEqual(user.pw_uid, instance_owner({"KOALA_AS": user.pw_name}).pw_uid)
        os.chmod(self.dir, 0o755)
        tls = make_instance_tls("dask", self.dir / "dask", owner=user)
        for path in (tls.directory.parent, tls.directory, tls.key_file, tls.cert_file, tls.ca_file):
            self.assertEqual(user.pw_uid, path.stat().st_uid, path)

    def test_the_owner_is_this_processs_user_unless_root_acts_for_one(self):
        from koala.dask_tls import instance_owner
        self.assertEqual(os.getuid(), instance_owner({}).pw_uid)


@unittest.skipUnless(HAVE_DASK and HAVE_CRYPTOGRAPHY, SKIP)
class NodeTlsTest(unittest.TestCase):
    """The JDF's master and worker commands, run as a node launcher runs them (/bin/sh -c, KOALA_* in the
    environment, without this package), with and without the instance's TLS; another user's attempts
    (testbed/dask_intruder.py) made from this process."""

    def start(self, tls):
        from koala.dask import DaskFramework
        framework = DaskFramework(dashboard=False, tls=tls)
        port = free_port()
        work = tempfile.mkdtemp(prefix="koala-node-")
        self.addCleanup(shutil.rmtree, work, True)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(TMPDIR=work, KOALA_ENTITY_HOST="127.0.0.1", KOALA_ENTITY_PORT=str(port), KOALA_NODE_ID="31.2.0",
                   KOALA_MASTER=f"127.0.0.1:{port}")
        master = subprocess.Popen(["/bin/sh", "-c", framework.scheduler_command()], cwd=work, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(stop, master)
        worker = subprocess.Popen(framework.worker_argv(), cwd=work, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(stop, worker)
        security = tls.security() if tls else None
        client = Client(f"{framework.scheme}://127.0.0.1:{port}", security=security, timeout=30)
        self.addCleanup(client.close)
        client.wait_for_workers(1, timeout=30)
        (worker_address, _), = client.scheduler_info()["workers"].items()
        return client, f"127.0.0.1:{port}", worker_address.split("://", 1)[1], (master, worker)

    def intrude(self, scheduler, worker, *files):
        import dask_intruder
        dask_intruder.TIMEOUT = 2   # a refused plain client waits this long for a handshake that never comes
        out = io.StringIO()
        level = logging.getLogger("distributed").level
        with redirect_stdout(out):
            status = dask_intruder.main([scheduler, worker, *map(str, files)])
        logging.getLogger().setLevel(logging.WARNING)
        logging.getLogger("distributed").setLevel(level)
        return status, out.getvalue().splitlines()

    def test_with_the_instances_tls_the_owner_is_served_and_everyone_else_refused(self):
        from koala.dask_tls import make_instance_tls
        home = Path(tempfile.mkdtemp(prefix="koala-home-"))
        self.addCleanup(shutil.rmtree, home, True)
        tls = make_instance_tls("dask", home / "dask")
        client, scheduler, worker, processes = self.start(tls)
        self.assertTrue(client.scheduler.address.startswith("tls://"))
        self.assertEqual(6, client.submit(sum, [1, 2, 3]).result(timeout=10))
        self.assertEqual(os.getuid(), client.run_on_scheduler(os.getuid), "the owner's client runs code")
        status, lines = self.intrude(scheduler, worker)
        self.assertEqual(0, status, lines)
        self.assertEqual(["reachable", "reachable", "refused a plain client at the scheduler",
                          "refused a client with its own certificate at the scheduler",
                          "refused a plain connection at a worker",
                          "refused a connection with its own certificate at a worker"],
                         [line.split(":")[0].rsplit(" 127.0.0.1", 1)[0] for line in lines])
        for p in processes:
            line = Path(f"/proc/{p.pid}/cmdline").read_bytes()
            self.assertIn(str(tls.key_file).encode(), line, "exec: the entity's process is Dask's")
            self.assertNotIn(b"PRIVATE KEY", line)
            self.assertNotIn(b"PRIVATE KEY", Path(f"/proc/{p.pid}/environ").read_bytes())

    def test_without_tls_another_users_client_runs_code_as_the_owner(self):
        """What the TLS is for: the same attempts succeed against plain TCP (so the test above can fail)."""
        _, scheduler, worker, _ = self.start(None)
        status, lines = self.intrude(scheduler, worker)
        self.assertEqual(1, status, lines)
        self.assertIn(f"ACCEPTED a plain client at the scheduler: ran as uid {os.getuid()} "
                      f"(this process is uid {os.getuid()})", lines)
        self.assertTrue(any(line.startswith("ACCEPTED a plain connection at a worker: ran as uid") for line in lines),
                        lines)


@unittest.skipUnless(HAVE_DASK and HAVE_CRYPTOGRAPHY, SKIP)
class KoalaClusterTlsTest(unittest.TestCase):
    """A default KoalaCluster, against a runner served in-process and a stand-in koala CLI; the submitted JDF's
    own master and worker commands run as the node launcher runs them."""

    def setUp(self):
        logging.getLogger("distributed").setLevel(logging.ERROR)
        self.dir = Path(tempfile.mkdtemp(prefix="koala-dask-tls-test-"))
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.runner = WorkerRunner(master=None, f_max=4).start()
        self.addCleanup(self.runner.stop)
        self.koala = fakecli.write(self.dir)
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.env["TMPDIR"] = str(self.dir)

    def entity(self, argv, **env):
        process = subprocess.Popen(argv, cwd=self.dir, env={**self.env, **env}, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        self.addCleanup(stop, process)
        return process

    def test_the_default_cluster_speaks_tls_with_credentials_made_for_its_instance(self):
        from koala.dask import KoalaCluster
        made = {}

        def construct():
            try:
                made["cluster"] = KoalaCluster(koala=str(self.koala), jdf_dir=self.dir / "jdf", poll_interval="0.1s",
                                               koala_env=fakecli.environment(self.dir, self.runner.url, TOKEN),
                                               tls_dir=self.dir / "tls", connect_timeout=30, dashboard=False)
            except BaseException as e:
                made["error"] = e
        starting = threading.Thread(target=construct)
        starting.start()
        jdf = self.dir / "submitted-1.jdf"
        wait_for(jdf.exists, what="the submitted JDF")
        text = jdf.read_text()
        self.assertNotIn("PRIVATE KEY", text)
        master = jdf_command(text, "master")
        key = Path(master[2].split("--tls-key ")[1].split()[0])
        self.assertEqual(0o600, stat.S_IMODE(key.stat().st_mode))
        self.assertEqual(self.dir / "tls", key.parent.parent)
        self.assertIn("--protocol tls", master[2])
        port = free_port()
        self.entity(master, KOALA_ENTITY_HOST="127.0.0.1", KOALA_ENTITY_PORT=str(port))
        self.runner.master = f"127.0.0.1:{port}"
        starting.join(60)
        self.assertNotIn("error", made)
        cluster = made["cluster"]
        self.addCleanup(cluster.close)
        self.assertEqual(f"tls://127.0.0.1:{port}", cluster.scheduler_address)
        self.assertEqual(str(key), cluster.security.tls_client_key)
        worker = jdf_command(text, "worker")
        self.assertIn('"tls://$KOALA_MASTER"', worker[2])
        self.runner.on_grow = lambda node: self.entity(worker, KOALA_MASTER=self.runner.master, KOALA_NODE_ID=node)
        client = cluster.get_client()
        cluster.scale(1)
        client.wait_for_workers(1, timeout=30)
        self.assertEqual(["31.2.0"], [w["name"] for w in client.scheduler_info()["workers"].values()])
        self.assertEqual(45, client.submit(sum, range(10)).result(timeout=10))
        cluster.close()
        self.assertFalse(key.parent.exists(), "the instance's TLS files go with it")
        self.assertEqual("closed", client.status, "the cluster closed its client first")
        self.assertEqual(["cancel", "31"], fakecli.calls(self.dir)[-1])

    def test_a_plain_cluster_is_chosen_and_said_so(self):
        from koala.dask import DaskFramework
        self.assertEqual("tcp", DaskFramework().scheme)
        self.assertNotIn("--tls", DaskFramework().scheduler_command())


def jdf_command(text: str, role: str) -> list:
    """A role's executable and arguments, as the launcher gets them from the JDF."""
    part = text[text.index(f"(role = {role})"):]
    executable = re.search(r"\(executable = (\S+)\)", part).group(1)
    start = part.index("(arguments = ") + len("(arguments = ")
    end = part.index(")\n", start) if role != "worker" else part.rindex(")\n")
    words = [m.group(1).replace("''", "'") if m.group(1) is not None else m.group(2)
             for m in re.finditer(r"'((?:[^']|'')*)'|([^\s()']+)", part[start:end])]
    return [executable, *words]


if __name__ == "__main__":
    unittest.main()
