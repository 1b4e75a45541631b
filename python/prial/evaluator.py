"""The Evaluator: one ruleset's tables, reached through the native core."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import CancelFlag, Objective, equity_batch, register_result_types
from ._core import Evaluator as NativeEvaluator
from ._native import face_of
from .cards import CardsLike
from .categories import Category, parse_category
from .results import BestHand, HandValue, Split
from .rules import Rules

# The partition objectives: the native core's enum, in its order.
OBJECTIVES: tuple[str, ...] = tuple(Objective.__members__)

# The native core builds these result types directly (no Python call per hand).
register_result_types(HandValue, list(Category), BestHand, Split)


class Evaluator(NativeEvaluator):
    """Evaluates hands under one ruleset.

    The tables behind it are built once per ruleset (in C++, a few
    milliseconds) and shared by every Evaluator with the same rules.  The
    per-hand and batch methods (``evaluate``, ``evaluate_batch``,
    ``best_of``, ``best_of_batch``) are the native ones, through typed
    faces (``prial._native``).
    The batch methods take ``cancel``: pass a ``prial.CancelFlag`` and call
    its ``.cancel()`` from another thread to stop the work (the call then
    raises ``prial.CancelledError``).

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
        """The ruleset this evaluator's tables were built for."""
        return self._rules

    def __repr__(self) -> str:
        return f"Evaluator({self._rules!r})"

    @face_of(_core.evaluate)
    def evaluate(self, hand: CardsLike) -> HandValue:
        return _core.evaluate(self, hand)

    @face_of(_core.evaluate_batch)
    def evaluate_batch(self, hands: npt.NDArray[np.uint8], *, threads: int | None = None,
                       cancel: CancelFlag | None = None) -> npt.NDArray[np.uint16]:
        return _core.evaluate_batch(self, hands, threads=threads, cancel=cancel)

    @face_of(_core.best_of)
    def best_of(self, cards: CardsLike) -> BestHand:
        return _core.best_of(self, cards)

    @face_of(_core.best_of_batch)
    def best_of_batch(self, hands: npt.NDArray[np.uint8], *, threads: int | None = None,
                      cancel: CancelFlag | None = None) -> npt.NDArray[np.uint32]:
        return _core.best_of_batch(self, hands, threads=threads, cancel=cancel)

    def equity_batch(self, hands: npt.NDArray[np.uint8], *, threads: int | None = None,
                     cancel: CancelFlag | None = None) -> npt.NDArray[np.float64]:
        """Exact heads-up equity of many hands at once: float64 (N, 3) win,
        tie and lose probabilities for each row of a uint8 (N, 3|4|5) array,
        the one opponent's hand dealt from the rest of the pack (each row as
        ``prial.equity(row)`` gives it, no dead cards).  Counted in C++ with
        the GIL released; ``InvalidHandError`` names the first bad row."""
        counts = equity_batch(self, hands, threads=threads, cancel=cancel)
        return counts / counts.sum(axis=1, keepdims=True)

    def partition(self, cards: str | Sequence[int], hands: int = 4, objective: str = "lexicographic",
                  min_category: Category | int | str | None = None, opponents: int = 3,
                  crash_value: float = 0.0) -> Split:
        """Split 6 to 15 cards into ``hands`` three-card hands, strongest
        first, the rest discarded (docs/rules.md, "Partitioning").

        ``objective``: ``"lexicographic"`` (the strongest first hand, then
        the strongest second ...) or ``"expected_points"`` (the most points
        on average against ``opponents`` modelled players, Crash's bonuses
        included; ``crash_value`` is what winning every position is worth
        beyond its positions' points, 0 by default as in Crash scoring).
        ``min_category``: every formed hand at least this category (a
        Category, its code or its name), so fewer hands may be formed.
        """
        return _core.partition(self, cards, hands, objective, _floor(min_category), opponents, crash_value)

    def partition_batch(self, cards: npt.NDArray[np.uint8], hands: int = 4, objective: str = "lexicographic",
                        min_category: Category | int | str | None = None, opponents: int = 3,
                        crash_value: float = 0.0, *, threads: int | None = None,
                        cancel: CancelFlag | None = None) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]:
        """``partition`` over a uint8 array of shape (N, cards), in C++ on
        ``threads`` threads (None: all cores): the hands, uint8
        (N, hands, 3) with 255 where a hand is not formed, and their
        strengths, uint16 (N, hands).

        To stop the work, pass a ``prial.CancelFlag`` as ``cancel`` and call
        its ``.cancel()`` from another thread: the call then raises
        ``prial.CancelledError`` within milliseconds."""
        return _core.partition_batch(self, cards, hands, objective, _floor(min_category), opponents, crash_value,
                                     threads=threads, cancel=cancel)


def _floor(min_category: Category | int | str | None) -> Category | None:
    return None if min_category is None else parse_category(min_category, "min_category")


def evaluator_for(rules: Rules | None) -> Evaluator:
    """The one shared Evaluator of a ruleset (``None``: standard Brag)."""
    return _standard() if rules is None else _shared(rules)


@functools.cache  # making Rules() takes longer than a whole heads-up equity
def _standard() -> Evaluator:
    return _shared(Rules())


@functools.lru_cache(maxsize=32)  # bounded: callers choose the rules
def _shared(rules: Rules) -> Evaluator:
    return Evaluator(rules)
