"""The exact laws a fair deal gives the audit's counts, and the statistics
built on them, each against a plain count or a closed form."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import prial
from prial.audit import findings
from prial.audit.laws import _card_moments, colex_hands, deal_law, disjoint_pair_counts
from prial.audit.stats import chi2_sf, holm, quadratic_form_test, wilson


@pytest.mark.parametrize("n, width", [(9, 3), (10, 4), (11, 5), (52, 3)])
def test_colex_hands_are_every_hand_in_slot_order(n, width):
    hands = colex_hands(n, width)
    assert len(hands) == math.comb(n, width)
    expected = sorted(itertools.combinations(range(n), width), key=lambda h: h[::-1])  # colex: by top card first
    assert [tuple(h) for h in hands.tolist()] == expected


@pytest.mark.parametrize("n, width", [(10, 3), (11, 4), (12, 5)])
def test_disjoint_pairs_by_category_match_a_plain_count(n, width):
    rng = np.random.default_rng(n)
    hands = colex_hands(n, width)
    categories = rng.integers(0, len(prial.Category), len(hands))
    sets = [frozenset(h) for h in hands.tolist()]
    plain = np.zeros((len(prial.Category),) * 2, np.int64)
    for (a, ha), (b, hb) in itertools.product(zip(categories.tolist(), sets), repeat=2):
        if not ha & hb:
            plain[a, b] += 1
    assert (disjoint_pair_counts(categories, n, width) == plain).all()


@pytest.mark.parametrize("width", [3, 4, 5])
def test_category_law_of_a_deal(width):
    law = deal_law(prial.Rules(), width)
    odds = prial.odds(cards=width)
    assert np.allclose([law.category_mean[row.category] for row in odds.rows], [row.probability for row in odds.rows])
    # Two seats' covariance: each seat's categories sum to one, so its rows sum to 0.
    assert np.allclose(law.category_cross.sum(axis=1), 0) and np.allclose(law.category_cross, law.category_cross.T)


def test_three_card_law_of_two_seats_by_evaluating_the_hands():
    law = deal_law(prial.Rules(), 3)
    hands = colex_hands(52, 3)
    category = prial.Evaluator().categories[prial.evaluate_batch(hands)].astype(int)
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), hands.astype(np.uint64)), axis=1)
    # Every hand of the rarer categories against every hand it can be dealt
    # beside (the law is symmetric, so these rows fix it all but two).
    rare = [int(c) for c in (prial.Category.PRIAL, prial.Category.RUNNING_FLUSH, prial.Category.RUN,
                             prial.Category.FLUSH)]
    joint = np.zeros((6, 6))
    for i in np.flatnonzero(np.isin(category, rare)).tolist():
        joint[category[i]] += np.bincount(category[(masks & masks[i]) == 0], minlength=6)
    joint /= len(hands) * math.comb(49, 3)
    p = law.category_mean
    assert np.allclose(joint[rare], (law.category_cross + np.outer(p, p))[rare], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("n, width", [(7, 2), (8, 3)])
def test_card_moments_match_every_deal_of_two_hands(n, width):
    mean, cov, cross = _card_moments(n, width)
    pairs = [(a, b) for a in itertools.combinations(range(n), width) for b in itertools.combinations(range(n), width)
             if not set(a) & set(b)]
    first = np.zeros((len(pairs), n))
    second = np.zeros((len(pairs), n))
    for row, (a, b) in enumerate(pairs):
        first[row, list(a)] = 1
        second[row, list(b)] = 1
    centred, other = first - first.mean(axis=0), second - second.mean(axis=0)
    assert np.allclose(first.mean(axis=0), mean)
    assert np.allclose(centred.T @ centred / len(pairs), cov)
    assert np.allclose(centred.T @ other / len(pairs), cross)


def test_chi_square_tail_against_closed_forms():
    for x in (0.01, 0.7, 2.0, 5.5, 13.0, 40.0, 250.0):
        assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
        assert chi2_sf(x, 6) == pytest.approx(math.exp(-x / 2) * (1 + x / 2 + x * x / 8), rel=1e-10)
    assert chi2_sf(0.0, 3) == 1.0
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_quadratic_form_of_one_multinomial_is_pearsons_statistic():
    p = np.array([0.5, 0.3, 0.15, 0.05])
    observed = np.array([480.0, 320.0, 140.0, 60.0])
    n = observed.sum()
    statistic, df = quadratic_form_test(observed, n * p, n * (np.diag(p) - np.outer(p, p)))
    assert df == 3 and statistic == pytest.approx(((observed - n * p) ** 2 / (n * p)).sum())


def test_card_statistic_is_the_general_quadratic_form():
    law = deal_law(prial.Rules(), 3)
    rng = np.random.default_rng(5)
    seats = 5
    n_s = rng.integers(300, 400, seats)
    together = np.minimum.outer(n_s, n_s) - rng.integers(0, 100, (seats, seats))
    n_st = (together + together.T) // 2
    np.fill_diagonal(n_st, n_s)
    deviation = rng.normal(size=(seats, 52)) * 5
    deviation -= deviation.mean(axis=1, keepdims=True)  # each seat holds three cards a deal
    general = quadratic_form_test(deviation.ravel(), np.zeros(seats * 52),
                                  findings._covariance(n_s.astype(float), n_st.astype(float), law.card_cov,
                                                       law.card_cross))
    fast = findings._card_statistic(deviation, np.zeros_like(deviation), n_s, n_st, law)
    assert fast[1] == general[1] == seats * 51 and fast[0] == pytest.approx(general[0], rel=1e-9)


def test_holm_against_its_definition():
    rng = np.random.default_rng(7)
    for _ in range(50):
        p = rng.random(rng.integers(1, 9)) ** 3
        m = len(p)
        order = np.argsort(p)
        expected = np.empty(m)
        for rank, index in enumerate(order):
            expected[index] = min(1.0, max((m - j) * p[order[j]] for j in range(rank + 1)))
        assert np.allclose(holm(p.tolist()), expected)


def test_wilson_interval():
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
