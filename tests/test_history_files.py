"""Hand-history files: deals of every game to JSON Lines, nested Parquet
and the flat form (CSV, Parquet) and back to equal histories, whole chunks
at a time; every kind of bad record set aside with its line or row and the
field at fault while the others come through unchanged."""

from __future__ import annotations

import csv
import gzip
import json
import random
import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import prial
from prial.table import Fault, Outcome, read_record, sample_histories, to_record

from .test_history_records import finished, random_deal

FORMATS = {"jsonl": {}, "jsonl.gz": {}, "parquet": {}, "flat.parquet": {"flat": True}, "csv": {}}


def some_records(seed: int = 0) -> list[dict]:
    """Random deals of every game and option (unknown cards, seeds, stacks,
    carried pots and hands, unfinished deals), sampled deals with faults
    planted, and a deal of no actions."""
    rng = random.Random(seed)
    records = []
    for i in range(40):
        deal = random_deal(rng)
        times = [f"2026-12-03T14:{i % 60:02d}:{s % 60:02d}Z" if rng.random() < 0.8 else None
                 for s in range(len(deal.history))]
        records.append(to_record(deal, deal_id=f"r{i}", table_id=rng.choice([None, "t1", "t2"]),
                                 started=rng.choice([None, "2026-12-03T14:05:00Z"]), times=times,
                                 rake=[rng.randint(0, 2)] if rng.random() < 0.3 else ()))
    faults = [Fault("mispaid-pot", 0.1), Fault("wrong-winner", 0.1), Fault("see-blind", 0.1), Fault("short-stake", 0.1)]
    for game, policies, stack in (("brag", None, None), ("teen_patti", [0.5, None, 0.6], 40),
                                  ("five_card_brag", None, 30)):
        for s in sample_histories(prial.TableRules(game=game), 20, players=3, seed=seed, policies=policies,
                                  faults=faults, stack=stack):
            records.append({**s.record, "deal_id": f"{game}-{s.record['deal_id']}"})  # ids one a deal in a file
    start = prial.Deal.start(prial.TableRules(), ["ann", "bob"], cards=["As Ad 2c", None])
    records.append(to_record(start, deal_id="none", outcome=Outcome((), {})))
    return records


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", FORMATS)
def test_histories_go_to_a_file_and_back_equal(tmp_path, name, seed):
    records = some_records(seed)
    histories = [read_record(r) for r in records]
    path = tmp_path / f"log.{name}"
    assert prial.write_histories(records, path, **FORMATS[name]) == len(records)
    assert prial.read_histories(path) == histories
    # from the histories themselves, the same file
    again = tmp_path / f"again.{name}"
    prial.write_histories(histories, again, **FORMATS[name])
    assert again.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("name", FORMATS)
def test_no_histories_make_a_file_of_none(tmp_path, name):
    path = tmp_path / f"log.{name}"
    assert prial.write_histories([], path, **FORMATS[name]) == 0
    assert prial.read_histories(path) == []


@pytest.mark.parametrize("name", FORMATS)
def test_chunks_hold_whole_deals_at_their_positions(tmp_path, name):
    records = some_records()
    path = tmp_path / f"log.{name}"
    prial.write_histories(records, path, **FORMATS[name])
    chunks = list(prial.iter_history_chunks(path, rows=7))
    assert len(chunks) > 5 and all(not c.errors for c in chunks)
    assert [h for c in chunks for h in c.histories] == [read_record(r) for r in records]
    positions = [p for c in chunks for p in c.positions]
    if name.startswith("jsonl"):
        assert positions == list(range(1, len(records) + 1))  # lines
        assert all(len(c.histories) <= 7 for c in chunks)
    elif name == "parquet":
        assert positions == list(range(len(records)))  # rows
    else:  # the flat form: the first row of each deal
        first = 2 if name == "csv" else 0  # a CSV file's header is line 1
        sizes = [max(len(r["actions"]), 1) for r in records]
        assert positions == [first + sum(sizes[:i]) for i in range(len(records))]


def test_rules_given_once_are_named_by_reference(tmp_path):
    records = some_records()
    house = read_record(records[0]).table
    tables = {"house": house}
    path = tmp_path / "log.jsonl"
    prial.write_histories(records, path, tables=tables)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["rules_ref"] == "house" and "table" not in lines[0]
    assert all(("rules_ref" in line) == (read_record(r).table == house) for line, r in zip(lines, records))
    with pytest.raises(prial.ScoreError, match=r"line 1: rules_ref 'house' names no rules"):
        prial.read_histories(path)
    assert prial.read_histories(path, tables=tables) == [read_record(r) for r in records]


def test_a_flat_file_holds_an_action_a_row_with_its_deal_s_columns(tmp_path):
    record = to_record(finished(), deal_id="x", table_id="t1", rake=[1])
    path = tmp_path / "log.csv"
    prial.write_histories([record], path)
    rows = list(csv.DictReader(path.open()))
    assert [(r["deal_id"], r["seq"], r["player"], r["kind"], r["amount"]) for r in rows] == [
        ("x", "0", "bob", "stake", "2"), ("x", "1", "cat", "look", ""), ("x", "2", "cat", "stake", "4"),
        ("x", "3", "ann", "fold", ""), ("x", "4", "bob", "see", "4")]
    assert {r["cards"] for r in rows} == {'["As Ad 2c","Kh Qh Jh","7c 5d 3s"]'}
    assert {r["rake"] for r in rows} == {"[1]"}
    # rows of one deal in any order of seq
    header, *lines = path.read_text().splitlines()
    path.write_text("\n".join([header, *reversed(lines)]) + "\n")
    assert prial.read_histories(path) == [read_record(record)]
    table = pq.read_table(prial.write_histories([record], tmp_path / "log.parquet") and tmp_path / "log.parquet")
    assert table.schema.field("actions").type == pa.list_(pa.struct([
        ("player", pa.string()), ("kind", pa.string()), ("amount", pa.int64()), ("discards", pa.string()),
        ("time", pa.string())]))


# ---- bad records ----------------------------------------------------------------


def spoiled(spoil) -> str:
    record = to_record(finished(), deal_id="bad")
    spoil(record)
    return json.dumps(record)


BAD_LINES = [
    ("not JSON", lambda: "{this is not json", "record: not a JSON record"),
    ("unknown action", lambda: spoiled(lambda r: r["actions"][1].update(kind="bet")), "actions[1].kind: unknown kind"),
    ("unknown player", lambda: spoiled(lambda r: r["actions"][2].update(player="zed")), "actions[2].player: "),
    ("negative amount", lambda: spoiled(lambda r: r["actions"][0].update(amount=-2)), "actions[0].amount must be a whole number"),
    ("a card twice", lambda: spoiled(lambda r: r["cards"].__setitem__(2, "As 5d 3s")), "cards: a card dealt twice"),
    ("rules out of range", lambda: spoiled(lambda r: r["table"].update(ante=-1)), "table.ante: "),
    ("unknown game", lambda: spoiled(lambda r: r["table"].update(game="poker")), "table.game: "),
]


@pytest.mark.parametrize("what, line, says", BAD_LINES, ids=[b[0] for b in BAD_LINES])
def test_a_bad_line_is_set_aside_naming_its_field_and_the_others_come_through(tmp_path, what, line, says):
    records = some_records()[:6]
    lines = [json.dumps(r) for r in records]
    bad = line()
    lines.insert(3, bad)
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n")
    [chunk] = prial.iter_history_chunks(path)
    assert chunk.histories == [read_record(r) for r in records]
    assert chunk.positions == [1, 2, 3, 5, 6, 7]
    [error] = chunk.errors
    assert error == prial.RecordError(4, error.reason, bad)
    assert error.reason.startswith(says), error.reason
    with pytest.raises(prial.ScoreError, match=re.escape(f"{path}: line 4: {says}")):
        prial.read_histories(path)


def test_a_cut_short_last_line_is_a_bad_record_not_a_crash(tmp_path):
    records = some_records()[:4]
    path = tmp_path / "log.jsonl"
    text = "\n".join(json.dumps(r) for r in records)
    path.write_text(text[:-30])
    [chunk] = prial.iter_history_chunks(path)
    assert chunk.histories == [read_record(r) for r in records[:3]]
    [error] = chunk.errors
    assert error.position == 4 and "cut short" in error.reason
    gz = tmp_path / "log.jsonl.gz"
    gz.write_bytes(gzip.compress(text.encode())[:-40])  # the compressed file cut: the file's fault, said once
    with pytest.raises(prial.ScoreError, match="not a whole gzip file"):
        prial.read_histories(gz)


def flat_lines(tmp_path, records) -> tuple[str, list[str]]:
    path = tmp_path / "log.csv"
    prial.write_histories(records, path)
    header, *lines = path.read_text().splitlines()
    return header, lines


def respell(line: str, header: str, column: str, value: str) -> str:
    cells = next(csv.reader([line]))
    cells[header.split(",").index(column)] = value
    out = []
    csv.writer(_Collect(out), lineterminator="").writerow(cells)
    return out[0]


class _Collect:
    def __init__(self, out: list[str]) -> None:
        self.out = out

    def write(self, text: str) -> None:
        self.out.append(text)


@pytest.mark.parametrize("column, value, says", [
    ("dealer", "2", "dealer differs from the deal's first row (line 7)"),
    ("cards", '["As Ad 2c","Kh Qh Jh","7c 5d 2s"]', "cards differs"),
    ("amount", "two", "amount must be a whole number"),
    ("amount", "-3", "actions[2].amount must be a whole number"),
    ("kind", "bet", "actions[2].kind: unknown kind"),
    ("player", "zed", "actions[2].player: "),
    ("seq", "0", "seq must number the deal's 5 actions from 0, each once"),
    ("players", "[{", "players must be a JSON list"),
])
def test_a_flat_deal_with_a_bad_row_is_one_bad_record_at_that_row(tmp_path, column, value, says):
    records = [to_record(finished(), deal_id=f"d{i}") for i in range(3)]
    header, lines = flat_lines(tmp_path, records)
    lines[7] = respell(lines[7], header, column, value)  # deal d1's third row, line 9
    path = tmp_path / "log.csv"
    path.write_text("\n".join([header, *lines]) + "\n")
    chunks = list(prial.iter_history_chunks(path))
    assert [h.deal_id for c in chunks for h in c.histories] == ["d0", "d2"]
    assert [p for c in chunks for p in c.positions] == [2, 12]
    [error] = [e for c in chunks for e in c.errors]
    assert (error.position, error.text) == (9, lines[7])
    assert says in error.reason, error.reason
    assert error.reason.startswith(column if column not in ("amount", "kind", "player") or value == "two"
                                   else "actions[2]"), error.reason


def test_a_deal_s_rows_apart_make_a_bad_record_of_the_later_ones(tmp_path):
    records = [to_record(finished(), deal_id=f"d{i}") for i in range(3)]
    header, lines = flat_lines(tmp_path, records)
    moved = lines[:8] + lines[10:] + lines[8:10]  # d1's last two rows after d2's
    path = tmp_path / "log.csv"
    path.write_text("\n".join([header, *moved]) + "\n")
    chunks = list(prial.iter_history_chunks(path))
    [error] = [e for c in chunks for e in c.errors]
    # d1's first rows read as a deal of their own (unfinished): a reader of
    # a deal at a time cannot know that more of it comes later
    assert [(h.deal_id, len(h.actions)) for c in chunks for h in c.histories] == [("d0", 5), ("d1", 3), ("d2", 5)]
    assert (error.position, error.reason.split(":")[0], error.text) == (15, "deal_id", lines[8])
    assert "deal 'd1' again after other deals (its rows begin at line 7)" in error.reason


def test_flat_and_nested_parquet_name_the_row(tmp_path):
    records = [to_record(finished(), deal_id=f"d{i}") for i in range(3)]
    flat = tmp_path / "flat.parquet"
    prial.write_histories(records, flat, flat=True)
    table = pq.read_table(flat)
    dealers = table.column("dealer").to_pylist()
    dealers[8] = 1
    pq.write_table(table.set_column(table.schema.get_field_index("dealer"), "dealer", pa.array(dealers, pa.int64())),
                   flat)
    chunks = list(prial.iter_history_chunks(flat))
    assert [p for c in chunks for p in c.positions] == [0, 10]
    assert [(e.position, e.reason.split(" ")[0]) for c in chunks for e in c.errors] == [(8, "dealer")]
    nested = tmp_path / "nested.parquet"
    prial.write_histories(records, nested)
    table = pq.read_table(nested)
    actions = table.column("actions").to_pylist()
    actions[2][0]["kind"] = "bet"
    pq.write_table(table.set_column(table.schema.get_field_index("actions"), "actions",
                                    pa.array(actions, table.schema.field("actions").type)), nested)
    with pytest.raises(prial.ScoreError, match=f"^{nested}: row 2: actions\\[0\\].kind: unknown kind 'bet'"):
        prial.read_histories(nested)


def test_a_file_not_of_its_kind_is_one_error(tmp_path):
    text = tmp_path / "log.parquet"
    text.write_text("deal_id\n")
    with pytest.raises(prial.ScoreError, match="as parquet: it is text, not a Parquet file"):
        prial.read_histories(text)
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"hand": ["As Kd Qh"]}), other)
    with pytest.raises(prial.ScoreError, match="unknown column 'hand'"):
        prial.read_histories(other)
    header = tmp_path / "log.csv"
    header.write_text("deal_id,seq,player,kind,colour\n")
    with pytest.raises(prial.ScoreError, match="unknown column 'colour'"):
        prial.read_histories(header)
    with pytest.raises(prial.ScoreError, match="the flat form is CSV or Parquet"):
        prial.write_histories([], tmp_path / "log.jsonl", flat=True)


def test_a_bad_record_is_not_written(tmp_path):
    path = tmp_path / "log.jsonl"
    with pytest.raises(prial.InvalidHandError) as info:
        prial.write_histories([some_records()[0], json.loads(BAD_LINES[1][1]())], path)
    assert info.value.field == "actions[1].kind"
    assert not path.exists() and not list(tmp_path.iterdir())  # nor anything half written
    with pytest.raises(prial.InvalidHandError, match="to_record makes a record of a Deal"):
        prial.write_histories([finished()], path)


def test_a_platform_s_flat_export_reads_with_its_own_columns_and_rules_given_once(tmp_path):
    """Columns in any order, the optional ones left out, a byte-order mark
    as spreadsheets write, rules named by reference."""
    path = tmp_path / "export.csv"
    path.write_text(
        "\ufeffseq,deal_id,player,kind,amount,rules_ref,players,cards,winners,nets\n"
        + '0,h1,bob,stake,2,house,"[{""id"":""ann""},{""id"":""bob""}]","[""As Ad 2c"",""Kh Qh Jh""]",'
          '"[""bob""]","[{""player"":""ann"",""net"":-5},{""player"":""bob"",""net"":5}]"\n'
        + '1,h1,ann,see,4,house,"[{""id"":""ann""},{""id"":""bob""}]","[""As Ad 2c"",""Kh Qh Jh""]",'
          '"[""bob""]","[{""player"":""ann"",""net"":-5},{""player"":""bob"",""net"":5}]"\n', encoding="utf-8")
    [history] = prial.read_histories(path, tables={"house": prial.TableRules()})
    assert history.players == ("ann", "bob") and history.outcome == Outcome(("bob",), {"ann": -5, "bob": 5})
    assert [(a.player, a.kind, a.amount) for a in history.actions] == [("bob", "stake", 2), ("ann", "see", 4)]
    deal = history.start()
    for action in history.actions:
        deal = deal.act(action)
    assert Outcome(tuple(deal.result.winners), dict(deal.result.nets)) == history.outcome  # a straight flush wins
