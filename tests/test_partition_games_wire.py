"""Nine-, seven- and six-card Brag on the command line (prial
settle-partition, prial call settle-partition) and over gRPC
(SettlePartitionGame): the library's settlement, and bad input refused in
one line (INVALID_ARGUMENT naming the request field)."""

from __future__ import annotations

import json
import random

import grpc
import pytest

import prial
from prial import CrashPlayer, NineCardBrag, SevenCardBrag, SixCardBrag
from prial.cli import main
from prial.client import PrialRpcError
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

NINE = ["As Ad Ah | Ks Kd Kh | Qs Qd Qh", "2s 2d 2h | 4s 5d 6h | 7s 8d Th", "3c 3d 3h | 2c Jc 9c | 5c 5s 7c"]
SEVEN = ["As Ad Ah | Ks Kd 2h / 9c", "3c 3d 3h | Qc Qd 4h / 8c"]
SIX = ["As Ad Ah | Ks Kd 2h", "Qc Qd Qh | Jc Jd 4h"]
PACK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def exit_code(arguments: list[str]) -> int:
    """What ``prial ARGUMENTS`` exits with: argparse's refusals exit, the
    command's own return."""
    try:
        return main(arguments)
    except SystemExit as exited:
        return int(exited.code or 0)


def players_of(texts: list[str]) -> list[CrashPlayer]:
    """The players as the command line reads them, numbered from 1."""
    out = []
    for n, text in enumerate(texts, 1):
        laid, _, discards = text.partition("/")
        out.append(CrashPlayer(str(n), [h.strip() for h in laid.split("|")], discards.strip()))
    return out


CASES = [
    (["--game", "nine_card", "--ante", "2", "--carry", "5"], NINE, NineCardBrag(ante=2), 5),
    (["--game", "nine_card", "--stick-up", "split"], NINE, NineCardBrag(stick_up="split"), 0),
    (["--game", "seven_card", "--carry", "9"], SEVEN, SevenCardBrag(), 9),
    (["--game", "seven_card", "--hands", "1"], ["As Ad Ah / Ks Kd 2h 9c", "3c 3d 3h / Qc Qd 4h 8c"],
     SevenCardBrag(hands=1), 0),
    (["--game", "six_card", "--ante", "3", "--carry", "1"], SIX, SixCardBrag(ante=3), 1),
    (["--game", "six_card", "--rules", "teen_patti"], ["3s 3d 3h | Ks Kd 2h", "Ac Ad Ah | Jc Jd 4h"],
     SixCardBrag(rules=prial.Rules(preset="teen_patti")), 0),
]


@pytest.mark.parametrize("options, texts, game, carry", CASES)
def test_cli_json_is_the_library_settlement(capsys, options, texts, game, carry):
    assert main(["settle-partition", *texts, *options, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == prial.settle_partition_game(players_of(texts), game, carry=carry).to_dict()


def test_cli_table(capsys):
    assert main(["settle-partition", *NINE, "--game", "nine_card", "--ante", "2", "--carry", "5"]) == 0
    out = capsys.readouterr().out
    assert "3 takes 6: Prial of threes" in out and "1 takes 6: Prial of kings" in out
    assert "main pot 11: nobody won every set" in out
    assert out.rstrip().endswith("carried to the next deal: 11")
    assert main(["settle-partition", *SIX, "--game", "six_card", "--carry", "4"]) == 0
    out = capsys.readouterr().out
    assert "main pot 6: player 1 won every set and takes it" in out
    assert out.rstrip().endswith("carried to the next deal: 0")


@pytest.mark.parametrize("arguments, message", [
    (["--game", "nine_card", NINE[0]], "a deal has at least 2 players; 1 PLAYER given"),
    (["--game", "nine_card", *NINE[:2], "--ante", "-1"], "argument --ante: must be from 1"),
    (["--game", "nine_card", *NINE[:2], "--ante", "0"], "argument --ante: must be from 1"),
    (["--game", "nine_card", *NINE[:2], "--carry", "-5"], "argument --carry: must be from 0"),
    (["--game", "ten_card", *NINE[:2]], "argument --game: invalid choice: 'ten_card'"),
    (NINE[:2], "the following arguments are required: --game"),
    (["--game", "six_card", *NINE[:2]], "player '1' lays 3 hand(s); six-card Brag lays 2"),
    (["--game", "seven_card", *SIX], "player '1' discards 0 card(s); seven-card Brag with 2 hand(s) discards 1"),
    (["--game", "six_card", "As Ad Ah | Ks Kd", SIX[1]], "player '1' hand 2 has 2 cards; expected 3"),
    (["--game", "six_card", SIX[0], "As Qd Qh | Jc Jd 4h"], "card As appears in both player '1' and player '2'"),
    (["--game", "six_card", "As Ad Ah | Ks Kd Zz", SIX[1]], "player '1' hand 2"),
    (["--game", "six_card", *SIX, "--stick-up", "split"], "--stick-up is an option of --game nine_card only"),
    (["--game", "nine_card", *NINE, "--hands", "1"], "--hands is an option of --game seven_card only"),
    (["--game", "seven_card", *SEVEN, "--hands", "3"], "argument --hands: invalid choice: 3"),
])
def test_cli_bad_input_is_one_line(capsys, arguments, message):
    assert exit_code(["settle-partition", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err


def test_cli_out_of_order_hands_foul(capsys):
    assert main(["settle-partition", "2c 4d 7h | As Ad Ah", SIX[1], "--game", "six_card", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"][0]["fouled"] and data["pot_winner"] == "2"


@pytest.mark.parametrize("options, texts, game, carry", CASES)
def test_grpc_answers_as_the_library(grpc_client, options, texts, game, carry):
    players = players_of(texts)
    assert grpc_client.settle_partition_game(players, game, carry=carry) == \
        prial.settle_partition_game(players, game, carry=carry)


@pytest.mark.parametrize("seed", range(6))
def test_grpc_random_deals_as_the_library(grpc_client, seed):
    rng = random.Random(seed)
    game = [NineCardBrag(ante=rng.randint(1, 9), stick_up=rng.choice(["carry", "split"])),
            SevenCardBrag(ante=rng.randint(1, 9)), SixCardBrag(ante=rng.randint(1, 9))][seed % 3]
    deal = rng.sample(PACK, game.cards * 4)
    players = []
    for n in range(4):
        own = deal[n * game.cards:(n + 1) * game.cards]
        hands = [" ".join(own[3 * i:3 * i + 3]) for i in range(game.hands)]
        players.append(CrashPlayer(f"p{n}", hands, " ".join(own[3 * game.hands:])))
    carry = rng.randint(0, 2**40)
    assert grpc_client.settle_partition_game(players, game, carry=carry) == \
        prial.settle_partition_game(players, game, carry=carry)


def _request(**fields: object) -> pb.SettlePartitionGameRequest:
    players = [pb.CrashPlayer(id=p.id, hands=[pb.Cards(text=h) for h in p.hands],
                              discards=pb.Cards(text=p.discards)) for p in players_of(SIX)]
    return pb.SettlePartitionGameRequest(**{"game": "six_card", "players": players, **fields})


def _call(server, request):
    with grpc.insecure_channel(server.target) as channel:
        return pb_grpc.PrialStub(channel).SettlePartitionGame(request, timeout=10)


def test_grpc_unset_options_are_the_defaults(grpc_server):
    response = _call(grpc_server, _request(carry=4))
    assert response.pot_winner == "1" and response.pot == 6 and dict(response.nets) == {"1": 5, "2": -1}


@pytest.mark.parametrize("fields, field, message", [
    ({"game": ""}, "game", "game must be one of nine_card, seven_card, six_card, got ''"),
    ({"game": "ten_card"}, "game", "game must be one of nine_card, seven_card, six_card, got 'ten_card'"),
    ({"ante": 0}, "ante", "ante must be at least 1 chip, got 0"),
    ({"stick_up": "split"}, "stick_up", "stick_up is an option of nine_card only"),
    ({"hands": 1}, "hands", "hands is an option of seven_card only"),
    ({"game": "seven_card", "hands": 3}, "hands", "seven-card Brag lays 1 or 2 hands, got 3"),
    ({"game": "nine_card", "stick_up": "share"}, "stick_up", "stick_up must be one of carry, split, got 'share'"),
    ({"game": "nine_card"}, "players", "player '1' lays 2 hand(s); nine-card Brag lays 3"),
    ({"carry": 2**63}, "carry", "the carried pot and the antes come to"),
    ({"rules": pb.Rules(jokers=9)}, "rules", "jokers"),
])
def test_grpc_bad_request_is_invalid_argument_naming_the_field(grpc_server, fields, field, message):
    with pytest.raises(grpc.RpcError) as info:
        _call(grpc_server, _request(**fields))
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert message in error.message
    assert [v.field for v in error.field_violations] == [field]


def test_grpc_bad_players_are_invalid_argument(grpc_server):
    shared = _request()
    shared.players[1].hands[0].text = "As Qd Qh"
    one = _request()
    del one.players[1]
    six_pairs = _request()
    six_pairs.players[0].declare_six_pairs = True
    for request, message in ((shared, "card As appears in both"), (one, "needs a sequence of at least 2"),
                             (six_pairs, "declares six pairs, which only Crash has")):
        with pytest.raises(grpc.RpcError) as info:
            _call(grpc_server, request)
        error = PrialRpcError.from_rpc_error(info.value)
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT and message in error.message


def test_the_client_refuses_bad_arguments_before_sending(grpc_client):
    with pytest.raises(prial.InvalidShowdownError, match="carry must be a whole number of chips >= 0"):
        grpc_client.settle_partition_game(players_of(SIX), SixCardBrag(), carry=-1)
    with pytest.raises(prial.ConfigurationError, match="game must be a prial.NineCardBrag"):
        grpc_client.settle_partition_game(players_of(SIX), "six_card")


def test_prial_call_prints_the_local_table(grpc_server, capsys):
    arguments = [*NINE, "--game", "nine_card", "--ante", "2", "--carry", "5"]
    assert main(["settle-partition", *arguments]) == 0
    local = capsys.readouterr().out
    assert main(["call", "--target", grpc_server.target, "settle-partition", *arguments]) == 0
    assert capsys.readouterr().out == local


def test_prial_call_reports_the_server_refusal(grpc_server, capsys):
    assert exit_code(["call", "--target", grpc_server.target, "settle-partition", *NINE[:2], "--game",
                      "six_card"]) == 1
    err = capsys.readouterr().err
    assert "the server refused the request (INVALID_ARGUMENT): player '1' lays 3 hand(s)" in err
    assert "field players" in err and "Traceback" not in err
