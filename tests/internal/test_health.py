"""The health service in process: Watch streams within their limits."""

from __future__ import annotations

import asyncio

import grpc
from grpc_health.v1 import health_pb2

from prial.service.health import HealthService

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class Context:
    """The parts of grpc.aio.ServicerContext a Watch uses."""

    def __init__(self, peer: str, sent: asyncio.Event | None = None) -> None:
        self._peer = peer
        self._sent = sent  # a write completes once it is set (a slow client)
        self.written: list[int] = []
        self.code: grpc.StatusCode | None = None

    def peer(self) -> str:
        return self._peer

    async def write(self, message: health_pb2.HealthCheckResponse) -> None:
        self.written.append(message.status)
        if self._sent is not None:
            await self._sent.wait()

    async def abort(self, code: grpc.StatusCode, details: str = "", trailing_metadata: tuple = ()) -> None:
        self.code = code  # grpc.aio raises here; the handler must return either way


def test_watch_streams_count_against_the_total_and_the_connection():
    async def scenario() -> None:
        health = HealthService(watches=3, watches_per_connection=2)
        await health.set("", SERVING)
        contexts = [Context(peer) for peer in ("ipv4:10.0.0.1:1", "ipv4:10.0.0.1:1", "ipv4:10.0.0.2:1",
                                               "ipv4:10.0.0.1:1", "ipv4:10.0.0.3:1")]
        # The first two on one connection and one on another are held; the
        # third on the first connection, then a fourth anywhere, are refused.
        watches = [asyncio.create_task(health.Watch(health_pb2.HealthCheckRequest(), c)) for c in contexts[:3]]
        await asyncio.sleep(0)
        for context in contexts[3:]:
            await health.Watch(health_pb2.HealthCheckRequest(), context)
            assert (context.written, context.code) == ([], grpc.StatusCode.RESOURCE_EXHAUSTED)
        assert [c.written for c in contexts[:3]] == [[SERVING]] * 3
        # Only changes are sent; on shutdown each is told, then let go.
        await health.set("", SERVING)
        await health.enter_graceful_shutdown()
        await asyncio.wait_for(asyncio.gather(*watches), 5)
        assert [(c.written, c.code) for c in contexts[:3]] == \
            [([SERVING, NOT_SERVING], grpc.StatusCode.UNAVAILABLE)] * 3
        # Ended, they make room again (here: told NOT_SERVING and let go at once).
        late = Context("ipv4:10.0.0.1:1")
        await health.Watch(health_pb2.HealthCheckRequest(), late)
        assert (late.written, late.code) == ([NOT_SERVING], grpc.StatusCode.UNAVAILABLE)

    asyncio.run(scenario())


def test_a_shutdown_while_a_status_is_being_written_is_still_told():
    async def scenario() -> None:
        health = HealthService()
        await health.set("", SERVING)
        sent = asyncio.Event()
        context = Context("ipv4:10.0.0.1:1", sent)
        watch = asyncio.create_task(health.Watch(health_pb2.HealthCheckRequest(), context))
        await asyncio.sleep(0)
        assert context.written == [SERVING]  # and its write not yet done
        await health.enter_graceful_shutdown()
        sent.set()
        await asyncio.wait_for(watch, 5)
        assert (context.written, context.code) == ([SERVING, NOT_SERVING], grpc.StatusCode.UNAVAILABLE)

    asyncio.run(scenario())
