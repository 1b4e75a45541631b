"""Tables a person reads: every column labelled, the ruleset said in a few
words, lines within 100 columns; prial odds takes hands of 3, 4 or 5 cards
and says which table it prints."""

from __future__ import annotations

import itertools
import re

import pytest

import prial
from prial.cli import main


def printed(capsys, argv) -> list[str]:
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("hand, cards", [("As Kd Qh", 3), ("As Kd Qh 5c", 4), ("As Kd Qh 5c 9s", 5)])
def test_odds_of_a_hand_use_the_table_of_its_size(capsys, hand, cards):
    lines = printed(capsys, ["odds", "--hand", hand])
    total = prial.odds(cards=cards).total
    assert lines[0] == f"{cards}-card hands: {total:,} (brag{', each by its best three' if cards > 3 else ''})"
    e = prial.equity(hand)
    assert f"{e.win:.4%}" in lines[-1] and f"{prial.percentile(hand):.4%}" in lines[-1]


def test_odds_refuses_a_hand_of_another_size(capsys):
    assert main(["odds", "--hand", "As Kd"]) == 2
    assert "--hand 'As Kd': 2 cards; a hand has 3, 4 or 5" in capsys.readouterr().err
    assert main(["odds", "--hand", "As Kd Qh 5c", "--cards", "3"]) == 2
    assert "has 4 cards but --cards is 3" in capsys.readouterr().err


@pytest.mark.parametrize("options, words", [
    ([], "brag"), (["--rules", "teen_patti"], "teen_patti"),
    (["--lowball", "--wild", "deuces"], "brag, lowball, wild deuces"),
    (["--jokers", "2", "--top-prial", "ace"], "brag, top-prial ace, 2 jokers"),
    (["--wild", "black_deuces", "--wild-as-itself", "natural"], "brag, wild-as-itself natural, wild black_deuces"),
    (["--suit-order", "SHDC"], "brag, suit order shdc"),
])
def test_the_ruleset_in_a_few_words(capsys, options, words):
    assert printed(capsys, ["odds", *options])[0].endswith(f"({words})")


@pytest.mark.parametrize("argv", [
    ["showdown", "3s 2h Ah", "Kd Kh 4c", "7s 7h Qc", "--stakes", "5", "5", "5", "--blind", "3"],
    ["odds", "--hand", "As Kd Qh 5c 9s", "--rules", "three_card_poker", "--jokers", "1"],
    ["rank", "3s 2h Ah", "10♥ J♥ Q♥", "Kd Kh 4c"],
    ["partition", "Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js", "--objective", "expected_points"],
    ["best-of", "As Kd 7h 7c 2s"],
])
def test_tables_label_every_column_and_fit_100_columns(capsys, argv):
    lines = printed(capsys, argv)
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    rules = [i for i, line in enumerate(lines) if line and set(line) <= {"-", " "}]
    for i in rules:  # the header above each rule of dashes
        header, dashes = lines[i - 1], lines[i]
        assert len(header.split()) >= len(dashes.split()), (header, dashes)
    assert all("Rules(" not in line for line in lines)


def test_the_showdown_table_says_what_each_column_holds(capsys):
    lines = printed(capsys, ["showdown", "3s 2h Ah", "Kd Kh 4c", "--seer", "2", "--stakes", "5", "5"])
    assert lines[0].split() == ["player", "cards", "hand", "plays", "role", "result", "payout"]


@pytest.mark.slow
def test_bench_fits_100_columns_and_says_what_each_ratio_compares(capsys):
    lines = printed(capsys, ["bench", "--hands", "2000", "--scalar-hands", "200", "--deals", "4", "--repeat", "1",
                             "--table-deals", "20"])
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    assert any(line.startswith("ratio: the baseline's median time over the figure's") for line in lines)
    # each section: a title, its table, then what its baseline is
    tables = [i for i, line in enumerate(lines) if line.split()[:5] == ["figure", "items", "rate", "median", "ratio"]]
    assert len(tables) == 7
    for start in tables:
        rows = list(itertools.takewhile(lambda line: not line.startswith("Baseline"), lines[start + 2:]))
        note = " ".join(itertools.takewhile(lambda line: line.strip(), lines[start + 2 + len(rows):]))
        assert note.startswith("Baseline"), "a section without its note"
        baselines = [row for row in rows if "(baseline)" in row]
        compared = [row for row in rows if row.endswith("x")]
        if "PokerKit is not installed here" in note:  # the betting table without its optional baseline
            assert not baselines and not compared
            continue
        assert baselines and compared  # every section compares something with its baseline
        assert all(re.fullmatch(r".*  \d+\.\d\dx", row) for row in compared)
        # the fused kernels' sections state a rate against a one-hand call, the
        # three-card section its kernel levels against their streaming floors,
        # and no other section has the column
        stating = any(("best_of_batch" in row or "showdown_batch" in row or "streaming floor" in row)
                      for row in rows)
        assert lines[start].rstrip().endswith("vs rate") == stating


@pytest.mark.parametrize("flag", ["--hands", "--scalar-hands", "--deals", "--repeat", "--table-deals"])
def test_bench_refuses_nothing_to_measure(capsys, flag):
    with pytest.raises(SystemExit) as info:
        main(["bench", flag, "0"])
    assert info.value.code == 2
    assert f"argument {flag}: must be at least 1, got 0" in capsys.readouterr().err
