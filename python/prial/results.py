"""The evaluator's result types: one hand's value, the best three of four
or five cards, and a partition into hands."""

from typing import NamedTuple, Union

from .categories import Category

# What to_dict() gives, as for every result (prial.play.results.Plain).
Plain = Union[str, int, float, bool, None, list["Plain"], dict[str, "Plain"]]


def _plain(value: object) -> Plain:
    """Categories by name, lists of them too."""
    if isinstance(value, Category):
        return value.name
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value  # type: ignore[return-value]  # the leaves: str, int, float, None


def _to_dict(result: tuple) -> dict[str, Plain]:
    return {name: _plain(value) for name, value in zip(result._fields, result)}  # type: ignore[attr-defined]


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

    def to_dict(self) -> dict[str, Plain]:
        """Plain JSON-able data: the category by name."""
        return _to_dict(self)

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


class BestHand(NamedTuple):
    """The best three of three, four or five cards.

    ``key`` compares hands of the same size under the same rules: higher
    wins, equal keys tie, the discard tie-break included.  Layout:
    ``strength << 8 | higher discard << 4 | lower discard``, a discard
    coded by rank (deuce 1 .. ace 13, a joker 14, suits never rank).
    """

    kept: list[int]  # strongest first
    discarded: list[int]  # higher first
    strength: int  # three-card strength of the kept three
    key: int
    category: Category
    description: str

    def __str__(self) -> str:
        return self.description

    def to_dict(self) -> dict[str, Plain]:
        """Plain JSON-able data: the category by name."""
        return _to_dict(self)


class Split(NamedTuple):
    """n cards split into three-card hands, strongest first, plus discards.

    Only formed hands are listed (a minimum category may form fewer).
    ``expected_points`` is the modelled points per deal for the
    ``expected_points`` objective, the modelled four-of-a-kind bonus of
    Crash included (``None`` otherwise); ``candidates`` is how many splits
    were compared (the Pareto frontiers for expected points: the plain one
    and, in Crash, one per four of a kind; the tie-following leaves for
    lexicographic).
    """

    hands: list[list[int]]
    discards: list[int]
    strengths: list[int]
    categories: list[Category]
    descriptions: list[str]
    expected_points: float | None
    candidates: int

    def to_dict(self) -> dict[str, Plain]:
        """Plain JSON-able data: categories by name."""
        return _to_dict(self)
