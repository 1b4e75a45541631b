"""What a server process and the supervisor share, free of gRPC: the
``prial.server`` logger and the port file."""

from __future__ import annotations

import logging
import os

log = logging.getLogger("prial.server")


def write_port_file(path: str, port: int) -> None:
    """Written atomically once the server accepts calls: readers poll for it."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(f"{port}\n")
    os.replace(tmp, path)


def configure_logging() -> None:
    """Log lines (JSON objects) to stderr, one per line."""
    root = logging.getLogger("prial")
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        root.propagate = False
