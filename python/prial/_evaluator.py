"""The Evaluator: one ruleset's tables, reached through the native core."""

from __future__ import annotations

import functools

from . import _core
from ._errors import InvalidHandError
from ._rules import Rules
from ._types import Category


class Evaluator(_core.Evaluator):
    """Evaluates hands under one ruleset.

    The tables behind it are built once per ruleset (in C++, a few
    milliseconds) and shared by every Evaluator with the same rules.

    >>> ev = Evaluator(Rules(preset="teen_patti"))
    >>> str(ev.evaluate("3s 2h Ah"))
    'Run, 3-2-A'
    """

    def __init__(self, rules: Rules | None = None) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a prial.Rules, got {type(rules).__name__}")
        super().__init__(rules._config())
        self._rules = rules

    @property
    def rules(self) -> Rules:
        return self._rules

    def __repr__(self) -> str:
        return f"Evaluator({self._rules!r})"

    # The native partition takes min_category as None or a Category (or its
    # code) only; a name is parsed here first.
    def partition(self, cards, hands=4, objective="lexicographic", min_category=None, opponents=3,
                  crash_value=0.0):
        """Split 6 to 15 cards into ``hands`` three-card hands (a prial.Split);
        ``min_category`` is a Category, its code or its name."""
        return super().partition(cards, hands, objective, _min_category(min_category), opponents, crash_value)

    def partition_batch(self, cards, hands=4, objective="lexicographic", min_category=None, opponents=3,
                        crash_value=0.0, *, threads=None):
        """partition over a uint8 ``(N, cards)`` array: (hands ``(N, hands, 3)``,
        strengths ``(N, hands)``)."""
        return super().partition_batch(cards, hands, objective, _min_category(min_category), opponents,
                                       crash_value, threads=threads)


def _min_category(value: object) -> object:
    """A category name ("RUNNING_FLUSH", "running flush") as its Category;
    anything else as it is (the native core checks it)."""
    if not isinstance(value, str):
        return value
    try:
        return Category[value.upper().replace(" ", "_")]
    except KeyError:
        names = ", ".join(c.name for c in Category)
        raise InvalidHandError(f"min_category: unknown category '{value}' ({names})", field="min_category") from None


@functools.lru_cache(maxsize=32)
def evaluator_for(rules: Rules | None) -> Evaluator:
    """One shared Evaluator per ruleset (``None``: standard Brag)."""
    return Evaluator(rules)
