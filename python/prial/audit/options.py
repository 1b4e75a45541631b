"""The options of an audit, and the columns of a log it reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..logs.columns import DEAL_COLUMN, FLAG_COLUMNS, check_cards_column, nested_columns
from ..logs.errors import LogError
from ..logs.options import ScoreOptions, check_chunk_rows
from ..rules import Rules

if TYPE_CHECKING:
    import pyarrow as pa

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
            raise LogError(f"by must be a sequence of column names; got {self.by!r}")
        object.__setattr__(self, "by", tuple(self.by))
        if len(set(self.by)) != len(self.by):
            raise LogError(f"by names a column twice: {', '.join(self.by)}")
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float)) or not 0 < self.alpha < 1:
            raise LogError(f"alpha must be a number between 0 and 1; got {self.alpha!r}")
        if self.limit is not None and (isinstance(self.limit, bool) or not isinstance(self.limit, int)
                                       or self.limit < 0):
            raise LogError(f"limit must be a whole number >= 0 or None; got {self.limit!r}")
        check_chunk_rows(self.chunk_rows)

    def scoring(self) -> ScoreOptions:
        return ScoreOptions(rules=self.rules, chunk_rows=self.chunk_rows, threads=self.threads)


def audit_columns(schema: pa.Schema, options: AuditOptions) -> list[str]:
    """The columns an audit reads: the scoring kernel's and the groups'."""
    missing = [name for name in options.by if name not in schema.names]
    if missing:
        raise LogError(f"--by {', '.join(missing)}: no such column (the log has: {', '.join(schema.names)})")
    nested = nested_columns(schema, options.by)
    if nested:
        raise LogError(f"--by {', '.join(nested)}: a column of lists or records cannot name a group "
                         f"({schema.field(nested[0]).type}); group by a column of plain values")
    check_cards_column(schema.names)
    wanted = {DEAL_COLUMN, "cards", "game", options.seat, *FLAG_COLUMNS, *options.by}
    return [name for name in schema.names if name in wanted]
