"""The server's log: one JSON object a line on stderr, each with its UTC
time and level.

Two kinds of writer share stderr.  prial's own lines go through the
``prial`` logger, whose formatter adds the time and level to each line of a
message (a message of JSON lines gets them on every line; any other text,
and a traceback, becomes one object).  gRPC core writes plain text lines of
its own (a bad TLS key, every failed TLS handshake) straight to file
descriptor 2, out of Python's reach: while the server runs, descriptor 2 is
a pipe that a relay thread reads, passing JSON lines on and wrapping the
others, so that nothing reaches the real stderr unwrapped.  Forked server
processes inherit the pipe, so the supervisor's relay serves them too.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
import time
import traceback
from datetime import datetime, timezone

LEVELS = {logging.DEBUG: "debug", logging.INFO: "info", logging.WARNING: "warning", logging.ERROR: "error",
          logging.CRITICAL: "critical"}
# gRPC core's lines: "E1203 17:01:08.185866    9566 add_port.cc:83] text".
_CORE_LINE = re.compile(r"^([DIWEF])\d{4} [\d:.]+\s+\d+ ([^\]]+)\] ?(.*)$")
_CORE_LEVELS = {"D": "debug", "I": "info", "W": "warning", "E": "error", "F": "critical"}


def utc(seconds: float) -> str:
    """``seconds`` since the epoch as UTC ISO 8601, to the millisecond."""
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def head(seconds: float, level: str) -> str:
    """The start of a line's object, up to its first own field."""
    return f'{{"time": "{utc(seconds)}", "level": "{level}", '


def _joined(start: str, line: str) -> str:
    """``line`` (a JSON object) with ``start``'s fields put first; a line
    that already says its time is left as it is."""
    if line.startswith('{"time"'):
        return line
    rest = line[1:].lstrip()
    return start + rest if rest != "}" else start.rstrip(", ") + "}"


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        start = head(record.created, LEVELS.get(record.levelno, "info"))
        message = record.getMessage()
        if message.startswith("{") and not record.exc_info:
            return "\n".join(_joined(start, line) for line in message.split("\n"))
        fields: dict[str, str] = {"event": "log", "message": message}
        if record.exc_info:
            fields["traceback"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return start + json.dumps(fields)[1:]


def configure_logging() -> None:
    """The ``prial`` logger, and the root logger's warnings, write JSON
    lines to stderr."""
    ours = logging.getLogger("prial")
    if not ours.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(JsonLines())
        ours.addHandler(handler)
        ours.setLevel(logging.INFO)
        ours.propagate = False
        # What grpcio and asyncio log (warnings and errors) in the same form.
        logging.getLogger().addHandler(handler)


def wrapped(line: str) -> str:
    """A line written to stderr by someone else, as a JSON line."""
    if line.startswith("{"):
        return line
    core = _CORE_LINE.match(line)
    if core:
        return head(time.time(), _CORE_LEVELS[core.group(1)]) + json.dumps(
            {"event": "grpc", "source": core.group(2), "message": core.group(3)})[1:]
    return head(time.time(), "warning") + json.dumps({"event": "stderr", "message": line})[1:]


class _Relay:
    """Descriptor 2 made a pipe whose lines a thread writes on to the real
    stderr as JSON lines."""

    def __init__(self) -> None:
        self.real = os.dup(2)
        self.read_fd, write_fd = os.pipe()
        os.dup2(write_fd, 2)
        os.close(write_fd)
        self.thread = threading.Thread(target=self._run, name="prial-stderr", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        with open(self.read_fd, "rb", buffering=0) as pipe, \
                open(self.real, "w", buffering=1, closefd=False, errors="replace") as out:
            pending = b""
            while chunk := pipe.read(1 << 16):
                *lines, pending = (pending + chunk).split(b"\n")
                out.write("".join(wrapped(line.decode(errors="replace")) + "\n" for line in lines if line.strip()))
            if pending.strip():
                out.write(wrapped(pending.decode(errors="replace")) + "\n")


_relay: _Relay | None = None


def relay_stderr() -> None:
    """From now on, whatever is written to descriptor 2 reaches stderr as
    JSON lines (until ``restore_stderr``)."""
    global _relay
    if _relay is None:
        _relay = _Relay()


def restore_stderr() -> None:
    """The real stderr back on descriptor 2, once every line written so far
    has gone through: call before the process exits, ``os._exit`` included.
    Processes forked meanwhile keep the pipe open only while they live."""
    global _relay
    relay, _relay = _relay, None
    if relay is None:
        return
    sys.stderr.flush()
    os.dup2(relay.real, 2)  # the pipe's last writer here closed: the relay reads to its end
    relay.thread.join(timeout=5)
    os.close(relay.real)


def leave_relay() -> None:
    """In a forked process: the parent's relay is the parent's (its thread
    did not come along); descriptor 2 stays the parent's pipe."""
    global _relay
    relay, _relay = _relay, None
    if relay is not None:
        os.close(relay.read_fd)
        os.close(relay.real)
