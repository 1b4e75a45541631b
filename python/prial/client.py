"""A Python client for the prial gRPC service (``prial serve``).

>>> from prial.client import Client
>>> with Client("127.0.0.1:50051") as c:                      # doctest: +SKIP
...     c.evaluate(np.array([[7, 2, 50]], np.uint8)).strengths
array([716], dtype=uint16)

Batches go in and come out as numpy arrays; errors raise ``PrialRpcError``
carrying the status code and the BadRequest field violations.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import grpc
import numpy as np
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from ._errors import InvalidHandError
from ._prefork import MiB
from ._rpc_types import Evaluation, FieldViolation
from ._rules import Rules
from ._wire import rules_to_proto
from .v1 import prial_pb2 as pb
from .v1 import prial_pb2_grpc as pb_grpc

__all__ = ["Client", "Evaluation", "FieldViolation", "PrialRpcError"]

class PrialRpcError(Exception):
    """A call failed: ``code`` (grpc.StatusCode), ``message`` (the server's
    text) and, for INVALID_ARGUMENT, ``field_violations`` naming the request
    field and hand index."""

    def __init__(self, code: grpc.StatusCode, message: str,
                 field_violations: Sequence[FieldViolation] = ()) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message
        self.field_violations = tuple(field_violations)

    @property
    def hand_index(self) -> int | None:
        """The offending hand's index, from the first field violation."""
        for violation in self.field_violations:
            if violation.hand_index is not None:
                return violation.hand_index
        return None

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> PrialRpcError:
        violations: list[FieldViolation] = []
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        if status is not None:
            for detail in status.details:
                if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    violations.extend(FieldViolation(v.field, v.description) for v in bad.field_violations)
        return cls(error.code(), error.details() or "", violations)  # type: ignore[attr-defined]


class Client:
    """A connection to a prial server.

    ``target``: "host:port".  ``timeout``: default deadline in seconds for
    every call (None: no deadline; each method also takes ``timeout``).
    TLS: ``tls=True`` (system roots) or ``root_certificates`` (PEM bytes);
    mutual TLS adds ``certificate_chain`` and ``private_key``.  ``token``:
    the bearer token the server was given (``--auth-token-file``).
    ``max_message_bytes`` bounds both directions (default 64 MiB, the
    server's default: room for a 1M-hand batch).
    """

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        timeout: float | None = None,
        tls: bool = False,
        root_certificates: bytes | None = None,
        certificate_chain: bytes | None = None,
        private_key: bytes | None = None,
        server_name: str | None = None,
        token: str | None = None,
        max_message_bytes: int = 64 * MiB,
        options: Sequence[tuple[str, Any]] = (),
    ) -> None:
        channel_options = [
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
            *options,
        ]
        if server_name:
            channel_options.append(("grpc.ssl_target_name_override", server_name))
        if tls or root_certificates or certificate_chain:
            credentials = grpc.ssl_channel_credentials(root_certificates, private_key, certificate_chain)
            self._channel = grpc.secure_channel(target, credentials, options=channel_options)
        else:
            self._channel = grpc.insecure_channel(target, options=channel_options)
        self._stub = pb_grpc.PrialStub(self._channel)
        self._health = health_pb2_grpc.HealthStub(self._channel)
        self._timeout = timeout
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()

    # -- plumbing --------------------------------------------------------------

    def _call(self, method: Any, request: Any, timeout: float | None) -> Any:
        try:
            return method(request, timeout=self._deadline(timeout), metadata=self._metadata)
        except grpc.RpcError as error:
            raise PrialRpcError.from_rpc_error(error) from None

    def _deadline(self, timeout: float | None) -> float | None:
        return self._timeout if timeout is None else timeout

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- RPCs ------------------------------------------------------------------

    def evaluate(self, hands: np.ndarray | Sequence[str], *, rules: Rules | None = None,
                 describe: bool = False, timeout: float | None = None) -> Evaluation:
        """Ranks a batch: a uint8 array (N, 3|4|5) of card indices, or text
        hands.  Returns numpy arrays (see ``Evaluation``)."""
        response = self._call(self._stub.Evaluate, evaluate_request(hands, rules, describe), timeout)
        return evaluation_from(response)

    def evaluate_stream(self, batches: Iterable[np.ndarray | Sequence[str]], *, rules: Rules | None = None,
                        describe: bool = False, timeout: float | None = None) -> Iterator[Evaluation]:
        """Ranks batches over one stream; yields one Evaluation per batch, in
        order, while later batches are still being sent."""
        requests = (evaluate_request(batch, rules, describe) for batch in batches)
        try:
            for response in self._stub.EvaluateStream(requests, timeout=self._deadline(timeout),
                                                      metadata=self._metadata):
                yield evaluation_from(response)
        except grpc.RpcError as error:
            raise PrialRpcError.from_rpc_error(error) from None

    def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """The server's health status name for ``service`` ("" = the whole
        server, or "prial.v1.Prial"): "SERVING" or "NOT_SERVING"."""
        response = self._call(self._health.Check, health_pb2.HealthCheckRequest(service=service), timeout)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Blocks until the channel connects (or raises grpc.FutureTimeoutError)."""
        grpc.channel_ready_future(self._channel).result(timeout=timeout)


def evaluate_request(hands: np.ndarray | Sequence[str], rules: Rules | None, describe: bool) -> pb.EvaluateRequest:
    request = pb.EvaluateRequest(rules=rules_to_proto(rules), describe=describe)
    if isinstance(hands, np.ndarray):
        if hands.dtype != np.uint8 or hands.ndim != 2 or hands.shape[1] not in (3, 4, 5):
            raise InvalidHandError(
                f"hands must be a numpy uint8 array of shape (N, 3|4|5), got {hands.dtype} {hands.shape}")
        request.hand_size = hands.shape[1]
        request.cards = np.ascontiguousarray(hands).tobytes()
    elif isinstance(hands, str):
        raise InvalidHandError("hands must be a sequence of hands, not one string")
    else:
        request.hands.extend(hands)
    return request


def evaluation_from(response: pb.EvaluateResponse) -> Evaluation:
    return Evaluation(
        strengths=np.frombuffer(response.strengths, dtype="<u2").astype(np.uint16, copy=False),
        keys=np.frombuffer(response.keys, dtype="<u4").astype(np.uint32, copy=False) if response.keys else None,
        categories=np.frombuffer(response.categories, dtype=np.uint8),
        descriptions=list(response.descriptions) if response.descriptions else None,
        batch_index=response.batch_index,
    )
