"""Showdown adjudication and pots (docs/rules.md, "Showdowns"): sees, blind rules, agreed
showdowns, covering the pot, and sees in bulk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._core import CancelFlag, decide_showdown
from .._core import showdown_batch as native_showdown_batch
from ..cards import CardsLike
from ..errors import ConfigurationError, InvalidShowdownError
from ..evaluator import evaluator_for
from ..rules import Rules
from .checks import chips, seats
from .results import CoverResult, PlayerHand, ShowdownResult


@dataclass(frozen=True)
class Player:
    """A player at the showdown: ``cards`` as text or indices (checked on
    use), ``blind`` if they have not looked at their cards, ``stake`` the
    chips they put into the pot being decided."""

    id: str
    cards: CardsLike
    blind: bool = False
    stake: int = 0


def showdown(
    players: Sequence[Player],
    seer: str | None = None,
    *,
    rules: Rules | None = None,
    cards_per_hand: int | None = None,
    pot: int = 0,
    coverer: str | None = None,
    old_pot: int = 0,
) -> ShowdownResult:
    """Decide a showdown (docs/rules.md, "Showdowns") and, when chips are given, pay it out.

    * ``seer`` given: a see between exactly two players (besides a
      coverer); the seer wins only with a strictly better hand, ties (after
      the four/five-card discard tie-break) go to the seen player.  An open
      seer may not see a blind player ("you cannot see a blind man").
    * ``seer=None``: an agreed showdown; the strongest hand wins, exact ties
      share the pot.
    * Chips: the pot is ``pot`` (chips already in from players out of the
      hand) plus every contender's ``stake``.
    * Covering: ``coverer`` is the id of a player who ran out of money and
      covered ``old_pot``; the others play on for the new pot.  Then the
      coverer's hand meets the new pot's winner's: a strictly better hand
      takes the old pot, otherwise (tie included) the new pot's winner(s) do.
      The coverer's chips are in ``old_pot``, so their ``stake`` must be 0.

    Odd chips: a pot shared by several winners is split in equal whole
    chips; the chips left over go one each to the winners in seat order
    (the order of ``players``), first seat first.  Every chip put in is paid
    out: ``sum(payouts) == pot + sum(stakes) + old_pot``.
    """
    # The adjudication itself is the native core's (showdown.hpp), shared
    # with the gRPC service; this layer checks Python types and builds the
    # result from the core's ShowdownOutcome (winners by seat, hands'
    # cards as bytes; see prial/_core.pyi).
    players = _checked(players)
    seer = _player_id(seer, "seer")
    coverer = _player_id(coverer, "coverer")
    out = decide_showdown(evaluator_for(rules), players, seer, coverer, _hand_size(cards_per_hand),
                                chips(pot, "pot"), chips(old_pot, "old_pot"))
    ids = [p.id for p in players]
    cover = out.cover
    payouts = out.payouts
    return ShowdownResult(
        kind="see" if out.see else "agreed",
        seer=seer,
        winners=tuple(ids[i] for i in out.winners),
        reason=out.reason,
        decided_by=out.decided_by,
        hands=tuple(PlayerHand(p.id, tuple(h.cards), p.blind, p.stake, h.strength, h.key, h.category,
                               h.description, tuple(h.kept), tuple(h.discarded))
                    for p, h in zip(players, out.hands)),
        pot=out.pot,
        payouts=None if payouts is None else dict(zip(ids, payouts)),
        cover=None if cover is None or coverer is None  # the core decides a cover only for a coverer
        else CoverResult(coverer, old_pot, tuple(ids[i] for i in cover.winners), cover.reason, cover.decided_by),
    )


def _checked(players: Sequence[Player]) -> list[Player]:
    """The players, their Python types checked (the core checks the rest)."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidShowdownError("players must be a sequence of prial.Player")
    players = list(players)
    seats(len(players), 3)
    for i, p in enumerate(players):
        if not isinstance(p, Player):
            raise InvalidShowdownError(f"player {i}: expected a prial.Player, got {type(p).__name__}")
        if not isinstance(p.id, str):
            raise InvalidShowdownError(f"player {i}: id must be a non-empty string, got {p.id!r}")
        if not isinstance(p.blind, bool):
            raise InvalidShowdownError(f"player {p.id!r}: blind must be True or False, got {p.blind!r}")
        chips(p.stake, f"player {p.id!r} stake")
    return players


def _player_id(value: object, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InvalidShowdownError(f"{name} must be a player id or None, got {value!r}")
    return value


def _hand_size(cards_per_hand: object) -> int:
    if cards_per_hand is None:
        return 0  # as many as the first hand has
    if isinstance(cards_per_hand, bool) or cards_per_hand not in (3, 4, 5):
        raise ConfigurationError(f"cards_per_hand must be 3, 4 or 5, got {cards_per_hand!r}")
    return int(cards_per_hand)  # type: ignore[call-overload]


def showdown_batch(
    seer_cards: npt.NDArray[np.uint8],
    seen_cards: npt.NDArray[np.uint8],
    *,
    rules: Rules | None = None,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> npt.NDArray[np.uint8]:
    """Many two-player sees at once: row i is 1 where the seer's hand beats
    the seen player's, 0 where the seen player wins (the seer loses ties).

    Both arrays are uint8 ``(N, 3)``, ``(N, 4)`` or ``(N, 5)`` (C-contiguous,
    card indices); four and five cards compare by best-of keys, the discard
    tie-break included.  A card in both hands of a row is invalid.  Runs in C++ with the GIL released
    on ``threads`` threads (``None``: all cores).

    To stop the work, pass a ``prial.CancelFlag`` as ``cancel`` and call its
    ``.cancel()`` from another thread: the call then raises
    ``prial.CancelledError`` within milliseconds.
    """
    return native_showdown_batch(evaluator_for(rules), seer_cards, seen_cards, threads=threads, cancel=cancel)
