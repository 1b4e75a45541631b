"""prial.v1: the gRPC contract (protos/prial/v1/prial.proto).

``prial_pb2`` (messages) and ``prial_pb2_grpc`` (stub and servicer) are
generated from the proto at build time and installed here; they are not in
the source tree.  The proto itself is installed here too, as
``prial.proto``, for other languages' code generators (``prial proto --out
DIR`` writes it out with the google/rpc files its errors use).
"""
