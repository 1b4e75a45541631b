"""Python clients for the prial gRPC service (``prial serve``): ``Client``,
whose calls block, and ``AsyncClient``, the same for asyncio.

>>> from prial.client import Client
>>> with Client("127.0.0.1:50051") as c:                      # doctest: +SKIP
...     c.evaluate(np.array([[7, 2, 50]], np.uint8)).strengths
array([716], dtype=uint16)

Batches go in and come out as numpy arrays; errors raise ``PrialRpcError``
carrying the status code and the BadRequest field violations.  A call the
server did not answer (UNAVAILABLE) is tried again as ``RetryPolicy`` says.

The package's floors, each standing on the ones before: ``errors`` (what a
failed call raises), ``calls`` (each RPC's request and result, for both
clients), ``streams``, ``retries``, ``connection`` (the channel both
clients share), then ``sync`` (``Client``) and ``aio`` (``AsyncClient``).
Adding an RPC on the client's side: its call function in ``calls`` (the
request from the arguments, the result from the response), then a method
in ``sync`` and in ``aio`` that returns ``self._unary(call, timeout)``;
docs/design.md has the server's side.
"""

from .._wire.table import TableState
from .aio import AsyncClient
from .calls import Evaluation
from .calls import evaluate_request as evaluate_request  # request helpers for tools/soak.py and the wire tests
from .calls import evaluate_request_bytes as evaluate_request_bytes
from .calls import evaluation_from as evaluation_from
from .errors import FieldViolation, PrialRpcError
from .retries import RetryPolicy
from .sync import Client

__all__ = ["AsyncClient", "Client", "Evaluation", "FieldViolation", "PrialRpcError", "RetryPolicy", "TableState"]
