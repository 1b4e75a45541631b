"""``prial score``: score a log of played hands; ``prial sample``: make one,
or a file of hand histories (``--histories``)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from typing import TYPE_CHECKING

from .._core import MAX_CRASH_VALUE
from ..logs.formats import FORMATS, detect_format
from ..logs.options import ENGINES
from ..logs.progress import MODES, Progress
from ..play.crash_deal import DEAL_SIZES
from ..score.types import SAMPLE_WON
from . import sample_histories
from .common import (
    NON_NEGATIVE,
    POSITIVE,
    SEED,
    add_crash_scoring_options,
    add_four_order_option,
    add_rules_options,
    interrupted_job,
    print_table,
    rules_from_args,
    whole,
)
from .limits import check_disk

if TYPE_CHECKING:
    from ..score.sample import Bias
    from ..score.types import ScoreSummary


def cmd_score(args: argparse.Namespace) -> int:
    from ..score import ScoreError, ScoreOptions, score_file

    try:
        options = ScoreOptions(rules=rules_from_args(args), describe=args.describe, strict=args.strict,
                               chunk_rows=args.chunk_rows, threads=args.threads, crash_value=args.crash_value,
                               four_order=args.four_order, min_category=args.min_category,
                               weights=None if args.weights is None else tuple(args.weights), ties=args.ties,
                               four_bonus=args.four_bonus, below_min=args.below_min)
        summary = score_file(args.input, args.output, options=options, input_format=args.format,
                             output_format=args.output_format, errors=args.errors, resume=args.resume,
                             overwrite=args.overwrite, engine=args.engine, scheduler=args.scheduler,
                             workers=args.workers, progress=Progress(args.progress))
    except ScoreError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        state = interrupted_job(args, _default_output, "input rows committed")
        print(f"prial: interrupted: {state}", file=sys.stderr)
        return 130
    if summary.already_complete:
        print(f"{summary.output}: the job is already complete ({summary.rows_in:,} rows); nothing to do",
              file=sys.stderr)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        print_score_summary(summary)
    return 0


def _default_output(args: argparse.Namespace) -> str:
    """The scored file when ``-o`` names none."""
    from ..score.job import default_output

    return default_output(args.input, args.output_format or detect_format(args.input, args.format))


# Bytes a sample log's row takes at least, by format (measured: about 43,
# 115 and 8 for four players; a Parquet row of fewer players takes more).
SAMPLE_ROW_BYTES = {"csv": 30, "jsonl": 80, "parquet": 4}
# The same for a log of laid hands (four Crash hands and a discard a row).
LAID_ROW_BYTES = {"csv": 55, "jsonl": 100, "parquet": 20}


class Terminated(KeyboardInterrupt):
    """SIGTERM, met as Ctrl-C is: what was being written is removed."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def cmd_sample(args: argparse.Namespace) -> int:
    from ..score import ScoreError, write_sample_log

    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread: SIGTERM stays as it was
        previous = None
    target = args.histories or args.output
    try:
        sample_histories.check_mode(args)
        if args.histories is not None:
            deals, faults = sample_histories.write(args)
            print(f"{target}: {deals:,} deals, {faults:,} with a fault planted")
            return 0
        fmt = detect_format(args.output, args.format)
        row_bytes = (SAMPLE_ROW_BYTES if args.laid is None else LAID_ROW_BYTES)[fmt]
        check_disk("--deals", args.deals, args.players * row_bytes, f"a {fmt} log of that many deals", args.output)
        rows = write_sample_log(args.output, args.deals, seed=args.seed, players=args.players, format=args.format,
                                dealers=args.dealers, bias=args.bias or (), overwrite=args.overwrite, won=args.won,
                                laid=args.laid, spare=args.spare)
    except ScoreError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt as exc:
        print(f"prial: {'terminated' if isinstance(exc, Terminated) else 'interrupted'}: {target} was not "
              "written", file=sys.stderr)
        return 128 + signal.SIGTERM if isinstance(exc, Terminated) else 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    print(f"{args.output}: {args.deals:,} deals, {rows:,} rows")
    return 0


def bias_spec(text: str) -> Bias:
    """An argparse type: ``--bias FEATURE[:dealer=N][:seat=N][:rate=R]``."""
    from ..errors import InvalidHandError
    from ..score.sample import Bias  # pyarrow, only once a bias is given

    try:
        return Bias.parse(text)
    except InvalidHandError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


bias_spec.__name__ = "bias"  # argparse names the type in its own messages


def print_score_summary(summary: ScoreSummary) -> None:
    rows = [
        ("rows in", summary.rows_in),
        ("rows out", summary.rows_out),
        ("bad rows (errors file)", summary.bad_rows),
        ("every row accounted for", "yes" if summary.complete else "NO"),
        ("deals", summary.deals),
        ("deals not adjudicable", summary.invalid_deals),
        ("deals in dispute", summary.disputes),
        ("deals uncontested (one player)", summary.uncontested),
        ("deals with no result recorded", summary.no_result),
    ]
    rows += [(f"category {name}", count) for name, count in summary.categories.items()]
    rows += [("seconds", round(summary.seconds, 2)), ("hands/s", round(summary.hands_per_second))]
    print_table(["", "value"], rows)
    print(f"output: {summary.output}\nerrors: {summary.errors}\nsummary: {summary.output}.summary.json")


def register(sub: argparse._SubParsersAction) -> None:
    score = sub.add_parser(
        "score", help="score a log of hands or deals (CSV, JSON Lines, Parquet)",
        description="Add strength, key and category to every hand of a log and, for deal logs, the "
                    "adjudicated winners (docs/rules.md) and disputes with the recorded result.  Bad rows go "
                    "to an errors file; a summary is printed and written to OUTPUT.summary.json.  A log of laid "
                    "hands (a 'hands' column: nine-card Brag or Crash, one row per player) is scored deal by deal "
                    "as prial crash scores a round (docs/scoring.md, \"Nine-card and Crash deals\").")
    score.add_argument("input", metavar="INPUT", help="the log: .csv, .jsonl/.ndjson or .parquet")
    score.add_argument("-o", "--output", help="output file (default: INPUT.scored.EXT); format from its extension")
    score.add_argument("--format", choices=FORMATS, help="input format (default: from the extension)")
    score.add_argument("--output-format", choices=FORMATS, help="output format (default: from the extension)")
    score.add_argument("--errors", help="errors file, CSV (default: OUTPUT.errors.csv)")
    score.add_argument("--describe", action="store_true", help="add a description column ('Pair of sevens, king kicker')")
    score.add_argument("--strict", action="store_true", help="stop at the first bad row")
    score.add_argument("--resume", action="store_true",
                       help="finish an interrupted run of the same job (a complete one is left as it is)")
    score.add_argument("--overwrite", action="store_true",
                       help="replace an existing output, errors file and summary, or a partial run")
    score.add_argument("--chunk-rows", type=POSITIVE, default=1_000_000, help="rows per chunk (memory bound; default 1,000,000)")
    score.add_argument("--threads", type=POSITIVE, default=None, help="native threads (default: all cores)")
    score.add_argument("--engine", choices=ENGINES, default=ENGINES[0], help=f"where to score (default {ENGINES[0]})")
    score.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster)")
    score.add_argument("--workers", type=POSITIVE, default=2, help="worker processes of the local Dask cluster (default 2)")
    score.add_argument("--json", action="store_true", help="print the summary as JSON")
    score.add_argument("--crash-value", type=whole(0, MAX_CRASH_VALUE), default=0, metavar="POINTS",
                       help="laid hands: what a crash (every position won) scores beyond its positions (default 0)")
    score.add_argument("--min-category", metavar="CATEGORY",
                       help="laid hands: a hand below this category fouls (or, with --below-min "
                            "forfeit_position, scores nothing at its position), e.g. PAIR (a house rule)")
    score.add_argument("--weights", type=whole(0, 2**32 - 1), nargs=4, metavar="POINTS",
                       help="laid hands: what positions 1 to 4 score (default 1 each), e.g. 4 3 2 1")
    add_four_order_option(score)
    add_crash_scoring_options(score)
    score.add_argument("--progress", choices=MODES, default="auto",
                       help="on stderr: a bar redrawn in place, a line every few seconds (log), or none; "
                            "auto (the default) is the bar on a terminal and the log elsewhere")
    add_rules_options(score)
    score.set_defaults(func=cmd_score)

    sample = sub.add_parser(
        "sample", help="write a sample deal log to try prial score on, or hand histories (--histories)",
        description="Deal N deals of three-card Brag from a shuffled pack into a log of the format "
                    "prial score reads: one row per player, some folds, some sees, and a 'won' column "
                    "that is a coin toss (so the scored log shows disputes, and deals with no winner recorded), "
                    "or with --won adjudicated the winners prial adjudicates.  The same --seed gives "
                    "the same log.  With --dealers the log says who dealt each deal, and --bias deals "
                    "it unfairly on purpose, for a fairness audit to find: a deal the bias applies to "
                    "in which no targeted hand holds the feature is, with probability R, shuffled "
                    "again once (a fresh whole deal, which may lack it again).  With --histories instead of "
                    "-o, whole deals at the betting table are played out by the seats' policies and written as "
                    "hand histories (docs/histories.md), --fault planting faults for a replay or an audit to "
                    "find and --key saying where.")
    sample.add_argument("--deals", type=POSITIVE, required=True, metavar="N", help="deals to write")
    sample.add_argument("--players", type=whole(2), default=4, help="players per deal (default 4)")
    sample.add_argument("--seed", type=SEED, default=0, help="seed of the shuffles (default 0)")
    sample.add_argument("--dealers", type=NON_NEGATIVE, default=0, metavar="N",
                        help="add a dealer column: deal D is dealt by dealer D %% N (default 0: no such column)")
    sample.add_argument("--bias", type=bias_spec, action="append", metavar="SPEC",
                        help="FEATURE[:dealer=N][:seat=N][:rate=R]: favour the deals of dealer N (default "
                             "every deal), the hand of seat N (default every hand of the deal), with pairs (a "
                             "pair or a prial) or aces, re-dealing at rate R (default 0.5); e.g. pairs:dealer=3, "
                             "aces:seat=0:rate=0.3; may be given several times, applied in order")
    sample.add_argument("--won", choices=SAMPLE_WON, default=SAMPLE_WON[0],
                        help="the won column: a coin toss for each player (coin, the default: disputes to find) "
                             "or the adjudicated winners (adjudicated: every deal agrees)")
    sample.add_argument("--laid", choices=tuple(DEAL_SIZES), metavar="GAME",
                        help="nine_card or crash: a log of laid hands instead, each player's 9 or 13 cards laid "
                             "as hands, strongest first (docs/scoring.md, \"Nine-card and Crash deals\"); "
                             "--dealers, --bias and --won are for three-card Brag")
    sample.add_argument("--spare", action="store_true",
                        help="crash with 2 or 3 players: deal the spare hands, which a player whose first hand "
                             "is below a running flush takes in turn (the first blocks the rest with 3 players)")
    sample.add_argument("--format", choices=FORMATS, help="output format (default: from the extension)")
    target = sample.add_mutually_exclusive_group(required=True)
    target.add_argument("-o", "--output", metavar="FILE", help="the deal log to write")
    target.add_argument("--histories", metavar="FILE",
                        help="write hand histories instead: .jsonl (.jsonl.gz), .parquet (nested; --flat: an "
                             "action a row) or .csv (an action a row)")
    sample.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    sample_histories.add_options(sample)
    sample.set_defaults(func=cmd_sample)
