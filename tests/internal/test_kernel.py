"""The batch kernels (scalar, AVX2, AVX-512): every level this CPU has gives
the scalar answers, rejects the same rows and reports the first bad one."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import prial
from prial import Rules, _core, random_hands

from .conftest import LEVELS

# Longer than two AVX-512 blocks (64 hands) and 1024-hand chunks plus a tail.
BLOCKY = 64 * 3 + 37


def every_order(hands: np.ndarray) -> np.ndarray:
    """Each hand in all six orders of its cards, the orders interleaved."""
    orders = list(itertools.permutations(range(3)))
    return np.ascontiguousarray(np.stack([hands[:, list(p)] for p in orders], axis=1).reshape(-1, 3))


def single_calls(ev: prial.Evaluator, hands: np.ndarray) -> list[int]:
    """Strengths through evaluate(), which shares no code with the kernels."""
    return [ev.evaluate(h).strength for h in hands.tolist()]


# Without wild cards the AVX-512 kernel reads a by-rank copy of the table;
# with them (and jokers) it uses the slots like the other kernels.
RULESETS = [Rules(), Rules(preset="teen_patti"), Rules(preset="three_card_poker", lowball=True),
            Rules(ace_two_three="bottom", top_prial="ace"), Rules(jokers=3), Rules(wild="one_eyed_jacks"),
            Rules(preset="classic"), Rules(preset="classic", wild="none"),
            Rules(preset="classic", wild="bragger_jacks", wild_ties="natural_prials")]


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_every_hand_in_every_order(simd_level, rules):
    ev = prial.Evaluator(rules)
    hands = np.array(list(itertools.combinations(range(ev.pack_size), 3)), dtype=np.uint8)
    assert len(hands) == ev.slots  # 22,100 or 26,235
    expected = np.repeat(np.array(single_calls(ev, hands), dtype=np.uint16), 6)
    assert np.array_equal(ev.evaluate_batch(every_order(hands), threads=1), expected)


def test_lengths_0_to_100(simd_level):
    ev = prial.Evaluator()
    hands = random_hands(100, 3, seed=5)
    expected = single_calls(ev, hands)
    for n in range(101):
        got = ev.evaluate_batch(hands[:n], threads=1)
        assert got.shape == (n,) and got.tolist() == expected[:n]


def test_long_batch_matches_scalar_level(simd_level):
    ev = prial.Evaluator(Rules(wild="deuces", jokers=1))
    hands = random_hands(50_000 + 13, 3, seed=9, pack=ev.pack_size)
    got = ev.evaluate_batch(hands, threads=1)
    _core.set_simd_level("scalar")
    assert np.array_equal(got, ev.evaluate_batch(hands, threads=1))


def bad_hands() -> list[tuple[str, list[int]]]:
    """Rows no 52-card pack accepts: every index 52..255 (in each position
    in turn) and a repeated card in each pair of positions."""
    cases = [(f"index {v} at {v % 3}", [v if p == v % 3 else 10 + p for p in range(3)]) for v in range(52, 256)]
    for i, j in itertools.combinations(range(3), 2):
        row = [20, 30, 40]
        row[j] = row[i]
        cases.append((f"duplicate at {i},{j}", row))
    cases.append(("all three equal", [7, 7, 7]))
    return cases


def expect_bad_row(ev: prial.Evaluator, hands: np.ndarray, row: int, threads: int = 1) -> None:
    with pytest.raises(prial.InvalidHandError) as info:
        ev.evaluate_batch(hands, threads=threads)
    assert info.value.row == row
    assert f"row {row}:" in str(info.value)


def test_bad_rows_at_every_offset(simd_level):
    ev = prial.Evaluator()
    base = random_hands(BLOCKY, 3, seed=21)
    cases = bad_hands()
    for offset in range(BLOCKY):  # every lane of every block, and the tail
        for k in (offset, offset + 101):  # every bad kind lands at many offsets
            _, bad = cases[k % len(cases)]
            broken = base.copy()
            broken[offset] = bad
            expect_bad_row(ev, broken, offset)


def test_every_bad_kind_is_reported(simd_level):
    ev = prial.Evaluator()
    base = random_hands(BLOCKY, 3, seed=22)
    for name, bad in bad_hands():
        for offset in (0, 63, 64, 150, BLOCKY - 1):
            broken = base.copy()
            broken[offset] = bad
            expect_bad_row(ev, broken, offset)


def test_first_of_several_bad_rows(simd_level):
    ev = prial.Evaluator()
    base = random_hands(5000, 3, seed=23)
    for first, second in ((3, 4), (70, 5), (1023, 1024), (4990, 4999), (100, 4000)):
        broken = base.copy()
        broken[first] = [1, 1, 2]
        broken[second] = [255, 0, 1]
        expect_bad_row(ev, broken, min(first, second))


def test_jokers_depend_on_the_pack(simd_level):
    hands = random_hands(BLOCKY, 3, seed=24, pack=52)
    hands[77] = [52, 3, 9]
    expect_bad_row(prial.Evaluator(), hands, 77)
    with_joker = prial.Evaluator(Rules(jokers=1))
    assert with_joker.evaluate_batch(hands, threads=1)[77] == with_joker.evaluate([52, 3, 9]).strength
    hands[80] = [53, 3, 9]
    expect_bad_row(with_joker, hands, 80)


def test_threads_and_levels_agree(simd_level):
    hands = random_hands(300_000, 3, seed=25)
    one = prial.evaluate_batch(hands, threads=1)
    assert np.array_equal(one, prial.evaluate_batch(hands, threads=2))
    broken = hands.copy()
    broken[[160_001, 250_000]] = [[9, 9, 1], [0, 1, 99]]
    expect_bad_row(prial.Evaluator(), broken, 160_001, threads=2)


def test_set_level_rejects_unknown_names():
    with pytest.raises(prial.InvalidHandError, match="unknown SIMD level"):
        _core.set_simd_level("sse9")
    assert _core.simd_level() in LEVELS


def run_with_env(value: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PRIAL_SIMD=value)
    return subprocess.run([sys.executable, "-c", "from prial import _core; print(_core.simd_level())"],
                          env=env, capture_output=True, text=True, check=True)


@pytest.mark.parametrize("name", LEVELS)
def test_environment_variable_selects_a_level(name):
    assert run_with_env(name).stdout.strip() == name


def test_environment_variable_unknown_is_ignored_with_a_message():
    done = run_with_env("fastest")
    assert done.stdout.strip() == _core.supported_simd_level()
    assert "PRIAL_SIMD=fastest" in done.stderr


class Index(int):
    """An int subclass: takes the general (non-fast) path of evaluate()."""


def test_evaluate_quick_path_matches_general_path():
    ev = prial.Evaluator(Rules(jokers=2))
    for hand in random_hands(300, 3, seed=26, pack=ev.pack_size).tolist() + [[52, 53, 0], [0, 1, 2]]:
        general = ev.evaluate([Index(c) for c in hand])
        for form in (hand, tuple(hand)):
            value = ev.evaluate(form)
            assert value == general and value.cards == hand and value.cards is not form
    for bad, needle in (([1, 1, 2], "duplicate"), ([1, 2, 54], "joker"), ((1, 2, 55), "out of range"),
                        ([1, 2, -1], "out of range"), ([1, 2, 2**64], "out of range"), ((1, 2), "expected 3 cards")):
        with pytest.raises(prial.InvalidHandError, match=needle):
            ev.evaluate(bad)
