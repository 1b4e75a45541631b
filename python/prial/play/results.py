"""Result types of showdowns, Crash, casino settlement and odds.

Every type is a frozen dataclass with ``to_dict()`` giving plain JSON-able
data (str, int, float, bool, None, lists and dicts): categories become their
names, tuples become lists.  The gRPC service and log scoring map these.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias, Union

from ..categories import Category

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# What to_dict() gives: the values of JSON.
Plain: TypeAlias = Union[str, int, float, bool, None, list["Plain"], dict[str, "Plain"]]


def plain(value: object) -> Plain:
    """``value`` as plain JSON-able data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k.name if isinstance(k, enum.Enum) else k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value  # type: ignore[return-value]  # the leaves: str, int, float, bool, None


def _fields(value: DataclassInstance) -> dict[str, Plain]:
    return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}


class _ToDict:
    def to_dict(self) -> dict[str, Plain]:
        """Plain JSON-able data (see the module docstring)."""
        return _fields(self)  # type: ignore[arg-type]  # every subclass is a dataclass


# ---- showdowns ----

@dataclass(frozen=True)
class PlayerHand(_ToDict):
    """One player's hand at a showdown.

    ``key`` compares hands of one size under one ruleset (higher wins, equal
    ties): the strength for three cards, the best-of key (discard tie-break
    included) for four and five.  ``kept``/``discarded`` split the cards.
    """

    id: str
    cards: tuple[int, ...]
    blind: bool
    stake: int
    strength: int
    key: int
    category: Category
    description: str
    kept: tuple[int, ...]
    discarded: tuple[int, ...]


@dataclass(frozen=True)
class CoverResult(_ToDict):
    """The old pot after a cover: the coverer against the new pot's winner."""

    coverer: str
    old_pot: int
    winners: tuple[str, ...]
    reason: str
    decided_by: str  # "hand" | "discard" | "tie_to_new_pot_winner"


@dataclass(frozen=True)
class ShowdownResult(_ToDict):
    """Who won and why.

    ``kind`` is ``"see"`` (a seer paid to see one player) or ``"agreed"``.
    ``decided_by``: ``"hand"`` (stronger hand), ``"discard"`` (equal threes,
    the four/five-card discard tie-break decided), ``"seer_loses_ties"``
    (exact tie in a see) or ``"shared"`` (exact tie, pot shared).
    ``payouts`` (chips each player receives; ``None`` when no chips were
    given) always add up to every chip put in.
    """

    kind: str
    seer: str | None
    winners: tuple[str, ...]
    reason: str
    decided_by: str
    hands: tuple[PlayerHand, ...]
    pot: int
    payouts: Mapping[str, int] | None = None
    cover: CoverResult | None = None

    def hand(self, player_id: str) -> PlayerHand:
        for h in self.hands:
            if h.id == player_id:
                return h
        raise KeyError(player_id)


# ---- Crash, thirteen-card Brag ----

@dataclass(frozen=True)
class CrashPosition(_ToDict):
    """One position (first hands together, then second ...)."""

    index: int  # 0 = first hands
    weight: int
    winner: str | None
    stick_up: bool  # nobody scores for a tie: for best, or (ties="cancel") of every hand with another
    contenders: tuple[str, ...]
    best: str | None  # description of the best hand
    reason: str = ""  # in words: "a scores 1: Prial of aces", "stick-up: a and b hold Pair of sevens, ..."
    cancelled: tuple[str, ...] = ()  # ties="cancel": players whose tied hands cancelled out here
    forfeited: tuple[str, ...] = ()  # below_min="forfeit_position": players whose hand here is below the minimum


@dataclass(frozen=True)
class CrashPlayerResult(_ToDict):
    id: str
    hands: tuple[str, ...]  # descriptions, in declared order
    strengths: tuple[int, ...]
    discards: tuple[int, ...]
    fouled: bool
    foul: str | None  # why, in words
    positions_won: tuple[int, ...]
    four_of_a_kind: str | None  # rank char of the best four of a kind used in hands
    points: int


@dataclass(frozen=True)
class CrashResult(_ToDict):
    """Points per player and the round's flags.

    ``void``: a player declared six pairs (``voided_by``); nothing scores.
    ``outright``: players holding a thirteen-card straight, who win the round
    outright; nothing else scores.  ``crash``: the player who won every
    position.  ``four_of_a_kind_bonus``: the player holding the best four of
    a kind, who scores the bonus point; ``four_of_a_kind_bonuses``: every
    player who scored it (with ``four_bonus="every"`` each player holding a
    four of a kind, else that one player).
    """

    positions: tuple[CrashPosition, ...]
    players: tuple[CrashPlayerResult, ...]
    points: Mapping[str, int]
    crash: str | None = None
    four_of_a_kind_bonus: str | None = None
    outright: tuple[str, ...] = ()
    void: bool = False
    voided_by: str | None = None
    four_of_a_kind_bonuses: tuple[str, ...] = ()


# ---- nine-, seven- and six-card Brag ----

@dataclass(frozen=True)
class PartitionGameSet(_ToDict):
    """One set (position) of a nine-, seven- or six-card Brag deal."""

    index: int  # 0 = first hands
    pot: int  # the set's own antes (nine-card Brag), else 0
    winner: str | None
    stick_up: bool  # a tie for best: nobody wins the set
    contenders: tuple[str, ...]  # players who did not foul
    best: str | None  # description of the best hand
    reason: str = ""  # in words: "a takes 3: Prial of aces", "stick-up: a and b hold ...; 3 carried"


@dataclass(frozen=True)
class PartitionGamePlayerResult(_ToDict):
    id: str
    hands: tuple[str, ...]  # descriptions, in the order laid down
    fouled: bool
    foul: str | None  # why, in words
    sets_won: tuple[int, ...]
    staked: int  # chips the player anted this deal
    paid: int  # chips paid to the player
    net: int  # paid - staked


@dataclass(frozen=True)
class PartitionGameResult(_ToDict):
    """A deal settled in chips.

    ``pot``: the main pot, the carried chips (``carry_in``) and one ante
    from each player; it goes to ``pot_winner``, the player who won every
    set, if there is one.  ``carry_out``: the chips nobody won, brought to
    the next deal.  ``nets`` add up to ``carry_in - carry_out``.
    """

    game: str  # "nine_card" | "seven_card" | "six_card"
    sets: tuple[PartitionGameSet, ...]
    players: tuple[PartitionGamePlayerResult, ...]
    nets: Mapping[str, int]
    carry_in: int
    pot: int
    pot_winner: str | None
    carry_out: int


# ---- casino settlement ----

@dataclass(frozen=True)
class BetResult(_ToDict):
    """One bet: ``net`` chips won (positive) or lost (negative)."""

    bet: str  # "ante" | "play" | "ante_bonus" | "pair_bonus"
    stake: int
    outcome: str  # "win" | "lose" | "push"
    net: int
    note: str = ""


@dataclass(frozen=True)
class CasinoResult(_ToDict):
    player: str  # description of the player's hand
    dealer: str
    dealer_qualifies: bool
    folded: bool
    bets: tuple[BetResult, ...]
    net: int


@dataclass(frozen=True)
class HouseEdge(_ToDict):
    """Exact house edges of one pay table (fractions of the bet).

    ``ante``: per unit of ante, the player playing each hand optimally (play
    when playing loses less than folding).  ``pair_bonus``: per unit of pair
    bonus.  ``play_threshold``: the weakest hand worth playing.
    """

    paytable: str
    game: str
    ante: Fraction
    pair_bonus: Fraction
    play_threshold: str


# ---- odds ----

@dataclass(frozen=True)
class CategoryOdds(_ToDict):
    category: Category
    count: int
    probability: float


@dataclass(frozen=True)
class Odds(_ToDict):
    """Exact category counts over every hand of ``cards`` cards, strongest first."""

    cards: int
    total: int
    rows: tuple[CategoryOdds, ...] = field(default=())

    def __iter__(self) -> Iterator[CategoryOdds]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, category: Category) -> CategoryOdds:
        for row in self.rows:
            if row.category == category:
                return row
        raise KeyError(category)


@dataclass(frozen=True)
class Equity(_ToDict):
    """Win/tie/lose probabilities of a hand against random opponents.

    ``exact``: every deal was enumerated (``deals`` of them) and
    ``stderr`` is 0; otherwise ``deals`` seeded random deals were sampled and
    ``stderr`` is the largest standard error of the three estimates.
    ``percentile``: the hand's ``prial.percentile``, where asked for
    (``with_percentile``), else None.
    """

    win: float
    tie: float
    lose: float
    exact: bool
    stderr: float
    deals: int
    opponents: int
    percentile: float | None = None
