"""Scoring one chunk of a hand log: the kernel shared by every engine.

A chunk is a ``pyarrow.Table`` of whole deals (the engines make sure a deal
is never split).  Cards are parsed in C++ straight from the Arrow string
buffers; strengths come from the batch evaluators; deals are adjudicated
with numpy reductions over the (consecutive) rows of each deal.  No Python
code runs per row, except to word the reason of a bad row.

Log format (README, "Scoring hand logs"): one row per player per deal with
``deal_id``, ``player``, ``cards`` and optionally ``blind``, ``seer``,
``folded``, ``won`` and ``game``; or just a ``cards`` column (a plain file of
hands, only ranked).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._core import parse_text_column, text_hand_problem
from ..evaluator import evaluator_for
from ..rules import PRESETS, Rules, with_preset
from .adjudicate import DealCounts, adjudicate, deal_runs
from .columns import ADDED_COLUMNS, CATEGORY_NAMES, DEAL_COLUMN, MAX_WIDTH, NO_CARD, WIDTHS, check_cards_column
from .typed import checked
from .errors import LogError
from .options import ScoreOptions

_ALLOWED_COUNT = np.isin(np.arange(256), WIDTHS)  # count -> is it a hand size?

# Why a row is bad, by the native ParseStatus (cards.hpp).
_STATUS_NULL = 1


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


# ---- cards ----

def parse_text_cards(column: pa.Array | pa.ChunkedArray, pack_size: int, threads: int | None = None):
    """(cards uint8 (N, 5), counts, status, where) for a text column, parsed
    natively from the Arrow buffers (no copy for string/large_string)."""
    if isinstance(column, pa.ChunkedArray):
        parts = [parse_text_cards(chunk, pack_size, threads) for chunk in column.chunks]
        if not parts:
            empty = np.zeros(0, np.uint8)
            return np.zeros((0, MAX_WIDTH), np.uint8), empty, empty, empty
        return tuple(np.concatenate(arrays) for arrays in zip(*parts))
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        column = column.cast(pa.large_string())  # string_view, dictionary, all-null ...
    validity, offsets, data = column.buffers()[:3]
    return parse_text_column(
        validity, offsets, data,
        large_offsets=pa.types.is_large_string(column.type), offset=column.offset,
        rows=len(column), width=MAX_WIDTH, pack_size=pack_size, threads=threads,
    )


def card_problem(text: str | None, count: int, status: int, pack_size: int) -> str:
    """The reason a row's cards were rejected, worded for the errors file."""
    if status == _STATUS_NULL or text is None:
        return "cards missing"
    if status:
        return text_hand_problem(text, MAX_WIDTH, pack_size)
    expected = " or ".join(str(w) for w in WIDTHS)
    return f"{count} card{'s' if count != 1 else ''}; expected {expected}"


def category_of_strength(rules: Rules) -> np.ndarray:
    """int8 array: strength -> Category value, for one ruleset (the
    output's dictionary indices are int8)."""
    return evaluator_for(rules).categories.view(np.int8)


def describe_hands(rules: Rules, hands: np.ndarray) -> list[str]:
    """Descriptions of (N, width) hands (of the best three for four or five
    cards): each distinct hand is described once."""
    ordered = np.sort(hands.astype(np.int64), axis=1)
    codes = np.zeros(len(hands), np.int64)
    for column in range(hands.shape[1]):
        codes = codes * 64 + ordered[:, column]
    unique, inverse = np.unique(codes, return_inverse=True)
    ev = evaluator_for(rules)
    describe = ev.evaluate if hands.shape[1] == 3 else ev.best_of
    words = []
    for code in unique.tolist():
        cards = [(code >> (6 * i)) & 63 for i in reversed(range(hands.shape[1]))]
        words.append(describe(cards).description)
    return np.asarray(words, dtype=object)[inverse].tolist()


# ---- rules per row ----

def row_rules(table: pa.Table, base: Rules) -> tuple[list[Rules], np.ndarray, np.ndarray]:
    """(rulesets, index of each row's ruleset, rows with an unknown game).

    Without a ``game`` column every row uses ``base``; with one, a row's
    game (a preset name) replaces the preset of ``base``.
    """
    n = table.num_rows
    if "game" not in table.column_names:
        return [base], np.zeros(n, np.int16), np.zeros(n, bool)
    encoded = pc.dictionary_encode(table["game"].cast(pa.string())).combine_chunks()
    names = encoded.dictionary.to_pylist()
    indices = encoded.indices.to_numpy(zero_copy_only=False)
    unknown = np.asarray(encoded.indices.is_null().to_numpy(zero_copy_only=False), bool).copy()
    rulesets: list[Rules] = []
    index = np.zeros(n, np.int16)
    for i, name in enumerate(names):
        if name in PRESETS:
            index[indices == i] = len(rulesets)
            rulesets.append(with_preset(base, name))
        else:
            unknown |= indices == i
    if not rulesets:
        rulesets.append(base)
    return rulesets, index, unknown


# ---- the kernel ----

def score_table(table: pa.Table, first_row: int, options: ScoreOptions, line_offset: int | None,
                split_deals: pa.Array | None = None, loose_ends: tuple[bool, bool] = (False, False)) -> ChunkResult:
    """Scores the rows of ``table`` (whole deals), the first being input row
    ``first_row`` (0-based).  ``line_offset`` turns a row index into a text
    line number (CSV: 2, JSON Lines: 1; None for Parquet).  ``split_deals``:
    deal ids whose rows are not consecutive in the whole log (their deals
    get a deal_problem, not a winner from part of their rows).
    ``loose_ends``: a row without a deal id lies just before ``table``,
    just after it, in the log (its first, its last deal may miss it)."""
    n = table.num_rows
    table, read_problems = checked(table)
    stale = [name for name in ADDED_COLUMNS if name in table.column_names]
    if stale:  # a scored file scored again: its results are recomputed, not duplicated
        table = table.drop_columns(stale)
    check_cards_column(table.column_names)
    rulesets, rules_index, unknown_game = row_rules(table, options.rules)
    pack_size = max(r.pack_size for r in rulesets)
    cards, counts, status, _where = parse_text_cards(table["cards"], pack_size, options.threads)
    reasons: dict[int, str] = {}  # bad row -> reason

    parsed = status == 0
    wrong_count = parsed & ~_ALLOWED_COUNT[counts]
    for ruleset_index, rules in enumerate(rulesets):
        if rules.pack_size < pack_size:  # jokers this row's game does not have
            extra = parsed & (rules_index == ruleset_index) & ((cards >= rules.pack_size) & (cards != NO_CARD)).any(axis=1)
            status = np.where(extra, 9, status).astype(np.uint8)
    bad = (status != 0) | wrong_count | unknown_game
    card_bad = np.flatnonzero((status != 0) | wrong_count)
    if card_bad.size:
        texts = table["cards"].take(pa.array(card_bad)).to_pylist()
        for row, text in zip(card_bad.tolist(), texts):
            reasons[row] = card_problem(text, int(counts[row]), int(status[row]), rulesets[rules_index[row]].pack_size)
    if unknown_game.any():
        games = table["game"].take(pa.array(np.flatnonzero(unknown_game))).to_pylist()
        for row, game in zip(np.flatnonzero(unknown_game).tolist(), games):
            reasons.setdefault(row, f"unknown game {game!r} (expected one of {', '.join(PRESETS)})")
    for row, why in read_problems.items():  # a value of the wrong type: the cause of what follows from it
        bad[row] = True
        reasons[row] = why

    deal_log = DEAL_COLUMN in table.column_names
    if deal_log:
        starts, deal_bad, split, loose, repeated = deal_runs(table, cards, counts, parsed & ~bad, reasons,
                                                             split_deals, loose_ends)
        bad |= deal_bad
    if options.strict and bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise LogError(f"{_where_text(first_row + row, line_offset)}: {reasons[row]}")

    # Strengths and comparison keys of the good rows.  The key (best-of
    # layout: strength << 8 | discards) decides a showdown, the discard
    # tie-break of four- and five-card Brag included.
    key = np.zeros(n, np.uint32)
    description = np.empty(n, dtype=object) if options.describe else None
    good = ~bad
    for ruleset_index, rules in enumerate(rulesets):
        mine = good & (rules_index == ruleset_index)
        ev = evaluator_for(rules)
        for width in WIDTHS:
            selected = mine & (counts == width)
            # The common case, every row one size and one ruleset: no gather/scatter.
            rows = slice(None) if selected.all() else np.flatnonzero(selected)
            if isinstance(rows, np.ndarray) and rows.size == 0:
                continue
            hands = np.ascontiguousarray(cards[rows, :width])
            if width == 3:
                key[rows] = ev.evaluate_batch(hands, threads=options.threads).astype(np.uint32) << 8
            else:
                key[rows] = ev.best_of_batch(hands, threads=options.threads)
            if description is not None:
                description[rows] = describe_hands(rules, hands)
    strength = (key >> 8).astype(np.uint16)
    if len(rulesets) == 1:
        category = category_of_strength(rulesets[0])[strength]  # bad rows are dropped below
    else:
        category = np.zeros(n, np.int8)
        for ruleset_index, rules in enumerate(rulesets):
            mine = good & (rules_index == ruleset_index)
            category[mine] = category_of_strength(rules)[strength[mine]]

    any_bad = bool(bad.any())
    keep = np.flatnonzero(good) if any_bad else slice(None)
    out = table.filter(pa.array(good)) if any_bad else table
    kept_categories = category[keep]
    added: dict[str, pa.Array] = {
        "strength": pa.array(strength[keep]),
        "key": pa.array(key[keep]),
        "category": pa.DictionaryArray.from_arrays(pa.array(kept_categories), pa.array(CATEGORY_NAMES)),
    }
    if description is not None:
        added["description"] = pa.array(description[keep].tolist(), pa.string())
    deal_counts = DealCounts()
    if deal_log:
        verdict = adjudicate(table, starts, bad, counts, rules_index, key, split, loose)
        deal_counts = verdict.pop("_counts")
        for name, values in verdict.items():
            added[name] = values.take(pa.array(keep)) if any_bad else values
    for name, values in added.items():
        out = out.append_column(name, values)

    categories = np.bincount(kept_categories, minlength=len(CATEGORY_NAMES))
    return ChunkResult(
        table=out,
        cards=cards[keep],
        repeated_card_rows=starts[repeated] if deal_log else np.zeros(0, np.int64),
        errors=_errors_table(table, reasons, first_row, line_offset),
        deals=deal_counts.deals, invalid_deals=deal_counts.invalid, disputes=deal_counts.disputes,
        uncontested=deal_counts.uncontested, no_result=deal_counts.no_result,
        categories={name: int(c) for name, c in zip(CATEGORY_NAMES, categories) if c},
    )


def _where_text(row: int, line_offset: int | None) -> str:
    return f"row {row + 1}" + (f" (line {row + line_offset})" if line_offset is not None else "")


def _errors_table(table: pa.Table, reasons: dict[int, str], first_row: int, line_offset: int | None) -> pa.Table:
    rows = np.array(sorted(reasons), dtype=np.int64)
    picked = pa.array(rows)
    deal_ids = (table[DEAL_COLUMN].take(picked).cast(pa.string()) if DEAL_COLUMN in table.column_names
                else pa.nulls(len(rows), pa.string()))
    return pa.table({
        "row": pa.array(rows + first_row + 1),
        "line": pa.array(rows + first_row + line_offset) if line_offset is not None else pa.nulls(len(rows), pa.int64()),
        "deal_id": deal_ids,
        "cards": table["cards"].take(picked).cast(pa.string()),
        "reason": pa.array([reasons[r] for r in rows.tolist()], pa.string()),
    }, schema=ERRORS_SCHEMA)
