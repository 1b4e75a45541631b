"""One call's way through the server, in one place: waiting for its request,
admission, decoding, running the handler (on the event loop or in the
bounded pool), cancellation, and turning every outcome into a status,
a metric and a log line.  Every method of the servicer wears ``rpc``.

The server is a ``grpc.aio`` one: a call that waits for its client (an
idle stream, a request that never comes) costs no thread; blocking native
work runs in a bounded thread pool, so health checks and small calls keep
being answered while big ones run.

Requests arrive as bytes (no deserializer is registered) and are decoded
here, so bytes that are not a valid message are the call's own
INVALID_ARGUMENT, logged and counted like any other answer.  (A
deserializer that raises makes grpcio answer INTERNAL "Exception
deserializing request!" with no log line, and grpcio 1.85 kept about 19 KB
of every such call.)  Unary methods are registered as client-streaming
ones, the same bytes on the wire, so that a call whose request never
arrives is seen, and ended after the idle limit.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import threading
import time
import traceback
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent import futures
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc._cython.cygrpc import _ServerStoppedError as _SERVER_STOPPED  # what a read raises once stopped
from grpc_status import rpc_status

from .._core import CancelFlag
from ..errors import ConfigurationError, InvalidHandError
from .lifecycle import log
from .registration import REQUEST_TYPES, SERVICE
from .request_id import REQUEST_ID, request_id

# Requests up to this size are decoded and answered on the event loop
# (microseconds of work: a thread hand-off would cost more); larger ones,
# and every call of the OFFLOADED methods, in the pool.
INLINE_BYTES = 4096
OFFLOADED = frozenset({"Partition", "Odds", "Equity"})  # can take long whatever their size
# The memory a request's work takes, per byte of the request: its bytes,
# their decoded copy and the results and response built from them.  Measured
# on one 1M-hand call each: 7.7 (Evaluate, three cards), 8.7 (five cards),
# 5.7 (ShowdownBatch).  Text hands take more, reserved by their handler.
MEMORY_PER_REQUEST_BYTE = 10
# The google.rpc.ErrorInfo domain of the reasons prial gives.
ERROR_DOMAIN = "prial"


class ResourceExhausted(Exception):
    """Over one of the server's limits: RESOURCE_EXHAUSTED."""


class FailedPrecondition(Exception):
    """A request that is well formed but refused in the state it finds (an
    action the table's rules do not allow now): FAILED_PRECONDITION, with a
    google.rpc.ErrorInfo whose ``reason`` is a stable code a client can act
    on, and ``metadata`` saying where."""

    def __init__(self, message: str, reason: str, metadata: Mapping[str, str]) -> None:
        super().__init__(message)
        self.reason = reason
        self.metadata = dict(metadata)


class Admission:
    """Calls in flight per method (a stream counts from its first request to
    its end), and the memory of the work in flight in all.

    Per method, so that calls of one kind held open (idle streams, say)
    never shut out another kind; health checks are outside it altogether.
    Calls are counted on the event loop's thread only; memory is reserved
    from the pool's threads too, under a lock.
    """

    def __init__(self, calls_per_method: int, bytes_in_flight: int) -> None:
        self.calls_per_method = calls_per_method
        self.bytes_in_flight = bytes_in_flight
        self._calls: collections.Counter[str] = collections.Counter()
        self._bytes = 0
        self._lock = threading.Lock()

    def start_call(self, method: str) -> None:
        if self._calls[method] >= self.calls_per_method:
            raise ResourceExhausted(f"{self.calls_per_method} {method} calls are in flight; this server takes "
                                    f"at most {self.calls_per_method} at once")
        self._calls[method] += 1

    def end_call(self, method: str) -> None:
        self._calls[method] -= 1

    def take_bytes(self, size: int, what: str) -> None:
        with self._lock:
            if self._bytes + size > self.bytes_in_flight:
                raise ResourceExhausted(f"{what} needs {size} bytes of memory to answer, which would take the "
                                        f"server past its budget of {self.bytes_in_flight} bytes in flight")
            self._bytes += size

    def give_bytes(self, size: int) -> None:
        with self._lock:
            self._bytes -= size


@dataclass
class Call:
    """What the shared wrapper records about one call; handlers set
    ``hands``, give ``cancel`` to long native work and ``reserve`` memory
    their work takes beyond what the wrapper reserved for the request."""

    method: str
    start: float
    hands: int = 0
    code: grpc.StatusCode = grpc.StatusCode.OK
    cancel: CancelFlag | None = None
    admission: Admission | None = None  # None: a call refused before it was admitted
    held: int = 0  # bytes of the budget this request holds
    in_flight: bool = False  # counted in the in-flight gauge (Observer.begin)
    request_id: str = ""

    def reserve(self, size: int, what: str) -> None:
        """Counts ``size`` more bytes against the server's budget of bytes
        in flight (ResourceExhausted past it) until this request is answered."""
        assert self.admission is not None, "a call outside admission reserves nothing"
        self.admission.take_bytes(size, what)
        self.held += size

    def release(self) -> None:
        if self.admission is not None:
            self.admission.give_bytes(self.held)
        self.held = 0


@dataclass(frozen=True)
class Runtime:
    """What the wrapper needs of the server: its pool, limits and observer."""

    pool: futures.ThreadPoolExecutor
    admission: Admission
    observer: Any  # prial.service.observability.Observer
    idle_seconds: float
    request_bytes: Mapping[str, int]  # the largest request of a method, where it has its own limit


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


Refusal = tuple[grpc.StatusCode, str, tuple[tuple[str, str | bytes], ...]]  # code, message, trailing metadata


def _invalid(exc: InvalidHandError | ConfigurationError, default_field: str) -> Refusal:
    field = _bounded(default_field if exc.field is None else exc.field)
    row = exc.row if isinstance(exc, InvalidHandError) else None
    if row is not None:
        field = f"{field}[{row}]"
    message = _bounded(str(exc))
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]))
    status = rpc_status.to_status(status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail]))
    return status.code, status.details, status.trailing_metadata


def _failed_precondition(exc: FailedPrecondition) -> Refusal:
    message = _bounded(str(exc))
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=exc.reason, domain=ERROR_DOMAIN,
                                            metadata={k: _bounded(v) for k, v in exc.metadata.items()}))
    status = rpc_status.to_status(status_pb2.Status(code=code_pb2.FAILED_PRECONDITION, message=message,
                                                    details=[detail]))
    return status.code, status.details, status.trailing_metadata


def _refusal(call: Call, exc: Exception, default_field: str) -> Refusal:
    """The status ``exc`` ends the call with; sets ``call.code``.  It keeps
    nothing of ``exc``: the exception's traceback holds the frames that
    held the request."""
    # A bad option in the request (a ruleset, a count) is the caller's as
    # much as a bad hand; one with a file is the server's own setup.
    if isinstance(exc, InvalidHandError) or (isinstance(exc, ConfigurationError) and exc.file is None):
        refusal = _invalid(exc, default_field)
    elif isinstance(exc, FailedPrecondition):
        refusal = _failed_precondition(exc)
    elif isinstance(exc, (ResourceExhausted, IdleTimeout, DeadlinePassed)):
        code = grpc.StatusCode.RESOURCE_EXHAUSTED if isinstance(exc, ResourceExhausted) \
            else grpc.StatusCode.DEADLINE_EXCEEDED
        refusal = code, str(exc), ()
    else:
        # A bug, not the caller's fault: keep serving, say little.  The log
        # gets the exception's type and traceback, not its message: that
        # can quote the request (pybind11's "Invoked with: ..." repeats the
        # cards), and card contents never go to the log.
        log.error(json.dumps({"event": "internal_error", "method": call.method, "request_id": call.request_id,
                              "exception": type(exc).__name__,
                              "traceback": "".join(traceback.format_tb(exc.__traceback__)).rstrip()}))
        refusal = grpc.StatusCode.INTERNAL, f"internal error in {call.method}", ()
    call.code = refusal[0]
    return refusal[0], refusal[1], (*refusal[2], (REQUEST_ID, call.request_id))


async def end(context: grpc.aio.ServicerContext, code: grpc.StatusCode, message: str,
              metadata: tuple[tuple[str, str | bytes], ...] = ()) -> None:
    """Ends the call with a status other than OK, and returns.

    grpc.aio's ``abort`` sends the status, then raises an AbortError it also
    keeps on the call's state.  Raised on through the handler, the error's
    traceback would hold the handler's frames, which hold the call's
    context, which holds that state: a reference cycle, and with it the
    request's bytes and decoded message, freed only by the cyclic garbage
    collector, which a client sending a few big requests never sets off
    (twenty refused 20 MB requests kept 1.3 GB).  Raised inside an ``except``
    block, the error would chain the handler's exception too, and its
    frames.  So the error stops here, its traceback and chain dropped, and
    the handler returns: grpc.aio raises the error it kept once the handler
    has returned (a suppressed abort still ends the call), from its own
    frames, which hold nothing of ours.
    """
    try:
        await context.abort(code, message, metadata)
    except grpc.aio.AbortError as aborted:
        aborted.__traceback__ = aborted.__context__ = None


class IdleTimeout(Exception):
    """The client sent no request message within the idle limit."""


class DeadlinePassed(Exception):
    """The call's deadline passed before its request came or its answer was
    ready: DEADLINE_EXCEEDED, on the wire as in the log (an answer the
    client no longer waits for is not sent)."""


def decode(request_type: type[Message], data: bytes, where: str = "") -> Any:
    """The message in ``data``; InvalidHandError (field ``where``, "" for the
    whole request) when the bytes are not one."""
    try:
        return request_type.FromString(data)
    except DecodeError as exc:
        prefix = f"{where}: " if where else ""
        raise InvalidHandError(f"{prefix}the request is not a valid {request_type.DESCRIPTOR.full_name} message "
                               f"({exc})", field=where) from None


async def _next_message(requests: AsyncIterator[bytes], idle_seconds: float, what: str) -> bytes | None:
    """The next request message, None at the end of the stream."""
    try:
        return await asyncio.wait_for(requests.__anext__(), idle_seconds)
    except StopAsyncIteration:
        return None
    except _SERVER_STOPPED:  # the shutdown cut the stream: cancelled, as its client is told
        raise asyncio.CancelledError from None
    except asyncio.TimeoutError:
        raise IdleTimeout(f"no {what} within {idle_seconds:g} s") from None


async def _let_go(requests: AsyncIterator[bytes]) -> None:
    """Closes the call's reader of request messages.

    grpc.aio's reader is an async generator that, suspended between two
    messages, keeps the last one it gave; it and the object that owns it
    refer to each other, a cycle only the cyclic garbage collector frees.
    Closed, it lets go of the message at once (a finished call's request
    was kept until a collection otherwise, whatever its outcome).
    """
    close = getattr(requests.__aiter__(), "aclose", None)
    if close is not None:
        await close()


# A call's deadline is read back through two clocks (gRPC core's and the
# wall clock): a call cut off within this of its deadline was cut off by it.
DEADLINE_SLACK = 0.005


def _expired(context: grpc.aio.ServicerContext, slack: float = DEADLINE_SLACK) -> bool:
    """Whether the call's deadline has passed (or is within ``slack``)."""
    remaining = context.time_remaining()
    return remaining is not None and remaining <= slack


def rpc(default_field: str, vet: Callable[..., None] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wraps one handler of the servicer.

    A unary handler is ``handler(self, request, call) -> response``; the
    handler of a streaming method answers one request of the stream,
    ``handler(self, request, call, index) -> response``.  Handlers are plain
    functions that raise ``InvalidHandError`` or ``ConfigurationError``
    (INVALID_ARGUMENT, with a BadRequest naming the field: the error's own,
    else ``default_field``) or ``ResourceExhausted``; this wrapper runs
    them and answers.

    ``vet(self, data, *index)``, if given, looks at the request's bytes
    before they are decoded (decoding holds the GIL, and a huge repeated
    field takes seconds) and raises the same errors as the handler would.
    """

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        method = handler.__name__
        request_type = REQUEST_TYPES[method]
        offloaded = method in OFFLOADED

        async def run(self: Any, data: bytes, call: Call, *index: int) -> Any:
            runtime: Runtime = self.runtime
            where = f"batch[{index[0]}]" if index else ""
            limit = runtime.request_bytes.get(method)
            if limit is not None and len(data) > limit:
                raise ResourceExhausted(f"a {method} request of {len(data)} bytes; this server takes at most "
                                        f"{limit} for {method}")

            def work() -> Any:
                # The memory is held while the work runs, wherever it runs,
                # and given back when it ends: not when a cancelled call's
                # coroutine gives up on it.
                try:
                    if vet is not None:
                        vet(self, data, *index)
                    call.reserve(len(data) * MEMORY_PER_REQUEST_BYTE, f"a {method} request of {len(data)} bytes")
                    return handler(self, decode(request_type, data, where), call, *index)
                finally:
                    call.release()

            if not offloaded and len(data) <= INLINE_BYTES:
                return work()
            # The pool's thread goes on while this coroutine waits; if the
            # call is cancelled meanwhile (by its client, its deadline or
            # the server's shutdown), the flag stops the native work.
            call.cancel = call.cancel or CancelFlag()
            return await asyncio.get_running_loop().run_in_executor(runtime.pool, work)

        def finish(self: Any, call: Call, admitted: bool, cancelled: bool, context: grpc.aio.ServicerContext) -> None:
            if admitted:
                self.runtime.admission.end_call(method)
            if cancelled:
                # Cut off by its deadline, else by its client or the shutdown.
                # A client cancels at its own deadline, which began before the
                # server's clock did (the request's trip, the server's queue):
                # a cancel in the last tenth of the call's time was the deadline.
                slack = max(DEADLINE_SLACK, (time.perf_counter() - call.start) / 9)
                call.code = grpc.StatusCode.DEADLINE_EXCEEDED if _expired(context, slack) else grpc.StatusCode.CANCELLED
                if call.cancel is not None:
                    call.cancel.cancel()
            self.runtime.observer.finish(call)

        if SERVICE.methods_by_name[method].server_streaming:
            @functools.wraps(handler)
            async def streaming(self: Any, requests: AsyncIterator[bytes],
                                context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
                call = Call(method, time.perf_counter(), admission=self.runtime.admission,
                            request_id=request_id(context.invocation_metadata()))
                context.set_trailing_metadata(((REQUEST_ID, call.request_id),))
                self.runtime.observer.begin(call)
                admitted = cancelled = False
                try:
                    try:
                        index = 0
                        # One request read, answered, then the next: in order,
                        # and the transport's flow control holds back a client
                        # that sends faster.
                        while (data := await _next_message(requests, self.runtime.idle_seconds,
                                                           f"batch after batch {index - 1}" if index else
                                                           "request message")) is not None:
                            if not admitted:
                                self.runtime.admission.start_call(method)
                                admitted = True
                            response = await run(self, data, call, index)
                            if _expired(context, 0):
                                raise DeadlinePassed(f"the call's deadline passed while batch {index} was answered")
                            index += 1
                            yield response
                        if _expired(context):  # its deadline cut it off, not its client
                            raise DeadlinePassed(f"no batch after batch {index - 1} before the call's deadline"
                                                 if index else "no request message before the call's deadline")
                        cancelled = context.cancelled()
                        return
                    except (asyncio.CancelledError, GeneratorExit):  # GeneratorExit: the client went away mid-stream
                        cancelled = True
                        raise
                    except Exception as exc:  # noqa: BLE001 - every error becomes a status
                        refusal = _refusal(call, exc, default_field)
                    await end(context, *refusal)  # outside the except block: see end
                finally:
                    finish(self, call, admitted, cancelled, context)
                    await _let_go(requests)

            return streaming

        @functools.wraps(handler)
        async def unary(self: Any, requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> Any:
            call = Call(method, time.perf_counter(), admission=self.runtime.admission,
                        request_id=request_id(context.invocation_metadata()))
            context.set_trailing_metadata(((REQUEST_ID, call.request_id),))
            self.runtime.observer.begin(call)
            admitted = cancelled = False
            try:
                try:
                    data = await _next_message(requests, self.runtime.idle_seconds, "request message")
                    if data is None and _expired(context):  # its deadline cut it off first
                        raise DeadlinePassed("no request message before the call's deadline")
                    if data is None:
                        raise InvalidHandError("the call ended without a request message", field="")
                    self.runtime.admission.start_call(method)
                    admitted = True
                    response = await run(self, data, call)
                    if _expired(context, 0):
                        raise DeadlinePassed("the call's deadline passed while it was answered")
                    cancelled = context.cancelled()  # while it ran: the answer goes nowhere
                    return response
                except asyncio.CancelledError:
                    cancelled = True
                    raise
                except Exception as exc:  # noqa: BLE001 - every error becomes a status
                    refusal = _refusal(call, exc, default_field)
                await end(context, *refusal)  # outside the except block: see end
                return None
            finally:
                finish(self, call, admitted, cancelled, context)
                await _let_go(requests)

        return unary

    return wrap
