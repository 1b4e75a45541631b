"""``prial replay --engine dask``: a nested Parquet log's row groups
replayed on Dask workers, their findings written by the client in the
log's order through the local engine's writer, so both engines give the
same files, byte for byte.

A task is a run of whole row groups of at least a chunk's rows: it reads
them from the log itself (so the log must be where the workers can read
it) and hands back its findings and bad records as Arrow tables.  Each
worker replays with one native thread unless ``threads`` says otherwise:
the cluster's processes are the parallelism.  No --resume: a failed Dask
job is rerun."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..logs.errors import LogError
from ..logs.partitions import dask_client
from ..table import TableRules
from .source import Chunk, chunks, nested_file


def _replay_groups(path: str, fmt: str, tables: Mapping[str, TableRules] | None, rows: int, threads: int | None,
                   first: int, last: int) -> list[Chunk]:
    """Rows ``first`` to ``last`` of the log (whole row groups), on a worker."""
    out = []
    for chunk in chunks(path, fmt, tables, rows, threads, first):
        out.append(chunk)
        if chunk.records >= last:
            break
    return out


def pieces(row_groups: list[int], rows: int) -> list[tuple[int, int]]:
    """(first row, end row) of runs of whole row groups of at least ``rows`` rows."""
    out: list[tuple[int, int]] = []
    start = end = 0
    for size in row_groups:
        end += size
        if end - start >= rows:
            out.append((start, end))
            start = end
    if end > start:
        out.append((start, end))
    return out


def replay_dask(path: str, fmt: str, tables: Mapping[str, TableRules] | None, rows: int, threads: int | None,
                scheduler: str | None, workers: int) -> Iterator[Chunk]:
    """The chunks of the log, replayed on the cluster, in the log's order."""
    file = nested_file(path, fmt)
    if file is None:
        raise LogError("the Dask engine replays nested Parquet logs; replay this one with the local engine")
    meta = file.metadata
    runs = pieces([meta.row_group(g).num_rows for g in range(meta.num_row_groups)], rows)

    def replayed() -> Iterator[Chunk]:
        import dask  # noqa: F401  (named first when missing)

        with dask_client(scheduler, workers) as client:
            futures = [client.submit(_replay_groups, path, fmt, tables, rows, threads or 1, first, end, pure=False)
                       for first, end in runs]
            try:
                for future in futures:
                    yield from future.result()
            finally:
                for future in futures:
                    future.cancel()

    return replayed()
