"""How far a scoring job says it is: by bytes read for CSV and JSON Lines (a
reader's read-ahead must not make it 100 % from the first chunk), by rows
for Parquet; a bar, a line every few seconds, or nothing; a time left
that counts only this run's pace."""

from __future__ import annotations

import io

import pytest

import prial
from prial.logs import progress as progress_module
from prial.logs.io import BLOCK_BYTES, InputReader
from prial.logs.progress import Progress


def line_ends(path) -> list[int]:
    """The byte after each data row (the header's line is not a row)."""
    ends, at = [], 0
    with open(path, "rb") as f:
        for line in f:
            at += len(line)
            ends.append(at)
    return ends


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """One log, more than one of Arrow's blocks long, in every format."""
    home = tmp_path_factory.mktemp("logs")
    paths = {}
    for fmt in ("csv", "jsonl", "parquet"):
        paths[fmt] = home / f"deals.{fmt}"
        prial.write_sample_log(str(paths[fmt]), 70_000 if fmt == "csv" else 40_000, seed=3)
    return paths


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_text_logs_count_the_bytes_of_the_rows_handed_out(logs, fmt):
    path = logs[fmt]
    ends = line_ends(path)
    header = 1 if fmt == "csv" else 0
    size = ends[-1]
    assert size > BLOCK_BYTES  # more than one block, so the read-ahead is real
    reader = InputReader(path, fmt, 20_000)
    assert reader.unit == "bytes" and reader.total == size
    seen, rows = [], 0
    for table in reader.tables():
        rows += table.num_rows
        truth = ends[rows - 1 + header]
        seen.append(reader.done())
        # within a small part of a block of where the last row handed out ends
        assert abs(reader.done() - truth) < BLOCK_BYTES / 8, (rows, reader.done(), truth)
    reader.close()
    assert seen[0] < size / 2 and seen == sorted(seen) and seen[-1] == size


def test_a_resumed_text_log_counts_the_rows_skipped(logs):
    path = logs["csv"]
    ends = line_ends(path)
    reader = InputReader(path, "csv", 20_000)
    first = next(reader.tables(skip=100_000))
    assert abs(reader.done() - ends[100_000 + first.num_rows]) < BLOCK_BYTES / 8
    reader.close()


def test_parquet_counts_rows(logs):
    reader = InputReader(logs["parquet"], "parquet", 30_000)
    assert reader.unit == "rows" and reader.total == reader.total_rows == 160_000
    done = []
    for _ in reader.tables():
        done.append(reader.done())
    assert done == [30_000.0, 60_000.0, 90_000.0, 120_000.0, 150_000.0, 160_000.0]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    return clock


def test_the_log_mode_writes_a_line_every_few_seconds(clock):
    out = io.StringIO()
    shown = Progress("log", out)
    shown.begin("scoring", unit="bytes", total=4e9)
    for second in range(1, 13):
        clock.now += 1
        shown.update(second * 1000, second * 1e8)
    lines = out.getvalue().splitlines()
    assert len(lines) == 12 // progress_module.LOG_INTERVAL  # one every LOG_INTERVAL seconds, none between
    assert lines[0] == "prial score: scoring: 12% of 4.00 GB read, 5,000 rows, 1k rows/s, ETA 0:00:35"
    shown.finish(12_000)
    assert out.getvalue().splitlines()[-1] == "prial score: done, 12,000 rows in 12.0 s"
    assert "\r" not in out.getvalue()


def test_the_time_left_counts_this_runs_pace_only(clock):
    out = io.StringIO()
    shown = Progress("log", out, interval=0)
    # an earlier run did 600 of 1,000 rows; this one did 100 more in 10 s
    shown.begin("scoring", total=1000, resumed_rows=600)
    clock.now += 10
    shown.update(700)
    assert out.getvalue() == "prial score: scoring: 70% of 1,000 rows, 700 rows, 10 rows/s, ETA 0:00:30\n"


def test_the_bar_is_redrawn_in_place_and_ends_its_line(clock):
    out = io.StringIO()
    bar = Progress("bar", out)
    bar.begin("scoring", total=200)
    clock.now += 1
    bar.update(50)
    assert out.getvalue().startswith("\rscoring [######..................]  25%  50 rows  50 rows/s  ETA 0:00:03")
    bar.finish(200)
    assert out.getvalue().endswith("\n") and "100%" in out.getvalue().splitlines()[-1]


def test_auto_is_the_bar_on_a_terminal_only():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert Progress("auto", Terminal()).mode == "bar"
    assert Progress("auto", io.StringIO()).mode == "log"
    with pytest.raises(ValueError, match="auto, bar, log, none"):
        Progress("loud")
