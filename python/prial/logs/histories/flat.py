"""The flat form read back: rows of one action each, grouped into deals.

A deal's rows are together (a platform's export sorted by deal), in any
order of ``seq`` among themselves; a deal_id met again after other deals,
a deal whose own columns differ between its rows, or whose seq does not
number its actions 0, 1, ... once each is a bad record."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import pyarrow as pa

from ...errors import InvalidHandError
from .layout import ACTION_COLUMNS, DEAL_COLUMNS, FLAT, record_of_row

# A row's text, or its values to be written as JSON when a fault needs
# them (most rows never do: Parquet's are not turned to text up front).
Text = str | dict[str, Any]


def text_of(text: Text) -> str:
    return text if isinstance(text, str) else json.dumps(text, default=str)


class Row(NamedTuple):
    """A row of the flat form read: where it is (line or row), its values
    by column, its text, and what is wrong with its cells (None: nothing)."""

    position: int
    values: dict[str, Any]
    text: Text
    fault: InvalidHandError | None = None


class Item(NamedTuple):
    """What a record read comes to: its position, the record (or the fault
    that makes it a bad one) and its text; in the flat form, the position
    and text of each action's row, in seq order, to name the row of a
    fault in an action."""

    position: int
    record: dict[str, Any] | InvalidHandError
    text: Text
    rows: tuple[tuple[int, Text], ...] = ()


def _cell(name: str, kind: pa.DataType, cell: str) -> object:
    """A CSV cell as its column's value: empty is null, a list is JSON."""
    if cell == "":
        return None
    if pa.types.is_integer(kind):
        try:
            return int(cell)
        except ValueError:
            raise InvalidHandError(f"{name} must be a whole number; got {cell!r}", field=name) from None
    if pa.types.is_list(kind):
        try:
            return json.loads(cell)
        except ValueError:
            raise InvalidHandError(f"{name} must be a JSON list; got {cell!r}", field=name) from None
    return cell


class _Lines:
    """A file's lines as csv.reader takes them, keeping the ones its last
    row was read from (a quoted cell may hold a line break)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self.number = 0
        self.taken: list[str] = []

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.number += 1
        self.taken.append(line)
        return line


def header_fault(names: Iterable[str], where: str) -> str | None:
    """What is wrong with a flat file's columns, if anything."""
    names = list(names)
    unknown = [n for n in names if n not in FLAT.names]
    if unknown:
        return f"{where}: unknown column {unknown[0]!r} (the flat form's columns: {', '.join(FLAT.names)})"
    missing = [n for n in ("deal_id", "seq", "player", "kind") if n not in names]
    if missing:
        return f"{where}: no {missing[0]!r} column: not the flat form of a history file"
    if len(set(names)) != len(names):
        return f"{where}: a column is named twice"
    return None


def csv_rows(lines: Iterable[str], rows: int) -> Iterator[list[Row]]:
    """The rows of a flat CSV file (opened with newline="" and
    errors="surrogateescape"), ``rows`` at a time, after checking the
    header (line 1); InvalidHandError for a file without one."""
    source = _Lines(lines)
    reader = csv.reader(source)
    header = next(reader, None)
    if header is None:
        raise InvalidHandError("the file is empty: a flat CSV file starts with its header", field="header")
    source.taken = []
    wrong = header_fault(header, "the header")
    if wrong is not None:
        raise InvalidHandError(wrong, field="header")
    types = {f.name: f.type for f in FLAT}
    batch: list[Row] = []
    for cells in reader:
        text = "".join(source.taken).rstrip("\r\n")
        position = source.number - len(source.taken) + 1
        source.taken = []
        if not cells:
            continue
        values: dict[str, Any] = {}
        fault: InvalidHandError | None = None
        if len(cells) != len(header):
            fault = InvalidHandError(f"the row has {len(cells)} cells, the header {len(header)}", field="row")
        elif not _utf8(text):
            fault = InvalidHandError("the row is not UTF-8 text", field="row")
        for name, cell in zip(header, cells):
            try:
                values[name] = _cell(name, types[name], cell)
            except InvalidHandError as exc:
                fault = fault or exc
                values[name] = cell
        batch.append(Row(position, values, text, fault))
        if len(batch) >= rows:
            yield batch
            batch = []
    if batch:
        yield batch


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def deals(batches: Iterable[list[Row]], label: str) -> Iterator[list[Item]]:
    """Rows grouped into deals: each batch of rows as the deals it ends (a
    deal open at its end goes on into the next)."""
    seen: dict[object, int] = {}
    group: list[Row] = []
    for batch in batches:
        done: list[Item] = []
        for row in batch:
            if group and row.values.get("deal_id") != group[0].values.get("deal_id"):
                done.append(_deal(group, seen, label))
                group = []
            group.append(row)
        yield done
    if group:
        yield [_deal(group, seen, label)]


def _deal(group: list[Row], seen: dict[object, int], label: str) -> Item:
    first = group[0]
    deal_id = first.values.get("deal_id")
    if deal_id in seen:
        return Item(first.position, InvalidHandError(
            f"deal {deal_id!r} again after other deals (its rows begin at {label} {seen[deal_id]}): a deal's rows "
            "must be together", field="deal_id"), first.text)
    if deal_id is not None:
        seen[deal_id] = first.position
    for row in group:
        if row.fault is not None:
            return Item(row.position, row.fault, row.text)
        differs = next((name for name in DEAL_COLUMNS if row.values.get(name) != first.values.get(name)), None)
        if differs is not None:
            return Item(row.position, InvalidHandError(
                f"{differs} differs from the deal's first row ({label} {first.position}): a deal's own columns "
                "are the same on each of its rows", field=differs), row.text)
    try:
        ordered = _ordered(group)
    except _Fault as fault:
        return Item(fault.row.position, fault.error, fault.row.text)
    actions = [{name: row.values.get(name) for name in ACTION_COLUMNS} for row in ordered]
    rows = tuple((row.position, row.text) for row in ordered)
    try:
        record: dict[str, Any] | InvalidHandError = record_of_row(
            {**{n: first.values.get(n) for n in DEAL_COLUMNS}, "actions": actions})
    except InvalidHandError as exc:
        record = exc
    return Item(first.position, record, first.text, rows)


class _Fault(Exception):
    def __init__(self, row: Row, error: InvalidHandError) -> None:
        self.row, self.error = row, error


def _ordered(group: list[Row]) -> list[Row]:
    """The rows of the deal's actions in seq order."""
    if len(group) == 1 and group[0].values.get("kind") is None and group[0].values.get("seq") is None:
        return []  # a deal of no actions
    by_seq: dict[int, Row] = {}
    for row in group:
        seq = row.values.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < len(group) or seq in by_seq:
            raise _Fault(row, InvalidHandError(
                f"seq must number the deal's {len(group)} actions from 0, each once; got {seq!r}", field="seq"))
        if row.values.get("kind") is None:
            raise _Fault(row, InvalidHandError("a row of a deal of several actions needs its kind", field="kind"))
        by_seq[seq] = row
    return [by_seq[seq] for seq in range(len(group))]


def parquet_rows(batches: Iterable[pa.RecordBatch]) -> Iterator[list[Row]]:
    """The rows of a flat Parquet file, numbered from 0."""
    position = 0
    for batch in batches:
        rows = []
        for values in batch.to_pylist():
            rows.append(Row(position, values, values))
            position += 1
        yield rows
