"""History files read: JSON Lines, nested Parquet and the flat form (CSV
or Parquet), a chunk of whole deals at a time, a bad record set aside with
its line or row and the field at fault."""

import gzip
import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from ...cards import check_no_shared_cards
from ...errors import InvalidHandError
from ...table import History, TableRules, read_record
from ..errors import LogError
from ..formats import detect_format
from ..io import check_content
from . import flat as flat_form
from .flat import Item, text_of
from .layout import NESTED, record_of_row

CHUNK_ROWS = 65_536
_KNOWN = "rules read before"
_MOST_KNOWN = 256
_ACTION_FIELD = re.compile(r"actions\[([0-9]+)\]")


class RecordError(NamedTuple):
    """A bad record: where it is (the 1-based line of a JSON Lines or CSV
    file, the 0-based row of a Parquet file; in the flat form, the row at
    fault), why (the field first: ``actions[2].kind: ...``) and its text."""

    position: int
    reason: str
    text: str


class HistoryChunk(NamedTuple):
    """Whole deals read, in file order, with the position of each (its
    first row, in the flat form), and the bad records among them."""

    histories: list[History]
    positions: list[int]
    errors: list[RecordError]


def file_format(path: str | os.PathLike[str], format: str | None = None) -> tuple[str, bool]:
    """The format of a history file, from ``format`` or its name, and
    whether it is gzip'd (``.jsonl.gz``: JSON Lines only)."""
    name = Path(path)
    gz = name.suffix.lower() == ".gz"
    fmt = detect_format(name.with_suffix("") if gz else name, format)
    if gz and fmt != "jsonl":
        raise LogError(f"{str(path)!r}: only JSON Lines is read and written gzip'd (.jsonl.gz)")
    return fmt, gz


def checked(record: Mapping[str, Any], tables: Mapping[str, TableRules] | None,
            known: dict[str, TableRules] | None = None) -> History:
    """A record as a History: read_record's checks, and no card dealt twice
    (the file's promise that its deals can be dealt from one pack).
    ``known``: the inline rules met so far, by their JSON, so that a file
    of deals at a few tables reads each table's rules once (reading them
    is half the cost of a record)."""
    table = record.get("table") if known is not None else None
    key = None
    if isinstance(table, Mapping) and record.get("rules_ref") is None:
        try:
            key = json.dumps(table)
        except (TypeError, ValueError):  # not JSON: read_record says why
            key = None
    if known is not None and key is not None and key in known:
        history = read_record({**record, "table": None, "rules_ref": _KNOWN}, {_KNOWN: known[key]})
    else:
        history = read_record(record, tables)
        if known is not None and key is not None and len(known) < _MOST_KNOWN:
            known[key] = history.table
    check_cards(history)
    return history


def check_cards(history: History) -> None:
    try:
        check_no_shared_cards((f"cards[{i}]", hand) for i, hand in enumerate(history.cards or ()) if hand)
    except InvalidHandError as exc:
        raise InvalidHandError(f"a card dealt twice: {exc}", field="cards") from None


def reason(exc: InvalidHandError) -> str:
    """An error as a RecordError's reason, the field at fault first."""
    text = str(exc)
    field = exc.field
    if not field or text.startswith(field):
        return text
    head = field.rsplit(".", 1)[0]  # "actions[2]: unknown kind" says actions[2].kind
    return f"{field}: {text.removeprefix(f'{head}: ')}"


def iter_history_chunks(path: str | os.PathLike[str], *, format: str | None = None, flat: bool | None = None,
                        tables: Mapping[str, TableRules] | None = None,
                        rows: int = CHUNK_ROWS) -> Iterator[HistoryChunk]:
    """The histories of a file, ``rows`` records (the flat form: rows) at a
    time; a bad record goes to the chunk's errors and the reading goes on.
    ``flat`` None: the flat form for CSV, and for Parquet if its columns
    say so.  A file that cannot be read as a history file at all raises
    LogError."""
    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
        raise LogError(f"rows must be a whole number from 1; got {rows!r}")
    known: dict[str, TableRules] = {}
    for items in _items(path, format, flat, rows):
        chunk = HistoryChunk([], [], [])
        for item in items:
            try:
                if isinstance(item.record, InvalidHandError):
                    raise item.record
                chunk.histories.append(checked(item.record, tables, known))
                chunk.positions.append(item.position)
            except InvalidHandError as exc:
                position, text = _at_fault(item, exc)
                chunk.errors.append(RecordError(position, reason(exc), text))
        if chunk.histories or chunk.errors:
            yield chunk


def _at_fault(item: Item, exc: InvalidHandError) -> tuple[int, str]:
    """Where a fault is, and its text: in the flat form, the row of the
    action at fault."""
    found = _ACTION_FIELD.match(exc.field or "")
    position, text = item.rows[int(found.group(1))] if found and int(found.group(1)) < len(item.rows) \
        else (item.position, item.text)
    return position, text_of(text)


def read_histories(path: str | os.PathLike[str], *, format: str | None = None, flat: bool | None = None,
                   tables: Mapping[str, TableRules] | None = None) -> list[History]:
    """Every history of a file, in order; the first bad record raises
    LogError naming its line (row, for Parquet) and field."""
    label = "row" if file_format(path, format)[0] == "parquet" else "line"
    histories: list[History] = []
    for chunk in iter_history_chunks(path, format=format, flat=flat, tables=tables):
        if chunk.errors:
            error = chunk.errors[0]
            raise LogError(f"{os.fspath(path)}: {label} {error.position}: {error.reason}")
        histories.extend(chunk.histories)
    return histories


def read_tables(path: str | os.PathLike[str]) -> dict[str, TableRules]:
    """A rules table from a JSON file: ``{name: TableRules.to_dict()}``."""
    where = os.fspath(path)
    try:
        data = json.loads(Path(path).read_text())
    except ValueError as exc:
        raise LogError(f"{where}: not a rules table: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise LogError(f"{where}: a rules table is a JSON object of names and TableRules.to_dict()")
    tables = {}
    for name, rules in data.items():
        try:
            tables[name] = TableRules.from_dict(rules)
        except (InvalidHandError, TypeError) as exc:
            field = getattr(exc, "field", None)
            raise LogError(f"{where}: {name}{'.' + field if field else ''}: {exc}") from None
    return tables


# ---- the formats --------------------------------------------------------------


def _items(path: str | os.PathLike[str], format: str | None, flat: bool | None,
           rows: int) -> Iterator[list[Item]]:
    fmt, gz = file_format(path, format)
    where = os.fspath(path)
    # an empty JSON Lines file is a log of no deals, which a writer writes
    if not gz and not (fmt == "jsonl" and os.path.isfile(where) and os.path.getsize(where) == 0):
        check_content(where, fmt)
    if fmt == "jsonl":
        if flat:
            raise LogError("the flat form is CSV or Parquet; a JSON Lines file holds a record a line")
        yield from _jsonl(path, gz, rows)
    elif fmt == "csv":
        if flat is False:
            raise LogError("a CSV history file holds the flat form only (flat=True)")
        yield from _csv(path, rows)
    else:
        yield from _parquet(path, flat, rows)


def _jsonl(path: str | os.PathLike[str], gz: bool, rows: int) -> Iterator[list[Item]]:
    batch: list[Item] = []
    with (gzip.open(path, "rb") if gz else open(path, "rb")) as lines:
        try:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                try:
                    record: dict[str, Any] | InvalidHandError = json.loads(line)
                except ValueError as exc:
                    cut = "" if line.endswith(b"\n") else " (the file ends inside this line: cut short?)"
                    record = InvalidHandError(f"not a JSON record{cut}: {exc}", field="record")
                batch.append(Item(number, record, text))
                if len(batch) >= rows:
                    yield batch
                    batch = []
        except (EOFError, gzip.BadGzipFile) as exc:
            raise LogError(f"{os.fspath(path)}: not a whole gzip file: {exc}", status=1) from None
    yield batch


def _csv(path: str | os.PathLike[str], rows: int) -> Iterator[list[Item]]:
    # utf-8-sig: a byte-order mark before the header, as spreadsheets write
    with open(path, newline="", encoding="utf-8-sig", errors="surrogateescape") as lines:
        try:
            yield from flat_form.deals(flat_form.csv_rows(lines, rows), "line")
        except InvalidHandError as exc:  # the header
            raise LogError(f"{os.fspath(path)}: {exc}") from None


def _parquet(path: str | os.PathLike[str], flat: bool | None, rows: int) -> Iterator[list[Item]]:
    where = os.fspath(path)
    try:
        file = pq.ParquetFile(where)
    except (pa.ArrowInvalid, OSError) as exc:  # damaged: Arrow says how
        raise LogError(f"cannot read {where} as parquet: {exc}", status=1) from None
    names = file.schema_arrow.names
    if flat is None:
        flat = "actions" not in names and "seq" in names
    if flat:
        fault = flat_form.header_fault(names, where)
        if fault is not None:
            raise LogError(fault)
        yield from flat_form.deals(flat_form.parquet_rows(file.iter_batches(batch_size=rows)), "row")
        return
    unknown = [n for n in names if n not in NESTED.names]
    if unknown or "actions" not in names:
        raise LogError(f"{where}: {'unknown column ' + repr(unknown[0]) if unknown else 'no actions column'} "
                       f"(a nested history file's columns: {', '.join(NESTED.names)})")
    position = 0
    for batch in file.iter_batches(batch_size=rows):
        items: list[Item] = []
        for row in batch.to_pylist():
            try:
                record: dict[str, Any] | InvalidHandError = record_of_row(row)
            except InvalidHandError as exc:
                record = exc
            items.append(Item(position, record, row))
            position += 1
        yield items
