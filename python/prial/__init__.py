"""prial: fast, exact evaluation of Brag and its relatives.

See README.md for a tour.  The public names are listed in ``__all__``; the
module-level functions use the standard Brag rules.
"""

from __future__ import annotations

from . import _core
from ._bestof_types import BestHand, Split
from ._errors import InvalidHandError, InvalidShowdownError
from ._evaluator import Evaluator
from ._rules import Rules
from ._types import Category, HandValue
from ._results import (
    BetResult, CasinoResult, CategoryOdds, CoverResult, CrashPlayerResult, CrashPosition,
    CrashResult, Equity, HouseEdge, Odds, PlayerHand, ShowdownResult,
)
from ._showdown import Player, showdown, showdown_batch
from ._crash import CrashPlayer, crash_showdown
from ._odds import equity, odds, percentile
from ._casino import PAIR_PLUS_1_4_6_30_40, PAYTABLES, SPEC_PAYTABLE, Paytable, house_edge, settle_casino

InvalidHandError.__module__ = "prial"
InvalidShowdownError.__module__ = "prial"
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
    "PAIR_PLUS_1_4_6_30_40",
    "PAYTABLES",
    "SPEC_PAYTABLE",
    "BestHand",
    "BetResult",
    "CasinoResult",
    "Category",
    "CategoryOdds",
    "CoverResult",
    "CrashPlayer",
    "CrashPlayerResult",
    "CrashPosition",
    "CrashResult",
    "Equity",
    "Evaluator",
    "HandValue",
    "HouseEdge",
    "InvalidHandError",
    "InvalidShowdownError",
    "Odds",
    "Paytable",
    "Player",
    "PlayerHand",
    "Rules",
    "ShowdownResult",
    "Split",
    "best_of",
    "best_of_batch",
    "crash_showdown",
    "equity",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "house_edge",
    "odds",
    "parse_cards",
    "partition",
    "partition_batch",
    "percentile",
    "settle_casino",
    "showdown",
    "showdown_batch",
]
