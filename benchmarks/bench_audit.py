"""``prial audit`` against ``prial score`` on the same generated log
(Parquet, five dealers, one of them biased), each run in a fresh process,
in turns.

    python benchmarks/bench_audit.py [--rows 10000000] [--rounds 3]

Reports each job's rows/s per round (input rows over the job's wall time,
reading included; scoring also writes its output), their medians and the
audit's rate as a share of scoring's, from the same run.  Under
pytest-benchmark (``python -m pytest benchmarks/bench_audit.py``) a 1M-row
log is audited.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import pytest

import prial
from prial.audit import AuditOptions, audit_file

_RUN = """
import json, sys, time
import prial
from prial.audit import AuditOptions, audit_file
kind, source, out = sys.argv[1:4]
started = time.perf_counter()
if kind == "score":
    rows = prial.score_file(source, out, overwrite=True).rows_in
else:
    rows = audit_file(source, options=AuditOptions(by=("dealer",))).rows
print(json.dumps({"rows": rows, "seconds": time.perf_counter() - started}))
"""


def run(kind: str, source: str, out: str) -> float:
    """Rows per second of one job in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", _RUN, kind, source, out], capture_output=True, text=True,
                          check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return result["rows"] / result["seconds"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default=None, help="scratch directory (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        source = os.path.join(scratch, "deals.parquet")
        rows = prial.write_sample_log(source, args.rows // 4, seed=2026, dealers=5,
                                      bias=[prial.Bias("pairs", dealer=3, rate=0.25)])
        rates: dict[str, list[float]] = {"score": [], "audit": []}
        for _ in range(args.rounds):
            for kind in rates:
                rates[kind].append(run(kind, source, os.path.join(scratch, "scored.parquet")))
    medians = {kind: statistics.median(values) for kind, values in rates.items()}
    print(json.dumps({
        "rows": rows, "cpus": os.cpu_count(), "load_average": os.getloadavg()[0],
        "rows_per_second": {kind: [round(v) for v in values] for kind, values in rates.items()},
        "median_rows_per_second": {kind: round(v) for kind, v in medians.items()},
        "audit_share_of_score": round(medians["audit"] / medians["score"], 3),
        "audit_share_by_round": [round(a / s, 3) for a, s in zip(rates["audit"], rates["score"])],
    }, indent=2))
    return 0


@pytest.fixture(scope="module")
def log_1m(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("bench") / "deals.parquet")
    prial.write_sample_log(path, 250_000, seed=2026, dealers=5)
    return path


def test_audit_local_1m(benchmark, log_1m):
    benchmark.extra_info["rows"] = 1_000_000
    result = benchmark.pedantic(lambda: audit_file(log_1m, options=AuditOptions(by=("dealer",))), rounds=3,
                                iterations=1)
    assert result.rows == 1_000_000


if __name__ == "__main__":
    sys.exit(main())
