"""The server's log as an operator pipes it through a JSON parser: every
line one object with its UTC time and level, whoever wrote it (prial, gRPC
core on a failed TLS handshake, a stream cut by the shutdown), and each
call's line with its request id, the caller's or one made and returned."""

from __future__ import annotations

import json
import re
import signal
import threading
import time

import grpc
import pytest

from prial import random_hands
from prial.client import Client, PrialRpcError
from prial.v1 import prial_pb2

from .grpc_helpers import ServerProcess

UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
LEVELS = {"debug", "info", "warning", "error", "critical"}


def lines_of(log: str) -> list[dict]:
    """Every line of ``log`` as its object; fails on a line that is not one."""
    objects = []
    for number, line in enumerate(log.splitlines(), 1):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            raise AssertionError(f"line {number} is not JSON: {line!r}") from None
        assert isinstance(obj, dict), line
        assert UTC.match(obj["time"]), line
        assert obj["level"] in LEVELS, line
        objects.append(obj)
    return objects


def evaluate(target: str, metadata: tuple[tuple[str, str], ...] = ()) -> tuple[str, tuple]:
    """An Evaluate call with ``metadata``: its status and trailing metadata."""
    with grpc.insecure_channel(target) as channel:
        call = channel.unary_unary("/prial.v1.Prial/Evaluate",
                                   request_serializer=prial_pb2.EvaluateRequest.SerializeToString,
                                   response_deserializer=prial_pb2.EvaluateResponse.FromString)
        try:
            _, state = call.with_call(prial_pb2.EvaluateRequest(hands=["3s 2h Ah"]), metadata=metadata, timeout=10)
            return "OK", tuple(state.trailing_metadata())
        except grpc.RpcError as error:
            return error.code().name, tuple(error.trailing_metadata())


def test_request_ids_are_the_callers_or_made_and_returned(grpc_server):
    code, trailing = evaluate(grpc_server.target, (("x-request-id", "batch-7/a:1"),))
    assert code == "OK" and ("x-request-id", "batch-7/a:1") in trailing
    code, trailing = evaluate(grpc_server.target)
    made = dict(trailing)["x-request-id"]
    assert code == "OK" and re.fullmatch(r"[0-9a-f]{32}", made)
    # An id that would need escaping in a log line is replaced, not written.
    code, trailing = evaluate(grpc_server.target, (("x-request-id", 'say "hi"\\'),))
    replaced = dict(trailing)["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", replaced)
    with grpc.insecure_channel(grpc_server.target) as channel:  # a refused call gets its id back too
        call = channel.unary_unary("/prial.v1.Prial/Evaluate", request_serializer=lambda b: b,
                                   response_deserializer=lambda b: b)
        with pytest.raises(grpc.RpcError) as info:
            call(b"\xff\xff", metadata=(("x-request-id", "bad-bytes-1"),), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert ("x-request-id", "bad-bytes-1") in info.value.trailing_metadata()
    log = grpc_server.wait_for_log('"request_id": "bad-bytes-1"')
    calls = {obj["request_id"]: obj for obj in lines_of(log) if obj["event"] == "rpc"}
    assert calls["batch-7/a:1"]["code"] == "OK"
    assert calls[made]["code"] == "OK" and calls[replaced]["code"] == "OK"
    assert calls["bad-bytes-1"]["code"] == "INVALID_ARGUMENT"


def test_every_line_is_one_json_object_whoever_writes_it(secure_server, monkeypatch):
    # As after a `prial call` run in this process, which quiets gRPC core
    # for itself: the server started here still logs as in production.
    monkeypatch.setenv("GRPC_VERBOSITY", "NONE")
    files = secure_server.files
    with ServerProcess("--tls-cert", str(files / "server.pem"), "--tls-key", str(files / "server.key")) as server:
        # A plaintext client at a TLS port: gRPC core logs the failed handshake.
        with Client(server.target, timeout=3, retries=None) as client:
            with pytest.raises(PrialRpcError):
                client.evaluate(["3s 2h Ah"])
        # gRPC core writes its line from its own thread, after the client has
        # its answer: on a busy machine, a moment later.
        deadline = time.monotonic() + 10
        while True:
            log = server.log()
            objects = lines_of(log)
            core = [obj for obj in objects if obj["event"] == "grpc"]
            if core or time.monotonic() > deadline:
                break
            time.sleep(0.05)
    assert any(obj["event"] == "serving" for obj in objects)
    assert core and all(obj["source"] and obj["message"] for obj in core), log[-2000:]


def test_streams_cut_by_the_shutdown_log_one_line_each_and_no_internal_error():
    server = ServerProcess("--grace", "0.3")
    try:
        opened, gate = threading.Barrier(4), threading.Event()
        codes: list[str] = []

        def batches():
            yield random_hands(10, 3, seed=1)
            gate.wait(20)

        def stream():
            with Client(server.target, timeout=30, retries=None) as client:
                try:
                    for answered, _ in enumerate(client.evaluate_stream(batches()), 1):
                        if answered == 1:  # the server holds this stream: its handler has answered
                            opened.wait(20)
                    codes.append("OK")
                except PrialRpcError as error:
                    codes.append(error.code.name)

        threads = [threading.Thread(target=stream) for _ in range(3)]
        for thread in threads:
            thread.start()
        opened.wait(20)
        server.proc.send_signal(signal.SIGTERM)
        assert server.terminate(signal_first=False) == 0
        gate.set()
        for thread in threads:
            thread.join(30)
        objects = lines_of(server.log())
    finally:
        server.close()
    # None of prial's own errors.  (grpcio may log, as one JSON line, an
    # exception of its own from sending a status on the stopped server.)
    assert not [obj for obj in objects if obj["event"] == "internal_error"]
    streams = [obj for obj in objects if obj["event"] == "rpc" and obj["method"] == "EvaluateStream"]
    assert len(streams) == 3
    assert codes == ["UNAVAILABLE"] * 3

