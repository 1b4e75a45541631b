"""The layout of the C++ sources: each shared piece of the core and the
bindings written once, internal headers beside the sources."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CPP = ROOT / "cpp"


INCLUDE = re.compile(r'#include "([^"]+)"')


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (CPP / folder).rglob("*") if p.suffix in {".cpp", ".hpp"})


def files_containing(pattern: str, *folders: str) -> list[str]:
    found = re.compile(pattern)
    return [str(p.relative_to(ROOT)) for p in sources(*folders) if found.search(p.read_text())]


def test_the_bindings_release_the_gil_in_one_place():
    # Each release's safety argument lives in gil.hpp; a call site that
    # released the GIL itself would have to argue it again.
    assert files_containing(r"gil_scoped_release", "bindings") == ["cpp/bindings/gil.hpp"]


def test_one_first_bad_row_scan():
    # The parallel pass that only flags, then the rescan for the row.
    assert files_containing(r"std::atomic<bool> any_bad", "src") == ["cpp/src/batch_rows.hpp"]


def test_one_table_cache():
    # The three-card and best-of tables of each ruleset are cached by one
    # template, not by a map and lock written out in each source.
    assert files_containing(r"static std::map<RulesConfig", "src") == []
    includes = [set(INCLUDE.findall((CPP / "src" / name).read_text())) for name in ("tables.cpp", "bestof.cpp")]
    shared = [name for name in includes[0] & includes[1] if "/" not in name
              and re.search(r"template <class Key, class Value>", (CPP / "src" / name).read_text())]
    assert len(shared) == 1, shared


def test_one_splitmix64():
    # Seeded results (sampled odds, the opponent model, the table's pack)
    # follow its exact stream: a second copy could drift from it.
    assert files_containing(r"(?i)0xBF58476D1CE4E5B9", "src", "include", "service", "bindings") == [
        "cpp/src/splitmix.hpp"]
    for user in ("odds.cpp", "partition.cpp"):
        assert '#include "splitmix.hpp"' in (CPP / "src" / user).read_text()


def included(paths: list[Path]) -> set[str]:
    return {name for p in paths for name in INCLUDE.findall(p.read_text())}


def test_only_what_callers_use_is_in_cpp_include():
    public = CPP / "include" / "prial"
    headers = {f"prial/{p.name}" for p in public.glob("*.hpp")}
    # The callers of the library: the bindings, the service's native part
    # and the fuzz harnesses (the C++ unit tests reach internals too).
    reached = included(sources("bindings", "service", "fuzz")) & headers
    while True:
        more = included([public / name.removeprefix("prial/") for name in reached]) & headers
        if more <= reached:
            break
        reached |= more
    assert headers == reached, f"headers no caller includes: {sorted(headers - reached)}"
    for internal in ("kernels.hpp", "parallel.hpp", "portable.hpp"):
        assert (CPP / "src" / internal).exists() and not (public / internal).exists()
    # and nothing outside the core reaches into cpp/src
    beside = {p.name for p in (CPP / "src").glob("*.hpp")}
    assert not included(sources("bindings", "service", "fuzz", "include")) & beside


def test_no_kernel_is_declared_in_cpp_include():
    # Kernels are picked inside the core (by the SIMD level); callers reach
    # them through the batch calls only.
    assert files_containing(r"\w+_(scalar|avx2|avx512)\(", "include") == []
