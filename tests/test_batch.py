"""Batches equal scalar calls, whatever the rules and the thread count."""

from __future__ import annotations

import numpy as np
import pytest

import prial
from prial import Rules, random_hands

RULESETS = [Rules(), Rules(preset="teen_patti"), Rules(preset="three_card_poker"), Rules(lowball=True),
            Rules(wild="ak47", jokers=2)]


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_batch_equals_scalar(rules):
    ev = prial.Evaluator(rules)
    hands = random_hands(5000, 3, seed=7, pack=ev.pack_size)
    batch = ev.evaluate_batch(hands)
    assert batch.dtype == np.uint16 and batch.shape == (5000,)
    assert batch.tolist() == [ev.evaluate(h).strength for h in hands.tolist()]
    assert batch.tolist() == [ev.evaluate(prial.format_cards(h)).strength for h in hands.tolist()]


def test_threads_agree():
    hands = random_hands(400_000, 3, seed=11)
    one = prial.evaluate_batch(hands, threads=1)
    for threads in (2, 3, 8):
        assert np.array_equal(one, prial.evaluate_batch(hands, threads=threads))
    assert np.array_equal(one, prial.evaluate_batch(hands))


def test_bad_row_found_in_any_thread_range():
    hands = random_hands(400_000, 3, seed=12)
    for bad_row in (0, 199_999, 200_000, 399_999):
        broken = hands.copy()
        broken[bad_row, 2] = broken[bad_row, 0]
        for threads in (1, 2, 4):
            with pytest.raises(prial.InvalidHandError) as info:
                prial.evaluate_batch(broken, threads=threads)
            assert info.value.row == bad_row


def test_card_order_within_a_hand_does_not_matter():
    hands = random_hands(2000, 3, seed=3)
    base = prial.evaluate_batch(hands)
    for perm in ([1, 0, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1], [0, 2, 1]):
        assert np.array_equal(base, prial.evaluate_batch(np.ascontiguousarray(hands[:, perm])))


def test_module_functions_use_brag():
    assert prial.evaluate("3c 3d 3h").strength == 741
    assert prial.Evaluator().rules == Rules()
