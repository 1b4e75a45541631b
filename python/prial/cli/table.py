"""``prial table``: a deal at the betting table replayed, state by state,
from a deal file or from flags, or played by hand against bots."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, IllegalActionError, InvalidHandError
from ..rules import Rules
from ..table import Deal, TableRules
from .common import CHIPS, SEED, add_rules_options
from .table_play import play
from .table_view import act_text, action_text, end_dict, kinds_text, print_result, print_state, state_dict, table_line

DESCRIPTION = (
    "Replay a deal of the betting table (docs/rules.md, \"10. The betting\") and print every state: who is "
    "to act, the stake, the pots, each seat and the legal actions with their least and most; then the "
    "result. The deal comes from a deal file (what prial.Deal.to_json writes; - for stdin) or from "
    "flags; --actions/--action add actions to either. With --play, or on a terminal when no deal or "
    "actions are given, you play one seat of the deal against bots instead.")
EPILOG = (
    f"Actions are written [PLAYER:] KIND [AMOUNT | CARDS]: {kinds_text()}; a see's amount, if given, must be "
    "its price, and a PLAYER must be the player to act. --json prints one JSON object per line: each state, then "
    "{\"result\", \"shown\", \"deal\"} (the deal in the deal-file format). Exit 2 for bad input, an "
    "illegal action included (its code is named).")

# The help of each TableRules option; its flag, type and choices come from
# the dataclass field itself.
OPTION_HELP = {
    "game": "the game, which sets the defaults below (default brag)",
    "ante": "chips each player antes, Teen Patti's boot (default 1; draw_brag: 0)",
    "min_stake": "the stake S a deal starts at (default 1; teen_patti: twice the ante)",
    "max_stake": "the most an open stake may be (a blind one: half of it, rounded up)",
    "raise_limit": "how much S may grow in one stake: chips, or 'double' (default none; teen_patti: double)",
    "pot_limit": "no stake more than the pot held before it (Brag's house limit)",
    "pot_cap": "once the pots hold this many chips, the players in show at once",
    "blind_turns": "the most blind stakes a player may make",
    "see_cost": "a see costs this many times the seer's least stake (default 2; teen_patti: 1)",
    "sideshow": "whether an open player may ask for a sideshow (default: only in teen_patti)",
    "agreed_showdown": "whether the players in may agree to show (default: not in teen_patti)",
    "cover": "whether a player short of the least stake may cover the pot, with stacks (default: not in "
             "teen_patti)",
    "retain_blind": "whether a blind player everyone folded to may keep the unseen hand into the next deal; "
                    "face_up: beside a second hand dealt face up, which every other player must beat or fold",
    "shuffle": "when the pack is shuffled between deals: every_deal (default), or after_prial, the traditional "
               "way",
    "small_blind": "draw_brag: the small blind, posted by the player left of the dealer (default 1)",
    "big_blind": "draw_brag: the big blind, posted by the next player (default twice the small blind)",
    "first_bet": "draw_brag: the first round's bets and raises, the second's being twice it (default twice the "
                 "big blind, as pagat; playbrag: the big blind)",
    "blind_raise": "draw_brag: whether a player who has not looked may raise (default yes; playbrag: no)",
    "blind_rounds": "draw_brag: the rounds a player who has not looked calls for half price in, 2 (default) or 1 "
                    "(playbrag: the first only)",
    "second_from_small_blind": "draw_brag: the second round opens at the small blind, not after the big blind "
                               "(playbrag)",
}


# Options that count something other than chips.
COUNTS = ("blind_turns", "see_cost", "blind_rounds")


def chips_or(words: tuple[str, ...]) -> Callable[[str], int | str]:
    """An argparse type: a number of chips or one of ``words``."""

    def parse(text: str) -> int | str:
        if text in words:
            return text
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of chips or {' or '.join(map(repr, words))}, "
                                             f"got {text!r}") from None

    parse.__name__ = "chips"
    return parse


def _parts(hint: Any) -> list[Any]:
    """The types a hint allows, unions flattened, None left out."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return [part for arg in typing.get_args(hint) for part in _parts(arg)]
    return [] if hint is type(None) else [hint]


def one_of(words: tuple[str, ...]) -> Callable[[str], str]:
    """An argparse type: one of ``words`` (a flag given no value is True)."""

    def parse(text: str) -> str:
        if text not in words:
            raise argparse.ArgumentTypeError(f"expected no value or {' or '.join(map(repr, words))}, got {text!r}")
        return text

    parse.__name__ = "value"
    return parse


def flag_kind(name: str, hint: Any) -> dict[str, Any]:
    """How the flag of a TableRules field reads its value, from its type."""
    parts = _parts(hint)
    words = tuple(w for p in parts if typing.get_origin(p) is typing.Literal for w in typing.get_args(p))
    if parts == [bool]:
        return {"action": argparse.BooleanOptionalAction}
    if bool in parts and words:  # its --no- form is added beside it
        return {"nargs": "?", "const": True, "type": one_of(words), "metavar": "|".join(words)}
    metavar = "N" if name in COUNTS else "CHIPS"
    if int in parts and words:
        return {"type": chips_or(words), "metavar": "|".join((metavar, *words))}
    if int in parts:
        return {"type": CHIPS, "metavar": metavar}
    if words and all(typing.get_origin(p) is typing.Literal for p in parts):
        return {"choices": words}
    return {"metavar": "VALUE"}  # a kind of option not met before: TableRules itself checks the text


def table_fields() -> list[dataclasses.Field[Any]]:
    """The TableRules options given as flags (the ruleset has its own)."""
    return [f for f in dataclasses.fields(TableRules) if f.init and f.name != "rules"]


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_table_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the table (prial.TableRules; default: the game's)")
    hints = typing.get_type_hints(TableRules)
    for f in table_fields():
        kind = flag_kind(f.name, hints[f.name])
        group.add_argument(flag(f.name), dest=f"table_{f.name}", default=None,
                           help=OPTION_HELP.get(f.name, "see docs/rules.md"), **kind)
        if kind.get("const") is True:
            group.add_argument("--no-" + flag(f.name)[2:], dest=f"table_{f.name}", action="store_false",
                               default=None, help=f"{flag(f.name)} set to False")
    add_rules_options(parser)
    for action in parser._actions:
        if action.dest == "rules":
            action.help = "preset (default: the game's)"
    # None: the game's own ruleset, unless a ruleset option is given.
    parser.set_defaults(**{name: None for name in RULESET_OPTIONS})


RULESET_OPTIONS = ("rules", "ace_two_three", "top_prial", "lowball", "wild", "jokers", "wild_ties",
                   "wild_as_itself", "suit_order")
SETUP_OPTIONS = ("players", "cards", "seed", "dealer", "stacks", "stub")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("deal", nargs="?", metavar="DEAL", help="a deal file (JSON, as Deal.to_json writes; - for "
                                                                "stdin); without it, the flags give the deal")
    parser.add_argument("--players", metavar="A,B,...", help="the players' ids in seat order, comma-separated")
    parser.add_argument("--cards", nargs="+", metavar="HAND",
                        help="each player's hand, e.g. \"As Kd Qh\" (- for a hand not known); without, dealt "
                             "from --seed")
    parser.add_argument("--stub", metavar="CARDS",
                        help="draw_brag with --cards: the cards the draw deals from, top first, e.g. \"5s Ah Ac\" "
                             "(without, the cards drawn are unknown)")
    parser.add_argument("--seed", type=SEED, help="deal the cards from this seed (default: a random one)")
    parser.add_argument("--dealer", metavar="PLAYER", help="the dealer, by id or seat number (default: seat 0)")
    parser.add_argument("--stacks", metavar="CHIPS[,...]",
                        help="each player's chips, comma-separated, or one number for all (default: no stacks)")
    parser.add_argument("--actions", action="append", default=[], metavar="'A; B; ...'",
                        help="actions separated by ';', e.g. \"look; stake 2; fold; see\" (repeatable)")
    parser.add_argument("--action", action="append", dest="actions", metavar="ACTION",
                        help="one action (repeatable)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per line: every state, then the result and the deal")
    parser.add_argument("--play", action="store_true",
                        help="play a seat against bots, reading your moves from stdin (the default on a "
                             "terminal when no deal or actions are given)")
    parser.add_argument("--you", metavar="PLAYER", help="the seat you play (default: 'you' if seated, else the "
                                                        "first player)")
    parser.add_argument("--threshold", type=share, default=0.5, metavar="SHARE",
                        help="a bot plays on when its hand beats at least this share of all hands, else folds "
                             "(default 0.5)")
    add_table_options(parser)


def share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share from 0 to 1, got {text!r}")
    return value


share.__name__ = "share"


def given(args: argparse.Namespace) -> list[str]:
    """The flags given that set up a deal (its table, players and cards)."""
    names = [f"table_{f.name}" for f in table_fields()] + list(RULESET_OPTIONS) + list(SETUP_OPTIONS)
    return [name for name in names if getattr(args, name) is not None]


def table_from_args(args: argparse.Namespace) -> TableRules:
    options = {f.name: getattr(args, f"table_{f.name}") for f in table_fields()}
    options = {name: value for name, value in options.items() if value is not None}
    ruleset = {name: getattr(args, name) for name in RULESET_OPTIONS if getattr(args, name) is not None}
    try:
        if ruleset:  # on top of the game's preset unless --rules names another
            game_rules = TableRules(game=options.get("game", "brag")).rules
            assert game_rules is not None
            ruleset["preset"] = ruleset.pop("rules", None) or game_rules.preset
            options["rules"] = Rules(**ruleset)
        return TableRules(**options)
    except (InvalidHandError, ConfigurationError) as exc:
        field = exc.field if exc.field in options else None
        raise type(exc)(f"{flag(field)}: {exc}" if field else str(exc), field=exc.field) from None


def comma_list(text: str) -> list[str]:
    return [word.strip() for word in text.split(",")]


def deal_from_args(args: argparse.Namespace, players: str | None) -> Deal:
    if players is None:
        raise InvalidHandError("give the players (--players ann,bob,cat) or a deal file", field="players")
    names = comma_list(players)
    dealer = 0
    if args.dealer is not None:
        if args.dealer in names:
            dealer = names.index(args.dealer)
        elif args.dealer.isdigit() and int(args.dealer) < len(names):
            dealer = int(args.dealer)
        else:
            raise InvalidHandError(f"--dealer {args.dealer!r}: not a player ({', '.join(names)}) nor a seat "
                                   f"number from 0 to {len(names) - 1}", field="dealer")
    stacks = None
    if args.stacks is not None:
        try:
            stacks = [CHIPS(word) for word in comma_list(args.stacks)]
        except argparse.ArgumentTypeError as exc:
            raise InvalidHandError(f"--stacks {args.stacks!r}: {exc}", field="stacks") from None
        if len(stacks) == 1:
            stacks *= len(names)
        elif len(stacks) != len(names):
            raise InvalidHandError(f"--stacks gives {len(stacks)} stacks for {len(names)} players", field="stacks")
    cards = None if args.cards is None else [None if hand == "-" else hand for hand in args.cards]
    table = table_from_args(args)
    try:
        return Deal.start(table, names, cards=cards, seed=args.seed, dealer=dealer, stacks=stacks, stub=args.stub)
    except InvalidHandError as exc:
        field = exc.field if exc.field in SETUP_OPTIONS else None
        raise InvalidHandError(f"{flag(field)}: {exc}" if field else str(exc), field=exc.field) from None


def read_deal(name: str) -> tuple[Deal, list[Any]]:
    """The deal of a deal file before its actions, and those actions."""
    where = "stdin" if name == "-" else name
    text = sys.stdin.read() if name == "-" else Path(name).read_text()
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidHandError(f"{where}: not a deal: not JSON ({exc})", field="deal") from None
    try:
        if not isinstance(data, dict):
            raise InvalidHandError("not a deal: the format must be 'prial.deal'", field="format")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise InvalidHandError("actions must be a list", field="actions")
        return Deal.from_dict({**data, "actions": []}), actions
    except (InvalidHandError, TypeError) as exc:
        raise InvalidHandError(f"{where}: {exc}", field="deal") from None


def replay(args: argparse.Namespace) -> list[Deal]:
    """Every state of the deal asked for, the first before any action."""
    flags = given(args)
    recorded: list[Any] = []
    where = ""
    if args.deal is not None:
        if flags:
            raise InvalidHandError(f"{flag(flags[0].removeprefix('table_'))}: the deal file sets the table, the "
                                   "players and the cards; give a deal file or those flags, not both")
        deal, recorded = read_deal(args.deal)
        where = "stdin" if args.deal == "-" else args.deal
    else:
        deal = deal_from_args(args, args.players)
    states = [deal]
    for i, a in enumerate(recorded):
        if not isinstance(a, dict) or not isinstance(a.get("kind"), str):
            raise InvalidHandError(f"{where}: action {i + 1} must be an object with a kind", field="actions")
        try:
            deal = deal.act(a["kind"], a.get("amount"), a.get("discards"), player=a.get("player"))
        except IllegalActionError as exc:
            raise IllegalActionError(f"{where}: action {i + 1}: {exc}", exc.code) from None
        except InvalidHandError as exc:
            raise InvalidHandError(f"{where}: action {i + 1}: {exc}", field="actions") from None
        states.append(deal)
    texts = [text.strip() for chunk in args.actions for text in chunk.split(";") if text.strip()]
    for i, text in enumerate(texts, len(recorded) + 1):
        try:
            deal = act_text(deal, text)
        except IllegalActionError as exc:
            raise IllegalActionError(f"action {i} ({text!r}): {exc}", exc.code) from None
        except InvalidHandError as exc:
            raise InvalidHandError(f"action {i} ({text!r}): {exc}", field="actions") from None
        states.append(deal)
    return states


def print_replay(states: Sequence[Deal]) -> None:
    out = sys.stdout
    print(table_line(states[0]), file=out)
    for state in states:
        print(file=out)
        if state.history:
            print(action_text(state.history[-1]), file=out)
        print_state(state, out)
    last = states[-1]
    if last.over:
        print(file=out)
        print_result(last, out, last.view(None).cards)


def cmd_table(args: argparse.Namespace) -> int:
    typed = sys.stdin.isatty()
    if args.play or (typed and args.deal is None and not args.actions and not args.json):
        if args.json:
            raise InvalidHandError("--json is for replays; a deal played by hand prints text")
        if args.deal == "-":
            raise InvalidHandError("--play reads your moves from stdin: give the deal as a file")
        if args.deal is None and args.players is None:
            args.players = "you,ann,bob"
        states = replay(args)
        you = args.you or ("you" if "you" in states[-1].players else states[-1].players[0])
        return play(states[-1], you, args.threshold, sys.stdin, sys.stdout, echo=not typed)
    states = replay(args)
    if args.json:
        for i, state in enumerate(states):
            print(json.dumps(state_dict(state, i)))
        print(json.dumps(end_dict(states[-1])))
    else:
        print_replay(states)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("table", help="replay or play a deal at the betting table", description=DESCRIPTION,
                            epilog=EPILOG)
    arguments(parser)
    parser.set_defaults(func=cmd_table)
