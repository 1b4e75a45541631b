"""Casino Brag / Three Card Poker settlement and exact house edges (docs/rules.md)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from fractions import Fraction

import numpy as np
import pytest

import prial
from prial import Category, ConfigurationError, InvalidHandError


def bets(result: prial.CasinoResult) -> dict[str, tuple[str, int]]:
    return {b.bet: (b.outcome, b.net) for b in result.bets}


def test_dealer_not_qualifying_pays_ante_and_returns_play():
    r = prial.settle_casino("9s 9h 4d", "Jc 8d 3h", 10, 10)
    assert not r.dealer_qualifies
    assert bets(r)["ante"] == ("win", 10) and bets(r)["play"] == ("push", 0)
    assert r.net == 10


def test_queen_high_qualifies():
    r = prial.settle_casino("Ks 9h 4d", "Qc 3d 2h", 10, 10)
    assert r.dealer_qualifies and bets(r)["ante"] == ("win", 10) and bets(r)["play"] == ("win", 10)


def test_dealer_better_wins_ante_and_play():
    r = prial.settle_casino("Ks 9h 4d", "2c 2d 5h", 10, 10)
    assert bets(r)["ante"] == ("lose", -10) and bets(r)["play"] == ("lose", -10) and r.net == -20


def test_equal_hands_push():
    r = prial.settle_casino("7s 7h Qc", "7d 7c Qh", 5, 5)
    assert bets(r)["ante"] == ("push", 0) and bets(r)["play"] == ("push", 0) and r.net == 0


def test_fold_loses_the_ante_whatever_the_dealer_holds():
    r = prial.settle_casino("5s 3h 2d", "Jc 8d 3c", 10, pair_bonus=0)
    assert r.folded and bets(r) == {"ante": ("lose", -10)} and r.net == -10


@pytest.mark.parametrize("hand, pays", [
    ("5s 5h 5d", 5), ("Js Ts 9s", 4), ("Js Th 9s", 1), ("Ks 9s 4s", 0), ("Ks Kh 4s", 0),
])
def test_ante_bonus_lines(hand, pays):
    r = prial.settle_casino(hand, "Ac Kd 2c", 10, 10)
    assert bets(r)["ante_bonus"] == ("win" if pays else "none", 10 * pays)


@pytest.mark.parametrize("hand, casino_brag, pair_plus", [
    ("5s 5h 5d", 40, 30), ("Js Ts 9s", 30, 40), ("Js Th 9s", 6, 6), ("Ks 9s 4s", 4, 4),
    ("Ks Kh 4s", 1, 1), ("Ks 9h 4s", -1, -1),
])
def test_pair_bonus_lines(hand, casino_brag, pair_plus):
    for table, pays in ((prial.CASINO_BRAG_PAYTABLE, casino_brag), (prial.PAIR_PLUS_1_4_6_30_40, pair_plus)):
        r = prial.settle_casino(hand, "Ac Kd 2c", 10, None, pair_bonus=3, paytable=table)
        assert bets(r)["pair_bonus"][1] == 3 * pays
        assert r.net == -10 + 3 * pays  # folded: the ante is lost, the pair bonus still settles


def test_three_card_poker_ranking():
    # Under Three Card Poker a running flush beats a prial; A-2-3 is the lowest run.
    r = prial.settle_casino("4h 3h 2h", "Ac Ad As", 1, 1, game="three_card_poker")
    assert bets(r)["ante"] == ("win", 1)
    r = prial.settle_casino("4h 3h 2h", "Ac Ad As", 1, 1, game="brag")
    assert bets(r)["ante"] == ("lose", -1)


def test_a_three_card_poker_table_plays_by_its_ranking():
    # Straight flush 5, three of a kind 4, straight 1; the table's own game
    # unless one is named.
    r = prial.settle_casino("4h 3h 2h", "Ac Ad As", 1, 1, paytable="three_card_poker_1_4_6_30_40")
    assert bets(r)["ante"] == ("win", 1) and bets(r)["ante_bonus"] == ("win", 5)
    r = prial.settle_casino("5s 5h 5d", "Ac Kd 2c", 1, 1, pair_bonus=1, paytable="three_card_poker_1_4_6_30_40")
    assert bets(r)["ante_bonus"] == ("win", 4) and bets(r)["pair_bonus"] == ("win", 30)
    r = prial.settle_casino("4h 3h 2h", "Ac Ad As", 1, 1, paytable="three_card_poker_1_4_6_30_40", game="brag")
    assert bets(r)["ante"] == ("lose", -1)


def test_mini_royal_lines():
    r = prial.settle_casino("Qs As Ks", "2c 2d 5h", 1, 1, pair_bonus=2, paytable=EVERY_OPTION)
    assert bets(r)["ante_bonus"] == ("win", 50) and bets(r)["pair_bonus"] == ("win", 200)
    assert {b.note for b in r.bets} >= {"Mini royal pays 50:1", "Mini royal pays 100:1"}
    # Not suited, or another running flush: the category's line.
    r = prial.settle_casino("Qs Ah Ks", "2c 2d 5h", 1, 1, pair_bonus=2, paytable=EVERY_OPTION)
    assert bets(r)["ante_bonus"] == ("win", 1) and bets(r)["pair_bonus"] == ("win", 12)
    r = prial.settle_casino("Qs Js Ks", "2c 2d 5h", 1, 1, pair_bonus=2, paytable=EVERY_OPTION)
    assert bets(r)["ante_bonus"] == ("win", 5) and bets(r)["pair_bonus"] == ("win", 80)
    # A table without the lines pays a mini royal as a running flush.
    r = prial.settle_casino("Qs As Ks", "2c 2d 5h", 1, 1, pair_bonus=2, paytable="three_card_poker_1_4_6_30_40")
    assert bets(r)["ante_bonus"] == ("win", 5) and bets(r)["pair_bonus"] == ("win", 80)


@pytest.mark.parametrize("on_fold, pair", [("settles", ("win", 2)), ("forfeited", ("lose", -2))])
def test_pair_bonus_when_the_player_folds(on_fold, pair):
    table = dataclasses.replace(prial.PAYTABLES["three_card_poker_1_4_6_30_40"], pair_bonus_on_fold=on_fold)
    r = prial.settle_casino("Qs Qh 4d", "Ac Kd 2c", 10, None, pair_bonus=2, paytable=table)
    assert r.folded and bets(r) == {"ante": ("lose", -10), "pair_bonus": pair}
    # A player who plays is paid either way.
    r = prial.settle_casino("Qs Qh 4d", "Ac Kd 2c", 10, 10, pair_bonus=2, paytable=table)
    assert bets(r)["pair_bonus"] == ("win", 2)


@pytest.mark.parametrize("changes, message", [
    ({"game": "poker"}, "game must be one of brag, three_card_poker; got 'poker'"),
    ({"pair_bonus_on_fold": "kept"}, "pair_bonus_on_fold must be one of settles, forfeited; got 'kept'"),
    ({"ante_mini_royal": -5}, "ante_mini_royal must be an integer >= 0, got -5"),
    ({"pair_mini_royal": 2.5}, "pair_mini_royal must be an integer >= 0, got 2.5"),
    ({"play_multiple": 0}, "play_multiple must be an integer >= 1, got 0"),
])
def test_bad_paytable_options(changes, message):
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        prial.Paytable.make("bad", {}, {}, **changes)
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        dataclasses.replace(prial.CASINO_BRAG_PAYTABLE, **changes)



@pytest.mark.parametrize("field", ["ante_bonus", "pair_bonus"])
def test_a_category_paid_twice_is_refused(field):
    twice = ((Category.PAIR, 1), (Category.RUN, 6), (Category.PAIR, 9))
    message = f"{field} lists PAIR twice (pays 1 and 9); a category has one pay"
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        prial.Paytable("twice", **{"ante_bonus": (), "pair_bonus": (), field: twice})
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        dataclasses.replace(prial.CASINO_BRAG_PAYTABLE, **{field: twice})
    # One category as itself and as its number is still one category.
    with pytest.raises(ConfigurationError, match=f"{field} lists PAIR twice"):
        prial.Paytable("twice", **{"ante_bonus": (), "pair_bonus": (), field: ((Category.PAIR, 1), (1, 9))})

def test_play_multiple_configurable():
    double = prial.Paytable.make("double", {Category.PRIAL: 5}, {Category.PAIR: 1}, play_multiple=2)
    r = prial.settle_casino("Ks 9h 4d", "Qc 3d 2h", 10, 20, paytable=double)
    assert bets(r)["play"] == ("win", 20)
    with pytest.raises(InvalidHandError, match="play must be ante x 2 = 20"):
        prial.settle_casino("Ks 9h 4d", "Qc 3d 2h", 10, 10, paytable=double)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"ante": -1}, ConfigurationError, "ante must be a whole number of chips from 1 to 18446744073709551615, got -1"),
    ({"ante": 0}, ConfigurationError, "ante must be a whole number of chips from 1 to .*, got 0"),
    ({"ante": 2**64}, ConfigurationError, "ante must be a whole number of chips from 1"),
    ({"ante": 5, "pair_bonus": -2}, InvalidHandError, "pair_bonus must not be negative"),
    ({"ante": 5, "play": 7}, InvalidHandError, "play must be ante x 1 = 5"),
    ({"ante": 5, "game": "poker"}, ConfigurationError, "game must be one of"),
    ({"ante": 5, "paytable": "nope"}, ConfigurationError, "paytable must be"),
    ({"ante": 5, "dealer": "Ks 2c 3c"}, InvalidHandError, "card Ks appears in both"),
    ({"ante": 5, "dealer": "2c 3c"}, InvalidHandError, "dealer has 2 cards"),
])
def test_bad_casino_input(kwargs, error, message):
    args = {"player": "Ks 9h 4d", "dealer": "Qc 3d 2h", **kwargs}
    with pytest.raises(error, match=message):
        prial.settle_casino(**args)


def test_result_to_dict_is_plain():
    data = prial.settle_casino("5s 5h 5d", "Qc 3d 2h", 1, 1, 1).to_dict()
    assert json.loads(json.dumps(data)) == data and data["net"] == 1 + 1 + 5 + 40


# ---- house edge: an independent count over suit classes ----

SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def _edge_by_suit_classes(paytable: prial.Paytable, game: str) -> tuple[Fraction, Fraction]:
    """Each player hand's class under suit permutations, weighted by its
    size; every dealer hand of the other 49 cards compared directly."""
    ev = prial.Evaluator(prial.Rules(preset=game))
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)
    strength = ev.evaluate_batch(hands).astype(np.int64)
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), hands.astype(np.uint64)), axis=1)
    # Qualifying: anything but a high card, or a high card with a queen or better.
    top_rank = hands.max(axis=1) // 4
    category = {tuple(h): ev.evaluate(list(h)).category for h in hands.tolist()}
    qualifies = np.array([category[tuple(h)] != Category.HIGH_CARD for h in hands.tolist()]) | (top_rank >= 10)
    classes: dict[tuple[int, ...], int] = {}
    for h in hands.tolist():
        canon = min(tuple(sorted(4 * (c // 4) + p[c % 4] for c in h)) for p in SUIT_PERMUTATIONS)
        classes[canon] = classes.get(canon, 0) + 1
    ante_total = Fraction(0)
    pair_total = 0
    m = paytable.play_multiple
    for canon, weight in classes.items():
        mask = sum(1 << c for c in canon)
        mine = ev.evaluate(list(canon))
        # A suited A-K-Q, its own line where the table has one.
        royal = sorted(c // 4 for c in canon) == [10, 11, 12] and len({c % 4 for c in canon}) == 1
        ante_pays, pair_pays = (paytable.ante_bonus, paytable.ante_mini_royal), (paytable.pair_bonus,
                                                                                 paytable.pair_mini_royal)
        ante_line, pair_line = (line if royal and line is not None else dict(lines).get(mine.category, 0)
                                for lines, line in (ante_pays, pair_pays))
        free = (masks & np.uint64(mask)) == 0
        s, q = strength[free], qualifies[free]
        play = (np.where(~q, 1, np.where(mine.strength > s, 1 + m, np.where(mine.strength < s, -1 - m, 0))).sum()
                + ante_line * len(s))
        ante_total += weight * Fraction(max(int(play), -len(s)), len(s))
        folds = play < -len(s)
        pair_total += weight * (-1 if folds and paytable.pair_bonus_on_fold == "forfeited"
                                else pair_line if pair_line else -1)
    return -ante_total / len(hands), -Fraction(pair_total, len(hands))


def _folded_hands() -> int:
    """Three Card Poker hands below Q-6-4 (the weakest hand worth playing)."""
    ev = prial.Evaluator(prial.Rules(preset="three_card_poker"))
    threshold = ev.evaluate("Qc 6d 4h").strength
    return sum(ev.evaluate(list(h)).strength < threshold for h in itertools.combinations(range(52), 3))


# A table with every option: mini royal lines on both bonuses, and a pair
# bonus that pays a high card, so that forfeiting it on folding changes its
# edge.
EVERY_OPTION = prial.Paytable.make(
    "every_option", {Category.RUNNING_FLUSH: 5, Category.PRIAL: 4, Category.RUN: 1},
    {Category.HIGH_CARD: 1, Category.PAIR: 1, Category.FLUSH: 4, Category.RUN: 6, Category.PRIAL: 30,
     Category.RUNNING_FLUSH: 40}, game="three_card_poker", ante_mini_royal=50, pair_mini_royal=100,
    pair_bonus_on_fold="forfeited")
TABLES = {**prial.PAYTABLES, EVERY_OPTION.name: EVERY_OPTION}


@pytest.mark.parametrize("game", ["brag", "three_card_poker"])
@pytest.mark.parametrize("name", sorted(TABLES))
def test_house_edge_matches_an_independent_count(name, game):
    edge = prial.house_edge(TABLES[name], game)
    ante, pair = _edge_by_suit_classes(TABLES[name], game)
    assert edge.ante == ante and edge.pair_bonus == pair


def test_forfeiting_the_pair_bonus_on_folding_takes_what_folded_hands_would_win():
    settles = dataclasses.replace(EVERY_OPTION, pair_bonus_on_fold="settles")
    forfeited, settled = prial.house_edge(EVERY_OPTION), prial.house_edge(settles)
    # Every folded hand is a high card below the threshold, paid 1:1 here
    # when it settles and lost when forfeited: 2 units a folded hand.
    assert forfeited.ante == settled.ante
    assert forfeited.pair_bonus - settled.pair_bonus == Fraction(2 * _folded_hands(), 22100)


@pytest.mark.parametrize("name, ante, pair", [
    # Three Card Poker's published edges: the ante with the 1-4-5 ante bonus,
    # and the Pair Plus tables (Wizard of Odds' figures, to two decimals).
    ("three_card_poker_1_4_6_30_40", 3.37, 2.32),
    ("three_card_poker_1_3_6_30_40", 3.37, 7.28),
    ("three_card_poker_1_4_6_25_40", 3.37, 3.49),
])
def test_published_three_card_poker_edges(name, ante, pair):
    edge = prial.house_edge(name)
    assert edge.game == "three_card_poker"
    assert (round(100 * float(edge.ante), 2), round(100 * float(edge.pair_bonus), 2)) == (ante, pair)


def test_known_published_figures():
    # Three Card Poker Pair Plus 1-4-6-30-40: 2.32% (the published figure).
    edge = prial.house_edge(prial.PAIR_PLUS_1_4_6_30_40, "three_card_poker")
    assert round(float(edge.pair_bonus), 4) == 0.0232
    assert edge.play_threshold == "High card, Q-6-4"  # the well-known "play Q-6-4 or better"
