"""``prial score --engine dask``: the same kernel over Dask partitions.

How deals are kept together: the kernel needs every deal whole, so each
deal must lie within one partition (``prial.logs.partitions``).  Write
Parquet logs with row groups that end at deal boundaries (e.g. sorted by
``deal_id``, row groups of whole deals); a deal that continues from one
partition into the next stops the job with an error naming the deal
(nothing is written to the output).

Each partition is scored by ``map_partitions`` on a worker (native batch
code, no Python per row) into a part file of ``OUTPUT.parts/`` (so the
parts directory must be on storage the workers share with the client); the
client writes the parts to the output in partition order as they finish,
through the same writer as the local engine, so both engines give the same
output, byte for byte.  (No --resume here: a failed Dask job is rerun.)
"""


from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING

import pandas as pd

from ..logs.chunk import score_table
from ..logs.formats import line_offset
from ..logs.journal import Journal, OutputWriter, read_arrow
from ..logs.options import ScoreOptions
from ..logs.partitions import (
    check_dask_format,
    csv_read_errors,
    dask_client,
    dask_frame,
    partition_table,
    read_schema,
    split_deals_of_frame,
)
from ..logs.progress import Progress
from .parts import assemble
from .types import ScoreSummary

if TYPE_CHECKING:
    import pyarrow as pa

_STATS_META = pd.DataFrame({
    "part": pd.Series([], dtype="int64"), "rows": pd.Series([], dtype="int64"),
    "rows_out": pd.Series([], dtype="int64"), "bad_rows": pd.Series([], dtype="int64"),
    "deals": pd.Series([], dtype="int64"), "invalid_deals": pd.Series([], dtype="int64"),
    "disputes": pd.Series([], dtype="int64"), "categories": pd.Series([], dtype="object"),
    "uncontested": pd.Series([], dtype="int64"), "no_result": pd.Series([], dtype="int64"),
})


def _score_partition(frame: pd.DataFrame, schema: pa.Schema, options: ScoreOptions, parts_dir: str,
                     offset: int | None, split: pa.Array | None, loose_ends: list[tuple[bool, bool]],
                     partition_info: dict | None = None) -> pd.DataFrame:
    """Scores one partition (on a worker) into its part file; returns its stats."""
    number = partition_info["number"] if partition_info else 0
    table = partition_table(frame, schema)
    # Row numbers are shifted when assembling.
    result = score_table(table, 0, options, offset, split, loose_ends[number])
    Journal(parts_dir).write_part(number, result.table, result.errors)
    return pd.DataFrame({
        "part": [number], "rows": [table.num_rows], "rows_out": [result.table.num_rows],
        "bad_rows": [result.errors.num_rows], "deals": [result.deals],
        "invalid_deals": [result.invalid_deals], "disputes": [result.disputes],
        "categories": [json.dumps(result.categories)],
        "uncontested": [result.uncontested], "no_result": [result.no_result],
    })


def _write_in_order(futures: list, journal: Journal, output: str, fmt_out: str, progress: Progress) -> list[dict]:
    """Journal entries of the partitions, in order, writing each part to the
    output as soon as it and those before it are done (the cluster scores
    the next partitions meanwhile)."""
    writer = OutputWriter(output, fmt_out)
    entries: list[dict] = []
    rows = 0
    progress.begin("scoring", unit="partitions", total=len(futures))
    try:
        for done, future in enumerate(futures, 1):
            s = future.result().iloc[0]
            entries.append({
                "part": int(s.part), "rows_start": rows, "rows_end": rows + int(s.rows),
                "rows_out": int(s.rows_out), "bad_rows": int(s.bad_rows), "deals": int(s.deals),
                "invalid_deals": int(s.invalid_deals), "disputes": int(s.disputes),
                "categories": json.loads(s.categories), "row_shift": rows,
                "uncontested": int(s.uncontested), "no_result": int(s.no_result),
            })
            rows += int(s.rows)
            writer.put(read_arrow(journal.part_path(int(s.part))))
            progress.update(rows, done)
        writer.close()
    except BaseException:
        for future in futures:
            future.cancel()
        writer.abandon()
        journal.remove()
        raise
    return entries


def score_dask(input: str, output: str, fmt_in: str, fmt_out: str, options: ScoreOptions,
               errors: str | None, scheduler: str | None, workers: int, progress: Progress | None) -> ScoreSummary:
    """Scores a Parquet or CSV log on a Dask cluster (``scheduler``, e.g.
    ``tcp://host:8786``, or a LocalCluster of ``workers`` processes).
    Called by ``score_file(..., engine="dask")``."""
    check_dask_format(fmt_in)
    started = time.perf_counter()
    schema = read_schema(input, fmt_in, options.chunk_rows)  # cast to what the local engine reads, so outputs match
    journal = Journal.for_output(output)
    job = {"input": os.path.abspath(input), "engine": "dask"}
    journal.start(job, resume=False)
    try:
        with dask_client(scheduler, workers) as client:
            frame = dask_frame(input, fmt_in, schema)
            split, loose_ends = split_deals_of_frame(client, frame, schema, input)
            scored = frame.map_partitions(
                _score_partition, schema, options, journal.dir, line_offset(fmt_in), split, loose_ends,
                meta=_STATS_META, enforce_metadata=False,
            )
            futures = client.compute(scored.to_delayed())
            with csv_read_errors(input):  # a log without deal ids is first read here
                entries = _write_in_order(futures, journal, output, fmt_out, progress or Progress("none"))
        summary = assemble(journal, entries, input, output, errors, seconds=time.perf_counter() - started,
                           job=job, engine="dask")
    except BaseException:
        journal.remove()  # a Dask job is rerun from the start, never resumed: nothing to keep
        raise
    if progress is not None:
        progress.finish(summary.rows_in)
    return summary
