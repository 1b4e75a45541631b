"""RetryPolicy: how a call the server did not answer is tried again, as
gRPC's own retries in the channel's service config."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Literal

import grpc
import grpc.aio

from ..errors import ConfigurationError
from .calls import _HEALTH, _PRIAL


@dataclass(frozen=True)
class RetryPolicy:
    """How a call that failed with one of ``codes`` is tried again.

    Every prial RPC is a pure function of its request, so a call can always
    be tried again.  UNAVAILABLE, the one code retried by default, says the
    call did not get an answer from a server: none was listening, the
    connection failed or broke, the server was shutting down.  Other codes
    are answers and would come again; RESOURCE_EXHAUSTED in particular is
    a request over a limit or a server at its limits, where calling again
    at once adds load where there is too much already.

    ``max_attempts`` counts the first attempt: 2 to 5 (gRPC tries a call at
    most 5 times).  After attempt n failed, attempt n + 1 starts
    ``initial_backoff * backoff_multiplier ** (n - 1)`` seconds later, at
    most ``max_backoff``, each backoff drawn within 20% either way.  The
    call's timeout covers every attempt and backoff: a call whose deadline
    comes first ends with DEADLINE_EXCEEDED, or UNAVAILABLE with the
    connection's error where the channel could not connect at all.  A stream is tried again only
    until its first answer arrives.  The retries are gRPC's own (set in the
    channel's service config); the channel also reconnects to a server that
    went away at the same pace, at most ``max_backoff`` apart, so that an
    attempt finds it once it is back.
    """

    max_attempts: int = 5
    initial_backoff: float = 0.2
    max_backoff: float = 2.0
    backoff_multiplier: float = 2.0
    codes: tuple[grpc.StatusCode, ...] = (grpc.StatusCode.UNAVAILABLE,)

    def __post_init__(self) -> None:
        attempts = self.max_attempts
        if isinstance(attempts, bool) or not isinstance(attempts, int) or not 2 <= attempts <= _MAX_ATTEMPTS:
            raise ConfigurationError(f"RetryPolicy max_attempts must be a whole number from 2 to {_MAX_ATTEMPTS} "
                                     f"(gRPC tries a call at most {_MAX_ATTEMPTS} times), got {attempts!r}")
        for name, least in (("initial_backoff", 0.001), ("max_backoff", self.initial_backoff),
                            ("backoff_multiplier", 1.0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not least <= value < math.inf:
                raise ConfigurationError(f"RetryPolicy {name} must be a finite number of at least {least:g}, "
                                         f"got {value!r}")
        codes = tuple(self.codes)
        if not codes or not all(isinstance(c, grpc.StatusCode) and c != grpc.StatusCode.OK for c in codes):
            raise ConfigurationError(f"RetryPolicy codes must be grpc.StatusCode values other than OK, "
                                     f"got {self.codes!r}")
        object.__setattr__(self, "codes", codes)

    def _channel_options(self, max_message_bytes: int) -> list[tuple[str, int | str]]:
        """The channel options that make gRPC retry as this policy says."""
        retry = {
            "maxAttempts": self.max_attempts,
            "initialBackoff": _duration(self.initial_backoff),
            "maxBackoff": _duration(self.max_backoff),
            "backoffMultiplier": self.backoff_multiplier,
            "retryableStatusCodes": [code.name for code in self.codes],
        }
        config = {"methodConfig": [{"name": [{"service": _PRIAL}, {"service": _HEALTH}], "retryPolicy": retry}]}
        return [
            ("grpc.enable_retries", 1),
            ("grpc.service_config", json.dumps(config)),
            # gRPC keeps a request for another attempt up to this size, 256 KiB by
            # default: a batch of more than 87,000 three-card hands was never retried.
            ("grpc.per_rpc_retry_buffer_size", max_message_bytes),
            # A failed connection is tried again after 1 s, then ever later (up to
            # 2 min): attempts meanwhile fail at once, even with the server back.
            ("grpc.initial_reconnect_backoff_ms", _millis(self.initial_backoff)),
            ("grpc.max_reconnect_backoff_ms", _millis(self.max_backoff)),
        ]


_MAX_ATTEMPTS = 5


def _duration(seconds: float) -> str:
    return f"{seconds:.9f}".rstrip("0").rstrip(".") + "s"  # the JSON form of a google.protobuf.Duration


def _millis(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _retry_options(retries: RetryPolicy | Literal[0] | None, max_message_bytes: int) -> list[tuple[str, int | str]]:
    if isinstance(retries, RetryPolicy):
        return retries._channel_options(max_message_bytes)
    if retries is None or (isinstance(retries, int) and retries == 0):
        return [("grpc.enable_retries", 0)]
    raise TypeError(f"retries must be a RetryPolicy, or None or 0 for none, got {retries!r}")
