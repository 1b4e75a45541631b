"""Sample deal logs (prial sample, prial.write_sample_log): the log format
prial score reads, the same log for the same seed, every format."""

from __future__ import annotations

import json

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import prial
from prial.cli import main


def test_sample_deals_are_legal_deals():
    table = prial.sample_deals(2_000, seed=5)
    assert table.column_names == ["deal_id", "player", "cards", "blind", "seer", "folded", "won"]
    assert table.num_rows == 8_000
    rows = table.to_pylist()
    for start in range(0, len(rows), 4):
        deal = rows[start:start + 4]
        assert {r["deal_id"] for r in deal} == {start // 4} and [r["player"] for r in deal] == [0, 1, 2, 3]
        cards = [c for r in deal for c in prial.parse_cards(r["cards"])]
        assert len(cards) == 12 == len(set(cards))  # one pack: no card twice in a deal
        seers = [r for r in deal if r["seer"]]
        if seers:  # a see: the seer and one other player are left
            assert len(seers) == 1 and sum(not r["folded"] for r in deal) == 2 and not seers[0]["folded"]
    assert table.equals(prial.sample_deals(2_000, seed=5))
    assert not table.equals(prial.sample_deals(2_000, seed=6))


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_every_format_scores_whole(tmp_path, fmt):
    log = tmp_path / f"deals.{fmt}"
    assert prial.write_sample_log(log, 3_000, seed=1, players=3) == 9_000
    summary = prial.score_file(log, tmp_path / f"scored.{fmt}")
    assert (summary.rows_in, summary.rows_out, summary.bad_rows, summary.deals) == (9_000, 9_000, 0, 3_000)
    assert summary.invalid_deals == 0 and summary.disputes > 0  # 'won' is a coin toss


def test_the_same_seed_gives_the_same_log_in_any_format(tmp_path):
    prial.write_sample_log(tmp_path / "a.parquet", 700, seed=9, deals_per_row_group=300)
    prial.write_sample_log(tmp_path / "b.csv", 700, seed=9, deals_per_row_group=300)
    parquet = pq.read_table(tmp_path / "a.parquet")
    assert pq.ParquetFile(tmp_path / "a.parquet").metadata.num_row_groups == 3  # row groups of whole deals
    csv = pacsv.read_csv(tmp_path / "b.csv")
    assert parquet.column("cards").to_pylist() == csv.column("cards").to_pylist()
    assert parquet.column("deal_id").to_pylist() == [i // 4 for i in range(2_800)]


def test_cli(tmp_path, capsys):
    out = tmp_path / "log.jsonl"
    assert main(["sample", "--deals", "50", "--seed", "3", "-o", str(out)]) == 0
    assert "50 deals, 200 rows" in capsys.readouterr().out
    lines = out.read_text().splitlines()
    assert len(lines) == 200 and set(json.loads(lines[0])) == {"deal_id", "player", "cards", "blind", "seer",
                                                                "folded", "won"}
    assert out.read_text() == (prial.write_sample_log(tmp_path / "again.jsonl", 50, seed=3)
                               and (tmp_path / "again.jsonl").read_text())


@pytest.mark.parametrize("argv, message", [
    (["--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (["--deals", "5", "--players", "18"], "players must be an integer 2..17"),
    (["--deals", "5", "--format", "csv", "--seed", "-1"], "argument --seed: must be from 0 to"),
])
def test_cli_bad_values(tmp_path, capsys, argv, message):
    try:
        status = main(["sample", *argv, "-o", str(tmp_path / "x.csv")])
    except SystemExit as exc:  # refused by the option's own type
        status = exc.code
    assert status == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


def test_cli_unknown_extension(tmp_path, capsys):
    assert main(["sample", "--deals", "5", "-o", str(tmp_path / "x.txt")]) == 2
    assert "cannot tell the format" in capsys.readouterr().err
