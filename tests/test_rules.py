"""Every ruleset against the reference, over every hand of its pack."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import prial
from prial import Category, Rules

from .reference import reference_strengths

NATURAL_RULESETS = [
    Rules(),
    Rules(preset="teen_patti"),
    Rules(preset="three_card_poker"),
    Rules(ace_two_three="second"),
    Rules(ace_two_three="bottom"),
    Rules(top_prial="ace"),
    Rules(lowball=True),
    Rules(preset="teen_patti", lowball=True),
    Rules(preset="three_card_poker", ace_two_three="top", top_prial="three"),
]

WILD_RULESETS = [
    Rules(wild="deuces"),
    Rules(wild="black_deuces", wild_ties="equal"),
    Rules(wild="one_eyed_jacks"),
    Rules(wild="suicide_king", preset="three_card_poker"),
    Rules(wild="ak47"),
    Rules(wild="ak47", wild_ties="equal"),
    Rules(wild="jokers"),
    Rules(jokers=2),
    Rules(jokers=3, wild_ties="equal"),
    Rules(jokers=3, preset="teen_patti"),
    Rules(wild="deuces", lowball=True),
    Rules(wild="2c 7h", jokers=1),
    Rules(wild="deuces", wild_as_itself="natural"),
    Rules(wild="one_eyed_jacks", wild_as_itself="natural", lowball=True),
    Rules(wild="2c 7h", jokers=1, wild_as_itself="natural", preset="teen_patti"),
    Rules(wild="black_deuces", wild_as_itself="natural", wild_ties="equal"),
    Rules(wild="one_eyed_jacks", suit_order="shdc"),
    Rules(jokers=1, suit_order="cdhs", wild_ties="equal"),
]
SUIT_ORDER_RULESETS = [
    Rules(suit_order="shdc"),
    Rules(suit_order="dcsh", preset="three_card_poker"),
    Rules(suit_order="hsdc", lowball=True),
]


def pack_hands(rules: Rules) -> np.ndarray:
    return np.array(list(itertools.combinations(range(rules.pack_size), 3)), dtype=np.uint8)


# The natural rulesets in the README's command, the wild cards and suit
# orders in the slow tier.
@pytest.mark.exhaustive
@pytest.mark.parametrize("rules", NATURAL_RULESETS + [pytest.param(r, marks=pytest.mark.slow)
                                                      for r in WILD_RULESETS + SUIT_ORDER_RULESETS], ids=repr)
def test_every_hand_matches_reference(rules):
    ev = prial.Evaluator(rules)
    hands = pack_hands(rules)
    expected, names = reference_strengths(rules)
    got = ev.evaluate_batch(hands)
    assert got.tolist() == expected
    assert ev.classes == max(expected)
    sample = range(0, len(hands), 97)
    assert [ev.evaluate(hands[i].tolist()).category.name for i in sample] == [names[i] for i in sample]


def test_a_wild_card_standing_for_itself():
    # With the black deuces wild, A-2-3 of spades is the top running flush
    # with the deuce as itself: a wild hand by default, natural when asked,
    # and then equal to the natural A-2-3 of hearts.
    for as_itself, ties in (("wild", False), ("natural", True)):
        rules = Rules(wild="black_deuces", wild_as_itself=as_itself)
        ev = prial.Evaluator(rules)
        spades, hearts = ev.evaluate("As 2s 3s"), ev.evaluate("Ah 2h 3h")
        assert (spades.strength == hearts.strength) is ties
        assert ("wild" in spades.description) is not ties
    # A deuce standing for another card stays wild either way.
    ev = prial.Evaluator(Rules(wild="black_deuces", wild_as_itself="natural"))
    assert ev.evaluate("Ks 2s Qs").strength < ev.evaluate("Kh Ah Qh").strength
    # A joker has no card of its own.
    ev = prial.Evaluator(Rules(jokers=1, wild_as_itself="natural"))
    assert ev.evaluate("As X 3s").strength < ev.evaluate("Ah 2h 3h").strength


def test_suit_order_breaks_only_exact_ties():
    ranked = prial.Evaluator(Rules(suit_order="shdc"))
    plain = prial.Evaluator(Rules())
    # The kings decide: K of spades above K of hearts.
    assert ranked.evaluate("Ks Qd 9c").strength > ranked.evaluate("Kh Qs 9d").strength
    # A pair: the paired cards, higher suit first, then the odd card.
    assert ranked.evaluate("7s 7c 4d").strength > ranked.evaluate("7h 7d 4s").strength
    assert ranked.evaluate("7s 7d 4c").strength > ranked.evaluate("7s 7c 4d").strength
    assert ranked.evaluate("7h 7d 4s").strength > ranked.evaluate("7h 7d 4c").strength  # then the odd card
    # Never against the ranking itself: a stronger hand stays stronger.
    for a, b in (("Ks Qd 9c", "Kh Qs Tc"), ("2c 2d 3c", "Ac Kd 9h"), ("3c 2d Ah", "As Ks Qd")):
        assert (ranked.evaluate(a).strength < ranked.evaluate(b).strength) == (
            plain.evaluate(a).strength < plain.evaluate(b).strength)
    # Every hand of the pack is its own class: no exact tie is left.
    assert ranked.classes == 22100 and Rules(suit_order="SHDC").suit_order == "shdc"


@pytest.mark.parametrize("order", ["shd", "shdd", "shdx", 4, ""])
def test_bad_suit_order(order):
    with pytest.raises(prial.ConfigurationError, match="suit_order must be the four suits c, d, h, s"):
        Rules(suit_order=order)


def test_slot_counts():
    assert prial.Evaluator(Rules()).slots == 22100
    assert prial.Evaluator(Rules(jokers=3)).slots == 26235


def strength(rules: Rules, text: str) -> int:
    return prial.Evaluator(rules).evaluate(text).strength


def test_teen_patti_order():
    tp = Rules(preset="teen_patti")
    assert strength(tp, "Ac Ad Ah") > strength(tp, "3c 3d 3h")
    assert strength(tp, "Ah Kd Qc") > strength(tp, "Ah 2d 3c") > strength(tp, "Kh Qd Jc")


def test_three_card_poker_order():
    tcp = Rules(preset="three_card_poker")
    assert strength(tcp, "4h 3h 2h") > strength(tcp, "Ac Ad Ah")
    assert strength(tcp, "Ah Kh Qh") > strength(tcp, "As 2s 3s")
    assert strength(tcp, "4h 3d 2h") > strength(tcp, "Ah 2d 3c")  # A-2-3 is the lowest run
    assert strength(tcp, "Ah 2d 3c") > strength(tcp, "Ah Kh 9h")


def test_lowball_reverses_everything():
    low = Rules(lowball=True)
    assert strength(low, "5c 3d 2h") == prial.Evaluator(low).classes
    assert strength(low, "3c 3d 3h") == 1
    assert strength(low, "Ah Kd Jc") > strength(low, "2c 2d 4h")


def test_rules_are_immutable_and_hashable():
    a, b = Rules(preset="teen_patti"), Rules(preset="teen_patti")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.lowball = True  # type: ignore[misc]
    assert a.ace_two_three == "second" and a.top_prial == "ace"


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"preset": "poker"}, "preset"),
        ({"ace_two_three": "middle"}, "ace_two_three"),
        ({"top_prial": "king"}, "top_prial"),
        ({"wild_ties": "random"}, "wild_ties"),
        ({"jokers": 4}, "jokers"),
        ({"jokers": -1}, "jokers"),
        ({"wild": "threes"}, "wild"),
        ({"wild": [60]}, "wild item 0"),
        ({"wild": "jokers", "jokers": 0}, "joker"),
        ({"wild": [53], "jokers": 1}, "joker index 53"),
        ({"lowball": "yes"}, "lowball"),
    ],
)
def test_bad_rules(kwargs, needle):
    with pytest.raises(prial.ConfigurationError, match=needle):
        Rules(**kwargs)


def test_categories_keep_their_names_across_rulesets():
    tcp = prial.Evaluator(Rules(preset="three_card_poker"))
    assert tcp.evaluate("4h 3h 2h").category is Category.RUNNING_FLUSH
    assert tcp.evaluate("4h 4s 4d").category is Category.PRIAL
