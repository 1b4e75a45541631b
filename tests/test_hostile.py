"""The service under hostile and faulty clients (loopback only, every case
bounded in count and time): bytes that are no message, values past what a
result can hold, unauthenticated junk.  Each answer has the right status
and the server keeps serving."""

from __future__ import annotations

import os

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

from .grpc_helpers import ServerProcess
from .http2_client import RawConnection, status_of

pytestmark = pytest.mark.slow

MALFORMED = b"\xff\xff"  # a field tag with no end: no protobuf message parses from it


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def bad_request(error: grpc.RpcError) -> list[tuple[str, str]]:
    status = rpc_status.from_call(error)
    assert status is not None, "the status carries no details"
    violations = []
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        assert detail.Unpack(bad)
        violations += [(v.field, v.description) for v in bad.field_violations]
    return violations


@pytest.fixture(scope="module")
def server():
    with ServerProcess() as running:
        yield running


@pytest.fixture(scope="module")
def channel(server):
    with grpc.insecure_channel(server.target) as ch:
        yield ch


def test_malformed_requests_are_invalid_argument_logged_and_counted_and_leak_nothing(server, channel):
    evaluate = channel.unary_unary("/prial.v1.Prial/Evaluate")
    stub = pb_grpc.PrialStub(channel)

    def junk(count: int) -> None:
        for start in range(0, count, 100):  # 100 calls in flight at a time
            for future in [evaluate.future(MALFORMED, timeout=30) for _ in range(min(100, count - start))]:
                assert future.exception().code() == grpc.StatusCode.INVALID_ARGUMENT

    # Memory kept, not memory that is reused: the server first settles, then
    # 10,000 more malformed calls must leave it where it was.  Settling is
    # the allocator, grpc's per-call caches and garbage in cycles: grpc.aio
    # leaves a few objects of every call in reference cycles of its own,
    # which only the cyclic garbage collector frees, so RSS climbs to the
    # most garbage ever left waiting for it, which it reaches within 10,000
    # calls on CPython 3.10-3.12 and 20,000 on 3.13, whose collector starts
    # a pass after 2,000 new objects (700 before): about 5 MB on 3.11, where
    # an aborted call's own frames, caught in such a cycle too before
    # prial.service.calls.end, took it to 15-30 MB.  After that RSS stays
    # flat however many calls come, where a leak would keep it growing.
    junk(20_000)
    before = rss_kib(server.proc.pid)
    junk(10_000)
    grown = rss_kib(server.proc.pid) - before
    assert grown < 5 * 1024, f"RSS grew {grown} KiB over 10,000 malformed calls"
    with pytest.raises(grpc.RpcError) as info:
        evaluate(MALFORMED, timeout=10)
    [(field, description)] = bad_request(info.value)
    assert field == "" and "not a valid prial.v1.EvaluateRequest message" in description
    server.wait_for_log('"method": "Evaluate", "code": "INVALID_ARGUMENT"', count=30_001)
    assert stub.Evaluate(pb.EvaluateRequest(hands=["3s 2h Ah"]), timeout=10).count == 1  # still serving


@pytest.mark.parametrize("method", [m.name for m in pb.DESCRIPTOR.services_by_name["Prial"].methods])
def test_every_method_refuses_malformed_bytes(channel, method):
    descriptor = pb.DESCRIPTOR.services_by_name["Prial"].methods_by_name[method]
    path = f"/prial.v1.Prial/{method}"
    if descriptor.client_streaming:
        call = channel.stream_stream(path)
        with pytest.raises(grpc.RpcError) as info:
            list(call(iter([pb.EvaluateRequest(hands=["3s 2h Ah"]).SerializeToString(), MALFORMED]), timeout=10))
        expected_field = "batch[1]"
    else:
        call = (channel.unary_stream if descriptor.server_streaming else channel.unary_unary)(path)
        with pytest.raises(grpc.RpcError) as info:
            result = call(MALFORMED, timeout=10)
            list(result) if descriptor.server_streaming else result
        expected_field = ""
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, description)] = bad_request(info.value)
    assert field == expected_field and f"prial.v1.{descriptor.input_type.name}" in description


CARDS = {"player": pb.Cards(text="Ah Ad As"), "dealer": pb.Cards(text="Kc Qd 2h")}


@pytest.mark.parametrize("request_, field", [
    (pb.SettleCasinoRequest(**CARDS, ante=2**64 - 1, play=2**64 - 1), "ante"),
    (pb.SettleCasinoRequest(**CARDS, ante=2**62, play=2**62), "ante"),  # the prial's ante bonus pays 5:1
    (pb.SettleCasinoRequest(**CARDS, ante=1, pair_bonus=2**64 - 1), "pair_bonus"),
    (pb.SettleCasinoRequest(**CARDS, ante=2**40, play=2**40,
                            paytable=pb.Paytable(name="huge", ante_bonus=[pb.CategoryPays(category=pb.PRIAL,
                                                                                           pays=2**32 - 1)])),
     "ante"),
    (pb.EquityRequest(hand=pb.Cards(text="Ah Ad As"), opponents=2**32 - 1), "opponents"),
], ids=["ante", "ante-bonus", "pair-bonus", "custom-pays", "opponents"])
def test_values_past_what_a_result_holds_are_invalid_argument(channel, request_, field):
    stub = pb_grpc.PrialStub(channel)
    call = stub.Equity if isinstance(request_, pb.EquityRequest) else stub.SettleCasino
    with pytest.raises(grpc.RpcError) as info:
        call(request_, timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
    assert bad_request(info.value)[0][0] == field


def test_junk_without_a_token_is_refused_before_it_is_read(tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("sesame\n")
    with ServerProcess("--auth-token-file", str(tokens)) as server, grpc.insecure_channel(server.target) as ch:
        evaluate = ch.unary_unary("/prial.v1.Prial/Evaluate")
        with pytest.raises(grpc.RpcError) as info:
            evaluate(MALFORMED, timeout=10)
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.RpcError) as info:
            evaluate(MALFORMED, timeout=10, metadata=(("authorization", "Bearer sesame"),))
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT


# ---- idle and half-open streams ----

def timed_health(target: str) -> float:
    import time

    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(target) as ch:
        start = time.monotonic()
        answer = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=2)
        took = time.monotonic() - start
    assert answer.status == health_pb2.HealthCheckResponse.SERVING
    return took


@pytest.mark.parametrize("streams, connections", [(8, 1), (200, 4)])
def test_health_and_calls_answer_while_idle_streams_are_held(server, streams, connections):
    raw = [RawConnection(server.port) for _ in range(connections)]
    try:
        for conn in raw:
            conn.open_idle_streams(streams // connections)
            conn.events(0.2)
        # Health, and real calls, have capacity of their own: answered at once.
        assert timed_health(server.target) < 2
        with grpc.insecure_channel(server.target) as ch:
            assert pb_grpc.PrialStub(ch).Evaluate(pb.EvaluateRequest(hands=["3s 2h Ah"]), timeout=2).count == 1
    finally:
        for conn in raw:
            conn.close()


def test_streams_that_send_nothing_cost_no_worker(server):
    import threading

    release = threading.Event()

    def nothing():
        release.wait(30)
        return
        yield  # a generator that sends no request until released

    with grpc.insecure_channel(server.target) as ch:
        stub = pb_grpc.PrialStub(ch)
        held = [stub.EvaluateStream(nothing(), timeout=30) for _ in range(8)]
        try:
            assert timed_health(server.target) < 2
            assert stub.Evaluate(pb.EvaluateRequest(hands=["3s 2h Ah"]), timeout=2).count == 1
        finally:
            release.set()
            for call in held:
                assert list(call) == []


def test_an_idle_stream_is_ended_after_the_idle_timeout():
    with ServerProcess("--idle-timeout", "1") as idle_server:
        conn = RawConnection(idle_server.port)
        try:
            [stream] = conn.open_idle_streams(1)
            events = conn.events(5)
        finally:
            conn.close()
    statuses = status_of(events, stream)
    assert statuses.get("grpc-status") == str(grpc.StatusCode.DEADLINE_EXCEEDED.value[0]), statuses
    assert "no request message within 1 s" in statuses.get("grpc-message", "").replace("%20", " ")


# ---- oversize requests ----

@pytest.mark.parametrize("method, players", [("Showdown", 31_000_000), ("CrashShowdown", 31_000_000)])
def test_oversize_requests_are_refused_before_they_are_read(server, channel, method, players):
    import time

    call = channel.unary_unary(f"/prial.v1.Prial/{method}")
    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as info:
        call(b"\x12\x00" * players, timeout=20)  # 62 MB of empty players
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert time.monotonic() - start < 4  # the bytes go over loopback, then are refused unread
    assert timed_health(server.target) < 2


@pytest.mark.parametrize("request_, method, most", [
    (pb.ShowdownRequest(players=[pb.Player(id=f"p{i}", cards=pb.Cards(text="")) for i in range(19)]), "Showdown", 18),
    (pb.CrashShowdownRequest(players=[pb.CrashPlayer(id=f"p{i}") for i in range(7)]), "CrashShowdown", 6),
])
def test_more_players_than_a_pack_deals_are_invalid(channel, request_, method, most):
    with pytest.raises(grpc.RpcError) as info:
        getattr(pb_grpc.PrialStub(channel), method)(request_, timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, description)] = bad_request(info.value)
    assert field == "players" and f"at most {most} hands" in description


@pytest.mark.parametrize("long_text", ["A" * 65, "♥" * 65, "A" * 100_000])
def test_hand_text_is_bounded(channel, long_text):
    with pytest.raises(grpc.RpcError) as info:
        pb_grpc.PrialStub(channel).Evaluate(pb.EvaluateRequest(hands=["3s 2h Ah", long_text]), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, description)] = bad_request(info.value)
    assert field == "hands[1]" and "at most 64 characters" in description


@pytest.mark.parametrize("method", ["Evaluate", "EvaluateStream"])
def test_a_huge_count_of_text_hands_is_refused_undecoded_while_health_answers(server, channel, method):
    """62 MB of empty text hands: decoding them would hold the GIL for
    seconds; they are counted undecoded and refused."""
    import threading

    request = b"\x22\x00" * 31_000_000
    outcome: list[object] = []

    def huge_call() -> None:
        try:
            if method == "Evaluate":
                channel.unary_unary(f"/prial.v1.Prial/{method}")(request, timeout=30)
            else:
                list(channel.stream_stream(f"/prial.v1.Prial/{method}")(iter([request]), timeout=30))
        except grpc.RpcError as exc:
            outcome.append(exc)

    caller = threading.Thread(target=huge_call)
    caller.start()
    slowest = 0.0
    while caller.is_alive():
        slowest = max(slowest, timed_health(server.target))
    caller.join()
    [error] = outcome
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
    assert "31000000 hands in one batch" in error.details()
    assert slowest < 1.0  # decoded with the GIL held, health waited 2.2 s


# ---- the budget of bytes in flight ----

def status_kib(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(f"{key}:"))


def concurrent_codes(target: str, request: bytes, callers: int, rounds: int) -> list[grpc.StatusCode]:
    import threading

    codes: list[grpc.StatusCode] = []

    def caller() -> None:
        with grpc.insecure_channel(target, options=[("grpc.max_send_message_length", 64 << 20)]) as ch:
            call = ch.unary_unary("/prial.v1.Prial/Evaluate")
            for _ in range(rounds):
                try:
                    call(request, timeout=120)
                    codes.append(grpc.StatusCode.OK)
                except grpc.RpcError as exc:
                    codes.append(exc.code())

    threads = [threading.Thread(target=caller) for _ in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return codes


BUDGET_MIB = 150
OVERHEAD_MIB = 64  # docs/service.md, "Limits"


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="under AddressSanitizer the memory is its quarantine and shadow, not the server's "
                           "(the unsanitized run checks the bound)")
def test_memory_stays_under_the_budget_plus_the_stated_overhead():
    """Text hands take twenty times their request's size to answer: three
    callers of 500,000 each would need 300 MiB at once; the budget lets one
    in at a time and refuses the others."""
    import prial

    text = [prial.format_cards(h) for h in prial.random_hands(500_000, 3, seed=11)]
    request = pb.EvaluateRequest(hands=text).SerializeToString()
    with ServerProcess("--max-bytes-in-flight-mb", str(BUDGET_MIB), "--workers", "3") as running:
        with grpc.insecure_channel(running.target) as ch:  # warm: tables, threads, one small call
            pb_grpc.PrialStub(ch).Evaluate(pb.EvaluateRequest(hands=text[:1000]), timeout=30)
        idle = status_kib(running.proc.pid, "VmRSS")
        codes = concurrent_codes(running.target, request, callers=3, rounds=2)
        peak = status_kib(running.proc.pid, "VmHWM")
    assert set(codes) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}, codes
    assert grpc.StatusCode.OK in codes and grpc.StatusCode.RESOURCE_EXHAUSTED in codes, codes
    assert (peak - idle) / 1024 < BUDGET_MIB + OVERHEAD_MIB


def test_cancelled_calls_give_their_memory_back():
    """A budget with room for one 1M-hand batch at a time: after calls
    cancelled at every stage of their work, it is whole again."""
    import prial

    request = pb.EvaluateRequest(cards=prial.random_hands(1_000_000, 3, seed=3).tobytes()).SerializeToString()
    with ServerProcess("--max-bytes-in-flight-mb", "40") as running:
        with grpc.insecure_channel(running.target) as ch:
            call = ch.unary_unary("/prial.v1.Prial/Evaluate")
            expired = 0
            for i in range(30):
                try:
                    call(request, timeout=0.001 * (i % 10 + 1))
                except grpc.RpcError as exc:
                    # RESOURCE_EXHAUSTED: the work of an expired call is still
                    # ending and holds the budget
                    assert exc.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED,
                                          grpc.StatusCode.RESOURCE_EXHAUSTED)
                    expired += exc.code() != grpc.StatusCode.RESOURCE_EXHAUSTED
            assert expired >= 10
            # the work of the last ones may still be ending: the budget is
            # whole again once it has
            for _ in range(50):
                try:
                    assert pb.EvaluateResponse.FromString(call(request, timeout=30)).count == 1_000_000
                    break
                except grpc.RpcError as exc:
                    assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    import time
                    time.sleep(0.1)
            else:
                pytest.fail("the budget never came back")


# ---- shutdown ----

def test_sigterm_after_malformed_streams_exits_on_time():
    import time

    with ServerProcess("--grace", "2") as stopping:
        with grpc.insecure_channel(stopping.target) as ch:
            stream = ch.stream_stream("/prial.v1.Prial/EvaluateStream")
            for _ in range(2):
                with pytest.raises(grpc.RpcError) as info:
                    list(stream(iter([MALFORMED]), timeout=10))
                assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            # and a call that will still be running when the signal comes
            busy = pb_grpc.PrialStub(ch).Equity.future(
                pb.EquityRequest(hand=pb.Cards(text="As Kd Qh"), opponents=16, samples=10_000_000), timeout=60)
            time.sleep(0.3)
            start = time.monotonic()
            stopping.proc.send_signal(15)
            code = stopping.terminate(timeout=20, signal_first=False)
            took = time.monotonic() - start
            busy.cancel()
    assert code == 0 and took < 4, f"exit {code} after {took:.1f} s"  # the 2 s of grace, then at most 2 s



# ---- runaway work ----

def process_cpu_seconds(pid: int) -> float:
    import os

    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_calls_past_their_deadline_stop_burning_cpu():
    import time

    # A server that takes long Equity calls (the default caps samples x
    # opponents far lower): 10M samples against 16 opponents is seconds of work.
    with ServerProcess("--max-batch", str(1 << 24)) as big, grpc.insecure_channel(big.target) as ch:
        stub = pb_grpc.PrialStub(ch)
        heavy = pb.EquityRequest(hand=pb.Cards(text="As Kd Qh"), opponents=16, samples=10_000_000)
        calls = [stub.Equity.future(heavy, timeout=0.3) for _ in range(8)]
        for call in calls:
            assert call.exception(timeout=10).code() == grpc.StatusCode.DEADLINE_EXCEEDED
        time.sleep(0.5)  # the deadline's cancellation reaches the native loops
        before = process_cpu_seconds(big.proc.pid)
        time.sleep(2)
        burnt = process_cpu_seconds(big.proc.pid) - before
        assert burnt < 0.5, f"{burnt:.2f} CPU-seconds burnt after every deadline had passed"
        assert timed_health(big.target) < 2
        big.wait_for_log('"method": "Equity", "code": "DEADLINE_EXCEEDED"', count=8)


def test_equity_work_is_capped_before_it_starts(channel):
    import time

    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as info:
        pb_grpc.PrialStub(channel).Equity(pb.EquityRequest(hand=pb.Cards(text="As Kd Qh"), opponents=16,
                                                           samples=10_500_000), timeout=10)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "opponent hands" in info.value.details()
    assert time.monotonic() - start < 1
