"""``prial crash``, ``prial casino`` and ``prial house-edge``: the answers
of the library functions the server uses too, and every mistake in one
line with exit 2."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

import prial
from prial.cli import main

from .cli_helpers import usage_error

CRASH = ["As Ad Ah | Ks Kd Kh | Qs Qd Qh | Js Jd Jh / 2c", "Ts Td Th | 9s 9d 9h | 8s 8d 8h | 7s 7d 7h / 3c",
         "2s 2d 2h | 3s 3d 3h | 4s 4d 4h | 5s 5d 5h / 6c"]


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def players(*texts: str) -> list[prial.CrashPlayer]:
    out = []
    for n, text in enumerate(texts, 1):
        laid, _, discards = text.partition("/")
        out.append(prial.CrashPlayer(str(n), [h.strip() for h in laid.split("|")], discards.strip()))
    return out


def test_crash_scores_the_round_as_the_library_does(capsys):
    data = json.loads(run(capsys, "crash", *CRASH, "--weights", "4", "3", "2", "1", "--json"))
    assert data == prial.crash_showdown(players(*CRASH), scoring=[4, 3, 2, 1]).to_dict()
    assert list(data["points"]) == ["1", "2", "3"]  # in the players' order
    lines = run(capsys, "crash", *CRASH).splitlines()
    assert lines[0].split() == ["position", "worth", "result"]
    points = {line.split()[0]: int(line.split()[1]) for line in lines if line and line[0] in "123" and "scores" not in line}
    assert points == prial.crash_showdown(players(*CRASH)).points
    assert lines[-1] == "crash: player 1 won every position"


def test_casino_settles_as_the_library_does(capsys):
    argv = ["Ah Kh Qh", "Jc Jd 4s", "--ante", "10", "--pair-bonus", "5"]
    data = json.loads(run(capsys, "casino", *argv, "--json"))
    assert data == prial.settle_casino("Ah Kh Qh", "Jc Jd 4s", 10, 10, 5).to_dict()
    lines = run(capsys, "casino", *argv).splitlines()
    assert lines[0] == "player: Running flush, A-K-Q" and lines[-1] == f"net: {data['net']:+,} chips"
    folded = json.loads(run(capsys, "casino", "4h 3h 2h", "Ac Ad As", "--paytable", "three_card_poker_1_4_6_30_40",
                            "--fold", "--pair-bonus", "2", "--pair-bonus-on-fold", "forfeited", "--json"))
    table = dataclasses.replace(prial.PAYTABLES["three_card_poker_1_4_6_30_40"], pair_bonus_on_fold="forfeited")
    assert folded == prial.settle_casino("4h 3h 2h", "Ac Ad As", 1, None, 2, paytable=table).to_dict()
    assert folded["net"] == -3


@pytest.mark.parametrize("paytable", ["casino_brag", "three_card_poker_1_4_6_30_40", "pair_plus_1_4_6_30_40"])
def test_house_edge_is_the_librarys_exact_edge(capsys, paytable):
    edge = prial.house_edge(paytable)
    data = json.loads(run(capsys, "house-edge", "--paytable", paytable, "--json"))
    assert data == {**edge.to_dict(), "ante_fraction": str(edge.ante), "pair_bonus_fraction": str(edge.pair_bonus)}
    assert Fraction(data["ante_fraction"]) == edge.ante
    lines = run(capsys, "house-edge", "--paytable", paytable).splitlines()
    assert lines[0].startswith(f"{paytable}: {edge.game} ranking")
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.startswith(("ante ", "pair bonus"))}
    assert rows["ante"] == [f"{float(edge.ante):.4%}", str(edge.ante)]
    assert lines[-1] == f"play {edge.play_threshold} or better, fold below"
    table = prial.PAYTABLES[paytable]
    pays = {line.split()[0]: line.split()[1:] for line in lines[3:3 + 6] if line.strip()}
    for category, pair in table.pair_bonus:
        assert pays[category.name][1] == f"{pair}:1"


def test_house_edge_follows_the_game_and_the_folded_pair_bonus(capsys):
    table = dataclasses.replace(prial.PAYTABLES["casino_brag"], pair_bonus_on_fold="forfeited")
    data = json.loads(run(capsys, "house-edge", "--pair-bonus-on-fold", "forfeited", "--json"))
    assert Fraction(data["pair_bonus_fraction"]) == prial.house_edge(table).pair_bonus
    data = json.loads(run(capsys, "house-edge", "--paytable", "casino_brag", "--game", "three_card_poker", "--json"))
    assert data["game"] == "three_card_poker"
    assert Fraction(data["ante_fraction"]) == prial.house_edge("casino_brag", game="three_card_poker").ante


@pytest.mark.parametrize("argv, says", [
    (["crash", CRASH[0]], "a round of Crash has at least 2 players; 1 PLAYER given"),
    (["crash", CRASH[0], CRASH[0]], "card As appears in both player '1' and player '2'"),
    (["crash", "As Ad | Ks Kd Kh / 2c", CRASH[1]], "player '1' hand 1 has 2 cards; expected 3"),
    (["crash", "As Ad Ah / Zc", CRASH[1]], "player '1' discards: card 1 ('Zc')"),
    (["crash", *CRASH[:2], "--six-pairs", "3"], "--six-pairs 3: players are numbered 1..2"),
    (["crash", *CRASH[:2], "--min-category", "BOGUS"], "unknown category 'BOGUS'"),
    (["crash", *CRASH[:2], "--weights", "4", "3"], "argument --weights: expected 4 arguments"),
    (["crash", *CRASH[:2], "--crash-value", "-1"], "argument --crash-value: must be from 0 to"),
    (["casino", "Ah Kh", "Jc Jd 4s"], "player has 2 cards; expected 3"),
    (["casino", "Ah Kh Qh", "Ah Jd 4s"], "card Ah appears in both player and dealer"),
    (["casino", "Ah Kh Qh", "Jc Jd 4s", "--play", "3"], "play must be ante x 1 = 1, got 3"),
    (["casino", "Ah Kh Qh", "Jc Jd 4s", "--ante", "0"], "argument --ante: must be from 1 to"),
    (["casino", "Ah Kh Qh", "Jc Jd 4s", "--play", "2", "--fold"], "not allowed with argument --play"),
    (["casino", "Ah Kh Qh", "Jc Jd 4s", "--paytable", "nope"], "argument --paytable: invalid choice: 'nope'"),
    (["house-edge", "--game", "poker"], "argument --game: invalid choice: 'poker'"),
    (["house-edge", "--pair-bonus-on-fold", "kept"], "argument --pair-bonus-on-fold: invalid choice: 'kept'"),
    (["house-edge", "extra"], "unrecognized arguments: extra"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, says):
    assert says in usage_error(capsys, argv)


@pytest.mark.parametrize("command, says", [
    ("crash", "Score a round of thirteen-card Brag, Crash"),
    ("casino", "Settle a hand of casino Brag or Three Card Poker against the dealer"),
    ("house-edge", "The exact house edge of a casino pay table"),
])
def test_each_command_has_its_help(capsys, command, says):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert says in " ".join(out.split()) and "--json" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert f"    {command} " in capsys.readouterr().out or command == "house-edge"
