"""A deal whose rows are not consecutive in the log is never adjudicated
from part of its rows: every row of it gets a deal_problem, whether its
parts fall in one chunk or in several."""

from __future__ import annotations

import csv

import pytest

import prial

LOG = """deal_id,player,cards,folded,won
1,a,As Ad Ah,false,true
2,c,3s 2h 4d,false,true
2,d,7s 8h Tc,false,false
1,b,Kd Kh Kc,false,false
3,e,Qs Qd 2c,false,true
3,f,Js 9d 4c,false,false
4,g,2s 5h 9c,false,false
1,h,7d 7c 7h,false,false
4,i,Ks 8d 3c,false,true
"""


@pytest.mark.parametrize("chunk_rows", [100, 4, 2, 1])
def test_every_row_of_a_split_deal_has_a_problem_and_no_winner(tmp_path, chunk_rows):
    log = tmp_path / "log.csv"
    log.write_text(LOG)
    out = tmp_path / "out.csv"
    summary = prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=chunk_rows))
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 9 and summary.bad_rows == 0  # the hands are fine: only the deals are not
    split = {"1", "4"}  # deal 4 is split too: rows 7 and 9
    for row in rows:
        if row["deal_id"] in split:
            assert row["winner"] == "" and row["winners"] == "", row
            assert "not consecutive" in row["deal_problem"], row
        else:
            assert row["deal_problem"] == "" and row["winner"] in ("true", "false"), row
    winners = {row["player"] for row in rows if row["winner"] == "true"}
    assert winners == {"c", "e"}  # the run 4-3-2 beats ten high; the pair of queens beats jack high


def test_consecutive_deals_are_unaffected(tmp_path):
    log = tmp_path / "log.csv"
    prial.write_sample_log(str(log), 500, seed=4)
    first = prial.score_file(log, tmp_path / "a.csv", options=prial.ScoreOptions(chunk_rows=7))
    assert first.invalid_deals == prial.score_file(log, tmp_path / "b.csv").invalid_deals
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
