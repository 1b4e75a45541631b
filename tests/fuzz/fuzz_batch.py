"""Fuzz evaluate_batch with arbitrary arrays (dtype, shape, layout, values)
and evaluate with card-index lists, under fuzzed rulesets.

The oracle: a batch is rejected exactly when it is not a C-contiguous uint8
(N, 3) array or some row has a card outside the pack or a repeated card (an
independent check in _harness.hand_problem); the error names the first such
row; an accepted batch equals evaluate() row by row, whichever batch kernel
(scalar, AVX2, AVX-512) ran it.
"""

from __future__ import annotations

import numpy as np
from _harness import Input, array, evaluator, hand_problem, instrumented_imports, run

with instrumented_imports():
    import prial
    from prial import _core

# Every batch kernel this CPU has; each input picks one.
LEVELS = ("scalar", "avx2", "avx512")
LEVELS = LEVELS[: LEVELS.index(_core.supported_simd_level()) + 1]


def one_input(data: bytes) -> None:
    inp = Input(data)
    ev = evaluator(inp)
    if inp.int_in(0, 3) == 0:
        cards = inp.cards(5, 60)
        value = ev.evaluate(cards)
        assert len(cards) == 3 and not hand_problem(cards, ev.pack_size), cards
        assert 1 <= value.strength <= ev.classes
        return

    _core.set_simd_level(inp.pick(LEVELS))
    hands = array(inp, width_hint=3, max_rows=400)
    threads = inp.pick((None, 1, 2, 3, 0, -1, 2**40, "2"))
    well_formed = (
        hands.dtype == np.uint8 and hands.ndim == 2 and hands.shape[1] == 3 and hands.flags.c_contiguous
    )
    bad_rows = [i for i, row in enumerate(hands.tolist()) if hand_problem(row, ev.pack_size)] if well_formed else []
    try:
        strengths = ev.evaluate_batch(hands, threads=threads)
    except prial.InvalidHandError as exc:
        if well_formed and threads in (None, 1, 2, 3):
            assert bad_rows and exc.row == bad_rows[0], (exc, exc.row, bad_rows)
        raise
    assert well_formed and threads in (None, 1, 2, 3) and not bad_rows, (hands.dtype, hands.shape, threads)
    assert strengths.dtype == np.uint16 and strengths.shape == (len(hands),)
    for row, strength in zip(hands.tolist(), strengths.tolist()):
        assert ev.evaluate(row).strength == strength, (row, strength)


if __name__ == "__main__":
    run(one_input)
