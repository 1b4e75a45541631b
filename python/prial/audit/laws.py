"""What a fair deal looks like: the exact law of the counts a deal adds to
the audit's tallies, for one ruleset and hand size.

A fair deal gives each seat a hand of ``width`` cards from one shuffled
pack of ``N``, the hands disjoint.  Per seat, the audit counts the hand's
category and its cards; the tallies over deals are sums of independent
per-deal vectors, so each test needs the mean and covariance of one deal's
vector, seat blocks included (two seats of one deal are not independent:
they cannot hold the same card):

- categories: a seat's one-hot category has mean ``p`` (every hand counted)
  and covariance ``diag(p) - p p'``; two seats of one deal have the joint
  law ``Q`` of the categories of two disjoint hands, counted exactly below
  by inclusion-exclusion over the cards they would share;
- cards: a seat holds each card with probability ``w/N``; two seats never
  the same card, and two different cards with probability
  ``w^2 / (N (N-1))``.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from .._core import best_of_keys
from ..categories import Category
from ..evaluator import evaluator_for
from ..rules import Rules

CATEGORIES = len(Category)


@dataclass(frozen=True)
class DealLaw:
    """Per-deal moments of one seat's counts and of two seats' counts."""

    width: int
    pack_size: int
    category_mean: np.ndarray  # (K,) probability of each category
    category_cov: np.ndarray  # (K, K) one seat
    category_cross: np.ndarray  # (K, K) covariance of two seats of one deal
    card_mean: np.ndarray  # (N,)
    card_cov: np.ndarray  # (N, N)
    card_cross: np.ndarray  # (N, N)


def colex_hands(n: int, width: int) -> np.ndarray:
    """Every ``width``-card hand of cards ``0..n-1``, rows sorted ascending,
    in colex order (the native tables' slot order)."""
    hands = np.arange(n, dtype=np.uint8)[:, None]
    for size in range(2, width + 1):
        # Hands of ``size`` cards whose top card is ``top``: the smaller
        # hands below it (a prefix, in colex order), then ``top``.
        blocks = []
        for top in range(size - 1, n):
            below = hands[: math.comb(top, size - 1)]
            blocks.append(np.hstack([below, np.full((len(below), 1), top, np.uint8)]))
        hands = np.vstack(blocks)
    return hands


def _colex_rank(cards: np.ndarray) -> np.ndarray:
    """Slot of each sorted row of cards among the subsets of its size."""
    rank = np.zeros(len(cards), np.int64)
    for place in range(cards.shape[1]):
        top = cards[:, place].astype(np.int64)
        rank += np.array([math.comb(int(c), place + 1) for c in range(int(top.max(initial=0)) + 1)],
                         np.int64)[top]
    return rank


def disjoint_pair_counts(categories: np.ndarray, n: int, width: int) -> np.ndarray:
    """(K, K) number of ordered pairs of disjoint hands by category, given
    the category of every hand in colex order.

    Inclusion-exclusion: pairs sharing no card = sum over card sets S of
    (-1)^|S| (hands of a holding S) x (hands of b holding S); T_k below
    counts the hands of each category holding each k-card set.
    """
    hands = colex_hands(n, width)
    pairs = np.zeros((CATEGORIES, CATEGORIES), np.int64)
    for k in range(width + 1):
        if k == 0:
            holding = np.bincount(categories, minlength=CATEGORIES)[None, :]
        else:
            holding = np.zeros(math.comb(n, k) * CATEGORIES, np.int64)
            for positions in itertools.combinations(range(width), k):
                index = _colex_rank(hands[:, positions]) * CATEGORIES + categories
                holding += np.bincount(index, minlength=holding.size)
            holding = holding.reshape(-1, CATEGORIES)
        pairs += (-1) ** k * (holding.T @ holding)
    return pairs


def _card_moments(n: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    q = width / n
    mean = np.full(n, q)
    both = width * (width - 1) / (n * (n - 1))  # two given cards in one hand
    cov = np.full((n, n), both - q * q)
    np.fill_diagonal(cov, q * (1 - q))
    cross = np.full((n, n), width * width / (n * (n - 1)) - q * q)  # one card each in two hands
    np.fill_diagonal(cross, -q * q)  # both seats cannot hold one card
    return mean, cov, cross


@functools.lru_cache(maxsize=16)
def deal_law(rules: Rules, width: int) -> DealLaw:
    """The exact law of one fair deal's counts, per seat and for two seats."""
    ev = evaluator_for(rules)
    n = ev.pack_size
    categories = ev.categories[best_of_keys(ev, width) >> 8].astype(np.int64)
    hands = math.comb(n, width)
    p = np.bincount(categories, minlength=CATEGORIES) / hands
    joint = disjoint_pair_counts(categories, n, width) / (hands * math.comb(n - width, width))
    card_mean, card_cov, card_cross = _card_moments(n, width)
    return DealLaw(
        width=width, pack_size=n,
        category_mean=p, category_cov=np.diag(p) - np.outer(p, p), category_cross=joint - np.outer(p, p),
        card_mean=card_mean, card_cov=card_cov, card_cross=card_cross,
    )
