"""prial: fast, exact evaluation of Brag and its relatives.

The rules are in docs/rules.md and README.md gives a tour.  Everything public
is re-exported here (``__all__``); the module-level functions use the
standard Brag rules.  Subpackages by concern: ``prial.play`` (showdowns,
Crash, casino, odds), ``prial.score`` (log scoring), ``prial.audit`` (log
audits), ``prial.table`` (the betting table), ``prial.service`` (the gRPC server), ``prial.client`` (its
client), ``prial.cli`` (the command line).
"""

import warnings
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import CancelFlag
from ._lazy import lazy_names, public_dir
from .cards import format_cards, parse_cards, random_hands
from .categories import Category
from .errors import CancelledError, ConfigurationError, Error, IllegalActionError, InvalidHandError, InvalidShowdownError
from .evaluator import Evaluator, TableCache, set_table_cache_limit, table_cache_info
from .play import (
    CASINO_BRAG_PAYTABLE,
    PAIR_PLUS_1_4_6_30_40,
    PAYTABLES,
    BetResult,
    CasinoResult,
    CategoryOdds,
    ClassicDraw,
    ClassicHand,
    ClassicPhase,
    ClassicPlayer,
    ClassicResult,
    ClassicRules,
    CoverResult,
    CrashDeal,
    CrashMatch,
    CrashMatchResult,
    CrashMatchRound,
    CrashMatchRules,
    CrashPlayer,
    CrashPlayerResult,
    CrashPosition,
    CrashResult,
    Equity,
    HouseEdge,
    NineCardBrag,
    Odds,
    PartitionGamePlayerResult,
    PartitionGameResult,
    PartitionGameSession,
    PartitionGameSet,
    Paytable,
    Player,
    PlayerHand,
    SevenCardBrag,
    ShowdownResult,
    SixCardBrag,
    crash_match,
    crash_showdown,
    deal_crash,
    equity,
    house_edge,
    odds,
    percentile,
    settle_best_card,
    settle_bragging,
    settle_casino,
    settle_classic,
    settle_nine_card_brag,
    settle_partition_game,
    settle_seven_card_brag,
    settle_six_card_brag,
    settle_thirty_one,
    showdown,
    showdown_batch,
)
from .results import BestHand, HandValue, Split
from .rules import Rules
from .table import Action, Deal, DealResult, TableRules, simulate

if TYPE_CHECKING:
    from .audit import AuditOptions, AuditResult, audit_file, audit_histories, audit_table
    from .logs.histories import HistoryChunk, RecordError, iter_history_chunks, read_histories, write_histories
    from .replay import ReplaySummary, replay_file
    from .score import (
        Bias,
        ScoreError,
        ScoreOptions,
        ScoreSummary,
        sample_deals,
        sample_laid_deals,
        score_file,
        write_sample_log,
    )

    SPEC_PAYTABLE: Paytable  # deprecated, for CASINO_BRAG_PAYTABLE; warns when used

__version__: str = _core.__version__  # the package version, given to the build by pyproject.toml

for _error in (Error, InvalidHandError, InvalidShowdownError, ConfigurationError, CancelledError, IllegalActionError):
    _error.__module__ = __name__

_brag = Evaluator()
evaluate = _brag.evaluate
evaluate_batch = _brag.evaluate_batch
best_of = _brag.best_of
best_of_batch = _brag.best_of_batch
equity_batch = _brag.equity_batch
partition = _brag.partition
partition_batch = _brag.partition_batch

# Log scoring, auditing and history files need pyarrow: their subpackage is
# imported on first use.
_LAZY = {**dict.fromkeys(("Bias", "ScoreError", "ScoreOptions", "ScoreSummary", "sample_deals", "sample_laid_deals",
                          "score_file", "write_sample_log"), "score"),
         **dict.fromkeys(("AuditOptions", "AuditResult", "audit_file", "audit_histories", "audit_table"), "audit"),
         **dict.fromkeys(("HistoryChunk", "RecordError", "iter_history_chunks", "read_histories",
                          "write_histories"), "logs.histories"),
         **dict.fromkeys(("ReplaySummary", "replay_file"), "replay")}
_DEPRECATED = {"SPEC_PAYTABLE": "CASINO_BRAG_PAYTABLE"}


# Hidden from type checkers, which see the TYPE_CHECKING imports above: to
# them a module __getattr__ makes every misspelt prial.name an Any.
if not TYPE_CHECKING:
    _lazy = lazy_names(__name__, _LAZY, globals())
    __dir__ = public_dir(globals())

    def __getattr__(name: str) -> Any:
        if name in _LAZY:
            return _lazy(name)
        if name in _DEPRECATED:
            new = _DEPRECATED[name]
            warnings.warn(f"prial.{name} is deprecated; use prial.{new}", DeprecationWarning, stacklevel=2)
            return globals()[new]
        raise AttributeError(f"module 'prial' has no attribute {name!r}")


__all__ = [
    "Action",
    "AuditOptions",
    "AuditResult",
    "CASINO_BRAG_PAYTABLE",
    "PAIR_PLUS_1_4_6_30_40",
    "PAYTABLES",
    "BestHand",
    "BetResult",
    "Bias",
    "CancelFlag",
    "CancelledError",
    "CasinoResult",
    "Category",
    "CategoryOdds",
    "ClassicDraw",
    "ClassicHand",
    "ClassicPhase",
    "ClassicPlayer",
    "ClassicResult",
    "ClassicRules",
    "ConfigurationError",
    "CoverResult",
    "CrashDeal",
    "CrashMatch",
    "CrashMatchResult",
    "CrashMatchRound",
    "CrashMatchRules",
    "CrashPlayer",
    "CrashPlayerResult",
    "CrashPosition",
    "CrashResult",
    "Deal",
    "DealResult",
    "Equity",
    "Error",
    "Evaluator",
    "HandValue",
    "HistoryChunk",
    "IllegalActionError",
    "HouseEdge",
    "InvalidHandError",
    "InvalidShowdownError",
    "NineCardBrag",
    "Odds",
    "PartitionGamePlayerResult",
    "PartitionGameResult",
    "PartitionGameSession",
    "PartitionGameSet",
    "Paytable",
    "Player",
    "PlayerHand",
    "RecordError",
    "ReplaySummary",
    "Rules",
    "ScoreError",
    "ScoreOptions",
    "ScoreSummary",
    "SevenCardBrag",
    "ShowdownResult",
    "SixCardBrag",
    "Split",
    "TableCache",
    "TableRules",
    "audit_file",
    "audit_histories",
    "audit_table",
    "best_of",
    "best_of_batch",
    "crash_match",
    "deal_crash",
    "crash_showdown",
    "equity",
    "equity_batch",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "house_edge",
    "iter_history_chunks",
    "odds",
    "parse_cards",
    "partition",
    "partition_batch",
    "percentile",
    "random_hands",
    "read_histories",
    "replay_file",
    "sample_deals",
    "sample_laid_deals",
    "score_file",
    "set_table_cache_limit",
    "settle_best_card",
    "settle_bragging",
    "settle_casino",
    "settle_classic",
    "settle_nine_card_brag",
    "settle_partition_game",
    "settle_seven_card_brag",
    "settle_six_card_brag",
    "settle_thirty_one",
    "showdown",
    "showdown_batch",
    "simulate",
    "table_cache_info",
    "write_histories",
    "write_sample_log",
]
