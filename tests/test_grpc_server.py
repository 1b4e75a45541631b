"""The server as an operator sees it: health, reflection, limits, metrics,
logging, shutdown, processes, generated code."""

from __future__ import annotations

import base64
import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import numpy as np
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

import prial
from prial import random_hands
from prial.client import Client, PrialRpcError

from .grpc_helpers import ServerProcess, free_port, scrape_until

ALL_RPCS = ("Evaluate", "EvaluateStream", "Partition", "Showdown", "ShowdownBatch", "CrashShowdown", "CrashMatch",
            "DealCrash", "SettleCasino", "SettlePartitionGame", "SettleClassic", "Odds", "Equity", "PlayTable")


def test_health_serving(grpc_client):
    assert grpc_client.health() == "SERVING"
    assert grpc_client.health("prial.v1.Prial") == "SERVING"
    with pytest.raises(PrialRpcError) as info:
        grpc_client.health("no.such.Service")
    assert info.value.code == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_the_service(grpc_server):
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

    with grpc.insecure_channel(grpc_server.target) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        services = set(database.get_services())
        assert {"prial.v1.Prial", "grpc.health.v1.Health"} <= services
        methods = {m.name for m in database.FindFileContainingSymbol("prial.v1.Prial").service[0].method}
        assert methods == set(ALL_RPCS)


def test_a_call_from_reflection_alone_as_grpcurl_makes_it(grpc_server, grpc_client):
    # What `grpcurl -d '{"hands": ["3s 2h Ah"]}' ... prial.v1.Prial/Evaluate`
    # does: no generated code, no .proto; the types come from the server and
    # the request and answer are JSON.
    from google.protobuf import descriptor_pool, json_format, message_factory
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

    with grpc.insecure_channel(grpc_server.target) as channel:
        pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
        method = pool.FindServiceByName("prial.v1.Prial").methods_by_name["Evaluate"]
        request_type = message_factory.GetMessageClass(method.input_type)
        response_type = message_factory.GetMessageClass(method.output_type)
        call = channel.unary_unary("/prial.v1.Prial/Evaluate", request_serializer=request_type.SerializeToString,
                                   response_deserializer=response_type.FromString)
        answer = json.loads(json_format.MessageToJson(call(json_format.Parse('{"hands": ["3s 2h Ah"], "describe": true}',
                                                                             request_type()), timeout=10)))
    expected = grpc_client.evaluate(["3s 2h Ah"], describe=True)
    assert answer["count"] == 1 and answer["descriptions"] == expected.descriptions
    # JSON carries bytes fields in base64: the packed little-endian uint16s.
    assert np.frombuffer(base64.b64decode(answer["strengths"]), "<u2").tolist() == expected.strengths.tolist()


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_answers_both_versions(grpc_server, version):
    # v1 is what current tools (grpcurl, grpcui, Postman) ask for first; the
    # messages are the same as v1alpha's under another package name.
    from google.protobuf import descriptor_pb2
    from grpc_reflection.v1alpha import reflection_pb2 as messages

    with grpc.insecure_channel(grpc_server.target) as channel:
        ask = channel.stream_stream(f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
                                    request_serializer=messages.ServerReflectionRequest.SerializeToString,
                                    response_deserializer=messages.ServerReflectionResponse.FromString)
        listed, described = ask(iter([
            messages.ServerReflectionRequest(list_services=""),
            messages.ServerReflectionRequest(file_containing_symbol=f"grpc.reflection.{version}.ServerReflection"),
        ]), timeout=10)
    names = {s.name for s in listed.list_services_response.service}
    assert {"prial.v1.Prial", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection"} <= names
    file = descriptor_pb2.FileDescriptorProto.FromString(described.file_descriptor_response.file_descriptor_proto[0])
    assert file.package == f"grpc.reflection.{version}" and file.service[0].method[0].name == "ServerReflectionInfo"


def test_one_log_line_per_call_without_card_contents(grpc_server, grpc_client):
    grpc_client.evaluate(["Qh Jh 9h"] * 7)
    grpc_client.evaluate(np.array([[7, 2, 50]] * 11, np.uint8))
    with pytest.raises(PrialRpcError):
        grpc_client.evaluate(["Qh Jh Zz"])
    expected = [("Evaluate", "OK", 7), ("Evaluate", "OK", 11), ("Evaluate", "INVALID_ARGUMENT", 0)]
    deadline = time.monotonic() + 10
    while True:  # the server writes its per-call lines in batches
        calls = [json.loads(line) for line in grpc_server.log().splitlines() if '"event": "rpc"' in line]
        if [(c["method"], c["code"], c["hands"]) for c in calls[-3:]] == expected or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert [(c["method"], c["code"], c["hands"]) for c in calls[-3:]] == expected
    assert {"method", "code", "ms", "hands"} <= set(calls[-1])
    assert "Qh" not in grpc_server.log() and "Zz" not in grpc_server.log()


def test_generated_code_matches_runtime_versions():
    """The build's grpcio-tools fixes the gencode versions; the runtime pins
    in pyproject.toml must cover them (the imports would fail otherwise)."""
    import google.protobuf

    from prial.v1 import prial_pb2, prial_pb2_grpc

    source = open(prial_pb2.__file__).read()
    gencode = re.search(r"Protobuf Python Version: ([\d.]+)", source).group(1)
    version = lambda v: tuple(int(x) for x in v.split(".")[:3])  # noqa: E731
    assert version(google.protobuf.__version__) >= version(gencode)
    assert version(grpc.__version__) >= version(prial_pb2_grpc.GRPC_GENERATED_VERSION)
    # Generated from this tree's proto: every RPC and message is present.
    service = prial_pb2.DESCRIPTOR.services_by_name["Prial"]
    assert {m.name for m in service.methods} == set(ALL_RPCS)


# -- limits --------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited_server():
    metrics_port = free_port()
    with ServerProcess("--max-batch", "1000", "--max-message-mb", "1",
                       "--metrics-port", str(metrics_port)) as server:
        server.metrics_port = metrics_port
        yield server


def test_batch_over_the_limit_is_resource_exhausted(limited_server):
    with Client(limited_server.target, timeout=10) as client:
        assert client.evaluate(random_hands(1000, 3, seed=1)).strengths.size == 1000
        for hands in (random_hands(1001, 3, seed=1), ["3s 2h Ah"] * 1001):
            with pytest.raises(PrialRpcError) as info:
                client.evaluate(hands)
            assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        with pytest.raises(PrialRpcError) as info:
            list(client.evaluate_stream([random_hands(10, 3, seed=2), random_hands(1001, 3, seed=3)]))
        assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "batch 1" in info.value.message
        with pytest.raises(PrialRpcError) as info:
            both = random_hands(1001, 6, seed=4)
            client.showdown_batch(np.ascontiguousarray(both[:, :3]), np.ascontiguousarray(both[:, 3:]))
        assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        with pytest.raises(PrialRpcError) as info:
            client.equity("Ts 9s 8d", 3, samples=10_001)  # 10 x --max-batch deals at most
        assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_message_over_the_size_limit_is_resource_exhausted(limited_server):
    with Client(limited_server.target, timeout=10) as client:
        with pytest.raises(PrialRpcError) as info:
            client.evaluate(random_hands(400_000, 3, seed=1))  # 1.2 MB > 1 MiB
        assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert client.evaluate(["3s 2h Ah"]).strengths.size == 1  # still serving


def test_prometheus_metrics(limited_server):
    with Client(limited_server.target, timeout=10) as client:
        client.evaluate(random_hands(500, 3, seed=9))
        client.evaluate(random_hands(250, 3, seed=9))
        with pytest.raises(PrialRpcError):
            client.evaluate(["3s 3s 3s"])
    ok, refused = (f'prial_requests_total{{code="{code}",method="Evaluate"}}' for code in ("OK", "INVALID_ARGUMENT"))
    samples = scrape_until(f"http://127.0.0.1:{limited_server.metrics_port}/metrics",
                           lambda now: now.get(ok, 0) >= 2 and now.get(refused, 0) >= 1)
    assert samples[ok] >= 2 and samples[refused] >= 1
    assert samples['prial_hands_total{method="Evaluate"}'] >= 750
    assert samples['prial_request_seconds_count{code="OK",method="Evaluate"}'] >= 2


# -- shutdown and processes ----------------------------------------------------


@pytest.mark.slow
def test_sigterm_lets_a_call_in_flight_finish_and_refuses_new_ones(brag):
    server = ServerProcess("--drain", "1.0")
    try:
        batches = [random_hands(100, 3, seed=i) for i in range(20)]
        first_answer = threading.Event()

        def slow_batches():
            for i, batch in enumerate(batches):
                if i == 1:
                    first_answer.wait(10)
                time.sleep(0.12)
                yield batch

        results: list = []
        errors: list = []

        def run_stream():
            try:
                with Client(server.target, timeout=30) as client:
                    for result in client.evaluate_stream(slow_batches()):
                        results.append(result)
                        first_answer.set()
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        stream = threading.Thread(target=run_stream)
        stream.start()
        assert first_answer.wait(20)
        server.proc.send_signal(signal.SIGTERM)
        with Client(server.target, timeout=5) as client:
            deadline = time.monotonic() + 5
            while client.health() != "NOT_SERVING":  # during --drain: still answering
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(1.2)  # past the drain: new calls are refused
            with pytest.raises(PrialRpcError) as info:
                client.evaluate(["3s 2h Ah"])
            assert info.value.code == grpc.StatusCode.UNAVAILABLE
        stream.join(30)
        assert not errors
        assert len(results) == len(batches)
        for batch, result in zip(batches, results):
            np.testing.assert_array_equal(result.strengths, brag.evaluate_batch(batch))
        assert server.terminate(signal_first=False) == 0
    finally:
        server.close()


def test_processes_share_the_port():
    metrics_port = free_port()
    with ServerProcess("--processes", "2", "--metrics-port", str(metrics_port)) as server:
        for _ in range(24):  # fresh connections, spread by the kernel
            with Client(server.target, timeout=10) as client:
                assert client.evaluate(["3s 2h Ah"]).strengths.tolist() == [prial.evaluate("3s 2h Ah").strength]
        # The supervisor serves the processes' metrics summed.
        ok = 'prial_requests_total{code="OK",method="Evaluate"}'
        samples = scrape_until(f"http://127.0.0.1:{metrics_port}/metrics", lambda now: now.get(ok, 0) >= 24)
        assert samples.get(ok) == 24
        assert server.terminate() == 0
        lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
        serving = {line["pid"] for line in lines if line["event"] == "serving" and "pid" in line}
        answered = {line["pid"] for line in lines if line["event"] == "rpc"}
        assert len(serving) == 2
        assert answered <= serving and len(answered) == 2
        assert sum(line["event"] == "stopped" for line in lines) == 2


def test_plain_health_check_client(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        response = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert response.status == health_pb2.HealthCheckResponse.SERVING


def _prial(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "prial", *args], capture_output=True, text=True, timeout=60)


def test_prial_call_from_the_command_line(grpc_server):
    done = _prial("call", "--target", grpc_server.target, "evaluate", "3s 2h Ah", "Kd Kh 4c 9s")
    assert done.returncode == 1 and "hands[1]" in done.stderr  # mixed sizes are refused
    done = _prial("call", "--target", grpc_server.target, "evaluate", "3s 2h Ah", "Kd Kh 4c", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [(r["strength"], r["category"], r["description"]) for r in rows] == [
        (v.strength, v.category.name, v.description) for v in map(prial.evaluate, ["3s 2h Ah", "Kd Kh 4c"])]
    done = _prial("call", "--target", grpc_server.target, "evaluate", "X 2h Ah")  # a joker, and no jokers
    assert done.returncode == 1
    assert "INVALID_ARGUMENT" in done.stderr and "hands[0]" in done.stderr
    done = _prial("call", "--target", grpc_server.target, "health")
    assert (done.returncode, done.stdout.strip()) == (0, "SERVING")


def test_every_proto_declaration_is_documented():
    """Every service, RPC, message, enum, field and enum
    value in the proto carries a comment right above it."""
    proto = Path(__file__).resolve().parent.parent / "protos" / "prial" / "v1" / "prial.proto"
    lines = proto.read_text().splitlines()
    declaration = re.compile(r"^\s*(service|rpc|message|enum|oneof|optional|repeated|map<|[A-Za-z_.]+\s+\w+\s*=|\w+\s*=\s*\d+)")
    undocumented = [
        f"{number + 1}: {line.strip()}"
        for number, line in enumerate(lines)
        if declaration.match(line) and not line.strip().startswith(("syntax", "package"))
        and not lines[number - 1].strip().startswith("//")
    ]
    assert not undocumented, "\n".join(undocumented)
    assert sum(1 for line in lines if declaration.match(line)) > 150
