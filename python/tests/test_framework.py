"""koala.framework: the framework JDF's text and the koala CLI, against a stand-in CLI (tests/fakecli.py)."""

import os
import shutil
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from koala.framework import KoalaCli, KoalaCliError, framework_jdf, jdf_value, seconds  # noqa: E402
import fakecli  # noqa: E402
from koala import framework  # noqa: E402


class JdfTest(unittest.TestCase):
    def test_values_are_words_or_quoted(self):
        self.assertEqual("ondemand", jdf_value("ondemand"))
        self.assertEqual("12", jdf_value(12))
        self.assertEqual("/usr/bin/python3", jdf_value("/usr/bin/python3"))
        self.assertEqual("'a b'", jdf_value("a b"))
        self.assertEqual("'it''s'", jdf_value("it's"))
        self.assertEqual("'x=(y)'", jdf_value("x=(y)"))
        self.assertEqual("'exec \"$KOALA_MASTER\"'", jdf_value('exec "$KOALA_MASTER"'))
        self.assertEqual("''", jdf_value(""))

    def test_seconds(self):
        self.assertEqual(30, seconds("30s"))
        self.assertEqual(30, seconds(30))
        self.assertEqual(120, seconds("2m"))
        self.assertEqual(2, seconds("1500ms"))
        self.assertEqual(0, seconds("0"))
        self.assertEqual(3600, seconds("1h"))
        for bad in ["soon", "-3", "3 parsecs", True]:
            with self.assertRaises(ValueError):
                seconds(bad)

    def test_a_framework_jdf_as_the_examples_write_one(self):
        text = framework_jdf("dask-demo", ("/usr/bin/python3", ["-m", "distributed.cli.dask_scheduler"]),
                             ("/bin/sh", ["-c", 'exec worker "$KOALA_MASTER"']), workers=2,
                             provisioning="proactive", settings={"fMax": 6, "tIdle": 20, "uMin": None},
                             environment={"OMP_NUM_THREADS": "1"}, comment="made by a test")
        self.assertEqual(
            "(* made by a test *)\n"
            "+( &(jobType = framework)\n"
            "    (name = dask-demo)\n"
            "    (role = master)\n"
            "    (count = 1)\n"
            "    (provisioning = proactive)\n"
            "    (fMax = 6)\n"
            "    (tIdle = 20)\n"
            "    (executable = /usr/bin/python3)\n"
            "    (arguments = -m distributed.cli.dask_scheduler)\n"
            "    (environment = (OMP_NUM_THREADS 1))\n"
            " )\n"
            " ( &(role = orchestrator)\n"
            "    (count = 1)\n"
            "    (executable = /bin/sleep)\n"
            "    (arguments = infinity)\n"
            "    (environment = (OMP_NUM_THREADS 1))\n"
            " )\n"
            " ( &(role = worker)\n"
            "    (count = 2)\n"
            "    (executable = /bin/sh)\n"
            "    (arguments = -c 'exec worker \"$KOALA_MASTER\"')\n"
            "    (environment = (OMP_NUM_THREADS 1))\n"
            " )\n", text)

    def test_each_worker_node_asks_for_the_resources_given(self):
        text = framework_jdf("sized", ("/bin/m", []), ("/bin/w", []), workers=2, site="fs0",
                             worker_resources={"cores": 4, "memory": "8G", "gpus": None})
        self.assertIn(" ( &(role = worker)\n"
                      "    (count = 2)\n"
                      "    (cores = 4)\n"
                      "    (memory = 8G)\n"
                      "    (resourceManagerContact = fs0)\n"
                      "    (executable = /bin/w)\n"
                      " )\n", text)
        self.assertEqual(1, text.count("(cores = "), "the worker role alone")
        with self.assertRaises(ValueError) as caught:
            framework_jdf("x", ("/bin/m", []), ("/bin/w", []), worker_resources={"cpus": 4, "mem": "1G"})
        self.assertEqual("worker_resources: 'cpus', 'mem': a node asks for cores, memory and gpus",
                         str(caught.exception))

    def test_a_site_pins_every_role(self):
        text = framework_jdf("x", ("/bin/true", []), ("/bin/true", []), site="fs0")
        self.assertEqual(3, text.count("(resourceManagerContact = fs0)"))

    def test_refuses_what_koala_would(self):
        with self.assertRaises(ValueError):
            framework_jdf("x", ("python3", []), ("/bin/true", []))
        with self.assertRaises(ValueError):
            framework_jdf("x", ("/bin/true", []), ("/bin/true", []), settings={"f max": 3})
        with self.assertRaises(ValueError):
            framework_jdf("x", ("/bin/true", []), ("/bin/true", []), workers=-1)


class WriteJdfTest(unittest.TestCase):
    def test_the_koala_home_it_makes_is_its_users_alone(self):
        home = Path(tempfile.mkdtemp(prefix="koala-home-test-"))
        self.addCleanup(shutil.rmtree, home)
        path = framework.write_jdf("&(executable = /bin/true)\n", home / ".koala" / "dask", "dask")
        # ~/.koala as Python would make it with mkdir(parents=True) is 0755; the README says 0700
        self.assertEqual(0o700, (home / ".koala").stat().st_mode & 0o777)
        self.assertEqual(0o700, (home / ".koala" / "dask").stat().st_mode & 0o777)
        self.assertEqual(home / ".koala" / "dask", path.parent)


class KoalaCliTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="koala-cli-test-"))
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.koala = fakecli.write(self.dir)
        self.jdf = self.dir / "x.jdf"
        self.jdf.write_text("+( &(jobType = framework) )\n")

    def cli(self, **extra):
        return KoalaCli(self.koala, env=fakecli.environment(self.dir, "http://127.0.0.1:7501", "tok", 31, **extra))

    def test_submit_reads_the_instance_its_runner_and_state_file(self):
        seen = []
        submitted = self.cli().submit(self.jdf, on_line=seen.append)
        self.assertEqual(31, submitted.instance)
        self.assertEqual("http://127.0.0.1:7501", submitted.runner_url)
        self.assertEqual(self.dir / "home" / "runners" / "runner-31.json", submitted.state_file)
        self.assertEqual(self.dir / "home" / "runners" / "runner-31.log", submitted.log)
        self.assertEqual("RUNNING", submitted.state)
        self.assertEqual(seen, submitted.lines)
        self.assertEqual([["submit", str(self.jdf)]], fakecli.calls(self.dir))

    def test_an_invalid_jdf_is_an_error_with_koalas_message(self):
        with self.assertRaises(KoalaCliError) as caught:
            self.cli(submit="invalid").submit(self.jdf)
        self.assertEqual(2, caught.exception.returncode)
        self.assertIn("fMax: 'many' is not a positive whole number", str(caught.exception))
        self.assertIsNone(caught.exception.instance)

    def test_a_failed_deployment_names_the_instance(self):
        with self.assertRaises(KoalaCliError) as caught:
            self.cli(submit="failed").submit(self.jdf)
        self.assertEqual((1, 31), (caught.exception.returncode, caught.exception.instance))
        self.assertIn("instance 31 FAILED", str(caught.exception))

    def test_a_submit_past_its_time_out_is_stopped_and_names_the_instance(self):
        started = time.monotonic()
        with self.assertRaises(KoalaCliError) as caught:
            self.cli(submit="hang").submit(self.jdf, timeout=1.5)
        self.assertLess(time.monotonic() - started, 8)
        self.assertIsNone(caught.exception.returncode)
        self.assertEqual(31, caught.exception.instance)

    def test_framework_json_and_cancel(self):
        cli = self.cli(master="fs0-n3:40123")
        self.assertEqual({"node": "31.0.0", "address": "fs0-n3:40123"}, cli.framework(31)["master"])
        self.assertEqual("job 31 CANCELLED", cli.cancel(31))
        self.assertEqual([["framework", "31", "--json"], ["cancel", "31"]], fakecli.calls(self.dir))


if __name__ == "__main__":
    unittest.main()


class LocalSiteTest(unittest.TestCase):
    """Where a client on the KOALA host may put a master it talks to: a site whose nodes it reaches."""

    def write(self, text):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        path = os.path.join(d, "grid.properties")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_the_first_local_site_when_the_grid_has_remote_ones(self):
        path = self.write("grid.sites = fs2, fs0, fs1\nsite.fs2.ssh.host = fs2-head\nsite.fs0.sge.cell = fs0\n")
        self.assertEqual("fs0", framework.local_site(path))

    def test_none_when_every_site_is_local_or_none_is(self):
        self.assertIsNone(framework.local_site(self.write("grid.sites = fs0, fs1\n")))
        self.assertIsNone(framework.local_site(self.write("grid.sites = fs2\nsite.fs2.ssh.host = h\n")))

    def test_the_master_alone_is_pinned(self):
        text = framework.framework_jdf("d", ("/bin/m", []), ("/bin/w", []), master_site="fs0")
        self.assertEqual(1, text.count("resourceManagerContact"))
        self.assertIn("(role = master)", text.split("resourceManagerContact")[0])
