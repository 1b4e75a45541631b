"""Hand-history records: one played deal as plain data (docs/histories.md,
the schema in history.schema.json beside this module), to and from a Deal.

A record holds what a platform logs of a deal: its ids and start time, the
table's rules (inline, or by name in a rules table given once), the dealer,
the players with their seats and stacks, the cards dealt (any may be
missing), the actions in order, the rake taken from each pot and the
outcome the platform recorded.  Reading checks the record's form and names
the field of any fault; whether its actions follow the rules is the
replay's question, not the reader's."""


import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from .._core import TABLE_KINDS
from ..cards import cards_of, format_cards
from ..errors import InvalidHandError
from .carried import CARRIED_KEYS
from .deal import Deal
from .records import Action
from .rules import TableRules

FORMAT = "prial.history"
VERSION = 1
SCHEMA = Path(__file__).with_name("history.schema.json")
_KEYS = ("format", "version", "deal_id", "table_id", "started", "table", "rules_ref", "dealer", "players", "cards",
         "seed", "stub", "carried", "actions", "rake", "outcome")
# The kinds whose amount a record gives (a stake's or sideshow's choice, a
# see's, cover's, call's or raise's price, a draw's count of cards).
_PRICED = ("stake", "sideshow", "see", "cover", "call", "raise", "draw")


class Outcome(NamedTuple):
    """What the platform recorded: the winners and each player's net."""

    winners: tuple[str, ...]
    nets: dict[str, int]


class History(NamedTuple):
    """A record read: the deal's setup, its actions (each with its time,
    None where not logged) and what was recorded of its end."""

    deal_id: str
    table_id: str | None
    started: str | None
    table: TableRules
    players: tuple[str, ...]
    dealer: int
    stacks: tuple[int, ...] | None
    cards: tuple[tuple[int, ...] | None, ...] | None
    seed: int | None
    carried: dict[str, Any]
    actions: tuple[Action, ...]
    times: tuple[str | None, ...]
    rake: tuple[int, ...]
    outcome: Outcome | None
    stub: tuple[int, ...] | None = None  # draw Brag with cards: the cards the draw dealt from

    def start(self) -> Deal:
        """The deal before its first action."""
        return Deal.start(self.table, self.players, cards=self.cards, seed=self.seed, dealer=self.dealer,
                          stacks=self.stacks, carried=self.carried or None, stub=self.stub)


def to_record(deal: Deal, *, deal_id: str, table_id: str | None = None, started: str | datetime | None = None,
              times: Sequence[str | datetime | None] | None = None, rake: Sequence[int] = (),
              outcome: Outcome | None = None) -> dict[str, Any]:
    """``deal`` as a record; ``outcome`` None records the deal's own result
    (when it is over and known)."""
    data = deal.to_dict()
    if times is not None and len(times) != len(deal.history):
        raise InvalidHandError(f"times gives {len(times)} times for {len(deal.history)} actions", field="times")
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "deal_id": _text(deal_id, "deal_id")}
    if table_id is not None:
        record["table_id"] = _text(table_id, "table_id")
    if started is not None:
        record["started"] = _time(started, "started")
    record["table"] = data["table"]
    record["dealer"] = deal.dealer
    stacks = data["stacks"]
    record["players"] = _player_entries(deal.players, stacks)
    if "cards" in data:
        record["cards"] = [None if hand is None else format_cards(hand) for hand in data["cards"]]
        if "stub" in data:
            record["stub"] = format_cards(data["stub"])
    else:
        record["seed"] = data["seed"]
    carried = {key: data[key] for key in CARRIED_KEYS if key in data}
    if carried:
        record["carried"] = carried
    record["actions"] = [
        _action_entry(action, None if times is None or times[i] is None else _time(times[i], f"times[{i}]"),
                      action.kind in _PRICED)
        for i, action in enumerate(deal.history)]
    if outcome is None and deal.result is not None and deal.result.known:
        outcome = Outcome(tuple(deal.result.winners or ()), dict(deal.result.nets or {}))
    return _ending(record, rake, outcome)


def record_of(history: History, *, rules_ref: str | None = None) -> dict[str, Any]:
    """``history`` as a record again, as read (an action the rules refuse
    kept as it was); ``rules_ref`` names its rules instead of giving them
    inline.  ``read_record(record_of(h)) == h``."""
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "deal_id": history.deal_id}
    if history.table_id is not None:
        record["table_id"] = history.table_id
    if history.started is not None:
        record["started"] = history.started
    if rules_ref is None:
        record["table"] = history.table.to_dict()
    else:
        record["rules_ref"] = _text(rules_ref, "rules_ref")
    record["dealer"] = history.dealer
    record["players"] = _player_entries(history.players, history.stacks)
    if history.seed is not None:
        record["seed"] = history.seed
    elif history.cards is not None and any(hand is not None for hand in history.cards):
        record["cards"] = [None if hand is None else format_cards(hand) for hand in history.cards]
    if history.stub is not None:
        record["stub"] = format_cards(history.stub)
    if history.carried:
        record["carried"] = dict(history.carried)
    record["actions"] = [_action_entry(action, time, True) for action, time in zip(history.actions, history.times)]
    return _ending(record, history.rake, history.outcome)


def _player_entries(names: Sequence[str], stacks: Sequence[int] | None) -> list[dict[str, Any]]:
    return [{"id": name, "seat": seat, **({} if stacks is None else {"stack": stacks[seat]})}
            for seat, name in enumerate(names)]


def _action_entry(action: Action, time: str | None, with_amount: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"player": action.player, "kind": action.kind}
    if action.amount is not None and with_amount:
        entry["amount"] = action.amount
    if action.discards:
        entry["discards"] = format_cards(action.discards)
    if time is not None:
        entry["time"] = time
    return entry


def _ending(record: dict[str, Any], rake: Sequence[int], outcome: Outcome | None) -> dict[str, Any]:
    if rake:
        record["rake"] = [int(r) for r in rake]
    if outcome is not None:
        record["outcome"] = {"winners": list(outcome.winners), "nets": dict(outcome.nets)}
    return record


def read_record(record: Mapping[str, Any], tables: Mapping[str, TableRules] | None = None) -> History:
    """A record's contents, checked for form; a fault raises InvalidHandError
    naming its field (``actions[3].amount``).  ``tables``: the rules a
    record may name by ``rules_ref`` instead of giving them inline."""
    if not isinstance(record, Mapping):
        raise InvalidHandError(f"a history record is a JSON object; got {type(record).__name__}", field="record")
    if record.get("format", FORMAT) != FORMAT:
        raise InvalidHandError(f"not a history record: format {record.get('format')!r}, not {FORMAT!r}",
                               field="format")
    if record.get("version", VERSION) != VERSION:
        raise InvalidHandError(f"history version {record.get('version')!r} is not supported (this prial reads "
                               f"version {VERSION})", field="version")
    unknown = sorted(str(key) for key in record if key not in _KEYS)
    if unknown:
        raise InvalidHandError(f"unknown field {unknown[0]!r} in a history record", field=unknown[0])
    deal_id = _text(record.get("deal_id"), "deal_id")
    table_id = None if record.get("table_id") is None else _text(record["table_id"], "table_id")
    started = None if record.get("started") is None else _time(record["started"], "started")
    table = _table(record, tables)
    players, stacks = _players(record.get("players"))
    n = len(players)
    dealer = _whole(record.get("dealer", 0), "dealer", n - 1)
    cards = None
    seed = None
    if record.get("seed") is not None:
        if record.get("cards") is not None:
            raise InvalidHandError("give cards or a seed, not both", field="seed")
        seed = _whole(record["seed"], "seed", 2**64 - 1)
    elif record.get("cards") is not None:
        cards = _cards(record["cards"], n, table.cards)
    else:
        cards = (None,) * n  # nothing known of the cards
    carried = record.get("carried") or {}
    if not isinstance(carried, Mapping):
        raise InvalidHandError("carried must be an object", field="carried")
    actions, times = _actions(record.get("actions", []), players)
    rake = record.get("rake", [])
    if not isinstance(rake, list):
        raise InvalidHandError("rake must list the chips taken from each pot, oldest first", field="rake")
    rake_chips = tuple(_whole(r, f"rake[{i}]", 2**53) for i, r in enumerate(rake))
    stub = None if record.get("stub") is None else tuple(_card_list(record["stub"], "stub"))
    return History(deal_id, table_id, started, table, players, dealer, stacks, cards, seed, dict(carried),
                   actions, times, rake_chips, _outcome(record.get("outcome"), players), stub)


def from_record(record: Mapping[str, Any], tables: Mapping[str, TableRules] | None = None) -> Deal:
    """The deal a record describes, its actions replayed (an illegal one
    raises IllegalActionError)."""
    history = read_record(record, tables)
    deal = history.start()
    for action in history.actions:
        deal = deal.act(action)
    return deal


def history_schema() -> dict[str, Any]:
    """The JSON Schema of a record."""
    loaded: dict[str, Any] = json.loads(SCHEMA.read_text())
    return loaded


# ---- the parts of a record --------------------------------------------------


def _text(value: object, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidHandError(f"{field} must be a non-empty string; got {value!r}", field=field)
    return value


def _whole(value: object, field: str, most: int, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise InvalidHandError(f"{field} must be a whole number from {least} to {most:,}; got {value!r}", field=field)
    return value


def _time(value: object, field: str) -> str:
    """A time as UTC ISO 8601 text."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise InvalidHandError(f"{field} must say its time zone (UTC); got {value!r}", field=field)
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            parsed = None
        if parsed is not None and parsed.tzinfo is not None:
            return value
    raise InvalidHandError(f"{field} must be an ISO 8601 time with its zone, e.g. 2026-12-03T14:05:00Z; got "
                           f"{value!r}", field=field)


def _table(record: Mapping[str, Any], tables: Mapping[str, TableRules] | None) -> TableRules:
    if record.get("table") is not None:
        if record.get("rules_ref") is not None:
            raise InvalidHandError("give the table's rules inline or by rules_ref, not both", field="rules_ref")
        try:
            return TableRules.from_dict(record["table"])
        except InvalidHandError as exc:
            exc.field = f"table.{exc.field}" if exc.field and exc.field != "table" else "table"
            raise
    ref = record.get("rules_ref")
    if ref is None:
        raise InvalidHandError("a history record needs its table's rules: table, or rules_ref naming them",
                               field="table")
    if tables is None or ref not in tables:
        raise InvalidHandError(f"rules_ref {ref!r} names no rules of the rules table", field="rules_ref")
    return tables[ref]


def _players(value: object) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
    if not isinstance(value, list) or len(value) < 2:
        raise InvalidHandError("players must list at least two players, each {id, seat[, stack]}", field="players")
    by_seat: dict[int, Mapping[str, Any]] = {}
    for i, entry in enumerate(value):
        where = f"players[{i}]"
        if not isinstance(entry, Mapping) or sorted(set(entry) - {"id", "seat", "stack"}):
            raise InvalidHandError(f"{where} must be an object of id, seat and stack", field=where)
        seat = _whole(entry.get("seat", i), f"{where}.seat", len(value) - 1)
        if seat in by_seat:
            raise InvalidHandError(f"{where}: seat {seat} is taken twice", field=f"{where}.seat")
        _text(entry.get("id"), f"{where}.id")
        by_seat[seat] = entry
    ordered = [by_seat[s] for s in range(len(value))]
    names = tuple(e["id"] for e in ordered)
    if len(set(names)) != len(names):
        raise InvalidHandError("a player id is at the table twice", field="players")
    with_stacks = [e.get("stack") is not None for e in ordered]
    if any(with_stacks) and not all(with_stacks):
        raise InvalidHandError("give every player a stack or none", field="players")
    stacks = tuple(_whole(e["stack"], f"players[{value.index(e)}].stack", 2**53) for e in ordered) \
        if all(with_stacks) else None
    return names, stacks


def _cards(value: object, n: int, width: int) -> tuple[tuple[int, ...] | None, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise InvalidHandError(f"cards must give a hand (or null) for each of the {n} seats", field="cards")
    hands = tuple(None if hand is None else _card_list(hand, f"cards[{i}]") for i, hand in enumerate(value))
    for i, hand in enumerate(hands):
        if hand is not None and len(hand) != width:
            raise InvalidHandError(f"cards[{i}]: a hand of this game holds {width} cards, not {len(hand)}",
                                   field=f"cards[{i}]")
    return hands


def _card_list(value: object, field: str) -> tuple[int, ...]:
    try:
        return tuple(cards_of(value, field))  # type: ignore[arg-type]
    except InvalidHandError as exc:
        exc.field = exc.field or field
        raise


def _actions(value: object, players: tuple[str, ...]) -> tuple[tuple[Action, ...], tuple[str | None, ...]]:
    if not isinstance(value, list):
        raise InvalidHandError("actions must be a list", field="actions")
    actions: list[Action] = []
    times: list[str | None] = []
    for i, entry in enumerate(value):
        where = f"actions[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("kind"), str):
            raise InvalidHandError(f"{where} must be an object with a kind", field=where)
        unknown = sorted(set(entry) - {"player", "kind", "amount", "discards", "time"})
        if unknown:
            raise InvalidHandError(f"{where}: unknown field {unknown[0]!r}", field=f"{where}.{unknown[0]}")
        if entry["kind"] not in TABLE_KINDS:
            raise InvalidHandError(f"{where}: unknown kind {entry['kind']!r} (one of {', '.join(TABLE_KINDS)})",
                                   field=f"{where}.kind")
        player = entry.get("player")
        if player not in players:
            raise InvalidHandError(f"{where}: player {player!r} is not at the table", field=f"{where}.player")
        amount = entry.get("amount")
        if amount is not None:
            amount = _whole(amount, f"{where}.amount", 2**53)
        discards = entry.get("discards")
        cards = _card_list(discards, f"{where}.discards") if discards else ()
        if entry.get("time") is not None:
            times.append(_time(entry["time"], f"{where}.time"))
        else:
            times.append(None)
        kind = entry["kind"]
        # a see's or cover's chips are its price, not a choice: the replay checks them
        actions.append(Action(kind, player, amount, cards))
    return tuple(actions), tuple(times)


def _outcome(value: object, players: tuple[str, ...]) -> Outcome | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidHandError("outcome must be an object of winners and nets", field="outcome")
    winners = value.get("winners", [])
    if not isinstance(winners, list) or any(w not in players for w in winners):
        raise InvalidHandError("outcome.winners must list players at the table", field="outcome.winners")
    nets = value.get("nets", {})
    if not isinstance(nets, Mapping) or any(p not in players for p in nets):
        raise InvalidHandError("outcome.nets must map players at the table to chips", field="outcome.nets")
    for name, net in nets.items():
        if isinstance(net, bool) or not isinstance(net, int) or abs(net) > 2**62:
            raise InvalidHandError(f"outcome.nets[{name!r}] must be a whole number of chips; got {net!r}",
                                   field="outcome.nets")
    return Outcome(tuple(winners), dict(nets))
