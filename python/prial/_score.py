"""Scoring one chunk of a hand log: the kernel shared by every engine.

A chunk is a ``pyarrow.Table`` of whole deals (the engines make sure a deal
is never split).  Cards are parsed in C++ straight from the Arrow string
buffers; strengths come from the batch evaluators; deals are adjudicated
with numpy reductions over the (consecutive) rows of each deal.  No Python
code runs per row, except to word the reason of a bad row.

Log format (README "Scoring hand logs"): one row per player per deal with
``deal_id``, ``player``, ``cards`` and optionally ``blind``, ``seer``,
``folded``, ``won`` and ``game``; or just a ``cards`` column (a plain file of
hands, only ranked).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import _core
from ._evaluator import Evaluator
from ._rules import PRESETS, Rules
from ._score_types import ScoreError, ScoreOptions
from ._types import Category

# Hand sizes a log may hold (three-, four- and five-card Brag), and the widest.
WIDTHS = (3, 4, 5)
MAX_WIDTH = 5
NO_CARD = 0xFF

DEAL_COLUMN = "deal_id"
FLAG_COLUMNS = ("blind", "seer", "folded", "won")
TEXT_COLUMNS = ("cards", "game")
ADDED_COLUMNS = ("strength", "key", "category", "description", "winner", "winners", "dispute", "deal_problem")
CATEGORY_NAMES = [c.name for c in Category]
CATEGORY_TYPE = pa.dictionary(pa.int8(), pa.string())

_ALLOWED_COUNT = np.isin(np.arange(256), WIDTHS)  # count -> is it a hand size?

# Why a row is bad, by the native ParseStatus (cards.hpp).
_STATUS_NULL = 1


@dataclass
class ChunkResult:
    table: pa.Table  # the good rows with the added columns
    errors: pa.Table  # row, line, deal_id, cards, reason
    deals: int
    invalid_deals: int
    disputes: int
    categories: dict[str, int]


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
    return _core.parse_text_column(
        validity, offsets, data,
        large_offsets=pa.types.is_large_string(column.type), offset=column.offset,
        rows=len(column), width=MAX_WIDTH, pack_size=pack_size, threads=threads,
    )


def card_problem(text: str | None, count: int, status: int, pack_size: int) -> str:
    """The reason a row's cards were rejected, worded for the errors file."""
    if status == _STATUS_NULL or text is None:
        return "cards missing"
    if status:
        return _core.text_hand_problem(text, MAX_WIDTH, pack_size)
    expected = " or ".join(str(w) for w in WIDTHS)
    return f"{count} card{'s' if count != 1 else ''}; expected {expected}"


@functools.lru_cache(maxsize=32)
def evaluator(rules: Rules) -> Evaluator:
    return Evaluator(rules)


@functools.lru_cache(maxsize=32)
def category_of_strength(rules: Rules) -> np.ndarray:
    """int8 array: strength -> Category value, for one ruleset."""
    ev = evaluator(rules)
    hands = _all_three_card_hands(rules.pack_size)
    strengths = ev.evaluate_batch(hands)
    table = np.full(ev.classes + 1, -1, dtype=np.int8)
    classes, first = np.unique(strengths, return_index=True)
    for strength, index in zip(classes.tolist(), first.tolist()):
        table[strength] = int(ev.evaluate(hands[index].tolist()).category)
    return table


@functools.lru_cache(maxsize=4)
def _all_three_card_hands(pack_size: int) -> np.ndarray:
    return np.array(list(itertools.combinations(range(pack_size), 3)), dtype=np.uint8)


def describe_hands(rules: Rules, hands: np.ndarray) -> list[str]:
    """Descriptions of (N, width) hands (of the best three for four or five
    cards): each distinct hand is described once."""
    ordered = np.sort(hands.astype(np.int64), axis=1)
    codes = np.zeros(len(hands), np.int64)
    for column in range(hands.shape[1]):
        codes = codes * 64 + ordered[:, column]
    unique, inverse = np.unique(codes, return_inverse=True)
    ev = evaluator(rules)
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
            rulesets.append(_with_preset(base, name))
        else:
            unknown |= indices == i
    if not rulesets:
        rulesets.append(base)
    return rulesets, index, unknown


def _with_preset(base: Rules, preset: str) -> Rules:
    return Rules(preset=preset, lowball=base.lowball, wild=base.wild, jokers=base.jokers, wild_ties=base.wild_ties)


def _flag(table: pa.Table, name: str) -> tuple[np.ndarray, np.ndarray]:
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


# ---- the kernel ----

def score_table(table: pa.Table, first_row: int, options: ScoreOptions, line_offset: int | None) -> ChunkResult:
    """Scores the rows of ``table`` (whole deals), the first being input row
    ``first_row`` (0-based).  ``line_offset`` turns a row index into a text
    line number (CSV: 2, JSON Lines: 1; None for Parquet)."""
    n = table.num_rows
    stale = [name for name in ADDED_COLUMNS if name in table.column_names]
    if stale:  # a scored file scored again: its results are recomputed, not duplicated
        table = table.drop_columns(stale)
    if "cards" not in table.column_names:
        raise ScoreError(f"the input has no 'cards' column (columns: {', '.join(table.column_names)})")
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

    deal_log = DEAL_COLUMN in table.column_names
    if deal_log:
        starts, deal_bad = _deal_runs(table, cards, counts, parsed & ~bad, reasons)
        bad |= deal_bad
    if options.strict and bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ScoreError(f"{_where_text(first_row + row, line_offset)}: {reasons[row]}")

    # Strengths and comparison keys of the good rows.  The key (best-of
    # layout: strength << 8 | discards) decides a showdown, the discard
    # tie-break of four- and five-card Brag included.
    key = np.zeros(n, np.uint32)
    description = np.empty(n, dtype=object) if options.describe else None
    good = ~bad
    for ruleset_index, rules in enumerate(rulesets):
        mine = good & (rules_index == ruleset_index)
        ev = evaluator(rules)
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
    deals = invalid = disputes = 0
    if deal_log:
        verdict = _adjudicate(table, starts, bad, counts, rules_index, key)
        deals, invalid, disputes = verdict.pop("_counts")
        for name, values in verdict.items():
            added[name] = values.take(pa.array(keep)) if any_bad else values
    for name, values in added.items():
        out = out.append_column(name, values)

    categories = np.bincount(kept_categories, minlength=len(CATEGORY_NAMES))
    return ChunkResult(
        table=out,
        errors=_errors_table(table, reasons, first_row, line_offset),
        deals=deals, invalid_deals=invalid, disputes=disputes,
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


def deal_run_starts(ids: pa.Array) -> np.ndarray:
    """Row index where each run of equal consecutive deal ids begins."""
    n = len(ids)
    if n == 0:
        return np.zeros(0, np.int64)
    if ids.null_count == 0 and (pa.types.is_integer(ids.type) or pa.types.is_floating(ids.type)):
        values = ids.to_numpy()
        change = values[1:] != values[:-1]
    else:
        change = pc.not_equal(ids.slice(1), ids.slice(0, n - 1))
        if change.null_count:
            change = change.fill_null(True)
        change = np.asarray(change.to_numpy(zero_copy_only=False), bool)
    return np.concatenate([[0], np.flatnonzero(change) + 1]).astype(np.int64)


def _strictly_increasing(ids: pa.Array) -> bool:
    """Cheap proof that no deal id repeats (sorted logs), before hashing."""
    if ids.null_count or not pa.types.is_integer(ids.type):
        return False
    values = ids.to_numpy()
    return bool((values[1:] > values[:-1]).all())


def _deal_runs(table: pa.Table, cards: np.ndarray, counts: np.ndarray, ok: np.ndarray, reasons: dict[int, str]):
    """(run starts, rows made bad): a missing deal id, a deal whose rows are
    not consecutive, a card held twice within a deal."""
    n = table.num_rows
    ids = table[DEAL_COLUMN].combine_chunks()
    starts = deal_run_starts(ids)
    bad = np.zeros(n, bool)
    if ids.null_count:
        for row in np.flatnonzero(~np.asarray(ids.is_valid().to_numpy(zero_copy_only=False), bool)).tolist():
            bad[row] = True
            reasons.setdefault(row, "deal_id missing")
    if n == 0:
        return starts, bad
    lengths = np.diff(np.append(starts, n))
    run_ids = ids.take(pa.array(starts))
    if not _strictly_increasing(run_ids) and pc.count_distinct(run_ids).as_py() < len(starts):
        codes = pc.dictionary_encode(run_ids).indices.to_numpy(zero_copy_only=False)
        _, first = np.unique(codes, return_index=True)
        for run in np.setdiff1d(np.arange(len(starts)), first).tolist():
            for row in range(int(starts[run]), int(starts[run] + lengths[run])):
                bad[row] = True
                reasons.setdefault(row, f"deal {run_ids[run].as_py()!r} continues after other deals "
                                        "(the rows of a deal must be consecutive)")
    # A card twice in one deal: OR of one-bit-per-card masks vs. the count.
    row_masks = np.zeros(n, np.uint64)
    for position in range(int(counts.max(initial=0))):  # no column past the widest hand
        column = cards[:, position]
        held_here = ok & (column != NO_CARD)
        row_masks |= np.where(held_here, np.left_shift(np.uint64(1), column.astype(np.uint64)), np.uint64(0))
    held = np.add.reduceat(_popcount(row_masks), starts)
    distinct = _popcount(np.bitwise_or.reduceat(row_masks, starts))
    for run in np.flatnonzero(held != distinct).tolist():
        begin, end = int(starts[run]), int(starts[run] + lengths[run])
        owner: dict[int, int] = {}
        for row in range(begin, end):
            for card in cards[row][cards[row] != NO_CARD].tolist() if ok[row] else []:
                if card in owner:
                    for culprit, other in ((row, owner[card]), (owner[card], row)):
                        bad[culprit] = True
                        reasons.setdefault(culprit, f"card {_core.format_cards([card])} also held in this deal "
                                                    f"by the player at row offset {other - begin + 1}")
                else:
                    owner[card] = row
    return starts, bad


def _popcount(masks: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (np.bitwise_count needs numpy 2)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(masks).astype(np.int64)
    return np.unpackbits(masks.view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1, dtype=np.int64)


def _differs_within_deal(values: np.ndarray, good: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per deal: do its good rows hold different values?"""
    if np.count_nonzero(np.bincount(values[good].astype(np.int64))) <= 1:  # the common case
        return np.zeros(len(starts), bool)
    v = values.astype(np.int64)
    high = np.maximum.reduceat(np.where(good, v, np.iinfo(np.int64).min), starts)
    low = np.minimum.reduceat(np.where(good, v, np.iinfo(np.int64).max), starts)
    return (high != low) & (high >= low)


def _adjudicate(table: pa.Table, starts: np.ndarray, bad: np.ndarray, counts: np.ndarray,
                rules_index: np.ndarray, key: np.ndarray) -> dict:
    """SPEC §5 per deal: winner (bool per row), winners (how many share),
    dispute (the recorded ``won`` disagrees), deal_problem (why a deal
    cannot be adjudicated; its winner columns are then null)."""
    n = table.num_rows
    lengths = np.diff(np.append(starts, n))
    deal_of_row = np.repeat(np.arange(len(starts)), lengths)
    folded, _ = _flag(table, "folded")
    seer, _ = _flag(table, "seer")
    blind, _ = _flag(table, "blind")
    won, won_known = _flag(table, "won")
    good = ~bad

    # Keys fit in 24 bits: int32 reductions, -1 standing for "no such player".
    def per_deal_sum(values: np.ndarray) -> np.ndarray:
        return np.add.reduceat(values.astype(np.int32), starts) if n else np.zeros(0, np.int32)

    def per_deal_max(values: np.ndarray) -> np.ndarray:
        return np.maximum.reduceat(values, starts) if n else np.zeros(0, values.dtype)

    def per_deal_any(values: np.ndarray) -> np.ndarray:
        return np.logical_or.reduceat(values, starts) if n else np.zeros(0, bool)

    active = good & ~folded
    n_active = per_deal_sum(active)
    seer_active = active & seer
    n_seers = per_deal_sum(seer_active)
    key32 = key.astype(np.int32)
    best = per_deal_max(np.where(active, key32, -1))
    any_seer = n_seers > 0
    if any_seer.any():
        seer_key = per_deal_max(np.where(seer_active, key32, -1))
        seen_key = per_deal_max(np.where(active & ~seer, key32, -1))
        seer_blind = per_deal_any(seer_active & blind)
        seen_blind = per_deal_any(active & ~seer & blind)
    else:
        seer_key = seen_key = best
        seer_blind = seen_blind = any_seer
    width_mixed = _differs_within_deal(counts, good, starts)
    game_mixed = _differs_within_deal(rules_index, good, starts)

    # The first problem found names the deal; order matters for the message.
    checks = [
        (per_deal_any(bad), "rows of this deal are in the errors file"),
        (width_mixed, "players hold different numbers of cards"),
        (game_mixed, "players play different games"),
        (per_deal_any(good & folded & seer), "a folded player is marked as the seer"),
        (n_seers > 1, "more than one seer"),
        ((n_seers == 1) & (n_active != 2), "a see needs exactly two players left"),
        ((n_seers == 1) & ~seer_blind & seen_blind, "an open player cannot see a blind player"),
        (n_active == 0, "every player folded"),
    ]
    problem = np.full(len(starts), -1, dtype=np.int8)
    for code, (mask, _why) in enumerate(checks):
        problem[mask & (problem < 0)] = code
    valid = problem < 0
    seen_deal = n_seers == 1
    seer_wins = seer_key > seen_key  # the seer must be strictly better
    row_seen_deal = seen_deal[deal_of_row]
    winner = active & np.where(row_seen_deal, seer == seer_wins[deal_of_row], key32 == best[deal_of_row])
    winners = per_deal_sum(winner)
    row_valid = valid[deal_of_row]
    disagree = row_valid & won_known & (won != winner)
    deal_dispute = per_deal_any(disagree)
    invalid_rows = ~row_valid
    result = {
        "winner": pa.array(winner, mask=invalid_rows),
        "winners": pa.array(winners[deal_of_row].astype(np.uint8), mask=invalid_rows),
    }
    if "won" in table.column_names:
        result["dispute"] = pa.array(deal_dispute[deal_of_row], mask=invalid_rows)
    row_problem = problem[deal_of_row]
    result["deal_problem"] = pa.DictionaryArray.from_arrays(
        pa.array(row_problem, mask=row_problem < 0), pa.array([why for _mask, why in checks], pa.string()))
    result["_counts"] = (len(starts), int((~valid).sum()), int((deal_dispute & valid).sum()))
    return result
