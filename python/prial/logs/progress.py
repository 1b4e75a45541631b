"""How far a scoring job is, on stderr.

Three ways of showing it (``MODES``): a bar redrawn in place, for a
terminal; a line every few seconds, for a log file or a CI job, where
carriage returns would pile up; or nothing.  ``auto`` is the bar on a
terminal and the lines elsewhere.

How far is measured in what the job can know in advance: bytes read for
CSV and JSON Lines (their row count is unknown until the end), rows for
Parquet (its footer has the count), partitions for the Dask engine.  The
time left counts only this run's pace, so a resumed job's ETA is not
flattered by the rows an earlier run did.
"""

from __future__ import annotations

import sys
import time
from typing import Literal, TextIO, get_args

ProgressMode = Literal["auto", "bar", "log", "none"]
MODES: tuple[str, ...] = get_args(ProgressMode)
LOG_INTERVAL = 5.0  # seconds between two lines of the log mode


class Progress:
    """``update`` as work is done, ``finish`` once at the end."""

    WIDTH = 24
    BAR_INTERVAL = 0.2  # seconds between redraws of the bar

    def __init__(self, mode: ProgressMode = "auto", stream: TextIO | None = None, *, interval: float | None = None,
                 label: str = "prial score") -> None:
        if mode not in MODES:
            raise ValueError(f"progress mode must be one of {', '.join(MODES)}; got {mode!r}")
        self.stream = stream or sys.stderr
        self.mode: ProgressMode = ("bar" if self.stream.isatty() else "log") if mode == "auto" else mode
        self.label = label
        self.interval = interval if interval is not None else (self.BAR_INTERVAL if mode == "bar" else LOG_INTERVAL)
        self._drawn = False
        self.begin()

    def begin(self, stage: str = "", *, unit: str = "rows", total: float | None = None,
              resumed_rows: int = 0) -> None:
        """A stage of the job (its name, shown unless empty); what its
        fraction counts (``unit``: rows, bytes or partitions), how many
        there are, and the rows an earlier run already did."""
        if self.mode == "bar" and self._drawn:
            self.stream.write("\n")  # the bar of the stage before stays on screen
        self.stage, self.unit, self.total, self._resumed = stage, unit, total, resumed_rows
        self._drawn = False
        self.start = self._shown = time.perf_counter()

    def update(self, rows: int, done: float | None = None, *, force: bool = False) -> None:
        """``rows`` scored so far, and ``done`` of the total counted in the
        unit given to ``begin`` (rows when not given)."""
        if self.mode == "none":
            return
        now = time.perf_counter()
        if not force and now - self._shown < self.interval:
            return
        self._shown = now
        self._show(self._line(rows, rows if done is None else done, now - self.start))

    def finish(self, rows: int) -> None:
        if self.mode == "none":
            return
        elapsed = time.perf_counter() - self.start
        if self.mode == "bar":
            self._show(self._line(rows, self.total or 0, elapsed))
            self.stream.write("\n")
        else:
            self._show(f"{self.label}: done, {rows:,} rows in {elapsed:.1f} s")
        self.stream.flush()

    def _line(self, rows: int, done: float, elapsed: float) -> str:
        rate = f"{_si((rows - self._resumed) / elapsed if elapsed > 0 else 0.0)} rows/s"
        label = f"{self.label}: {self.stage}" if self.stage else self.label
        stage = f"{self.stage} " if self.stage else ""
        if not self.total:
            return f"{stage}{rows:,} rows  {rate}" if self.mode == "bar" else f"{label}: {rows:,} rows, {rate}"
        fraction = min(done / self.total, 1.0)
        # This run's pace: the part of ``done`` an earlier run did is in
        # proportion to its rows.
        ours = done * (1 - self._resumed / rows) if rows else 0.0
        eta = "ETA " + (_clock(elapsed * max(self.total - done, 0.0) / ours) if ours > 0 else "-:--:--")
        if self.mode == "bar":
            filled = int(fraction * self.WIDTH)
            return (f"{stage}[{'#' * filled}{'.' * (self.WIDTH - filled)}] {fraction:4.0%}  "
                    f"{rows:,} rows  {rate}  {eta}")
        return f"{label}: {fraction:.0%} of {self._amount(self.total)}, {rows:,} rows, {rate}, {eta}"

    def _amount(self, total: float) -> str:
        if self.unit == "bytes":
            return f"{_bytes(total)} read"
        return f"{total:,.0f} {self.unit}"

    def _show(self, line: str) -> None:
        self._drawn = True
        if self.mode == "bar":
            self.stream.write("\r" + line + " " * 4)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _si(value: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g}{unit}"
    return f"{value:.0f}"


def _bytes(value: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.2f} {unit}"
    return f"{value:.0f} B"


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
