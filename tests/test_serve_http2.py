"""What the server holds HTTP/2 clients to, seen on the wire with a raw
client: the header-list bound it advertises (refused past it, however the
headers are framed), the streams one connection may open, ping floods
sent away.  Loopback, bounded calls; health answers after each."""

from __future__ import annotations

import grpc
import h2.errors
import h2.events
import pytest

from prial.client import Client

from .grpc_helpers import ServerProcess
from .http2_client import MAX_CONCURRENT_STREAMS, MAX_HEADER_LIST_SIZE, RawConnection, status_of

CHECK = "/grpc.health.v1.Health/Check"
RESOURCE_EXHAUSTED = str(grpc.StatusCode.RESOURCE_EXHAUSTED.value[0])


@pytest.fixture(scope="module")
def server():
    with ServerProcess("--max-streams-per-connection", "7") as running:
        yield running


def _health(server: ServerProcess) -> str:
    with Client(server.target, timeout=10) as client:
        return client.health()


def test_the_advertised_settings_are_the_servers(server):
    conn = RawConnection(server.port)
    try:
        settings = conn.settings()
    finally:
        conn.close()
    assert settings[MAX_HEADER_LIST_SIZE] == 16 * 1024
    assert settings[MAX_CONCURRENT_STREAMS] == 7


@pytest.mark.parametrize("extra", [
    [("x-big", "a" * 500_000)],  # one value, sent over HEADERS and CONTINUATION frames
    [(f"x-h{i}", "v") for i in range(60_000)],  # many headers
    [("x-big", "a" * 17_000)],  # just past the bound
], ids=["500-kB-value", "60000-headers", "17-kB-value"])
def test_oversize_headers_are_refused_and_the_server_serves_on(server, extra):
    for _ in range(2):  # every time: no random early refusal that lets some through
        conn = RawConnection(server.port)
        try:
            stream = conn.call(CHECK, b"", extra)
            status = status_of(conn.events(20, until_stream=stream), stream)
        finally:
            conn.close()
        assert status.get("grpc-status") == RESOURCE_EXHAUSTED, status
    assert _health(server) == "SERVING"


def test_headers_within_the_bound_are_answered(server):
    conn = RawConnection(server.port)
    try:
        stream = conn.call(CHECK, b"", [("x-fine", "a" * 8_000)])
        assert status_of(conn.events(20, until_stream=stream), stream).get("grpc-status") == "0"
    finally:
        conn.close()


@pytest.mark.slow
def test_streams_past_the_per_connection_bound_are_refused(server):
    conn = RawConnection(server.port)
    try:
        # Opened before the server's SETTINGS arrive, so that the client
        # does not hold itself to them: the server does.
        streams = conn.open_idle_streams(8)
        resets = [e for e in conn.events(3) if isinstance(e, h2.events.StreamReset)]
    finally:
        conn.close()
    # gRPC refuses the stream past the bound (with ENHANCE_YOUR_CALM here).
    assert [e.stream_id for e in resets] == [streams[-1]]
    assert resets[0].error_code in (h2.errors.ErrorCodes.REFUSED_STREAM, h2.errors.ErrorCodes.ENHANCE_YOUR_CALM)
    assert _health(server) == "SERVING"


def test_a_ping_flood_closes_the_connection(server):
    conn = RawConnection(server.port)
    try:
        conn.settings()
        for n in range(10):
            conn.conn.ping(n.to_bytes(8, "big"))
        conn.flush()  # in one write: the server closes the connection part way
        ended = [e for e in conn.events(5) if isinstance(e, h2.events.ConnectionTerminated)]
    finally:
        conn.close()
    assert [e.error_code for e in ended] == [h2.errors.ErrorCodes.ENHANCE_YOUR_CALM]
    assert _health(server) == "SERVING"
