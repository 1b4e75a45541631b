"""Where a scoring job writes, and what it may replace.

A job writes its output, an errors file, a summary and a parts directory
(``prial.score.parts``).  None of them may be the input, however it is
named (``./x`` and ``x``, a symbolic or a hard link): scoring a log onto
itself would replace the log.  None that exists is replaced unless asked
(``overwrite``), and a partial run in the parts directory is never thrown
away silently: it is resumed (``resume``) or replaced (``overwrite``).
"""

from __future__ import annotations

import json
import os

from .lock import lock_path
from .parts import JOURNAL, Journal, side_files
from .types import ScoreError, ScoreSummary


def job_files(output: str, errors: str | None) -> dict[str, str]:
    """What the job writes, by what a message calls it."""
    errors_path, summary_path = side_files(output, errors)
    return {"output": output, "errors file": errors_path, "summary": summary_path,
            "parts directory": Journal.for_output(output).dir, "lock file": lock_path(output)}


def same_file(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` one file, however named (a link, ``./x``)?"""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links
    except OSError:
        return False  # one of them does not exist yet


def check_directory(path: str, what: str) -> None:
    """ScoreError (exit 1) unless the directory ``path`` is to be written in
    exists: no directory is made, so a mistyped one is said, not made."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ScoreError(f"cannot write the {what} {path}: there is no directory {folder}", status=1)


def check_targets(input: str, output: str, errors: str | None, *, overwrite: bool, resume: bool) -> None:
    """ScoreError (exit 2) if a file the job writes is the input or another
    of its files; ScoreError (exit 1) if one exists and may not be replaced,
    or its directory does not."""
    check_names(input, output, errors)
    check_existing(output, errors, overwrite=overwrite, resume=resume)


def check_names(input: str, output: str, errors: str | None) -> None:
    """The half of ``check_targets`` that holds whatever else runs: no file
    of the job is the input or another of its files, every directory exists."""
    files = job_files(output, errors)
    named = list(files.items())
    for i, (what, path) in enumerate(named):
        check_directory(path, what)
        if same_file(path, input):
            raise ScoreError(f"the {what} {path} is the input {input}: scoring would replace the log; "
                             "name another output with -o")
        for other, other_path in named[:i]:
            if same_file(path, other_path):
                raise ScoreError(f"the {what} and the {other} are the same file, {path}")


def check_existing(output: str, errors: str | None, *, overwrite: bool, resume: bool) -> None:
    """The half of ``check_targets`` another job could change: run under the
    job's lock (``prial.score.lock``)."""
    files = job_files(output, errors)
    journal = os.path.join(files["parts directory"], JOURNAL)
    if os.path.exists(journal) and not (resume or overwrite):
        raise ScoreError(f"{files['parts directory']} holds a partial run of a scoring job: --resume "
                         f"continues it, --overwrite starts over", status=1)
    if overwrite or resume:
        return
    for what, path in files.items():
        if what not in ("parts directory", "lock file") and os.path.lexists(path):
            raise ScoreError(f"the {what} {path} exists: --overwrite replaces it", status=1)


def summary_of_complete_job(output: str, errors: str | None, job: dict) -> ScoreSummary | None:
    """The summary of this very job if it already ran to the end (its
    output and summary are there, its parts are gone), else None."""
    files = job_files(output, errors)
    if os.path.exists(os.path.join(files["parts directory"], JOURNAL)) or not os.path.exists(output):
        return None
    try:
        with open(files["summary"], encoding="utf-8") as f:
            written = json.load(f)
    except (OSError, ValueError):
        return None
    if written.get("job") != job:
        return None
    return ScoreSummary(
        input=written["input"], output=written["output"], errors=written["errors"], rows_in=written["rows_in"],
        rows_out=written["rows_out"], bad_rows=written["bad_rows"], deals=written["deals"],
        invalid_deals=written["invalid_deals"], disputes=written["disputes"], categories=written["categories"],
        uncontested=written.get("uncontested", 0), no_result=written.get("no_result", 0),
        seconds=0.0, engine=written["engine"], resumed_rows=written["rows_in"],
    )
