"""Replaying hand histories: every deal's actions checked against the
table's rules by the native replay, then its payouts adjudicated (the rake
taken from each pot accounted for) and compared with what was recorded
(docs/histories.md, "Replay").  One finding per deal."""

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core import TABLE_KINDS
from ..errors import IllegalActionError, InvalidHandError
from .batch import CODES, ENDINGS, NO_CARD, STATUSES, padded, replay_batch
from .deal import Deal
from .history import History
from .rules import DRAW_GAME, TableRules

# A deal's finding, most serious first: the first that applies is given.
FINDINGS = ("bad_setup", "illegal_action", "unfinished", "unchecked", "wrong_winner", "mispaid", "ok")
_KIND = {kind: i for i, kind in enumerate(TABLE_KINDS)}
_UNKNOWN = 255  # an action kind or player the native replay refuses as unknown


class Finding(NamedTuple):
    """What the replay of one deal found.

    ``finding``: one of FINDINGS — ``illegal_action`` (``action_index``,
    ``player`` and ``code`` name the first action the rules refuse; the
    deal's money is not checked), ``bad_setup`` (the deal cannot start:
    ``detail`` says why), ``unfinished`` (the actions stop before the
    end), ``unchecked`` (the end depends on cards not recorded),
    ``wrong_winner`` or ``mispaid`` (the recorded winners or nets differ
    from the adjudication), ``ok``.  ``nets``: each player's adjudicated
    net after the rake (None where not decided); ``recorded_*``: what the
    record says (None where it says nothing)."""

    deal_id: str
    table_id: str | None
    finding: str
    actions: int
    action_index: int
    player: str | None
    code: str | None
    ending: str | None
    winners: tuple[str, ...] | None
    nets: dict[str, int] | None
    recorded_winners: tuple[str, ...] | None
    recorded_nets: dict[str, int] | None
    rake: int
    detail: str


def replay_histories(histories: Sequence[History], threads: int | None = 1) -> list[Finding]:
    """One finding per history, in order.  Deals at one table are replayed
    natively together; a deal carrying something from the deal before
    (a pot that stayed, a kept hand) through prial.Deal."""
    findings: list[Finding | None] = [None] * len(histories)
    # Deals with stacks and deals without are replayed apart: a batch has
    # stacks for every deal or for none.
    by_table: dict[tuple[TableRules, bool], list[int]] = {}
    for i, history in enumerate(histories):
        if history.carried:
            findings[i] = _replay_one(history)
        else:
            by_table.setdefault((history.table, history.stacks is not None), []).append(i)
    for (table, _), indices in by_table.items():
        for i, finding in zip(indices, _replay_native(table, [histories[i] for i in indices], threads)):
            findings[i] = finding
    return [f for f in findings if f is not None]


def _replay_native(table: TableRules, histories: list[History], threads: int | None) -> list[Finding]:
    n = len(histories)
    seats = max(len(h.players) for h in histories)
    cards = np.full((n, seats, table.cards), NO_CARD, dtype=np.uint8)
    stacks = np.zeros((n, seats), dtype=np.int64)
    has_stacks = histories[0].stacks is not None
    offsets = np.zeros(n + 1, dtype=np.int64)
    actors: list[int] = []
    kinds: list[int] = []
    amounts: list[int] = []
    discards: list[tuple[int, ...]] = []
    draw = table.game == DRAW_GAME
    stub = np.full((n, table.rules.pack_size), NO_CARD, dtype=np.uint8) if draw else None
    for d, h in enumerate(histories):
        hands, left = _hands(h)
        for s, hand in enumerate(hands):
            if hand is not None:
                cards[d, s] = hand
        if stub is not None and left is not None:
            stub[d, : len(left)] = left
        if h.stacks is not None:
            stacks[d, : len(h.stacks)] = h.stacks
        seat_of = {name: s for s, name in enumerate(h.players)}
        for a in h.actions:
            actors.append(seat_of.get(a.player or "", _UNKNOWN))
            kinds.append(_KIND.get(a.kind, _UNKNOWN))
            amounts.append(-1 if a.amount is None else a.amount)
            discards.append(padded(a.discards, 3 if draw else 2))
        offsets[d + 1] = len(actors)
    out = replay_batch(
        table, players=np.array([len(h.players) for h in histories], dtype=np.uint8),
        dealers=np.array([h.dealer for h in histories], dtype=np.uint8), cards=cards,
        stacks=stacks if has_stacks else None, offsets=offsets, actors=np.array(actors, dtype=np.uint8),
        kinds=np.array(kinds, dtype=np.uint8), amounts=np.array(amounts, dtype=np.int64),
        discards=np.array(discards, dtype=np.uint8).reshape(-1, 3 if draw else 2), threads=threads, stub=stub)
    findings = []
    for d, h in enumerate(histories):
        names = h.players
        count = len(names)
        pots = [(int(out.pots[d, k]), [names[s] for s in range(count) if int(out.pot_winners[d, k]) >> s & 1])
                for k in range(out.pots.shape[1]) if out.pots[d, k] > 0]
        findings.append(_finding(h, STATUSES[int(out.status[d])], int(out.first_bad[d]), CODES[int(out.code[d])],
                                 ENDINGS[int(out.ending[d])], pots, [int(x) for x in out.put_in[d, :count]]))
    return findings


def _hands(h: History) -> tuple[Sequence[Sequence[int] | None], Sequence[int] | None]:
    """The hands dealt and (draw Brag) the cards left for the draw."""
    if h.seed is None:
        return h.cards or (None,) * len(h.players), h.stub
    deal = h.start()  # the seed-to-pack algorithm deals them
    hands = [tuple(c) if (c := deal._native.cards(s)) is not None else None for s in range(len(h.players))]
    return hands, deal._native.stub()


def _replay_one(h: History) -> Finding:
    """A deal replayed through prial.Deal (what the native replay does not
    carry: a pot that stayed, a kept blind hand, players sitting out)."""
    try:
        deal = h.start()
    except InvalidHandError as exc:
        return _finding(h, "bad_setup", -1, "ok", "", [], [], detail=str(exc))
    for i, action in enumerate(h.actions):
        try:
            deal = deal.act(action)
        except IllegalActionError as exc:
            return _finding(h, "illegal", i, exc.code, "", [], [], detail=str(exc))
        except InvalidHandError as exc:
            return _finding(h, "illegal", i, "unknown_action", "", [], [], detail=str(exc))
    return _finding_of_deal(h, deal)


def _finding_of_deal(h: History, deal: Deal) -> Finding:
    result = deal.result
    put_in = [seat.put_in for seat in deal.seats]
    if result is None:
        return _finding(h, "unfinished", -1, "ok", "", [], put_in)
    if not result.known:
        return _finding(h, "unknown", -1, "ok", result.ending, [], put_in)
    pots = [(p.amount, list(p.winners)) for p in result.pots]
    return _finding(h, "over", -1, "ok", result.ending, pots, put_in)


def _split(h: History, pots: list[tuple[int, list[str]]]) -> dict[str, int]:
    """Each player's chips from the pots, less the rake taken from each:
    a shared pot in equal parts, odd chips one each to its winners in turn
    order from the dealer's left."""
    names = h.players
    order = {names[(h.dealer + 1 + k) % len(names)]: k for k in range(len(names))}
    paid = dict.fromkeys(names, 0)
    for k, (amount, winners) in enumerate(pots):
        if not winners:
            continue
        chips = amount - (h.rake[k] if k < len(h.rake) else 0)
        share, odd = divmod(max(chips, 0), len(winners))
        for rank, name in enumerate(sorted(winners, key=order.__getitem__)):
            paid[name] += share + (rank < odd)
    return paid


def _finding(h: History, status: str, first_bad: int, code: str, ending: str, pots: list[tuple[int, list[str]]],
             put_in: list[int], detail: str = "") -> Finding:
    """The finding of a deal whose replay ended in ``status`` (a name of STATUSES)."""
    recorded_winners = None if h.outcome is None else h.outcome.winners
    recorded_nets = None if h.outcome is None or not h.outcome.nets else h.outcome.nets
    base: dict[str, Any] = dict(deal_id=h.deal_id, table_id=h.table_id, actions=len(h.actions),
                                action_index=-1, player=None, code=None, ending=ending or None, winners=None,
                                nets=None, recorded_winners=recorded_winners, recorded_nets=recorded_nets,
                                rake=sum(h.rake))
    if status == "bad_setup":
        return Finding(finding="bad_setup", detail=detail or "the deal cannot start from this setup", **base)
    if status == "illegal":
        action = h.actions[first_bad]
        base.update(action_index=first_bad, player=action.player, code=code)
        words = detail or f"action {first_bad} ({action.player}: {action.kind}) breaks the rule {code}"
        return Finding(finding="illegal_action", detail=words + "; the deal's money is not checked", **base)
    if status == "unfinished":
        return Finding(finding="unfinished", detail=f"the deal has not ended after its {len(h.actions)} actions",
                       **base)
    if status == "unknown":
        return Finding(finding="unchecked", detail="the end depends on cards the record does not give: its "
                                                   "winners and payouts are not checked", **base)
    paid = _split(h, pots)
    nets = {name: paid[name] - put_in[s] for s, name in enumerate(h.players)}
    winners = tuple(n for n in h.players if paid[n] > 0) or tuple(pots[-1][1] if pots else ())
    base.update(winners=winners, nets=nets)
    if recorded_winners is not None and set(recorded_winners) != set(winners):
        return Finding(finding="wrong_winner", detail=f"recorded winners {', '.join(recorded_winners) or 'none'}; "
                                                      f"the rules give {', '.join(winners) or 'none'}", **base)
    if recorded_nets is not None:
        wrong = [name for name, net in recorded_nets.items() if nets.get(name) != net]
        if wrong:
            return Finding(finding="mispaid", detail="; ".join(f"{name} recorded {recorded_nets[name]:+d}, the rules "
                                                             f"give {nets[name]:+d}" for name in wrong), **base)
    return Finding(finding="ok", detail="", **base)
