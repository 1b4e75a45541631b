"""Showdown and equity throughput (pytest-benchmark).

Run: ``python -m pytest benchmarks/bench_showdown.py`` — sees in bulk for
three, four and five cards next to the unfused way (both hands valued by the
batch call, compared in numpy) over the same arrays, and heads-up exact
equity per hand.  ``prial bench`` prints the same figures as a table.
Targets: showdown_batch >= 50M sees/s on one thread for three
cards; heads-up exact equity <= 5 ms per three-card hand.
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
