"""End-to-end gRPC figures: a real ``prial serve`` and a load client, loopback only.

Run: ``python benchmarks/bench_grpc.py [--seconds 3] [--json]``.  Bounded in
time (each figure runs for about ``--seconds``; the whole run well under a
minute by default).  Reports, in one run against one server:

- ``Evaluate`` hands/s end to end for 1M-hand batches of three-card and
  of five-card hands, request building and response decoding into numpy
  included;
- small calls/s and p50/p99 latency with ``--callers`` concurrent callers
  (threads of one client process, one channel each) for a two-player
  ``Showdown`` and a one-hand ``Evaluate``, next to the empty-RPC baseline
  (an ``Evaluate`` of zero hands: the same server, transport and call
  wrapper, no prial work) and health checks (which have capacity of their
  own), measured the same way, in ``--rounds`` alternating rounds.  The
  ratio to the baseline is the median of the rounds' own ratios, so drift
  in the machine's load between rounds does not count.  Each is measured
  twice: through ``prial.client.Client`` (request building and result
  decoding in the caller included) and on the wire (generated stubs sending
  a request built once, as a load generator such as ghz does), which shows
  the server's own cost next to the baseline's.

The server logs every call as it does in production (to a temporary file).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import grpc
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from grpc_helpers import ServerProcess  # noqa: E402

import prial  # noqa: E402
from prial import random_hands  # noqa: E402
from prial.client import Client  # noqa: E402
from prial.v1 import prial_pb2, prial_pb2_grpc  # noqa: E402


def batch_throughput(client: Client, hands: np.ndarray, seconds: float) -> dict[str, float]:
    """Median hands/s over repeated whole calls for about ``seconds``."""
    client.evaluate(hands)  # warm: tables, connection
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(times) < 3:
        start = time.perf_counter()
        result = client.evaluate(hands)
        times.append(time.perf_counter() - start)
    assert result.strengths.size == len(hands)
    median = statistics.median(times)
    return {"hands": len(hands), "calls": len(times), "median_s": median, "hands_per_s": len(hands) / median}


def process_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children still running (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    return total


def concurrent_calls(make_call: Callable[[Client], Callable[[], object]], target: str,
                     callers: int, seconds: float, server_pid: int) -> dict[str, float]:
    """Calls/s and latency percentiles with ``callers`` threads calling in a
    loop, and the CPU time (server + this client) per call: a figure the
    machine's other load disturbs far less than the rate."""
    latencies: list[list[float]] = [[] for _ in range(callers)]
    start_gate = threading.Barrier(callers + 1)
    stop_at = [0.0]

    def caller(index: int) -> None:
        with Client(target, timeout=30) as client:
            call = make_call(client)
            for _ in range(20):  # warm the connection
                call()
            start_gate.wait()
            mine = latencies[index]
            while True:
                t0 = time.perf_counter()
                call()
                t1 = time.perf_counter()
                if t1 > stop_at[0]:
                    break
                mine.append(t1 - t0)

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(callers)]
    for t in threads:
        t.start()
    stop_at[0] = float("inf")
    start_gate.wait()
    began = time.perf_counter()
    cpu_began = process_cpu_seconds(server_pid) + time.process_time()
    stop_at[0] = began + seconds
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    cpu = process_cpu_seconds(server_pid) + time.process_time() - cpu_began
    every = np.array([x for mine in latencies for x in mine])
    return {
        "calls": int(every.size),
        "calls_per_s": every.size / elapsed,
        "p50_ms": float(np.percentile(every, 50) * 1000),
        "p99_ms": float(np.percentile(every, 99) * 1000),
        "cpu_us_per_call": cpu / max(1, every.size) * 1e6,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (default 3)")
    parser.add_argument("--rows", type=int, default=1_000_000, help="hands per batch (default 1,000,000)")
    parser.add_argument("--callers", type=int, default=8, help="concurrent small callers (default 8)")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds of small calls (default 6)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (default 1)")
    parser.add_argument("--workers", type=int, help="server worker threads (default: the server's)")
    parser.add_argument("--skip-batches", action="store_true", help="small-call figures only")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="extra prial serve argument (repeatable), e.g. --server-arg=--no-call-log")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    figures: dict[str, dict[str, float]] = {}
    server_args = ["--processes", str(args.processes)]
    if args.workers:
        server_args += ["--workers", str(args.workers)]
    server_args += args.server_arg
    with ServerProcess(*server_args) as server, Client(server.target, timeout=60) as client:
        if not args.skip_batches:
            for width in (3, 5):
                figures[f"evaluate_1m_{width}card"] = batch_throughput(
                    client, random_hands(args.rows, width, seed=2026), args.seconds)
        one_hand = random_hands(1, 3, seed=7)
        see = [prial.Player("a", "7s 7h Qc", stake=10), prial.Player("b", "7d 7c Qh", stake=10)]
        showdown_request = prial_pb2.ShowdownRequest(
            players=[prial_pb2.Player(id=p.id, cards=prial_pb2.Cards(indices=bytes(prial.parse_cards(p.cards))),
                                      stake=p.stake) for p in see],
            seer="a")
        empty = np.zeros((0, 3), np.uint8)

        def on_the_wire(method: str, request: object) -> Callable[[Client], Callable[[], object]]:
            def make(_client: Client) -> Callable[[], object]:
                channel = grpc.insecure_channel(server.target)
                call = getattr(prial_pb2_grpc.PrialStub(channel), method)
                return lambda: call(request, timeout=30)
            return make

        small = {
            "empty_rpc_baseline": lambda c: (lambda: c.evaluate(empty)),
            "small_showdown": lambda c: (lambda: c.showdown(see, seer="a")),
            "small_evaluate": lambda c: (lambda: c.evaluate(one_hand)),
            "health": lambda c: c.health,
            "empty_rpc_baseline_wire": on_the_wire("Evaluate", prial_pb2.EvaluateRequest()),
            "small_showdown_wire": on_the_wire("Showdown", showdown_request),
        }
        # Alternating rounds (each order reversed from the last), so drift in
        # the machine's load hits every figure alike.
        rounds: dict[str, list[dict[str, float]]] = {name: [] for name in small}
        for round_index in range(args.rounds):
            order = list(small) if round_index % 2 == 0 else list(small)[::-1]
            for name in order:
                rounds[name].append(concurrent_calls(small[name], server.target, args.callers,
                                                     args.seconds / args.rounds, server.proc.pid))
        for name, runs in rounds.items():
            figures[name] = {
                "calls": sum(r["calls"] for r in runs),
                "calls_per_s": statistics.median(r["calls_per_s"] for r in runs),
                "p50_ms": statistics.median(r["p50_ms"] for r in runs),
                "p99_ms": statistics.median(r["p99_ms"] for r in runs),
                "cpu_us_per_call": statistics.median(r["cpu_us_per_call"] for r in runs),
            }
        for name in ("small_showdown", "small_evaluate", "small_showdown_wire"):
            baseline = "empty_rpc_baseline_wire" if name.endswith("_wire") else "empty_rpc_baseline"
            pairs = list(zip(rounds[name], rounds[baseline]))
            figures[name]["vs_baseline"] = statistics.median(r["calls_per_s"] / b["calls_per_s"] for r, b in pairs)
            figures[name]["cpu_vs_baseline"] = statistics.median(
                b["cpu_us_per_call"] / r["cpu_us_per_call"] for r, b in pairs)

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for name, figure in figures.items():
        if "hands_per_s" in figure:
            print(f"{name:24s} {figure['hands_per_s'] / 1e6:8.1f} M hands/s   "
                  f"(median {figure['median_s'] * 1000:.1f} ms per {figure['hands']:,}-hand call, {figure['calls']} calls)")
        else:
            extra = (f"   {figure['vs_baseline']:.0%} of baseline calls/s, "
                     f"{figure['cpu_vs_baseline']:.0%} of its calls per CPU-second") if "vs_baseline" in figure else ""
            print(f"{name:24s} {figure['calls_per_s']:8.0f} calls/s    p50 {figure['p50_ms']:.2f} ms  "
                  f"p99 {figure['p99_ms']:.2f} ms  {figure['cpu_us_per_call']:.0f} us CPU/call  "
                  f"({figure['calls']} calls, {args.callers} callers){extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
