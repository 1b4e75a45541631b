"""A value of the wrong type (cards a number, a flag that is neither true
nor false, a line that is not JSON) sends its row to the errors file with
its line number, and the job goes on, in CSV and JSON Lines alike, where
the row falls in the file."""

from __future__ import annotations

import csv
import json

import pytest

import prial


def errors_of(summary) -> list[dict]:
    with open(summary.errors, newline="") as f:
        return list(csv.DictReader(f))


def jsonl(tmp_path, records: list, name: str = "log.jsonl"):
    path = tmp_path / name
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def deals(n: int) -> list[dict]:
    log = prial.sample_deals(n, seed=3).to_pylist()
    return log


@pytest.mark.parametrize("where", [0, 1, 2, pytest.param("late", marks=pytest.mark.slow)])
def test_a_number_for_cards_in_json_lines(tmp_path, where):
    records = deals(40_000 if where == "late" else 400)
    index = 150_000 if where == "late" else where  # late: past the first blocks Arrow reads (8 MiB)
    records[index]["cards"] = 5
    summary = prial.score_file(jsonl(tmp_path, records), tmp_path / "out.jsonl")
    assert (summary.rows_in, summary.bad_rows, summary.rows_out) == (len(records), 1, len(records) - 1)
    [error] = errors_of(summary)
    assert error["line"] == str(index + 1) and error["row"] == str(index + 1)
    assert error["reason"] == "cards: expected text, got 5"
    with open(tmp_path / "out.jsonl") as f:
        scored = [json.loads(line) for line in f]
    assert len(scored) == len(records) - 1 and all("strength" in row for row in scored)


def test_a_line_that_is_not_json_and_a_flag_of_the_wrong_type(tmp_path):
    records = deals(50)
    records[7]["folded"] = "maybe"
    records[9] = "{not json"
    records[11]["won"] = 3
    summary = prial.score_file(jsonl(tmp_path, records), tmp_path / "out.jsonl")
    reasons = {int(e["line"]): e["reason"] for e in errors_of(summary)}
    assert reasons[8] == "folded: 'maybe' is neither true nor false"
    assert reasons[10].startswith("not a JSON object")
    assert reasons[12] == "won: 3 is neither true nor false"
    assert summary.bad_rows == 3 and summary.complete


def test_csv_flags_that_are_neither_true_nor_false(tmp_path):
    log = tmp_path / "log.csv"
    log.write_text("deal_id,player,cards,folded,won\n"
                   "1,a,As Ad Ah,maybe,true\n"
                   "1,b,Kd Kh Kc,no,0\n"
                   "2,c,2s 3s 4s,FALSE,yes\n"
                   "2,d,7d 8h Tc,1,\n")
    summary = prial.score_file(log, tmp_path / "out.csv")
    [error] = errors_of(summary)
    assert (error["line"], error["reason"]) == ("2", "folded: 'maybe' is neither true nor false")
    with open(tmp_path / "out.csv", newline="") as f:
        rows = {r["player"]: r for r in csv.DictReader(f)}
    assert rows["c"]["winner"] == "true" and rows["c"]["dispute"] == "false"  # d folded ("1")
    assert rows["d"]["folded"] == "true" and rows["b"]["folded"] == "false"


def csv_with_misshapen_rows(tmp_path, deals: int = 50, lines: dict[int, str] | None = None):
    """A sample CSV log with some lines (1-based, the header is line 1) given a field too many or too few."""
    log = tmp_path / "log.csv"
    prial.write_sample_log(str(log), deals, seed=9)
    text = log.read_text().splitlines(keepends=True)
    for line, how in (lines or {10: "more", 20: "fewer"}).items():
        body = text[line - 1].rstrip("\n")
        text[line - 1] = (body + ",extra" if how == "more" else body.rsplit(",", 1)[0]) + "\n"
    log.write_text("".join(text))
    return log


@pytest.mark.parametrize("chunk_rows", [1, 3, 1_000_000])
def test_a_csv_row_of_the_wrong_number_of_fields_goes_to_the_errors_file(tmp_path, chunk_rows):
    """Line 10 (deal 2's first row) has a field too many, line 20 (inside
    deal 4) one too few: each goes to the errors file with its line, every
    other row is scored, and the deals it may belong to are not adjudicated."""
    log = csv_with_misshapen_rows(tmp_path)
    summary = prial.score_file(log, tmp_path / "out.csv", options=prial.ScoreOptions(chunk_rows=chunk_rows))
    assert (summary.rows_in, summary.rows_out, summary.bad_rows) == (200, 198, 2) and summary.complete
    first, second = errors_of(summary)
    assert (first["row"], first["line"]) == ("9", "10")
    assert first["reason"] == '8 fields where the header has 7: 2,0,"9s Th Ks",false,false,false,true,extra'
    assert (second["line"], second["reason"][:34]) == ("20", "6 fields where the header has 7: 4")
    with open(tmp_path / "out.csv", newline="") as f:
        unadjudicated = {r["deal_id"] for r in csv.DictReader(f) if r["deal_problem"]}
    assert unadjudicated == {"1", "2", "4"} and summary.deals == 50


def test_strict_stops_at_a_misshapen_csv_row(tmp_path):
    log = csv_with_misshapen_rows(tmp_path)
    with pytest.raises(prial.ScoreError, match=r"^row 9 \(line 10\): 8 fields where the header has 7"):
        prial.score_file(log, tmp_path / "out.csv", options=prial.ScoreOptions(strict=True))


def test_the_audit_leaves_out_a_misshapen_csv_row(tmp_path):
    log = csv_with_misshapen_rows(tmp_path)
    result = prial.audit_file(log)
    assert (result.rows, result.bad_rows, result.deals) == (200, 2, 50)
