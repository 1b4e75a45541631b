"""Standard Brag over all 22,100 hands, and the facts docs/rules.md states."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import prial
from prial import Category

from .reference import reference_strengths


def test_category_counts_and_classes(brag, all_three_card_hands):
    counts = collections.Counter(brag.evaluate(h.tolist()).category for h in all_three_card_hands)
    assert counts == {
        Category.PRIAL: 52,
        Category.RUNNING_FLUSH: 48,
        Category.RUN: 720,
        Category.FLUSH: 1096,
        Category.PAIR: 3744,
        Category.HIGH_CARD: 16440,
    }
    strengths = brag.evaluate_batch(all_three_card_hands)
    assert len(np.unique(strengths)) == 741 == brag.classes
    assert strengths.min() == 1 and strengths.max() == 741
    assert brag.evaluate("3c 3d 3h").strength == 741


def test_matches_reference_on_every_hand(brag, all_three_card_hands):
    expected, names = reference_strengths(brag.rules)
    got = brag.evaluate_batch(all_three_card_hands)
    assert got.tolist() == expected
    assert [brag.evaluate(h.tolist()).category.name for h in all_three_card_hands] == names


def s(text: str) -> int:
    return prial.evaluate(text).strength


@pytest.mark.parametrize(
    "stronger, weaker",
    [
        ("4h 3h 2h", "Ah Ks Qd"),  # 4-3-2 flush-run beats A-K-Q run
        ("Kc 9c 2c", "Qd Td 5d"),  # flushes compare every card, not only the top
        ("Qd Td 5d", "Qs Ts 3s"),
        ("Qs Ts 3s", "Qh 9h 8h"),
        ("9s 9d 3c", "8h 8d Kc"),  # pair rank first, then the odd card
        ("8h 8d Kc", "8s 8c Jd"),
        ("Js 6d 3c", "Th 9d 7c"),  # high card: highest, middle, lowest
        ("Th 9d 7c", "Ts 9c 6d"),
        ("3c 3d 3h", "Ac Ad Ah"),  # 3-3-3 tops the prials
        ("Ac Ad Ah", "Kc Kd Kh"),
        ("2c 2d 2h", "As 2s 3s"),  # any prial beats any running flush
        ("As 2s 3s", "As Ks Qs"),  # A-2-3 top by default
        ("Ah Ks Qd", "Kh Qs Jd"),
        ("4d 3h 2c", "Ad Kd 9d"),  # the lowest run beats the best flush
        ("Ad Kd 9d", "As Ac Kd"),
        ("2c 2d 3h", "Ah Kd Jc"),
    ],
)
def test_documented_examples(stronger, weaker):
    assert s(stronger) > s(weaker)


def test_equal_hands_tie():
    assert s("7c 7d Qh") == s("7h 7s Qc")
    assert s("Kc 9c 2c") == s("Kd 9d 2d")


def test_two_a_king_is_no_run():
    v = prial.evaluate("2c As Kd")
    assert v.category is Category.HIGH_CARD


@pytest.mark.parametrize(
    "hand, text",
    [
        ("3s 3h 3d", "Prial of threes"),
        ("3s 2h Ah", "Run, 3-2-A"),
        ("9s 9d 3c", "Pair of nines, three kicker"),
        ("Kh 9h 2h", "Flush, K-9-2"),
        ("Jh 6s 3d", "High card, J-6-3"),
        ("4h 3h 2h", "Running flush, 4-3-2"),
        ("Qh Ah Kh", "Running flush, A-K-Q"),
    ],
)
def test_descriptions(hand, text):
    v = prial.evaluate(hand)
    assert v.description == text == str(v)


def test_hand_value_fields_and_order():
    v = prial.evaluate("3s 2h Ah")
    assert v.cards == [7, 2, 50]
    assert v.category is Category.RUN
    assert isinstance(v.strength, int)
    w = prial.evaluate("Ah Ks Qd")
    assert v > w and w < v and not v < w
    with pytest.raises(TypeError):
        v < 3  # noqa: B015
