"""A one-line progress bar on stderr (rows, rows/s, ETA), silent when the
stream is not a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    WIDTH = 24
    INTERVAL = 0.2  # seconds between redraws

    def __init__(self, total: int | None = None, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = total
        self.start = time.perf_counter()
        self._drawn = 0.0

    def update(self, rows: int, fraction: float | None = None, force: bool = False) -> None:
        """``rows`` done so far; ``fraction`` of the work done when the total
        row count is unknown (e.g. bytes read of a CSV)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._drawn < self.INTERVAL:
            return
        self._drawn = now
        elapsed = now - self.start
        if fraction is None and self.total:
            fraction = rows / self.total
        rate = rows / elapsed if elapsed > 0 else 0.0
        line = f"{rows:,} rows  {_si(rate)} rows/s"
        if fraction:
            fraction = min(fraction, 1.0)
            filled = int(fraction * self.WIDTH)
            eta = elapsed * (1 - fraction) / fraction
            line = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {fraction:4.0%}  {line}  ETA {_clock(eta)}"
        self.stream.write("\r" + line + " " * 4)
        self.stream.flush()

    def finish(self, rows: int) -> None:
        if self.enabled:
            self.update(rows, 1.0 if self.total or rows else None, force=True)
            self.stream.write("\n")
            self.stream.flush()


def _si(value: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.2f}{unit}"
    return f"{value:.0f}"


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
