"""The counts an audit gathers from hand histories (docs/histories.md,
"prial audit on histories"): each chunk of histories with the replay's
finding for each deal, reduced to arrays and counted per group.

The unit of a group is the deal, or with ``--by player`` a player's seat
at a deal (a deal then counts once for each of its players).  Per group:
the deals whose actions were checked and those holding an illegal action,
the deals whose payouts were checked and those mispaid (a wrong winner or
a wrong net), with the offending deals listed; the dealt hands of the
deals each dealt from a shuffled pack go to the dealing tally of row logs
(``tally.add_dealing``).  Per player: the nets and the deals played blind,
seen and folded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np

from .._core import TABLE_KINDS
from ..evaluator import evaluator_for
from ..logs.chunk import category_of_strength
from ..logs.columns import NO_CARD
from ..logs.errors import LogError
from ..rules import Rules
from ..table.history import History
from ..table.replay import FINDINGS, Finding
from .history_arrays import DealArrays, Offence, codes_of, of_histories, places
from .tally import DealtHands, GroupKey, Tally, add_dealing, group_codes_of

# What a history audit can group by, each a value of the deal (player: of
# each player at it).
HISTORY_GROUPS = ("dealer", "table", "day", "player", "game")
RATES = ("illegal", "mispaid")  # the rates tested per group
# Why a deal is left out of the dealing tests.
LEFT_OUT = ("carried_pack", "retained_hand", "hands_unknown", "card_twice", "bad_setup")
PLAYER_COUNTS = ("deals", "net", "adjudicated_net", "blind", "see", "fold")


@dataclass
class RateCounts:
    """One group's deals checked and offending, per rate, with the first
    ``limit`` offences of each."""

    trials: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RATES, 0))
    hits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RATES, 0))
    offences: dict[str, list[Offence]] = field(default_factory=lambda: {kind: [] for kind in RATES})

    def add(self, other: RateCounts, limit: int | None) -> None:
        for kind in RATES:
            self.trials[kind] += other.trials[kind]
            self.hits[kind] += other.hits[kind]
            listed = self.offences[kind] + other.offences[kind]
            self.offences[kind] = listed if limit is None else listed[:limit]


@dataclass
class HistoryTally:
    """A history log's counts: ``dealing`` as a row log's (with the
    impossible deals), the rates per group, the counts per player
    (PLAYER_COUNTS each) and the deals left out of the dealing tests."""

    by: tuple[str, ...]
    limit: int | None
    dealing: Tally
    rates: dict[GroupKey, RateCounts] = field(default_factory=dict)
    players: dict[str, np.ndarray] = field(default_factory=dict)
    left_out: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LEFT_OUT, 0))
    deals: int = 0
    actions: int = 0
    rules: Rules | None = None  # the first table's, for the dealing laws

    def add(self, other: HistoryTally) -> None:
        self.dealing.add(other.dealing)
        for key, counts in other.rates.items():
            self.rates.setdefault(key, RateCounts()).add(counts, self.limit)
        for name, played in other.players.items():
            known = self.players.get(name)
            self.players[name] = played.copy() if known is None else known + played
        for reason, count in other.left_out.items():
            self.left_out[reason] += count
        self.deals += other.deals
        self.actions += other.actions
        self.rules = self.rules or other.rules


def check_history_groups(by: Sequence[str]) -> None:
    unknown = [name for name in by if name not in HISTORY_GROUPS]
    if unknown:
        raise LogError(f"--by {', '.join(unknown)}: a history log groups by {', '.join(HISTORY_GROUPS)}")


def _day(started: str | None) -> str | None:
    """The UTC day of a start time."""
    if started is None:
        return None
    if started.endswith("Z"):
        return started[:10]
    return datetime.fromisoformat(started).astimezone(timezone.utc).date().isoformat()


def tally_histories(histories: Sequence[History], findings: Sequence[Finding], by: tuple[str, ...],
                    limit: int | None, threads: int | None = None) -> HistoryTally:
    """The counts of one chunk of histories, ``findings`` their replay's."""
    return tally_arrays(of_histories(histories, findings), by, limit, threads)


def tally_arrays(deals: DealArrays, by: tuple[str, ...], limit: int | None, threads: int | None = None) -> HistoryTally:
    """The counts of one chunk of deals given as arrays."""
    check_history_groups(by)
    n = len(deals.deal_ids)
    tally = HistoryTally(by=by, limit=limit, dealing=Tally(by=by, limit=limit, rows=n), deals=n,
                         rules=deals.tables[0].rules if n else None)
    if not n:
        return tally
    tally.actions = int(deals.acting.sum())
    per_player = "player" in by
    # The entries counted: deals, or each seat of each deal.
    entry_deal = np.repeat(np.arange(n), deals.seats_of) if per_player else np.arange(n)
    entry_player = deals.seat_player if per_player else np.full(n, -1)
    keys, group_of_entry = _groups(deals, by, entry_deal, entry_player)
    _tally_rates(tally, deals, keys, group_of_entry, entry_deal, entry_player)
    _tally_players(tally, deals)
    _tally_dealing(tally, deals, keys, group_of_entry, entry_deal, per_player, threads)
    return tally


def _groups(deals: DealArrays, by: tuple[str, ...], entry_deal: np.ndarray,
            entry_player: np.ndarray) -> tuple[list[GroupKey], np.ndarray]:
    """(the group keys, each entry's group), as a row log's ``--by`` columns make them."""
    if not by:
        return [()], np.zeros(len(entry_deal), np.int64)
    first_seat = np.cumsum(deals.seats_of) - deals.seats_of
    players = np.array(deals.players, object)
    def values(name: str) -> np.ndarray:
        """Each entry's value of ``name``."""
        if name == "player":
            return players[entry_player]
        if name == "dealer":
            per_deal = players[deals.seat_player[first_seat + deals.dealer]]
        elif name == "table":
            per_deal = np.array(deals.table_ids, object)
        elif name == "day":
            per_deal = np.array([_day(s) for s in deals.started], object)
        else:
            per_deal = np.array([t.game for t in deals.tables], object)[deals.table_of]
        return per_deal[entry_deal]

    columns = {name: values(name).tolist() for name in by}
    group_of_entry, keys = group_codes_of(columns, by)
    return keys, group_of_entry


def _tally_rates(tally: HistoryTally, deals: DealArrays, keys: list[GroupKey], group_of_entry: np.ndarray,
                 entry_deal: np.ndarray, entry_player: np.ndarray) -> None:
    kind = deals.finding
    paid_wrong = (kind == FINDINGS.index("wrong_winner")) | (kind == FINDINGS.index("mispaid"))
    checked = {"illegal": kind != FINDINGS.index("bad_setup"),
               "mispaid": paid_wrong | ((kind == FINDINGS.index("ok")) & deals.recorded)}
    hit = {"illegal": kind == FINDINGS.index("illegal_action"), "mispaid": paid_wrong}
    if (entry_player >= 0).any():  # a player's entry offends where that player is at fault
        hit = {rate: hit[rate][entry_deal] for rate in RATES}
        checked = {rate: checked[rate][entry_deal] for rate in RATES}
        for e in np.flatnonzero(hit["illegal"] | hit["mispaid"]).tolist():
            d, name = int(entry_deal[e]), deals.players[entry_player[e]]
            hit["illegal"][e] &= deals.offences[d].player == name
            hit["mispaid"][e] &= name in deals.paid_wrong.get(d, ())
    groups = len(keys)
    for rate in RATES:
        trials = np.bincount(group_of_entry, weights=checked[rate], minlength=groups)
        hits = np.bincount(group_of_entry, weights=hit[rate], minlength=groups)
        for g, key in enumerate(keys):
            counts = tally.rates.setdefault(key, RateCounts())
            counts.trials[rate] += int(trials[g])
            counts.hits[rate] += int(hits[g])
        for e in np.flatnonzero(hit[rate]).tolist():
            listed = tally.rates[keys[group_of_entry[e]]].offences[rate]
            if tally.limit is None or len(listed) < tally.limit:
                listed.append(deals.offences[int(entry_deal[e])])


def _tally_players(tally: HistoryTally, deals: DealArrays) -> None:
    """Per player: deals, nets (recorded; adjudicated where decided) and
    the deals in which they staked or saw blind (before their own look),
    saw, and folded."""
    count = len(deals.players)
    counts = np.zeros((len(PLAYER_COUNTS), count), np.int64)
    counts[0] = np.bincount(deals.seat_player, minlength=count)
    for row, (who, chips) in ((1, deals.recorded_nets), (2, deals.nets)):
        counts[row] = np.bincount(who, weights=chips, minlength=count).round().astype(np.int64)
    if len(deals.action_kind):
        n, seats = len(deals.deal_ids), int(deals.seats_of.max())
        kind = deals.action_kind
        # Each action's (deal, seat), and each (deal, seat)'s player.
        key = np.repeat(np.arange(n), deals.acting) * seats + deals.action_seat
        seat_codes = np.full((n, seats), -1)
        seat_codes[np.repeat(np.arange(n), deals.seats_of), places(deals.seats_of)] = deals.seat_player
        first_look = np.full(n * seats, len(kind))
        looks = np.flatnonzero(kind == TABLE_KINDS.index("look"))
        np.minimum.at(first_look, key[looks], looks)
        staking = np.flatnonzero((kind == TABLE_KINDS.index("stake")) | (kind == TABLE_KINDS.index("see")))
        blind = staking[staking < first_look[key[staking]]]
        for row, picked in ((3, blind), (4, np.flatnonzero(kind == TABLE_KINDS.index("see"))),
                            (5, np.flatnonzero(kind == TABLE_KINDS.index("fold")))):
            did = np.zeros(n * seats, bool)
            did[key[picked]] = True
            counts[row] = np.bincount(seat_codes.ravel()[did], minlength=count)
    for i, name in enumerate(deals.players):
        if counts[0, i]:
            tally.players[name] = counts[:, i].copy()


def _tally_dealing(tally: HistoryTally, deals: DealArrays, keys: list[GroupKey], group_of_entry: np.ndarray,
                   entry_deal: np.ndarray, per_player: bool, threads: int | None) -> None:
    """The dealt hands of the deals each dealt from a shuffled pack, into
    the dealing tally; the rest counted by why they are left out."""
    n = len(deals.deal_ids)
    seats_of, held = deals.seats_of, deals.held
    row_deal = np.repeat(np.arange(n), seats_of)
    # Why each deal is left out (-1: it is not), the first reason of LEFT_OUT that applies.
    reason = np.full(n, -1)
    reason[np.bincount(row_deal, weights=held[:, 0] == NO_CARD, minlength=n) > 0] = 2
    reason[deals.finding == FINDINGS.index("bad_setup")] = 4
    # A card twice in a deal (the replay refuses it as a bad setup): impossible from one pack.
    card_keys = (row_deal[:, None] * 64 + held.astype(np.int64))[held != NO_CARD]
    card_keys.sort()
    twice = np.zeros(n, bool)
    twice[card_keys[1:][card_keys[1:] == card_keys[:-1]] // 64] = True
    reason[twice] = 3
    reason[deals.carried >= 0] = deals.carried[deals.carried >= 0]
    for r, name in enumerate(LEFT_OUT):
        tally.left_out[name] += int(np.count_nonzero(reason == r))
    first_entry = np.searchsorted(entry_deal, np.arange(n))  # with --by player: the deal's first seat
    for d in np.flatnonzero(twice).tolist():
        group = tally.dealing.group(keys[group_of_entry[first_entry[d]]])
        group.impossible += 1
        if tally.limit is None or len(group.impossible_ids) < tally.limit:
            group.impossible_ids.append(deals.deal_ids[d])
    for g, entries in enumerate(np.bincount(group_of_entry, minlength=len(keys)).tolist()):
        tally.dealing.group(keys[g]).deals += entries
    sound_deal = reason < 0
    if not sound_deal.any():
        return
    game_of_table, games = codes_of([t.game for t in deals.tables])
    game_of_deal = game_of_table[deals.table_of]
    tables = [deals.tables[int(np.flatnonzero(game_of_table == g)[0])] for g in range(len(games))]
    widths = np.array([table.cards for table in tables])[game_of_deal]
    # Rows: each seat of each entry (per player, an entry is one seat of a deal).
    row_seat = places(seats_of)
    row_entry = np.arange(len(row_deal)) if per_player else row_deal
    keep = sound_deal[row_deal]
    row_entry, row_seat, row_deal, held = row_entry[keep], row_seat[keep], row_deal[keep], held[keep]
    category = np.zeros(len(held), np.int64)
    presets: list[str | None] = []
    for g, table in enumerate(tables):
        mine = np.flatnonzero(game_of_deal[row_deal] == g)
        cards = np.ascontiguousarray(held[mine, : table.cards])
        ev = evaluator_for(table.rules)
        strength = (ev.evaluate_batch(cards, threads=threads) if table.cards == 3
                    else ev.best_of_batch(cards, threads=threads) >> 8)
        category[mine] = category_of_strength(ev.rules)[strength]
        presets.append(ev.rules.preset)
    presence = np.zeros((len(entry_deal), int(row_seat.max(initial=0)) + 1))
    presence[row_entry, row_seat] = 1
    add_dealing(tally.dealing, keys, group_of_entry, presets,
                game_of_deal[entry_deal], widths[entry_deal], sound_deal[entry_deal], presence,
                DealtHands(row_entry, row_seat, category, held))
