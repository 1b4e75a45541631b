"""``prial score`` killed with SIGKILL at random moments and resumed, over
many seeds: the output and the errors file always come out
complete and byte-identical to an uninterrupted run.

Each seed kills the same job up to five times -- at a random time, or once
a random number of chunks are committed, so kills land in start-up, mid
chunk, between commits and during the final write -- resuming after each,
then lets it finish.  ``PRIAL_FAULT_SEEDS`` (default 6) sets how many seeds;
the outputs cycle through Parquet, CSV and JSON Lines.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pytest

from prial.score.sample import sample_deals

pytestmark = pytest.mark.slow

SEEDS = int(os.environ.get("PRIAL_FAULT_SEEDS", "6"))
FORMATS = ("parquet", "csv", "jsonl")
CHUNK_ROWS = "2000"
ROWS = 40_000


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    """A CSV deal log of 40,000 rows with a few unparseable hands."""
    table = sample_deals(ROWS // 4, seed=17)
    cards = table.column("cards").to_pylist()
    for row in range(123, ROWS, 3989):
        cards[row] = "Zz " + cards[row][3:]
    table = table.set_column(table.schema.get_field_index("cards"), "cards", pa.array(cards))
    path = tmp_path_factory.mktemp("faults") / "log.csv"
    pacsv.write_csv(table, path)
    assert pc.sum(pc.starts_with(table.column("cards"), "Zz")).as_py() >= 9
    return path


def command(log: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "prial", "score", str(log), "-o", str(out), "--chunk-rows", CHUNK_ROWS,
            "--json"]


def committed_chunks(out: Path) -> int:
    try:
        return (Path(f"{out}.parts") / "journal.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.fixture(scope="module")
def reference(log, tmp_path_factory) -> dict:
    """Uninterrupted runs, one per output format, and how long one takes."""
    runs = {}
    for fmt in FORMATS:
        out = tmp_path_factory.mktemp(f"whole-{fmt}") / f"out.{fmt}"
        started = time.monotonic()
        done = subprocess.run(command(log, out), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        runs[fmt] = {"out": out, "seconds": time.monotonic() - started, "summary": json.loads(done.stdout)}
    return runs


def summary_facts(summary: dict) -> tuple:
    return summary["rows_in"], summary["deals"], summary["bad_rows"], summary["disputes"], summary["complete"]


@pytest.mark.parametrize("seed", range(SEEDS))
def test_sigkill_at_random_points_then_resume_gives_identical_output(log, reference, tmp_path, seed):
    rng = random.Random(seed)
    fmt = FORMATS[seed % len(FORMATS)]
    whole = reference[fmt]
    out = tmp_path / f"out.{fmt}"
    kills, stdout = 0, None
    while kills < 5 and stdout is None:
        proc = subprocess.Popen(command(log, out) + ["--resume"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0, 1.2 * whole["seconds"]))
        else:  # after a random number of newly committed chunks
            target = committed_chunks(out) + rng.randint(1, 6)
            deadline = time.monotonic() + 60
            while committed_chunks(out) < target and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.001)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        finished, problems = proc.communicate(timeout=300)
        if proc.returncode != -signal.SIGKILL:  # it finished before the kill
            assert proc.returncode == 0, problems
            stdout = finished
    if stdout is None:  # killed every time: now let it finish
        done = subprocess.run(command(log, out) + ["--resume"], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        stdout = done.stdout
    assert summary_facts(json.loads(stdout)) == summary_facts(whole["summary"])
    assert out.read_bytes() == whole["out"].read_bytes(), f"seed {seed}: {kills} kills, output differs"
    errors, whole_errors = Path(f"{out}.errors.csv"), Path(f"{whole['out']}.errors.csv")
    assert errors.read_bytes() == whole_errors.read_bytes()
    assert not Path(f"{out}.parts").exists()


def test_killed_while_removing_its_parts_then_resume(log, reference, tmp_path, monkeypatch):
    # The kill window the random kills found: the output, errors file and
    # summary are written, the parts directory is being removed.  The
    # journal used to outlive some parts, and --resume then failed on a
    # missing part file.
    from prial.logs import journal
    from prial.score import ScoreOptions, job

    real_rmtree = journal.shutil.rmtree

    def killed_midway(path, ignore_errors=False):
        parts = sorted(Path(path).glob("part-*.arrow"))
        if not parts:
            return real_rmtree(path, ignore_errors=ignore_errors)
        parts[len(parts) // 2].unlink()
        raise KeyboardInterrupt  # stands for the SIGKILL

    out = tmp_path / "out.parquet"
    options = ScoreOptions(chunk_rows=int(CHUNK_ROWS))
    monkeypatch.setattr(journal.shutil, "rmtree", killed_midway)
    with pytest.raises(KeyboardInterrupt):
        job.score_file(str(log), str(out), options=options)
    monkeypatch.undo()
    summary = job.score_file(str(log), str(out), options=options, resume=True)
    assert summary.complete and summary.already_complete
    assert out.read_bytes() == reference["parquet"]["out"].read_bytes()
    assert not Path(f"{out}.parts").exists()  # the rest of the clean-up is done
