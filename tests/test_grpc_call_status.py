"""Every call leaves one log line and one metric sample with its true
status: a call cut off by its deadline is DEADLINE_EXCEEDED, one its client
cancelled is CANCELLED (loopback only, bounded in count and time)."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request

import grpc
import pytest

from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

from .grpc_helpers import ServerProcess, free_port

# Seconds of Monte Carlo work, far past the deadlines below however fast the machine.
HEAVY = pb.EquityRequest(hand=pb.Cards(text="As Kd Qh"), opponents=16, samples=10_000_000)


@pytest.fixture(scope="module")
def server():
    metrics_port = free_port()
    with ServerProcess("--max-batch", str(1 << 24), "--metrics-port", str(metrics_port)) as running:
        running.metrics_port = metrics_port
        yield running


def logged(server: ServerProcess, method: str) -> list[str]:
    return [line["code"] for line in map(json.loads, (l for l in server.log().splitlines() if l.startswith("{")))
            if line.get("event") == "rpc" and line["method"] == method]


def counted(server: ServerProcess, method: str, code: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=10).read().decode()
    match = re.search(rf'^prial_requests_total\{{code="{code}",method="{method}"\}} ([\d.e+]+)$', text, re.M)
    return float(match.group(1)) if match else 0.0


def settled(server: ServerProcess, method: str, count: int) -> list[str]:
    """The codes of ``method``'s log lines once there are ``count`` (the
    server writes its lines every 0.1 s), and a moment more for any extra."""
    deadline = time.monotonic() + 15
    while len(logged(server, method)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    return logged(server, method)


def test_calls_cut_off_by_their_deadline_are_deadline_exceeded(server):
    with grpc.insecure_channel(server.target) as channel:
        calls = [pb_grpc.PrialStub(channel).Equity.future(HEAVY, timeout=0.3) for _ in range(4)]
        for call in calls:
            assert call.exception(timeout=20).code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert settled(server, "Equity", 4) == ["DEADLINE_EXCEEDED"] * 4  # were CANCELLED
    assert counted(server, "Equity", "DEADLINE_EXCEEDED") == 4 and counted(server, "Equity", "CANCELLED") == 0


@pytest.mark.slow
def test_calls_whose_request_does_not_come_before_their_deadline_are_deadline_exceeded(server):
    release = threading.Event()

    def nothing():
        release.wait(10)
        return
        yield  # a request stream that sends nothing until released

    try:
        with grpc.insecure_channel(server.target) as channel:
            for method, kind in (("Evaluate", channel.stream_unary), ("ShowdownBatch", channel.stream_unary),
                                 ("EvaluateStream", channel.stream_stream)):
                with pytest.raises(grpc.RpcError) as info:
                    answer = kind(f"/prial.v1.Prial/{method}")(nothing(), timeout=0.5)
                    list(answer) if method == "EvaluateStream" else answer
                assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    finally:
        release.set()
    # Were INVALID_ARGUMENT ("the call ended without a request message") and, for the stream, OK.
    for method in ("Evaluate", "ShowdownBatch", "EvaluateStream"):
        assert settled(server, method, 1) == ["DEADLINE_EXCEEDED"], method
        assert counted(server, method, "DEADLINE_EXCEEDED") == 1


def test_calls_their_client_cancels_are_cancelled(server):
    """A deadline far off: cancelled by the client, not cut off by it."""
    before = len(logged(server, "Equity"))
    with grpc.insecure_channel(server.target) as channel:
        calls = [pb_grpc.PrialStub(channel).Equity.future(HEAVY, timeout=60) for _ in range(2)]
        time.sleep(0.3)
        for call in calls:
            call.cancel()
    assert settled(server, "Equity", before + 2)[before:] == ["CANCELLED"] * 2


def test_every_call_that_expires_on_arrival_leaves_one_line_and_one_sample(server):
    """Requests whose deadline (1 us) has passed when they arrive, sent
    frame by frame so that each reaches the server: each is answered
    DEADLINE_EXCEEDED on the wire (some were answered OK) and logged and
    counted once as such."""
    import h2.events

    from .test_hostile import RawConnection

    message = pb.EvaluateRequest(hands=["3s 2h Ah"]).SerializeToString()
    frame = b"\x00" + len(message).to_bytes(4, "big") + message
    before = len(logged(server, "Evaluate"))
    counted_before = counted(server, "Evaluate", "DEADLINE_EXCEEDED")
    conn = RawConnection(server.port)
    answers: list[str] = []
    try:
        for round_ in range(4):
            for _ in range(50):
                stream = conn.conn.get_next_available_stream_id()
                conn.conn.send_headers(stream, [
                    (":method", "POST"), (":scheme", "http"), (":path", "/prial.v1.Prial/Evaluate"),
                    (":authority", "127.0.0.1"), ("content-type", "application/grpc"), ("te", "trailers"),
                    ("grpc-timeout", "1u")])
                conn.conn.send_data(stream, frame, end_stream=True)
            conn.flush()
            deadline = time.monotonic() + 10
            while len(answers) < 50 * (round_ + 1) and time.monotonic() < deadline:
                for event in conn.events(0.2):
                    if isinstance(event, (h2.events.TrailersReceived, h2.events.ResponseReceived)):
                        headers = {k.decode(): v.decode() for k, v in event.headers}
                        if "grpc-status" in headers:
                            answers.append(headers["grpc-status"])
    finally:
        conn.close()
    assert answers == [str(grpc.StatusCode.DEADLINE_EXCEEDED.value[0])] * 200
    assert settled(server, "Evaluate", before + 200)[before:] == ["DEADLINE_EXCEEDED"] * 200
    assert counted(server, "Evaluate", "DEADLINE_EXCEEDED") - counted_before == 200
