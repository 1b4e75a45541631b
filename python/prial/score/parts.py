"""What a scoring job keeps of its parts (``prial.logs.journal`` keeps
them: the parts directory, its journal and the output writer): a scored
chunk's tallies in its journal line, and at the end the errors file and
the summary made from the committed parts."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc

from ..logs.columns import CATEGORY_NAMES
from ..logs.io import write_tables
from ..logs.journal import Journal, finish, read_arrow, side_files
from ..logs.result import ERRORS_SCHEMA, ChunkResult
from .types import ScoreSummary


def chunk_counts(result: ChunkResult) -> dict:
    """What a scored chunk's journal line tallies of it."""
    return {"deals": result.deals, "invalid_deals": result.invalid_deals, "disputes": result.disputes,
            "categories": result.categories, "uncontested": result.uncontested, "no_result": result.no_result}


def commit_chunk(journal: Journal, index: int, result: ChunkResult, rows_start: int, rows_end: int,
                 read: dict | None = None) -> dict:
    return journal.commit(index, result.table, result.errors, rows_start, rows_end, chunk_counts(result), read)


def assemble(journal: Journal, entries: list[dict], input: str, output: str, errors: str | None, *,
             seconds: float, job: dict, resumed_rows: int = 0, engine: str = "local") -> ScoreSummary:
    """Errors file and summary from the committed parts, put in place with
    the output (``prial.logs.journal.finish``); the summary file keeps
    ``job`` (what the journal's header said)."""
    errors_path = side_files(output, errors)[0]

    def error_tables() -> Iterator[pa.Table]:
        for e in entries:
            if e["bad_rows"]:
                table = read_arrow(journal.errors_path(e["part"]))
                shift = e.get("row_shift", 0)  # parts scored without knowing their first row
                if shift:
                    for name in ("row", "line"):
                        table = table.set_column(table.schema.get_field_index(name), name,
                                                 pc.add(table[name], shift))
                yield table

    summary = _summary(entries, input, output, errors_path, seconds, engine, resumed_rows)
    finish(journal, output, errors, lambda tmp: write_tables(tmp, "csv", ERRORS_SCHEMA, error_tables()),
           {**summary.to_dict(), "job": job})
    return summary


def _summary(entries: list[dict], input: str, output: str, errors_path: str, seconds: float, engine: str,
             resumed_rows: int) -> ScoreSummary:
    categories: dict[str, int] = {}
    for e in entries:
        for name, count in e["categories"].items():
            categories[name] = categories.get(name, 0) + count
    return ScoreSummary(
        input=input, output=output, errors=errors_path,
        rows_in=sum(e["rows_end"] - e["rows_start"] for e in entries),
        rows_out=sum(e["rows_out"] for e in entries),
        bad_rows=sum(e["bad_rows"] for e in entries),
        deals=sum(e["deals"] for e in entries),
        invalid_deals=sum(e["invalid_deals"] for e in entries),
        disputes=sum(e["disputes"] for e in entries),
        # Not in the journal of a run before these were counted: resumed, it counts what it scores.
        uncontested=sum(e.get("uncontested", 0) for e in entries),
        no_result=sum(e.get("no_result", 0) for e in entries),
        categories={name: categories[name] for name in CATEGORY_NAMES if name in categories},
        seconds=seconds, engine=engine, resumed_rows=resumed_rows,
    )
