"""The betting table's messages (PlayTableRequest, PlayTableResponse) and
prial's table values, both ways: the server reads a deal from a request and
answers its state, the client writes requests and reads the state back.
Shared by the two so that they cannot disagree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .._core import MAX_TABLE_CHIPS, PACK_VERSION
from ..cards import CardsLike, cards_of
from ..errors import ConfigurationError, InvalidHandError
from ..table import GAMES, Action, Deal, DealResult, Event, Pot, PotResult, Seat, TableRules
from ..table.carried import CARRIED_KEYS, CarriedData
from ..table.rules import DRAW_GAME, DRAW_OPTIONS, SHUFFLES
from ..v1 import prial_pb2 as pb
from .convert import _from_enum, choice, number, rules_from_proto, rules_to_proto

TABLE_GAMES = _from_enum("TABLE_GAME", GAMES, GAMES[0])
TABLE_SHUFFLES = _from_enum("TABLE_SHUFFLE", SHUFFLES, SHUFFLES[0])
# The native table holds these options in 32 bits; chips go to 2^53.
_MOST = {"see_cost": 2**31 - 1, "blind_turns": 2**31 - 1}
_CHIP_OPTIONS = ("ante", "min_stake", "max_stake", "pot_cap", "see_cost")
_FLAGS = ("sideshow", "agreed_showdown", "cover")
_DRAW_CHIPS = ("small_blind", "big_blind", "first_bet")


class TableState(NamedTuple):
    """A deal as a PlayTable call answers it: the whole deal, or one
    player's view (``view``: that player, "" a spectator, None the whole
    deal).  ``actions`` counts the actions applied; ``history`` is what to
    send back as the next call's actions; ``hands`` holds the cards known
    (for a view, only those the viewer may see); ``events`` are empty in a
    view."""

    actions: int
    to_act: str | None
    over: bool
    stake: int
    pots: tuple[Pot, ...]
    seats: tuple[Seat, ...]
    legal_actions: tuple[Action, ...]
    events: tuple[Event, ...]
    result: DealResult | None
    history: tuple[Action, ...]
    hands: dict[str, tuple[int, ...]]
    view: str | None
    next_deal: DealSetup | None = None


class DealSetup(NamedTuple):
    """A deal as its calls give it, before the actions: the keywords of
    ``Client.play_table`` (``client.play_table(table, **setup._asdict(),
    action=...)``).  A PlayTable call asked for the next deal answers it;
    ``carried`` is what the deal carries from the one before, as
    ``prial.Deal.to_dict`` writes it."""

    players: tuple[str, ...]
    cards: tuple[tuple[int, ...] | None, ...] | None
    seed: int | None
    dealer: int
    stacks: tuple[int, ...] | None
    carried: CarriedData


# NamedTuple makes the constructor in a module of its own, where the
# annotations above (strings here) do not resolve; this one they do in.
TableState.__new__.__module__ = DealSetup.__new__.__module__ = __name__


def _bounded(value: int, field: str, most: int = MAX_TABLE_CHIPS) -> int:
    if value > most:
        raise InvalidHandError(f"{field} must be at most {most}; got {value}", field=field)
    return value


# -- the server's side -------------------------------------------------------


def table_rules_from_proto(msg: pb.TableRules) -> TableRules:
    """The TableRules a message names; errors name the field under ``table``."""
    options: dict[str, Any] = {"game": choice(TABLE_GAMES, msg.game, "table.game")}
    if msg.HasField("rules"):
        options["rules"] = rules_from_proto(msg.rules)
    for name in (*_CHIP_OPTIONS, "blind_turns"):
        if msg.HasField(name):
            options[name] = _bounded(getattr(msg, name), f"table.{name}", _MOST.get(name, MAX_TABLE_CHIPS))
    limit = msg.WhichOneof("raise_limit")
    if limit == "raise_limit_chips":
        options["raise_limit"] = _bounded(msg.raise_limit_chips, "table.raise_limit_chips")
    elif limit == "raise_limit_double":
        if not msg.raise_limit_double:
            raise InvalidHandError("raise_limit_double may only be set true (leave it unset for the game's limit)",
                                   field="table.raise_limit_double")
        options["raise_limit"] = "double"
    options["pot_limit"] = msg.pot_limit
    options["retain_blind"] = "face_up" if msg.retain_blind_face_up else msg.retain_blind
    options["shuffle"] = choice(TABLE_SHUFFLES, msg.shuffle, "table.shuffle")
    options.update({name: getattr(msg, name) for name in _FLAGS if msg.HasField(name)})
    for name in DRAW_OPTIONS:
        if msg.HasField(name):
            options[name] = _bounded(getattr(msg, name), f"table.{name}") if name in _DRAW_CHIPS \
                else getattr(msg, name)
    try:
        return TableRules(**options)
    except (InvalidHandError, ConfigurationError) as exc:
        exc.field = f"table.{exc.field}" if exc.field else "table"
        raise


def _action_from_proto(msg: pb.TableAction) -> tuple[str, str | None, int | None, list[int]]:
    """An action's kind, player, amount and discards, as Deal.act takes them."""
    amount = msg.amount if msg.HasField("amount") else None  # the rules judge an amount, whatever its size
    return msg.kind, msg.player if msg.HasField("player") else None, amount, list(msg.discards)


def _carried_from_proto(msg: pb.TableCarried) -> dict[str, Any]:
    """The carried part of a deal's data (as Deal.to_dict writes it)."""
    data: dict[str, Any] = {"pot": _bounded(msg.pot, "carried.pot"), "sitting_out": list(msg.sitting_out)}
    if msg.HasField("retained"):
        data["retained"] = {"player": msg.retained, "cards": _hand_from_proto(msg.retained_cards)}
    if msg.HasField("pack"):
        data["pack"] = list(msg.pack)
    if msg.HasField("pack_seed"):
        data["pack_seed"] = msg.pack_seed
    return data


def _carried_to_proto(data: Mapping[str, Any]) -> pb.TableCarried:
    retained = data.get("retained")
    msg = pb.TableCarried(pot=data.get("pot", 0), sitting_out=data.get("sitting_out", ()),
                          pack=None if data.get("pack") is None else bytes(data["pack"]),
                          pack_seed=data.get("pack_seed"))
    if retained is not None:
        msg.retained = retained["player"]
        if retained.get("cards") is not None:
            msg.retained_cards.CopyFrom(_cards(retained["cards"]))
    return msg


def _hand_from_proto(msg: pb.Cards) -> CardsLike | None:
    return None if msg.WhichOneof("form") is None else (msg.text or list(msg.indices))


def _in_field(exc: InvalidHandError, prefix: str) -> InvalidHandError:
    exc.field = f"{prefix}.{exc.field}" if exc.field and exc.field != prefix else prefix
    return exc


def start_deal(request: pb.PlayTableRequest) -> Deal:
    """The deal a request sets up, before its actions."""
    if request.HasField("seed") == bool(request.cards):
        raise InvalidHandError("give each player's cards or a seed (exactly one of them): the server keeps no "
                               "deal between calls, so a deal is dealt the same way on every call", field="seed")
    if request.HasField("pack_version") and request.pack_version != PACK_VERSION:
        raise InvalidHandError(f"pack version {request.pack_version} is not supported (this prial deals version "
                               f"{PACK_VERSION})", field="pack_version")
    cards = None
    if request.cards:
        cards = [_hand_from_proto(c) for c in request.cards]
    stacks = [_bounded(s, "stacks") for s in request.stacks] if request.stacks else None
    table = table_rules_from_proto(request.table)
    carried = None
    if request.HasField("carried"):
        carried = _carried_from_proto(request.carried)
    try:
        return Deal.start(table, list(request.players), cards=cards,
                          seed=request.seed if request.HasField("seed") else None, dealer=request.dealer, stacks=stacks,
                          carried=carried, stub=list(request.stub) if request.HasField("stub") else None)
    except InvalidHandError as exc:
        if exc.field in (*CARRIED_KEYS, "carried"):
            raise _in_field(exc, "carried") from None
        if exc.field is None:  # a hand's cards that do not parse
            exc.field = "cards"
        raise


def next_of(deal: Deal, request: pb.PlayTableRequest) -> Deal:
    """The next deal, as the request's ``next`` asks (Deal.next)."""
    msg = request.next
    if request.HasField("view"):
        raise InvalidHandError("next answers the next deal whole, for the backend: ask for views on its own calls",
                               field="next")
    try:
        return deal.next(retain=msg.retain, cards=[_hand_from_proto(c) for c in msg.cards] if msg.cards else None,
                         seed=msg.seed if msg.HasField("seed") else None,
                         join={j.player: _bounded(j.stack, "next.join") if j.HasField("stack") else None
                               for j in msg.join},
                         leave=list(msg.leave), sit_out=list(msg.sit_out),
                         stacks={name: _bounded(chips, "next.stacks") for name, chips in msg.stacks.items()})
    except InvalidHandError as exc:
        raise _in_field(exc, "next") from None


def setup_to_proto(deal: Deal, table: pb.TableRules) -> pb.PlayTableRequest:
    """The request that sets ``deal`` up again, without its actions."""
    data = deal.to_dict()
    msg = pb.PlayTableRequest(table=table, players=data["players"], dealer=data["dealer"],
                              stacks=data["stacks"] or (), carried=_carried_to_proto(data))
    if "cards" in data:
        msg.cards.extend(pb.Cards() if hand is None else _cards(hand) for hand in data["cards"])
        if "stub" in data:
            msg.stub = bytes(data["stub"])
    else:
        msg.seed, msg.pack_version = data["seed"], data["pack_version"]
    return msg


def submitted(request: pb.PlayTableRequest) -> list[tuple[str, tuple[str, str | None, int | None, list[int]]]]:
    """Every action to apply, in order, with the field each came from."""
    actions = [(f"actions[{i}]", _action_from_proto(a)) for i, a in enumerate(request.actions)]
    if request.HasField("action"):
        actions.append(("action", _action_from_proto(request.action)))
    return actions


def response_of(deal: Deal, view: str | None) -> pb.PlayTableResponse:
    """The answer: the whole deal (``view`` None) or what ``view`` may see
    ("" a spectator)."""
    if view is None:
        legal, history, hands, events = deal.legal_actions(), deal.history, deal.hands, deal.events
    else:
        try:
            seen = deal.view(view or None)
        except InvalidHandError as exc:
            exc.field = "view"
            raise
        legal, history, hands, events = seen.legal_actions, seen.history, seen.cards, ()
    result = deal.result
    return pb.PlayTableResponse(
        actions=deal.actions, to_act=deal.to_act, over=deal.over, stake=deal.stake,
        pots=[pb.TablePot(amount=p.amount, coverer=p.coverer) for p in deal.pots],
        seats=[pb.TableSeat(player=s.player, status=s.status, stack=s.stack, put_in=s.put_in,
                            blind_stakes=s.blind_stakes) for s in deal.seats],
        legal_actions=[_action_to_proto(a) for a in legal],
        events=[pb.TableEvent(kind=e.kind, player=e.player, amount=e.amount, pot=e.pot,
                              cards=None if e.cards is None else bytes(e.cards), to=e.to or ()) for e in events],
        result=None if result is None else _result_to_proto(result),
        history=[_action_to_proto(a) for a in history],
        hands=[pb.TableHand(player=name, cards=bytes(hands[name])) for name in deal.players if name in hands],
        view=view)


def _action_to_proto(action: Action) -> pb.TableAction:
    return pb.TableAction(kind=action.kind, player=action.player, amount=action.amount,
                          discards=bytes(action.discards), least=action.least, most=action.most)


def _result_to_proto(result: DealResult) -> pb.TableResult:
    return pb.TableResult(
        known=result.known, winners=result.winners or (), payouts=result.payouts or {}, nets=result.nets or {},
        reason=result.reason, ending=result.ending,
        pots=[pb.TablePotResult(amount=p.amount, winners=p.winners, coverer=p.coverer) for p in result.pots])


# -- the client's side -------------------------------------------------------


def table_rules_to_proto(table: TableRules) -> pb.TableRules:
    """The message for a table, every option explicit (its resolved values)."""
    msg = pb.TableRules(game=number(TABLE_GAMES, table.game, "game"), rules=rules_to_proto(table.rules),
                        ante=table.ante, min_stake=table.min_stake, max_stake=table.max_stake,
                        pot_limit=table.pot_limit, pot_cap=table.pot_cap, blind_turns=table.blind_turns,
                        see_cost=table.see_cost, sideshow=table.sideshow, agreed_showdown=table.agreed_showdown,
                        cover=table.cover, retain_blind=bool(table.retain_blind),
                        retain_blind_face_up=table.retain_blind == "face_up",
                        shuffle=number(TABLE_SHUFFLES, table.shuffle, "shuffle"),
                        **({name: getattr(table, name) for name in DRAW_OPTIONS} if table.game == DRAW_GAME else {}))
    if table.raise_limit == "double":
        msg.raise_limit_double = True
    elif table.raise_limit is not None:
        msg.raise_limit_chips = table.raise_limit
    return msg


ActionLike = Action | str | Mapping[str, object]


def action_to_proto(action: ActionLike, field: str) -> pb.TableAction:
    """An Action, a kind alone, or a mapping as Deal.to_dict writes actions;
    discards as card indices or text."""
    if isinstance(action, str):
        return pb.TableAction(kind=action)
    if isinstance(action, Mapping):
        kind, player, amount, discards = (action.get(key) for key in ("kind", "player", "amount", "discards"))
    elif isinstance(action, tuple) and action:
        kind, player, amount, discards = (*action, None, None, None)[:4]
    else:
        kind = None
    if not isinstance(kind, str):
        raise InvalidHandError(f"{field} must be a prial.Action, a kind or a mapping with a kind; got {action!r}",
                               field=field)
    try:
        if isinstance(discards, str) or (isinstance(discards, (list, tuple)) and discards
                                         and isinstance(discards[0], str)):
            discards = cards_of(discards if isinstance(discards, str) else " ".join(discards), field)
        return pb.TableAction(kind=kind, player=player, amount=amount,
                              discards=bytes(list(discards or ())))  # type: ignore[call-overload]
    except InvalidHandError:
        raise
    except (TypeError, ValueError):
        raise InvalidHandError(f"{field}: an amount is a whole number of chips and discards are card indices; "
                               f"got {action!r}", field=field) from None


def play_table_request(table: TableRules, players: Sequence[str], actions: Sequence[ActionLike],
                       action: ActionLike | None, cards: Sequence[CardsLike | None] | None, seed: int | None,
                       dealer: int, stacks: Sequence[int] | None, view: str | None,
                       carried: Mapping[str, Any] | None = None,
                       next_deal: Mapping[str, Any] | None = None,
                       stub: CardsLike | None = None) -> pb.PlayTableRequest:
    if not isinstance(table, TableRules):
        raise InvalidHandError(f"table must be a prial.TableRules; got {table!r}", field="table")
    if isinstance(players, str):
        raise InvalidHandError("players must be a sequence of player ids, not one string", field="players")
    try:
        request = pb.PlayTableRequest(
            table=table_rules_to_proto(table), players=players, seed=seed, pack_version=None if seed is None
            else PACK_VERSION, dealer=dealer, stacks=stacks or (), view=view,
            cards=[pb.Cards() if hand is None else _cards(hand) for hand in cards or ()])
    except (TypeError, ValueError) as exc:
        raise InvalidHandError(f"cannot make a PlayTable request of these values: {exc}") from None
    if stub is not None:
        try:
            request.stub = bytes(cards_of(stub, "stub"))
        except InvalidHandError as exc:
            exc.field = "stub"
            raise
    request.actions.extend(action_to_proto(a, f"actions[{i}]") for i, a in enumerate(actions))
    if action is not None:
        request.action.CopyFrom(action_to_proto(action, "action"))
    try:
        if carried:
            request.carried.CopyFrom(_carried_to_proto(carried))
        if next_deal is not None:
            request.next.CopyFrom(_next_to_proto(next_deal))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise InvalidHandError(f"cannot make a PlayTable request of carried={carried!r}, next_deal={next_deal!r}: "
                               f"{exc}", field="next_deal" if next_deal is not None else "carried") from None
    return request


def _next_to_proto(options: Mapping[str, Any]) -> pb.TableNext:
    """Deal.next's keywords as a message."""
    unknown = sorted(set(options) - {"retain", "join", "leave", "sit_out", "stacks", "seed", "cards"})
    if unknown:
        raise ValueError(f"unknown {', '.join(unknown)}")
    join = options.get("join", ())
    joining = join.items() if isinstance(join, Mapping) else ((name, None) for name in join)
    return pb.TableNext(retain=bool(options.get("retain", False)),
                        join=[pb.TableJoin(player=name, stack=stack) for name, stack in joining],
                        leave=options.get("leave", ()), sit_out=options.get("sit_out", ()),
                        stacks=options.get("stacks") or {}, seed=options.get("seed"),
                        cards=[pb.Cards() if hand is None else _cards(hand) for hand in options.get("cards") or ()])


def _cards(hand: CardsLike) -> pb.Cards:
    return pb.Cards(text=hand) if isinstance(hand, str) else pb.Cards(indices=bytes(hand))


def table_state_from(msg: pb.PlayTableResponse) -> TableState:
    """The TableState a PlayTableResponse carries."""
    return TableState(
        actions=msg.actions, to_act=msg.to_act if msg.HasField("to_act") else None, over=msg.over, stake=msg.stake,
        pots=tuple(Pot(p.amount, p.coverer if p.HasField("coverer") else None) for p in msg.pots),
        seats=tuple(Seat(s.player, s.status, s.stack if s.HasField("stack") else None, s.put_in, s.blind_stakes)
                    for s in msg.seats),
        legal_actions=tuple(_action_from(a) for a in msg.legal_actions),
        events=tuple(Event(e.kind, e.player if e.HasField("player") else None, e.amount, e.pot,
                           tuple(e.cards) if e.HasField("cards") else None, tuple(e.to) or None)
                     for e in msg.events),
        result=_result_from(msg.result) if msg.HasField("result") else None,
        history=tuple(_action_from(a) for a in msg.history),
        hands={h.player: tuple(h.cards) for h in msg.hands},
        view=msg.view if msg.HasField("view") else None,
        next_deal=_setup_from(msg.next_deal) if msg.HasField("next_deal") else None)


def _setup_from(msg: pb.PlayTableRequest) -> DealSetup:
    got = msg.carried
    carried: CarriedData = {}
    if got.pot:
        carried["pot"] = got.pot
    if got.HasField("retained"):
        cards = got.retained_cards
        carried["retained"] = {"player": got.retained,
                               "cards": None if cards.WhichOneof("form") is None else list(cards.indices)}
    if got.sitting_out:
        carried["sitting_out"] = list(got.sitting_out)
    if got.HasField("pack"):
        carried["pack"] = list(got.pack)
    if got.HasField("pack_seed"):
        carried["pack_seed"] = got.pack_seed
    return DealSetup(tuple(msg.players),
                     tuple(None if c.WhichOneof("form") is None else tuple(c.indices) for c in msg.cards) or None,
                     msg.seed if msg.HasField("seed") else None, msg.dealer, tuple(msg.stacks) or None, carried)


def _action_from(msg: pb.TableAction) -> Action:
    return Action(msg.kind, msg.player if msg.HasField("player") else None,
                  msg.amount if msg.HasField("amount") else None, tuple(msg.discards),
                  msg.least if msg.HasField("least") else None, msg.most if msg.HasField("most") else None)


def _result_from(msg: pb.TableResult) -> DealResult:
    pots = tuple(PotResult(p.amount, tuple(p.winners), p.coverer if p.HasField("coverer") else None) for p in msg.pots)
    if not msg.known:
        return DealResult(False, None, None, None, msg.reason, msg.ending, pots)
    return DealResult(True, tuple(msg.winners), dict(msg.payouts), dict(msg.nets), msg.reason, msg.ending, pots)
