"""Checks of the values a deal is started with, shared by Deal.start and
the next deal."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidHandError


def _players(players: object) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidHandError(f"players must be a sequence of player ids; got {players!r}", field="players")
    names = tuple(players)
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name:
            raise InvalidHandError(f"player {i} must be a non-empty string id; got {name!r}", row=i,
                                   field="players")
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise InvalidHandError(f"player id {name!r} is at the table twice", row=i, field="players")
        seen.add(name)
    return names


def _int(option: str, value: object, least: int, below: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value < below:
        raise InvalidHandError(f"{option} must be an integer from {least} to {below - 1}; got {value!r}",
                               field=option)
    return value
