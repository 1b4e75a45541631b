"""What both clients share: the channel's settings, each call's deadline
and metadata, and the multicallables."""

from __future__ import annotations

from collections.abc import (
    Sequence,
)
from typing import Any, Literal

import grpc
import grpc.aio

from .._wire import MAX_MESSAGE_BYTES
from .calls import _EVALUATE_STREAM, _PROBE, _UNARY_METHODS
from .retries import RetryPolicy, _retry_options


class _Connection:
    """What both clients share: the channel's settings, each call's deadline
    and metadata, and the multicallables, all of them sending and receiving
    bytes (built and read by the ``_*_call`` functions below).  A client
    opens its kind of channel in ``_open`` and calls in its own way."""

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
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        retries: RetryPolicy | Literal[0] | None = RetryPolicy(),
        options: Sequence[tuple[str, int | str | bytes]] = (),
    ) -> None:
        # gRPC takes the first value given for an option: the caller's come first.
        channel_options: list[tuple[str, int | str | bytes]] = [
            *options,
            *([("grpc.ssl_target_name_override", server_name)] if server_name else []),
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
            *_retry_options(retries, max_message_bytes),
        ]
        credentials = (grpc.ssl_channel_credentials(root_certificates, private_key, certificate_chain)
                       if tls or root_certificates or certificate_chain else None)
        self._channel = self._open(target, credentials, channel_options)
        self._methods = {method: self._channel.unary_unary(method, _registered_method=True)
                         for method in _UNARY_METHODS}
        self._evaluate_stream = self._channel.stream_stream(_EVALUATE_STREAM, _registered_method=True)
        self._probe = self._channel.unary_unary(_PROBE)
        self._timeout = timeout
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()

    def _open(self, target: str, credentials: grpc.ChannelCredentials | None,
              options: Sequence[tuple[str, int | str | bytes]]) -> Any:
        raise NotImplementedError  # each client opens its own kind of channel

    def _deadline(self, timeout: float | None) -> float | None:
        return self._timeout if timeout is None else timeout
