"""Nine-, seven- and six-card Brag settled in chips (docs/rules.md, "Nine-,
seven- and six-card Brag"): each player lays their cards out as three-card
hands, strongest first, the hands meet position by position as in Crash,
and antes go to the winners; what nobody wins is carried to the next deal.

The hands are read and checked by Crash's own checks (``crash``): the same
card text, the same shared-card check, and the same foul for hands laid out
of order."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Union

from ..cards import cards_of, check_no_shared_cards
from ..errors import ConfigurationError, InvalidShowdownError
from ..evaluator import evaluator_for
from ..rules import Rules
from .checks import MAX_NET, chips, seats, unique_ids
from .crash import CrashPlayer, _foul, _player_hands, _value
from .results import PartitionGamePlayerResult, PartitionGameResult, PartitionGameSet

# What happens to a nine-card set's antes on a stick-up.
STICK_UPS = ("carry", "split")
# Seven-card Brag is played with two hands (pagat) or one (Wikipedia's other reading).
SEVEN_CARD_HANDS = (2, 1)


def _amount(value: object, name: str, least: int,
            error: type[InvalidShowdownError | ConfigurationError] = InvalidShowdownError) -> int:
    """A chip amount of at least ``least``; ``error`` names the field."""
    try:
        amount = chips(value, name)
    except InvalidShowdownError as exc:
        raise error(str(exc), field=name) from None
    if amount < least:
        raise error(f"{name} must be at least {least} chip, got {amount}", field=name)
    return amount


@dataclass(frozen=True)
class _PotGame:
    """What every game here shares: the ante in chips and the ruleset
    the hands are ranked by (None: standard Brag)."""

    ante: int = 1
    rules: Rules | None = None

    game: ClassVar[str]
    cards: ClassVar[int]
    title: ClassVar[str]

    def __post_init__(self) -> None:
        _amount(self.ante, "ante", 1, ConfigurationError)  # an option of the game, as settle_casino's ante
        if self.rules is not None and not isinstance(self.rules, Rules):
            raise ConfigurationError(f"rules must be a prial.Rules or None, got {type(self.rules).__name__}",
                                     field="rules")

    @property
    def antes_each(self) -> int:
        """Antes each player puts in a deal: one to the main pot, and in
        nine-card Brag one more for each set."""
        return 1


@dataclass(frozen=True)
class NineCardBrag(_PotGame):
    """Nine-card Brag: nine cards laid out as three sets.  Each player antes
    once for each set and once to the main pot; each set's antes go to its
    winner, the main pot to a player who wins all three sets (else it is
    carried).  A stick-up at a set (a tie for best) wins nobody that set:
    ``stick_up="carry"`` (default) adds its antes to the carried pot,
    ``"split"`` shares them among the tied players."""

    stick_up: str = STICK_UPS[0]

    hands: ClassVar[int] = 3
    game: ClassVar[str] = "nine_card"
    cards: ClassVar[int] = 9
    title: ClassVar[str] = "nine-card Brag"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.stick_up not in STICK_UPS:
            raise ConfigurationError(f"stick_up must be one of {', '.join(STICK_UPS)}, got {self.stick_up!r}",
                                     field="stick_up")

    @property
    def antes_each(self) -> int:
        return self.hands + 1


@dataclass(frozen=True)
class SevenCardBrag(_PotGame):
    """Seven-card Brag: seven cards, two hands and one discard (``hands=2``,
    default), the pot to a player who wins both; or one hand and four
    discards (``hands=1``), the pot to the best hand.  Else it is carried."""

    hands: int = SEVEN_CARD_HANDS[0]

    game: ClassVar[str] = "seven_card"
    cards: ClassVar[int] = 7
    title: ClassVar[str] = "seven-card Brag"

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.hands, bool) or self.hands not in SEVEN_CARD_HANDS:
            raise ConfigurationError(f"seven-card Brag lays 1 or 2 hands, got {self.hands!r}", field="hands")


@dataclass(frozen=True)
class SixCardBrag(_PotGame):
    """Six-card Brag: six cards laid out as two hands, nothing discarded;
    the pot to a player who wins both, else it is carried."""

    hands: ClassVar[int] = 2
    game: ClassVar[str] = "six_card"
    cards: ClassVar[int] = 6
    title: ClassVar[str] = "six-card Brag"


PartitionGame = Union[NineCardBrag, SevenCardBrag, SixCardBrag]
_KINDS = (NineCardBrag, SevenCardBrag, SixCardBrag)
# The games by name, as the command line and the gRPC request give them.
GAMES = tuple(kind.game for kind in _KINDS)


def checked_game(game: object) -> PartitionGame:
    """``game`` if it is one of the games' rules, else ConfigurationError."""
    if not isinstance(game, _KINDS):
        raise ConfigurationError(f"game must be a prial.NineCardBrag, SevenCardBrag or SixCardBrag, "
                                 f"got {type(game).__name__}", field="game")
    return game


def partition_game(game: str, *, ante: int = 1, rules: Rules | None = None, stick_up: str | None = None,
                   hands: int | None = None) -> PartitionGame:
    """The rules of ``game`` (one of GAMES) by name, as the command line and
    the gRPC service give them; an option the game has not is refused."""
    if stick_up is not None and game != NineCardBrag.game:
        raise ConfigurationError("stick_up is an option of nine_card only", field="stick_up")
    if hands is not None and game != SevenCardBrag.game:
        raise ConfigurationError("hands is an option of seven_card only", field="hands")
    if game == NineCardBrag.game:
        return NineCardBrag(ante, rules, STICK_UPS[0] if stick_up is None else stick_up)
    if game == SevenCardBrag.game:
        return SevenCardBrag(ante, rules, SEVEN_CARD_HANDS[0] if hands is None else hands)
    if game == SixCardBrag.game:
        return SixCardBrag(ante, rules)
    raise ConfigurationError(f"game must be one of {', '.join(GAMES)}, got {game!r}", field="game")


def settle_nine_card_brag(players: Sequence[CrashPlayer], game: NineCardBrag = NineCardBrag(), *,
                          carry: int = 0) -> PartitionGameResult:
    """Settle a deal of nine-card Brag (see ``NineCardBrag``) with ``carry``
    chips brought in from earlier deals in the main pot."""
    return settle_partition_game(players, _of(game, NineCardBrag), carry=carry)


def settle_seven_card_brag(players: Sequence[CrashPlayer], game: SevenCardBrag = SevenCardBrag(), *,
                           carry: int = 0) -> PartitionGameResult:
    """Settle a deal of seven-card Brag (see ``SevenCardBrag``), ``carry``
    chips brought into the pot."""
    return settle_partition_game(players, _of(game, SevenCardBrag), carry=carry)


def settle_six_card_brag(players: Sequence[CrashPlayer], game: SixCardBrag = SixCardBrag(), *,
                         carry: int = 0) -> PartitionGameResult:
    """Settle a deal of six-card Brag (see ``SixCardBrag``), ``carry`` chips
    brought into the pot."""
    return settle_partition_game(players, _of(game, SixCardBrag), carry=carry)


def _of(game: object, kind: type[_PotGame]) -> PartitionGame:
    if type(game) is not kind:
        raise ConfigurationError(f"expected a prial.{kind.__name__}, got {type(game).__name__}", field="game")
    return game  # type: ignore[return-value]  # one of the three, checked above


def settle_partition_game(players: Sequence[CrashPlayer], game: PartitionGame, *,
                          carry: int = 0) -> PartitionGameResult:
    """Settle one deal of any of the games (``game`` says which).

    Players are ``prial.CrashPlayer``: the hands in the order laid down and
    the discards, exactly the game's count of each.  A player whose hands
    are not strongest first has fouled, as in Crash: out of every
    comparison, their antes lost.  Chips are conserved: every ante and the
    carried pot go to a winner or into ``carry_out``, so
    ``sum(nets) + carry_out == carry``.
    """
    game = checked_game(game)
    carry = _amount(carry, "carry", 0)
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence) or len(players) < 2:
        raise InvalidShowdownError(f"a deal of {game.title} needs a sequence of at least 2 prial.CrashPlayer",
                                   field="players")
    seats(len(players), game.cards)
    for i, p in enumerate(players):
        if not isinstance(p, CrashPlayer):
            raise InvalidShowdownError(f"player {i}: expected a prial.CrashPlayer, got {type(p).__name__}",
                                       field="players")
    unique_ids([p.id for p in players], "player")
    ids = [p.id for p in players]
    pot = carry + len(players) * game.ante
    set_pot = len(players) * game.ante if isinstance(game, NineCardBrag) else 0
    if pot + game.hands * set_pot > MAX_NET:
        raise InvalidShowdownError(f"the carried pot and the antes come to {pot + game.hands * set_pot} chips; "
                                   f"at most {MAX_NET}", field="carry")

    hands = {p.id: _laid(p, game) for p in players}
    check_no_shared_cards([(f"player {pid!r}", [c for h in hs for c in h] + d) for pid, (hs, d) in hands.items()])
    ev = evaluator_for(game.rules)
    values = {pid: [_value(ev, h) for h in hs] for pid, (hs, _) in hands.items()}
    fouls = {pid: _foul(vs, None, []) for pid, vs in values.items()}

    paid = dict.fromkeys(ids, 0)
    carry_out = 0
    sets = []
    for index in range(game.hands):
        contenders = [pid for pid in ids if fouls[pid] is None]
        top = []
        if contenders:
            best = max(values[pid][index][0] for pid in contenders)
            top = [pid for pid in contenders if values[pid][index][0] == best]
        winner = top[0] if len(top) == 1 else None
        shared = top if winner is None and isinstance(game, NineCardBrag) and game.stick_up == "split" else []
        if winner is not None:
            paid[winner] += set_pot
        for i, pid in enumerate(shared):
            paid[pid] += set_pot // len(shared) + (i < set_pot % len(shared))
        if winner is None and not shared:
            carry_out += set_pot
        best_hand = values[top[0]][index][1] if top else None
        sets.append(PartitionGameSet(index, set_pot, winner, len(top) > 1, tuple(contenders), best_hand,
                                     _reason(winner, top, shared, best_hand, set_pot)))
    winners = {s.winner for s in sets}
    pot_winner = next(iter(winners)) if len(winners) == 1 else None
    if pot_winner is not None:
        paid[pot_winner] += pot
    else:
        carry_out += pot
    staked = game.antes_each * game.ante
    results = tuple(PartitionGamePlayerResult(
        id=pid,
        hands=tuple(v[1] for v in values[pid]),
        fouled=fouls[pid] is not None,
        foul=fouls[pid],
        sets_won=tuple(s.index for s in sets if s.winner == pid),
        staked=staked,
        paid=paid[pid],
        net=paid[pid] - staked,
    ) for pid in ids)
    return PartitionGameResult(game.game, tuple(sets), results, {r.id: r.net for r in results},
                               carry, pot, pot_winner, carry_out)


def _laid(p: CrashPlayer, game: PartitionGame) -> tuple[list[list[int]], list[int]]:
    """A player's hands and discards, each count the game's."""
    if p.declare_six_pairs:
        raise InvalidShowdownError(f"player {p.id!r} declares six pairs, which only Crash has", field="players")
    laid = _player_hands(p)
    if len(laid) != game.hands:
        raise InvalidShowdownError(f"player {p.id!r} lays {len(laid)} hand(s); {game.title} lays {game.hands}",
                                   field="players")
    discards = cards_of(p.discards, f"player {p.id!r} discards")
    wanted = game.cards - 3 * game.hands
    if len(discards) != wanted:
        raise InvalidShowdownError(f"player {p.id!r} discards {len(discards)} card(s); {game.title} with "
                                   f"{game.hands} hand(s) discards {wanted}", field="players")
    return laid, discards


def _reason(winner: str | None, top: list[str], shared: list[str], best: str | None, pot: int) -> str:
    takes = f" takes {pot}" if pot else " wins"
    if winner is not None:
        return f"{winner}{takes}: {best}"
    if not top:
        return "every player fouled" + (f"; {pot} carried" if pot else "")
    said = f"stick-up: {' and '.join(top)} hold {best}"
    if shared:
        return f"{said}; {pot} shared"
    return said + (f"; {pot} carried" if pot else "")


@dataclass(frozen=True)
class PartitionGameSession:
    """Deal after deal of one game, the pot nobody won carried from each to
    the next: ``settle(players)`` returns the session after that deal.
    ``nets``: each player's chips won (+) or lost (-) over the deals so far;
    ``carry``: the pot waiting for the next deal.  Chips are conserved:
    ``sum(nets.values()) + carry`` is the carry the session started with."""

    game: PartitionGame
    carry: int = 0
    nets: Mapping[str, int] = field(default_factory=dict)
    deals: tuple[PartitionGameResult, ...] = ()

    def __post_init__(self) -> None:
        checked_game(self.game)
        _amount(self.carry, "carry", 0)

    def settle(self, players: Sequence[CrashPlayer]) -> PartitionGameSession:
        """The session after one more deal, settled with the pot carried in."""
        result = settle_partition_game(players, self.game, carry=self.carry)
        nets = dict(self.nets)
        for pid, net in result.nets.items():
            nets[pid] = nets.get(pid, 0) + net
        return dataclasses.replace(self, carry=result.carry_out, nets=nets, deals=(*self.deals, result))

    @property
    def last(self) -> PartitionGameResult | None:
        """The latest deal's settlement (None before the first)."""
        return self.deals[-1] if self.deals else None
