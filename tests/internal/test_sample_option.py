"""The suite's --sample N (tests/conftest.py), which CI's sanitizer and
other-interpreter runs use: a fixed part of the tests, about one in N, and
a clear refusal of a bad N."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import one_in, sampled

TESTS = Path(__file__).resolve().parent.parent
IDS = [f"tests/test_{name}.py::test_{case}[{n}]" for name in ("odds", "rules", "cli") for case in ("a", "b")
       for n in range(200)]


def test_a_sample_is_a_fixed_part_of_about_one_in_n():
    for n in (2, 3, 8):
        kept = [nodeid for nodeid in IDS if sampled(nodeid, n)]
        assert len(IDS) / n * 0.8 < len(kept) < len(IDS) / n * 1.2, n
        # Every file keeps its part: the sample is spread, not a prefix.
        for name in ("odds", "rules", "cli"):
            assert any(f"test_{name}.py" in nodeid for nodeid in kept), (n, name)
    assert all(sampled(nodeid, 1) for nodeid in IDS)
    # A checksum, not hash() (salted per process): the same choice in every
    # process, worker and interpreter, this one included.
    assert [n for n in range(12) if sampled(f"tests/test_odds.py::test_a[{n}]", 3)] == [0, 2, 6, 8, 9]


@pytest.mark.parametrize("bad", ["0", "-2", "half"])
def test_a_bad_n_is_refused_naming_it(bad):
    with pytest.raises(argparse.ArgumentTypeError, match=f"^'{bad}' is not a whole number of at least 1$"):
        one_in(bad)


def test_the_command_line_says_what_is_wrong_in_one_line():
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "--sample", "half", str(TESTS / "test_rules.py")],
                          capture_output=True, text=True, cwd=TESTS.parent, timeout=120)
    assert done.returncode == 4
    assert "error: argument --sample: 'half' is not a whole number of at least 1" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
