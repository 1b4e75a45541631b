"""CrashMatch's messages: the match's rules both ways, a round's players
from the wire, and the answer read back in the players' order (a map
field keeps none)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from ..errors import ConfigurationError
from ..evaluator import FOUR_ORDERS
from ..play.crash import CrashPlayer
from ..play.crash_match import CrashMatchResult, CrashMatchRules
from ..v1 import prial_pb2 as pb
from .convert import (
    cards_from_proto,
    category_from_proto,
    crash_options_from_proto,
    result_from_proto,
    rules_from_proto,
)

_DEFAULTS = CrashMatchRules()
V = TypeVar("V")


def match_rules_from_proto(msg: pb.CrashMatchRules) -> CrashMatchRules:
    """The rules a message gives, an unset field standing for the default;
    errors name the field under ``match``."""
    try:
        return CrashMatchRules(
            target=msg.target or _DEFAULTS.target,
            crash_wins=msg.crash_wins if msg.HasField("crash_wins") else _DEFAULTS.crash_wins,
            settlement=msg.settlement or _DEFAULTS.settlement,
            stake=msg.stake if msg.HasField("stake") else _DEFAULTS.stake,
            not_on_board_double=(msg.not_on_board_double if msg.HasField("not_on_board_double")
                                 else _DEFAULTS.not_on_board_double),
        )
    except ConfigurationError as exc:
        exc.field = f"match.{exc.field}"
        raise


def match_rules_to_proto(rules: CrashMatchRules | None) -> pb.CrashMatchRules:
    """Every field explicit (None: the defaults)."""
    if rules is None:
        return pb.CrashMatchRules()
    if not isinstance(rules, CrashMatchRules):
        raise ConfigurationError(f"match must be a prial.CrashMatchRules, got {type(rules).__name__}",
                                 field="match")
    return pb.CrashMatchRules(target=rules.target, crash_wins=rules.crash_wins, settlement=rules.settlement,
                              stake=rules.stake, not_on_board_double=rules.not_on_board_double)


def crash_players_from_proto(players: Iterable[pb.CrashPlayer]) -> list[CrashPlayer]:
    return [CrashPlayer(p.id, [cards_from_proto(h) for h in p.hands], cards_from_proto(p.discards),
                        p.declare_six_pairs) for p in players]


def crash_scoring_from_proto(msg: pb.CrashShowdownRequest) -> dict[str, Any]:
    """crash_showdown's keyword options of a request (all but its players)."""
    return {
        "scoring": list(msg.weights) or "points",
        "min_category": category_from_proto(msg, "min_category"),
        "rules": rules_from_proto(msg.rules),
        "crash_value": msg.crash_value,
        "four_order": msg.four_order or FOUR_ORDERS[0],
        **crash_options_from_proto(msg),
    }


def crash_match_result_from_proto(data: bytes, order: Sequence[str]) -> CrashMatchResult:
    """The CrashMatchResponse in ``data``, each mapping in ``order`` (the
    first round's players, as the local match has them)."""
    result: CrashMatchResult = result_from_proto(pb.CrashMatchResponse.FromString(data), CrashMatchResult)
    place = {pid: i for i, pid in enumerate(order)}

    def ordered(mapping: Mapping[str, V]) -> dict[str, V]:
        return dict(sorted(mapping.items(), key=lambda item: place.get(item[0], len(place))))

    return dataclasses.replace(
        result,
        rounds=tuple(dataclasses.replace(r, points=ordered(r.points), standings=ordered(r.standings))
                     for r in result.rounds),
        standings=ordered(result.standings),
        settlement=None if result.settlement is None else ordered(result.settlement))
