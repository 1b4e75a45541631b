"""What a server process and the supervisor share, free of gRPC: the
``prial.server`` logger, the port file, and the checks and errors of start-up
(so that a server that cannot start says why in one line)."""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import resource
import signal
import socket
import sys

from ..errors import ConfigurationError, Error
from .options import ServeOptions, read_option_file

log = logging.getLogger("prial.server")

# What stops a server, its processes and their supervisor.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
# What makes a server re-read its certificate and tokens; the supervisor
# passes it on to its processes.  Never a stop: its default action would be.
RELOAD_SIGNAL = signal.SIGHUP


class StartupError(Error):
    """The server cannot start for a reason outside its configuration files
    (the address cannot be listened on).  The message is one line."""


def write_port_file(path: str, port: int) -> None:
    """Written atomically once the server accepts calls: readers poll for it."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(f"{port}\n")
    os.replace(tmp, path)


def ignore_reloads() -> None:
    """SIGHUP ignored until a server installs its handler: by default it
    would kill the process, with its calls in flight."""
    signal.signal(RELOAD_SIGNAL, signal.SIG_IGN)


def raise_open_files_limit() -> None:
    """The soft limit of open files raised to the hard one: each connection
    holds a file, and at the usual soft 1,024 a thousand idle connections
    left health checks unanswered.  The server's ``serving`` line tells the
    limit in force (``open_files``)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (OSError, ValueError):  # a hard limit the kernel will not give (past fs.nr_open)
            pass


def open_files_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


PR_SET_PDEATHSIG = 1  # prctl(2)


def stop_with_parent(parent: int) -> None:
    """This process (a forked server) is sent SIGTERM when ``parent`` (its
    supervisor) dies, however it dies: served by no one, it would keep its
    port and never be restarted or stopped.  Exits at once if the parent is
    already gone (it died before the request was made).  Linux only;
    elsewhere a no-op."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:
        os._exit(0)


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


def host_port(host: str, port: int) -> str:
    """``host:port`` as gRPC and URLs take it: an IPv6 address in brackets
    (``--host ::`` and ``--host [::]`` alike give ``[::]:50051``)."""
    bare = _socket_host(host)
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


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
    address = host_port(host, port)
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
            if family == socket.AF_INET6 and sockaddr[0] == "::" and len(infos) == 1:
                # "::" takes IPv4 as well (dual stack), as gRPC's listener does,
                # whatever the system's default (net.ipv6.bindv6only).
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
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
        return StartupError(f"cannot listen on {host_port(options.host, options.port)}{why}")
    return None
