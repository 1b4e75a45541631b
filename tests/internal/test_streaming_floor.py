"""The streaming floor of ``prial bench``: each level's native loop gives
numpy's row sums, whatever the bytes; a level this CPU lacks is refused."""

from __future__ import annotations

import numpy as np
import pytest

import prial
from prial import _core

from .conftest import LEVELS

# Empty, one row, and sizes that leave a tail after any vector width.
SIZES = [0, 1, 31, 64 * 3 + 37, 4099]


@pytest.mark.parametrize("level", _core.SIMD_LEVELS)
def test_each_level_sums_rows_as_numpy_or_is_refused(level):
    rng = np.random.default_rng(7)
    if level not in LEVELS:
        with pytest.raises(prial.InvalidHandError, match=f"SIMD level '{level}' is not supported by this CPU"):
            _core.streaming_floor(np.zeros((4, 3), dtype=np.uint8), level)
        return
    for rows in SIZES:
        hands = rng.integers(0, 256, size=(rows, 3), dtype=np.uint8)
        out = _core.streaming_floor(hands, level)
        assert out.dtype == np.uint16 and out.shape == (rows,)
        np.testing.assert_array_equal(out, hands.sum(axis=1, dtype=np.uint16))


def test_the_largest_bytes_do_not_wrap():
    hands = np.full((100, 3), 255, dtype=np.uint8)
    for level in LEVELS:
        assert (_core.streaming_floor(hands, level) == 765).all()


def test_the_level_in_use_is_left_alone():
    before = _core.simd_level()
    for level in LEVELS:
        _core.streaming_floor(np.zeros((1, 3), dtype=np.uint8), level)
        assert _core.simd_level() == before


@pytest.mark.parametrize("hands, message", [
    (np.zeros((4, 3), dtype=np.int64), "got dtype int64"),
    (np.zeros((4, 4), dtype=np.uint8), r"got shape \(4, 4\)"),
    (np.zeros((4, 6), dtype=np.uint8)[:, ::2], "non-contiguous"),
])
def test_bad_arrays_are_refused_by_name(hands, message):
    with pytest.raises(prial.InvalidHandError, match=f"hands must be a C-contiguous numpy uint8 array.*{message}"):
        _core.streaming_floor(hands, "scalar")


def test_an_unknown_level_is_refused():
    with pytest.raises(prial.InvalidHandError, match="unknown SIMD level 'sse9'"):
        _core.streaming_floor(np.zeros((1, 3), dtype=np.uint8), "sse9")
