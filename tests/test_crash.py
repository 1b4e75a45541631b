"""Thirteen-card Brag (Crash) scoring (docs/rules.md, "Crash")."""

from __future__ import annotations

import json

import numpy as np
import pytest

import prial
from prial import CrashPlayer, InvalidHandError

# Two players whose hands are all legal and in order; positions split 2-2.
STRONG_FIRST = CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h", "Jc 6h 3d", "9c 8d 2s"], "4h")
STRONG_LATER = CrashPlayer("b", ["Qs Qd Qh", "Jd Js 5h", "Kc 7h 5d", "Tc 7c 4d"], "4s")
SEVENS = CrashPlayer("z", ["7d 7h 7s"])


def test_position_by_position_points():
    r = prial.crash_showdown([STRONG_FIRST, STRONG_LATER])
    assert [p.winner for p in r.positions] == ["a", "a", "b", "b"]
    assert r.points == {"a": 2, "b": 2} and r.crash is None


def test_weights_score_by_position():
    r = prial.crash_showdown([STRONG_FIRST, STRONG_LATER], scoring=[4, 3, 2, 1])
    assert r.points == {"a": 7, "b": 3}


def test_stick_up_scores_nobody():
    a = CrashPlayer("a", ["7s 7h Qc", "5c 4d 2h"], "Ad")
    b = CrashPlayer("b", ["7d 7c Qh", "6c 4h 2s"], "Kd")
    r = prial.crash_showdown([a, b])
    first, second = r.positions
    assert first.stick_up and first.winner is None
    assert first.reason == "stick-up: a and b hold Pair of sevens, queen kicker"
    assert second.reason == "b scores 1: High card, 6-4-2"
    assert second.winner == "b" and r.points == {"a": 0, "b": 1}


def test_foul_scores_nothing_and_is_out_of_the_comparison():
    fouled = CrashPlayer("a", ["Kd Kh 4c", "As Ad Ah"], "2c")  # second hand stronger than the first
    clean = CrashPlayer("b", ["Qs Qh 9d", "5c 4d 2h"], "3c")
    r = prial.crash_showdown([fouled, clean])
    result = {p.id: p for p in r.players}
    assert result["a"].fouled and "stronger than hand 1" in result["a"].foul
    assert [p.winner for p in r.positions] == ["b", "b"]
    assert r.points == {"a": 0, "b": 2}


def test_min_category_foul():
    a = CrashPlayer("a", ["Ks Kd 4h", "Jc 6h 3d"])  # second hand is no pair
    b = CrashPlayer("b", ["Qs Qd 5h", "9c 9d 2s"])
    r = prial.crash_showdown([a, b], min_category="pair")
    assert {p.id: p.fouled for p in r.players} == {"a": True, "b": False}
    assert "below pair" in r.players[0].foul
    assert r.points == {"a": 0, "b": 2}
    assert prial.crash_showdown([a, b]).points == {"a": 1, "b": 1}


def test_crash_is_winning_every_position():
    a = CrashPlayer("a", ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh", "Js Jd Jh"], "2c")
    b = CrashPlayer("b", ["Ac 7d 7h", "Kc 8d 8h", "Qc 9d 9h", "Jc Td Th"], "2d")
    r = prial.crash_showdown([a, b])
    assert r.crash == "a" and r.points == {"a": 4, "b": 0}


@pytest.mark.parametrize("value", [0, 1, 3, 1000])
def test_crash_value_scores_a_crash_and_nothing_else(value):
    a = CrashPlayer("a", ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh", "Js Jd Jh"], "2c")
    b = CrashPlayer("b", ["Ac 7d 7h", "Kc 8d 8h", "Qc 9d 9h", "Jc Td Th"], "2d")
    r = prial.crash_showdown([a, b], scoring=[4, 3, 2, 1], crash_value=value)
    assert r.crash == "a" and r.points == {"a": 10 + value, "b": 0}
    assert {p.id: p.points for p in r.players} == r.points
    # No crash: the same points whatever the value.
    for value_given in (0, value):
        assert prial.crash_showdown([STRONG_FIRST, STRONG_LATER], crash_value=value_given).points == {"a": 2, "b": 2}


def test_partition_counts_the_same_crash_value():
    # Expected points by partition are the positions' chances plus
    # crash_value times the chance of a crash: linear in the value, as
    # crash_showdown scores it.
    deal = "As Ad Ah Ks Kd Kh Qs Qd Qh Js Jd Jh 2c"
    splits = {v: prial.partition(deal, objective="expected_points", crash_value=float(v)) for v in (0, 1, 2)}
    assert splits[0].hands == splits[1].hands == splits[2].hands
    chance = splits[1].expected_points - splits[0].expected_points
    assert 0 < chance <= 1
    assert splits[2].expected_points - splits[0].expected_points == pytest.approx(2 * chance)


@pytest.mark.parametrize("value", [-1, 1001, 1.5, True, "1"])
def test_bad_crash_value(value):
    with pytest.raises(prial.InvalidShowdownError, match="crash_value must be a whole number 0 to 1000") as info:
        prial.crash_showdown([STRONG_FIRST, STRONG_LATER], crash_value=value)
    assert info.value.field == "crash_value"


def test_four_of_a_kind_bonus_best_four_only():
    # a uses all four fours; b all four aces: aces rank above fours as their
    # prials do, so only b scores the bonus.
    a = CrashPlayer("a", ["4s 4d 4h", "4c 9d 9h", "Tc 7d 3h", "8c 6d 2h"], "5h")
    b = CrashPlayer("b", ["As Ad Ah", "Ac Kd Kh", "Qc Jd 5d", "9c 7h 2d"], "3d")
    r = prial.crash_showdown([a, b])
    assert r.four_of_a_kind_bonus == "b"
    fours = {p.id: p.four_of_a_kind for p in r.players}
    assert fours == {"a": "4", "b": "A"}
    positional = {pid: sum(p.weight for p in r.positions if p.winner == pid) for pid in "ab"}
    assert r.points == {"a": positional["a"], "b": positional["b"] + 1}


def test_four_of_a_kind_aces_beat_kings_and_discarded_fours_do_not_count():
    a = CrashPlayer("a", ["Ks Kd Kh", "Kc 9d 9h", "Tc 7d 3h", "8c 6d 2h"], "5h")
    b = CrashPlayer("b", ["As Ad Ah", "Ac Jd Jh", "Qc Td 5d", "9c 7h 2d"], "3d")
    assert prial.crash_showdown([a, b]).four_of_a_kind_bonus == "b"
    # c holds four sixes but discards one: no bonus.
    c = CrashPlayer("c", ["6s 6d 6h", "Jc 9s 2s", "Tc 8s 3s", "7c 4s 3h"], "6c")
    d = CrashPlayer("d", ["Qs Qd 5s", "Jd 9c 4d", "Td 8d 2c", "7d 5c 3c"], "4c")
    assert prial.crash_showdown([c, d]).four_of_a_kind_bonus is None


def test_thirteen_card_straight_wins_outright():
    straight = CrashPlayer("a", ["As Kd Qh", "Jc Td 9s", "8h 7c 6d", "5s 4h 3c"], "2d")
    other = CrashPlayer("b", ["Ah Ad Ac", "Ks Kh Kc", "Qs Qd Qc", "Js Jd Jh"], "Ts")
    r = prial.crash_showdown([straight, other])
    assert r.outright == ("a",) and r.positions == () and r.points == {"a": 0, "b": 0}


def test_six_pairs_voids_the_deal():
    pairs = CrashPlayer("a", ["As Ad 2h", "Ks Kd 2c", "Qs Qd 3h", "Js Jd 3c"], "Ts", declare_six_pairs=True)
    # Six pairs among thirteen: A, K, Q, J, 2, 3 - the ten is the odd card.
    other = CrashPlayer("b", ["Ah Ac 9d", "Kh Kc 8d", "Qh Qc 7d", "Jh Jc 6d"], "5d")
    r = prial.crash_showdown([pairs, other])
    assert r.void and r.voided_by == "a" and r.positions == () and set(r.points.values()) == {0}


def test_false_six_pairs_declaration_is_rejected():
    liar = CrashPlayer("a", ["As Kd 2h", "Ks Qd 3c", "Qs Jd 4h", "Js Td 5c"], "9s", declare_six_pairs=True)
    with pytest.raises(prial.InvalidShowdownError, match="declared six pairs but holds 3 pair"):
        prial.crash_showdown([liar, SEVENS])


@pytest.mark.parametrize("players, message", [
    ([CrashPlayer("a", ["As Ad Ah"], "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc"), SEVENS], "holds 14 cards"),
    ([CrashPlayer("a", ["As Ad Qh"]), STRONG_LATER], "card Qh appears in both"),
    ([CrashPlayer("a", ["As Ad 4h"], "4d"), STRONG_LATER], "card 4d appears in both"),
    ([CrashPlayer("a", ["2c 3c 4c"] * 1 + ["5c 6c 7c", "8c 9c Tc", "Jc Qc Kc", "2d 3d 4d"]), STRONG_LATER],
     "gives 5 hands"),
    ([CrashPlayer("a", ["As Ad"]), STRONG_LATER], "hand 1 has 2 cards"),
    ([CrashPlayer("a", ["As Ad 2c"]), CrashPlayer("a", ["Ks Kd 2d"])], "used twice"),
    ([STRONG_LATER], "at least 2"),
])
def test_bad_crash_input(players, message):
    with pytest.raises(InvalidHandError, match=message):
        prial.crash_showdown(players)


@pytest.mark.parametrize("seats", [3, 5])
@pytest.mark.parametrize("seed", range(20))
def test_nine_card_rounds_seat_as_many_players_as_a_pack_deals(seats, seed):
    deck = np.random.default_rng(seed).permutation(52).tolist()
    players = []
    for seat in range(seats):
        split = prial.partition(deck[9 * seat: 9 * seat + 9], 3)
        players.append(CrashPlayer(f"p{seat}", split.hands))
    result = prial.crash_showdown(players)
    # A plain count: each position to the one strongest hand there, if one.
    strengths = {p.id: [prial.evaluate(h).strength for h in p.hands] for p in players}
    won = {p.id: 0 for p in players}
    for index, position in enumerate(result.positions):
        best = max(s[index] for s in strengths.values())
        top = [pid for pid, s in strengths.items() if s[index] == best]
        assert position.winner == (top[0] if len(top) == 1 else None)
        if len(top) == 1:
            won[top[0]] += 1
    assert len(result.positions) == 3
    assert result.crash == next((pid for pid, n in won.items() if n == 3), None)
    assert result.points == won


def test_seven_players_are_more_than_nine_card_rounds_seat():
    players = [CrashPlayer(f"p{i}", ["As Ad Ah"] if i == 0 else []) for i in range(7)]
    with pytest.raises(InvalidHandError, match="7 players: one pack deals at most 6 hands of 9 cards"):
        prial.crash_showdown(players)


def test_bad_scoring_rejected():
    with pytest.raises(prial.ConfigurationError, match="four whole numbers"):
        prial.crash_showdown([STRONG_FIRST, STRONG_LATER], scoring=[3, 2, 1])
    with pytest.raises(prial.ConfigurationError, match="min_category"):
        prial.crash_showdown([STRONG_FIRST, STRONG_LATER], min_category="quads")


def test_to_dict_is_plain():
    data = prial.crash_showdown([STRONG_FIRST, STRONG_LATER]).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["points"] == {"a": 2, "b": 2}
