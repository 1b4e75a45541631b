"""What every command shares: the ruleset options, card text, plain tables
and the one-line failure."""

from __future__ import annotations

import argparse
import math
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import TextIO, TypeVar

from ..cards import cards_of, parse_cards
from ..errors import InvalidHandError
from ..evaluator import FOUR_ORDERS
from ..play.crash_rules import CRASH_OPTIONS
from ..rules import ACE_TWO_THREE, MAX_JOKERS, PRESETS, TOP_PRIAL, WILD_AS_ITSELF, WILD_PRESETS, WILD_TIES, Rules

T = TypeVar("T")


def _range_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"from {low:,} to {high:,}"
    return f"at least {low:,}" if low is not None else f"at most {high:,}"


def whole(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (inclusive;
    None: unbounded), so that ``--port 70000`` is refused, not wrapped."""

    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {_range_text(low, high)}, got {value:,}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its own messages
    return parse


def seconds(low: float = 0.0, *, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds, at least ``low`` (more
    than ``low`` with ``above``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
        if not math.isfinite(value) or value < low or (above and value == low):
            bound = f"more than {low:g}" if above else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"must be a finite number of seconds, {bound}; got {text}")
        return value

    parse.__name__ = "number of seconds"
    return parse


PORT = whole(0, 65535)
POSITIVE = whole(1)
NON_NEGATIVE = whole(0)
SEED = whole(0, 2**64 - 1)
CHIPS = whole(0, 2**64 - 1)


def add_four_order_option(parser: argparse.ArgumentParser) -> None:
    """--four-order (docs/rules.md, "Crash scoring"), shared by partition and crash."""
    parser.add_argument("--four-order", choices=FOUR_ORDERS, default=FOUR_ORDERS[0],
                        help="how the four-of-a-kind bonus ranks fours: as the ruleset ranks prials (default), "
                             "aces high, or fours high")


# What each Crash scoring option's values mean, for --help (docs/rules.md, "Crash scoring").
_CRASH_OPTION_HELP = {
    "ties": "tied hands at a position: stick_up, nobody scores (default); cancel, they cancel out and the "
            "best hand left scores",
    "four_bonus": "who scores the four-of-a-kind bonus: best, only the best four at the table (default); every, "
                  "every player holding one",
    "below_min": "a hand below --min-category: foul, its player fouls (default); forfeit_position, it scores "
                 "nothing at its own position",
}


def add_crash_scoring_options(parser: argparse.ArgumentParser) -> None:
    """--ties, --four-bonus and --below-min (CRASH_OPTIONS), the readings
    of Crash scoring that rule sources disagree on."""
    for name, choices in CRASH_OPTIONS.items():
        parser.add_argument(f"--{name.replace('_', '-')}", choices=choices, default=choices[0],
                            help=_CRASH_OPTION_HELP[name])


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The ruleset options (docs/rules.md, "Rulesets"), shared by every subcommand."""
    group = parser.add_argument_group("rules (docs/rules.md)")
    group.add_argument("--rules", default="brag", choices=sorted(PRESETS), help="preset (default: brag)")
    group.add_argument("--ace-two-three", choices=ACE_TWO_THREE, help="where A-2-3 ranks among runs")
    group.add_argument("--top-prial", choices=TOP_PRIAL, help="which prial is highest")
    group.add_argument("--lowball", action="store_true", help="Muflis: the whole order reversed")
    group.add_argument(
        "--wild",
        help=f"wild cards: a preset ({', '.join(WILD_PRESETS)}) or cards such as '2c 2s'",
    )
    group.add_argument("--jokers", type=int, choices=range(MAX_JOKERS + 1), help="jokers in the pack (always wild)")
    group.add_argument("--wild-ties", choices=WILD_TIES, default=WILD_TIES[0],
                       help=f"how a wild hand meets an equal natural one (default {WILD_TIES[0]})")
    group.add_argument("--wild-as-itself", choices=WILD_AS_ITSELF, default=WILD_AS_ITSELF[0],
                       help="whether a wild card standing for itself counts as wild or natural in those ties "
                            f"(default {WILD_AS_ITSELF[0]})")
    group.add_argument("--suit-order", metavar="SUITS",
                       help="the four suits highest first, e.g. shdc, to break ties that are otherwise exact "
                            "(default: suits never rank)")


def rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules(
        preset=args.rules,
        ace_two_three=args.ace_two_three,
        top_prial=args.top_prial,
        lowball=args.lowball,
        wild=args.wild,
        jokers=args.jokers,
        wild_ties=args.wild_ties,
        wild_as_itself=args.wild_as_itself,
        suit_order=args.suit_order,
    )


def rules_text(rules: Rules) -> str:
    """The ruleset in a few words: its preset and what differs from it."""
    preset = Rules(preset=rules.preset)
    words = [rules.preset]
    for name in ("ace_two_three", "top_prial", "wild_ties", "wild_as_itself"):
        if getattr(rules, name) != getattr(preset, name):
            words.append(f"{name.replace('_', '-')} {getattr(rules, name)}")
    if rules.lowball:
        words.append("lowball")
    if rules.wild:
        words.append(f"wild {rules.wild}")
    if rules.jokers:
        words.append(f"{rules.jokers} joker{'s' if rules.jokers > 1 else ''}")
    if rules.suit_order:
        words.append(f"suit order {rules.suit_order}")
    return ", ".join(words)


class Failure(Exception):
    """A run-time failure already put in words: the first line of the
    message says what is wrong and how to fix it, details may follow on
    indented lines.  The command line prints it as ``prial: error: ...`` and
    exits 1."""


def check_cards(text: str, where: str | None = None) -> list[int]:
    """The cards of ``text``, else InvalidHandError naming ``where`` as the
    library does.  Commands read card text themselves before asking their
    backend, so that a typo is refused as bad input (exit 2) in the same
    words whether the answer is computed here or by a server."""
    return cards_of(text, where) if where else parse_cards(text)


def each_hand(hands: Sequence[str], value: Callable[[str], T]) -> list[tuple[str, T]]:
    """``value`` of every hand given; a bad one's error names it (several may be given)."""
    out = []
    for number, hand in enumerate(hands, 1):
        try:
            out.append((hand, value(hand)))
        except InvalidHandError as exc:
            raise InvalidHandError(f"hand {number} ({hand!r}): {exc}") from None
    return out


class Table:
    """A plain aligned text table (numbers right-aligned), printed as rows
    come.  Column widths are those of the header and of the first rows
    written, or at least ``widths`` where given: a table written in parts
    gives the widest cell each column can hold, so that later rows line up
    (a wider cell in a later write would push the rest of its line)."""

    def __init__(self, headers: Sequence[str], out: TextIO | None = None,
                 widths: Sequence[int] | None = None) -> None:
        self.headers = list(headers)
        self.out = out or sys.stdout
        self.least = list(widths) if widths is not None else [0] * len(self.headers)
        self.widths: list[int] | None = None

    def write(self, rows: Sequence[Sequence[object]]) -> None:
        cells = [[str(c) for c in row] for row in rows]
        widths = self.widths
        if widths is None:
            widths = self.widths = [max([len(h), least] + [len(r[i]) for r in cells])
                                    for i, (h, least) in enumerate(zip(self.headers, self.least))]
            print(_line(self.headers, widths), file=self.out)
            print("  ".join("-" * w for w in widths), file=self.out)
        for row, raw in zip(cells, rows):
            print(_line(row, widths, raw), file=self.out)


def _line(values: Sequence[str], widths: Sequence[int], raw: Sequence[object] | None = None) -> str:
    parts = []
    for i, v in enumerate(values):
        numeric = raw is not None and isinstance(raw[i], (int, float))
        parts.append(v.rjust(widths[i]) if numeric else v.ljust(widths[i]))
    return "  ".join(parts).rstrip()


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]], out: TextIO | None = None) -> None:
    """A plain aligned text table (numbers right-aligned)."""
    Table(headers, out).write(rows)


def interrupted_job(args: argparse.Namespace, default_output: Callable[[argparse.Namespace], str], kept: str) -> str:
    """What an interrupted log job (score, replay) left, and how to go on,
    in one line: ``kept`` says what its journal's count is, and
    ``default_output(args)`` gives the output file when ``-o`` was not."""
    from ..logs.journal import Journal  # the log floor, loaded by the job itself already

    if args.engine == "dask":
        return "nothing is kept of a Dask job; run it again"
    journal = Journal.for_output(args.output or default_output(args))
    argv = [a for a in args.argv if a not in ("--resume", "--overwrite")]
    return (f"{journal.committed_rows():,} {kept} in {journal.dir}; continue with: "
            f"{shlex.join(['prial', *argv, '--resume'])}")
