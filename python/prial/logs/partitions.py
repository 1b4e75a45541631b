"""A log on Dask, for ``prial score`` and ``prial audit``: its partitions,
which never cut a deal, and the first pass over their deal ids.

Partitions are the input's own units: Parquet row groups / files, and
whole CSV files (``blocksize=None``: a CSV file is never cut mid-deal).
Each partition reports its first and last deal id, and if one deal
continues from a partition into the next the job stops with an error
naming the deal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pandas as pd
import pyarrow as pa

from .adjudicate import repeated_ids, run_ids
from .columns import DEAL_COLUMN
from .errors import LogError
from .io import InputReader


def check_dask_format(fmt: str) -> None:
    if fmt == "jsonl":
        raise LogError("the dask engine reads Parquet or CSV logs; use the local engine for JSON Lines")


def read_schema(input: str, fmt: str, chunk_rows: int,
                pick: Callable[[pa.Schema], list[str]] | None = None) -> pa.Schema:
    """The log's columns as the local engine reads them (those ``pick``
    names, if given), which each partition is cast to, so that both
    engines see the same table."""
    reader = InputReader(input, fmt, chunk_rows)
    reader.close()
    if pick is None:
        return reader.schema
    return pa.schema([reader.schema.field(name) for name in pick(reader.schema)])


def partition_table(frame: pd.DataFrame, schema: pa.Schema) -> pa.Table:
    """A partition (on a worker) as the local engine would have read it."""
    return pa.Table.from_pandas(frame, preserve_index=False).select(schema.names).cast(schema)


@contextmanager
def dask_client(scheduler: str | None, workers: int) -> Iterator:
    """A client of ``scheduler`` (e.g. ``tcp://host:8786``), or of a
    LocalCluster of ``workers`` processes, closed at the end."""
    from distributed import Client, LocalCluster

    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                  dashboard_address=None)
    try:
        with Client(scheduler or cluster) as client:
            yield client
    finally:
        if cluster is not None:
            cluster.close()


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
        raise LogError(f"cannot read {input} on the dask engine: {detail}; the local engine sends such a row "
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
    consecutive in the log (LogError for one cut by a partition boundary,
    which no partition can adjudicate whole), and each partition's
    ``loose_ends`` (``loose_ends_of``); LogError for a CSV row pandas
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
            raise LogError(
                f"deal {runs[index][0].as_py()!r} spans Dask partitions {index - 1} and {index}: each deal must "
                "lie within one partition (Parquet row groups / CSV files ending at deal boundaries)")
    return repeated_ids(runs), loose_ends_of(runs, [(first, last) for _ids, first, last in answers])
