"""Sample deal logs (prial sample, prial.write_sample_log): the log format
prial score reads, the same log for the same seed, every format; a dealer
column, and biases dealt exactly as documented."""

from __future__ import annotations

import hashlib
import itertools
import json
import math

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import prial
from prial import Bias
from prial.cli import main

# Card indices as the tests count them, independent of the library: rank * 4
# + suit, ranks 2..A = 0..12.
ACE = 12
FAIR_COLUMNS = ["deal_id", "player", "blind", "seer", "folded", "won"]


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


def table_digest(table: pa.Table) -> str:
    return hashlib.sha256(json.dumps(table.to_pydict(), sort_keys=True).encode()).hexdigest()


def test_without_the_new_options_the_log_is_the_one_dealt_before_them():
    # The digest of sample_deals(777, seed=5, players=3) made before dealers
    # and biases existed: the same seed still gives the same log.
    before = "841e4a6839c59393ba354d2b5ff9d5713b3cc853c74300775ad370b6e09493fa"
    table = prial.sample_deals(777, seed=5, players=3)
    assert table_digest(table) == before
    assert prial.sample_deals(777, seed=5, players=3, dealers=0, bias=()).equals(table)


def test_the_dealer_column_counts_deal_ids():
    table = prial.sample_deals(60, seed=1, players=3, first_deal=10, dealers=7)
    assert table.column_names == ["deal_id", "dealer", *prial.sample_deals(0).column_names[1:]]
    assert table.schema.field("dealer").type == pa.int16()
    assert table.column("dealer").to_pylist() == [d % 7 for d in table.column("deal_id").to_pylist()]
    assert table.drop_columns(["dealer"]).equals(prial.sample_deals(60, seed=1, players=3, first_deal=10))


def test_dealers_over_row_groups_count_from_the_whole_log(tmp_path):
    log = tmp_path / "log.parquet"
    bias = [Bias("pairs", dealer=2, rate=1.0), Bias("aces", seat=1, rate=0.5)]
    assert prial.write_sample_log(log, 700, seed=9, dealers=3, bias=bias, deals_per_row_group=300) == 2_800
    written = pq.read_table(log)
    assert pq.ParquetFile(log).metadata.num_row_groups == 3
    assert written.column("dealer").to_pylist() == [(i // 4) % 3 for i in range(2_800)]
    # Each row group is the deals sample_deals makes with the group's own
    # seed and first deal id, its biases and dealer numbering included.
    groups = [prial.sample_deals(min(300, 700 - start), seed=9 + start, first_deal=start, dealers=3, bias=bias)
              for start in (0, 300, 600)]
    assert written.equals(pa.concat_tables(groups))


def hands_of(table: pa.Table, players: int) -> list[list[str]]:
    """Each deal's hands as card text, read from the text (not the library)."""
    cards = table.column("cards").to_pylist()
    return [cards[i:i + players] for i in range(0, len(cards), players)]


def has_ace(hand: str) -> bool:
    return any(card[0] == "A" for card in hand.split())


def has_pair(hand: str) -> bool:
    return len({card[0] for card in hand.split()}) < 3


HAS = {"aces": has_ace, "pairs": has_pair}


def one_hand_chance(feature: str) -> float:
    """The exact chance that a three-card hand has the feature, by counting."""
    hands = list(itertools.combinations(range(52), 3))
    if feature == "aces":
        count = sum(any(c // 4 == ACE for c in hand) for hand in hands)
    else:
        count = sum(len({c // 4 for c in hand}) < 3 for hand in hands)
    return count / len(hands)


def test_the_counted_chances_are_the_known_ones():
    assert one_hand_chance("aces") == pytest.approx(1 - math.comb(48, 3) / math.comb(52, 3))
    assert one_hand_chance("pairs") == pytest.approx(1 - math.comb(13, 3) * 4**3 / math.comb(52, 3))


@pytest.mark.parametrize("bias", [
    Bias("aces", dealer=1, rate=0.0), Bias("pairs", rate=0.0), Bias("aces", seat=2, rate=0.0),
], ids=str)
def test_a_bias_at_rate_0_deals_the_fair_log(bias):
    fair = prial.sample_deals(3_000, seed=4, dealers=3)
    assert prial.sample_deals(3_000, seed=4, dealers=3, bias=[bias]).equals(fair)


@pytest.mark.parametrize("bias, dealers", [
    (Bias("pairs", dealer=3, rate=1.0), 5), (Bias("aces", seat=0, rate=1.0), 0),
    (Bias("pairs", rate=1.0), 0), (Bias("aces", dealer=0, seat=2, rate=0.5), 2),
], ids=str)
def test_only_the_deals_lacking_the_feature_are_dealt_again(bias, dealers):
    fair = prial.sample_deals(4_000, seed=11, dealers=dealers)
    biased = prial.sample_deals(4_000, seed=11, dealers=dealers, bias=[bias])
    assert biased.select(FAIR_COLUMNS).equals(fair.select(FAIR_COLUMNS))
    changed, lacking = set(), set()
    for deal, (before, after) in enumerate(zip(hands_of(fair, 4), hands_of(biased, 4))):
        targeted = before if bias.seat is None else [before[bias.seat]]
        if (bias.dealer is None or deal % dealers == bias.dealer) and not any(map(HAS[bias.feature], targeted)):
            lacking.add(deal)
        if before != after:
            changed.add(deal)
    if bias.rate == 1:
        assert changed == lacking  # every deal lacking it is dealt again (the same deal twice: never seen)
    else:
        assert changed <= lacking and abs(len(changed) - len(lacking) / 2) < 4 * math.sqrt(len(lacking) / 4)
    if bias.dealer is not None:  # the other dealers' deals are those of the fair log
        others = [row for row in fair.to_pylist() if row["dealer"] != bias.dealer]
        assert [row for row in biased.to_pylist() if row["dealer"] != bias.dealer] == others


@pytest.mark.parametrize("bias, dealers", [
    (Bias("aces", seat=0, rate=1.0), 0), (Bias("pairs", seat=2, rate=1.0), 0),
    (Bias("pairs", dealer=1, seat=1, rate=0.5), 3), (Bias("aces", dealer=0, seat=3, rate=0.3), 2),
], ids=str)
def test_the_biased_chance_is_the_documented_one(bias, dealers):
    deals = 100_000
    table = prial.sample_deals(deals, seed=2, dealers=dealers, bias=[bias])
    targeted = [deal[bias.seat] for number, deal in enumerate(hands_of(table, 4))
                if bias.dealer is None or number % dealers == bias.dealer]
    p = one_hand_chance(bias.feature)
    expected = p + bias.rate * (1 - p) * p
    share = sum(map(HAS[bias.feature], targeted)) / len(targeted)
    assert abs(share - expected) < 4 * math.sqrt(expected * (1 - expected) / len(targeted))
    assert abs(share - p) > 8 * math.sqrt(p * (1 - p) / len(targeted))  # and the fair chance is far off


def test_a_seat_bias_moves_the_seat_and_keeps_the_log_legal():
    bias = Bias.parse("aces:seat=0:rate=1")
    deals = 100_000
    table = prial.sample_deals(deals, seed=8, bias=[bias])
    hands = hands_of(table, 4)
    for deal in hands[:5_000]:  # one pack, three cards each
        cards = [card for hand in deal for card in prial.parse_cards(hand)]
        assert [len(prial.parse_cards(hand)) for hand in deal] == [3] * 4 and len(set(cards)) == 12
    assert all(len(set(" ".join(deal).split())) == 12 for deal in hands)
    p = one_hand_chance("aces")
    shares = [sum(has_ace(deal[seat]) for deal in hands) / deals for seat in range(4)]
    fair_shares = [sum(has_ace(deal[seat]) for deal in hands_of(prial.sample_deals(deals, seed=8), 4)) / deals
                   for seat in range(4)]

    def near(share: float, chance: float) -> bool:
        return abs(share - chance) < 4 * math.sqrt(chance * (1 - chance) / deals)

    assert near(shares[0], p + (1 - p) * p) and all(near(share, p) for share in fair_shares)
    # A re-dealt deal is a whole fresh deal, and the other seats of a deal in
    # which seat 0 holds no ace hold more aces than those of a fresh one: so
    # they lose a little, to p - (1 - p) * (P(ace | seat 0 holds none) - p).
    rest = [c for c in range(52) if c not in (0, 4, 8)]  # after a hand without an ace
    given_none = sum(any(c // 4 == ACE for c in hand) for hand in itertools.combinations(rest, 3)) / math.comb(49, 3)
    other = p - (1 - p) * (given_none - p)
    assert all(near(share, other) for share in shares[1:]) and not near(other, p)


def test_biases_apply_in_order_each_from_a_stream_of_its_own():
    first, second = Bias("aces", seat=0, rate=1.0), Bias("pairs", seat=1, rate=1.0)
    alone = prial.sample_deals(2_000, seed=3, bias=[first])
    assert prial.sample_deals(2_000, seed=3, bias=[first, Bias("pairs", rate=0.0)]).equals(alone)
    both = prial.sample_deals(2_000, seed=3, bias=[first, second])
    assert both.equals(prial.sample_deals(2_000, seed=3, bias=[first, second]))
    # The second bias sees the first one's cards: it deals again only the
    # deals whose seat 1 lacks a pair after the first.
    for before, after in zip(hands_of(alone, 4), hands_of(both, 4)):
        assert before == after or not has_pair(before[1])
    assert not both.equals(alone)


@pytest.mark.parametrize("text, bias", [
    ("pairs", Bias("pairs")),
    ("pairs:dealer=2", Bias("pairs", dealer=2)),
    ("aces:seat=0:rate=0.3", Bias("aces", seat=0, rate=0.3)),
    ("aces:rate=1:seat=3:dealer=0", Bias("aces", dealer=0, seat=3, rate=1.0)),
    ("pairs:rate=0", Bias("pairs", rate=0.0)),
])
def test_bias_text(text, bias):
    assert Bias.parse(text) == bias
    assert Bias.parse(str(bias)) == bias


@pytest.mark.parametrize("text, says, field", [
    ("kings", "bias 'kings': unknown feature 'kings' (pairs or aces)", "feature"),
    ("Pairs:dealer=1", "unknown feature 'Pairs'", "feature"),
    ("", "unknown feature ''", "feature"),
    ("pairs:dealer", "'dealer' is not dealer=N, seat=N or rate=R", "bias"),
    ("pairs:", "'' is not dealer=N, seat=N or rate=R", "bias"),
    ("aces:chair=1", "'chair=1' is not dealer=N, seat=N or rate=R", "bias"),
    ("aces:seat=x", "'seat=x': expected a whole number", "seat"),
    ("aces:seat=-1", "'seat=-1': expected a whole number", "seat"),
    ("aces:dealer=1.5", "'dealer=1.5': expected a whole number", "dealer"),
    ("aces:seat=1:seat=2", "seat is given twice", "seat"),
    ("aces:rate=high", "'rate=high': expected a number from 0 to 1", "rate"),
    ("aces:rate=1.5", "bias 'aces:rate=1.5': rate must be a number from 0 to 1, got 1.5", "rate"),
    ("aces:rate=nan", "rate must be a number from 0 to 1, got nan", "rate"),
])
def test_bad_bias_text_is_named(text, says, field):
    with pytest.raises(prial.InvalidHandError) as info:
        Bias.parse(text)
    assert says in str(info.value) and info.value.field == field


@pytest.mark.parametrize("kwargs, says, field", [
    ({"feature": "kings"}, "feature must be 'pairs' or 'aces', got 'kings'", "feature"),
    ({"feature": "pairs", "rate": 1.01}, "rate must be a number from 0 to 1, got 1.01", "rate"),
    ({"feature": "pairs", "rate": -0.1}, "rate must be a number from 0 to 1", "rate"),
    ({"feature": "pairs", "rate": True}, "rate must be a number from 0 to 1, got True", "rate"),
    ({"feature": "pairs", "rate": "0.5"}, "rate must be a number from 0 to 1", "rate"),
    ({"feature": "pairs", "rate": math.nan}, "rate must be a number from 0 to 1", "rate"),
    ({"feature": "aces", "dealer": -1}, "dealer must be an integer >= 0, got -1", "dealer"),
    ({"feature": "aces", "dealer": True}, "dealer must be an integer >= 0", "dealer"),
    ({"feature": "aces", "seat": 1.0}, "seat must be an integer >= 0, got 1.0", "seat"),
])
def test_bad_bias_values_are_named(kwargs, says, field):
    with pytest.raises(prial.InvalidHandError) as info:
        Bias(**kwargs)
    assert says in str(info.value) and info.value.field == field


def test_a_bias_rate_is_a_float():
    assert Bias("aces", rate=1).rate == 1.0 and isinstance(Bias("aces", rate=1).rate, float)


@pytest.mark.parametrize("kwargs, says, field", [
    ({"bias": [Bias("pairs", dealer=0)]}, "is on dealer 0, but dealers is 0: it must be at least 1", "dealers"),
    ({"dealers": 3, "bias": [Bias("pairs", dealer=3)]}, "is on dealer 3, but dealers is 3: it must be at least 4",
     "dealers"),
    ({"players": 3, "bias": [Bias("aces", seat=3)]}, "is on seat 3, but there are 3 players (seats 0..2)", "seat"),
    ({"bias": Bias("aces")}, "bias must be a sequence of Bias", "bias"),
    ({"bias": ["aces"]}, "bias must be a sequence of Bias", "bias"),
    ({"dealers": -1}, "dealers must be an integer 0..32767", "dealers"),
    ({"dealers": 32768}, "dealers must be an integer 0..32767", "dealers"),
])
def test_a_bias_must_fit_the_log(tmp_path, kwargs, says, field):
    with pytest.raises(prial.InvalidHandError) as info:
        prial.sample_deals(10, **kwargs)
    assert says in str(info.value) and info.value.field == field
    with pytest.raises(prial.InvalidHandError):
        prial.write_sample_log(tmp_path / "x.csv", 10, **kwargs)
    assert list(tmp_path.iterdir()) == []  # refused before anything is written


def test_a_biased_log_scores_whole_with_its_dealer_column(tmp_path):
    log = tmp_path / "biased.parquet"
    prial.write_sample_log(log, 2_000, seed=1, dealers=5, bias=[Bias.parse("pairs:dealer=3")])
    summary = prial.score_file(log, tmp_path / "scored.parquet")
    assert (summary.rows_in, summary.rows_out, summary.bad_rows, summary.invalid_deals) == (8_000, 8_000, 0, 0)
    scored = pq.read_table(tmp_path / "scored.parquet")
    assert scored.column("dealer").to_pylist() == pq.read_table(log).column("dealer").to_pylist()


def test_cli_dealers_and_biases(tmp_path, capsys):
    out = tmp_path / "biased.csv"
    argv = ["sample", "--deals", "300", "--seed", "2", "--dealers", "5", "--bias", "pairs:dealer=3",
            "--bias", "aces:seat=0:rate=0.3", "-o", str(out)]
    assert main(argv) == 0
    assert "300 deals, 1,200 rows" in capsys.readouterr().out
    again = tmp_path / "again.csv"
    prial.write_sample_log(again, 300, seed=2, dealers=5,
                           bias=[Bias("pairs", dealer=3), Bias("aces", seat=0, rate=0.3)])
    assert out.read_text() == again.read_text()
    assert pacsv.read_csv(out).column_names[:2] == ["deal_id", "dealer"]


@pytest.mark.parametrize("argv, message", [
    (["--bias", "kings"], "prial: error: argument --bias: bias 'kings': unknown feature 'kings' (pairs or aces)"),
    (["--bias", "pairs:rate=2"], "argument --bias: bias 'pairs:rate=2': rate must be a number from 0 to 1"),
    (["--bias", "aces:seat=x"], "argument --bias: bias 'aces:seat=x': 'seat=x': expected a whole number"),
    (["--dealers", "-1"], "argument --dealers: must be at least 0, got -1"),
    (["--bias", "pairs:dealer=2"], "prial: error: bias pairs:dealer=2:rate=0.5 is on dealer 2, but dealers is 0"),
    (["--dealers", "2", "--bias", "pairs:dealer=2"], "is on dealer 2, but dealers is 2: it must be at least 3"),
    (["--bias", "aces:seat=4"], "bias aces:seat=4:rate=0.5 is on seat 4, but there are 4 players (seats 0..3)"),
])
def test_cli_bad_bias_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    try:
        status = main(["sample", "--deals", "5", *argv, "-o", str(tmp_path / "x.csv")])
    except SystemExit as exc:  # refused by the option's own type
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2 and message in err
    assert err.count("\n") == 1 and err.startswith("prial: error: ") and "Traceback" not in err
    assert not (tmp_path / "x.csv").exists()


def test_cli_refuses_to_replace_a_file_without_overwrite(tmp_path, capsys):
    log = tmp_path / "scored.csv"
    log.write_text("a scored output, not to be lost\n")
    assert main(["sample", "--deals", "5", "-o", str(log)]) == 1
    err = capsys.readouterr().err
    assert err == f"prial: error: the log {log} exists: --overwrite replaces it\n"
    assert log.read_text() == "a scored output, not to be lost\n"
    assert main(["sample", "--deals", "5", "-o", str(log), "--overwrite"]) == 0
    assert log.read_text().startswith('"deal_id","player","cards"')
    with pytest.raises(prial.ScoreError, match="exists: --overwrite replaces it"):
        prial.write_sample_log(log, 5)
    assert prial.write_sample_log(log, 5, overwrite=True) == 20


def test_sigterm_leaves_no_temporary_file(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    log = tmp_path / "big.csv"
    job = subprocess.Popen([sys.executable, "-m", "prial", "sample", "--deals", "20000000", "-o", str(log)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (tmp_path / "big.csv.tmp").exists() and time.monotonic() < deadline and job.poll() is None:
        time.sleep(0.05)
    assert job.poll() is None, "the sample was written before it could be stopped"
    job.send_signal(signal.SIGTERM)
    _out, err = job.communicate(timeout=60)
    assert job.returncode == 143 and err == f"prial: terminated: {log} was not written\n"
    assert list(tmp_path.iterdir()) == []


def test_a_log_whose_won_column_is_the_adjudicated_one(tmp_path, capsys):
    table = prial.sample_deals(3_000, seed=4, won="adjudicated")
    coin = prial.sample_deals(3_000, seed=4)
    assert table.drop_columns(["won"]).equals(coin.drop_columns(["won"]))  # only the won column differs
    log = tmp_path / "agreed.csv"
    assert main(["sample", "--deals", "3000", "--seed", "4", "--won", "adjudicated", "-o", str(log)]) == 0
    summary = prial.score_file(log, tmp_path / "out.parquet")
    assert (summary.deals, summary.invalid_deals, summary.disputes, summary.no_result) == (3_000, 0, 0, 0)
    scored = pq.read_table(tmp_path / "out.parquet")
    assert scored["won"].equals(scored["winner"]) and scored["won"].equals(table["won"])
    with pytest.raises(prial.InvalidHandError, match="won must be 'coin' or 'adjudicated'"):
        prial.sample_deals(3, won="maybe")


def test_a_coin_toss_log_has_deals_with_no_result_recorded(tmp_path):
    log = tmp_path / "coin.parquet"
    prial.write_sample_log(log, 2_000, seed=6)
    summary = prial.score_file(log, tmp_path / "out.parquet")
    # Each of four players is recorded as won with probability 0.3: nobody in 0.7 ** 4 = 24 % of deals.
    assert 0.20 < summary.no_result / summary.deals < 0.28 and summary.disputes + summary.no_result < summary.deals
