"""The real waymarkd for the tests: the binary named by ``$WAYMARKD`` (Scripts/test-python sets
it; by default the debug build of this checkout), run on the simulated board with a scenario of
the test's own on a socket in a fresh directory."""

from __future__ import annotations

import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]
BINARY = os.environ.get("WAYMARKD") or str(ROOT / ".build" / "debug" / "waymarkd")

#: A walk that ends on a desk: updates flow, then one update with ``is_stationary``.
WALK_THEN_DESK = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\nwalk 20s heading=90\ndesk 1h\n"


class Waymarkd:
    """waymarkd on ``scenario`` at ``speed``; ``socket`` is where it listens. Stop it with
    ``stop()`` (SIGTERM); ``start()`` runs it again on the same socket."""

    def __init__(
        self, scenario: str = WALK_THEN_DESK, speed: float = 10, socket_path: str | None = None, arguments: tuple[str, ...] = ()
    ) -> None:
        self.directory = tempfile.mkdtemp(prefix="waymark-python-")
        os.chmod(self.directory, 0o755)
        self.socket = socket_path or os.path.join(self.directory, "waymark.sock")
        self.scenario = os.path.join(self.directory, "test.scenario")
        with open(self.scenario, "w") as file:
            file.write(scenario)
        self.speed = speed
        self.arguments = arguments
        self.log = os.path.join(self.directory, "waymarkd.log")
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [BINARY, "--socket", self.socket, "--scenario", self.scenario, "--speed", str(self.speed), *self.arguments],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                    probe.connect(self.socket)
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.02)
        raise RuntimeError(f"waymarkd did not start: {open(self.log).read()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def version(self) -> str:
        return subprocess.run([BINARY, "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]
