"""Exact odds, equity and percentile."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import prial
from prial import Category, ConfigurationError, InvalidHandError


def test_three_card_counts():
    table = prial.odds()
    counts = {r.category: r.count for r in table}
    assert counts == {Category.PRIAL: 52, Category.RUNNING_FLUSH: 48, Category.RUN: 720,
                      Category.FLUSH: 1096, Category.PAIR: 3744, Category.HIGH_CARD: 16440}
    assert table.total == 22100 and [r.category for r in table][0] == Category.PRIAL
    assert math.isclose(sum(r.probability for r in table), 1.0)
    assert table[Category.PRIAL].probability == 52 / 22100


def test_three_card_poker_order_puts_the_running_flush_first():
    rows = list(prial.odds(prial.Rules(preset="three_card_poker")))
    assert [r.category for r in rows[:2]] == [Category.RUNNING_FLUSH, Category.PRIAL]


def _best_three_categories(width: int) -> dict[Category, int]:
    """Independent count: every hand's sub-triples evaluated in numpy."""
    ev = prial.Evaluator()
    hands = np.array(list(itertools.combinations(range(52), width)), dtype=np.uint8)
    triples = list(itertools.combinations(range(width), 3))
    strengths = np.stack([ev.evaluate_batch(np.ascontiguousarray(hands[:, t])) for t in triples], axis=1)
    best = strengths.max(axis=1)
    category_of = {}
    for h in itertools.combinations(range(52), 3):
        v = ev.evaluate(h)
        category_of[v.strength] = v.category
    lookup = np.zeros(best.max() + 1, dtype=np.int64)
    for s, c in category_of.items():
        lookup[s] = int(c)
    counts = np.bincount(lookup[best], minlength=6)
    return {Category(i): int(n) for i, n in enumerate(counts)}


def test_four_card_counts_against_numpy():
    assert {r.category: r.count for r in prial.odds(cards=4)} == _best_three_categories(4)


def test_five_card_counts_add_up():
    table = prial.odds(cards=5)
    assert table.total == math.comb(52, 5) == sum(r.count for r in table)
    # Prial is the top category, so a hand's best three is a prial exactly when it
    # holds three or four of a rank: 13 ranks x (4 C(48,2) + 48).
    assert table[Category.PRIAL].count == 13 * (4 * math.comb(48, 2) + 48)


def test_bad_cards():
    with pytest.raises(ConfigurationError, match="cards must be 3, 4 or 5"):
        prial.odds(cards=6)


# ---- equity ----

def _brute_equity(hand: str, dead: str, opponents: int) -> tuple[float, float, float]:
    """Every deal of `opponents` hands from the unseen cards, in plain Python:
    seats dealt in order (ordered deals), so the counts differ from the
    library's unordered ones by a constant factor."""
    ev = prial.Evaluator()
    known = set(prial.parse_cards(hand)) | set(prial.parse_cards(dead))
    unseen = [c for c in range(52) if c not in known]
    mine = ev.evaluate(hand).strength
    strength = {h: ev.evaluate(h).strength for h in itertools.combinations(unseen, 3)}
    win = tie = lose = 0

    def deal(left: list[int], seats: int, best: int) -> None:
        nonlocal win, tie, lose
        if seats == 0:
            if mine > best:
                win += 1
            elif mine == best:
                tie += 1
            else:
                lose += 1
            return
        for h in itertools.combinations(left, 3):
            deal([c for c in left if c not in h], seats - 1, max(best, strength[h]))

    deal(unseen, opponents, 0)
    total = win + tie + lose
    return win / total, tie / total, lose / total


@pytest.mark.parametrize("hand", ["3s 3h 3d", "Ac Kd Qh", "7s 7h Qc", "5c 3d 2h", "Kh 9h 2h", "Ah 2h 3h"])
def test_heads_up_equity_is_exact(hand):
    e = prial.equity(hand)
    assert e.exact and e.stderr == 0 and e.deals == 18424 and e.opponents == 1
    assert (e.win, e.tie, e.lose) == pytest.approx(_brute_equity(hand, "", 1), abs=1e-12)


def test_equity_carries_the_percentile_only_where_asked():
    assert prial.equity("7s 7h Qc").percentile is None
    for hand, rules in (("7s 7h Qc", None), ("Ks Kd 9h 7c", prial.Rules(preset="teen_patti"))):
        e = prial.equity(hand, rules=rules, with_percentile=True)
        assert e.percentile == prial.percentile(hand, rules) and 0 < e.percentile < 1
        assert e.to_dict()["percentile"] == e.percentile


def test_equity_with_dead_cards_and_two_opponents():
    hand = "Ac Ad Ah"  # cards 48, 49, 50
    dead = " ".join(prial.format_cards([c]) for c in range(14, 48))  # 34 dead: 15 unseen
    e = prial.equity("Ac Ad Ah", 2, dead)
    assert e.exact and e.deals == math.comb(15, 3) * math.comb(12, 3) // 2
    assert (e.win, e.tie, e.lose) == pytest.approx(_brute_equity(hand, dead, 2), abs=1e-12)
    e = prial.equity("9c 9d 2s", 2, "Kd Qh Jh Ts 8s 7h 6d 5c 4h 3s Js")
    assert e.exact and e.deals == math.comb(38, 3) * math.comb(35, 3) // 2


def test_sampled_equity_is_seeded_and_within_its_error():
    dead = " ".join(prial.format_cards([c]) for c in range(14, 51))  # 37 dead: 12 unseen
    exact = _brute_equity("4s 3s 2s", dead, 3)
    e = prial.equity("4s 3s 2s", 3, dead, seed=7)
    assert not e.exact and e.deals == 200_000 and e.stderr > 0
    for got, want in zip((e.win, e.tie, e.lose), exact):
        assert abs(got - want) < 5 * e.stderr + 1e-9
    assert prial.equity("4s 3s 2s", 3, dead, seed=7) == e
    assert prial.equity("4s 3s 2s", 3, dead, seed=8) != e
    one = prial.equity("7s 7h Qc", samples=50_000, seed=1)
    exact_one = prial.equity("7s 7h Qc")
    assert not one.exact and abs(one.win - exact_one.win) < 5 * one.stderr


@pytest.mark.parametrize("args, kwargs, error, message", [
    (("As Ad",), {}, InvalidHandError, "expected 3, 4 or 5 cards, got 2"),
    (("As Ad Ah",), {"dead": "Ah"}, InvalidHandError, "duplicate card Ah"),
    (("As Ad Ah", 0), {}, ConfigurationError, "opponents must be"),
    (("As Ad Ah", 17), {}, ConfigurationError, "need 51 unseen cards"),
    (("As Ad Ah",), {"samples": 0}, ConfigurationError, "samples must be"),
    (("As Ad Ah",), {"seed": -1}, ConfigurationError, "seed must be"),
    (("As Ad Zh",), {}, InvalidHandError, "hand: card 3 \\('Zh'\\): unknown rank"),
])
def test_bad_equity_input(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        prial.equity(*args, **kwargs)


# ---- percentile ----

def test_percentile_counts_hands_beaten(all_three_card_hands, brag):
    strengths = brag.evaluate_batch(all_three_card_hands)
    for hand in ["3s 3h 3d", "Ac Kd Qh", "7s 7h Qc", "5c 3d 2h", "Kh 9h 2h"]:
        s = brag.evaluate(hand).strength
        assert prial.percentile(hand) == (strengths < s).sum() / 22100
    assert prial.percentile("5c 3d 2h") == 0.0
    assert prial.percentile("3s 3h 3d") == 22096 / 22100


# ---- four and five cards ----

def test_four_card_heads_up_equity_against_brute_force():
    dead = " ".join(prial.format_cards([c]) for c in range(0, 36))  # 36 dead: 12 unseen
    hand = "Ks Kd Qh Ac"
    ev = prial.Evaluator()
    known = set(prial.parse_cards(hand)) | set(range(36))
    unseen = [c for c in range(52) if c not in known]
    mine = ev.best_of(hand).key
    keys = [ev.best_of(list(h)).key for h in itertools.combinations(unseen, 4)]
    want = (sum(k < mine for k in keys), sum(k == mine for k in keys), sum(k > mine for k in keys))
    e = prial.equity(hand, 1, dead)
    assert e.exact and e.deals == len(keys)
    assert (e.win, e.tie, e.lose) == pytest.approx([w / len(keys) for w in want], abs=1e-12)


def test_five_card_equity_exact_heads_up():
    e = prial.equity("3s 3d 3h 2c 2d")
    assert e.exact and e.deals == math.comb(47, 5) and e.win == 1.0


@pytest.mark.parametrize("hand", ["As Ad Kh 9c", "5c 4d 3h 2s", "3s 3d 3h Ac"])
def test_four_card_percentile_counts_hands_beaten(hand):
    hands = np.array(list(itertools.combinations(range(52), 4)), dtype=np.uint8)
    keys = prial.best_of_batch(hands)
    assert prial.percentile(hand) == (keys < prial.best_of(hand).key).sum() / len(keys)
