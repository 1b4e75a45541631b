"""prial score survives kill -9: resumed output equals an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import prial
from prial.logs.journal import Journal
from prial.score.sample import write_sample_log


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("resume") / "log.parquet"
    write_sample_log(str(path), 100_000, seed=5, deals_per_row_group=12_500)
    return path


@pytest.fixture(scope="module")
def uninterrupted(log, tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "out.parquet"
    summary = prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=4000))
    return out, summary


def journal_lines(out) -> int:
    try:
        with open(f"{out}.parts/journal.jsonl", "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.slow
def test_kill_9_then_resume(log, uninterrupted, tmp_path):
    out = tmp_path / "out.parquet"
    command = [sys.executable, "-m", "prial", "score", str(log), "-o", str(out), "--chunk-rows", "4000"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while journal_lines(out) < 6 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    committed = journal_lines(out) - 1  # the first line names the job
    assert 5 <= committed < 100, "the run was not killed mid-way"
    assert not out.exists()

    resumed = subprocess.run(command + ["--resume", "--json"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    whole_out, whole = uninterrupted
    assert out.read_bytes() == whole_out.read_bytes()
    got = json.loads(resumed.stdout)
    assert got["rows_in"] == whole.rows_in == 400_000 and got["complete"]
    assert got["resumed_rows"] >= committed * 4000 - 4000
    assert got["deals"] == whole.deals and got["disputes"] == whole.disputes


def test_resume_ignores_a_torn_journal_line_and_orphan_part(log, uninterrupted, tmp_path, monkeypatch):
    out = tmp_path / "out.parquet"
    commit = Journal.commit
    calls = []

    def crash_after_three(self, *args, **kwargs):
        if len(calls) == 3:
            raise KeyboardInterrupt  # stands for the kill
        calls.append(1)
        return commit(self, *args, **kwargs)

    monkeypatch.setattr(Journal, "commit", crash_after_three)
    with pytest.raises(KeyboardInterrupt):
        prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=4000))
    monkeypatch.undo()
    parts = f"{out}.parts"
    with open(f"{parts}/journal.jsonl", "a") as f:
        f.write('{"part": 3, "rows_st')  # torn by the kill
    with open(f"{parts}/part-000003.parquet", "wb") as f:
        f.write(b"half a part")  # renamed but never journalled: must be redone
    summary = prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=4000), resume=True)
    assert summary.resumed_rows > 0 and summary.complete
    assert out.read_bytes() == uninterrupted[0].read_bytes()


def test_resume_refuses_another_job(log, tmp_path, monkeypatch):
    out = tmp_path / "out.parquet"
    monkeypatch.setattr(Journal, "commit", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=4000))
    monkeypatch.undo()
    with pytest.raises(prial.ScoreError, match=r"holds a partial run of another job \(its options differ\)"):
        prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=5000), resume=True)


def rewrite_keeping_size_and_times(path, old: bytes, new: bytes) -> None:
    """Changes the first ``old`` in the file to ``new`` (as long), in place,
    and puts its modification time back."""
    assert len(old) == len(new)
    before = os.stat(path)
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


@pytest.fixture
def csv_log(tmp_path):
    path = tmp_path / "log.csv"
    write_sample_log(str(path), 5_000, seed=8)
    return path


def test_resume_refuses_an_input_changed_with_the_same_size_and_times(csv_log, tmp_path, monkeypatch):
    out = tmp_path / "out.csv"
    commit, calls = Journal.commit, []

    def crash_after_three(self, *args, **kwargs):
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(1)
        return commit(self, *args, **kwargs)

    monkeypatch.setattr(Journal, "commit", crash_after_three)
    with pytest.raises(KeyboardInterrupt):
        prial.score_file(csv_log, out, options=prial.ScoreOptions(chunk_rows=1000))
    monkeypatch.undo()
    # A card of the first deal changed: a row the committed parts were made from.
    first_row = csv_log.read_bytes().split(b"\n")[1]
    rewrite_keeping_size_and_times(csv_log, first_row, first_row.replace(b"s", b"h", 1))
    with pytest.raises(prial.ScoreError, match="is not the file the interrupted run read") as refused:
        prial.score_file(csv_log, out, options=prial.ScoreOptions(chunk_rows=1000), resume=True)
    assert refused.value.status == 1 and "--overwrite" in str(refused.value)
    assert os.path.exists(f"{out}.parts/journal.jsonl") and not out.exists()


def test_resume_of_a_complete_job_sees_an_input_changed_with_the_same_size_and_times(csv_log, tmp_path):
    out = tmp_path / "out.csv"
    prial.score_file(csv_log, out)
    first_row = csv_log.read_bytes().split(b"\n")[1]
    rewrite_keeping_size_and_times(csv_log, first_row, first_row.replace(b"s", b"h", 1))
    again = prial.score_file(csv_log, out, resume=True)
    assert not again.already_complete  # scored afresh, as the changed log
    fresh = tmp_path / "fresh.csv"
    prial.score_file(csv_log, fresh)
    assert out.read_bytes() == fresh.read_bytes()
    assert prial.score_file(csv_log, out, resume=True).already_complete
