"""The Prometheus endpoint: ``/metrics`` over plain HTTP, 404 on every
other path, on the same host forms as the gRPC port (IPv4, IPv6 in
brackets or not, ``::`` for both families).  No gRPC here: the pre-fork
supervisor serves it too."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from .lifecycle import StartupError, bind_sockets

PATH = "/metrics"


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    """Writes nothing: every line the server logs is JSON, and a scrape is
    not worth one."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


def _routed(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    def route(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != PATH:
            start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
            return [f"not found: the metrics are at {PATH}\n".encode()]
        return app(environ, start_response)

    return route


class MetricsEndpoint:
    """Serving ``registry`` on ``host:port`` from daemon threads, one
    listener per address the host names; StartupError naming the address
    and ``--metrics-port`` if one cannot be listened on."""

    def __init__(self, registry: Any, host: str, port: int) -> None:
        from prometheus_client import make_wsgi_app

        try:
            sockets = bind_sockets(host, port, reuse_port=False)
        except StartupError as exc:
            raise StartupError(f"{exc} (--metrics-port)") from None
        app = _routed(make_wsgi_app(registry))
        self._servers: list[_Server] = []
        for sock in sockets:
            server = _Server(sock.getsockname()[:2], _Quiet, bind_and_activate=False)
            server.socket.close()
            server.socket = sock  # the socket bound above, whatever its family
            server.server_address = sock.getsockname()
            server.server_name, server.server_port = str(server.server_address[0]), int(server.server_address[1])
            server.setup_environ()
            server.server_activate()
            server.set_app(app)
            self._servers.append(server)
            threading.Thread(target=server.serve_forever, name="prial-metrics", daemon=True).start()

    @property
    def port(self) -> int:
        return self._servers[0].server_port

    def close(self) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()

    def close_listeners(self) -> None:
        """Closes the listening sockets only (a forked child's copies; the
        threads serving them stayed in the parent)."""
        for server in self._servers:
            server.socket.close()
