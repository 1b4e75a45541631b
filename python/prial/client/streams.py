"""EvaluateStream's requests, for both clients: batches to request bytes,
a failure kept for the caller, and the asyncio client's pacing."""

from __future__ import annotations

import asyncio
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Iterable,
    Iterator,
    Sequence,
)

import numpy as np
import numpy.typing as npt

from ..rules import Rules
from .calls import T, evaluate_request_bytes


class _StreamRequests:
    """The request bytes of a stream's batches.  A batch that cannot be sent,
    or the caller's iterable raising, ends the requests there: the batches
    before it are answered, and then ``raise_failure`` raises its error to
    the caller (gRPC, which reads the requests, would only log it and end
    the call CANCELLED or UNKNOWN)."""

    def __init__(self, rules: Rules | None, describe: bool) -> None:
        self._rules = rules
        self._describe = describe
        self._failure: Exception | None = None

    def of(self, batches: Iterable[npt.NDArray[np.uint8] | Sequence[str]]) -> Iterator[bytes]:
        try:
            for batch in batches:
                yield evaluate_request_bytes(batch, self._rules, self._describe)
        except Exception as exc:  # noqa: BLE001 - raised to the caller by raise_failure
            self._failure = exc

    async def of_async(self, batches: AsyncIterable[npt.NDArray[np.uint8] | Sequence[str]]) -> AsyncIterator[bytes]:
        try:
            async for batch in batches:
                yield evaluate_request_bytes(batch, self._rules, self._describe)
        except Exception as exc:  # noqa: BLE001 - raised to the caller by raise_failure
            self._failure = exc

    def raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure


async def _async_iter(items: Iterable[T]) -> AsyncIterator[T]:
    for item in items:
        yield item


class _Turns:
    """Lets an AsyncClient stream's requests go out one at a time: a batch
    once the one before it is answered, the end of the stream once the last
    one is.

    The server ends a stream as soon as it refuses a batch, and grpc.aio
    (grpcio 1.85, grpc/grpc issue 36066) makes a write that fails because
    the call just ended the call's status, INTERNAL "Internal error from
    Core", in place of the status the server sent: the code, message and
    BadRequest of a refused batch are lost whenever a later batch is being
    written.  Paced, every write goes to a server waiting to read it (it
    reads a batch only after answering the one before), so no write is in
    flight when the server refuses a batch."""

    def __init__(self) -> None:
        self._turn = asyncio.Semaphore(1)
        self._ended = False

    async def paced(self, requests: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        async for request in requests:
            await self._turn.acquire()
            if self._ended:
                return
            yield request
        await self._turn.acquire()  # closing the stream is a write too

    def answered(self) -> None:
        """The answer to the batch in flight has arrived."""
        self._turn.release()

    def end(self) -> None:
        """The call is over: the requests end without another write."""
        self._ended = True
        self._turn.release()
