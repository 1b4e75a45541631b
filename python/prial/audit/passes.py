"""An audit's pass over a log: chunks of whole deals, each scored by the
kernel ``prial score`` uses (``prial.logs.passes``) and reduced to a tally."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..logs.columns import DEAL_COLUMN
from ..logs.formats import line_offset
from ..logs.io import InputReader
from ..logs.passes import LooseEnds, scored_chunks, split_deals
from ..logs.progress import Progress
from .options import AuditOptions, audit_columns
from .tally import Tally, tally_chunk

if TYPE_CHECKING:
    import pyarrow as pa


def _slices(table: pa.Table, options: AuditOptions) -> Iterator[pa.Table]:
    for start in range(0, table.num_rows, options.chunk_rows):
        yield table.slice(start, options.chunk_rows)


def _tally(tables: Iterator[pa.Table], deal_log: bool, options: AuditOptions, offset: int | None,
           split: pa.Array | None, loose_ends: LooseEnds = (False, False),
           progress: tuple[Progress, InputReader] | None = None) -> Tally:
    """The tally of ``tables``, a chunk of whole deals at a time."""
    tally = Tally(by=options.by, limit=options.limit)
    for chunk, result in scored_chunks(tables, deal_log, options.scoring(), offset, split, loose_ends=loose_ends):
        tally.add(tally_chunk(chunk, result, options.by, options.seat, options.limit))
        if progress is not None:
            progress[0].update(tally.rows, progress[1].done())
    return tally


def tally_table(table: pa.Table, options: AuditOptions, split: pa.Array | None,
                loose_ends: LooseEnds = (False, False)) -> Tally:
    """The tally of a table of whole deals, ``chunk_rows`` at a time;
    ``split``: deal ids whose rows are not consecutive in the whole log;
    ``loose_ends``: as for ``score_table``, of the whole table."""
    return _tally(_slices(table, options), DEAL_COLUMN in table.column_names, options, None, split, loose_ends)


def tally_file(input: str, fmt: str, options: AuditOptions, progress: Progress) -> Tally:
    """The tally of a log file, read ``chunk_rows`` at a time after a first
    pass over its deal ids (as ``prial score`` makes)."""
    probe = InputReader(input, fmt, options.chunk_rows)
    columns = audit_columns(probe.schema, options)
    probe.close()
    deal_log = DEAL_COLUMN in columns
    split = split_deals(input, fmt, options.chunk_rows, progress) if deal_log else None
    reader = InputReader(input, fmt, options.chunk_rows, columns=columns)
    progress.begin("auditing", unit=reader.unit, total=reader.total)
    try:
        tally = _tally(reader.tables(), deal_log, options, line_offset(fmt), split, progress=(progress, reader))
    finally:
        reader.close()
    progress.finish(tally.rows)
    return tally
