"""``prial audit`` on hand histories: the log read a chunk of whole deals
at a time (``prial.logs.histories``), each chunk replayed
(``prial.table.replay_histories``) and tallied, the tallies added up and
tested (docs/histories.md, "prial audit on histories")."""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..logs.progress import Progress
from ..table.history import History
from ..table.replay import replay_histories
from ..table.rules import TableRules
from .histories import HistoryTally, check_history_groups, tally_arrays, tally_histories
from .history_findings import HistoryAuditResult, history_findings
from .options import AuditOptions
from .tally import Tally

if TYPE_CHECKING:
    import pyarrow as pa

# Columns that make a table a history log: the nested form's actions, the flat form's action kind.
_HISTORY_COLUMNS = ("actions", "kind")


def audit_histories(histories: Iterable[History], options: AuditOptions | None = None, *,
                    input: str = "<histories>") -> HistoryAuditResult:
    """Audits hand histories held in memory (``prial.table.History``, as
    ``read_record`` gives them), as ``audit_file`` does a history log."""
    options = options or AuditOptions()
    check_history_groups(options.by)
    started = time.perf_counter()
    tally = _empty(options)
    batch: list[History] = []
    for history in histories:
        batch.append(history)
        if len(batch) >= _rows(options):
            tally.add(_tally(batch, options))
            batch = []
    if batch:
        tally.add(_tally(batch, options))
    return history_findings(tally, input=input, alpha=options.alpha, seconds=time.perf_counter() - started)


def audit_history_file(input: str, options: AuditOptions, input_format: str | None, progress: Progress,
                       tables: Mapping[str, TableRules] | None = None) -> HistoryAuditResult:
    """Audits a history file, a chunk of records at a time; a bad record is
    counted (``bad_rows``) and left out."""
    from ..logs.histories import iter_history_chunks
    from ..logs.histories.read import file_format
    from ..replay.source import nested_file

    check_history_groups(options.by)
    started = time.perf_counter()
    tally = _empty(options)
    bad = 0
    progress.begin("auditing", unit="deals", total=None)
    nested = nested_file(input, file_format(input, input_format)[0])
    if nested is not None:  # column by column, as the replay reads it
        for batch in nested.iter_batches(batch_size=_rows(options)):
            counts, errors = _tally_nested(batch, options, tables)
            tally.add(counts)
            bad += errors
            progress.update(tally.deals + bad, None)
    else:
        for chunk in iter_history_chunks(input, format=input_format, tables=tables, rows=_rows(options)):
            bad += len(chunk.errors)
            if chunk.histories:
                tally.add(_tally(chunk.histories, options))
            progress.update(tally.deals + bad, None)
    progress.finish(tally.deals + bad)
    return history_findings(tally, input=input, alpha=options.alpha, bad_records=bad,
                            seconds=time.perf_counter() - started)


def is_history_log(input: str, input_format: str | None) -> bool:
    """Is ``input`` a log of hand histories (a record a deal, or an action a
    row) rather than a log of hands (a row a hand)?  Told by its first
    record's fields or its columns: ``actions`` (a record's) or ``kind``
    (the flat form's)."""
    from ..logs.histories.read import file_format
    from ..logs.io import InputReader

    fmt, gz = file_format(input, input_format)
    if fmt != "jsonl":
        reader = InputReader(input, fmt, 1)
        names = reader.schema.names
        reader.close()
        return any(name in names for name in _HISTORY_COLUMNS)
    # Text that is not UTF-8, or a cut gzip stream, is no history log: the
    # row audit's reader then says what is wrong with the file.
    try:
        with gzip.open(input, "rt", encoding="utf-8", errors="replace") if gz else \
                open(input, encoding="utf-8", errors="replace") as text:
            first = next((line for line in text if line.strip()), "")
        record = json.loads(first)
    except (ValueError, OSError, EOFError):
        return False
    return isinstance(record, dict) and any(name in record for name in _HISTORY_COLUMNS)


def _rows(options: AuditOptions) -> int:
    """Records a chunk: at most 65,536, since a history in memory is far
    larger than a row of a hand log."""
    return min(options.chunk_rows, 65_536)


def _empty(options: AuditOptions) -> HistoryTally:
    return HistoryTally(by=options.by, limit=options.limit, dealing=Tally(by=options.by, limit=options.limit))


def _tally(histories: Sequence[History], options: AuditOptions) -> HistoryTally:
    return tally_histories(histories, replay_histories(histories, threads=options.threads), options.by,
                           options.limit, options.threads)


def _tally_nested(batch: pa.RecordBatch, options: AuditOptions, tables: Mapping[str, TableRules] | None) -> tuple[HistoryTally, int]:
    """(the counts, the bad records) of a batch of a nested Parquet log: its
    plain deals over the replay's columns, the rest record by record."""

    from ..logs.histories.layout import record_of_row
    from ..logs.histories.read import checked
    from ..replay.arrays import plain_deals
    from ..replay.nested import replay_nested
    from .history_arrays import of_nested

    findings, errors = replay_nested(batch, 0, tables, options.threads)
    deals = plain_deals(batch, tables)
    rows = findings.column("row").to_numpy()
    plain = deals.plain[rows]
    counts = tally_arrays(of_nested(deals, findings.filter(plain), deals.plain, batch), options.by, options.limit,
                          options.threads)
    rest = rows[~plain]
    if len(rest):
        counts.add(_tally([checked(record_of_row(row), tables) for row in batch.take(rest).to_pylist()], options))
    return counts, errors.num_rows
