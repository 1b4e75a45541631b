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
_core.register_result_types(HandValue, list(Category), BestHand, Split)

parse_cards = _core.parse_cards
format_cards = _core.format_cards

_brag = Evaluator()
evaluate = _brag.evaluate
evaluate_batch = _brag.evaluate_batch
best_of = _brag.best_of
best_of_batch = _brag.best_of_batch
partition = _brag.partition
partition_batch = _brag.partition_batch

__version__ = _core.__version__

# Batch scoring of logs (prial score) needs pyarrow: imported on first use.
_LAZY = {
    "score_file": ("._score_job", "score_file"),
    "ScoreOptions": ("._score_types", "ScoreOptions"),
    "ScoreSummary": ("._score_types", "ScoreSummary"),
    "ScoreError": ("._score_types", "ScoreError"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module, __name__), attr)
    raise AttributeError(f"module 'prial' has no attribute {name!r}")


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
    "ScoreError",
    "ScoreOptions",
    "ScoreSummary",
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
    "score_file",
    "settle_casino",
    "showdown",
    "showdown_batch",
]
