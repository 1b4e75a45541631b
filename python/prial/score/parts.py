"""The parts directory of a scoring job, its journal, and the output writer.

Crash safety: the output is built in ``OUTPUT.parts/``.  Each chunk of
whole deals is scored into ``part-NNNNNN.arrow`` (and ``errors-NNNNNN.arrow``;
Arrow IPC files, cheap to write and to read back), written to a temporary
name, fsynced and renamed; only then is a line appended (and fsynced) to
``journal.jsonl`` saying which input rows the part covers.  A part without
its journal line does not exist as far as ``--resume`` is concerned, so a
job killed at any moment (even ``kill -9``) resumes after the last journal
line, without duplicating or losing rows.

The final output is written alongside, chunk by chunk, under a temporary
name renamed at the end; a resumed job first rewrites it from the committed
parts, then goes on.  Its row groups have a fixed size, so the file does
not depend on where, or whether, the job was interrupted.  The errors file
and the summary are made from the parts and the journal at the end.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import threading
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc

from .chunk import ERRORS_SCHEMA, ChunkResult
from .columns import CATEGORY_NAMES
from .io import write_tables
from .types import ScoreError, ScoreSummary

JOURNAL = "journal.jsonl"


def side_files(output: str, errors: str | None) -> tuple[str, str]:
    """(errors file, summary file) next to the output."""
    return errors or output + ".errors.csv", output + ".summary.json"


def _fsync(path: str) -> None:
    """A file (closed by the writer that made it, Arrow's) or a directory."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_arrow_atomically(table: pa.Table, path: str) -> None:
    tmp = path + ".tmp"
    with pa.OSFile(tmp, "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync(os.path.dirname(path) or ".")


def read_arrow(path: str) -> pa.Table:
    with pa.memory_map(path) as source:
        return pa.ipc.open_file(source).read_all()


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
                raise ScoreError(f"{self.dir} belongs to a different job ({header}); "
                                 "run without --resume to start over")
            with open(self.path, "rb+") as f:  # drop a line torn by the kill
                f.truncate(good_bytes)
                os.fsync(f.fileno())
            return entries
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self._append(job)
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
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
        _fsync(self.dir)

    def write_part(self, index: int, result: ChunkResult) -> None:
        write_arrow_atomically(result.table, self.part_path(index))
        if result.errors.num_rows:
            write_arrow_atomically(result.errors, self.errors_path(index))

    def commit(self, index: int, result: ChunkResult, rows_start: int, rows_end: int) -> dict:
        self.write_part(index, result)
        entry = {
            "part": index, "rows_start": rows_start, "rows_end": rows_end,
            "rows_out": result.table.num_rows, "bad_rows": result.errors.num_rows,
            "deals": result.deals, "invalid_deals": result.invalid_deals,
            "disputes": result.disputes, "categories": result.categories,
        }
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
            _fsync(self.dir)
        shutil.rmtree(self.dir, ignore_errors=True)


class OutputWriter:
    """Writes the final output on a thread of its own while the next chunks
    are scored: Arrow encodes Parquet/CSV without the GIL, so on two cores
    writing overlaps scoring.  The queue holds at most two chunks, so memory
    stays bounded.  The file is written under a temporary name and renamed
    by close()."""

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
        try:
            write_tables(self.path + ".tmp", self.fmt, schema, iter(self._queue.get, None))
        except BaseException as exc:  # handed to the producer
            self._error = exc
            while self._queue.get() is not None:  # never leave the producer blocked
                pass

    def close(self) -> None:
        self._stop()
        if self._error is not None:
            raise self._error
        _fsync(self.path + ".tmp")  # whole on disk before its name says it is done
        os.replace(self.path + ".tmp", self.path)

    def abandon(self) -> None:
        self._stop()
        if os.path.exists(self.path + ".tmp"):
            os.remove(self.path + ".tmp")

    def _stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None


def assemble(journal: Journal, entries: list[dict], input: str, output: str, errors: str | None, *,
             seconds: float, job: dict, resumed_rows: int = 0, engine: str = "local") -> ScoreSummary:
    """Errors file and summary from the committed parts (the output is
    written); then the parts go.  The summary file keeps ``job`` (what the
    journal's header said), so that resuming a complete job is seen to be
    one."""
    errors_path, summary_path = side_files(output, errors)

    def error_tables() -> Iterator[pa.Table]:
        for e in entries:
            if e["bad_rows"]:
                table = read_arrow(journal.errors_path(e["part"]))
                shift = e.get("row_shift", 0)  # parts scored without knowing their first row
                if shift:
                    for name in ("row", "line"):
                        table = table.set_column(table.schema.get_field_index(name), name,
                                                 pc.add(table[name], shift))
                yield table

    write_tables(errors_path + ".tmp", "csv", ERRORS_SCHEMA, error_tables())
    _fsync(errors_path + ".tmp")
    os.replace(errors_path + ".tmp", errors_path)

    categories: dict[str, int] = {}
    for e in entries:
        for name, count in e["categories"].items():
            categories[name] = categories.get(name, 0) + count
    summary = ScoreSummary(
        input=input, output=output, errors=errors_path,
        rows_in=sum(e["rows_end"] - e["rows_start"] for e in entries),
        rows_out=sum(e["rows_out"] for e in entries),
        bad_rows=sum(e["bad_rows"] for e in entries),
        deals=sum(e["deals"] for e in entries),
        invalid_deals=sum(e["invalid_deals"] for e in entries),
        disputes=sum(e["disputes"] for e in entries),
        categories={name: categories[name] for name in CATEGORY_NAMES if name in categories},
        seconds=seconds, engine=engine, resumed_rows=resumed_rows,
    )
    with open(summary_path + ".tmp", "w", encoding="utf-8") as f:
        json.dump({**summary.as_dict(), "job": job}, f, indent=2)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(summary_path + ".tmp", summary_path)
    # The parts are the only durable copy until the renames are on disk.
    for folder in {os.path.dirname(os.path.abspath(path)) for path in (output, errors_path, summary_path)}:
        _fsync(folder)
    journal.remove()
    return summary
