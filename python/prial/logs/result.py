"""What scoring a chunk of a log gives, whichever its kind of deal: the
scored rows, the tallies, and the bad rows for the errors file."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from .columns import DEAL_COLUMN


@dataclass
class ChunkResult:
    table: pa.Table  # the good rows with the added columns
    cards: np.ndarray  # uint8 (rows of table, 5): their cards, NO_CARD past the hand
    repeated_card_rows: np.ndarray  # first input row of each deal holding a card twice
    errors: pa.Table  # row, line, deal_id, cards, reason
    deals: int
    invalid_deals: int
    disputes: int
    categories: dict[str, int]
    uncontested: int = 0  # deals of one player
    no_result: int = 0  # adjudicated deals where no row is recorded as won


ERRORS_SCHEMA = pa.schema(
    [("row", pa.int64()), ("line", pa.int64()), ("deal_id", pa.string()),
     ("cards", pa.string()), ("reason", pa.string())]
)


def where_text(row: int, line_offset: int | None) -> str:
    return f"row {row + 1}" + (f" (line {row + line_offset})" if line_offset is not None else "")


def errors_table(table: pa.Table, reasons: dict[int, str], first_row: int, line_offset: int | None,
                 cards_column: str = "cards") -> pa.Table:
    """The errors file's rows for ``reasons`` (row index -> why), the
    ``cards`` shown being the row's ``cards_column``."""
    rows = np.array(sorted(reasons), dtype=np.int64)
    picked = pa.array(rows)
    deal_ids = (table[DEAL_COLUMN].take(picked).cast(pa.string()) if DEAL_COLUMN in table.column_names
                else pa.nulls(len(rows), pa.string()))
    return pa.table({
        "row": pa.array(rows + first_row + 1),
        "line": pa.array(rows + first_row + line_offset) if line_offset is not None else pa.nulls(len(rows), pa.int64()),
        "deal_id": deal_ids,
        "cards": table[cards_column].take(picked).cast(pa.string()),
        "reason": pa.array([reasons[r] for r in rows.tolist()], pa.string()),
    }, schema=ERRORS_SCHEMA)
