"""Bearer-token authentication: an interceptor of its own."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

import grpc

from .headers import refusal
from .observability import Observer
from .registration import HEALTH_SERVICE_NAME
from .reload import Credentials


# Health checks with one answer: load balancers and orchestrators probe
# with them and need no secret.  A health Watch stream stays open as long
# as its client wants, so it needs a token like any call (gRPC's
# client-side health checking sends the channel's call credentials with it).
OPEN_METHODS = frozenset({f"/{HEALTH_SERVICE_NAME}/Check", f"/{HEALTH_SERVICE_NAME}/List"})


class BearerTokenAuth(grpc.aio.ServerInterceptor):
    """Rejects calls without ``authorization: Bearer <token>`` (one of the
    tokens in the file, one a line, as last (re)loaded) with UNAUTHENTICATED,
    but OPEN_METHODS."""

    def __init__(self, credentials: Credentials, observer: Observer) -> None:
        self._credentials = credentials
        self._observer = observer

    def _authorized(self, metadata: tuple[tuple[str, str | bytes], ...]) -> bool:
        for key, value in metadata:
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else value
                # compare_digest against every token: no early exit leaks which matched.
                return any([hmac.compare_digest(given, t) for t in self._credentials.tokens])
        return False

    async def intercept_service(self, continuation: Callable[..., Any], details: grpc.HandlerCallDetails) -> Any:
        handler = await continuation(details)
        if handler is None or details.method in OPEN_METHODS:
            return handler
        if self._authorized(details.invocation_metadata or ()):
            return handler
        # The request is never read: nothing of an unauthenticated call is parsed.
        return refusal(handler, details.method.rsplit("/", 1)[-1], self._observer,
                       grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")
