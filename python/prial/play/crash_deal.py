"""Crash and nine-card Brag dealt from a seed, with the spare hands of the
two- and three-player games and the exchange for one (docs/rules.md,
"Spare hands")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .._core import table_pack
from ..cards import format_cards
from ..errors import InvalidHandError

PACK = 52
# Cards a player is dealt in each partition game a log may hold.
DEAL_SIZES = {"nine_card": 9, "crash": 13}
CRASH_CARDS = DEAL_SIZES["crash"]


def spare_hands(players: int, cards: int) -> int:
    """How many thirteen-card spare hands a deal leaves: two in a
    two-player Crash deal (one for each player), one in a three-player one
    (for whoever takes it first), none otherwise."""
    if cards != CRASH_CARDS:
        return 0
    return {2: 2, 3: 1}.get(players, 0)


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidHandError(f"{name} must be a whole number {low} to {high}, got {value!r}", field=name)
    return value


@dataclass(frozen=True)
class CrashDeal:
    """A dealt partition game: each seat's cards (``hands``, seat 0 first),
    the spare hands left undealt (``spares``), and who has exchanged their
    cards for a spare: ``given_up[seat]`` is the hand that seat was dealt
    and gave up (dead, out of play), or None."""

    seed: int
    hands: tuple[tuple[int, ...], ...]
    spares: tuple[tuple[int, ...], ...] = ()
    given_up: tuple[tuple[int, ...] | None, ...] = ()

    def __post_init__(self) -> None:
        if not self.given_up:  # nobody has exchanged yet
            object.__setattr__(self, "given_up", (None,) * len(self.hands))

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-able data: the cards as text, a seat that kept its
        cards giving up None."""
        return {"seed": self.seed, "hands": [format_cards(h) for h in self.hands],
                "spares": [format_cards(h) for h in self.spares],
                "given_up": [None if g is None else format_cards(g) for g in self.given_up]}

    def spare_for(self, seat: int) -> int:
        """The index in ``spares`` of the spare ``seat`` may take:
        InvalidHandError when the deal has none for it (four players, a
        nine-card deal, dealt without spares), when it has exchanged
        already, or when another player's exchange blocks it."""
        players = len(self.hands)
        _whole(seat, "seat", 0, players - 1)
        if not self.spares:
            raise InvalidHandError(f"a deal of {players} players of {len(self.hands[0])} cards has no spare hand "
                                   "(only two- and three-player Crash deals dealt with spares do)", field="seat")
        if self.given_up[seat] is not None:
            raise InvalidHandError(f"seat {seat} has exchanged already", field="seat")
        if len(self.spares) == 1:
            first = next((s for s, g in enumerate(self.given_up) if g is not None), None)
            if first is not None:
                raise InvalidHandError(f"seat {first} took the spare hand first, which blocks the rest",
                                       field="seat")
            return 0
        return seat

    def exchange(self, seat: int) -> CrashDeal:
        """This deal after ``seat`` exchanges their cards for the spare:
        theirs become dead (``given_up``) and the spare is theirs."""
        spare = self.spare_for(seat)
        hands = list(self.hands)
        given_up = list(self.given_up)
        given_up[seat], hands[seat] = hands[seat], self.spares[spare]
        return replace(self, hands=tuple(hands), given_up=tuple(given_up))


def deal_crash(seed: int, players: int = 4, *, cards: int = CRASH_CARDS, spare: bool = False,
               exchanges: Sequence[int] = ()) -> CrashDeal:
    """Deals ``cards`` (13 for Crash, 9 for nine-card Brag) to each of
    ``players`` from the pack of ``seed`` (the seed-to-pack algorithm of
    the betting table, docs/rules.md "Dealing from a seed"), one card at a
    time from the top, seat 0 first.  With ``spare``, a two- or
    three-player Crash deal also deals its spare hands from the rest of the
    pack, one card at a time in turn: two (seat 0's, then seat 1's) for
    two players, one for three.  The seats' cards are the same with or
    without spares.  ``exchanges``: the seats that exchange their cards
    for a spare, in turn (``CrashDeal.exchange`` for each)."""
    _whole(seed, "seed", 0, 2**64 - 1)
    if cards not in DEAL_SIZES.values():
        raise InvalidHandError(f"cards must be 9 (nine-card Brag) or 13 (Crash), got {cards!r}", field="cards")
    _whole(players, "players", 2, PACK // cards)
    if not isinstance(spare, bool):
        raise InvalidHandError(f"spare must be True or False, got {spare!r}", field="spare")
    spares = spare_hands(players, cards) if spare else 0
    if spare and not spares:
        raise InvalidHandError(f"a deal of {players} players of {cards} cards leaves no spare hand: only two- and "
                               "three-player Crash deals do", field="spare")
    pack = table_pack(seed, PACK)
    dealt = players * cards
    hands = tuple(tuple(pack[seat:dealt:players]) for seat in range(players))
    rest = pack[dealt:dealt + spares * CRASH_CARDS]
    deal = CrashDeal(seed, hands, tuple(tuple(rest[s::spares]) for s in range(spares)))
    if isinstance(exchanges, (str, bytes)) or not isinstance(exchanges, Sequence):
        raise InvalidHandError(f"exchanges must be a sequence of seats, got {exchanges!r}", field="exchanges")
    for seat in exchanges:
        deal = deal.exchange(seat)
    return deal
