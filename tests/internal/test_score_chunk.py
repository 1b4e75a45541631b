"""prial score's internals: the native text-column parser against
parse_cards, its statuses and reasons."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

import prial
from prial import _core
from prial.logs.chunk import parse_text_cards, score_table
from prial.logs.options import ScoreOptions

from ..test_score import hand_text

# ---- the column parser ----

def test_column_parser_agrees_with_parse_cards():
    rng = random.Random(7)
    texts, expected = [], []
    for i in range(3000):
        width = rng.choice([3, 4, 5])
        cards = rng.sample(range(52), width)
        text = hand_text(cards, i % 3)
        texts.append(text)
        expected.append(prial.parse_cards(text))
        assert expected[-1] == cards
    column = pa.array(texts)
    for array in (column, column.cast(pa.large_string()), column.slice(17),
                  pa.chunked_array([column.slice(0, 1000), column.slice(1000)])):
        skip = 17 if len(array) == len(texts) - 17 else 0
        cards, counts, status, where = parse_text_cards(array, 52)
        assert (status == 0).all() and (where == 0).all()
        for row, want in enumerate(expected[skip:]):
            assert counts[row] == len(want)
            assert cards[row, : len(want)].tolist() == want
            assert (cards[row, len(want):] == 0xFF).all()


@pytest.mark.parametrize(
    ("text", "status", "where", "message"),
    [
        (None, 1, 0, None),
        ("Zz Ah 2c", 2, 1, "card 1 ('Zz'): unknown rank 'Z'"),
        ("Ah K 2c", 3, 2, "card 2 ('K'): missing suit"),
        ("Ah 2c Kx", 4, 3, "card 3 ('Kx'): unknown suit 'x'"),
        ("X1 X1 2c", 5, 2, "card 2 ('X1'): joker X1 appears twice"),
        ("X X X X", 6, 4, "card 4 ('X'): more than three jokers"),
        ("Ah Kh Qh Jh Th 9h", 7, 6, "card 6 ('9h'): more than 5 cards"),
        ("Ah Kh Ah", 8, 3, "duplicate card Ah: cards 1 and 3 of the hand"),
        ("X Ah 2c", 9, 1, "joker X1 (index 52) but the rules have 0 joker(s)"),
    ],
)
def test_column_parser_statuses(text, status, where, message):
    cards, counts, statuses, wheres = parse_text_cards(pa.array(["As Ks Qs", text, "2c 2d 2h"]), 52)
    assert statuses.tolist() == [0, status, 0]
    assert wheres[1] == where
    assert cards[0, :3].tolist() == [51, 47, 43] and cards[2, :3].tolist() == [0, 1, 2]
    if message is not None:
        assert message in _core.text_hand_problem(text, 5, 52)
    if status in (2, 3, 4, 5, 6):  # grammar errors: parse_cards says the same
        with pytest.raises(prial.InvalidHandError, match=message.replace("(", r"\(").replace(")", r"\)")):
            prial.parse_cards(text)


def test_a_missing_row_has_the_natives_own_status():
    _, _, status, _ = parse_text_cards(pa.array(["As Ks Qs", None]), 52)
    assert status.tolist() == [0, _core.PARSE_NULL]
    result = score_table(pa.table({"cards": pa.array(["As Ks Qs", None], pa.string())}), 0, ScoreOptions(), 2)
    assert result.errors["reason"].to_pylist() == ["cards missing"]


def test_every_game_of_a_log_reads_the_jokers_of_its_rules():
    table = pa.table({"cards": ["X Ah 2c", "X2 Ah 2c", "As Ks Qs"], "game": ["teen_patti", "brag", "brag"]})
    result = score_table(table, 0, ScoreOptions(rules=prial.Rules(wild="jokers")), 2)
    assert result.table["cards"].to_pylist() == ["X Ah 2c", "As Ks Qs"]
    assert result.errors["line"].to_pylist() == [3]
    assert "joker X2 (index 53) but the rules have 1 joker(s)" in result.errors["reason"][0].as_py()


def test_column_parser_jokers_in_pack():
    _, counts, status, _ = parse_text_cards(pa.array(["X Ah 2c", "Joker X2 3d"]), 54)
    assert status.tolist() == [0, 0] and counts.tolist() == [3, 3]

