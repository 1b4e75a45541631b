"""Input checks shared by showdown, Crash, casino and odds: cards, chips, tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import _core
from ._errors import InvalidHandError, InvalidShowdownError

CardsLike = str | Sequence[int]


def cards_of(value: CardsLike, where: str) -> list[int]:
    """Card indices from text or indices; errors are prefixed with ``where``."""
    try:
        if isinstance(value, str):
            return _core.parse_cards(value)
        # format_cards validates every index; parsing its text gives them back.
        return _core.parse_cards(_core.format_cards(value))
    except InvalidHandError as exc:
        raise InvalidHandError(f"{where}: {exc}") from None


def check_no_shared_cards(hands: Iterable[tuple[str, Sequence[int]]]) -> None:
    """No card may appear twice at the table: in one hand or across hands."""
    seen: dict[int, str] = {}
    for where, cards in hands:
        for card in cards:
            if card in seen:
                other = seen[card]
                place = f"twice in {where}" if other == where else f"in both {other} and {where}"
                raise InvalidShowdownError(f"card {_core.format_cards([card])} appears {place}")
            seen[card] = where


MAX_CHIPS = 2**64 - 1  # what the native core and the gRPC messages (uint64) hold


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
