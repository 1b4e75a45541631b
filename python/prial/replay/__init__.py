"""Replaying hand-history logs (``prial replay``): every deal of a log
replayed against its table's rules, a row of findings each, on the
local engine or on Dask, resumable as ``prial score`` is.

- ``job``: ``replay_file``, one job; ``dask_engine``: its chunks on Dask;
- ``source``: the log a chunk at a time; ``nested`` and ``arrays``: a
  nested Parquet batch replayed column by column;
- ``columns``: the findings and errors files' columns; ``summary``: the
  summary.

It stands on prial.logs (the files, the journal) and prial.table (the
replay of histories); nothing below it imports it.  The names below load
their module (and pyarrow) on first use.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names, public_dir

if TYPE_CHECKING:
    from .job import replay_file
    from .summary import ReplaySummary

_HOME = {"replay_file": "job", "ReplaySummary": "summary"}

__all__ = ["ReplaySummary", "replay_file"]

if not TYPE_CHECKING:
    __getattr__ = lazy_names(__name__, _HOME, globals())
    __dir__ = public_dir(globals())
