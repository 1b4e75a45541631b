"""The readings of Crash scoring that outside rule sources disagree on
(docs/rules.md, "Crash scoring"), and how one position is settled under
them.  crash_showdown takes each as an option."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import ConfigurationError

# Each option's values, the first the default (the reading prial has always
# scored by):
#   ties        "stick_up": a tie for best scores nobody;
#               "cancel": tied hands cancel out and the best hand left scores.
#   four_bonus  "best": only the best four of a kind at the table scores;
#               "every": every player holding one scores.
#   below_min   "foul": a hand below min_category fouls the whole player;
#               "forfeit_position": it scores nothing at its own position only.
CRASH_OPTIONS: Mapping[str, tuple[str, ...]] = {
    "ties": ("stick_up", "cancel"),
    "four_bonus": ("best", "every"),
    "below_min": ("foul", "forfeit_position"),
}


def checked_option(option: str, value: object) -> str:
    """``value`` if it is one of ``option``'s values (CRASH_OPTIONS), else
    ConfigurationError naming the option."""
    choices = CRASH_OPTIONS[option]
    if not isinstance(value, str) or value not in choices:
        raise ConfigurationError(f"{option} must be one of {', '.join(map(repr, choices))}, got {value!r}",
                                 field=option)
    return value


@dataclass(frozen=True)
class Settled:
    """One position settled: who scores it (None: nobody) and whose hands
    cancelled out on the way."""

    winner: str | None
    cancelled: tuple[str, ...]


def settle_position(strengths: Mapping[str, int], ties: str) -> Settled:
    """The position's winner among the hands that meet there (player ->
    strength, in seat order).  Under ``"cancel"`` every strength held by two
    or more hands is struck out, best first, until a strength held by one
    hand alone is reached; when none is, nobody scores."""
    held = Counter(strengths.values())
    levels = sorted(held, reverse=True)
    if ties == "stick_up":
        levels = levels[:1]
    for level in levels:
        if held[level] == 1:
            winner = next(pid for pid, s in strengths.items() if s == level)
            return Settled(winner, tuple(pid for pid, s in strengths.items() if s > level))
    return Settled(None, tuple(strengths) if ties == "cancel" else ())
