"""The Evaluator: one ruleset's tables, reached through the native core."""

from __future__ import annotations

import functools

from . import _core
from .categories import Category
from .results import BestHand, HandValue, Split
from .rules import Rules

# The partition objectives, in the native core's enum order.
OBJECTIVES: tuple[str, ...] = ("lexicographic", "expected_points")

# The native core builds these result types directly (no Python call per hand).
_core._register_types(HandValue, list(Category))
_core._register_bestof_types(BestHand, Split)


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


@functools.lru_cache(maxsize=32)
def evaluator_for(rules: Rules | None) -> Evaluator:
    """One shared Evaluator per ruleset (``None``: standard Brag)."""
    return Evaluator(rules)
