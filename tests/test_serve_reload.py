"""SIGHUP reloads, never stops, a server and the supervisor of
``--processes N``; the supervisor's children die with it.  Real servers on
127.0.0.1, each call and wait bounded."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import grpc
import pytest

import prial
from prial.client import Client, PrialRpcError

from .grpc_helpers import ServerProcess

HAND = ["3s 2h Ah"]
STRENGTH = prial.evaluate(HAND[0]).strength


def _events(server: ServerProcess, event: str) -> list[dict]:
    lines = (json.loads(line) for line in server.log().splitlines() if line.startswith("{"))
    return [line for line in lines if line["event"] == event]


def _wait_events(server: ServerProcess, event: str, count: int, timeout: float = 20) -> list[dict]:
    deadline = time.monotonic() + timeout
    while len(found := _events(server, event)) < count:
        assert time.monotonic() < deadline, f"not {count} {event!r} lines:\n{server.log()}"
        time.sleep(0.02)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped) is gone as a server.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_sighup_lets_calls_in_flight_finish_and_the_server_serve_on():
    """Streams open across the signal: each sends a batch before it and one
    after, and every one ends OK (the signal's default action killed the
    server, and them with UNAVAILABLE)."""
    with ServerProcess() as server:
        signalled = threading.Event()
        sent_first = threading.Semaphore(0)
        results: list[object] = []

        def stream() -> None:
            def batches():
                yield HAND
                sent_first.release()
                signalled.wait(20)
                yield HAND

            try:
                with Client(server.target, timeout=30) as client:
                    results.append([e.strengths.tolist() for e in client.evaluate_stream(batches())])
            except PrialRpcError as exc:
                results.append(exc.code)

        threads = [threading.Thread(target=stream) for _ in range(8)]
        for thread in threads:
            thread.start()
        for _ in threads:
            assert sent_first.acquire(timeout=20)
        server.proc.send_signal(signal.SIGHUP)
        _wait_events(server, "reloaded", 1)
        signalled.set()
        for thread in threads:
            thread.join(30)
        assert results == [[[STRENGTH], [STRENGTH]]] * 8
        assert server.proc.poll() is None
        with Client(server.target, timeout=10) as client:
            assert client.health() == "SERVING"
            assert client.evaluate(HAND).strengths.tolist() == [STRENGTH]
        assert server.terminate() == 0


def _refused(target: str, token: str) -> grpc.StatusCode:
    with Client(target, timeout=10, token=token) as client, pytest.raises(PrialRpcError) as info:
        client.evaluate(HAND)
    return info.value.code


def test_sighup_reloads_the_token_file_and_a_bad_one_keeps_the_old_tokens(tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("old-secret\n")
    with ServerProcess("--auth-token-file", str(tokens)) as server:
        with Client(server.target, timeout=10, token="old-secret") as client:
            assert client.evaluate(HAND).strengths.tolist() == [STRENGTH]
        tokens.write_text("new-secret\n")
        server.proc.send_signal(signal.SIGHUP)
        assert _wait_events(server, "reloaded", 1)[0]["tokens"] == 1
        with Client(server.target, timeout=10, token="new-secret") as client:
            assert client.evaluate(HAND).strengths.tolist() == [STRENGTH]
        assert _refused(server.target, "old-secret") == grpc.StatusCode.UNAUTHENTICATED

        # A file with no token in it will not do: the tokens stay as they were.
        tokens.write_text("# emptied by mistake\n")
        server.proc.send_signal(signal.SIGHUP)
        [failed] = _wait_events(server, "reload_failed", 1)
        assert failed["reason"] == f"--auth-token-file {tokens} holds no token (one a line, # comments)"
        with Client(server.target, timeout=10, token="new-secret") as client:
            assert client.evaluate(HAND).strengths.tolist() == [STRENGTH]
        assert server.terminate() == 0


def _children(server: ServerProcess, count: int) -> list[int]:
    return [line["pid"] for line in _wait_events(server, "serving", count + 1) if "pid" in line]


def test_sighup_to_the_supervisor_reaches_its_children_and_stops_no_one():
    with ServerProcess("--processes", "2") as server:
        children = _children(server, 2)
        server.proc.send_signal(signal.SIGHUP)
        reloaded = _wait_events(server, "reloaded", 2)
        assert sorted(line["pid"] for line in reloaded) == sorted(children)
        assert _events(server, "reload_forwarded")[0]["pids"] in (children, children[::-1])
        assert server.proc.poll() is None and all(_alive(pid) for pid in children)
        assert not _events(server, "child_exit")
        with Client(server.target, timeout=10) as client:
            assert client.evaluate(HAND).strengths.tolist() == [STRENGTH]
        assert server.terminate() == 0


def test_the_children_of_a_killed_supervisor_stop():
    """SIGKILL leaves the supervisor no time to stop its children: the
    kernel does, through the parent-death signal each child asked for."""
    with ServerProcess("--processes", "2") as server:
        children = _children(server, 2)
        try:
            server.proc.kill()
            server.proc.wait(10)
            deadline = time.monotonic() + 15
            while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not [pid for pid in children if _alive(pid)], server.log()
        finally:
            for pid in children:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
