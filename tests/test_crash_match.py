"""A Crash match (docs/rules.md, "A Crash match"): rounds pegged to a
target, a crash winning outright, and the settlement, held to a plain
reference written here."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prial
from prial import (
    ConfigurationError,
    CrashMatch,
    CrashMatchRules,
    CrashPlayer,
    CrashResult,
    InvalidHandError,
    InvalidShowdownError,
    crash_match,
)

ACES_UP = CrashPlayer("a", ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh", "Js Jd Jh"], "2c")
TENS_UP = CrashPlayer("b", ["Ts Td Th", "9s 9d 9h", "8s 8d 8h", "7s 7d 7h"], "3c")
# Positions split 2-2: no crash.
STRONG_FIRST = CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h", "Jc 6h 3d", "9c 8d 2s"], "4h")
STRONG_LATER = CrashPlayer("b", ["Qs Qd Qh", "Jd Js 5h", "Kc 7h 5d", "Tc 7c 4d"], "4s")


def round_of(points: dict[str, int], crash: str | None = None) -> CrashResult:
    """A round as crash_showdown would report it, by its points alone."""
    return CrashResult(positions=(), players=(), points=points, crash=crash)


def reference(rounds: list[tuple[dict[str, int], str | None]], target: int, crash_wins: bool, settlement: str,
              stake: int, double: bool) -> tuple[dict[str, int], str | None, dict[str, int] | None, int]:
    """Standings, winner, nets and the number of rounds counted, the rules
    read off the docs one by one."""
    totals = {pid: 0 for pid in rounds[0][0]}
    for counted, (points, crash) in enumerate(rounds, 1):
        for pid in totals:
            totals[pid] += points[pid]
        winner = None
        if crash_wins and crash is not None:
            winner = crash
        else:
            best = max(totals.values())
            if best >= target and list(totals.values()).count(best) == 1:
                winner = next(pid for pid in totals if totals[pid] == best)
        if winner is not None:
            peg = max([target] + list(totals.values()))
            nets = {pid: 0 for pid in totals}
            for pid in totals:
                if pid != winner:
                    pay = stake if settlement == "fixed" else stake * (peg - totals[pid])
                    if double and totals[pid] == 0:
                        pay = pay * 2
                    nets[pid] = -pay
                    nets[winner] = nets[winner] + pay
            return totals, winner, nets, counted
    return totals, None, None, len(rounds)


def random_rounds(rng: random.Random, ids: list[str], count: int, most: int
                  ) -> list[tuple[dict[str, int], str | None]]:
    rounds = []
    for _ in range(count):
        points = {pid: rng.choice([0, 0, rng.randint(0, most)]) for pid in ids}
        crash = rng.choice(ids) if rng.random() < 0.1 else None
        rounds.append((points, crash))
    return rounds


def play(rounds: list[tuple[dict[str, int], str | None]], rules: CrashMatchRules) -> prial.CrashMatchResult:
    match = CrashMatch(rules)
    for points, crash in rounds:
        if match.over:
            break
        match.add(round_of(points, crash))
    return match.result()


def test_against_the_reference_seeded():
    rng = random.Random(2911)
    checked = 0
    for target, crash_wins, settlement, double in itertools.product(
            [7, 10, 15, 121], [True, False], ["fixed", "proportionate"], [True, False]):
        for _ in range(60):
            ids = [f"p{i}" for i in range(rng.randint(2, 4))]
            rounds = random_rounds(rng, ids, rng.randint(1, 40), 10 if target == 121 else 4)
            stake = rng.randint(0, 50)
            rules = CrashMatchRules(target, crash_wins, settlement, stake, double)
            totals, winner, nets, counted = reference(rounds, target, crash_wins, settlement, stake, double)
            got = play(rounds, rules)
            assert len(got.rounds) == counted
            assert got.standings == totals and list(got.standings) == ids
            assert got.winner == winner and got.over == (winner is not None)
            assert got.settlement == nets
            checked += winner is not None
    assert checked > 500  # most matches were decided, so the settlements were compared


@pytest.mark.slow
def test_every_short_match_of_two_players_by_enumeration():
    """Every sequence of up to four rounds of 0 to 4 points each, target 7."""
    rules = CrashMatchRules(target=7, settlement="proportionate", stake=3)
    for length in range(1, 5):
        for scores in itertools.product(itertools.product(range(5), repeat=2), repeat=length):
            rounds = [({"x": x, "y": y}, None) for x, y in scores]
            totals, winner, nets, counted = reference(rounds, 7, True, "proportionate", 3, True)
            got = play(rounds, rules)
            assert (got.standings, got.winner, got.settlement, len(got.rounds)) == (totals, winner, nets, counted)


def test_a_crash_wins_the_match_outright():
    match = CrashMatch(CrashMatchRules(target=15))
    match.add(prial.crash_showdown([STRONG_FIRST, STRONG_LATER]))
    assert not match.over
    round_ = match.add(prial.crash_showdown([ACES_UP, TENS_UP]))
    assert round_.crash == "a" and match.over and match.winner == "a"
    result = match.result()
    assert result.decided_by == "crash" and result.standings == {"a": 6, "b": 2}
    assert result.settlement == {"a": 1, "b": -1}


def test_without_crash_wins_a_crash_only_scores_its_points():
    rules = CrashMatchRules(target=7, crash_wins=False)
    result = crash_match([[ACES_UP, TENS_UP]] * 2, rules)
    assert [r.crash for r in result.rounds] == ["a", "a"]
    assert result.winner == "a" and result.decided_by == "target" and result.standings == {"a": 8, "b": 0}


def test_proportionate_after_a_crash_pegs_the_winner_at_the_target():
    match = CrashMatch(CrashMatchRules(target=10, settlement="proportionate", stake=2))
    match.add(round_of({"a": 0, "b": 3, "c": 0}))
    match.add(round_of({"a": 4, "b": 0, "c": 0}, crash="a"))
    result = match.result()
    # a pegs out at 10: b is 7 behind, c 10 behind and not on the board.
    assert result.settlement == {"a": 14 + 40, "b": -14, "c": -40}
    assert result.not_on_board == ("c",)


def test_not_on_board_pays_double_only_when_chosen():
    rounds = [round_of({"a": 7, "b": 0, "c": 1})]
    doubled, single = (CrashMatch(CrashMatchRules(target=7, stake=5, not_on_board_double=d)) for d in (True, False))
    for match in (doubled, single):
        match.add(rounds[0])
    assert doubled.result().settlement == {"a": 15, "b": -10, "c": -5}
    assert single.result().settlement == {"a": 10, "b": -5, "c": -5}


def test_a_tie_at_the_top_plays_on_until_one_leads():
    match = CrashMatch(CrashMatchRules(target=7))
    match.add(round_of({"a": 8, "b": 8}))
    assert not match.over and match.result().settlement is None
    match.add(round_of({"a": 1, "b": 1}))
    assert not match.over
    match.add(round_of({"a": 0, "b": 1}))
    assert match.winner == "b" and match.result().settlement == {"a": -1, "b": 1}


def test_the_street_of_121():
    match = CrashMatch(CrashMatchRules(target=121, crash_wins=False))
    for _ in range(30):
        match.add(round_of({"a": 4, "b": 3}))
    assert match.standings == {"a": 120, "b": 90} and not match.over
    match.add(round_of({"a": 1, "b": 0}))
    assert match.winner == "a"


def test_later_rounds_may_list_the_players_in_another_order():
    match = CrashMatch()
    match.add(round_of({"a": 1, "b": 2}))
    match.add(round_of({"b": 0, "a": 3}))
    assert list(match.standings.items()) == [("a", 4), ("b", 2)]


def test_results_are_plain_data():
    result = crash_match([[STRONG_FIRST, STRONG_LATER]])
    assert result.to_dict() == {
        "rounds": [{"points": {"a": 2, "b": 2}, "standings": {"a": 2, "b": 2}, "crash": None}],
        "standings": {"a": 2, "b": 2}, "over": False, "winner": None, "decided_by": None, "settlement": None,
        "not_on_board": []}


def test_rules_are_immutable():
    rules = CrashMatchRules()
    with pytest.raises(AttributeError):
        rules.target = 12  # type: ignore[misc]
    assert (rules.target, rules.crash_wins, rules.settlement, rules.stake, rules.not_on_board_double) == (
        10, True, "fixed", 1, True)


# ---- properties ----

rounds_strategy = st.integers(2, 5).flatmap(lambda n: st.lists(
    st.tuples(st.lists(st.integers(0, 12), min_size=n, max_size=n), st.none() | st.integers(0, n - 1)),
    min_size=1, max_size=60))
rules_strategy = st.builds(CrashMatchRules, target=st.sampled_from([*range(7, 16), 121]), crash_wins=st.booleans(),
                           settlement=st.sampled_from(["fixed", "proportionate"]), stake=st.integers(0, 10**6),
                           not_on_board_double=st.booleans())


@settings(max_examples=300, deadline=None)
@given(rounds_strategy, rules_strategy)
def test_properties(rounds, rules):
    ids = [f"p{i}" for i in range(len(rounds[0][0]))]
    match = CrashMatch(rules)
    last_crash = None
    for points, crash in rounds:
        if match.over:
            with pytest.raises(InvalidShowdownError, match="the match is over"):
                match.add(round_of(dict(zip(ids, points))))
            break
        last_crash = None if crash is None else ids[crash]
        match.add(round_of(dict(zip(ids, points)), last_crash))
    result = match.result()
    assert result.standings == {pid: sum(r.points[pid] for r in result.rounds) for pid in ids}
    if not result.over:
        assert result.settlement is None and result.winner is None
        return
    nets = result.settlement
    assert nets is not None and sum(nets.values()) == 0
    assert all(nets[pid] <= 0 for pid in ids if pid != result.winner)
    if result.decided_by == "crash":
        assert rules.crash_wins and result.winner == last_crash
    else:
        top = result.standings[result.winner]
        assert top >= rules.target and all(result.standings[p] < top for p in ids if p != result.winner)
    assert result.not_on_board == tuple(p for p in ids if p != result.winner and result.standings[p] == 0)
    # Not on the board pays exactly double what the same loss on the board would.
    single = CrashMatch(CrashMatchRules(rules.target, rules.crash_wins, rules.settlement, rules.stake, False))
    for r in result.rounds:
        single.add(round_of(dict(r.points), r.crash))
    single_nets = single.result().settlement
    assert single_nets is not None
    for pid in ids:
        if pid != result.winner:
            assert nets[pid] == single_nets[pid] * (2 if pid in result.not_on_board and
                                                    rules.not_on_board_double else 1)


# ---- bad input ----

@pytest.mark.parametrize(("options", "says"), [
    ({"target": 6}, "target must be 7 to 15 holes or a street of 121, got 6"),
    ({"target": 16}, "got 16"),
    ({"target": 120}, "got 120"),
    ({"target": 10.0}, "got 10.0"),
    ({"target": True}, "got True"),
    ({"settlement": "winner_takes_all"}, "settlement must be one of fixed, proportionate, got 'winner_takes_all'"),
    ({"stake": -1}, "stake must be a whole number 0 to 1000000, got -1"),
    ({"stake": 10**6 + 1}, "got 1000001"),
    ({"stake": 1.5}, "got 1.5"),
    ({"crash_wins": "yes"}, "crash_wins must be True or False"),
    ({"not_on_board_double": 1}, "not_on_board_double must be True or False"),
])
def test_bad_rules(options, says):
    with pytest.raises(ConfigurationError, match=says.replace("(", r"\(").replace(")", r"\)")) as caught:
        CrashMatchRules(**options)
    assert caught.value.field == next(iter(options))


def test_bad_rounds():
    with pytest.raises(ConfigurationError, match="rules must be a prial.CrashMatchRules"):
        CrashMatch({"target": 10})  # type: ignore[arg-type]
    match = CrashMatch()
    with pytest.raises(InvalidShowdownError, match="a round is a prial.CrashResult, got dict"):
        match.add({"a": 1})  # type: ignore[arg-type]
    with pytest.raises(InvalidShowdownError, match="round 1: a match has at least 2 players, got 1"):
        match.add(round_of({"a": 1}))
    with pytest.raises(InvalidShowdownError, match="round 1: player 'b' scores -1"):
        match.add(round_of({"a": 1, "b": -1}))
    with pytest.raises(InvalidShowdownError, match="round 1: the crash is by 'c', not one of its players"):
        match.add(round_of({"a": 1, "b": 0}, crash="c"))
    assert match.standings == {} and not match.result().rounds  # nothing refused was counted
    match.add(round_of({"a": 1, "b": 0}))
    with pytest.raises(InvalidShowdownError,
                       match=r"round 2: players 'a', 'c' are not the match's 'a', 'b' \(missing 'b'\) \(new 'c'\)"):
        match.add(round_of({"a": 1, "c": 0}))
    with pytest.raises(InvalidShowdownError, match="round 2: players 'a', 'b', 'c' are not"):
        match.add(round_of({"a": 1, "b": 0, "c": 0}))
    match.add(round_of({"a": 9, "b": 0}))
    with pytest.raises(InvalidShowdownError,
                       match=r"round 3: the match is over \(player 'a' won in round 2\); no more rounds are played"):
        match.add(round_of({"a": 1, "b": 0}))
    assert match.standings == {"a": 10, "b": 0}


def test_bad_rounds_of_a_whole_match():
    with pytest.raises(InvalidShowdownError, match="round 2: the match is over"):
        crash_match([[ACES_UP, TENS_UP], [ACES_UP, TENS_UP]])
    with pytest.raises(InvalidShowdownError, match="round 2: players 'a', 'c' are not the match's 'a', 'b'"):
        crash_match([[STRONG_FIRST, STRONG_LATER], [STRONG_FIRST, CrashPlayer("c", STRONG_LATER.hands)]])
    with pytest.raises(InvalidHandError, match="round 2: player 'b' hand 1"):
        crash_match([[STRONG_FIRST, STRONG_LATER], [STRONG_FIRST, CrashPlayer("b", ["Xx Td Th"])]])
    with pytest.raises(InvalidShowdownError, match="crash_match takes a list of rounds"):
        crash_match("rounds")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="scoring"):
        crash_match([[STRONG_FIRST, STRONG_LATER]], scoring="weights")
