"""Card text, indices and arrays: accepted forms and clear errors."""

from __future__ import annotations

import numpy as np
import pytest

import prial
from prial import InvalidHandError


@pytest.mark.parametrize(
    "text",
    ["3s 2h Ah", "3s,2h,Ah", "3s, 2h, Ah", "3s2hAh", "3S 2H AH", "3♠ 2♥ A♥", "3♠️2♥️A♥️", "  3s   2h\tAh "],
)
def test_text_forms(text):
    assert prial.parse_cards(text) == [7, 2, 50]


def test_ten_and_suits():
    assert prial.parse_cards("10h Th 10♣ t♦") == [8 * 4 + 2, 8 * 4 + 2, 32, 33]
    assert prial.parse_cards("2c As") == [0, 51]
    assert prial.parse_cards("X joker X") == [52, 53, 54]
    assert prial.parse_cards("X2 X") == [53, 52]


def test_format_round_trip():
    for cards in ([7, 2, 50], list(range(52)), [52, 53, 54]):
        assert prial.parse_cards(prial.format_cards(cards)) == cards
    assert prial.format_cards([7, 2, 50]) == "3s 2h Ah"


@pytest.mark.parametrize(
    "text, needle",
    [
        ("3s 2h 1h", "card 3 ('1h'): unknown rank '1'"),
        ("3s 2x Ah", "card 2 ('2x'): unknown suit 'x'"),
        ("3s 2 Ah", "card 2 ('2'): missing suit"),
        ("Zs", "unknown rank 'Z'"),
        ("X X X X", "more than three jokers"),
        ("X1 X1", "appears twice"),
    ],
)
def test_parse_errors_name_the_card(text, needle):
    with pytest.raises(InvalidHandError) as info:
        prial.parse_cards(text)
    assert needle in str(info.value)


@pytest.mark.parametrize(
    "hand, needle",
    [
        ("3s 3s Ah", "duplicate card 3s: cards 1 and 2 of the hand"),
        ("3s 2h", "expected 3 cards, got 2"),
        ("3s 2h Ah Kd", "expected 3 cards, got 4"),
        ([7, 2, 52], "joker X1 (index 52) but the rules have 0 joker(s)"),
        ([7, 2, 55], "card index 55 is out of range"),
        ([7, 2, -1], "card index -1 is out of range"),
        ([7, 2, 10**30], "out of range"),
        ([7, 2, 3.0], "expected a card index, got float"),
        ([7, 2, True], "expected a card index, got bool"),
        (None, "cards must be text"),
        (7, "cards must be text"),
    ],
)
def test_evaluate_errors(hand, needle):
    with pytest.raises(InvalidHandError) as info:
        prial.evaluate(hand)
    assert needle in str(info.value)
    assert isinstance(info.value, ValueError)


def test_other_index_sequences():
    assert prial.evaluate((7, 2, 50)).strength == prial.evaluate(np.array([7, 2, 50])).strength
    assert prial.evaluate(bytes([7, 2, 50])).strength == prial.evaluate("3s 2h Ah").strength


def test_batch_errors_name_the_row():
    hands = np.array([[0, 1, 2], [4, 5, 6], [8, 8, 9], [60, 1, 2]], dtype=np.uint8)
    with pytest.raises(InvalidHandError) as info:
        prial.evaluate_batch(hands)
    assert str(info.value) == "row 2: duplicate card 4c: cards 1 and 2 of the hand"
    assert info.value.row == 2
    hands[2] = [8, 9, 10]
    with pytest.raises(InvalidHandError, match=r"row 3: card 1: card index 60 is out of range \(0..51\)"):
        prial.evaluate_batch(hands)


@pytest.mark.parametrize(
    "array, needle",
    [
        (np.zeros((4, 3), dtype=np.int64), "got dtype int64"),
        (np.zeros((4, 3), dtype=np.int8), "got dtype int8"),
        (np.zeros((4, 3), dtype=np.float32), "got dtype float32"),
        (np.zeros((4, 4), dtype=np.uint8), "got shape (4, 4)"),
        (np.zeros(12, dtype=np.uint8), "got shape (12,)"),
        (np.zeros((2, 3, 3), dtype=np.uint8), "got shape (2, 3, 3)"),
        (np.zeros((3, 8), dtype=np.uint8)[:, ::3], "non-contiguous"),
        (np.zeros((3, 4), dtype=np.uint8)[:, :3], "non-contiguous"),
        ([[7, 2, 50]], "got list"),
    ],
)
def test_batch_rejects_bad_arrays(array, needle):
    with pytest.raises(InvalidHandError) as info:
        prial.evaluate_batch(array)
    assert needle in str(info.value)


def test_batch_never_copies_and_handles_empty():
    assert prial.evaluate_batch(np.zeros((0, 3), dtype=np.uint8)).shape == (0,)
    assert prial.evaluate_batch(np.zeros((0, 3), dtype=np.uint8)).dtype == np.uint16


def test_bad_threads():
    hands = np.array([[0, 1, 2]], dtype=np.uint8)
    with pytest.raises(InvalidHandError, match="threads"):
        prial.evaluate_batch(hands, threads=0)


def test_every_byte_value_is_rejected_or_evaluated():
    """Hostile bytes never crash: every out-of-range value is named."""
    for value in range(52, 256):
        hands = np.array([[0, 1, 2], [3, value, 4]], dtype=np.uint8)
        with pytest.raises(InvalidHandError, match=f"row 1: card 2: .*{value}"):
            prial.evaluate_batch(hands)
