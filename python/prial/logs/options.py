"""How a log is scored (the options the kernel reads), and where a job
over a log runs."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    """

    rules: Rules = field(default_factory=Rules)
    describe: bool = False
    strict: bool = False
    chunk_rows: int = 1_000_000
    threads: int | None = None

    def __post_init__(self) -> None:
        check_chunk_rows(self.chunk_rows)
