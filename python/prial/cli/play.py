"""``prial showdown`` and ``prial odds``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from ..cards import format_cards, parse_cards
from ..errors import InvalidHandError
from ..play import Player, equity, odds, percentile, showdown
from .common import CHIPS, POSITIVE, SEED, add_rules_options, print_table, rules_from_args, rules_text


def cmd_showdown(args: argparse.Namespace) -> int:
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
    headers = ["player", "cards", "hand", "plays", "role", "result"] + (["payout"] if result.payouts is not None else [])
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
    rules = rules_from_args(args)
    cards = args.cards or 3
    if args.hand:
        size = len(parse_cards(args.hand))
        if size not in (3, 4, 5):
            raise InvalidHandError(f"--hand {args.hand!r}: {size} cards; a hand has 3, 4 or 5")
        if args.cards and args.cards != size:
            raise InvalidHandError(f"--hand {args.hand!r} has {size} cards but --cards is {args.cards}")
        cards = size
    table = odds(rules, cards=cards)
    report: dict[str, object] = {"odds": table.to_dict()}
    if args.hand:
        report["equity"] = equity(args.hand, args.opponents, args.dead or (), rules,
                                  samples=args.samples, seed=args.seed).to_dict()
        report["percentile"] = percentile(args.hand, rules)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    best = "" if cards == 3 else ", each by its best three"
    print(f"{cards}-card hands: {table.total:,} ({rules_text(rules)}{best})")
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


def register(sub: argparse._SubParsersAction) -> None:
    show = sub.add_parser(
        "showdown", help="decide a showdown",
        description="Decide who wins a showdown (docs/rules.md, \"Showdowns\"). Players are numbered 1.. in the order "
                    "given. With --seer, a see between two players (ties go to the seen player); "
                    "without, an agreed showdown (exact ties share).")
    show.add_argument("hands", nargs="+", metavar="HAND", help='a player\'s cards, e.g. "3s 2h Ah"')
    show.add_argument("--seer", type=POSITIVE, help="number of the player who pays to see")
    show.add_argument("--blind", type=POSITIVE, action="append", default=[], metavar="N",
                      help="player N is blind (repeatable)")
    show.add_argument("--stakes", type=CHIPS, nargs="+", metavar="CHIPS", help="each player's stake, in order")
    show.add_argument("--pot", type=CHIPS, default=0, help="chips in the pot from players out of the hand")
    show.add_argument("--coverer", type=POSITIVE, metavar="N", help="player N covered the old pot")
    show.add_argument("--old-pot", type=CHIPS, default=0, help="chips in the covered old pot")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(show)
    show.set_defaults(func=cmd_showdown)

    odds = sub.add_parser(
        "odds", help="exact category odds, equity and percentile",
        description="Exact count and probability of each category over every hand; with --hand, "
                    "its equity against random opponents and its percentile.")
    odds.add_argument("--cards", type=int, choices=[3, 4, 5],
                      help="cards per hand (default 3, or as many as --hand holds)")
    odds.add_argument("--hand", help='a hand of 3, 4 or 5 cards for equity and percentile, e.g. "As Kd Qh" '
                                     '(4 and 5 cards: by the best three, against hands of as many cards)')
    odds.add_argument("--opponents", type=POSITIVE, default=1, help="random opponent hands (default 1)")
    odds.add_argument("--dead", help="cards known to be out of play")
    odds.add_argument("--samples", type=POSITIVE, help="sample this many deals instead of enumerating")
    odds.add_argument("--seed", type=SEED, default=0, help="seed for sampled equity")
    odds.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(odds)
    odds.set_defaults(func=cmd_odds)
