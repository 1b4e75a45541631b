"""``prial score`` throughput on a generated deal log (Parquet in, Parquet out).

Run as a script for the figures of the issue (10M rows; takes minutes):

    python benchmarks/bench_score.py [--rows 10000000] [--workers 2]

It reports, for the local engine (one process, native threads) and a Dask
LocalCluster on the same file: rows/s (input rows over the job's wall time,
reading and writing included) and the peak RSS of the process that scored
(each run is a fresh subprocess, so the figure is that run's alone).  Under
pytest-benchmark (``python -m pytest benchmarks/bench_score.py``) a 1M-row
log is scored by the local engine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import pytest

import prial
from prial import write_sample_log

_RUN = """
import json, resource, sys, time
import prial
kind, source, out, workers, chunk = sys.argv[1:6]
options = prial.ScoreOptions(chunk_rows=int(chunk))
if kind == "dask":
    from distributed import LocalCluster
    with LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        summary = prial.score_file(source, out, options=options, engine="dask",
                                   scheduler=cluster.scheduler_address)
else:
    summary = prial.score_file(source, out, options=options)
# Peak RSS of this process and of its largest (reaped) child: the Dask workers.
# CPU seconds (all threads; the local engine only) tell what a loaded machine hides.
mib = lambda who: round(resource.getrusage(who).ru_maxrss / 1024, 1)
me = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"rows": summary.rows_in, "seconds": summary.seconds, "complete": summary.complete,
                  "cpu_seconds": round(me.ru_utime + me.ru_stime, 2),
                  "peak_rss_mib": mib(resource.RUSAGE_SELF), "peak_child_rss_mib": mib(resource.RUSAGE_CHILDREN)}))
"""


def run(kind: str, source: str, out: str, workers: int, chunk_rows: int) -> dict:
    """One scoring job in a fresh interpreter (so peak RSS is its own)."""
    proc = subprocess.run([sys.executable, "-c", _RUN, kind, source, out, str(workers), str(chunk_rows)],
                          capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["rows_per_second"] = round(result["rows"] / result["seconds"])
    result["load_average"] = os.getloadavg()[0]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2, help="Dask LocalCluster worker processes")
    parser.add_argument("--chunk-rows", type=int, default=1_000_000)
    parser.add_argument("--dir", default=None, help="scratch directory (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        source = os.path.join(scratch, "deals.parquet")
        rows = write_sample_log(source, args.rows // 4, seed=2026)
        size = os.path.getsize(source)
        figures = {"rows": rows, "input_mib": round(size / 2**20, 1), "chunk_rows": args.chunk_rows,
                   "cpus": os.cpu_count(), "load_average_before": os.getloadavg()[0]}
        figures["local"] = run("local", source, os.path.join(scratch, "local.parquet"), 0, args.chunk_rows)
        figures["dask"] = run("dask", source, os.path.join(scratch, "dask.parquet"), args.workers, args.chunk_rows)
        with open(os.path.join(scratch, "local.parquet"), "rb") as a, open(os.path.join(scratch, "dask.parquet"), "rb") as b:
            figures["dask_output_identical"] = a.read() == b.read()
    print(json.dumps(figures, indent=2))
    return 0


@pytest.fixture(scope="module")
def log_1m(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("bench") / "deals.parquet")
    write_sample_log(path, 250_000, seed=2026)
    return path


def test_score_local_1m(benchmark, log_1m, tmp_path):
    benchmark.extra_info["rows"] = 1_000_000
    out = str(tmp_path / "out.parquet")
    summary = benchmark.pedantic(lambda: prial.score_file(log_1m, out), rounds=3, iterations=1)
    assert summary.complete


if __name__ == "__main__":
    sys.exit(main())
