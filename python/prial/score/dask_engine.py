"""``prial score --engine dask``: the same kernel over Dask partitions.

How deals are kept together: the kernel needs every deal whole, so each
deal must lie within one partition.  Partitions are the input's own units:
Parquet row groups / files, and whole CSV files (``blocksize=None``: a CSV
file is never cut mid-deal).  Write Parquet logs with row groups that end
at deal boundaries (e.g. sorted by ``deal_id``, row groups of whole deals).
This is enforced: each partition reports its first and last deal id, and
if one deal continues from a partition into the next the job stops with an
error naming the deal (nothing is written to the output).

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
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
import pyarrow as pa

from .adjudicate import repeated_ids, run_ids
from .chunk import score_table
from .columns import DEAL_COLUMN
from .formats import line_offset
from .io import InputReader
from .parts import Journal, OutputWriter, assemble, read_arrow
from .progress import Progress
from .types import ScoreError, ScoreOptions, ScoreSummary

_STATS_META = pd.DataFrame({
    "part": pd.Series([], dtype="int64"), "rows": pd.Series([], dtype="int64"),
    "rows_out": pd.Series([], dtype="int64"), "bad_rows": pd.Series([], dtype="int64"),
    "deals": pd.Series([], dtype="int64"), "invalid_deals": pd.Series([], dtype="int64"),
    "disputes": pd.Series([], dtype="int64"), "categories": pd.Series([], dtype="object"),
    "uncontested": pd.Series([], dtype="int64"), "no_result": pd.Series([], dtype="int64"),
})


def _partition_run_ids(frame: pd.DataFrame, id_type: pa.DataType) -> tuple[pa.Array, bool, bool]:
    """The deal id of each run of one partition, and whether its first and
    its last row have no id (on a worker)."""
    ids = pa.array(frame[DEAL_COLUMN], from_pandas=True).cast(id_type)
    return run_ids(ids), len(ids) > 0 and not ids[0].is_valid, len(ids) > 0 and not ids[-1].is_valid


def loose_ends_of(runs: list[pa.Array], edges: list[tuple[bool, bool]]) -> list[tuple[bool, bool]]:
    """For each partition: does a row without a deal id end the partition
    before it, begin the one after it (empty partitions skipped)?  Such a
    row may be one of the partition's first or last deal, which is then
    not adjudicated, as when the row is within a partition."""
    filled = [i for i, ids in enumerate(runs) if len(ids)]
    loose = [(False, False)] * len(runs)
    for k, i in enumerate(filled):
        loose[i] = (k > 0 and edges[filled[k - 1]][1], k + 1 < len(filled) and edges[filled[k + 1]][0])
    return loose


@contextmanager
def csv_read_errors(input: str) -> Iterator[None]:
    """A CSV row pandas cannot read (the wrong number of fields), said in
    one line: pandas stops there, where the local engine's reader sends
    such a row to the errors file."""
    try:
        yield
    except pd.errors.ParserError as exc:
        found = re.search(r"Expected \d+ fields in line \d+, saw \d+", str(exc))
        detail = found.group(0) if found else str(exc).strip().splitlines()[0]
        raise ScoreError(f"cannot read {input} on the dask engine: {detail}; the local engine sends such a row "
                         "to the errors file and goes on", status=1) from None


def dask_frame(input: str, fmt: str, schema: pa.Schema):
    """The log as a Dask frame whose partitions never cut a deal (Parquet
    row groups, whole CSV files); CSV columns read as text, as the local
    engine reads them."""
    import dask.dataframe as dd

    if fmt == "parquet":
        return dd.read_parquet(input, dtype_backend="pyarrow", split_row_groups=True)
    with csv_read_errors(input):  # it reads the first rows here
        return dd.read_csv(input, blocksize=None, dtype_backend="pyarrow",
                           dtype={name: "string[pyarrow]" for name in schema.names})


def split_deals_of_frame(client, frame, schema: pa.Schema,
                         input: str = "the log") -> tuple[pa.Array | None, list[tuple[bool, bool]]]:
    """A first pass over the deal ids: the deals whose rows are not
    consecutive in the log (ScoreError for one cut by a partition boundary,
    which no partition can adjudicate whole), and each partition's
    ``loose_ends`` (``loose_ends_of``); ScoreError for a CSV row pandas
    cannot read."""
    if DEAL_COLUMN not in schema.names:
        return None, [(False, False)] * frame.npartitions
    import dask

    id_type = schema.field(DEAL_COLUMN).type
    # The whole frame's partitions: a frame of the one column may be cut
    # into partitions of its own (Dask merges small row groups).
    parts = [dask.delayed(_partition_run_ids)(part, id_type) for part in frame.to_delayed()]
    with csv_read_errors(input):
        answers = client.gather(client.compute(parts))
    runs = [ids for ids, _first, _last in answers]
    for index in range(1, len(runs)):
        if (len(runs[index]) and len(runs[index - 1]) and runs[index][0].is_valid
                and runs[index][0] == runs[index - 1][-1]):
            raise ScoreError(
                f"deal {runs[index][0].as_py()!r} spans Dask partitions {index - 1} and {index}: each deal must "
                "lie within one partition (Parquet row groups / CSV files ending at deal boundaries)")
    return repeated_ids(runs), loose_ends_of(runs, [(first, last) for _ids, first, last in answers])


def _score_partition(frame: pd.DataFrame, schema: pa.Schema, options: ScoreOptions, parts_dir: str,
                     offset: int | None, split: pa.Array | None, loose_ends: list[tuple[bool, bool]],
                     partition_info: dict | None = None) -> pd.DataFrame:
    """Scores one partition (on a worker) into its part file; returns its stats."""
    number = partition_info["number"] if partition_info else 0
    table = pa.Table.from_pandas(frame, preserve_index=False).select(schema.names).cast(schema)
    # Row numbers are shifted when assembling.
    result = score_table(table, 0, options, offset, split, loose_ends[number])
    Journal(parts_dir).write_part(number, result)
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
    from distributed import Client, LocalCluster

    if fmt_in == "jsonl":
        raise ScoreError("the dask engine reads Parquet or CSV logs; use the local engine for JSON Lines")
    started = time.perf_counter()
    reader = InputReader(input, fmt_in, options.chunk_rows)
    schema = reader.schema  # cast to what the local engine reads, so outputs match
    reader.close()
    journal = Journal.for_output(output)
    job = {"input": os.path.abspath(input), "engine": "dask"}
    journal.start(job, resume=False)

    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1,
                                                  processes=True, dashboard_address=None)
    try:
        with Client(scheduler or cluster) as client:
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
    finally:
        if cluster is not None:
            cluster.close()
    if progress is not None:
        progress.finish(summary.rows_in)
    return summary
