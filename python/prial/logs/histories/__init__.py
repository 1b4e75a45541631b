"""Hand-history files (docs/histories.md, "Files"): histories written to
and read from JSON Lines, nested Parquet (a deal a row, its actions a list
of structs) and the flat form platforms export (an action a row, CSV or
Parquet), a bad record set aside with its line or row and the field at
fault.  The record itself, and its checks, are prial.table's."""

from .layout import FLAT, NESTED
from .read import CHUNK_ROWS, HistoryChunk, RecordError, iter_history_chunks, read_histories, read_tables
from .write import write_histories

__all__ = ["CHUNK_ROWS", "FLAT", "NESTED", "HistoryChunk", "RecordError", "iter_history_chunks", "read_histories",
           "read_tables", "write_histories"]
