"""One call's record and the one place where exceptions become gRPC
statuses: the ``rpc`` wrapper every handler of the servicer wears.

The wrapper also decodes the request: handlers are registered without a
request deserializer, so bytes that are not a valid message are the call's
own INVALID_ARGUMENT, logged and counted like any other answer.  (A
deserializer that raises makes grpcio answer INTERNAL "Exception
deserializing request!" with no log line, and grpcio 1.85 kept about 19 KB
of every such call.)
"""

from __future__ import annotations

import functools
import inspect
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from ..errors import InvalidHandError
from .lifecycle import log
from .registration import REQUEST_TYPES, SERVICE


class BatchTooLarge(Exception):
    """A request over the server's --max-batch: RESOURCE_EXHAUSTED."""


@dataclass
class Call:
    """What the shared wrapper records about one call; handlers set ``hands``."""

    method: str
    start: float
    hands: int = 0
    code: grpc.StatusCode = grpc.StatusCode.OK


# The status travels in trailing metadata (16 KiB at most by default, the
# message twice: as is and in the BadRequest), so a message quoting a huge
# value from the request (a 200 kB player id) keeps its head and its tail,
# where the problem is named; uncut, the client got only "metadata size
# exceeds hard limit" instead of what was wrong.
MESSAGE_LIMIT = 2000


def _bounded(message: str) -> str:
    if len(message) <= MESSAGE_LIMIT:
        return message
    half = MESSAGE_LIMIT // 2
    return f"{message[:half]} [... {len(message) - 2 * half} characters cut ...] {message[-half:]}"


def _abort_invalid(context: grpc.ServicerContext, exc: InvalidHandError, default_field: str) -> NoReturn:
    field = _bounded(default_field if exc.field is None else exc.field)
    if exc.row is not None:
        field = f"{field}[{exc.row}]"
    message = _bounded(str(exc))
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]))
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail])
    context.abort_with_status(rpc_status.to_status(status))


def _abort_for(context: grpc.ServicerContext, call: Call, exc: Exception, default_field: str) -> NoReturn:
    """Sets ``call.code`` and aborts the call (raises)."""
    if isinstance(exc, InvalidHandError):
        call.code = grpc.StatusCode.INVALID_ARGUMENT
        _abort_invalid(context, exc, default_field)
    if isinstance(exc, BatchTooLarge):
        call.code = grpc.StatusCode.RESOURCE_EXHAUSTED
        context.abort(call.code, str(exc))
    # A bug, not the caller's fault: keep serving, say little.  The log gets
    # the exception's type and traceback, not its message: that can quote
    # the request (pybind11's "Invoked with: ..." repeats the cards), and
    # card contents never go to the log.
    log.error("internal error in %s: %s\n%s", call.method, type(exc).__name__,
              "".join(traceback.format_tb(exc.__traceback__)).rstrip())
    call.code = grpc.StatusCode.INTERNAL
    context.abort(call.code, f"internal error in {call.method}")


def decode(request_type: type[Message], data: bytes, where: str = "") -> Any:
    """The message in ``data``; InvalidHandError (field ``where``, "" for the
    whole request) when the bytes are not one."""
    try:
        return request_type.FromString(data)
    except DecodeError as exc:
        prefix = f"{where}: " if where else ""
        raise InvalidHandError(f"{prefix}the request is not a valid {request_type.DESCRIPTOR.full_name} message "
                               f"({exc})", field=where) from None


def rpc(default_field: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wraps one handler: error mapping, metrics, the log line.

    ``default_field`` names the request field an InvalidHandError without
    its own ``field`` is reported against (e.g. "cards").  Works for unary
    handlers (returning a response) and streaming ones (generators).
    """

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        method = handler.__name__
        request_type = REQUEST_TYPES[method]
        stream_of_requests = SERVICE.methods_by_name[method].client_streaming

        def requests(data: Any) -> Any:
            if stream_of_requests:  # each message decoded as the handler reaches it
                return (decode(request_type, item, f"batch[{index}]") for index, item in enumerate(data))
            return decode(request_type, data)

        if inspect.isgeneratorfunction(handler):
            @functools.wraps(handler)
            def streaming(self: Any, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                call = Call(method, time.perf_counter())
                try:
                    yield from handler(self, requests(request), context, call)
                    if not context.is_active():  # the client cancelled: its requests just ended
                        call.code = grpc.StatusCode.CANCELLED
                except GeneratorExit:  # the client went away mid-stream
                    call.code = grpc.StatusCode.CANCELLED
                    raise
                except Exception as exc:  # noqa: BLE001 - every error becomes a status
                    if not context.is_active():
                        call.code = grpc.StatusCode.CANCELLED
                        return
                    _abort_for(context, call, exc, default_field)
                finally:
                    self.observer.finish(call)

            return streaming

        @functools.wraps(handler)
        def unary(self: Any, request: Any, context: grpc.ServicerContext) -> Any:
            call = Call(method, time.perf_counter())
            try:
                response = handler(self, requests(request), context, call)
                if not context.is_active():  # cancelled (or past its deadline) while running
                    call.code = grpc.StatusCode.CANCELLED
                return response
            except Exception as exc:  # noqa: BLE001 - every error becomes a status
                _abort_for(context, call, exc, default_field)
            finally:
                self.observer.finish(call)

        return unary

    return wrap
