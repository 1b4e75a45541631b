"""prial audit on hand histories: rates of illegal actions and mispaid
deals per group, tested against the rest of the log; the players' nets and
play; the dealing tests on the deals dealt from a shuffled pack."""

from __future__ import annotations

import json
import re

import pytest

import prial
from prial.audit import AuditOptions, HistoryAuditResult, audit_file, audit_histories, write_report
from prial.cli import main
from prial.table import Fault, TableRules, read_record, sample_histories

TEEN_PATTI = TableRules(game="teen_patti")


def sampled(deals: int, seed: int, faults=(), table: TableRules = TEEN_PATTI):
    return list(sample_histories(table, deals, seed=seed, faults=faults))


def histories_of(samples):
    return [read_record(s.record) for s in samples]


@pytest.fixture(scope="module")
def faulty():
    """Dealer p1's deals hold short stakes, dealer p2's record wrong winners."""
    return sampled(4_000, seed=11, faults=[Fault("short-stake", 0.06, dealer="p1"),
                                           Fault("wrong-winner", 0.06, dealer="p2")])


def labels(groups):
    return [g.group for g in groups]


def test_the_faulty_dealer_stands_out_and_no_other(faulty):
    result = audit_histories(histories_of(faulty), AuditOptions(by=("dealer",)))
    assert isinstance(result, HistoryAuditResult)
    assert labels(result.flagged_groups("illegal")) == [{"dealer": "p1"}]
    assert labels(result.flagged_groups("mispaid")) == [{"dealer": "p2"}]
    for kind in ("illegal", "mispaid"):
        for group in result.rates[kind]:
            assert group.p_adjusted is not None and (group.p_adjusted < 0.01) == group.flagged
    # The offending deals are those planted, with the action's index and code.
    planted = {s.record["deal_id"]: s for s in faulty if s.fault == "short-stake"}
    listed = {o.deal_id: o for g in result.rates["illegal"] for o in g.offences}
    assert set(listed) == set(planted) and 0 < len(planted) < 100
    for deal_id, offence in listed.items():
        assert (offence.finding, offence.action_index, offence.code) == (
            "illegal_action", planted[deal_id].action_index, planted[deal_id].code)


def test_fault_free_logs_flag_nothing():
    for seed, by in ((21, ("dealer",)), (22, ("day",)), (23, ("player",))):
        result = audit_histories(histories_of(sampled(2_000, seed=seed)), AuditOptions(by=by))
        assert not result.flagged_groups("illegal") and not result.flagged_groups("mispaid")
        assert all(g.hits == 0 for kind in ("illegal", "mispaid") for g in result.rates[kind])
        assert not result.flagged("categories") and not result.flagged("cards")


def test_rates_and_players_equal_a_plain_recount(faulty):
    result = audit_histories(histories_of(faulty), AuditOptions(by=("dealer",), limit=None))
    for dealer in ("p0", "p1", "p2", "p3"):
        mine = [s for s in faulty if s.record["players"][s.record["dealer"]]["id"] == dealer]
        illegal = next(g for g in result.rates["illegal"] if g.group == {"dealer": dealer})
        mispaid = next(g for g in result.rates["mispaid"] if g.group == {"dealer": dealer})
        assert (illegal.trials, illegal.hits) == (len(mine), sum(s.fault == "short-stake" for s in mine))
        recorded = [s for s in mine if s.record.get("outcome")]
        assert (mispaid.trials, mispaid.hits) == (len(recorded), sum(s.fault == "wrong-winner" for s in mine))
        assert mispaid.low <= mispaid.rate <= mispaid.high
        assert sorted(o.deal_id for o in mispaid.offences) == sorted(
            s.record["deal_id"] for s in mine if s.fault == "wrong-winner")
    for line in result.players:
        deals = [s.record for s in faulty if any(p["id"] == line.player for p in s.record["players"])]
        net = sum(r["outcome"]["nets"].get(line.player, 0) for r in deals if r.get("outcome"))

        def played(record, kinds, blind_only=False):
            for action in record["actions"]:
                if action["player"] != line.player:
                    continue
                if blind_only and action["kind"] == "look":
                    return False
                if action["kind"] in kinds:
                    return True
            return False

        assert (line.deals, line.net) == (len(deals), net)
        assert line.blind == sum(played(r, ("stake", "see"), blind_only=True) for r in deals)
        assert line.see == sum(played(r, ("see",)) for r in deals)
        assert line.fold == sum(played(r, ("fold",)) for r in deals)
        assert 0 < line.blind < line.deals and 0 < line.fold < line.deals


def test_by_player_counts_each_player_at_fault():
    samples = sampled(2_000, seed=31, faults=[Fault("short-stake", 0.05)])
    result = audit_histories(histories_of(samples), AuditOptions(by=("player",), limit=None))
    for group in result.rates["illegal"]:
        player = group.group["player"]
        at_fault = [s for s in samples if s.fault == "short-stake"
                    and s.record["actions"][s.action_index]["player"] == player]
        assert (group.trials, group.hits) == (2_000, len(at_fault))
    # The dealing tests count each player's own hand.
    assert sum(t.deals for t in result.dealing["categories"]) == 4 * 2_000


def test_carried_packs_and_kept_hands_are_left_out_of_the_dealing_tests():
    samples = sampled(1_200, seed=41)
    records = [dict(s.record) for s in samples]
    for record in records[:30]:
        record["carried"] = {"pack_seed": 5}
    for record in records[30:50]:
        record["carried"] = {"retained": {"player": "p1", "cards": record["cards"][1]}}
    result = audit_histories([read_record(r) for r in records])
    assert result.left_out["carried_pack"] == 30 and result.left_out["retained_hand"] == 20
    assert result.dealing_deals == 1_150 == result.dealing["categories"][0].deals
    assert "30 dealt from a pack carried from the deal before" in result.summaries["left_out"]
    assert "20 with a hand kept from the deal before" in result.summaries["left_out"]


def test_four_card_deals_are_tested_on_all_their_cards():
    samples = sampled(600, seed=51, table=TableRules(game="four_card_brag"))
    result = audit_histories(histories_of(samples))
    test = result.dealing["cards"][0]
    assert (test.cards, test.deals) == (4, 600)


def test_a_history_file_is_told_by_its_records(tmp_path, faulty, capsys):
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(s.record) + "\n" for s in faulty[:1_000]))
    result = audit_file(path, options=AuditOptions(by=("dealer",)))
    assert isinstance(result, HistoryAuditResult) and result.deals == 1_000
    same = audit_histories(histories_of(faulty[:1_000]), AuditOptions(by=("dealer",)))
    assert [g.to_dict() for g in result.rates["illegal"]] == [g.to_dict() for g in same.rates["illegal"]]
    assert main(["audit", str(path), "--by", "dealer", "--json", "--progress", "none"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["histories"] is True and data["rates"]["illegal"]["flagged"] == ["dealer=p1"]
    assert main(["audit", str(path), "--by", "seat", "--progress", "none"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "--by seat" in error and "dealer, table, day, player" in error


def test_bad_records_are_counted_and_left_out(tmp_path, faulty):
    path = tmp_path / "deals.jsonl"
    lines = [json.dumps(s.record) for s in faulty[:200]]
    lines[5] = lines[5].replace('"actions"', '"acts"', 1)
    path.write_text("\n".join(lines) + "\n")
    result = audit_file(path, histories=True)
    assert (result.deals, result.bad_rows) == (199, 1)


def test_the_report_has_every_section_and_its_charts(tmp_path, faulty):
    pytest.importorskip("matplotlib")
    result = audit_histories(histories_of(faulty), AuditOptions(by=("dealer",)))
    write_report(result, tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for outside in ("http:", "https:", "<script", "<img", "src="):
        assert outside not in page
    titles = re.findall(r'<figure role="img" aria-label="([^"]+)"><svg', page)
    assert titles[:2] == ["Illegal actions: deals holding one, per group", "Payouts: mispaid deals per group"]
    assert {"Hand categories: observed and expected", "Dealing: cards per seat: p-value per group",
            "Players: net", "Players: deals played blind, seen and folded"} <= set(titles)
    for heading in ("Illegal actions", "Payouts", "Dealing: the deals tested", "Dealing: hand categories",
                    "Dealing: cards per seat", "Dealing: impossible deals", "Players"):
        assert f"<h2>{heading}</h2>" in page
    first = result.flagged_groups("illegal")[0].offences[0]
    assert f"<td>{first.deal_id}</td><td>illegal_action</td>" in page and first.code in page
    for sentence in result.summaries.values():
        assert sentence.replace("'", "&#x27;") in page


def test_a_history_log_is_audited_locally_only(tmp_path, faulty):
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(faulty[0].record) + "\n")
    with pytest.raises(prial.ScoreError, match="local engine"):
        audit_file(path, engine="dask")


@pytest.mark.parametrize("by", [("dealer",), ("player",), ("day", "table")])
def test_nested_parquet_read_by_columns_finds_what_the_records_give(tmp_path, faulty, by):
    samples = faulty[:1_500]
    records = [dict(s.record) for s in samples]
    for record in records[:10]:  # read record by record beside the column-by-column deals
        record["carried"] = {"pack_seed": 5}
    histories = [read_record(r) for r in records]
    prial.write_histories(histories, tmp_path / "deals.parquet")
    options = AuditOptions(by=by, limit=None)
    from_file = audit_file(tmp_path / "deals.parquet", options=options).to_dict()
    in_memory = audit_histories(histories, options).to_dict()
    for data in (from_file, in_memory):
        for key in ("input", "seconds", "rows_per_second", "actions_per_second"):
            data.pop(key)
    assert from_file == in_memory
    assert from_file["dealing_left_out"]["carried_pack"] == 10 and from_file["rates"]["illegal"]["hits"] > 0


def test_days_are_utc_days():
    records = [dict(s.record) for s in sampled(40, seed=61)]
    for record in records[:10]:  # late on the 1st at UTC-2: the 2nd at UTC
        record["started"] = "2026-01-01T23:30:00-02:00"
    result = audit_histories([read_record(r) for r in records], AuditOptions(by=("day",)))
    days = {g.group["day"]: g.trials for g in result.rates["illegal"]}
    assert days == {"2026-01-01": 30, "2026-01-02": 10}
