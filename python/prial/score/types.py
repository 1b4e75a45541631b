"""Result types of ``prial score``: the options of a job and its summary."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

from ..errors import Error
from ..rules import Rules

# Where a job runs: this process, or a Dask cluster.
ENGINES = ("local", "dask")
# What a sample log's won column records (prial.score.sample).
SAMPLE_WON = ("coin", "adjudicated")


class ScoreError(Error):
    """The job cannot go on: a bad row under ``--strict``, an unreadable
    input, a deal split across Dask partitions, a resume that does not match,
    an output that is the input or would be replaced.

    ``status`` is the command line's exit status for it: 2 for what the
    command asked (its options, its input), 1 for what it found on disk.
    """

    def __init__(self, message: str, *, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class ScoreOptions:
    """How to score a hand log (the ``prial score`` flags, minus file names).

    ``rules`` apply to every row, unless the log has a ``game`` column: its
    value (a preset name) then replaces ``rules.preset`` for that row, the
    other options of ``rules`` staying as given.
    """

    rules: Rules = field(default_factory=Rules)
    describe: bool = False
    strict: bool = False
    chunk_rows: int = 1_000_000
    threads: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.chunk_rows, bool) or not isinstance(self.chunk_rows, int) or self.chunk_rows < 1:
            raise ScoreError(f"chunk_rows must be a positive integer; got {self.chunk_rows!r}")


@dataclass(frozen=True)
class ScoreSummary:
    """What a scoring job did; also written next to the output as JSON.

    Every input row is either in the output or in the errors file:
    ``rows_in == rows_out + bad_rows`` (``complete`` says so).
    """

    input: str
    output: str
    errors: str
    rows_in: int
    rows_out: int
    bad_rows: int
    deals: int
    invalid_deals: int
    disputes: int
    categories: dict[str, int]
    seconds: float
    engine: str = "local"
    resumed_rows: int = 0  # rows committed by an earlier, interrupted run
    already_complete: bool = False  # resumed, but the job had run to the end: nothing was done
    # Adjudicated deals whose recorded result is not checked (not disputes):
    uncontested: int = 0  # one player
    no_result: int = 0  # no row recorded as won

    @property
    def complete(self) -> bool:
        return self.rows_in == self.rows_out + self.bad_rows

    @property
    def hands_per_second(self) -> float:
        scored_now = self.rows_in - self.resumed_rows
        return scored_now / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, object]:
        """Deprecated: ``to_dict()``."""
        warnings.warn("ScoreSummary.as_dict() is deprecated; use to_dict()", DeprecationWarning, stacklevel=2)
        return self.to_dict()

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-able data, as the summary file holds it."""
        return {
            "input": self.input,
            "output": self.output,
            "errors": self.errors,
            "engine": self.engine,
            "rows_in": self.rows_in,
            "rows_out": self.rows_out,
            "bad_rows": self.bad_rows,
            "complete": self.complete,
            "deals": self.deals,
            "invalid_deals": self.invalid_deals,
            "disputes": self.disputes,
            "uncontested": self.uncontested,
            "no_result": self.no_result,
            "categories": dict(self.categories),
            "resumed_rows": self.resumed_rows,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
        }
