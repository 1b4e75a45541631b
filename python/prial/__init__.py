"""prial: fast, exact evaluation of Brag and its relatives.

See README.md for a tour.  The public names are listed in ``__all__``; the
module-level functions use the standard Brag rules.
"""

from __future__ import annotations

from . import _core
from ._bestof_types import BestHand, Split
from ._errors import InvalidHandError
from ._evaluator import Evaluator
from ._rules import Rules
from ._types import Category, HandValue

InvalidHandError.__module__ = "prial"
_core._register_types(HandValue, list(Category))
_core._register_bestof_types(BestHand, Split)

parse_cards = _core.parse_cards
format_cards = _core.format_cards

_brag = Evaluator()
evaluate = _brag.evaluate
evaluate_batch = _brag.evaluate_batch
best_of = _brag.best_of
best_of_batch = _brag.best_of_batch
partition = _brag.partition
partition_batch = _brag.partition_batch

__version__ = "0.1.0"

__all__ = [
    "BestHand",
    "Category",
    "Evaluator",
    "HandValue",
    "InvalidHandError",
    "Rules",
    "Split",
    "best_of",
    "best_of_batch",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "parse_cards",
    "partition",
    "partition_batch",
]
