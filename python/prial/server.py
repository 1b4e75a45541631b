"""Running the prial.v1 gRPC server from Python, as ``prial serve`` does.

>>> from prial.server import ServeOptions, serve
>>> serve(ServeOptions(port=50051))   # doctest: +SKIP

``serve`` runs until SIGTERM/SIGINT (one process, or a supervisor of
``processes`` forked ones, restarted when one dies) and raises
``StartupError`` or ``prial.ConfigurationError`` when it cannot start;
``build_server`` (a coroutine) gives a configured, not yet started
``grpc.aio.Server`` for embedding in an asyncio program.
"""

from .service.lifecycle import StartupError
from .service.options import ServeOptions
from .service.process import build_server, serve_process
from .service.servicer import PrialService
from .service.supervisor import serve

__all__ = ["PrialService", "ServeOptions", "StartupError", "build_server", "serve", "serve_process"]
