"""A chunk of hand histories as the arrays a history audit counts
(``DealArrays``), built from records read (``of_histories``) or, for a
nested Parquet batch, from the columns the replay reads them by
(``of_nested``): either way the counts are the same."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .._core import TABLE_KINDS
from ..logs.columns import NO_CARD
from ..table.history import History
from ..table.replay import FINDINGS, Finding
from ..table.rules import TableRules

if TYPE_CHECKING:
    import pyarrow as pa

    from ..replay.arrays import Deals

WIDEST = 5  # cards in the widest hand
OFFENDING = ("illegal_action", "wrong_winner", "mispaid")
_KIND = {kind: i for i, kind in enumerate(TABLE_KINDS)}
_FINDING = {name: i for i, name in enumerate(FINDINGS)}


class Offence(NamedTuple):
    """A deal that breaks the rules or was paid wrong."""

    deal_id: str
    finding: str  # illegal_action, wrong_winner or mispaid
    action_index: int  # the illegal action's place in its deal; -1 for a payout
    code: str | None  # the rule it breaks
    player: str | None  # who made it


class DealArrays(NamedTuple):
    """A chunk's deals (n), their seats (rows: each deal's seats in turn)
    and their actions, as arrays; players are codes into ``players``."""

    deal_ids: list[str]
    table_ids: list[str | None]
    started: list[str | None]
    tables: list[TableRules]
    table_of: np.ndarray  # (n) index of tables
    seats_of: np.ndarray  # (n)
    dealer: np.ndarray  # (n) the dealer's seat
    players: list[str]
    seat_player: np.ndarray  # (rows)
    held: np.ndarray  # (rows, WIDEST) the hands dealt, NO_CARD past a hand's end or for a hand not recorded
    carried: np.ndarray  # (n) -1, or 0: a pack carried from the deal before, 1: a hand kept from it
    acting: np.ndarray  # (n) actions of each deal
    action_seat: np.ndarray  # (actions)
    action_kind: np.ndarray  # (actions) index of TABLE_KINDS
    finding: np.ndarray  # (n) index of FINDINGS
    recorded: np.ndarray  # (n) whether the record says who won or what each netted
    recorded_nets: tuple[np.ndarray, np.ndarray]  # (player, chips) of every recorded net
    nets: tuple[np.ndarray, np.ndarray]  # (player, chips) of every adjudicated net
    offences: dict[int, Offence]  # by deal, the offending ones
    paid_wrong: dict[int, set[str]]  # by deal, the mispaid ones: whom the record pays otherwise than the rules


def codes_of(values: Sequence[Any]) -> tuple[np.ndarray, list[Any]]:
    """(each value's code, the distinct values in order of first sight)."""
    index: dict[object, int] = {}
    return np.fromiter((index.setdefault(v, len(index)) for v in values), np.int64, len(values)), list(index)


def places(seats_of: np.ndarray) -> np.ndarray:
    """0, 1, ... within each deal's run of ``seats_of`` rows."""
    start: np.ndarray = np.repeat(np.cumsum(seats_of) - seats_of, seats_of)
    return np.arange(int(seats_of.sum())) - start


def _offence(f: Finding) -> Offence:
    return Offence(f.deal_id, f.finding, f.action_index, f.code, f.player)


def _paid_wrong(winners: Sequence[str], nets: dict[str, int], recorded_winners: Sequence[str] | None,
                recorded_nets: dict[str, int] | None, players: Sequence[str]) -> set[str]:
    """The players the record pays otherwise than the adjudication."""
    return {name for name in players
            if (recorded_nets and name in recorded_nets and nets.get(name) != recorded_nets[name])
            or (recorded_winners is not None and (name in winners) != (name in recorded_winners))}


def of_histories(histories: Sequence[History], findings: Sequence[Finding]) -> DealArrays:
    """The arrays of records read, ``findings`` their replay's."""
    n = len(histories)
    seats_of = np.fromiter((len(h.players) for h in histories), np.int64, n)
    names = [p for h in histories for p in h.players]
    acting = np.fromiter((len(h.actions) for h in histories), np.int64, n)
    actors = [a.player for h in histories for a in h.actions]
    codes, players = codes_of([*names, *actors])  # one code per name, for the seats and the actions alike
    seat_player, actor = codes[: len(names)], codes[len(names):]
    deal = np.repeat(np.arange(n), acting)
    seat_codes = np.full((n, int(seats_of.max(initial=1))), -1)
    seat_codes[np.repeat(np.arange(n), seats_of), places(seats_of)] = seat_player
    action_seat = np.argmax(seat_codes[deal] == actor[:, None], axis=1) if len(actor) else np.zeros(0, np.int64)
    table_of, tables = codes_of([h.table for h in histories])
    carried = np.full(n, -1)
    for d in [d for d, h in enumerate(histories) if h.carried]:
        mine = histories[d].carried
        carried[d] = 0 if "pack" in mine or "pack_seed" in mine else 1 if "retained" in mine else -1
    index = {name: i for i, name in enumerate(players)}

    def nets_of(given: list[dict[str, int]]) -> tuple[np.ndarray, np.ndarray]:
        who = np.fromiter(map(index.__getitem__, chain.from_iterable(given)), np.int64)
        return who, np.fromiter(chain.from_iterable(net.values() for net in given), np.int64, len(who))

    offending = [d for d, f in enumerate(findings) if f.finding in OFFENDING]
    return DealArrays(
        deal_ids=[h.deal_id for h in histories], table_ids=[h.table_id for h in histories],
        started=[h.started for h in histories], tables=tables, table_of=table_of, seats_of=seats_of,
        dealer=np.fromiter((h.dealer for h in histories), np.int64, n), players=players, seat_player=seat_player,
        held=_dealt(histories), carried=carried, acting=acting, action_seat=action_seat,
        action_kind=np.fromiter(map(_KIND.__getitem__, (a.kind for h in histories for a in h.actions)), np.int64,
                                len(actor)),
        finding=np.fromiter((_FINDING[f.finding] for f in findings), np.int64, n),
        recorded=np.fromiter((h.outcome is not None and bool(h.outcome.winners or h.outcome.nets)
                              for h in histories), bool, n),
        recorded_nets=nets_of([h.outcome.nets for h in histories if h.outcome and h.outcome.nets]),
        nets=nets_of([f.nets for f in findings if f.nets]),
        offences={d: _offence(findings[d]) for d in offending},
        paid_wrong={d: _paid_wrong(f.winners or (), f.nets or {}, f.recorded_winners, f.recorded_nets,
                                   histories[d].players)
                    for d in offending if (f := findings[d]).finding != "illegal_action"})


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _seeded(h: History) -> list[tuple[int, ...] | None]:
    """The hands a deal recorded by its seed was dealt."""
    hands = h.start().hands
    return [hands.get(name) for name in h.players]


def _dealt(histories: Sequence[History]) -> np.ndarray:
    """The hands dealt, a row per seat of each deal in order."""
    def hands(h: History) -> Sequence[tuple[int, ...] | None]:
        return _seeded(h) if h.seed is not None else h.cards or (None,) * len(h.players)

    widths = {h.table.cards for h in histories}
    if len(widths) == 1:  # the common case: one hand size, one array straight from the tuples
        width = widths.pop()
        none = (NO_CARD,) * width
        rows = [hand or none for h in histories for hand in hands(h)]
        held = np.fromiter(chain.from_iterable(rows), np.uint8, len(rows) * width).reshape(len(rows), width)
        return np.pad(held, ((0, 0), (0, WIDEST - width)), constant_values=NO_CARD)
    rows = [(hand or (NO_CARD,) * h.table.cards) + (NO_CARD,) * (WIDEST - h.table.cards) for h in histories
            for hand in hands(h)]
    return np.array(rows, np.uint8).reshape(len(rows), WIDEST)


def of_nested(deals: Deals, findings: pa.Table, plain: np.ndarray, batch: pa.RecordBatch) -> DealArrays:
    """The arrays of a nested Parquet batch's plain deals (``plain``: their
    rows), from the replay's columns (``deals``, prial.replay.arrays) and
    its findings table (rows in the batch's order)."""
    rows = np.flatnonzero(plain)
    n = len(rows)
    pick = np.full(len(plain), -1)
    pick[rows] = np.arange(n)
    seats_of = deals.seats[rows]
    owner = deals.players.owner
    mine = pick[owner] >= 0
    codes, players = codes_of(deals.names.ids.to_pylist())
    seat_player = codes[mine]
    act = pick[deals.actions.owner] >= 0
    nets_owner = pick[deals.nets.owner]
    told = nets_owner >= 0
    first_seat = np.concatenate(([0], np.cumsum(seats_of)[:-1]))
    recorded_nets = (seat_player[first_seat[nets_owner[told]] + deals.net_seat[told]], deals.net_chips[told])
    finding_names = findings.column("finding").to_pylist()
    finding = np.fromiter(map(_FINDING.__getitem__, finding_names), np.int64, n)
    held = np.full((int(seats_of.sum()), WIDEST), NO_CARD, np.uint8)
    held[:] = deals.cards[np.repeat(rows, seats_of), places(seats_of)]
    # Adjudicated nets: the recorded ones where the deal is ok and records them, else the findings' own.
    with_nets = np.bincount(nets_owner[told], minlength=n) > 0
    ok = finding == _FINDING["ok"]
    same = ok & with_nets
    keep_told = same[nets_owner[told]]
    other = np.flatnonzero(~same)
    texts = findings.column("nets").take(other).to_pylist()
    parsed = [json.loads(t) if t else {} for t in texts]
    index = {name: i for i, name in enumerate(players)}
    who = np.fromiter(map(index.__getitem__, chain.from_iterable(parsed)), np.int64)
    chips = np.fromiter(chain.from_iterable(p.values() for p in parsed), np.int64, len(who))
    nets = (np.concatenate([recorded_nets[0][keep_told], who]), np.concatenate([recorded_nets[1][keep_told], chips]))
    offending = np.flatnonzero(np.isin(finding, [_FINDING[name] for name in OFFENDING])).tolist()
    offences, paid_wrong = {}, {}
    if offending:
        found = findings.take(offending).to_pylist()
        for d, row in zip(offending, found):
            offences[d] = Offence(row["deal_id"], row["finding"], row["action_index"], row["code"], row["player"])
            if row["finding"] != "illegal_action":
                at = int(first_seat[d])
                paid_wrong[d] = _paid_wrong(_loads(row["winners"]) or (), _loads(row["nets"]) or {},
                                            _loads(row["recorded_winners"]), _loads(row["recorded_nets"]),
                                            [players[c] for c in seat_player[at: at + seats_of[d]]])
    started = batch.column("started").take(rows).to_pylist()
    return DealArrays(
        deal_ids=batch.column("deal_id").take(rows).to_pylist(), table_ids=batch.column("table_id").take(rows).to_pylist(),
        started=started, tables=deals.rules, table_of=deals.rules_of[rows], seats_of=seats_of,
        dealer=deals.dealer[rows], players=players, seat_player=seat_player, held=held, carried=np.full(n, -1),
        acting=deals.actions.lengths[rows], action_seat=deals.actor[act], action_kind=deals.kind[act],
        finding=finding, recorded=deals.outcome[rows], recorded_nets=recorded_nets, nets=nets,
        offences=offences, paid_wrong=paid_wrong)
