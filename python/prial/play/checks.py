"""Input checks of the play functions: chips and player ids."""

from __future__ import annotations

from collections.abc import Sequence

from .._core import MAX_JOKERS
from ..errors import InvalidShowdownError

MAX_CHIPS = 2**64 - 1  # what the native core and the gRPC messages (uint64) hold
MAX_NET = 2**63 - 1  # chips won or lost in one result (int64 in the gRPC messages)
MAX_PACK = 52 + MAX_JOKERS  # the largest pack: every joker in


def seats(count: int, cards_each: int) -> None:
    """No more players than one pack can deal ``cards_each`` cards to."""
    most = MAX_PACK // cards_each
    if count > most:
        raise InvalidShowdownError(f"{count} players: one pack deals at most {most} hands of {cards_each} cards",
                                   field="players")


def chips(value: object, name: str) -> int:
    """A chip amount: an integer from 0 to MAX_CHIPS (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidShowdownError(f"{name} must be a whole number of chips, got {value!r}")
    if value < 0:
        raise InvalidShowdownError(f"{name} must not be negative, got {value}")
    if value > MAX_CHIPS:
        raise InvalidShowdownError(f"{name} must be at most {MAX_CHIPS}, got {value}")
    return value


def unique_ids(ids: Sequence[str], what: str) -> None:
    seen: set[str] = set()
    for i, pid in enumerate(ids):
        if not isinstance(pid, str) or not pid:
            raise InvalidShowdownError(f"{what} {i}: id must be a non-empty string, got {pid!r}")
        if pid in seen:
            raise InvalidShowdownError(f"{what} id {pid!r} is used twice")
        seen.add(pid)
