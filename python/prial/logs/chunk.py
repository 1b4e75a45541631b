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

from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._core import PARSE_NULL, parse_text_column, text_hand_problem
from ..descriptions import describe_hands
from ..evaluator import evaluator_for
from ..rules import PRESETS, Rules, with_preset
from .adjudicate import DealCounts, Verdict, adjudicate, deal_runs
from .columns import ADDED_COLUMNS, CATEGORY_NAMES, DEAL_COLUMN, MAX_WIDTH, WIDTHS, check_cards_column, is_laid_log
from .errors import LogError
from .laid import score_laid_table
from .options import ScoreOptions
from .result import ChunkResult, errors_table, where_text
from .typed import checked

_ALLOWED_COUNT = np.isin(np.arange(256), WIDTHS)  # count -> is it a hand size?


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
    if status == PARSE_NULL or text is None:
        return "cards missing"
    if status:
        return text_hand_problem(text, MAX_WIDTH, pack_size)
    expected = " or ".join(str(w) for w in WIDTHS)
    return f"{count} card{'s' if count != 1 else ''}; expected {expected}"


def category_of_strength(rules: Rules) -> np.ndarray:
    """int8 array: strength -> Category value, for one ruleset (the
    output's dictionary indices are int8)."""
    return evaluator_for(rules).categories.view(np.int8)


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


# ---- the kernel, step by step ----

class Rows(NamedTuple):
    """A chunk's rows as the steps of ``score_table`` see them: each row's
    cards (uint8 (N, 5), NO_CARD past the hand), how many, its parse
    status (the native ParseStatus, 0 when read), its ruleset; and the
    pack the cards were read against."""

    cards: np.ndarray
    counts: np.ndarray
    status: np.ndarray
    rulesets: list[Rules]
    rules_index: np.ndarray
    pack_size: int


def read_rows(table: pa.Table, options: ScoreOptions) -> tuple[Rows, np.ndarray]:
    """The rows' cards and rulesets, and the rows whose game is unknown.
    Every game of a log keeps the jokers of ``options.rules``
    (``with_preset``), so one pack reads every row's cards."""
    rulesets, rules_index, unknown_game = row_rules(table, options.rules)
    pack_size = options.rules.pack_size
    cards, counts, status, _where = parse_text_cards(table["cards"], pack_size, options.threads)
    return Rows(cards, counts, status, rulesets, rules_index, pack_size), unknown_game


def bad_rows(table: pa.Table, rows: Rows, unknown_game: np.ndarray,
             read_problems: dict[int, str]) -> tuple[np.ndarray, dict[int, str]]:
    """(the rows that cannot be scored, why each): cards that cannot be
    read or not a hand's number of them, an unknown game, a value of the
    wrong type."""
    card_bad = (rows.status != 0) | ~_ALLOWED_COUNT[rows.counts]
    bad = card_bad | unknown_game
    reasons: dict[int, str] = {}
    picked = np.flatnonzero(card_bad)
    if picked.size:
        texts = table["cards"].take(pa.array(picked)).to_pylist()
        for row, text in zip(picked.tolist(), texts):
            reasons[row] = card_problem(text, int(rows.counts[row]), int(rows.status[row]), rows.pack_size)
    if unknown_game.any():
        games = table["game"].take(pa.array(np.flatnonzero(unknown_game))).to_pylist()
        for row, game in zip(np.flatnonzero(unknown_game).tolist(), games):
            reasons.setdefault(row, f"unknown game {game!r} (expected one of {', '.join(PRESETS)})")
    for row, why in read_problems.items():  # a value of the wrong type: the cause of what follows from it
        bad[row] = True
        reasons[row] = why
    return bad, reasons


def hand_keys(rows: Rows, good: np.ndarray, options: ScoreOptions) -> tuple[np.ndarray, np.ndarray | None]:
    """(the comparison key of each good row, its description if asked),
    per ruleset and hand size.  The key (best-of layout: strength << 8 |
    discards) decides a showdown, the discard tie-break of four- and
    five-card Brag included."""
    n = len(rows.counts)
    key = np.zeros(n, np.uint32)
    description = np.empty(n, dtype=object) if options.describe else None
    for ruleset_index, rules in enumerate(rows.rulesets):
        mine = good & (rows.rules_index == ruleset_index)
        ev = evaluator_for(rules)
        for width in WIDTHS:
            selected = mine & (rows.counts == width)
            # The common case, every row one size and one ruleset: no gather/scatter.
            picked = slice(None) if selected.all() else np.flatnonzero(selected)
            if isinstance(picked, np.ndarray) and picked.size == 0:
                continue
            hands = np.ascontiguousarray(rows.cards[picked, :width])
            if width == 3:
                key[picked] = ev.evaluate_batch(hands, threads=options.threads).astype(np.uint32) << 8
            else:
                key[picked] = ev.best_of_batch(hands, threads=options.threads)
            if description is not None:
                description[picked] = describe_hands(ev, hands)
    return key, description


def categories_of(strength: np.ndarray, good: np.ndarray, rows: Rows) -> np.ndarray:
    """The Category value (int8) of each good row's strength, under its ruleset."""
    if len(rows.rulesets) == 1:
        return category_of_strength(rows.rulesets[0])[strength]  # bad rows are dropped by the caller
    category = np.zeros(len(strength), np.int8)
    for ruleset_index, rules in enumerate(rows.rulesets):
        mine = good & (rows.rules_index == ruleset_index)
        category[mine] = category_of_strength(rules)[strength[mine]]
    return category


def added_columns(key: np.ndarray, category: np.ndarray, description: np.ndarray | None,
                  verdict: Verdict | None, keep: np.ndarray | slice) -> dict[str, pa.Array]:
    """The columns scoring adds, of the rows kept (``keep``)."""
    added: dict[str, pa.Array] = {
        "strength": pa.array((key >> 8).astype(np.uint16)[keep]),
        "key": pa.array(key[keep]),
        "category": pa.DictionaryArray.from_arrays(pa.array(category[keep]), pa.array(CATEGORY_NAMES)),
    }
    if description is not None:
        added["description"] = pa.array(description[keep].tolist(), pa.string())
    if verdict is not None:
        for name, values in verdict.columns.items():
            added[name] = values if isinstance(keep, slice) else values.take(pa.array(keep))
    return added


def score_table(table: pa.Table, first_row: int, options: ScoreOptions, line_offset: int | None,
                split_deals: pa.Array | None = None, loose_ends: tuple[bool, bool] = (False, False)) -> ChunkResult:
    """Scores the rows of ``table`` (whole deals), the first being input row
    ``first_row`` (0-based).  ``line_offset`` turns a row index into a text
    line number (CSV: 2, JSON Lines: 1; None for Parquet).  ``split_deals``:
    deal ids whose rows are not consecutive in the whole log (their deals
    get a deal_problem, not a winner from part of their rows).
    ``loose_ends``: a row without a deal id lies just before ``table``,
    just after it, in the log (its first, its last deal may miss it).
    A log of laid hands (nine-card Brag, Crash) is scored by
    ``score_laid_table``."""
    if is_laid_log(table.column_names):
        return score_laid_table(table, first_row, options, line_offset, split_deals, loose_ends)
    table, read_problems = checked(table)
    stale = [name for name in ADDED_COLUMNS if name in table.column_names]
    if stale:  # a scored file scored again: its results are recomputed, not duplicated
        table = table.drop_columns(stale)
    check_cards_column(table.column_names)
    rows, unknown_game = read_rows(table, options)
    bad, reasons = bad_rows(table, rows, unknown_game, read_problems)
    deal_log = DEAL_COLUMN in table.column_names
    if deal_log:
        ok = (rows.status == 0) & ~bad
        starts, deal_bad, split, loose, repeated = deal_runs(table, rows.cards, rows.counts, ok, reasons,
                                                             split_deals, loose_ends)
        bad |= deal_bad
    if options.strict and bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise LogError(f"{where_text(first_row + row, line_offset)}: {reasons[row]}")

    good = ~bad
    key, description = hand_keys(rows, good, options)
    category = categories_of((key >> 8).astype(np.uint16), good, rows)
    verdict = (adjudicate(table, starts, bad, rows.counts, rows.rules_index, key, split, loose)
               if deal_log else None)
    any_bad = bool(bad.any())
    keep = np.flatnonzero(good) if any_bad else slice(None)
    out = table.filter(pa.array(good)) if any_bad else table
    for name, values in added_columns(key, category, description, verdict, keep).items():
        out = out.append_column(name, values)

    deal_counts = verdict.counts if verdict is not None else DealCounts()
    categories = np.bincount(category[keep], minlength=len(CATEGORY_NAMES))
    return ChunkResult(
        table=out,
        cards=rows.cards[keep],
        repeated_card_rows=starts[repeated] if deal_log else np.zeros(0, np.int64),
        errors=errors_table(table, reasons, first_row, line_offset),
        deals=deal_counts.deals, invalid_deals=deal_counts.invalid, disputes=deal_counts.disputes,
        uncontested=deal_counts.uncontested, no_result=deal_counts.no_result,
        categories={name: int(c) for name, c in zip(CATEGORY_NAMES, categories) if c},
    )
