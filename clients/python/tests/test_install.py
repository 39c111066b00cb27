"""The package installs with pip into a fresh virtual environment of Debian's Python, offline:
the build backend is Debian's setuptools (python3-setuptools, python3-wheel), which the
environment sees with ``--system-site-packages`` and pip uses with ``--no-build-isolation``."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

import waymark

PACKAGE = pathlib.Path(__file__).resolve().parents[1]
DEBIAN_PYTHON = "/usr/bin/python3"


class Install(unittest.TestCase):
    def test_pip_installs_it_into_a_venv(self) -> None:
        with tempfile.TemporaryDirectory(prefix="waymark-python-venv-") as directory:
            # Debian's pip comes with the system site packages (ensurepip would take a minute).
            subprocess.run([DEBIAN_PYTHON, "-m", "venv", "--system-site-packages", "--without-pip", directory], check=True)
            python = os.path.join(directory, "bin", "python")
            # A copy of the sources: pip builds in the tree it is given.
            sources = shutil.copytree(PACKAGE, os.path.join(directory, "sources"), ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
            environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
            environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
            subprocess.run(
                [python, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", sources],
                check=True,
                env=environment,
                cwd=directory,
            )
            imported = subprocess.run(
                [python, "-c", "import waymark; print(waymark.__file__); print(waymark.__version__, waymark.PROTOCOL_VERSION)"],
                check=True,
                env=environment,
                cwd=directory,
                capture_output=True,
                text=True,
            ).stdout.splitlines()
        self.assertTrue(imported[0].startswith(directory + "/lib/"), imported)
        self.assertEqual(imported[1], f"0.1.0 {waymark.PROTOCOL_VERSION}")


if __name__ == "__main__":
    unittest.main()
