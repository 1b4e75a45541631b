"""Play: showdowns and pots, Crash scoring, nine-, seven- and six-card Brag
settled, casino settlement, odds.

Everything here is re-exported by ``prial``; import from there.
"""

from .casino import CASINO_BRAG_PAYTABLE, PAIR_PLUS_1_4_6_30_40, PAYTABLES, Paytable, house_edge, settle_casino
from .classic import (
    ClassicDraw,
    ClassicHand,
    ClassicPhase,
    ClassicPlayer,
    ClassicResult,
    ClassicRules,
    settle_best_card,
    settle_bragging,
    settle_classic,
    settle_thirty_one,
)
from .crash import CrashPlayer, crash_showdown
from .crash_deal import CrashDeal, deal_crash
from .crash_match import CrashMatch, CrashMatchResult, CrashMatchRound, CrashMatchRules, crash_match
from .odds import equity, odds, percentile
from .partition_games import (
    NineCardBrag,
    PartitionGameSession,
    SevenCardBrag,
    SixCardBrag,
    settle_nine_card_brag,
    settle_partition_game,
    settle_seven_card_brag,
    settle_six_card_brag,
)
from .results import (
    BetResult,
    CasinoResult,
    CategoryOdds,
    CoverResult,
    CrashPlayerResult,
    CrashPosition,
    CrashResult,
    Equity,
    HouseEdge,
    Odds,
    PartitionGamePlayerResult,
    PartitionGameResult,
    PartitionGameSet,
    PlayerHand,
    ShowdownResult,
)
from .showdown import Player, showdown, showdown_batch

__all__ = [
    "ClassicDraw", "ClassicHand", "ClassicPhase", "ClassicPlayer", "ClassicResult", "ClassicRules",
    "settle_best_card", "settle_bragging", "settle_classic", "settle_thirty_one",
    "CrashDeal", "deal_crash",
    "CASINO_BRAG_PAYTABLE", "PAIR_PLUS_1_4_6_30_40", "PAYTABLES", "BetResult", "CasinoResult", "CategoryOdds",
    "CoverResult", "CrashMatch", "CrashMatchResult", "CrashMatchRound", "CrashMatchRules", "CrashPlayer",
    "CrashPlayerResult", "CrashPosition", "CrashResult", "Equity", "HouseEdge", "Odds", "Paytable", "Player",
    "PlayerHand", "ShowdownResult", "crash_match", "crash_showdown",
    "equity", "house_edge", "odds", "percentile", "settle_casino", "showdown", "showdown_batch",
    "NineCardBrag", "PartitionGamePlayerResult", "PartitionGameResult", "PartitionGameSession", "PartitionGameSet",
    "SevenCardBrag", "SixCardBrag", "settle_nine_card_brag", "settle_partition_game", "settle_seven_card_brag",
    "settle_six_card_brag",
]
