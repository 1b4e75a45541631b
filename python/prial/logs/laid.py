"""Scoring a chunk of a log of laid hands: nine-card Brag and Crash deals,
one row per player with the hands in the order laid down (docs/scoring.md,
"Nine-card and Crash deals"), each deal scored by ``crash_showdown``.

The rows are read and checked in Python (a deal is scored in Python
anyway); cards held twice in a deal are found by the same reductions as
in a log of played hands (``deal_runs``), the cards a player gave up for a
spare hand counted as theirs, so that no dead card is in play.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..cards import cards_of, format_cards
from ..categories import Category
from ..errors import Error
from ..evaluator import evaluator_for
from ..play.crash import CrashPlayer, crash_showdown
from ..play.crash_deal import CRASH_CARDS, DEAL_SIZES, spare_hands
from .adjudicate import BAD_ROWS, LOOSE_ROW, MIXED_WIDTHS, SPLIT_DEAL, deal_run_starts, deal_runs
from .columns import DEAL_COLUMN, HAND_SEPARATOR, HANDS_COLUMN, LAID_ADDED_COLUMNS, NO_CARD, flag
from .errors import LogError
from .options import ScoreOptions
from .result import ChunkResult, errors_table, where_text
from .typed import checked

MAX_LAID_HANDS = 4
# A row's cards: those it holds, then those it gave up for a spare hand.
ROW_WIDTH = 2 * CRASH_CARDS
_SIZES = " or ".join(f"{size} ({name.replace('_', '-')})" for name, size in DEAL_SIZES.items())


class _Row:
    """A row's hands, discards and given-up cards as card indices."""

    __slots__ = ("hands", "discards", "given_up")

    def __init__(self, hands: list[list[int]], discards: list[int], given_up: list[int]) -> None:
        self.hands, self.discards, self.given_up = hands, discards, given_up

    @property
    def held(self) -> int:
        return 3 * len(self.hands) + len(self.discards)


def _text(table: pa.Table, name: str) -> list[object]:
    if name not in table.column_names:
        return [None] * table.num_rows
    return table[name].to_pylist()  # a value not text is named by _read_row


def _read_row(hands: object, discards: object, given_up: object, exchanged: bool) -> _Row | str:
    """The row read, or why it cannot be."""
    for name, value in (("hands", hands), ("discards", discards), ("given_up", given_up)):
        if value is not None and not isinstance(value, str):
            return f"{name}: expected text, got {value!r}"
    if not isinstance(hands, str) or not hands.strip():
        return "hands missing"
    discards = discards if isinstance(discards, str) else ""
    given_up = given_up if isinstance(given_up, str) else ""
    parts = [part.strip() for part in hands.split(HAND_SEPARATOR)]
    if len(parts) > MAX_LAID_HANDS:
        return f"{len(parts)} hands; at most {MAX_LAID_HANDS}"
    try:
        laid = [cards_of(part, f"hand {i}") for i, part in enumerate(parts, 1)]
        row = _Row(laid, cards_of(discards, "discards"), cards_of(given_up, "given_up"))
    except Error as exc:
        return str(exc)
    for i, hand in enumerate(laid, 1):
        if len(hand) != 3:
            return f"hand {i} holds {len(hand)} card{'s' if len(hand) != 1 else ''}; a hand is three"
    if row.held not in DEAL_SIZES.values():
        return f"{row.held} cards in hands and discards; a player is dealt {_SIZES}"
    mine = [c for h in laid for c in h] + row.discards + row.given_up
    twice = next((c for i, c in enumerate(mine) if c in mine[:i]), None)
    if twice is not None:
        return f"card {format_cards([twice])} is twice in this player's cards"
    if exchanged:
        if row.held != CRASH_CARDS:
            return "exchanged, but a nine-card deal has no spare hand"
        if len(row.given_up) != CRASH_CARDS:
            return f"exchanged, but given_up holds {len(row.given_up)} cards, not the {CRASH_CARDS} given up"
    elif row.given_up:
        return "given_up holds cards, but exchanged is not true"
    return row


def _exchange_problems(rows: list[_Row | str], begin: int, end: int, exchanged: np.ndarray) -> dict[int, str]:
    """The rows of one deal whose exchange for a spare hand its game does
    not allow: none where it has no spare, a second where the first blocks
    the rest."""
    players = end - begin
    takers = [r for r in range(begin, end) if exchanged[r] and isinstance(rows[r], _Row)]
    if not takers:
        return {}
    spares = spare_hands(players, CRASH_CARDS)
    if not spares:
        return {r: f"exchanged for a spare hand, but a deal of {players} players has none (only two- and "
                   "three-player Crash deals have)" for r in takers}
    if spares == 1:
        return {r: f"exchanged for the spare hand after the player at row offset {takers[0] - begin + 1} did: "
                   "the first exchange blocks the rest" for r in takers[1:]}
    return {}


def score_laid_table(table: pa.Table, first_row: int, options: ScoreOptions, line_offset: int | None,
                     split_deals: pa.Array | None = None,
                     loose_ends: tuple[bool, bool] = (False, False)) -> ChunkResult:
    """``score_table`` for a log of laid hands (its arguments mean the same)."""
    table, read_problems = checked(table)
    stale = [name for name in LAID_ADDED_COLUMNS if name in table.column_names]
    if stale:  # a scored file scored again
        table = table.drop_columns(stale)
    if DEAL_COLUMN not in table.column_names:
        raise LogError(f"a log of laid hands (a '{HANDS_COLUMN}' column) needs a '{DEAL_COLUMN}' column: each "
                       "deal is scored from its players' rows together")
    n = table.num_rows
    exchanged, _known = flag(table, "exchanged")
    rows = [_read_row(h, d, g, bool(x)) for h, d, g, x in
            zip(_text(table, HANDS_COLUMN), _text(table, "discards"), _text(table, "given_up"), exchanged)]
    reasons = {r: row for r, row in enumerate(rows) if isinstance(row, str)}
    reasons.update(read_problems)  # a value of the wrong type: the cause of what follows from it
    # An exchange the game does not allow is the cause of the cards it
    # brings in twice: said first, and its row's cards kept out of the
    # deal's check for cards held twice.
    starts = deal_run_starts(table[DEAL_COLUMN].combine_chunks()) if n else np.zeros(0, np.int64)
    for begin, end in zip(starts.tolist(), np.append(starts[1:], n).tolist()):
        for r, why in _exchange_problems(rows, begin, end, exchanged).items():
            reasons.setdefault(r, why)
    bad = np.zeros(n, bool)
    bad[list(reasons)] = True
    cards = np.full((n, ROW_WIDTH), NO_CARD, np.uint8)
    counts = np.zeros(n, np.int64)
    for r, row in enumerate(rows):
        if isinstance(row, _Row) and not bad[r]:
            mine = [c for h in row.hands for c in h] + row.discards + row.given_up
            cards[r, :len(mine)] = mine
            counts[r] = len(mine)
    starts, deal_bad, split, loose, repeated = deal_runs(table, cards, counts, ~bad, reasons, split_deals,
                                                         loose_ends)
    bad |= deal_bad
    ends = np.append(starts[1:], n).astype(np.int64)
    if options.strict and bad.any():
        first_bad = int(np.flatnonzero(bad)[0])
        raise LogError(f"{where_text(first_row + first_bad, line_offset)}: {reasons[first_bad]}")

    columns, categories = _scored_columns(rows, starts, ends, bad, split, loose, options)
    good = ~bad
    keep = np.flatnonzero(good)
    out = table.filter(pa.array(good))
    for name, values in columns.items():
        if name != "description" or options.describe:
            out = out.append_column(name, values.take(keep))
    problems = columns["deal_problem"].to_pylist()
    first_of_deal = [problems[b] for b in starts.tolist()]
    deals = len(starts) if table[DEAL_COLUMN].null_count < n else 0
    invalid = sum(p is not None for p in first_of_deal) if deals else 0
    return ChunkResult(
        table=out, cards=np.full((len(keep), 5), NO_CARD, np.uint8),
        repeated_card_rows=starts[repeated],
        errors=errors_table(table, reasons, first_row, line_offset, HANDS_COLUMN),
        deals=deals, invalid_deals=invalid, disputes=0, categories=categories,
    )


def _scored_columns(rows: list[_Row | str], starts: np.ndarray, ends: np.ndarray, bad: np.ndarray,
                    split: np.ndarray, loose: np.ndarray,
                    options: ScoreOptions) -> tuple[dict[str, pa.Array], dict[str, int]]:
    """The columns scoring adds, for every row (null where its deal is not
    scored), and the categories of the hands of the deals scored."""
    n = len(rows)
    points: list[int | None] = [None] * n
    won: list[str | None] = [None] * n
    crash: list[bool | None] = [None] * n
    bonus: list[bool | None] = [None] * n
    fouled: list[bool | None] = [None] * n
    foul: list[str | None] = [None] * n
    description: list[str | None] = [None] * n
    problem: list[str | None] = [None] * n
    tally: dict[str, int] = {}
    category_of = evaluator_for(options.rules).categories
    for run, (begin, end) in enumerate(zip(starts.tolist(), ends.tolist())):
        why = None
        if split[run]:
            why = SPLIT_DEAL
        elif loose[run]:
            why = LOOSE_ROW
        elif bad[begin:end].any():
            why = BAD_ROWS
        elif len({rows[r].held for r in range(begin, end)}) > 1:  # type: ignore[union-attr]
            why = MIXED_WIDTHS
        if why is None:
            players = [CrashPlayer(str(r - begin + 1), row.hands, row.discards)
                       for r, row in ((r, rows[r]) for r in range(begin, end)) if isinstance(row, _Row)]
            try:
                result = crash_showdown(players, **options.crash_options())
            except Error as exc:
                why = str(exc)
        if why is not None:
            problem[begin:end] = [why] * (end - begin)
            continue
        for r, player in zip(range(begin, end), result.players):
            points[r] = player.points
            won[r] = " ".join(str(i + 1) for i in player.positions_won)
            crash[r] = result.crash == player.id
            bonus[r] = player.id in result.four_of_a_kind_bonuses
            fouled[r], foul[r] = player.fouled, player.foul
            description[r] = f" {HAND_SEPARATOR} ".join(player.hands)
            for strength in player.strengths:
                name = Category(int(category_of[strength])).name
                tally[name] = tally.get(name, 0) + 1
    columns: dict[str, pa.Array] = {
        "points": pa.array(points, pa.int32()), "positions_won": pa.array(won, pa.string()),
        "crash": pa.array(crash, pa.bool_()), "four_bonus": pa.array(bonus, pa.bool_()),
        "fouled": pa.array(fouled, pa.bool_()), "foul": pa.array(foul, pa.string()),
        "description": pa.array(description, pa.string()), "deal_problem": pa.array(problem, pa.string()),
    }
    return columns, {name: tally[name] for name in (c.name for c in Category) if name in tally}
