"""Result types shared by the evaluator and the rest of the package."""

from __future__ import annotations

import enum
from typing import NamedTuple


class Category(enum.IntEnum):
    """Hand categories, numbered weakest first in standard Brag.

    The order *between* categories belongs to the ruleset (Three Card Poker
    puts the running flush above the prial); compare hands by strength.
    """

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    RUN = 3
    RUNNING_FLUSH = 4
    PRIAL = 5

    @property
    def label(self) -> str:
        """Human name: "High card", "Running flush", ..."""
        return self.name.replace("_", " ").capitalize()


class HandValue(NamedTuple):
    """The value of one three-card hand under one ruleset.

    ``strength`` is dense from 1 (weakest class) up; equal strengths tie.
    Ordering operators compare strength only, so they are meaningful between
    hands evaluated under the same rules.
    """

    strength: int
    category: Category
    cards: list[int]
    description: str

    def __str__(self) -> str:
        return self.description

    def __lt__(self, other: object) -> bool:
        return self.strength < _strength(other)

    def __le__(self, other: object) -> bool:
        return self.strength <= _strength(other)

    def __gt__(self, other: object) -> bool:
        return self.strength > _strength(other)

    def __ge__(self, other: object) -> bool:
        return self.strength >= _strength(other)


def _strength(other: object) -> int:
    if isinstance(other, HandValue):
        return other.strength
    raise TypeError(f"cannot compare a HandValue with {type(other).__name__}")
