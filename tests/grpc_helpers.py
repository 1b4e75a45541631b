"""A real ``prial serve`` in a subprocess, for the gRPC tests."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path


class ServerProcess:
    """``python -m prial serve --port 0 ...``; the bound port is read from
    ``--port-file``.  stderr (the JSON log) goes to a file kept for asserts.

    With ``command``, the server is that command exactly, in the environment
    with ``env`` added and ``PRIAL_PORT_FILE`` naming the port file.
    The server logs as it would in production whatever this process was
    told: a ``GRPC_VERBOSITY`` inherited from it (``prial call`` run in a
    test sets ``NONE`` for its own process) is not passed on, only one given
    in ``env``.  ``preexec_fn`` runs in the child before it starts (limits to lower)."""

    def __init__(self, *args: str, host: str = "127.0.0.1", command: Sequence[str] | None = None,
                 env: Mapping[str, str] | None = None, preexec_fn: Callable[[], None] | None = None) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="prial-grpc-test-")
        self.dir = Path(self._dir.name)
        port_file = self.dir / "port"
        self.log_path = self.dir / "server.log"
        self._log = open(self.log_path, "wb")
        environ = {name: value for name, value in os.environ.items() if name != "GRPC_VERBOSITY"}
        environ.update(env or {})
        if command is None:
            command = [sys.executable, "-m", "prial", "serve", "--host", host, "--port", "0",
                       "--port-file", str(port_file), "--grace", "20", *args]
        else:
            environ["PRIAL_PORT_FILE"] = str(port_file)
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self._log, env=environ,
                                     preexec_fn=preexec_fn)
        deadline = time.monotonic() + 60
        while not port_file.exists():
            if self.proc.poll() is not None:
                raise RuntimeError(f"prial serve exited {self.proc.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                self.proc.kill()
                raise RuntimeError(f"prial serve did not start:\n{self.log()}")
            time.sleep(0.05)
        self.port = int(port_file.read_text())
        self.target = f"{host}:{self.port}"

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text()

    def wait_for_log(self, text: str, count: int = 1, timeout: float = 10) -> str:
        """The log once ``text`` appears ``count`` times (the server writes
        its per-call lines in batches, every 0.1 s)."""
        deadline = time.monotonic() + timeout
        while self.log().count(text) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not {count}x in the server log:\n{self.log()}")
            time.sleep(0.05)
        return self.log()

    def terminate(self, timeout: float = 30, *, signal_first: bool = True) -> int:
        """SIGTERM (unless already sent), then the exit status."""
        if signal_first and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()

    def close(self) -> None:
        self.terminate()
        self._log.close()
        self._dir.cleanup()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scrape(url: str) -> dict[str, float]:
    """Every sample of a Prometheus exposition, by its name and labels as
    written (``prial_requests_total{code="OK",method="Evaluate"}``)."""
    text = urllib.request.urlopen(url, timeout=10).read().decode()
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^(\S+(?:\{[^}]*\})?) (\S+)$", text, re.M)}


def scrape_until(url: str, ready: Callable[[dict[str, float]], bool], timeout: float = 10,
                 interval: float = 0.05) -> dict[str, float]:
    """The first scrape that is ``ready``, or the last of ``timeout`` s, one
    every ``interval`` s: a call's client has its answer a moment before the
    server has counted the call (its status is sent first), which a busy
    machine makes long."""
    deadline = time.monotonic() + timeout
    while not ready(samples := scrape(url)) and time.monotonic() < deadline:
        time.sleep(interval)
    return samples
