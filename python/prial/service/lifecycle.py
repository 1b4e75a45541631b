"""What a server process and the supervisor share, free of gRPC: the
``prial.server`` logger, the port file, and the checks and errors of start-up
(so that a server that cannot start says why in one line)."""

from __future__ import annotations

import errno
import logging
import os
import signal
import socket

from ..errors import ConfigurationError
from .options import ServeOptions, read_option_file

log = logging.getLogger("prial.server")

# What stops a server, its processes and their supervisor.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StartupError(Exception):
    """The server cannot start for a reason outside its configuration files
    (the address cannot be listened on).  The message is one line."""


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


def check_files(options: ServeOptions) -> None:
    """Every file an option names is readable, else ConfigurationError naming
    the option and the file.  Run before forking; what the files hold (PEM,
    tokens) is checked where they are used."""
    for option, path in (("--tls-cert", options.tls_cert), ("--tls-key", options.tls_key),
                         ("--tls-client-ca", options.tls_client_ca),
                         ("--auth-token-file", options.auth_token_file)):
        if path:
            read_option_file(option, path)


def _socket_host(host: str) -> str:
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def _reason(exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return "address in use"
    return (exc.strerror or str(exc)).lower()


def bind_sockets(host: str, port: int, *, reuse_port: bool) -> list[socket.socket]:
    """Sockets bound (not listening) to ``host:port``, one per address the
    host names, with the options gRPC gives its own listeners.  StartupError
    ``cannot listen on host:port: why`` if an address is taken (or the port
    is privileged), or if no address can be had at all (an address the
    machine lacks, such as IPv6 for ``localhost``, is skipped as gRPC does)."""
    address = f"{host}:{port}"
    try:
        infos = socket.getaddrinfo(_socket_host(host) or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise StartupError(f"cannot listen on {address}: {exc.strerror.lower()}") from None
    bound: list[socket.socket] = []
    failures: list[OSError] = []
    for family, kind, proto, _, sockaddr in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(sockaddr)
        except OSError as exc:
            sock.close()
            failures.append(exc)
        else:
            bound.append(sock)
    fatal = [f for f in failures if f.errno in (errno.EADDRINUSE, errno.EACCES)]
    if fatal or not bound:
        for sock in bound:
            sock.close()
        raise StartupError(f"cannot listen on {address}: {_reason((fatal or failures)[0])}")
    return bound


def check_address(host: str, port: int, *, reuse_port: bool) -> None:
    """StartupError now, before gRPC's own bind fails with a traceback and
    no reason, if ``host:port`` cannot be listened on."""
    for sock in bind_sockets(host, port, reuse_port=reuse_port):
        sock.close()


def startup_failure(exc: BaseException, options: ServeOptions) -> ConfigurationError | StartupError | None:
    """The one-line error a start-up exception stands for, or None for an
    unexpected one (a bug: let its traceback show)."""
    if isinstance(exc, (ConfigurationError, StartupError)):
        return exc
    message = str(exc)
    # gRPC's bind failure ("Failed to bind to address ...") carries no reason:
    # find it by binding the address ourselves.
    if (isinstance(exc, RuntimeError) and message.startswith("Failed to bind")) or \
            (isinstance(exc, OSError) and message.startswith("cannot listen on")):
        try:
            check_address(options.host, options.port, reuse_port=options.processes > 1)
        except StartupError as found:
            return found
        why = ": are --tls-cert and --tls-key a PEM certificate and its key?" if options.tls_cert else ""
        return StartupError(f"cannot listen on {options.host}:{options.port}{why}")
    return None
