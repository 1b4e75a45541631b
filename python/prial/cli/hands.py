"""``prial rank``, ``prial best-of`` and ``prial partition``: hands valued
and split, one line each."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TypeVar

from ..cards import format_cards
from ..errors import InvalidHandError
from ..evaluator import OBJECTIVES, Evaluator
from .common import POSITIVE, add_rules_options, print_table, rules_from_args, whole

T = TypeVar("T")


def each_hand(hands: list[str], value: Callable[[str], T]) -> list[tuple[str, T]]:
    """``value`` of every hand given; a bad one's error names it (several may be given)."""
    out = []
    for number, hand in enumerate(hands, 1):
        try:
            out.append((hand, value(hand)))
        except InvalidHandError as exc:
            raise InvalidHandError(f"hand {number} ({hand!r}): {exc}") from None
    return out


def cmd_rank(args: argparse.Namespace) -> int:
    ev = Evaluator(rules_from_args(args))
    values = each_hand(args.hands, ev.evaluate)
    if args.json:
        print(json.dumps([
            {"hand": hand, "cards": v.cards, "strength": v.strength,
             "category": v.category.name, "description": v.description}
            for hand, v in values
        ], indent=2))
    else:
        print_table(
            ["hand", "strength", "category", "description"],
            [(hand, v.strength, v.category.name, v.description) for hand, v in values],
        )
    return 0


def cmd_best_of(args: argparse.Namespace) -> int:
    ev = Evaluator(rules_from_args(args))
    results = each_hand(args.hands, ev.best_of)
    if args.json:
        print(json.dumps([
            {"hand": hand, "kept": b.kept, "discarded": b.discarded, "strength": b.strength,
             "key": b.key, "category": b.category.name, "description": b.description}
            for hand, b in results
        ], indent=2))
    else:
        print_table(
            ["hand", "keep", "discard", "strength", "key", "description"],
            [(hand, format_cards(b.kept), format_cards(b.discarded) or "-", b.strength, b.key, b.description)
             for hand, b in results],
        )
    return 0


def cmd_partition(args: argparse.Namespace) -> int:
    ev = Evaluator(rules_from_args(args))
    split = ev.partition(args.cards, hands=args.hands, objective=args.objective,
                         min_category=args.min_category, opponents=args.opponents, crash_value=args.crash_value)
    if args.json:
        print(json.dumps({
            "cards": args.cards, "objective": args.objective, "min_category": args.min_category,
            "hands": split.hands, "discards": split.discards, "strengths": split.strengths,
            "categories": [c.name for c in split.categories], "descriptions": split.descriptions,
            "expected_points": split.expected_points, "candidates": split.candidates,
        }, indent=2))
        return 0
    print_table(
        ["position", "hand", "strength", "description"],
        [(i + 1, format_cards(h), s, d)
         for i, (h, s, d) in enumerate(zip(split.hands, split.strengths, split.descriptions))],
    )
    print(f"discards: {format_cards(split.discards) or '-'}")
    if split.expected_points is not None:
        print(f"expected points: {split.expected_points:.3f} against {args.opponents} opponent(s) "
              f"(best of {split.candidates} Pareto-optimal splits)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    rank = sub.add_parser("rank", help="rank three-card hands", description="Print strength, category and description of each hand.")
    rank.add_argument("hands", nargs="+", metavar="HAND", help='a hand, e.g. "3s 2h Ah"')
    rank.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(rank)
    rank.set_defaults(func=cmd_rank)

    best_of = sub.add_parser(
        "best-of", help="best three of four or five cards",
        description="Keep the best three of 3-5 cards (four- and five-card Brag); "
                    "the key includes the discard tie-break (higher discard wins).")
    best_of.add_argument("hands", nargs="+", metavar="HAND", help='3 to 5 cards, e.g. "As Kd 7h 7c 2s"')
    best_of.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(best_of)
    best_of.set_defaults(func=cmd_best_of)

    partition = sub.add_parser(
        "partition", help="split 6-15 cards into three-card hands (Crash and relatives)",
        description="Split the cards into HANDS three-card hands, strongest first; the rest are discards.")
    partition.add_argument("cards", metavar="CARDS", help='e.g. 13 cards for Crash: "As Ad 7h ..."')
    partition.add_argument("--hands", type=whole(2, 5), default=4, help="hands to form, 2 to 5 (default 4)")
    partition.add_argument("--objective", choices=OBJECTIVES, default=OBJECTIVES[0],
                           help="lexicographic: strongest first hand, then second...; expected_points: "
                                "most positions won on average, plus the four-of-a-kind bonus in Crash "
                                "(default lexicographic)")
    partition.add_argument("--min-category", metavar="CATEGORY",
                           help="every formed hand at least this category, e.g. PAIR; fewer hands may be formed")
    partition.add_argument("--opponents", type=POSITIVE, default=3, help="opponents for expected_points (default 3)")
    partition.add_argument("--crash-value", type=float, default=0.0,
                           help="expected_points: what a crash (every position won) is worth beyond its "
                                "positions' points (default 0)")
    partition.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(partition)
    partition.set_defaults(func=cmd_partition)
