"""``prial crash-match``: a file of Crash rounds played as a match, the
standings after each round and the settlement.  Also ``prial call
crash-match``, the same from a server's answer."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import TextIO

from ..errors import ConfigurationError, InvalidHandError
from ..play.crash import CrashPlayer
from ..play.crash_match import MAX_STAKE, SETTLEMENTS, CrashMatchResult, CrashMatchRules
from .backend import Backend, Local
from .common import Failure, print_table, whole
from .settle import _crash_player, crash_scoring, crash_scoring_arguments

DESCRIPTION = (
    "Play a Crash match (docs/rules.md, \"A Crash match\"): the rounds of ROUNDS scored one by one as prial crash "
    "scores a round, their points added up until one player leads alone at --holes or beyond (or crashes, winning "
    "every position of a round), then the settlement: what each loser pays the winner. Prints the standings after "
    "each round.")
ROUNDS_HELP = (
    'a JSON Lines file ("-": standard input), one round a line: a list of players, each a PLAYER as prial crash '
    'takes it ("As Ad Ah | Ks Kd Kh | Qs Qd Qh | Js Jd Jh / 2c"), numbered 1.. in order, or an object of player '
    'names to PLAYER. Every round has the same players; blank lines are skipped')
# The option of each rule, for its errors.
_OPTIONS = {"target": "--holes", "settlement": "--settlement", "stake": "--stake"}


def crash_match_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = CrashMatchRules()
    parser.add_argument("rounds", nargs="?", metavar="ROUNDS", help=ROUNDS_HELP)
    parser.add_argument("--round", nargs="+", action="append", default=[], metavar="PLAYER", dest="more_rounds",
                        help="a round's players, each a PLAYER as prial crash takes it, numbered 1.. in order: "
                             "played after the file's (repeatable)")
    match = parser.add_argument_group("the match")
    match.add_argument("--holes", type=whole(), default=defaults.target, metavar="POINTS",
                       help=f"the points that win: 7 to 15 (a sprint) or 121 (a full street; default "
                            f"{defaults.target})")
    match.add_argument("--crash-wins", action=argparse.BooleanOptionalAction, default=defaults.crash_wins,
                       help="a crash wins the match at once (default: yes)")
    match.add_argument("--settlement", choices=SETTLEMENTS, default=defaults.settlement,
                       help="fixed: each loser pays the stake; proportionate: the stake for every point behind "
                            f"the winner (default {defaults.settlement})")
    match.add_argument("--stake", type=whole(0, MAX_STAKE), default=defaults.stake, metavar="CHIPS",
                       help=f"the stake (default {defaults.stake})")
    match.add_argument("--not-on-board-double", action=argparse.BooleanOptionalAction,
                       default=defaults.not_on_board_double,
                       help="a loser on no points at the end pays double (default: yes)")
    crash_scoring_arguments(parser)


def crash_match(args: argparse.Namespace, backend: Backend) -> int:
    try:
        rules = CrashMatchRules(args.holes, args.crash_wins, args.settlement, args.stake, args.not_on_board_double)
    except ConfigurationError as exc:
        raise ConfigurationError(f"{_OPTIONS.get(exc.field or '', exc.field)}: {exc}") from None
    rounds = [] if args.rounds is None else list(read_rounds(args.rounds))
    for number, texts in enumerate(args.more_rounds, 1):
        rounds.append(_players(dict(enumerate(texts, 1)), f"--round {number}"))
    if not rounds:
        given = "" if args.rounds is None else f" ({args.rounds} holds none)"
        raise InvalidHandError(f"no rounds{given}: give ROUNDS, a file of rounds, or --round PLAYER PLAYER ...")
    result = backend.crash_match(rounds, rules, **crash_scoring(args))
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print_match(result, rules)
    return 0


def read_rounds(path: str) -> Iterator[list[CrashPlayer]]:
    """The rounds of a JSON Lines file, each line's players."""
    try:
        source: TextIO = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise Failure(f"cannot read ROUNDS {path}: {exc.strerror}") from None
    with source:
        for number, line in enumerate(source, 1):
            if line.strip():
                yield _round(line, f"{path} line {number}")


def _round(line: str, where: str) -> list[CrashPlayer]:
    try:
        players = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidHandError(f"{where}: not JSON ({exc.msg})") from None
    if isinstance(players, list):
        players = dict(enumerate(players, 1))
    if not isinstance(players, dict) or not all(isinstance(text, str) for text in players.values()):
        raise InvalidHandError(f"{where}: a round is a list of PLAYER texts or an object of names to PLAYER texts")
    return _players(players, where)


def _players(players: dict[object, str], where: str) -> list[CrashPlayer]:
    try:
        return [_crash_player(str(pid), text, False) for pid, text in players.items()]
    except InvalidHandError as exc:
        raise InvalidHandError(f"{where}: {exc}") from None


def print_match(result: CrashMatchResult, rules: CrashMatchRules) -> None:
    ids = list(result.standings)
    print_table(["round", *ids, "crash"],
                [(n, *(f"{r.standings[pid]} (+{r.points[pid]})" for pid in ids), r.crash or "-")
                 for n, r in enumerate(result.rounds, 1)])
    print()
    if result.winner is None:
        print(f"no winner yet: nobody leads alone at {rules.target} or beyond")
        return
    if result.decided_by == "crash":
        print(f"player {result.winner} wins the match by a crash in round {len(result.rounds)}")
    else:
        print(f"player {result.winner} wins the match with {result.standings[result.winner]} points "
              f"(the target is {rules.target})")
    settlement = result.settlement or {}
    print()
    print_table(["player", "points", "net"],
                [(pid, result.standings[pid], f"{settlement[pid]:+,}") for pid in ids])
    if result.not_on_board:
        doubled = "pay double" if rules.not_on_board_double else "pay as the others"
        print(f"\nnot on the board, {doubled}: {', '.join(result.not_on_board)}")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("crash-match", help="play a file of Crash rounds as a match", description=DESCRIPTION)
    crash_match_arguments(parser)
    local = Local()
    parser.set_defaults(func=lambda args: crash_match(args, local))
