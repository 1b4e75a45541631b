"""The classic preset (classic Brag's bragging) against a deliberately
simple ranker written here: every one of the 22,100 hands, under every
choice of braggers and both readings of the wild ties."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import prial
from prial import Category, ConfigurationError, Rules

JC, JD, NINE_D, ACE_D = 36, 37, 29, 49  # the bragger candidates' card indices

# Each braggers choice: (its wild cards, its lesser wild cards).
BRAGGERS = {
    "bragger": ({JC}, set()),
    "bragger_nine": ({JC, NINE_D}, set()),
    "bragger_jacks": ({JC, JD}, {JD}),
    "bragger_ace_nine": ({JC, NINE_D, ACE_D}, set()),
    "none": (set(), set()),
}


def made(ranks: list[int]) -> tuple:
    """The hand three ranks make in classic Brag: prial, pair or high card
    (runs and flushes are nothing), aces high."""
    r = sorted(ranks, reverse=True)
    if r[0] == r[2]:
        return (2, r[0])
    if r[0] == r[1]:
        return (1, r[0], r[2])
    if r[1] == r[2]:
        return (1, r[1], r[0])
    return (0, *r)


def best_made(naturals: list[int], wilds: int) -> tuple:
    """The best hand of these ranks and ``wilds`` braggers, each taking a
    rank of which the pack has a card not held: at most four of a rank."""
    best = None
    for ranks in itertools.product(range(13), repeat=wilds):
        every = naturals + list(ranks)
        if all(every.count(r) <= 4 for r in every):
            best = max(best, made(every)) if best else made(every)
    return best


def reference_key(hand: tuple[int, int, int], wild: set[int], lesser: set[int], wild_ties: str,
                  as_itself: str = "wild") -> tuple:
    naturals = [c // 4 for c in hand if c not in wild]
    braggers = [c for c in hand if c in wild]
    best = best_made(naturals, len(braggers))
    # (braggers standing for other cards, lesser ones among them): every
    # bragger, or under as_itself="natural" the fewest with which some
    # braggers standing as themselves still make the best hand.
    counts = [(len(braggers), len([c for c in braggers if c in lesser]))]
    if as_itself == "natural":
        for n in range(1, len(braggers) + 1):
            for itself in itertools.combinations(braggers, n):
                others = [c for c in braggers if c not in itself]
                if best_made(naturals + [c // 4 for c in itself], len(others)) == best:
                    counts.append((len(others), len([c for c in others if c in lesser])))
    wilds, lessers = min(counts)
    counted = best[0] == 2 if wild_ties == "natural_prials" else wild_ties == "natural_wins"
    return (best, (-wilds, -lessers) if counted else (0, 0))


def reference_strengths(wild_name: str, wild_ties: str, as_itself: str = "wild") -> tuple[list[int], list[int]]:
    """(the dense strength of every hand in colex order, its category code)."""
    wild, lesser = BRAGGERS[wild_name]
    hands = list(itertools.combinations(range(52), 3))
    keys = [reference_key(h, wild, lesser, wild_ties, as_itself) for h in hands]
    dense = {k: i + 1 for i, k in enumerate(sorted(set(keys)))}
    category = {2: Category.PRIAL, 1: Category.PAIR, 0: Category.HIGH_CARD}
    return [dense[k] for k in keys], [int(category[k[0][0]]) for k in keys]


@pytest.mark.exhaustive
@pytest.mark.parametrize("wild_ties", ["natural_wins", "natural_prials", "equal"])
@pytest.mark.parametrize("wild", list(BRAGGERS))
def test_every_hand_matches_reference(wild, wild_ties):
    ev = prial.Evaluator(Rules(preset="classic", wild=wild, wild_ties=wild_ties))
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)
    strengths, categories = reference_strengths(wild, wild_ties)
    got = ev.evaluate_batch(hands, threads=1)
    assert got.tolist() == strengths
    assert ev.classes == max(strengths)
    assert np.asarray(ev.categories)[got].tolist() == categories
    # the one-hand call agrees with the batch (another code path)
    for i in range(0, len(hands), 997):
        assert ev.evaluate(hands[i].tolist()).strength == strengths[i]


@pytest.mark.exhaustive
@pytest.mark.parametrize("wild_ties", ["natural_wins", "natural_prials"])
@pytest.mark.parametrize("wild", ["bragger_jacks", "bragger_ace_nine"])
def test_braggers_standing_for_themselves_count_as_natural(wild, wild_ties):
    ev = prial.Evaluator(Rules(preset="classic", wild=wild, wild_ties=wild_ties, wild_as_itself="natural"))
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)
    strengths, _ = reference_strengths(wild, wild_ties, "natural")
    assert ev.evaluate_batch(hands, threads=1).tolist() == strengths


def test_default_is_the_jack_of_clubs_with_natural_hands_first():
    rules = Rules(preset="classic")
    assert rules.wild == "bragger" and rules.wild_cards == {JC} and rules.wild_ties == "natural_wins"
    ev = prial.Evaluator(rules)
    assert ev.classes == 546
    assert ev.category_order[:3] == [Category.PRIAL, Category.PAIR, Category.HIGH_CARD]
    # runs and flushes count for nothing: high cards
    assert ev.evaluate("Ah Kh Qh").category is Category.HIGH_CARD
    assert ev.evaluate("3s 2h Ah") < ev.evaluate("Ac 4d 2s")
    assert ev.evaluate("2c 2d 5s") > ev.evaluate("Ah Kh Qh")
    # prials in natural order, aces top; a natural prial above a made one
    assert ev.evaluate("As Ah Ad") > ev.evaluate("Jc Ah Ac") > ev.evaluate("Ks Kh Kd") > ev.evaluate("3s 3h 3d")
    assert str(ev.evaluate("Jc Ah Ac")) == "Prial of aces (1 wild)"
    # a natural pair above the same pair made with the bragger
    assert ev.evaluate("9s 9h 2c") > ev.evaluate("Jc 9d 2c")
    assert str(ev.evaluate("Jc 9d 2c")) == "Pair of nines, two kicker (1 wild)"


def test_hoyles_reading_only_natural_prials_come_first():
    ev = prial.Evaluator(Rules(preset="classic", wild="bragger_nine", wild_ties="natural_prials"))
    assert ev.evaluate("Ks Kh Kc") > ev.evaluate("Jc Kh Kc") > ev.evaluate("Jc 9d Kc")
    # a natural pair does not beat the same pair made with a bragger
    assert ev.evaluate("8s 8h 2c").strength == ev.evaluate("Jc 8d 2c").strength


def test_the_jack_of_diamonds_is_the_lesser_bragger():
    ev = prial.Evaluator(Rules(preset="classic", wild="bragger_jacks"))
    # two threes with the club knave beat two threes with the diamond
    assert ev.evaluate("3s 3h Jc") > ev.evaluate("3c 3d Jd")
    assert ev.evaluate("3s 3h 3d") > ev.evaluate("3s 3h Jc")
    # with both braggers, two wild cards: below either one alone
    assert ev.evaluate("3s Jc Jd") < ev.evaluate("3c 3d Jd")
    # where the wild ties do not count, neither does the lesser bragger
    eq = prial.Evaluator(Rules(preset="classic", wild="bragger_jacks", wild_ties="equal"))
    assert eq.evaluate("3s 3h Jc").strength == eq.evaluate("3c 3d Jd").strength


def test_wild_none_under_other_presets_is_no_wild_cards():
    assert Rules(wild="none") == Rules()
    assert Rules(preset="classic", wild="none").wild_cards == frozenset()
    assert prial.Evaluator(Rules(preset="classic", wild="none")).classes == 13 + 13 * 12 + 286


def test_natural_prials_reads_the_same_way_in_other_presets():
    ev = prial.Evaluator(Rules(wild="deuces", wild_ties="natural_prials"))
    assert ev.evaluate("7s 7h 7c") > ev.evaluate("7s 7h 2c")
    assert ev.evaluate("9s 9h 4c").strength == ev.evaluate("9s 2h 4c").strength


@pytest.mark.parametrize("kwargs, words", [
    ({"preset": "clasic"}, "preset must be one of brag, teen_patti, three_card_poker, classic; got 'clasic'"),
    ({"preset": "classic", "wild": "braggers"}, "wild must be a preset"),
    ({"preset": "classic", "wild_ties": "natural"}, "wild_ties must be one of natural_wins, equal, natural_prials"),
    ({"preset": "classic", "top_prial": "king"}, "top_prial must be one of three, ace"),
])
def test_bad_options_are_refused_in_one_line(kwargs, words):
    with pytest.raises(ConfigurationError) as info:
        Rules(**kwargs)
    assert words in str(info.value) and "\n" not in str(info.value)
