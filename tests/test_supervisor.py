"""``prial serve`` as a supervisor of N processes, and start-up failures of
``prial serve`` with one process or several: real servers on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import grpc
import pytest

import prial
from prial.client import Client, PrialRpcError

from .grpc_helpers import ServerProcess, free_port, scrape_until

pytestmark = pytest.mark.slow

STRENGTH = prial.evaluate("3s 2h Ah").strength


def _lines(server: ServerProcess) -> list[dict]:
    return [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]


def _serving(server: ServerProcess, count: int, timeout: float = 20) -> list[dict]:
    """The first ``count`` ``serving`` lines of the children (with a pid)."""
    deadline = time.monotonic() + timeout
    while True:
        serving = [line for line in _lines(server) if line["event"] == "serving" and "pid" in line]
        if len(serving) >= count:
            return serving
        assert time.monotonic() < deadline, f"not {count} children serving:\n{server.log()}"
        time.sleep(0.02)


def _call(target: str, tries: int = 20) -> None:
    """One Evaluate on a fresh connection; UNAVAILABLE (a connection to the
    killed process) is retried, anything else fails the test."""
    for _ in range(tries):
        try:
            with Client(target, timeout=5) as client:
                assert client.evaluate(["3s 2h Ah"]).strengths.tolist() == [STRENGTH]
            return
        except PrialRpcError as exc:
            if exc.code != grpc.StatusCode.UNAVAILABLE:
                raise
            time.sleep(0.05)
    raise AssertionError(f"no answer in {tries} tries")


OK_EVALUATE = 'prial_requests_total{code="OK",method="Evaluate"}'


def _evaluate_total(metrics_port: int, at_least: float = 0.0) -> float:
    """The summed count of answered Evaluate calls, once it is ``at_least``
    (a call is counted a moment after its client has the answer)."""
    samples = scrape_until(f"http://127.0.0.1:{metrics_port}/metrics", lambda now: now.get(OK_EVALUATE, 0) >= at_least)
    return samples.get(OK_EVALUATE, 0.0)


def _settled_evaluate_total(metrics_port: int) -> float:
    """The count once calls that were answered have all been counted: the
    same on two reads 0.2 s apart (within 10 s)."""
    counts: list[float] = []

    def settled(now: dict[str, float]) -> bool:
        counts.append(now.get(OK_EVALUATE, 0.0))
        return counts[-2:-1] == counts[-1:]

    scrape_until(f"http://127.0.0.1:{metrics_port}/metrics", settled, interval=0.2)
    return counts[-1]


def test_a_killed_child_is_restarted_while_the_others_serve():
    metrics_port = free_port()
    with ServerProcess("--processes", "2", "--metrics-port", str(metrics_port)) as server:
        first = {line["process"]: line["pid"] for line in _serving(server, 2)}
        answered, failures = [], []
        stop = threading.Event()

        def keep_calling() -> None:
            deadline = time.monotonic() + 30
            while not stop.is_set() and time.monotonic() < deadline:
                try:
                    _call(server.target)
                    answered.append(time.monotonic())
                except BaseException as exc:  # noqa: BLE001 - reported by the main thread
                    failures.append(exc)
                    return

        caller = threading.Thread(target=keep_calling)
        caller.start()
        try:
            deadline = time.monotonic() + 10
            while len(answered) < 5 and not failures and time.monotonic() < deadline:
                time.sleep(0.01)
            killed_at = time.monotonic()
            os.kill(first[0], signal.SIGKILL)
            server.wait_for_log('"child_restart"')
            replacement = _serving(server, 3)[2]
            assert replacement["process"] == 0 and replacement["pid"] not in first.values()
            # Calls were answered while process 0 was down, and go on after.
            deadline = time.monotonic() + 10
            while sum(t > killed_at for t in answered) < 20 and not failures and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            stop.set()
            caller.join(30)
        assert not failures, failures
        assert sum(t > killed_at for t in answered) >= 20

        lines = _lines(server)
        exits = [line for line in lines if line["event"] == "child_exit"]
        assert [(e["pid"], e["code"], e["process"]) for e in exits] == [(first[0], -9, 0)]
        restart = next(line for line in lines if line["event"] == "child_restart")
        assert (restart["pid"], restart["previous_pid"]) == (replacement["pid"], first[0])

        # The replacement answers and counts into the summed metrics.
        before = _settled_evaluate_total(metrics_port)  # the caller's last calls counted
        made = 0
        for _ in range(8):  # rounds of fresh connections, spread by the kernel
            for _ in range(10):
                _call(server.target)
                made += 1
            time.sleep(0.2)  # the per-call log lines are written every 0.1 s
            if any(line["event"] == "rpc" and line.get("pid") == replacement["pid"] for line in _lines(server)):
                break
        else:
            pytest.fail(f"the replacement answered none of {made} calls:\n{server.log()}")
        assert _evaluate_total(metrics_port, at_least=before + made) == before + made

        started = time.monotonic()
        assert server.terminate(timeout=20) == 0
        assert time.monotonic() - started < 15
        stopped = {line["pid"] for line in _lines(server) if line["event"] == "stopped"}
        assert stopped == {first[1], replacement["pid"]}


def test_a_child_killed_again_and_again_is_restarted_ever_later():
    with ServerProcess("--processes", "2") as server:
        victim = _serving(server, 2)[0]["pid"]
        waited = []
        for round_ in range(3):
            killed_at = time.monotonic()
            os.kill(victim, signal.SIGKILL)
            server.wait_for_log('"child_restart"', count=round_ + 1)
            waited.append(time.monotonic() - killed_at)
            victim = _serving(server, 3 + round_)[-1]["pid"]
        lines = _lines(server)
        exits = [line for line in lines if line["event"] == "child_exit"]
        restarts = [line for line in lines if line["event"] == "child_restart"]
        # Short-lived children: the delay doubles, and the restart waits for it.
        assert [e["restart_in_s"] for e in exits] == [0.1, 0.2, 0.4]
        assert [r["delay_s"] for r in restarts] == [0.1, 0.2, 0.4]
        assert [r["restarts"] for r in restarts] == [1, 2, 3]
        assert all(w >= d for w, d in zip(waited, [0.1, 0.2, 0.4]))
        _call(server.target)
        assert server.terminate(timeout=20) == 0


def _serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "prial", "serve", "--host", "127.0.0.1", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def taken_port():
    """A port some other program listens on (no SO_REUSEPORT)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_port_in_use_is_one_line_and_exit_1(taken_port, processes):
    done = _serve("--port", str(taken_port), "--processes", processes)
    assert done.returncode == 1
    assert done.stderr == f"prial: error: cannot listen on 127.0.0.1:{taken_port}: address in use\n"


def test_a_missing_tls_file_is_found_before_forking(tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("not read: the certificate is missing\n")
    missing = tmp_path / "no-cert.pem"
    done = _serve("--port", "0", "--processes", "2", "--tls-cert", str(missing), "--tls-key", str(key))
    assert done.returncode == 1  # a file that will not do is a run-time failure
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"prial: error: --tls-cert {missing}: cannot read it")


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_child_start_up_failure_reaches_the_parent(tmp_path, processes):
    """A token file is readable (checked before forking) but holds no token:
    the children find out, and the supervisor prints what they said, with
    the exit status of a file at fault."""
    tokens = tmp_path / "tokens"
    tokens.write_text("# no token yet\n")
    done = _serve("--port", "0", "--processes", processes, "--auth-token-file", str(tokens))
    assert done.returncode == 1
    assert done.stderr == f"prial: error: --auth-token-file {tokens} holds no token (one a line, # comments)\n"


@pytest.mark.parametrize("processes", ["1", "2"])
def test_options_that_cannot_go_together_are_bad_input(tmp_path, processes):
    cert = tmp_path / "cert.pem"
    cert.write_text("not read: the key is missing\n")
    done = _serve("--port", "0", "--processes", processes, "--tls-cert", str(cert))
    assert done.returncode == 2
    assert done.stderr == "prial: error: --tls-cert and --tls-key go together\n"
