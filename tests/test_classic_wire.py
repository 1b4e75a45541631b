"""Classic three-stake Brag over gRPC (SettleClassic, and Evaluate under
the classic preset) on a real loopback server: the library's answers, and
bad input refused as INVALID_ARGUMENT naming the request field."""

from __future__ import annotations

import dataclasses
import random

import grpc
import numpy as np
import pytest

import prial
from prial import ClassicPlayer, ClassicRules, Rules
from prial.cli import main
from prial.client import PrialRpcError
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

DEAL = ["Jc 9d Ah / stand", "Ks Kh 7c / draw", "5c 6d Ad / draw draw"]
PLAYERS = [ClassicPlayer("ann", "Jc 9d Ah", ["stand"]), ClassicPlayer("bob", "Ks Kh 7c", ["draw"]),
           ClassicPlayer("cy", "5c 6d Ad", ["draw", "draw"])]


@pytest.mark.parametrize("message, result_type", [
    ("SettleClassicResponse", prial.ClassicResult), ("ClassicPhase", prial.ClassicPhase),
    ("ClassicHand", prial.ClassicHand), ("ClassicDraw", prial.ClassicDraw),
    ("ClassicPlayer", prial.ClassicPlayer)])
def test_messages_mirror_the_python_types(message, result_type):
    assert set(getattr(pb, message).DESCRIPTOR.fields_by_name) == {f.name for f in dataclasses.fields(result_type)}


@pytest.mark.parametrize("seed", range(8))
def test_settle_classic_answers_as_the_library(grpc_client, seed):
    rng = random.Random(seed)
    pack = list(range(52))
    rng.shuffle(pack)
    n = rng.randint(2, 6)
    players = [ClassicPlayer(f"p{i}", pack[3 * i:3 * i + 3], ["draw"] * rng.randint(0, 1)) for i in range(n)]
    wild = rng.choice(["bragger", "bragger_nine", "bragger_jacks", "bragger_ace_nine", "none"])
    rules = ClassicRules(stake=rng.randint(0, 9), bonus=rng.randint(0, 3), ace=rng.choice([10, 1, 11]),
                         best_card_ties=rng.choice(["eldest", "share"]),
                         rules=Rules(preset="classic", wild=wild,
                                     wild_ties=rng.choice(["natural_wins", "natural_prials", "equal"])))
    options = {"contenders": ["p0", "p1"], "seer": "p1"} if seed % 2 else {}
    expected = prial.settle_classic(players, rules, seed=seed, **options)
    assert grpc_client.settle_classic(players, rules, seed=seed, **options) == expected
    stock = [c for c in pack[3 * n:]][::-1]
    assert grpc_client.settle_classic(players, rules, stock=stock) == prial.settle_classic(players, rules, stock=stock)


def test_evaluate_takes_the_classic_preset_and_its_options(grpc_client):
    hands = np.array([prial.parse_cards(h) for h in ("Ah Kh Qh", "Jc 9d 2c", "3s 3h Jc", "3c 3d Jd")], dtype=np.uint8)
    for rules in (Rules(preset="classic"), Rules(preset="classic", wild="bragger_jacks", wild_ties="natural_prials"),
                  Rules(preset="classic", wild="none")):
        answer = grpc_client.evaluate(hands, rules=rules)
        assert answer.strengths.tolist() == prial.Evaluator(rules).evaluate_batch(hands).tolist()


def _request(**fields: object) -> pb.SettleClassicRequest:
    players = [pb.ClassicPlayer(id=p.id, cards=pb.Cards(text=p.cards), actions=p.actions) for p in PLAYERS]
    return pb.SettleClassicRequest(**{"players": players, **fields})


def _call(server, request):
    with grpc.insecure_channel(server.target) as channel:
        return pb_grpc.PrialStub(channel).SettleClassic(request, timeout=10)


def test_unset_options_are_the_defaults(grpc_server):
    response = _call(grpc_server, _request())
    expected = prial.settle_classic(PLAYERS)
    assert [list(p.winners) for p in response.phases] == [list(p.winners) for p in expected.phases]
    assert dict(response.nets) == expected.nets and not response.HasField("bonus_winner")


@pytest.mark.parametrize("fields, field, message", [
    ({"ace": 12}, "ace", "ace must be one of 10, 1, 11"),
    ({"best_card_ties": "youngest"}, "best_card_ties", "best_card_ties must be one of eldest, share"),
    ({"stake": 2**62, "bonus": 1}, "stake", "come to more than 9223372036854775807 chips"),
    ({"contenders": ["zed"]}, "contenders", "'zed' is not at the table"),
    ({"contenders": ["ann"], "seer": "ann"}, "seer", "a see needs two contenders"),
    ({"seer": "ann"}, "seer", "a see needs two contenders"),
    ({"contenders": ["ann", "bob"], "seer": "cy"}, "seer", "got seer 'cy' and contenders ann, bob"),
    ({"stock": pb.Cards(text="Jc")}, "stock", "card Jc appears in both the stock and player 'ann'"),
    ({"stock": pb.Cards(text="2s"), "seed": 4}, "seed", "give the stock or a seed, not both"),
    ({"rules": pb.Rules(preset=99)}, "rules.preset", "rules.preset: unknown enum value 99"),
    ({"rules": pb.Rules(wild="braggers")}, "rules", "wild must be a preset"),
    ({"rules": pb.Rules(wild_ties=9)}, "rules.wild_ties", "unknown enum value 9"),
])
def test_bad_request_is_invalid_argument_naming_the_field(grpc_server, fields, field, message):
    with pytest.raises(grpc.RpcError) as info:
        _call(grpc_server, _request(**fields))
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert message in error.message and "\n" not in error.message
    assert [v.field for v in error.field_violations] == [field]


def test_bad_players_are_invalid_argument(grpc_server):
    short = _request()
    short.players[0].cards.text = "Jc 9d"
    acting = _request()
    acting.players[1].actions.append("hit")
    alone = _request()
    del alone.players[1:]
    for request, message in ((short, "a classic hand is 3 cards, got 2"), (acting, "expected 'draw' or 'stand'"),
                             (alone, "a classic deal needs 2 to 17 players; got 1")):
        with pytest.raises(grpc.RpcError) as info:
            _call(grpc_server, request)
        error = PrialRpcError.from_rpc_error(info.value)
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT and message in error.message
        assert [v.field for v in error.field_violations] == ["players"]


def test_the_client_refuses_bad_arguments_before_sending(grpc_client):
    with pytest.raises(prial.ConfigurationError, match="rules must be a prial.ClassicRules or None"):
        grpc_client.settle_classic(PLAYERS, Rules(preset="classic"))
    with pytest.raises(prial.InvalidShowdownError, match="expected a prial.ClassicPlayer"):
        grpc_client.settle_classic([("ann", "Jc 9d Ah")])
    with pytest.raises(prial.InvalidShowdownError, match="seed must be an integer"):
        grpc_client.settle_classic(PLAYERS, seed=2**64)


def test_prial_call_prints_the_local_table(grpc_server, capsys):
    arguments = [*DEAL, "--seed", "7", "--bonus", "1", "--wild", "bragger_nine"]
    assert main(["classic", *arguments]) == 0
    local = capsys.readouterr().out
    assert main(["call", "--target", grpc_server.target, "classic", *arguments]) == 0
    assert capsys.readouterr().out == local
    assert main(["call", "--target", grpc_server.target, "classic", *arguments, "--json"]) == 0
    assert main(["classic", *arguments, "--json"]) == 0
    remote, here = capsys.readouterr().out.split("\n}\n", 1)
    assert remote + "\n}\n" == here


def test_prial_call_reports_the_server_refusal(grpc_server, capsys):
    try:
        code = main(["call", "--target", grpc_server.target, "classic", DEAL[0], "Ks Kh 7c / draw draw draw draw"])
    except SystemExit as exited:
        code = int(exited.code or 0)
    err = capsys.readouterr().err
    assert code == 1 and "the server refused the request (INVALID_ARGUMENT)" in err, err
    assert "field players" in err and "Traceback" not in err
