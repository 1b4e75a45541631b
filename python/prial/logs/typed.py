"""Values of the wrong type in a text log (``folded`` = "maybe", ``cards``
= 5), found row by row so that such a row goes to the errors file with its
line number, like any other bad row, and the job goes on.

CSV flag columns are read as text and checked by the kernel (``checked``);
a CSV row with the wrong number of fields, which Arrow's reader skips, is
put back in its place as a row of nulls carrying its problem
(``MisshapenRows``).  JSON Lines go through Arrow's reader while it can; where it gives up on a
value of the wrong type, the rest of the file is read here, a line at a
time (slower, but every other row is still scored).  Batches of JSON Lines
carry the READ_PROBLEM column: the row's problem, or null.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .columns import FLAG_COLUMNS, READ_PROBLEM, TEXT_COLUMNS

TRUE = ("true", "1", "yes")
FALSE = ("false", "0", "no")
ROWS_PER_BATCH = 65_536


def checked(table: pa.Table) -> tuple[pa.Table, dict[int, str]]:
    """The table with text flag columns (CSV) as booleans and without
    READ_PROBLEM; and the problem of each row that has one (a flag neither
    true nor false, a value of the wrong type), to send it to the errors file."""
    problems: dict[int, str] = {}
    if READ_PROBLEM in table.column_names:
        column = table[READ_PROBLEM].combine_chunks()
        for row in np.flatnonzero(np.asarray(column.is_valid().to_numpy(zero_copy_only=False), bool)).tolist():
            problems[row] = column[row].as_py()
        table = table.drop_columns([READ_PROBLEM])
    for index, name in enumerate(table.column_names):
        column = table[name].combine_chunks() if table.num_rows else None
        if name not in FLAG_COLUMNS or column is None or not pa.types.is_string(column.type):
            continue
        lowered = pc.utf8_lower(pc.utf8_trim_whitespace(column))
        is_true = pc.is_in(lowered, value_set=pa.array(TRUE))
        is_false = pc.is_in(lowered, value_set=pa.array(FALSE))
        empty = pc.fill_null(pc.equal(lowered, ""), True)
        odd = pc.invert(pc.or_(pc.or_(is_true, is_false), empty))
        for row in np.flatnonzero(np.asarray(odd.to_numpy(zero_copy_only=False), bool)).tolist():
            problems.setdefault(row, f"{name}: {column[row].as_py()!r} is neither true nor false")
        flags = pc.if_else(is_true, True, pc.if_else(is_false, False, pa.scalar(None, pa.bool_())))
        table = table.set_column(index, name, flags)
    return table, problems


def _with_problems(batch: pa.RecordBatch, problems: dict[int, str]) -> pa.RecordBatch:
    column = [None] * batch.num_rows
    for row, why in problems.items():
        column[row] = why
    return pa.RecordBatch.from_arrays([*batch.columns, pa.array(column, pa.string())],
                                      names=[*batch.schema.names, READ_PROBLEM])


class MisshapenRows:
    """The CSV rows Arrow's reader skips for their number of fields
    (``handler``, its ``invalid_row_handler``), each put back where it was
    (``placed``), so that the rows after it keep their numbers."""

    TEXT_SHOWN = 60  # characters of such a row quoted in its problem

    def __init__(self) -> None:
        self._pending: list[tuple[int, str]] = []  # (input row, problem), in file order
        self._rows = 0  # rows handed out by placed(), these included

    def handler(self, row) -> str:
        # Its number counts records from 1, the header's; without threads
        # the reader knows it.
        index = row.number - 2 if row.number is not None else self._rows
        text = row.text if len(row.text) <= self.TEXT_SHOWN else row.text[:self.TEXT_SHOWN - 3] + "..."
        self._pending.append((index, f"{row.actual_columns} fields where the header has {row.expected_columns}: "
                                     f"{text}"))
        return "skip"

    def placed(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        """The next batch of the reader with the skipped rows that fall
        among (or before) its rows, and READ_PROBLEM."""
        good = batch.num_rows
        count = 0
        while count < len(self._pending) and self._pending[count][0] < self._rows + good + count:
            count += 1
        if not count:
            self._rows += good
            return with_no_problems(batch)
        here, self._pending = self._pending[:count], self._pending[count:]
        total = good + count
        positions = np.clip(np.array([index for index, _ in here]) - self._rows, 0, total - 1)
        kept = np.ones(total, bool)
        kept[positions] = False
        source = np.zeros(total, np.int64)
        source[kept] = np.arange(good)
        self._rows += total
        widened = batch.take(pa.array(source, mask=~kept))  # a masked index takes a row of nulls
        return _with_problems(widened, {int(p): why for p, (_, why) in zip(positions.tolist(), here)})

    def rest(self, schema: pa.Schema) -> pa.RecordBatch | None:
        """The skipped rows after the last the reader gave, if any."""
        if not self._pending:
            return None
        here, self._pending = self._pending, []
        self._rows += len(here)
        nulls = pa.RecordBatch.from_arrays([pa.nulls(len(here), f.type) for f in schema], schema=schema)
        return _with_problems(nulls, {row: why for row, (_, why) in enumerate(here)})


def with_no_problems(batch: pa.RecordBatch) -> pa.RecordBatch:
    """A batch of Arrow's reader, with the column the row-by-row reader adds."""
    return pa.RecordBatch.from_arrays([*batch.columns, pa.nulls(batch.num_rows, pa.string())],
                                      names=[*batch.schema.names, READ_PROBLEM])


def _typed(value: Any, name: str, kind: pa.DataType) -> tuple[Any, str | None]:
    """(value for a column of ``kind``, or None with the problem)."""
    if value is None:
        return None, None
    if name in TEXT_COLUMNS or pa.types.is_string(kind):
        return (value, None) if isinstance(value, str) else (None, f"{name}: expected text, got {value!r}")
    if name in FLAG_COLUMNS or pa.types.is_boolean(kind):
        if isinstance(value, bool):
            return value, None
        if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
            return value.strip().lower() in TRUE, None
        return None, f"{name}: {value!r} is neither true nor false"
    if pa.types.is_integer(kind):
        ok = isinstance(value, int) and not isinstance(value, bool)
        return (value, None) if ok else (None, f"{name}: expected a whole number, got {value!r}")
    if pa.types.is_floating(kind):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return (value, None) if ok else (None, f"{name}: expected a number, got {value!r}")
    return value, None


def json_rows(file: BinaryIO, schema: pa.Schema, skip: int) -> Iterator[pa.RecordBatch]:
    """The JSON Lines of ``file`` after the first ``skip`` rows, a line at a
    time, as batches of ``schema`` (and READ_PROBLEM)."""
    file.seek(0)
    rows: dict[str, list[Any]] = {name: [] for name in schema.names}
    problems: dict[int, str] = {}
    index = 0

    def flush() -> pa.RecordBatch:
        arrays = [pa.array(rows[f.name], f.type) for f in schema]
        batch = _with_problems(pa.RecordBatch.from_arrays(arrays, schema=schema), problems)
        for values in rows.values():
            values.clear()
        problems.clear()
        return batch

    for line in file:
        if not line.strip():
            continue
        if skip:
            skip -= 1
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError(f"a JSON {type(record).__name__}, not an object")
        except ValueError as exc:
            record, problems[index] = {}, f"not a JSON object: {exc}"
        for field in schema:
            value, problem = _typed(record.get(field.name), field.name, field.type)
            rows[field.name].append(value)
            if problem is not None:
                problems.setdefault(index, problem)
        index += 1
        if index == ROWS_PER_BATCH:
            yield flush()
            index = 0
    if index:
        yield flush()
