"""Many idle connections (loopback, a few hundred, bounded in time): the
server raises its open-files limit, closes connections left idle, caps
how many it holds, and health answers throughout."""

from __future__ import annotations

import json
import resource
import socket
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from .grpc_helpers import ServerProcess, free_port

pytestmark = pytest.mark.slow

# What an HTTP/2 client sends first: the preface and an empty SETTINGS frame.
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\0\0\0\x04\0\0\0\0\0"
SOFT, HARD = 256, 1024


def _low_open_files_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (SOFT, HARD))


def _serving(server: ServerProcess) -> dict:
    return next(json.loads(line) for line in server.log().splitlines() if '"event": "serving"' in line)


def _health(target: str) -> int:
    """One Check on a connection of its own."""
    with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
        return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10).status


def _idle_connections(port: int, count: int) -> list[socket.socket]:
    """HTTP/2 connections that never make a call."""
    found = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(PREFACE)
        found.append(sock)
    return found


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed it (after its SETTINGS and GOAWAY, if any)."""
    sock.setblocking(False)
    try:
        while True:
            if not sock.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_the_open_files_limit_is_raised_and_idle_connections_are_closed():
    """Started under a soft limit of 256 files, the server serves 300 idle
    connections and still answers health (it raised its soft limit to the
    hard one), and closes them after --max-connection-idle."""
    with ServerProcess("--max-connection-idle", "2", preexec_fn=_low_open_files_limit) as server:
        assert _serving(server)["open_files"] == HARD
        socks = _idle_connections(server.port, 300)
        try:
            assert _health(server.target) == health_pb2.HealthCheckResponse.SERVING
            assert sum(_closed(s) for s in socks) == 0
            deadline = time.monotonic() + 20
            while sum(_closed(s) for s in socks) < len(socks) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert sum(_closed(s) for s in socks) == len(socks)
            assert _health(server.target) == health_pb2.HealthCheckResponse.SERVING
        finally:
            for sock in socks:
                sock.close()
        assert server.terminate() == 0


def test_connections_past_the_cap_are_closed_and_those_held_keep_answering():
    with ServerProcess("--max-connections", "50") as server, \
            grpc.insecure_channel(server.target) as held:
        stub = health_pb2_grpc.HealthStub(held)
        assert stub.Check(health_pb2.HealthCheckRequest(), timeout=10).status == health_pb2.HealthCheckResponse.SERVING
        socks = _idle_connections(server.port, 60)
        try:
            time.sleep(0.5)  # the server's answer to each: its SETTINGS, or the close
            closed = sum(_closed(s) for s in socks)
            assert closed == 60 - 49  # the held channel is the 50th
            assert stub.Check(health_pb2.HealthCheckRequest(), timeout=10).status == \
                health_pb2.HealthCheckResponse.SERVING
        finally:
            for sock in socks:
                sock.close()
        assert server.terminate() == 0


def test_a_connection_that_never_starts_http2_is_closed():
    """TCP connections that send nothing (not even the HTTP/2 preface) are
    closed once the handshake time is out (10 s; gRPC's own is 120 s)."""
    with ServerProcess() as server:
        socks = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(20)]
        try:
            deadline = time.monotonic() + 30
            while sum(_closed(s) for s in socks) < len(socks) and time.monotonic() < deadline:
                time.sleep(0.5)
            assert sum(_closed(s) for s in socks) == len(socks)
            assert _health(server.target) == health_pb2.HealthCheckResponse.SERVING
        finally:
            for sock in socks:
                sock.close()
        assert server.terminate() == 0


def _health_on(target: str) -> int | grpc.StatusCode:
    try:
        return _health(target)
    except grpc.RpcError as exc:
        return exc.code()


@pytest.mark.parametrize("processes", ["1", "2"])
def test_health_answers_on_its_own_port_when_every_connection_is_held(processes):
    health_port = free_port()
    with ServerProcess("--max-connections", "20", "--health-port", str(health_port),
                       "--processes", processes) as server:
        socks = [s for _ in range(int(processes)) for s in _idle_connections(server.port, 40)]
        try:
            time.sleep(0.5)
            # The main port's connections are all held: a probe's is refused there ...
            assert _health_on(server.target) == grpc.StatusCode.UNAVAILABLE
            # ... and answered on the health port, which serves nothing else.
            health_target = f"127.0.0.1:{health_port}"
            assert _health_on(health_target) == health_pb2.HealthCheckResponse.SERVING
            with grpc.insecure_channel(health_target) as channel:
                with pytest.raises(grpc.RpcError) as info:
                    channel.unary_unary("/prial.v1.Prial/Evaluate")(b"", timeout=10)
                assert info.value.code() == grpc.StatusCode.UNIMPLEMENTED
        finally:
            for sock in socks:
                sock.close()
        assert server.terminate() == 0
