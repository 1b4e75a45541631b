"""The pre-fork supervisor of ``prial serve --processes N``.

This module imports no gRPC: the supervisor forks its N server processes
before any gRPC object (or thread) exists in it, as gRPC requires, and each
child then builds its own server on the shared port (SO_REUSEPORT: the
kernel spreads connections over the processes).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import tempfile
from dataclasses import replace

from .lifecycle import configure_logging, log, write_port_file
from .options import ServeOptions


def serve(options: ServeOptions) -> int:
    """Run ``prial serve``: one process, or a supervisor of N forked ones."""
    configure_logging()
    if options.processes <= 1:
        from .process import serve_process

        return serve_process(options)
    return _supervise(options)


def _reserve_port(host: str) -> socket.socket:
    """A free port for ``--port 0``, held (bound, not listening) with
    SO_REUSEPORT so the children can bind it too."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, 0))
    return sock


def _supervise(options: ServeOptions) -> int:
    reserved = _reserve_port(options.host) if options.port == 0 else None
    port = reserved.getsockname()[1] if reserved else options.port
    metrics_dir = None
    if options.metrics_port is not None:
        # Children write their metrics to files here; the supervisor serves
        # the sum.  Must be set before prometheus_client is first imported.
        metrics_dir = tempfile.mkdtemp(prefix="prial-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    ready_r, ready_w = os.pipe()
    child_options = replace(options, port=port)
    children: list[int] = []
    for index in range(options.processes):
        pid = os.fork()
        if pid == 0:  # child: its own server, nothing of the parent's but the pipe
            os.close(ready_r)
            if reserved is not None:
                reserved.close()
            code = 1
            try:
                from .process import serve_process

                code = serve_process(child_options, ready_fd=ready_w, process_index=index)
            except BaseException:  # noqa: BLE001 - a child must never return into the parent's code
                log.exception("server process %d failed", index)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        children.append(pid)
    os.close(ready_w)

    stopping = False

    def forward(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)

    ready = 0
    with os.fdopen(ready_r, "rb", buffering=0) as pipe:
        while ready < options.processes:
            chunk = pipe.read(options.processes - ready)
            if not chunk:  # every child closed its end: some died before serving
                break
            ready += len(chunk)
    if reserved is not None:
        reserved.close()
    if ready == options.processes:
        if options.metrics_port is not None:
            _serve_multiprocess_metrics(options.host, options.metrics_port)
        log.info('{"event": "serving", "port": %d, "processes": %d}', port, options.processes)
        if options.port_file:
            write_port_file(options.port_file, port)
    else:
        log.error('{"event": "failed", "started": %d, "processes": %d}', ready, options.processes)
        forward(signal.SIGTERM, None)

    status = 0
    alive = set(children)
    while alive:
        try:
            pid, wait_status = os.wait()
        except InterruptedError:
            continue
        except ChildProcessError:
            break
        alive.discard(pid)
        code = os.waitstatus_to_exitcode(wait_status)
        if code != 0 or not stopping:
            # A child that dies on its own leaves the service short: stop all.
            log.error('{"event": "child_exit", "pid": %d, "code": %d}', pid, code)
            status = 1
            if not stopping:
                forward(signal.SIGTERM, None)
    if metrics_dir:
        for name in os.listdir(metrics_dir):
            os.unlink(os.path.join(metrics_dir, name))
        os.rmdir(metrics_dir)
    return status if ready == options.processes else 1


def _serve_multiprocess_metrics(host: str, port: int) -> None:
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    start_http_server(port, addr=host, registry=registry)
