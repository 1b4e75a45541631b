"""The health service's Watch limit per connection, read from the
service's own constant."""

from __future__ import annotations

import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ..test_grpc_health import SERVING, separate_connection, watch


def test_watch_streams_per_connection_are_limited(grpc_server):
    from prial.service.health import WATCHES_PER_CONNECTION

    with separate_connection(grpc_server.target) as channel, separate_connection(grpc_server.target) as other:
        held = [health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(), timeout=30)
                for _ in range(WATCHES_PER_CONNECTION)]
        assert [next(iter(call)).status for call in held] == [SERVING] * WATCHES_PER_CONNECTION
        with pytest.raises(grpc.RpcError) as info:
            next(watch(channel))
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert f"at most {WATCHES_PER_CONNECTION} per connection" in info.value.details()
        assert next(watch(other)).status == SERVING  # another connection has its own
        held.pop().cancel()  # a stream that ends makes room
        deadline = time.monotonic() + 10
        while True:
            try:
                assert next(watch(channel)).status == SERVING
                break
            except grpc.RpcError as exc:  # the server sees the cancellation a moment later
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and time.monotonic() < deadline
                time.sleep(0.05)
        for call in held:
            call.cancel()
