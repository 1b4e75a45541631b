"""``prial crash``, ``prial casino`` and ``prial house-edge``: a round of
Crash scored, a casino hand settled, a pay table's exact house edge.

``crash`` and ``casino`` are also ``prial call crash`` and ``prial call
casino``: the same arguments and tables, from a server's answers.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from .._core import MAX_CRASH_VALUE
from ..categories import Category
from ..errors import InvalidHandError
from ..play import CASINO_BRAG_PAYTABLE, PAYTABLES, CrashPlayer, CrashResult, HouseEdge, house_edge
from ..play.casino import GAMES, PAIR_BONUS_ON_FOLD, Paytable
from ..play.crash_rules import CRASH_OPTIONS
from . import play
from .backend import Backend, Local
from .common import (
    CHIPS,
    POSITIVE,
    add_crash_scoring_options,
    add_four_order_option,
    add_rules_options,
    check_cards,
    print_table,
    rules_from_args,
    whole,
)

CRASH_DESCRIPTION = (
    "Score a round of thirteen-card Brag, Crash (docs/rules.md, \"Crash scoring\"): the players' hands meet "
    "position by position. Players are numbered 1.. in the order given.")
CASINO_DESCRIPTION = (
    "Settle a hand of casino Brag or Three Card Poker against the dealer: the ante and play bets, the ante "
    "bonus and the pair bonus side bet (docs/rules.md, \"Casino settlement\").")
HOUSE_EDGE_DESCRIPTION = (
    "The exact house edge of a casino pay table (docs/rules.md, \"Pay tables\"): every player hand against "
    "every dealer hand of the other 49 cards, the player playing each hand when that loses less than "
    "folding. The ante's edge is per unit of ante, the pair bonus's per unit staked on it.")


def crash_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help='a player\'s declaration: the hands in the order laid down, separated by "|", '
                             'then "/" and the discards, e.g. "As Ad Ah | Ks Kd Kh | Qs Qd Qh | Js Jd Jh / 2c"')
    parser.add_argument("--six-pairs", type=POSITIVE, action="append", default=[], metavar="N",
                        help="player N declares six pairs, which voids the deal (repeatable)")
    crash_scoring_arguments(parser)


def crash_scoring_arguments(parser: argparse.ArgumentParser) -> None:
    """How a round of Crash is scored: prial crash's options but its players."""
    parser.add_argument("--weights", type=whole(0, 2**32 - 1), nargs=4, metavar="POINTS",
                        help="what positions 1 to 4 score (default 1 each), e.g. 4 3 2 1")
    parser.add_argument("--min-category", metavar="CATEGORY",
                        help="a hand below this category fouls (or, with --below-min forfeit_position, scores "
                             "nothing at its position), e.g. PAIR (a house rule)")
    parser.add_argument("--crash-value", type=whole(0, MAX_CRASH_VALUE), default=0, metavar="POINTS",
                        help="what a crash (every position won) scores beyond its positions (default 0)")
    add_four_order_option(parser)
    add_crash_scoring_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def crash(args: argparse.Namespace, backend: Backend) -> int:
    if len(args.players) < 2:
        raise InvalidHandError(f"a round of Crash has at least 2 players; {len(args.players)} PLAYER given")
    for seat in args.six_pairs:
        if not 1 <= seat <= len(args.players):
            raise InvalidHandError(f"--six-pairs {seat}: players are numbered 1..{len(args.players)}")
    players = [_crash_player(str(n), text, n in args.six_pairs) for n, text in enumerate(args.players, 1)]
    result = backend.crash_showdown(players, **crash_scoring(args))
    if args.json:
        # Points in the players' order, as a server's map may not be.
        print(json.dumps({**result.to_dict(), "points": {p.id: result.points[p.id] for p in result.players}},
                         indent=2))
    else:
        print_crash(result)
    return 0


def crash_scoring(args: argparse.Namespace) -> dict[str, Any]:
    """crash_showdown's keyword options of crash_scoring_arguments."""
    return {"scoring": args.weights or "points", "min_category": args.min_category, "rules": rules_from_args(args),
            "crash_value": args.crash_value, "four_order": args.four_order,
            **{name: getattr(args, name) for name in CRASH_OPTIONS}}


def _crash_player(pid: str, text: str, six_pairs: bool) -> CrashPlayer:
    """A player of prial crash's PLAYER text."""
    laid, _, discards = text.partition("/")
    hands_laid = [hand.strip() for hand in laid.split("|")] if laid.strip() else []
    for i, hand in enumerate(hands_laid, 1):
        check_cards(hand, f"player {pid!r} hand {i}")
    check_cards(discards, f"player {pid!r} discards")
    return CrashPlayer(pid, hands_laid, discards.strip(), declare_six_pairs=six_pairs)


def print_crash(result: CrashResult) -> None:
    if result.positions:
        print_table(["position", "worth", "result"],
                    [(p.index + 1, p.weight, p.reason) for p in result.positions])
        print()
    print_table(["player", "points", "positions won", "four of a kind", "foul"],
                [(p.id, p.points, " ".join(str(i + 1) for i in p.positions_won) or "-",
                  p.four_of_a_kind or "-", p.foul or "-") for p in result.players])
    notes = []
    if result.void:
        notes.append(f"void: player {result.voided_by} declared six pairs; nothing scores")
    if result.outright:
        notes.append(f"outright, a thirteen-card straight: {play.who_wins(result.outright)}")
    if result.crash:
        notes.append(f"crash: player {result.crash} won every position")
    bonuses = result.four_of_a_kind_bonuses
    if len(bonuses) == 1:
        notes.append(f"four of a kind: player {bonuses[0]} scores the bonus point")
    elif bonuses:
        notes.append(f"four of a kind: players {', '.join(bonuses[:-1])} and {bonuses[-1]} each score a bonus point")
    if notes:
        print()
        print("\n".join(notes))


def casino_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("player", metavar="PLAYER", help='the player\'s three cards, e.g. "Ah Kh Qh"')
    parser.add_argument("dealer", metavar="DEALER", help="the dealer's three cards")
    parser.add_argument("--ante", type=whole(1, 2**64 - 1), default=1, metavar="CHIPS",
                        help="the ante in chips (default 1)")
    bet = parser.add_mutually_exclusive_group()
    bet.add_argument("--play", type=CHIPS, metavar="CHIPS",
                     help="the play bet (default: the ante times the pay table's play multiple)")
    bet.add_argument("--fold", action="store_true", help="the player folds: no play bet, the ante is lost")
    parser.add_argument("--pair-bonus", type=CHIPS, default=0, metavar="CHIPS",
                        help="the pair bonus side bet (default 0: none)")
    paytable_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def casino(args: argparse.Namespace, backend: Backend) -> int:
    check_cards(args.player, "player")
    check_cards(args.dealer, "dealer")
    table = PAYTABLES[args.paytable]
    play_bet = None if args.fold else (args.ante * table.play_multiple if args.play is None else args.play)
    result = backend.settle_casino(args.player, args.dealer, args.ante, play_bet, args.pair_bonus,
                                   paytable=paytable_of(args), game=args.game)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    qualifies = "qualifies" if result.dealer_qualifies else "does not qualify"
    print(f"player: {result.player}{' (folded)' if result.folded else ''}")
    print(f"dealer: {result.dealer} ({qualifies})")
    print_table(["bet", "stake", "outcome", "net", "note"],
                [(b.bet, b.stake, b.outcome, b.net, b.note) for b in result.bets])
    print(f"net: {result.net:+,} chips")
    return 0


def paytable_options(parser: argparse.ArgumentParser) -> None:
    """The pay table and how it is played, shared by casino and house-edge."""
    parser.add_argument("--paytable", choices=sorted(PAYTABLES), default=CASINO_BRAG_PAYTABLE.name,
                        help=f"the pay table (docs/rules.md, \"Pay tables\"; default {CASINO_BRAG_PAYTABLE.name})")
    parser.add_argument("--pair-bonus-on-fold", choices=PAIR_BONUS_ON_FOLD,
                        help="whether a folded player's pair bonus settles or is forfeited (default: the pay table's)")
    parser.add_argument("--game", choices=GAMES, help="the hand ranking (default: the pay table's)")


def paytable_of(args: argparse.Namespace) -> Paytable:
    """The pay table of the options, with the folded pair bonus's rule given."""
    table = PAYTABLES[args.paytable]
    if args.pair_bonus_on_fold not in (None, table.pair_bonus_on_fold):
        return dataclasses.replace(table, pair_bonus_on_fold=args.pair_bonus_on_fold)
    return table


def house_edge_arguments(parser: argparse.ArgumentParser) -> None:
    paytable_options(parser)
    parser.add_argument("--json", action="store_true",
                        help="machine-readable output (the edges as numbers and as exact fractions)")


def cmd_house_edge(args: argparse.Namespace) -> int:
    table = paytable_of(args)
    edge = house_edge(table, game=args.game)
    if args.json:
        print(json.dumps({**edge.to_dict(), "ante_fraction": str(edge.ante),
                          "pair_bonus_fraction": str(edge.pair_bonus)}, indent=2))
    else:
        print_house_edge(table, edge)
    return 0


def print_house_edge(table: Paytable, edge: HouseEdge) -> None:
    print(f"{table.name}: {edge.game} ranking, play bet {table.play_multiple} x ante, "
          f"pair bonus {table.pair_bonus_on_fold} on a fold")
    rows = [(c.name, _pays(table.ante_pays(c)), _pays(table.pair_pays(c)))
            for c in Category if table.ante_pays(c) or table.pair_pays(c)]
    if table.ante_mini_royal is not None or table.pair_mini_royal is not None:
        rows.append(("suited A-K-Q", _pays(table.ante_pays(Category.RUNNING_FLUSH, True)),
                     _pays(table.pair_pays(Category.RUNNING_FLUSH, True))))
    print_table(["hand", "ante bonus", "pair bonus"], rows)
    print()
    print_table(["bet", "house edge", "exact"],
                [("ante", f"{float(edge.ante):.4%}", str(edge.ante)),
                 ("pair bonus", f"{float(edge.pair_bonus):.4%}", str(edge.pair_bonus))])
    print(f"\nplay {edge.play_threshold} or better, fold below")


def _pays(pays: int) -> str:
    return f"{pays}:1" if pays else "-"


def register(sub: argparse._SubParsersAction) -> None:
    local = Local()
    crash_parser = sub.add_parser("crash", help="score a round of Crash", description=CRASH_DESCRIPTION)
    crash_arguments(crash_parser)
    crash_parser.set_defaults(func=lambda args: crash(args, local))

    casino_parser = sub.add_parser("casino", help="settle a casino Brag or Three Card Poker hand",
                                   description=CASINO_DESCRIPTION)
    casino_arguments(casino_parser)
    casino_parser.set_defaults(func=lambda args: casino(args, local))

    edge_parser = sub.add_parser("house-edge", help="exact house edge of a casino pay table",
                                 description=HOUSE_EDGE_DESCRIPTION)
    house_edge_arguments(edge_parser)
    edge_parser.set_defaults(func=cmd_house_edge)
