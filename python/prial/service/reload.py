"""What a server reads from files and re-reads on SIGHUP, or when the
files change: its TLS certificate, key and client CA, and its bearer tokens.

A reload reads and checks every file before it keeps any: a file that will
not do (unreadable, not PEM, no token) leaves the server with what it had,
and says why in one log line.  A new certificate is taken by the next TLS
handshake (connections already made keep theirs); new tokens by the next
call."""

from __future__ import annotations

import asyncio
import json
import os
import threading

import grpc

from ..errors import ConfigurationError
from .lifecycle import log
from .options import ServeOptions, read_tokens
from .tls import certificate_configuration, serves_tls


class Credentials:
    """The secrets of one server process, as of the last (re)load."""

    def __init__(self, options: ServeOptions) -> None:
        self._options = options
        self._tls = serves_tls(options)
        self._lock = threading.Lock()
        self._new_certificate = False  # not yet handed to gRPC
        self.tokens: tuple[bytes, ...] = ()  # each "Bearer <token>", as the header must read
        self.certificate: grpc.ServerCertificateConfiguration | None = None
        self._load()
        self._new_certificate = False  # the first is gRPC's from the start
        self._seen = self._signature()

    def _files(self) -> list[str]:
        options = self._options
        return [path for path in (options.tls_cert, options.tls_key, options.tls_client_ca,
                                  options.auth_token_file) if path]

    def _signature(self) -> tuple[tuple[int, int, int, int], ...]:
        """What tells the files changed: each one's device, inode, size and
        modification time, through symbolic links (Kubernetes swaps a
        mounted Secret's link to a new directory).  A file gone counts as a
        change too."""
        found = []
        for path in self._files():
            try:
                stat = os.stat(path)
                found.append((stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns))
            except OSError:
                found.append((-1, -1, -1, -1))
        return tuple(found)

    async def watch(self, every_seconds: float) -> None:
        """Reloads whenever the files change, looking every
        ``every_seconds``; runs until cancelled.  A change seen while the
        files are half written reloads and fails, keeping the old secrets;
        the write that completes them is a change again."""
        if not self._files():
            return
        while True:
            await asyncio.sleep(every_seconds)
            seen = self._signature()
            if seen != self._seen:
                self._seen = seen
                self.reload(cause="files changed")

    def _load(self) -> None:
        """Every file read and checked, then all kept at once; ConfigurationError if one will not do."""
        options = self._options
        tokens = tuple(f"Bearer {t}".encode() for t in read_tokens(options.auth_token_file)) \
            if options.auth_token_file else ()
        certificate = certificate_configuration(options) if self._tls else None
        with self._lock:
            self.tokens, self.certificate = tokens, certificate
            self._new_certificate = certificate is not None

    def reload(self, cause: str = "SIGHUP") -> bool:
        """Re-reads the files; False, and one log line why, if one would not
        do: the old secrets are then kept."""
        try:
            self._load()
        except ConfigurationError as exc:
            log.warning(json.dumps({"event": "reload_failed", "cause": cause, "pid": os.getpid(),
                                    "reason": " ".join(str(exc).split()), "kept": "previous"}))
            return False
        log.info(json.dumps({"event": "reloaded", "cause": cause, "pid": os.getpid(), "tls": self._tls,
                             "tokens": len(self.tokens)}))
        return True

    def server_credentials(self) -> grpc.ServerCredentials | None:
        """TLS credentials that take the latest certificate at each
        handshake, or None to serve plaintext."""
        if self.certificate is None:
            return None
        return grpc.dynamic_ssl_server_credentials(
            self.certificate, self._fetch,  # type: ignore[arg-type]  # None is "no change" (grpcio's docs; not its stub)
            require_client_authentication=bool(self._options.tls_client_ca))

    def _fetch(self) -> grpc.ServerCertificateConfiguration | None:
        # Called by gRPC before each handshake: None keeps the one it has.
        with self._lock:
            if not self._new_certificate:
                return None
            self._new_certificate = False
            return self.certificate
