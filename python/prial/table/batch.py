"""Many deals at once, natively: replay of recorded actions and self-play
by policies (docs/rules.md, "10. The betting").  Arrays in, arrays out; the
GIL is released while the core works."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._core import TABLE_CODES, TABLE_KINDS, table_replay, table_self_play
from ..errors import ConfigurationError, InvalidHandError
from .deal import Deal
from .rules import DRAW_GAME, TableRules

# Status of a replayed deal, by its code in ReplayResult.status.
STATUSES = ("unfinished", "over", "unknown", "illegal", "bad_setup")
# Refusal codes by their number in ReplayResult.code (0: none).
CODES = ("ok", *TABLE_CODES)
# How the betting ended, by its number in ReplayResult.ending.
ENDINGS = ("", "folded_out", "see", "showdown", "pot_cap", "unknown")
NO_CARD = 255


class ReplayResult(NamedTuple):
    """Per deal: ``status`` (an index of STATUSES), ``first_bad`` (the
    refused action's index in its deal, -1 if none), ``code`` (an index of
    CODES), ``ending`` (of ENDINGS), ``payouts`` and ``put_in`` (deals ×
    seats), ``pots`` and ``pot_winners`` (deals × 18: each pot's chips and
    its winners as seat bits, oldest first); ``applied``: actions applied in
    all."""

    status: npt.NDArray[np.uint8]
    first_bad: npt.NDArray[np.int64]
    code: npt.NDArray[np.uint8]
    ending: npt.NDArray[np.uint8]
    payouts: npt.NDArray[np.int64]
    put_in: npt.NDArray[np.int64]
    pot_winners: npt.NDArray[np.uint32]
    pots: npt.NDArray[np.int64]
    applied: int


def replay_batch(table: TableRules, *, players: Any, dealers: Any, cards: Any, offsets: Any, actors: Any,
                 kinds: Any, amounts: Any, discards: Any, stacks: Any = None,
                 threads: int | None = None, stub: Any = None) -> ReplayResult:
    """Replays many deals: per deal its number of players and dealer seat,
    its cards (deals × seats × the table's cards, 255 for unknown) and
    stacks (deals × seats, or None); its actions are rows
    ``offsets[d]:offsets[d + 1]`` of ``actors`` (seat), ``kinds`` (an index
    of ``prial._core.TABLE_KINDS``), ``amounts`` (-1: none) and
    ``discards`` (actions × 2, at draw Brag × 3; 255: none).  ``stub``
    (draw Brag): each deal's cards left for the draw, top first (deals ×
    any width, 255 past the last), or None: the cards drawn unknown."""
    if not isinstance(table, TableRules):
        raise InvalidHandError(f"table must be a prial.TableRules; got {table!r}", field="table")
    raw = table_replay(table._native, players, dealers, cards, stacks, offsets, actors, kinds, amounts, discards,
                       threads, stub)
    return ReplayResult(**raw)


def deals_as_arrays(deals: Sequence[Deal]) -> dict[str, Any]:
    """The setups and histories of ``deals`` (one table) as the arrays
    :func:`replay_batch` takes (a deal dealt from a seed gives its cards)."""
    if not deals:
        raise InvalidHandError("no deals given", field="deals")
    width = deals[0].table.cards
    draw = deals[0].table.game == DRAW_GAME
    seats = max(len(d.players) for d in deals)
    stub = np.full((len(deals), deals[0].table.rules.pack_size if draw else 0), NO_CARD, dtype=np.uint8)
    kind_index = {kind: i for i, kind in enumerate(TABLE_KINDS)}
    cards = np.full((len(deals), seats, width), NO_CARD, dtype=np.uint8)
    stacks = np.zeros((len(deals), seats), dtype=np.int64)
    has_stacks = False
    actors: list[int] = []
    kinds: list[int] = []
    amounts: list[int] = []
    discards: list[tuple[int, ...]] = []
    offsets = [0]
    for d, deal in enumerate(deals):
        # The hands as dealt: a draw has changed them since.
        first = Deal.from_dict({**deal.to_dict(), "actions": []}) if draw else deal
        if draw:
            left = first._native.stub()
            stub[d, : len(left)] = left
        for i in range(len(deal.players)):
            hand = first._native.cards(i)
            if hand is not None:
                cards[d, i] = hand
        if deal._stacks is not None:
            has_stacks = True
            stacks[d, : len(deal.players)] = deal._stacks
        seat_of = deal._seat_of
        for action in deal.history:
            actors.append(seat_of[action.player or ""])
            kinds.append(kind_index[action.kind])
            amounts.append(action.amount if action.kind in ("stake", "sideshow") and action.amount is not None
                           else -1)
            discards.append(padded(action.discards, 3 if draw else 2))
        offsets.append(len(actors))
    return {
        "players": np.array([len(d.players) for d in deals], dtype=np.uint8),
        "dealers": np.array([d.dealer for d in deals], dtype=np.uint8),
        "cards": cards,
        "stacks": stacks if has_stacks else None,
        "offsets": np.array(offsets, dtype=np.int64),
        "actors": np.array(actors, dtype=np.uint8),
        "kinds": np.array(kinds, dtype=np.uint8),
        "amounts": np.array(amounts, dtype=np.int64),
        "discards": np.array(discards, dtype=np.uint8).reshape(-1, 3 if draw else 2),
        **({"stub": stub} if draw else {}),
    }


def padded(cards: Sequence[int], width: int) -> tuple[int, ...]:
    """An action's discards as a row of ``width``, NO_CARD past them."""
    return (*cards[:width], *(NO_CARD,) * (width - len(cards[:width])))


def self_play(table: TableRules, policies: Sequence[float | None], deals: int, *, seed: int = 0,
              stack: int | None = None) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint32]]:
    """Plays ``deals`` seeded deals natively, a policy per seat: None for
    the random player, a share 0..1 for a threshold player that stays in
    while its hand beats at least that share of all hands.  Deal d is dealt
    from seed + d with the dealer at seat d mod players, every player
    starting with ``stack`` chips (None: no stacks).  Returns each deal's
    nets per seat (deals × players) and its number of actions."""
    if not isinstance(table, TableRules):
        raise InvalidHandError(f"table must be a prial.TableRules; got {table!r}", field="table")
    thresholds = []
    for i, policy in enumerate(policies):
        if policy is None:
            thresholds.append(-1.0)
        elif isinstance(policy, (int, float)) and not isinstance(policy, bool) and 0 <= policy <= 1:
            thresholds.append(float(policy))
        else:
            raise ConfigurationError(f"policy of seat {i} must be None (random) or a share from 0 to 1; "
                                     f"got {policy!r}", field="policies")
    if isinstance(deals, bool) or not isinstance(deals, int) or not 0 <= deals <= 2**40:
        raise ConfigurationError(f"deals must be an integer from 0 to 2**40; got {deals!r}", field="deals")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ConfigurationError(f"seed must be an integer from 0 to 2**64 - 1; got {seed!r}", field="seed")
    if stack is not None and (isinstance(stack, bool) or not isinstance(stack, int) or not 0 <= stack <= 2**53):
        raise ConfigurationError(f"stack must be None or an integer from 0 to 2**53; got {stack!r}", field="stack")
    return table_self_play(table._native, thresholds, deals, seed, -1 if stack is None else stack)
