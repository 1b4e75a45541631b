#!/usr/bin/env python3
"""Run the atheris harnesses of tests/fuzz/ for a bounded time.

    python tools/fuzz.py                      # every harness, 60 s in all
    python tools/fuzz.py --seconds 3600       # an hour, shared between them
    python tools/fuzz.py --seconds 600 fuzz_cards fuzz_batch

Each harness runs in its own process (libFuzzer owns the process) with an
equal share of the time.  The corpus grows in build/fuzz/corpus/<harness>/
(kept between runs, ignored by git) on top of the committed seeds in
tests/fuzz/seeds/<harness>/ when there are any; a crashing input is written
to build/fuzz/crashes/.  Prints executions per harness and exits 1 if any
harness found something: turn each such input into a regression test
(tests/test_fuzz_regressions.py) and fix it.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARNESSES = ROOT / "tests" / "fuzz"
WORK = ROOT / "build" / "fuzz"


def harnesses(names: list[str]) -> list[Path]:
    found = sorted(HARNESSES.glob("fuzz_*.py"))
    if not names:
        return found
    by_name = {p.stem: p for p in found}
    missing = [n for n in names if n not in by_name]
    if missing:
        sys.exit(f"no such harness: {', '.join(missing)} (have: {', '.join(by_name)})")
    return [by_name[n] for n in names]


def stat(output: str, name: str) -> int:
    match = re.search(rf"stat::{name}:\s+(\d+)", output)
    return int(match.group(1)) if match else 0


def run_one(harness: Path, seconds: int) -> tuple[bool, int, str]:
    """(passed, executions, output tail) for one harness."""
    corpus = WORK / "corpus" / harness.stem
    crashes = WORK / "crashes"
    corpus.mkdir(parents=True, exist_ok=True)
    crashes.mkdir(parents=True, exist_ok=True)
    seeds = HARNESSES / "seeds" / harness.stem
    command = [
        sys.executable, str(harness),
        f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=30", "-rss_limit_mb=3072",
        f"-artifact_prefix={crashes}/{harness.stem}-",
        str(corpus), *([str(seeds)] if seeds.is_dir() else []),
    ]
    # libFuzzer stops itself at max_total_time; the margin covers start-up
    # (imports, building rule tables) and the final merge of a big corpus.
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, errors="replace",
                          timeout=seconds + 120)
    output = proc.stdout + proc.stderr
    return proc.returncode == 0, stat(output, "number_of_executed_units"), output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("harness", nargs="*", help="harness names (default: all of tests/fuzz/fuzz_*.py)")
    parser.add_argument("--seconds", type=int, default=60, help="total time, shared equally (default 60)")
    args = parser.parse_args()

    if importlib.util.find_spec("atheris") is None:
        # atheris ships wheels for Linux x86_64 only (see the `fuzz` extra).
        print("atheris is not installed (pip install '.[fuzz]'): fuzzing skipped")
        return 0
    chosen = harnesses(args.harness)
    share = max(1, args.seconds // len(chosen))
    total_runs = 0
    failed = []
    print(f"fuzzing {len(chosen)} harnesses, {share} s each")
    for harness in chosen:
        start = time.monotonic()
        passed, runs, output = run_one(harness, share)
        total_runs += runs
        elapsed = time.monotonic() - start
        print(f"  {harness.stem:<20} {runs:>10,} executions  {runs / max(share, 1):>9,.0f}/s  "
              f"{'ok' if passed else 'FINDING'}  ({elapsed:.0f} s wall)")
        if not passed:
            failed.append(harness.stem)
            print("\n".join(output.splitlines()[-40:]))
    print(f"total: {total_runs:,} executions; findings in: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
