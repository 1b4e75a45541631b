"""What prial score leaves on disk when the disk lets it down: every file
it hands over is on disk before its name says so and before the parts,
the only other copy, are deleted."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys

import pytest

import prial
from prial.cli import main
from prial.logs import journal
from prial.logs.journal import Journal, WriteFailure
from prial.score import parts


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("durable") / "log.csv"
    prial.write_sample_log(str(path), 2_000, seed=4)
    with open(path, "a") as f:
        f.write("999999,0,\"Qq Qq Qq\",false,false,false,true\n")  # a bad row: the errors file has one
    return path


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_each_file_is_fsynced_before_its_rename_and_the_directory_before_the_parts_go(
        log, tmp_path, monkeypatch, fmt):
    out = tmp_path / f"out.{fmt}"
    events: list[tuple] = []
    fsync, replace, remove = os.fsync, os.replace, Journal.remove

    def recorded_fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return fsync(fd)

    def recorded_replace(src, dst, **kwargs):
        events.append(("replace", os.fspath(src), os.fspath(dst)))
        return replace(src, dst, **kwargs)

    def recorded_remove(self):
        events.append(("remove parts",))
        return remove(self)

    monkeypatch.setattr(os, "fsync", recorded_fsync)
    monkeypatch.setattr(os, "replace", recorded_replace)
    monkeypatch.setattr(Journal, "remove", recorded_remove)
    summary = prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=500))
    assert summary.bad_rows == 1

    gone = events.index(("remove parts",))
    renamed = []
    for path in (str(out), f"{out}.errors.csv", f"{out}.summary.json"):
        rename = events.index(("replace", path + ".tmp", path))
        assert ("fsync", path + ".tmp") in events[:rename], f"{path} renamed before it was on disk"
        renamed.append(rename)
    assert ("fsync", str(tmp_path)) in events[max(renamed):gone], "the parts went before the renames were on disk"


def disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "Error writing bytes to file")


def writes_then_fails(module, suffix: str):
    """``write_tables`` that writes some of a file ending in ``suffix``
    and then finds the disk full, as Arrow's writers do."""
    real = module.write_tables

    def write_tables(path, fmt, schema, tables):
        if not path.endswith(suffix):
            return real(path, fmt, schema, tables)
        with open(path, "wb") as f:
            f.write(b"half a file")
        for _ in tables:  # the producer is not left waiting
            pass
        disk_full()

    return write_tables


def leftovers(folder) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.name.endswith(".tmp"))


@pytest.mark.parametrize("what, fault", [
    ("output", lambda mp, out: mp.setattr(journal, "write_tables", writes_then_fails(journal, ".csv.tmp"))),
    ("errors file", lambda mp, out: mp.setattr(parts, "write_tables", writes_then_fails(parts, ".errors.csv.tmp"))),
    ("summary", lambda mp, out: mp.setattr(journal, "write_json", disk_full)),
])
def test_a_full_disk_leaves_all_or_nothing_and_names_the_file(log, tmp_path, monkeypatch, capsys, what, fault):
    out = tmp_path / "out.csv"
    whole = tmp_path / "whole.csv"
    assert main(["score", str(log), "-o", str(whole), "--chunk-rows", "500"]) == 0
    old = {path: f"an earlier {path.name}\n" for path in (out, tmp_path / "out.csv.errors.csv",
                                                          tmp_path / "out.csv.summary.json")}
    for path, text in old.items():
        path.write_text(text)
    capsys.readouterr()
    fault(monkeypatch, out)
    assert main(["score", str(log), "-o", str(out), "--chunk-rows", "500", "--overwrite", "--progress", "none"]) == 1
    err = capsys.readouterr().err
    named = {"output": out, "errors file": f"{out}.errors.csv", "summary": f"{out}.summary.json"}[what]
    assert err.count("\n") == 1 and err.startswith(f"prial: error: cannot write the {what} {named}: "
                                                   "No space left on device"), err
    assert leftovers(tmp_path) == []
    assert {path: path.read_text() for path in old} == old  # nothing replaced
    # What was scored is kept, and a resume once there is room gives the whole job.
    assert "--resume goes on" in err
    monkeypatch.undo()
    assert main(["score", str(log), "-o", str(out), "--chunk-rows", "500", "--resume"]) == 0
    assert out.read_bytes() == whole.read_bytes()


def test_a_full_disk_while_committing_a_part_leaves_no_temporary_file(log, tmp_path, monkeypatch):
    out = tmp_path / "out.parquet"
    commit, calls = Journal.commit, []

    def fails_at_the_third(self, index, *args):
        calls.append(index)
        if len(calls) == 3:
            with open(self.part_path(index) + ".tmp", "wb") as f:
                f.write(b"half a part")
            monkeypatch.setattr(journal.pa, "OSFile", disk_full)
        return commit(self, index, *args)

    monkeypatch.setattr(Journal, "commit", fails_at_the_third)
    with pytest.raises(WriteFailure, match=r"cannot write the part .*part-000002\.arrow: No space left"):
        prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=500))
    assert leftovers(tmp_path) == [] and not out.exists()


def test_a_full_disk_before_anything_is_committed_leaves_nothing(log, tmp_path, monkeypatch):
    out = tmp_path / "out.csv"
    monkeypatch.setattr(journal.pa, "OSFile", disk_full)
    with pytest.raises(WriteFailure, match="part-000000.arrow: No space left on device$"):
        prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=500))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.fixture
def tiny_disk(tmp_path):
    """A 1 MiB tmpfs, where this process may mount one (else skipped)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def test_scoring_onto_a_full_tmpfs_is_one_line_and_leaves_no_temporary_file(tiny_disk, tmp_path):
    log = tmp_path / "big.csv"
    prial.write_sample_log(str(log), 20_000, seed=1)
    done = subprocess.run([sys.executable, "-m", "prial", "score", str(log), "-o", str(tiny_disk / "out.csv")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "cannot write the " in done.stderr, done.stderr
    assert "No space left on device" in done.stderr and str(tiny_disk) in done.stderr
    assert leftovers(tiny_disk) == [] and not (tiny_disk / "out.csv").exists()
