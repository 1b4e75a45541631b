"""``prial bench``: throughput figures, each next to a baseline in the same run.

Every figure is the median of ``--repeat`` timed runs over the same data.
A section is a plain function returning a ``Section``: a title, its
figures, and a note saying what its ratios compare (and why one may be
below 1x); capabilities add theirs to ``SECTIONS``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import platform
import statistics
import textwrap
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from .. import _core
from ..cards import format_cards, random_hands
from ..evaluator import Evaluator
from ..play.odds import equity
from ..table import TableRules
from ..table.batch import deals_as_arrays, replay_batch, self_play
from .bench_table import PLAYERS, play_prial, pokerkit_player
from .common import POSITIVE, SEED, add_rules_options, print_table, rules_from_args, rules_text
from .limits import check_memory

WIDTH = 100  # columns of the printed report

RATIO_NOTE = ("ratio: the baseline's median time over the figure's, per item, in the same run on the same data; "
              "above 1x the figure is faster than its baseline, below 1x slower. vs rate: a figure's rate over "
              "the rate of the one it is stated against (its section says which), one thread each.")

EVALUATE_1 = "evaluate_batch, 1 thread"


def best_of_1(width: int) -> str:
    return f"best_of_batch {width} cards, 1 thread"


def floor_of(level: str) -> str:
    return f"streaming floor, {level}"


@dataclass
class Figure:
    name: str
    items: int
    seconds: float  # median
    unit: str = "hands"
    baseline: str | None = None  # name of the figure this one is compared with
    # Name of the figure whose rate this one's is stated against: a fused
    # kernel against the one-hand call it is made of, so that a faster
    # evaluate_batch never makes a fused kernel look better; a kernel level
    # against the streaming floor of the same instruction set.
    rate_of: str | None = None

    @property
    def rate(self) -> float:
        return self.items / self.seconds if self.seconds > 0 else math.inf


@dataclass
class Section:
    title: str
    figures: list[Figure]
    note: str  # what the ratios compare, in words


def format_rate(f: Figure) -> str:
    """"155.3 M hands/s", or "71.2 k deals/s" for slower figures."""
    if f.rate >= 1e6:
        return f"{f.rate / 1e6:,.1f} M {f.unit}/s"
    return f"{f.rate / 1e3:,.1f} k {f.unit}/s"


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


BATCH_BASELINE = "numpy a[:,0]+a[:,1]+a[:,2] (baseline)"


def section_three_card(ev: Evaluator, args: argparse.Namespace) -> Section:
    hands = random_hands(args.hands, 3, seed=args.seed, pack=ev.pack_size)
    n = len(hands)
    figures = [
        Figure(BATCH_BASELINE, n,
               median_seconds(lambda: hands[:, 0].astype(np.uint16) + hands[:, 1] + hands[:, 2], args.repeat)),
        Figure(EVALUATE_1, n, median_seconds(lambda: ev.evaluate_batch(hands, threads=1), args.repeat),
               baseline=BATCH_BASELINE, rate_of=floor_of(_core.simd_level())),
        Figure(f"evaluate_batch, {args.threads or os.cpu_count()} threads", n,
               median_seconds(lambda: ev.evaluate_batch(hands, threads=args.threads), args.repeat),
               baseline=BATCH_BASELINE),
    ]
    figures += other_kernel_levels(ev, hands, args)
    figures += [Figure(floor_of(level), n, median_seconds(lambda: _core.streaming_floor(hands, level), args.repeat),
                       baseline=BATCH_BASELINE)
                for level in cpu_levels()]
    return Section(
        f"Three-card hands, a batch of {n:,}", figures,
        "Baseline: numpy adding up the three card columns, about the least work a pass over the same array "
        "can do. The other kernel levels are those this CPU has beside the one in use; the scalar one is "
        "the portable fallback, and may well be below 1x. A streaming floor is the same sum in a native "
        "loop built with one level's compiler flags: the traffic of evaluate_batch (3 bytes read, 2 written "
        "a hand) with almost none of its work. vs rate: each evaluate_batch level on 1 thread over the "
        "floor of its own level; near 1x, the kernel is as fast as a pass over its data.")


def section_one_call(ev: Evaluator, args: argparse.Namespace) -> Section:
    as_lists = random_hands(args.scalar_hands, 3, seed=args.seed, pack=ev.pack_size).tolist()
    as_text = [format_cards(h) for h in as_lists]
    evaluate = ev.evaluate

    def loop(data: list) -> Callable[[], None]:
        def run() -> None:
            for hand in data:
                evaluate(hand)
        return run

    def empty_loop() -> None:
        for hand in as_lists:
            len(hand)

    base = "Python loop calling len() (baseline)"
    return Section(
        f"One hand a call, {len(as_lists):,} calls from Python", [
            Figure(base, len(as_lists), median_seconds(empty_loop, args.repeat), unit="calls"),
            Figure("evaluate(index list)", len(as_lists), median_seconds(loop(as_lists), args.repeat),
                   unit="calls", baseline=base),
            Figure("evaluate(text)", len(as_text), median_seconds(loop(as_text), args.repeat), unit="calls",
                   baseline=base),
        ],
        "Baseline: a Python loop over the same hands calling only len(). The ratios stay far below 1x: "
        "most of a call's time is the Python call itself, which is why many hands go to evaluate_batch.")


def section_showdown(ev: Evaluator, args: argparse.Namespace) -> Section:
    """Sees in bulk, each width against the unfused way in the same run:
    both hands valued by the batch call, then compared in numpy."""
    figures = []
    # Fewer rows than the evaluator section: each row deals 6 to 10 cards.
    for width, rows in ((3, max(args.hands // 4, 1)), (4, max(args.hands // 10, 1)), (5, max(args.hands // 10, 1))):
        deal = random_hands(rows, 2 * width, seed=args.seed + width, pack=ev.pack_size)
        seer, seen = np.ascontiguousarray(deal[:, :width]), np.ascontiguousarray(deal[:, width:])
        value = ev.evaluate_batch if width == 3 else ev.best_of_batch
        baseline = f"{width} cards: {value.__name__} x2 + numpy > (baseline)"
        figures += [
            Figure(baseline, rows, median_seconds(
                lambda: value(seer, threads=1) > value(seen, threads=1), args.repeat), unit="sees"),
            Figure(f"{width} cards: showdown_batch, 1 thread", rows, median_seconds(
                lambda: _core.showdown_batch(ev, seer, seen, threads=1), args.repeat),
                unit="sees", baseline=baseline, rate_of=EVALUATE_1 if width == 3 else best_of_1(width)),
            Figure(f"{width} cards: showdown_batch, {args.threads or os.cpu_count()} threads", rows,
                   median_seconds(lambda: _core.showdown_batch(ev, seer, seen, threads=args.threads),
                                  args.repeat), unit="sees", baseline=baseline),
        ]
    return Section(
        "Showdowns in bulk (a see: two hands compared)", figures,
        "Baseline: both hands of each see valued by the batch call of their size, then compared in numpy, "
        "one thread. It skips a check showdown_batch makes (no card in both hands of a see); below 1x, "
        "the fused call is slower than that composition of the library's own calls. vs rate: sees/s over "
        "the hands/s of evaluate_batch (three cards) or of best_of_batch of the same size (four, five), one "
        "thread each; a see values two hands, so 0.5x would be two hands at the one-hand call's rate.")


def section_equity(ev: Evaluator, args: argparse.Namespace) -> Section:
    """Exact equity (counted in C++), per hand size, heads-up one a call and
    in a batch, and three cards against two opponents, against a numpy
    enumeration of the same heads-up deals for three cards."""
    figures = []
    hands = random_hands(20, 5, seed=args.seed, pack=ev.pack_size)
    all_threes = np.array(list(itertools.combinations(range(ev.pack_size), 3)), dtype=np.uint8)
    strengths = ev.evaluate_batch(all_threes)
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), all_threes.astype(np.uint64)), axis=1)

    def numpy_equity() -> None:
        for hand in hands[:, :3]:
            mine = ev.evaluate(hand.tolist()).strength
            free = (masks & np.uint64(sum(1 << int(c) for c in hand))) == 0
            s = strengths[free]
            (s < mine).sum(), (s == mine).sum()

    baseline = "3 cards: numpy enumeration (baseline)"
    figures.append(Figure(baseline, len(hands), median_seconds(numpy_equity, args.repeat), unit="equities"))
    for width, copies in ((3, 1000), (4, 100), (5, 4)):
        three = width == 3
        equity(hands[0, :width].tolist(), rules=ev.rules)  # builds the tables outside the timing
        cards = [h[:width].tolist() for h in hands[: 20 if width < 5 else 5]]
        # The same hands, enough of them that one call takes milliseconds.
        batch = np.tile(np.array(cards, dtype=np.uint8), (copies, 1))
        figures += [
            Figure(f"{width} cards: equity, heads-up exact", len(cards),
                   median_seconds(lambda: [equity(c, rules=ev.rules) for c in cards], args.repeat),
                   unit="equities", baseline=baseline if three else None),
            Figure(f"{width} cards: equity_batch, heads-up exact, 1 thread", len(batch),
                   median_seconds(lambda: ev.equity_batch(batch, threads=1), args.repeat),
                   unit="equities", baseline=baseline if three else None),
        ]
    two = [h[:3].tolist() for h in hands[:5]]
    figures.append(Figure("3 cards: equity, two opponents exact", len(two),
                          median_seconds(lambda: [equity(c, 2, rules=ev.rules) for c in two], args.repeat),
                          unit="equities"))
    return Section(
        "Exact equity, heads-up and against two opponents", figures,
        "Baseline (three cards, heads-up): every opponent hand counted by numpy over the strengths of all "
        "three-card hands, computed beforehand. Four and five cards and two opponents have no baseline "
        "here. equity_batch: many hands in one call, no dead cards.")


def cpu_levels() -> tuple[str, ...]:
    """The kernel levels this CPU has, lowest first."""
    return _core.SIMD_LEVELS[: _core.SIMD_LEVELS.index(_core.supported_simd_level()) + 1]


def other_kernel_levels(ev: Evaluator, hands: np.ndarray, args: argparse.Namespace) -> list[Figure]:
    """evaluate_batch with 1 thread on each other kernel level this CPU has
    (the figures above use the level in use, see ``_core.simd_level()``)."""
    active = _core.simd_level()
    figures = []
    try:
        for level in cpu_levels():
            if level == active:
                continue
            _core.set_simd_level(level)
            figures.append(Figure(f"evaluate_batch, 1 thread, {level} kernel", len(hands),
                                  median_seconds(lambda: ev.evaluate_batch(hands, threads=1), args.repeat),
                                  baseline=BATCH_BASELINE, rate_of=floor_of(level)))
    finally:
        _core.set_simd_level(active)
    return figures


def section_best_of(ev: Evaluator, args: argparse.Namespace) -> Section:
    """best_of_batch on 4 and 5 cards, against the numpy reference in the
    same run: evaluate_batch on every kept three, then the maximum."""
    rows = min(args.hands, 2_000_000)
    threads = args.threads or os.cpu_count()
    figures = []
    for width in (4, 5):
        hands = random_hands(rows, width, seed=args.seed + width, pack=ev.pack_size)
        ev.best_of_batch(hands[:1])  # builds the table, timed once below
        figures.append(Figure(f"build the {width}-card key table (once per ruleset)",
                              math.comb(ev.pack_size, width), _core.best_of_build_seconds(ev, width), unit="keys"))
        threes = [np.ascontiguousarray(hands[:, list(kept)]) for kept in itertools.combinations(range(width), 3)]

        def reference() -> None:
            best = ev.evaluate_batch(threes[0], threads=1).astype(np.uint32)
            for three in threes[1:]:
                np.maximum(best, ev.evaluate_batch(three, threads=1), out=best)

        base = f"numpy: {len(threes)} x evaluate_batch + max (baseline)"
        figures += [
            Figure(base, rows, median_seconds(reference, args.repeat)),
            Figure(best_of_1(width), rows,
                   median_seconds(lambda: ev.best_of_batch(hands, threads=1), args.repeat), baseline=base,
                   rate_of=EVALUATE_1),
            Figure(f"best_of_batch {width} cards, {threads} threads", rows,
                   median_seconds(lambda: ev.best_of_batch(hands, threads=args.threads), args.repeat), baseline=base),
        ]
    return Section(
        f"Best three of four and of five cards, a batch of {rows:,}", figures,
        "Baseline: evaluate_batch on each three-card subset (4 of four cards, 10 of five) and numpy's "
        "maximum, one thread. It leaves out the discards' tie-break, which best_of_batch includes. A key "
        "table is built once per ruleset and size, on first use. vs rate: hands/s over evaluate_batch's "
        "hands/s, one thread each.")


def section_partition(ev: Evaluator, args: argparse.Namespace) -> Section:
    """partition_batch of 13 cards into 4 hands; expected_points against
    lexicographic in the same run (the model is built before timing)."""
    deals = random_hands(args.deals, 13, seed=args.seed, pack=ev.pack_size)
    threads = args.threads or os.cpu_count()
    start = time.perf_counter()
    ev.partition(deals[0].tolist(), objective="expected_points")
    figures = [Figure("build the opponent model (once per ruleset)", _core.OPPONENT_MODEL_DEALS,
                      time.perf_counter() - start, unit="deals")]
    base = "partition_batch lexicographic, 1 thread (baseline)"
    for objective in ("lexicographic", "expected_points"):
        for n_threads, label in ((1, "1 thread"), (args.threads, f"{threads} threads")):
            name = base if (objective, n_threads) == ("lexicographic", 1) else f"partition_batch {objective}, {label}"
            figures.append(Figure(
                name, len(deals),
                median_seconds(lambda: ev.partition_batch(deals, objective=objective, threads=n_threads), args.repeat),
                unit="deals", baseline=None if name == base else base))
    return Section(
        f"Thirteen cards into four hands, {len(deals):,} deals", figures,
        "Baseline: the lexicographic split on one thread. expected_points weighs every split against a "
        "model of the opponents' hands (built once per ruleset, from simulated deals), so it is below 1x "
        "by design: that is its price, not a fault.")


def alternating_medians(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Each run's median time, the runs taking turns round by round, so
    that a slow spell of the machine falls on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


POKERKIT = "PokerKit, no-limit hold'em (baseline)"
TABLE_PYTHON = "prial.Deal, Python API"


def section_table(ev: Evaluator, args: argparse.Namespace) -> Section:
    table = TableRules(rules=ev.rules)
    deals = args.table_deals
    actions, played = play_prial(table, deals, args.seed)
    arrays = deals_as_arrays(played * max(1, 200_000 // deals))
    replayed = int(arrays["offsets"][-1])
    native_deals = deals * 100
    native_actions = int(self_play(table, [None] * len(PLAYERS), native_deals, seed=args.seed)[1].sum())
    runs: dict[str, Callable[[], object]] = {
        TABLE_PYTHON: lambda: play_prial(table, deals, args.seed),
        "native self-play, 1 thread": lambda: self_play(table, [None] * len(PLAYERS), native_deals, seed=args.seed),
        "native replay, 1 thread": lambda: replay_batch(table, **arrays, threads=1),
    }
    pokerkit = pokerkit_player()
    pokerkit_deals = max(1, deals // 20)
    if pokerkit is not None:
        pokerkit_actions = pokerkit(pokerkit_deals, args.seed)
        runs = {POKERKIT: lambda: pokerkit(pokerkit_deals, args.seed), **runs}
    seconds = alternating_medians(runs, args.repeat)
    base = POKERKIT if pokerkit is not None else None
    figures = [Figure(TABLE_PYTHON, actions, seconds[TABLE_PYTHON], unit="actions", baseline=base),
               Figure("native self-play, 1 thread", native_actions, seconds["native self-play, 1 thread"],
                      unit="actions", baseline=base),
               Figure("native replay, 1 thread", replayed, seconds["native replay, 1 thread"], unit="actions",
                      baseline=base)]
    if pokerkit is not None:
        figures.insert(0, Figure(POKERKIT, pokerkit_actions, seconds[POKERKIT], unit="actions"))
    return Section(
        f"The betting table: six-handed Brag, {deals:,} deals played at random", figures,
        "Baseline: PokerKit playing six-handed no-limit hold'em with the same kind of random player, dealing "
        "and blinds automated and not counted"
        + (". " if pokerkit is not None else " (PokerKit is not installed here: pip install pokerkit; no ratios "
           "without it). ")
        + "Each figure counts player actions, looks and discards too, the runs taking turns round by round. "
        "Native replay plays back the Python deals' actions, repeated to about 200,000 deals.")

SECTIONS: list[Callable[[Evaluator, argparse.Namespace], Section]] = [
    section_three_card,
    section_one_call,
    section_best_of,
    section_partition,
    section_showdown,
    section_equity,
    section_table,
]


# Memory a figure's items take at their peak (lower bounds, measured: the
# hands, their keys and the numpy baseline's temporaries; Python lists of
# three ints; a 13-card deal and its split).
BYTES_PER_HAND = 8
BYTES_PER_SCALAR_HAND = 100
BYTES_PER_DEAL = 32
BYTES_PER_TABLE_DEAL = 40_000  # a finished prial.Deal and a hundred natively self-played


def cmd_bench(args: argparse.Namespace) -> int:
    check_memory("--hands", args.hands, BYTES_PER_HAND, "batches of that many hands")
    check_memory("--scalar-hands", args.scalar_hands, BYTES_PER_SCALAR_HAND, "that many hands as Python lists")
    check_memory("--deals", args.deals, BYTES_PER_DEAL, "that many deals and their splits")
    check_memory("--table-deals", args.table_deals, BYTES_PER_TABLE_DEAL, "that many deals played and replayed")
    ev = Evaluator(rules_from_args(args))
    sections = [section(ev, args) for section in SECTIONS]
    by_name = {f.name: f for section in sections for f in section.figures}

    def over(f: Figure, other: str | None) -> float | None:
        """f's rate over the named figure's (its ratio, or its vs rate); the
        same as that figure's time per item over f's."""
        if not other or f.seconds <= 0 or by_name[other].seconds <= 0:
            return None
        return f.rate / by_name[other].rate

    if args.json:
        print(json.dumps({
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
            "rules": repr(ev.rules),
            "simd_level": _core.simd_level(),
            "repeat": args.repeat,
            "figures": [dict(asdict(f), section=section.title, rate=f.rate, ratio_to_baseline=over(f, f.baseline),
                             rate_ratio=over(f, f.rate_of))
                        for section in sections for f in section.figures],
        }, indent=2))
        return 0
    print(textwrap.fill(
        f"prial bench: {rules_text(ev.rules)}; median of {args.repeat} run{'s' if args.repeat > 1 else ''}; "
        f"{os.cpu_count()} cores; "
        f"{_core.simd_level()} kernels (PRIAL_SIMD=scalar|avx2|avx512 caps the level).", WIDTH))
    print(textwrap.fill(RATIO_NOTE, WIDTH))
    for section in sections:
        print(f"\n{section.title}")
        # The vs-rate column only where a figure has one: the table stays within WIDTH.
        stated = any(f.rate_of for f in section.figures)
        rows = []
        for f in section.figures:
            r, v = over(f, f.baseline), over(f, f.rate_of)
            rows.append((f.name, f"{f.items:,}", format_rate(f), f"{f.seconds * 1e3:,.1f} ms",
                         f"{r:.2f}x" if r is not None else "",
                         *([f"{v:.2f}x" if v is not None else ""] if stated else [])))
        print_table(["figure", "items", "rate", "median", "ratio", *(["vs rate"] if stated else [])], rows)
        print(textwrap.fill(section.note, WIDTH))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    bench = sub.add_parser(
        "bench", help="measure evaluator throughput",
        description="Measure throughput, each figure against a baseline in the same run (its ratio); "
                    "medians of --repeat runs.")
    bench.add_argument("--hands", type=POSITIVE, default=10_000_000, help="batch size (default 10,000,000)")
    bench.add_argument("--scalar-hands", type=POSITIVE, default=200_000,
                       help="hands for the one-a-call figures (default 200,000)")
    bench.add_argument("--deals", type=POSITIVE, default=10_000,
                       help="13-card deals for the partition figures (default 10,000)")
    bench.add_argument("--table-deals", type=POSITIVE, default=2_000,
                       help="deals for the betting-table figures (default 2,000; PokerKit plays a twentieth)")
    bench.add_argument("--repeat", type=POSITIVE, default=5, help="runs per figure; the median is reported")
    bench.add_argument("--threads", type=POSITIVE, default=None,
                       help="threads for the all-threads figures (default: all cores)")
    bench.add_argument("--seed", type=SEED, default=2026, help="seed of the random hands (default 2026)")
    bench.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(bench)
    bench.set_defaults(func=cmd_bench)
