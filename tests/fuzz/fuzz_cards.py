"""Fuzz card text: parse_cards, format_cards, evaluate(text) and wild-card
text in Rules.

Checks beyond "only InvalidHandError": parsed indices lie in 0..54 and
format_cards/parse_cards round-trip; a text hand that evaluates has three
cards and the same strength as those cards in a batch.
"""

from __future__ import annotations

import numpy as np
from _harness import Input, evaluator, instrumented_imports, run

with instrumented_imports():
    import prial


def one_input(data: bytes) -> None:
    inp = Input(data)
    mode = inp.int_in(0, 3)
    if mode == 0:
        # Raw bytes as text: invalid UTF-8 becomes lone surrogates.
        text = inp.rest().decode("utf-8", "surrogateescape")
    else:
        text = inp.text(24)

    if mode <= 1:
        cards = prial.parse_cards(text)
        assert all(0 <= c <= 54 for c in cards), cards
        assert prial.parse_cards(prial.format_cards(cards)) == cards
    elif mode == 2:
        ev = evaluator(inp)
        value = ev.evaluate(text)
        assert len(value.cards) == 3 and 1 <= value.strength <= ev.classes, value
        batch = ev.evaluate_batch(np.array([value.cards], dtype=np.uint8))
        assert int(batch[0]) == value.strength, (value, batch)
    else:
        indices = inp.cards(8, 300)
        if inp.flag():
            indices = [-c for c in indices]
        text = prial.format_cards(indices)
        assert prial.parse_cards(text) == indices


if __name__ == "__main__":
    run(one_input)
