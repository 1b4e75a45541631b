"""The options of an audit, and the columns of a log it reads."""

from __future__ import annotations

from dataclasses import dataclass, field

import pyarrow as pa

from ..rules import Rules
from ..score.columns import DEAL_COLUMN, FLAG_COLUMNS
from ..score.types import ScoreError, ScoreOptions

SEAT_COLUMN = "player"


@dataclass(frozen=True)
class AuditOptions:
    """How to audit a log (the ``prial audit`` flags, minus file names).

    ``by``: columns whose values make the groups tested one against
    another (dealer, table, day ...).  ``seat``: the column numbering the
    seats (0..63); a log without it seats players in their order within
    the deal.  ``alpha``: the error rate the Holm-corrected tests are held
    to.  ``limit``: deal ids listed per finding (None: all).
    """

    rules: Rules = field(default_factory=Rules)
    by: tuple[str, ...] = ()
    seat: str = SEAT_COLUMN
    alpha: float = 0.01
    limit: int | None = 100
    chunk_rows: int = 1_000_000
    threads: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.by, str) or not all(isinstance(name, str) and name for name in self.by):
            raise ScoreError(f"by must be a sequence of column names; got {self.by!r}")
        object.__setattr__(self, "by", tuple(self.by))
        if len(set(self.by)) != len(self.by):
            raise ScoreError(f"by names a column twice: {', '.join(self.by)}")
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float)) or not 0 < self.alpha < 1:
            raise ScoreError(f"alpha must be a number between 0 and 1; got {self.alpha!r}")
        if self.limit is not None and (isinstance(self.limit, bool) or not isinstance(self.limit, int)
                                       or self.limit < 0):
            raise ScoreError(f"limit must be a whole number >= 0 or None; got {self.limit!r}")
        ScoreOptions(chunk_rows=self.chunk_rows)  # the same check as scoring's

    def scoring(self) -> ScoreOptions:
        return ScoreOptions(rules=self.rules, chunk_rows=self.chunk_rows, threads=self.threads)


def audit_columns(schema: pa.Schema, options: AuditOptions) -> list[str]:
    """The columns an audit reads: the scoring kernel's and the groups'."""
    missing = [name for name in options.by if name not in schema.names]
    if missing:
        raise ScoreError(f"--by {', '.join(missing)}: no such column (the log has: {', '.join(schema.names)})")
    nested = [name for name in options.by if pa.types.is_nested(schema.field(name).type)]
    if nested:
        raise ScoreError(f"--by {', '.join(nested)}: a column of lists or records cannot name a group "
                         f"({schema.field(nested[0]).type}); group by a column of plain values")
    if "cards" not in schema.names:
        raise ScoreError(f"the input has no 'cards' column (columns: {', '.join(schema.names)})")
    wanted = {DEAL_COLUMN, "cards", "game", options.seat, *FLAG_COLUMNS, *options.by}
    return [name for name in schema.names if name in wanted]
