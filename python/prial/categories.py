"""Hand categories and the one parser of their names."""

from __future__ import annotations

import enum

from .errors import ConfigurationError


class Category(enum.IntEnum):
    """Hand categories, numbered weakest first in standard Brag.

    The numbers are the native core's and the gRPC ``Category`` enum's.  The
    order *between* categories belongs to the ruleset (Three Card Poker puts
    the running flush above the prial): see ``Evaluator.category_order``, and
    compare hands by strength.
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


_NAMES = ", ".join(c.name for c in Category)


def parse_category(value: Category | int | str, field: str = "category") -> Category:
    """A Category from a member, its number, or its name in any case with
    underscores or spaces ("RUNNING_FLUSH", "running_flush", "running flush").

    Raises ConfigurationError naming ``field`` for anything else.
    """
    if isinstance(value, Category):
        return value
    if isinstance(value, str):
        member = Category.__members__.get(value.strip().upper().replace(" ", "_"))
        if member is not None:
            return member
        raise ConfigurationError(f"{field}: unknown category {value!r} ({_NAMES})", field=field)
    if isinstance(value, int) and not isinstance(value, bool) and value in Category._value2member_map_:
        return Category(value)
    raise ConfigurationError(f"{field} must be a prial.Category or its name ({_NAMES}), got {value!r}",
                             field=field)
