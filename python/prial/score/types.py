"""Result types of ``prial score``: the summary of a job, and the public
names of its options, its error and its progress (whose home is
``prial.logs``)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..logs.errors import LogError
from ..logs.options import ScoreOptions
from ..logs.progress import Progress

# What a sample log's won column records (prial.score.sample).
SAMPLE_WON = ("coin", "adjudicated")

# The first name of the log pipeline's error, public as prial.ScoreError.
ScoreError = LogError

__all__ = ["SAMPLE_WON", "Progress", "ScoreError", "ScoreOptions", "ScoreSummary"]


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
