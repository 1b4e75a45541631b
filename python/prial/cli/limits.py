"""Sizes too large for this machine, refused before any work starts.

A batch that cannot be allocated would end in a MemoryError deep in numpy
(or in the kernel's out-of-memory killer), a log that cannot fit on its
disk in a full disk hours later.  Each is refused up front in one line
naming the option, the size, what it would take and the largest that fits
here.  The figures per item are lower bounds, so nothing that fits is
refused.
"""

from __future__ import annotations

import os
import shutil

from .common import Failure


def _read_int(path: str) -> int | None:
    try:
        with open(path) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None  # absent, or "max"


def available_memory() -> int | None:
    """Bytes this process may still allocate (the system's available
    memory, or less under a container's limit); None where unknown."""
    found = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found = int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    if found is None and hasattr(os, "sysconf"):
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError):
            found = None
    limit, used = _read_int("/sys/fs/cgroup/memory.max"), _read_int("/sys/fs/cgroup/memory.current")
    if limit is not None and used is not None:
        found = limit - used if found is None else min(found, limit - used)
    return found


def size_text(count: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if count < 1000 or unit == "PB":
            return f"{count:,.0f} {unit}" if unit == "bytes" else f"{count:,.1f} {unit}"
        count /= 1000
    raise AssertionError  # the loop returns


def check_memory(option: str, count: int, bytes_each: int, what: str) -> None:
    """Failure if ``count`` items of ``bytes_each`` bytes (at least) cannot
    be held in this machine's available memory."""
    available = available_memory()
    if available is not None and count * bytes_each > available:
        raise Failure(f"{option} {count:,} is too large: {what} would need at least "
                      f"{size_text(count * bytes_each)} of memory, and {size_text(available)} is available "
                      f"(at most {available // bytes_each:,} here)")


def check_disk(option: str, count: int, bytes_each: int, what: str, path: str) -> None:
    """Failure if ``count`` items of ``bytes_each`` bytes (at least) cannot
    be written in the directory of ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return  # a missing directory is said by the writer
    if count * bytes_each > free:
        raise Failure(f"{option} {count:,} is too large: {what} would need at least "
                      f"{size_text(count * bytes_each)}, and {folder} has {size_text(free)} free "
                      f"(at most {free // bytes_each:,} here)")
