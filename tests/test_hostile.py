"""The service under hostile and faulty clients (loopback only, every case
bounded in count and time): bytes that are no message, values past what a
result can hold, unauthenticated junk.  Each answer has the right status
and the server keeps serving."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

from .grpc_helpers import ServerProcess

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
        for _ in range(count):
            with pytest.raises(grpc.RpcError) as info:
                evaluate(MALFORMED, timeout=10)
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    junk(1000)  # warm-up: the allocator settles
    before = rss_kib(server.proc.pid)
    junk(10_000)
    grown = rss_kib(server.proc.pid) - before
    assert grown < 5 * 1024, f"RSS grew {grown} KiB over 10,000 malformed calls"
    with pytest.raises(grpc.RpcError) as info:
        evaluate(MALFORMED, timeout=10)
    [(field, description)] = bad_request(info.value)
    assert field == "" and "not a valid prial.v1.EvaluateRequest message" in description
    server.wait_for_log('"method": "Evaluate", "code": "INVALID_ARGUMENT"', count=11_001)
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
