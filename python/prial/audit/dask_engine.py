"""``prial audit --engine dask``: each partition scored and tallied on a
worker, the tallies (kilobytes each, whatever the partition's size) added
up on the client in partition order.  Deals must lie within one
partition, as for scoring (``prial.score.dask_engine``)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

from ..score.dask_engine import csv_read_errors, dask_frame, split_deals_of_frame
from ..score.io import InputReader
from ..score.progress import Progress
from ..score.types import ScoreError
from .options import AuditOptions, audit_columns
from .passes import tally_table
from .tally import Tally


def _partition_tally(frame: pd.DataFrame, schema: pa.Schema, options: AuditOptions,
                     split: pa.Array | None, loose_ends: tuple[bool, bool]) -> Tally:
    """One partition's tally (on a worker)."""
    table = pa.Table.from_pandas(frame, preserve_index=False).select(schema.names).cast(schema)
    return tally_table(table, options, split, loose_ends)


def audit_dask(input: str, fmt: str, options: AuditOptions, scheduler: str | None, workers: int,
               progress: Progress) -> Tally:
    """The tally of a Parquet or CSV log, on ``scheduler`` or a
    LocalCluster of ``workers`` processes."""
    import dask
    from distributed import Client, LocalCluster

    if fmt == "jsonl":
        raise ScoreError("the dask engine reads Parquet or CSV logs; use the local engine for JSON Lines")
    reader = InputReader(input, fmt, options.chunk_rows)
    schema = pa.schema([reader.schema.field(name) for name in audit_columns(reader.schema, options)])
    reader.close()
    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                  dashboard_address=None)
    tally = Tally(by=options.by, limit=options.limit)
    try:
        with Client(scheduler or cluster) as client:
            frame = dask_frame(input, fmt, schema)[schema.names]
            split, loose_ends = split_deals_of_frame(client, frame, schema, input)
            futures = client.compute([dask.delayed(_partition_tally)(part, schema, options, split, ends)
                                      for part, ends in zip(frame.to_delayed(), loose_ends)])
            progress.begin("auditing", unit="partitions", total=len(futures))
            try:
                for done, future in enumerate(futures, 1):
                    with csv_read_errors(input):  # a log without deal ids is first read here
                        tally.add(future.result())
                    progress.update(tally.rows, done)
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        if cluster is not None:
            cluster.close()
    progress.finish(tally.rows)
    return tally
