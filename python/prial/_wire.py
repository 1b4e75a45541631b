"""Conversions between prial's Python values and the prial.v1 messages.

Shared by the server and the client so the two cannot disagree.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from google.protobuf.message import Message

from ._errors import InvalidHandError
from ._casino import SPEC_PAYTABLE, Paytable
from ._results import BetResult, CategoryOdds, CoverResult, CrashPlayerResult, CrashPosition, PlayerHand
from ._rules import Rules
from ._types import Category
from .v1 import prial_pb2 as pb

# Proto enum value -> Rules option (None: the preset's choice), and back.
PRESETS = {pb.PRESET_UNSPECIFIED: "brag", pb.PRESET_BRAG: "brag",
           pb.PRESET_TEEN_PATTI: "teen_patti", pb.PRESET_THREE_CARD_POKER: "three_card_poker"}
ACE_TWO_THREE = {pb.ACE_TWO_THREE_UNSPECIFIED: None, pb.ACE_TWO_THREE_TOP: "top",
                 pb.ACE_TWO_THREE_SECOND: "second", pb.ACE_TWO_THREE_BOTTOM: "bottom"}
TOP_PRIAL = {pb.TOP_PRIAL_UNSPECIFIED: None, pb.TOP_PRIAL_THREE: "three", pb.TOP_PRIAL_ACE: "ace"}
WILD_TIES = {pb.WILD_TIES_UNSPECIFIED: "natural_wins", pb.WILD_TIES_NATURAL_WINS: "natural_wins",
             pb.WILD_TIES_EQUAL: "equal"}


GAMES = {pb.GAME_UNSPECIFIED: "brag", pb.GAME_BRAG: "brag", pb.GAME_THREE_CARD_POKER: "three_card_poker"}
OBJECTIVES = {pb.OBJECTIVE_UNSPECIFIED: "lexicographic", pb.OBJECTIVE_LEXICOGRAPHIC: "lexicographic",
              pb.OBJECTIVE_EXPECTED_POINTS: "expected_points"}


def _option(table: dict[int, str | None], value: int, field: str) -> str | None:
    # proto3 enums are open: an unknown number arrives as a plain int.
    if value not in table:
        raise InvalidHandError(f"{field}: unknown enum value {value}", field=field)
    return table[value]


choice = _option


def cards_from_proto(msg: pb.Cards) -> list[int] | str:
    """Text or indices as given (the Python API parses and checks them)."""
    form = msg.WhichOneof("form")
    if form == "text":
        return msg.text
    return list(msg.indices)  # unset: no cards


def cards_to_proto(cards: Any, field: str) -> pb.Cards:
    if isinstance(cards, str):
        return pb.Cards(text=cards)
    try:
        return pb.Cards(indices=bytes(cards))
    except (TypeError, ValueError):
        raise InvalidHandError(f"{field}: cards must be text or card indices 0..54, got {cards!r}",
                               field=field) from None


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
            return {_category(e.category, f"paytable.{field}"): e.pays for e in entries}

        return Paytable.make(table.name, pays(table.ante_bonus, "ante_bonus"), pays(table.pair_bonus, "pair_bonus"),
                             table.play_multiple or 1)
    return SPEC_PAYTABLE


def paytable_to_proto(table: Paytable) -> pb.Paytable:
    pays = lambda entries: [pb.CategoryPays(category=int(c), pays=p) for c, p in entries]  # noqa: E731
    return pb.Paytable(name=table.name, ante_bonus=pays(table.ante_bonus), pair_bonus=pays(table.pair_bonus),
                       play_multiple=table.play_multiple)


def rules_from_proto(msg: pb.Rules) -> Rules:
    """The Rules a message names; errors name the field under ``rules``."""
    try:
        return Rules(
            preset=_option(PRESETS, msg.preset, "rules.preset"),  # type: ignore[arg-type]
            ace_two_three=_option(ACE_TWO_THREE, msg.ace_two_three, "rules.ace_two_three"),  # type: ignore[arg-type]
            top_prial=_option(TOP_PRIAL, msg.top_prial, "rules.top_prial"),  # type: ignore[arg-type]
            lowball=msg.lowball,
            wild=msg.wild or None,
            jokers=msg.jokers if msg.HasField("jokers") else None,
            wild_ties=_option(WILD_TIES, msg.wild_ties, "rules.wild_ties"),  # type: ignore[arg-type]
        )
    except InvalidHandError as exc:
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
    )


# ---------------------------------------------------------------------------
# Results <-> messages.  The result messages mirror the Python result types
# field for field (same names), so one pair of functions maps them all:
# card tuples/lists <-> bytes, Category <-> the Category enum, None <->
# an unset optional field, mappings <-> map fields, nested results <->
# nested messages.


def result_to_proto(value: Any, message_type: type[Message]) -> Message:
    """The message of type ``message_type`` carrying ``value``'s fields."""
    message = message_type()
    for field in message_type.DESCRIPTOR.fields:
        item = getattr(value, field.name)
        if item is None:
            continue
        target = getattr(message, field.name)
        if _is_map(field):
            target.update(item)
        elif field.message_type is not None:
            nested = _message_class(field)
            if _is_repeated(field):
                target.extend(result_to_proto(v, nested) for v in item)
            else:
                target.CopyFrom(result_to_proto(item, nested))
        elif _is_repeated(field):
            target.extend(bytes(v) if field.type == field.TYPE_BYTES else v for v in item)
        else:
            setattr(message, field.name, bytes(item) if field.type == field.TYPE_BYTES else item)
    return message


def result_from_proto(message: Message, result_type: type) -> Any:
    """The ``result_type`` (a NamedTuple or dataclass named after the
    message) rebuilt from ``message``."""
    sequence = list if issubclass(result_type, tuple) else tuple  # NamedTuples hold lists
    values = {}
    for field in message.DESCRIPTOR.fields:
        item = getattr(message, field.name)
        if _is_map(field):
            values[field.name] = dict(item) if item or not _defaults_to_none(result_type, field.name) else None
        elif field.message_type is not None:
            nested = _RESULT_TYPES[field.message_type.full_name]
            if _is_repeated(field):
                values[field.name] = sequence(result_from_proto(v, nested) for v in item)
            else:
                values[field.name] = result_from_proto(item, nested) if message.HasField(field.name) else None
        elif field.has_presence and not message.HasField(field.name):
            values[field.name] = None
        else:
            values[field.name] = _scalar_from_proto(field, item, sequence)
    return result_type(**values)


def _scalar_from_proto(field: Any, item: Any, sequence: type) -> Any:
    convert = _convert_scalar(field, sequence)
    if _is_repeated(field):
        return sequence(convert(v) for v in item)
    return convert(item)


def _convert_scalar(field: Any, sequence: type) -> Any:
    if field.type == field.TYPE_BYTES:
        return sequence
    if field.enum_type is not None and field.enum_type.full_name == "prial.v1.Category":
        return Category
    return lambda v: v


def _is_repeated(field: Any) -> bool:
    return bool(field.is_repeated)


def _is_map(field: Any) -> bool:
    return (field.message_type is not None and _is_repeated(field)
            and field.message_type.GetOptions().map_entry)


def _message_class(field: Any) -> type[Message]:
    return getattr(pb, field.message_type.name)


def _defaults_to_none(result_type: type, name: str) -> bool:
    for f in dataclasses.fields(result_type):
        if f.name == name:
            return f.default is None
    return False


# Message -> Python result type, for nested results.
_RESULT_TYPES: dict[str, type] = {
    "prial.v1.PlayerHand": PlayerHand,
    "prial.v1.CoverResult": CoverResult,
    "prial.v1.CrashPosition": CrashPosition,
    "prial.v1.CrashPlayerResult": CrashPlayerResult,
    "prial.v1.BetResult": BetResult,
    "prial.v1.CategoryOdds": CategoryOdds,
}
