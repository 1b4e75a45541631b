"""The betting table's speed: prial's Python API and native self-play
against PokerKit, in one process, in alternating rounds.

    python benchmarks/bench_table.py [--seconds 3] [--rounds 5]

Each figure counts player actions a second:

- PokerKit (the baseline, where installed: ``pip install pokerkit``):
  six-handed no-limit hold'em, dealing, blinds and the rest automated;
  each player action chosen uniformly among fold, check/call and
  bet/raise, a bet's amount uniform between its least and most.
- prial, Python API: six-handed Brag deals played through ``prial.Deal``
  by the same kind of policy: an action uniform among the legal ones, a
  stake's amount uniform between ``least`` and ``most`` (``least × 4``
  when ``most`` is None); looks and discards count as actions.
- prial, native: ``_core.table_self_play`` with the random policy.

Prints each round's rates, their medians and prial's ratios to PokerKit,
with the load average.  Under pytest-benchmark (``python -m pytest
benchmarks/bench_table.py``) a short Python-API run is timed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import prial
from prial.cli.bench_table import PLAYERS, play_prial, pokerkit_player
from prial.table.batch import self_play


def prial_python(seconds: float, seed: int = 1) -> float:
    """Actions a second through prial.Deal, six-handed Brag."""
    table = prial.TableRules()
    actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        actions += play_prial(table, 200, seed + actions)[0]
    return actions / (time.perf_counter() - started)


def prial_native(seconds: float, seed: int = 1) -> float:
    """Actions a second of native self-play (one core), six-handed Brag."""
    table = prial.TableRules()
    actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        actions += int(self_play(table, [None] * len(PLAYERS), 50_000, seed=seed + actions)[1].sum())
    return actions / (time.perf_counter() - started)


def pokerkit_python(seconds: float, seed: int = 1) -> float | None:
    """Actions a second of PokerKit, six-handed no-limit hold'em; None
    without pokerkit."""
    play = pokerkit_player()
    if play is None:
        return None
    actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        actions += play(20, seed + actions)
    return actions / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per figure per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    figures: dict[str, list[float]] = {"pokerkit": [], "prial_python": [], "prial_native": []}
    for r in range(args.rounds):
        baseline = pokerkit_python(args.seconds, seed=r)
        if baseline is not None:
            figures["pokerkit"].append(baseline)
        figures["prial_python"].append(prial_python(args.seconds, seed=r))
        figures["prial_native"].append(prial_native(args.seconds, seed=r))
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:,.0f}/s" for k, v in figures.items() if v), flush=True)
    medians = {k: statistics.median(v) for k, v in figures.items() if v}
    print("medians: " + ", ".join(f"{k} {v:,.0f} actions/s" for k, v in medians.items()))
    if "pokerkit" in medians:
        ratios = [p / b for p, b in zip(figures["prial_python"], figures["pokerkit"])]
        print(f"prial Python API / PokerKit: {', '.join(f'{x:.0f}x' for x in ratios)} "
              f"(median {statistics.median(ratios):.0f}x)")
    else:
        print("PokerKit is not installed: no baseline (pip install pokerkit)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; CPU: {_cpu()}")


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def test_prial_python_api(benchmark) -> None:
    rate = benchmark.pedantic(prial_python, args=(0.2,), rounds=3)
    assert rate > 0


if __name__ == "__main__":
    main()
