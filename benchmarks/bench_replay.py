"""``prial replay`` throughput on a nested Parquet history log: read,
checked, replayed and the findings written (Parquet), end to end.

Run as a script for the figures (a 10M-action log, made once and kept in
the temporary directory for the next run):

    python benchmarks/bench_replay.py [--actions 10000000] [--workers 2]

It reports actions/s of the local engine on one native thread, and of a
Dask LocalCluster of one worker and of ``--workers`` workers on the same
log (each run a fresh interpreter; the load average is reported with each,
since the machine may be shared), and whether Dask wrote the local bytes.
Under pytest-benchmark (``python -m pytest benchmarks/bench_replay.py``)
a 1M-action log is replayed by the local engine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import prial
from prial.table import Fault, sample_histories

SAMPLE_DEALS = 4_000
GROUP_ROWS = 65_536

_RUN = """
import json, os, resource, sys
import prial
kind, source, out, workers = sys.argv[1:5]
if kind == "dask":
    summary = prial.replay_file(source, out, engine="dask", workers=int(workers), overwrite=True)
else:
    summary = prial.replay_file(source, out, threads=1, overwrite=True)
me = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"actions": summary.actions, "deals": summary.deals, "seconds": summary.seconds,
                  "findings": summary.findings, "cpu_seconds": round(me.ru_utime + me.ru_stime, 2),
                  "peak_rss_mib": round(me.ru_maxrss / 1024, 1)}))
"""


def history_log(actions: int, folder: str | None = None) -> str:
    """A nested Parquet log of at least ``actions`` actions, made once:
    sampled deals (a few faults planted) copied under new deal ids."""
    path = os.path.join(folder or tempfile.gettempdir(), f"prial-bench-replay-{actions}.parquet")
    if os.path.exists(path):
        return path
    faults = [Fault("mispaid-pot", 0.01), Fault("short-stake", 0.01)]
    records = [s.record for s in sample_histories(prial.TableRules(), SAMPLE_DEALS, players=4, seed=2026,
                                                  faults=faults, stack=200)]
    one = path + ".one.parquet"
    prial.write_histories(records, one)
    table = pq.read_table(one)
    os.remove(one)
    per_copy = pc.sum(pc.list_value_length(table["actions"])).as_py()
    parts = [table.set_column(0, "deal_id", pc.binary_join_element_wise(f"c{c}.", table["deal_id"], ""))
             for c in range(-(-actions // per_copy))]
    pq.write_table(pa.concat_tables(parts), path + ".tmp", row_group_size=GROUP_ROWS)
    os.replace(path + ".tmp", path)
    return path


def run(kind: str, source: str, out: str, workers: int = 0) -> dict:
    """One replay job in a fresh interpreter."""
    load = os.getloadavg()[0]
    proc = subprocess.run([sys.executable, "-c", _RUN, kind, source, out, str(workers)], capture_output=True,
                          text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["actions_per_second"] = round(result["actions"] / result["seconds"])
    result["load_average"] = [load, os.getloadavg()[0]]  # before and after
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2, help="Dask LocalCluster worker processes")
    parser.add_argument("--dir", default=None, help="where the log is kept (default: the temporary directory)")
    args = parser.parse_args(argv)
    source = history_log(args.actions, args.dir)
    figures: dict[str, object] = {"log": source, "log_mib": round(os.path.getsize(source) / 2**20, 1),
                                  "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        local = os.path.join(scratch, "local.parquet")
        figures["local_one_thread"] = run("local", source, local)
        runs = {}
        for workers in sorted({1, args.workers}):
            out = os.path.join(scratch, f"dask{workers}.parquet")
            runs[workers] = figures[f"dask_{workers}_workers"] = run("dask", source, out, workers)
            with open(local, "rb") as a, open(out, "rb") as b:
                figures[f"dask_{workers}_identical"] = a.read() == b.read()
        figures["dask_speedup"] = round(runs[1]["seconds"] / runs[args.workers]["seconds"], 2)
    print(json.dumps(figures, indent=2))
    return 0


@pytest.fixture(scope="module")
def log_1m(tmp_path_factory) -> str:
    return history_log(1_000_000, str(tmp_path_factory.mktemp("bench")))


def test_replay_local_1m(benchmark, log_1m, tmp_path):
    out = str(tmp_path / "out.parquet")
    summary = benchmark.pedantic(lambda: prial.replay_file(log_1m, out, overwrite=True), rounds=3, iterations=1)
    benchmark.extra_info["actions"] = summary.actions
    assert summary.complete


if __name__ == "__main__":
    sys.exit(main())
