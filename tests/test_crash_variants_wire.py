"""Crash scoring's ``ties``, ``four_bonus`` and ``below_min`` on the command
line (``prial crash``, ``prial call crash``) and over gRPC: the library's
answers under each value, an empty request field read as the default, and
every bad value refused in one line naming the option (INVALID_ARGUMENT
naming the request field)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os

import grpc
import pytest

import prial
from prial import CrashPlayer
from prial.cli import main
from prial.client import AsyncClient, PrialRpcError
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

from .cli_helpers import usage_error

OPTIONS = {"ties": ["stick_up", "cancel"], "four_bonus": ["best", "every"], "below_min": ["foul", "forfeit_position"]}
EVERY_READING = [dict(zip(OPTIONS, values)) for values in itertools.product(*OPTIONS.values())]
# Players 1 and 3 tie at position 2, where player 2 holds the next best;
# player 2's third hand is below a pair; all three hold a four of a kind
# (aces, fives, queens).
TABLE = ["As Ad Ah | Kd Kh 7c | Ac 9c 9d", "5c 5d 5h | 5s Jd Jh | Tc 8d 4h", "Qs Qd Qh | Ks Kc 7d | Qc 2d 2s"]
PLAYERS = [CrashPlayer(str(n), [h.strip() for h in text.split("|")]) for n, text in enumerate(TABLE, 1)]
BAD = [("ties", "split"), ("four_bonus", "all"), ("below_min", "forfeit")]


@pytest.fixture(autouse=True)
def grpc_logs_quieted_per_test(monkeypatch):
    # prial call quiets gRPC's own logs through the environment: undone after each test.
    monkeypatch.setenv("GRPC_VERBOSITY", os.environ.get("GRPC_VERBOSITY", "NONE"))


def flags(options: dict[str, str]) -> list[str]:
    return [part for name, value in options.items() for part in (f"--{name.replace('_', '-')}", value)]


def test_the_table_differs_under_every_reading():
    answers = {json.dumps(prial.crash_showdown(PLAYERS, min_category="PAIR", **o).to_dict()) for o in EVERY_READING}
    assert len(answers) == len(EVERY_READING)


@pytest.mark.parametrize("options", EVERY_READING, ids=lambda o: "-".join(o.values()))
def test_grpc_and_both_clients_answer_as_the_library(grpc_client, grpc_server, options):
    expected = prial.crash_showdown(PLAYERS, min_category="PAIR", **options)
    assert grpc_client.crash_showdown(PLAYERS, min_category="PAIR", **options) == expected

    async def remote():
        async with AsyncClient(grpc_server.target, timeout=30) as client:
            return await client.crash_showdown(PLAYERS, min_category="PAIR", **options)

    assert asyncio.run(remote()) == expected


def test_grpc_empty_fields_are_the_defaults(grpc_server):
    request = pb.CrashShowdownRequest(min_category=pb.PAIR, players=[
        pb.CrashPlayer(id=p.id, hands=[pb.Cards(text=h) for h in p.hands]) for p in PLAYERS])
    with grpc.insecure_channel(grpc_server.target) as channel:
        response = pb_grpc.PrialStub(channel).CrashShowdown(request, timeout=10)
    expected = prial.crash_showdown(PLAYERS, min_category="PAIR")
    assert dict(response.points) == expected.points == {"1": 3, "2": 0, "3": 0}
    assert [(p.winner, p.stick_up, list(p.cancelled), list(p.forfeited)) for p in response.positions] == [
        ("1", False, [], []), ("", True, [], []), ("1", False, [], [])]
    assert [p.fouled for p in response.players] == [False, True, False]
    assert list(response.four_of_a_kind_bonuses) == ["1"]


@pytest.mark.parametrize(("option", "value"), BAD)
def test_grpc_bad_value_is_invalid_argument_naming_the_field(grpc_server, option, value):
    request = pb.CrashShowdownRequest(players=[
        pb.CrashPlayer(id=p.id, hands=[pb.Cards(text=h) for h in p.hands]) for p in PLAYERS], **{option: value})
    with grpc.insecure_channel(grpc_server.target) as channel:
        with pytest.raises(grpc.RpcError) as info:
            pb_grpc.PrialStub(channel).CrashShowdown(request, timeout=10)
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.message == f"{option} must be one of {', '.join(map(repr, OPTIONS[option]))}, got {value!r}"
    assert [v.field for v in error.field_violations] == [option]


@pytest.mark.parametrize(("option", "value"), BAD)
def test_the_client_refuses_a_bad_value_before_sending(grpc_client, option, value):
    with pytest.raises(prial.ConfigurationError, match=f"^{option} must be one of"):
        grpc_client.crash_showdown(PLAYERS, **{option: value})


@pytest.mark.parametrize("options", EVERY_READING, ids=lambda o: "-".join(o.values()))
def test_cli_crash_takes_each_reading(capsys, options):
    assert main(["crash", *TABLE, "--min-category", "PAIR", *flags(options), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == prial.crash_showdown(PLAYERS, min_category="PAIR",
                                                                       **options).to_dict()


def test_cli_call_crash_takes_them_too(capsys, grpc_server):
    options = {"ties": "cancel", "four_bonus": "every", "below_min": "forfeit_position"}
    argv = ["call", "--target", grpc_server.target, "crash", *TABLE, "--min-category", "PAIR", *flags(options)]
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == prial.crash_showdown(PLAYERS, min_category="PAIR",
                                                                       **options).to_dict()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "2 scores 1: Pair of jacks, five kicker (1 and 3 cancel out)" in out
    assert "four of a kind: players 1, 2 and 3 each score a bonus point" in out


@pytest.mark.parametrize(("option", "value"), BAD)
@pytest.mark.parametrize("remote", [False, True])
def test_cli_bad_value_is_one_line(capsys, grpc_server, option, value, remote):
    prefix = ["call", "--target", grpc_server.target] if remote else []
    err = usage_error(capsys, [*prefix, "crash", *TABLE, f"--{option.replace('_', '-')}", value])
    choices = ", ".join(map(repr, OPTIONS[option]))
    assert f"argument --{option.replace('_', '-')}: invalid choice: {value!r} (choose from {choices})" in err
