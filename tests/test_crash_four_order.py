"""Which four of a kind earns Crash's bonus (``four_order``) and crashes over
three hands (docs/rules.md, "Crash scoring" and "Crash bonuses in expected
points"), against references simple enough to check by eye."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import prial
from prial import CrashPlayer, Rules

RULESETS = {"brag": None, "top_prial_ace": Rules(top_prial="ace"), "teen_patti": Rules(preset="teen_patti")}
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def reference_key(rank: int, rules: Rules | None, four_order: str) -> tuple[int, ...]:
    """A rank's standing for the bonus, larger better: the ruleset's strength
    of its prial, the rank itself (aces high), or fours first then aces high."""
    if four_order == "prial":
        prial_hand = " ".join(RANKS[rank] + s for s in SUITS[:3])
        return (prial.Evaluator(rules).evaluate(prial_hand).strength,)
    if four_order == "aces":
        return (rank,)
    assert four_order == "fours"
    return (rank == RANKS.index("4"), rank)


def four_holder(rank: int, fillers: list[str]) -> list[str]:
    """Two hands holding all four cards of `rank`: its prial, then its last
    card with two fillers (never a prial, so the hands are in order)."""
    r = RANKS[rank]
    return [f"{r}c {r}d {r}h", f"{r}s {fillers[0]} {fillers[1]}"]


@pytest.mark.parametrize("rules", RULESETS.values(), ids=RULESETS.keys())
@pytest.mark.parametrize("four_order", ["prial", "aces", "fours"])
def test_the_bonus_goes_to_the_best_four_by_brute_force(rules, four_order):
    for a_rank, b_rank in itertools.permutations(range(13), 2):
        others = [r for r in range(13) if r not in (a_rank, b_rank)]
        # Fillers of four other ranks, suits mixed: no card shared.
        fillers = [RANKS[r] + s for r, s in zip(others[::3], "cdhs")]
        a = CrashPlayer("a", four_holder(a_rank, fillers[:2]))
        b = CrashPlayer("b", four_holder(b_rank, fillers[2:]))
        result = prial.crash_showdown([a, b], rules=rules, four_order=four_order)
        expected = max([("a", a_rank), ("b", b_rank)], key=lambda p: reference_key(p[1], rules, four_order))[0]
        assert result.four_of_a_kind_bonus == expected, (RANKS[a_rank], RANKS[b_rank])
        assert {p.id: p.four_of_a_kind for p in result.players} == {"a": RANKS[a_rank], "b": RANKS[b_rank]}


@pytest.mark.parametrize(("rules", "best"), [(None, "3"), (Rules(top_prial="ace"), "A"),
                                             (Rules(preset="teen_patti"), "A")])
def test_the_default_ranks_fours_as_the_ruleset_ranks_prials(rules, best):
    threes = CrashPlayer("t", four_holder(RANKS.index("3"), ["5c", "9d"]))
    fours = CrashPlayer("f", four_holder(RANKS.index("4"), ["6c", "Td"]))
    aces = CrashPlayer("a", four_holder(RANKS.index("A"), ["7c", "Jd"]))
    result = prial.crash_showdown([threes, fours, aces], rules=rules)
    assert {p.id: p.four_of_a_kind for p in result.players}[result.four_of_a_kind_bonus] == best


def test_the_old_order_stays_reachable():
    # Four fours against four aces: the old default gave the fours the bonus.
    a = CrashPlayer("a", ["4s 4d 4h", "4c 9d 9h", "Tc 7d 3h", "8c 6d 2h"], "5h")
    b = CrashPlayer("b", ["As Ad Ah", "Ac Kd Kh", "Qc Jd 5d", "9c 7h 2d"], "3d")
    assert prial.crash_showdown([a, b], four_order="fours").four_of_a_kind_bonus == "a"
    assert prial.crash_showdown([a, b]).four_of_a_kind_bonus == "b"
    assert prial.crash_showdown([a, b], four_order="aces").four_of_a_kind_bonus == "b"


@pytest.mark.parametrize("value", ["threes", "", "PRIAL", None, 3])
def test_a_bad_four_order_is_refused_naming_the_field(value):
    a = CrashPlayer("a", ["As Ad Ah"])
    b = CrashPlayer("b", ["Ks Kd Kh"])
    with pytest.raises(prial.ConfigurationError, match="four_order must be one of 'prial', 'aces', 'fours'") as info:
        prial.crash_showdown([a, b], four_order=value)
    assert info.value.field == "four_order"
    with pytest.raises(prial.ConfigurationError, match="four_order must be one of") as info:
        prial.partition("As Ad Ah Ac 2c 3d 5h 7s 9c", hands=3, objective="expected_points", four_order=value)
    assert info.value.field == "four_order"


NINE_CARD_ROUND = [
    CrashPlayer("a", ["As Ad Ah", "Ks Kd 9h", "Qs Jd 8c"]),
    CrashPlayer("b", ["Qc Qd 4h", "Jc Js 5h", "Tc 7h 5d"]),
    CrashPlayer("c", ["9s 9d 2h", "8d 8h 3c", "Th 6s 2c"]),
]


@pytest.mark.parametrize("crash_value", [0, 1, 7])
def test_winning_all_three_positions_of_a_nine_card_round_is_a_crash(crash_value):
    result = prial.crash_showdown(NINE_CARD_ROUND, crash_value=crash_value)
    assert [p.winner for p in result.positions] == ["a", "a", "a"]
    assert result.crash == "a"
    assert result.points == {"a": 3 + crash_value, "b": 0, "c": 0}


def test_a_nine_card_round_split_between_players_has_no_crash():
    b = CrashPlayer("b", ["Qc Qd 4h", "Jc Js 5h", "Kc 7h 5d"])  # b now wins the third position
    result = prial.crash_showdown([NINE_CARD_ROUND[0], b], crash_value=5)
    assert [p.winner for p in result.positions] == ["a", "a", "b"]
    assert result.crash is None and result.points == {"a": 2, "b": 1}


def test_two_positions_are_not_a_crash():
    a = CrashPlayer("a", ["As Ad Ah", "Ks Kd 9h"])
    b = CrashPlayer("b", ["Qc Qd 4h", "Jc Js 5h"])
    result = prial.crash_showdown([a, b], crash_value=5)
    assert result.crash is None and result.points == {"a": 2, "b": 0}


def _deal_with_fours(rng: np.random.Generator, ranks: tuple[int, int], cards: int) -> list[int]:
    quads = [4 * r + s for r in ranks for s in range(4)]
    rest = [c for c in rng.permutation(52).tolist() if c not in quads]
    return quads + rest[: cards - len(quads)]


def test_the_expected_points_split_follows_four_order():
    """A seeded search for a deal with two fours whose split changes with the
    option: which four is the better decides which one the bonus chases."""
    rng = np.random.default_rng(20261203)
    ev = prial.Evaluator()
    found = None
    for _ in range(1000):
        low, high = sorted(rng.choice(13, size=2, replace=False).tolist())
        deal = _deal_with_fours(rng, (low, high), 13)
        splits = {order: ev.partition(deal, objective="expected_points", four_order=order)
                  for order in ("prial", "aces", "fours")}
        if len({tuple(map(tuple, s.hands)) for s in splits.values()}) > 1:
            found = (deal, splits)
            break
    assert found is not None, "no deal found whose split depends on four_order"
    deal, splits = found
    # The batch follows the same option, row for row.
    for order, split in splits.items():
        hands, strengths = ev.partition_batch(np.array([deal], dtype=np.uint8), objective="expected_points",
                                              four_order=order, threads=1)
        assert hands[0].tolist() == split.hands and strengths[0].tolist() == split.strengths


def test_a_nine_card_deal_counts_the_four_and_the_crash_in_expected_points():
    # Four threes are the best four in Brag ("prial"): a sure bonus point.
    # With fours ranked first, four fours an opponent might hold make it less.
    deal = "3c 3d 3h 3s Ah Kd 9c 7s 5d"
    prial_order = prial.partition(deal, hands=3, objective="expected_points")
    fours_order = prial.partition(deal, hands=3, objective="expected_points", four_order="fours")
    threes = set(prial.parse_cards("3c 3d 3h 3s"))
    assert threes <= {c for h in prial_order.hands for c in h}
    assert prial_order.expected_points > fours_order.expected_points
    assert prial_order.expected_points > 1
    # A crash over the three positions is worth its crash_value here too.
    with_crash = prial.partition(deal, hands=3, objective="expected_points", crash_value=1000)
    assert with_crash.expected_points > prial_order.expected_points
