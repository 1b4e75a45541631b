"""One error vocabulary: every exception prial raises on purpose is a
``prial.Error``; a mistake in an option is a ``ConfigurationError`` (and a
``ValueError``), a bad hand an ``InvalidHandError``, and the gRPC service
and the command line answer both as they always have."""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys

import grpc
import pytest

import prial
from prial.client import PrialRpcError, RetryPolicy
from prial.server import ServeOptions, build_server
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

PUBLIC_MODULES = ("prial", "prial.client", "prial.server", "prial.play", "prial.score", "prial.audit", "prial.table")


def public_exceptions() -> dict[str, type[BaseException]]:
    found = {}
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            value = getattr(module, attr)
            if isinstance(value, type) and issubclass(value, BaseException):
                found[attr] = value
    return found


def test_every_public_exception_is_a_prial_error():
    found = public_exceptions()
    assert {"InvalidHandError", "InvalidShowdownError", "ConfigurationError", "CancelledError",
            "IllegalActionError", "ScoreError", "PrialRpcError", "StartupError"} <= set(found)
    assert [name for name, error in found.items() if not issubclass(error, prial.Error)] == []


def test_the_input_errors_are_value_errors_and_apart():
    for error in (prial.ConfigurationError, prial.InvalidHandError, prial.IllegalActionError):
        assert issubclass(error, ValueError)
    assert not issubclass(prial.ConfigurationError, prial.InvalidHandError)
    assert not issubclass(prial.InvalidHandError, prial.ConfigurationError)


OPTION_MISTAKES = [
    (lambda: prial.Rules(preset="bogus"), "preset must be one of"),
    (lambda: prial.Rules(jokers=5), "jokers must be an integer 0..3"),
    (lambda: prial.Rules(wild=["Zz"]), "wild item 0"),
    (lambda: prial.Rules(suit_order="shd"), "suit_order"),
    (lambda: prial.equity("As Kd Qh", opponents=0), "opponents must be an integer >= 1"),
    (lambda: prial.equity("As Kd Qh", samples=0, opponents=3), "samples must be"),
    (lambda: prial.odds(cards=6), "cards must be 3, 4 or 5"),
    (lambda: prial.settle_casino("Ks 9h 4d", "Qc 3d 2h", ante=0), "ante must be a whole number of chips from 1"),
    (lambda: prial.settle_casino("Ks 9h 4d", "Qc 3d 2h", 5, paytable="nope"), "paytable must be"),
    (lambda: prial.Paytable.make("bad", {}, {}, play_multiple=0), "play_multiple"),
    (lambda: prial.random_hands(-1), "rows must be"),
    (lambda: prial.partition("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", min_category="quads"), "min_category"),
    (lambda: prial.showdown([prial.Player("a", "As Kd Qh"), prial.Player("b", "2c 3d 5h")], cards_per_hand=6),
     "cards_per_hand"),
    (lambda: prial.TableRules(game="bogus"), "game must be one of"),
    (lambda: prial.TableRules(ante=-1), "ante must be a whole number of chips"),
    (lambda: prial.simulate(prial.TableRules(), [None, 2.0], 20_000), "policy 1 must be"),
    (lambda: RetryPolicy(max_attempts=1), "max_attempts"),
]


@pytest.mark.parametrize("call, words", OPTION_MISTAKES, ids=[w for _, w in OPTION_MISTAKES])
def test_an_option_mistake_is_a_configuration_error(call, words):
    with pytest.raises(prial.ConfigurationError, match=words) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert not isinstance(info.value, prial.InvalidHandError)
    assert info.value.file is None  # the options are at fault, no file


def test_an_option_mistake_is_still_caught_as_a_value_error():
    with pytest.raises(ValueError, match="preset"):
        prial.Rules(preset="bogus")


@pytest.mark.parametrize("call", [
    lambda: prial.evaluate("Zs 2h Ah"),
    lambda: prial.equity("As Ad"),
    lambda: prial.settle_casino("Ks 9h 4d", "Ks 3d 2h", 5),
    lambda: prial.evaluate("3s 3s 4d"),
])
def test_a_bad_hand_is_an_invalid_hand_error(call):
    with pytest.raises(prial.InvalidHandError) as info:
        call()
    assert not isinstance(info.value, prial.ConfigurationError)


def test_a_missing_tls_file_is_a_configuration_error_naming_the_file(tmp_path):
    cert = tmp_path / "cert.pem"
    cert.write_text("not a certificate\n")
    key = str(tmp_path / "key.pem")  # missing
    with pytest.raises(prial.ConfigurationError, match="--tls-key .*key.pem") as info:
        asyncio.run(build_server(ServeOptions(port=0, tls_cert=str(cert), tls_key=key)))
    assert info.value.file == key
    assert isinstance(info.value, ValueError)


def prial_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "prial", *args], capture_output=True, text=True, timeout=60)


def test_the_command_line_exits_1_for_a_file_and_2_for_an_option(tmp_path):
    done = prial_cli("serve", "--port", "0", "--tls-cert", str(tmp_path / "c"), "--tls-key", str(tmp_path / "k"))
    assert done.returncode == 1 and done.stderr.startswith("prial: error: --tls-") and done.stderr.count("\n") == 1
    done = prial_cli("odds", "--hand", "As Kd Qh", "--opponents", "20")
    assert done.returncode == 2
    assert done.stderr == "prial: error: 20 opponent(s) need 60 unseen cards, there are 49\n"
    done = prial_cli("odds", "--hand", "As Kd Qh", "--wild", "bogus")
    assert done.returncode == 2 and done.stderr.startswith("prial: error: wild must be a preset")


@pytest.fixture(scope="module")
def stub(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        yield pb_grpc.PrialStub(channel)


def refused(call) -> PrialRpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT, error
    return error


@pytest.mark.parametrize("call, field", [
    (lambda s: s.Evaluate(pb.EvaluateRequest(cards=bytes([0, 1, 2]), rules=pb.Rules(jokers=9)), timeout=10), "rules"),
    (lambda s: s.Odds(pb.OddsRequest(rules=pb.Rules(suit_order="shd")), timeout=10), "rules"),
    (lambda s: s.Odds(pb.OddsRequest(cards=6), timeout=10), "cards"),
    (lambda s: s.Equity(pb.EquityRequest(hand=pb.Cards(text="As Kd Qh"), opponents=20), timeout=10), "opponents"),
    (lambda s: s.SettleCasino(pb.SettleCasinoRequest(player=pb.Cards(text="Ks 9h 4d"), dealer=pb.Cards(text="Qc 3d 2h"),
                                                     ante=0), timeout=10), "ante"),
])
def test_a_bad_option_in_a_request_is_invalid_argument_naming_its_field(stub, call, field):
    error = refused(lambda: call(stub))
    assert [v.field for v in error.field_violations] == [field]
    assert error.message  # the library's own words, one line


def test_a_bad_ruleset_in_a_stream_names_its_batch(stub):
    good = pb.EvaluateRequest(cards=bytes([0, 1, 2]))
    bad = pb.EvaluateRequest(cards=bytes([0, 1, 2]), rules=pb.Rules(wild="sevens"))
    error = refused(lambda: list(stub.EvaluateStream(iter([good, bad, good]), timeout=10)))
    assert [v.field for v in error.field_violations] == ["batch[1].rules"]
