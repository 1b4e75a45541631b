"""Casino Brag / Three Card Poker settlement against the dealer
(docs/rules.md, "Casino settlement"), pay tables, and their exact house
edges."""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..cards import CardsLike, cards_of, check_no_shared_cards
from ..categories import Category
from ..errors import ConfigurationError, InvalidShowdownError
from ..evaluator import Evaluator, evaluator_for
from ..rules import Rules
from .checks import MAX_CHIPS, MAX_NET, chips
from .results import BetResult, CasinoResult, HouseEdge

GAMES = ("brag", "three_card_poker")
DEALER_QUALIFIER = "Qc 3d 2h"  # the weakest queen-high hand: queen-high or better qualifies


PAIR_BONUS_ON_FOLD = ("settles", "forfeited")


@dataclass(frozen=True)
class Paytable:
    """Bonus pays (``X`` means X:1) by category, and the table's rules.

    ``ante_bonus`` pays on the ante when the player plays, whatever the
    dealer holds; ``pair_bonus`` is the optional side bet on the player's
    hand alone.  ``play_multiple``: the play bet is this many antes.
    ``game``: the hand ranking the table is played with (``brag`` or
    ``three_card_poker``).  ``ante_mini_royal`` and ``pair_mini_royal``: what
    a suited A-K-Q (a "mini royal") pays on each bonus, where the table pays
    it apart; ``None``: as its category.  ``pair_bonus_on_fold``: whether a
    player who folds still has the pair bonus settled (``settles``) or loses
    it (``forfeited``).  Mappings are stored as sorted ``(Category, pays)``
    pairs so the table is hashable.
    """

    name: str
    ante_bonus: tuple[tuple[Category, int], ...]
    pair_bonus: tuple[tuple[Category, int], ...]
    play_multiple: int = 1
    game: str = "brag"
    ante_mini_royal: int | None = None
    pair_mini_royal: int | None = None
    pair_bonus_on_fold: str = "settles"

    def __post_init__(self) -> None:
        # Every way of making a table (make, the constructor,
        # dataclasses.replace) is checked here.
        def pays(value: object, what: str) -> None:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigurationError(f"{what} must be an integer >= 0, got {value!r}")

        for what, lines in (("ante_bonus", self.ante_bonus), ("pair_bonus", self.pair_bonus)):
            paid: dict[object, int] = {}
            for category, value in lines:
                pays(value, f"{what} pays for {category!r}")
                # Two pays for one category leave which one applies to chance.
                if category in paid:
                    name = Category(category).name if category in Category._value2member_map_ else repr(category)
                    raise ConfigurationError(f"{what} lists {name} twice (pays {paid[category]} and {value}); "
                                             f"a category has one pay")
                paid[category] = value
        for what in ("ante_mini_royal", "pair_mini_royal"):
            if getattr(self, what) is not None:
                pays(getattr(self, what), what)
        if isinstance(self.play_multiple, bool) or not isinstance(self.play_multiple, int) or self.play_multiple < 1:
            raise ConfigurationError(f"play_multiple must be an integer >= 1, got {self.play_multiple!r}")
        if self.game not in GAMES:
            raise ConfigurationError(f"game must be one of {', '.join(GAMES)}; got {self.game!r}")
        if self.pair_bonus_on_fold not in PAIR_BONUS_ON_FOLD:
            raise ConfigurationError(f"pair_bonus_on_fold must be one of {', '.join(PAIR_BONUS_ON_FOLD)}; "
                                     f"got {self.pair_bonus_on_fold!r}")

    @classmethod
    def make(cls, name: str, ante_bonus: Mapping[Category, int], pair_bonus: Mapping[Category, int],
             play_multiple: int = 1, *, game: str = "brag", ante_mini_royal: int | None = None,
             pair_mini_royal: int | None = None, pair_bonus_on_fold: str = "settles") -> Paytable:
        """A table from ``{Category: pays}`` mappings."""
        def lines(m: Mapping[Category, int]) -> tuple[tuple[Category, int], ...]:
            return tuple(sorted((Category(c), p) for c, p in m.items()))

        return cls(name, lines(ante_bonus), lines(pair_bonus), play_multiple, game, ante_mini_royal, pair_mini_royal,
                   pair_bonus_on_fold)

    def ante_pays(self, category: Category, mini_royal: bool = False) -> int:
        """What the ante bonus pays a hand of ``category`` (a suited A-K-Q
        when ``mini_royal``)."""
        if mini_royal and self.ante_mini_royal is not None:
            return self.ante_mini_royal
        return dict(self.ante_bonus).get(category, 0)

    def pair_pays(self, category: Category, mini_royal: bool = False) -> int:
        """What the pair bonus pays, as ``ante_pays``."""
        if mini_royal and self.pair_mini_royal is not None:
            return self.pair_mini_royal
        return dict(self.pair_bonus).get(category, 0)


_C = Category
_BRAG_ANTE_BONUS = {_C.PRIAL: 5, _C.RUNNING_FLUSH: 4, _C.RUN: 1}
CASINO_BRAG_PAYTABLE = Paytable.make(
    "casino_brag", _BRAG_ANTE_BONUS,
    {_C.PRIAL: 40, _C.RUNNING_FLUSH: 30, _C.RUN: 6, _C.FLUSH: 4, _C.PAIR: 1})
PAIR_PLUS_1_4_6_30_40 = Paytable.make(
    "pair_plus_1_4_6_30_40", _BRAG_ANTE_BONUS,
    {_C.RUNNING_FLUSH: 40, _C.PRIAL: 30, _C.RUN: 6, _C.FLUSH: 4, _C.PAIR: 1})
# Three Card Poker as casinos deal it: the ante bonus pays a straight flush
# 5, three of a kind 4 and a straight 1; each table is named by its Pair
# Plus pays for a pair, flush, straight, three of a kind and straight flush.
_TCP_ANTE_BONUS = {_C.RUNNING_FLUSH: 5, _C.PRIAL: 4, _C.RUN: 1}


def _three_card_poker(pair: int, flush: int, straight: int, trips: int, straight_flush: int) -> Paytable:
    return Paytable.make(
        f"three_card_poker_{pair}_{flush}_{straight}_{trips}_{straight_flush}", _TCP_ANTE_BONUS,
        {_C.PAIR: pair, _C.FLUSH: flush, _C.RUN: straight, _C.PRIAL: trips, _C.RUNNING_FLUSH: straight_flush},
        game="three_card_poker")


THREE_CARD_POKER_PAYTABLES = tuple(_three_card_poker(*pays) for pays in (
    (1, 4, 6, 30, 40), (1, 3, 6, 30, 40), (1, 4, 6, 25, 40), (1, 4, 5, 30, 40), (1, 4, 6, 25, 35)))
PAYTABLES: dict[str, Paytable] = {
    t.name: t for t in (CASINO_BRAG_PAYTABLE, PAIR_PLUS_1_4_6_30_40, *THREE_CARD_POKER_PAYTABLES)}

# Old names, kept working for a while: the pay table first published as "spec".
DEPRECATED_PAYTABLE_NAMES = {"spec": "casino_brag"}


def is_mini_royal(cards: list[int]) -> bool:
    """A, K and Q of one suit (jokers, 52 and up, are never one)."""
    return max(cards) < 52 and sorted(c // 4 for c in cards) == [10, 11, 12] and len({c % 4 for c in cards}) == 1


def _paytable(paytable: Paytable | str) -> Paytable:
    if isinstance(paytable, Paytable):
        return paytable
    if paytable in PAYTABLES:
        return PAYTABLES[paytable]
    if paytable in DEPRECATED_PAYTABLE_NAMES:
        new = DEPRECATED_PAYTABLE_NAMES[paytable]
        warnings.warn(f"the pay table name {paytable!r} is deprecated; use {new!r}", DeprecationWarning,
                      stacklevel=3)
        return PAYTABLES[new]
    raise ConfigurationError(f"paytable must be a prial.Paytable or one of {', '.join(PAYTABLES)}; got {paytable!r}")


def _game_evaluator(game: str) -> Evaluator:
    if game not in GAMES:
        raise ConfigurationError(f"game must be one of {', '.join(GAMES)}; got {game!r}")
    return evaluator_for(Rules(preset=game))


def settle_casino(
    player: CardsLike,
    dealer: CardsLike,
    ante: int,
    play: int | None = None,
    pair_bonus: int = 0,
    *,
    paytable: Paytable | str = CASINO_BRAG_PAYTABLE,
    game: str | None = None,
) -> CasinoResult:
    """Settle one hand of casino Brag / Three Card Poker against the dealer.

    ``play=None`` means the player folded: the ante is lost whatever the
    dealer holds (the pair bonus still settles).  A play bet must be
    ``ante * paytable.play_multiple``.  The dealer qualifies with
    queen-high or better; if not, the ante wins 1:1 and the play bet is
    returned.  Otherwise the better hand wins ante and play 1:1 and equal
    hands push.  The ante bonus pays on the ante when the player plays; the
    pair bonus pays on the player's hand alone (a folded player's is lost
    when the table's ``pair_bonus_on_fold`` is ``forfeited``).  ``game``
    picks the hand ranking (``brag`` or ``three_card_poker``); ``None``: the
    pay table's own.
    """
    table = _paytable(paytable)
    ev = _game_evaluator(table.game if game is None else game)
    if isinstance(ante, bool) or not isinstance(ante, int) or not 1 <= ante <= MAX_CHIPS:
        raise ConfigurationError(f"ante must be a whole number of chips from 1 to {MAX_CHIPS}, got {ante!r}",
                                 field="ante")
    chips(pair_bonus, "pair_bonus")
    if play is not None:
        chips(play, "play")
        if play != ante * table.play_multiple:
            raise InvalidShowdownError(
                f"play must be ante x {table.play_multiple} = {ante * table.play_multiple}, got {play}")
    player_cards = cards_of(player, "player")
    dealer_cards = cards_of(dealer, "dealer")
    for name, cards in (("player", player_cards), ("dealer", dealer_cards)):
        if len(cards) != 3:
            raise InvalidShowdownError(f"{name} has {len(cards)} cards; expected 3")
    check_no_shared_cards([("player", player_cards), ("dealer", dealer_cards)])
    you, house = ev.evaluate(player_cards), ev.evaluate(dealer_cards)
    mini_royal = is_mini_royal(player_cards)
    qualifies = house.strength >= ev.evaluate(DEALER_QUALIFIER).strength

    bets = []
    if play is None:
        bets.append(BetResult("ante", ante, "lose", -ante, "folded"))
    else:
        if not qualifies:
            bets += [BetResult("ante", ante, "win", ante, "dealer does not qualify"),
                     BetResult("play", play, "push", 0, "dealer does not qualify")]
        else:
            sign = (you.strength > house.strength) - (you.strength < house.strength)
            outcome, note = {1: ("win", "player's hand is better"), 0: ("push", "equal hands"),
                             -1: ("lose", "dealer's hand is better")}[sign]
            bets += [BetResult("ante", ante, outcome, sign * ante, note),
                     BetResult("play", play, outcome, sign * play, note)]
        pays = table.ante_pays(you.category, mini_royal)
        bets.append(BetResult("ante_bonus", ante, "win" if pays else "none", ante * pays,
                              f"{_line(you.category, mini_royal, table.ante_mini_royal)} pays {pays}:1"
                              if pays else "no bonus"))
    if pair_bonus and play is None and table.pair_bonus_on_fold == "forfeited":
        bets.append(BetResult("pair_bonus", pair_bonus, "lose", -pair_bonus, "forfeited on folding"))
    elif pair_bonus:
        pays = table.pair_pays(you.category, mini_royal)
        bets.append(BetResult("pair_bonus", pair_bonus, "win" if pays else "lose",
                              pair_bonus * pays if pays else -pair_bonus,
                              f"{_line(you.category, mini_royal, table.pair_mini_royal)} pays {pays}:1"
                              if pays else "no pair or better"))
    net = sum(b.net for b in bets)
    _check_nets(bets, net)
    return CasinoResult(you.description, house.description, qualifies, play is None, tuple(bets), net)


def _line(category: Category, mini_royal: bool, mini_royal_pays: int | None) -> str:
    """The pay line a hand is paid on, in words."""
    return "Mini royal" if mini_royal and mini_royal_pays is not None else category.label


def _check_nets(bets: list[BetResult], net: int) -> None:
    """Every amount won or lost fits a result (a signed 64-bit count, as the
    gRPC messages carry it); a stake that would win more is refused."""
    for bet, amount in [(b.bet, b.net) for b in bets] + [("ante", net)]:
        if abs(amount) > MAX_NET:
            field = {"ante_bonus": "ante"}.get(bet, bet)
            raise InvalidShowdownError(
                f"{field}: the {bet.replace('_', ' ')} would come to {amount} chips; a result holds at most "
                f"{MAX_NET} either way", field=field)


# ---- exact house edges by enumeration ----

@functools.lru_cache(maxsize=4)
def dealer_outcomes(game: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every player hand (the 22,100 of the pack, uint8 (22100, 3)), its
    strength, its category, and how many of the 18,424 dealer
    hands from the other 49 cards do not qualify / lose to it / tie / beat it
    (columns of an int64 (22100, 4) array).

    Inclusion-exclusion over the player's cards: the dealer hands avoiding
    cards a, b, c are all hands, minus those holding a, b or c, plus those
    holding two of them, minus the player's own hand.
    """
    ev = _game_evaluator(game)
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)
    strength = ev.evaluate_batch(hands).astype(np.int64)
    category = ev.categories[strength].astype(np.int64)
    top = int(strength.max()) + 2
    below_all = np.concatenate([[0], np.cumsum(np.bincount(strength, minlength=top))])
    below_with_card = np.empty((52, top + 1), dtype=np.int64)
    for card in range(52):
        holds = (hands == card).any(axis=1)
        below_with_card[card] = np.concatenate([[0], np.cumsum(np.bincount(strength[holds], minlength=top))])
    # by_three[a, b, x]: strength of {a, b, x}; 0 where x repeats a or b.
    by_three = np.zeros((52, 52, 52), dtype=np.int64)
    for perm in itertools.permutations(range(3)):
        by_three[hands[:, perm[0]], hands[:, perm[1]], hands[:, perm[2]]] = strength
    pairs = [by_three[hands[:, i], hands[:, j]] for i, j in ((0, 1), (0, 2), (1, 2))]

    def avoiding(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Dealer hands avoiding each player's cards with strength in [lo, hi)."""
        hi = np.maximum(lo, hi)
        count = below_all[hi] - below_all[lo]
        for col in range(3):
            card = hands[:, col]
            count -= below_with_card[card, hi] - below_with_card[card, lo]
        for both in pairs:
            count += ((both >= lo[:, None]) & (both < hi[:, None])).sum(axis=1)
        count -= (strength >= lo) & (strength < hi)
        return count

    q = np.full_like(strength, ev.evaluate(DEALER_QUALIFIER).strength)
    one = np.ones_like(strength)
    end = np.full_like(strength, top - 1)
    outcomes = np.stack([
        avoiding(one, q),                                   # dealer does not qualify
        avoiding(q, np.maximum(q, strength)),               # qualifies, player better
        avoiding(np.maximum(q, strength), np.maximum(q, strength + 1)) * (strength >= q),  # tie
        avoiding(np.maximum(q, strength + 1), end),         # dealer better
    ], axis=1)
    return hands, strength, category, outcomes


def house_edge(paytable: Paytable | str = CASINO_BRAG_PAYTABLE, game: str | None = None) -> HouseEdge:
    """The exact house edge of a pay table, by enumerating every player hand
    against every dealer hand from the other 49 cards.

    Ante: the player's loss per unit of ante when each hand is played
    optimally (play exactly when playing loses less than folding's one
    ante).  Pair bonus: the loss per unit staked on the side bet, the player
    playing the same way (a table that forfeits it on folding takes it on
    every hand folded).  ``game``: the hand ranking; ``None``: the pay
    table's own.
    """
    table = _paytable(paytable)
    game = table.game if game is None else game
    ev = _game_evaluator(game)
    player_hands, strength, category, outcomes = dealer_outcomes(game)
    dealers = int(outcomes[0].sum())  # 18,424 for every player hand
    m = table.play_multiple
    # The hands come sorted, so a suited A-K-Q is Q, K, A of one suit.
    ranks, suits = player_hands // 4, player_hands % 4
    mini_royal = (ranks == [10, 11, 12]).all(axis=1) & (suits == suits[:, :1]).all(axis=1)
    by_category = lambda pays: np.array([pays(Category(c)) for c in range(6)], dtype=np.int64)[category]  # noqa: E731
    ante_pays = np.where(mini_royal, table.ante_pays(Category.RUNNING_FLUSH, True), by_category(table.ante_pays))
    pair_pays = np.where(mini_royal, table.pair_pays(Category.RUNNING_FLUSH, True), by_category(table.pair_pays))
    nq, win, _, lose = outcomes.T
    # Chips won per ante over all dealer hands, playing and folding.
    play = nq + win * (1 + m) - lose * (1 + m) + ante_pays * dealers
    fold = -dealers * np.ones_like(play)
    plays = play >= fold
    best = np.where(plays, play, fold)
    hands = len(strength)
    ante_edge = -Fraction(int(best.sum()), hands * dealers)
    pair_won = np.where(pair_pays > 0, pair_pays, -1)
    if table.pair_bonus_on_fold == "forfeited":
        pair_won = np.where(plays, pair_won, -1)
    pair_edge = -Fraction(int(pair_won.sum()), hands)
    weakest = np.flatnonzero(plays)[np.argmin(strength[plays])]
    threshold = ev.evaluate(player_hands[weakest].tolist()).description
    return HouseEdge(table.name, game, ante_edge, pair_edge, threshold)
