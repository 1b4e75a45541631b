"""The request headers' bound, held by the server itself, and the refusal
that interceptors answer with.

gRPC core advertises a header list of at most METADATA_LIMIT bytes and is
told to refuse more (``grpc.max_metadata_size``,
``grpc.absolute_max_metadata_size``), but it holds that only to a header
block sent in one frame: split over CONTINUATION frames, a 500 kB value or
60,000 headers reached the handlers.  So every call's headers are measured
again here, as HTTP/2 counts a header list (name, value and 32 bytes each),
and a call past the bound gets RESOURCE_EXHAUSTED before its request is
read.  The memory such headers took on the way is gRPC's; closing the gap
there is the front proxy's work (docs/service.md, "Limits")."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc

from .calls import Call, end
from .observability import Observer
from .registration import HANDLER_KINDS
from .request_id import REQUEST_ID, request_id

# Bytes of one call's header list (HTTP/2's measure), the bound gRPC advertises.
METADATA_LIMIT = 16 * 1024
HEADER_OVERHEAD = 32  # what HTTP/2 adds for each header


def refusal(handler: Any, method: str, observer: Observer, code: grpc.StatusCode, message: str) -> Any:
    """A handler of ``handler``'s kind that ends the call with ``code``
    without reading its request (nothing of a refused call is parsed)."""

    async def refuse(_requests: Any, context: grpc.aio.ServicerContext) -> None:
        call = Call(method, time.perf_counter(), code=code, request_id=request_id(context.invocation_metadata()))
        observer.finish(call)
        await end(context, code, message, ((REQUEST_ID, call.request_id),))

    make = HANDLER_KINDS[handler.request_streaming, handler.response_streaming]
    return make(refuse, request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer)


def metadata_size(metadata: tuple[tuple[str, str | bytes], ...]) -> int:
    return sum(len(key) + len(value) + HEADER_OVERHEAD for key, value in metadata)


class MetadataLimit(grpc.aio.ServerInterceptor):
    """Refuses, with RESOURCE_EXHAUSTED, every call (health checks
    included) whose headers come to more than ``limit`` bytes."""

    def __init__(self, observer: Observer, limit: int = METADATA_LIMIT) -> None:
        self._observer = observer
        self._limit = limit

    async def intercept_service(self, continuation: Callable[..., Any], details: grpc.HandlerCallDetails) -> Any:
        handler = await continuation(details)
        size = metadata_size(details.invocation_metadata or ())
        if handler is None or size <= self._limit:
            return handler
        return refusal(handler, details.method.rsplit("/", 1)[-1], self._observer,
                       grpc.StatusCode.RESOURCE_EXHAUSTED,
                       f"request headers of {size} bytes, over the limit of {self._limit}")
