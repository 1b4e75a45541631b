"""Where a job over a log writes, and what it may replace.

A job writes its output, an errors file, a summary and a parts directory
(``prial.logs.journal``).  None of them may be the input, however it is
named (``./x`` and ``x``, a symbolic or a hard link): writing a log onto
itself would replace the log.  None that exists is replaced unless asked
(``overwrite``), and a partial run in the parts directory is never thrown
away silently: it is resumed (``resume``) or replaced (``overwrite``).
"""

from __future__ import annotations

import os

from .errors import LogError
from .journal import JOURNAL, Journal, side_files
from .lock import lock_path


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
    """LogError (exit 1) unless the directory ``path`` is to be written in
    exists: no directory is made, so a mistyped one is said, not made."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise LogError(f"cannot write the {what} {path}: there is no directory {folder}", status=1)


def check_names(input: str, output: str, errors: str | None) -> None:
    """What holds whatever else runs (LogError, exit 2, if not): no file of
    the job is the input or another of its files, every directory exists."""
    files = job_files(output, errors)
    named = list(files.items())
    for i, (what, path) in enumerate(named):
        check_directory(path, what)
        if same_file(path, input):
            raise LogError(f"the {what} {path} is the input {input}: writing it would replace the log; "
                           "name another output with -o")
        for other, other_path in named[:i]:
            if same_file(path, other_path):
                raise LogError(f"the {what} and the {other} are the same file, {path}")


def check_existing(output: str, errors: str | None, *, overwrite: bool, resume: bool, job: str) -> None:
    """What another job could change (LogError, exit 1, if a file exists
    that may not be replaced): run under the job's lock
    (``prial.logs.lock``).  ``job`` names its kind in a message ("scoring")."""
    files = job_files(output, errors)
    journal = os.path.join(files["parts directory"], JOURNAL)
    if os.path.exists(journal) and not (resume or overwrite):
        raise LogError(f"{files['parts directory']} holds a partial run of a {job} job: --resume "
                       f"continues it, --overwrite starts over", status=1)
    if overwrite or resume:
        return
    for what, path in files.items():
        if what not in ("parts directory", "lock file") and os.path.lexists(path):
            raise LogError(f"the {what} {path} exists: --overwrite replaces it", status=1)
