"""``prial serve``: the gRPC service."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..service.options import ServeOptions

from .common import PORT, POSITIVE, seconds, whole


def cmd_serve(args: argparse.Namespace) -> int:
    """Exit 0 after a SIGTERM/SIGINT drained every process, 1 if one did not
    stop cleanly, the server cannot listen or a file an option names will
    not do (one line on stderr), 2 for options that cannot go together
    (``prial``'s handler, one line)."""
    from ..service.lifecycle import StartupError
    from ..service.supervisor import serve

    try:
        return serve(serve_options(args))
    except StartupError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return 1


def serve_options(args: argparse.Namespace) -> ServeOptions:
    from ..service.options import ServeOptions

    return ServeOptions(
        host=args.host, port=args.port, workers=args.workers, processes=args.processes,
        threads_per_call=args.threads_per_call, max_batch=args.max_batch,
        max_stream_batches=args.max_stream_batches,
        max_message_bytes=args.max_message_mb << 20, max_concurrent_rpcs=args.max_concurrent_rpcs,
        max_bytes_in_flight=args.max_bytes_in_flight_mb << 20, idle_timeout_s=args.idle_timeout,
        max_streams_per_connection=args.max_streams_per_connection,
        tls_cert=args.tls_cert, tls_key=args.tls_key, tls_client_ca=args.tls_client_ca,
        auth_token_file=args.auth_token_file, metrics_port=args.metrics_port,
        grace_seconds=args.grace, drain_seconds=args.drain,
        keepalive_time_s=args.keepalive_time, keepalive_timeout_s=args.keepalive_timeout,
        max_connection_idle_s=args.max_connection_idle, max_connection_age_s=args.max_connection_age,
        max_connection_age_grace_s=args.max_connection_age_grace,
        port_file=args.port_file, log_calls=not args.no_call_log,
    )


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser(
        "serve", help="run the gRPC service prial.v1.Prial",
        description="Serve prial.v1.Prial with health checking and reflection. SIGTERM/SIGINT: "
                    "health turns NOT_SERVING, calls in flight finish within --grace, exit 0.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    serve.add_argument("--port", type=PORT, default=50051, help="port (default 50051; 0 picks a free one)")
    serve.add_argument("--port-file", help="write the bound port here once serving (useful with --port 0)")
    serve.add_argument("--workers", type=POSITIVE,
                       help="threads per process for native work, beside the event loop that answers "
                            "small calls, health and idle streams (default one per core)")
    serve.add_argument("--processes", type=POSITIVE, default=1,
                       help="pre-forked server processes sharing the port via SO_REUSEPORT (default 1)")
    serve.add_argument("--threads-per-call", type=POSITIVE, default=1,
                       help="native threads per batch (default 1: a 1M-hand batch takes well under a "
                            "millisecond in C++, and calls in parallel use the other cores)")
    serve.add_argument("--max-batch", type=POSITIVE, default=1 << 20,
                       help="hands per batch; more -> RESOURCE_EXHAUSTED (default 1,048,576)")
    serve.add_argument("--max-stream-batches", type=POSITIVE, default=1 << 20,
                       help="batches per EvaluateStream call; more -> RESOURCE_EXHAUSTED (default 1,048,576)")
    serve.add_argument("--max-message-mb", type=whole(1, 2047), default=64,
                       help="largest message either way, MiB (default 64: a 1M-hand 5-card batch is ~5 MiB)")
    serve.add_argument("--max-concurrent-rpcs", type=POSITIVE,
                       help="calls in flight per method and process (a stream from its first message to its "
                            "end); more -> RESOURCE_EXHAUSTED; health checks are never refused "
                            "(default 8 x workers, at least 64)")
    serve.add_argument("--max-bytes-in-flight-mb", type=POSITIVE, default=256,
                       help="memory for the work in flight per process, MiB (a request counts ten times its "
                            "size; see docs/service.md); a request past it -> RESOURCE_EXHAUSTED (default 256)")
    serve.add_argument("--idle-timeout", type=seconds(above=True), default=30.0,
                       help="seconds a call may wait for its (next) request message; then DEADLINE_EXCEEDED "
                            "(default 30)")
    serve.add_argument("--max-streams-per-connection", type=POSITIVE, default=100,
                       help="HTTP/2 streams one connection may hold open (default 100)")
    tls = serve.add_argument_group("security")
    tls.add_argument("--tls-cert", help="PEM certificate chain: serve TLS")
    tls.add_argument("--tls-key", help="PEM private key for --tls-cert")
    tls.add_argument("--tls-client-ca", help="PEM CA bundle: require client certificates (mutual TLS)")
    tls.add_argument("--auth-token-file", help="bearer tokens, one a line: calls without one get UNAUTHENTICATED "
                                               "(health checks are exempt)")
    ops = serve.add_argument_group("operations")
    ops.add_argument("--metrics-port", type=PORT, help="serve Prometheus metrics on this port (on --host)")
    ops.add_argument("--grace", type=seconds(), default=10.0, help="seconds calls in flight get at shutdown (default 10)")
    ops.add_argument("--drain", type=seconds(), default=0.0,
                     help="seconds to keep serving after health turns NOT_SERVING at shutdown (default 0)")
    ops.add_argument("--keepalive-time", type=seconds(above=True), default=60.0, help="seconds between keepalive pings (default 60)")
    ops.add_argument("--keepalive-timeout", type=seconds(above=True), default=20.0, help="seconds to wait for a ping ack (default 20)")
    ops.add_argument("--max-connection-idle", type=seconds(above=True), help="close connections idle this many seconds")
    ops.add_argument("--max-connection-age", type=seconds(above=True), help="close connections older than this many seconds")
    ops.add_argument("--max-connection-age-grace", type=seconds(), help="seconds calls get on an aged-out connection")
    ops.add_argument("--no-call-log", action="store_true", help="no per-call log line")
    serve.set_defaults(func=cmd_serve)
