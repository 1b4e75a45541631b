"""The columns of a hand log and of its scored output (README, "Scoring hand
logs"), and reading a flag column."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..categories import Category
from .errors import LogError

# Hand sizes a log may hold (three-, four- and five-card Brag), and the widest.
WIDTHS = (3, 4, 5)
MAX_WIDTH = 5
NO_CARD = 0xFF

DEAL_COLUMN = "deal_id"
FLAG_COLUMNS = ("blind", "seer", "folded", "won", "exchanged")
TEXT_COLUMNS = ("cards", "game", "hands", "discards", "given_up")
ADDED_COLUMNS = ("strength", "key", "category", "description", "winner", "winners", "dispute", "deal_problem")
# A log of laid hands (nine-card Brag, Crash) holds a row's hands in this
# column, "As Ad Ah | Ks Kd Kh | ...", where a log of played hands has cards.
HANDS_COLUMN = "hands"
HAND_SEPARATOR = "|"
LAID_ADDED_COLUMNS = ("points", "positions_won", "crash", "four_bonus", "fouled", "foul", "description",
                      "deal_problem")
CATEGORY_NAMES = [c.name for c in Category]
# Added by the reader to rows it could not read as typed (prial.logs.typed).
READ_PROBLEM = "__prial_read_problem"


def flag(table: pa.Table, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(values, known) of a boolean-ish column; absent -> all False, unknown."""
    n = table.num_rows
    if name not in table.column_names:
        return np.zeros(n, bool), np.zeros(n, bool)
    column = table[name].combine_chunks() if table.num_rows else pa.array([], pa.bool_())
    if not pa.types.is_boolean(column.type):
        column = pc.not_equal(column.cast(pa.int64()), 0) if pa.types.is_integer(column.type) else column.cast(pa.bool_())
    if column.null_count == 0:
        return np.asarray(column.to_numpy(zero_copy_only=False), bool), np.ones(n, bool)
    known = column.is_valid().to_numpy(zero_copy_only=False)
    values = column.fill_null(False).to_numpy(zero_copy_only=False)
    return np.asarray(values, bool), np.asarray(known, bool)


def is_laid_log(names: list[str]) -> bool:
    """Is a log of these columns one of laid hands (not of played hands)?"""
    return HANDS_COLUMN in names and "cards" not in names


def check_cards_column(names: list[str]) -> None:
    """LogError for a log without the ``cards`` column (``names``: its columns)."""
    if "cards" not in names:
        raise LogError(f"the input has no 'cards' column (columns: {', '.join(names)})")


def nested_columns(schema: pa.Schema, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that hold lists or records, not plain values."""
    return [name for name in names if pa.types.is_nested(schema.field(name).type)]
