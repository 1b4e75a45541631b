"""``prial audit --engine dask``: each partition scored and tallied on a
worker, the tallies (kilobytes each, whatever the partition's size) added
up on the client in partition order.  Deals must lie within one
partition, as for scoring (``prial.logs.partitions``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..logs.partitions import (check_dask_format, csv_read_errors, dask_client, dask_frame, partition_table,
                               read_schema, split_deals_of_frame)
from ..logs.progress import Progress
from .options import AuditOptions, audit_columns
from .passes import tally_table
from .tally import Tally

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa


def _partition_tally(frame: pd.DataFrame, schema: pa.Schema, options: AuditOptions,
                     split: pa.Array | None, loose_ends: tuple[bool, bool]) -> Tally:
    """One partition's tally (on a worker)."""
    return tally_table(partition_table(frame, schema), options, split, loose_ends)


def audit_dask(input: str, fmt: str, options: AuditOptions, scheduler: str | None, workers: int,
               progress: Progress) -> Tally:
    """The tally of a Parquet or CSV log, on ``scheduler`` or a
    LocalCluster of ``workers`` processes."""
    import dask

    check_dask_format(fmt)
    schema = read_schema(input, fmt, options.chunk_rows, lambda log: audit_columns(log, options))
    tally = Tally(by=options.by, limit=options.limit)
    with dask_client(scheduler, workers) as client:
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
    progress.finish(tally.rows)
    return tally
