"""Three-card throughput (pytest-benchmark).

Run: ``python -m pytest benchmarks/bench_evaluate.py`` — every figure in one
run over the same 10M-hand array, the numpy baseline included, so ratios
compare like with like.  (``prial bench`` prints the same figures as a table.)
"""

from __future__ import annotations

import numpy as np
import pytest

import prial
from prial import _core, random_hands

ROWS = 10_000_000


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return random_hands(ROWS, 3, seed=2026)


def test_numpy_baseline(benchmark, hands):
    benchmark.extra_info["hands"] = ROWS
    benchmark(lambda: hands[:, 0].astype(np.uint16) + hands[:, 1] + hands[:, 2])


def test_evaluate_batch_one_thread(benchmark, hands):
    benchmark.extra_info.update(hands=ROWS, simd_level=_core.simd_level())
    benchmark(prial.evaluate_batch, hands, threads=1)


def test_evaluate_batch_all_threads(benchmark, hands):
    benchmark.extra_info.update(hands=ROWS, simd_level=_core.simd_level())
    benchmark(prial.evaluate_batch, hands)


@pytest.mark.parametrize("level", _core.SIMD_LEVELS)
def test_evaluate_batch_one_thread_per_kernel_level(benchmark, hands, level):
    if _core.SIMD_LEVELS.index(level) > _core.SIMD_LEVELS.index(_core.supported_simd_level()):
        pytest.skip(f"this CPU has no {level}")
    active = _core.simd_level()
    _core.set_simd_level(level)
    try:
        benchmark.extra_info.update(hands=ROWS, simd_level=level)
        benchmark(prial.evaluate_batch, hands, threads=1)
    finally:
        _core.set_simd_level(active)


@pytest.mark.parametrize("form", ["indices", "text"])
def test_scalar_evaluate(benchmark, hands, form):
    small = hands[:100_000].tolist()
    data = small if form == "indices" else [prial.format_cards(h) for h in small]
    evaluate = prial.evaluate

    def run() -> None:
        for hand in data:
            evaluate(hand)

    benchmark.extra_info["calls"] = len(data)
    benchmark(run)
