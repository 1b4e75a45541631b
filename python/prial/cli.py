"""The ``prial`` command line: one group, a subcommand per job.

Each subcommand is a function ``cmd_<name>(args) -> int`` registered in
``build_parser``; rules options are shared through ``add_rules_options``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import Category, Evaluator, InvalidHandError, Rules, __version__, format_cards
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


def cmd_best_of(args: argparse.Namespace) -> int:
    ev = Evaluator(rules_from_args(args))
    results = [(hand, ev.best_of(hand)) for hand in args.hands]
    if args.json:
        print(json.dumps([
            {"hand": hand, "kept": b.kept, "discarded": b.discarded, "strength": b.strength,
             "key": b.key, "category": b.category.name, "description": b.description}
            for hand, b in results
        ], indent=2))
    else:
        print_table(
            ["hand", "keep", "discard", "strength", "key", "description"],
            [(hand, format_cards(b.kept), format_cards(b.discarded) or "-", b.strength, b.key, b.description)
             for hand, b in results],
        )
    return 0


def cmd_partition(args: argparse.Namespace) -> int:
    ev = Evaluator(rules_from_args(args))
    split = ev.partition(args.cards, hands=args.hands, objective=args.objective,
                         min_category=args.min_category, opponents=args.opponents)
    if args.json:
        print(json.dumps({
            "cards": args.cards, "objective": args.objective, "min_category": args.min_category,
            "hands": split.hands, "discards": split.discards, "strengths": split.strengths,
            "categories": [c.name for c in split.categories], "descriptions": split.descriptions,
            "expected_points": split.expected_points, "candidates": split.candidates,
        }, indent=2))
        return 0
    print_table(
        ["position", "hand", "strength", "description"],
        [(i + 1, format_cards(h), s, d)
         for i, (h, s, d) in enumerate(zip(split.hands, split.strengths, split.descriptions))],
    )
    print(f"discards: {format_cards(split.discards) or '-'}")
    if split.expected_points is not None:
        print(f"expected points: {split.expected_points:.3f} against {args.opponents} opponent(s) "
              f"(best of {split.candidates} Pareto-optimal splits)")
    return 0


def cmd_showdown(args: argparse.Namespace) -> int:
    from . import Player, showdown

    count = len(args.hands)
    for flag, seats in (("--seer", [args.seer]), ("--blind", args.blind), ("--coverer", [args.coverer])):
        for seat in seats:
            if seat is not None and not 1 <= seat <= count:
                raise InvalidHandError(f"{flag} {seat}: players are numbered 1..{count}")
    stakes = args.stakes or [0] * count
    if len(stakes) != count:
        raise InvalidHandError(f"--stakes gives {len(stakes)} amounts for {count} players")
    players = [Player(str(i + 1), hand, blind=(i + 1) in args.blind, stake=stakes[i])
               for i, hand in enumerate(args.hands)]
    result = showdown(
        players,
        seer=None if args.seer is None else str(args.seer),
        rules=rules_from_args(args),
        pot=args.pot,
        coverer=None if args.coverer is None else str(args.coverer),
        old_pot=args.old_pot,
    )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    rows = []
    for h in result.hands:
        role = "seer" if h.id == result.seer else ("coverer" if result.cover and h.id == result.cover.coverer else "")
        row = [h.id, format_cards(list(h.cards)), h.description, "blind" if h.blind else "open", role,
               "winner" if h.id in result.winners else ""]
        if result.payouts is not None:
            row.append(result.payouts[h.id])
        rows.append(row)
    headers = ["player", "cards", "hand", "", "role", "pot"] + (["payout"] if result.payouts is not None else [])
    print_table(headers, rows)
    print(f"\n{result.kind}: {_players(result.winners)} ({result.reason})")
    if result.cover is not None:
        print(f"old pot ({result.cover.old_pot}): {_players(result.cover.winners)} ({result.cover.reason})")
    return 0


def _players(ids: Sequence[str]) -> str:
    if len(ids) == 1:
        return f"player {ids[0]} wins"
    return f"players {', '.join(ids[:-1])} and {ids[-1]} share"


def cmd_odds(args: argparse.Namespace) -> int:
    from . import equity, odds, percentile

    rules = rules_from_args(args)
    table = odds(rules, cards=args.cards)
    report: dict[str, object] = {"odds": table.to_dict()}
    if args.hand:
        report["equity"] = equity(args.hand, args.opponents, args.dead or (), rules,
                                  samples=args.samples, seed=args.seed).to_dict()
        report["percentile"] = percentile(args.hand, rules)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.cards}-card hands: {table.total:,} ({rules!r})")
    print_table(["category", "count", "probability", "one in"],
                [(r.category.label, r.count, f"{r.probability:.6%}",
                  f"{1 / r.probability:,.1f}" if r.probability else "-") for r in table])
    if args.hand:
        e = report["equity"]
        how = "exact, every deal" if e["exact"] else f"{e['deals']:,} sampled deals, stderr {e['stderr']:.4%}"
        print(f"\n{args.hand} against {args.opponents} opponent(s) ({how}):")
        print_table(["win", "tie", "lose", "deals", "percentile"],
                    [(f"{e['win']:.4%}", f"{e['tie']:.4%}", f"{e['lose']:.4%}", e["deals"],
                      f"{report['percentile']:.4%}")])
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
def cmd_serve(args: argparse.Namespace) -> int:
    from ._prefork import ServeOptions, serve

    return serve(ServeOptions(
        host=args.host, port=args.port, workers=args.workers, processes=args.processes,
        threads_per_call=args.threads_per_call, max_batch=args.max_batch,
        max_stream_batches=args.max_stream_batches,
        max_message_bytes=args.max_message_mb << 20, max_concurrent_rpcs=args.max_concurrent_rpcs,
        tls_cert=args.tls_cert, tls_key=args.tls_key, tls_client_ca=args.tls_client_ca,
        auth_token_file=args.auth_token_file, metrics_port=args.metrics_port,
        grace_seconds=args.grace, drain_seconds=args.drain,
        keepalive_time_s=args.keepalive_time, keepalive_timeout_s=args.keepalive_timeout,
        max_connection_idle_s=args.max_connection_idle, max_connection_age_s=args.max_connection_age,
        max_connection_age_grace_s=args.max_connection_age_grace,
        port_file=args.port_file, log_calls=not args.no_call_log,
    ))


def add_serve_parser(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser(
        "serve", help="run the gRPC service prial.v1.Prial",
        description="Serve prial.v1.Prial with health checking and reflection. SIGTERM/SIGINT: "
                    "health turns NOT_SERVING, calls in flight finish within --grace, exit 0.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    serve.add_argument("--port", type=int, default=50051, help="port (default 50051; 0 picks a free one)")
    serve.add_argument("--port-file", help="write the bound port here once serving (useful with --port 0)")
    serve.add_argument("--workers", type=int, help="threads per process handling calls (default 4 per core)")
    serve.add_argument("--processes", type=int, default=1,
                       help="pre-forked server processes sharing the port via SO_REUSEPORT (default 1)")
    serve.add_argument("--threads-per-call", type=int, default=1,
                       help="native threads per batch (default 1: a 1M-hand batch takes well under a "
                            "millisecond in C++, and calls in parallel use the other cores)")
    serve.add_argument("--max-batch", type=int, default=1 << 20,
                       help="hands per batch; more -> RESOURCE_EXHAUSTED (default 1,048,576)")
    serve.add_argument("--max-stream-batches", type=int, default=1 << 20,
                       help="batches per EvaluateStream call; more -> RESOURCE_EXHAUSTED (default 1,048,576)")
    serve.add_argument("--max-message-mb", type=int, default=64,
                       help="largest message either way, MiB (default 64: a 1M-hand 5-card batch is ~5 MiB)")
    serve.add_argument("--max-concurrent-rpcs", type=int,
                       help="calls in flight per process; more -> RESOURCE_EXHAUSTED (default 4 x workers, at least 100)")
    tls = serve.add_argument_group("security")
    tls.add_argument("--tls-cert", help="PEM certificate chain: serve TLS")
    tls.add_argument("--tls-key", help="PEM private key for --tls-cert")
    tls.add_argument("--tls-client-ca", help="PEM CA bundle: require client certificates (mutual TLS)")
    tls.add_argument("--auth-token-file", help="bearer tokens, one a line: calls without one get UNAUTHENTICATED "
                                               "(health checks are exempt)")
    ops = serve.add_argument_group("operations")
    ops.add_argument("--metrics-port", type=int, help="serve Prometheus metrics on this port (on --host)")
    ops.add_argument("--grace", type=float, default=10.0, help="seconds calls in flight get at shutdown (default 10)")
    ops.add_argument("--drain", type=float, default=0.0,
                     help="seconds to keep serving after health turns NOT_SERVING at shutdown (default 0)")
    ops.add_argument("--keepalive-time", type=float, default=60.0, help="seconds between keepalive pings (default 60)")
    ops.add_argument("--keepalive-timeout", type=float, default=20.0, help="seconds to wait for a ping ack (default 20)")
    ops.add_argument("--max-connection-idle", type=float, help="close connections idle this many seconds")
    ops.add_argument("--max-connection-age", type=float, help="close connections older than this many seconds")
    ops.add_argument("--max-connection-age-grace", type=float, help="seconds calls get on an aged-out connection")
    ops.add_argument("--no-call-log", action="store_true", help="no per-call log line")
    serve.set_defaults(func=cmd_serve)


def cmd_call(args: argparse.Namespace) -> int:
    from .client import Client, PrialRpcError

    token = None
    if args.token_file:
        with open(args.token_file) as f:
            token = f.readline().strip()
    root = None
    if args.tls_ca:
        with open(args.tls_ca, "rb") as f:
            root = f.read()
    with Client(args.target, timeout=args.timeout, tls=args.tls, root_certificates=root, token=token) as client:
        try:
            if args.rpc == "health":
                print(client.health(args.service))
                return 0
            result = client.evaluate(args.hands, rules=rules_from_args(args), describe=True)
        except PrialRpcError as exc:
            print(f"prial: {exc}", file=sys.stderr)
            for violation in exc.field_violations:
                print(f"  {violation.field}: {violation.description}", file=sys.stderr)
            return 1
    rows = [
        {"hand": hand, "strength": int(strength), "key": None if result.keys is None else int(result.keys[i]),
         "category": Category(int(category)).name, "description": description}
        for i, (hand, strength, category, description) in enumerate(
            zip(args.hands, result.strengths, result.categories, result.descriptions or []))
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        keyed = result.keys is not None
        print_table(
            ["hand", "strength", *(["key"] if keyed else []), "category", "description"],
            [(r["hand"], r["strength"], *([r["key"]] if keyed else []), r["category"], r["description"])
             for r in rows],
        )
    return 0


def add_call_parser(sub: argparse._SubParsersAction) -> None:
    call = sub.add_parser(
        "call", help="call a running prial server",
        description="Call a prial server (prial serve) from the command line.")
    call.add_argument("--target", default="127.0.0.1:50051", help="host:port (default 127.0.0.1:50051)")
    call.add_argument("--timeout", type=float, default=10.0, help="deadline in seconds (default 10)")
    call.add_argument("--tls", action="store_true", help="use TLS with the system roots")
    call.add_argument("--tls-ca", help="PEM CA bundle to verify the server (implies TLS)")
    call.add_argument("--token-file", help="file whose first line is the bearer token")
    rpcs = call.add_subparsers(dest="rpc", metavar="RPC", required=True)
    evaluate = rpcs.add_parser("evaluate", help="rank hands (Evaluate)",
                               description="Rank 3-, 4- or 5-card hands on the server.")
    evaluate.add_argument("hands", nargs="+", metavar="HAND", help='a hand, e.g. "3s 2h Ah"')
    evaluate.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(evaluate)
    health = rpcs.add_parser("health", help="health status (grpc.health.v1)",
                             description="Print SERVING or NOT_SERVING.")
    health.add_argument("--service", default="", help='service name ("" = the whole server)')
    call.set_defaults(func=cmd_call)


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

    best_of = sub.add_parser(
        "best-of", help="best three of four or five cards",
        description="Keep the best three of 3-5 cards (four- and five-card Brag); "
                    "the key includes the discard tie-break (higher discard wins).")
    best_of.add_argument("hands", nargs="+", metavar="HAND", help='3 to 5 cards, e.g. "As Kd 7h 7c 2s"')
    best_of.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(best_of)
    best_of.set_defaults(func=cmd_best_of)

    partition = sub.add_parser(
        "partition", help="split 6-15 cards into three-card hands (Crash and relatives)",
        description="Split the cards into HANDS three-card hands, strongest first; the rest are discards.")
    partition.add_argument("cards", metavar="CARDS", help='e.g. 13 cards for Crash: "As Ad 7h ..."')
    partition.add_argument("--hands", type=int, default=4, help="hands to form, 2 to 5 (default 4)")
    partition.add_argument("--objective", choices=["lexicographic", "expected_points"], default="lexicographic",
                           help="lexicographic: strongest first hand, then second...; expected_points: "
                                "most positions won on average, plus the four-of-a-kind bonus in Crash "
                                "(default lexicographic)")
    partition.add_argument("--min-category", metavar="CATEGORY",
                           help="every formed hand at least this category, e.g. PAIR; fewer hands may be formed")
    partition.add_argument("--opponents", type=int, default=3, help="opponents for expected_points (default 3)")
    partition.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(partition)
    partition.set_defaults(func=cmd_partition)

    show = sub.add_parser(
        "showdown", help="decide a showdown",
        description="Decide who wins a showdown (SPEC §5). Players are numbered 1.. in the order "
                    "given. With --seer, a see between two players (ties go to the seen player); "
                    "without, an agreed showdown (exact ties share).")
    show.add_argument("hands", nargs="+", metavar="HAND", help='a player\'s cards, e.g. "3s 2h Ah"')
    show.add_argument("--seer", type=int, help="number of the player who pays to see")
    show.add_argument("--blind", type=int, action="append", default=[], metavar="N",
                      help="player N is blind (repeatable)")
    show.add_argument("--stakes", type=int, nargs="+", metavar="CHIPS", help="each player's stake, in order")
    show.add_argument("--pot", type=int, default=0, help="chips in the pot from players out of the hand")
    show.add_argument("--coverer", type=int, metavar="N", help="player N covered the old pot")
    show.add_argument("--old-pot", type=int, default=0, help="chips in the covered old pot")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(show)
    show.set_defaults(func=cmd_showdown)

    odds = sub.add_parser(
        "odds", help="exact category odds, equity and percentile",
        description="Exact count and probability of each category over every hand; with --hand, "
                    "its equity against random opponents and its percentile.")
    odds.add_argument("--cards", type=int, choices=[3, 4, 5], default=3, help="cards per hand (default 3)")
    odds.add_argument("--hand", help='a three-card hand for equity and percentile, e.g. "As Kd Qh"')
    odds.add_argument("--opponents", type=int, default=1, help="random opponent hands (default 1)")
    odds.add_argument("--dead", help="cards known to be out of play")
    odds.add_argument("--samples", type=int, help="sample this many deals instead of enumerating")
    odds.add_argument("--seed", type=int, default=0, help="seed for sampled equity")
    odds.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(odds)
    odds.set_defaults(func=cmd_odds)

    bench = sub.add_parser("bench", help="measure evaluator throughput", description="Measure throughput against a numpy baseline in one run; medians of --repeat runs.")
    bench.add_argument("--hands", type=int, default=10_000_000, help="batch size (default 10,000,000)")
    bench.add_argument("--scalar-hands", type=int, default=200_000, help="hands for the scalar Python loops")
    bench.add_argument("--deals", type=int, default=10_000, help="13-card deals for the partition figures (default 10,000)")
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

    add_serve_parser(sub)
    add_call_parser(sub)
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
