"""Fault tests of the service: shutdown mid-stream, cancelled and vanished
clients.  A real ``prial serve`` on 127.0.0.1 in a subprocess.

The rule they hold the server to: a client either gets every answer and
OK, or a non-OK status -- never a stream that ends cleanly short of its
requests -- and what it did get is right and in order; a client that
cancels or disappears gives back the worker it held.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import threading
import time

import grpc
import numpy as np
import pytest

import prial
from prial.client import Client, PrialRpcError, evaluate_request
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

from ..grpc_helpers import ServerProcess

pytestmark = pytest.mark.slow

BATCHES = [np.random.default_rng(seed).integers(0, 52, (500, 3), dtype=np.uint8) for seed in range(400)]
# Rows with a repeated card would end the stream with INVALID_ARGUMENT: keep distinct cards only.
BATCHES = [b[(b[:, 0] != b[:, 1]) & (b[:, 1] != b[:, 2]) & (b[:, 0] != b[:, 2])] for b in BATCHES]


def paced(batches, seconds_each: float, started: threading.Event | None = None):
    for i, batch in enumerate(batches):
        if i == 1 and started is not None:
            started.wait(20)
        time.sleep(seconds_each)
        yield batch


def run_stream(target: str, batches, seconds_each: float, first_answer: threading.Event):
    """Consumes a stream on a thread; returns (answers, error) once it ends."""
    answers: list = []
    outcome: dict = {}

    def consume() -> None:
        try:
            with Client(target, timeout=60) as client:
                for answer in client.evaluate_stream(paced(batches, seconds_each, first_answer)):
                    answers.append(answer)
                    first_answer.set()
        except PrialRpcError as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=consume)
    thread.start()
    return thread, answers, outcome


def assert_right_and_in_order(answers, batches) -> None:
    assert len(answers) <= len(batches)
    for index, (answer, batch) in enumerate(zip(answers, batches)):
        assert answer.batch_index == index
        np.testing.assert_array_equal(answer.strengths, prial.evaluate_batch(batch))


def test_sigterm_mid_stream_past_the_grace_ends_with_a_status_not_a_short_answer():
    server = ServerProcess("--grace", "1")  # the stream needs ~20 s: it outlives the grace
    try:
        first = threading.Event()
        thread, answers, outcome = run_stream(server.target, BATCHES, 0.05, first)
        assert first.wait(30)
        server.proc.send_signal(signal.SIGTERM)
        thread.join(60)
        assert not thread.is_alive()
        assert "error" in outcome, f"the stream ended OK after {len(answers)} of {len(BATCHES)} batches"
        assert outcome["error"].code in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE,
                                         grpc.StatusCode.ABORTED), outcome["error"]
        assert 1 <= len(answers) < len(BATCHES)
        assert_right_and_in_order(answers, BATCHES)
        assert server.proc.wait(30) == 0
    finally:
        server.close()


def test_sigterm_mid_stream_within_the_grace_completes_the_stream():
    server = ServerProcess("--grace", "20")
    try:
        batches = BATCHES[:30]
        first = threading.Event()
        thread, answers, outcome = run_stream(server.target, batches, 0.03, first)
        assert first.wait(30)
        server.proc.send_signal(signal.SIGTERM)
        thread.join(60)
        assert "error" not in outcome, outcome
        assert len(answers) == len(batches)
        assert_right_and_in_order(answers, batches)
        assert server.proc.wait(30) == 0
    finally:
        server.close()


def forever(batch):
    while True:
        time.sleep(0.01)
        yield batch


@pytest.fixture
def one_worker():
    """A server with a single worker thread: a call that never gives its
    worker back blocks every later call, which the tests below would see."""
    # --max-batch: room for Equity calls of seconds (samples x opponents are capped by it).
    with ServerProcess("--workers", "1", "--max-concurrent-rpcs", "64", "--max-batch", str(1 << 23)) as server:
        yield server


def assert_serves_promptly(server) -> None:
    with Client(server.target, timeout=10) as client:
        assert client.evaluate(["3s 2h Ah"]).strengths.tolist() == [716]


def test_cancelled_stream_gives_its_worker_back(one_worker):
    for _ in range(3):
        channel = grpc.insecure_channel(one_worker.target)
        responses = pb_grpc.PrialStub(channel).EvaluateStream(
            evaluate_request(b, None, False) for b in forever(BATCHES[0]))
        for _ in range(3):
            next(responses)
        responses.cancel()
        with pytest.raises(grpc.RpcError) as info:
            next(responses)
        assert info.value.code() == grpc.StatusCode.CANCELLED
        channel.close()
        assert_serves_promptly(one_worker)
    # Each stream ended on the server.  (Its log line says CANCELLED, or
    # sometimes OK: gRPC can hand the server the end of the requests before
    # the cancellation, and the handler cannot tell the two apart.)
    deadline = time.monotonic() + 10
    while one_worker.log().count('"method": "EvaluateStream"') < 3:
        assert time.monotonic() < deadline, one_worker.log()[-2000:]
        time.sleep(0.1)


def test_killed_client_mid_stream_gives_its_worker_back(one_worker):
    client = textwrap.dedent(f"""
        import sys, time, numpy as np
        from prial.client import Client
        batch = np.array([[7, 2, 50]] * 1000, np.uint8)
        def forever():
            while True:
                time.sleep(0.01)
                yield batch
        with Client("{one_worker.target}") as c:
            for i, _ in enumerate(c.evaluate_stream(forever())):
                if i == 2:
                    print("streaming", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", client], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "streaming"
        proc.kill()  # SIGKILL: no goodbye on the connection
        proc.wait(10)
        assert_serves_promptly(one_worker)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_many_cancelled_and_expired_calls_leave_the_server_right(one_worker):
    big = np.tile(BATCHES[0], (400, 1))  # ~200k hands
    with grpc.insecure_channel(one_worker.target) as channel:
        stub = pb_grpc.PrialStub(channel)
        futures = [stub.Evaluate.future(evaluate_request(big, None, False)) for _ in range(6)]
        for future in futures:
            future.cancel()
        # Deadlines that expire while the server works: a Monte Carlo equity
        # takes about two seconds, far past 50 ms however fast the machine.
        slow = pb.EquityRequest(hand=pb.Cards(text="As Kd Qh"), opponents=5, samples=12_000_000)
        for _ in range(6):
            with pytest.raises(grpc.RpcError) as info:
                stub.Equity(slow, timeout=0.05)
            assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    with Client(one_worker.target, timeout=30) as client:
        np.testing.assert_array_equal(client.evaluate(big).strengths, prial.evaluate_batch(big))


def test_cancelled_calls_waiting_for_a_worker_are_never_run(one_worker):
    # One slow call (Monte Carlo equity, about two seconds) holds the
    # only worker; six more wait behind it and are cancelled.  None may hold
    # the worker past its cancel: all seven are logged as CANCELLED (a
    # waiting one may start in the milliseconds before its own cancel
    # arrives, then stops at the next chunk), and the next call is answered.
    slow = pb.EquityRequest(hand=pb.Cards(text="As Kd Qh"), opponents=5, samples=12_000_000)
    with grpc.insecure_channel(one_worker.target) as channel:
        stub = pb_grpc.PrialStub(channel)
        running = stub.Equity.future(slow)
        time.sleep(0.1)
        waiting = [stub.Equity.future(slow) for _ in range(6)]
        time.sleep(0.1)
        for future in [running, *waiting]:
            future.cancel()
    assert_serves_promptly(one_worker)
    deadline = time.monotonic() + 10
    while '"method": "Evaluate"' not in one_worker.log():
        assert time.monotonic() < deadline
        time.sleep(0.1)
    heavy = [line for line in one_worker.log().splitlines() if '"method": "Equity"' in line]
    assert len(heavy) == 7 and all('"code": "CANCELLED"' in line for line in heavy), heavy
    ran = [json.loads(line) for line in heavy if '"hands": 1' in line]
    assert ran and all(entry["ms"] < 1000 for entry in ran), heavy  # none ran its two seconds
