"""``prial deal-crash``: a Crash or nine-card Brag deal from a seed, with
the spare hands and the exchanges for them.  Also ``prial call
deal-crash``, the same from a server's answer."""

from __future__ import annotations

import argparse
import json

from ..cards import format_cards
from ..play.crash_deal import CRASH_CARDS, DEAL_SIZES, CrashDeal
from .backend import Backend, Local
from .common import SEED, print_table, whole

DESCRIPTION = (
    "Deal Crash (13 cards each) or nine-card Brag (--cards 9) from a seed, as the betting table deals from one "
    "(docs/rules.md, \"Dealing from a seed\"): one card at a time, seat 0 first. With --spare, a two- or "
    "three-player Crash deal also deals its spare hands (docs/rules.md, \"Spare hands\"), and --exchange SEAT "
    "takes one for that seat, in turn: in a three-player deal the first exchange blocks the rest.")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=SEED, required=True, help="the seed of the pack")
    parser.add_argument("--players", type=whole(2, 5), default=4, help="players (default 4; at most 4 for Crash)")
    parser.add_argument("--cards", type=int, choices=sorted(DEAL_SIZES.values()), default=CRASH_CARDS,
                        help="cards a player: 13 for Crash (the default), 9 for nine-card Brag")
    parser.add_argument("--spare", action="store_true", help="deal the spare hands (two- or three-player Crash)")
    parser.add_argument("--exchange", type=whole(0, 3), action="append", default=[], metavar="SEAT",
                        help="this seat (0 first) exchanges its cards for a spare, in turn (repeatable)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def deal_crash(args: argparse.Namespace, backend: Backend) -> int:
    deal = backend.deal_crash(args.seed, args.players, cards=args.cards, spare=args.spare, exchanges=args.exchange)
    if args.json:
        print(json.dumps(deal.to_dict(), indent=2))
    else:
        print_deal(deal)
    return 0


def print_deal(deal: CrashDeal) -> None:
    print_table(["seat", "cards", "gave up"],
                [(seat, format_cards(sorted(hand, reverse=True)), "-" if given is None else
                  format_cards(sorted(given, reverse=True))) for seat, (hand, given)
                 in enumerate(zip(deal.hands, deal.given_up))])
    for index, spare in enumerate(deal.spares):
        print(f"spare {index + 1}: {format_cards(sorted(spare, reverse=True))}")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("deal-crash", help="deal Crash or nine-card Brag from a seed, with spare hands",
                            description=DESCRIPTION)
    arguments(parser)
    local = Local()
    parser.set_defaults(func=lambda args: deal_crash(args, local))
