"""Observability: Prometheus metrics and the per-call log line."""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import threading
import time
from typing import Any

import grpc

from .._core import __version__
from .calls import Call
from .jsonlog import utc
from .lifecycle import log


class Metrics:
    """Per-process metrics; in multi-process mode prometheus_client writes
    them to files that the supervisor serves summed."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector

        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)  # resident memory, open files, start time
        build = Gauge("prial_build_info", "The prial version serving (always 1)", ["version"],
                      registry=self.registry, multiprocess_mode="max")
        build.labels(__version__).set(1)
        self.requests = Counter(
            "prial_requests", "Calls finished, by method and status code (errors: code != OK)",
            ["method", "code"], registry=self.registry)
        self.hands = Counter(
            "prial_hands", "Hands ranked in answered calls, by method", ["method"], registry=self.registry)
        self.in_flight = Gauge(
            "prial_calls_in_flight", "Calls started and not yet finished, by method", ["method"],
            registry=self.registry, multiprocess_mode="livesum")
        self.latency = Histogram(
            "prial_request_seconds", "Call duration, by method and status code", ["method", "code"],
            registry=self.registry,
            buckets=(0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30))


class CallLog:
    """The per-call log lines, written off the request path.

    A call appends one small tuple (an atomic deque append: no lock, no
    formatting); a background thread turns what has gathered into lines
    every ``every_seconds`` and emits them as one record of the
    ``prial.server`` logger, one JSON object per line.  Formatting a log
    record per call on the request path cost a small Showdown about a fifth
    of its throughput under load (GIL time shared with every other call).
    Never card contents: method, code, duration, batch size.
    """

    # The values are identifiers, numbers and request ids (prial.service.
    # request_id keeps them free of quotes and backslashes), so formatting
    # the JSON by hand is safe (and far cheaper than json.dumps).
    LINE = ('{"time": "%s", "level": "info", "event": "rpc", "method": "%s", "code": "%s", "ms": %.3f, '
            '"hands": %d, "request_id": "%s", "pid": %d}')

    def __init__(self, every_seconds: float = 0.1) -> None:
        self._pending: collections.deque[tuple[float, str, str, float, int, str]] = collections.deque()
        self._pid = os.getpid()
        self._every = every_seconds
        self._stop = threading.Event()
        self._writer = threading.Thread(target=self._run, name="prial-call-log", daemon=True)
        self._writer.start()

    def record(self, method: str, code: str, seconds: float, hands: int, request_id: str) -> None:
        self._pending.append((time.time(), method, code, seconds * 1000, hands, request_id))

    def flush(self) -> None:
        pending, pid = self._pending, self._pid
        lines = []
        for _ in range(len(pending)):
            when, *fields = pending.popleft()
            lines.append(self.LINE % (utc(when), *fields, pid))
        if lines:
            log.info("\n".join(lines))

    def close(self) -> None:
        """Stops the writer after writing every line recorded so far."""
        self._stop.set()
        self._writer.join()
        self.flush()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.flush()


class Observer:
    """Records a finished call: metrics and one structured log line."""

    def __init__(self, metrics: Metrics, log_calls: bool) -> None:
        self.metrics = metrics
        self.call_log = CallLog() if log_calls and log.isEnabledFor(logging.INFO) else None
        # The labelled metrics of each (method, code), looked up once.
        self._children: dict[tuple[str, str], tuple[Any, Any, Any]] = {}
        self.calls_finished = 0
        self.open_calls = 0  # begun, not yet finished

    def _labelled(self, method: str, code: str) -> tuple[Any, Any, Any]:
        children = (self.metrics.requests.labels(method, code), self.metrics.latency.labels(method, code),
                    self.metrics.hands.labels(method))
        self._children[method, code] = children
        return children

    def begin(self, call: Call) -> None:
        """Counts ``call`` in flight until it finishes."""
        self.metrics.in_flight.labels(call.method).inc()
        call.in_flight = True
        self.open_calls += 1

    def finish(self, call: Call) -> None:
        self.calls_finished += 1  # under the GIL; only watched for change
        seconds = time.perf_counter() - call.start
        code = call.code.name
        requests, latency, hands = self._children.get((call.method, code)) or self._labelled(call.method, code)
        requests.inc()
        latency.observe(seconds)
        if call.in_flight:
            self.metrics.in_flight.labels(call.method).dec()
            self.open_calls -= 1
        if call.hands and call.code == grpc.StatusCode.OK:  # a refused call ranked nothing for its caller
            hands.inc(call.hands)
        if self.call_log is not None:
            self.call_log.record(call.method, code, seconds, call.hands, call.request_id)

    async def settled(self, seconds: float) -> None:
        """Returns once every call begun has finished (their log lines are
        then recorded), or after ``seconds``."""
        deadline = time.monotonic() + seconds
        while self.open_calls and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    def close(self) -> None:
        if self.call_log is not None:
            self.call_log.close()
