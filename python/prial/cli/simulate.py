"""``prial simulate``: many deals played natively by chosen policies under
chosen table rules, each policy's mean net per deal with a 95 % interval."""

from __future__ import annotations

import argparse
import json
import os

from ..table.simulation import MIN_BLOCKS, Policy, simulate
from .common import CHIPS, POSITIVE, SEED, print_table, rules_text
from .table import add_table_options, share, table_from_args

DESCRIPTION = (
    "Play many deals of the betting table natively, one seat per --policy, each policy sitting in every "
    "seat in turn, and print each policy's mean net chips per deal with a 95%% interval, and its "
    "difference from the first policy's (docs/rules.md, \"Simulating a table\"). The intervals are "
    "computed over blocks of consecutive deals (--block), at least %d of them. Seeded: the same "
    "arguments print the same figures." % MIN_BLOCKS)


def policy(text: str) -> Policy:
    """An argparse type: ``random`` or ``threshold:SHARE``."""
    if text == "random":
        return None
    kind, _, value = text.partition(":")
    if kind == "threshold" and value:
        try:
            return share(value)
        except argparse.ArgumentTypeError:
            pass
    raise argparse.ArgumentTypeError(f"expected random or threshold:SHARE (a share from 0 to 1), got {text!r}")


policy.__name__ = "policy"


def cmd_simulate(args: argparse.Namespace) -> int:
    table = table_from_args(args)
    result = simulate(table, args.policy, args.deals, seed=args.seed, stack=args.stack, block=args.block)
    if args.json:
        print(json.dumps({"table": table.to_dict(), "seed": args.seed, "stack": args.stack,
                          **{k: v for k, v in result._asdict().items() if k != "policies"},
                          "policies": [p._asdict() for p in result.policies]}))
        return 0
    assert table.rules is not None
    print(f"{table.game}, {rules_text(table.rules)}; {len(args.policy)} seats; {result.deals:,} deals "
          f"({result.actions:,} actions), seed {args.seed}; stacks: "
          f"{'none' if args.stack is None else f'{args.stack:,} chips a deal'}")
    rows = [(f"{i}: {p.policy}", f"{p.mean:+,.3f}", f"{p.low:+,.3f} .. {p.high:+,.3f}",
             "" if i == 0 else f"{p.diff_mean:+,.3f}", "" if i == 0 else f"{p.diff_low:+,.3f} .. {p.diff_high:+,.3f}")
            for i, p in enumerate(result.policies)]
    print_table(["policy", "net/deal", "95% interval", "vs policy 0", "95% interval"], rows)
    print(f"Intervals over {result.blocks:,} blocks of {result.block:,} deals. "
          f"Load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}.")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("simulate", help="play many deals by policies and compare their nets",
                            description=DESCRIPTION)
    parser.add_argument("--policy", type=policy, action="append", required=True, metavar="POLICY",
                        help="a seat's player (repeat, one a seat, at least two): random (uniform among the "
                             "legal actions) or threshold:SHARE (looks, then stays in with the least stake "
                             "or a see while its hand beats at least SHARE of all hands, else folds)")
    parser.add_argument("--deals", type=POSITIVE, default=100_000, help="deals to play (default 100,000)")
    parser.add_argument("--block", type=POSITIVE, default=1_000,
                        help="deals a block, for the intervals (default 1,000)")
    parser.add_argument("--seed", type=SEED, default=0, help="the first deal's seed (default 0)")
    parser.add_argument("--stack", type=CHIPS, default=None,
                        help="every player's chips at the start of each deal (default: no stacks)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    add_table_options(parser)
    parser.set_defaults(func=cmd_simulate)
