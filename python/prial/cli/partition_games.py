"""``prial settle-partition``: a deal of nine-, seven- or six-card Brag
settled in chips, the pot nobody won carried out.

Also ``prial call settle-partition``: the same arguments and table, from a
server's answer.
"""

from __future__ import annotations

import argparse
import json

from ..errors import InvalidHandError
from ..play.partition_games import GAMES, SEVEN_CARD_HANDS, STICK_UPS, partition_game
from ..play.results import PartitionGameResult
from .backend import Backend, Local
from .common import CHIPS, add_rules_options, print_table, rules_from_args, whole
from .settle import _crash_player

DESCRIPTION = (
    "Settle a deal of nine-, seven- or six-card Brag in chips (docs/rules.md, \"Nine-, seven- and six-card "
    "Brag\"): the players' hands meet set by set, strongest first; the antes go to the winners and what "
    "nobody wins is carried to the next deal. Players are numbered 1.. in the order given.")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help='a player\'s hands in the order laid down, separated by "|", then "/" and the '
                             'discards, e.g. "As Ad Ah | Ks Kd Kh | Qs Qd Qh" (nine-card) or '
                             '"As Ad Ah | Ks Kd Kh / 2c" (seven-card)')
    parser.add_argument("--game", choices=GAMES, required=True, help="the game")
    parser.add_argument("--ante", type=whole(1, 2**64 - 1), default=1, metavar="CHIPS",
                        help="each player's ante, to the pot and (nine_card) to each set (default 1)")
    parser.add_argument("--carry", type=CHIPS, default=0, metavar="CHIPS",
                        help="the pot carried in from earlier deals (default 0)")
    parser.add_argument("--stick-up", choices=STICK_UPS,
                        help="nine_card: a tied set's antes are carried (default) or split among the tied")
    parser.add_argument("--hands", type=int, choices=SEVEN_CARD_HANDS,
                        help="seven_card: two hands and a discard (default), or one hand and four discards")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def settle_partition(args: argparse.Namespace, backend: Backend) -> int:
    if len(args.players) < 2:
        raise InvalidHandError(f"a deal has at least 2 players; {len(args.players)} PLAYER given")
    if args.stick_up is not None and args.game != "nine_card":
        raise InvalidHandError("--stick-up is an option of --game nine_card only")
    if args.hands is not None and args.game != "seven_card":
        raise InvalidHandError("--hands is an option of --game seven_card only")
    game = partition_game(args.game, ante=args.ante, rules=rules_from_args(args), stick_up=args.stick_up,
                          hands=args.hands)
    players = [_crash_player(str(n), text, False) for n, text in enumerate(args.players, 1)]
    result = backend.settle_partition_game(players, game, carry=args.carry)
    if args.json:
        # Nets in the players' order, as a server's map may not be.
        print(json.dumps({**result.to_dict(), "nets": {p.id: result.nets[p.id] for p in result.players}},
                         indent=2))
    else:
        print_settlement(result)
    return 0


def print_settlement(result: PartitionGameResult) -> None:
    print_table(["set", "pot", "result"], [(s.index + 1, s.pot or "-", s.reason) for s in result.sets])
    print()
    print_table(["player", "staked", "paid", "net", "sets won", "foul"],
                [(p.id, p.staked, p.paid, f"{p.net:+}", " ".join(str(i + 1) for i in p.sets_won) or "-",
                  p.foul or "-") for p in result.players])
    print()
    if result.pot_winner is not None:
        print(f"main pot {result.pot}: player {result.pot_winner} won every set and takes it")
    else:
        print(f"main pot {result.pot}: nobody won every set")
    print(f"carried to the next deal: {result.carry_out}")


def register(sub: argparse._SubParsersAction) -> None:
    local = Local()
    parser = sub.add_parser("settle-partition", help="settle a deal of nine-, seven- or six-card Brag",
                            description=DESCRIPTION)
    arguments(parser)
    parser.set_defaults(func=lambda args: settle_partition(args, local))
