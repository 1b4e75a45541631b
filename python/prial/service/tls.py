"""TLS of the server (``--tls-cert``, ``--tls-key``, ``--tls-client-ca``):
the files checked as Python's own TLS would load them, so that a bad
certificate is named at start, and a bad replacement refused on reload."""

from __future__ import annotations

import ssl
import tempfile

import grpc

from ..errors import ConfigurationError
from .options import ServeOptions, read_option_file


def serves_tls(options: ServeOptions) -> bool:
    """Whether the options ask for TLS; ConfigurationError for a half pair."""
    if not (options.tls_cert or options.tls_key):
        if options.tls_client_ca:
            raise ConfigurationError("--tls-client-ca needs --tls-cert and --tls-key")
        return False
    if not (options.tls_cert and options.tls_key):
        raise ConfigurationError("--tls-cert and --tls-key go together")
    return True


def certificate_configuration(options: ServeOptions) -> grpc.ServerCertificateConfiguration:
    """The certificate, key and client CA as the files hold them now.
    ConfigurationError naming the file if one is unreadable, or is not PEM
    (a certificate and its matching key; a CA bundle)."""
    assert options.tls_cert and options.tls_key
    key = read_option_file("--tls-key", options.tls_key)
    cert = read_option_file("--tls-cert", options.tls_cert)
    client_ca = read_option_file("--tls-client-ca", options.tls_client_ca) if options.tls_client_ca else None
    _check_pair(cert, key, options.tls_cert)
    if client_ca is not None:
        try:
            ssl.create_default_context(cadata=client_ca.decode(errors="replace"))
        except (ssl.SSLError, ValueError) as exc:
            raise ConfigurationError(f"--tls-client-ca {options.tls_client_ca}: not a PEM CA bundle ({_why(exc)})",
                                     options.tls_client_ca) from None
    return grpc.ssl_server_certificate_configuration([(key, cert)], root_certificates=client_ca)


def _check_pair(cert: bytes, key: bytes, cert_path: str) -> None:
    # Python's ssl loads a pair only from files: the bytes just read, not the
    # paths, so that what is checked is what is served.
    with tempfile.NamedTemporaryFile() as cert_file, tempfile.NamedTemporaryFile() as key_file:
        cert_file.write(cert)
        key_file.write(key)
        cert_file.flush()
        key_file.flush()
        try:
            ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert_file.name, key_file.name)
        except ssl.SSLError as exc:
            raise ConfigurationError(f"--tls-cert {cert_path} and --tls-key: not a PEM certificate and its key "
                                     f"({_why(exc)})", cert_path) from None


def _why(exc: Exception) -> str:
    return getattr(exc, "reason", None) or str(exc).split("] ")[-1] or type(exc).__name__
