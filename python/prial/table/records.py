"""The plain records a deal answers with: actions, events, seats, pots,
results and views (NamedTuples: cheap to make, compare and unpack).
Annotations are evaluated here, not postponed: a NamedTuple's generated
methods resolve them outside this module (the API reference reads them)."""

from typing import NamedTuple


class Action(NamedTuple):
    """One action at the table.

    Submitted: ``Action("stake", amount=4)``, ``Action("look")``,
    ``Action("discard", discards=(12, 40))``; ``player`` may name the
    player to act.  From ``Deal.legal_actions()``: a stake's or sideshow's
    ``least`` and ``most`` (None: unbounded), a see's or cover's price in
    ``amount``.  In ``Deal.history``: what was done, a see's or cover's
    chips in ``amount``.
    """

    kind: str
    player: str | None = None
    amount: int | None = None
    discards: tuple[int, ...] = ()
    least: int | None = None
    most: int | None = None


class Event(NamedTuple):
    """Something that happened in a deal: chips moved (``ante``, ``stake``,
    ``see``, ``cover``, ``win`` with ``amount`` and ``pot``), an action
    (``look``, ``fold`` ...), cards dealt (``deal``) or shown (``show``:
    ``player``'s ``cards`` shown ``to`` those players, None meaning
    everyone)."""

    kind: str
    player: str | None
    amount: int = 0
    pot: int = 0
    cards: tuple[int, ...] | None = None
    to: tuple[str, ...] | None = None


class Seat(NamedTuple):
    """A player's place in the deal: ``status`` is ``blind``, ``open``,
    ``folded``, ``covered`` or ``out`` (sat the deal out); ``stack`` None
    without stacks; ``put_in`` counts the ante."""

    player: str
    status: str
    stack: int | None
    put_in: int
    blind_stakes: int


class Pot(NamedTuple):
    """A pot: its chips and the player who covered it (None for the live pot)."""

    amount: int
    coverer: str | None


class PotResult(NamedTuple):
    amount: int
    winners: tuple[str, ...]
    coverer: str | None


class DealResult(NamedTuple):
    """The end of a deal.  ``known`` is False when it depends on cards that
    were not given; then ``winners``, ``payouts`` and ``nets`` are None.
    ``payouts`` maps every player to the chips they receive, ``nets`` to
    those less what they put in."""

    known: bool
    winners: tuple[str, ...] | None
    payouts: dict[str, int] | None
    nets: dict[str, int] | None
    reason: str
    ending: str
    pots: tuple[PotResult, ...]

    def to_dict(self) -> dict[str, object]:
        return {"known": self.known, "winners": None if self.winners is None else list(self.winners),
                "payouts": self.payouts, "nets": self.nets, "reason": self.reason, "ending": self.ending,
                "pots": [{"amount": p.amount, "winners": list(p.winners), "coverer": p.coverer} for p in self.pots]}


class View(NamedTuple):
    """What one player (or, for None, a spectator) may know of a deal: the
    public state, the history with other players' discards hidden, and
    ``cards``, every hand this viewer may see by player."""

    player: str | None
    to_act: str | None
    stake: int
    pots: tuple[Pot, ...]
    seats: tuple[Seat, ...]
    history: tuple[Action, ...]
    cards: dict[str, tuple[int, ...]]
    legal_actions: tuple[Action, ...]
    result: DealResult | None
