"""The fuzz harnesses of tests/fuzz/ replayed under plain pytest.

Coverage-guided fuzzing (atheris, tools/fuzz.py) runs in .ci/run; here each
harness gets a few hundred hypothesis-chosen inputs so a harness that rots
(or an entry point that starts raising something other than
InvalidHandError on odd input) fails the ordinary test run too.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prial import _core

FUZZ_DIR = Path(__file__).parent.parent / "fuzz"
ROOT = FUZZ_DIR.parent.parent
HARNESSES = sorted(p.stem for p in FUZZ_DIR.glob("fuzz_*.py"))


def load(name: str):
    if str(FUZZ_DIR) not in sys.path:
        sys.path.insert(0, str(FUZZ_DIR))
    harness = importlib.import_module(name)
    return importlib.import_module("_harness").guarded(harness.one_input)


@pytest.fixture(autouse=True)
def keep_the_batch_kernel():
    """Harnesses switch batch kernels; the rest of the session keeps its own."""
    level = _core.simd_level()
    yield
    _core.set_simd_level(level)


def test_every_harness_is_listed():
    assert {"fuzz_cards", "fuzz_batch", "fuzz_play", "fuzz_columns", "fuzz_grpc"} <= set(HARNESSES)


def fuzz_driver():
    spec = importlib.util.spec_from_file_location("fuzz_driver", ROOT / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_cpp_harness_is_built_and_run():
    """Each cpp/fuzz/*.cpp but the shared header is a libFuzzer harness
    that CMake builds (its fuzz_*.cpp glob) and tools/fuzz.py runs."""
    sources = sorted((ROOT / "cpp" / "fuzz").glob("*.cpp"))
    assert {"fuzz_cards", "fuzz_text_column", "fuzz_showdown", "fuzz_batch"} <= {p.stem for p in sources}
    for source in sources:
        assert source.stem.startswith("fuzz_"), f"{source.name}: not matched by CMake's cpp/fuzz/fuzz_*.cpp"
        assert "LLVMFuzzerTestOneInput" in source.read_text(), f"{source.name}: no LLVMFuzzerTestOneInput"
    assert "cpp/fuzz/fuzz_*.cpp" in (ROOT / "CMakeLists.txt").read_text()
    driver = fuzz_driver()
    run = {h.label for h in driver.select([])}
    assert {f"cpp:{p.stem}" for p in sources} <= run
    assert {f"py:{name}" for name in HARNESSES} <= run
    assert "tools/fuzz.py --build --require-native" in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("name", HARNESSES)
def test_harness_holds_on_random_bytes(name):
    one_input = load(name)

    @settings(max_examples=300, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.binary(max_size=600))
    def replay(data: bytes) -> None:
        one_input(data)

    replay()


@pytest.mark.parametrize("name", HARNESSES)
def test_harness_holds_on_committed_seeds(name):
    one_input = load(name)
    seeds = sorted((FUZZ_DIR / "seeds" / name).glob("*"))
    for seed in seeds:
        one_input(seed.read_bytes())
