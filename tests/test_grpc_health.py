"""Health Watch streams (loopback only, bounded in count and time): told
NOT_SERVING and closed on shutdown."""

from __future__ import annotations

import queue
import signal
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from .grpc_helpers import ServerProcess

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def watch(channel: grpc.Channel, service: str = "", **kwargs: object):
    """A Watch stream's answers, as an iterator."""
    return iter(health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=service),
                                                          timeout=30, **kwargs))


class Watcher(threading.Thread):
    """A Watch stream read as gRPC's client-side health checking reads it,
    always waiting on its next answer (read in turn, one stream's answer
    would wait unread while the test reads another).  ``next_status`` is the
    next status it was sent, or None once the stream has ended; ``ended``,
    every status it was sent and how it ended."""

    def __init__(self, channel: grpc.Channel, service: str = "") -> None:
        super().__init__(daemon=True)
        self.answers: queue.Queue[int | None] = queue.Queue()
        self.seen: list[int | None] = []
        self.code: grpc.StatusCode | None = None
        self._stream = watch(channel, service)
        self.start()

    def run(self) -> None:
        try:
            for answer in self._stream:
                self.answers.put(answer.status)
            self.code = grpc.StatusCode.OK
        except grpc.RpcError as error:
            self.code = error.code()
        finally:
            self.answers.put(None)

    def next_status(self) -> int | None:
        self.seen.append(self.answers.get(timeout=20))
        return self.seen[-1]

    def ended(self) -> tuple[list[int | None], grpc.StatusCode | None]:
        while self.seen[-1:] != [None]:
            self.next_status()
        return self.seen[:-1], self.code


@pytest.mark.slow
def test_sigterm_tells_watchers_not_serving_and_closes_their_streams_first():
    """gRPC's client-side health checking holds a Watch stream per
    connection: the server must not wait out --grace for them."""
    with ServerProcess("--grace", "10", "--drain", "1") as server, grpc.insecure_channel(server.target) as channel:
        watchers = [Watcher(channel), Watcher(channel, "prial.v1.Prial")]
        assert [w.next_status() for w in watchers] == [SERVING, SERVING]
        start = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        told = watchers[0].next_status()
        late = Watcher(channel)  # during --drain a new watcher is told, and let go, at once
        ended = [w.ended() for w in (*watchers, late)]
        code = server.terminate(timeout=30, signal_first=False)
        took = time.monotonic() - start
        log = server.log()
    assert told == NOT_SERVING and ended == [([SERVING, NOT_SERVING], grpc.StatusCode.UNAVAILABLE)] * 2 + [
        ([NOT_SERVING], grpc.StatusCode.UNAVAILABLE)], (ended, log)
    # The 1 s of --drain, then nothing to wait for; held, the streams made
    # it wait the 10 s of --grace.
    assert code == 0 and took < 4, f"exit {code} after {took:.1f} s"


def test_check_and_list(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        assert stub.Check(health_pb2.HealthCheckRequest(), timeout=10).status == SERVING
        listed = stub.List(health_pb2.HealthListRequest(), timeout=10).statuses
        assert {name: answer.status for name, answer in listed.items()} == {"": SERVING, "prial.v1.Prial": SERVING}
        with pytest.raises(grpc.RpcError) as info:
            stub.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=10)
        assert info.value.code() == grpc.StatusCode.NOT_FOUND


def separate_connection(target: str) -> grpc.Channel:
    """A channel with a connection of its own (channels to one target share
    theirs by default)."""
    return grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])


def test_watch_needs_the_token_check_and_list_do_not(tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("sesame\n")
    with ServerProcess("--auth-token-file", str(tokens)) as server, grpc.insecure_channel(server.target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        assert stub.Check(health_pb2.HealthCheckRequest(), timeout=10).status == SERVING
        assert stub.List(health_pb2.HealthListRequest(), timeout=10).statuses[""].status == SERVING
        for metadata in ((), (("authorization", "Bearer wrong"),)):
            with pytest.raises(grpc.RpcError) as info:
                next(watch(channel, metadata=metadata))
            assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert next(watch(channel, metadata=(("authorization", "Bearer sesame"),))).status == SERVING
        server.wait_for_log('"method": "Watch", "code": "UNAUTHENTICATED"', count=2)
