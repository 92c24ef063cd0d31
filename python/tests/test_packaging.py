"""The installable package: pip installs python/ offline with Debian's setuptools (pyproject.toml)."""

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]


@unittest.skipUnless(importlib.util.find_spec("pip") and importlib.util.find_spec("setuptools")
                     and importlib.util.find_spec("wheel"),
                     "needs Debian's python3-pip (with python3-setuptools and python3-wheel); "
                     "bin/koala testbed up --programs installs it")
class PipInstallTest(unittest.TestCase):
    def setUp(self):
        self.work = Path(tempfile.mkdtemp(prefix="koala-pip-"))
        self.addCleanup(shutil.rmtree, self.work)

    def test_pip_installs_every_module_as_koala_grid_without_the_network(self):
        # a copy, as the checkout's python/ would be left with setuptools' build/ and egg-info
        source = self.work / "source"
        shutil.copytree(PYTHON_DIR, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        target = self.work / "target"
        pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index",
                              "--disable-pip-version-check", "--target", str(target), str(source)],
                             capture_output=True, text=True, timeout=300)
        self.assertEqual(pip.returncode, 0, pip.stdout + pip.stderr)

        modules = sorted(p.name for p in (PYTHON_DIR / "koala").glob("*.py"))
        self.assertEqual(sorted(p.name for p in (target / "koala").glob("*.py")), modules)
        self.assertEqual(sorted(p.name for p in target.iterdir() if not p.name.startswith("koala_grid-")),
                         ["koala"], "only the package koala: no tests, no testbed programs")

        # the installed copy, not the checkout's: the metadata's name and the runner client
        probe = ("import sys; sys.path.insert(0, sys.argv[1]); "
                 "import importlib.metadata as m, koala.runner, koala.framework; "
                 "print(m.metadata('koala-grid')['Name'], koala.runner.__file__)")
        found = subprocess.run([sys.executable, "-I", "-c", probe, str(target)], capture_output=True, text=True,
                               timeout=60, cwd=self.work)
        self.assertEqual(found.returncode, 0, found.stderr)
        self.assertEqual(found.stdout.split(), ["koala-grid", str(target / "koala" / "runner.py")])


if __name__ == "__main__":
    unittest.main()
