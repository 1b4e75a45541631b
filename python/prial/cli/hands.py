"""``prial rank``, ``prial best-of`` and ``prial partition``: hands valued
and split, one line each."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from ..cards import format_cards
from ..categories import Category
from ..evaluator import OBJECTIVES, Evaluator
from .backend import Backend, Local, Ranked
from .common import (
    POSITIVE,
    Table,
    add_four_order_option,
    add_rules_options,
    check_cards,
    each_hand,
    print_table,
    rules_from_args,
    whole,
)

RANK_DESCRIPTION = "Print strength, category and description of each hand."
PARTITION_DESCRIPTION = "Split the cards into HANDS three-card hands, strongest first; the rest are discards."


def rank_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hands", nargs="+", metavar="HAND", help='a hand, e.g. "3s 2h Ah"')
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def rank(args: argparse.Namespace, backend: Backend) -> int:
    each_hand(args.hands, check_cards)
    ranked = backend.rank(args.hands, rules_from_args(args))
    if args.json:
        print(json.dumps([rank_json(r) for r in ranked], indent=2))
    else:
        rank_table(ranked).write([rank_cells(r) for r in ranked])
    return 0


# The widest cells of a ranked hand's columns: a strength is 16 bits, a
# best-of key the strength and 8 bits of discards.
STRENGTH_DIGITS = len(str(2**16 - 1))
KEY_DIGITS = len(str((2**16 - 1) << 8 | 0xFF))
CATEGORY_LETTERS = max(len(c.name) for c in Category)


def rank_table(ranked: Sequence[Ranked], first: Sequence[str] = (),
               first_widths: Sequence[int] | None = None) -> Table:
    """The table of ranked hands (all of one size), with the ``first`` columns before its own.

    With ``first_widths`` (the widest cells of the ``first`` columns) every
    column is as wide as its widest possible cell, the hands' as their
    cards written as prial writes them: for a table written in parts."""
    keyed = bool(ranked) and ranked[0].key is not None
    widths = None
    if first_widths is not None and ranked:
        hand = len(format_cards(ranked[0].cards))
        widths = [*first_widths, hand, STRENGTH_DIGITS, *([KEY_DIGITS] if keyed else []), CATEGORY_LETTERS, 0]
    return Table([*first, "hand", "strength", *(["key"] if keyed else []), "category", "description"],
                 widths=widths)


def rank_cells(r: Ranked) -> list[object]:
    return [r.hand, r.strength, *([] if r.key is None else [r.key]), r.category.name, r.description]


def rank_json(r: Ranked) -> dict[str, object]:
    key = {} if r.key is None else {"key": r.key}
    return {"hand": r.hand, "cards": r.cards, "strength": r.strength, **key, "category": r.category.name,
            "description": r.description}


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


def partition_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", metavar="CARDS", help='e.g. 13 cards for Crash: "As Ad 7h ..."')
    parser.add_argument("--hands", type=whole(2, 5), default=4, help="hands to form, 2 to 5 (default 4)")
    parser.add_argument("--objective", choices=OBJECTIVES, default=OBJECTIVES[0],
                        help="lexicographic: strongest first hand, then second...; expected_points: "
                             "most positions won on average, plus the four-of-a-kind bonus in Crash "
                             "(default lexicographic)")
    parser.add_argument("--min-category", metavar="CATEGORY",
                        help="every formed hand at least this category, e.g. PAIR; fewer hands may be formed")
    parser.add_argument("--opponents", type=POSITIVE, default=3, help="opponents for expected_points (default 3)")
    parser.add_argument("--crash-value", type=float, default=0.0,
                        help="expected_points: what a crash (every position won) is worth beyond its "
                             "positions' points (default 0)")
    add_four_order_option(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def partition(args: argparse.Namespace, backend: Backend) -> int:
    check_cards(args.cards)
    split = backend.partition(args.cards, hands=args.hands, objective=args.objective,
                              min_category=args.min_category, opponents=args.opponents,
                              crash_value=args.crash_value, four_order=args.four_order, rules=rules_from_args(args))
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
    local = Local()
    rank_parser = sub.add_parser("rank", help="rank three-card hands", description=RANK_DESCRIPTION)
    rank_arguments(rank_parser)
    rank_parser.set_defaults(func=lambda args: rank(args, local))

    best_of = sub.add_parser(
        "best-of", help="best three of four or five cards",
        description="Keep the best three of 3-5 cards (four- and five-card Brag); "
                    "the key includes the discard tie-break (higher discard wins).")
    best_of.add_argument("hands", nargs="+", metavar="HAND", help='3 to 5 cards, e.g. "As Kd 7h 7c 2s"')
    best_of.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(best_of)
    best_of.set_defaults(func=cmd_best_of)

    partition_parser = sub.add_parser(
        "partition", help="split 6-15 cards into three-card hands (Crash and relatives)",
        description=PARTITION_DESCRIPTION)
    partition_arguments(partition_parser)
    partition_parser.set_defaults(func=lambda args: partition(args, local))
