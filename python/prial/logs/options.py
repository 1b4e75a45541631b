"""How a log is scored (the options the kernel reads), and where a job
over a log runs."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._core import MAX_CRASH_VALUE
from ..categories import Category, parse_category
from ..errors import ConfigurationError
from ..evaluator import FOUR_ORDERS
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
    ``crash_showdown`` with ``crash_value``, ``four_order`` and
    ``min_category``, which mean what they mean there.
    """

    rules: Rules = field(default_factory=Rules)
    describe: bool = False
    strict: bool = False
    chunk_rows: int = 1_000_000
    threads: int | None = None
    crash_value: int = 0
    four_order: str = FOUR_ORDERS[0]
    min_category: Category | str | None = None

    def __post_init__(self) -> None:
        check_chunk_rows(self.chunk_rows)
        value = self.crash_value
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CRASH_VALUE:
            raise LogError(f"crash_value must be a whole number 0 to {MAX_CRASH_VALUE}; got {value!r}")
        if self.four_order not in FOUR_ORDERS:
            raise LogError(f"four_order must be one of {', '.join(FOUR_ORDERS)}; got {self.four_order!r}")
        if self.min_category is not None:
            try:
                parse_category(self.min_category, "min_category")
            except ConfigurationError as exc:
                raise LogError(str(exc)) from None
