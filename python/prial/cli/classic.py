"""``prial classic``: a deal of classic three-stake Brag settled, stake by
stake.

Also ``prial call classic``: the same arguments and table, from a server's
answer.
"""

from __future__ import annotations

import argparse
import json
import textwrap

from ..errors import InvalidHandError
from ..play.classic import ACE_POINTS, BEST_CARD_TIES, ClassicPhase, ClassicPlayer, ClassicResult, ClassicRules
from ..play.results import Plain
from .backend import Backend, Local
from .common import CHIPS, SEED, add_rules_options, check_cards, print_table, rules_from_args, whole

DESCRIPTION = (
    "Settle a deal of classic three-stake Brag (docs/rules.md, \"Classic three-stake Brag\"): every player "
    "antes three stakes; the best face-up card (each hand's last card) wins the first, the best brag hand "
    "the second, the hand nearest 31 the third. Players are numbered 1.. in the order given, the eldest "
    "hand first. The ruleset options rank the brag hands (default --rules classic).")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help='a player\'s three cards, the face-up card last, then "/" and their turn at 31: '
                             '"draw" or "stand" words, e.g. "Jc 9d Ah / draw stand"')
    parser.add_argument("--stake", type=CHIPS, default=1, metavar="CHIPS", help="each of the three antes (default 1)")
    parser.add_argument("--bonus", type=CHIPS, default=0, metavar="CHIPS",
                        help="what every other player pays the winner of all three stakes (default 0)")
    parser.add_argument("--best-card-ties", choices=BEST_CARD_TIES, default=BEST_CARD_TIES[0],
                        help="equal face-up cards: the eldest hand wins, or they share (default eldest)")
    parser.add_argument("--ace", type=int, choices=ACE_POINTS, default=ACE_POINTS[0],
                        help="an ace's points at 31 (default 10)")
    parser.add_argument("--contenders", type=whole(1), nargs="+", metavar="N",
                        help="the players still bragging when the vying ended (default: all)")
    parser.add_argument("--seer", type=whole(1), metavar="N",
                        help="the vying ended with player N seeing the other contender (ties go against the seer)")
    stock = parser.add_mutually_exclusive_group()
    stock.add_argument("--stock", metavar="CARDS", help="the stock, top card first (default: the cards not dealt)")
    stock.add_argument("--seed", type=SEED, help="the stock shuffled from this seed")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)
    parser.set_defaults(rules="classic")


def _player(seat: int, text: str) -> ClassicPlayer:
    cards, _, turn = text.partition("/")
    check_cards(cards, f"player {seat}")
    actions = turn.split()
    for action in actions:
        if action not in ("draw", "stand"):
            raise InvalidHandError(f"player {seat}: {action!r} is not a turn at 31; say draw or stand")
    return ClassicPlayer(str(seat), cards.strip(), actions)


def _seat(n: int, count: int, option: str) -> str:
    if n > count:
        raise InvalidHandError(f"{option} {n}: players are numbered 1..{count}")
    return str(n)


def classic(args: argparse.Namespace, backend: Backend) -> int:
    if len(args.players) < 2:
        raise InvalidHandError(f"a classic deal has at least 2 players; {len(args.players)} PLAYER given")
    players = [_player(n, text) for n, text in enumerate(args.players, 1)]
    count = len(players)
    contenders = None if args.contenders is None else [_seat(n, count, "--contenders") for n in args.contenders]
    seer = None if args.seer is None else _seat(args.seer, count, "--seer")
    if args.stock is not None:
        check_cards(args.stock, "--stock")
    rules = ClassicRules(stake=args.stake, rules=rules_from_args(args), best_card_ties=args.best_card_ties,
                         ace=args.ace, bonus=args.bonus)
    result = backend.settle_classic(players, rules, contenders=contenders, seer=seer, stock=args.stock,
                                    seed=args.seed)
    if args.json:
        # Payouts and nets in the players' order, as a server's maps may not be.
        phases: list[Plain] = [{**phase.to_dict(), "payouts": {p.id: phase.payouts[p.id] for p in players}}
                               for phase in result.phases]
        print(json.dumps({**result.to_dict(), "phases": phases, "nets": {p.id: result.nets[p.id] for p in players}},
                         indent=2))
    else:
        print_classic(result, [p.id for p in players])
    return 0


def print_classic(result: ClassicResult, ids: list[str]) -> None:
    def winning(phase: ClassicPhase) -> str:
        shown = {h.id: h.description for h in phase.hands}
        return " / ".join(dict.fromkeys(shown[w] for w in phase.winners if shown[w]))

    print_table(["stake", "pot", "won by", "with"],
                [(p.phase.replace("_", " "), p.pot, " ".join(p.winners), winning(p) or "-") for p in result.phases])
    print()
    hands = {h.id: h for h in result.phases[2].hands}
    print_table(["player", "at 31", "net"],
                [(pid, hands[pid].description + (" (drew out)" if hands[pid].out else ""),
                  f"{result.nets[pid]:+}") for pid in ids])
    print()
    for phase in result.phases:
        print(textwrap.fill(f"{phase.phase.replace('_', ' ')}: {phase.reason}", width=100, subsequent_indent="  "))
    if result.bonus_winner is not None:
        print(f"player {result.bonus_winner} won all three stakes and takes the bonus")


def register(sub: argparse._SubParsersAction) -> None:
    local = Local()
    parser = sub.add_parser("classic", help="settle a deal of classic three-stake Brag", description=DESCRIPTION)
    arguments(parser)
    parser.set_defaults(func=lambda args: classic(args, local))
