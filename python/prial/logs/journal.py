"""The parts directory of a job over a log, its journal, and the output
writer (``prial score``, ``prial replay``).

Crash safety: the output is built in ``OUTPUT.parts/``.  Each chunk is
done into ``part-NNNNNN.arrow`` (and ``errors-NNNNNN.arrow``; Arrow IPC
files, cheap to write and to read back), written to a temporary name,
fsynced and renamed; only then is a line appended (and fsynced) to
``journal.jsonl`` saying which input rows the part covers.  A part without
its journal line does not exist as far as ``--resume`` is concerned, so a
job killed at any moment (even ``kill -9``) resumes after the last journal
line, without duplicating or losing rows.

The final output is written alongside, chunk by chunk, under a temporary
name renamed at the end; a resumed job first rewrites it from the
committed parts, then goes on.  Its row groups have a fixed size, so the
file does not depend on where, or whether, the job was interrupted.  The
errors file and the summary are made from the parts and the journal at
the end (by the job's own ``assemble``), through ``staged`` and ``fsync``.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import threading
from collections.abc import Callable, Iterator

import pyarrow as pa

from .errors import LogError
from .io import write_tables

JOURNAL = "journal.jsonl"


def side_files(output: str, errors: str | None) -> tuple[str, str]:
    """(errors file, summary file) next to the output."""
    return errors or output + ".errors.csv", output + ".summary.json"


class WriteFailure(LogError):
    """A file of the job could not be written (a full disk, a lost mount):
    nothing half-written is left under its name or a temporary one."""


def cannot_write(what: str, path: str, exc: OSError) -> WriteFailure:
    reason = os.strerror(exc.errno) if exc.errno else str(exc)
    return WriteFailure(f"cannot write the {what} {path}: {reason}", status=1)


def discard(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def staged(what: str, path: str, write: Callable[[str], None]) -> None:
    """``write(path + ".tmp")``, then fsync it; WriteFailure naming ``path``
    (and no temporary file) if the disk refuses."""
    tmp = path + ".tmp"
    try:
        write(tmp)
        fsync(tmp)
    except OSError as exc:
        discard(tmp)
        if exc.filename not in (None, tmp):
            raise  # a file read to write this one: its own error names it
        raise cannot_write(what, path, exc) from None
    except BaseException:
        discard(tmp)
        raise


def fsync(path: str) -> None:
    """A file (closed by the writer that made it, Arrow's) or a directory."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_arrow_atomically(table: pa.Table, path: str) -> None:
    def write(tmp: str) -> None:
        with pa.OSFile(tmp, "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)

    staged("part", path, write)
    os.replace(path + ".tmp", path)
    fsync(os.path.dirname(path) or ".")


def read_arrow(path: str) -> pa.Table:
    with pa.memory_map(path) as source:
        return pa.ipc.open_file(source).read_all()


def _how_it_differs(header: object, job: dict) -> str:
    """What makes a journal's job another than ``job``, in words."""
    if not isinstance(header, dict):
        return "its journal has no header"
    if header.get("input") != job.get("input"):
        return f"it reads {header.get('input')}"
    said = []
    if any(header.get(key) != job.get(key) for key in set(header) | set(job) if key not in ("format", "options")):
        said.append("the input has changed since it began")
    if header.get("format") != job.get("format"):
        said.append(f"it reads the input as {header.get('format')}")
    if header.get("options") != job.get("options"):
        said.append("its options differ")
    return "; ".join(said)


class Journal:
    """The parts directory of one output and its journal of committed parts."""

    def __init__(self, parts_dir: str) -> None:
        self.dir = parts_dir
        self.path = os.path.join(self.dir, JOURNAL)

    @classmethod
    def for_output(cls, output: str) -> Journal:
        return cls(output + ".parts")

    def part_path(self, index: int) -> str:
        return os.path.join(self.dir, f"part-{index:06d}.arrow")

    def errors_path(self, index: int) -> str:
        return os.path.join(self.dir, f"errors-{index:06d}.arrow")

    def start(self, job: dict, resume: bool) -> list[dict]:
        """The parts committed by an interrupted run of the same job (with
        ``resume``), else an empty, fresh directory."""
        if resume and os.path.exists(self.path):
            header, entries, good_bytes = self._read()
            if header != job:
                raise LogError(f"{self.dir} holds a partial run of another job ({_how_it_differs(header, job)}), "
                                 "which --resume cannot continue: --overwrite instead of --resume starts this "
                                 "job over", status=1)
            with open(self.path, "rb+") as f:  # drop a line torn by the kill
                f.truncate(good_bytes)
                os.fsync(f.fileno())
            return entries
        shutil.rmtree(self.dir, ignore_errors=True)
        try:
            os.makedirs(self.dir)
            self._append(job)
        except (OSError, WriteFailure) as exc:
            shutil.rmtree(self.dir, ignore_errors=True)  # a journal without its header is no partial run
            if isinstance(exc, WriteFailure):
                raise
            raise cannot_write("parts directory", self.dir, exc) from None
        return []

    def _read(self) -> tuple[dict | None, list[dict], int]:
        header, entries, good = None, [], 0
        with open(self.path, "rb") as f:
            for line in f:
                if not line.endswith(b"\n"):
                    break
                try:
                    record = json.loads(line)
                except ValueError:
                    break
                good += len(line)
                if header is None:
                    header = record
                else:
                    entries.append(record)
        return header, entries, good

    def _append(self, record: dict) -> None:
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(record, sort_keys=True) + "\n")
                f.flush()
                os.fsync(f.fileno())
            fsync(self.dir)
        except OSError as exc:  # a torn line is dropped on resume, as after a kill
            raise cannot_write("journal", self.path, exc) from None

    def write_part(self, index: int, table: pa.Table, errors: pa.Table) -> None:
        write_arrow_atomically(table, self.part_path(index))
        if errors.num_rows:
            write_arrow_atomically(errors, self.errors_path(index))

    def commit(self, index: int, table: pa.Table, errors: pa.Table, rows_start: int, rows_end: int,
               counts: dict, read: dict | None = None) -> dict:
        """Writes the part (its output rows and bad rows) and its journal
        line: the rows it covers, ``counts`` (what the job tallies of it)
        and ``read`` (what the input was when the part was read,
        ``prial.logs.fingerprint``)."""
        self.write_part(index, table, errors)
        entry = {**(read or {}), "part": index, "rows_start": rows_start, "rows_end": rows_end,
                 "rows_out": table.num_rows, "bad_rows": errors.num_rows, **counts}
        self._append(entry)
        return entry

    def committed_rows(self) -> int:
        """Input rows the committed parts cover (0 without a journal)."""
        if not os.path.exists(self.path):
            return 0
        _, entries, _ = self._read()
        return entries[-1]["rows_end"] if entries else 0

    def remove(self) -> None:
        # The journal goes first: a job killed during the rmtree must not
        # leave a journal naming parts already deleted, which --resume
        # cannot read back (found by tests/test_score_faults.py).  Without
        # the journal, --resume starts afresh and writes the same output.
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass
        else:
            fsync(self.dir)
        shutil.rmtree(self.dir, ignore_errors=True)


class OutputWriter:
    """Writes the final output on a thread of its own while the next chunks
    are scored: Arrow encodes Parquet/CSV without the GIL, so on two cores
    writing overlaps scoring.  The queue holds at most two chunks, so memory
    stays bounded.  The file is written under a temporary name and renamed
    by the job's ``assemble``, with the errors file and the summary."""

    def __init__(self, path: str, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self._queue: queue.Queue[pa.Table | None] = queue.Queue(maxsize=2)
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def put(self, table: pa.Table) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(table.schema,), daemon=True)
            self._thread.start()
        self._queue.put(table)
        if self._error is not None:
            raise self._error

    def _run(self, schema: pa.Schema) -> None:
        ended = False

        def tables() -> Iterator[pa.Table]:
            nonlocal ended
            while (table := self._queue.get()) is not None:
                yield table
            ended = True

        try:
            write_tables(self.path + ".tmp", self.fmt, schema, tables())
        except BaseException as exc:  # handed to the producer
            self._error = cannot_write("output", self.path, exc) if isinstance(exc, OSError) else exc
            # Never leave the producer blocked; a writer that failed as it
            # closed the file has already had the end.
            while not ended and self._queue.get() is not None:
                pass

    def close(self) -> None:
        """The whole output on disk under its temporary name (else the
        error, and no temporary file)."""
        self._stop()
        if self._error is not None:
            self.abandon()
            raise self._error
        staged("output", self.path, lambda tmp: None)

    def abandon(self) -> None:
        self._stop()
        discard(self.path + ".tmp")

    def _stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None


def write_json(path: str, record: dict) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=2)
        f.write("\n")


def finish(journal: Journal, output: str, errors: str | None, write_errors: Callable[[str], None],
           summary: dict) -> None:
    """The errors file (``write_errors(path)``) and the summary written
    beside the output (itself written, under its temporary name); then the
    three are renamed into place, and the parts go.  All or nothing: if
    one cannot be written, none replaces what was there, no temporary file
    stays, and the parts are kept.  The summary should keep the job (what
    the journal's header said), so that resuming a complete job is seen to
    be one."""
    errors_path, summary_path = side_files(output, errors)
    try:
        staged("errors file", errors_path, write_errors)
        staged("summary", summary_path, lambda tmp: write_json(tmp, summary))
    except BaseException:
        for path in (output, errors_path, summary_path):
            discard(path + ".tmp")
        raise
    # Each file is whole on disk before its name says so, and the renames
    # are on disk before the parts, the only other copy, go.
    for path in (output, errors_path, summary_path):
        os.replace(path + ".tmp", path)
    for folder in {os.path.dirname(os.path.abspath(path)) for path in (output, errors_path, summary_path)}:
        fsync(folder)
    journal.remove()
