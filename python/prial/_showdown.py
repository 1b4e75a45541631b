"""Showdown adjudication and pots (SPEC §5): sees, blind rules, agreed
showdowns, covering the pot, and sees in bulk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import _core
from ._errors import InvalidHandError, InvalidShowdownError
from ._evaluator import Evaluator, evaluator_for
from ._hands import CardsLike, cards_of, check_no_shared_cards, chips, split_chips, unique_ids
from ._results import CoverResult, PlayerHand, ShowdownResult
from ._rules import Rules
from ._types import Category


@dataclass(frozen=True)
class Player:
    """A player at the showdown: ``cards`` as text or indices (checked on
    use), ``blind`` if they have not looked at their cards, ``stake`` the
    chips they put into the pot being decided."""

    id: str
    cards: CardsLike
    blind: bool = False
    stake: int = 0


def player_hand(ev: Evaluator, player: Player, cards: list[int]) -> PlayerHand:
    """A player's hand valued under ``ev`` (three cards, or best three of four/five)."""
    where = f"player {player.id!r}"
    if len(cards) == 3:
        try:
            v = ev.evaluate(cards)
        except InvalidHandError as exc:
            raise type(exc)(f"{where}: {exc}") from None
        return PlayerHand(player.id, tuple(cards), player.blind, player.stake, v.strength,
                          v.strength, v.category, v.description, tuple(cards), ())
    try:
        b = ev.best_of(cards)
    except InvalidHandError as exc:
        raise type(exc)(f"{where}: {exc}") from None
    return PlayerHand(player.id, tuple(cards), player.blind, player.stake, b.strength, b.key,
                      Category(b.category), b.description, tuple(b.kept), tuple(b.discarded))


def _discard_names(hand: PlayerHand) -> list[str]:
    """Discards as they rank in the tie-break (bestof.hpp): by rank, suits
    never rank, a joker above an ace; higher first."""
    codes = sorted((14 if c >= 52 else (c >> 2) + 1 for c in hand.discarded), reverse=True)
    return ["joker" if code == 14 else _RANK_CHARS[code - 1] for code in codes]


def compare_reason(better: PlayerHand, worse: PlayerHand) -> tuple[str, str]:
    """(reason, decided_by) for ``better`` beating ``worse`` (keys differ)."""
    if better.strength != worse.strength:
        return f"{better.description} beats {worse.description}", "hand"
    for hi, lo in zip(_discard_names(better), _discard_names(worse)):
        if hi != lo:
            return f"discard decides: {hi} beats {lo}", "discard"
    raise AssertionError("keys differ but neither the three nor the discards do")


_RANK_CHARS = "23456789TJQKA"


def _parse_players(players: Sequence[Player], cards_per_hand: int | None,
                   ) -> tuple[list[Player], list[list[int]], int]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidShowdownError("players must be a sequence of prial.Player")
    players = list(players)
    for i, p in enumerate(players):
        if not isinstance(p, Player):
            raise InvalidShowdownError(f"player {i}: expected a prial.Player, got {type(p).__name__}")
    if len(players) < 2:
        raise InvalidShowdownError(f"a showdown needs at least 2 players, got {len(players)}")
    unique_ids([p.id for p in players], "player")
    hands = []
    for p in players:
        chips(p.stake, f"player {p.id!r} stake")
        if not isinstance(p.blind, bool):
            raise InvalidShowdownError(f"player {p.id!r}: blind must be True or False, got {p.blind!r}")
        hands.append(cards_of(p.cards, f"player {p.id!r}"))
    if cards_per_hand is None:
        cards_per_hand = len(hands[0])
    if cards_per_hand not in (3, 4, 5):
        raise InvalidShowdownError(f"cards_per_hand must be 3, 4 or 5, got {cards_per_hand!r}")
    for p, cards in zip(players, hands):
        if len(cards) != cards_per_hand:
            raise InvalidShowdownError(
                f"player {p.id!r} has {len(cards)} cards; every hand must have {cards_per_hand}")
    check_no_shared_cards((f"player {p.id!r}", cards) for p, cards in zip(players, hands))
    return players, hands, cards_per_hand


def _decide_see(seer: PlayerHand, seen: PlayerHand) -> tuple[tuple[str, ...], str, str]:
    if seer.key > seen.key:
        reason, by = compare_reason(seer, seen)
        return (seer.id,), f"seer wins: {reason}", by
    if seen.key > seer.key:
        reason, by = compare_reason(seen, seer)
        return (seen.id,), f"seen player wins: {reason}", by
    return (seen.id,), f"exact tie ({seer.description}): seer loses ties", "seer_loses_ties"


def _decide_agreed(hands: list[PlayerHand]) -> tuple[tuple[str, ...], str, str]:
    best = max(h.key for h in hands)
    winners = tuple(h.id for h in hands if h.key == best)
    top = next(h for h in hands if h.key == best)
    if len(winners) > 1:
        return winners, f"exact tie ({top.description}): pot shared", "shared"
    runner_up = max((h for h in hands if h.key != best), key=lambda h: h.key)
    reason, by = compare_reason(top, runner_up)
    return winners, f"strongest hand wins: {reason}", by


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
    """Decide a showdown (SPEC §5) and, when chips are given, pay it out.

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
    players, card_lists, width = _parse_players(players, cards_per_hand)
    chips(pot, "pot")
    chips(old_pot, "old_pot")
    ids = [p.id for p in players]
    ev = evaluator_for(rules)
    hands = [player_hand(ev, p, cards) for p, cards in zip(players, card_lists)]
    by_id = {h.id: h for h in hands}

    if coverer is not None and coverer not in by_id:
        raise InvalidShowdownError(f"coverer {coverer!r} is not a player (players: {', '.join(ids)})")
    if coverer is None and old_pot:
        raise InvalidShowdownError("old_pot is given but no coverer")
    if coverer is not None and by_id[coverer].stake:
        raise InvalidShowdownError(
            f"coverer {coverer!r} has stake {by_id[coverer].stake}; their chips belong in old_pot")
    contenders = [h for h in hands if h.id != coverer]
    if len(contenders) < 2:
        raise InvalidShowdownError("the new pot needs at least 2 players besides the coverer")

    if seer is not None:
        if seer not in by_id:
            raise InvalidShowdownError(f"seer {seer!r} is not a player (players: {', '.join(ids)})")
        if seer == coverer:
            raise InvalidShowdownError(f"seer {seer!r} covered the pot and is out of the betting")
        if len(contenders) != 2:
            raise InvalidShowdownError(
                f"a see is between two players; {len(contenders)} are in the pot (use seer=None "
                "for an agreed showdown)")
        seer_hand = by_id[seer]
        seen_hand = next(h for h in contenders if h.id != seer)
        if seen_hand.blind and not seer_hand.blind:
            raise InvalidShowdownError(
                f"you cannot see a blind man: open player {seer!r} cannot see blind player "
                f"{seen_hand.id!r}")
        winners, reason, decided_by = _decide_see(seer_hand, seen_hand)
        kind = "see"
    else:
        winners, reason, decided_by = _decide_agreed(contenders)
        kind = "agreed"

    new_pot = pot + sum(h.stake for h in contenders)
    cover = None
    if coverer is not None:
        cover = _decide_cover(by_id[coverer], by_id[winners[0]], winners, old_pot)
    payouts = None
    if new_pot or old_pot:
        payouts = dict.fromkeys(ids, 0)
        for pid, amount in split_chips(new_pot, winners).items():
            payouts[pid] += amount
        if cover is not None:
            for pid, amount in split_chips(old_pot, cover.winners).items():
                payouts[pid] += amount
    return ShowdownResult(kind, seer, winners, reason, decided_by, tuple(hands), new_pot, payouts, cover)


def _decide_cover(coverer: PlayerHand, winner: PlayerHand, winners: tuple[str, ...],
                  old_pot: int) -> CoverResult:
    if coverer.key > winner.key:
        reason, by = compare_reason(coverer, winner)
        return CoverResult(coverer.id, old_pot, (coverer.id,), f"coverer takes the old pot: {reason}", by)
    if winner.key > coverer.key:
        reason, by = compare_reason(winner, coverer)
        return CoverResult(coverer.id, old_pot, winners, f"new pot's winner takes the old pot: {reason}", by)
    return CoverResult(coverer.id, old_pot, winners,
                       f"exact tie ({coverer.description}): the old pot goes to the new pot's winner",
                       "tie_to_new_pot_winner")


def showdown_batch(
    seer_cards: npt.NDArray[np.uint8],
    seen_cards: npt.NDArray[np.uint8],
    *,
    rules: Rules | None = None,
    threads: int | None = None,
) -> npt.NDArray[np.uint8]:
    """Many two-player sees at once: row i is 1 where the seer's hand beats
    the seen player's, 0 where the seen player wins (the seer loses ties).

    Both arrays are uint8 ``(N, 3)``, ``(N, 4)`` or ``(N, 5)`` (C-contiguous,
    card indices); four and five cards compare by best-of keys, the discard
    tie-break included.  A card in both hands of a row is invalid.  Runs in C++ with the GIL released
    on ``threads`` threads (``None``: all cores).
    """
    return _core.showdown_batch(evaluator_for(rules), seer_cards, seen_cards, threads=threads)
