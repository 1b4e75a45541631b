"""The columns a replay writes: a row of findings per deal, and a row per
bad record in the errors file (docs/histories.md, "prial replay").

A record is found by its place in the log: ``line`` (1-based) in JSON
Lines and CSV, ``row`` (0-based) in Parquet.  Winners and nets are JSON
text (``["p1"]``, ``{"p0":-5,"p1":5}``), the same in every output format."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pyarrow as pa

from ..table import Finding

FINDING_FIELDS = [
    pa.field("deal_id", pa.string()),
    pa.field("table_id", pa.string()),
    pa.field("finding", pa.string()),
    pa.field("actions", pa.int64()),
    pa.field("action_index", pa.int64()),
    pa.field("player", pa.string()),
    pa.field("code", pa.string()),
    pa.field("ending", pa.string()),
    pa.field("winners", pa.string()),
    pa.field("nets", pa.string()),
    pa.field("recorded_winners", pa.string()),
    pa.field("recorded_nets", pa.string()),
    pa.field("rake", pa.int64()),
    pa.field("detail", pa.string()),
]


def position_label(fmt: str) -> str:
    """What a record's place in a log of ``fmt`` is called."""
    return "row" if fmt == "parquet" else "line"


def findings_schema(label: str) -> pa.Schema:
    return pa.schema([pa.field(label, pa.int64()), *FINDING_FIELDS])


def errors_schema(label: str) -> pa.Schema:
    return pa.schema([pa.field(label, pa.int64()), pa.field("reason", pa.string()), pa.field("record", pa.string())])


def json_text(value: object) -> str | None:
    """A list of names or a map of nets as the findings hold it."""
    return None if value is None else json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def findings_table(findings: Sequence[Finding], positions: Sequence[int], label: str) -> pa.Table:
    """Findings as rows, each with its record's place in the log."""
    columns: dict[str, list[object]] = {label: list(positions)}
    for field in FINDING_FIELDS:
        name = field.name
        values = [getattr(f, name) for f in findings]
        if name in ("winners", "recorded_winners"):
            values = [json_text(None if v is None else list(v)) for v in values]
        elif name in ("nets", "recorded_nets"):
            values = [json_text(v) for v in values]
        columns[name] = values
    return pa.table(columns, schema=findings_schema(label))


def errors_table(rows: Sequence[tuple[int, str, str]], label: str) -> pa.Table:
    """Bad records: (place, reason, the record's text)."""
    return pa.table({label: [r[0] for r in rows], "reason": [r[1] for r in rows], "record": [r[2] for r in rows]},
                    schema=errors_schema(label))
