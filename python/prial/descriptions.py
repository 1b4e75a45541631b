"""Descriptions of many hands at once ("Pair of Kings, 7 kicker"), for
scored logs (``prial score --describe``) and the gRPC ``describe`` option."""

from __future__ import annotations

import numpy as np

from ._core import best_of, evaluate
from .evaluator import Evaluator


def describe_hands(ev: Evaluator, hands: np.ndarray) -> list[str]:
    """The description of each row of ``hands``, uint8 (N, 3|4|5) (of the
    best three for four or five cards), under ``ev``'s rules.  Each
    distinct hand, whatever the order of its cards, is described once: a
    log or a batch repeats hands (22,100 three-card hands in a pack), and a
    description is a native call and a Python string."""
    width = hands.shape[1]
    ordered = np.sort(hands.astype(np.int64), axis=1)
    codes = np.zeros(len(hands), np.int64)
    for column in range(width):
        codes = codes * 64 + ordered[:, column]  # card codes are below 64
    _unique, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    # The native functions themselves: through the typed faces of
    # prial.Evaluator a Python call per hand takes 1.3-1.6x as long.
    value = evaluate if width == 3 else best_of
    words = [value(ev, row).description for row in hands[first].tolist()]
    return np.asarray(words, dtype=object)[inverse.reshape(-1)].tolist()
