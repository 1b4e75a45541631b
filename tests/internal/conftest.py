"""Fixtures of the internal tests: each batch-kernel level this CPU has."""

from __future__ import annotations

import pytest

from prial import _core

# The levels this CPU runs, lowest first.
LEVELS = _core.SIMD_LEVELS[: _core.SIMD_LEVELS.index(_core.supported_simd_level()) + 1]


@pytest.fixture(params=_core.SIMD_LEVELS)
def simd_level(request):
    """Each batch-kernel level, restored afterwards; skipped where the CPU lacks it."""
    if request.param not in LEVELS:
        pytest.skip(f"CPU lacks {request.param}")
    before = _core.simd_level()
    _core.set_simd_level(request.param)
    yield request.param
    _core.set_simd_level(before)
