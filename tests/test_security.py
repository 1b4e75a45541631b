"""Security review of the service: no card contents in the
server's log on any path, limits on concurrency and stream lengths, and
TLS rejections beyond test_grpc_security.py (an expired client
certificate, a server certificate for another name).  docs/service.md: security."""

from __future__ import annotations

import datetime
import json
import re
import threading
import time

import grpc
import numpy as np
import pytest

import prial
from prial.client import Client, PrialRpcError

from .grpc_helpers import ServerProcess

CARD_TEXT = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[cdhs♣♦♥♠](?![A-Za-z])")


def every_kind_of_call(client: Client) -> None:
    """One call of every RPC, valid and invalid, with distinctive cards."""
    client.evaluate(["Qh Jh 9h", "7c 7d Ks"], describe=True)
    client.evaluate(np.array([[7, 2, 50]], np.uint8))
    list(client.evaluate_stream([["Qh Jh 9h"], ["Tc 9c 8c"]]))
    client.showdown([prial.Player("a", "Qh Jh 9h"), prial.Player("b", "7c 7d Ks")], seer="a")
    client.partition("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s")
    client.settle_casino("Qh Jh 9h", "7c 7d Ks", 5, 5, 1)
    client.settle_classic([prial.ClassicPlayer("a", "Qh Jh 9h", ["draw"]), prial.ClassicPlayer("b", "7c 7d Ks")])
    client.equity("Qh Jh 9h")
    client.showdown_batch(np.array([[7, 2, 50]], np.uint8), np.array([[8, 9, 10]], np.uint8))
    for bad in (
        lambda: client.evaluate(["Qh Jh Zz"]),
        lambda: client.evaluate(["Qh Qh 9h"]),
        lambda: client.evaluate(np.array([[7, 7, 50]], np.uint8)),
        lambda: client.showdown([prial.Player("a", "Qh Jh 9h"), prial.Player("b", "Qh 7d Ks")]),
        lambda: client.partition("As Ks Qs"),
        lambda: client.settle_casino("Qh Jh 9h", "Qh 7d Ks", 5),
        lambda: client.settle_classic([prial.ClassicPlayer("a", "Qh Jh 9h"), prial.ClassicPlayer("b", "Qh 7d Ks")]),
        lambda: list(client.evaluate_stream([["Qh Jh 9h"], ["Qh Jh 9x"]])),
    ):
        with pytest.raises(PrialRpcError):
            bad()


def test_no_card_contents_in_the_server_log_on_any_call(grpc_server, grpc_client):
    every_kind_of_call(grpc_client)
    time.sleep(0.3)
    log = grpc_server.log()
    assert log.count('"event": "rpc"') >= 15  # the calls were logged: the check below means something
    # Every field but the request id, which is the caller's own text or a
    # made hex id ("4d58..." reads like a card to the pattern).
    fields = [json.dumps({k: v for k, v in json.loads(line).items() if k != "request_id"})
              for line in log.splitlines()]
    assert not [line for line in fields if CARD_TEXT.search(line)]
    assert "Zz" not in log and "9x" not in log


def test_concurrent_calls_beyond_the_limit_are_refused():
    with ServerProcess("--workers", "2", "--max-concurrent-rpcs", "2") as server:
        release = threading.Event()

        def held():  # a stream that stays open until released
            yield ["3s 2h Ah"]
            release.wait(30)

        clients = [Client(server.target, timeout=30) for _ in range(2)]
        streams = [c.evaluate_stream(held()) for c in clients]
        for stream in streams:
            next(stream)
        try:
            with Client(server.target, timeout=10) as client:
                with pytest.raises(PrialRpcError) as info:
                    list(client.evaluate_stream([["3s 2h Ah"]]))
                assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "2 EvaluateStream calls are in flight" in info.value.message
                # The limit is per method: other calls, and health, are still answered.
                assert client.evaluate(["3s 2h Ah"]).strengths.tolist() == [716]
                assert client.health() == "SERVING"
        finally:
            release.set()
            for stream, client in zip(streams, clients):
                list(stream)
                client.close()
        with Client(server.target, timeout=10) as client:  # capacity is back
            assert [part.strengths.tolist() for part in client.evaluate_stream([["3s 2h Ah"]])] == [[716]]


def test_streams_longer_than_the_limit_are_refused():
    with ServerProcess("--max-stream-batches", "5") as server, Client(server.target, timeout=30) as client:
        assert len(list(client.evaluate_stream([["3s 2h Ah"]] * 5))) == 5
        answers = []
        with pytest.raises(PrialRpcError) as info:
            for answer in client.evaluate_stream([["3s 2h Ah"]] * 6):
                answers.append(answer)
        assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert len(answers) == 5 and "5 batches" in info.value.message


x509 = pytest.importorskip("cryptography.x509")
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID  # noqa: E402

from .test_grpc_security import Authority  # noqa: E402


def expired_client_certificate(ca: Authority) -> tuple[bytes, bytes]:
    key = ec.generate_private_key(ec.SECP256R1())
    long_ago = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=30)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "backend-old")]))
        .issuer_name(ca.cert.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(long_ago).not_valid_after(long_ago + datetime.timedelta(days=1))
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        .sign(ca.key, hashes.SHA256())
    )
    return cert.public_bytes(serialization.Encoding.PEM), key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def test_tls_rejections(tmp_path):
    ca = Authority("prial test CA")
    server_cert, server_key = ca.issue("localhost", server=True)
    files = {"ca.pem": ca.pem, "server.pem": server_cert, "server.key": server_key}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    tls = ["--tls-cert", str(tmp_path / "server.pem"), "--tls-key", str(tmp_path / "server.key")]
    with ServerProcess(*tls, "--tls-client-ca", str(tmp_path / "ca.pem")) as server:
        good_chain, good_key = ca.issue("backend-1", server=False)
        with Client(server.target, timeout=10, root_certificates=ca.pem, certificate_chain=good_chain,
                    private_key=good_key) as client:
            assert client.evaluate(["3s 2h Ah"]).strengths.tolist() == [716]
        chain, key = expired_client_certificate(ca)
        # No retries: a refused handshake would be retried until the deadline, ending DEADLINE_EXCEEDED.
        with Client(server.target, timeout=3, retries=None, root_certificates=ca.pem, certificate_chain=chain,
                    private_key=key) as client:
            with pytest.raises(PrialRpcError) as info:
                client.evaluate(["3s 2h Ah"])
            assert info.value.code == grpc.StatusCode.UNAVAILABLE  # expired client certificate
        # The server's certificate names localhost and 127.0.0.1 only.
        with Client(server.target, timeout=3, retries=None, root_certificates=ca.pem, certificate_chain=good_chain,
                    private_key=good_key, server_name="prial.example.com") as client:
            with pytest.raises(PrialRpcError) as info:
                client.evaluate(["3s 2h Ah"])
            assert info.value.code == grpc.StatusCode.UNAVAILABLE
