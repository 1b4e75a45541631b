"""showdown_batch on every batch-kernel level this CPU has: the outcome of
each see against a reference computed without the batch kernels' see code,
and every kind of bad row named by its row and side."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import prial
from prial import Rules, random_hands

from ..bestof_reference import all_hands, reference_keys

RULESETS = [Rules(), Rules(preset="teen_patti"), Rules(jokers=3, wild="deuces"), Rules(preset="classic")]


def strength_by_cards(ev: prial.Evaluator) -> np.ndarray:
    """Strength of every three-card hand, through evaluate() (no batch
    kernel), indexed by its sorted cards as c0 << 12 | c1 << 6 | c2."""
    table = np.zeros(1 << 18, dtype=np.uint16)
    for hand in itertools.combinations(range(ev.pack_size), 3):
        table[hand[0] << 12 | hand[1] << 6 | hand[2]] = ev.evaluate(list(hand)).strength
    return table


def strengths(table: np.ndarray, hands: np.ndarray) -> np.ndarray:
    s = np.sort(hands.astype(np.int64), axis=1)
    return table[s[:, 0] << 12 | s[:, 1] << 6 | s[:, 2]]


def disjoint_hands(hands: np.ndarray, width: int, pack: int, seed: int) -> np.ndarray:
    """For each row, `width` random cards of the pack that are not in it."""
    keys = np.random.default_rng(seed).random((len(hands), pack))
    np.put_along_axis(keys, hands.astype(np.int64), 2.0, axis=1)  # sorted last: never drawn
    return np.ascontiguousarray(np.argsort(keys, axis=1)[:, :width].astype(np.uint8))


def every_order(hands: np.ndarray) -> np.ndarray:
    orders = list(itertools.permutations(range(hands.shape[1])))
    return np.ascontiguousarray(np.stack([hands[:, list(p)] for p in orders], axis=1).reshape(-1, hands.shape[1]))


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_every_three_card_hand_on_either_side(simd_level, rules):
    ev = prial.Evaluator(rules)
    table = strength_by_cards(ev)
    hands = every_order(all_hands(ev.pack_size, 3))
    others = disjoint_hands(hands, 3, ev.pack_size, seed=3)
    mine, theirs = strengths(table, hands), strengths(table, others)
    assert np.array_equal(prial.showdown_batch(hands, others, rules=rules, threads=1), mine > theirs)
    assert np.array_equal(prial.showdown_batch(others, hands, rules=rules, threads=1), theirs > mine)


def test_equal_strengths_go_to_the_seen_player(simd_level):
    # The same ranks in other suits: equal strengths unless the suits make
    # or break a flush, so many rows are exact ties.
    ev = prial.Evaluator()
    table = strength_by_cards(ev)
    hands = all_hands(52, 3)
    flipped = hands ^ 1
    apart = ~(flipped[:, :, None] == hands[:, None, :]).any(axis=(1, 2))
    hands, flipped = np.ascontiguousarray(hands[apart]), np.ascontiguousarray(flipped[apart])
    mine, theirs = strengths(table, hands), strengths(table, flipped)
    assert (mine == theirs).sum() > len(hands) // 2
    assert np.array_equal(prial.showdown_batch(hands, flipped, threads=1), mine > theirs)
    assert np.array_equal(prial.showdown_batch(flipped, hands, threads=1), theirs > mine)


@pytest.mark.parametrize("width", [4, 5])
def test_four_and_five_cards(simd_level, brag, width):
    # Every four-card hand, a sample of the five-card ones, each against a
    # random hand of the cards left; lengths that are not a whole vector.
    hands = all_hands(52, width)
    if width == 5:
        hands = np.ascontiguousarray(hands[::11])
    others = disjoint_hands(hands, width, 52, seed=width)
    mine, theirs = reference_keys(brag, hands), reference_keys(brag, others)
    assert np.array_equal(prial.showdown_batch(hands, others, threads=1), mine > theirs)
    assert np.array_equal(prial.showdown_batch(others, hands, threads=1), theirs > mine)
    for n in (1, 7, 8, 9, 31, 33, 1003):
        assert np.array_equal(prial.showdown_batch(hands[:n], others[:n], threads=1), mine[:n] > theirs[:n])


def test_four_and_five_cards_with_jokers(simd_level):
    ev = prial.Evaluator(Rules(jokers=3, wild="deuces"))
    for width in (4, 5):
        deal = random_hands(20_003, 2 * width, seed=width, pack=ev.pack_size)
        seer, seen = np.ascontiguousarray(deal[:, :width]), np.ascontiguousarray(deal[:, width:])
        expected = reference_keys(ev, seer) > reference_keys(ev, seen)
        assert np.array_equal(prial.showdown_batch(seer, seen, rules=ev.rules, threads=1), expected)


Case = tuple[str, str, int, int]


def bad_cases(width: int) -> list[Case]:
    """(kind, side, position, a value or a second position): every kind of
    bad row a see can hold."""
    cases = [("range", side, p, v) for side in ("seer", "seen") for p in range(width) for v in (52, 63, 64, 255)]
    cases += [("duplicate", side, i, j) for side in ("seer", "seen") for i, j in itertools.combinations(range(width), 2)]
    cases += [("shared", "seer", i, j) for i in range(width) for j in range(width)]
    return cases


def make_bad(seer: np.ndarray, seen: np.ndarray, row: int, case: Case) -> str:
    """Spoils `row` as `case` says; returns the message the row must get."""
    kind, side, p, q = case
    hand = seer if side == "seer" else seen
    if kind == "range":
        hand[row, p] = q
        return f"row {row}: {side}: card {p + 1}: .*index {q}"
    if kind == "duplicate":
        hand[row, q] = hand[row, p]
        return f"row {row}: {side}: duplicate card"
    seen[row, q] = seer[row, p]
    return f"row {row}: card .* is in both hands \\(card {p + 1} of the seer's, card {q + 1} of the seen's\\)"


@pytest.mark.parametrize("width", [3, 4, 5])
@pytest.mark.parametrize("row", [0, 31, 32, 255, 1002])
def test_every_kind_of_bad_row_is_named(simd_level, width, row):
    deal = random_hands(1003, 2 * width, seed=row + width)
    for case in bad_cases(width):
        seer, seen = np.ascontiguousarray(deal[:, :width]), np.ascontiguousarray(deal[:, width:])
        message = make_bad(seer, seen, row, case)
        with pytest.raises(prial.InvalidHandError, match=message) as info:
            prial.showdown_batch(seer, seen, threads=1)
        # A card in both hands counts as the seer's.
        side = f"{case[1]}_cards"
        assert (info.value.row, info.value.field) == (row, side), case
