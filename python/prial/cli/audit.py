"""``prial audit``: was a log dealt fairly, and were its pots paid right."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from ..logs.formats import FORMATS
from ..logs.options import ENGINES
from ..logs.progress import MODES, Progress
from .common import NON_NEGATIVE, POSITIVE, Failure, add_rules_options, print_table, rules_from_args

if TYPE_CHECKING:
    from ..audit.findings import AuditResult
    from ..audit.history_findings import HistoryAuditResult

DOC = "docs/audit.md"


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (exclusive), got {text}")
    return value


_alpha.__name__ = "error rate"


def _check_report_target(report: str, log: str, overwrite: bool) -> None:
    """Before the audit runs: the report can be written, and replaces
    nothing it should not."""
    from ..logs.targets import same_file

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise Failure('--report draws its charts with matplotlib, which is not installed: '
                      'pip install "prial[report]" (the text and --json summaries need nothing more)') from None
    if same_file(report, log):
        raise Failure(f"{report}: the report would replace the log it audits")
    if os.path.isdir(report):
        raise Failure(f"{report}: is a directory; name the report's file")
    if os.path.exists(report) and not overwrite:
        raise Failure(f"{report}: exists; pass --overwrite to replace it")
    parent = os.path.dirname(os.path.abspath(report))
    if not os.path.isdir(parent):
        raise Failure(f"{report}: no such directory {parent}")


def cmd_audit(args: argparse.Namespace) -> int:
    from ..audit import AuditOptions, HistoryAuditResult, audit_file
    from ..score import ScoreError

    if args.report:
        _check_report_target(args.report, args.log, args.overwrite)
    try:
        options = AuditOptions(rules=rules_from_args(args), by=tuple(args.by or ()), seat=args.seat,
                               alpha=args.alpha, limit=args.list or None, chunk_rows=args.chunk_rows,
                               threads=args.threads)
        result = audit_file(args.log, options=options, input_format=args.format, engine=args.engine,
                            scheduler=args.scheduler, workers=args.workers,
                            progress=Progress(args.progress, label="prial audit"), histories=args.histories or None)
    except ScoreError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return exc.status
    if args.report:
        from ..audit.history_report import write_report

        write_report(result, args.report)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, default=str))
    elif isinstance(result, HistoryAuditResult):
        print_history_audit(result)
    else:
        print_audit(result)
    if args.report:
        print(f"report: {args.report}", file=sys.stderr)
    return 0


def print_audit(result: AuditResult) -> None:
    """The findings in words, then the groups that stand out."""
    from ..audit.findings import group_label

    print(f"{result.input}: {result.rows:,} rows, {result.deals:,} deal{'s' if result.deals != 1 else ''}"
          + (f", {result.bad_rows:,} bad row{'s' if result.bad_rows != 1 else ''} left out (prial score lists "
             "each with its reason in its errors file)" if result.bad_rows else "")
          + (f"; groups by {', '.join(result.by)}" if result.by else ""))
    print_dealing(result, (("categories", "Hand categories"), ("cards", "Cards per seat"),
                           ("impossible", "Impossible deals"), ("payouts", "Payouts")))
    if len(result.payouts) > 1:
        print()
        print_table(["group", "adjudicated", "disputes", "rate", "95% interval", "uncontested", "no result"],
                    [[group_label(g.group), g.adjudicated, g.disputes,
                      f"{g.rate:.2%}" if g.rate is not None else "-", f"{g.low:.2%} to {g.high:.2%}",
                      g.uncontested, g.no_result]
                     for g in result.payouts])


def print_history_audit(result: HistoryAuditResult) -> None:
    """A history log's findings: the rates per group with the offending
    deals, the dealing tests, the players."""
    from ..audit.findings import group_label, p_cell

    print(f"{result.input}: {result.deals:,} deal{'s' if result.deals != 1 else ''}, {result.actions:,} actions"
          + (f", {result.bad_rows:,} bad record{'s' if result.bad_rows != 1 else ''} left out (prial replay lists "
             "each with its reason in its errors file)" if result.bad_rows else "")
          + (f"; groups by {', '.join(result.by)}" if result.by else ""))
    for kind, heading in (("illegal", "Illegal actions"), ("mispaid", "Mispaid deals")):
        print(f"\n{heading}: {result.summaries[kind]}")
        groups = result.rates[kind]
        if len(groups) > 1:
            print_table(["group", "deals", "offending", "rate", "95% interval", "adjusted p"],
                        [[group_label(g.group), g.trials, g.hits, f"{g.rate:.2%}" if g.rate is not None else "-",
                          f"{g.low:.2%} to {g.high:.2%}", p_cell(g.p_adjusted) if g.p_adjusted is not None else "-"]
                         for g in groups])
        offences = [o for g in groups for o in g.offences][:5]
        if offences:
            print("first offending deals: " + "; ".join(
                f"{o.deal_id} {o.finding}" + (f" (action {o.action_index}, {o.code})" if o.action_index >= 0 else "")
                for o in offences))
    print_dealing(result, (("left_out", "Dealing"), ("categories", "Hand categories"), ("cards", "Cards per seat"),
                           ("impossible", "Impossible deals")))
    if not result.players:
        return
    print()
    print_table(["player", "deals", "net", "adjudicated net", "blind", "see", "fold"],
                [[p.player, p.deals, p.net, p.adjudicated_net, *(f"{r:.1%}" for r in p.rates().values())]
                 for p in result.players])


def print_dealing(result: AuditResult, sections: tuple[tuple[str, str], ...]) -> None:
    """The sentences of ``sections``, with the groups standing out in the dealing tests."""
    from ..audit.findings import label_of, mixes_laws, p_cell

    for kind, heading in sections:
        print(f"\n{heading}: {result.summaries[kind]}")
        if kind in result.dealing and result.flagged(kind):
            print_table(["group", "adjusted p", "seat", "most deviant", "observed", "expected", "residual"],
                        [[label_of(t, mixes_laws(result.dealing[kind])), p_cell(t.p_adjusted), t.effect.seat,
                          t.effect.what,
                          t.effect.observed, round(t.effect.expected, 1), round(t.effect.residual, 2)]
                         for t in result.flagged(kind) if t.effect is not None and t.p_adjusted is not None])


def register(sub: argparse._SubParsersAction) -> None:
    audit = sub.add_parser(
        "audit", help="test a log's dealing for fairness and its payouts against adjudication",
        description="Test whether a log of played deals (the formats prial score reads, scored logs too) was "
                    "dealt fairly: each group's hand categories and cards per seat against the exact laws of a "
                    "fair shuffle, Holm-corrected across groups, and deals holding a card twice; and whether its "
                    f"recorded winners agree with prial's adjudication.  The statistics: {DOC}.")
    audit.add_argument("log", metavar="LOG", help="the log: .csv, .jsonl/.ndjson or .parquet")
    audit.add_argument("--by", nargs="+", action="extend", metavar="COLUMN",
                       help="test each value of these columns as a group (dealer, table, day ...)")
    audit.add_argument("--seat", default="player", metavar="COLUMN",
                       help="the column numbering the seats 0..63 (default: player; without it, the order of "
                            "the rows within each deal)")
    audit.add_argument("--report", metavar="FILE.html",
                       help='write the findings with charts as one self-contained HTML page (pip install "prial[report]")')
    audit.add_argument("--overwrite", action="store_true", help="replace an existing report")
    audit.add_argument("--json", action="store_true", help="print the findings as JSON")
    audit.add_argument("--alpha", type=_alpha, default=0.01,
                       help="the error rate the Holm-corrected tests are held to (default 0.01)")
    audit.add_argument("--list", type=NON_NEGATIVE, default=100, metavar="N",
                       help="deal ids listed per finding and group (default 100; 0: all)")
    audit.add_argument("--format", choices=FORMATS, help="input format (default: from the extension)")
    audit.add_argument("--chunk-rows", type=POSITIVE, default=1_000_000,
                       help="rows per chunk (memory bound; default 1,000,000)")
    audit.add_argument("--threads", type=POSITIVE, default=None, help="native threads (default: all cores)")
    audit.add_argument("--engine", choices=ENGINES, default=ENGINES[0], help=f"where to run (default {ENGINES[0]})")
    audit.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster)")
    audit.add_argument("--workers", type=POSITIVE, default=2, help="worker processes of the local Dask cluster (default 2)")
    audit.add_argument("--progress", choices=MODES, default="auto",
                       help="on stderr: a bar, a line every few seconds (log), or none (default: auto)")
    audit.add_argument("--histories", action="store_true",
                       help="read the log as hand histories (docs/histories.md); without it, a log whose records "
                            "hold actions (an actions field or column, or a kind column) is read as one")
    add_rules_options(audit)
    audit.set_defaults(func=cmd_audit)
