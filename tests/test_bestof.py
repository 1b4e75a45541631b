"""Best three of four / five (SPEC §4) against a simple numpy reference.

The reference keeps each possible three, scores it with the three-card
evaluator (evaluate_batch) and its discards with the documented codes
(deuce 1 .. ace 13, joker 14; higher discard first), and takes the maximum
of (strength, discards): exhaustive over every four-card hand and every
five-card hand of the standard pack, sampled for other rulesets.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prial
from .conftest import random_hands

RULESETS = {
    "brag": prial.Rules(),
    "teen_patti": prial.Rules(preset="teen_patti"),
    "three_card_poker_muflis": prial.Rules(preset="three_card_poker", lowball=True),
    "deuces_wild": prial.Rules(wild="deuces"),
    "two_jokers": prial.Rules(jokers=2),
    "one_eyed_jacks_equal": prial.Rules(wild="one_eyed_jacks", wild_ties="equal"),
}


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


def category_of_strength(ev: prial.Evaluator) -> np.ndarray:
    """Category by strength, read off every three-card hand of the pack."""
    cats = np.zeros(ev.classes + 1, dtype=np.int64)
    for hand in itertools.combinations(range(ev.pack_size), 3):
        v = ev.evaluate(list(hand))
        cats[v.strength] = int(v.category)
    return cats


@pytest.fixture(scope="module")
def four_card_hands() -> np.ndarray:
    return all_hands(52, 4)


@pytest.fixture(scope="module")
def five_card_hands() -> np.ndarray:
    return all_hands(52, 5)


def test_combination_counts(four_card_hands, five_card_hands):
    assert len(four_card_hands) == 270_725
    assert len(five_card_hands) == 2_598_960


@pytest.mark.parametrize("name", RULESETS)
def test_every_four_card_hand_matches_reference(name):
    ev = prial.Evaluator(RULESETS[name])
    hands = all_hands(ev.pack_size, 4)
    assert np.array_equal(ev.best_of_batch(hands), reference_keys(ev, hands))


def test_every_five_card_hand_matches_reference(brag, five_card_hands):
    for chunk in np.array_split(five_card_hands, 4):
        assert np.array_equal(brag.best_of_batch(chunk), reference_keys(brag, chunk))


@pytest.mark.parametrize("name", [n for n in RULESETS if n != "brag"])
def test_random_five_card_hands_match_reference(name):
    ev = prial.Evaluator(RULESETS[name])
    hands = random_hands(200_000, 5, seed=list(RULESETS).index(name), pack=ev.pack_size)
    assert np.array_equal(ev.best_of_batch(hands), reference_keys(ev, hands))


def class_counts(ev: prial.Evaluator, keys: np.ndarray) -> dict[str, int]:
    cats = category_of_strength(ev)[keys >> 8]
    return {prial.Category(c).name: int(n) for c, n in zip(*np.unique(cats, return_counts=True))}


def test_class_counts_of_the_best_hand(brag, four_card_hands, five_card_hands):
    for hands, prials in ((four_card_hands, 13 * (4 * 48 + 1)), (five_card_hands, 13 * (4 * comb(48, 2) + 48))):
        ours = class_counts(brag, brag.best_of_batch(hands))
        assert ours == class_counts(brag, reference_keys(brag, hands))
        assert sum(ours.values()) == len(hands)
        # Counted by hand: a four-card hand holds a prial when it has three or
        # four of one rank; a five-card hand likewise.
        assert ours["PRIAL"] == prials
        # Distinct keys: the key classes of each size.
        assert len(np.unique(brag.best_of_batch(hands))) == len(np.unique(reference_keys(brag, hands)))


def test_three_card_keys_are_shifted_strengths(brag, all_three_card_hands):
    keys = brag.best_of_batch(all_three_card_hands)
    assert np.array_equal(keys, brag.evaluate_batch(all_three_card_hands).astype(np.uint32) << 8)
    b = brag.best_of("3s 2h Ah")
    assert b.discarded == [] and sorted(b.kept) == [2, 7, 50] and b.key == b.strength << 8


def test_best_of_example():
    b = prial.best_of("As Kd 7h 7c 2s")
    assert sorted(b.kept) == sorted(prial.parse_cards("7h 7c As"))
    assert b.discarded == prial.parse_cards("Kd 2s")  # higher first
    assert b.category == prial.Category.PAIR
    assert b.description == "Pair of sevens, ace kicker"
    assert b.strength == prial.evaluate("7h 7c As").strength
    assert b.key == (b.strength << 8 | 12 << 4 | 1)
    assert b.kept[0] == max(b.kept)  # strongest first


def test_discard_breaks_ties():
    hi = prial.best_of("As Kd Qh 5c")
    lo = prial.best_of("Ac Kh Qd 4s")
    assert hi.strength == lo.strength and hi.key > lo.key
    five_hi = prial.best_of("As Kd Qh 9c 2s")
    five_lo = prial.best_of("Ac Kh Qd 8s 7d")
    assert five_hi.strength == five_lo.strength and five_hi.key > five_lo.key  # 9 beats 8 first
    assert prial.best_of("As Kd Qh 9c 3s").key > five_hi.key  # then the lower discard
    assert prial.best_of("As Kd Qh 9c 2c").key == five_hi.key  # suits never rank


def test_joker_discard_ranks_above_ace():
    ev = prial.Evaluator(prial.Rules(jokers=1))
    # Four of a kind plus a joker: a prial is kept either way; keeping three
    # aces and discarding the joker beats discarding an ace.
    b = ev.best_of("As Ad Ah Ac X")
    assert b.discarded[0] == 52 and b.key & 0xF0 == 14 << 4


def test_scalar_and_batch_agree(brag):
    hands = random_hands(3_000, 5, seed=7)
    keys = brag.best_of_batch(hands)
    for row, key in zip(hands.tolist(), keys.tolist()):
        b = brag.best_of(row)
        assert b.key == key
        assert sorted(b.kept + b.discarded) == sorted(row)
        assert brag.evaluate(b.kept).strength == b.strength == key >> 8
        codes = [c // 4 + 1 for c in b.discarded]
        assert codes == sorted(codes, reverse=True)
        assert b.kept == sorted(b.kept, reverse=True)


def test_threads_agree(brag):
    hands = random_hands(300_000, 4, seed=3)
    assert np.array_equal(brag.best_of_batch(hands, threads=1), brag.best_of_batch(hands, threads=2))


def test_module_shortcuts_are_brag():
    assert "best_of" in prial.__all__ and "best_of_batch" in prial.__all__
    hands = random_hands(100, 4, seed=1)
    assert np.array_equal(prial.best_of_batch(hands), prial.Evaluator().best_of_batch(hands))


@pytest.mark.parametrize("cards", ["As Kd", "As Kd Qh Jc Ts 9s", "As As Kd Qh", "As Kd Qh X"])
def test_bad_scalar_input(cards):
    with pytest.raises(prial.InvalidHandError):
        prial.best_of(cards)


def test_bad_batch_input_names_the_row():
    hands = random_hands(50, 5, seed=2)
    hands[17, 3] = hands[17, 1]
    with pytest.raises(prial.InvalidHandError, match="row 17") as info:
        prial.best_of_batch(hands)
    assert info.value.row == 17
    hands = random_hands(50, 4, seed=2)
    hands[9, 0] = 52  # a joker, but brag has none
    with pytest.raises(prial.InvalidHandError, match="row 9.*joker"):
        prial.best_of_batch(hands)
    for bad in (np.zeros((3, 6), np.uint8), np.zeros((3, 4), np.int64), np.zeros(12, np.uint8),
                np.zeros((4, 8), np.uint8)[:, ::2], [[0, 1, 2, 3]]):
        with pytest.raises(prial.InvalidHandError):
            prial.best_of_batch(bad)


def test_cli_best_of(capsys):
    import json

    from prial.cli import main

    assert main(["best-of", "As Kd 7h 7c 2s", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["key"] == prial.best_of("As Kd 7h 7c 2s").key and row["category"] == "PAIR"
    assert main(["best-of", "As Kd 7h 7c 2s"]) == 0
    assert "Pair of sevens, ace kicker" in capsys.readouterr().out
    assert main(["best-of", "As Kd"]) == 2


@given(st.lists(st.integers(0, 51), min_size=4, max_size=5, unique=True), st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_order_never_matters(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    a, b = prial.best_of(cards), prial.best_of(shuffled)
    assert a == b
    batch = np.array([cards, shuffled], dtype=np.uint8)
    assert prial.best_of_batch(batch).tolist() == [a.key, a.key]


@pytest.fixture(params=["scalar", "avx2", "avx512"])
def simd_level(request):
    """Each batch-kernel level this CPU has, restored afterwards."""
    levels = ["scalar", "avx2", "avx512"]
    if levels.index(request.param) > levels.index(prial._core.supported_simd_level()):
        pytest.skip(f"CPU lacks {request.param}")
    before = prial._core.simd_level()
    prial._core.set_simd_level(request.param)
    yield request.param
    prial._core.set_simd_level(before)


def test_every_kernel_level_agrees(simd_level, brag, four_card_hands, five_card_hands):
    # Exhaustive four-card hands, a sample of five, and tails that are not a
    # whole vector.
    assert np.array_equal(brag.best_of_batch(four_card_hands), reference_keys(brag, four_card_hands))
    five = np.ascontiguousarray(five_card_hands[::7])
    assert np.array_equal(brag.best_of_batch(five), reference_keys(brag, five))
    for hands in (four_card_hands[:1003], five_card_hands[-1003:]):
        odd = np.ascontiguousarray(hands)
        assert np.array_equal(brag.best_of_batch(odd, threads=1), reference_keys(brag, odd))


def test_every_kernel_level_with_jokers(simd_level):
    ev = prial.Evaluator(prial.Rules(jokers=3, wild="deuces"))
    for width in (4, 5):
        hands = random_hands(20_003, width, seed=width, pack=ev.pack_size)
        assert np.array_equal(ev.best_of_batch(hands), reference_keys(ev, hands))


@pytest.mark.parametrize("width", [4, 5])
@pytest.mark.parametrize("row", [0, 7, 8, 255, 1000])
@pytest.mark.parametrize("bad", ["duplicate", "255", "joker"])
def test_every_kernel_level_rejects_bad_rows(simd_level, width, row, bad):
    hands = random_hands(1003, width, seed=row)
    if bad == "duplicate":
        hands[row, width - 1] = hands[row, 0]
    else:
        hands[row, row % width] = 255 if bad == "255" else 52
    with pytest.raises(prial.InvalidHandError, match=f"row {row}:") as info:
        prial.best_of_batch(hands, threads=1)
    assert info.value.row == row
