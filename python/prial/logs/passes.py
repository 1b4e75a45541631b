"""The pass over a log both ``prial score`` and ``prial audit`` make: chunks
that never split a deal, each scored by the kernel (``prial.logs.chunk``),
after a first pass over the deal ids for the deals whose rows are not
consecutive."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pyarrow as pa

from .adjudicate import repeated_ids, run_ids, whole_deal_cut
from .chunk import score_table
from .columns import DEAL_COLUMN
from .io import InputReader
from .options import ScoreOptions
from .progress import Progress
from .result import ChunkResult

# Rows a chunk may carry over to the next, if fewer than a chunk: past
# this, a long stretch of rows without deal ids is cut (whole_deal_cut).
CARRY_ROWS = 1 << 16

LooseEnds = tuple[bool, bool]


def _cut_at_deals(tables: Iterable[pa.Table], deal_log: bool) -> Iterator[tuple[pa.Table, LooseEnds]]:
    carry: pa.Table | None = None
    for table in tables:
        chunk = pa.concat_tables([carry, table]) if carry is not None else table
        if not deal_log or chunk.num_rows == 0:
            carry = None
            yield chunk, (False, False)
            continue
        cut, loose_end = whole_deal_cut(chunk[DEAL_COLUMN].combine_chunks(), max(table.num_rows, CARRY_ROWS))
        carry = chunk.slice(cut)
        if cut:
            yield chunk.slice(0, cut), (False, loose_end)
    if carry is not None and carry.num_rows:
        yield carry, (False, False)


def whole_deals(tables: Iterable[pa.Table], deal_log: bool,
                loose_ends: LooseEnds = (False, False)) -> Iterator[tuple[pa.Table, LooseEnds]]:
    """Chunks that never split a deal, with their ``loose_ends`` for
    ``score_table``: the last deal of each chunk is carried over to the
    next (a deal longer than a chunk grows the chunk), with the deal before
    it if a row without a deal id lies between them (``whole_deal_cut``).
    ``loose_ends``: those of all of ``tables`` (a Dask partition's), given
    to the first chunk and the last."""
    chunks = _cut_at_deals(tables, deal_log)
    if loose_ends[1]:
        chunks = _last_marked(chunks)
    for index, (chunk, (_start, end)) in enumerate(chunks):
        yield chunk, (loose_ends[0] and index == 0, end)


def _last_marked(chunks: Iterator[tuple[pa.Table, LooseEnds]]) -> Iterator[tuple[pa.Table, LooseEnds]]:
    """The chunks, the last told that a row without a deal id follows it
    (one chunk behind, to know the last)."""
    held = None
    for following in chunks:
        if held is not None:
            yield held
        held = following
    if held is not None:
        yield held[0], (held[1][0], True)


def scored_chunks(tables: Iterable[pa.Table], deal_log: bool, options: ScoreOptions, line_offset: int | None,
                  split: pa.Array | None, *, first_row: int = 0,
                  loose_ends: LooseEnds = (False, False)) -> Iterator[tuple[pa.Table, ChunkResult]]:
    """Each chunk of whole deals of ``tables`` and its scoring; the first
    row of ``tables`` is input row ``first_row``; ``line_offset``,
    ``split`` (the deals whose rows are not consecutive in the whole log)
    and ``loose_ends`` as for ``score_table`` and ``whole_deals``."""
    row = first_row
    for chunk, ends in whole_deals(tables, deal_log, loose_ends):
        yield chunk, score_table(chunk, row, options, line_offset, split, ends)
        row += chunk.num_rows


def split_deals(input: str, fmt: str, chunk_rows: int, progress: Progress) -> pa.Array:
    """A first pass over the deal ids alone: the deals whose rows are not
    consecutive anywhere in the log, so that no part of one is adjudicated
    as if it were the whole deal."""
    reader = InputReader(input, fmt, chunk_rows, columns=[DEAL_COLUMN])
    progress.begin("checking deal order", unit=reader.unit, total=reader.total)
    runs, rows = [], 0
    try:
        for table in reader.tables():
            runs.append(run_ids(table[DEAL_COLUMN].combine_chunks()))
            rows += table.num_rows
            progress.update(rows, reader.done())
        return repeated_ids(runs)
    finally:
        reader.close()


def split_deals_of_table(table: pa.Table) -> pa.Array | None:
    """``split_deals`` of a log held whole in memory (None without deal ids)."""
    if DEAL_COLUMN not in table.column_names:
        return None
    return repeated_ids([run_ids(table[DEAL_COLUMN].combine_chunks())])
