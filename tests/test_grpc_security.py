"""TLS, mutual TLS and bearer tokens, with a throwaway CA made in the test."""

from __future__ import annotations

import datetime
import ipaddress
import json
import signal
from pathlib import Path

import grpc
import pytest

from prial.client import Client, PrialRpcError

from .grpc_helpers import ServerProcess

x509 = pytest.importorskip("cryptography.x509")
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID  # noqa: E402

HAND = ["3s 2h Ah"]


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


class Authority:
    """A CA that signs server and client certificates."""

    def __init__(self, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        self.cert = (
            x509.CertificateBuilder().subject_name(_name(name)).issuer_name(_name(name))
            .public_key(self.key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(self.key, hashes.SHA256())
        )
        self.pem = self.cert.public_bytes(serialization.Encoding.PEM)

    def issue(self, common_name: str, *, server: bool) -> tuple[bytes, bytes]:
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        builder = (
            x509.CertificateBuilder().subject_name(_name(common_name)).issuer_name(self.cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        )
        if server:
            builder = builder.add_extension(x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        cert = builder.sign(self.key, hashes.SHA256())
        return cert.public_bytes(serialization.Encoding.PEM), _pem_key(key)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    directory = tmp_path_factory.mktemp("pki")
    ca, stranger = Authority("prial test CA"), Authority("some other CA")
    files: dict[str, Path] = {}
    server_cert, server_key = ca.issue("localhost", server=True)
    for name, data in {"ca.pem": ca.pem, "server.pem": server_cert, "server.key": server_key}.items():
        files[name] = directory / name
        files[name].write_bytes(data)
    return {"ca": ca, "stranger": stranger, "files": files}


def _ok(client: Client) -> bool:
    return client.evaluate(HAND).strengths.size == 1


# The refused clients do not retry: a handshake refused is refused again, and
# retried the call would end at its deadline, DEADLINE_EXCEEDED, not UNAVAILABLE.
def _refused(client: Client, code: grpc.StatusCode) -> None:
    with pytest.raises(PrialRpcError) as info:
        client.evaluate(HAND)
    assert info.value.code == code


def test_tls(pki):
    files = pki["files"]
    with ServerProcess("--tls-cert", str(files["server.pem"]), "--tls-key", str(files["server.key"])) as server:
        with Client(server.target, timeout=10, root_certificates=pki["ca"].pem) as client:
            assert _ok(client)
        with Client(server.target, timeout=3, retries=None, root_certificates=pki["stranger"].pem) as client:
            _refused(client, grpc.StatusCode.UNAVAILABLE)  # server certificate not trusted
        with Client(server.target, timeout=3, retries=None) as client:
            _refused(client, grpc.StatusCode.UNAVAILABLE)  # plaintext to a TLS port


def test_mutual_tls(pki):
    files = pki["files"]
    with ServerProcess("--tls-cert", str(files["server.pem"]), "--tls-key", str(files["server.key"]),
                       "--tls-client-ca", str(files["ca.pem"])) as server:
        chain, key = pki["ca"].issue("backend-1", server=False)
        with Client(server.target, timeout=10, root_certificates=pki["ca"].pem,
                    certificate_chain=chain, private_key=key) as client:
            assert _ok(client)
        with Client(server.target, timeout=3, retries=None, root_certificates=pki["ca"].pem) as client:
            _refused(client, grpc.StatusCode.UNAVAILABLE)  # no client certificate
        chain, key = pki["stranger"].issue("intruder", server=False)
        with Client(server.target, timeout=3, retries=None, root_certificates=pki["ca"].pem,
                    certificate_chain=chain, private_key=key) as client:
            _refused(client, grpc.StatusCode.UNAVAILABLE)  # client certificate from another CA


def test_bearer_tokens(tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("# rotated weekly\nold-secret\nnew-secret\n")
    with ServerProcess("--auth-token-file", str(tokens)) as server:
        for token in ("old-secret", "new-secret"):
            with Client(server.target, timeout=10, token=token) as client:
                assert _ok(client)
                assert len(list(client.evaluate_stream([["3s 2h Ah"], ["Kd Kh 4c"]]))) == 2
        for token in (None, "wrong", "new-secret-but-longer", "# rotated weekly"):
            with Client(server.target, timeout=10, token=token) as client:
                _refused(client, grpc.StatusCode.UNAUTHENTICATED)
                with pytest.raises(PrialRpcError) as info:
                    list(client.evaluate_stream([["3s 2h Ah"]]))
                assert info.value.code == grpc.StatusCode.UNAUTHENTICATED
                assert client.health() == "SERVING"  # probes need no token
        server.wait_for_log('"code": "UNAUTHENTICATED"')


def test_sighup_reloads_the_certificate_and_a_bad_one_keeps_the_old(pki, tmp_path):
    """The certificate and key files replaced, then SIGHUP: new handshakes
    get the new certificate; a file that is not PEM is refused, in one log
    line, and the certificate in use stays."""
    cert, key = tmp_path / "server.pem", tmp_path / "server.key"
    cert.write_bytes(pki["files"]["server.pem"].read_bytes())
    key.write_bytes(pki["files"]["server.key"].read_bytes())
    renewed = Authority("prial renewed CA")
    with ServerProcess("--tls-cert", str(cert), "--tls-key", str(key)) as server:
        with Client(server.target, timeout=10, root_certificates=pki["ca"].pem) as client:
            assert _ok(client)
        new_cert, new_key = renewed.issue("localhost", server=True)
        cert.write_bytes(new_cert)
        key.write_bytes(new_key)
        server.proc.send_signal(signal.SIGHUP)
        server.wait_for_log('"event": "reloaded"')
        with Client(server.target, timeout=10, root_certificates=renewed.pem) as client:
            assert _ok(client)
        with Client(server.target, timeout=3, retries=None, root_certificates=pki["ca"].pem) as client:
            _refused(client, grpc.StatusCode.UNAVAILABLE)  # the old certificate is no longer served

        cert.write_text("not a certificate\n")
        server.proc.send_signal(signal.SIGHUP)
        log = server.wait_for_log('"event": "reload_failed"')
        [line] = [json.loads(line) for line in log.splitlines() if '"reload_failed"' in line]
        assert line["reason"].startswith(f"--tls-cert {cert} and --tls-key: not a PEM certificate and its key")
        with Client(server.target, timeout=10, root_certificates=renewed.pem) as client:
            assert _ok(client)
        assert server.terminate() == 0


def test_changed_token_files_are_reloaded_without_a_signal(tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("first\n")
    with ServerProcess("--auth-token-file", str(tokens), "--reload-interval", "0.1") as server:
        with Client(server.target, timeout=10, token="first") as client:
            assert _ok(client)
        tokens.write_text("second-token\n")  # a new size: a change even within the clock's resolution
        server.wait_for_log('"cause": "files changed"')
        with Client(server.target, timeout=10, token="second-token") as client:
            assert _ok(client)
        with Client(server.target, timeout=10, token="first") as client:
            _refused(client, grpc.StatusCode.UNAUTHENTICATED)
        tokens.write_text("# no token left\n")  # will not do: the tokens in use stay
        log = server.wait_for_log('"event": "reload_failed"')
        [failed] = [json.loads(line) for line in log.splitlines() if '"reload_failed"' in line]
        assert failed["cause"] == "files changed" and failed["kept"] == "previous"
        with Client(server.target, timeout=10, token="second-token") as client:
            assert _ok(client)
