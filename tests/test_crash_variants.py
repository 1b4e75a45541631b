"""The readings of Crash scoring that outside sources disagree on
(docs/rules.md, "Crash scoring"): ``ties`` (stick-up or cancel),
``four_bonus`` (the best four or every four) and ``below_min`` (foul the
player or forfeit the position), checked against a reference scorer simple
enough to read at a glance, by enumeration and on random tables."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prial
from prial import ConfigurationError, CrashPlayer

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# Standard Brag's categories, strongest first.
BRAG_ORDER = ["PRIAL", "RUNNING_FLUSH", "RUN", "FLUSH", "PAIR", "HIGH_CARD"]
OPTIONS = {"ties": ["stick_up", "cancel"], "four_bonus": ["best", "every"], "below_min": ["foul", "forfeit_position"]}
EVERY_READING = [dict(zip(OPTIONS, values)) for values in itertools.product(*OPTIONS.values())]
EV = prial.Evaluator()


# ---- the reference ----

def is_below(hand: str, floor: str | None) -> bool:
    return floor is not None and BRAG_ORDER.index(EV.evaluate(hand).category.name) > BRAG_ORDER.index(floor)


def reference(table: dict[str, list[str]], *, ties: str, four_bonus: str, below_min: str,
              floor: str | None = None, crash_value: int = 0) -> dict:
    """What a round scores, read straight off the rules: a player fouls on
    hands out of order (or, under "foul", a hand below the floor); at each
    position the hands that meet are those of the unfouled players not
    below the floor; the winner is the unique best hand (stick-up) or the
    best hand whose strength no other hand there shares (cancel)."""
    strength = {pid: [EV.evaluate(h).strength for h in hands] for pid, hands in table.items()}
    fouled = {pid for pid, s in strength.items() if any(b > a for a, b in itertools.pairwise(s))}
    if below_min == "foul":
        fouled |= {pid for pid, hands in table.items() if any(is_below(h, floor) for h in hands)}
    points = dict.fromkeys(table, 0)
    positions = []
    for i in range(4):
        laid = [pid for pid in table if pid not in fouled and i < len(table[pid])]
        if not laid:
            continue
        meet = {pid: strength[pid][i] for pid in laid if not is_below(table[pid][i], floor)}
        alone = [s for s in meet.values() if list(meet.values()).count(s) == 1]
        if ties == "stick_up":
            alone = [s for s in alone if meet and s == max(meet.values())]
        winner = next((pid for pid, s in meet.items() if alone and s == max(alone)), None)
        if winner is not None:
            points[winner] += 1
        cancelled = [] if ties == "stick_up" else [pid for pid in meet if winner is None or meet[pid] > meet[winner]]
        positions.append({"winner": winner, "stick_up": bool(meet) and winner is None, "cancelled": cancelled,
                          "contenders": list(meet), "forfeited": [pid for pid in laid if pid not in meet]})
    crash = next((pid for pid in table if len(positions) >= 3
                  and all(p["winner"] == pid for p in positions)), None)
    if crash is not None:
        points[crash] += crash_value
    four = {}
    for pid, hands in table.items():
        cards = " ".join(hands).split()
        ranks = [r for r in RANKS if pid not in fouled and sum(c[0] == r for c in cards) == 4]
        if ranks:  # the best four: the rank whose prial is the strongest
            four[pid] = max(EV.evaluate(f"{r}c {r}d {r}h").strength for r in ranks)
    best = max(four, key=four.get) if four else None
    bonuses = list(four) if four_bonus == "every" else [best] if best else []
    for pid in bonuses:
        points[pid] += 1
    return {"points": points, "positions": positions, "crash": crash, "four_of_a_kind_bonus": best,
            "four_of_a_kind_bonuses": bonuses, "fouled": sorted(fouled)}


def scored(table: dict[str, list[str]], floor: str | None = None, crash_value: int = 0, **options) -> dict:
    """prial's answer in the reference's form."""
    r = prial.crash_showdown([CrashPlayer(pid, hands) for pid, hands in table.items()], min_category=floor,
                             crash_value=crash_value, **options)
    return {"points": dict(r.points),
            "positions": [{"winner": p.winner, "stick_up": p.stick_up, "cancelled": list(p.cancelled),
                           "contenders": list(p.contenders), "forfeited": list(p.forfeited)} for p in r.positions],
            "crash": r.crash, "four_of_a_kind_bonus": r.four_of_a_kind_bonus,
            "four_of_a_kind_bonuses": list(r.four_of_a_kind_bonuses),
            "fouled": sorted(p.id for p in r.players if p.fouled)}


def shares_cards(hands) -> bool:
    cards = " ".join(hands).split()
    return len(cards) != len(set(cards))


# ---- one position, every way of filling it ----

# Thirteen hands of every category, several held in equal strength in other suits.
POOL = ["Qs Qd Qh",                                # prial
        "9c Tc Jc", "9d Td Jd",                    # running flushes, equal
        "5c 6d 7h", "5d 6h 7s", "5h 6s 7c",        # runs, three equal
        "2h 9h Kh", "2s 9s Ks",                    # flushes, equal
        "8c 8d 3c", "8h 8s 3d",                    # pairs, equal
        "Ac 4d 3h", "As 4h 3s",                    # high cards, equal
        "Kc Jh 4s"]                                # a lower high card


def one_position_tables():
    for seated in (3, 4):
        picks = itertools.product(POOL, repeat=3) if seated == 3 else itertools.combinations(POOL, 4)
        for hands in picks:
            if not shares_cards(hands):
                yield {chr(ord("a") + i): [h] for i, h in enumerate(hands)}


@pytest.mark.parametrize("floor", [None, "PAIR", "RUN"])
@pytest.mark.parametrize("ties", OPTIONS["ties"])
@pytest.mark.parametrize("below_min", OPTIONS["below_min"])
def test_one_position_filled_every_way_scores_as_the_reference(floor, ties, below_min):
    compared = 0
    for table in one_position_tables():
        options = {"ties": ties, "four_bonus": "best", "below_min": below_min}
        assert scored(table, floor, **options) == reference(table, floor=floor, **options), table
        compared += 1
    assert compared > 1500


# ---- rounds of several positions, at random ----

@st.composite
def tables(draw):
    """Two or three players dealt from seven ranks (so ties and fours are
    common), each laying one to four hands, mostly in order."""
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=7, max_size=7, unique=True))
    deck = draw(st.permutations([r + s for r in ranks for s in SUITS]))
    seated = draw(st.integers(2, 3))
    table = {}
    for pid in "abc"[:seated]:
        count = draw(st.integers(1, min(4, len(deck) // 3 - (seated - len(table) - 1))))
        hands = [" ".join(deck[3 * i:3 * i + 3]) for i in range(count)]
        deck = deck[3 * count:]
        if draw(st.integers(0, 4)):  # a foul now and then
            hands.sort(key=lambda h: EV.evaluate(h).strength, reverse=True)
        table[pid] = hands
    return table


def mirrored(ranks_of: list[str], free: list[str]) -> list[str] | None:
    """Cards of the same ranks as ``ranks_of`` from ``free`` (so the hand
    often ties with it), or None when too few are left."""
    chosen: list[str] = []
    for card in ranks_of:
        match = next((c for c in free if c[0] == card[0] and c not in chosen), None)
        if match is None:
            return None
        chosen.append(match)
    return chosen


@st.composite
def tied_tables(draw):
    """Two to four players laying one to four hands each from a full pack,
    each hand after the first at a position mostly of the first's ranks, so
    that stick-ups and cancelled hands are common."""
    rnd = draw(st.randoms(use_true_random=False))
    free = [r + s for r in RANKS for s in SUITS]
    rnd.shuffle(free)
    table: dict[str, list[str]] = {pid: [] for pid in "abcd"[:draw(st.integers(2, 4))]}
    for _ in range(draw(st.integers(1, 4))):
        first = None
        for hands in table.values():
            hand = (mirrored(first, free) if first and rnd.random() < 0.7 else None) or free[:3]
            free = [c for c in free if c not in hand]
            first = first or hand
            hands.append(" ".join(hand))
    for hands in table.values():
        if rnd.random() < 0.8:  # a foul now and then
            hands.sort(key=lambda h: EV.evaluate(h).strength, reverse=True)
    return table


ANY_TABLE = st.one_of(tables(), tied_tables())


@settings(max_examples=500, deadline=None)
@given(ANY_TABLE, st.sampled_from([None, "PAIR", "RUN"]), st.sampled_from(EVERY_READING), st.integers(0, 2))
def test_random_rounds_score_as_the_reference(table, floor, options, crash_value):
    assert scored(table, floor, crash_value, **options) == reference(table, floor=floor, crash_value=crash_value,
                                                                      **options)


# ---- the four-of-a-kind bonus, every three fours at a table ----

def four_holder(rank: str, fillers: list[str]) -> list[str]:
    """All four cards of ``rank`` in two hands: its prial, then its last card
    with two fillers."""
    return [f"{rank}c {rank}d {rank}h", f"{rank}s {fillers[0]} {fillers[1]}"]


@pytest.mark.parametrize("four_bonus", OPTIONS["four_bonus"])
def test_every_three_fours_score_as_the_reference(four_bonus):
    for fours in itertools.permutations(RANKS, 3):
        others = [r for r in RANKS if r not in fours]
        fillers = [r + s for r, s in zip(others[:6], "cdhscd")]  # six different ranks: no pair, no share
        table = {pid: four_holder(rank, fillers[2 * i:2 * i + 2]) for i, (pid, rank) in enumerate(zip("abc", fours))}
        options = {"ties": "stick_up", "four_bonus": four_bonus, "below_min": "foul"}
        assert scored(table, **options) == reference(table, **options), fours


# ---- properties ----

@settings(max_examples=200, deadline=None)
@given(tables(), st.sampled_from([None, "PAIR"]))
def test_the_defaults_are_the_stick_up_the_best_four_and_the_foul(table, floor):
    players = [CrashPlayer(pid, hands) for pid, hands in table.items()]
    assert prial.crash_showdown(players, min_category=floor) == prial.crash_showdown(
        players, min_category=floor, ties="stick_up", four_bonus="best", below_min="foul")


@settings(max_examples=200, deadline=None)
@given(ANY_TABLE, st.sampled_from([None, "PAIR"]))
def test_cancel_keeps_every_stick_up_winner_and_scores_at_least_as_many_positions(table, floor):
    players = [CrashPlayer(pid, hands) for pid, hands in table.items()]
    stick = prial.crash_showdown(players, min_category=floor)
    cancel = prial.crash_showdown(players, min_category=floor, ties="cancel")
    for s, c in zip(stick.positions, cancel.positions, strict=True):
        assert c.winner == s.winner or s.winner is None
        assert not s.cancelled and (c.cancelled == () or s.stick_up)
    assert sum(p.winner is not None for p in cancel.positions) >= sum(p.winner is not None for p in stick.positions)


@settings(max_examples=200, deadline=None)
@given(tables())
def test_every_four_scores_one_more_point_for_each_other_holder(table):
    players = [CrashPlayer(pid, hands) for pid, hands in table.items()]
    best = prial.crash_showdown(players)
    every = prial.crash_showdown(players, four_bonus="every")
    holders = [p.id for p in every.players if p.four_of_a_kind and not p.fouled]
    assert every.four_of_a_kind_bonuses == tuple(holders)
    assert best.four_of_a_kind_bonuses == ((best.four_of_a_kind_bonus,) if holders else ())
    assert every.four_of_a_kind_bonus == best.four_of_a_kind_bonus
    assert {pid: every.points[pid] - best.points[pid] for pid in table} == {
        pid: int(pid in holders and pid != best.four_of_a_kind_bonus) for pid in table}


@settings(max_examples=200, deadline=None)
@given(tables())
def test_without_min_category_below_min_changes_nothing(table):
    players = [CrashPlayer(pid, hands) for pid, hands in table.items()]
    assert prial.crash_showdown(players, below_min="forfeit_position") == prial.crash_showdown(players)


# ---- the crash under each reading ----

def test_a_position_won_because_better_hands_cancelled_counts_toward_a_crash():
    # a and b hold equal hands at every position; c holds the third best.
    table = {"a": ["9c Tc Jc", "5c 6d 7h", "Ac Ad 9h"], "b": ["9d Td Jd", "5d 6h 7s", "Ah As 9s"],
             "c": ["2h 2d 4c", "Ks 3h 5h", "Qh 4h 3s"]}
    stick = prial.crash_showdown([CrashPlayer(p, h) for p, h in table.items()], crash_value=1)
    cancel = prial.crash_showdown([CrashPlayer(p, h) for p, h in table.items()], crash_value=1, ties="cancel")
    assert [p.stick_up for p in stick.positions] == [True, True, True] and stick.crash is None
    assert [p.winner for p in cancel.positions] == ["c", "c", "c"]
    assert [p.cancelled for p in cancel.positions] == [("a", "b")] * 3
    assert cancel.crash == "c" and cancel.points == {"a": 0, "b": 0, "c": 4}
    assert cancel.positions[0].reason == "c scores 1: Pair of twos, four kicker (a and b cancel out)"


def test_every_hand_cancelled_is_a_stick_up_nobody_wins():
    a = CrashPlayer("a", ["5c 6d 7h", "8c 8d 3c"])
    b = CrashPlayer("b", ["5d 6h 7s", "8h 8s 3d"])
    r = prial.crash_showdown([a, b], ties="cancel")
    assert [(p.winner, p.stick_up, p.cancelled) for p in r.positions] == [(None, True, ("a", "b"))] * 2
    assert r.positions[0].reason == "stick-up: every hand is tied with another (a and b cancel out)"
    assert r.points == {"a": 0, "b": 0}


def test_a_forfeited_position_is_lost_so_no_crash_and_every_hand_below_scores_nobody():
    a = CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h", "Jc 6h 3d"])
    b = CrashPlayer("b", ["Qs Qd Qh", "Jd Js 5h", "Tc 7h 4d"])
    fouled = prial.crash_showdown([a, b], min_category="PAIR", crash_value=1)
    assert [p.fouled for p in fouled.players] == [True, True] and fouled.points == {"a": 0, "b": 0}
    r = prial.crash_showdown([a, b], min_category="PAIR", crash_value=1, below_min="forfeit_position")
    third = r.positions[2]
    assert (third.winner, third.stick_up, third.contenders, third.forfeited) == (None, False, (), ("a", "b"))
    assert third.best is None and third.reason == "nobody scores: every hand is below the minimum (a and b)"
    assert r.crash is None and r.points == {"a": 2, "b": 0}
    assert not any(p.fouled for p in r.players)


def test_a_four_counts_though_one_of_its_hands_is_forfeited():
    a = CrashPlayer("a", ["9c 9d 9h", "9s 6d 2h", "8c 7s 3d"])
    b = CrashPlayer("b", ["Qs Qd 5h", "Jd Js 4h", "Ks 8h 4d"])
    r = prial.crash_showdown([a, b], min_category="PAIR", below_min="forfeit_position")
    assert r.four_of_a_kind_bonus == "a" and r.positions[1].forfeited == ("a",)
    assert r.points == {"a": 2, "b": 1}


# ---- bad input ----

@pytest.mark.parametrize(("option", "value"), [("ties", "split"), ("ties", ""), ("four_bonus", "all"),
                                               ("four_bonus", None), ("below_min", "forfeit"),
                                               ("below_min", 1)])
def test_a_bad_option_is_refused_naming_it(option, value):
    players = [CrashPlayer("a", ["As Ad Ah"]), CrashPlayer("b", ["Ks Kd Kh"])]
    with pytest.raises(ConfigurationError) as info:
        prial.crash_showdown(players, **{option: value})
    assert str(info.value) == f"{option} must be one of {', '.join(map(repr, OPTIONS[option]))}, got {value!r}"
    assert info.value.field == option and isinstance(info.value, ValueError)
