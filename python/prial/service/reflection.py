"""Server reflection, as ``grpc.reflection.v1`` (what current tools ask for
first) and the older ``grpc.reflection.v1alpha``.

grpcio-reflection implements v1alpha only.  The two versions are the same
messages under another package name, so the v1 service is made from the
installed v1alpha descriptor (renamed, added to the descriptor pool so that
reflection can describe itself) and answered by the same servicer: the
bytes on the wire are the same.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection
from grpc_reflection.v1alpha import reflection_pb2 as v1alpha

V1_PACKAGE = "grpc.reflection.v1"
V1_SERVICE_NAME = f"{V1_PACKAGE}.ServerReflection"


def _add_v1_descriptor() -> None:
    pool = descriptor_pool.Default()
    try:
        pool.FindServiceByName(V1_SERVICE_NAME)
        return  # already there (the generated v1 module, or an earlier server)
    except KeyError:
        pass
    file = descriptor_pb2.FileDescriptorProto.FromString(v1alpha.DESCRIPTOR.serialized_pb)
    file.name = "grpc/reflection/v1/reflection.proto"
    file.package = V1_PACKAGE
    file.options.Clear()
    for message in file.message_type:
        for field in message.field:
            if field.type_name.startswith(".grpc.reflection.v1alpha."):
                field.type_name = field.type_name.replace(".v1alpha.", ".v1.", 1)
    for method in file.service[0].method:
        method.input_type = method.input_type.replace(".v1alpha.", ".v1.", 1)
        method.output_type = method.output_type.replace(".v1alpha.", ".v1.", 1)
    pool.Add(file)


def enable(server: grpc.aio.Server, service_names: Sequence[str]) -> None:
    """Serves reflection (both versions) of ``service_names`` and of itself."""
    _add_v1_descriptor()
    names = (*service_names, V1_SERVICE_NAME, reflection.SERVICE_NAME)
    servicer = reflection.aio.ReflectionServicer(names)
    reflection.enable_server_reflection(names, server)  # v1alpha
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=v1alpha.ServerReflectionRequest.FromString,
        response_serializer=v1alpha.ServerReflectionResponse.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
        V1_SERVICE_NAME, {"ServerReflectionInfo": handler}),))
