"""TLS credentials of the server (``--tls-cert``, ``--tls-key``, ``--tls-client-ca``)."""

from __future__ import annotations

import grpc

from ..errors import ConfigurationError
from .options import ServeOptions, read_option_file


def server_credentials(options: ServeOptions) -> grpc.ServerCredentials | None:
    """The server's TLS credentials, or None to serve plaintext."""
    if not (options.tls_cert or options.tls_key):
        if options.tls_client_ca:
            raise ConfigurationError("--tls-client-ca needs --tls-cert and --tls-key")
        return None
    if not (options.tls_cert and options.tls_key):
        raise ConfigurationError("--tls-cert and --tls-key go together")
    client_ca = read_option_file("--tls-client-ca", options.tls_client_ca) if options.tls_client_ca else None
    return grpc.ssl_server_credentials(
        [(read_option_file("--tls-key", options.tls_key), read_option_file("--tls-cert", options.tls_cert))],
        root_certificates=client_ca,
        require_client_auth=client_ca is not None,
    )
