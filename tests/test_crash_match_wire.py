"""A Crash match on the command line (prial crash-match) and over gRPC
(CrashMatch, prial call crash-match): the library's answers, and bad input
refused in one line naming what is wrong (INVALID_ARGUMENT naming the
request field)."""

from __future__ import annotations

import asyncio
import json
import random

import grpc
import pytest

import prial
from prial import CrashMatchRules, CrashPlayer, crash_match
from prial.cli import main
from prial.client import AsyncClient, PrialRpcError
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

SPLIT = ["As Ad Ah | Ks Kd 2h | Jc 6h 3d | 9c 8d 2s / 4h", "Qs Qd Qh | Jd Js 5h | Kc 7h 5d | Tc 7c 4d / 4s"]
CRASH = ["As Ad Ah | Ks Kd Kh | Qs Qd Qh | Js Jd Jh / 2c", "Ts Td Th | 9s 9d 9h | 8s 8d 8h | 7s 7d 7h / 3c"]


def players(texts: list[str], ids: list[str] | None = None) -> list[CrashPlayer]:
    out = []
    for pid, text in zip(ids or [str(n) for n in range(1, len(texts) + 1)], texts):
        laid, _, discards = text.partition("/")
        out.append(CrashPlayer(pid, [h.strip() for h in laid.split("|")], discards.strip()))
    return out


def random_rounds(seed: int, count: int, seats: int = 3) -> list[list[str]]:
    """Random legal deals of thirteen cards each, laid down in order."""
    rng = random.Random(seed)
    ev = prial.Evaluator()
    rounds = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        texts = []
        for seat in range(seats):
            split = ev.partition(deck[13 * seat:13 * seat + 13])
            hands = [prial.format_cards(list(h)) for h in split.hands]
            texts.append(" | ".join(hands) + " / " + prial.format_cards(list(split.discards)))
        rounds.append(texts)
    return rounds


def write_rounds(tmp_path, rounds: list[list[str]] | list[dict[str, str]]) -> str:
    path = tmp_path / "rounds.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rounds))
    return str(path)


# ---- the command line ----

def test_cli_prints_the_standings_and_the_settlement(tmp_path, capsys):
    path = write_rounds(tmp_path, [SPLIT, CRASH])
    assert main(["crash-match", path]) == 0
    out = capsys.readouterr().out
    assert out == (
        "round  1       2       crash\n"
        "-----  ------  ------  -----\n"
        "    1  2 (+2)  2 (+2)  -\n"
        "    2  6 (+4)  2 (+0)  1\n"
        "\n"
        "player 1 wins the match by a crash in round 2\n"
        "\n"
        "player  points  net\n"
        "------  ------  ---\n"
        "1            6  +1\n"
        "2            2  -1\n")


@pytest.mark.parametrize("options", [
    [], ["--settlement", "proportionate", "--stake", "7"], ["--no-crash-wins", "--holes", "7"],
    ["--holes", "121", "--weights", "4", "3", "2", "1"], ["--no-not-on-board-double", "--settlement", "proportionate"],
])
def test_cli_json_is_the_librarys_match(tmp_path, capsys, options):
    rounds = random_rounds(7, 12)
    rules = CrashMatchRules(
        target=int(options[options.index("--holes") + 1]) if "--holes" in options else 10,
        crash_wins="--no-crash-wins" not in options,
        settlement="proportionate" if "proportionate" in options else "fixed",
        stake=int(options[options.index("--stake") + 1]) if "--stake" in options else 1,
        not_on_board_double="--no-not-on-board-double" not in options)
    scoring = [4, 3, 2, 1] if "--weights" in options else "points"
    expected = prial.CrashMatch(rules)
    for texts in rounds:
        if expected.over:
            break
        expected.add(prial.crash_showdown(players(texts), scoring=scoring))
    played = rounds[:len(expected.result().rounds)]
    assert main(["crash-match", write_rounds(tmp_path, played), "--json", *options]) == 0
    assert json.loads(capsys.readouterr().out) == expected.result().to_dict()


def test_cli_names_players_by_an_object(tmp_path, capsys):
    rounds = [dict(zip(["ann", "bo"], SPLIT)), dict(zip(["bo", "ann"], reversed(CRASH)))]
    assert main(["crash-match", write_rounds(tmp_path, rounds), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winner"] == "ann" and data["standings"] == {"ann": 6, "bo": 2}
    assert data["settlement"] == {"ann": 1, "bo": -1}


def test_cli_reads_standard_input(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(SPLIT) + "\n\n"))
    assert main(["crash-match", "-", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["standings"] == {"1": 2, "2": 2} and not data["over"]


def bad_cli(capsys, argv: list[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exit:
        code = exit.code
    err = capsys.readouterr().err
    assert err.startswith("prial: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return code, err


@pytest.mark.parametrize(("rounds", "options", "says"), [
    ([SPLIT], ["--holes", "6"], "--holes: target must be 7 to 15 holes or a street of 121, got 6"),
    ([SPLIT], ["--holes", "120"], "got 120"),
    ([SPLIT], ["--settlement", "all"], "argument --settlement: invalid choice: 'all'"),
    ([SPLIT], ["--stake", "-1"], "argument --stake: must be from 0 to 1,000,000, got -1"),
    ([SPLIT], ["--stake", "1000001"], "argument --stake"),
    ([CRASH, SPLIT], [], "round 2: the match is over (player '1' won in round 1); no more rounds are played"),
    ([SPLIT, SPLIT + [SPLIT[0]]], [], "round 2: "),
    ([SPLIT, dict(zip(["1", "3"], SPLIT))], [], "round 2: players '1', '3' are not the match's '1', '2'"),
    ([SPLIT, ["As Ad Ah | Qd 1x 2c", SPLIT[1]]], [], "line 2: player '1' hand 2"),
    ([SPLIT, ["As Ad Ah | Qd 2c", SPLIT[1]]], [], "round 2: player '1' hand 2 has 2 cards; expected 3"),
    ([SPLIT, "As Ad Ah"], [], "line 2: a round is a list of PLAYER texts or an object of names to PLAYER texts"),
    ([[SPLIT[0]]], [], "round 1: crash_showdown needs a sequence of at least 2"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, rounds, options, says):
    code, err = bad_cli(capsys, ["crash-match", write_rounds(tmp_path, rounds), *options])
    assert code == 2 and says in err, err


def test_cli_bad_json_and_missing_file(tmp_path, capsys):
    code, err = bad_cli(capsys, ["crash-match"])
    assert code == 2 and "no rounds: give ROUNDS, a file of rounds, or --round PLAYER PLAYER" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    code, err = bad_cli(capsys, ["crash-match", str(empty)])
    assert code == 2 and f"no rounds ({empty} holds none)" in err
    path = tmp_path / "rounds.jsonl"
    path.write_text(json.dumps(SPLIT) + "\n{not json\n")
    code, err = bad_cli(capsys, ["crash-match", str(path)])
    assert code == 2 and f"{path} line 2: not JSON" in err
    code, err = bad_cli(capsys, ["crash-match", str(tmp_path / "missing.jsonl")])
    assert code == 1 and "cannot read ROUNDS" in err and "No such file" in err


# ---- gRPC ----

@pytest.mark.parametrize("seed", range(4))
def test_grpc_matches_the_library(grpc_client, seed):
    rounds = [players(texts) for texts in random_rounds(seed, 15)]
    rng = random.Random(seed)
    rules = CrashMatchRules(target=rng.choice([7, 10, 15]), crash_wins=rng.random() < 0.5,
                            settlement=rng.choice(["fixed", "proportionate"]), stake=rng.randint(0, 100),
                            not_on_board_double=rng.random() < 0.5)
    local = prial.CrashMatch(rules)
    for r in rounds:
        if local.over:
            break
        local.add(prial.crash_showdown(r, scoring=[4, 3, 2, 1]))
    played = rounds[:len(local.result().rounds)]
    remote = grpc_client.crash_match(played, rules, scoring=[4, 3, 2, 1])
    assert remote == crash_match(played, rules, scoring=[4, 3, 2, 1]) == local.result()
    # In the players' order, as the library has them.
    assert list(remote.standings) == ["1", "2", "3"]


def test_async_client_and_defaults(grpc_server):
    async def call() -> prial.CrashMatchResult:
        async with AsyncClient(grpc_server.target, timeout=30) as client:
            return await client.crash_match([players(SPLIT), players(CRASH)])

    assert asyncio.run(call()) == crash_match([players(SPLIT), players(CRASH)])


def test_grpc_unset_rules_are_the_defaults(grpc_server):
    request = pb.CrashMatchRequest(rounds=[pb.CrashMatchRoundPlayers(players=[
        pb.CrashPlayer(id=p.id, hands=[pb.Cards(text=h) for h in p.hands], discards=pb.Cards(text=p.discards))
        for p in players(CRASH)])])
    with grpc.insecure_channel(grpc_server.target) as channel:
        response = pb_grpc.PrialStub(channel).CrashMatch(request, timeout=10)
    assert response.winner == "1" and response.decided_by == "crash"
    assert dict(response.settlement) == {"1": 2, "2": -2}  # 2 is not on the board: double the stake of 1


def bad_grpc(grpc_server, request: pb.CrashMatchRequest) -> PrialRpcError:
    with grpc.insecure_channel(grpc_server.target) as channel:
        with pytest.raises(grpc.RpcError) as info:
            pb_grpc.PrialStub(channel).CrashMatch(request, timeout=10)
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    return error


def round_message(texts: list[str], ids: list[str] | None = None) -> pb.CrashMatchRoundPlayers:
    return pb.CrashMatchRoundPlayers(players=[
        pb.CrashPlayer(id=p.id, hands=[pb.Cards(text=h) for h in p.hands], discards=pb.Cards(text=p.discards))
        for p in players(texts, ids)])


@pytest.mark.parametrize(("request_", "field", "says"), [
    (pb.CrashMatchRequest(match=pb.CrashMatchRules(target=16), rounds=[round_message(SPLIT)]), "match.target",
     "target must be 7 to 15 holes or a street of 121, got 16"),
    (pb.CrashMatchRequest(match=pb.CrashMatchRules(settlement="all"), rounds=[round_message(SPLIT)]),
     "match.settlement", "settlement must be one of fixed, proportionate, got 'all'"),
    (pb.CrashMatchRequest(match=pb.CrashMatchRules(stake=-5), rounds=[round_message(SPLIT)]), "match.stake",
     "stake must be a whole number 0 to 1000000, got -5"),
    (pb.CrashMatchRequest(rounds=[round_message(CRASH), round_message(SPLIT)]), "rounds[1].players",
     "round 2: the match is over (player '1' won in round 1); no more rounds are played"),
    (pb.CrashMatchRequest(rounds=[round_message(SPLIT), round_message(SPLIT, ["1", "3"])]), "rounds[1].players",
     "round 2: players '1', '3' are not the match's '1', '2' (missing '2') (new '3')"),
    (pb.CrashMatchRequest(rounds=[round_message(SPLIT), round_message(["As Ad Ah | Kd Kd 2c", SPLIT[1]])]),
     "rounds[1].players", "round 2: "),
    (pb.CrashMatchRequest(scoring=pb.CrashShowdownRequest(four_order="threes"), rounds=[round_message(SPLIT)]),
     "scoring.four_order", "four_order must be one of"),
    (pb.CrashMatchRequest(scoring=pb.CrashShowdownRequest(players=[pb.CrashPlayer(id="x")]),
                          rounds=[round_message(SPLIT)]),
     "scoring.players", "scoring holds players; a match's players are given in rounds"),
])
def test_grpc_bad_input_names_the_field(grpc_server, request_, field, says):
    error = bad_grpc(grpc_server, request_)
    assert says in error.message, error.message
    assert [v.field for v in error.field_violations] == [field]


def test_client_refuses_bad_rules_before_sending(grpc_client):
    with pytest.raises(prial.ConfigurationError, match="match must be a prial.CrashMatchRules"):
        grpc_client.crash_match([players(SPLIT)], {"target": 10})  # type: ignore[arg-type]
    with pytest.raises(prial.ConfigurationError, match="four_order"):
        grpc_client.crash_match([players(SPLIT)], four_order="threes")
    with pytest.raises(TypeError, match="unexpected keyword argument 'holes'"):
        grpc_client.crash_match([players(SPLIT)], holes=10)


def test_prial_call_crash_match(grpc_server, tmp_path, capsys):
    path = write_rounds(tmp_path, [SPLIT, CRASH])
    assert main(["call", "crash-match", path, "--target", grpc_server.target]) == 0
    remote = capsys.readouterr().out
    assert main(["crash-match", path]) == 0
    assert remote == capsys.readouterr().out
    assert main(["call", "crash-match", path, "--json", "--settlement", "proportionate", "--holes", "7",
                 "--target", grpc_server.target]) == 0
    assert json.loads(capsys.readouterr().out) == crash_match(
        [players(SPLIT), players(CRASH)], CrashMatchRules(7, settlement="proportionate")).to_dict()
    code, err = bad_cli(capsys, ["call", "crash-match", path, "--holes", "5", "--target", grpc_server.target])
    assert code == 2 and "--holes: target must be 7 to 15" in err


def test_grpc_more_players_than_a_pack_deals_names_the_round(grpc_server):
    crowded = pb.CrashMatchRoundPlayers(players=[pb.CrashPlayer(id=f"p{i}") for i in range(7)])
    error = bad_grpc(grpc_server, pb.CrashMatchRequest(rounds=[round_message(SPLIT, ["p0", "p1"]), crowded]))
    assert error.message.startswith("round 2: ") and "at most 6 hands" in error.message
    assert [v.field for v in error.field_violations] == ["rounds[1].players"]


def test_grpc_an_oversize_match_is_refused_unread(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        call = channel.unary_unary("/prial.v1.Prial/CrashMatch")
        with pytest.raises(grpc.RpcError) as info:
            call(b"\x1a\x02\x0a\x00" * 300_000, timeout=20)  # 1.2 MB of rounds of one empty player
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
