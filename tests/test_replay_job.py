"""prial replay and prial.replay_file: planted faults found where they
were planted, nothing found in fault-free logs, the column-by-column path
equal to the record-by-record one, bad records set aside."""

from __future__ import annotations

import collections
import json

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import prial
from prial.cli import main
from prial.table import FAULTS, Deal, TableRules, replay_histories, to_record

from .replay_logs import PLANTED, copies, expected, jsonl_copies, sampled, within

UNIQUE = 2_000
TIMES = 10  # 20,000 deals in the log


@pytest.fixture(scope="module")
def sample():
    return sampled(UNIQUE, seed=1, missing_every=0)


@pytest.fixture(scope="module")
def log(sample, tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "deals.parquet"
    copies(path, sample, TIMES)
    return path


def findings_of(path) -> list[dict]:
    return pq.read_table(path).to_pylist() if str(path).endswith(".parquet") else \
        [json.loads(line) for line in open(path)]


def test_every_planted_fault_is_found_at_its_rate_action_and_code(sample, log, tmp_path):
    out = tmp_path / "found.parquet"
    summary = prial.replay_file(log, out)
    rows = findings_of(out)
    assert summary.records == summary.deals == len(rows) == UNIQUE * TIMES and summary.complete
    want = expected(sample) * TIMES
    got = [(r["finding"], r["action_index"], r["code"]) for r in rows]
    assert [g[0] for g in got] == [w[0] for w in want]
    assert [g for g, w in zip(got, want) if w[0] == "illegal_action"] == \
        [w for w in want if w[0] == "illegal_action"]
    assert [r["row"] for r in rows] == list(range(UNIQUE * TIMES))
    planted = collections.Counter(s.fault for s in sample)
    for fault in PLANTED:
        assert within(planted[fault.kind], UNIQUE, fault.rate), fault
    assert summary.findings["mispaid"] == TIMES * planted["mispaid-pot"]
    assert summary.findings["wrong_winner"] == TIMES * planted["wrong-winner"]
    assert summary.findings["illegal_action"] == TIMES * (planted["see-blind"] + planted["short-stake"])
    assert summary.actions == sum(r["actions"] for r in rows)


def test_a_fault_free_log_is_all_ok(tmp_path):
    path = tmp_path / "clean.parquet"
    copies(path, sampled(500, seed=4, faults=()), 4)
    summary = prial.replay_file(path, tmp_path / "out.csv")
    assert summary.findings["ok"] == summary.deals == 2_000 and summary.bad_records == 0
    table = pacsv.read_csv(tmp_path / "out.csv")
    assert set(table["finding"].to_pylist()) == {"ok"} and set(table["detail"].to_pylist()) == {None}


def slow_path(path, label="row") -> tuple[list[dict], list[tuple[int, str]]]:
    """What reading record by record and prial.table.replay_histories give."""
    rows, errors = [], []
    for chunk in prial.iter_history_chunks(path):
        for position, f in zip(chunk.positions, replay_histories(chunk.histories)):
            row = {label: position, **f._asdict()}
            for name in ("winners", "recorded_winners"):
                row[name] = None if row[name] is None else json.dumps(list(row[name]), separators=(",", ":"))
            for name in ("nets", "recorded_nets"):
                row[name] = None if row[name] is None else json.dumps(row[name], separators=(",", ":"))
            rows.append(row)
        errors += [(e.position, e.reason) for e in chunk.errors]
    return rows, errors


def carried_records() -> list[dict]:
    table = TableRules(retain_blind=True)
    deal = Deal.start(table, ["ann", "bob", "cat"], seed=11).act("stake", 1).act("fold").act("fold")
    after = deal.next(retain=True)  # the pot stays, bob keeps his hand
    while not after.over:
        after = after.act("fold")
    return [to_record(d, deal_id=f"c{i}") for i, d in enumerate((deal, after))]


def spoil(table: pa.Table) -> pa.Table:
    """Bad records planted among good ones, each as a platform might."""
    rows = table.to_pylist()
    rows[3]["actions"][0]["kind"] = "dance"  # unknown kind
    rows[5]["actions"][1]["player"] = "zed"  # not at the table
    rows[7]["actions"][0]["amount"] = -3  # negative amount
    rows[9]["cards"][0] = "As Zz Kd"  # not a card
    rows[11]["cards"][1] = rows[11]["cards"][0]  # cards dealt twice
    rows[13]["started"] = "yesterday"
    rows[15]["actions"][0]["time"] = "2026-02-30T00:00:00Z"
    rows[17]["players"][1]["id"] = rows[17]["players"][0]["id"]  # one player twice
    rows[19]["nets"] = [{"player": "nobody", "net": 1}]
    rows[21]["table"] = "{not json"
    rows[23]["cards"][2] = "2c 3c"  # a hand short
    rows[25]["dealer"] = 9
    return pa.Table.from_pylist(rows, schema=table.schema)


def test_the_column_path_equals_the_record_by_record_replay(tmp_path):
    # Faults, hands not recorded, deals carrying a pot and a hand, bad
    # records: each finding and reason as reading and replaying one by one gives.
    sample = sampled(400, seed=7, missing_every=5, players=3, stack=60)
    one = tmp_path / "one.parquet"
    prial.write_histories([*(s.record for s in sample), *carried_records()], one)
    log = tmp_path / "log.parquet"
    pq.write_table(spoil(pq.read_table(one)), log, row_group_size=128)
    summary = prial.replay_file(log, tmp_path / "out.parquet", chunk_rows=100)
    want_rows, want_errors = slow_path(log)
    assert findings_of(tmp_path / "out.parquet") == want_rows
    errors = pacsv.read_csv(tmp_path / "out.parquet.errors.csv").to_pylist()
    assert [(e["row"], e["reason"]) for e in errors] == want_errors
    assert [e["row"] for e in errors] == list(range(3, 27, 2))
    assert summary.bad_records == 12 and summary.complete
    found = collections.Counter(r["finding"] for r in want_rows)
    assert found["unchecked"] > 0 and found["illegal_action"] > 0 and found["mispaid"] > 0
    assert [r["finding"] for r in want_rows[-2:]] == ["ok", "ok"]  # the carried pot paid as recorded


def test_deals_missing_cards_are_checked_as_far_as_they_can_be(tmp_path):
    sample = sampled(300, seed=8, missing_every=1, players=3, stack=60)
    log = tmp_path / "log.parquet"
    copies(log, sample, 1)
    rows = findings_of(prial.replay_file(log, tmp_path / "out.parquet").output)
    for s, r in zip(sample, rows):
        if s.fault in ("see-blind", "short-stake"):  # the rules break before any card matters
            assert (r["finding"], r["action_index"], r["code"]) == ("illegal_action", s.action_index, s.code)
        elif r["finding"] == "unchecked":
            assert r["nets"] is None and r["winners"] is None
        else:  # decided without the missing hand (its player folded)
            assert r["finding"] == FAULTS.get(s.fault, "ok") and r["nets"] is not None
    assert {r["finding"] for r in rows} >= {"unchecked", "ok"}


def test_json_lines_give_the_same_findings_by_line(sample, tmp_path):
    log = tmp_path / "deals.jsonl"
    jsonl_copies(log, sample[:300], 1)
    with open(log, "a") as f:
        f.write("{not json\n")
    summary = prial.replay_file(log)
    rows = findings_of(tmp_path / "deals.replay.jsonl")
    assert [r["line"] for r in rows] == list(range(1, 301))
    assert [(r["finding"], r["action_index"], r["code"]) for r in rows] == expected(sample[:300])
    assert summary.bad_records == 1
    bad = pacsv.read_csv(tmp_path / "deals.replay.jsonl.errors.csv").to_pylist()
    assert bad[0]["line"] == 301 and bad[0]["reason"].startswith("record: not a JSON record")


def test_records_naming_their_rules_are_replayed_with_the_rules_table(sample, tmp_path, capsys):
    log = tmp_path / "deals.jsonl"
    records = [{**{k: v for k, v in s.record.items() if k != "table"}, "rules_ref": "house"} for s in sample[:50]]
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"house": TableRules().to_dict()}))
    assert main(["replay", str(log), "--rules-table", str(rules), "--progress", "none", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["deals"] == 50 and printed["bad_records"] == 0
    assert main(["replay", str(log), "-o", str(tmp_path / "bare.csv"), "--progress", "none"]) == 0
    capsys.readouterr()
    assert pacsv.read_csv(tmp_path / "bare.csv.errors.csv").num_rows == 50  # no rules to read them by


def test_strict_stops_at_the_first_bad_record_in_one_line(sample, tmp_path, capsys):
    log = tmp_path / "deals.jsonl"
    jsonl_copies(log, sample[:20], 1)
    with open(log, "a") as f:
        f.write('{"deal_id": "x"}\n')
    assert main(["replay", str(log), "--strict", "--progress", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"prial: error: {log}: line 21: ") and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.jsonl"]


def test_the_input_is_never_written_and_an_output_is_replaced_only_with_overwrite(log, tmp_path, capsys):
    before = log.read_bytes()
    assert main(["replay", str(log), "-o", str(log), "--overwrite"]) == 2
    assert "is the input" in capsys.readouterr().err and log.read_bytes() == before
    out = tmp_path / "out.csv"
    out.write_text("precious\n")
    assert main(["replay", str(log), "-o", str(out), "--progress", "none"]) == 1
    assert f"the output {out} exists: --overwrite replaces it" in capsys.readouterr().err
    assert out.read_text() == "precious\n"
    assert main(["replay", str(log), "-o", str(out), "--overwrite", "--progress", "none"]) == 0
    assert out.read_text().startswith('"row","deal_id"')


@pytest.mark.slow
def test_the_dask_engine_writes_the_local_engine_s_bytes(log, tmp_path):
    pytest.importorskip("distributed")
    local = prial.replay_file(log, tmp_path / "local.parquet", chunk_rows=5_000)
    dask = prial.replay_file(log, tmp_path / "dask.parquet", engine="dask", workers=2, chunk_rows=5_000)
    assert (tmp_path / "local.parquet").read_bytes() == (tmp_path / "dask.parquet").read_bytes()
    assert (tmp_path / "local.parquet.errors.csv").read_bytes() == (tmp_path / "dask.parquet.errors.csv").read_bytes()
    assert dask.findings == local.findings and dask.engine == "dask"
