"""prial score: formats, adjudication against a simple
reference, bad rows and the errors file, chunking, --strict, the CLI."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import prial
from prial.cli import main

SUITS = "cdhs"
SYMBOLS = "♣♦♥♠"
RANKS = "23456789TJQKA"


def card_text(card: int, style: int) -> str:
    rank, suit = RANKS[card // 4], card % 4
    if style == 1:
        return (rank + SUITS[suit]).lower()
    if style == 2:
        return ("10" if rank == "T" else rank) + SYMBOLS[suit]
    return rank + SUITS[suit]


def hand_text(cards: list[int], style: int) -> str:
    parts = [card_text(c, style) for c in cards]
    return [" ".join, ",".join, "".join][style % 3](parts)


def make_log(deals: int, seed: int, bad: bool = True):
    """Rows (dicts) and, per row, whether it is bad; deals of 2-5 players of
    one width, some ties, seers, blind players, folds; some bad rows."""
    rng = random.Random(seed)
    rows, bad_rows = [], []
    for deal in range(1, deals + 1):
        width = rng.choice([3, 3, 4, 5])
        players = rng.randint(2, 5 if width == 3 else 4)
        pack = rng.sample(range(52), 52)
        hands = [pack[i * width:(i + 1) * width] for i in range(players)]
        if width == 3 and rng.random() < 0.25:  # an exact tie: same ranks, other suits
            ranks = rng.sample(range(13), 3)
            hands[0] = [r * 4 + s for r, s in zip(ranks, (0, 1, 2))]
            hands[1] = [r * 4 + s for r, s in zip(ranks, (1, 2, 3))]
            used = set(hands[0] + hands[1])
            rest = [c for c in pack if c not in used]
            for i in range(2, players):
                hands[i] = rest[(i - 2) * 3:(i - 1) * 3]
        folded = [rng.random() < 0.2 for _ in range(players)]
        seer = [False] * players
        blind = [rng.random() < 0.2 for _ in range(players)]
        if rng.random() < 0.4:
            seer[rng.randrange(players)] = True
        winners_guess = {rng.randrange(players)}
        for p in range(players):
            text = hand_text(hands[p], rng.randrange(3))
            is_bad = False
            if bad and rng.random() < 0.03:
                text, is_bad = rng.choice([("Zz " + text[3:], True), (None, True),
                                           (hand_text(hands[p][:2], 0), True)])
            rows.append({"deal_id": deal, "player": f"p{p}", "cards": text, "blind": blind[p],
                         "seer": seer[p], "folded": folded[p],
                         "won": p in winners_guess if rng.random() < 0.5 else None})
            bad_rows.append(is_bad)
        if bad and rng.random() < 0.02 and players >= 2 and rows[-1]["cards"] and rows[-2]["cards"]:
            # one card held twice in the deal: both rows are bad
            card = hand_text(hands[players - 2][:1], 0)
            rows[-1]["cards"] = card + " " + hand_text(hands[players - 1][1:], 0)
            bad_rows[-1] = bad_rows[-2] = True
    return rows, bad_rows


def reference_key(text: str) -> int:
    cards = prial.parse_cards(text)
    return prial.evaluate(cards).strength << 8 if len(cards) == 3 else prial.best_of(cards).key


def reference_winners(deal: list[dict], any_bad: bool):
    """The winning players of a deal by the showdown rules, or None if it is invalid."""
    if any_bad or len({len(prial.parse_cards(r["cards"])) for r in deal}) > 1:
        return None
    if any(r["folded"] and r["seer"] for r in deal):
        return None
    active = [r for r in deal if not r["folded"]]
    seers = [r for r in active if r["seer"]]
    if len(seers) > 1 or not active:
        return None
    if seers:
        if len(active) != 2:
            return None
        seer = seers[0]
        seen = next(r for r in active if r is not seer)
        if seen["blind"] and not seer["blind"]:
            return None
        return {seer["player"]} if reference_key(seer["cards"]) > reference_key(seen["cards"]) else {seen["player"]}
    best = max(reference_key(r["cards"]) for r in active)
    return {r["player"] for r in active if reference_key(r["cards"]) == best}


def write_csv(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else str(v).lower() if isinstance(v, bool) else v)
                             for k, v in row.items()})


@pytest.fixture(scope="module")
def deal_log(tmp_path_factory):
    rows, bad = make_log(400, seed=11)
    path = tmp_path_factory.mktemp("log") / "deals.csv"
    write_csv(path, rows)
    return path, rows, bad


def test_deal_log_matches_reference(deal_log, tmp_path):
    path, rows, bad = deal_log
    out = tmp_path / "out.parquet"
    summary = prial.score_file(path, out, options=prial.ScoreOptions(chunk_rows=37))
    table = pq.read_table(out).to_pylist()
    errors = list(csv.DictReader(open(f"{out}.errors.csv", encoding="utf-8")))
    assert [int(e["row"]) for e in errors] == [i + 1 for i, b in enumerate(bad) if b]
    assert [int(e["line"]) for e in errors] == [i + 2 for i, b in enumerate(bad) if b]
    assert summary.rows_in == len(rows) and summary.bad_rows == sum(bad)
    assert summary.rows_out == len(table) == len(rows) - sum(bad) and summary.complete
    by_deal: dict[int, list[dict]] = {}
    for row, is_bad in zip(rows, bad):
        by_deal.setdefault(row["deal_id"], []).append((row, is_bad))
    scored = {(r["deal_id"], r["player"]): r for r in table}
    disputes = invalid = unchecked = 0
    for deal_id, members in by_deal.items():
        want = reference_winners([r for r, _ in members], any(b for _, b in members))
        good = [r for r, b in members if not b]
        got = [scored[(deal_id, r["player"])] for r in good]
        for r, s in zip(good, got):
            assert s["key"] == reference_key(r["cards"])
            assert s["strength"] == s["key"] >> 8
        if want is None:
            invalid += 1
            assert all(s["winner"] is None and s["deal_problem"] for s in got), deal_id
            continue
        assert {s["player"] for s in got if s["winner"]} == want, deal_id
        assert all(s["winners"] == len(want) and s["deal_problem"] is None for s in got)
        if not any(r["won"] for r in good):  # no result recorded: nothing to dispute
            unchecked += 1
            assert all(s["dispute"] is None for s in got), deal_id
            continue
        dispute = any(r["won"] is not None and r["won"] != (r["player"] in want) for r in good)
        disputes += dispute
        assert all(s["dispute"] == dispute for s in got), deal_id
    assert summary.deals == len(by_deal) and summary.invalid_deals == invalid
    assert summary.disputes == disputes and disputes > 0 and invalid > 0
    assert (summary.no_result, summary.uncontested) == (unchecked, 0) and unchecked > 0


def test_chunk_size_does_not_change_the_output(deal_log, tmp_path):
    path = deal_log[0]
    outputs = []
    for chunk in (23, 64, 1_000_000):
        out = tmp_path / f"out{chunk}.parquet"
        prial.score_file(path, out, options=prial.ScoreOptions(chunk_rows=chunk))
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]


KNOWN = """deal_id,player,cards,blind,seer,folded,won
1,ann,7h 7d Qc,false,true,false,false
1,bob,7s 7c Qh,false,false,false,true
2,ann,7h 7d Kc,false,true,false,true
2,bob,7s 7c Qh,false,false,false,false
3,ann,Ah Kh Qh,false,false,true,false
3,bob,9c 9d 2s,true,true,false,true
3,cat,Tc Jd 5h,false,false,false,false
4,ann,Ac Ad 5c,false,false,false,true
4,bob,As Ah 5d,false,false,false,false
4,cat,2c 3d 9h,false,false,false,false
5,ann,Jc Jd 3h,false,true,false,true
5,bob,2c 5d 9h,true,false,false,false
6,ann,As Kd 7h 7c 2s,false,false,false,false
6,bob,Ah Kc 7d 7s 3c,false,false,false,true
7,ann,3s 2h Ah,false,false,false,true
7,bob,3s Kh Kd,false,false,false,false
7,cat,9c 9h 4d,false,false,false,false
8,ann,4c 5c 6c,false,false,true,false
8,bob,8h 8s 8d,false,false,true,false
9,ann,2h 2d 2c,false,false,false,false
9,bob,Ah Kh Qh Jh,false,false,false,false
"""


def test_known_winners_and_disputes(tmp_path):
    path = tmp_path / "known.csv"
    path.write_text(KNOWN)
    summary = prial.score_file(path, tmp_path / "known.parquet")
    rows = pq.read_table(tmp_path / "known.parquet").to_pylist()
    result = {(r["deal_id"], r["player"]): (r["winner"], r["winners"], r["dispute"], r["deal_problem"]) for r in rows}
    assert result[(1, "ann")] == (False, 1, False, None)  # the seer loses a tie
    assert result[(1, "bob")] == (True, 1, False, None)
    assert result[(2, "ann")][0] is True  # strictly better seer wins
    assert result[(3, "bob")] == (True, 1, False, None)  # a blind player may see an open one
    assert result[(4, "ann")] == (True, 2, True, None)  # agreed showdown: exact tie shares
    assert result[(4, "bob")] == (True, 2, True, None)
    assert result[(5, "ann")] == (None, None, None, "an open player cannot see a blind player")
    assert result[(6, "bob")][:2] == (True, 1)  # five cards: the higher discard (3 over 2) wins
    assert (7, "bob") not in result  # 3s held twice in deal 7
    assert (7, "ann") not in result
    assert result[(7, "cat")][3] == "rows of this deal are in the errors file"
    assert result[(8, "ann")][3] == "every player folded"
    assert result[(9, "bob")][3] == "players hold different numbers of cards"
    errors = list(csv.DictReader(open(f"{tmp_path / 'known.parquet'}.errors.csv", encoding="utf-8")))
    assert [(e["row"], e["line"], e["deal_id"]) for e in errors] == [("15", "16", "7"), ("16", "17", "7")]
    assert "card 3s also held" in errors[0]["reason"]
    assert (summary.deals, summary.invalid_deals, summary.disputes, summary.bad_rows) == (9, 4, 1, 2)


UNCHECKED = """deal_id,player,cards,folded,won
1,ann,7h 7d Qc,false,true
2,bob,2c 5d 9h,false,false
3,ann,Ah Kh Qh,false,false
3,bob,9c 9d 2s,false,false
4,ann,Ah Kh Qh,false,
4,bob,9c 9d 2s,false,
5,ann,Ah Kh Qh,false,false
5,bob,9c 9d 2s,false,true
6,ann,Ah Kh Qh,false,true
6,bob,9c 9d 2s,false,false
"""


def test_uncontested_deals_and_deals_without_a_result_are_no_disputes(tmp_path):
    """Deals 1 and 2 have one player: uncontested, whatever is recorded.
    Nobody is recorded as the winner of deal 3 (both false) or deal 4
    (unknown): no result to check.  Deal 5 is a dispute, deal 6 agrees."""
    path = tmp_path / "unchecked.csv"
    path.write_text(UNCHECKED)
    summary = prial.score_file(path, tmp_path / "out.parquet")
    assert (summary.deals, summary.invalid_deals, summary.disputes) == (6, 0, 1)
    assert (summary.uncontested, summary.no_result) == (2, 2)
    assert {"uncontested": 2, "no_result": 2}.items() <= summary.to_dict().items()
    rows = pq.read_table(tmp_path / "out.parquet").to_pylist()
    dispute = {r["deal_id"]: r["dispute"] for r in rows}  # one value a deal
    assert [dispute[d] for d in range(1, 7)] == [None, None, None, None, True, False]
    winner = {(r["deal_id"], r["player"]): r["winner"] for r in rows}
    assert winner[(1, "ann")] and winner[(2, "bob")] and winner[(3, "ann")]  # still adjudicated


def test_cli_summary_counts_uncontested_and_unrecorded_deals_apart(tmp_path, capsys):
    path = tmp_path / "unchecked.csv"
    path.write_text(UNCHECKED)
    assert main(["score", str(path), "-o", str(tmp_path / "out.csv"), "--progress", "none"]) == 0
    out = capsys.readouterr().out
    assert "deals in dispute                    1" in out
    assert "deals uncontested (one player)      2" in out
    assert "deals with no result recorded       2" in out


@pytest.mark.parametrize("fmt_in", ["csv", "jsonl", "parquet"])
@pytest.mark.parametrize("fmt_out", ["csv", "jsonl", "parquet"])
def test_round_trip_formats(tmp_path, fmt_in, fmt_out):
    rows, _ = make_log(60, seed=3, bad=False)
    source = tmp_path / "log.csv"
    write_csv(source, rows)
    table = pacsv.read_csv(source, convert_options=pacsv.ConvertOptions(
        column_types={"cards": pa.string(), "won": pa.bool_()}))
    path = tmp_path / f"log.{fmt_in}"
    if fmt_in == "parquet":
        pq.write_table(table, path)
    elif fmt_in == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in table.to_pylist()))
    out = tmp_path / f"out.{fmt_out}"
    summary = prial.score_file(path, out)
    assert summary.rows_out == len(rows) and summary.bad_rows == 0
    if fmt_out == "parquet":
        got = pq.read_table(out).to_pylist()
    elif fmt_out == "csv":
        got = pacsv.read_csv(out, convert_options=pacsv.ConvertOptions(
            column_types={"deal_problem": pa.string()})).to_pylist()
    else:
        got = [json.loads(line) for line in out.read_text().splitlines()]
    want = pq.read_table(_scored_reference(tmp_path, source)).to_pylist()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert list(g) == list(w)
        g["deal_problem"] = g["deal_problem"] or None  # CSV writes a null string as ""
        assert g == w


def _scored_reference(tmp_path: Path, source: Path) -> Path:
    out = tmp_path / "reference.parquet"
    if not out.exists():
        prial.score_file(source, out)
    return out


def test_scoring_a_scored_file_gives_it_back(tmp_path):
    path = tmp_path / "log.csv"
    write_csv(path, make_log(50, seed=8, bad=False)[0])
    prial.score_file(path, tmp_path / "once.parquet")
    prial.score_file(tmp_path / "once.parquet", tmp_path / "twice.parquet")
    once, twice = pq.read_table(tmp_path / "once.parquet"), pq.read_table(tmp_path / "twice.parquet")
    assert twice.column_names == once.column_names and twice.equals(once)


def test_plain_file_of_hands(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text('{"cards": "3s 2h Ah"}\n{"cards": "Kh 9h 2h"}\n{"cards": "7s 7h"}\n{"cards": "As Kd 7h 7c 2s"}\n')
    summary = prial.score_file(path, tmp_path / "out.jsonl", options=prial.ScoreOptions(describe=True))
    got = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [g["description"] for g in got] == ["Run, 3-2-A", "Flush, K-9-2", "Pair of sevens, ace kicker"]
    assert [g["strength"] for g in got] == [716, prial.evaluate("Kh 9h 2h").strength, 346]
    assert "winner" not in got[0] and summary.deals == 0 and summary.bad_rows == 1
    errors = (tmp_path / "out.jsonl.errors.csv").read_text()
    assert '3,3,,"7s 7h","2 cards; expected 3 or 4 or 5"' in errors


def test_game_column_picks_the_rules(tmp_path):
    path = tmp_path / "games.csv"
    path.write_text("cards,game\n3s 2h Ah,brag\n3s 2h Ah,teen_patti\n3s 2h Ah,three_card_poker\n3s 2h Ah,poker\n")
    prial.score_file(path, tmp_path / "out.parquet")
    got = pq.read_table(tmp_path / "out.parquet")["strength"].to_pylist()
    want = [prial.Evaluator(prial.Rules(preset=p)).evaluate("3s 2h Ah").strength
            for p in ("brag", "teen_patti", "three_card_poker")]
    assert got == want
    assert "unknown game 'poker'" in (tmp_path / "out.parquet.errors.csv").read_text()


def test_players_of_one_deal_play_one_game(tmp_path):
    path = tmp_path / "games.csv"
    path.write_text("deal_id,cards,game\n1,3s 2h Ah,brag\n1,As Kd Qh,brag\n2,3s 2h Ah,teen_patti\n2,As Kd Qh,brag\n")
    prial.score_file(path, tmp_path / "out.parquet")
    rows = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert [r["winner"] for r in rows] == [True, False, None, None]
    assert rows[2]["deal_problem"] == "players play different games"


def test_strict_stops_at_the_first_bad_row(tmp_path, capsys):
    path = tmp_path / "known.csv"
    path.write_text(KNOWN)
    assert main(["score", str(path), "-o", str(tmp_path / "o.csv"), "--strict"]) == 2
    assert "row 15 (line 16): card 3s also held" in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()


def test_cli_rejects_a_zero_chunk(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["score", str(tmp_path / "x.csv"), "--chunk-rows", "0"])
    assert info.value.code == 2
    assert "argument --chunk-rows: must be at least 1, got 0" in capsys.readouterr().err


def test_cli_summary_and_files(tmp_path, capsys):
    sample = Path(__file__).resolve().parent.parent / "examples" / "sample_deals.csv"
    out = tmp_path / "scored.csv"
    assert main(["score", str(sample), "-o", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["complete"] and summary["rows_in"] == summary["rows_out"] + summary["bad_rows"]
    assert json.loads((tmp_path / "scored.csv.summary.json").read_text())["rows_in"] == summary["rows_in"]
    assert not (tmp_path / "scored.csv.parts").exists()
    assert np.isclose(sum(summary["categories"].values()), summary["rows_out"])


def test_adjudication_agrees_with_prial_showdown(deal_log, tmp_path):
    """The vectorised adjudication against the showdown API, deal by deal."""
    path, rows, bad = deal_log
    out = tmp_path / "out.parquet"
    prial.score_file(path, out)
    scored: dict[int, list[dict]] = {}
    for row in pq.read_table(out).to_pylist():
        scored.setdefault(row["deal_id"], []).append(row)
    compared = blind_refusals = 0
    for members in scored.values():
        problem = members[0]["deal_problem"]
        if problem not in (None, "an open player cannot see a blind player"):
            continue
        active = [m for m in members if not m["folded"]]
        seer = next((m["player"] for m in active if m["seer"]), None)
        players = [prial.Player(m["player"], m["cards"], blind=m["blind"]) for m in active]
        if len(active) == 1:  # everyone else folded: no showdown, the last player wins
            assert [m["winner"] for m in members] == [not m["folded"] for m in members]
            continue
        if problem is not None:
            with pytest.raises(prial.InvalidShowdownError):
                prial.showdown(players, seer)
            blind_refusals += 1
            continue
        result = prial.showdown(players, seer)
        assert set(result.winners) == {m["player"] for m in members if m["winner"]}
        compared += 1
    assert compared > 100 and blind_refusals > 0


def test_empty_log_gives_an_empty_output_with_the_columns(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("deal_id,player,cards,won\n")
    summary = prial.score_file(path, tmp_path / "out.parquet")
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.num_rows == 0 and summary.complete and summary.rows_in == 0
    assert {"strength", "key", "category", "winner", "winners", "dispute", "deal_problem"} <= set(table.column_names)
