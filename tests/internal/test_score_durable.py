"""What prial score leaves on disk when the disk lets it down: every file
it hands over is on disk before its name says so and before the parts,
the only other copy, are deleted."""

from __future__ import annotations

import os

import pytest

import prial
from prial.score.parts import Journal


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
