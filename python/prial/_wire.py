"""Conversions between prial's Python values and the prial.v1 messages.

Shared by the server and the client so the two cannot disagree.
"""

from __future__ import annotations

from ._errors import InvalidHandError
from ._rules import Rules
from .v1 import prial_pb2 as pb

# Proto enum value -> Rules option (None: the preset's choice), and back.
PRESETS = {pb.PRESET_UNSPECIFIED: "brag", pb.PRESET_BRAG: "brag",
           pb.PRESET_TEEN_PATTI: "teen_patti", pb.PRESET_THREE_CARD_POKER: "three_card_poker"}
ACE_TWO_THREE = {pb.ACE_TWO_THREE_UNSPECIFIED: None, pb.ACE_TWO_THREE_TOP: "top",
                 pb.ACE_TWO_THREE_SECOND: "second", pb.ACE_TWO_THREE_BOTTOM: "bottom"}
TOP_PRIAL = {pb.TOP_PRIAL_UNSPECIFIED: None, pb.TOP_PRIAL_THREE: "three", pb.TOP_PRIAL_ACE: "ace"}
WILD_TIES = {pb.WILD_TIES_UNSPECIFIED: "natural_wins", pb.WILD_TIES_NATURAL_WINS: "natural_wins",
             pb.WILD_TIES_EQUAL: "equal"}


def _option(table: dict[int, str | None], value: int, field: str) -> str | None:
    # proto3 enums are open: an unknown number arrives as a plain int.
    if value not in table:
        raise InvalidHandError(f"{field}: unknown enum value {value}", field=field)
    return table[value]


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
