"""Strategy quality of ``partition(objective="expected_points")`` in Crash.

Seeded four-player thirteen-card deals.  Table A: seat 0 splits with
``expected_points``, seats 1-3 with ``lexicographic``.  Table B, the same
deals: every seat ``lexicographic``.  Scoring (docs/rules.md, "Crash", 1
point a position): position by position a unique best hand scores 1, a tie
for best (stick-up) scores nobody; the player whose hands use all four cards of the
best four of a kind at the table (ranked as standard Brag ranks prials,
threes highest) scores 1 more.  A
crash (every position won) is worth its four points, as in
``prial.crash_showdown``.  Reported: seat 0's points per deal in both
tables with standard errors, and the paired difference (same deals) with
its standard error and z score.

    python benchmarks/crash_simulation.py --deals 20000 [--min-category PAIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

import prial
from prial._core import four_of_a_kind_order

SEATS, HANDS, CARDS = 4, 4, 13


def deal(deals: int, seed: int, pack: int = 52) -> np.ndarray:
    """uint8 (deals, SEATS, CARDS): a shuffled pack dealt out 13 a seat."""
    rng = np.random.default_rng(seed)
    packs = np.argsort(rng.random((deals, pack)), axis=1)[:, : SEATS * CARDS].astype(np.uint8)
    return packs.reshape(deals, SEATS, CARDS)


def points(strengths: np.ndarray) -> np.ndarray:
    """(deals, SEATS, HANDS) strengths (0 = no hand) -> (deals, SEATS) points."""
    best = strengths.max(axis=1, keepdims=True)
    at_best = (strengths == best) & (best > 0)
    unique = at_best.sum(axis=1, keepdims=True) == 1
    return (at_best & unique).sum(axis=2)


# Each rank's standing for the four-of-a-kind bonus (13 = the best), from
# prial's own default order under standard Brag.
FOUR_RANK_SCORE = np.zeros(13, np.int64)
FOUR_RANK_SCORE[list(four_of_a_kind_order(prial.Evaluator(), "prial"))] = np.arange(13, 0, -1)


def four_of_a_kind_bonus(hands: np.ndarray) -> np.ndarray:
    """(deals, SEATS, HANDS, 3) cards (255 = no hand) -> (deals, SEATS) bonus points."""
    cards = hands.reshape(hands.shape[0], SEATS, -1).astype(np.int64)
    ranks = np.where(cards < 52, cards >> 2, -1)
    held = np.stack([(ranks == rank).sum(axis=2) for rank in range(13)], axis=2)  # (deals, SEATS, 13)
    best = np.where(held == 4, FOUR_RANK_SCORE, 0).max(axis=2)
    # A rank's four cards sit with one player, so the best four is unique.
    return ((best == best.max(axis=1, keepdims=True)) & (best > 0)).astype(np.int64)


def mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def simulate(deals: int, seed: int, min_category: str | None, threads: int | None) -> dict:
    ev = prial.Evaluator()
    cards = deal(deals, seed)
    start = time.perf_counter()
    lex_hands, lex = ev.partition_batch(cards.reshape(-1, CARDS), hands=HANDS, min_category=min_category,
                                        threads=threads)
    lex = lex.reshape(deals, SEATS, HANDS).astype(np.int64)
    lex_hands = lex_hands.reshape(deals, SEATS, HANDS, 3)
    ep_hands, ep = ev.partition_batch(np.ascontiguousarray(cards[:, 0]), hands=HANDS, objective="expected_points",
                                      min_category=min_category, opponents=SEATS - 1, threads=threads)
    seconds = time.perf_counter() - start
    table_a, hands_a = lex.copy(), lex_hands.copy()
    table_a[:, 0], hands_a[:, 0] = ep, ep_hands
    a = points(table_a) + four_of_a_kind_bonus(hands_a)
    b = points(lex) + four_of_a_kind_bonus(lex_hands)
    ep_mean, ep_se = mean_se(a[:, 0])
    lex_mean, lex_se = mean_se(b[:, 0])
    diff, diff_se = mean_se(a[:, 0] - b[:, 0])
    opp_mean, opp_se = mean_se(a[:, 1:].mean(axis=1))
    return {
        "deals": deals, "seed": seed, "min_category": min_category, "seconds": seconds,
        "expected_points_seat": {"points_per_deal": ep_mean, "se": ep_se},
        "lexicographic_seat_same_deals": {"points_per_deal": lex_mean, "se": lex_se},
        "lexicographic_opponents_vs_expected_points": {"points_per_deal": opp_mean, "se": opp_se},
        "paired_difference": {"points_per_deal": diff, "se": diff_se, "z": diff / diff_se},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--min-category", default=None, help="e.g. PAIR (the common house rule)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = simulate(args.deals, args.seed, args.min_category, args.threads)
    if args.json:
        print(json.dumps(r, indent=2))
        return
    print(f"{r['deals']:,} seeded Crash deals (seed {r['seed']}, min_category {r['min_category']}), "
          f"{r['seconds']:.1f} s of partitioning")
    for name, key in (("seat 0 expected_points (vs 3 lexicographic)", "expected_points_seat"),
                      ("seat 0 lexicographic (all lexicographic)", "lexicographic_seat_same_deals"),
                      ("each lexicographic opponent of the EP seat", "lexicographic_opponents_vs_expected_points")):
        print(f"  {name:46s} {r[key]['points_per_deal']:.4f} ± {r[key]['se']:.4f} points/deal")
    d = r["paired_difference"]
    print(f"  paired difference (same deals)               {d['points_per_deal']:+.4f} ± {d['se']:.4f} "
          f"(z = {d['z']:.1f})")


if __name__ == "__main__":
    main()
