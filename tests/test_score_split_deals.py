"""A deal whose rows are not consecutive in the log is never adjudicated
from part of its rows: every row of it gets a deal_problem, whether its
parts fall in one chunk or in several."""

from __future__ import annotations

import csv
import json

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


def blank_deal_id(lines: list[str], index: int) -> list[str]:
    """The CSV lines with the deal_id of line ``index`` (0: the header) left empty."""
    lines = list(lines)
    lines[index] = "," + lines[index].split(",", 1)[1]
    return lines


def problem_deals(path) -> dict[str, str]:
    with open(path, newline="") as f:
        return {row["deal_id"]: row["deal_problem"] for row in csv.DictReader(f) if row["deal_problem"]}


@pytest.mark.parametrize("chunk_rows", [1, 2, 3, 4, 7, 1_000])
@pytest.mark.parametrize("line, neighbours", [(102, {"24", "25"}), (101, {"24", "25"}), (2, {"0"}),
                                              (201, {"49"}), (103, {"25"})])
def test_a_row_without_deal_id_leaves_the_deals_either_side_unadjudicated(tmp_path, chunk_rows, line, neighbours):
    """Line 102 is deal 25's first row, 101 deal 24's last: the row may
    be of either, so neither is adjudicated from the others alone; one in
    the middle of deal 25 (103) concerns it alone.  Wherever the chunks
    are cut, and the row is no deal of its own (50 deals, not 51)."""
    log = tmp_path / "log.csv"
    prial.write_sample_log(str(log), 50, seed=9)
    log.write_text("".join(blank_deal_id(log.read_text().splitlines(keepends=True), line - 1)))
    out = tmp_path / "out.csv"
    summary = prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=chunk_rows))
    assert (summary.deals, summary.invalid_deals, summary.bad_rows) == (50, len(neighbours), 1)
    problems = problem_deals(out)
    assert set(problems) == neighbours
    assert all("has no deal_id" in why for why in problems.values())
    with open(summary.errors, newline="") as f:
        [error] = list(csv.DictReader(f))
    assert (error["line"], error["reason"]) == (str(line), "deal_id missing")


def test_rows_without_deal_id_at_chunk_edges_give_one_output(tmp_path):
    log = tmp_path / "log.csv"
    prial.write_sample_log(str(log), 30, seed=2)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(blank_deal_id(blank_deal_id(blank_deal_id(lines, 40), 41), 77)))
    outputs = set()
    for chunk_rows in (1, 2, 3, 5, 40, 41, 1_000):
        out = tmp_path / f"out{chunk_rows}.csv"
        summary = prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=chunk_rows))
        assert summary.deals == 30
        outputs.add(out.read_bytes())
    assert len(outputs) == 1
    assert set(problem_deals(out)) == {"9", "10", "18", "19"}


@pytest.mark.parametrize("cut", ["last", "boundary"])
def test_a_broken_json_line_leaves_its_neighbours_unadjudicated(tmp_path, cut):
    """A truncated last line (a log cut short) or a line broken at a deal's
    edge: its deal_id cannot be read."""
    log = tmp_path / "log.jsonl"
    prial.write_sample_log(str(log), 50, seed=9)
    lines = log.read_text().splitlines(keepends=True)
    index = len(lines) - 1 if cut == "last" else 100  # 100: deal 25's first row
    lines[index] = lines[index][:20] + ("\n" if cut == "boundary" else "")
    log.write_text("".join(lines))
    out = tmp_path / "out.jsonl"
    summary = prial.score_file(log, out, options=prial.ScoreOptions(chunk_rows=3))
    assert (summary.deals, summary.bad_rows) == (50, 1)
    with open(out) as f:
        problems = {row["deal_id"] for row in map(json.loads, f) if row["deal_problem"]}
    assert problems == ({49} if cut == "last" else {24, 25})
