"""The log formats ``prial score`` reads and writes, told from a file name.

Free of pyarrow, so the command line can offer them without loading it.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import LogError

FORMATS = ("parquet", "csv", "jsonl")
_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".jsonl": "jsonl",
             ".ndjson": "jsonl", ".json": "jsonl"}


def format_of_suffix(suffix: str) -> str | None:
    """The format a file extension (".csv") names, if any."""
    return _SUFFIXES.get(suffix.lower())


def detect_format(path: str | os.PathLike, explicit: str | None = None) -> str:
    if explicit:
        if explicit not in FORMATS:
            raise LogError(f"format must be one of {', '.join(FORMATS)}; got {explicit!r}")
        return explicit
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise LogError(f"cannot tell the format of {str(path)!r} from its extension; pass the format "
                         f"({', '.join(FORMATS)})")
    return _SUFFIXES[suffix]


def line_offset(fmt: str) -> int | None:
    """Text line of input row 0 (CSV: after the header), or None (Parquet)."""
    return {"csv": 2, "jsonl": 1}.get(fmt)
