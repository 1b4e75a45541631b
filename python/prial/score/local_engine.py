"""``prial score --engine local``: this process, chunk by chunk, resumable
(see ``prial.logs.journal`` for how a killed job resumes)."""

from __future__ import annotations

import dataclasses
import os
import time

from ..logs.chunk import score_table
from ..logs.columns import DEAL_COLUMN
from ..logs.fingerprint import InputHash, read_as_before
from ..logs.formats import line_offset
from ..logs.io import InputReader
from ..logs.journal import Journal, OutputWriter, WriteFailure, read_arrow
from ..logs.options import ScoreOptions
from ..logs.passes import scored_chunks, split_deals
from ..logs.progress import Progress
from .parts import assemble, commit_chunk
from .targets import summary_of_complete_job
from .types import ScoreError, ScoreSummary


def score_local(input: str, output: str, fmt_in: str, fmt_out: str, options: ScoreOptions,
                errors: str | None, resume: bool, progress: Progress | None) -> ScoreSummary:
    """Scores ``input`` into ``output`` here; called by ``score_file``."""
    started = time.perf_counter()
    reader = InputReader(input, fmt_in, options.chunk_rows)
    journal = Journal.for_output(output)
    size = os.stat(input).st_size
    # The input is known by its content (prial.logs.fingerprint), not its times.
    job = {"input": os.path.abspath(input), "size": size, "format": fmt_in,
           "options": repr(dataclasses.replace(options, threads=None))}  # threads do not change the output
    if resume and not os.path.exists(journal.path) and os.path.exists(output):
        with_content = InputHash(input)
        done_before = summary_of_complete_job(output, errors, {**job, **with_content.advance(size)})
        with_content.close()
        if done_before is not None:
            reader.close()
            journal.remove()  # what a kill during the last clean-up left
            return dataclasses.replace(done_before, already_complete=True)
    try:
        entries = journal.start(job, resume)
        fingerprint = read_as_before(input, entries[-1] if entries else {})
    except BaseException:
        reader.close()
        raise
    resumed_rows = entries[-1]["rows_end"] if entries else 0
    progress = progress or Progress("none")
    deal_log = DEAL_COLUMN in reader.schema.names
    split = split_deals(input, fmt_in, options.chunk_rows, progress) if deal_log else None
    progress.begin("scoring", unit=reader.unit, total=reader.total, resumed_rows=resumed_rows)
    offset = line_offset(fmt_in)
    done = resumed_rows
    writer = OutputWriter(output, fmt_out)
    try:
        for e in entries:  # parts of the interrupted run come first
            writer.put(read_arrow(journal.part_path(e["part"])))
        for chunk, result in scored_chunks(reader.tables(skip=resumed_rows), deal_log, options, offset, split,
                                           first_row=resumed_rows):
            entries.append(commit_chunk(journal, len(entries), result, done, done + chunk.num_rows,
                                          fingerprint.advance(reader.position())))
            writer.put(result.table)
            done += chunk.num_rows
            progress.update(done, reader.done())
        if not entries:  # an empty log still gets an output with its columns
            result = score_table(reader.schema.empty_table(), 0, options, offset)
            entries.append(commit_chunk(journal, 0, result, 0, 0, fingerprint.advance(size)))
            writer.put(result.table)
        writer.close()
    except WriteFailure as exc:
        writer.abandon()
        raise kept_for_resume(exc, journal) from None
    except ScoreError:
        # --strict stopped at a bad row: resuming would stop there again,
        # so nothing of this run is kept.
        writer.abandon()
        journal.remove()
        raise
    except BaseException:  # a kill or Ctrl-C: the committed parts stay for --resume
        writer.abandon()
        raise
    finally:
        reader.close()
    try:
        # The summary knows the whole input, for a resume of a complete job to recognise it.
        whole = {**job, **fingerprint.advance(size)}
        summary = assemble(journal, entries, input, output, errors, seconds=time.perf_counter() - started,
                           job=whole, resumed_rows=resumed_rows)
    except WriteFailure as exc:
        raise kept_for_resume(exc, journal) from None
    finally:
        fingerprint.close()
    progress.finish(done)
    return summary


def kept_for_resume(exc: WriteFailure, journal: Journal) -> WriteFailure:
    """``exc``, saying what a run after it can take up (the parts
    committed, if any; else nothing is left)."""
    rows = journal.committed_rows() if os.path.isdir(journal.dir) else 0
    if not rows:
        journal.remove()
        return exc
    return WriteFailure(f"{exc} ({rows:,} input rows scored stay in {journal.dir}: --resume goes on from them)",
                        status=exc.status)
