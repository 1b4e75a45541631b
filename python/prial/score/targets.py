"""A scoring job that already ran to the end, told by its summary (where
it writes, and what it may replace: ``prial.logs.targets``)."""

from __future__ import annotations

import json
import os

from ..logs.journal import JOURNAL
from ..logs.targets import job_files
from .types import ScoreSummary


def summary_of_complete_job(output: str, errors: str | None, job: dict) -> ScoreSummary | None:
    """The summary of this very job if it already ran to the end (its
    output and summary are there, its parts are gone), else None."""
    files = job_files(output, errors)
    if os.path.exists(os.path.join(files["parts directory"], JOURNAL)) or not os.path.exists(output):
        return None
    try:
        with open(files["summary"], encoding="utf-8") as f:
            written = json.load(f)
    except (OSError, ValueError):
        return None
    if written.get("job") != job:
        return None
    return ScoreSummary(
        input=written["input"], output=written["output"], errors=written["errors"], rows_in=written["rows_in"],
        rows_out=written["rows_out"], bad_rows=written["bad_rows"], deals=written["deals"],
        invalid_deals=written["invalid_deals"], disputes=written["disputes"], categories=written["categories"],
        uncontested=written.get("uncontested", 0), no_result=written.get("no_result", 0),
        seconds=0.0, engine=written["engine"], resumed_rows=written["rows_in"],
    )
