"""Where a command's answers come from.

``prial rank``, ``partition``, ``showdown``, ``odds``, ``crash``,
``casino``, ``settle-partition`` and ``classic`` compute here (``Local``);
``prial call`` asks a server for the same answers
(``prial.cli.remote.Remote``).  A command is one function of its parsed
arguments and a ``Backend``, so the two print the same table from the
same arguments.  The methods are prial's functions of the same
names, which ``prial.client.Client`` mirrors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from ..cards import CardsLike
from ..categories import Category
from ..evaluator import FOUR_ORDERS, Evaluator
from ..play import (
    CASINO_BRAG_PAYTABLE,
    CasinoResult,
    ClassicPlayer,
    ClassicResult,
    ClassicRules,
    CrashMatchResult,
    CrashMatchRules,
    CrashPlayer,
    CrashResult,
    Equity,
    Odds,
    Paytable,
    Player,
    ShowdownResult,
    crash_match,
    crash_showdown,
    equity,
    odds,
    settle_casino,
    settle_classic,
    settle_partition_game,
    showdown,
)
from ..play.crash_deal import CRASH_CARDS, CrashDeal, deal_crash
from ..play.crash_rules import CRASH_OPTIONS
from ..play.partition_games import PartitionGame
from ..play.results import PartitionGameResult
from ..results import Split
from ..rules import Rules
from .common import each_hand


class Ranked(NamedTuple):
    """One ranked hand as given: ``key`` is the best-of key of a four- or
    five-card hand (None for three cards, where the strength is the key)."""

    hand: str
    cards: list[int]
    strength: int
    key: int | None
    category: Category
    description: str


class Backend(Protocol):
    def rank(self, hands: Sequence[str], rules: Rules) -> list[Ranked]: ...

    def partition(self, cards: CardsLike, hands: int = 4, objective: str = "lexicographic",
                  min_category: Category | str | None = None, opponents: int = 3, crash_value: float = 0.0, *,
                  rules: Rules | None = None, four_order: str = FOUR_ORDERS[0]) -> Split: ...

    def showdown(self, players: Sequence[Player], seer: str | None = None, *, rules: Rules | None = None,
                 cards_per_hand: int | None = None, pot: int = 0, coverer: str | None = None,
                 old_pot: int = 0) -> ShowdownResult: ...

    def odds(self, rules: Rules | None = None, cards: int = 3) -> Odds: ...

    def equity(self, hand: CardsLike, opponents: int = 1, dead: CardsLike = (), rules: Rules | None = None, *,
               samples: int | None = None, seed: int = 0, with_percentile: bool = False) -> Equity: ...

    def crash_showdown(self, players: Sequence[CrashPlayer], *, scoring: str | Sequence[int] = "points",
                       min_category: Category | str | None = None, rules: Rules | None = None,
                       crash_value: int = 0, four_order: str = FOUR_ORDERS[0],
                       ties: str = CRASH_OPTIONS["ties"][0], four_bonus: str = CRASH_OPTIONS["four_bonus"][0],
                       below_min: str = CRASH_OPTIONS["below_min"][0]) -> CrashResult: ...

    def crash_match(self, rounds: Sequence[Sequence[CrashPlayer]], match: CrashMatchRules | None = None,
                    **showdown: Any) -> CrashMatchResult: ...

    def deal_crash(self, seed: int, players: int = 4, *, cards: int = CRASH_CARDS, spare: bool = False,
                   exchanges: Sequence[int] = ()) -> CrashDeal: ...

    def settle_casino(self, player: CardsLike, dealer: CardsLike, ante: int, play: int | None = None,
                      pair_bonus: int = 0, *, paytable: Paytable | str = CASINO_BRAG_PAYTABLE,
                      game: str | None = None) -> CasinoResult: ...

    def settle_partition_game(self, players: Sequence[CrashPlayer], game: PartitionGame, *,
                              carry: int = 0) -> PartitionGameResult: ...


    def settle_classic(self, players: Sequence[ClassicPlayer], rules: ClassicRules | None = None, *,
                       contenders: Sequence[str] | None = None, seer: str | None = None,
                       stock: CardsLike | None = None, seed: int | None = None) -> ClassicResult: ...


class Local:
    """The answers computed in this process."""

    showdown = staticmethod(showdown)
    odds = staticmethod(odds)
    equity = staticmethod(equity)
    crash_showdown = staticmethod(crash_showdown)
    crash_match = staticmethod(crash_match)
    deal_crash = staticmethod(deal_crash)
    settle_casino = staticmethod(settle_casino)
    settle_classic = staticmethod(settle_classic)
    settle_partition_game = staticmethod(settle_partition_game)

    def rank(self, hands: Sequence[str], rules: Rules) -> list[Ranked]:
        return [Ranked(hand, v.cards, v.strength, None, v.category, v.description)
                for hand, v in each_hand(hands, Evaluator(rules).evaluate)]

    def partition(self, cards: CardsLike, hands: int = 4, objective: str = "lexicographic",
                  min_category: Category | str | None = None, opponents: int = 3, crash_value: float = 0.0, *,
                  rules: Rules | None = None, four_order: str = FOUR_ORDERS[0]) -> Split:
        return Evaluator(rules).partition(cards, hands, objective, min_category, opponents, crash_value, four_order)
