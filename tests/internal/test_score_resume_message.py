"""--resume onto another job's parts says to use --overwrite, in a
sentence (the first job interrupted through the engine's internals)."""

from __future__ import annotations

import os

import pytest

from prial.cli import main

from ..test_score_targets import log, one_error  # noqa: F401 (log: a fixture)


def interrupted_run(log, out, monkeypatch, *argv: str) -> None:
    """A job stopped as by Ctrl-C after its first chunks, its parts kept."""
    from prial.logs import passes

    real, calls = passes.score_table, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(passes, "score_table", interrupted)
    assert main(["score", str(log), "-o", str(out), "--chunk-rows", "100", *argv]) == 130
    monkeypatch.setattr(passes, "score_table", real)
    assert os.path.exists(f"{out}.parts/journal.jsonl")


@pytest.mark.parametrize("change, says", [
    ("input", "the input has changed since it began"),
    ("options", "its options differ"),
])
def test_resuming_another_job_says_overwrite_in_a_sentence(log, tmp_path, monkeypatch, capsys, change, says):
    out = tmp_path / "out.csv"
    interrupted_run(log, out, monkeypatch)
    capsys.readouterr()
    if change == "input":
        with open(log, "a") as f:
            f.write("200000,0,\"As Ks Qs\",false,false,false,true\n")
    extra = ["--describe"] if change == "options" else []
    assert main(["score", str(log), "-o", str(out), "--chunk-rows", "100", "--resume", *extra]) == 1
    line = one_error(capsys)
    assert line == (f"prial: error: {out}.parts holds a partial run of another job ({says}), which --resume cannot "
                    "continue: --overwrite instead of --resume starts this job over\n")
    assert "{" not in line
    # as it says: --overwrite starts over, and the job completes
    assert main(["score", str(log), "-o", str(out), "--chunk-rows", "100", "--overwrite", *extra]) == 0
