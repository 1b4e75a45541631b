"""Partitioning (docs/rules.md) against brute-force enumeration of every split."""

from __future__ import annotations

import itertools
import json
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prial
from prial import random_hands
from prial.cli import main


@lru_cache(maxsize=None)
def every_split(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every choice of k disjoint triples of n positions (the rest discarded):
    (splits as triple ids (count, k), the triples as positions (C(n,3), 3))."""
    triples = list(itertools.combinations(range(n), 3))
    triple_id = {t: i for i, t in enumerate(triples)}
    out: list[tuple[int, ...]] = []

    def extend(free: list[int], chosen: tuple[int, ...], drops: int) -> None:
        if len(chosen) == k:
            out.append(chosen)
            return
        first, rest = free[0], free[1:]
        if drops:  # the smallest free position is a discard ...
            extend(rest, chosen, drops - 1)
        for a, b in itertools.combinations(rest, 2):  # ... or in a hand
            extend([x for x in rest if x not in (a, b)], chosen + (triple_id[(first, a, b)],), drops)

    extend(list(range(n)), (), n - 3 * k)
    return np.array(out, dtype=np.int16), np.array(triples, dtype=np.intp)


def split_tuples(ev: prial.Evaluator, deal: np.ndarray, k: int, threshold: int = 1) -> np.ndarray:
    """The sorted strength tuple (strongest first) of every split of a deal;
    hands below `threshold` do not count (0), as under a minimum category."""
    splits, triples = every_split(len(deal), k)
    strengths = ev.evaluate_batch(np.ascontiguousarray(deal[triples])).astype(np.int64)
    strengths[strengths < threshold] = 0
    return -np.sort(-strengths[splits], axis=1)


def pack_tuples(tuples: np.ndarray) -> np.ndarray:
    """One int64 a tuple, ordered as the tuples lexicographically (strengths < 4096)."""
    packed = np.zeros(len(tuples), dtype=np.int64)
    for col in range(tuples.shape[1]):
        packed = packed << 12 | tuples[:, col]
    return packed


def lexicographic_max(tuples: np.ndarray) -> list[int]:
    return tuples[int(np.argmax(pack_tuples(tuples)))].tolist()


def pareto_frontier(tuples: np.ndarray) -> np.ndarray:
    k = tuples.shape[1]
    packed = np.unique(pack_tuples(tuples))[::-1]  # lexicographically descending
    unique = np.stack([(packed >> (12 * (k - 1 - col))) & 0xFFF for col in range(k)], axis=1)
    frontier = unique[:0]
    for start in range(0, len(unique), 1024):
        block = unique[start:start + 1024]
        # nothing later can dominate an earlier tuple: test against the
        # frontier so far (vectorised), then the few survivors one by one
        block = block[~(frontier[None, :, :] >= block[:, None, :]).all(axis=2).any(axis=1)]
        for t in block:
            if not (frontier >= t).all(axis=1).any():
                frontier = np.vstack([frontier, t])
    return frontier


@pytest.mark.exhaustive
@pytest.mark.parametrize("n,k,count", [(13, 4, 200_200), (9, 3, 280), (7, 2, 70), (12, 4, 15_400), (10, 3, 2_800),
                                       pytest.param(15, 5, 1_401_400, marks=pytest.mark.slow)])
def test_split_counts(n, k, count):
    assert len(every_split(n, k)[0]) == count


@pytest.mark.parametrize("n,k,deals", [(13, 4, 30), (9, 3, 200), (7, 2, 200), (10, 3, 100),
                                       pytest.param(15, 5, 4, marks=pytest.mark.slow)])
def test_lexicographic_matches_brute_force(brag, n, k, deals):
    for deal in random_hands(deals, n, seed=n * 10 + k):
        split = brag.partition(deal.tolist(), hands=k)
        assert split.strengths == lexicographic_max(split_tuples(brag, deal, k))
        assert [brag.evaluate(h).strength for h in split.hands] == split.strengths


@pytest.mark.parametrize("rules", [prial.Rules(jokers=2), prial.Rules(wild="deuces"),
                                   prial.Rules(preset="three_card_poker", lowball=True)])
def test_lexicographic_other_rulesets(rules):
    ev = prial.Evaluator(rules)
    for deal in random_hands(8, 13, seed=5, pack=ev.pack_size):
        assert ev.partition(deal.tolist()).strengths == lexicographic_max(split_tuples(ev, deal, 4))


def pair_threshold(ev: prial.Evaluator) -> int:
    """The weakest strength of a pair: hands at least this strong are 'at least a pair'."""
    hands = np.array(list(itertools.combinations(range(ev.pack_size), 3)), dtype=np.uint8)
    strengths = ev.evaluate_batch(hands)
    pairs = [s for h, s in zip(hands.tolist(), strengths.tolist()) if ev.evaluate(h).category == prial.Category.PAIR]
    return min(pairs)


def test_min_category_matches_brute_force(brag):
    threshold = pair_threshold(brag)
    fewer = 0
    for deal in random_hands(30, 13, seed=11):
        split = brag.partition(deal.tolist(), min_category="PAIR")
        expected = lexicographic_max(split_tuples(brag, deal, 4, threshold))
        assert split.strengths == [s for s in expected if s]
        assert all(c >= prial.Category.PAIR for c in split.categories)
        fewer += len(split.hands) < 4
        assert split == brag.partition(deal.tolist(), min_category=prial.Category.PAIR)
    assert fewer > 0  # random deals rarely hold four pairs or better


def test_min_category_forms_fewer_hands():
    cards = "As Ah 9d 6c 2s Kh 4d"  # a pair of aces; no run, no flush
    split = prial.partition(cards, hands=2, min_category="PAIR")
    assert split.descriptions == ["Pair of aces, king kicker"]
    assert split.discards == prial.parse_cards("9d 6c 4d 2s")
    assert len(prial.partition(cards, hands=2).hands) == 2
    deal = np.array([prial.parse_cards(cards)], np.uint8)
    hands, strengths = prial.partition_batch(deal, hands=2, min_category="PAIR")
    assert (hands[0, 1:] == 255).all() and (strengths[0, 1:] == 0).all()
    assert strengths[0, 0] == split.strengths[0]


@pytest.mark.parametrize("rules,min_category", [
    (prial.Rules(), None), (prial.Rules(), "PAIR"),
    (prial.Rules(wild="deuces"), None), (prial.Rules(jokers=2), "PAIR"), (prial.Rules(wild="ak47"), None),
])
def test_expected_points_lies_on_the_frontier(rules, min_category):
    ev = prial.Evaluator(rules)
    threshold = 1 if min_category is None else pair_threshold(ev)
    for deal in random_hands(20, 13, seed=21, pack=ev.pack_size):
        split = ev.partition(deal.tolist(), objective="expected_points", min_category=min_category)
        frontier = pareto_frontier(split_tuples(ev, deal, 4, threshold))
        assert split.candidates == len(frontier)
        ours = split.strengths + [0] * (4 - len(split.strengths))
        assert any(list(p) == ours for p in frontier.tolist())
        assert 0 < split.expected_points <= 4 + 1  # four positions and a four-of-a-kind bonus


def quad_deals(count: int, seed: int) -> list[np.ndarray]:
    """Crash deals holding all four cards of a random rank, shuffled."""
    rng = np.random.default_rng(seed)
    deals = []
    for _ in range(count):
        rank = int(rng.integers(13))
        quad = [4 * rank + suit for suit in range(4)]
        rest = rng.choice([c for c in range(52) if c not in quad], 9, replace=False)
        deals.append(rng.permutation(np.array(quad + rest.tolist(), dtype=np.uint8)))
    return deals


def test_four_of_a_kind_frontiers_match_brute_force(brag):
    # The search covers the plain frontier plus, per four of a kind, the
    # frontier of the splits whose hands use all four of its cards.
    splits, triples = every_split(13, 4)
    for deal in quad_deals(8, seed=31):
        tuples = split_tuples(brag, deal, 4)
        used = np.zeros((len(splits), 13), dtype=bool)
        np.put_along_axis(used, triples[splits].reshape(len(splits), -1), True, axis=1)
        frontiers = [pareto_frontier(tuples)]
        for rank in range(13):
            at = [i for i, c in enumerate(deal.tolist()) if c < 52 and c >> 2 == rank]
            if len(at) == 4:
                frontiers.append(pareto_frontier(tuples[used[:, at].all(axis=1)]))
        split = brag.partition(deal.tolist(), objective="expected_points")
        assert split.candidates == sum(len(f) for f in frontiers)
        in_hands = {c for h in split.hands for c in h}
        quad_used = any(all(4 * r + s in in_hands for s in range(4)) for r in range(13))
        # A split using a four lies on that four's frontier; otherwise on the plain one.
        candidates = frontiers[1:] if quad_used else frontiers[:1]
        assert any(split.strengths in f.tolist() for f in candidates)


@pytest.mark.parametrize(("rank", "four_order"), [("3", "prial"), ("4", "fours")])
def test_four_of_a_kind_bonus_changes_the_split(rank, four_order):
    # Without the bonus the fourth card of the four is the discard (a run of
    # 8-7-6 beats 8-7-x at the last position, so the split using all four is
    # dominated and never chosen); the four is the best four under
    # four_order, so the bonus is a sure point and worth more than the
    # weaker last hand.
    quad = " ".join(rank + s for s in "cdhs")
    deal = quad + " Ac Kd Qh Jc Td 9h 8c 7d 6h"
    fours = set(prial.parse_cards(quad))
    lex = prial.partition(deal)
    ep = prial.partition(deal, objective="expected_points", four_order=four_order)
    assert not fours <= {c for h in lex.hands for c in h}
    assert fours <= {c for h in ep.hands for c in h}
    assert all(e <= l for e, l in zip(ep.strengths, lex.strengths)) and ep.strengths != lex.strengths
    assert ep.expected_points > 1  # the bonus point is in the expected points


def test_expected_points_is_deterministic():
    deals = list(random_hands(50, 13, seed=8)) + quad_deals(20, seed=8)
    first = [prial.partition(d.tolist(), objective="expected_points") for d in deals]
    fresh = prial.Evaluator()
    assert first == [fresh.partition(d.tolist(), objective="expected_points") for d in deals]


def test_expected_points_balances_hands():
    # Lexicographic puts the prial first and leaves junk; expected points may
    # trade first-hand strength for later positions, never the other way.
    wins_later = 0
    for deal in random_hands(200, 13, seed=9).tolist():
        lex = prial.partition(deal)
        ep = prial.partition(deal, objective="expected_points")
        assert ep.strengths <= lex.strengths  # lexicographic is the lexicographic maximum
        wins_later += ep.strengths[-1] > lex.strengths[-1]
    assert wins_later > 0


@pytest.mark.parametrize("objective", ["lexicographic", "expected_points"])
@pytest.mark.parametrize("min_category", [None, "PAIR"])
def test_every_card_once(objective, min_category):
    for deal in random_hands(100, 13, seed=4).tolist():
        s = prial.partition(deal, objective=objective, min_category=min_category)
        used = [c for h in s.hands for c in h] + s.discards
        assert sorted(used) == sorted(deal)
        assert s.strengths == sorted(s.strengths, reverse=True)
        assert all(h == sorted(h, reverse=True) for h in s.hands)
        assert len(s.hands) == len(s.strengths) == len(s.categories) == len(s.descriptions)
        assert (s.expected_points is None) == (objective == "lexicographic")


@pytest.mark.parametrize("objective", ["lexicographic", "expected_points"])
def test_batch_matches_scalar(objective):
    deals = random_hands(300, 13, seed=6)
    hands, strengths = prial.partition_batch(deals, objective=objective, threads=2)
    assert hands.shape == (300, 4, 3) and hands.dtype == np.uint8
    assert strengths.shape == (300, 4) and strengths.dtype == np.uint16
    for row, deal in enumerate(deals.tolist()):
        s = prial.partition(deal, objective=objective)
        assert hands[row].tolist() == s.hands and strengths[row].tolist() == s.strengths


@pytest.mark.parametrize("rules,n,k,min_category,opponents,crash_value,rows", [
    (prial.Rules(), 13, 4, None, 3, 0.0, 2000),
    (prial.Rules(), 13, 4, "PAIR", 3, 0.0, 500),
    (prial.Rules(), 13, 4, None, 1, 5.0, 500),
    (prial.Rules(wild="deuces"), 13, 4, None, 2, 0.0, 300),
    (prial.Rules(wild="ak47"), 13, 4, None, 3, 0.0, 200),
    (prial.Rules(), 15, 5, None, 2, 0.0, 200),
    (prial.Rules(jokers=2), 9, 3, "PAIR", 4, 0.0, 500),
    (prial.Rules(preset="teen_patti"), 7, 2, None, 6, 0.0, 500),
])
def test_batch_expected_points_matches_scalar(rules, n, k, min_category, opponents, crash_value, rows):
    # A batch may take its split by another search than partition, which
    # also counts the frontier: every split, unformed hands included, must
    # be the same.
    ev = prial.Evaluator(rules)
    deals = random_hands(rows, n, seed=41, pack=ev.pack_size)
    kwargs = {"hands": k, "objective": "expected_points", "min_category": min_category,
              "opponents": opponents, "crash_value": crash_value}
    hands, strengths = ev.partition_batch(deals, threads=1, **kwargs)
    for row, deal in enumerate(deals.tolist()):
        s = ev.partition(deal, **kwargs)
        unformed = k - len(s.hands)
        assert hands[row].tolist() == s.hands + [[255] * 3] * unformed, (row, deal)
        assert strengths[row].tolist() == s.strengths + [0] * unformed, (row, deal)

def test_other_games():
    nine = prial.partition("As Ad Ah Ks Kd Kh Qs Qd Qh", hands=3)
    assert nine.categories == [prial.Category.PRIAL] * 3 and nine.discards == []
    seven = prial.partition("As Ks Qs 2d 2h 9c 5c", hands=2)
    assert seven.descriptions[0] == "Running flush, A-K-Q" and len(seven.discards) == 1
    assert len(prial.partition(random_hands(1, 15, seed=1)[0].tolist(), hands=5).hands) == 5
    assert len(prial.partition(random_hands(1, 10, seed=1)[0].tolist(), hands=3).discards) == 1


@pytest.mark.parametrize("cards,kwargs,match", [
    ("As Kd Qh Jc", {}, "6 to 15 cards"),
    ("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s Ac Kc Qc", {}, "6 to 15 cards"),
    ("As As Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", {}, "duplicate"),
    ("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", {"hands": 5}, "cannot form 5 hands"),
    ("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", {"hands": 1}, "hands must be"),
    ("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", {"objective": "greedy"}, "objective"),
    ("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", {"objective": "expected_points", "opponents": 4}, "opponents"),
    ("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s X", {}, "joker"),
])
def test_bad_input(cards, kwargs, match):
    with pytest.raises(prial.InvalidHandError, match=match):
        prial.partition(cards, **kwargs)


def test_bad_batch_names_the_row():
    deals = random_hands(20, 13, seed=3)
    deals[12, 5] = deals[12, 0]
    with pytest.raises(prial.InvalidHandError, match="row 12") as info:
        prial.partition_batch(deals)
    assert info.value.row == 12
    with pytest.raises(prial.InvalidHandError):
        prial.partition_batch(np.zeros((2, 5), np.uint8))
    with pytest.raises(prial.InvalidHandError):
        prial.partition_batch(deals.astype(np.int32))


def test_cli_partition(capsys):
    cards = "As Ad Ah Ks Kd 7h 7c 2s 3d 4h 9c Tc Js"
    assert main(["partition", cards, "--objective", "expected_points", "--min-category", "PAIR", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    split = prial.partition(cards, objective="expected_points", min_category="PAIR")
    assert out["hands"] == split.hands and out["expected_points"] == split.expected_points
    assert main(["partition", cards, "--hands", "4"]) == 0
    assert "Prial of aces" in capsys.readouterr().out
    assert main(["partition", cards, "--hands", "5"]) == 2


@given(st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True), st.randoms(use_true_random=False),
       st.sampled_from(["lexicographic", "expected_points"]))
@settings(max_examples=100, deadline=None)
def test_order_of_the_cards_never_matters(cards, rnd, objective):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert prial.partition(cards, objective=objective) == prial.partition(shuffled, objective=objective)


def test_crash_value_adds_the_crash_term():
    deal = "As Ad Ah Ks Kd Kh Qs Qd Qh Js Jd Jh 2c"  # four prials: a crash is likely
    default = prial.partition(deal, objective="expected_points")
    assert prial.partition(deal, objective="expected_points", crash_value=0.0) == default
    valued = prial.partition(deal, objective="expected_points", crash_value=5.0)
    assert valued.expected_points > default.expected_points
    deals = np.array([prial.parse_cards(deal)], dtype=np.uint8)
    hands, strengths = prial.partition_batch(deals, objective="expected_points", crash_value=5.0, threads=1)
    assert list(strengths[0]) == list(valued.strengths)


def test_cli_crash_value(capsys):
    deal = "As Ad Ah Ks Kd Kh Qs Qd Qh Js Jd Jh 2c"
    reports = []
    for value in ("0", "5"):
        assert main(["partition", deal, "--objective", "expected_points", "--crash-value", value, "--json"]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    assert reports[0]["expected_points"] == prial.partition(deal, objective="expected_points").expected_points
    assert reports[1]["expected_points"] == prial.partition(deal, objective="expected_points",
                                                            crash_value=5.0).expected_points


@pytest.mark.parametrize("crash_value", [-1.0, float("nan"), 1e9])
def test_bad_crash_value(crash_value):
    deal = "As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s"
    with pytest.raises(prial.InvalidHandError, match="crash_value"):
        prial.partition(deal, objective="expected_points", crash_value=crash_value)
    with pytest.raises(prial.InvalidHandError, match="crash_value"):
        prial.partition_batch(np.array([prial.parse_cards(deal)], dtype=np.uint8), objective="expected_points",
                              crash_value=crash_value)


def test_unknown_min_category_is_named():
    with pytest.raises(prial.ConfigurationError, match=r"min_category: unknown category 'quads' \(HIGH_CARD, ") as info:
        prial.partition("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", min_category="quads")
    assert info.value.field == "min_category"
    with pytest.raises(prial.ConfigurationError,
                       match=r"min_category must be a prial.Category or its name \(.*\), got 1.5"):
        prial.partition("As Kd Qh Jc Ts 9s 8s 7s 6s 5s 4s 3s 2s", min_category=1.5)
