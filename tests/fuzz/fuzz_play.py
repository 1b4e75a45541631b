"""Fuzz the entry points above single hands: best_of / best_of_batch,
partition / partition_batch, showdown / showdown_batch, crash_showdown,
settle_casino, equity and percentile, with fuzzed rules, cards and options.

Checks beyond "only InvalidHandError": best_of keeps three of the given
cards and discards the rest; best_of_batch agrees with best_of row by row;
a partition uses each given card exactly once; a showdown's winners are
among the players.
"""

from __future__ import annotations

import numpy as np
from _harness import Input, array, evaluator, instrumented_imports, run

with instrumented_imports():
    import prial


def cards_like(inp: Input, max_cards: int) -> object:
    """Cards as indices (mostly) or as text."""
    return inp.text(3 * max_cards) if inp.int_in(0, 5) == 0 else inp.cards(max_cards, 56)


def best_of(inp: Input) -> None:
    ev = evaluator(inp)
    if inp.flag():
        cards = inp.cards(6, 56)
        best = ev.best_of(cards)
        assert sorted(list(best.kept) + list(best.discarded)) == sorted(cards), (cards, best)
        assert len(best.kept) == 3 and best.strength == ev.evaluate(list(best.kept)).strength
        return
    hands = array(inp, width_hint=inp.pick((4, 5)), max_rows=32)
    keys = ev.best_of_batch(hands, threads=inp.pick((None, 1, 2)))
    assert keys.shape == (len(hands),)
    for row, key in zip(hands.tolist(), keys.tolist()):
        assert ev.best_of(row).key == key, (row, key)


def partition(inp: Input) -> None:
    ev = evaluator(inp)
    cards = inp.cards(16, 56)
    options = dict(
        hands=inp.pick((inp.int_in(0, 6), 2**31 - 1, 2**32 - 1)),
        objective=inp.pick(("lexicographic", "expected_points", "lexicographic", "best")),
        min_category=inp.pick((None, None, "PAIR", prial.Category.FLUSH, "nonsense", 2**40)),
        opponents=inp.pick((inp.int_in(0, 4), inp.int_in(0, 4), 2**31 - 1, 2**32 - 1)),
    )
    if inp.int_in(0, 3) == 0:
        splits = ev.partition_batch(np.array([cards] * 2, dtype=np.uint8), **options)
        assert len(splits) == 2
        return
    split = ev.partition(cards, **options)
    used = [c for hand in split.hands for c in hand] + list(split.discards)
    assert sorted(used) == sorted(cards), (cards, split)


def showdown(inp: Input) -> None:
    rules = evaluator(inp).rules
    if inp.int_in(0, 3) == 0:
        seer = array(inp, width_hint=3, max_rows=16)
        seen = array(inp, width_hint=3, max_rows=16)
        wins = prial.showdown_batch(seer, seen, rules=rules)
        assert wins.shape == (len(seer),) and set(wins.tolist()) <= {0, 1}
        return
    ids = ["a", "b", "c", "d", "e", ""]
    players = [prial.Player(inp.pick(ids), cards_like(inp, 5), inp.flag(), inp.int_in(-1, 20))
               for _ in range(inp.int_in(0, 5))]
    result = prial.showdown(
        players, seer=inp.pick((None, "a", "b", "z")), rules=rules,
        cards_per_hand=inp.pick((None, 3, 4, 5, 2)), pot=inp.int_in(-1, 50),
        coverer=inp.pick((None, None, "c", "z")), old_pot=inp.int_in(-1, 50))
    assert set(result.winners) <= {p.id for p in players}, result


def crash(inp: Input) -> None:
    rules = evaluator(inp).rules
    players = [prial.CrashPlayer(inp.pick(("a", "b", "c", "d")),
                                 [cards_like(inp, 3) for _ in range(inp.int_in(0, 5))],
                                 cards_like(inp, 3), inp.int_in(0, 7) == 0)
               for _ in range(inp.int_in(0, 4))]
    scoring: object = inp.pick(("points", "weighted", "bogus", None))
    if scoring is None:
        scoring = [inp.int_in(-1, 5) for _ in range(inp.int_in(0, 5))]
    prial.crash_showdown(players, scoring=scoring,  # type: ignore[arg-type]
                         min_category=inp.pick((None, "PAIR", "nope")), rules=rules)


def casino(inp: Input) -> None:
    prial.settle_casino(
        cards_like(inp, 4), cards_like(inp, 4), inp.int_in(-1, 100),
        inp.pick((None, inp.int_in(-1, 300))), inp.int_in(-1, 100),
        paytable=inp.pick(tuple(prial.PAYTABLES) + ("bogus",)),
        game=inp.pick(("brag", "three_card_poker", "teen_patti", "poker")))


def equity(inp: Input) -> None:
    rules = evaluator(inp).rules
    if inp.flag():
        prial.percentile(cards_like(inp, 4), rules=rules)
        return
    samples = inp.pick((None, 0, 1, 300, -5))
    # Exact equity against one or two opponents is counted, not dealt (a
    # millisecond at most); more opponents only with explicit samples,
    # which stay few (the default is 200,000 deals).
    opponents = inp.int_in(-1, 2) if samples is None else inp.int_in(-1, 20)
    result = prial.equity(cards_like(inp, 4), opponents=opponents, dead=inp.cards(6, 56),
                          rules=rules, samples=samples, seed=inp.int_in(0, 3))
    assert result is not None


ENTRY_POINTS = (best_of, partition, showdown, crash, casino, equity)


def one_input(data: bytes) -> None:
    inp = Input(data)
    inp.pick(ENTRY_POINTS)(inp)


if __name__ == "__main__":
    run(one_input)
