"""``--health-port``: the health service alone, on a port of its own.

gRPC caps connections per listening port (``--max-connections``): once
clients hold every connection of the main port, a probe's new connection
is refused there, and an orchestrator would restart a server that is
only busy.  On a port of its own, the health service (the same one, so
the same statuses) has a cap of its own.  Plaintext (probes such as
Kubernetes' gRPC probe speak no TLS) and health only: nothing else is
served there."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health_pb2_grpc

from .headers import MetadataLimit
from .health import HealthService
from .lifecycle import StartupError, host_port
from .observability import Observer
from .options import ServeOptions


def health_server(options: ServeOptions, health: HealthService, observer: Observer,
                  channel_options: list[tuple[str, int]]) -> grpc.aio.Server | None:
    """The health-only server, bound and not yet started; None without ``--health-port``."""
    if options.health_port is None:
        return None
    server = grpc.aio.server(interceptors=[MetadataLimit(observer)], options=channel_options)
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    address = host_port(options.host, options.health_port)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError:  # grpcio: "Failed to bind to address ..."
        port = 0
    if port == 0:
        raise StartupError(f"cannot listen on {address} (--health-port)")
    return server
