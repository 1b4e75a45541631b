"""A history log replayed a chunk at a time: each chunk's findings and bad
records as tables, with the records it covers.

Nested Parquet goes column by column (prial.replay.nested); JSON Lines
and the flat form are read record by record (prial.logs.histories) and
replayed by prial.table.replay_histories.  Either way a chunk's rows are
the same, so the output does not depend on the path nor on the chunking."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import NamedTuple

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..logs.errors import LogError
from ..logs.histories import NESTED, iter_history_chunks
from ..table import FINDINGS, TableRules, replay_histories
from .columns import errors_table, findings_table, position_label
from .nested import replay_nested


class Chunk(NamedTuple):
    """The findings of a chunk's deals, its bad records, and how many
    records it covers (``records``) of the log, counted from its start."""

    findings: pa.Table
    errors: pa.Table
    records: int


def counts(chunk: Chunk) -> dict[str, object]:
    """What a chunk's journal line tallies of it."""
    found = chunk.findings["finding"].value_counts().to_pylist()
    by_name = {entry["values"]: entry["counts"] for entry in found}
    return {"actions": int(pc.sum(chunk.findings["actions"]).as_py() or 0),
            "findings": {name: by_name.get(name, 0) for name in FINDINGS}}


def nested_file(path: str, fmt: str) -> pq.ParquetFile | None:
    """The Parquet file, if it is a nested log of exactly the nested
    columns (the column-by-column path reads those only)."""
    if fmt != "parquet":
        return None
    try:
        # Texts that repeat down the log (the rules, the table) read as
        # dictionaries: each is then checked and parsed once.
        file = pq.ParquetFile(path, read_dictionary=["table", "rules_ref", "table_id"])
    except (pa.ArrowInvalid, OSError) as exc:
        raise LogError(f"{path}: not a Parquet file ({exc})", status=1) from None
    return file if pq.read_schema(path).equals(NESTED) else None


def chunks(path: str, fmt: str, tables: Mapping[str, TableRules] | None, rows: int, threads: int | None,
           skip: int) -> Iterator[Chunk]:
    """The chunks of the log after its first ``skip`` records (those an
    earlier run did)."""
    file = nested_file(path, fmt)
    if file is not None:
        yield from _nested_chunks(file, tables, rows, threads, skip)
        return
    label = position_label(fmt)
    done = 0
    for chunk in iter_history_chunks(path, format=fmt, tables=tables, rows=rows):
        size = len(chunk.histories) + len(chunk.errors)
        done += size
        if done <= skip:
            continue  # read again to find where the earlier run stopped
        findings = findings_table(replay_histories(chunk.histories, threads), chunk.positions, label)
        bad = errors_table([(e.position, e.reason, e.text) for e in chunk.errors], label)
        yield Chunk(findings, bad, done)


def _nested_chunks(file: pq.ParquetFile, tables: Mapping[str, TableRules] | None, rows: int,
                   threads: int | None, skip: int) -> Iterator[Chunk]:
    start = 0
    for group in range(file.metadata.num_row_groups):
        size = file.metadata.row_group(group).num_rows
        if start + size <= skip:
            start += size
            continue
        # One thread: Arrow's threads cost more than they save here, and
        # the replay has its own.
        for batch in file.iter_batches(batch_size=rows, row_groups=[group], use_threads=False):
            end = start + batch.num_rows
            if end > skip:
                cut = max(skip - start, 0)
                findings, bad = replay_nested(batch.slice(cut), start + cut, tables, threads)
                yield Chunk(findings, bad, end)
            start = end
