"""``prial replay``: one job over a history log, on the local engine or on
Dask, written and resumed as ``prial score`` writes and resumes
(prial.logs.journal): the findings, an errors file of bad records, and a
summary beside them."""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pyarrow as pa

from ..logs.errors import LogError
from ..logs.fingerprint import InputHash
from ..logs.formats import detect_format, format_of_suffix
from ..logs.histories import CHUNK_ROWS
from ..logs.histories.read import file_format, read_tables
from ..logs.io import write_tables
from ..logs.journal import JOURNAL, Journal, OutputWriter, WriteFailure, finish, read_arrow, side_files
from ..logs.lock import JobLock
from ..logs.options import check_chunk_rows, check_engine
from ..logs.progress import Progress
from ..logs.targets import check_existing, check_names
from ..table import FINDINGS, TableRules
from .columns import errors_schema, findings_schema, position_label
from .source import Chunk, chunks, counts, nested_file
from .summary import ReplaySummary

Tables = Mapping[str, TableRules] | str | os.PathLike[str] | None


def default_output(input_path: str, fmt: str) -> str:
    """LOG.replay.EXT: EXT the log's own if it names ``fmt``, else that
    format's (``deals.jsonl.gz`` gives ``deals.replay.jsonl``)."""
    path = Path(input_path)
    if path.suffix.lower() == ".gz":
        path = path.with_suffix("")
    suffix = path.suffix if format_of_suffix(path.suffix) == fmt else f".{fmt}"
    return str(path.with_name(path.stem + ".replay" + suffix))


def replay_file(input: str | os.PathLike[str], output: str | os.PathLike[str] | None = None, *,
                errors: str | None = None, tables: Tables = None, input_format: str | None = None,
                output_format: str | None = None, strict: bool = False, resume: bool = False,
                overwrite: bool = False, progress: Progress | None = None, engine: str = "local",
                scheduler: str | None = None, workers: int = 2, threads: int | None = None,
                chunk_rows: int = CHUNK_ROWS) -> ReplaySummary:
    """Replays every deal of a history log (docs/histories.md, "prial
    replay") into a row of findings each.

    Writes ``output`` (default LOG.replay.EXT; CSV, JSON Lines or Parquet
    from its extension or ``output_format``), the errors file (CSV, default
    OUTPUT.errors.csv: a bad record's line or row, the reason, the record)
    and OUTPUT.summary.json.  ``tables``: the rules records name by
    rules_ref, as a mapping or a rules-table JSON file.  ``strict``: the
    first bad record stops the job (LogError naming it), nothing written.
    None of the files may be the input; none that exists is replaced
    without ``overwrite``; ``resume`` finishes an interrupted run (the
    same output, byte for byte) and does nothing for a complete one.
    ``engine="dask"``: the chunks replayed on a Dask cluster
    (``scheduler``, or a local one of ``workers`` processes); the output is
    the local engine's, byte for byte.  ``threads``: native threads for
    the replay (default: all cores)."""
    input = str(input)
    fmt_in = file_format(input, input_format)[0]
    output = str(output) if output is not None else default_output(input, output_format or fmt_in)
    fmt_out = detect_format(output, output_format)
    check_engine(engine)
    check_chunk_rows(chunk_rows)
    check_names(input, output, errors)
    if engine == "dask" and resume:
        raise LogError("--resume is for the local engine; a failed Dask job is simply rerun")
    rules = read_tables(tables) if isinstance(tables, (str, os.PathLike)) else tables
    if not os.path.exists(input):
        raise LogError(f"{input}: no such file", status=1)
    with JobLock(output, "prial replay"):
        check_existing(output, errors, overwrite=overwrite, resume=resume, job="replay")
        job = Job(input, output, errors, fmt_in, fmt_out, rules, chunk_rows, strict, threads,
                  progress or Progress("none", label="prial replay"))
        if engine == "dask":
            from .dask_engine import replay_dask

            source = replay_dask(input, fmt_in, rules, chunk_rows, threads, scheduler, workers)
            return job.run(source, resume=False, engine="dask")
        return job.run(None, resume=resume, engine="local")


@dataclasses.dataclass
class Job:
    input: str
    output: str
    errors: str | None
    fmt_in: str
    fmt_out: str
    tables: Mapping[str, TableRules] | None
    chunk_rows: int
    strict: bool
    threads: int | None
    progress: Progress

    @property
    def label(self) -> str:
        return position_label(self.fmt_in)

    def header(self) -> dict[str, object]:
        """What the job is, as its journal and its summary record it: the
        input by its content, and what changes the output (not threads)."""
        size = os.stat(self.input).st_size
        read = InputHash(self.input)
        try:
            hashed = read.advance(size)
        finally:
            read.close()
        tables = {name: rules.to_dict() for name, rules in sorted((self.tables or {}).items())}
        return {"input": os.path.abspath(self.input), "size": size, "format": self.fmt_in, **hashed,
                "options": json.dumps({"chunk_rows": self.chunk_rows, "tables": tables, "strict": self.strict},
                                      sort_keys=True)}

    def chunks(self, skip: int) -> Iterator[Chunk]:
        return chunks(self.input, self.fmt_in, self.tables, self.chunk_rows, self.threads, skip)

    def run(self, source: Iterator[Chunk] | None, *, resume: bool, engine: str) -> ReplaySummary:
        """The job, its chunks from ``source`` (None: replayed here, after
        what an earlier run committed)."""
        started = time.perf_counter()
        header = self.header()
        journal = Journal.for_output(self.output)
        if resume and not os.path.exists(journal.path) and os.path.exists(self.output):
            done_before = self._complete(header)
            if done_before is not None:
                journal.remove()  # what a kill during the last clean-up left
                return done_before
        entries = journal.start(header, resume)
        resumed = entries[-1]["rows_end"] if entries else 0
        file = nested_file(self.input, self.fmt_in)
        self.progress.begin("replaying", unit="rows", total=file.metadata.num_rows if file else None,
                            resumed_rows=resumed)
        writer = OutputWriter(self.output, self.fmt_out)
        done = resumed
        try:
            for e in entries:  # parts of the interrupted run come first
                writer.put(read_arrow(journal.part_path(e["part"])))
            for chunk in source if source is not None else self.chunks(resumed):
                if self.strict and chunk.errors.num_rows:
                    first = chunk.errors.slice(0, 1).to_pylist()[0]
                    raise LogError(f"{self.input}: {self.label} {first[self.label]}: {first['reason']}")
                entries.append(journal.commit(len(entries), chunk.findings, chunk.errors, done, chunk.records,
                                              counts(chunk)))
                writer.put(chunk.findings)
                done = chunk.records
                self.progress.update(done)
            if not entries:  # an empty log still gets an output with its columns
                empty = Chunk(findings_schema(self.label).empty_table(), errors_schema(self.label).empty_table(), 0)
                entries.append(journal.commit(0, empty.findings, empty.errors, 0, 0, counts(empty)))
                writer.put(empty.findings)
            writer.close()
        except LogError as exc:
            writer.abandon()
            if isinstance(exc, WriteFailure) and engine == "local" and journal.committed_rows():
                raise WriteFailure(f"{exc} ({journal.committed_rows():,} records replayed stay in {journal.dir}: "
                                   "--resume goes on from them)", status=exc.status) from None
            journal.remove()  # --strict stopped: resuming would stop there again
            raise
        except BaseException:  # a kill or Ctrl-C: the committed parts stay for --resume
            writer.abandon()
            if engine != "local":
                journal.remove()
            raise
        summary = self._summary(entries, time.perf_counter() - started, engine, resumed)

        def error_tables() -> Iterator[pa.Table]:
            for e in entries:
                if e["bad_rows"]:
                    yield read_arrow(journal.errors_path(e["part"]))

        finish(journal, self.output, self.errors,
               lambda tmp: write_tables(tmp, "csv", errors_schema(self.label), error_tables()),
               {**summary.to_dict(), "job": header})
        self.progress.finish(done)
        return summary

    def _summary(self, entries: list[dict], seconds: float, engine: str, resumed: int) -> ReplaySummary:
        findings = {name: sum(e["findings"][name] for e in entries) for name in FINDINGS}
        before = [e for e in entries if e["rows_end"] <= resumed]
        return ReplaySummary(
            input=self.input, output=self.output, errors=side_files(self.output, self.errors)[0],
            records=entries[-1]["rows_end"], deals=sum(e["rows_out"] for e in entries),
            bad_records=sum(e["bad_rows"] for e in entries), actions=sum(e["actions"] for e in entries),
            findings=findings, seconds=seconds, engine=engine, resumed_records=resumed,
            resumed_actions=sum(e["actions"] for e in before))

    def _complete(self, header: dict[str, object]) -> ReplaySummary | None:
        """The summary of this very job if it already ran to the end."""
        parts = Journal.for_output(self.output).dir
        if os.path.exists(os.path.join(parts, JOURNAL)):
            return None
        try:
            with open(side_files(self.output, self.errors)[1], encoding="utf-8") as f:
                written = json.load(f)
        except (OSError, ValueError):
            return None
        if written.get("job") != header:
            return None
        done = ReplaySummary.from_dict(written)
        return dataclasses.replace(done, resumed_records=done.records, resumed_actions=done.actions,
                                   already_complete=True)
