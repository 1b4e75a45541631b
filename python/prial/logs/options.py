"""How a log is scored (the options the kernel reads), and where a job
over a log runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._core import MAX_CRASH_VALUE
from ..categories import Category, parse_category
from ..errors import ConfigurationError
from ..evaluator import FOUR_ORDERS
from ..play.crash_rules import CRASH_OPTIONS, checked_option
from ..rules import Rules
from .errors import LogError

# Where a job runs: this process, or a Dask cluster.
ENGINES = ("local", "dask")


def check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise LogError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")


def check_chunk_rows(chunk_rows: object) -> None:
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise LogError(f"chunk_rows must be a positive integer; got {chunk_rows!r}")


@dataclass(frozen=True)
class ScoreOptions:
    """How to score a hand log (the ``prial score`` flags, minus file names).

    ``rules`` apply to every row, unless the log has a ``game`` column: its
    value (a preset name) then replaces ``rules.preset`` for that row, the
    other options of ``rules`` staying as given.

    A log of laid hands (nine-card Brag, Crash) is scored by
    ``crash_showdown`` with ``crash_value``, ``four_order``,
    ``min_category``, ``weights`` (its ``scoring``: None for a point a
    position, or four weights), ``ties``, ``four_bonus`` and ``below_min``,
    which mean what they mean there (``crash_options``).
    """

    rules: Rules = field(default_factory=Rules)
    describe: bool = False
    strict: bool = False
    chunk_rows: int = 1_000_000
    threads: int | None = None
    crash_value: int = 0
    four_order: str = FOUR_ORDERS[0]
    min_category: Category | str | None = None
    weights: tuple[int, ...] | None = None
    ties: str = CRASH_OPTIONS["ties"][0]
    four_bonus: str = CRASH_OPTIONS["four_bonus"][0]
    below_min: str = CRASH_OPTIONS["below_min"][0]

    def crash_options(self) -> dict[str, Any]:
        """``crash_showdown``'s keyword arguments for a deal of laid hands."""
        return {"scoring": "points" if self.weights is None else list(self.weights), "rules": self.rules,
                "min_category": self.min_category, "crash_value": self.crash_value, "four_order": self.four_order,
                "ties": self.ties, "four_bonus": self.four_bonus, "below_min": self.below_min}

    def __post_init__(self) -> None:
        check_chunk_rows(self.chunk_rows)
        value = self.crash_value
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CRASH_VALUE:
            raise LogError(f"crash_value must be a whole number 0 to {MAX_CRASH_VALUE}; got {value!r}")
        if self.four_order not in FOUR_ORDERS:
            raise LogError(f"four_order must be one of {', '.join(FOUR_ORDERS)}; got {self.four_order!r}")
        weights = self.weights
        if weights is not None and (not isinstance(weights, tuple) or len(weights) != 4 or any(
                isinstance(w, bool) or not isinstance(w, int) or w < 0 for w in weights)):
            raise LogError(f"weights must be None or a tuple of four whole numbers >= 0; got {weights!r}")
        try:
            if self.min_category is not None:
                parse_category(self.min_category, "min_category")
            for name in CRASH_OPTIONS:
                checked_option(name, getattr(self, name))
        except ConfigurationError as exc:
            raise LogError(str(exc)) from None
