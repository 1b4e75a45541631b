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
client then assembles the parts in order, exactly as the local engine does,
so both engines give the same output.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
import pandas as pd
import pyarrow as pa

from ._score import DEAL_COLUMN, score_table
from ._score_io import InputReader, line_offset
from ._score_job import Journal, assemble, write_output_from_parts
from ._score_types import ScoreError, ScoreOptions, ScoreSummary

_STATS_META = pd.DataFrame({
    "part": pd.Series([], dtype="int64"), "rows": pd.Series([], dtype="int64"),
    "rows_out": pd.Series([], dtype="int64"), "bad_rows": pd.Series([], dtype="int64"),
    "deals": pd.Series([], dtype="int64"), "invalid_deals": pd.Series([], dtype="int64"),
    "disputes": pd.Series([], dtype="int64"), "categories": pd.Series([], dtype="object"),
    "first_deal": pd.Series([], dtype="object"), "last_deal": pd.Series([], dtype="object"),
})


def _score_partition(frame: pd.DataFrame, schema: pa.Schema, options: ScoreOptions, parts_dir: str,
                     offset: int | None, partition_info: dict | None = None) -> pd.DataFrame:
    """Scores one partition (on a worker) into its part file; returns its stats."""
    number = partition_info["number"] if partition_info else 0
    table = pa.Table.from_pandas(frame, preserve_index=False).select(schema.names).cast(schema)
    result = score_table(table, 0, options, offset)  # row numbers are shifted when assembling
    Journal(parts_dir).write_part(number, result)
    ids = table[DEAL_COLUMN] if DEAL_COLUMN in table.column_names and table.num_rows else None
    return pd.DataFrame({
        "part": [number], "rows": [table.num_rows], "rows_out": [result.table.num_rows],
        "bad_rows": [result.errors.num_rows], "deals": [result.deals],
        "invalid_deals": [result.invalid_deals], "disputes": [result.disputes],
        "categories": [json.dumps(result.categories)],
        "first_deal": [None if ids is None else repr(ids[0].as_py())],
        "last_deal": [None if ids is None else repr(ids[-1].as_py())],
    })


def score_dask(input: str, output: str, fmt_in: str, fmt_out: str, options: ScoreOptions,
               errors: str | None, scheduler: str | None, workers: int) -> ScoreSummary:
    """Scores a Parquet or CSV log on a Dask cluster (``scheduler``, e.g.
    ``tcp://host:8786``, or a LocalCluster of ``workers`` processes).
    Called by ``score_file(..., engine="dask")``."""
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    if fmt_in == "jsonl":
        raise ScoreError("the dask engine reads Parquet or CSV logs; use the local engine for JSON Lines")
    started = time.perf_counter()
    reader = InputReader(input, fmt_in, options.chunk_rows)
    schema = reader.schema  # cast to what the local engine reads, so outputs match
    reader.close()
    journal = Journal.for_output(output)
    journal.start({"input": os.path.abspath(input), "engine": "dask"}, resume=False)

    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1,
                                                  processes=True, dashboard_address=None)
    try:
        with Client(scheduler or cluster) as client:
            if fmt_in == "parquet":
                frame = dd.read_parquet(input, dtype_backend="pyarrow", split_row_groups=True)
            else:
                frame = dd.read_csv(input, blocksize=None, dtype_backend="pyarrow",
                                    dtype={name: "string[pyarrow]" for name in schema.names})
            stats = frame.map_partitions(
                _score_partition, schema, options, journal.dir, line_offset(fmt_in),
                meta=_STATS_META, enforce_metadata=False,
            ).compute()
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
    stats = stats.sort_values("part").reset_index(drop=True)
    for i in range(len(stats) - 1):
        last, first = stats.at[i, "last_deal"], stats.at[i + 1, "first_deal"]
        if last is not None and last == first:
            journal.remove()
            raise ScoreError(
                f"deal {last} spans Dask partitions {i} and {i + 1}: each deal must lie within one "
                "partition (Parquet row groups / CSV files ending at deal boundaries)")
    rows_start = np.concatenate([[0], np.cumsum(stats["rows"].to_numpy())])
    entries = [
        {"part": int(s.part), "rows_start": int(rows_start[i]), "rows_end": int(rows_start[i + 1]),
         "rows_out": int(s.rows_out), "bad_rows": int(s.bad_rows), "deals": int(s.deals),
         "invalid_deals": int(s.invalid_deals), "disputes": int(s.disputes),
         "categories": json.loads(s.categories), "row_shift": int(rows_start[i])}
        for i, s in enumerate(stats.itertuples())
    ]
    write_output_from_parts(journal, entries, output, fmt_out)
    return assemble(journal, entries, input, output, errors,
                    seconds=time.perf_counter() - started, engine="dask")
