"""History files written: JSON Lines (``.jsonl``, ``.jsonl.gz``), nested
Parquet, or the flat form (CSV, Parquet).  The same histories give the
same bytes; a file is written beside its place and moved there whole."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from pathlib import Path
from typing import IO, Any, cast

import pyarrow as pa
import pyarrow.parquet as pq

from ...errors import InvalidHandError
from ...table import History, TableRules, record_of
from ..errors import LogError
from .layout import FLAT, NESTED, flat_rows, row_of
from .read import check_cards, checked, file_format

# Deals a Parquet row group holds (and a batch is built of).
GROUP_DEALS = 16_384


def write_histories(items: Iterable[History | Mapping[str, Any]], path: str | os.PathLike[str], *,
                    format: str | None = None, flat: bool | None = None,
                    tables: Mapping[str, TableRules] | None = None) -> int:
    """Writes histories (``History``, or records as ``to_record`` makes
    them, checked as a reader checks them) to ``path``; returns how many.
    ``format``: "jsonl", "parquet" or "csv" (default: from the suffix);
    ``flat``: the flat form, one row an action (CSV's only form; default
    for Parquet: nested).  A deal whose rules are among ``tables`` names
    them by ``rules_ref`` instead of holding them."""
    fmt, gz = file_format(path, format)
    if flat is None:
        flat = fmt == "csv"
    if fmt == "csv" and not flat:
        raise LogError("a CSV history file holds the flat form only (flat=True)")
    if fmt == "jsonl" and flat:
        raise LogError("the flat form is CSV or Parquet; a JSON Lines file holds a record a line")
    known: dict[str, TableRules] = {}
    records = (_record(item, tables, known) for item in items)
    target = Path(path)
    part = target.with_name(f".{target.name}.part")
    try:
        if fmt == "jsonl":
            count = _jsonl(records, part, gz)
        elif fmt == "csv":
            count = _csv(records, part)
        else:
            count = _parquet(records, part, flat)
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
    return count


def _record(item: History | Mapping[str, Any], tables: Mapping[str, TableRules] | None,
            known: dict[str, TableRules]) -> dict[str, Any]:
    if isinstance(item, History):
        check_cards(item)
        history, ref = item, None
    elif isinstance(item, Mapping):
        history, ref = checked(item, tables, known), item.get("rules_ref")
    else:
        raise InvalidHandError(f"write_histories writes History or history records, not {type(item).__name__} "
                               "(prial.table.to_record makes a record of a Deal)", field="items")
    if ref is None and tables:
        ref = next((name for name, rules in tables.items() if rules == history.table), None)
    return record_of(history, rules_ref=ref)


def _jsonl(records: Iterable[dict[str, Any]], part: Path, gz: bool) -> int:
    count = 0
    with open(part, "wb") as raw:
        # no name and no time in the gzip header: the same histories, the same bytes
        binary = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if gz else raw
        with io.TextIOWrapper(cast(IO[bytes], binary), encoding="utf-8", newline="\n") as out:
            for record in records:
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
                count += 1
    return count


def _cell(value: object) -> object:
    return "" if value is None else json.dumps(value, separators=(",", ":")) if isinstance(value, list) else value


def _csv(records: Iterable[dict[str, Any]], part: Path) -> int:
    count = 0
    with open(part, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(FLAT.names)
        for record in records:
            for row in flat_rows(row_of(record)):
                writer.writerow([_cell(row[name]) for name in FLAT.names])
            count += 1
    return count


def _batches(records: Iterable[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    records = iter(records)
    while batch := list(islice(records, GROUP_DEALS)):
        yield batch


def _parquet(records: Iterable[dict[str, Any]], part: Path, flat: bool) -> int:
    schema = FLAT if flat else NESTED
    count = 0
    with pq.ParquetWriter(part, schema) as writer:
        for batch in _batches(records):
            rows = [row_of(record) for record in batch]
            if flat:
                rows = [r for row in rows for r in flat_rows(row)]
            writer.write_table(pa.Table.from_pylist(rows, schema=schema), row_group_size=max(len(rows), 1))
            count += len(batch)
    return count
