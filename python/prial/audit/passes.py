"""An audit's pass over a log: chunks of whole deals, each scored by the
kernel ``prial score`` uses and reduced to a tally."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from ..score.chunk import score_table
from ..score.columns import DEAL_COLUMN
from ..score.formats import line_offset
from ..score.io import InputReader
from ..score.local_engine import split_deals, whole_deals
from ..score.progress import Progress
from .options import AuditOptions, audit_columns
from .tally import Tally, tally_chunk


def _slices(table: pa.Table, options: AuditOptions) -> Iterator[pa.Table]:
    for start in range(0, table.num_rows, options.chunk_rows):
        yield table.slice(start, options.chunk_rows)


def tally_table(table: pa.Table, options: AuditOptions, split: pa.Array | None,
                loose_ends: tuple[bool, bool] = (False, False)) -> Tally:
    """The tally of a table of whole deals, ``chunk_rows`` at a time;
    ``split``: deal ids whose rows are not consecutive in the whole log;
    ``loose_ends``: as for ``score_table``, of the whole table."""
    tally = Tally(by=options.by, limit=options.limit)
    chunk = None
    for following in whole_deals(_slices(table, options), DEAL_COLUMN in table.column_names):
        if chunk is not None:  # one chunk behind, to know the last
            tally.add(_tally(chunk[0], tally.rows, options, None, split,
                             (loose_ends[0] and not tally.rows, chunk[1][1])))
        chunk = following
    if chunk is not None:
        tally.add(_tally(chunk[0], tally.rows, options, None, split,
                         (loose_ends[0] and not tally.rows, chunk[1][1] or loose_ends[1])))
    return tally


def _tally(chunk: pa.Table, first_row: int, options: AuditOptions, offset: int | None,
           split: pa.Array | None, loose_ends: tuple[bool, bool] = (False, False)) -> Tally:
    """One chunk of whole deals, scored and counted."""
    result = score_table(chunk, first_row, options.scoring(), offset, split, loose_ends)
    return tally_chunk(chunk, result, options.by, options.seat, options.limit)


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
    tally = Tally(by=options.by, limit=options.limit)
    offset = line_offset(fmt)
    try:
        for chunk, loose_ends in whole_deals(reader.tables(), deal_log):
            tally.add(_tally(chunk, tally.rows, options, offset, split, loose_ends))
            progress.update(tally.rows, reader.done())
    finally:
        reader.close()
    progress.finish(tally.rows)
    return tally
