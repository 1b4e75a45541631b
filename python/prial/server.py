"""Running the prial.v1 gRPC server from Python, as ``prial serve`` does.

>>> from prial.server import ServeOptions, serve
>>> serve(ServeOptions(port=50051))   # doctest: +SKIP

``serve`` runs until SIGTERM/SIGINT (one process, or a supervisor of
``processes`` forked ones); ``build_server`` gives a configured, not yet
started ``grpc.Server`` for embedding.
"""

from .service.options import ServeOptions
from .service.process import build_server, serve_process
from .service.servicer import PrialService
from .service.supervisor import serve

__all__ = ["PrialService", "ServeOptions", "build_server", "serve", "serve_process"]
