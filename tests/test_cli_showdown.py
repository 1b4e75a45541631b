"""`prial showdown` and `prial odds`, run as a user runs them."""

from __future__ import annotations

import json

from .test_cli import prial_cli


def test_showdown_table_names_winner_and_reason():
    out = prial_cli("showdown", "3s 2h Ah", "Kd Kh 4c", "--seer", "2").stdout
    assert "Run, 3-2-A" in out and "Pair of kings, four kicker" in out
    assert "see: player 1 wins (seen player wins: Run, 3-2-A beats Pair of kings" in out


def test_showdown_json_with_stakes_and_cover():
    out = prial_cli("showdown", "7s 7h Qc", "7d 7c Qh", "As Ad 2h", "--stakes", "5", "6", "0",
                    "--coverer", "3", "--old-pot", "9", "--json").stdout
    data = json.loads(out)
    assert data["winners"] == ["1", "2"] and data["payouts"] == {"1": 6, "2": 5, "3": 9}
    assert data["cover"]["winners"] == ["3"]


def test_showdown_four_cards_discard_reason():
    out = prial_cli("showdown", "As Ad Kh 9c", "Ac Ah Kd 7c", "--seer", "1").stdout
    assert "discard decides: 9 beats 7" in out


def test_showdown_rejects_seeing_a_blind_man():
    result = prial_cli("showdown", "3s 2h Ah", "Kd Kh 4c", "--seer", "1", "--blind", "2", check=False)
    assert result.returncode == 2 and "cannot see a blind man" in result.stderr


def test_showdown_rejects_a_seat_out_of_range():
    result = prial_cli("showdown", "3s 2h Ah", "Kd Kh 4c", "--seer", "3", check=False)
    assert result.returncode == 2 and "--seer 3: players are numbered 1..2" in result.stderr


def test_odds_table_and_equity():
    out = prial_cli("odds").stdout
    assert "22,100" in out and "Prial" in out and "16440" in out
    assert json.loads(prial_cli("odds", "--cards", "4", "--json").stdout)["odds"]["total"] == 270725
    data = json.loads(prial_cli("odds", "--hand", "7s 7h Qc", "--json").stdout)
    assert data["odds"]["total"] == 22100  # the table of the hand's size
    assert data["equity"]["exact"] and 0.81 < data["equity"]["win"] < 0.82
    assert 0.81 < data["percentile"] < 0.82
