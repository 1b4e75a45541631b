"""What prial score writes and may replace: never its input (however it
is named), never an existing file or a partial run without being asked;
a complete job resumed does nothing; an interrupted one says how to go
on; a --strict failure leaves nothing behind."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time

import pytest

import prial
from prial.cli import main


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "deals.csv"
    prial.write_sample_log(str(path), 200, seed=1)
    with open(path, "a") as f:
        f.write("199999,0,\"Qq Qq Qq\",false,false,false,true\n")  # a bad row, which must survive
    return path


def one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("prial: error: "), err
    return err


def same_text(path, text):
    assert path.read_text() == text


@pytest.mark.parametrize("name", ["same", "dot", "symlink", "hardlink", "errors", "summary", "lock"])
def test_a_file_the_job_writes_is_never_its_input(log, tmp_path, monkeypatch, capsys, name):
    original = log.read_text()
    monkeypatch.chdir(tmp_path)
    argv = {
        "same": ["deals.csv", "-o", "deals.csv"],
        "dot": ["./deals.csv", "-o", "deals.csv"],
        "errors": ["deals.csv", "-o", "out.csv", "--errors", "./deals.csv"],
    }.get(name)
    if name == "symlink":
        os.symlink("deals.csv", "alias.csv")
        argv = ["deals.csv", "-o", "alias.csv"]
    if name == "hardlink":
        os.link("deals.csv", "twin.csv")
        argv = ["twin.csv", "-o", "deals.csv", "--overwrite"]  # not even with --overwrite
    if name == "summary":  # the log named as OUTPUT.summary.json
        os.rename("deals.csv", "out.csv.summary.json")
        argv = ["out.csv.summary.json", "--format", "csv", "-o", "out.csv"]
        log = tmp_path / "out.csv.summary.json"
    if name == "lock":  # the log named as OUTPUT.lock, which the job would write its pid into
        os.rename("deals.csv", "out.csv.lock")
        argv = ["out.csv.lock", "--format", "csv", "-o", "out.csv"]
        log = tmp_path / "out.csv.lock"
    assert main(["score", *argv]) == 2
    assert "is the input" in one_error(capsys)
    same_text(log, original)


def test_an_existing_output_is_replaced_only_with_overwrite(log, tmp_path, capsys):
    out = tmp_path / "out.csv"
    out.write_text("precious\n")
    assert main(["score", str(log), "-o", str(out)]) == 1
    assert f"the output {out} exists: --overwrite replaces it" in one_error(capsys)
    same_text(out, "precious\n")
    assert main(["score", str(log), "-o", str(out), "--overwrite"]) == 0
    assert out.read_text().startswith('"deal_id"')
    capsys.readouterr()
    # the errors file and the summary count as well
    assert main(["score", str(log), "-o", str(out)]) == 1
    assert "the output" in one_error(capsys)
    os.remove(out)
    assert main(["score", str(log), "-o", str(out)]) == 1
    assert "exists: --overwrite replaces it" in one_error(capsys)


@pytest.mark.slow
def test_ctrl_c_says_what_was_committed_and_how_to_resume(tmp_path):
    log = tmp_path / "log.parquet"
    prial.write_sample_log(str(log), 60_000, seed=2, deals_per_row_group=5_000)
    out = tmp_path / "out.parquet"
    whole = tmp_path / "whole.parquet"
    # Small chunks, each committed with an fsync: the job runs for seconds,
    # so the interrupt after its first chunks lands well before its end.
    assert main(["score", str(log), "-o", str(whole), "--chunk-rows", "1000"]) == 0
    command = [sys.executable, "-m", "prial", "score", str(log), "-o", str(out), "--chunk-rows", "1000"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    journal = tmp_path / "out.parquet.parts" / "journal.jsonl"
    deadline = time.monotonic() + 60
    while (not journal.exists() or journal.read_text().count("\n") < 4) and time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the job ended before it could be interrupted: {proc.stderr.read()}")
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    *progress, last = err.splitlines()
    assert "Traceback" not in err and all(line.startswith("prial score: ") for line in progress), err
    assert last.startswith("prial: interrupted: ") and " input rows committed in " in last
    resume = shlex.split(last.split("continue with: ")[1])
    assert resume[0] == "prial" and resume[-1] == "--resume"
    assert not out.exists()  # the output appears only complete

    # run again without --resume: refused, the partial run kept
    status = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert status.returncode == 1
    assert "partial run" in status.stderr and "--resume" in status.stderr and "--overwrite" in status.stderr
    assert journal.exists()

    # the command it printed finishes the job, as if never interrupted
    assert main(resume[1:]) == 0
    assert out.read_bytes() == whole.read_bytes()
    assert not os.path.exists(f"{out}.parts")


def test_a_second_job_on_one_output_is_refused_naming_the_first(tmp_path, capsys):
    log = tmp_path / "log.parquet"
    prial.write_sample_log(str(log), 20_000, seed=3, deals_per_row_group=2_000)
    out, whole = tmp_path / "out.parquet", tmp_path / "whole.parquet"
    assert main(["score", str(log), "-o", str(whole), "--chunk-rows", "1000"]) == 0
    capsys.readouterr()
    command = [sys.executable, "-m", "prial", "score", str(log), "-o", str(out), "--chunk-rows", "1000"]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    journal = tmp_path / "out.parquet.parts" / "journal.jsonl"
    deadline = time.monotonic() + 60
    while (not journal.exists() or journal.read_text().count("\n") < 3) and time.monotonic() < deadline:
        if first.poll() is not None:
            pytest.fail(f"the first job ended before the second started: {first.stderr.read()}")
        time.sleep(0.002)
    first.send_signal(signal.SIGSTOP)  # held mid-job while the others try
    try:
        for extra in (["--resume"], [], ["--overwrite"]):
            assert main(["score", str(log), "-o", str(out), "--chunk-rows", "1000", *extra]) == 1
            assert f"another prial score (pid {first.pid}) is writing {out}" in one_error(capsys)
    finally:
        first.send_signal(signal.SIGCONT)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert out.read_bytes() == whole.read_bytes()
    assert not os.path.exists(f"{out}.parts") and not os.path.exists(f"{out}.lock")


def test_a_lock_left_by_a_dead_job_blocks_nothing(log, tmp_path):
    out = tmp_path / "out.csv"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / "out.csv.lock").write_text(f"{dead.pid}\n")  # as a kill -9 leaves it
    assert main(["score", str(log), "-o", str(out)]) == 0
    assert out.exists() and not (tmp_path / "out.csv.lock").exists()


def test_resuming_a_complete_job_does_nothing(log, tmp_path, capsys):
    out = tmp_path / "out.csv"
    assert main(["score", str(log), "-o", str(out)]) == 0
    before = {p: os.stat(p).st_mtime_ns for p in (out, f"{out}.errors.csv", f"{out}.summary.json")}
    capsys.readouterr()
    assert main(["score", str(log), "-o", str(out), "--resume"]) == 0
    assert "already complete" in capsys.readouterr().err
    assert {p: os.stat(p).st_mtime_ns for p in before} == before
    assert not os.path.exists(f"{out}.parts")


def test_a_strict_failure_leaves_nothing_behind(log, tmp_path, capsys):
    out = tmp_path / "out.csv"
    assert main(["score", str(log), "-o", str(out), "--strict"]) == 2
    assert "row " in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["deals.csv"]


@pytest.mark.parametrize("name, argv, made", [
    ("hands.txt", ["--format", "csv"], "hands.scored.csv"),
    ("deals.csv", ["--output-format", "jsonl"], "deals.scored.jsonl"),
    ("deals.ndjson", [], "deals.scored.ndjson"),
])
def test_the_default_output_has_an_extension_that_names_its_format(log, tmp_path, capsys, name, argv, made):
    text = log.read_text()
    if name.endswith("json"):
        import csv as csv_module
        import json

        with open(log, newline="") as f:
            text = "".join(json.dumps(row) + "\n" for row in csv_module.DictReader(f))
    (tmp_path / name).write_text(text)
    assert main(["score", str(tmp_path / name), *argv]) == 0
    assert (tmp_path / made).exists(), sorted(p.name for p in tmp_path.iterdir())


@pytest.mark.parametrize("flag", ["-o", "--errors"])
def test_a_missing_directory_is_said_not_made(log, tmp_path, capsys, flag):
    missing = tmp_path / "no-such-dir"
    argv = ["score", str(log), flag, str(missing / "out.csv")]
    assert main(argv) == 1
    what = "output" if flag == "-o" else "errors file"
    assert one_error(capsys) == (f"prial: error: cannot write the {what} {missing / 'out.csv'}: "
                                 f"there is no directory {missing}\n")
    assert not missing.exists()


def test_a_sample_log_into_a_missing_directory_is_one_line(tmp_path, capsys):
    missing = tmp_path / "no-such-dir"
    assert main(["sample", "--deals", "3", "-o", str(missing / "log.csv")]) == 1
    assert one_error(capsys) == (f"prial: error: cannot write the log {missing / 'log.csv'}: "
                                 f"there is no directory {missing}\n")
