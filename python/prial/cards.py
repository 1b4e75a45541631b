"""Cards: text and index forms (docs/rules.md, "Cards"), input checks shared
by the play functions, and uniformly random hands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from . import _core
from ._native import face_of
from .errors import ConfigurationError, InvalidHandError, InvalidShowdownError

CardsLike = str | Sequence[int]


@face_of(_core.parse_cards)
def parse_cards(text: str) -> list[int]:
    return _core.parse_cards(text)


@face_of(_core.format_cards)
def format_cards(cards: CardsLike) -> str:
    return _core.format_cards(cards)



def cards_of(value: CardsLike, where: str) -> list[int]:
    """Card indices from text or indices; errors are prefixed with ``where``."""
    if isinstance(value, (str, list, tuple)) and not value:
        # No cards (a common default, e.g. no dead cards): nothing to parse,
        # and parsing nothing costs as long as a small exact count.
        return []
    try:
        if isinstance(value, str):
            return parse_cards(value)
        # format_cards validates every index; parsing its text gives them back.
        return parse_cards(format_cards(value))
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
                raise InvalidShowdownError(f"card {format_cards([card])} appears {place}")
            seen[card] = where


def random_hands(rows: int, width: int = 3, *, seed: int = 0, pack: int = 52) -> npt.NDArray[np.uint8]:
    """``rows`` hands of ``width`` distinct cards each, drawn uniformly at
    random (with ``seed``) from a pack of ``pack`` cards (52 plus jokers):
    a uint8 array of shape (rows, width), ready for the batch functions."""
    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 0:
        raise ConfigurationError(f"rows must be an integer >= 0, got {rows!r}", field="rows")
    if isinstance(pack, bool) or not isinstance(pack, int) or not 52 <= pack <= 55:
        raise ConfigurationError(f"pack must be 52..55 cards, got {pack!r}", field="pack")
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= pack:
        raise ConfigurationError(f"width must be an integer 1..{pack}, got {width!r}", field="width")
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, pack, size=(rows, width), dtype=np.uint8)
    while True:
        ordered = np.sort(hands, axis=1)
        bad = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if bad.size == 0:
            return hands
        hands[bad] = rng.integers(0, pack, size=(bad.size, width), dtype=np.uint8)
