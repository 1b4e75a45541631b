"""Wild cards and jokers: the strongest substitution, and wild_ties."""

from __future__ import annotations

import pytest

import prial
from prial import Category, Rules


def ev(**kwargs) -> prial.Evaluator:
    return prial.Evaluator(Rules(**kwargs))


def test_natural_beats_wild_under_natural_wins():
    deuces = ev(wild="deuces")
    natural = deuces.evaluate("7c 7d 7h")
    one = deuces.evaluate("7c 7d 2h")
    two = deuces.evaluate("7c 2d 2h")
    assert natural.category == one.category == two.category == Category.PRIAL
    assert natural.strength > one.strength > two.strength
    assert str(one) == "Prial of sevens (1 wild)"


def test_equal_wild_ties():
    deuces = ev(wild="deuces", wild_ties="equal")
    assert deuces.evaluate("7c 7d 7h").strength == deuces.evaluate("7c 2d 2h").strength


def test_strongest_substitution_is_found():
    deuces = ev(wild="deuces")
    # A-K suited plus a wild: the running flush A-K-Q, not a pair of aces
    v = deuces.evaluate("Ah Kh 2c")
    assert v.category is Category.RUNNING_FLUSH and v.description.startswith("Running flush, A-K-Q")
    # Three Card Poker puts the running flush above the prial: 7-wild-wild becomes 9-8-7 suited
    tcp = ev(preset="three_card_poker", wild="deuces")
    assert tcp.evaluate("7h 2c 2d").description == "Running flush, 9-8-7 (2 wild)"
    # In Brag, two wilds with a 7 make a prial of sevens, beaten only by better prials
    assert deuces.evaluate("7h 2c 2d").description == "Prial of sevens (2 wild)"
    # three wilds make the best hand of the rules: 3-3-3
    three = ev(jokers=3)
    assert three.evaluate("X1 X2 X3").description == "Prial of threes (3 wild)"


def test_wild_hand_takes_category_of_hand_it_becomes():
    jokers = ev(jokers=1)
    assert jokers.evaluate("9h Th X").category is Category.RUNNING_FLUSH
    assert jokers.evaluate("9h 4c X").category is Category.PAIR
    assert str(jokers.evaluate("9h 4c X")) == "Pair of nines, four kicker (1 wild)"


def test_lowball_wild_takes_lowest_hand():
    low = ev(wild="deuces", lowball=True)
    # the deuce stands as the best lowball card it can: another deuce, not the 4 of a run
    best = low.evaluate("5c 3d 2h")
    assert best.description == "High card, 5-3-2 (1 wild)"
    assert best.strength > low.evaluate("6c 3d 4h").strength
    assert low.evaluate("5c 3d 4h").category.name == "RUN"


@pytest.mark.parametrize("preset", ["deuces", "black_deuces", "one_eyed_jacks", "suicide_king", "ak47", "jokers"])
def test_wild_presets_make_their_cards_wild(preset):
    rules = Rules(wild=preset)
    wild_cards = sorted(rules.wild_cards) + ([52] if rules.jokers else [])
    assert wild_cards
    e = prial.Evaluator(rules)
    for card in wild_cards:
        # a wild card with a natural pair always makes a prial in Brag
        pair = [c for c in (40, 41, 42) if c != card][:2]  # two queens
        value = e.evaluate(pair + [card])
        assert value.category is Category.PRIAL, (preset, card)
        assert "(1 wild)" in value.description


def test_one_eyed_jacks_are_the_right_jacks():
    rules = Rules(wild="one_eyed_jacks")
    assert rules.wild_cards == frozenset(prial.parse_cards("Jh Js"))
    assert Rules(wild="suicide_king").wild_cards == frozenset(prial.parse_cards("Kh"))
    assert Rules(wild="black_deuces").wild_cards == frozenset(prial.parse_cards("2c 2s"))
    assert Rules(wild="ak47").wild_cards == frozenset(
        prial.parse_cards("Ac Ad Ah As Kc Kd Kh Ks 4c 4d 4h 4s 7c 7d 7h 7s")
    )


def test_jokers_need_jokers_in_the_pack():
    with pytest.raises(prial.InvalidHandError, match="joker"):
        prial.evaluate("X 3s 4d")
    with pytest.raises(prial.InvalidHandError, match="joker"):
        ev(jokers=1).evaluate("X1 X2 4d")
    assert ev(jokers=2).evaluate("X1 X2 4d").category is Category.PRIAL
