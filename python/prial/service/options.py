"""The options of ``prial serve`` (one frozen dataclass; the CLI and tests
build it).  No gRPC here: the pre-fork supervisor reads it before forking."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import ConfigurationError

MiB = 1 << 20


@dataclass(frozen=True)
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 50051
    workers: int | None = None  # threads per process handling calls; None: 4 per core
    processes: int = 1
    threads_per_call: int = 1  # native threads per batch (calls in parallel use the other cores)
    max_batch: int = 1 << 20  # hands per request (per batch of a stream)
    max_stream_batches: int = 1 << 20  # batches per EvaluateStream call (up to 2**40 hands)
    max_message_bytes: int = 64 * MiB  # both directions, both sides
    max_concurrent_rpcs: int | None = None  # per process; None: 4 x workers, at least 100
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_client_ca: str | None = None
    auth_token_file: str | None = None
    metrics_port: int | None = None
    grace_seconds: float = 10.0
    drain_seconds: float = 0.0
    keepalive_time_s: float = 60.0
    keepalive_timeout_s: float = 20.0
    max_connection_idle_s: float | None = None
    max_connection_age_s: float | None = None
    max_connection_age_grace_s: float | None = None
    port_file: str | None = None
    log_calls: bool = True

    def worker_threads(self) -> int:
        return self.workers or 4 * (os.cpu_count() or 1)


def read_option_file(option: str, path: str) -> bytes:
    """The bytes of a file an option names; ConfigurationError if unreadable."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise ConfigurationError(f"{option} {path}: cannot read it ({exc.strerror or exc})") from None
