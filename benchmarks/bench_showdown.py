"""Showdown and equity throughput (pytest-benchmark).

Run: ``python -m pytest benchmarks/bench_showdown.py`` — sees in bulk for
three, four and five cards next to the unfused way (both hands valued by the
batch call, compared in numpy) over the same arrays, and exact equity:
heads-up one hand a call and many in a batch, and three cards against two
opponents.  ``prial bench`` prints the same figures as a table, next to a
numpy enumeration of the same deals.  Targets: showdown_batch >= 50M sees/s
on one thread for three cards; three-card heads-up exact equity >= 20x the
numpy enumeration in a batch and >= 5x one a call; two opponents <= 16 ms.
"""

from __future__ import annotations

import numpy as np
import pytest

import prial
from prial import random_hands

ROWS = {3: 10_000_000, 4: 2_000_000, 5: 2_000_000}


@pytest.fixture(scope="module", params=[3, 4, 5])
def sees(request) -> tuple[int, np.ndarray, np.ndarray]:
    width = request.param
    deal = random_hands(ROWS[width], 2 * width, seed=2026 + width)
    return width, np.ascontiguousarray(deal[:, :width]), np.ascontiguousarray(deal[:, width:])


def test_unfused_baseline(benchmark, sees):
    width, seer, seen = sees
    value = prial.evaluate_batch if width == 3 else prial.best_of_batch
    benchmark.extra_info.update(sees=len(seer), width=width)
    benchmark(lambda: value(seer, threads=1) > value(seen, threads=1))


def test_showdown_batch_one_thread(benchmark, sees):
    width, seer, seen = sees
    benchmark.extra_info.update(sees=len(seer), width=width)
    benchmark(prial.showdown_batch, seer, seen, threads=1)


def test_showdown_batch_all_threads(benchmark, sees):
    width, seer, seen = sees
    benchmark.extra_info.update(sees=len(seer), width=width)
    benchmark(prial.showdown_batch, seer, seen)


@pytest.mark.parametrize("hand", ["7s 7h Qc", "As Kd Qh Jc", "As Kd Qh Jc 9s"])
def test_equity_heads_up_exact(benchmark, hand):
    prial.equity(hand)  # key tables built outside the timing
    result = benchmark(prial.equity, hand)
    assert result.exact


@pytest.mark.parametrize("width", [3, 4, 5])
def test_equity_batch_heads_up_exact(benchmark, width):
    hands = random_hands({3: 20_000, 4: 2_000, 5: 20}[width], width, seed=width)
    prial.equity_batch(hands[:1])  # tables built outside the timing
    benchmark.extra_info.update(hands=len(hands), width=width)
    result = benchmark(prial.equity_batch, hands, threads=1)
    assert result.shape == (len(hands), 3)


def test_equity_two_opponents_exact(benchmark):
    result = benchmark(prial.equity, "7s 7h Qc", 2)
    assert result.exact
