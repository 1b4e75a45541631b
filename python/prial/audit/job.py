"""``prial audit``: one pass over a log (local chunks or Dask partitions),
the tallies added up and tested."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from ..logs.errors import LogError
from ..logs.formats import detect_format
from ..logs.options import check_engine
from ..logs.passes import split_deals_of_table
from ..logs.progress import Progress
from .findings import AuditResult, findings
from .history_job import audit_history_file, is_history_log
from .options import AuditOptions, audit_columns
from .passes import tally_file, tally_table

if TYPE_CHECKING:
    import pyarrow as pa


def audit_table(table: pa.Table, options: AuditOptions | None = None, *, input: str = "<table>") -> AuditResult:
    """Audits a log held in memory (a ``pyarrow.Table`` in the log format),
    as ``audit_file`` does a file."""
    options = options or AuditOptions()
    started = time.perf_counter()
    table = table.select(audit_columns(table.schema, options))
    tally = tally_table(table, options, split_deals_of_table(table))
    return findings(tally, options.rules, input=input, alpha=options.alpha, seconds=time.perf_counter() - started)


def audit_file(
    input: str | os.PathLike[str],
    *,
    options: AuditOptions | None = None,
    input_format: str | None = None,
    progress: Progress | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    workers: int = 2,
    histories: bool | None = None,
) -> AuditResult:
    """Audits a hand log (the formats ``prial score`` reads, scored logs
    too): was it dealt fairly, and were the pots paid right?  See
    docs/audit.md.  Memory stays bounded by ``options.chunk_rows`` (local)
    or a partition (Dask); ``engine``, ``scheduler`` and ``workers`` as for
    ``score_file``.

    A log of hand histories (docs/histories.md) is audited as one:
    ``histories`` None tells it by its first record or its columns, True
    takes the log for one; the result is then a ``HistoryAuditResult``."""
    options = options or AuditOptions()
    input = str(input)
    check_engine(engine)
    progress = progress or Progress("none")
    if histories or (histories is None and os.path.isfile(input) and is_history_log(input, input_format)):
        if engine != "local":
            raise LogError("a log of hand histories is audited by the local engine; leave out --engine dask")
        return audit_history_file(input, options, input_format, progress)
    fmt = detect_format(input, input_format)
    started = time.perf_counter()
    if engine == "dask":
        from .dask_engine import audit_dask

        tally = audit_dask(input, fmt, options, scheduler, workers, progress)
    else:
        tally = tally_file(input, fmt, options, progress)
    return findings(tally, options.rules, input=input, alpha=options.alpha, seconds=time.perf_counter() - started)
