"""``prial showdown`` and ``prial odds``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from ..cards import format_cards
from ..errors import ConfigurationError, InvalidHandError
from ..play import Equity, Player
from .backend import Backend, Local
from .common import CHIPS, POSITIVE, SEED, add_rules_options, check_cards, print_table, rules_from_args, rules_text

SHOWDOWN_DESCRIPTION = (
    "Decide who wins a showdown (docs/rules.md, \"Showdowns\"). Players are numbered 1.. in the order given. "
    "With --seer, a see between two players (ties go to the seen player); without, an agreed showdown "
    "(exact ties share).")
ODDS_DESCRIPTION = ("Exact count and probability of each category over every hand; with --hand, its equity "
                    "against random opponents and its percentile.")


def showdown_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hands", nargs="+", metavar="HAND", help='a player\'s cards, e.g. "3s 2h Ah"')
    parser.add_argument("--seer", type=POSITIVE, help="number of the player who pays to see")
    parser.add_argument("--blind", type=POSITIVE, action="append", default=[], metavar="N",
                        help="player N is blind (repeatable)")
    parser.add_argument("--stakes", type=CHIPS, nargs="+", metavar="CHIPS", help="each player's stake, in order")
    parser.add_argument("--pot", type=CHIPS, default=0, help="chips in the pot from players out of the hand")
    parser.add_argument("--coverer", type=POSITIVE, metavar="N", help="player N covered the old pot")
    parser.add_argument("--old-pot", type=CHIPS, default=0, help="chips in the covered old pot")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def showdown(args: argparse.Namespace, backend: Backend) -> int:
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
    for player in players:
        check_cards(player.cards, f"player {player.id!r}")
    result = backend.showdown(
        players,
        seer=None if args.seer is None else str(args.seer),
        rules=rules_from_args(args),
        pot=args.pot,
        coverer=None if args.coverer is None else str(args.coverer),
        old_pot=args.old_pot,
    )
    if args.json:
        data = result.to_dict()
        if result.payouts is not None:  # in seat order, as a server's map may not be
            data["payouts"] = {h.id: result.payouts[h.id] for h in result.hands}
        print(json.dumps(data, indent=2))
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
    print(f"\n{result.kind}: {who_wins(result.winners)} ({result.reason})")
    if result.cover is not None:
        print(f"old pot ({result.cover.old_pot}): {who_wins(result.cover.winners)} ({result.cover.reason})")
    return 0


def who_wins(ids: Sequence[str]) -> str:
    if len(ids) == 1:
        return f"player {ids[0]} wins"
    return f"players {', '.join(ids[:-1])} and {ids[-1]} share"


def equity_options(parser: argparse.ArgumentParser) -> None:
    """The options of an equity, besides its hand."""
    parser.add_argument("--opponents", type=POSITIVE, default=1, help="random opponent hands (default 1)")
    parser.add_argument("--dead", help="cards known to be out of play")
    parser.add_argument("--samples", type=POSITIVE, help="sample this many deals instead of enumerating")
    parser.add_argument("--seed", type=SEED, default=0, help="seed for sampled equity")


def odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cards", type=int, choices=[3, 4, 5],
                        help="cards per hand (default 3, or as many as --hand holds)")
    parser.add_argument("--hand", help='a hand of 3, 4 or 5 cards for equity and percentile, e.g. "As Kd Qh" '
                                       '(4 and 5 cards: by the best three, against hands of as many cards)')
    equity_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def equity_hand_size(args: argparse.Namespace, hand: str, where: str) -> int:
    """The number of cards of a hand whose equity is asked for (3, 4 or 5),
    its text and that of --dead read."""
    size = len(check_cards(hand))
    if size not in (3, 4, 5):
        raise InvalidHandError(f"{where} {hand!r}: {size} cards; a hand has 3, 4 or 5")
    if args.dead:
        check_cards(args.dead, "dead")
    return size


def check_sample_cap(args: argparse.Namespace) -> None:
    """Where the command has ``--no-sample-cap`` (computing here), more
    sampled deals than a server deals in one call are refused unless it is
    given: a mistyped ``--samples`` would otherwise run for hours."""
    from ..service.options import ServeOptions

    if not getattr(args, "sample_cap", False) or args.samples is None:
        return
    cap = ServeOptions().max_samples
    if args.samples * args.opponents > cap:
        raise ConfigurationError(
            f"--samples {args.samples:,} against {args.opponents} opponent(s) deals "
            f"{args.samples * args.opponents:,} opponent hands, more than the {cap:,} a server deals in one call "
            f"(at most --samples {cap // args.opponents:,} here); --no-sample-cap lifts the limit")


def equity_of(args: argparse.Namespace, hand: str, backend: Backend) -> Equity:
    """The equity of ``hand`` under the options of ``equity_options``."""
    check_sample_cap(args)
    return backend.equity(hand, args.opponents, args.dead or (), rules_from_args(args), samples=args.samples,
                          seed=args.seed, with_percentile=True)


def print_equity(hand: str, e: Equity) -> None:
    """The equity table of a hand and its percentile."""
    how = "exact, every deal" if e.exact else f"{e.deals:,} sampled deals, stderr {e.stderr:.4%}"
    print(f"{hand} against {e.opponents} opponent(s) ({how}):")
    print_table(["win", "tie", "lose", "deals", "percentile"],
                [(f"{e.win:.4%}", f"{e.tie:.4%}", f"{e.lose:.4%}", e.deals, f"{e.percentile:.4%}")])


def odds(args: argparse.Namespace, backend: Backend) -> int:
    rules = rules_from_args(args)
    cards = args.cards or 3
    if args.hand:
        size = equity_hand_size(args, args.hand, "--hand")
        if args.cards and args.cards != size:
            raise InvalidHandError(f"--hand {args.hand!r} has {size} cards but --cards is {args.cards}")
        cards = size
    table = backend.odds(rules, cards=cards)
    e = equity_of(args, args.hand, backend) if args.hand else None
    if args.json:
        report: dict[str, object] = {"odds": table.to_dict()}
        if e is not None:
            report["equity"] = e.to_dict()
            report["percentile"] = e.percentile
        print(json.dumps(report, indent=2))
        return 0
    best = "" if cards == 3 else ", each by its best three"
    print(f"{cards}-card hands: {table.total:,} ({rules_text(rules)}{best})")
    print_table(["category", "count", "probability", "one in"],
                [(r.category.label, r.count, f"{r.probability:.6%}",
                  f"{1 / r.probability:,.1f}" if r.probability else "-") for r in table])
    if e is not None:
        print()
        print_equity(args.hand, e)
    return 0


def equity_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", metavar="HAND", help='3, 4 or 5 cards, e.g. "As Kd Qh" (4 and 5 cards: by the '
                                                     'best three, against hands of as many cards)')
    equity_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def equity(args: argparse.Namespace, backend: Backend) -> int:
    """The equity table of ``prial odds --hand``, alone."""
    equity_hand_size(args, args.hand, "HAND")
    e = equity_of(args, args.hand, backend)
    if args.json:
        print(json.dumps(e.to_dict(), indent=2))
    else:
        print_equity(args.hand, e)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    local = Local()
    show = sub.add_parser("showdown", help="decide a showdown", description=SHOWDOWN_DESCRIPTION)
    showdown_arguments(show)
    show.set_defaults(func=lambda args: showdown(args, local))

    odds_parser = sub.add_parser("odds", help="exact category odds, equity and percentile",
                                 description=ODDS_DESCRIPTION)
    odds_arguments(odds_parser)
    odds_parser.add_argument("--no-sample-cap", dest="sample_cap", action="store_false",
                             help="allow more --samples than a server deals in one call (10 x 2^20 opponent "
                                  "hands); Ctrl-C stops a long run")
    odds_parser.set_defaults(func=lambda args: odds(args, local))
