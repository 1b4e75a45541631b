"""Conversions between prial's Python values and the prial.v1 messages.

Shared by the server and the client so the two cannot disagree.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from google.protobuf.message import Message

from .. import evaluator
from .. import rules as rules_module
from ..categories import Category
from ..errors import ConfigurationError, InvalidHandError
from ..play import casino
from ..play.casino import CASINO_BRAG_PAYTABLE, Paytable
from ..play.classic import ClassicDraw, ClassicHand, ClassicPhase
from ..play.crash_match import CrashMatchRound
from ..play.crash_rules import CRASH_OPTIONS, checked_option
from ..play.results import (
    BetResult,
    CategoryOdds,
    CoverResult,
    CrashPlayerResult,
    CrashPosition,
    PartitionGamePlayerResult,
    PartitionGameSet,
    PlayerHand,
)
from ..rules import Rules
from ..v1 import prial_pb2 as pb


def _from_enum(prefix: str, choices: Sequence[str], unspecified: str | None) -> dict[int, str | None]:
    """Proto enum number -> option.  Each choice has the value PREFIX_CHOICE
    (``ACE_TWO_THREE_TOP``); PREFIX_UNSPECIFIED means ``unspecified``."""
    table: dict[int, str | None] = {getattr(pb, f"{prefix}_UNSPECIFIED"): unspecified}
    table.update({getattr(pb, f"{prefix}_{choice.upper()}"): choice for choice in choices})
    return table


# The vocabularies are prial's own (rules, evaluator, casino); None: the preset's choice.
PRESETS = _from_enum("PRESET", tuple(rules_module.PRESETS), Rules.preset)
ACE_TWO_THREE = _from_enum("ACE_TWO_THREE", rules_module.ACE_TWO_THREE, None)
TOP_PRIAL = _from_enum("TOP_PRIAL", rules_module.TOP_PRIAL, None)
WILD_TIES = _from_enum("WILD_TIES", rules_module.WILD_TIES, rules_module.WILD_TIES[0])
WILD_AS_ITSELF = _from_enum("WILD_AS_ITSELF", rules_module.WILD_AS_ITSELF, rules_module.WILD_AS_ITSELF[0])
GAMES = _from_enum("GAME", casino.GAMES, None)  # None: the pay table's own game
TABLE_GAMES = _from_enum("GAME", casino.GAMES, casino.GAMES[0])
PAIR_BONUS_ON_FOLD = _from_enum("PAIR_BONUS_ON_FOLD", casino.PAIR_BONUS_ON_FOLD, casino.PAIR_BONUS_ON_FOLD[0])
OBJECTIVES = _from_enum("OBJECTIVE", evaluator.OBJECTIVES, evaluator.OBJECTIVES[0])


def number(table: dict[int, str | None], option: str, field: str) -> int:
    """The enum number of an option (never PREFIX_UNSPECIFIED)."""
    for value, name in table.items():
        if value and name == option:
            return value
    raise InvalidHandError(f"{field} must be one of {', '.join(sorted({n for n in table.values() if n}))}; "
                           f"got {option!r}", field=field)


def choice(table: dict[int, str | None], value: int, field: str) -> str | None:
    # proto3 enums are open: an unknown number arrives as a plain int.
    if value not in table:
        raise InvalidHandError(f"{field}: unknown enum value {value}", field=field)
    return table[value]


def cards_from_proto(msg: pb.Cards) -> list[int] | str:
    """Text or indices as given (the Python API parses and checks them);
    unset, or either form empty: no cards."""
    return msg.text or list(msg.indices)


def cards_to_proto(cards: Any, field: str) -> pb.Cards:
    if isinstance(cards, str):
        return pb.Cards(text=cards)
    try:
        return pb.Cards(indices=bytes(cards))
    except (TypeError, ValueError):
        raise InvalidHandError(f"{field}: cards must be text or card indices 0..54, got {cards!r}",
                               field=field) from None


def crash_options_from_proto(msg: pb.CrashShowdownRequest) -> dict[str, str]:
    """crash_showdown's scoring options (CRASH_OPTIONS) of a request, an
    empty field standing for the option's default."""
    return {name: getattr(msg, name) or choices[0] for name, choices in CRASH_OPTIONS.items()}


def crash_options_to_proto(options: Mapping[str, str]) -> dict[str, str]:
    """The request fields of crash_showdown's scoring options (name ->
    value), each checked, so that a bad value is refused before anything is
    sent."""
    return {name: checked_option(name, value) for name, value in options.items()}


def category_from_proto(msg: Message, field: str) -> Category | None:
    """An optional Category field: None when unset."""
    if not msg.HasField(field):
        return None
    return _category(getattr(msg, field), field)


def _category(value: int, field: str) -> Category:
    if value not in Category._value2member_map_:
        raise InvalidHandError(f"{field}: unknown category {value}", field=field)
    return Category(value)


def paytable_from_proto(msg: pb.SettleCasinoRequest) -> Paytable | str:
    form = msg.WhichOneof("table")
    if form == "paytable_name":
        return msg.paytable_name
    if form == "paytable":
        table = msg.paytable
        def pays(entries: Any, field: str) -> dict[Category, int]:
            lines: dict[Category, int] = {}
            for row, entry in enumerate(entries):
                category = _category(entry.category, f"paytable.{field}")
                if category in lines:  # a dict would keep the last silently
                    raise InvalidHandError(f"paytable.{field}[{row}]: {category.name} is listed twice (pays "
                                           f"{lines[category]} and {entry.pays}); a category has one pay",
                                           field=f"paytable.{field}", row=row)
                lines[category] = entry.pays
            return lines

        return Paytable.make(
            table.name, pays(table.ante_bonus, "ante_bonus"), pays(table.pair_bonus, "pair_bonus"),
            table.play_multiple or 1, game=str(choice(TABLE_GAMES, table.game, "paytable.game")),
            ante_mini_royal=table.ante_mini_royal if table.HasField("ante_mini_royal") else None,
            pair_mini_royal=table.pair_mini_royal if table.HasField("pair_mini_royal") else None,
            pair_bonus_on_fold=str(choice(PAIR_BONUS_ON_FOLD, table.pair_bonus_on_fold, "paytable.pair_bonus_on_fold")))
    return CASINO_BRAG_PAYTABLE


def paytable_to_proto(table: Paytable) -> pb.Paytable:
    pays = lambda entries: [pb.CategoryPays(category=int(c), pays=p) for c, p in entries]  # noqa: E731
    return pb.Paytable(name=table.name, ante_bonus=pays(table.ante_bonus), pair_bonus=pays(table.pair_bonus),
                       play_multiple=table.play_multiple, game=number(TABLE_GAMES, table.game, "paytable.game"),
                       ante_mini_royal=table.ante_mini_royal, pair_mini_royal=table.pair_mini_royal,
                       pair_bonus_on_fold=number(PAIR_BONUS_ON_FOLD, table.pair_bonus_on_fold,
                                                  "paytable.pair_bonus_on_fold"))


def rules_from_proto(msg: pb.Rules) -> Rules:
    """The Rules a message names; errors name the field under ``rules``."""
    return _rules_from_bytes(msg.SerializeToString(deterministic=True))


@functools.lru_cache(maxsize=256)  # bounded: callers choose the rules
def _rules_from_bytes(data: bytes) -> Rules:
    msg = pb.Rules.FromString(data)
    try:
        return Rules(
            preset=choice(PRESETS, msg.preset, "rules.preset"),  # type: ignore[arg-type]
            ace_two_three=choice(ACE_TWO_THREE, msg.ace_two_three, "rules.ace_two_three"),  # type: ignore[arg-type]
            top_prial=choice(TOP_PRIAL, msg.top_prial, "rules.top_prial"),  # type: ignore[arg-type]
            lowball=msg.lowball,
            wild=msg.wild or None,
            jokers=msg.jokers if msg.HasField("jokers") else None,
            wild_ties=choice(WILD_TIES, msg.wild_ties, "rules.wild_ties"),  # type: ignore[arg-type]
            wild_as_itself=choice(WILD_AS_ITSELF, msg.wild_as_itself, "rules.wild_as_itself"),  # type: ignore[arg-type]
            suit_order=msg.suit_order or None,
        )
    except (InvalidHandError, ConfigurationError) as exc:
        if exc.field is None:
            exc.field = "rules"
        raise


def _reverse(table: dict[int, str | None]) -> dict[str | None, int]:
    # The last (explicit) enum value wins over UNSPECIFIED for the same option.
    return {option: number for number, option in table.items()}


_PRESET_NUMBERS = _reverse(PRESETS)
_ACE_TWO_THREE_NUMBERS = _reverse(ACE_TWO_THREE)
_TOP_PRIAL_NUMBERS = _reverse(TOP_PRIAL)
_WILD_TIES_NUMBERS = _reverse(WILD_TIES)
_WILD_AS_ITSELF_NUMBERS = _reverse(WILD_AS_ITSELF)


def rules_to_proto(rules: Rules | None) -> pb.Rules:
    """The message for a ruleset, every option explicit (None: standard Brag)."""
    if rules is None:
        return pb.Rules()
    return pb.Rules(
        preset=_PRESET_NUMBERS[rules.preset],
        ace_two_three=_ACE_TWO_THREE_NUMBERS[rules.ace_two_three],
        top_prial=_TOP_PRIAL_NUMBERS[rules.top_prial],
        lowball=rules.lowball,
        wild=rules.wild or "",
        jokers=int(rules.jokers or 0),
        wild_ties=_WILD_TIES_NUMBERS[rules.wild_ties],
        wild_as_itself=_WILD_AS_ITSELF_NUMBERS[rules.wild_as_itself],
        suit_order=rules.suit_order or "",
    )


# ---------------------------------------------------------------------------
# Results <-> messages.  The result messages mirror the Python result types
# field for field (same names), so one pair of functions maps them all:
# card tuples/lists <-> bytes, Category <-> the Category enum, None <->
# an unset optional field, mappings <-> map fields, nested results <->
# nested messages.


def result_to_proto(value: Any, message_type: type[Message]) -> Message:
    """The message of type ``message_type`` carrying ``value``'s fields."""
    values = {}
    for name, convert in _writers(message_type):
        item = getattr(value, name)
        if item is not None:
            values[name] = convert(item)
    return message_type(**values)


def result_from_proto(message: Message, result_type: type) -> Any:
    """The ``result_type`` (a NamedTuple or dataclass named after the
    message) rebuilt from ``message``."""
    return _reader(type(message), result_type)(message)


# Category(value) without the Enum call machinery (a hot path for clients).
_category_member = Category._value2member_map_.__getitem__


def _same(value: Any) -> Any:
    return value


# Reading descriptors is slow: each type gets its per-field converters once.

@functools.cache
def _writers(message_type: type[Message]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    writers = []
    for field in message_type.DESCRIPTOR.fields:
        repeated = bool(field.is_repeated)
        convert: Callable[[Any], Any] = _same
        if field.message_type is not None and not field.message_type.GetOptions().map_entry:
            nested = getattr(pb, field.message_type.name)
            if repeated:
                convert = functools.partial(_each, functools.partial(_to_proto_as, nested))
            else:
                convert = functools.partial(_to_proto_as, nested)
        elif field.type == field.TYPE_BYTES:
            convert = functools.partial(_each, bytes) if repeated else bytes
        writers.append((field.name, convert))
    return tuple(writers)


def _to_proto_as(message_type: type[Message], value: Any) -> Message:
    return result_to_proto(value, message_type)


def _each(convert: Callable[[Any], Any], items: Any) -> list[Any]:
    return [convert(v) for v in items]


@functools.cache
def _reader(message_type: type[Message], result_type: type) -> Callable[[Message], Any]:
    """One function per (message, result) pair, compiled from the message's
    descriptor: reading a message is then one call that builds the result
    from plain attribute reads.  (A chain of per-field closures cost a
    client about 15 us per showdown result, more than the call's transport.)
    The source is made from the .proto's own field names only."""
    sequence = "list" if issubclass(result_type, tuple) else "tuple"  # NamedTuples hold lists
    scope: dict[str, Any] = {"result_type": result_type, "category": _category_member}
    arguments = []
    for index, field in enumerate(message_type.DESCRIPTOR.fields):
        name = field.name
        value = f"m.{name}"
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            # An empty map stands for None where the result's default is None.
            expression = f"(dict({value}) or None)" if _defaults_to_none(result_type, name) else f"dict({value})"
        else:
            if field.message_type is not None:
                scope[f"read_{index}"] = _reader(getattr(pb, field.message_type.name),
                                                 _RESULT_TYPES[field.message_type.full_name])
                convert = f"read_{index}({{}})"
            elif field.type == field.TYPE_BYTES:
                convert = f"{sequence}({{}})"
            elif field.enum_type is not None and field.enum_type.full_name == "prial.v1.Category":
                convert = "category({})"
            else:
                convert = "{}"
            if field.is_repeated:
                expression = (f"{sequence}({value})" if convert == "{}"
                              else f"{sequence}([{convert.format('x')} for x in {value}])")
            else:
                expression = convert.format(value)
            if field.has_presence:
                expression = f"({expression} if m.HasField({name!r}) else None)"
        arguments.append(f"{name}={expression}")
    source = f"def read(m):\n    return result_type({', '.join(arguments)})\n"
    exec(compile(source, f"<prial reader of {message_type.DESCRIPTOR.full_name}>", "exec"), scope)
    return scope["read"]


def _defaults_to_none(result_type: type, name: str) -> bool:
    return any(f.name == name and f.default is None for f in dataclasses.fields(result_type))


# Message -> Python result type, for nested results.
_RESULT_TYPES: dict[str, type] = {
    "prial.v1.PlayerHand": PlayerHand,
    "prial.v1.CoverResult": CoverResult,
    "prial.v1.CrashPosition": CrashPosition,
    "prial.v1.CrashPlayerResult": CrashPlayerResult,
    "prial.v1.CrashMatchRound": CrashMatchRound,
    "prial.v1.PartitionGameSet": PartitionGameSet,
    "prial.v1.PartitionGamePlayerResult": PartitionGamePlayerResult,
    "prial.v1.BetResult": BetResult,
    "prial.v1.ClassicHand": ClassicHand,
    "prial.v1.ClassicDraw": ClassicDraw,
    "prial.v1.ClassicPhase": ClassicPhase,
    "prial.v1.CategoryOdds": CategoryOdds,
}
