"""best_of_batch on every batch-kernel level this CPU has: the same keys
as the reference, jokers included, and the same bad rows."""

from __future__ import annotations

import numpy as np
import pytest

import prial
from prial import random_hands

from ..bestof_reference import reference_keys


def test_every_kernel_level_agrees(simd_level, brag, four_card_hands, five_card_hands):
    # Exhaustive four-card hands, a sample of five, and tails that are not a
    # whole vector.
    assert np.array_equal(brag.best_of_batch(four_card_hands), reference_keys(brag, four_card_hands))
    five = np.ascontiguousarray(five_card_hands[::7])
    assert np.array_equal(brag.best_of_batch(five), reference_keys(brag, five))
    for hands in (four_card_hands[:1003], five_card_hands[-1003:]):
        odd = np.ascontiguousarray(hands)
        assert np.array_equal(brag.best_of_batch(odd, threads=1), reference_keys(brag, odd))


# Rulesets without wild cards read the by-rank tables (ranks and suit
# pattern); between them these move flushes below or above pairs, reverse
# the order, move A-2-3 and the top prial, and make runs and flushes
# nothing (classic).
NATURAL_RULESETS = [
    prial.Rules(lowball=True),
    prial.Rules(preset="three_card_poker"),
    prial.Rules(ace_two_three="bottom", top_prial="ace"),
    prial.Rules(preset="classic", wild="none"),  # runs and flushes are high cards
]
_REFERENCE: dict[tuple[str, int], np.ndarray] = {}


@pytest.mark.parametrize("rules", NATURAL_RULESETS, ids=repr)
@pytest.mark.parametrize("width", [4, 5])
def test_every_hand_of_natural_rulesets(simd_level, rules, width, four_card_hands, five_card_hands):
    # Every four- and five-card hand, so every by-rank slot a hand can
    # reach is read at least once.
    ev = prial.Evaluator(rules)
    hands = four_card_hands if width == 4 else five_card_hands
    key = (repr(rules), width)
    if key not in _REFERENCE:
        _REFERENCE[key] = reference_keys(ev, hands)
    assert np.array_equal(ev.best_of_batch(hands), _REFERENCE[key])


def test_every_kernel_level_with_jokers(simd_level):
    ev = prial.Evaluator(prial.Rules(jokers=3, wild="deuces"))
    for width in (4, 5):
        hands = random_hands(20_003, width, seed=width, pack=ev.pack_size)
        assert np.array_equal(ev.best_of_batch(hands), reference_keys(ev, hands))


@pytest.mark.parametrize("width", [4, 5])
@pytest.mark.parametrize("row", [0, 7, 8, 255, 1000])
@pytest.mark.parametrize("bad", ["duplicate", "255", "joker"])
def test_every_kernel_level_rejects_bad_rows(simd_level, width, row, bad):
    hands = random_hands(1003, width, seed=row)
    if bad == "duplicate":
        hands[row, width - 1] = hands[row, 0]
    else:
        hands[row, row % width] = 255 if bad == "255" else 52
    with pytest.raises(prial.InvalidHandError, match=f"row {row}:") as info:
        prial.best_of_batch(hands, threads=1)
    assert info.value.row == row
