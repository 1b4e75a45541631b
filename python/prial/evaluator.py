"""The Evaluator: one ruleset's tables, reached through the native core."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import CancelFlag, Objective, equity_batch, live_table_bytes, register_result_types
from ._core import Evaluator as NativeEvaluator
from ._native import face_of
from .cards import CardsLike
from .categories import Category, parse_category
from .errors import ConfigurationError
from .results import BestHand, HandValue, Split
from .rules import Rules

# The partition objectives: the native core's enum, in its order.
OBJECTIVES: tuple[str, ...] = tuple(Objective.__members__)

# How the four-of-a-kind bonus ranks fours (docs/rules.md, "Crash scoring"):
# the native core's names, the first the default.
FOUR_ORDERS: tuple[str, ...] = _core.FOUR_ORDERS


def checked_four_order(value: object) -> str:
    """``value`` if it names a four_order (FOUR_ORDERS), else
    ConfigurationError naming the field."""
    if not isinstance(value, str) or value not in FOUR_ORDERS:
        raise ConfigurationError(f"four_order must be one of {', '.join(map(repr, FOUR_ORDERS))}, got {value!r}",
                                 field="four_order")
    return value


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
                  crash_value: float = 0.0, four_order: str = FOUR_ORDERS[0]) -> Split:
        """Split 6 to 15 cards into ``hands`` three-card hands, strongest
        first, the rest discarded (docs/rules.md, "Partitioning").

        ``objective``: ``"lexicographic"`` (the strongest first hand, then
        the strongest second ...) or ``"expected_points"`` (the most points
        on average against ``opponents`` modelled players, Crash's bonuses
        included; ``crash_value`` is what winning every position is worth
        beyond its positions' points, 0 by default as in Crash scoring;
        ``four_order`` ranks fours for the four-of-a-kind bonus as
        ``crash_showdown``'s does: ``"prial"``, ``"aces"`` or ``"fours"``).
        ``min_category``: every formed hand at least this category (a
        Category, its code or its name), so fewer hands may be formed.
        """
        return _core.partition(self, cards, hands, objective, _floor(min_category), opponents, crash_value,
                               checked_four_order(four_order))

    def partition_batch(self, cards: npt.NDArray[np.uint8], hands: int = 4, objective: str = "lexicographic",
                        min_category: Category | int | str | None = None, opponents: int = 3,
                        crash_value: float = 0.0, four_order: str = FOUR_ORDERS[0], *, threads: int | None = None,
                        cancel: CancelFlag | None = None) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]:
        """``partition`` over a uint8 array of shape (N, cards), in C++ on
        ``threads`` threads (None: all cores): the hands, uint8
        (N, hands, 3) with 255 where a hand is not formed, and their
        strengths, uint16 (N, hands).

        To stop the work, pass a ``prial.CancelFlag`` as ``cancel`` and call
        its ``.cancel()`` from another thread: the call then raises
        ``prial.CancelledError`` within milliseconds."""
        return _core.partition_batch(self, cards, hands, objective, _floor(min_category), opponents, crash_value,
                                     checked_four_order(four_order), threads=threads, cancel=cancel)


def _floor(min_category: Category | int | str | None) -> Category | None:
    return None if min_category is None else parse_category(min_category, "min_category")


def evaluator_for(rules: Rules | None) -> Evaluator:
    """The one shared Evaluator of a ruleset (``None``: standard Brag)."""
    return _standard() if rules is None else _evaluators.get(rules)


@functools.cache  # making Rules() takes longer than a whole heads-up equity
def _standard() -> Evaluator:
    return _evaluators.get(Rules())


# The default bound of the rulesets' tables kept between calls: a few
# rulesets used with every hand size (their key and counting tables reach
# 27 to 40 MB each), or hundreds used with three cards only (150 KB each).
TABLE_CACHE_BYTES = 256 << 20


class TableCache(NamedTuple):
    """What ``prial.table_cache_info()`` reports."""

    rulesets: int  # rulesets whose evaluators are kept
    bytes: int  # held by every ruleset's tables alive in the process, kept or in use
    limit: int  # the bound, in bytes


class _Evaluators:
    """The evaluators of the rulesets in use, least recently used first,
    bounded by the bytes their tables hold rather than by their number:
    those tables grow as hand sizes are first used, from 150 KB to 40 MB a
    ruleset, so that no count bounds them.

    Every lookup first lets go of the least recently used evaluators until
    all the ruleset tables alive (the native core counts them, whoever
    holds them) fit the bound, or only the ruleset looked up is left: one
    ruleset bigger than the bound still serves its call.  The tables a
    call builds after its lookup count from the next one."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._kept: OrderedDict[Rules, Evaluator] = OrderedDict()

    def get(self, rules: Rules) -> Evaluator:
        with self._lock:
            found = self._kept.get(rules)
        # Built outside the lock (a few milliseconds): lookups of other
        # rulesets go on meanwhile.  Two threads building one ruleset at
        # once share its tables, and the first evaluator kept wins.
        made = Evaluator(rules) if found is None else found
        with self._lock:
            evaluator = self._kept.setdefault(rules, made)
            self._kept.move_to_end(rules)
            while len(self._kept) > 1 and live_table_bytes() > self.limit:
                self._kept.popitem(last=False)
            return evaluator

    def info(self) -> TableCache:
        with self._lock:
            return TableCache(len(self._kept), live_table_bytes(), self.limit)


_evaluators = _Evaluators(TABLE_CACHE_BYTES)


def set_table_cache_limit(limit: int) -> None:
    """Bound, in bytes, the tables of the rulesets kept between calls
    (``TABLE_CACHE_BYTES``, 256 MiB, by default); the least recently used
    go first, at the next lookup of a ruleset.  ``prial serve
    --table-cache-mb`` sets it in each server process."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ConfigurationError(f"table cache limit must be a whole number of bytes >= 0, got {limit!r}")
    _evaluators.limit = limit


def table_cache_info() -> TableCache:
    """How many rulesets' evaluators are kept, the bytes all the ruleset
    tables alive hold (kept ones and those in use elsewhere), and the bound."""
    return _evaluators.info()
