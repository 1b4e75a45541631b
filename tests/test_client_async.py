"""prial.client.AsyncClient against a real server: the methods of Client
with the same signatures, answering what Client answers, many calls at
once, and errors raised as Client raises them."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
import grpc.aio
import numpy as np
import pytest

import prial
from prial import CrashPlayer, Player, Rules, SevenCardBrag, random_hands
from prial.client import AsyncClient, Client, Evaluation, PrialRpcError, RetryPolicy

from .grpc_helpers import ServerProcess, free_port

T = TypeVar("T")


def run(target: str, body: Callable[[AsyncClient], Awaitable[T]], **options: Any) -> T:
    """``body(client)`` in a fresh event loop, with an AsyncClient made in it."""
    async def main() -> T:
        async with AsyncClient(target, **{"timeout": 30, **options}) as client:
            return await body(client)

    return asyncio.run(main())


def same(got: object, expected: object) -> bool:
    """Equal results, numpy arrays (an Evaluation's too) compared by value and dtype."""
    if isinstance(expected, np.ndarray):
        return isinstance(got, np.ndarray) and got.dtype == expected.dtype and np.array_equal(got, expected)
    if isinstance(expected, Evaluation):
        return isinstance(got, Evaluation) and all(same(a, b) for a, b in zip(got, expected))
    return type(got) is type(expected) and got == expected


PUBLIC = sorted(name for name in vars(Client) if not name.startswith("_"))


def test_the_methods_of_client_with_the_same_signatures():
    assert sorted(name for name in vars(AsyncClient) if not name.startswith("_")) == PUBLIC
    assert inspect.signature(AsyncClient) == inspect.signature(Client)
    for name in PUBLIC:
        sync, aio = inspect.signature(getattr(Client, name)), inspect.signature(getattr(AsyncClient, name))
        assert [(p.name, p.kind, p.default) for p in aio.parameters.values()] == \
            [(p.name, p.kind, p.default) for p in sync.parameters.values()], name
        if name == "evaluate_stream":
            assert inspect.isasyncgenfunction(getattr(AsyncClient, name))
        else:
            assert inspect.iscoroutinefunction(getattr(AsyncClient, name)), name


SEER_SEEN = random_hands(2_000, 8, seed=21)
SEER, SEEN = np.ascontiguousarray(SEER_SEEN[:, :4]), np.ascontiguousarray(SEER_SEEN[:, 4:])
CRASH = [CrashPlayer("a", ["As Ad Ah", "Ks Qs Js", "9h 9d 4c", "7c 7d 2s"], "3h"),
         CrashPlayer("b", ["Kh Kd Kc", "Qh Jh Th", "9s 9c 5d", "6s 5s 2h"], "3c")]
CALLS = {
    "evaluate three cards": ("evaluate", (random_hands(5_000, 3, seed=1),), {}),
    "evaluate five cards": ("evaluate", (random_hands(3_000, 5, seed=2),), {"rules": Rules(preset="teen_patti")}),
    "evaluate text": ("evaluate", (["3s 2h Ah", "7s7h2c", "10h Jh Qh"],),
                      {"rules": Rules(wild="deuces"), "describe": True}),
    "partition": ("partition", ("Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js",),
                  {"objective": "expected_points", "min_category": "PAIR"}),
    "showdown": ("showdown", ([Player("a", "7s 7h Qc", stake=5), Player("b", "7d 7c Qh", stake=5),
                               Player("c", "As Ad 2h")],), {"coverer": "c", "old_pot": 11}),
    "showdown_batch": ("showdown_batch", (SEER, SEEN), {"rules": Rules(preset="three_card_poker")}),
    "crash_showdown": ("crash_showdown", (CRASH,), {"scoring": [4, 3, 2, 1]}),
    "settle_casino": ("settle_casino", ("7s 7h 7d", "Qc 8d 3h", 10, 10, 5),
                      {"paytable": "pair_plus_1_4_6_30_40", "game": "three_card_poker"}),
    "settle_partition_game": ("settle_partition_game",
                              ([CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h"], "9c"),
                                CrashPlayer("b", ["3c 3d 3h", "Qc Qd 4h"], "8c")], SevenCardBrag(ante=3)),
                              {"carry": 7}),
    "odds": ("odds", (None, 4), {}),
    "equity": ("equity", ("7s 7h Qc", 2), {"samples": 20_000, "seed": 3}),
    "health": ("health", ("prial.v1.Prial",), {}),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS)
def test_every_method_answers_what_client_answers(grpc_server, grpc_client, call):
    method, args, kwargs = call
    expected = getattr(grpc_client, method)(*args, **kwargs)
    got = run(grpc_server.target, lambda client: getattr(client, method)(*args, **kwargs))
    assert same(got, expected), (got, expected)


def test_a_stream_from_an_iterable_or_an_async_iterable(grpc_server, grpc_client):
    batches = [random_hands(rows, width, seed=rows) for rows, width in ((1, 3), (700, 3), (2_000, 3), (9, 3))]
    expected = list(grpc_client.evaluate_stream(batches, describe=True))

    async def produced() -> AsyncIterator[np.ndarray]:
        for batch in batches:
            await asyncio.sleep(0.01)
            yield batch

    async def body(client: AsyncClient) -> tuple[list[Evaluation], list[Evaluation], list[Evaluation]]:
        return ([r async for r in client.evaluate_stream(batches, describe=True)],
                [r async for r in client.evaluate_stream(iter(batches), describe=True)],
                [r async for r in client.evaluate_stream(produced(), describe=True)])

    for got in run(grpc_server.target, body):
        assert len(got) == len(expected)
        assert all(same(g, e) for g, e in zip(got, expected))
    assert [e.batch_index for e in expected] == [0, 1, 2, 3]


def test_many_calls_at_once(grpc_server, brag):
    # 90 calls: within the server's 100 streams a connection (beyond, see test_client_retries.py).
    hands = random_hands(120 * 40, 3, seed=8).reshape(120, 40, 3)
    sees = random_hands(20, 6, seed=9)

    async def body(client: AsyncClient) -> list[Any]:
        async def streamed(part: np.ndarray) -> list[Evaluation]:
            return [r async for r in client.evaluate_stream(list(part))]

        return await asyncio.gather(
            *(client.evaluate(h) for h in hands[:60]),
            *(client.showdown([Player("a", s[:3].tolist()), Player("b", s[3:].tolist())], seer="a") for s in sees),
            *(streamed(hands[i:i + 6]) for i in range(60, 120, 6)))

    results = run(grpc_server.target, body)
    evaluations, showdowns, streams = results[:60], results[60:80], results[80:]
    for batch, result in zip(hands[:60], evaluations, strict=True):
        np.testing.assert_array_equal(result.strengths, brag.evaluate_batch(batch))
    for s, result in zip(sees, showdowns, strict=True):
        assert result == prial.showdown([Player("a", s[:3].tolist()), Player("b", s[3:].tolist())], seer="a")
    assert [len(parts) for parts in streams] == [6] * 10
    for batch, result in zip(hands[60:], [r for parts in streams for r in parts], strict=True):
        np.testing.assert_array_equal(result.strengths, brag.evaluate_batch(batch))


def _bad_stream() -> list[np.ndarray]:
    good = random_hands(50, 3, seed=5)
    bad = good.copy()
    bad[13] = [9, 9, 10]
    return [good, good, bad, good]


def _duplicate_seen() -> tuple[np.ndarray, np.ndarray]:
    both = random_hands(50, 6, seed=12)
    seer, seen = np.ascontiguousarray(both[:, :3]), np.ascontiguousarray(both[:, 3:])
    seen[31, 2] = seer[31, 0]
    return seer, seen


FAILING = {
    "bad text hand": ("evaluate", (["3s 2h Ah", "Kd Zz 4c"],), {}),
    "duplicate card": ("evaluate", (np.array([[0, 1, 2], [5, 9, 5]], np.uint8),), {}),
    "bad batch of a stream": ("evaluate_stream", (_bad_stream(),), {}),
    "open seer of a blind man": ("showdown", ([Player("open", "Ks Kd 9h"), Player("blind", "Qs Qd 9c", blind=True)],),
                                 {"seer": "open"}),
    "card in both hands": ("showdown_batch", _duplicate_seen(), {}),
    "too few cards": ("partition", ("Ah Ad 3c",), {}),
    "too many samples": ("equity", ("7s 7h Qc", 3), {"samples": 10**9}),
}


@pytest.mark.parametrize("call", FAILING.values(), ids=FAILING)
def test_errors_are_those_of_client(grpc_server, grpc_client, call):
    method, args, kwargs = call

    def error_of(outcome: Callable[[], object]) -> tuple[grpc.StatusCode, str, tuple[Any, ...]]:
        with pytest.raises(PrialRpcError) as info:
            outcome()
        return info.value.code, info.value.message, info.value.field_violations

    async def body(client: AsyncClient) -> object:
        if method == "evaluate_stream":
            return [r async for r in client.evaluate_stream(*args, **kwargs)]
        return await getattr(client, method)(*args, **kwargs)

    expected = error_of(lambda: list(grpc_client.evaluate_stream(*args, **kwargs)) if method == "evaluate_stream"
                        else getattr(grpc_client, method)(*args, **kwargs))
    assert expected[0] in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert error_of(lambda: run(grpc_server.target, body)) == expected


def test_a_batch_refused_early_in_a_long_stream_is_reported_as_refused_every_time(grpc_server, grpc_client):
    # The client has hundreds of big batches still to send when the server
    # refuses batch 2: any of them being written as the call ended made
    # grpc.aio report INTERNAL in place of the server's status.
    good = random_hands(5_000, 3, seed=14)
    bad = good.copy()
    bad[13] = [9, 9, 10]
    batches = [good, good, bad, *[good] * 300]
    with pytest.raises(PrialRpcError) as info:
        list(grpc_client.evaluate_stream(batches))
    expected = (info.value.code, info.value.message, info.value.field_violations)
    assert expected[0] == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.batch_index for v in expected[2]] == [2]

    async def body(client: AsyncClient) -> list[tuple[grpc.StatusCode, str, tuple[Any, ...]]]:
        outcomes = []
        for _ in range(25):
            with pytest.raises(PrialRpcError) as info:
                async for _ in client.evaluate_stream(batches):
                    pass
            outcomes.append((info.value.code, info.value.message, info.value.field_violations))
        return outcomes

    assert run(grpc_server.target, body) == [expected] * 25


def test_one_batch_is_in_flight_at_a_time(grpc_server, brag):
    hands = random_hands(40 * 20, 3, seed=15).reshape(40, 20, 3)
    taken = 0

    async def batches() -> AsyncIterator[np.ndarray]:
        nonlocal taken
        for batch in hands:
            taken += 1
            yield batch

    async def body(client: AsyncClient) -> list[tuple[int, Evaluation]]:
        return [(taken - result.batch_index, result) async for result in client.evaluate_stream(batches())]

    answers = run(grpc_server.target, body)
    # When answer n arrives, batch n + 1 may have been taken, not batch n + 2.
    assert max(ahead for ahead, _ in answers) <= 2
    for batch, (_, result) in zip(hands, answers, strict=True):
        np.testing.assert_array_equal(result.strengths, brag.evaluate_batch(batch))


def test_a_stream_left_early_ends_at_once():
    async def batches() -> AsyncIterator[np.ndarray]:
        for seed in range(3):
            yield random_hands(7, 3, seed=seed)
        await asyncio.Event().wait()  # nothing more for now

    with ServerProcess() as server:
        async def body(client: AsyncClient) -> None:
            async for result in client.evaluate_stream(batches()):
                if result.batch_index == 2:
                    break
            # The client stays open: the call must end now, not when the client closes.
            await asyncio.to_thread(server.wait_for_log, '"method": "EvaluateStream"')

        run(server.target, body)


def test_a_batch_that_cannot_be_sent_ends_the_stream_after_the_batches_before_it(grpc_server, grpc_client):
    good = random_hands(20, 3, seed=6)
    batches = [good, good[:5], np.zeros((2, 3), np.int64), good]
    answered = []
    with pytest.raises(prial.InvalidHandError, match="uint8"):
        for result in grpc_client.evaluate_stream(batches):
            answered.append(result)
    assert [r.strengths.size for r in answered] == [20, 5]

    async def body(client: AsyncClient) -> list[Evaluation]:
        async_answered = []
        with pytest.raises(prial.InvalidHandError, match="uint8"):
            async for result in client.evaluate_stream(batches):
                async_answered.append(result)
        return async_answered

    assert all(same(a, b) for a, b in zip(run(grpc_server.target, body), answered, strict=True))


def test_an_error_of_the_callers_own_batches_is_raised_after_their_answers(grpc_server):
    class Exhausted(Exception):
        pass

    async def failing() -> AsyncIterator[np.ndarray]:
        yield random_hands(3, 3, seed=1)
        raise Exhausted("the caller's source failed")

    async def body(client: AsyncClient) -> list[Evaluation]:
        answered = []
        with pytest.raises(Exhausted, match="source failed"):
            async for result in client.evaluate_stream(failing()):
                answered.append(result)
        return answered

    assert [r.strengths.size for r in run(grpc_server.target, body)] == [3]


def test_bad_input_is_refused_before_any_call():
    nobody = f"127.0.0.1:{free_port()}"

    async def body(client: AsyncClient) -> None:
        with pytest.raises(prial.InvalidHandError, match="uint8"):
            await client.evaluate(np.zeros((2, 3), np.int64))
        with pytest.raises(prial.InvalidShowdownError, match="pot"):
            await client.showdown([Player("a", "7s 7h Qc"), Player("b", "7d 7c Qh")], pot=-1)

    run(nobody, body)


def _slow_batches() -> AsyncIterator[np.ndarray]:
    async def batches() -> AsyncIterator[np.ndarray]:
        for seed in range(20):
            await asyncio.sleep(0.1)
            yield random_hands(10, 3, seed=seed)

    return batches()


@pytest.mark.parametrize("where", ["call", "client"])
def test_deadline_exceeded(grpc_server, where):
    timeout = 0.35

    async def body(client: AsyncClient) -> None:
        with pytest.raises(PrialRpcError) as info:
            async for _ in client.evaluate_stream(_slow_batches(), timeout=timeout if where == "call" else None):
                pass
        assert info.value.code == grpc.StatusCode.DEADLINE_EXCEEDED

    started = time.monotonic()
    run(grpc_server.target, body, timeout=30 if where == "call" else timeout)
    assert time.monotonic() - started < 10


def test_wait_ready(grpc_server):
    nobody = f"127.0.0.1:{free_port()}"

    async def ready(client: AsyncClient) -> str:
        await client.wait_ready(timeout=10)
        return await client.health()

    async def never(client: AsyncClient) -> float:
        started = time.monotonic()
        with pytest.raises(grpc.FutureTimeoutError):
            await client.wait_ready(timeout=0.3)
        return time.monotonic() - started

    assert run(grpc_server.target, ready) == "SERVING"
    assert 0.3 <= run(nobody, never) < 5
    with Client(nobody) as client, pytest.raises(grpc.FutureTimeoutError):
        client.wait_ready(timeout=0.3)


def test_async_with_closes_the_channel(grpc_server):
    async def body() -> None:
        async with AsyncClient(grpc_server.target, timeout=30) as client:
            assert isinstance(client, AsyncClient)
            assert await client.health() == "SERVING"
        with pytest.raises(grpc.aio.UsageError, match="Channel is closed"):
            await client.health()

    asyncio.run(body())


def test_tls_client_certificates_and_tokens(secure_server):
    f = secure_server.files
    credentials = {"root_certificates": (f / "ca.pem").read_bytes(),
                   "certificate_chain": (f / "client.pem").read_bytes(), "private_key": (f / "client.key").read_bytes()}

    async def evaluate(client: AsyncClient) -> list[int]:
        return (await client.evaluate(["3s 2h Ah"])).strengths.tolist()

    def refused(**options: Any) -> grpc.StatusCode:
        with pytest.raises(PrialRpcError) as info:
            run(secure_server.target, evaluate, **options)
        return info.value.code

    assert run(secure_server.target, evaluate, token="secret", **credentials) == [716]
    assert refused(**credentials) == grpc.StatusCode.UNAUTHENTICATED
    assert refused(token="wrong", **credentials) == grpc.StatusCode.UNAUTHENTICATED
    stranger = (f / "stranger.pem").read_bytes()
    assert refused(token="secret", retries=None,
                   **{**credentials, "root_certificates": stranger}) == grpc.StatusCode.UNAVAILABLE
    assert refused(token="secret", retries=RetryPolicy(max_attempts=2), root_certificates=credentials[
        "root_certificates"]) == grpc.StatusCode.UNAVAILABLE  # no client certificate
