"""``prial classic``: the library's settlement of a classic deal, and
every mistake in one line with exit 2."""

from __future__ import annotations

import json

import pytest

import prial
from prial.cli import main

from .cli_helpers import usage_error

DEAL = ["Jc 9d Ah / stand", "Ks Kh 7c / draw", "5c 6d Ad / draw draw"]


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_classic_settles_the_deal_as_the_library_does(capsys):
    data = json.loads(run(capsys, "classic", *DEAL, "--seed", "7", "--bonus", "1", "--stake", "2", "--json"))
    players = [prial.ClassicPlayer("1", "Jc 9d Ah", ["stand"]), prial.ClassicPlayer("2", "Ks Kh 7c", ["draw"]),
               prial.ClassicPlayer("3", "5c 6d Ad", ["draw", "draw"])]
    assert data == prial.settle_classic(players, prial.ClassicRules(stake=2, bonus=1), seed=7).to_dict()
    assert list(data["nets"]) == ["1", "2", "3"] and sum(data["nets"].values()) == 0
    lines = run(capsys, "classic", *DEAL, "--seed", "7").splitlines()
    assert lines[0].split() == ["stake", "pot", "won", "by", "with"]
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    assert "thirty one: 1, 2 tie on 29 and draw again; 2 wins the draw" in lines
    assert lines[2].split()[:4] == ["best", "card", "3", "3"]  # the ace of diamonds


def test_the_options_reach_the_settlement(capsys):
    data = json.loads(run(capsys, "classic", "2c 3c Kd", "4c 5c Ks / draw", "6c 7c 8d", "--best-card-ties", "share",
                          "--ace", "11", "--contenders", "1", "2", "--seer", "2", "--stock", "Ah 9s", "--json"))
    best, bragging, thirty_one = data["phases"]
    assert best["winners"] == ["1", "2"]
    assert bragging["winners"] == ["2"] and [h["out"] for h in bragging["hands"]] == [False, False, True]
    assert thirty_one["hands"][1]["value"] == 4 + 5 + 10 + 11
    # the bragging ruleset's options, classic by default
    data = json.loads(run(capsys, "classic", "3s 3h Jc", "3c 3d Jd", "--wild", "bragger_jacks", "--json"))
    assert data["phases"][1]["winners"] == ["1"]
    data = json.loads(run(capsys, "classic", "3s 3h Jc", "3c 3d Jd", "--wild", "bragger_jacks", "--wild-ties",
                          "equal", "--json"))
    assert data["phases"][1]["winners"] == ["1", "2"]
    data = json.loads(run(capsys, "classic", "3s 3h Jc", "3c 3d Jd", "--wild", "bragger_jacks", "--wild-ties",
                          "equal", "--seer", "1", "--json"))
    assert data["phases"][1]["winners"] == ["2"]  # a see's tie goes against the seer


def test_rank_takes_the_classic_preset(capsys):
    out = run(capsys, "rank", "--rules", "classic", "Ah Kh Qh", "Jc 9d 2c")
    assert "High card, A-K-Q" in out and "Pair of nines, two kicker (1 wild)" in out


@pytest.mark.parametrize("argv, says", [
    (["classic", "Jc 9d Ah"], "a classic deal has at least 2 players; 1 PLAYER given"),
    (["classic", "Jc 9d", "Ks Kh 7c"], "player '1': a classic hand is 3 cards, got 2"),
    (["classic", "Jc 9d Zh", "Ks Kh 7c"], "player 1: card 3 ('Zh')"),
    (["classic", "Jc 9d Ah", "Jc Kh 7c"], "card Jc appears in both player '1' and player '2'"),
    (["classic", "Jc 9d Ah / hit", "Ks Kh 7c"], "player 1: 'hit' is not a turn at 31; say draw or stand"),
    (["classic", "Jc 9d Ah / stand draw", "Ks Kh 7c"], "player '1' action 1: the turn is over (stood)"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--seer", "3"], "--seer 3: players are numbered 1..2"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--contenders", "1", "4"], "--contenders 4: players are numbered 1..2"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--contenders", "1", "1"], "contender id '1' is used twice"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--contenders", "1", "--seer", "1"], "a see needs two contenders"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--contenders", "0"], "argument --contenders: must be at least 1, got 0"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--ace", "12"], "argument --ace: invalid choice: 12"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--stake", "-1"], "argument --stake: must be from 0 to"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--bonus", "x"], "argument --bonus"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--best-card-ties", "youngest"], "argument --best-card-ties: invalid choice"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--stock", "Jc"], "card Jc appears in both the stock and player '1'"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--stock", "Qx"], "--stock: card 1 ('Qx')"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--stock", "Qs", "--seed", "1"], "not allowed with argument --stock"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--seed", "-3"], "argument --seed"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--wild", "braggers"], "wild must be a preset"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--wild-ties", "bogus"], "argument --wild-ties: invalid choice: 'bogus'"),
    (["classic", "Jc 9d Ah", "Ks Kh 7c", "--rules", "classics"], "argument --rules: invalid choice: 'classics'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, says):
    assert says in usage_error(capsys, argv)


def test_classic_has_its_help(capsys):
    with pytest.raises(SystemExit) as info:
        main(["classic", "--help"])
    assert info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Settle a deal of classic three-stake Brag" in out and "--json" in out
