"""The counts an audit gathers from scored chunks: small, mergeable (the
Dask engine adds up one tally per partition) and bounded in size whatever
the log's length (listed deals are capped).

A group is one value of the ``--by`` columns (one group if none).  Within a
group the dealing counts are kept apart by game and hand size, whose fair
laws differ; payouts and impossible deals are counted per group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..categories import Category
from ..logs.adjudicate import SOUND_DEAL_CHECKS, deal_run_starts
from ..logs.columns import DEAL_COLUMN, NO_CARD
from ..logs.errors import LogError
from ..logs.result import ChunkResult

MAX_SEATS = 64  # a deal's seats are bits of a uint64
CARD_CODES = 64  # card codes are below 64 in every pack
CATEGORIES = len(Category)

GroupKey = tuple[object, ...]


def _zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, np.int64)


@dataclass
class DealingTally:
    """Sound deals of one group, game and hand size: how often each seat
    played, each pair of seats played together, and what they held."""

    deals: int = 0
    seat_deals: np.ndarray = field(default_factory=lambda: _zeros(MAX_SEATS))
    pair_deals: np.ndarray = field(default_factory=lambda: _zeros(MAX_SEATS, MAX_SEATS))
    categories: np.ndarray = field(default_factory=lambda: _zeros(MAX_SEATS, CATEGORIES))
    cards: np.ndarray = field(default_factory=lambda: _zeros(MAX_SEATS, CARD_CODES))

    def add(self, other: DealingTally) -> None:
        self.deals += other.deals
        self.seat_deals += other.seat_deals
        self.pair_deals += other.pair_deals
        self.categories += other.categories
        self.cards += other.cards


@dataclass
class GroupTally:
    """One group's deals: dealing counts by (game, hand size), payouts and
    impossible deals, with the first ``limit`` deal ids of each kind kept."""

    dealing: dict[tuple[str | None, int], DealingTally] = field(default_factory=dict)
    deals: int = 0  # deals with rows in the scored output
    unadjudicable: int = 0
    adjudicated: int = 0  # adjudicated deals with a logged result
    disputes: int = 0
    uncontested: int = 0  # adjudicated deals of one player, not checked
    no_result: int = 0  # adjudicated deals where no row is logged as won, not checked
    disputed_ids: list[object] = field(default_factory=list)
    impossible: int = 0  # deals holding a card twice
    impossible_ids: list[object] = field(default_factory=list)

    def add(self, other: GroupTally, limit: int | None) -> None:
        for key, counts in other.dealing.items():
            self.dealing.setdefault(key, DealingTally()).add(counts)
        self.deals += other.deals
        self.unadjudicable += other.unadjudicable
        self.adjudicated += other.adjudicated
        self.disputes += other.disputes
        self.uncontested += other.uncontested
        self.no_result += other.no_result
        self.impossible += other.impossible
        self.disputed_ids = _capped(self.disputed_ids + other.disputed_ids, limit)
        self.impossible_ids = _capped(self.impossible_ids + other.impossible_ids, limit)


@dataclass
class Tally:
    """Every group's counts, and the rows read."""

    by: tuple[str, ...]
    limit: int | None  # deal ids kept per list; None: all
    groups: dict[GroupKey, GroupTally] = field(default_factory=dict)
    rows: int = 0
    bad_rows: int = 0

    def add(self, other: Tally) -> None:
        self.rows += other.rows
        self.bad_rows += other.bad_rows
        for key, group in other.groups.items():
            self.groups.setdefault(key, GroupTally()).add(group, self.limit)

    def group(self, key: GroupKey) -> GroupTally:
        return self.groups.setdefault(key, GroupTally())


def _capped(ids: list[object], limit: int | None) -> list[object]:
    return ids if limit is None else ids[:limit]


def group_codes(table: pa.Table, rows: np.ndarray, by: tuple[str, ...]) -> tuple[np.ndarray, list[GroupKey]]:
    """(group index of each of ``rows``, the group keys): the ``by`` values."""
    if not by:
        return np.zeros(len(rows), np.int64), [()]
    picked = table.select(list(by)).take(pa.array(rows))
    combined = np.zeros(len(rows), np.int64)
    dictionaries = []
    for name in by:
        encoded = pc.dictionary_encode(picked[name].combine_chunks(), null_encoding="encode")
        dictionaries.append(encoded.dictionary.to_pylist())
        combined = combined * (len(encoded.dictionary) + 1) + encoded.indices.to_numpy(zero_copy_only=False)
    unique, inverse = dense_codes(combined)
    keys = []
    for code in unique.tolist():
        parts = []
        for values in reversed(dictionaries):
            code, index = divmod(code, len(values) + 1)
            parts.append(values[index])
        keys.append(tuple(reversed(parts)))
    return inverse, keys


def group_codes_of(columns: dict[str, list[object]], by: tuple[str, ...]) -> tuple[np.ndarray, list[GroupKey]]:
    """``group_codes`` of rows given as lists of values, one per ``by`` name."""
    return group_codes(pa.table({name: pa.array(columns[name]) for name in by}), np.arange(len(columns[by[0]])), by)


def dense_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct values ascending, each value's index among them), as
    ``np.unique`` gives, for small non-negative codes: a count, no sort."""
    present = np.bincount(values) > 0 if len(values) else np.zeros(0, bool)
    index = np.cumsum(present) - 1
    return np.flatnonzero(present), index[values]


def _seats(table: pa.Table, seat: str | None, starts: np.ndarray) -> np.ndarray:
    """Each row's seat: the ``seat`` column's number, else its place in its deal."""
    n = table.num_rows
    if seat is None or seat not in table.column_names:
        lengths = np.diff(np.append(starts, n))
        return np.arange(n) - np.repeat(starts, lengths)
    column = table[seat].combine_chunks()
    if not pa.types.is_integer(column.type) or column.null_count:
        raise LogError(f"the seat column {seat!r} must hold seat numbers 0..{MAX_SEATS - 1} in every row "
                         f"(it is {column.type}{' with missing values' if column.null_count else ''}); "
                         "name another with --seat")
    values = column.to_numpy().astype(np.int64)
    outside = np.flatnonzero((values < 0) | (values >= MAX_SEATS))
    if outside.size:
        row = int(outside[0])
        raise LogError(f"the seat column {seat!r} holds {values[row]} (deal {_deal_id(table, row)!r}): seats are "
                         f"numbered 0..{MAX_SEATS - 1}; name another column with --seat")
    return values


def _deal_id(table: pa.Table, row: int) -> object:
    return table[DEAL_COLUMN][row].as_py() if DEAL_COLUMN in table.column_names else row


def tally_chunk(chunk: pa.Table, result: ChunkResult, by: tuple[str, ...], seat: str | None,
                limit: int | None) -> Tally:
    """The counts of one scored chunk of whole deals (``chunk`` as read,
    ``result`` its score)."""
    tally = Tally(by=by, limit=limit, rows=chunk.num_rows, bad_rows=result.errors.num_rows)
    out = result.table
    n = out.num_rows
    deal_log = DEAL_COLUMN in out.column_names
    starts = deal_run_starts(out[DEAL_COLUMN].combine_chunks()) if deal_log else np.arange(n, dtype=np.int64)
    lengths = np.diff(np.append(starts, n))
    deal_of_row = np.repeat(np.arange(len(starts)), lengths)
    group_of_deal, keys = group_codes(out, starts, by)

    if deal_log:
        problem = out["deal_problem"].combine_chunks().take(pa.array(starts))
        problem_code = problem.indices.fill_null(SOUND_DEAL_CHECKS).to_numpy(zero_copy_only=False)
        sound = problem_code >= SOUND_DEAL_CHECKS
        unadjudicable = np.asarray(problem.is_valid().to_numpy(zero_copy_only=False), bool)
    else:
        sound = np.ones(len(starts), bool)
        unadjudicable = np.zeros(len(starts), bool)
    _tally_payouts(tally, out, starts, lengths, group_of_deal, keys, unadjudicable, limit)
    _tally_impossible(tally, chunk, result.repeated_card_rows, by, limit)

    seats = _seats(out, seat, starts)
    # Which seats each deal has (up to the highest seat used); a deal with
    # fewer seats than rows seats two players at one.
    seat_count = int(seats.max(initial=0)) + 1
    presence = np.zeros((len(starts), seat_count))
    presence[deal_of_row, seats] = 1
    clash = sound & (presence.sum(axis=1) != lengths)
    if clash.any():
        deal = int(np.flatnonzero(clash)[0])
        raise LogError(f"deal {_deal_id(out, int(starts[deal]))!r} seats two players at one seat of "
                         f"{'column ' + repr(seat) if seat in out.column_names else 'the deal'}; name the seat "
                         "column with --seat")
    if not len(starts):
        return tally
    if "game" in out.column_names:
        encoded = pc.dictionary_encode(out["game"].cast(pa.string()).take(pa.array(starts)).combine_chunks())
        games, game_of_deal = encoded.dictionary.to_pylist(), encoded.indices.to_numpy(zero_copy_only=False)
    else:
        games, game_of_deal = [None], np.zeros(len(starts), np.int64)
    widths = np.count_nonzero(result.cards[starts] != NO_CARD, axis=1)
    category = out["category"].combine_chunks().indices.to_numpy(zero_copy_only=False).astype(np.int64)
    add_dealing(tally, keys, group_of_deal, games, game_of_deal, widths, sound, presence,
                DealtHands(deal_of_row, seats, category, result.cards))
    return tally


class DealtHands(NamedTuple):
    """The hands of a chunk's deals, a row each: its deal (an index of the
    chunk's deals), its seat, its hand's category (a Category value) and
    its cards (rows x at least the widest hand, NO_CARD past a hand's end)."""

    deal: np.ndarray
    seat: np.ndarray
    category: np.ndarray
    cards: np.ndarray


def add_dealing(tally: Tally, keys: list[GroupKey], group_of_deal: np.ndarray, games: list[str | None],
                game_of_deal: np.ndarray, widths: np.ndarray, sound: np.ndarray, presence: np.ndarray,
                hands: DealtHands) -> None:
    """Adds the dealing counts of a chunk's sound deals to ``tally``: per
    deal its group (an index of ``keys``), game (of ``games``), hand size
    and whether it is sound; ``presence``: deals x seats, 1 where a seat
    holds a hand of ``hands``."""
    if not len(group_of_deal):
        return
    combined = (group_of_deal * len(games) + game_of_deal) * (NO_CARD + 1) + widths
    unique, sub_of_deal = dense_codes(combined)
    sub_keys = {}
    for sub, code in enumerate(unique.tolist()):
        rest, width = divmod(code, NO_CARD + 1)
        g, game = divmod(rest, len(games))
        sub_keys[(g, games[game], width)] = sub
    subs = len(sub_keys)
    row_sound = sound[hands.deal]
    cell = (sub_of_deal[hands.deal] * MAX_SEATS + hands.seat)[row_sound]  # (dealing tally, seat) of each row
    category = hands.category[row_sound]
    deals = np.bincount(sub_of_deal[sound], minlength=subs)
    seat_deals = np.bincount(cell, minlength=subs * MAX_SEATS).reshape(subs, MAX_SEATS)
    categories = np.bincount(cell * CATEGORIES + category, minlength=subs * MAX_SEATS * CATEGORIES)
    held = hands.cards[row_sound]
    cards = np.zeros(subs * MAX_SEATS * CARD_CODES, np.int64)
    for position in range(int(widths.max())):
        column = held[:, position].astype(np.int64)
        there = column != NO_CARD
        cards += np.bincount((cell * CARD_CODES + column)[there], minlength=cards.size)
    # Deals of each pair of seats: the products of the sound deals' seat
    # rows, summed per tally.
    seat_count = presence.shape[1]
    pairs = np.zeros((subs, MAX_SEATS, MAX_SEATS), np.int64)
    for sub in range(subs):
        mine = presence[sound & (sub_of_deal == sub)]
        pairs[sub, :seat_count, :seat_count] = np.rint(mine.T @ mine).astype(np.int64)
    categories = categories.reshape(subs, MAX_SEATS, CATEGORIES)
    cards = cards.reshape(subs, MAX_SEATS, CARD_CODES)
    for (g, game, width), sub in sub_keys.items():
        tally.group(keys[g]).dealing.setdefault((game, width), DealingTally()).add(DealingTally(
            deals=int(deals[sub]), seat_deals=seat_deals[sub], pair_deals=pairs[sub],
            categories=categories[sub], cards=cards[sub]))


def _tally_payouts(tally: Tally, out: pa.Table, starts: np.ndarray, lengths: np.ndarray, group_of_deal: np.ndarray,
                   keys: list[GroupKey], unadjudicable: np.ndarray, limit: int | None) -> None:
    deals = np.bincount(group_of_deal, minlength=len(keys))
    not_decided = np.bincount(group_of_deal, weights=unadjudicable, minlength=len(keys))
    if "dispute" in out.column_names:
        dispute = out["dispute"].combine_chunks().take(pa.array(starts))
        known = np.asarray(dispute.is_valid().to_numpy(zero_copy_only=False), bool)
        disputed = np.asarray(dispute.fill_null(False).to_numpy(zero_copy_only=False), bool)
        # Adjudicated, but no result to check (prial.logs.adjudicate).
        unchecked = ~unadjudicable & ~known
    else:
        known = disputed = unchecked = np.zeros(len(starts), bool)
    adjudicated = np.bincount(group_of_deal, weights=known, minlength=len(keys))
    disputes = np.bincount(group_of_deal, weights=disputed, minlength=len(keys))
    uncontested = np.bincount(group_of_deal, weights=unchecked & (lengths == 1), minlength=len(keys))
    no_result = np.bincount(group_of_deal, weights=unchecked & (lengths > 1), minlength=len(keys))
    disputed_deals = np.flatnonzero(disputed)
    for index, key in enumerate(keys):
        group = tally.group(key)
        group.deals += int(deals[index])
        group.unadjudicable += int(not_decided[index])
        group.adjudicated += int(adjudicated[index])
        group.disputes += int(disputes[index])
        group.uncontested += int(uncontested[index])
        group.no_result += int(no_result[index])
        room = None if limit is None else limit - len(group.disputed_ids)
        if disputes[index] and (room is None or room > 0):
            # Only the deals listed become Python values.
            mine = disputed_deals[group_of_deal[disputed_deals] == index][:room]
            group.disputed_ids += out[DEAL_COLUMN].take(pa.array(starts[mine])).to_pylist()


def _tally_impossible(tally: Tally, chunk: pa.Table, rows: np.ndarray, by: tuple[str, ...],
                      limit: int | None) -> None:
    if not rows.size:
        return
    group_of_deal, keys = group_codes(chunk, rows, by)
    ids = chunk[DEAL_COLUMN].take(pa.array(rows)).to_pylist()
    for index, key in enumerate(keys):
        group = tally.group(key)
        mine = [deal for deal, g in zip(ids, group_of_deal.tolist()) if g == index]
        group.impossible += len(mine)
        group.impossible_ids = _capped(group.impossible_ids + mine, limit)

