"""The columns of a history file (docs/histories.md, "Files"), and a
history's record to a row of them and back.

Nested Parquet holds a deal a row, its actions and players as lists of
structs; the flat form holds an action a row beside its deal's columns,
repeated on every row of the deal.  Both share the deal's columns: one
schema, so that a reader of either meets the same types."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pyarrow as pa

from ...errors import InvalidHandError

ACTION = pa.struct([("player", pa.string()), ("kind", pa.string()), ("amount", pa.int64()),
                    ("discards", pa.string()), ("time", pa.string())])
PLAYER = pa.struct([("id", pa.string()), ("seat", pa.int64()), ("stack", pa.int64())])
NET = pa.struct([("player", pa.string()), ("net", pa.int64())])

# The deal's own columns, deal_id first.  ``table`` and ``carried`` hold
# JSON text (the rules as TableRules.to_dict writes them; what the deal
# carries), rare and irregular enough that columns of their own would buy
# nothing.
DEAL_FIELDS: list[pa.Field[Any]] = [
    pa.field("deal_id", pa.string()),
    pa.field("table_id", pa.string()),
    pa.field("started", pa.string()),
    pa.field("rules_ref", pa.string()),
    pa.field("table", pa.string()),
    pa.field("dealer", pa.int64()),
    pa.field("players", pa.list_(PLAYER)),
    pa.field("cards", pa.list_(pa.string())),
    pa.field("seed", pa.uint64()),
    pa.field("carried", pa.string()),
    pa.field("rake", pa.list_(pa.int64())),
    pa.field("winners", pa.list_(pa.string())),
    pa.field("nets", pa.list_(NET)),
]
NESTED = pa.schema([*DEAL_FIELDS, pa.field("actions", pa.list_(ACTION))])
_ACTION_FIELDS = [ACTION.field(i) for i in range(ACTION.num_fields)]
# One row an action: its place in the deal (seq, from 0) and its fields.
FLAT = pa.schema([DEAL_FIELDS[0], pa.field("seq", pa.int64()), *_ACTION_FIELDS, *DEAL_FIELDS[1:]])
ACTION_COLUMNS = tuple(f.name for f in _ACTION_FIELDS)
DEAL_COLUMNS = tuple(f.name for f in DEAL_FIELDS)
_JSON_TEXT = ("table", "carried")


def _text(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def row_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record (as record_of writes it) as a row of NESTED."""
    outcome = record.get("outcome")
    return {
        **{name: record.get(name) for name in ("deal_id", "table_id", "started", "rules_ref", "dealer", "cards",
                                               "seed", "rake")},
        **{name: None if record.get(name) is None else _text(record[name]) for name in _JSON_TEXT},
        "players": record["players"],
        "winners": None if outcome is None else outcome["winners"],
        "nets": None if outcome is None else [{"player": p, "net": n} for p, n in outcome["nets"].items()],
        "actions": record["actions"],
    }


def flat_rows(row: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """A NESTED row as FLAT rows: one an action, or one without an action
    (seq and kind null) for a deal of none."""
    deal = {name: row[name] for name in DEAL_COLUMNS}
    actions = row["actions"] or [{}]
    for seq, action in enumerate(actions):
        yield {**deal, "seq": seq if action else None, **{name: action.get(name) for name in ACTION_COLUMNS}}


def _plain(entry: object) -> object:
    """A struct's value without its null fields (a record leaves them out)."""
    if isinstance(entry, Mapping):
        return {key: value for key, value in entry.items() if value is not None}
    return entry


def record_of_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A NESTED row (any column may be missing) as a record for read_record;
    a JSON text column that is not JSON raises InvalidHandError naming it."""
    record: dict[str, Any] = {}
    for name, value in row.items():
        if value is None or name in ("winners", "nets"):
            continue
        if name in _JSON_TEXT:
            try:
                value = json.loads(value) if isinstance(value, str) else value
            except ValueError as exc:
                raise InvalidHandError(f"{name} is not JSON: {exc}", field=name) from None
        elif name in ("players", "actions") and isinstance(value, list):
            value = [_plain(entry) for entry in value]
        record[name] = value
    winners, nets = row.get("winners"), row.get("nets")
    if winners is not None or nets is not None:
        outcome: dict[str, Any] = {"winners": winners or []}
        if nets is not None:
            if not isinstance(nets, list) or not all(isinstance(n, Mapping) for n in nets):
                raise InvalidHandError("nets must list {player, net}", field="nets")
            outcome["nets"] = {n.get("player"): n.get("net") for n in nets}
        record["outcome"] = outcome
    return record
