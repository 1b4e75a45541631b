"""Play: showdowns and pots, Crash scoring, casino settlement, odds.

Everything here is re-exported by ``prial``; import from there.
"""

from .casino import CASINO_BRAG_PAYTABLE, PAIR_PLUS_1_4_6_30_40, PAYTABLES, Paytable, house_edge, settle_casino
from .crash import CrashPlayer, crash_showdown
from .odds import equity, odds, percentile
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
    PlayerHand,
    ShowdownResult,
)
from .showdown import Player, showdown, showdown_batch

__all__ = [
    "CASINO_BRAG_PAYTABLE", "PAIR_PLUS_1_4_6_30_40", "PAYTABLES", "BetResult", "CasinoResult", "CategoryOdds",
    "CoverResult", "CrashPlayer", "CrashPlayerResult", "CrashPosition", "CrashResult", "Equity",
    "HouseEdge", "Odds", "Paytable", "Player", "PlayerHand", "ShowdownResult", "crash_showdown",
    "equity", "house_edge", "odds", "percentile", "settle_casino", "showdown", "showdown_batch",
]
