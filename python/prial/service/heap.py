"""Keeping the server's heap compact (glibc): free pages given back."""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable


def keep_the_heap_compact(stop: threading.Event, calls_finished: Callable[[], int],
                          every_seconds: float = 1.0, under_load_seconds: float = 30.0) -> None:
    """Keeps the server's RSS flat over time (glibc only).

    Batch buffers of a few MB come from glibc's heap arenas, which do not
    shrink by themselves: in a 5-minute soak (tools/soak.py) RSS grew 37%
    after warm-up.  malloc_trim(0), from a background thread (ctypes
    releases the GIL around it), gives the arenas' free pages back: every
    ``every_seconds`` while the server is idle (no call finished since the
    last look), every ``under_load_seconds`` while calls keep coming.
    Trimming every second under load, or capping the arenas at two, cost
    the big batches: their buffers' pages faulted in again on most calls
    (1M-hand Evaluate at 52-60M hands/s in most runs against 84-91M/s
    without; forcing every large buffer through mmap halved it).
    """
    try:
        malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return
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
