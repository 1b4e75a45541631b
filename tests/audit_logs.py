"""Deal logs for the audit's tests, dealt here by plain numpy shuffles
(independent of prial sample), fair or rigged in a known way."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

import prial

ACES = np.arange(48, 52)  # card = rank * 4 + suit, ranks 2..A


def shuffles(deals: int, seed: int, pack: int = 52) -> np.ndarray:
    """(deals, pack) card orders, each a uniform shuffle."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((deals, pack)), axis=1).astype(np.uint8)


def hands_of(order: np.ndarray, players: int, width: int) -> np.ndarray:
    """(deals, players, width): seat s holds cards s*width .. of the order."""
    return order[:, : players * width].reshape(len(order), players, width)


def log_table(hands: np.ndarray, *, seed: int = 0, dealers: int = 0, present: np.ndarray | None = None) -> pa.Table:
    """One row per held hand: deal_id, player, cards (text), a coin-toss
    ``won``, and ``dealer`` (deal id modulo ``dealers``) when asked.
    ``present``: (deals, players) bool, the seats that played each deal."""
    deals, players, _ = hands.shape
    present = np.ones((deals, players), bool) if present is None else present
    deal_ids, seats = np.nonzero(present)
    columns: dict[str, object] = {
        "deal_id": pa.array(deal_ids.astype(np.int64)),
        "player": pa.array(seats.astype(np.int8)),
        "cards": pa.array([prial.format_cards(h.tolist()) for h in hands[deal_ids, seats]]),
        "won": pa.array(np.random.default_rng(seed + 1).random(len(deal_ids)) < 0.5),
    }
    if dealers:
        columns["dealer"] = pa.array((deal_ids % dealers).astype(np.int16))
    return pa.table(columns)


def give_aces(order: np.ndarray, rigged: np.ndarray, seat: int, width: int, players: int) -> np.ndarray:
    """Where ``rigged``, a seat holding no ace swaps its first card for the
    first ace left undealt (the deal stays legal)."""
    order = order.copy()
    dealt = players * width
    for deal in np.flatnonzero(rigged).tolist():
        hand = order[deal, seat * width:(seat + 1) * width]
        if np.isin(hand, ACES).any():
            continue
        spare = [i for i in range(dealt, order.shape[1]) if order[deal, i] in ACES]
        if spare:
            i = spare[0]
            order[deal, seat * width], order[deal, i] = order[deal, i], order[deal, seat * width]
    return order


def favour_pairs(order: np.ndarray, rigged: np.ndarray, players: int, seed: int) -> np.ndarray:
    """Where ``rigged``, a deal in which no three-card hand holds a pair is
    shuffled again, once."""
    order = order.copy()
    ranks = hands_of(order, players, 3) // 4
    paired = ((ranks[..., 0] == ranks[..., 1]) | (ranks[..., 0] == ranks[..., 2])
              | (ranks[..., 1] == ranks[..., 2])).any(axis=1)
    again = np.flatnonzero(rigged & ~paired)
    order[again] = shuffles(len(again), seed, order.shape[1])
    return order
