"""``prial replay``: every deal of a hand-history log replayed against its
table's rules, a row of findings each (docs/histories.md, "prial replay")."""

from __future__ import annotations

import argparse
import json
import sys

from ..logs.formats import FORMATS
from ..logs.options import ENGINES
from ..logs.progress import MODES, Progress
from .common import POSITIVE, interrupted_job, print_table


def cmd_replay(args: argparse.Namespace) -> int:
    from ..logs.errors import LogError
    from ..replay import replay_file

    chunking = {} if args.chunk_rows is None else {"chunk_rows": args.chunk_rows}
    try:
        summary = replay_file(args.input, args.output, errors=args.errors, tables=args.rules_table,
                              input_format=args.format, output_format=args.output_format, strict=args.strict,
                              resume=args.resume, overwrite=args.overwrite, engine=args.engine,
                              scheduler=args.scheduler, workers=args.workers, threads=args.threads,
                              progress=Progress(args.progress, label="prial replay"), **chunking)
    except LogError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        state = interrupted_job(args, _default_output, "records replayed are kept")
        print(f"prial: interrupted: {state}", file=sys.stderr)
        return 130
    if summary.already_complete:
        print(f"{summary.output}: the job is already complete ({summary.records:,} records); nothing to do",
              file=sys.stderr)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
        return 0
    rows: list[tuple[str, object]] = [("records", summary.records), ("deals replayed", summary.deals),
                                      ("bad records (errors file)", summary.bad_records),
                                      ("actions replayed", summary.actions)]
    rows += [(f"finding {name}", count) for name, count in summary.findings.items()]
    rows += [("seconds", round(summary.seconds, 2)), ("actions/s", round(summary.actions_per_second))]
    print_table(["", "value"], rows)
    print(f"output: {summary.output}\nerrors: {summary.errors}\nsummary: {summary.output}.summary.json")
    return 0


def _default_output(args: argparse.Namespace) -> str:
    """The findings file when ``-o`` names none."""
    from ..logs.histories.read import file_format
    from ..replay.job import default_output

    return default_output(args.input, args.output_format or file_format(args.input, args.format)[0])


def register(sub: argparse._SubParsersAction) -> None:
    replay = sub.add_parser(
        "replay", help="replay every deal of a hand-history log against its table's rules",
        description="Replay each deal of a history log (JSON Lines, nested Parquet, or the flat form in CSV or "
                    "Parquet) against its table's rules and write a row of findings per deal: ok, "
                    "illegal_action (the action, its player and the rule's code), unfinished, unchecked (cards "
                    "not recorded), wrong_winner, mispaid or bad_setup.  Bad records go to an errors file; a "
                    "summary is printed and written to OUTPUT.summary.json.")
    replay.add_argument("input", metavar="LOG", help="the history log: .jsonl (.jsonl.gz), .parquet or .csv")
    replay.add_argument("-o", "--output", help="findings file (default: LOG.replay.EXT); format from its extension")
    replay.add_argument("--format", choices=FORMATS, help="the log's format (default: from the extension)")
    replay.add_argument("--output-format", choices=FORMATS, help="output format (default: from the extension)")
    replay.add_argument("--errors", help="errors file, CSV (default: OUTPUT.errors.csv)")
    replay.add_argument("--rules-table", metavar="FILE",
                        help="JSON file of named table rules, for records that name theirs by rules_ref")
    replay.add_argument("--strict", action="store_true", help="stop at the first bad record")
    replay.add_argument("--resume", action="store_true",
                        help="finish an interrupted run of the same job (a complete one is left as it is)")
    replay.add_argument("--overwrite", action="store_true",
                        help="replace an existing output, errors file and summary, or a partial run")
    replay.add_argument("--chunk-rows", type=POSITIVE,
                        help="records per chunk (memory bound; default prial.logs.histories.CHUNK_ROWS, 65,536)")
    replay.add_argument("--threads", type=POSITIVE, default=None, help="native threads (default: all cores)")
    replay.add_argument("--engine", choices=ENGINES, default=ENGINES[0], help=f"where to replay (default {ENGINES[0]})")
    replay.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster)")
    replay.add_argument("--workers", type=POSITIVE, default=2,
                        help="worker processes of the local Dask cluster (default 2)")
    replay.add_argument("--json", action="store_true", help="print the summary as JSON")
    replay.add_argument("--progress", choices=MODES, default="auto",
                        help="on stderr: a bar redrawn in place, a line every few seconds (log), or none; auto "
                             "(the default) is the bar on a terminal and the log elsewhere")
    replay.set_defaults(func=cmd_replay)
