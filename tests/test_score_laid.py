"""prial sample --laid and prial score on logs of laid hands (nine-card
Brag and Crash, with the spare hands of the two- and three-player games):
seeded logs against a deliberately simple scorer written here, the round
trip in every format, each bad row in the errors file, --strict."""

from __future__ import annotations

import csv
import json
import random

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prial
from prial.cli import main

RANKS = "23456789TJQKA"
# The four-of-a-kind bonus by default ranks fours as Brag ranks prials:
# threes first, then aces down to twos.
FOUR_ORDER = "3AKQJT98765432"


def text(cards) -> str:
    return prial.format_cards(list(cards))


def reference(rows: list[dict], ties: str = "stick_up", four_bonus: str = "best",
              weights: tuple[int, ...] = (1, 1, 1, 1)) -> list[int]:
    """Each player's points in a deal, by the rules in their plainest form:
    a player whose hands are not in non-increasing order fouls and is out;
    at each position the one strongest hand scores its weight, a tie for
    best nobody (with ``ties="cancel"``, tied hands drop out and the best
    hand left alone scores); whoever wins every position of three or four
    crashes (worth nothing more by default); the best four of a kind in a
    player's hands scores 1 (``four_bonus="every"``: every four does)."""
    laid = [[h.split() for h in row["hands"].split("|")] for row in rows]
    strength = [[prial.evaluate(" ".join(h)).strength for h in hands] for hands in laid]
    fouled = [any(a < b for a, b in zip(s, s[1:])) for s in strength]
    points = [0] * len(rows)
    for position in range(max(len(s) for s in strength)):
        held = {p: s[position] for p, s in enumerate(strength) if not fouled[p] and position < len(s)}
        levels = sorted(set(held.values()), reverse=True)
        for level in levels if ties == "cancel" else levels[:1]:
            top = [p for p, s in held.items() if s == level]
            if len(top) == 1:
                points[top[0]] += weights[position]
                break
    fours = {}
    for p, hands in enumerate(laid):
        ranks = [card[0] for hand in hands for card in hand]
        mine = [r for r in set(ranks) if ranks.count(r) == 4]
        if mine and not fouled[p]:
            fours[p] = min(FOUR_ORDER.index(r) for r in mine)
    for p in fours if four_bonus == "every" else [min(fours, key=fours.get)] if fours else []:
        points[p] += 1
    return points


def random_split(cards: list[int], hands: int, rng: random.Random) -> tuple[str, str]:
    """Cards laid at random (so that some players foul), as hands and discards."""
    cards = cards[:]
    rng.shuffle(cards)
    laid = [text(cards[3 * i:3 * i + 3]) for i in range(hands)]
    return " | ".join(laid), text(cards[3 * hands:])


def write_csv(path, rows: list[dict]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def scored(tmp_path, rows_or_path, *args, name="scored.csv"):
    path = rows_or_path
    if isinstance(rows_or_path, list):
        path = tmp_path / "log.csv"
        write_csv(path, rows_or_path)
    out = tmp_path / name
    assert main(["score", str(path), "-o", str(out), "--progress", "none", "--overwrite", *args]) == 0
    table = pq.read_table(out) if name.endswith(".parquet") else pacsv.read_csv(
        out, convert_options=pacsv.ConvertOptions(strings_can_be_null=True))
    errors = list(csv.DictReader(open(f"{out}.errors.csv")))
    return table, errors


VARIANTS = [{}, {"ties": "cancel", "four_bonus": "every", "weights": (4, 3, 2, 1)}]


@pytest.mark.parametrize("variant", VARIANTS, ids=["default", "variants"])
@pytest.mark.parametrize("players,cards", [(2, 13), (3, 13), (4, 13), (2, 9), (4, 9), (5, 9)])
def test_random_splits_score_as_the_simple_reference(tmp_path, players, cards, variant):
    rng = random.Random(players * 100 + cards)
    rows = []
    for deal_id in range(60):
        deal = prial.deal_crash(rng.randrange(2**64), players, cards=cards)
        for seat, held in enumerate(deal.hands):
            if rng.random() < 0.5:  # laid well: the strongest first
                split = prial.partition(list(held), hands=cards // 3)
                hands, discards = " | ".join(text(h) for h in split.hands), text(split.discards)
            else:
                hands, discards = random_split(list(held), cards // 3, rng)
            rows.append({"deal_id": deal_id, "player": f"p{seat}", "hands": hands, "discards": discards})
    argv = [arg for name, value in variant.items()
            for arg in (f"--{name.replace('_', '-')}", *(map(str, value) if name == "weights" else [value]))]
    table, errors = scored(tmp_path, rows, *argv)
    assert errors == [] and table.num_rows == len(rows)
    points = table["points"].to_pylist()
    for begin in range(0, len(rows), players):
        deal = rows[begin:begin + players]
        assert points[begin:begin + players] == reference(deal, **variant), deal
    assert any(table["fouled"].to_pylist()) and not all(table["fouled"].to_pylist())


def test_a_crash_scores_its_value_and_fours_the_bonus(tmp_path):
    rows = [
        {"deal_id": 1, "player": "a", "hands": "As Ad Ah | Ks Kd Kh | Qs Qd Qh | Js Jd Jh", "discards": "2c"},
        {"deal_id": 1, "player": "b", "hands": "Ac 9d 9h | Kc 8d 8h | Qc 7d 7h | Jc Td Th", "discards": "2d"},
        {"deal_id": 2, "player": "a", "hands": "2s 2d 2h | 2c 9d 9h | Tc 7d 4h", "discards": ""},
        {"deal_id": 2, "player": "b", "hands": "As Ad Ah | Kc Kd Qh | Qc Jd 5d", "discards": ""},
        {"deal_id": 3, "player": "a", "hands": "4s 4d 4h | 4c 9d 9h | Tc 7d 3h", "discards": ""},
        {"deal_id": 3, "player": "b", "hands": "As Ad Ah | Ac Kd Kh | Qc Jd 5d", "discards": ""},
    ]
    table, _ = scored(tmp_path, rows, "--crash-value", "2", "--describe")
    assert table["points"].to_pylist() == [6, 0, 1, 5, 0, 6]
    assert table["crash"].to_pylist() == [True, False, False, True, False, True]
    assert table["four_bonus"].to_pylist() == [False, False, True, False, False, True]
    assert table["positions_won"].to_pylist() == ["1 2 3 4", None, None, "1 2 3", None, "1 2 3"]
    assert table["description"].to_pylist()[2] == "Prial of twos | Pair of nines, two kicker | High card, T-7-4"
    table, _ = scored(tmp_path, rows, "--four-order", "fours")
    assert table["points"].to_pylist()[4:] == [1, 3]
    table, _ = scored(tmp_path, rows, "--min-category", "PRIAL")
    assert table["fouled"].to_pylist() == [False, True, True, True, True, True]


def test_tied_hands_cancel_and_every_four_scores_when_asked(tmp_path):
    rows = [  # a and b tie at every position; c is below them
        {"deal_id": 1, "player": "a", "hands": "Ks Qd 9h | 7s 5d 2h | 6s 4d 3c", "discards": ""},
        {"deal_id": 1, "player": "b", "hands": "Kc Qh 9d | 7c 5h 2d | 6c 4h 3d", "discards": ""},
        {"deal_id": 1, "player": "c", "hands": "Js Th 8c | 7h 4s 3s | 5s 4c 2c", "discards": ""},
        {"deal_id": 2, "player": "a", "hands": "4s 4d 4h | 4c 9d 9h | Tc 7d 3h", "discards": ""},
        {"deal_id": 2, "player": "b", "hands": "As Ad Ah | Ac Kd Kh | Qc Jd 5d", "discards": ""},
    ]
    table, _ = scored(tmp_path, rows)
    assert table["points"].to_pylist() == [0, 0, 0, 0, 4]
    table, _ = scored(tmp_path, rows, "--ties", "cancel", "--four-bonus", "every")
    assert table["points"].to_pylist() == [0, 0, 3, 1, 4]
    assert table["crash"].to_pylist() == [False, False, True, False, True]
    assert table["four_bonus"].to_pylist() == [False, False, False, True, True]
    assert [reference(rows[:3], ties="cancel"), reference(rows[3:], four_bonus="every")] == [[0, 0, 3], [1, 4]]


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
@pytest.mark.parametrize("laid,players,spare", [("crash", 3, True), ("crash", 2, True), ("nine_card", 5, False)])
def test_sample_then_score_round_trip(tmp_path, fmt, laid, players, spare):
    log = tmp_path / f"log.{fmt}"
    argv = ["sample", "--deals", "150", "--seed", "11", "--laid", laid, "--players", str(players), "-o", str(log)]
    assert main(argv + (["--spare"] if spare else [])) == 0
    summary = prial.score_file(log, tmp_path / "out.parquet")
    assert (summary.rows_in, summary.bad_rows, summary.deals, summary.invalid_deals) == (150 * players, 0, 150, 0)
    out = pq.read_table(tmp_path / "out.parquet")
    sample = prial.sample_laid_deals(150, seed=11, players=players, game=laid, spare=spare)
    assert out.select(sample.column_names).cast(sample.schema).equals(sample)
    rows = sample.to_pylist()
    points = out["points"].to_pylist()
    for begin in range(0, len(rows), players):
        assert points[begin:begin + players] == reference(rows[begin:begin + players])
    if spare:
        taken = [r for r in rows if r["exchanged"]]
        assert taken, "the sample exchanges somewhere"
        for row in taken:
            deal = prial.deal_crash(11 + row["deal_id"], players, spare=True)
            assert set(prial.parse_cards(row["given_up"])) == set(deal.hands[row["player"]])
        if players == 3:
            per_deal = [sum(r["exchanged"] for r in rows[b:b + 3]) for b in range(0, len(rows), 3)]
            assert max(per_deal) == 1


def test_a_sample_is_the_same_from_the_same_seed_and_each_deal_deals_alone():
    a = prial.sample_laid_deals(20, seed=5, players=3, spare=True)
    assert a.equals(prial.sample_laid_deals(20, seed=5, players=3, spare=True))
    deal = prial.deal_crash(5 + 7, 3)
    row = a.to_pylist()[7 * 3 + 1]
    held = set(prial.parse_cards(row["hands"].replace("|", " ") + " " + row["discards"]))
    assert held == set(deal.hands[1]) or row["exchanged"]


def test_deal_crash_spares_and_exchanges():
    for seed in range(30):
        plain = prial.deal_crash(seed, 3)
        deal = prial.deal_crash(seed, 3, spare=True)
        assert deal.hands == plain.hands and len(deal.spares) == 1
        assert sorted(c for h in deal.hands + deal.spares for c in h) == list(range(52))
        taken = deal.exchange(1)
        assert taken.hands[1] == deal.spares[0] and taken.given_up[1] == deal.hands[1]
        with pytest.raises(prial.InvalidHandError, match="seat 1 took the spare hand first"):
            taken.exchange(0)
        two = prial.deal_crash(seed, 2, spare=True)
        both = two.exchange(0).exchange(1)
        assert both.hands == two.spares and both.given_up == two.hands
        assert len({c for h in two.hands + two.spares for c in h}) == 52
        with pytest.raises(prial.InvalidHandError, match="has exchanged already"):
            two.exchange(0).exchange(0)
    with pytest.raises(prial.InvalidHandError, match="leaves no spare hand"):
        prial.deal_crash(1, 4, spare=True)
    with pytest.raises(prial.InvalidHandError, match="leaves no spare hand"):
        prial.deal_crash(1, 3, cards=9, spare=True)
    with pytest.raises(prial.InvalidHandError, match="has no spare hand"):
        prial.deal_crash(1, 3).exchange(0)
    with pytest.raises(prial.InvalidHandError, match="cards must be 9"):
        prial.deal_crash(1, 3, cards=7)
    with pytest.raises(prial.InvalidHandError, match="players must be a whole number 2 to 4"):
        prial.deal_crash(1, 5)


def _three_player_deal(seed: int) -> tuple[list[dict], prial.CrashDeal]:
    deal = prial.deal_crash(seed, 3, spare=True)
    rows = []
    for seat, held in enumerate(deal.hands):
        split = prial.partition(list(held))
        rows.append({"deal_id": seed, "player": seat, "hands": " | ".join(text(h) for h in split.hands),
                     "discards": text(split.discards), "exchanged": "false", "given_up": ""})
    return rows, deal


def _exchanged_row(deal: prial.CrashDeal, seat: int, deal_id: int) -> dict:
    split = prial.partition(list(deal.spares[0 if len(deal.spares) == 1 else seat]))
    return {"deal_id": deal_id, "player": seat, "hands": " | ".join(text(h) for h in split.hands),
            "discards": text(split.discards), "exchanged": "true", "given_up": text(deal.hands[seat])}


def test_a_good_exchange_scores_and_each_bad_row_is_named(tmp_path):
    good, deal = _three_player_deal(1)
    good[0] = _exchanged_row(deal, 0, 1)
    twice, deal2 = _three_player_deal(2)  # two exchanges for one spare
    twice[1] = _exchanged_row(deal2, 1, 2)
    twice[2] = _exchanged_row(deal2, 2, 2)
    short, _ = _three_player_deal(3)
    short[0]["hands"] = short[0]["hands"][3:]  # a hand of two cards
    few, _ = _three_player_deal(4)
    few[1]["discards"] = ""  # twelve cards
    shared, _ = _three_player_deal(5)
    shared[2]["discards"] = shared[0]["discards"]
    dead, deal6 = _three_player_deal(6)  # a card given up for the spare comes back into play
    dead[0] = _exchanged_row(deal6, 0, 6)
    dead[1]["discards"] = text(deal6.hands[0][:1])
    no_given, _ = _three_player_deal(7)
    no_given[0]["exchanged"] = "true"
    stray, _ = _three_player_deal(8)
    stray[0]["given_up"] = "2c"
    four = [dict(r, deal_id=9) for r in _three_player_deal(9)[0]]
    extra = prial.deal_crash(9, 4).hands[3]
    four.append({"deal_id": 9, "player": 3, "hands": " | ".join(text(h) for h in prial.partition(list(extra)).hands),
                 "discards": text(prial.partition(list(extra)).discards), "exchanged": "false", "given_up": ""})
    others = sorted(set(range(52)) - set(prial.parse_cards(four[0]["hands"].replace("|", " ") + " "
                                                           + four[0]["discards"])))
    four[0] = dict(four[0], exchanged="true", given_up=text(others[:13]))
    rows = good + twice + short + few + shared + dead + no_given + stray + four
    table, errors = scored(tmp_path, rows)
    reasons = {int(e["row"]): e["reason"] for e in errors}
    assert all(int(e["line"]) == int(e["row"]) + 1 for e in errors)
    assert reasons[6] == ("exchanged for the spare hand after the player at row offset 2 did: the first exchange "
                          "blocks the rest")
    assert reasons[7] == "hand 1 holds 2 cards; a hand is three"
    assert reasons[11] == "12 cards in hands and discards; a player is dealt 9 (nine-card) or 13 (crash)"
    assert "also held in this deal by the player at row offset 3" in reasons[13]
    assert "also held in this deal by the player at row offset 1" in reasons[15]
    lent = text(deal6.hands[0][:1])
    assert reasons[16] == f"card {lent} also held in this deal by the player at row offset 2"
    assert reasons[17] == f"card {lent} also held in this deal by the player at row offset 1"
    assert reasons[19] == "exchanged, but given_up holds 0 cards, not the 13 given up"
    assert reasons[22] == "given_up holds cards, but exchanged is not true"
    assert reasons[25].startswith("exchanged for a spare hand, but a deal of 4 players has none")
    assert [e["cards"] for e in errors if int(e["row"]) == 7] == [short[0]["hands"]]
    deal_one = table.filter(pa.compute.equal(table["deal_id"], 1))
    assert deal_one.num_rows == 3 and deal_one["deal_problem"].null_count == 3
    assert deal_one["points"].to_pylist() == reference(good)
    others = table.filter(pa.compute.not_equal(table["deal_id"], 1))
    assert set(others["deal_problem"].to_pylist()) == {"rows of this deal are in the errors file"}


def test_strict_stops_at_the_first_bad_row(tmp_path, capsys):
    rows, _ = _three_player_deal(1)
    rows[1]["hands"] = "As Ad | Kd Kh Ks"
    write_csv(tmp_path / "log.csv", rows)
    assert main(["score", str(tmp_path / "log.csv"), "-o", str(tmp_path / "o.csv"), "--strict"]) == 2
    assert "row 2 (line 3): hand 1 holds 2 cards; a hand is three" in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()


def test_jsonl_values_of_the_wrong_type_are_bad_rows(tmp_path):
    rows, _ = _three_player_deal(3)
    lines = [json.dumps({k: v for k, v in r.items() if k not in ("exchanged", "given_up")}) for r in rows]
    lines[1] = json.dumps({"deal_id": 3, "player": 1, "hands": 7})
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n")
    _, errors = scored(tmp_path, tmp_path / "log.jsonl")
    assert [(e["row"], e["reason"]) for e in errors] == [("2", "hands: expected text, got 7")]


def test_a_log_of_laid_hands_needs_deal_ids_and_good_options(tmp_path, capsys):
    (tmp_path / "hands.csv").write_text('hands\n"As Ad Ah | Ks Kd Kh | Qs Qd Qh"\n')
    assert main(["score", str(tmp_path / "hands.csv"), "-o", str(tmp_path / "o.csv")]) == 2
    assert "a log of laid hands (a 'hands' column) needs a 'deal_id' column" in capsys.readouterr().err
    with pytest.raises(prial.ScoreError, match="min_category: unknown category 'PAIRS'"):
        prial.ScoreOptions(min_category="PAIRS")
    with pytest.raises(prial.ScoreError, match="crash_value must be a whole number"):
        prial.ScoreOptions(crash_value=-1)
    with pytest.raises(prial.ScoreError, match="ties must be one of 'stick_up', 'cancel', got 'split'"):
        prial.ScoreOptions(ties="split")
    with pytest.raises(prial.ScoreError, match="four_bonus must be one of 'best', 'every', got None"):
        prial.ScoreOptions(four_bonus=None)  # type: ignore[arg-type]
    with pytest.raises(prial.ScoreError, match=r"weights must be None or a tuple of four whole numbers >= 0; got \("):
        prial.ScoreOptions(weights=(4, 3))


@pytest.mark.parametrize("argv,message", [
    (["--laid", "crash", "--players", "4", "--spare"], "a deal of 4 players of 13 cards leaves no spare hand"),
    (["--spare"], "spare hands are dealt in logs of laid Crash hands only"),
    (["--laid", "nine_card", "--players", "6"], "players must be a whole number 2 to 5, got 6"),
    (["--laid", "crash", "--dealers", "2"], "dealers, bias and won are for deals of three-card Brag"),
])
def test_sample_refuses_what_its_game_has_not(tmp_path, capsys, argv, message):
    assert main(["sample", "--deals", "3", "-o", str(tmp_path / "x.csv"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("call,message", [
    (lambda: prial.deal_crash(-1), "seed must be a whole number 0 to 18446744073709551615, got -1"),
    (lambda: prial.deal_crash(1, spare=1), "spare must be True or False, got 1"),
    (lambda: prial.deal_crash(1, "3"), "players must be a whole number 2 to 4, got '3'"),
    (lambda: prial.deal_crash(1, 6, cards=9), "players must be a whole number 2 to 5, got 6"),
    (lambda: prial.deal_crash(1, 3, spare=True).exchange(3), "seat must be a whole number 0 to 2, got 3"),
    (lambda: prial.sample_laid_deals(2, game="seven_card"), "game must be one of nine_card, crash"),
    (lambda: prial.write_sample_log("never.csv", 2, laid="draw"), "laid must be None or one of nine_card, crash"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(prial.InvalidHandError, match=message):
        call()


def test_resume_of_a_laid_log_gives_the_same_output(tmp_path):
    log = tmp_path / "log.parquet"
    prial.write_sample_log(log, 40, seed=2, players=3, laid="crash", spare=True, deals_per_row_group=7)
    whole = prial.score_file(log, tmp_path / "a.csv", options=prial.ScoreOptions(chunk_rows=9))
    again = prial.score_file(log, tmp_path / "a.csv", options=prial.ScoreOptions(chunk_rows=9), resume=True)
    assert again.already_complete and whole.deals == 40
    prial.score_file(log, tmp_path / "b.csv", options=prial.ScoreOptions(chunk_rows=1000))
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


def test_deal_problems_of_laid_hands(tmp_path):
    one, _ = _three_player_deal(1)
    mixed = [dict(r, deal_id=2) for r in _three_player_deal(2)[0]]
    nine = prial.deal_crash(2, 3, cards=9).hands[0]
    taken = {c for r in mixed[1:] for c in prial.parse_cards(r["hands"].replace("|", " ") + " " + r["discards"])}
    free = [c for c in range(52) if c not in taken][:9]
    assert len(free) == 9 and nine
    mixed[0] = dict(mixed[0], hands=" | ".join(text(free[i:i + 3]) for i in (0, 3, 6)), discards="")
    alone = [dict(_three_player_deal(3)[0][0], deal_id=3)]
    later = [dict(r, deal_id=1) for r in _three_player_deal(4)[0]]  # deal 1 again, after deals 2 and 3
    maybe, _ = _three_player_deal(5)
    maybe[1]["exchanged"] = "maybe"
    rows = one + mixed + alone + later + maybe
    write_csv(tmp_path / "log.csv", rows)
    rows_text = (tmp_path / "log.csv").read_text().splitlines()
    lost = one[0]  # a row without a deal_id before deal 5
    rows_text.insert(len(rows_text) - 3, f',9,"{lost["hands"]}",{lost["discards"]},false,')
    (tmp_path / "log.csv").write_text("\n".join(rows_text) + "\n")
    table, errors = scored(tmp_path, tmp_path / "log.csv")
    problems = dict(zip(table["deal_id"].to_pylist(), table["deal_problem"].to_pylist()))
    assert problems[1].startswith("the rows of this deal are not consecutive in the log")
    assert problems[2] == "players hold different numbers of cards"
    assert problems[3] == "crash_showdown needs a sequence of at least 2 prial.CrashPlayer"
    assert problems[5].startswith("a row just before or after this deal's rows has no deal_id")
    reasons = [(e["deal_id"], e["reason"]) for e in errors]
    assert reasons == [("", "deal_id missing"), ("5", "exchanged: 'maybe' is neither true nor false")]
    again, again_errors = scored(tmp_path, tmp_path / "scored.csv", name="twice.csv")
    assert again.column_names == table.column_names and again_errors == []
    # Deal 5 lost its bad rows to the errors file: scored again, its two
    # players left make a whole deal.
    assert again["deal_problem"].to_pylist()[:10] == table["deal_problem"].to_pylist()[:10]
    assert again["points"].to_pylist()[10:] == reference(maybe[::2])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 4), laid=st.sampled_from(["nine_card", "crash"]),
       spare=st.booleans())
def test_sampled_deals_score_whole_and_consistently(tmp_path_factory, seed, players, laid, spare):
    spare = spare and laid == "crash" and players < 4
    table = prial.sample_laid_deals(6, seed=seed, players=players, game=laid, spare=spare)
    path = tmp_path_factory.mktemp("laid") / "log.parquet"
    pq.write_table(table, path)
    summary = prial.score_file(path, path.with_name("out.parquet"))
    assert (summary.rows_out, summary.bad_rows, summary.invalid_deals) == (6 * players, 0, 0)
    out = pq.read_table(path.with_name("out.parquet")).to_pylist()
    positions = 4 if laid == "crash" else 3
    for begin in range(0, len(out), players):
        deal = out[begin:begin + players]
        won = [[int(p) for p in row["positions_won"].split()] for row in deal]
        assert sorted(p for w in won for p in w) == sorted(set(p for w in won for p in w))  # one winner a position
        for row, mine in zip(deal, won):
            assert row["points"] == len(mine) + row["four_bonus"]
            assert row["crash"] == (len(mine) == positions)
            assert not row["fouled"]  # the sample lays the strongest hand first
        assert sum(row["four_bonus"] for row in deal) <= 1
        taken = [row["exchanged"] for row in deal] if spare else []
        assert sum(taken) <= (1 if players == 3 else players)
