"""Fuzz the gRPC service's request handling without a network: arbitrary
bytes are decoded as the serialized request of a method of prial.v1.Prial
(chosen by the first byte) and handed to the servicer, as the gRPC runtime
would.  Methods are read from the proto's descriptor, so a new RPC is
fuzzed as soon as it exists; streaming methods get several requests.

A finding is any exception out of the handler other than the abort of a
documented status (INVALID_ARGUMENT, RESOURCE_EXHAUSTED, FAILED_PRECONDITION
for an action a table refuses): in particular INTERNAL, which the server
answers for any unexpected exception.  Bytes
that are not a valid message of the type are the runtime's business, not
the handler's, and are skipped.
"""

from __future__ import annotations

import asyncio

from _harness import Input, instrumented_imports, run

with instrumented_imports():
    import grpc

    from prial.server import PrialService, ServeOptions
    from prial.service.observability import Metrics, Observer
    from prial.service.registration import PRESERIALIZED
    from prial.v1 import prial_pb2 as pb

EXPECTED = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED,
            grpc.StatusCode.FAILED_PRECONDITION}

# A small batch limit: the limit paths are exercised, and no input can ask
# for seconds of work (Equity's sample limit is 10x this).
OPTIONS = ServeOptions(max_batch=2048, threads_per_call=1, log_calls=False)
SERVICE = PrialService(OPTIONS, Observer(Metrics(), log_calls=False))
METHODS = [m for m in pb.DESCRIPTOR.services_by_name["Prial"].methods]


class Aborted(Exception):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code


class Context:
    """The parts of grpc.aio.ServicerContext the handlers use."""

    async def abort(self, code: grpc.StatusCode, details: str = "", trailing_metadata: tuple = ()) -> None:
        raise Aborted(code, details)

    def cancelled(self) -> bool:
        return False

    def invocation_metadata(self) -> tuple:
        return ()

    def set_trailing_metadata(self, metadata: tuple) -> None:
        pass

    def time_remaining(self) -> float | None:
        return None  # no deadline


async def messages(items: list[bytes]):
    for item in items:
        yield item


async def answers(handler, requests: list[bytes], streaming: bool):
    """The handler's answer (a list of them for a streaming method), as the server would get it."""
    if streaming:
        return [answer async for answer in handler(messages(requests), Context())]
    return await handler(messages(requests), Context())


def one_input(data: bytes) -> None:
    inp = Input(data)
    method = inp.pick(METHODS)
    # As the server hands them over: the request's bytes, decoded by the
    # handler (bytes that are no message are an INVALID_ARGUMENT too).
    if method.client_streaming:
        requests = [inp.take(inp.int_in(0, 400)) for _ in range(inp.int_in(0, 4))]
    else:
        requests = [inp.rest()]
    handler = getattr(SERVICE, method.name)
    try:
        if method.client_streaming:
            responses = asyncio.run(answers(handler, requests, streaming=True))
            assert len(responses) == len(requests)
        elif method.server_streaming:
            asyncio.run(answers(handler, requests, streaming=True))
        else:
            response = asyncio.run(answers(handler, requests, streaming=False))
            if method.name in PRESERIALIZED:  # sent as is: it must parse as the response
                response = getattr(pb, method.output_type.name).FromString(response)
            assert type(response).__name__ == method.output_type.name
    except Aborted as exc:
        assert exc.code in EXPECTED, f"{method.name}: {exc}"


if __name__ == "__main__":
    run(one_input)
