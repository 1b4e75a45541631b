"""Retries of Client and AsyncClient: a call the server did not answer
(UNAVAILABLE) is tried again with a growing backoff, a bounded number of
times and within the call's deadline; any other code is raised at once.

Attempts are counted where they arrive: in a bare gRPC server that fails
each call as told (and records the ``grpc-previous-rpc-attempts`` header
gRPC sends with a retry), and in the call log of a real ``prial serve``,
which is also started late and restarted under a waiting client."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, NamedTuple

import grpc
import numpy as np
import pytest
from grpc_health.v1 import health_pb2

import prial
from prial import random_hands
from prial.client import AsyncClient, Client, Evaluation, PrialRpcError, RetryPolicy
from prial.v1 import prial_pb2 as pb

from .grpc_helpers import ServerProcess, free_port

pytestmark = pytest.mark.slow

UNAVAILABLE = grpc.StatusCode.UNAVAILABLE
# Short backoffs, 0.1 + 0.2 + 0.3 s in all: attempts 2 to 4 start at least 80% of these apart.
QUICK = RetryPolicy(max_attempts=4, initial_backoff=0.1, max_backoff=0.3, backoff_multiplier=2.0)
QUICK_BACKOFFS = [0.1, 0.2, 0.3]
# Enough for a server to start while a call waits: 0.5 + 1 + 2 + 4 s.
PATIENT = RetryPolicy(max_attempts=5, initial_backoff=0.5, max_backoff=4.0)
SERVING = health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING).SerializeToString()


class Attempt(NamedTuple):
    method: str
    at: float  # time.monotonic() when it arrived
    previous: str | None  # grpc-previous-rpc-attempts: how many attempts came before
    request: bytes  # the (first) request message it received


class BareServer:
    """A gRPC server on a free loopback port answering every method as told:
    attempt n fails with ``outcomes[n]`` (None: answers; the last outcome
    repeats).  Health checks answer SERVING; any other method, an empty
    message.  A stream reads its first request and fails, or with
    ``answer_first`` answers it and then fails: as the proto says of
    EvaluateStream, a request is answered before the next is read."""

    def __init__(self, outcomes: Sequence[grpc.StatusCode | None], *, answer_first: bool = False) -> None:
        self.outcomes = list(outcomes)
        self.answer_first = answer_first
        self.attempts: list[Attempt] = []
        self._lock = threading.Lock()
        self._server = grpc.server(ThreadPoolExecutor(max_workers=4))
        self._server.add_generic_rpc_handlers([_Handler(self)])
        self.target = f"127.0.0.1:{self._server.add_insecure_port('127.0.0.1:0')}"
        self._server.start()

    def outcome(self, method: str, context: grpc.ServicerContext, request: bytes) -> grpc.StatusCode | None:
        with self._lock:
            previous = dict(context.invocation_metadata()).get("grpc-previous-rpc-attempts")
            self.attempts.append(Attempt(method, time.monotonic(), previous, request))
            return self.outcomes[min(len(self.attempts), len(self.outcomes)) - 1]

    def unary(self, method: str, request: bytes, context: grpc.ServicerContext) -> bytes:
        code = self.outcome(method, context, request)
        if code is not None:
            context.abort(code, f"told to fail with {code.name}")
        return SERVING if method.endswith("/Check") else b""

    def stream(self, requests: Iterator[bytes], context: grpc.ServicerContext) -> Iterator[bytes]:
        code = self.outcome("EvaluateStream", context, next(requests))
        if self.answer_first:
            yield b""
        if code is not None:
            context.abort(code, f"told to fail with {code.name}")

    def close(self) -> None:
        self._server.stop(0)


class _Handler(grpc.GenericRpcHandler):
    def __init__(self, server: BareServer) -> None:
        self._server = server

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        if details.method.endswith("/EvaluateStream"):
            return grpc.stream_stream_rpc_method_handler(self._server.stream)
        return grpc.unary_unary_rpc_method_handler(functools.partial(self._server.unary, details.method))


@pytest.fixture
def bare() -> Iterator[Callable[..., BareServer]]:
    """Starts BareServers, stopped after the test."""
    servers: list[BareServer] = []

    def start(outcomes: Sequence[grpc.StatusCode | None], **options: Any) -> BareServer:
        servers.append(BareServer(outcomes, **options))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture(params=["Client", "AsyncClient"])
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


Step = Callable[[Any], Any]


def session(kind: str, target: str, steps: Sequence[Step], *, timeout: float = 20, **options: Any) -> list[Any]:
    """The results of ``steps`` on one Client or AsyncClient (``kind``): each
    step is given the client, and with an AsyncClient what it returns is
    awaited when it can be."""
    if kind == "Client":
        with Client(target, timeout=timeout, **options) as client:
            return [step(client) for step in steps]

    async def main() -> list[Any]:
        async with AsyncClient(target, timeout=timeout, **options) as client:
            results = []
            for step in steps:
                result = step(client)
                results.append(await result if inspect.isawaitable(result) else result)
            return results

    return asyncio.run(main())


class Outcome(NamedTuple):
    result: Any  # the result, or the PrialRpcError raised
    seconds: float


def call(kind: str, target: str, method: str, *args: Any, **options: Any) -> Outcome:
    """``method(*args)`` through a new Client or AsyncClient (``kind``)."""
    started = time.monotonic()
    try:
        result = session(kind, target, [lambda client: getattr(client, method)(*args)], **options)[0]
    except PrialRpcError as error:
        result = error
    return Outcome(result, time.monotonic() - started)


def stream(kind: str, target: str, batches: list[np.ndarray], *, timeout: float = 20,
           **options: Any) -> tuple[list[Evaluation], Any]:
    """What ``evaluate_stream(batches)`` yields before it ends, and the PrialRpcError it ends with (or None)."""
    answers: list[Evaluation] = []
    try:
        if kind == "Client":
            with Client(target, timeout=timeout, **options) as client:
                answers.extend(client.evaluate_stream(batches))
        else:
            async def main() -> None:
                async with AsyncClient(target, timeout=timeout, **options) as client:
                    async for answer in client.evaluate_stream(batches):
                        answers.append(answer)

            asyncio.run(main())
    except PrialRpcError as error:
        return answers, error
    return answers, None


def assert_failed(outcome: Outcome, code: grpc.StatusCode) -> None:
    assert isinstance(outcome.result, PrialRpcError), outcome
    assert outcome.result.code == code


# -- attempts counted by a bare server ------------------------------------------


def test_unavailable_is_tried_again_after_each_backoff_up_to_max_attempts(bare, kind):
    server = bare([UNAVAILABLE])
    outcome = call(kind, server.target, "health", retries=QUICK)
    assert_failed(outcome, UNAVAILABLE)
    assert [a.previous for a in server.attempts] == [None, "1", "2", "3"]  # gRPC's own retries, 4 attempts
    gaps = np.diff([a.at for a in server.attempts])
    assert all(gap >= 0.8 * backoff - 0.01 for gap, backoff in zip(gaps, QUICK_BACKOFFS)), gaps
    assert outcome.seconds < 10


def test_the_answer_after_failed_attempts_is_the_result(bare, kind):
    server = bare([UNAVAILABLE, UNAVAILABLE, None])
    assert call(kind, server.target, "health", retries=QUICK).result == "SERVING"
    assert len(server.attempts) == 3


def test_retries_are_on_by_default(bare, kind):
    server = bare([UNAVAILABLE, None])
    assert call(kind, server.target, "health").result == "SERVING"
    assert [a.previous for a in server.attempts] == [None, "1"]


@pytest.mark.parametrize("code", [grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                  grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.INTERNAL],
                         ids=lambda code: code.name)
def test_other_codes_are_never_tried_again(bare, kind, code):
    server = bare([code, None])
    assert_failed(call(kind, server.target, "health", retries=QUICK), code)
    assert len(server.attempts) == 1


def test_the_policy_names_the_codes_tried_again(bare, kind):
    exhausted = RetryPolicy(max_attempts=3, initial_backoff=0.05, codes=(grpc.StatusCode.RESOURCE_EXHAUSTED,))
    server = bare([grpc.StatusCode.RESOURCE_EXHAUSTED])
    assert_failed(call(kind, server.target, "health", retries=exhausted), grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert len(server.attempts) == 3
    server = bare([UNAVAILABLE])
    assert_failed(call(kind, server.target, "health", retries=exhausted), UNAVAILABLE)
    assert len(server.attempts) == 1


@pytest.mark.parametrize("retries", [None, 0])
def test_disabled_retries_fail_at_once(bare, kind, retries):
    server = bare([UNAVAILABLE, None])
    assert_failed(call(kind, server.target, "health", retries=retries), UNAVAILABLE)
    assert len(server.attempts) == 1


def test_channel_options_given_take_precedence(bare, kind):
    server = bare([UNAVAILABLE, None])
    assert_failed(call(kind, server.target, "health", options=[("grpc.enable_retries", 0)]), UNAVAILABLE)
    assert len(server.attempts) == 1


def test_every_rpc_is_tried_again(bare, kind):
    server = bare([UNAVAILABLE, None])
    hands = random_hands(4, 3, seed=1)
    calls: list[tuple[str, tuple[Any, ...]]] = [
        ("evaluate", (hands,)), ("partition", ("Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js",)),
        ("showdown", ([prial.Player("a", "7s 7h Qc"), prial.Player("b", "7d 7c Qh")],)),
        ("showdown_batch", (hands, hands)), ("crash_showdown", ([prial.CrashPlayer("a")],)),
        ("settle_casino", ("7s 7h 7d", "Qc 8d 3h", 10)), ("odds", ()), ("equity", ("7s 7h Qc",)), ("health", ()),
    ]
    for method, args in calls:
        server.attempts.clear()
        call(kind, server.target, method, *args, retries=QUICK)  # the empty answers make no sense: not checked
        assert [a.previous for a in server.attempts] == [None, "1"], method


def test_a_stream_is_tried_again_before_its_first_answer(bare, kind):
    server = bare([UNAVAILABLE])
    batches = [random_hands(5, 3, seed=seed) for seed in range(3)]
    answers, error = stream(kind, server.target, batches, retries=QUICK)
    assert answers == [] and error.code == UNAVAILABLE
    assert [a.previous for a in server.attempts] == [None, "1", "2", "3"]
    assert all(pb.EvaluateRequest.FromString(a.request).cards == batches[0].tobytes() for a in server.attempts)


def test_a_stream_is_never_tried_again_after_an_answer(bare, kind):
    server = bare([UNAVAILABLE], answer_first=True)
    answers, error = stream(kind, server.target, [random_hands(5, 3, seed=seed) for seed in range(3)],
                            retries=QUICK)
    assert len(answers) == 1 and error.code == UNAVAILABLE
    assert len(server.attempts) == 1


def test_no_attempt_starts_past_the_deadline(bare, kind):
    server = bare([UNAVAILABLE])
    slow = RetryPolicy(max_attempts=5, initial_backoff=5.0, max_backoff=5.0)
    outcome = call(kind, server.target, "health", retries=slow, timeout=0.5)
    assert_failed(outcome, grpc.StatusCode.DEADLINE_EXCEEDED)
    assert len(server.attempts) == 1
    assert 0.4 <= outcome.seconds < 3


@pytest.mark.parametrize(("options", "says"), [
    ({"max_attempts": 6}, "max_attempts must be a whole number from 2 to 5 (gRPC tries a call at most 5 times), got 6"),
    ({"max_attempts": 1}, "max_attempts must be a whole number from 2 to 5"),
    ({"max_attempts": 3.0}, "max_attempts must be a whole number from 2 to 5"),
    ({"initial_backoff": 0}, "initial_backoff must be a finite number of at least 0.001, got 0"),
    ({"max_backoff": 0.1}, "max_backoff must be a finite number of at least 0.2, got 0.1"),
    ({"backoff_multiplier": float("inf")}, "backoff_multiplier must be a finite number of at least 1, got inf"),
    ({"codes": ()}, "codes must be grpc.StatusCode values other than OK, got ()"),
    ({"codes": ("UNAVAILABLE",)}, "codes must be grpc.StatusCode values other than OK"),
])
def test_a_policy_grpc_would_not_follow_is_refused(options, says):
    with pytest.raises(ValueError, match="^RetryPolicy " + says.replace("(", r"\(").replace(")", r"\)")):
        RetryPolicy(**options)


@pytest.mark.parametrize("client_type", [Client, AsyncClient])
def test_retries_is_a_policy_none_or_0(client_type):
    with pytest.raises(TypeError, match=r"^retries must be a RetryPolicy, or None or 0 for none, got 3$"):
        client_type("127.0.0.1:1", retries=3)


def test_the_channel_reconnects_at_the_pace_of_the_retries(kind):
    """gRPC's own pace, 1 s growing to 2 minutes between connection
    attempts, would have a client miss a server back long before."""
    policy = RetryPolicy(max_attempts=5, initial_backoff=0.1, max_backoff=0.2)
    connections: list[float] = []
    with socket.socket() as listener:  # takes connections and closes them: each a failed connection attempt
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.1)
        stop = threading.Event()

        def refuse() -> None:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    listener.accept()[0].close()
                    connections.append(time.monotonic())

        refusing = threading.Thread(target=refuse)
        refusing.start()
        try:
            target = f"127.0.0.1:{listener.getsockname()[1]}"
            for _ in range(3):
                assert_failed(call(kind, target, "health", retries=policy), UNAVAILABLE)
        finally:
            stop.set()
            refusing.join()
    gaps = np.diff(connections)
    assert len(connections) >= 6
    assert gaps.max() < 1.2 * policy.max_backoff + 0.5, gaps


# -- a real server, started late, restarted, or not there ----------------------------------


def test_a_client_started_before_its_server_gets_its_answer(kind):
    target = f"127.0.0.1:{free_port()}"
    hands = random_hands(300_000, 3, seed=4)  # 900 kB: kept for another attempt only as the client asks
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(call, kind, target, "evaluate", hands, retries=PATIENT, timeout=30)
        time.sleep(0.5)
        with ServerProcess("--port", target.rpartition(":")[2]) as server:
            outcome = waiting.result(60)
            server.wait_for_log('"method": "Evaluate", "code": "OK"')
    assert isinstance(outcome.result, Evaluation), outcome
    np.testing.assert_array_equal(outcome.result.strengths, prial.evaluate_batch(hands))
    assert outcome.seconds >= 0.5


def test_a_server_restarted_between_calls(kind):
    port = free_port()
    hands = random_hands(1_000, 3, seed=5)
    with ThreadPoolExecutor(1) as pool, contextlib.ExitStack() as servers:
        first = servers.enter_context(ServerProcess("--port", str(port)))
        restarted: list[Future[ServerProcess]] = []

        def restart() -> None:
            """Stops the server and starts it again meanwhile: the next call is sent while nothing listens."""
            first.close()
            restarted.append(pool.submit(ServerProcess, "--port", str(port)))
            servers.callback(lambda: restarted[0].result(60).close())

        steps: list[Step] = [lambda client: client.health(), lambda _: restart(),
                             lambda client: client.evaluate(hands)]
        answers = session(kind, f"127.0.0.1:{port}", steps, timeout=30, retries=PATIENT)
        restarted[0].result(60).wait_for_log('"method": "Evaluate", "code": "OK"')
    assert answers[0] == "SERVING"
    np.testing.assert_array_equal(answers[2].strengths, prial.evaluate_batch(hands))


def test_calls_beyond_the_servers_stream_limit_are_tried_again(kind):
    """The server refuses the streams of a connection beyond its limit
    (RST_STREAM REFUSED_STREAM: UNAVAILABLE), and gRPC's client, sending
    more than that at once, meets it: the calls refused are tried again."""
    hands = random_hands(400 * 20, 3, seed=6).reshape(400, 20, 3)

    def at_once(client: Any) -> Any:
        """Every batch of ``hands`` evaluated at once: its answer, or the PrialRpcError raised
        (for an AsyncClient, an awaitable of them)."""
        if kind == "AsyncClient":
            return asyncio.gather(*(client.evaluate(h) for h in hands), return_exceptions=True)

        def one(batch: np.ndarray) -> Any:
            try:
                return client.evaluate(batch)
            except PrialRpcError as error:
                return error

        with ThreadPoolExecutor(50) as pool:
            return list(pool.map(one, hands))

    with ServerProcess("--max-streams-per-connection", "10") as server:
        for retries in (None, RetryPolicy()):
            answers = session(kind, server.target, [at_once], retries=retries)[0]
            refused = [a for a in answers if isinstance(a, PrialRpcError)]
            assert all(r.code == UNAVAILABLE for r in refused)
            if retries is None:
                assert refused, "no call was refused: the test no longer meets the stream limit"
    assert not refused
    for batch, answer in zip(hands, answers, strict=True):
        np.testing.assert_array_equal(answer.strengths, prial.evaluate_batch(batch))


def test_nothing_listening_is_unavailable_after_the_backoffs(kind):
    target = f"127.0.0.1:{free_port()}"
    backoffs = RetryPolicy(max_attempts=4, initial_backoff=0.2, max_backoff=1.0)  # 0.2 + 0.4 + 0.8 s
    outcome = call(kind, target, "evaluate", ["3s 2h Ah"], retries=backoffs, timeout=10)
    assert_failed(outcome, UNAVAILABLE)
    assert 0.8 * 1.4 <= outcome.seconds < 10
    outcome = call(kind, target, "evaluate", ["3s 2h Ah"], retries=None, timeout=10)
    assert_failed(outcome, UNAVAILABLE)
    assert outcome.seconds < 1.0  # not the backoffs above


@pytest.mark.parametrize("method", ["evaluate", "odds", "health", "evaluate_stream"])
def test_a_refused_connection_is_said_when_the_deadline_comes_between_attempts(kind, method):
    target = f"127.0.0.1:{free_port()}"  # bound, closed: nothing listens there
    # The default policy's backoffs (0.2 + 0.4 + 0.8 + 1.6 s) outlast the call.
    if method == "evaluate_stream":
        answers, error = stream(kind, target, [random_hands(4, 3, seed=1)], timeout=0.5)
        outcome = Outcome(error, 0.0)
    else:
        outcome = call(kind, target, method, *([["3s 2h Ah"]] if method == "evaluate" else []), timeout=0.5)
    assert_failed(outcome, UNAVAILABLE)
    assert "connection refused" in outcome.result.message.lower() and target in outcome.result.message


def test_a_deadline_a_server_lets_pass_stays_a_deadline(kind):
    with ServerProcess() as server:
        # A million sampled deals of five opponents: never answered within 50 ms.
        with pytest.raises(PrialRpcError) as info:
            session(kind, server.target, [lambda client: client.equity("As Kd Qh", 5, samples=1_000_000)],
                    timeout=0.05)
    assert info.value.code == grpc.StatusCode.DEADLINE_EXCEEDED


def test_invalid_argument_reaches_the_server_once():
    with ServerProcess() as server:
        for kind in ("Client", "AsyncClient"):
            assert_failed(call(kind, server.target, "evaluate", ["Zz Zz Zz"]), grpc.StatusCode.INVALID_ARGUMENT)
        assert call("Client", server.target, "partition", "Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js").result.hands
        log = server.wait_for_log('"method": "Partition", "code": "OK"')
    assert log.count('"method": "Evaluate", "code": "INVALID_ARGUMENT"') == 2
    assert log.count('"method": "Evaluate"') == 2
