"""pytest-benchmark: best three of four / five (run: pytest benchmarks/bench_bestof.py)."""

from __future__ import annotations

import pytest

import prial
from prial import random_hands

ROWS = 2_000_000


@pytest.fixture(scope="module")
def ev() -> prial.Evaluator:
    e = prial.Evaluator()
    for width in (4, 5):  # build the tables outside the timings
        e.best_of_batch(random_hands(1, width, seed=0))
    return e


@pytest.mark.parametrize("width", [3, 4, 5])
@pytest.mark.parametrize("threads", [1, None], ids=["1-thread", "all-threads"])
def test_best_of_batch(benchmark, ev, width, threads):
    hands = random_hands(ROWS, width, seed=width)
    benchmark.extra_info["hands"] = ROWS
    keys = benchmark(ev.best_of_batch, hands, threads=threads)
    assert len(keys) == ROWS


def test_best_of_scalar(benchmark, ev):
    benchmark(ev.best_of, "As Kd 7h 7c 2s")
