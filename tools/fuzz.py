#!/usr/bin/env python3
"""Coverage-guided fuzzing for a bounded time: the libFuzzer harnesses of
cpp/fuzz/ (the C++ core, pure C++) and the atheris harnesses of tests/fuzz/
(the Python package and, through it, the extension).

    python tools/fuzz.py                      # every harness, 60 s in all
    python tools/fuzz.py --build              # first build the native parts (clang)
    python tools/fuzz.py --seconds 3600       # an hour, shared between them
    python tools/fuzz.py --seconds 600 fuzz_cards cpp:fuzz_batch py:fuzz_play

Harnesses are named cpp:<name> (cpp/fuzz/<name>.cpp) and py:<name>
(tests/fuzz/<name>.py); a bare name picks both.  Each runs in its own
process (libFuzzer owns the process) with an equal share of the time.

Native build (--build; it needs clang: apt-get install clang): the package
built by pip with -DPRIAL_FUZZ=ON in build/fuzz/native, which makes
  - one libFuzzer executable per cpp/fuzz/fuzz_*.cpp there, core and
    harness under ASan + UBSan, and
  - the extension with the core instrumented for coverage
    (-fsanitize=fuzzer-no-link,address,undefined; not the bindings),
    installed with the package into build/fuzz/site, not into the
    environment.  When it is
                    present the atheris harnesses import prial from it, with
                    atheris's asan_with_fuzzer.so preloaded, so libFuzzer sees
                    coverage inside the extension and ASan/UBSan watch it.
Without it the C++ harnesses are skipped and the atheris ones run against
the environment's prial (Python coverage only) -- unless --require-native,
which makes a missing clang or a failed build an error (CI).

The corpus grows in build/fuzz/corpus/<harness>/ (atheris) and
build/fuzz/corpus/cpp/<harness>/ (C++), kept between runs and ignored by
git, on top of the committed seeds (tests/fuzz/seeds/<harness>/,
cpp/fuzz/seeds/<harness>/); a crashing input is written to
build/fuzz/crashes/.  Prints per harness the executions, libFuzzer's
coverage (cov: edges, ft: features), the native edges reached (edges of
cpp/ code, from -print_coverage) and the corpus size; exits 1 if any
harness found something (a crash, a sanitizer report, a failed
invariant): turn each such input into a regression test
(tests/test_fuzz_regressions.py, cpp/tests/core_tests.cpp) and fix it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY_HARNESSES = ROOT / "tests" / "fuzz"
CPP_HARNESSES = ROOT / "cpp" / "fuzz"
WORK = ROOT / "build" / "fuzz"
NATIVE_BUILD = WORK / "native"
SITE = WORK / "site"
CRASHES = WORK / "crashes"

# RelWithDebInfo with its flags emptied: the bindings at -O0 (40% less
# build time than -O1; they are glue, and not instrumented), the core and
# harnesses at the -O1 + line tables PRIAL_FUZZ adds; no -DNDEBUG, so
# assertions stay on.  Build time is CI time.
FUZZ_FLAGS = "CMAKE_CXX_FLAGS_RELWITHDEBINFO="

# ASan: no leak checking (CPython keeps memory alive at exit); UBSan: stop
# at the first report, which libFuzzer then saves as a crash.
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:allocator_may_return_null=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}


@dataclass
class Harness:
    kind: str  # "cpp" or "py"
    name: str
    source: Path

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.name}"

    @property
    def corpus(self) -> Path:
        return WORK / "corpus" / ("cpp" if self.kind == "cpp" else "") / self.name

    @property
    def seeds(self) -> Path:
        return (CPP_HARNESSES if self.kind == "cpp" else PY_HARNESSES) / "seeds" / self.name


def all_harnesses() -> list[Harness]:
    cpp = [Harness("cpp", p.stem, p) for p in sorted(CPP_HARNESSES.glob("fuzz_*.cpp"))]
    py = [Harness("py", p.stem, p) for p in sorted(PY_HARNESSES.glob("fuzz_*.py"))]
    return cpp + py


def select(names: list[str]) -> list[Harness]:
    found = all_harnesses()
    if not names:
        return found
    chosen, missing = [], []
    for n in names:
        hits = [h for h in found if n in (h.label, h.name)]
        if not hits:
            missing.append(n)
        chosen += [h for h in hits if h not in chosen]
    if missing:
        sys.exit(f"no such harness: {', '.join(missing)} (have: {', '.join(h.label for h in found)})")
    return chosen


# ---- builds ----

def clang() -> tuple[str, str] | None:
    cc, cxx = shutil.which("clang"), shutil.which("clang++")
    return (cc, cxx) if cc and cxx else None


def build_native(compilers: tuple[str, str], jobs: int) -> None:
    """One CMake build (build/fuzz/native) of the instrumented core, the
    C++ harnesses (PRIAL_FUZZ=ON) and the extension, through pip so that
    the package lands complete in SITE (pip --target)."""
    shutil.rmtree(SITE, ignore_errors=True)
    env = dict(os.environ, CC=compilers[0], CXX=compilers[1], CMAKE_BUILD_PARALLEL_LEVEL=str(jobs))
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(SITE),
               "-Ccmake.define.PRIAL_FUZZ=ON", "-Ccmake.build-type=RelWithDebInfo",
               f"-Ccmake.define.{FUZZ_FLAGS}", f"-Cbuild-dir={NATIVE_BUILD}"]
    # The environment's build requirements when it has them (no download).
    if all(importlib.util.find_spec(m) for m in ("scikit_build_core", "pybind11", "grpc_tools")):
        command.append("--no-build-isolation")
    command.append(str(ROOT))
    print("+ " + " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True, env=env)


def cpp_executable(h: Harness) -> Path:
    return NATIVE_BUILD / h.name


def instrumented_site() -> bool:
    return any((SITE / "prial").glob("_core*.so"))


def atheris_preload() -> str:
    import atheris

    return str(Path(atheris.path()) / "asan_with_fuzzer.so")


# ---- runs ----

def stat(output: str, name: str) -> int:
    match = re.search(rf"stat::{name}:\s+(\d+)", output)
    return int(match.group(1)) if match else 0


def last_status(output: str) -> dict[str, int]:
    """cov, ft and corp of libFuzzer's last status line (DONE, or the last
    progress line before a finding)."""
    figures: dict[str, int] = {}
    for line in output.splitlines():
        m = re.search(r"cov: (\d+) ft: (\d+) corp: (\d+)", line)
        if m:
            figures = {"cov": int(m[1]), "ft": int(m[2]), "corp": int(m[3])}
    return figures


def native_edges(output: str) -> tuple[int, int]:
    """(edges covered, functions) of the project's native code (cpp/), from
    -print_coverage's COVERED_FUNC lines."""
    edges = functions = 0
    for m in re.finditer(r"COVERED_FUNC: hits: \d+ edges: (\d+)/\d+ \S.* (\S+):\d+$", output, re.M):
        path = m[2]
        if "/cpp/" in path and "/cpp/fuzz/" not in path:
            edges += int(m[1])
            functions += 1
    return edges, functions


@dataclass
class Result:
    passed: bool
    runs: int
    cov: int
    ft: int
    corpus: int
    native: tuple[int, int]
    output: str
    seconds: float


def run_one(h: Harness, seconds: int, native_site: bool) -> Result:
    h.corpus.mkdir(parents=True, exist_ok=True)
    CRASHES.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    if h.kind == "cpp":
        command = [str(cpp_executable(h))]
        env.update(SANITIZER_ENV)
    else:
        command = [sys.executable, str(h.source)]
        if native_site:
            env.update(SANITIZER_ENV)
            env["PYTHONPATH"] = os.pathsep.join([str(SITE), *filter(None, [env.get("PYTHONPATH")])])
            env["LD_PRELOAD"] = atheris_preload()
    command += [
        f"-max_total_time={seconds}", "-print_final_stats=1", "-print_coverage=1", "-timeout=30",
        "-rss_limit_mb=3072", f"-artifact_prefix={CRASHES}/{h.kind}-{h.name}-",
        str(h.corpus), *([str(h.seeds)] if h.seeds.is_dir() else []),
    ]
    start = time.monotonic()
    # libFuzzer stops itself at max_total_time; the margin covers start-up
    # (imports, building rule tables), the final merge of a big corpus and
    # symbolizing the coverage report.
    try:
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, errors="replace", env=env,
                              timeout=seconds + 120)
        output, passed = proc.stdout + proc.stderr, proc.returncode == 0
    except subprocess.TimeoutExpired as e:
        output = f"{e.stdout or ''}{e.stderr or ''}\n(timed out)"
        passed = False
    figures = last_status(output)
    return Result(passed, stat(output, "number_of_executed_units"), figures.get("cov", 0), figures.get("ft", 0),
                  sum(1 for p in h.corpus.iterdir() if p.is_file()), native_edges(output), output,
                  time.monotonic() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("harness", nargs="*", help="harness names (default: every cpp/fuzz/fuzz_*.cpp and "
                                                   "tests/fuzz/fuzz_*.py)")
    parser.add_argument("--seconds", type=int, default=60, help="total fuzzing time, shared equally (default 60)")
    parser.add_argument("--build", action="store_true", help="build the native parts first (needs clang)")
    parser.add_argument("--require-native", action="store_true",
                        help="fail unless both native builds are there (CI): no silent fallback")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="build parallelism (default 2)")
    args = parser.parse_args()

    if importlib.util.find_spec("atheris") is None:
        # atheris ships wheels for Linux x86_64 only (see the `fuzz` extra).
        if args.require_native:
            print("atheris is not installed (pip install '.[fuzz]')", file=sys.stderr)
            return 1
        print("atheris is not installed (pip install '.[fuzz]'): fuzzing skipped")
        return 0
    chosen = select(args.harness)

    if args.build:
        compilers = clang()
        if compilers is None:
            message = "clang is not installed (apt-get install clang): no native builds"
            if args.require_native:
                print(message, file=sys.stderr)
                return 1
            print(message)
        else:
            start = time.monotonic()
            build_native(compilers, args.jobs)
            print(f"native build (core, C++ harnesses, extension): {time.monotonic() - start:.0f} s")

    native_site = instrumented_site()
    missing_cpp = [h for h in chosen if h.kind == "cpp" and not cpp_executable(h).is_file()]
    if args.require_native and (missing_cpp or (any(h.kind == "py" for h in chosen) and not native_site)):
        print("native builds missing (run with --build): "
              + ", ".join([h.label for h in missing_cpp] + ([] if native_site else [str(SITE)])), file=sys.stderr)
        return 1
    for h in missing_cpp:
        print(f"{h.label}: not built (python tools/fuzz.py --build): skipped")
    runnable = [h for h in chosen if h not in missing_cpp]
    if not runnable:
        return 0

    share = max(1, args.seconds // len(runnable))
    extension = f"instrumented extension from {SITE.relative_to(ROOT)}" if native_site else \
        "the environment's prial (extension not instrumented)"
    print(f"fuzzing {len(runnable)} harnesses, {share} s each; atheris harnesses use the {extension}")
    total_runs = 0
    failed = []
    for h in runnable:
        r = run_one(h, share, native_site)
        total_runs += r.runs
        native = f"native {r.native[0]:>5} edges in {r.native[1]:>3} functions" if r.native[1] else \
            "native      - (not instrumented)"
        print(f"  {h.label:<20} {r.runs:>10,} executions {r.runs / max(share, 1):>8,.0f}/s  cov {r.cov:>5}  "
              f"ft {r.ft:>6}  {native}  corpus {r.corpus:>5}  {'ok' if r.passed else 'FINDING'}  "
              f"({r.seconds:.0f} s wall)", flush=True)
        if not r.passed:
            failed.append(h.label)
            lines = [ln for ln in r.output.splitlines() if "COVERED_FUNC" not in ln and "UNCOVERED_PC" not in ln]
            print("\n".join(lines[-40:]))
    print(f"total: {total_runs:,} executions; findings in: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
