"""prial replay interrupted (Ctrl-C, kill -9) resumes to the bytes of an
uninterrupted run; a complete job resumed does nothing; a million deals."""

from __future__ import annotations

import collections
import os
import shlex
import signal
import subprocess
import sys
import time

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import prial
from prial.cli import main

from .replay_logs import copies, expected, sampled
from .test_cancel import DEFAULT_SIGINT


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("resume") / "deals.parquet"
    copies(path, sampled(1_000, seed=2), 40)
    return path


def wait_for_parts(proc: subprocess.Popen, journal, parts: int) -> None:
    deadline = time.monotonic() + 120
    while (not journal.exists() or journal.read_text().count("\n") < parts + 1) and time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the job ended before it could be interrupted: {proc.stderr.read()}")
        time.sleep(0.005)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "kill-9"])
def test_an_interrupted_replay_resumes_to_the_same_bytes(log, tmp_path, how):
    whole = tmp_path / "whole.parquet"
    assert main(["replay", str(log), "-o", str(whole), "--chunk-rows", "500", "--progress", "none"]) == 0
    out = tmp_path / "out.parquet"
    # Small chunks, each committed with an fsync: the interrupt lands well before the end.
    command = [sys.executable, "-m", "prial", "replay", str(log), "-o", str(out), "--chunk-rows", "500",
               "--progress", "log"]
    proc = subprocess.Popen([sys.executable, "-c", DEFAULT_SIGINT, *command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    journal = tmp_path / "out.parquet.parts" / "journal.jsonl"
    wait_for_parts(proc, journal, 3)
    proc.send_signal(signal.SIGINT if how == "ctrl-c" else signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert not out.exists()  # the output appears only complete
    if how == "ctrl-c":
        assert proc.returncode == 130
        *progress, last = err.splitlines()
        assert "Traceback" not in err and last.startswith("prial: interrupted: ") and "records replayed" in last
        assert all(line.startswith("prial replay: ") for line in progress), err
        resume = shlex.split(last.split("continue with: ")[1])
        assert resume[:2] == ["prial", "replay"] and resume[-1] == "--resume"
    else:
        assert proc.returncode == -signal.SIGKILL
        resume = ["prial", *command[3:], "--resume"]
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and "partial run of a replay job" in again.stderr
    assert main(resume[1:]) == 0
    assert out.read_bytes() == whole.read_bytes()
    assert (tmp_path / "out.parquet.errors.csv").read_bytes() == (tmp_path / "whole.parquet.errors.csv").read_bytes()
    assert not os.path.exists(f"{out}.parts")


def test_resuming_a_complete_job_does_nothing(log, tmp_path, capsys):
    out = tmp_path / "out.csv"
    first = prial.replay_file(log, out)
    again = prial.replay_file(log, out, resume=True)
    assert again.already_complete and again.findings == first.findings
    assert main(["replay", str(log), "-o", str(out), "--resume", "--progress", "none"]) == 0
    assert "already complete" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.exhaustive
def test_a_million_deals_are_replayed_with_every_fault_found(tmp_path):
    sample = sampled(2_000, seed=5)
    log = tmp_path / "million.parquet"
    copies(log, sample, 500)
    summary = prial.replay_file(log, tmp_path / "found.parquet")
    assert summary.deals == 1_000_000 and summary.complete
    found = pq.read_table(tmp_path / "found.parquet", columns=["finding", "action_index", "code"])
    want = expected(sample)
    for column, place in (("finding", 0), ("action_index", 1), ("code", 2)):
        assert found[column].to_pylist() == [w[place] for w in want] * 500, column
    counts = collections.Counter(s.fault for s in sample)
    assert summary.findings["ok"] == 500 * counts[None]
    assert pc.sum(found["action_index"]).as_py() == 500 * sum(w[1] for w in want)
