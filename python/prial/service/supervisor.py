"""The pre-fork supervisor of ``prial serve --processes N``.

This module imports no gRPC: the supervisor forks its N server processes
before any gRPC object (or thread) exists in it, as gRPC requires, and each
child then builds its own server on the shared port (SO_REUSEPORT: the
kernel spreads connections over the processes).

Each child has a status pipe to the supervisor: ``1`` once it serves, or
``C``/``E`` and a one-line message if it cannot start (a configuration
error, or anything else such as a taken address).  A start-up failure stops
the whole command with that message: it is not retried.  A child that dies
after it served (killed, crashed) is restarted after a backoff, while the
others keep serving; the supervisor itself exits only on SIGTERM/SIGINT,
which it forwards to the children and waits for them to drain.  SIGHUP is
forwarded too: each child reloads its certificate and tokens.  A child is
sent SIGTERM by the kernel if the supervisor dies, even by SIGKILL: no
child serves on unsupervised.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from .._core import __version__
from ..errors import ConfigurationError
from .lifecycle import (
    RELOAD_SIGNAL,
    STOP_SIGNALS,
    StartupError,
    bind_sockets,
    check_address,
    check_files,
    ignore_reloads,
    log,
    open_files_limit,
    raise_open_files_limit,
    startup_failure,
    stop_with_parent,
    write_port_file,
)
from .jsonlog import configure_logging, leave_relay, relay_stderr, restore_stderr
from .metrics_http import MetricsEndpoint
from .options import ServeOptions


def serve(options: ServeOptions) -> int:
    """Run ``prial serve``: one process, or a supervisor of N forked ones.

    A server that cannot start raises ConfigurationError (a file an option
    names) or StartupError (the address), each with a one-line message."""
    configure_logging()
    ignore_reloads()
    raise_open_files_limit()  # before forking: the children inherit it
    check_files(options)
    relay_stderr()  # gRPC core's lines too, as JSON
    try:
        if options.processes > 1:
            return Supervisor(options).run()
        for port in (options.port, options.health_port):
            if port:
                check_address(options.host, port, reuse_port=False)
        from .process import serve_process

        try:
            return serve_process(options)
        except Exception as exc:
            failure = startup_failure(exc, options)
            if failure is None:
                raise
            raise failure from None
    finally:
        restore_stderr()  # a start-up failure is the command's one plain line


@dataclass
class Backoff:
    """The delay before restarting a child that died: ``start`` seconds,
    doubling with each death of a child that served less than ``stable``
    seconds, up to ``limit``; back to ``start`` after one that served longer."""

    start: float = 0.1
    limit: float = 5.0
    stable: float = 10.0
    _next: float = 0.0

    def delay(self, served_s: float) -> float:
        if served_s >= self.stable or self._next == 0.0:
            self._next = self.start
        delay = self._next
        self._next = min(2 * delay, self.limit)
        return delay


@dataclass
class _Child:
    """One of the N server slots and the process in it, if any."""

    index: int
    backoff: Backoff
    pid: int | None = None
    status_fd: int | None = None  # read end of the child's status pipe
    status: bytes = b""
    serving_since: float | None = None
    restart_at: float | None = None  # when to fork a replacement
    previous_pid: int | None = None
    restart_delay: float = 0.0
    restarts: int = 0


def _event(level: int, event: str, **fields: Any) -> None:
    log.log(level, json.dumps({"event": event, **fields}))


def _describe(code: int) -> str:
    return f"killed by signal {-code}" if code < 0 else f"exit code {code}"


class Supervisor:
    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.children = [_Child(i, Backoff()) for i in range(options.processes)]
        self.stop_signal: int | None = None  # the SIGTERM/SIGINT received
        self.forwarded = False
        self.reloads = 0  # SIGHUPs received, not yet forwarded
        self.failure: ConfigurationError | StartupError | None = None
        self.announced = False
        self.clean = True  # every child stopped by us exited 0
        self.reserved: list[socket.socket] = []
        self.metrics_dir: str | None = None
        self.metrics_server: MetricsEndpoint | None = None
        self.wake_r = self.wake_w = -1

    # -- the parent ---------------------------------------------------------

    def run(self) -> int:
        options = self.options
        # The port, held (bound, not listening, SO_REUSEPORT) for the
        # supervisor's lifetime: a taken address fails here, before any fork,
        # ``--port 0`` gets its number, and a restarted child always gets it back.
        self.reserved = bind_sockets(options.host, options.port, reuse_port=True)
        self.port = self.reserved[0].getsockname()[1]
        if options.health_port is not None:
            self.reserved += bind_sockets(options.host, options.health_port, reuse_port=True)
        self.child_options = replace(options, port=self.port)
        if options.metrics_port is not None:
            # Children write their metrics to files here; the supervisor serves
            # the sum.  Must be set before prometheus_client is first imported.
            self.metrics_dir = tempfile.mkdtemp(prefix="prial-metrics-")
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = self.metrics_dir
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        previous = {s: signal.signal(s, self._on_signal) for s in _HANDLED}
        old_wakeup = signal.set_wakeup_fd(self.wake_w)
        try:
            if options.metrics_port is not None:  # a taken port fails here, before any fork
                self.metrics_server = _serve_multiprocess_metrics(options.host, options.metrics_port)
            for child in self.children:
                self._start(child)
            while self._step():
                pass
        finally:
            signal.set_wakeup_fd(old_wakeup)
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            self._cleanup()
        if self.failure is not None:
            raise self.failure
        return 0 if self.clean else 1

    def _on_signal(self, signum: int, _frame: object) -> None:
        if signum == RELOAD_SIGNAL:
            self.reloads += 1
        if signum in STOP_SIGNALS:
            if self.stop_signal is None:
                self.stop_signal = signum
            self.forwarded = False  # forward this one too (a second Ctrl-C)

    def _live(self) -> list[_Child]:
        return [c for c in self.children if c.pid is not None]

    def _step(self) -> bool:
        """One turn of the loop: signals, status pipes, exits, restarts.
        False once every child is gone after a stop or a failure."""
        stopping = self.stop_signal is not None or self.failure is not None
        if stopping and not self.forwarded:
            self.forwarded = True
            for child in self.children:
                child.restart_at = None  # no more restarts
                if child.pid is not None:
                    self._kill(child, self.stop_signal or signal.SIGTERM)
        if stopping and not self._live():
            return False
        if self.reloads and not stopping:
            self.reloads = 0
            live = self._live()
            for child in live:
                self._kill(child, RELOAD_SIGNAL)
            _event(20, "reload_forwarded", pids=[c.pid for c in live])
        now = time.monotonic()
        due = [c.restart_at for c in self.children if c.restart_at is not None]
        timeout = max(0.0, min([1.0, *(t - now for t in due)]))
        fds = [self.wake_r, *(c.status_fd for c in self.children if c.status_fd is not None)]
        readable, _, _ = select.select(fds, [], [], timeout)
        if self.wake_r in readable:
            self._drain(self.wake_r)
        for child in self.children:
            if child.status_fd in readable:
                self._read_status(child)
        self._reap()
        if not self.announced and self.failure is None and all(c.serving_since for c in self.children):
            self._announce()
        if self.stop_signal is None and self.failure is None:
            now = time.monotonic()
            for child in self.children:
                if child.restart_at is not None and child.restart_at <= now:
                    child.restart_at = None
                    child.restarts += 1
                    self._start(child)
                    _event(20, "child_restart", process=child.index, pid=child.pid,
                           previous_pid=child.previous_pid, delay_s=child.restart_delay,
                           restarts=child.restarts)
        return True

    @staticmethod
    def _drain(fd: int) -> bytes:
        data = b""
        for _ in range(64):  # a status is a few hundred bytes; the wakeup pipe, signal numbers
            try:
                chunk = os.read(fd, 4096)
            except BlockingIOError:
                break
            if not chunk:
                break
            data += chunk
        return data

    def _read_status(self, child: _Child) -> None:
        assert child.status_fd is not None
        try:
            chunk = os.read(child.status_fd, 4096)
        except BlockingIOError:
            return
        if not chunk:  # the child closed it (it serves, or it is gone)
            os.close(child.status_fd)
            child.status_fd = None
            return
        if not child.status and chunk[:1] == b"1":
            child.serving_since = time.monotonic()
        child.status += chunk

    def _kill(self, child: _Child, signum: int) -> None:
        try:
            os.kill(child.pid, signum)  # type: ignore[arg-type]
        except ProcessLookupError:
            pass

    def _reap(self) -> None:
        for _ in range(len(self.children)):
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            child = next((c for c in self.children if c.pid == pid), None)
            if child is not None:
                self._exited(child, os.waitstatus_to_exitcode(wait_status))

    def _exited(self, child: _Child, code: int) -> None:
        if child.status_fd is not None:  # the rest of its status (the writer is gone: no wait)
            os.set_blocking(child.status_fd, False)
            child.status += self._drain(child.status_fd)
            os.close(child.status_fd)
            child.status_fd = None
        pid, status, serving_since = child.pid, child.status, child.serving_since
        child.pid, child.status, child.serving_since = None, b"", None
        if self.metrics_dir:
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(pid, self.metrics_dir)
        served = status[:1] == b"1"
        if self.stop_signal is not None:
            # Stopping: exit 0 after draining, or killed by the forwarded signal
            # before it had installed its handler (nothing to drain).
            if code != 0 and not (not served and code == -self.stop_signal):
                self.clean = False
                _event(40, "child_exit", process=child.index, pid=pid, code=code)
            return
        if self.failure is not None:
            return
        if status[:1] in (b"C", b"E"):  # it said why it cannot start: stop everything
            self.failure = _failure_from(status)
            return
        if not served and not self.announced:
            self.failure = StartupError(
                f"server process {child.index} ({pid}) did not start: {_describe(code)}")
            return
        # It died on its own after serving (or during a restart): restart it.
        served_s = time.monotonic() - serving_since if serving_since is not None else 0.0
        child.restart_delay = child.backoff.delay(served_s)
        child.restart_at = time.monotonic() + child.restart_delay
        child.previous_pid = pid
        _event(40, "child_exit", process=child.index, pid=pid, code=code,
               served_s=round(served_s, 3), restart_in_s=child.restart_delay)

    def _announce(self) -> None:
        self.announced = True
        options = self.options
        _event(20, "serving", version=__version__, port=self.port, processes=options.processes, open_files=open_files_limit())
        if options.port_file:
            write_port_file(options.port_file, self.port)

    def _cleanup(self) -> None:
        for sock in self.reserved:
            sock.close()
        for fd in (self.wake_r, self.wake_w):
            if fd >= 0:
                os.close(fd)
        for child in self.children:
            if child.status_fd is not None:
                os.close(child.status_fd)
                child.status_fd = None
        if self.metrics_server is not None:
            self.metrics_server.close()
        if self.metrics_dir:
            for name in os.listdir(self.metrics_dir):
                os.unlink(os.path.join(self.metrics_dir, name))
            os.rmdir(self.metrics_dir)

    # -- forking ------------------------------------------------------------

    def _start(self, child: _Child) -> None:
        status_r, status_w = os.pipe()
        # No stop signal may run the parent's handler in the child between
        # fork and the child's own handlers.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _HANDLED)
        parent = os.getpid()
        try:
            pid = os.fork()
            if pid == 0:
                os.close(status_r)
                self._child_main(child.index, status_w, blocked, parent)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        os.close(status_w)
        os.set_blocking(status_r, False)
        child.pid, child.status_fd, child.status = pid, status_r, b""

    def _child_main(self, index: int, status_w: int, mask: set[int], parent: int) -> NoReturn:
        """The forked child: nothing of the parent's but its status pipe."""
        code = 1
        try:
            leave_relay()
            stop_with_parent(parent)
            signal.set_wakeup_fd(-1)
            for signum in (*STOP_SIGNALS, signal.SIGCHLD):
                signal.signal(signum, signal.SIG_DFL)
            ignore_reloads()  # until its server's handler: a SIGHUP now must not kill it
            for fd in (self.wake_r, self.wake_w, *(c.status_fd for c in self.children)):
                if fd is not None and fd >= 0:
                    os.close(fd)
            for sock in self.reserved:
                sock.close()
            if self.metrics_server is not None:
                self.metrics_server.close_listeners()
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            from .process import serve_process

            # serve_process writes "1" and closes its copy once serving; the
            # original stays open to report a failure.
            code = serve_process(self.child_options, ready_fd=os.dup(status_w), process_index=index)
        except BaseException as exc:  # noqa: BLE001 - a child must never return into the parent's code
            failure = startup_failure(exc, self.child_options)
            if failure is None:
                log.exception("server process %d failed", index)
                failure = StartupError(f"server process {index} failed: {type(exc).__name__}: {exc}")
            try:
                os.write(status_w, _failure_status(failure))
            except OSError:
                pass
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)


# The signals the supervisor handles (and blocks while it forks).
_HANDLED = (*STOP_SIGNALS, RELOAD_SIGNAL, signal.SIGCHLD)


def _serve_multiprocess_metrics(host: str, port: int) -> MetricsEndpoint:
    """The children's metrics summed, and the supervisor's own process_*
    series (a child's cannot be summed: each is one process's)."""
    from prometheus_client import CollectorRegistry, ProcessCollector
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    ProcessCollector(registry=registry)
    return MetricsEndpoint(registry, host, port)


def _failure_status(failure: ConfigurationError | StartupError) -> bytes:
    """What a child that cannot start writes on its status pipe: a kind
    (C for a ConfigurationError, E for a StartupError), the file at fault
    and a NUL, then the message on one line."""
    kind = b"C" if isinstance(failure, ConfigurationError) else b"E"
    file = (failure.file or "") if isinstance(failure, ConfigurationError) else ""
    return kind + os.fsencode(file) + b"\0" + " ".join(str(failure).split()).encode()


def _failure_from(status: bytes) -> ConfigurationError | StartupError:
    file, _, message = status[1:].partition(b"\0")
    text = message.decode(errors="replace").strip() or "server process failed to start"
    if status[:1] == b"C":
        return ConfigurationError(text, os.fsdecode(file) or None)
    return StartupError(text)
