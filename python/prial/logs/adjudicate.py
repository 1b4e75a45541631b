"""Deals in a log: where each begins, what makes one unusable, and who
won it (docs/rules.md, "Showdowns"), with numpy reductions over the
consecutive rows of each deal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._core import format_cards
from .columns import DEAL_COLUMN, NO_CARD, flag

# The first deal problems of adjudicate() concern the hands themselves (not
# all the deal's rows are there, or not of one size and one game): such a
# deal is unfit for dealing statistics.  The others are about the play.
SOUND_DEAL_CHECKS = 5
# What makes a deal of any kind unusable, in its deal_problem's words.
SPLIT_DEAL = ("the rows of this deal are not consecutive in the log: it is adjudicated only from all its rows "
              "together (sort the log by deal_id)")
LOOSE_ROW = "a row just before or after this deal's rows has no deal_id (see the errors file): it may be one of them"
BAD_ROWS = "rows of this deal are in the errors file"
MIXED_WIDTHS = "players hold different numbers of cards"


def _valid(ids: pa.Array) -> np.ndarray:
    return np.asarray(ids.is_valid().to_numpy(zero_copy_only=False), bool)


def filled_ids(ids: pa.Array) -> pa.Array:
    """The deal ids, a missing one taken from the row before it (from the
    row after it at the start).  A row whose id cannot be read is no deal
    of its own: it joins a deal next to it, which is then not adjudicated
    (``deal_runs``), so the deals are counted right."""
    if not ids.null_count:
        return ids
    valid = _valid(ids)
    if not valid.any():
        return ids
    source = np.maximum.accumulate(np.where(valid, np.arange(len(ids)), 0))
    first = int(np.argmax(valid))
    source[:first] = first
    return ids.take(pa.array(source))


def deal_run_starts(ids: pa.Array) -> np.ndarray:
    """Row index where each run of equal consecutive deal ids begins (a
    row without an id in the run of the row before it, see ``filled_ids``)."""
    n = len(ids)
    if n == 0:
        return np.zeros(0, np.int64)
    ids = filled_ids(ids)
    if ids.null_count == 0 and (pa.types.is_integer(ids.type) or pa.types.is_floating(ids.type)):
        values = ids.to_numpy()
        change = values[1:] != values[:-1]
    else:
        change = pc.not_equal(ids.slice(1), ids.slice(0, n - 1))
        if change.null_count:  # no row has an id: one run
            change = change.fill_null(False)
        change = np.asarray(change.to_numpy(zero_copy_only=False), bool)
    return np.concatenate([[0], np.flatnonzero(change) + 1]).astype(np.int64)


def whole_deal_cut(ids: pa.Array, most: int) -> tuple[int, bool]:
    """(where a stretch of the log may end so that the rest holds its last
    deal whole, does a row without an id follow that end).

    The end is the start of the last run not just after a row without an
    id: that row may be of the deal before or after it, and the
    adjudication of both must see it.  But rows without ids in a row would
    then make the rest grow without bound, so a rest of more than ``most``
    rows ending in such rows is cut after the last row with an id (its
    deal is then told that a row without an id follows), or, with none,
    before the last row (whose next deal then has it in its run)."""
    starts = deal_run_starts(ids)
    valid = _valid(ids) if ids.null_count else None
    if valid is not None:
        starts = starts[(starts == 0) | valid[np.maximum(starts - 1, 0)]]
    cut = int(starts[-1])
    if valid is None or len(ids) - cut <= most or valid[-1]:
        return cut, False
    with_id = np.flatnonzero(valid)
    return (int(with_id[-1]) + 1, True) if len(with_id) else (len(ids) - 1, False)


def run_ids(ids: pa.Array) -> pa.Array:
    """The deal id of each run of equal consecutive ids (null for a
    stretch with no id at all)."""
    return filled_ids(ids).take(pa.array(deal_run_starts(ids)))


def repeated_ids(runs: list[pa.Array]) -> pa.Array:
    """The ids that begin more than one run: deals whose rows are not
    consecutive.  ``runs`` are the run ids of consecutive stretches of the
    log; a stretch whose first run continues the last deal of the
    stretches before it (a deal cut by the reading, maybe with rows
    without an id between) counts once."""
    kept = []
    last = None  # the last deal id of the stretches so far
    for ids in runs:
        if len(ids) and last is not None and ids[0] == last:
            ids = ids.slice(1)
        if ids.null_count:
            ids = ids.drop_null()
        if len(ids):
            kept.append(ids)
            last = ids[-1]
    if not kept:
        return pa.array([], runs[0].type if runs else pa.null())
    counts = pc.value_counts(pa.chunked_array(kept).combine_chunks())
    return counts.field("values").filter(pc.greater(counts.field("counts"), 1))


def _strictly_increasing(ids: pa.Array) -> bool:
    """Cheap proof that no deal id repeats (sorted logs), before hashing."""
    if ids.null_count or not pa.types.is_integer(ids.type):
        return False
    values = ids.to_numpy()
    return bool((values[1:] > values[:-1]).all())


def deal_runs(table: pa.Table, cards: np.ndarray, counts: np.ndarray, ok: np.ndarray, reasons: dict[int, str],
              split_deals: pa.Array | None = None, loose_ends: tuple[bool, bool] = (False, False)):
    """(run starts, rows made bad, split runs, runs next to a row without an
    id, runs holding a card twice): rows made bad by a missing deal id or a
    card held twice within a deal; runs of a deal whose rows are not
    consecutive (its id begins another run in this table, or is one of
    ``split_deals``, found elsewhere in the log); runs just before or after
    a row without an id, which may be one of theirs (``loose_ends``: such a
    row lies just before this table, just after it)."""
    n = table.num_rows
    ids = table[DEAL_COLUMN].combine_chunks()
    starts = deal_run_starts(ids)
    bad = np.zeros(n, bool)
    split = np.zeros(len(starts), bool)
    loose = np.zeros(len(starts), bool)
    if n == 0:
        return starts, bad, split, loose, np.zeros(0, np.int64)
    loose[0] |= loose_ends[0]
    loose[-1] |= loose_ends[1]
    if ids.null_count:
        missing = ~_valid(ids)
        for row in np.flatnonzero(missing).tolist():
            bad[row] = True
            reasons.setdefault(row, "deal_id missing")
        # Such a row is in the run before it (filled_ids): that run, and
        # the run that begins just after it.
        loose |= np.logical_or.reduceat(missing, starts)
        loose[1:] |= missing[starts[1:] - 1]
        ok = ok & ~missing  # its cards are no deal's
    lengths = np.diff(np.append(starts, n))
    runs = filled_ids(ids).take(pa.array(starts))
    if not _strictly_increasing(runs) and pc.count_distinct(runs).as_py() < len(starts):
        codes = pc.dictionary_encode(runs, null_encoding="encode").indices.to_numpy(zero_copy_only=False)
        split |= np.bincount(codes)[codes] > 1
    if split_deals is not None and len(split_deals):
        split |= np.asarray(pc.is_in(runs, value_set=split_deals.cast(runs.type)).to_numpy(zero_copy_only=False),
                            bool)
    if runs.null_count:  # rows without an id are bad already, not a deal
        split &= _valid(runs)
    # A card twice in one deal: OR of one-bit-per-card masks vs. the count.
    row_masks = np.zeros(n, np.uint64)
    for position in range(int(counts.max(initial=0))):  # no column past the widest hand
        column = cards[:, position]
        held_here = ok & (column != NO_CARD)
        row_masks |= np.where(held_here, np.left_shift(np.uint64(1), column.astype(np.uint64)), np.uint64(0))
    held = np.add.reduceat(_popcount(row_masks), starts)
    distinct = _popcount(np.bitwise_or.reduceat(row_masks, starts))
    repeated = np.flatnonzero(held != distinct)
    for run in repeated.tolist():
        begin, end = int(starts[run]), int(starts[run] + lengths[run])
        owner: dict[int, int] = {}
        for row in range(begin, end):
            for card in cards[row][cards[row] != NO_CARD].tolist() if ok[row] else []:
                if card in owner:
                    for culprit, other in ((row, owner[card]), (owner[card], row)):
                        bad[culprit] = True
                        reasons.setdefault(culprit, f"card {format_cards([card])} also held in this deal "
                                                    f"by the player at row offset {other - begin + 1}")
                else:
                    owner[card] = row
    return starts, bad, split, loose, repeated


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


@dataclass(frozen=True)
class DealCounts:
    """A chunk's deals: how many, how many could not be adjudicated, and of
    the adjudicated ones, how many dispute the recorded result, were
    uncontested (one player) or record no result (nobody won)."""

    deals: int = 0
    invalid: int = 0
    disputes: int = 0
    uncontested: int = 0
    no_result: int = 0


class Verdict(NamedTuple):
    """What ``adjudicate`` decided: the output's columns of it, a value per
    row, and the chunk's ``DealCounts``."""

    columns: dict[str, pa.Array]
    counts: DealCounts


def adjudicate(table: pa.Table, starts: np.ndarray, bad: np.ndarray, counts: np.ndarray,
               rules_index: np.ndarray, key: np.ndarray, split: np.ndarray, loose: np.ndarray) -> Verdict:
    """Showdown rules per deal: winner (bool per row), winners (how many share),
    dispute (the recorded ``won`` disagrees), deal_problem (why a deal
    cannot be adjudicated; its winner columns are then null)."""
    n = table.num_rows
    lengths = np.diff(np.append(starts, n))
    deal_of_row = np.repeat(np.arange(len(starts)), lengths)
    folded, _ = flag(table, "folded")
    seer, _ = flag(table, "seer")
    blind, _ = flag(table, "blind")
    won, won_known = flag(table, "won")
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
        (split, SPLIT_DEAL),
        (loose, LOOSE_ROW),
        (per_deal_any(bad), BAD_ROWS),
        (width_mixed, MIXED_WIDTHS),
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
    columns: dict[str, pa.Array] = {
        "winner": pa.array(winner, mask=invalid_rows),
        "winners": pa.array(winners[deal_of_row].astype(np.uint8), mask=invalid_rows),
    }
    # The recorded result is checked only where there is one to check: a
    # player alone in a deal wins it uncontested, and a deal where no row
    # says won records no result; neither is a dispute (their dispute is
    # null).
    uncontested = valid & (lengths == 1)
    no_result = valid & ~uncontested & ~per_deal_any(good & won & won_known)
    if "won" not in table.column_names:
        no_result[:] = False
    checked = valid & ~uncontested & ~no_result
    if "won" in table.column_names:
        columns["dispute"] = pa.array(deal_dispute[deal_of_row], mask=~checked[deal_of_row])
    row_problem = problem[deal_of_row]
    columns["deal_problem"] = pa.DictionaryArray.from_arrays(
        pa.array(row_problem, mask=row_problem < 0), pa.array([why for _mask, why in checks], pa.string()))
    # Rows none of which has an id are no deal (filled_ids).
    deal = np.full(len(starts), table[DEAL_COLUMN].null_count < n)
    return Verdict(columns, DealCounts(deals=int(deal.sum()), invalid=int((~valid & deal).sum()),
                                      disputes=int((deal_dispute & checked).sum()),
                                      uncontested=int(uncontested.sum()), no_result=int(no_result.sum())))
