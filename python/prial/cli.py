"""The ``prial`` command line: one group, a subcommand per job.

Each subcommand is a function ``cmd_<name>(args) -> int`` registered in
``build_parser``; rules options are shared through ``add_rules_options``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import Evaluator, InvalidHandError, Rules, __version__
from ._rules import PRESETS, WILD_PRESETS


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The SPEC §3 ruleset options, shared by every subcommand."""
    group = parser.add_argument_group("rules (SPEC §3)")
    group.add_argument("--rules", default="brag", choices=sorted(PRESETS), help="preset (default: brag)")
    group.add_argument("--ace-two-three", choices=["top", "second", "bottom"], help="where A-2-3 ranks among runs")
    group.add_argument("--top-prial", choices=["three", "ace"], help="which prial is highest")
    group.add_argument("--lowball", action="store_true", help="Muflis: the whole order reversed")
    group.add_argument(
        "--wild",
        help=f"wild cards: a preset ({', '.join(WILD_PRESETS)}) or cards such as '2c 2s'",
    )
    group.add_argument("--jokers", type=int, choices=[0, 1, 2, 3], help="jokers in the pack (always wild)")
    group.add_argument("--wild-ties", choices=["natural_wins", "equal"], default="natural_wins")


def rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules(
        preset=args.rules,
        ace_two_three=args.ace_two_three,
        top_prial=args.top_prial,
        lowball=args.lowball,
        wild=args.wild,
        jokers=args.jokers,
        wild_ties=args.wild_ties,
    )


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]], out=None) -> None:
    """A plain aligned text table (numbers right-aligned)."""
    out = out or sys.stdout
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(values: Sequence[str], raw: Sequence[object] | None = None) -> str:
        parts = []
        for i, v in enumerate(values):
            numeric = raw is not None and isinstance(raw[i], (int, float))
            parts.append(v.rjust(widths[i]) if numeric else v.ljust(widths[i]))
        return "  ".join(parts).rstrip()

    print(line(headers), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for row, raw in zip(cells, rows):
        print(line(row, raw), file=out)


def cmd_rank(args: argparse.Namespace) -> int:
    ev = Evaluator(rules_from_args(args))
    values = [(hand, ev.evaluate(hand)) for hand in args.hands]
    if args.json:
        print(json.dumps([
            {"hand": hand, "cards": v.cards, "strength": v.strength,
             "category": v.category.name, "description": v.description}
            for hand, v in values
        ], indent=2))
    else:
        print_table(
            ["hand", "strength", "category", "description"],
            [(hand, v.strength, v.category.name, v.description) for hand, v in values],
        )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from ._bench import run_bench

    return run_bench(args)


def cmd_score(args: argparse.Namespace) -> int:
    from ._score_job import score_file
    from ._score_types import ScoreError, ScoreOptions

    try:
        options = ScoreOptions(rules=rules_from_args(args), describe=args.describe, strict=args.strict,
                               chunk_rows=args.chunk_rows, threads=args.threads)
        summary = score_file(args.input, args.output, options=options, input_format=args.format,
                             output_format=args.output_format, errors=args.errors, resume=args.resume,
                             engine=args.engine, scheduler=args.scheduler, workers=args.workers)
    except ScoreError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary.as_dict(), indent=2))
    else:
        print_score_summary(summary)
    return 0


def print_score_summary(summary) -> None:
    rows = [
        ("rows in", summary.rows_in),
        ("rows out", summary.rows_out),
        ("bad rows (errors file)", summary.bad_rows),
        ("every row accounted for", "yes" if summary.complete else "NO"),
        ("deals", summary.deals),
        ("deals not adjudicable", summary.invalid_deals),
        ("deals in dispute", summary.disputes),
    ]
    rows += [(f"category {name}", count) for name, count in summary.categories.items()]
    rows += [("seconds", round(summary.seconds, 2)), ("hands/s", round(summary.hands_per_second))]
    print_table(["", "value"], rows)
    print(f"output: {summary.output}\nerrors: {summary.errors}\nsummary: {summary.output}.summary.json")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prial",
        description="Fast, exact evaluation of Brag and its relatives.",
    )
    parser.add_argument("--version", action="version", version=f"prial {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    rank = sub.add_parser("rank", help="rank three-card hands", description="Print strength, category and description of each hand.")
    rank.add_argument("hands", nargs="+", metavar="HAND", help='a hand, e.g. "3s 2h Ah"')
    rank.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(rank)
    rank.set_defaults(func=cmd_rank)

    bench = sub.add_parser("bench", help="measure evaluator throughput", description="Measure throughput against a numpy baseline in one run; medians of --repeat runs.")
    bench.add_argument("--hands", type=int, default=10_000_000, help="batch size (default 10,000,000)")
    bench.add_argument("--scalar-hands", type=int, default=200_000, help="hands for the scalar Python loops")
    bench.add_argument("--repeat", type=int, default=5, help="runs per figure; the median is reported")
    bench.add_argument("--threads", type=int, default=None, help="threads for the all-threads figure (default: all cores)")
    bench.add_argument("--seed", type=int, default=2026)
    bench.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(bench)
    bench.set_defaults(func=cmd_bench)
    score = sub.add_parser(
        "score", help="score a log of hands or deals (CSV, JSON Lines, Parquet)",
        description="Add strength, key and category to every hand of a log and, for deal logs, the "
                    "adjudicated winners (SPEC §5) and disputes with the recorded result.  Bad rows go "
                    "to an errors file; a summary is printed and written to OUTPUT.summary.json.")
    score.add_argument("input", metavar="INPUT", help="the log: .csv, .jsonl/.ndjson or .parquet")
    score.add_argument("-o", "--output", help="output file (default: INPUT.scored.EXT); format from its extension")
    score.add_argument("--format", choices=["parquet", "csv", "jsonl"], help="input format (default: from the extension)")
    score.add_argument("--output-format", choices=["parquet", "csv", "jsonl"], help="output format (default: from the extension)")
    score.add_argument("--errors", help="errors file, CSV (default: OUTPUT.errors.csv)")
    score.add_argument("--describe", action="store_true", help="add a description column ('Pair of sevens, king kicker')")
    score.add_argument("--strict", action="store_true", help="stop at the first bad row")
    score.add_argument("--resume", action="store_true", help="finish an interrupted run of the same job")
    score.add_argument("--chunk-rows", type=int, default=1_000_000, help="rows per chunk (memory bound; default 1,000,000)")
    score.add_argument("--threads", type=int, default=None, help="native threads (default: all cores)")
    score.add_argument("--engine", choices=["local", "dask"], default="local", help="local (default) or dask")
    score.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster)")
    score.add_argument("--workers", type=int, default=2, help="worker processes of the local Dask cluster (default 2)")
    score.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_rules_options(score)
    score.set_defaults(func=cmd_score)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InvalidHandError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
