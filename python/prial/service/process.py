"""One server process: the ``grpc.aio`` server built from the options,
served until SIGTERM/SIGINT, then drained and stopped, on time."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
from dataclasses import dataclass

import grpc
import numpy as np
from grpc_health.v1 import health_pb2, health_pb2_grpc

from .._core import __version__
from ..evaluator import evaluator_for, set_table_cache_limit
from ..rules import Rules
from . import reflection
from .auth import BearerTokenAuth
from .headers import METADATA_LIMIT, MetadataLimit
from .health import HealthService
from .heap import keep_the_heap_compact
from .jsonlog import configure_logging, restore_stderr
from .lifecycle import (
    RELOAD_SIGNAL,
    STOP_SIGNALS,
    StartupError,
    host_port,
    log,
    open_files_limit,
    write_port_file,
)
from .metrics_http import MetricsEndpoint
from .observability import Metrics, Observer
from .options import EXIT_MARGIN_S, ServeOptions
from .probes import health_server
from .registration import HEALTH_SERVICE_NAME, SERVICE_NAME, add_service
from .reload import Credentials
from .servicer import PrialService

HANDSHAKE_TIMEOUT_S = 10.0


def channel_options(options: ServeOptions) -> list[tuple[str, int]]:
    ms = lambda seconds: int(seconds * 1000)  # noqa: E731
    opts = [
        ("grpc.max_receive_message_length", options.max_message_bytes),
        ("grpc.max_send_message_length", options.max_message_bytes),
        # Several processes share the port only when asked; otherwise a second
        # server on a busy port fails instead of silently splitting traffic.
        ("grpc.so_reuseport", 1 if options.processes > 1 else 0),
        ("grpc.keepalive_time_ms", ms(options.keepalive_time_s)),
        ("grpc.keepalive_timeout_ms", ms(options.keepalive_timeout_s)),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 5000),
        # A client may hold this many streams open on one connection; it may
        # ping at most every 5 s without data, and is sent away after two
        # pings too many (a ping flood costs the server, not the client).
        ("grpc.max_concurrent_streams", options.max_streams_per_connection),
        ("grpc.http2.min_recv_ping_interval_without_data_ms", 5000),
        ("grpc.http2.max_ping_strikes", 2),
        # The header list a request may send, advertised and refused past
        # (soft = hard: no random refusals in between).  gRPC holds it only
        # to headers sent in one frame: prial.service.headers holds the rest.
        ("grpc.max_metadata_size", METADATA_LIMIT),
        ("grpc.absolute_max_metadata_size", METADATA_LIMIT),
        # A connection that has not finished its handshake (TLS, HTTP/2
        # preface) by then is closed: an idle TCP connection holds a file.
        ("grpc.server_handshake_timeout_ms", ms(HANDSHAKE_TIMEOUT_S)),
        ("grpc.max_connection_idle_ms", ms(options.max_connection_idle_s)),
        # Past the cap a new connection is closed at once (per listening
        # port); below the open-files limit, so that the server never runs
        # out of files itself and the connections it has keep answering.
        ("grpc.max_allowed_incoming_connections", options.connection_cap(open_files_limit())),
    ]
    if options.max_connection_age_s is not None:
        opts.append(("grpc.max_connection_age_ms", ms(options.max_connection_age_s)))
    if options.max_connection_age_grace_s is not None:
        opts.append(("grpc.max_connection_age_grace_ms", ms(options.max_connection_age_grace_s)))
    return opts


@dataclass
class Built:
    """A server process's parts: the server bound to its port, not yet
    started, the health-only server of ``--health-port`` if any, and what
    the process keeps of them."""

    server: grpc.aio.Server
    port: int
    health: HealthService
    observer: Observer
    service: PrialService
    secrets: Credentials  # reloaded on SIGHUP
    probes: grpc.aio.Server | None
    metrics: MetricsEndpoint | None


async def build_server(options: ServeOptions) -> tuple[grpc.aio.Server, int, HealthService, Observer,
                                                      PrialService]:
    """A configured, not yet started server (service, health, reflection)
    bound to its port, in the running event loop."""
    built = await _build(options)
    return built.server, built.port, built.health, built.observer, built.service


async def _build(options: ServeOptions) -> Built:
    metrics = Metrics()
    observer = Observer(metrics, options.log_calls)
    secrets = Credentials(options)
    interceptors: list[grpc.aio.ServerInterceptor] = [MetadataLimit(observer)]
    if options.auth_token_file:
        interceptors.append(BearerTokenAuth(secrets, observer))
    credentials = secrets.server_credentials()
    # No server-wide cap on calls: admission is per method
    # (prial.service.calls), so health checks always get through.
    server = grpc.aio.server(interceptors=interceptors, options=channel_options(options))
    service = PrialService(options, observer)
    add_service(service, server)
    health_servicer = HealthService()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable(server, (SERVICE_NAME, HEALTH_SERVICE_NAME))
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    address = host_port(options.host, options.port)
    try:
        port = server.add_insecure_port(address) if credentials is None else server.add_secure_port(address, credentials)
    except RuntimeError:  # grpcio: "Failed to bind to address ..."
        port = 0
    endpoint = None
    try:
        if port == 0:
            raise OSError(f"cannot listen on {address}")
        probes = health_server(options, health_servicer, observer, channel_options(options))
        if options.metrics_port is not None and options.processes <= 1:  # else the supervisor serves them
            endpoint = MetricsEndpoint(metrics.registry, options.host, options.metrics_port)
    except (OSError, StartupError):
        service.close()
        raise
    return Built(server, port, health_servicer, observer, service, secrets, probes, endpoint)


def serve_process(options: ServeOptions, *, ready_fd: int | None = None, process_index: int = 0) -> int:
    """Runs one server until SIGTERM/SIGINT, then shuts down gracefully;
    SIGHUP re-reads its certificate and tokens (prial.service.reload).

    Shutdown: health turns NOT_SERVING, calls are still taken for
    ``drain_seconds`` (so balancers see the change), then new calls are
    refused and calls in flight get ``grace_seconds`` to finish.  Exit 0,
    within drain + grace + 1 s of the signal whatever the calls do.
    """
    configure_logging()
    return asyncio.run(_serve(options, ready_fd, process_index))


async def _serve(options: ServeOptions, ready_fd: int | None, process_index: int) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop.set)
    try:
        return await _run(options, ready_fd, process_index, stop)
    finally:
        # Stopped or failed: a later signal must neither kill the exit (at
        # interpreter shutdown SIGTERM would be fatal) nor reach asyncio's
        # wakeup pipe, which the loop closes before it drops its handlers
        # (Python would print "Exception ignored ... Bad file descriptor").
        # Blocked meanwhile, a signal that comes is ignored once unblocked.
        handled = (*STOP_SIGNALS, RELOAD_SIGNAL)
        signal.pthread_sigmask(signal.SIG_BLOCK, handled)
        for signum in handled:
            loop.remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, handled)


async def _run(options: ServeOptions, ready_fd: int | None, process_index: int, stop: asyncio.Event) -> int:
    built = await _build(options)
    server, port, health_servicer, observer, service = built.server, built.port, built.health, built.observer, \
        built.service
    servers = [server] if built.probes is None else [server, built.probes]
    # Ignored until now (prial.service.lifecycle.ignore_reloads); a quick
    # read of a few files, on the event loop: calls in flight go on.
    asyncio.get_running_loop().add_signal_handler(RELOAD_SIGNAL, built.secrets.reload)
    watcher = asyncio.create_task(built.secrets.watch(options.reload_interval_s)) \
        if options.reload_interval_s > 0 else None
    trimmer = threading.Event()
    keep_the_heap_compact(trimmer, lambda: observer.calls_finished)
    set_table_cache_limit(options.table_cache_bytes)
    # Warm the default tables (three, four and five cards) before SERVING.
    default = evaluator_for(Rules())
    for width in (4, 5):
        default.best_of_batch(np.arange(width, dtype=np.uint8).reshape(1, width))
    for server in servers:
        await server.start()
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    serving = {"event": "serving", "version": __version__, "host": options.host, "port": port, "pid": os.getpid(),
               "process": process_index, "tls": bool(options.tls_cert), "auth": bool(options.auth_token_file),
               "health_port": options.health_port}
    if ready_fd is None:  # the one process: the supervisor's line says it for its children
        serving["open_files"] = open_files_limit()
    log.info(json.dumps(serving))
    if ready_fd is not None:
        os.write(ready_fd, b"1")
        os.close(ready_fd)
    elif options.port_file:
        write_port_file(options.port_file, port)

    await stop.wait()
    if watcher is not None:
        watcher.cancel()
    log.info(json.dumps({"event": "stopping", "pid": os.getpid(), "grace_s": options.grace_seconds}))
    _exit_by(options.shutdown_seconds - EXIT_MARGIN_S / 2, observer)
    await health_servicer.enter_graceful_shutdown()
    if options.drain_seconds > 0:
        await asyncio.sleep(options.drain_seconds)
    for server in servers:  # the main one first: health answers NOT_SERVING while it drains
        await server.stop(options.grace_seconds)  # then every call still running is cancelled
    await observer.settled(EXIT_MARGIN_S / 4)  # the cancelled calls' handlers end, and log their lines
    service.close()
    if built.metrics is not None:
        built.metrics.close()
    observer.close()  # the last calls' log lines
    trimmer.set()
    log.info(json.dumps({"event": "stopped", "pid": os.getpid()}))
    return 0


def _exit_by(seconds: float, observer: Observer) -> None:
    """Exits the process with 0 after ``seconds`` if it has not by then: work
    that outlives its cancelled call (a native loop, a parse) must not hold
    the exit up."""

    def expire() -> None:
        log.info(json.dumps({"event": "stopped", "pid": os.getpid(), "forced": True}))
        observer.close()
        restore_stderr()
        os._exit(0)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
