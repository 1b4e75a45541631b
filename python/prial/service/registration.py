"""The prial.v1.Prial service's names and how its methods are registered."""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2

from ..v1 import prial_pb2 as pb

SERVICE = pb.DESCRIPTOR.services_by_name["Prial"]
SERVICE_NAME = SERVICE.full_name  # "prial.v1.Prial"
HEALTH_SERVICE_NAME = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name


# The method-handler maker for (request streaming, response streaming).
HANDLER_KINDS = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


# Methods whose handler returns the response already serialized (by the
# native core): the runtime sends the bytes as they are.
PRESERIALIZED = frozenset({"Evaluate", "EvaluateStream", "Showdown"})


# Each method's request message type.
REQUEST_TYPES: dict[str, type[Message]] = {m.name: getattr(pb, m.input_type.name) for m in SERVICE.methods}


def add_service(service: Any, server: grpc.aio.Server) -> None:
    """Registers every method of prial.v1.Prial, as the generated
    add_PrialServicer_to_server does, read from the service descriptor, but
    with no request deserializer (the handlers get the request's bytes and
    decode them themselves), every method as one whose client streams (a
    unary request is the same bytes on the wire; this way a call is seen
    before its request arrives: see ``prial.service.calls``), and no
    response serializer for the PRESERIALIZED methods."""
    handlers = {}
    for method in SERVICE.methods:
        response_type = getattr(pb, method.output_type.name)
        handlers[method.name] = HANDLER_KINDS[True, method.server_streaming](
            getattr(service, method.name),
            request_deserializer=None,
            response_serializer=None if method.name in PRESERIALIZED else response_type.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)
