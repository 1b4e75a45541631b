"""A replay of a JSON Lines log (read record by record) interrupted after
some chunks resumes to the bytes of a run never interrupted: the records
the committed parts hold are read again only to find where to go on."""

from __future__ import annotations

import pytest

import prial
from prial.logs.journal import Journal

from ..replay_logs import jsonl_copies, sampled


def test_a_json_lines_replay_resumes_to_the_same_bytes(tmp_path, monkeypatch):
    log = tmp_path / "deals.jsonl"
    jsonl_copies(log, sampled(120, seed=3), 2)
    with open(log, "a") as f:
        f.write("{cut short\n")
    whole = prial.replay_file(log, tmp_path / "whole.csv", chunk_rows=50)
    commit, calls = Journal.commit, []

    def killed_after_two(self, *args, **kwargs):
        if len(calls) == 2:
            raise KeyboardInterrupt  # stands for the kill
        calls.append(1)
        return commit(self, *args, **kwargs)

    monkeypatch.setattr(Journal, "commit", killed_after_two)
    with pytest.raises(KeyboardInterrupt):
        prial.replay_file(log, tmp_path / "out.csv", chunk_rows=50)
    monkeypatch.undo()
    resumed = prial.replay_file(log, tmp_path / "out.csv", chunk_rows=50, resume=True)
    assert resumed.resumed_records == 100 and resumed.findings == whole.findings and resumed.bad_records == 1
    assert (tmp_path / "out.csv").read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert (tmp_path / "out.csv.errors.csv").read_bytes() == (tmp_path / "whole.csv.errors.csv").read_bytes()
