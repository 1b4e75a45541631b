"""prial score --progress: a bar on a terminal, a line every few seconds
elsewhere (a pipe, a log file), or nothing."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import prial


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    home = tmp_path_factory.mktemp("logs")
    paths = {}
    for fmt in ("csv", "jsonl"):
        paths[fmt] = home / f"deals.{fmt}"
        prial.write_sample_log(str(paths[fmt]), 70_000 if fmt == "csv" else 40_000, seed=3)
    return paths


def score(log, out, *flags) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "prial", "score", str(log), "-o", str(out), "--chunk-rows",
                           "20000", *flags], capture_output=True, timeout=120)
    done.stderr = done.stderr.decode()  # as it is: text mode would read each carriage return as a newline
    return done


def test_off_a_terminal_prial_score_logs_lines(logs, tmp_path):
    done = score(logs["csv"], tmp_path / "out.parquet")  # stderr is a pipe: auto is the log
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert re.fullmatch(r"prial score: done, 280,000 rows in \d+\.\d s", lines[-1]), lines
    assert all(line.startswith("prial score: ") for line in lines) and "\r" not in done.stderr


def test_progress_none_is_silent_and_bar_redraws(logs, tmp_path):
    quiet = score(logs["jsonl"], tmp_path / "quiet.csv", "--progress", "none")
    assert quiet.returncode == 0 and quiet.stderr == ""
    bar = score(logs["jsonl"], tmp_path / "bar.csv", "--progress", "bar")
    assert bar.returncode == 0 and bar.stderr.startswith("\r") and bar.stderr.endswith("\n")
    assert re.search(r"scoring \[#{24}\] 100%  160,000 rows", bar.stderr), bar.stderr
    bad = score(logs["jsonl"], tmp_path / "bad.csv", "--progress", "loud")
    assert bad.returncode == 2 and "invalid choice: 'loud'" in bad.stderr
