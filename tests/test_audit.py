"""prial audit: dealing tested against a fair shuffle's exact laws, per
group and Holm-corrected; impossible deals; payouts against adjudication;
every log format and engine; bad input said in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import prial
from prial.audit import AuditOptions, audit_file, audit_table
from prial.cli import main

from .audit_logs import ACES, favour_pairs, give_aces, hands_of, log_table, shuffles

BY_DEALER = AuditOptions(by=("dealer",))


def fair_log(deals: int, seed: int, players: int = 4, width: int = 3, dealers: int = 4) -> pa.Table:
    return log_table(hands_of(shuffles(deals, seed), players, width), seed=seed, dealers=dealers)


def group_tests(result, kind: str) -> dict:
    return {tuple(t.group.values()): t for t in result.dealing[kind]}


def test_a_fair_log_fits_in_every_group():
    result = audit_table(fair_log(20_000, seed=11), BY_DEALER)
    for kind, df in (("categories", 4 * 5), ("cards", 4 * 51)):
        tests = result.dealing[kind]
        assert [t.group for t in tests] == [{"dealer": d} for d in range(4)]
        assert all(t.deals == 5_000 and t.seats == [0, 1, 2, 3] and t.df == df for t in tests)
        assert not result.flagged(kind) and all(0 < t.p_value <= t.p_adjusted <= 1 for t in tests)
        assert "fit fair dealing in all 4 groups" in result.summaries[kind]
    assert result.summaries["impossible"] == "No deal held a card twice."
    assert (result.rows, result.bad_rows, result.deals) == (80_000, 0, 20_000)


def test_a_seat_dealt_aces_too_often_is_found_and_no_other_dealer():
    order = shuffles(60_000, seed=12)
    rigged = (np.arange(60_000) % 4 == 1) & (np.random.default_rng(1).random(60_000) < 0.08)
    result = audit_table(log_table(hands_of(give_aces(order, rigged, 2, 3, 4), 4, 3), dealers=4), BY_DEALER)
    flagged = result.flagged("cards")
    assert [t.group for t in flagged] == [{"dealer": 1}]
    effect = flagged[0].effect
    assert effect.seat == 2 and prial.parse_cards(effect.what)[0] in ACES and effect.residual > 4
    assert "dealer=1" in result.summaries["cards"] and "seat 2" in result.summaries["cards"]


def test_a_dealer_whose_shuffles_favour_pairs_is_found():
    order = shuffles(40_000, seed=13)
    rigged = (np.arange(40_000) % 4 == 2) & (np.random.default_rng(2).random(40_000) < 0.3)
    result = audit_table(log_table(hands_of(favour_pairs(order, rigged, 4, seed=99), 4, 3), dealers=4), BY_DEALER)
    flagged = result.flagged("categories")
    assert [t.group for t in flagged] == [{"dealer": 2}]
    assert flagged[0].effect.what == "PAIR" and flagged[0].effect.residual > 0
    pair = next(f for f in flagged[0].frequencies if f.what == "PAIR")
    assert pair.observed > pair.high  # outside the range of a fair log
    fair = group_tests(result, "categories")[(0,)]
    assert all(f.low <= f.expected <= f.high for f in fair.frequencies)


def test_groups_are_corrected_with_holm():
    result = audit_table(fair_log(8_000, seed=14, dealers=8), BY_DEALER)
    tests = result.dealing["categories"]
    order = sorted(tests, key=lambda t: t.p_value)
    running = 0.0
    for rank, test in enumerate(order):
        running = max(running, min(1.0, (8 - rank) * test.p_value))
        assert test.p_adjusted == pytest.approx(running)


def test_impossible_deals_are_counted_listed_and_left_out_of_the_tests():
    hands = hands_of(shuffles(3_000, seed=15), 4, 3).copy()
    broken = [7, 100, 2_001]
    for deal in broken:
        hands[deal, 3, 0] = hands[deal, 0, 1]  # one card held twice
    result = audit_table(log_table(hands, dealers=2), BY_DEALER)
    listed = {g.group["dealer"]: g for g in result.impossible}
    assert {d: g.listed for d, g in listed.items()} == {1: [7, 2_001], 0: [100]}
    assert sum(g.deals for g in result.impossible) == 3 and "3 deals held a card twice" in result.summaries["impossible"]
    assert sum(t.deals for t in result.dealing["categories"]) == 3_000 - 3


def test_dispute_rates_are_those_of_the_scored_log(tmp_path):
    log = tmp_path / "deals.parquet"
    prial.write_sample_log(log, 6_000, seed=16)
    table = pq.read_table(log)
    table = table.append_column("table", pc.cast(pc.bit_wise_and(table["deal_id"], 1), pa.string()))
    pq.write_table(table, log)
    prial.score_file(log, tmp_path / "scored.parquet")
    scored = pq.read_table(tmp_path / "scored.parquet").to_pylist()
    counts: dict[str, list[int]] = {}
    disputed: dict[str, list[int]] = {}
    for row in scored:
        if row["player"] == 0 and row["dispute"] is not None:
            counts.setdefault(row["table"], [0, 0])[0] += 1
            counts[row["table"]][1] += row["dispute"]
            if row["dispute"]:
                disputed.setdefault(row["table"], []).append(row["deal_id"])
    result = audit_file(log, options=AuditOptions(by=("table",), limit=None))
    got = {g.group["table"]: g for g in result.payouts}
    assert {k: [g.adjudicated, g.disputes] for k, g in got.items()} == counts
    assert {k: g.disputed_deals for k, g in got.items()} == disputed
    for g in got.values():
        assert g.low < g.rate < g.high
    limited = audit_file(log, options=AuditOptions(by=("table",), limit=5))
    assert all(g.disputed_deals == disputed[g.group["table"]][:5] for g in limited.payouts)


@pytest.mark.parametrize("width", [4, 5])
def test_four_and_five_card_deals_have_their_own_law(width):
    result = audit_table(fair_log(12_000, seed=17 + width, width=width, dealers=0))
    categories, cards = result.dealing["categories"][0], result.dealing["cards"][0]
    assert categories.cards == cards.cards == width and categories.df == 4 * 5 and cards.df == 4 * 51
    assert not result.flagged("categories") and not result.flagged("cards")
    # The same hands judged by the three-card law would not fit: four cards make more pairs.
    assert categories.frequencies[1].expected > prial.odds(cards=3).rows[-2].probability


def test_mixed_hand_sizes_are_tested_apart():
    three = fair_log(3_000, seed=20, dealers=0)
    four = fair_log(3_000, seed=21, width=4, dealers=0)
    four = four.set_column(0, "deal_id", pc.add(four["deal_id"], 3_000))
    result = audit_table(pa.concat_tables([three, four]))
    assert sorted(t.cards for t in result.dealing["categories"]) == [3, 4]
    assert "(brag, 3 cards)" in result.summaries["categories"] or not result.flagged("categories")


def test_groups_that_stand_out_name_their_hand_size_in_a_mixed_log(tmp_path, capsys):
    order = shuffles(20_000, seed=31)
    three = log_table(hands_of(favour_pairs(order, np.ones(20_000, bool), 4, seed=32), 4, 3))
    four = fair_log(3_000, seed=33, width=4, dealers=0)
    four = four.set_column(0, "deal_id", pc.add(four["deal_id"], 20_000))
    pq.write_table(pa.concat_tables([three, four]), tmp_path / "mixed.parquet")
    assert main(["audit", str(tmp_path / "mixed.parquet"), "--progress", "none"]) == 0
    table = capsys.readouterr().out.split("Hand categories:")[1].split("Cards per seat:")[0]
    assert "\nall deals (brag, 3 cards)  " in table and "4 cards)  " not in table


def test_deals_with_different_numbers_of_players():
    deals = 20_000
    present = np.random.default_rng(22).random((deals, 6)) < 0.7
    present[:, :2] = True
    result = audit_table(log_table(hands_of(shuffles(deals, 23), 6, 3), present=present))
    test = result.dealing["categories"][0]
    assert test.seats == [0, 1, 2, 3, 4, 5] and test.df == 6 * 5
    assert not result.flagged("categories") and not result.flagged("cards")


def test_a_scored_log_audits_as_its_log(tmp_path):
    log = tmp_path / "deals.parquet"
    prial.write_sample_log(log, 2_000, seed=24)
    prial.score_file(log, tmp_path / "scored.parquet")
    raw = audit_file(log).to_dict()
    scored = audit_file(tmp_path / "scored.parquet").to_dict()
    for d in (raw, scored):
        d.pop("input"), d.pop("seconds"), d.pop("rows_per_second")
    assert raw == scored


def test_every_format_and_engine_finds_the_same(tmp_path):
    table = fair_log(4_000, seed=25, dealers=2)
    pq.write_table(table, tmp_path / "log.parquet", row_group_size=2_000)
    pacsv.write_csv(table, tmp_path / "log.csv")
    with open(tmp_path / "log.jsonl", "w") as out:
        for row in table.to_pylist():
            out.write(json.dumps(row) + "\n")
    options = AuditOptions(by=("dealer",), chunk_rows=3_001)  # chunks that cut deals: they are carried over
    found = []
    for name, engine in (("log.parquet", "local"), ("log.csv", "local"), ("log.jsonl", "local"),
                         ("log.parquet", "dask")):
        d = audit_file(tmp_path / name, options=options, engine=engine).to_dict()
        for key in ("input", "seconds", "rows_per_second"):
            d.pop(key)
        found.append(json.loads(json.dumps(d, default=str)))
    assert all(f == found[0] for f in found[1:])
    assert found[0] == json.loads(json.dumps({k: v for k, v in audit_table(table, options).to_dict().items()
                                              if k not in ("input", "seconds", "rows_per_second")}, default=str))


def test_a_plain_file_of_hands_is_one_seat():
    table = pa.table({"cards": [prial.format_cards(h.tolist()) for h in shuffles(5_000, 26)[:, :3]]})
    result = audit_table(table)
    assert result.dealing["categories"][0].seats == [0] and result.dealing["categories"][0].df == 5
    assert result.payouts[0].adjudicated == 0 and "no payout was checked" in result.summaries["payouts"]


def test_too_few_deals_are_reported_untested():
    result = audit_table(fair_log(10, seed=27, dealers=0))
    assert all(t.p_value is None and t.untested for kind in ("categories", "cards") for t in result.dealing[kind])
    assert "No group had enough deals" in result.summaries["cards"]


# ---- the command line ----

def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "prial", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("audit") / "deals.parquet"
    pq.write_table(fair_log(3_000, seed=28, dealers=3), path)
    return path


def test_cli_summary_and_json(log):
    done = run("audit", str(log), "--by", "dealer", "--progress", "none")
    assert done.returncode == 0 and done.stderr == ""
    assert "3 groups" in done.stdout and "Payouts:" in done.stdout and "dealer=2" in done.stdout
    as_json = run("audit", str(log), "--by", "dealer", "--json", "--progress", "none")
    found = json.loads(as_json.stdout)
    assert set(found["summaries"]) == {"categories", "cards", "impossible", "payouts"}
    assert [g["group"] for g in found["dealing"]["cards"]["groups"]] == [{"dealer": d} for d in range(3)]


@pytest.mark.parametrize("args, code, message", [
    (["--by", "table"], 2, "--by table: no such column"),
    (["--seat", "cards"], 2, "seat column 'cards' must hold seat numbers"),
    (["--alpha", "1.5"], 2, "must be between 0 and 1"),
    (["--by", "dealer", "--by", "dealer"], 2, "names a column twice"),
    (["--format", "csv"], 2, ""),  # a Parquet file read as CSV: one line, whatever the reader says
])
def test_cli_bad_options_say_what_in_one_line(log, args, code, message):
    done = run("audit", str(log), *args)
    assert done.returncode in (code, 1) and done.stdout == ""
    assert done.stderr.startswith("prial: error: ") and done.stderr.count("\n") == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_groups_need_plain_values(tmp_path):
    table = fair_log(100, seed=30, dealers=0)
    table = table.append_column("hands", pa.array([[1, 2]] * table.num_rows))
    pq.write_table(table, tmp_path / "nested.parquet")
    done = run("audit", str(tmp_path / "nested.parquet"), "--by", "hands")
    assert done.returncode == 2 and "a column of lists or records cannot name a group" in done.stderr


def test_cli_seats_repeated_in_a_deal(tmp_path):
    table = fair_log(500, seed=29, dealers=0)
    table = table.set_column(1, "player", pa.array(np.zeros(table.num_rows, np.int8)))
    pq.write_table(table, tmp_path / "one_seat.parquet")
    done = run("audit", str(tmp_path / "one_seat.parquet"))
    assert done.returncode == 2 and "seats two players at one seat" in done.stderr and "--seat" in done.stderr


def test_cli_missing_log_and_report_targets(log, tmp_path):
    missing = run("audit", str(tmp_path / "nope.parquet"))
    assert missing.returncode == 1 and "no such input file" in missing.stderr
    report = tmp_path / "report.html"
    report.write_text("keep me")
    exists = run("audit", str(log), "--report", str(report))
    assert exists.returncode == 1 and "--overwrite" in exists.stderr and report.read_text() == "keep me"
    onto_log = run("audit", str(log), "--report", str(log), "--overwrite")
    assert onto_log.returncode == 1 and "replace the log" in onto_log.stderr
    nowhere = run("audit", str(log), "--report", str(tmp_path / "no" / "dir" / "r.html"))
    assert nowhere.returncode == 1 and "no such directory" in nowhere.stderr


def test_cli_report_without_matplotlib_says_which_extra(log, tmp_path):
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] == 'matplotlib':\n"
            "            raise ModuleNotFoundError(name=name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from prial.cli import main\n"
            f"sys.exit(main(['audit', {str(log)!r}, '--report', {str(tmp_path / 'r.html')!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and 'pip install "prial[report]"' in done.stderr
    assert not (tmp_path / "r.html").exists()
    plain = subprocess.run([sys.executable, "-c", code.replace(f", '--report', {str(tmp_path / 'r.html')!r}", "")],
                           capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0 and "Hand categories:" in plain.stdout


def test_cli_in_process(log, capsys):
    assert main(["audit", str(log), "--progress", "none", "--list", "0"]) == 0
    assert "Cards per seat:" in capsys.readouterr().out


def test_rare_categories_are_pooled_until_each_cell_expects_five():
    result = audit_table(fair_log(40, seed=27, dealers=0))
    test = result.dealing["categories"][0]
    # 40 hands a seat: every category but high card pooled (0.256 x 40 >= 5), two cells a seat.
    assert test.df == 4 * 1 and test.p_value is not None
    assert result.dealing["cards"][0].untested  # 40 x 3/52 < 5 hands of each card a seat


def test_uncontested_deals_and_deals_without_a_result_are_counted_apart(tmp_path):
    from .test_score import UNCHECKED

    log = tmp_path / "unchecked.csv"
    log.write_text(UNCHECKED)
    result = prial.audit_file(log, options=prial.AuditOptions(seat="no such column"))  # players seated in order
    [group] = result.payouts
    assert (group.adjudicated, group.disputes, group.uncontested, group.no_result) == (2, 1, 2, 2)
    assert result.summaries["payouts"] == (
        "1 of 2 adjudicated deals (50.00%, 95 % interval 9.45% to 90.55%) record a winner other than prial's "
        "adjudication; not counted as disputes: 2 uncontested (one player) and 2 with no result recorded (no "
        "player logged as the winner).")
    assert {"uncontested": 2, "no_result": 2}.items() <= result.to_dict()["payouts"].items()
