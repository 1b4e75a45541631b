"""Exact equity against a brute-force count, for every kind of ruleset the
API accepts: every opponent hand (heads-up) or every pair of disjoint
opponent hands (two opponents) dealt explicitly and compared one by one.
The keys come from best_of_batch, whose tables tests/test_bestof.py checks
against its own reference; what is checked here is the counting."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import prial
from prial import Rules

RULESETS = {
    "brag": Rules(),
    "teen_patti": Rules(preset="teen_patti"),
    "three_card_poker": Rules(preset="three_card_poker"),
    "a23 bottom, top prial aces": Rules(ace_two_three="bottom", top_prial="ace"),
    "lowball": Rules(lowball=True),
    "deuces wild": Rules(wild="deuces"),
    "black deuces": Rules(wild="black_deuces"),
    "one-eyed jacks": Rules(wild="one_eyed_jacks"),
    "suicide king": Rules(wild="suicide_king"),
    "ak47": Rules(wild="ak47", wild_ties="equal"),
    "three jokers": Rules(jokers=3),
    "teen patti, two jokers, lowball": Rules(preset="teen_patti", jokers=2, lowball=True),
}


def _combinations(cards: list[int], width: int) -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(cards, width)), dtype=np.uint8)
    return flat.reshape(-1, width)


def _unseen(rules: Rules, hand: list[int], dead: list[int]) -> list[int]:
    known = set(hand) | set(dead)
    return [c for c in range(rules.pack_size) if c not in known]


def _brute_heads_up(rules: Rules, hand: list[int], dead: list[int]) -> tuple[int, int, int]:
    """(win, tie, lose): every opponent hand of the unseen cards, one key each."""
    ev = prial.Evaluator(rules)
    mine = ev.best_of(hand).key
    keys = ev.best_of_batch(_combinations(_unseen(rules, hand, dead), len(hand)))
    return int((keys < mine).sum()), int((keys == mine).sum()), int((keys > mine).sum())


def _brute_two_opponents(rules: Rules, hand: list[int], dead: list[int]) -> tuple[int, int, int]:
    """(win, tie, lose): every ordered pair of disjoint opponent hands, the
    better of the two against the hand, then halved (each deal twice)."""
    ev = prial.Evaluator(rules)
    mine = ev.best_of(hand).key
    hands = _combinations(_unseen(rules, hand, dead), len(hand))
    keys = ev.best_of_batch(hands).astype(np.int64)
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), hands.astype(np.uint64)), axis=1)
    win = tie = lose = 0
    for mask, key in zip(masks, keys):
        best = np.maximum(keys[(masks & mask) == 0], key)
        win += int((best < mine).sum())
        tie += int((best == mine).sum())
        lose += int((best > mine).sum())
    return win // 2, tie // 2, lose // 2


def _sample(rules: Rules, width: int, dead: int, count: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """`count` random hands of `width` cards, each with `dead` dead cards."""
    rng = np.random.default_rng(seed)
    return [(d[:width].tolist(), d[width:].tolist())
            for d in (rng.permutation(rules.pack_size)[: width + dead] for _ in range(count))]


def _counts(e: prial.Equity) -> tuple[int, int, int]:
    return tuple(round(p * e.deals) for p in (e.win, e.tie, e.lose))  # type: ignore[return-value]


def _wild_hands(rules: Rules, width: int) -> list[tuple[list[int], list[int]]]:
    """Hands holding the ruleset's wild cards (and jokers), which the random
    sample may miss: one with a wild card, one with two."""
    wild = sorted(c for c in range(rules.pack_size) if rules.is_wild(c))
    plain = [c for c in range(rules.pack_size) if not rules.is_wild(c)]
    return [(wild[:k] + plain[5: 5 + width - k], []) for k in (1, 2) if len(wild) >= k]


@pytest.mark.parametrize("name", RULESETS)
def test_heads_up_matches_brute_force(name):
    rules = RULESETS[name]
    cases = (_sample(rules, 3, 0, 4, 1) + _sample(rules, 3, 2, 2, 2) + _sample(rules, 3, 30, 2, 3)
             + _wild_hands(rules, 3) + _sample(rules, 4, 1, 1, 4) + _sample(rules, 4, 36, 1, 5))
    for hand, dead in cases:
        e = prial.equity(hand, 1, dead, rules)
        assert e.exact and e.deals == math.comb(rules.pack_size - len(hand) - len(dead), len(hand))
        assert _counts(e) == _brute_heads_up(rules, hand, dead), (name, hand, dead)


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", ["brag", "deuces wild", "three jokers", "suicide king"])
def test_four_and_five_cards_from_the_whole_pack_match_brute_force(name):
    rules = RULESETS[name]
    for hand, dead in _sample(rules, 4, 0, 1, 6) + _sample(rules, 5, 0, 1, 7) + _wild_hands(rules, 5)[:1]:
        assert _counts(prial.equity(hand, 1, dead, rules)) == _brute_heads_up(rules, hand, dead), (name, hand)


@pytest.mark.parametrize("name", RULESETS)
def test_two_opponents_match_brute_force(name):
    rules = RULESETS[name]
    cases = _sample(rules, 3, 24, 2, 8) + _sample(rules, 4, 30, 1, 9) + _sample(rules, 5, 33, 1, 10)
    wild = _wild_hands(rules, 3)
    if wild:  # with as many dead cards as the random cases, none of them wild
        hand = wild[-1][0]
        cases.append((hand, [c for c in range(rules.pack_size) if c not in hand and not rules.is_wild(c)][:24]))
    for hand, dead in cases:
        e = prial.equity(hand, 2, dead, rules)
        assert e.exact, (name, hand, dead)
        assert _counts(e) == _brute_two_opponents(rules, hand, dead), (name, hand, dead)


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", ["brag", "one-eyed jacks"])
def test_two_opponents_from_the_whole_pack_match_brute_force(name):
    rules = RULESETS[name]
    hand, _ = _sample(rules, 3, 0, 1, 11)[0]
    e = prial.equity(hand, 2, rules=rules)
    assert e.exact and e.deals == math.comb(49, 3) * math.comb(46, 3) // 2
    assert _counts(e) == _brute_two_opponents(rules, hand, [])


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("width", [3, 4, 5])
def test_equity_batch_is_equity_row_by_row(name, width):
    rules = RULESETS[name]
    ev = prial.Evaluator(rules)
    hands = prial.random_hands(6 if width < 5 else 2, width, seed=width, pack=rules.pack_size)
    got = ev.equity_batch(hands, threads=2)
    assert got.shape == (len(hands), 3) and got.dtype == np.float64
    for row, chances in zip(hands, got):
        e = prial.equity(row.tolist(), rules=rules)
        np.testing.assert_array_equal(chances, [e.win, e.tie, e.lose])


def test_equity_batch_default_rules_and_empty():
    hands = prial.random_hands(3000, 3, seed=5)
    np.testing.assert_array_equal(prial.equity_batch(hands), prial.equity_batch(hands, threads=1))
    assert prial.equity_batch(hands[:0]).shape == (0, 3)


@pytest.mark.parametrize("row, message", [
    ([7, 7, 2], "row 1: duplicate card"),
    ([7, 2, 52], "row 1: card 3"),
])
def test_equity_batch_names_the_bad_row(row, message):
    hands = np.array([[7, 2, 50], row, [1, 2, 3]], dtype=np.uint8)
    with pytest.raises(prial.InvalidHandError, match=message):
        prial.equity_batch(hands)


def test_equity_batch_rejects_other_shapes():
    with pytest.raises(prial.InvalidHandError, match="3, 4 or 5"):
        prial.equity_batch(np.zeros((2, 6), dtype=np.uint8))
