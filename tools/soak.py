#!/usr/bin/env python3
"""Soak / load test of ``prial serve``: mixed traffic, every answer checked.

    python tools/soak.py                         # 60 s, 6 clients
    python tools/soak.py --seconds 300 --json    # the 5-minute soak

Starts ``prial serve`` on 127.0.0.1 (a free port; loopback only, never any
other address), then several concurrent clients drive mixed traffic for a
bounded time (and at most ``--max-calls`` calls): batches of every size
(1 hand to 1M, three to five cards, several rulesets, bytes and text),
streams, showdowns, showdown batches, partitions, Crash and casino
settlements, invalid requests, oversize batches, calls cancelled in flight
and deadlines that expire; and a hostile mix beside it: bytes that are no
message, streams that send nothing, oversize tables.  A prober checks
health every 50 ms, as a load balancer would.  Every answer is compared with the local Python
API on the same input; every error code with the one that input must get.

Reports calls, errors by code, wrong answers, unexpected codes, server log
lines that carry card text, and the server's RSS after warm-up (the first
fifth of the run, up to 30 s, under full load) and at the end (medians of
the first and last fifth of the samples taken every 2 s after warm-up).  Exits 1 on any wrong answer, unexpected code or card text in the log,
on RSS growth over ``--max-rss-growth`` percent or a health-check p99 over
``--max-health-p99-ms`` (defaults 10 % and 100 ms, checked on runs of 5
minutes or more, where the warm-up is a small part), or if the server does
not exit 0 on SIGTERM.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import numpy as np

import prial
from prial.client import Client, PrialRpcError, evaluate_request
from prial.v1 import prial_pb2_grpc as pb_grpc

OK = grpc.StatusCode.OK
INVALID = grpc.StatusCode.INVALID_ARGUMENT
OVERSIZE = grpc.StatusCode.RESOURCE_EXHAUSTED
CANCELLED = grpc.StatusCode.CANCELLED
DEADLINE = grpc.StatusCode.DEADLINE_EXCEEDED

MAX_BATCH = 1 << 20  # the server's default --max-batch, given explicitly below
RULESETS = [
    prial.Rules(),
    prial.Rules(preset="teen_patti"),
    prial.Rules(preset="three_card_poker"),
    prial.Rules(wild="deuces"),
    prial.Rules(wild="jokers", jokers=2, lowball=True),
]
EVALUATORS = {rules: prial.Evaluator(rules) for rules in RULESETS}
CARD_TEXT = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[cdhs♣♦♥♠](?![A-Za-z])")


class Wrong(Exception):
    """An answer that differs from the local API's."""


@dataclass
class Tally:
    """Shared by the client threads (under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    calls: collections.Counter = field(default_factory=collections.Counter)  # by kind
    codes: collections.Counter = field(default_factory=collections.Counter)  # by status code name
    wrong: list = field(default_factory=list)
    unexpected: list = field(default_factory=list)

    def record(self, kind: str, code: grpc.StatusCode, allowed: set, problem: str | None = None) -> None:
        with self.lock:
            self.calls[kind] += 1
            self.codes[code.name] += 1
            if problem is not None:
                self.wrong.append(f"{kind}: {problem}")
            elif code not in allowed:
                self.unexpected.append(f"{kind}: {code.name} (allowed: {sorted(c.name for c in allowed)})")


# ---------------------------------------------------------------------------
# Inputs


def hands(rng: np.random.Generator, rows: int, width: int, pack: int = 52) -> np.ndarray:
    """Uniform hands of distinct cards (rows with a repeat are redrawn)."""
    out = rng.integers(0, pack, (rows, width), dtype=np.uint8)
    while True:
        ordered = np.sort(out, axis=1)
        repeats = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not len(repeats):
            return out
        out[repeats] = rng.integers(0, pack, (len(repeats), width), dtype=np.uint8)


def batch_size(rng: random.Random) -> int:
    """Every size, weighted towards small: 1..16, hundreds, thousands, 1M."""
    bucket = rng.random()
    if bucket < 0.55:
        return rng.randint(1, 16)
    if bucket < 0.85:
        return rng.randint(17, 5000)
    if bucket < 0.99:
        return rng.randint(5001, 200_000)
    return MAX_BATCH


def deal(rng: random.Random, sizes: list[int], pack: int = 52) -> list[list[int]]:
    cards = rng.sample(range(pack), sum(sizes))
    out, start = [], 0
    for size in sizes:
        out.append(cards[start : start + size])
        start += size
    return out


# ---------------------------------------------------------------------------
# One call of each kind: (the codes allowed, a check of the answer)


def expect_same(local: Callable[[], object], remote: Callable[[], object],
                equal: Callable[[object, object], bool] = lambda a, b: a == b) -> tuple[grpc.StatusCode, set, str | None]:
    """Runs the local API and the server on the same input: either both
    answer and agree, or the local API rejects it and the server says
    INVALID_ARGUMENT."""
    try:
        expected = local()
        allowed = {OK}
    except prial.InvalidHandError:
        expected, allowed = None, {INVALID}
    try:
        got = remote()
    except PrialRpcError as exc:
        return exc.code, allowed, None
    if expected is None:
        return OK, allowed, None  # answered what the local API rejects: an unexpected OK
    return OK, allowed, None if equal(expected, got) else f"expected {expected!r:.200}, got {got!r:.200}"


def same_evaluation(rules: prial.Rules, batch: np.ndarray):
    ev = EVALUATORS[rules]

    def local():
        if batch.shape[1] == 3:
            return ev.evaluate_batch(batch), None
        keys = ev.best_of_batch(batch)
        return (keys >> 8).astype(np.uint16), keys

    def equal(expected, got) -> bool:
        strengths, keys = expected
        return np.array_equal(got.strengths, strengths) and (keys is None or np.array_equal(got.keys, keys))

    return local, equal


class Driver:
    """One client thread's calls."""

    def __init__(self, target: str, seed: int, tally: Tally) -> None:
        self.client = Client(target, timeout=60)
        # A raw stub on its own channel for the calls the Client does not
        # expose: cancelled in flight, or a deadline meant to expire.
        self.channel = grpc.insecure_channel(target, options=[
            ("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)])
        self.stub = pb_grpc.PrialStub(self.channel)
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.tally = tally

    def close(self) -> None:
        self.client.close()
        self.channel.close()

    def rules(self) -> prial.Rules:
        return self.rng.choice(RULESETS)

    # -- kinds -----------------------------------------------------------------

    def evaluate(self):
        rules = self.rules()
        batch = hands(self.np_rng, batch_size(self.rng), self.rng.choice((3, 3, 4, 5)), rules.pack_size)
        local, equal = same_evaluation(rules, batch)
        return expect_same(local, lambda: self.client.evaluate(batch, rules=rules), equal)

    def evaluate_text(self):
        rules = self.rules()
        ev = EVALUATORS[rules]
        rows = [prial.format_cards(h) for h in deal(self.rng, [3] * self.rng.randint(1, 12), rules.pack_size)]
        return expect_same(lambda: [ev.evaluate(r).description for r in rows],
                           lambda: self.client.evaluate(rows, rules=rules, describe=True).descriptions)

    def stream(self):
        rules = self.rules()
        width = self.rng.choice((3, 5))
        batches = [hands(self.np_rng, self.rng.randint(1, 3000), width, rules.pack_size)
                   for _ in range(self.rng.randint(1, 8))]
        checks = [same_evaluation(rules, b) for b in batches]
        return expect_same(
            lambda: [local() for local, _ in checks],
            lambda: list(self.client.evaluate_stream(batches, rules=rules)),
            lambda expected, got: len(got) == len(expected) and all(
                g.batch_index == i and equal(e, g) for i, ((_, equal), e, g) in enumerate(zip(checks, expected, got))))

    def showdown(self):
        rules = self.rules()
        size = self.rng.choice((3, 3, 4, 5))
        n = self.rng.randint(2, 4)
        players = [prial.Player(f"p{i}", cards, blind=self.rng.random() < 0.2, stake=self.rng.randint(0, 20))
                   for i, cards in enumerate(deal(self.rng, [size] * n, rules.pack_size))]
        seer = self.rng.choice([None] + [p.id for p in players]) if n == 2 else None
        return expect_same(lambda: prial.showdown(players, seer=seer, rules=rules, pot=10),
                           lambda: self.client.showdown(players, seer=seer, rules=rules, pot=10))

    def showdown_batch(self):
        rules = self.rules()
        rows = batch_size(self.rng) // 4 + 1
        both = hands(self.np_rng, rows, 6, rules.pack_size)
        seer, seen = np.ascontiguousarray(both[:, :3]), np.ascontiguousarray(both[:, 3:])
        return expect_same(lambda: prial.showdown_batch(seer, seen, rules=rules),
                           lambda: self.client.showdown_batch(seer, seen, rules=rules), np.array_equal)

    def partition(self):
        rules = self.rules()
        cards = deal(self.rng, [13], rules.pack_size)[0]
        objective = self.rng.choice(("lexicographic", "expected_points"))
        ev = EVALUATORS[rules]
        return expect_same(lambda: ev.partition(cards, objective=objective),
                           lambda: self.client.partition(cards, objective=objective, rules=rules))

    def crash(self):
        ev = EVALUATORS[RULESETS[0]]
        players = []
        for i, cards in enumerate(deal(self.rng, [13] * self.rng.randint(2, 4))):
            split = ev.partition(cards)
            players.append(prial.CrashPlayer(f"p{i}", split.hands, split.discards))
        return expect_same(lambda: prial.crash_showdown(players), lambda: self.client.crash_showdown(players))

    def casino(self):
        player, dealer = deal(self.rng, [3, 3])
        ante, play, bonus = self.rng.randint(1, 10), self.rng.choice((None, 5)), self.rng.choice((0, 2))
        return expect_same(lambda: prial.settle_casino(player, dealer, ante, play, bonus),
                           lambda: self.client.settle_casino(player, dealer, ante, play, bonus))

    def invalid(self):
        """A batch with one bad row: INVALID_ARGUMENT naming that row."""
        batch = hands(self.np_rng, self.rng.randint(1, 5000), 3)
        bad = self.rng.randrange(len(batch))
        if self.rng.random() < 0.5:
            batch[bad, 2] = batch[bad, 0]  # a repeated card
        else:
            batch[bad, 1] = self.rng.randint(52, 255)  # outside the pack
        try:
            self.client.evaluate(batch)
        except PrialRpcError as exc:
            problem = None if exc.code != INVALID or exc.hand_index == bad else f"row {exc.hand_index}, not {bad}"
            return exc.code, {INVALID}, problem
        return OK, {INVALID}, None

    def oversize(self):
        batch = np.zeros((MAX_BATCH + 1, 3), np.uint8)
        try:
            self.client.evaluate(batch)
        except PrialRpcError as exc:
            return exc.code, {OVERSIZE}, None
        return OK, {OVERSIZE}, None

    def cancelled(self):
        """A call cancelled while in flight: CANCELLED, or OK if it won the race."""
        batch = hands(self.np_rng, self.rng.randint(10_000, 300_000), 3)
        future = self.stub.Evaluate.future(evaluate_request(batch, None, False))
        time.sleep(self.rng.random() * 0.005)
        future.cancel()
        try:
            response = future.result()
        except grpc.FutureCancelledError:
            return CANCELLED, {CANCELLED, OK}, None
        except grpc.RpcError as exc:
            return exc.code(), {CANCELLED, OK}, None
        got = np.frombuffer(response.strengths, "<u2")
        return OK, {CANCELLED, OK}, None if np.array_equal(got, prial.evaluate_batch(batch)) else "cancelled call's answer"

    def stream_cancelled(self):
        """A stream cancelled after its first answer: the client sees
        CANCELLED, and what it read before is exactly right."""
        batches = [hands(self.np_rng, 2000, 3) for _ in range(50)]
        responses = self.stub.EvaluateStream(evaluate_request(b, None, False) for b in batches)
        first = next(responses)
        responses.cancel()
        problem = None if np.array_equal(np.frombuffer(first.strengths, "<u2"),
                                         prial.evaluate_batch(batches[0])) else "first batch of a cancelled stream"
        try:
            for _ in responses:
                pass
        except grpc.RpcError as exc:
            return exc.code(), {CANCELLED}, problem
        return OK, {CANCELLED}, problem

    def deadline(self):
        """A deadline likely to expire: DEADLINE_EXCEEDED, or a right answer."""
        batch = hands(self.np_rng, self.rng.randint(50_000, 400_000), 3)
        try:
            response = self.stub.Evaluate(evaluate_request(batch, None, False), timeout=self.rng.uniform(0.0005, 0.02))
        except grpc.RpcError as exc:
            return exc.code(), {DEADLINE}, None
        got = np.frombuffer(response.strengths, "<u2")
        return OK, {DEADLINE, OK}, None if np.array_equal(got, prial.evaluate_batch(batch)) else "answer past deadline"

    # ---- the hostile mix: what a broken or malicious client sends ----

    def malformed(self):
        """Bytes that are no request message: INVALID_ARGUMENT."""
        method = self.rng.choice(["Evaluate", "Showdown", "Partition", "Equity"])
        junk = b"\xff" * self.rng.randint(1, 64)  # a field tag that never ends: no message parses from it
        try:
            self.channel.unary_unary(f"/prial.v1.Prial/{method}")(junk, timeout=30)
        except grpc.RpcError as exc:
            return exc.code(), {INVALID}, None
        return OK, {INVALID}, None

    def idle_stream(self):
        """A stream that sends nothing for a while, then goes away."""
        release = threading.Event()

        def nothing():
            release.wait(self.rng.uniform(0.05, 0.5))
            return
            yield

        responses = self.stub.EvaluateStream(nothing(), timeout=30)
        try:
            list(responses)
        except grpc.RpcError as exc:
            return exc.code(), {OK}, None
        return OK, {OK}, None

    def oversize_players(self):
        """A Showdown of 1M empty players (2 MB): refused before it is read."""
        try:
            self.channel.unary_unary("/prial.v1.Prial/Showdown")(b"\x12\x00" * 1_000_000, timeout=30)
        except grpc.RpcError as exc:
            return exc.code(), {OVERSIZE}, None
        return OK, {OVERSIZE}, None

    KINDS: dict[str, int] = {  # kind -> weight
        "evaluate": 30, "evaluate_text": 8, "stream": 6, "showdown": 15, "showdown_batch": 6,
        "partition": 4, "crash": 2, "casino": 4, "invalid": 8, "oversize": 1,
        "cancelled": 4, "stream_cancelled": 2, "deadline": 4,
        "malformed": 4, "idle_stream": 2, "oversize_players": 1,
    }

    def one(self, kind: str) -> None:
        try:
            code, allowed, problem = getattr(self, kind)()
        except Exception as exc:  # noqa: BLE001 - a failure of the soak itself is a finding too
            code, allowed, problem = grpc.StatusCode.UNKNOWN, set(), f"{type(exc).__name__}: {exc}"
        self.tally.record(kind, code, allowed, problem)

    def run(self, stop: threading.Event, budget: Callable[[], bool]) -> None:
        kinds, weights = list(self.KINDS), list(self.KINDS.values())
        while not stop.is_set() and budget():
            self.one(self.rng.choices(kinds, weights)[0])


# ---------------------------------------------------------------------------
# The server


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Server:
    def __init__(self, extra: list[str]) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="prial-soak-")
        port_file = Path(self.dir.name) / "port"
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "prial", "serve", "--host", "127.0.0.1", "--port", "0",
             "--port-file", str(port_file), "--max-batch", str(MAX_BATCH), *extra],
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 60
        while not port_file.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                raise RuntimeError(f"prial serve did not start:\n{self.log_path.read_text()}")
            time.sleep(0.05)
        self.target = f"127.0.0.1:{int(port_file.read_text())}"

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -9

    def card_text_lines(self) -> list[str]:
        """The log lines with card text in them, a request's id aside: a
        made id is hex ("9c41...") and a caller's is the caller's own text."""
        self.log.flush()
        leaked = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                fields = json.loads(line)
            except ValueError:
                fields = None
            text = json.dumps({k: v for k, v in fields.items() if k != "request_id"}) \
                if isinstance(fields, dict) else line
            if CARD_TEXT.search(text):
                leaked.append(line)
        return leaked

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        self.dir.cleanup()


def soak(seconds: float, clients: int, max_calls: int, seed: int, server_args: list[str]) -> dict:
    server = Server(server_args)
    try:
        tally = Tally()
        drivers = [Driver(server.target, seed + i, tally) for i in range(clients)]
        drivers[0].client.wait_ready(30)
        rss_idle = rss_kib(server.proc.pid)
        for kind in Driver.KINDS:  # every kind at least once, whatever the time
            drivers[0].one(kind)
        stop = threading.Event()
        start = time.monotonic()

        def budget() -> bool:
            with tally.lock:
                calls = sum(tally.calls.values())
            return calls < max_calls and time.monotonic() - start < seconds

        threads = [threading.Thread(target=d.run, args=(stop, budget), daemon=True) for d in drivers]
        health_ms: list[float] = []
        prober = threading.Thread(target=probe_health, args=(server.target, stop, health_ms), daemon=True)
        prober.start()
        for t in threads:
            t.start()
        # The RSS baseline is taken after a warm-up under the full load: every
        # worker thread has then had its malloc arena and gRPC buffers grown,
        # so the growth after it measures the steady state (a leak).
        warmup = min(30.0, seconds / 5)
        time.sleep(warmup)
        samples = [rss_kib(server.proc.pid)]  # every 2 s from here on
        while any(t.is_alive() for t in threads) and time.monotonic() - start < seconds + 600:
            threads[0].join(2) if threads[0].is_alive() else time.sleep(0.5)
            samples.append(rss_kib(server.proc.pid))
        stop.set()
        prober.join(5)
        elapsed = time.monotonic() - start
        # One sample swings by the buffers of the calls in flight (a 1M-hand
        # batch is ~5 MiB each way): compare the medians of the first and
        # the last fifth of the samples instead.
        window = max(1, len(samples) // 5)
        rss_start = int(np.median(samples[:window]))
        rss_end = int(np.median(samples[-window:]))
        for d in drivers:
            d.close()
        leaked = server.card_text_lines()
        exit_code = server.stop()
    finally:
        server.close()
    return {
        "seconds": round(elapsed, 1), "clients": clients, "calls": sum(tally.calls.values()),
        "calls_by_kind": dict(tally.calls), "codes": dict(tally.codes),
        "wrong_answers": len(tally.wrong), "unexpected_codes": len(tally.unexpected),
        "examples": (tally.wrong + tally.unexpected)[:10],
        "log_lines_with_card_text": len(leaked), "rss_idle_kib": rss_idle, "warmup_seconds": warmup,
        "rss_start_kib": rss_start, "rss_end_kib": rss_end, "rss_max_kib": max(samples),
        "rss_samples_kib": samples[::max(1, len(samples) // 40)],
        "rss_growth_pct": round(100 * (rss_end - rss_start) / rss_start, 2), "server_exit": exit_code,
        "health_checks": len(health_ms),
        "health_p50_ms": round(float(np.percentile(health_ms, 50)), 2) if health_ms else None,
        "health_p99_ms": round(float(np.percentile(health_ms, 99)), 2) if health_ms else None,
    }


def probe_health(target: str, stop: threading.Event, latencies: list[float]) -> None:
    """A load balancer's view: a health check every 50 ms, each one timed."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(target) as channel:
        check = health_pb2_grpc.HealthStub(channel).Check
        while not stop.wait(0.05):
            began = time.perf_counter()
            try:
                check(health_pb2.HealthCheckRequest(), timeout=5)
            except grpc.RpcError:
                latencies.append(5000.0)  # counted as the worst answer
                continue
            latencies.append((time.perf_counter() - began) * 1000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60, help="traffic time (default 60)")
    parser.add_argument("--clients", type=int, default=6, help="concurrent clients (default 6)")
    parser.add_argument("--max-calls", type=int, default=1_000_000, help="stop after this many calls")
    parser.add_argument("--seed", type=int, default=1, help="traffic seed (default 1)")
    parser.add_argument("--max-rss-growth", type=float,
                        help="fail above this RSS growth in percent (default: 10 for runs of 300 s or more)")
    parser.add_argument("--max-health-p99-ms", type=float,
                        help="fail above this health-check p99 in ms (default: 100 for runs of 300 s or more)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("server_args", nargs="*", help="extra `prial serve` options (after --)")
    args = parser.parse_args()

    report = soak(args.seconds, args.clients, args.max_calls, args.seed, args.server_args)
    limit = args.max_rss_growth if args.max_rss_growth is not None else (10.0 if args.seconds >= 300 else None)
    failures = []
    if report["wrong_answers"]:
        failures.append("wrong answers")
    if report["unexpected_codes"]:
        failures.append("unexpected status codes")
    if report["log_lines_with_card_text"]:
        failures.append("card text in the server log")
    if report["server_exit"] != 0:
        failures.append(f"server exit {report['server_exit']} on SIGTERM")
    if limit is not None and report["rss_growth_pct"] > limit:
        failures.append(f"RSS grew {report['rss_growth_pct']}% (limit {limit}%)")
    health_limit = args.max_health_p99_ms if args.max_health_p99_ms is not None else (
        100.0 if args.seconds >= 300 else None)
    if health_limit is not None and (report["health_p99_ms"] or 0) > health_limit:
        failures.append(f"health p99 {report['health_p99_ms']} ms (limit {health_limit} ms)")
    report["failures"] = failures
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{report['calls']:,} calls in {report['seconds']} s from {report['clients']} clients "
              f"({report['calls'] / max(report['seconds'], 1e-9):,.0f}/s)")
        print("  by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(report["calls_by_kind"].items())))
        print("  codes:   " + ", ".join(f"{k} {v}" for k, v in sorted(report["codes"].items())))
        print(f"  wrong answers {report['wrong_answers']}, unexpected codes {report['unexpected_codes']}, "
              f"log lines with card text {report['log_lines_with_card_text']}")
        print(f"  server RSS {report['rss_idle_kib'] / 1024:.1f} MiB idle; median "
              f"{report['rss_start_kib'] / 1024:.1f} MiB after {report['warmup_seconds']:.0f} s of warm-up -> "
              f"{report['rss_end_kib'] / 1024:.1f} MiB at the end ({report['rss_growth_pct']:+.1f}%, "
              f"max {report['rss_max_kib'] / 1024:.1f} MiB); "
              f"exit {report['server_exit']} on SIGTERM")
        print(f"  health: {report['health_checks']} checks during the run, p50 {report['health_p50_ms']} ms, "
              f"p99 {report['health_p99_ms']} ms")
        for example in report["examples"]:
            print(f"  ! {example}")
        print("FAILED: " + "; ".join(failures) if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
