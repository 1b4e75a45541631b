"""One server process: the gRPC server built from the options, served until
SIGTERM/SIGINT, then drained and stopped."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from concurrent import futures

import grpc
import numpy as np
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from ..evaluator import evaluator_for
from ..rules import Rules
from .auth import BearerTokenAuth, read_tokens
from .heap import keep_the_heap_compact
from .lifecycle import configure_logging, log, write_port_file
from .observability import Metrics, Observer
from .options import ServeOptions
from .registration import HEALTH_SERVICE_NAME, SERVICE_NAME, add_service
from .servicer import PrialService
from .tls import server_credentials


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
    ]
    if options.max_connection_idle_s is not None:
        opts.append(("grpc.max_connection_idle_ms", ms(options.max_connection_idle_s)))
    if options.max_connection_age_s is not None:
        opts.append(("grpc.max_connection_age_ms", ms(options.max_connection_age_s)))
    if options.max_connection_age_grace_s is not None:
        opts.append(("grpc.max_connection_age_grace_ms", ms(options.max_connection_age_grace_s)))
    return opts


def build_server(options: ServeOptions) -> tuple[grpc.Server, int, health.HealthServicer, Observer]:
    """A started-ready (not yet started) server: service, health, reflection."""
    metrics = Metrics()
    observer = Observer(metrics, options.log_calls)
    interceptors = []
    if options.auth_token_file:
        interceptors.append(BearerTokenAuth(read_tokens(options.auth_token_file), observer))
    workers = options.worker_threads()
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="prial-rpc"),
        interceptors=interceptors,
        options=channel_options(options),
        # Beyond this many calls in flight new calls get RESOURCE_EXHAUSTED
        # instead of queueing without bound behind busy workers.
        maximum_concurrent_rpcs=options.max_concurrent_rpcs or max(100, 4 * workers),
    )
    add_service(PrialService(options, observer), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, HEALTH_SERVICE_NAME, reflection.SERVICE_NAME), server)
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    address = f"{options.host}:{options.port}"
    credentials = server_credentials(options)
    if credentials is None:
        port = server.add_insecure_port(address)
    else:
        port = server.add_secure_port(address, credentials)
    if port == 0:
        raise OSError(f"cannot listen on {address}")
    return server, port, health_servicer, observer


def serve_process(options: ServeOptions, *, ready_fd: int | None = None, process_index: int = 0) -> int:
    """Runs one server until SIGTERM/SIGINT, then shuts down gracefully.

    Shutdown: health turns NOT_SERVING, calls are still taken for
    ``drain_seconds`` (so balancers see the change), then new calls are
    refused and calls in flight get ``grace_seconds`` to finish.  Exit 0.
    """
    configure_logging()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    server, port, health_servicer, observer = build_server(options)
    keep_the_heap_compact(stop, lambda: observer.calls_finished)
    # Warm the default tables (three, four and five cards) before SERVING.
    default = evaluator_for(Rules())
    for width in (4, 5):
        default.best_of_batch(np.arange(width, dtype=np.uint8).reshape(1, width))
    server.start()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    if options.metrics_port is not None and options.processes <= 1:
        observer.metrics.serve(options.host, options.metrics_port)
    log.info(json.dumps({"event": "serving", "host": options.host, "port": port, "pid": os.getpid(),
                         "process": process_index, "tls": bool(options.tls_cert),
                         "auth": bool(options.auth_token_file)}))
    if ready_fd is not None:
        os.write(ready_fd, b"1")
        os.close(ready_fd)
    elif options.port_file:
        write_port_file(options.port_file, port)

    while not stop.wait(0.5):
        pass
    log.info(json.dumps({"event": "stopping", "pid": os.getpid(), "grace_s": options.grace_seconds}))
    health_servicer.enter_graceful_shutdown()
    if options.drain_seconds > 0:
        time.sleep(options.drain_seconds)
    server.stop(options.grace_seconds).wait()
    observer.close()  # the last calls' log lines
    log.info(json.dumps({"event": "stopped", "pid": os.getpid()}))
    # Done: a repeated signal must not kill the exit (at interpreter
    # shutdown Python's own handlers are gone and SIGTERM would be fatal).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return 0
