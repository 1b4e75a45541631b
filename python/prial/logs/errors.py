"""The one error of the log pipeline: a log, or a job over one, that cannot
go on (public as ``prial.ScoreError``, its first name)."""

from __future__ import annotations

from ..errors import Error


class LogError(Error):
    """The job cannot go on: a bad row under ``--strict``, an unreadable
    input, a deal split across Dask partitions, a resume that does not match,
    an output that is the input or would be replaced.

    ``status`` is the command line's exit status for it: 2 for what the
    command asked (its options, its input), 1 for what it found on disk.
    """

    def __init__(self, message: str, *, status: int = 2) -> None:
        super().__init__(message)
        self.status = status
