"""The server's heap (glibc): big buffers reused while calls come, free
pages given back when they stop."""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc's largest: half its per-thread heap size
TRIM_THRESHOLD = 128 << 20


def keep_the_heap_compact(stop: threading.Event, calls_finished: Callable[[], int],
                          every_seconds: float = 1.0, under_load_seconds: float = 30.0) -> None:
    """Keeps big batches fast and RSS flat over time (glibc only).

    Each big call allocates and frees buffers of a few MB (the request, the
    results, the response).  glibc's defaults give such buffers back to the
    system as soon as they are freed (their own mappings, or the top of a
    worker thread's heap cut off with madvise), so the next call faults
    every page in again: a third of the server's time on 1M-hand Evaluate
    calls went to page faults and zeroing, 20 ms a call against 12 ms with
    the thresholds below, which keep buffers up to 32 MiB on the heap and
    let free memory stay there (up to 128 MiB a heap) for the next call.

    What is then kept is given back by malloc_trim(0), from a background
    thread (ctypes releases the GIL around it): every ``every_seconds``
    while the server is idle (no call finished since the last look), every
    ``under_load_seconds`` while calls keep coming.  Trimming often under
    load would undo the reuse.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
        malloc_trim, mallopt = libc.malloc_trim, libc.mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    schedule = TrimSchedule(calls_finished(), time.monotonic(), under_load_seconds)

    def trim() -> None:
        while not stop.wait(every_seconds):
            if schedule.due(calls_finished(), time.monotonic()):
                malloc_trim(0)

    threading.Thread(target=trim, name="prial-malloc-trim", daemon=True).start()


class TrimSchedule:
    """Due at each look while no call has finished since the last one
    (idle), and at most every ``under_load_seconds`` otherwise."""

    def __init__(self, calls: int, now: float, under_load_seconds: float) -> None:
        self._calls, self._last_trim, self._under_load = calls, now, under_load_seconds

    def due(self, calls: int, now: float) -> bool:
        idle, self._calls = calls == self._calls, calls
        if idle or now - self._last_trim >= self._under_load:
            self._last_trim = now
            return True
        return False
