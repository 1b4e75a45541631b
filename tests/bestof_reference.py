"""A simple reference for the best three of four or five cards: every kept
three scored by the three-card batch evaluator, the discards by the
documented codes (deuce 1 .. ace 13, joker 14; higher discard first), and
the maximum of (strength, discards) taken in numpy."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np

import prial


def all_hands(pack: int, width: int) -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(pack), width)),
                       dtype=np.uint8, count=comb(pack, width) * width)
    return flat.reshape(-1, width)


def discard_codes(cards: np.ndarray) -> np.ndarray:
    cards = cards.astype(np.uint32)
    return np.where(cards >= 52, 14, cards // 4 + 1)


def reference_keys(ev: prial.Evaluator, hands: np.ndarray) -> np.ndarray:
    """max over kept threes of strength << 8 | higher discard << 4 | lower discard."""
    width = hands.shape[1]
    best = np.zeros(len(hands), dtype=np.uint32)
    for kept in itertools.combinations(range(width), 3):
        dropped = [i for i in range(width) if i not in kept]
        strength = ev.evaluate_batch(np.ascontiguousarray(hands[:, kept])).astype(np.uint32)
        codes = [discard_codes(hands[:, i]) for i in dropped] + [np.zeros(len(hands), np.uint32)] * (2 - len(dropped))
        hi, lo = np.maximum(codes[0], codes[1]), np.minimum(codes[0], codes[1])
        np.maximum(best, strength << 8 | hi << 4 | lo, out=best)
    return best
