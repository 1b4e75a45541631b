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
from itertools import chain
from typing import NamedTuple

import numpy as np

from ..evaluator import evaluator_for
from ..logs.chunk import category_of_strength
from ..logs.columns import NO_CARD
from ..logs.errors import LogError
from ..rules import Rules
from ..table.history import History
from ..table.replay import Finding
from .tally import DealtHands, GroupKey, Tally, add_dealing, group_codes_of

# What a history audit can group by, each a value of the deal (player: of
# each player at it).
HISTORY_GROUPS = ("dealer", "table", "day", "player", "game")
RATES = ("illegal", "mispaid")  # the rates tested per group
# Why a deal is left out of the dealing tests.
LEFT_OUT = ("carried_pack", "retained_hand", "hands_unknown", "card_twice", "bad_setup")
PLAYER_COUNTS = ("deals", "net", "adjudicated_net", "blind", "see", "fold")
_WIDEST = 5


class Offence(NamedTuple):
    """A deal that breaks the rules or was paid wrong."""

    deal_id: str
    finding: str  # illegal_action, wrong_winner or mispaid
    action_index: int  # the illegal action's place in its deal; -1 for a payout
    code: str | None  # the rule it breaks
    player: str | None  # who made it


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
    check_history_groups(by)
    n = len(histories)
    tally = HistoryTally(by=by, limit=limit, dealing=Tally(by=by, limit=limit, rows=n), deals=n,
                         rules=histories[0].table.rules if n else None)
    if not n:
        return tally
    seats_of = np.fromiter((len(h.players) for h in histories), np.int64, n)
    names = [p for h in histories for p in h.players]
    acting = np.fromiter((len(h.actions) for h in histories), np.int64, n)
    tally.actions = int(acting.sum())
    actors = [a.player for h in histories for a in h.actions]
    # One code per player name, for the seats and the actions alike.
    codes, players = _codes(names + actors)
    seat_player, actor = codes[: len(names)], codes[len(names):]
    per_player = len(by) > 0 and "player" in by
    # The entries counted: deals, or each seat of each deal.
    entry_deal = np.repeat(np.arange(n), seats_of) if per_player else np.arange(n)
    entry_player = seat_player if per_player else np.full(n, -1)
    keys, group_of_entry = _groups(histories, by, entry_deal, entry_player, players)
    _tally_rates(tally, histories, findings, keys, group_of_entry, entry_deal, entry_player, players)
    _tally_players(tally, histories, findings, seats_of, seat_player, actor, acting, players)
    _tally_dealing(tally, histories, findings, keys, group_of_entry, entry_deal, seats_of, per_player, threads)
    return tally


def _codes(values: Sequence[object]) -> tuple[np.ndarray, list]:
    """(each value's code, the distinct values in order of first sight)."""
    index: dict[object, int] = {}
    return np.fromiter((index.setdefault(v, len(index)) for v in values), np.int64, len(values)), list(index)


def _groups(histories: Sequence[History], by: tuple[str, ...], entry_deal: np.ndarray, entry_player: np.ndarray,
            players: list[str]) -> tuple[list[GroupKey], np.ndarray]:
    """(the group keys, each entry's group), as a row log's ``--by`` columns make them."""
    if not by:
        return [()], np.zeros(len(entry_deal), np.int64)
    deal_values = {
        "dealer": lambda: [h.players[h.dealer] for h in histories],
        "table": lambda: [h.table_id for h in histories],
        "day": lambda: [_day(h.started) for h in histories],
        "game": lambda: [h.table.game for h in histories],
    }
    columns = {name: (np.array(players, object)[entry_player] if name == "player"
                      else np.array(deal_values[name](), object)[entry_deal]).tolist() for name in by}
    group_of_entry, keys = group_codes_of(columns, by)
    return keys, group_of_entry


def _tally_rates(tally: HistoryTally, histories: Sequence[History], findings: Sequence[Finding],
                 keys: list[GroupKey], group_of_entry: np.ndarray, entry_deal: np.ndarray,
                 entry_player: np.ndarray, players: list[str]) -> None:
    kind = np.array([f.finding for f in findings])
    recorded = np.fromiter((h.outcome is not None and bool(h.outcome.winners or h.outcome.nets) for h in histories),
                           bool, len(histories))
    paid_wrong = (kind == "wrong_winner") | (kind == "mispaid")
    checked = {"illegal": kind != "bad_setup", "mispaid": paid_wrong | ((kind == "ok") & recorded)}
    hit = {"illegal": kind == "illegal_action", "mispaid": paid_wrong}
    if (entry_player >= 0).any():  # a player's entry offends where that player is at fault
        hit = {rate: hit[rate][entry_deal] for rate in RATES}
        checked = {rate: checked[rate][entry_deal] for rate in RATES}
        for e in np.flatnonzero(hit["illegal"] | hit["mispaid"]).tolist():
            f, name = findings[entry_deal[e]], players[entry_player[e]]
            hit["illegal"][e] &= f.player == name
            hit["mispaid"][e] &= _paid_wrong_to(f, name)
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
                f = findings[entry_deal[e]]
                listed.append(Offence(f.deal_id, f.finding, f.action_index, f.code, f.player))


def _paid_wrong_to(finding: Finding, name: str) -> bool:
    """Does the record pay ``name`` otherwise than the adjudication?"""
    recorded_nets = finding.recorded_nets or {}
    if name in recorded_nets and (finding.nets or {}).get(name) != recorded_nets[name]:
        return True
    winners, recorded = finding.winners or (), finding.recorded_winners
    return recorded is not None and (name in winners) != (name in recorded)


def _tally_players(tally: HistoryTally, histories: Sequence[History], findings: Sequence[Finding],
                   seats_of: np.ndarray, seat_player: np.ndarray, actor: np.ndarray, acting: np.ndarray,
                   players: list[str]) -> None:
    """Per player: deals, nets (recorded; adjudicated where decided) and
    the deals in which they staked or saw blind (before their own look),
    saw, and folded."""
    count = len(players)
    index = {name: i for i, name in enumerate(players)}
    counts = np.zeros((len(PLAYER_COUNTS), count), np.int64)
    counts[0] = np.bincount(seat_player, minlength=count)
    for row, nets in ((1, [h.outcome.nets if h.outcome else None for h in histories]),
                      (2, [f.nets for f in findings])):
        given = [net for net in nets if net]
        who = np.fromiter(map(index.__getitem__, chain.from_iterable(given)), np.int64)
        amount = np.fromiter(chain.from_iterable(net.values() for net in given), np.float64, len(who))
        counts[row] = np.bincount(who, weights=amount, minlength=count).round().astype(np.int64)
    if len(actor):
        kind, kind_names = _codes([a.kind for h in histories for a in h.actions])
        code = {name: kind_names.index(name) if name in kind_names else -1 for name in ("look", "stake", "see", "fold")}
        n, seats = len(histories), int(seats_of.max())
        # Each action's (deal, seat): its player's place among its deal's seats.
        deal = np.repeat(np.arange(n), acting)
        seat_codes = np.full((n, seats), -1)
        seat_codes[np.repeat(np.arange(n), seats_of), _places(seats_of)] = seat_player
        key = deal * seats + np.argmax(seat_codes[deal] == actor[:, None], axis=1)
        first_look = np.full(n * seats, len(kind))
        looks = np.flatnonzero(kind == code["look"])
        np.minimum.at(first_look, key[looks], looks)
        staking = np.flatnonzero((kind == code["stake"]) | (kind == code["see"]))
        blind = staking[staking < first_look[key[staking]]]
        for row, picked in ((3, blind), (4, np.flatnonzero(kind == code["see"])),
                            (5, np.flatnonzero(kind == code["fold"]))):
            did = np.zeros(n * seats, bool)
            did[key[picked]] = True
            counts[row] = np.bincount(seat_codes.ravel()[did], minlength=count)
    for i, name in enumerate(players):
        if counts[0, i]:
            tally.players[name] = counts[:, i].copy()


def _places(seats_of: np.ndarray) -> np.ndarray:
    """0, 1, ... within each deal's run of ``seats_of`` rows."""
    return np.arange(int(seats_of.sum())) - np.repeat(np.cumsum(seats_of) - seats_of, seats_of)


def _seeded(h: History) -> list[tuple[int, ...] | None]:
    """The hands a deal recorded by its seed was dealt."""
    hands = h.start().hands
    return [hands.get(name) for name in h.players]


def _dealt(histories: Sequence[History], seats_of: np.ndarray) -> np.ndarray:
    """The hands dealt, a row per seat of each deal in order (seats x the
    widest hand, NO_CARD past a hand's end and for a hand not recorded)."""
    widths = {h.table.cards for h in histories}
    blank = {width: (NO_CARD,) * width for width in widths}
    if len(widths) == 1:  # the common case: one hand size, one array straight from the tuples
        none = blank[widths.pop()]
        rows = [hand or none for h in histories for hand in (_seeded(h) if h.seed is not None else h.cards or ())]
        held = np.fromiter(chain.from_iterable(rows), np.uint8, len(rows) * len(none)).reshape(len(rows), -1)
    else:
        rows = [(hand or blank[h.table.cards]) + (NO_CARD,) * (_WIDEST - h.table.cards) for h in histories
                for hand in (_seeded(h) if h.seed is not None else h.cards or ())]
        held = np.array(rows, np.uint8).reshape(len(rows), _WIDEST)
    if len(held) != int(seats_of.sum()):  # a record without its hands: none known
        held = np.concatenate([np.asarray(_seeded(h) if h.seed is not None else h.cards or [blank[h.table.cards]] *
                                          len(h.players), np.uint8) for h in histories])
    return held


def _tally_dealing(tally: HistoryTally, histories: Sequence[History], findings: Sequence[Finding],
                   keys: list[GroupKey], group_of_entry: np.ndarray, entry_deal: np.ndarray, seats_of: np.ndarray,
                   per_player: bool, threads: int | None) -> None:
    """The dealt hands of the deals each dealt from a shuffled pack, into
    the dealing tally; the rest counted by why they are left out."""
    n = len(histories)
    row_deal = np.repeat(np.arange(n), seats_of)
    held = _dealt(histories, seats_of)
    # Why each deal is left out (-1: it is not), the first reason of LEFT_OUT that applies.
    reason = np.full(n, -1)
    reason[np.bincount(row_deal, weights=held[:, 0] == NO_CARD, minlength=n) > 0] = 2
    reason[np.array([f.finding == "bad_setup" for f in findings])] = 4
    # A card twice in a deal (the replay refuses it as a bad setup): impossible from one pack.
    card_keys = (row_deal[:, None] * 64 + held.astype(np.int64))[held != NO_CARD]
    card_keys.sort()
    twice = np.zeros(n, bool)
    twice[card_keys[1:][card_keys[1:] == card_keys[:-1]] // 64] = True
    reason[twice] = 3
    for d in [d for d, h in enumerate(histories) if h.carried]:
        carried = histories[d].carried
        if "pack" in carried or "pack_seed" in carried:
            reason[d] = 0
        elif "retained" in carried:
            reason[d] = 1
    for r, name in enumerate(LEFT_OUT):
        tally.left_out[name] += int(np.count_nonzero(reason == r))
    first_entry = np.searchsorted(entry_deal, np.arange(n))  # with --by player: the deal's first seat
    for d in np.flatnonzero(twice).tolist():
        group = tally.dealing.group(keys[group_of_entry[first_entry[d]]])
        group.impossible += 1
        if tally.limit is None or len(group.impossible_ids) < tally.limit:
            group.impossible_ids.append(histories[d].deal_id)
    for g, entries in enumerate(np.bincount(group_of_entry, minlength=len(keys)).tolist()):
        tally.dealing.group(keys[g]).deals += entries
    sound_deal = reason < 0
    if not sound_deal.any():
        return
    game_of_deal, games = _codes([h.table.game for h in histories])
    tables = [next(h.table for h in histories if h.table.game == game) for game in games]
    widths = np.array([table.cards for table in tables])[game_of_deal]
    # Rows: each seat of each entry (per player, an entry is one seat of a deal).
    row_seat = _places(seats_of)
    row_entry = np.arange(len(row_deal)) if per_player else row_deal
    keep = sound_deal[row_deal]
    row_entry, row_seat, row_deal, held = row_entry[keep], row_seat[keep], row_deal[keep], held[keep]
    category = np.zeros(len(held), np.int64)
    for g, table in enumerate(tables):
        mine = np.flatnonzero(game_of_deal[row_deal] == g)
        cards = np.ascontiguousarray(held[mine, : table.cards])
        ev = evaluator_for(table.rules)
        strength = (ev.evaluate_batch(cards, threads=threads) if table.cards == 3
                    else ev.best_of_batch(cards, threads=threads) >> 8)
        category[mine] = category_of_strength(ev.rules)[strength]
    presence = np.zeros((len(entry_deal), int(row_seat.max(initial=0)) + 1))
    presence[row_entry, row_seat] = 1
    add_dealing(tally.dealing, keys, group_of_entry, [table.rules.preset for table in tables],
                game_of_deal[entry_deal], widths[entry_deal], sound_deal[entry_deal], presence,
                DealtHands(row_entry, row_seat, category, held))
