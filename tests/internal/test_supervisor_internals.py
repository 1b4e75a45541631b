"""The supervisor's backoff, the start-up error of a failed gRPC bind, and
a server process's signals once it has stopped or failed."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap

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


# Run in a process of its own: the server's handlers would replace pytest's.
SIGNALS_AFTER_A_FAILED_START = textwrap.dedent("""
    import asyncio, signal, sys
    from prial.service import process
    from prial.service.options import ServeOptions

    async def failing_build(options):
        raise OSError("no server today")

    process._build = failing_build

    async def main():
        try:
            await process._serve(ServeOptions(port=0), None, 0)
        except OSError:
            pass
        # Still in the loop, its wakeup pipe still open: what a signal
        # arriving now, or while the loop closes, would run.
        return [signal.getsignal(s) == signal.SIG_IGN for s in (signal.SIGTERM, signal.SIGINT)], \\
            signal.set_wakeup_fd(-1)

    ignored, wakeup_fd = asyncio.run(main())
    print(ignored, wakeup_fd)
""")


def test_a_server_that_failed_to_start_ignores_stop_signals_before_its_loop_closes():
    """Otherwise a supervisor's SIGTERM to a process whose start failed, in
    the moment its event loop closes, made Python print an ignored exception
    (a write to the closed wakeup pipe) on the server's standard error."""
    done = subprocess.run([sys.executable, "-c", SIGNALS_AFTER_A_FAILED_START], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[True,", "True]", "-1"]
