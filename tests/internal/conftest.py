"""Fixtures of the internal tests: each batch-kernel level this CPU has."""

from __future__ import annotations

import pytest

from prial import _core
from prial.cli.bench import KERNEL_LEVELS

# The levels this CPU runs, lowest first.
LEVELS = KERNEL_LEVELS[: KERNEL_LEVELS.index(_core.supported_simd_level()) + 1]


@pytest.fixture(params=KERNEL_LEVELS)
def simd_level(request):
    """Each batch-kernel level, restored afterwards; skipped where the CPU lacks it."""
    if request.param not in LEVELS:
        pytest.skip(f"CPU lacks {request.param}")
    before = _core.simd_level()
    _core._set_simd_level(request.param)
    yield request.param
    _core._set_simd_level(before)
