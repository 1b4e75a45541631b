"""Standard health checking, ``grpc.health.v1.Health``: Check, List and Watch.

Watch streams stay open as long as their client wants (a client watching
for changes, as gRPC's client-side health checking and Envoy do, holds one
per connection), so they are what a draining server must end itself: on
shutdown every watcher is sent NOT_SERVING and its stream is closed at
once, instead of holding the server's stop for its whole grace period.
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from .calls import end

Status = health_pb2.HealthCheckResponse.ServingStatus
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
SERVICE_UNKNOWN = health_pb2.HealthCheckResponse.SERVICE_UNKNOWN


class HealthService(health_pb2_grpc.HealthServicer):
    """The statuses of the server ("") and its services, as ``set``."""

    def __init__(self) -> None:
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
        unchanged since the last answer is not sent again)."""
        last = None
        while True:
            changed = self._changed
            status = self._status.get(request.service, SERVICE_UNKNOWN)
            if status != last:
                await context.write(health_pb2.HealthCheckResponse(status=status))
                last = status
            if self._shutting_down:
                await end(context, grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
                return
            await changed.wait()
