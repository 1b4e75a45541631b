"""Auditing logs of played hands (``prial audit``): was the game dealt
fairly, and were the pots paid right?

- ``job``: ``audit_file`` and ``audit_table``; ``options``: what to audit
  and how;
- ``passes``: the pass over a log, here (``dask_engine``: on Dask);
- ``tally``: the counts gathered from each scored chunk;
- ``laws``: the exact law of a fair deal's counts;
- ``stats``: the tests, Holm's correction, Wilson's interval;
- ``findings``: the tests run on the tallies, and their sentences;
- ``histories``, ``history_findings``, ``history_job``: the same audit of
  hand histories, with their own rates per group and per player;
- ``report``: the HTML page with its charts (the ``report`` extra);
  ``history_report``: a history log's, and ``write_report`` for both.

The names below load their module (and pyarrow) on first use.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names, public_dir

if TYPE_CHECKING:
    from .findings import AuditResult
    from .history_findings import HistoryAuditResult
    from .history_job import audit_histories
    from .history_report import write_report
    from .job import audit_file, audit_table
    from .options import AuditOptions

_HOME = {"AuditOptions": "options", "AuditResult": "findings", "HistoryAuditResult": "history_findings",
         "audit_file": "job", "audit_histories": "history_job", "audit_table": "job",
         "write_report": "history_report"}

__all__ = ["AuditOptions", "AuditResult", "HistoryAuditResult", "audit_file", "audit_histories", "audit_table",
           "write_report"]


# Hidden from type checkers, as in prial.score.
if not TYPE_CHECKING:
    __getattr__ = lazy_names(__name__, _HOME, globals())
    __dir__ = public_dir(globals())
