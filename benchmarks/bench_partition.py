"""pytest-benchmark: partitioning 13 cards into 4 hands (run: pytest benchmarks/bench_partition.py)."""

from __future__ import annotations

import pytest

import prial
from prial import random_hands

DEALS = 20_000


@pytest.fixture(scope="module")
def ev() -> prial.Evaluator:
    e = prial.Evaluator()
    e.partition(random_hands(1, 13, seed=0)[0].tolist(), objective="expected_points")  # builds the model
    return e


@pytest.mark.parametrize("objective", ["lexicographic", "expected_points"])
@pytest.mark.parametrize("threads", [1, None], ids=["1-thread", "all-threads"])
def test_partition_batch(benchmark, ev, objective, threads):
    deals = random_hands(DEALS, 13, seed=1)
    benchmark.extra_info["deals"] = DEALS
    hands, _ = benchmark(ev.partition_batch, deals, objective=objective, threads=threads)
    assert hands.shape == (DEALS, 4, 3)


@pytest.mark.parametrize("objective", ["lexicographic", "expected_points"])
def test_partition_scalar(benchmark, ev, objective):
    deal = random_hands(1, 13, seed=2)[0].tolist()
    benchmark(ev.partition, deal, objective=objective)
