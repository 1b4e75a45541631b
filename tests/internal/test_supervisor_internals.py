"""The supervisor's backoff and the start-up error of a failed gRPC bind."""

from __future__ import annotations

import socket

import pytest

from prial.service.lifecycle import startup_failure
from prial.service.options import ServeOptions
from prial.service.supervisor import Backoff


@pytest.fixture
def taken_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_backoff_doubles_up_to_a_limit_and_resets_after_a_stable_run():
    backoff = Backoff(start=0.1, limit=0.5, stable=10)
    assert [backoff.delay(1.0) for _ in range(5)] == [0.1, 0.2, 0.4, 0.5, 0.5]
    assert backoff.delay(10.0) == 0.1
    assert backoff.delay(0.0) == 0.2


def test_grpc_bind_failure_is_given_its_reason(taken_port):
    """Should gRPC's own bind fail (the port taken after the check), its
    reasonless RuntimeError becomes the one-line error with the reason."""
    failure = startup_failure(
        RuntimeError(f"Failed to bind to address 127.0.0.1:{taken_port}; set GRPC_VERBOSITY=debug"),
        ServeOptions(port=taken_port))
    assert str(failure) == f"cannot listen on 127.0.0.1:{taken_port}: address in use"
    assert startup_failure(ValueError("a bug"), ServeOptions()) is None
