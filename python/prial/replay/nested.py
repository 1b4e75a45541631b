"""A batch of nested Parquet histories replayed column by column: the plain
deals (prial.replay.arrays) go to the native replay a table at a time,
their money is settled over arrays, and every deal that ends as recorded
gets its row of findings built over columns.  What is left (bad records,
deals that do not end as recorded, that cannot be settled here) is read
and replayed record by record, so that its finding and its words are the
record reader's and prial.table.replay_histories' own."""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InvalidHandError
from ..logs.histories.layout import record_of_row
from ..logs.histories.read import checked, reason
from ..table import CODES, ENDINGS, STATUSES, History, ReplayResult, TableRules, replay_batch, replay_histories
from .arrays import Deals, Lists, plain_deals
from .columns import errors_table, findings_schema, findings_table

_OVER = STATUSES.index("over")
# The finding of each native status (STATUSES), as replay_histories names
# it; a deal that is over is ok until its money says otherwise.
_FINDING_OF = np.array([{"over": "ok", "unknown": "unchecked", "illegal": "illegal_action"}.get(name, name)
                        for name in STATUSES], dtype=object)


def replay_nested(batch: pa.RecordBatch, first_row: int, tables: Mapping[str, TableRules] | None,
                  threads: int | None) -> tuple[pa.Table, pa.Table]:
    """(findings, bad records) of a batch of a nested Parquet log whose
    first row is ``first_row`` of the file."""
    deals = plain_deals(batch, tables)
    settled: list[pa.Table] = []
    done = np.zeros(batch.num_rows, dtype=bool)
    for group in _groups(deals):
        settled.append(_replay_group(batch, deals, group, first_row, threads))
        done[group] = True
    rest_findings, errors = replay_rows(batch, np.flatnonzero(~done), first_row, tables, threads)
    findings = pa.concat_tables([*settled, rest_findings])
    rows = findings["row"].to_numpy()
    if len(rows) > 1 and (np.diff(rows) < 0).any():
        findings = findings.take(pc.sort_indices(findings, [("row", "ascending")]))
    return findings, errors


def replay_rows(batch: pa.RecordBatch, rows: npt.NDArray[np.int64], first_row: int,
                tables: Mapping[str, TableRules] | None, threads: int | None) -> tuple[pa.Table, pa.Table]:
    """Rows of a nested batch read record by record and replayed."""
    histories: list[History] = []
    positions: list[int] = []
    bad: list[tuple[int, str, str]] = []
    for i, row in zip(rows.tolist(), batch.take(pa.array(rows, pa.int64())).to_pylist()):
        try:
            histories.append(checked(record_of_row(row), tables))
            positions.append(first_row + i)
        except InvalidHandError as exc:
            bad.append((first_row + i, reason(exc), json.dumps(row, default=str)))
    return findings_table(replay_histories(histories, threads), positions, "row"), errors_table(bad, "row")


def _groups(deals: Deals) -> list[npt.NDArray[np.int64]]:
    """The plain deals by table and by whether they have stacks (a native
    batch has one table, and stacks for every deal or for none)."""
    stacked = np.bincount(deals.players.owner[deals.stacks_given], minlength=len(deals.plain)) > 0
    key = deals.rules_of * 2 + stacked
    key[~deals.plain] = -1
    return [np.flatnonzero(key == k) for k in np.unique(key[key >= 0])]


def _replay_group(batch: pa.RecordBatch, deals: Deals, group: npt.NDArray[np.int64], first_row: int,
                  threads: int | None) -> tuple[pa.Table, npt.NDArray[np.bool_]]:
    table = deals.rules[int(deals.rules_of[group[0]])]
    where = np.full(len(deals.plain), -1, dtype=np.int64)
    where[group] = np.arange(len(group))
    seats = int(deals.seats[group].max())
    stacks = None
    if deals.stacks_given[where[deals.players.owner] >= 0].any():
        stacks = _matrix(deals.players, where, deals.stacks, len(group), seats)
    in_group = where[deals.actions.owner] >= 0
    out = replay_batch(
        table, players=deals.seats[group].astype(np.uint8), dealers=deals.dealer[group].astype(np.uint8),
        cards=np.ascontiguousarray(deals.cards[group, :seats, :table.cards]), stacks=stacks,
        offsets=np.concatenate(([0], np.cumsum(deals.actions.lengths[group]))).astype(np.int64),
        actors=deals.actor[in_group].astype(np.uint8), kinds=deals.kind[in_group].astype(np.uint8),
        amounts=deals.amount[in_group], discards=np.ascontiguousarray(deals.discards[in_group]), threads=threads)
    nets, winners = _settle(deals, where, group, out.pots, out.pot_winners, out.put_in[:, :seats])
    status = _FINDING_OF[out.status]
    over = out.status == _OVER
    recorded = deals.outcome[group]
    told = np.zeros(len(group), dtype=np.int64)
    pick = where[deals.winners.owner]
    inside = pick >= 0
    np.bitwise_or.at(told, pick[inside], 1 << deals.winner_seat[inside])
    status[over & recorded & (told != winners)] = "wrong_winner"
    pick = where[deals.nets.owner]
    inside = pick >= 0
    wrong = nets[pick[inside], deals.net_seat[inside]] != deals.net_chips[inside]
    mispaid = np.zeros(len(group), dtype=bool)
    mispaid[pick[inside][wrong]] = True
    status[mispaid & (status == "ok")] = "mispaid"
    return _rows(batch, deals, where, group, status, over, out, nets, winners, first_row)


def _matrix(lists: Lists, where: npt.NDArray[np.int64], values: npt.NDArray[np.int64], rows: int,
            width: int) -> npt.NDArray[np.int64]:
    """A list column's values of the group's deals as (deals × width)."""
    out = np.zeros((rows, width), dtype=np.int64)
    at = where[lists.owner]
    inside = (at >= 0) & (lists.index() < width)
    out[at[inside], lists.index()[inside]] = values[inside]
    return out


def _settle(deals: Deals, where: npt.NDArray[np.int64], group: npt.NDArray[np.int64], pots: npt.NDArray[np.int64],
            pot_winners: npt.NDArray[np.uint32], put_in: npt.NDArray[np.int64]
            ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each player's net and the winners (seat bits), as replay_histories
    settles them: each pot less its rake in equal parts, odd chips one each
    to its winners in turn from the dealer's left; the winners are those
    paid, else the last pot's."""
    count, seats = put_in.shape
    positive = pots > 0
    rake = _matrix(deals.rake, where, deals.rake_chips, count, pots.shape[1])
    nth = np.clip(np.cumsum(positive, axis=1) - 1, 0, pots.shape[1] - 1)
    chips = np.maximum(pots - np.where(positive, np.take_along_axis(rake, nth, axis=1), 0), 0)
    players = deals.seats[group][:, None]
    turn = (np.arange(seats)[None, :] - deals.dealer[group][:, None] - 1) % players
    paid = np.zeros((count, seats), dtype=np.int64)
    bit = np.arange(seats, dtype=np.uint32)
    for k in np.flatnonzero((positive & (pot_winners > 0)).any(axis=0)):
        won = ((pot_winners[:, k, None] >> bit) & 1).astype(bool) & positive[:, k, None]
        many = np.maximum(won.sum(axis=1), 1)
        share, odd = np.divmod(chips[:, k], many)
        ahead = (won[:, None, :] & (turn[:, None, :] < turn[:, :, None])).sum(axis=2)
        paid += won * (share[:, None] + (ahead < odd[:, None]))
    winners = ((paid > 0) << np.arange(seats)).sum(axis=1)
    last = pots.shape[1] - 1 - np.argmax(positive[:, ::-1], axis=1)
    fallback = np.where(positive.any(axis=1), pot_winners[np.arange(count), last], 0).astype(np.int64)
    return paid - put_in, np.where(winners > 0, winners, fallback)


def _json_lists(items: pa.Array, owner: npt.NDArray[np.int64], rows: int, opening: str, closing: str) -> pa.Array:
    """Per row, its items (in row order) joined as a JSON list or object."""
    offsets = np.concatenate(([0], np.cumsum(np.bincount(owner, minlength=rows)))).astype(np.int32)
    joined = pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), items), ",")
    return pc.binary_join_element_wise(opening, joined, closing, "")


def _quoted(names: pa.Array) -> pa.Array:
    return pc.binary_join_element_wise('"', names, '"', "")


def _rows(batch: pa.RecordBatch, deals: Deals, where: npt.NDArray[np.int64], group: npt.NDArray[np.int64],
          status: npt.NDArray[np.object_], over: npt.NDArray[np.bool_], out: ReplayResult,
          nets: npt.NDArray[np.int64], winners: npt.NDArray[np.int64], first_row: int) -> pa.Table:
    """The findings of the deals of ``group``, built as columns; only a
    deal found at fault has its words made on its own."""
    rows = len(group)
    players = deals.players
    mine = where[players.owner] >= 0
    owner, seat = where[players.owner][mine], players.index()[mine]
    ids = _quoted(deals.names.ids.filter(pa.array(mine)))
    net = nets[owner, seat]
    won = (winners[owner] >> seat) & 1 == 1
    told_winners = deals.winners
    told = where[told_winners.owner] >= 0
    told_nets = deals.nets
    netted = where[told_nets.owner] >= 0
    net_items = told_nets.values.filter(pa.array(netted))
    recorded = deals.outcome[group]
    with_nets = np.bincount(where[told_nets.owner][netted], minlength=rows) > 0
    endings = np.array([e or None for e in ENDINGS], dtype=object)[out.ending]
    rake = np.zeros(len(deals.plain), dtype=np.int64)
    np.add.at(rake, deals.rake.owner, deals.rake_chips)
    illegal = status == "illegal_action"
    action_index = np.where(illegal, out.first_bad, -1)
    code = np.where(illegal, np.array(CODES, dtype=object)[out.code], None)
    detail, player = _words(batch, deals, group, status, out, nets, winners)
    no_text = pa.nulls(rows, pa.string())
    columns = {
        "row": pa.array(first_row + group, pa.int64()),
        "deal_id": batch.column("deal_id").take(pa.array(group)),
        "table_id": batch.column("table_id").take(pa.array(group)).cast(pa.string()),
        "finding": pa.array(status, pa.string()),
        "actions": pa.array(deals.actions.lengths[group], pa.int64()),
        "action_index": pa.array(action_index, pa.int64()),
        "player": pa.array(player, pa.string()),
        "code": pa.array(code, pa.string()),
        "ending": pa.array(endings, pa.string()),
        "winners": pc.if_else(pa.array(over), _json_lists(ids.filter(pa.array(won)), owner[won], rows, "[", "]"),
                              no_text),
        "nets": pc.if_else(pa.array(over), _json_lists(
            pc.binary_join_element_wise(ids, pa.array(net).cast(pa.string()), ":"), owner, rows, "{", "}"),
            no_text),
        "recorded_winners": pc.if_else(pa.array(recorded), _json_lists(
            _quoted(told_winners.values.filter(pa.array(told))), where[told_winners.owner][told], rows, "[", "]"),
            no_text),
        "recorded_nets": pc.if_else(pa.array(recorded & with_nets), _json_lists(
            pc.binary_join_element_wise(_quoted(net_items.field("player")),
                                        net_items.field("net").cast(pa.string()), ":"),
            where[told_nets.owner][netted], rows, "{", "}"), no_text),
        "rake": pa.array(rake[group], pa.int64()),
        "detail": pa.array(detail, pa.string()),
    }
    return pa.table(columns, schema=findings_schema("row"))


def _words(batch: pa.RecordBatch, deals: Deals, group: npt.NDArray[np.int64], status: npt.NDArray[np.object_],
           out: ReplayResult, nets: npt.NDArray[np.int64], winners: npt.NDArray[np.int64]
           ) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.object_]]:
    """Each deal's detail and the player of its refused action, said as
    prial.table.replay_histories says them: "" and None for a deal found ok."""
    detail = np.full(len(group), "", dtype=object)
    player = np.full(len(group), None, dtype=object)
    faulty = np.flatnonzero(status != "ok")
    if not len(faulty):
        return detail, player
    rows = pa.array(group[faulty])
    names = [[p["id"] for p in entry] for entry in batch.column("players").take(rows).to_pylist()]
    actions = batch.column("actions").take(rows).to_pylist()
    told = batch.column("winners").take(rows).to_pylist()
    told_nets = batch.column("nets").take(rows).to_pylist()
    for i, seats, steps, recorded, recorded_nets in zip(faulty.tolist(), names, actions, told, told_nets):
        finding = status[i]
        if finding == "bad_setup":
            detail[i] = "the deal cannot start from this setup"
        elif finding == "illegal_action":
            bad = int(out.first_bad[i])
            player[i] = steps[bad]["player"]
            detail[i] = (f"action {bad} ({player[i]}: {steps[bad]['kind']}) breaks the rule "
                         f"{CODES[int(out.code[i])]}; the deal's money is not checked")
        elif finding == "unfinished":
            detail[i] = f"the deal has not ended after its {len(steps)} actions"
        elif finding == "unchecked":
            detail[i] = ("the end depends on cards the record does not give: its winners and payouts are not "
                         "checked")
        elif finding == "wrong_winner":
            given = [name for s, name in enumerate(seats) if int(winners[i]) >> s & 1]
            detail[i] = (f"recorded winners {', '.join(recorded or []) or 'none'}; the rules give "
                         f"{', '.join(given) or 'none'}")
        else:  # mispaid
            seat_of = {name: s for s, name in enumerate(seats)}
            detail[i] = "; ".join(f"{e['player']} recorded {e['net']:+d}, the rules give "
                                  f"{int(nets[i, seat_of[e['player']]]):+d}"
                                  for e in recorded_nets if nets[i, seat_of[e["player"]]] != e["net"])
    return detail, player
