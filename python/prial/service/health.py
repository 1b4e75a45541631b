"""Standard health checking, ``grpc.health.v1.Health``: Check, List and Watch.

Watch streams stay open as long as their client wants (a client watching
for changes, as gRPC's client-side health checking does, holds one per
connection), so they are what a draining server must end itself: on
shutdown every watcher is sent NOT_SERVING and its stream is closed at
once, instead of holding the server's stop for its whole grace period.

Open for as long as that, they are also what a client could pile up: each
costs the server memory until it ends (20,000 took 158 MB).  So a process
holds at most ``WATCHES`` of them, ``WATCHES_PER_CONNECTION`` on one
connection, and with bearer tokens on, Watch needs one like any call
(prial.service.auth); Check and List, one answer each, stay open to
probes.  Watch streams are not ended after the idle timeout: a client
doing client-side health checking whose stream ends marks the server
down until its next Watch is answered, so ending them every 30 s would
take every such server out of its clients' rotation every 30 s.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from .calls import end

Status = health_pb2.HealthCheckResponse.ServingStatus
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
SERVICE_UNKNOWN = health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
# A connection watches the server ("") and perhaps a service or two.  Each
# Watch stream costs the server about 8 KB (20,000 took 158 MB).
WATCHES_PER_CONNECTION = 4
WATCHES = 1000


class HealthService(health_pb2_grpc.HealthServicer):
    """The statuses of the server ("") and its services, as ``set``."""

    def __init__(self, watches: int = WATCHES, watches_per_connection: int = WATCHES_PER_CONNECTION) -> None:
        self.watches = watches
        self.watches_per_connection = watches_per_connection
        self._watching: collections.Counter[str] = collections.Counter()  # Watch streams by connection (peer)
        self._watches_open = 0
        self._status: dict[str, Status] = {}
        # Replaced at every change, after waking whoever waited on it: a
        # watcher takes the current one before it reads a status, so no
        # change after that read goes unseen.
        self._changed = asyncio.Event()
        self._shutting_down = False

    async def set(self, service: str, status: Status) -> None:
        """Sets a service's status; ignored once shutting down."""
        if not self._shutting_down:
            self._change({service: status})

    async def enter_graceful_shutdown(self) -> None:
        """Every service NOT_SERVING for good; watchers are told, then their
        streams end (UNAVAILABLE), and later ones end after their first answer."""
        self._shutting_down = True
        self._change(dict.fromkeys(self._status, NOT_SERVING))

    def _change(self, statuses: dict[str, Status]) -> None:
        self._status.update(statuses)
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def Check(self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext) -> Any:
        status = self._status.get(request.service)
        if status is None:
            await end(context, grpc.StatusCode.NOT_FOUND, "unknown service")
            return None
        return health_pb2.HealthCheckResponse(status=status)

    async def List(self, request: health_pb2.HealthListRequest, context: grpc.aio.ServicerContext) -> Any:
        return health_pb2.HealthListResponse(
            statuses={name: health_pb2.HealthCheckResponse(status=status) for name, status in self._status.items()})

    async def Watch(self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext) -> None:
        """The service's status now, then each change of it (a status
        unchanged since the last answer is not sent again), within the
        limits of Watch streams."""
        peer = context.peer()
        if self._watches_open >= self.watches:
            await end(context, grpc.StatusCode.RESOURCE_EXHAUSTED, f"{self.watches} health Watch streams are open; "
                      f"this server holds at most {self.watches} at once: use Check, or watch later")
            return
        if self._watching[peer] >= self.watches_per_connection:
            await end(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                      f"{self.watches_per_connection} health Watch streams are open on this connection; this "
                      f"server holds at most {self.watches_per_connection} per connection")
            return
        self._watching[peer] += 1
        self._watches_open += 1
        try:
            last = None
            while True:
                # Read together: a shutdown that begins while a status is
                # being written (a watcher's first SERVING, say) sets
                # ``changed``, and the next turn writes NOT_SERVING before
                # the stream ends; ended on a status read before it, the
                # stream would end without it.
                changed, final = self._changed, self._shutting_down
                status = self._status.get(request.service, SERVICE_UNKNOWN)
                if status != last:
                    await context.write(health_pb2.HealthCheckResponse(status=status))
                    last = status
                if final:
                    await end(context, grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
                    return
                await changed.wait()
        finally:
            self._watches_open -= 1
            self._watching[peer] -= 1
            if not self._watching[peer]:
                del self._watching[peer]
