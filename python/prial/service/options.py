"""The options of ``prial serve`` (one frozen dataclass; the CLI and tests
build it).  No gRPC here: the pre-fork supervisor reads it before forking."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .._wire import MAX_MESSAGE_BYTES
from ..errors import ConfigurationError
from ..evaluator import TABLE_CACHE_BYTES

MiB = 1 << 20
# Open files a server keeps for itself beside its connections (its tables,
# logs, pipes, the metrics port): the default cap on connections leaves
# them free, so that a flood of connections never starves the server.
FILES_KEPT = 100
# What a stopping server may take past drain + grace: the timer that forces
# its exit fires at half a second, and the interpreter's own exit after it
# is given the other half.
EXIT_MARGIN_S = 1.0


@dataclass(frozen=True)
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 50051
    workers: int | None = None  # threads per process for native work; None: one per core
    processes: int = 1
    threads_per_call: int = 1  # native threads per batch (calls in parallel use the other cores)
    max_batch: int = 1 << 20  # hands per request (per batch of a stream)
    max_stream_batches: int = 1 << 20  # batches per EvaluateStream call (up to 2**40 hands)
    max_message_bytes: int = MAX_MESSAGE_BYTES  # both directions, both sides
    max_concurrent_rpcs: int | None = None  # calls in flight per method and process; None: 8 x workers, at least 64
    max_bytes_in_flight: int = 256 * MiB  # memory for the work in flight per process (prial.service.calls)
    table_cache_bytes: int = TABLE_CACHE_BYTES  # the rulesets' tables kept between calls, per process
    idle_timeout_s: float = 30.0  # a call's next request message must come within this
    max_streams_per_connection: int = 100  # HTTP/2 streams a client may hold open on one connection
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_client_ca: str | None = None
    auth_token_file: str | None = None
    metrics_port: int | None = None
    grace_seconds: float = 10.0
    drain_seconds: float = 0.0
    keepalive_time_s: float = 60.0
    keepalive_timeout_s: float = 20.0
    max_connection_idle_s: float = 300.0  # a connection without calls this long is closed (a client reconnects)
    health_port: int | None = None  # the health service alone, plaintext (prial.service.probes)
    max_connections: int | None = None  # per process; None: the open-files limit less FILES_KEPT
    max_connection_age_s: float | None = None
    max_connection_age_grace_s: float | None = None
    port_file: str | None = None
    log_calls: bool = True
    reload_interval_s: float = 5.0  # how often the TLS and token files are looked at for a change; 0: SIGHUP only

    @property
    def max_samples(self) -> int:
        """Opponent hands one Monte Carlo Equity call may deal (samples x opponents)."""
        return 10 * self.max_batch

    @property
    def shutdown_seconds(self) -> float:
        """The longest a server takes to exit after SIGTERM: what a stop
        timeout (``docker stop -t``, terminationGracePeriodSeconds) must exceed."""
        return self.drain_seconds + self.grace_seconds + EXIT_MARGIN_S

    def worker_threads(self) -> int:
        """Threads of the pool that runs native work (the event loop answers the rest)."""
        return self.workers or (os.cpu_count() or 1)

    def connection_cap(self, open_files: int) -> int:
        """Connections one process accepts at once, under ``open_files`` (its limit)."""
        return self.max_connections or max(1, open_files - FILES_KEPT)

    def calls_per_method(self) -> int:
        return self.max_concurrent_rpcs or max(64, 8 * self.worker_threads())


def read_option_file(option: str, path: str) -> bytes:
    """The bytes of a file an option names; ConfigurationError if unreadable."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise ConfigurationError(f"{option} {path}: cannot read it ({exc.strerror or exc})", path) from None


def read_tokens(path: str, option: str = "--auth-token-file") -> list[str]:
    """The tokens of a token file (``option`` names it in errors): one a
    line, ``#`` comments."""
    try:
        text = read_option_file(option, path).decode()
    except UnicodeDecodeError:
        raise ConfigurationError(f"{option} {path}: not UTF-8 text", path) from None
    tokens = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not tokens:
        raise ConfigurationError(f"{option} {path} holds no token (one a line, # comments)", path)
    return tokens
