"""Classic three-stake Brag (docs/rules.md, "Classic three-stake Brag"):
every player antes three stakes, one for each phase of a deal, and each
phase's stake goes to its winner: the best face-up card, the best brag
hand, and the hand nearest thirty-one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .._core import table_pack
from ..cards import CardsLike, cards_of, check_no_shared_cards, format_cards
from ..errors import ConfigurationError, InvalidHandError, InvalidShowdownError
from ..rules import Rules
from .checks import MAX_CHIPS, MAX_NET, unique_ids
from .results import _ToDict
from .showdown import Player, showdown

BestCardTies = Literal["eldest", "share"]
BEST_CARD_TIES = ("eldest", "share")
ACE_POINTS = (10, 1, 11)  # thirty-one: an ace's points, the default first
THIRTY_ONE = 31
_ACE, _DIAMONDS = 12, 1


@dataclass(frozen=True)
class ClassicRules:
    """The options of a classic deal.  ``stake``: each of the three antes
    every player puts in.  ``rules``: the bragging ruleset.
    ``best_card_ties``: equal face-up cards go to the ``eldest`` hand, or
    ``share`` the stake.  ``ace``: an ace's points at thirty-one (10, 1 or
    11).  ``bonus``: what every other player pays the winner of all three
    stakes (0: nothing)."""

    stake: int = 1
    rules: Rules = field(default_factory=lambda: Rules(preset="classic"))
    best_card_ties: BestCardTies = "eldest"
    ace: int = 10
    bonus: int = 0

    def __post_init__(self) -> None:
        for name in ("stake", "bonus"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
                raise ConfigurationError(f"{name} must be a whole number of chips from 0; got {value!r}", field=name)
        if not isinstance(self.rules, Rules):
            raise ConfigurationError(f"rules must be a prial.Rules; got {self.rules!r}", field="rules")
        if self.best_card_ties not in BEST_CARD_TIES:
            raise ConfigurationError(f"best_card_ties must be one of {', '.join(BEST_CARD_TIES)}; "
                                     f"got {self.best_card_ties!r}", field="best_card_ties")
        if isinstance(self.ace, bool) or self.ace not in ACE_POINTS:
            raise ConfigurationError(f"ace must be one of {', '.join(map(str, ACE_POINTS))} (its points at "
                                     f"thirty-one); got {self.ace!r}", field="ace")

    def points(self, card: int) -> int:
        """A card's points at thirty-one: courts 10, pips their face value."""
        rank = card // 4
        return self.ace if rank == _ACE else min(rank + 2, 10)


@dataclass(frozen=True)
class ClassicPlayer:
    """A player of a classic deal, eldest hand first in the deal's order.
    ``cards``: the three dealt, the last the one turned face up.
    ``actions``: their turn at thirty-one, each ``"draw"`` (the next card
    of the stock joins the hand) or ``"stand"``; none means standing."""

    id: str
    cards: CardsLike
    actions: Sequence[str] = ()


@dataclass(frozen=True)
class ClassicHand(_ToDict):
    """A player's hand in one phase: ``value`` is what decides it (the
    face-up card's place, the brag strength, the thirty-one points);
    ``out``: drew out at thirty-one, or not in the bragging to the end."""

    id: str
    cards: tuple[int, ...]
    value: int
    description: str
    out: bool = False


@dataclass(frozen=True)
class ClassicDraw(_ToDict):
    """One card drawn to break a tie at thirty-one: in ``round`` (0 first),
    ``id`` drew ``card``, worth ``points``."""

    round: int
    id: str
    card: int
    points: int


@dataclass(frozen=True)
class ClassicPhase(_ToDict):
    """One phase settled: its stake (``pot``) paid to ``winners``."""

    phase: str
    winners: tuple[str, ...]
    reason: str
    pot: int
    payouts: Mapping[str, int]
    hands: tuple[ClassicHand, ...]
    draws_again: tuple[ClassicDraw, ...] = ()


@dataclass(frozen=True)
class ClassicResult(_ToDict):
    """A whole deal: the three phases, the bonus to whoever won all three
    alone, and each player's net (chips won less chips put in; they sum to
    zero)."""

    phases: tuple[ClassicPhase, ...]
    bonus_winner: str | None
    nets: Mapping[str, int]


def checked_rules(rules: object) -> ClassicRules:
    """``rules``, a ClassicRules, or the defaults for None."""
    if rules is None:
        return ClassicRules()
    if not isinstance(rules, ClassicRules):
        raise ConfigurationError(f"rules must be a prial.ClassicRules or None, got {type(rules).__name__}",
                                 field="rules")
    return rules


def _players(players: Sequence[ClassicPlayer], rules: ClassicRules) -> list[tuple[str, list[int]]]:
    """(id, cards) of each player, checked: two or more, three cards each,
    no card twice at the table, and the chips of the deal within what a
    net can hold."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidShowdownError("players must be a sequence of prial.ClassicPlayer", field="players")
    for i, p in enumerate(players):
        if not isinstance(p, ClassicPlayer):
            raise InvalidShowdownError(f"player {i}: expected a prial.ClassicPlayer, got {type(p).__name__}",
                                       field="players")
    if not 2 <= len(players) <= 17:
        raise InvalidShowdownError(f"a classic deal needs 2 to 17 players; got {len(players)}", field="players")
    unique_ids([p.id for p in players], "player")
    if (3 * rules.stake + rules.bonus) * len(players) > MAX_NET:
        raise InvalidShowdownError(f"three stakes of {rules.stake} and a bonus of {rules.bonus} with "
                                   f"{len(players)} players come to more than {MAX_NET} chips", field="stake")
    hands = [(p.id, cards_of(p.cards, f"player {p.id!r}")) for p in players]
    for pid, cards in hands:
        if len(cards) != 3:
            raise InvalidShowdownError(f"player {pid!r}: a classic hand is 3 cards, got {len(cards)}",
                                       field="players")
        if any(c >= 52 for c in cards):
            raise InvalidShowdownError(f"player {pid!r}: classic Brag has no jokers", field="players")
    check_no_shared_cards((f"player {pid!r}", cards) for pid, cards in hands)
    return hands


def _split(pot: int, winners: Sequence[str], ids: Sequence[str]) -> dict[str, int]:
    """The pot shared in equal whole chips, the odd chips one each to the
    winners nearest the eldest hand."""
    share, odd = divmod(pot, len(winners))
    order = [pid for pid in ids if pid in winners]
    return {pid: share + (1 if pid in order[:odd] else 0) if pid in winners else 0 for pid in ids}


def _phase(phase: str, winners: Sequence[str], reason: str, pot: int, ids: Sequence[str],
           hands: Sequence[ClassicHand], draws_again: Sequence[ClassicDraw] = ()) -> ClassicPhase:
    return ClassicPhase(phase, tuple(winners), reason, pot, _split(pot, winners, ids), tuple(hands),
                        tuple(draws_again))


def _best_card_place(card: int) -> int:
    """A face-up card's place: ranks from the deuce (0) up to the aces (12),
    the ace of diamonds above them (13); suits otherwise equal."""
    return 13 if card == _ACE * 4 + _DIAMONDS else card // 4


def settle_best_card(players: Sequence[ClassicPlayer], rules: ClassicRules | None = None) -> ClassicPhase:
    """The first stake: the highest face-up card (each hand's last card)."""
    rules = checked_rules(rules)
    hands = _players(players, rules)
    ids = [pid for pid, _ in hands]
    shown = [ClassicHand(pid, (cards[2],), _best_card_place(cards[2]), format_cards([cards[2]]))
             for pid, cards in hands]
    top = max(h.value for h in shown)
    tied = [h.id for h in shown if h.value == top]
    card = next(h.description for h in shown if h.value == top)
    if len(tied) == 1:
        winners, reason = tied, f"{tied[0]} shows the best card, {card}"
    elif rules.best_card_ties == "eldest":
        winners, reason = tied[:1], f"{', '.join(tied)} show equal cards; the eldest, {tied[0]}, wins"
    else:
        winners, reason = tied, f"{', '.join(tied)} show equal cards and share"
    return _phase("best_card", winners, reason, rules.stake * len(ids), ids, shown)


def settle_bragging(players: Sequence[ClassicPlayer], rules: ClassicRules | None = None, *,
                    contenders: Sequence[str] | None = None, seer: str | None = None) -> ClassicPhase:
    """The second stake: the best brag hand among ``contenders`` (the
    players still bragging when the vying ended; all by default).  One
    contender wins without showing; ``seer``: the two left ended with a see,
    whose ties go against the seer; otherwise equal best hands share."""
    rules = checked_rules(rules)
    hands = _players(players, rules)
    ids = [pid for pid, _ in hands]
    if contenders is None:
        contenders = ids
    if isinstance(contenders, str) or not isinstance(contenders, Sequence) or not contenders:
        raise InvalidShowdownError(f"contenders must be a non-empty list of player ids; got {contenders!r}",
                                   field="contenders")
    for pid in contenders:
        if pid not in ids:
            raise InvalidShowdownError(f"contenders: {pid!r} is not at the table", field="contenders")
    unique_ids(list(contenders), "contender")
    if seer is not None and (len(contenders) != 2 or seer not in contenders):
        raise InvalidShowdownError(f"seer: a see needs two contenders, the seer one of them; got seer {seer!r} "
                                   f"and contenders {', '.join(contenders)}", field="seer")
    pot = rules.stake * len(ids)
    contending = [(pid, cards) for pid, cards in hands if pid in contenders]
    if len(contending) == 1:
        winner = contending[0][0]
        shown = [ClassicHand(pid, (), 0, "", out=pid != winner) for pid in ids]
        return _phase("bragging", [winner], f"{winner} brags unanswered", pot, ids, shown)
    result = showdown([Player(pid, cards) for pid, cards in contending], seer, rules=rules.rules,
                      pot=pot)
    by_id = {h.id: h for h in result.hands}
    shown = [ClassicHand(pid, by_id[pid].cards, by_id[pid].strength, by_id[pid].description) if pid in by_id
             else ClassicHand(pid, (), 0, "", out=True) for pid in ids]
    return _phase("bragging", result.winners, result.reason, pot, ids, shown)


def _stock(hands: Sequence[tuple[str, list[int]]], stock: CardsLike | None, seed: int | None) -> list[int]:
    """The stock's cards in the order they are drawn: ``stock`` as given,
    else the cards not dealt in the order of the pack shuffled from
    ``seed``, else in index order."""
    held = {c for _, cards in hands for c in cards}
    if stock is not None:
        if seed is not None:
            raise InvalidShowdownError("give the stock or a seed, not both", field="seed")
        try:
            order = cards_of(stock, "stock")
            check_no_shared_cards([("the stock", order)] + [(f"player {pid!r}", cards) for pid, cards in hands])
        except InvalidHandError as exc:
            exc.field = "stock"
            raise
        if any(c >= 52 for c in order):
            raise InvalidShowdownError("stock: classic Brag has no jokers", field="stock")
        return order
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidShowdownError(f"seed must be an integer 0..2**64-1; got {seed!r}", field="seed")
        return [c for c in table_pack(seed, 52) if c not in held]
    return [c for c in range(52) if c not in held]


def settle_thirty_one(players: Sequence[ClassicPlayer], rules: ClassicRules | None = None, *,
                      stock: CardsLike | None = None, seed: int | None = None) -> ClassicPhase:
    """The third stake: each player in turn, eldest first, draws from the
    stock or stands; more than 31 draws out and loses.  The highest total
    left wins; equal totals draw again, a card each in turn, the higher
    card's points winning, until one player is left.  If every player draws
    out, all of them draw again.  A stock that runs out before then leaves
    the players still tied to share."""
    rules = checked_rules(rules)
    hands = _players(players, rules)
    ids = [pid for pid, _ in hands]
    pile = _stock(hands, stock, seed)
    shown = []
    for player, (pid, cards) in zip(players, hands):
        held = list(cards)
        actions = player.actions
        if isinstance(actions, str) or not isinstance(actions, Sequence):
            raise InvalidShowdownError(f"player {pid!r}: actions must be a list of 'draw' and 'stand'",
                                       field="players")
        for i, action in enumerate(actions):
            if action not in ("draw", "stand"):
                raise InvalidShowdownError(f"player {pid!r} action {i}: expected 'draw' or 'stand', got {action!r}",
                                           field="players")
            over = ("drawn out" if sum(map(rules.points, held)) > THIRTY_ONE else
                    "stood" if i and actions[i - 1] == "stand" else None)
            if over:
                raise InvalidShowdownError(f"player {pid!r} action {i}: the turn is over ({over})", field="players")
            if action == "draw":
                if not pile:
                    raise InvalidShowdownError(f"player {pid!r} action {i}: the stock is empty", field="players")
                held.append(pile.pop(0))
        total = sum(map(rules.points, held))
        shown.append(ClassicHand(pid, tuple(held), total, f"{total} points", out=total > THIRTY_ONE))
    standing = [h for h in shown if not h.out]
    if standing:
        best = max(h.value for h in standing)
        tied = [h.id for h in standing if h.value == best]
        reason = (f"{tied[0]} is nearest 31 with {best}" if len(tied) == 1 else
                  f"{', '.join(tied)} tie on {best} and draw again")
    else:
        tied = ids
        reason = "everyone drew out and draws again"
    draws: list[ClassicDraw] = []
    round_no = 0
    while len(tied) > 1 and len(pile) >= len(tied):
        drawn = [ClassicDraw(round_no, pid, card, rules.points(card)) for pid, card in zip(tied, pile)]
        del pile[:len(tied)]
        draws.extend(drawn)
        top = max(d.points for d in drawn)
        tied = [d.id for d in drawn if d.points == top]
        round_no += 1
    if draws and len(tied) == 1:
        reason += f"; {tied[0]} wins the draw"
    elif len(tied) > 1:
        reason += "; the stock ran out and they share"
    return _phase("thirty_one", tied, reason, rules.stake * len(ids), ids, shown, draws)


def settle_classic(players: Sequence[ClassicPlayer], rules: ClassicRules | None = None, *,
                   contenders: Sequence[str] | None = None, seer: str | None = None,
                   stock: CardsLike | None = None, seed: int | None = None) -> ClassicResult:
    """A whole deal: the three stakes settled in turn, then the bonus."""
    rules = checked_rules(rules)
    phases = (settle_best_card(players, rules),
              settle_bragging(players, rules, contenders=contenders, seer=seer),
              settle_thirty_one(players, rules, stock=stock, seed=seed))
    ids = [p.id for p in players]
    nets = {pid: sum(ph.payouts[pid] for ph in phases) - 3 * rules.stake for pid in ids}
    alone = {ph.winners[0] if len(ph.winners) == 1 else None for ph in phases}
    bonus_winner = next(iter(alone)) if rules.bonus and len(alone) == 1 else None
    if bonus_winner is not None:
        for pid in ids:
            nets[pid] += rules.bonus * (len(ids) - 1) if pid == bonus_winner else -rules.bonus
    return ClassicResult(phases, bonus_winner, nets)
