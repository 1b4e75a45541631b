"""``prial call``, every RPC against a real ``prial serve``: the tables of
the local commands from the same arguments, --json checked against the
library, a file streamed, TLS with a client certificate and a token, and
every failure in one line with the right exit status."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import prial
from prial.cli import main

from .grpc_helpers import ServerProcess, free_port


@pytest.fixture(autouse=True)
def grpc_logs_quieted_per_test(monkeypatch):
    # prial call quiets gRPC's own logs through the environment: undone after each test.
    monkeypatch.setenv("GRPC_VERBOSITY", os.environ.get("GRPC_VERBOSITY", "NONE"))


def run(capsys, argv: list[str], code: int = 0) -> tuple[str, str]:
    assert main(argv) == code, capsys.readouterr().err
    captured = capsys.readouterr()
    return captured.out, captured.err


def call(capsys, server, *argv: str) -> str:
    return run(capsys, ["call", "--target", server.target, *argv])[0]


def one_error_line(err: str) -> str:
    assert err.startswith("prial: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def prial_process(*argv: str) -> subprocess.Popen:
    """``prial`` in a process of its own, gRPC's logs left to it to quiet."""
    env = {name: value for name, value in os.environ.items() if name != "GRPC_VERBOSITY"}
    return subprocess.Popen([sys.executable, "-m", "prial", *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def finish(process: subprocess.Popen) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err


FULL_DECK_CRASH = ["As Ad Ah | Ks Kd Kh | Qs Qd Qh | Js Jd Jh / 2c",
                   "Ts Td Th | 9s 9d 9h | 8s 8d 8h | 7s 7d 7h / 3c"]


# -- the local commands' tables, from a server --------------------------------

@pytest.mark.parametrize("local", [
    ["rank", "3s 2h Ah", "10♥ J♥ Q♥", "Kd Kh 4c"],
    ["rank", "3s 2h Ah", "Kd Kh 4c", "--rules", "teen_patti", "--json"],
    ["rank", "2s 7h 9d", "Kd Kh 4c", "--wild", "deuces", "--lowball"],
    ["rank", "As 2s 3s", "Ah 2h 3h", "--wild", "black_deuces", "--wild-as-itself", "natural", "--json"],
    ["rank", "Ks Qd 9c", "Kh Qs 9s", "--suit-order", "shdc", "--json"],
    ["partition", "Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js", "--objective", "expected_points"],
    ["partition", "Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js", "--min-category", "PAIR", "--json"],
    ["showdown", "3s 2h Ah", "Kd Kh 4c", "--seer", "2", "--stakes", "5", "5"],
    ["showdown", "7s 7h Qc", "7d 7c Qh", "As Ad 2h", "--stakes", "5", "6", "0", "--coverer", "3",
     "--old-pot", "9", "--json"],
    ["showdown", "As Ad Kh 9c", "Ac Ah Kd 7c", "--seer", "1", "--blind", "1"],
    ["odds", "--cards", "4", "--rules", "three_card_poker"],
    ["odds", "--jokers", "2", "--json"],
    ["crash", *FULL_DECK_CRASH, "--weights", "4", "3", "2", "1"],
    ["crash", "As Ad Ah | 2s 3s 4s / 5c", "/ Ks Kd Qs Qd Js Jd Ts Td 9s 9d 8s 8d 7c", "--six-pairs", "2", "--json"],
    ["casino", "Ah Kh Qh", "Jc Jd 4s", "--ante", "10", "--pair-bonus", "5"],
    ["casino", "4h 3h 2h", "Ac Ad As", "--paytable", "three_card_poker_1_4_6_30_40", "--fold", "--pair-bonus", "2",
     "--pair-bonus-on-fold", "forfeited", "--json"],
])
def test_call_prints_what_the_local_command_prints(capsys, grpc_server, local):
    here = run(capsys, local)[0]
    rpc = "evaluate" if local[0] == "rank" else local[0]
    there = call(capsys, grpc_server, rpc, *local[1:])
    assert there == here
    assert len(here.splitlines()) >= 4  # a real answer was compared


@pytest.mark.parametrize("hand", ["As Kd Qh", "As Kd Qh 5c"])
def test_odds_and_equity_of_a_hand_print_its_percentile_as_here(capsys, grpc_server, hand):
    argv = ["odds", "--hand", hand, "--opponents", "2", "--samples", "20000", "--seed", "7"]
    here, there = run(capsys, argv)[0], call(capsys, grpc_server, *argv)
    assert there == here
    assert here.splitlines()[-3].split() == ["win", "tie", "lose", "deals", "percentile"]
    assert here.splitlines()[-1].split()[-1] == f"{prial.percentile(hand):.4%}"
    local = json.loads(run(capsys, [*argv, "--json"])[0])
    remote = json.loads(call(capsys, grpc_server, *argv, "--json"))
    assert remote == local and local["percentile"] == prial.percentile(hand) == local["equity"]["percentile"]
    alone = call(capsys, grpc_server, "equity", *argv[2:]).splitlines()
    assert alone == here.splitlines()[-4:]  # the equity table of prial odds --hand
    assert json.loads(call(capsys, grpc_server, "equity", *argv[2:], "--json")) == local["equity"]


def test_evaluate_four_and_five_cards_adds_the_best_of_key(capsys, grpc_server):
    hands = ["As Kd 7h 7c 2s", "3s 2h Ah 9c 9d", "Qh Jh Th 2c 3c"]
    lines = call(capsys, grpc_server, "evaluate", *hands).splitlines()
    assert lines[0].split() == ["hand", "strength", "key", "category", "description"]
    rows = json.loads(call(capsys, grpc_server, "evaluate", *hands, "--json"))
    for hand, row in zip(hands, rows):
        best = prial.best_of(hand)
        assert (row["strength"], row["key"], row["category"], row["description"]) == (
            best.strength, best.key, best.category.name, best.description)
        assert row["cards"] == prial.parse_cards(hand) and str(best.key) in "\n".join(lines)


# -- RPCs without a local command ----------------------------------------------

def write_hands(path, width: int, count: int) -> list[str]:
    hands = [prial.format_cards(list(row)) for row in prial.random_hands(count, width, seed=width)]
    path.write_text("# a log of hands\n\n" + "\n".join(hands) + "\n")
    return hands


def test_stream_a_file_gives_what_prial_rank_gives(capsys, grpc_server, tmp_path):
    path = tmp_path / "hands.txt"
    hands = write_hands(path, 3, 3000)
    rows = [json.loads(line) for line in
            call(capsys, grpc_server, "stream", str(path), "--batch", "700", "--json").splitlines()]
    assert [row.pop("line") for row in rows] == list(range(3, 3003))  # after the comment and the blank line
    assert rows == json.loads(run(capsys, ["rank", *hands, "--json"])[0])
    table = call(capsys, grpc_server, "stream", str(path), "--batch", "700").splitlines()
    assert table[0].split() == ["line", "hand", "strength", "category", "description"]
    assert len(table) == 2 + 3000 and table[2].split()[:4] == ["3", *hands[0].split()]


@pytest.mark.parametrize("source", ["file", "pipe"])
def test_a_streamed_table_lines_up_from_its_first_batch_to_its_last(capsys, grpc_server, tmp_path, monkeypatch,
                                                                    source):
    # The first batch: one-digit lines, short categories; later ones: longer
    # line numbers, hands written longer, the longest categories.
    given = ["2c 7d 9h", "3c 3d 9h", "10h Jh Qh", "Q\u2660 Q\u2665 Q\u2666", "Ah 2h 3h"] * 5
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(given) + "\n")
    if source == "pipe":
        monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text()))  # no file behind it
    lines = call(capsys, grpc_server, "stream", str(path) if source == "file" else "-", "--batch", "2").splitlines()
    header, rows = lines[0], lines[2:]
    names = ["line", "hand", "strength", "category", "description"]
    starts = [header.index(name) for name in names]
    starts[0] = 0  # line numbers are right-aligned under their name
    starts[2] = starts[1] + len(prial.format_cards(prial.parse_cards(given[0]))) + 2  # so are strengths
    assert len(rows) == len(given)
    for number, (hand, row) in enumerate(zip(given, rows), 1):
        value = prial.evaluate(hand)
        cells = [row[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
        assert cells == [str(number), prial.format_cards(prial.parse_cards(hand)), str(value.strength),
                         value.category.name, value.description], row


def test_stream_five_card_hands_from_standard_input(capsys, grpc_server, tmp_path, monkeypatch):
    hands = write_hands(tmp_path / "hands.txt", 5, 1200)
    monkeypatch.setattr(sys, "stdin", io.StringIO((tmp_path / "hands.txt").read_text()))
    rows = [json.loads(line) for line in call(capsys, grpc_server, "stream", "-", "--json").splitlines()]
    keys = prial.Evaluator().best_of_batch(np.array([prial.parse_cards(h) for h in hands], np.uint8))
    assert [row["key"] for row in rows] == keys.tolist()
    assert rows[0]["description"] == prial.best_of(hands[0]).description


def test_a_bad_line_ends_the_stream_after_the_hands_before_it(capsys, grpc_server, tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text("3s 2h Ah\n4c 5c 6c\n\n3s 3s Ah\nKd Kh 4c\n")
    out, err = run(capsys, ["call", "--target", grpc_server.target, "stream", str(path), "--batch", "2"], 1)
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["1", "2"]  # the first batch, answered
    first, violation = err.splitlines()
    assert first.startswith("prial: error: the server refused the request (INVALID_ARGUMENT): ")
    assert "duplicate card 3s" in first
    assert violation == f"  field batch[1].cards[0] ({path} line 4: '3s 3s Ah')"
    path.write_text("3s 2h Ah\n4c 5c 6c\nZz 2h Ah\n")
    out, err = run(capsys, ["call", "--target", grpc_server.target, "stream", str(path), "--batch", "2"], 2)
    assert len(out.splitlines()) == 4  # header, rule, the two hands before
    assert f"{path} line 3 ('Zz 2h Ah'): card 1 ('Zz'): unknown rank 'Z'" in one_error_line(err)
    path.write_text("3s 2h Ah\n4c 5c 6c 7c\n")
    err = run(capsys, ["call", "--target", grpc_server.target, "stream", str(path)], 2)[1]
    assert "line 2 ('4c 5c 6c 7c'): 4 cards, but the first hand has 3" in one_error_line(err)


def test_showdown_batch_from_arguments_and_from_a_file(capsys, grpc_server, tmp_path):
    deals = prial.random_hands(300, 6, seed=3)
    seers, seens = deals[:, :3].copy(), deals[:, 3:].copy()
    expected = prial.showdown_batch(seers, seens)
    assert 0 < expected.sum() < len(expected)  # both outcomes occur
    pairs = [f"{prial.format_cards(list(a))} | {prial.format_cards(list(b))}" for a, b in zip(seers, seens)]
    (tmp_path / "sees.txt").write_text("# seer | seen\n" + "\n".join(pairs) + "\n")
    rows = json.loads(call(capsys, grpc_server, "showdown-batch", "--file", str(tmp_path / "sees.txt"), "--json"))
    assert [row["seer_wins"] for row in rows] == expected.astype(bool).tolist()
    assert rows[0]["seer"] == prial.format_cards(list(seers[0]))
    lines = call(capsys, grpc_server, "showdown-batch", *pairs[:5]).splitlines()
    assert lines[0].split() == ["pair", "seer", "seen", "winner"]
    assert [line.split()[-1] for line in lines[2:]] == ["seer" if w else "seen" for w in expected[:5]]
    tie = call(capsys, grpc_server, "showdown-batch", "7s 7h Qc | 7d 7c Qh").splitlines()[-1]
    assert tie.split()[-1] == "seen"  # the seer loses ties


def test_crash_scores_like_the_library(capsys, grpc_server):
    out = call(capsys, grpc_server, "crash", *FULL_DECK_CRASH)
    assert "crash: player 1 won every position" in out and "1 scores 1: Prial of aces" in out
    data = json.loads(call(capsys, grpc_server, "crash", *FULL_DECK_CRASH, "--weights", "4", "3", "2", "1",
                           "--min-category", "PAIR", "--json"))
    players = [prial.CrashPlayer(str(n), [h.strip() for h in text.split("/")[0].split("|")],
                                 text.split("/")[1].strip()) for n, text in enumerate(FULL_DECK_CRASH, 1)]
    expected = prial.crash_showdown(players, scoring=[4, 3, 2, 1], min_category="PAIR")
    assert data == expected.to_dict() and data["points"] == {"1": 10, "2": 0}
    data = json.loads(call(capsys, grpc_server, "crash", *FULL_DECK_CRASH, "--crash-value", "2", "--json"))
    assert data == prial.crash_showdown(players, crash_value=2).to_dict() and data["points"] == {"1": 6, "2": 0}


def test_crash_fouls_and_six_pairs(capsys, grpc_server):
    fouled = "Ks Kd 2h | As Ad Ah | Qs Qd Qh | Js Jd Jh / 2c"  # the weaker hand laid first
    out = call(capsys, grpc_server, "crash", fouled, FULL_DECK_CRASH[1])
    assert "hand 2 (Prial of aces) is stronger than hand 1" in out
    pairs = "As Ad 2h | Ks Kd 2d | Qs Qd 3h | Js Jd 3d / 4c"
    out = call(capsys, grpc_server, "crash", pairs, FULL_DECK_CRASH[1], "--six-pairs", "1")
    assert "void: player 1 declared six pairs; nothing scores" in out


@pytest.mark.parametrize("options, play", [([], 10), (["--fold"], None), (["--play", "10"], 10)])
def test_casino_settles_like_the_library(capsys, grpc_server, options, play):
    argv = ["casino", "Ah Kh Qh", "Jc Jd 4s", "--ante", "10", "--pair-bonus", "5", *options]
    data = json.loads(call(capsys, grpc_server, *argv, "--json"))
    expected = prial.settle_casino("Ah Kh Qh", "Jc Jd 4s", 10, play, 5)
    assert data == expected.to_dict()
    out = call(capsys, grpc_server, *argv).splitlines()
    assert out[0] == f"player: Running flush, A-K-Q{' (folded)' if play is None else ''}"
    assert out[-1] == f"net: {expected.net:+,} chips"


def test_casino_three_card_poker_and_its_pay_table(capsys, grpc_server):
    argv = ["casino", "Ah Kh Qh", "Jc Jd 4s", "--game", "three_card_poker", "--paytable", "pair_plus_1_4_6_30_40",
            "--pair-bonus", "1", "--json"]
    data = json.loads(call(capsys, grpc_server, *argv))
    assert data == prial.settle_casino("Ah Kh Qh", "Jc Jd 4s", 1, 1, 1, game="three_card_poker",
                                       paytable="pair_plus_1_4_6_30_40").to_dict()


@pytest.mark.parametrize("on_fold", ["settles", "forfeited"])
def test_casino_pair_bonus_on_fold_and_the_tables_own_game(capsys, grpc_server, on_fold):
    argv = ["casino", "4h 3h 2h", "Ac Ad As", "--paytable", "three_card_poker_1_4_6_30_40", "--pair-bonus", "2",
            "--fold", "--pair-bonus-on-fold", on_fold, "--json"]
    data = json.loads(call(capsys, grpc_server, *argv))
    table = dataclasses.replace(prial.PAYTABLES["three_card_poker_1_4_6_30_40"], pair_bonus_on_fold=on_fold)
    assert data == prial.settle_casino("4h 3h 2h", "Ac Ad As", 1, None, 2, paytable=table).to_dict()
    assert data["net"] == (-1 - 2 if on_fold == "forfeited" else -1 + 2 * 40)


def test_equity_is_the_table_of_odds_hand(capsys, grpc_server):
    argv = ["As Kd Qh", "--opponents", "2", "--dead", "2c 3c"]
    data = json.loads(call(capsys, grpc_server, "equity", *argv, "--json"))
    assert data == prial.equity("As Kd Qh", 2, "2c 3c", with_percentile=True).to_dict()
    lines = call(capsys, grpc_server, "equity", *argv).splitlines()
    assert lines[0] == "As Kd Qh against 2 opponent(s) (exact, every deal):"
    assert lines[1].split() == ["win", "tie", "lose", "deals", "percentile"] and f"{data['win']:.4%}" in lines[3]


def test_health(capsys, grpc_server):
    assert call(capsys, grpc_server, "health") == "SERVING\n"
    assert json.loads(call(capsys, grpc_server, "health", "--service", "prial.v1.Prial", "--json")) == {
        "service": "prial.v1.Prial", "status": "SERVING"}


@pytest.mark.slow
def test_health_exits_1_unless_serving(capsys):
    """As a probe: a draining server answers NOT_SERVING, and that fails."""
    with ServerProcess("--drain", "3") as server:
        server.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 2  # within the drain: the server still answers
        while (code := main(["call", "--target", server.target, "health"])) == 0 and time.monotonic() < deadline:
            capsys.readouterr()
            time.sleep(0.05)
        assert (code, *capsys.readouterr()) == (1, "NOT_SERVING\n", "")
        out, _ = run(capsys, ["call", "--target", server.target, "health", "--json"], 1)
        assert json.loads(out) == {"service": "", "status": "NOT_SERVING"}
        assert server.terminate(signal_first=False) == 0


@pytest.mark.parametrize("argv", [
    ["stream", "-"], ["showdown-batch", "3s 2h Ah | Kd Kh 4c"], ["crash", *FULL_DECK_CRASH],
    ["casino", "Ah Kh Qh", "Jc Jd 4s", "--pair-bonus", "5"], ["equity", "As Kd Qh 5c", "--samples", "1000"],
    ["evaluate", "As Kd 7h 7c 2s"],
])
def test_tables_label_every_column_and_fit_100_columns(capsys, grpc_server, monkeypatch, argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO("Qh Jh Th\nAs 2d 3c\n"))
    lines = call(capsys, grpc_server, *argv).splitlines()
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    rules = [i for i, line in enumerate(lines) if line and set(line) <= {"-", " "}]
    assert rules
    for i in rules:  # the header above each rule of dashes
        assert len(lines[i - 1].split()) >= len(lines[i].split()), (lines[i - 1], lines[i])


# -- failures -------------------------------------------------------------------

def test_the_server_refusing_a_request_is_its_error_and_the_fields_at_fault(capsys, grpc_server):
    out, err = run(capsys, ["call", "--target", grpc_server.target, "showdown", "3s 2h Ah", "Kd Kh 4c",
                            "--seer", "1", "--blind", "2"], 1)
    assert out == ""
    first, field = err.splitlines()
    assert first == ("prial: error: the server refused the request (INVALID_ARGUMENT): you cannot see a blind "
                     "man: open player '1' cannot see blind player '2'")
    assert field == "  field players[0]"


@pytest.mark.parametrize("argv, says", [
    (["evaluate", "3s 2h Zz"], "hand 1 ('3s 2h Zz'): card 3 ('Zz'): unknown rank 'Z'"),
    (["showdown", "3s 2h Ah", "Kd Kh Qx"], "player '2': card 3 ('Qx'): unknown suit 'x'"),
    (["partition", "As Ad 7h Zz 2c 3c"], "card 4 ('Zz'): unknown rank 'Z'"),
    (["equity", "As Kd"], "HAND 'As Kd': 2 cards; a hand has 3, 4 or 5"),
    (["odds", "--hand", "As Kd Qh", "--dead", "1c"], "dead: card 1 ('1c'): unknown rank '1'"),
    (["showdown-batch", "3s 2h Ah Kd Kh 4c"], "pair 1 ('3s 2h Ah Kd Kh 4c'): expected the seer's cards |"),
    (["showdown-batch", "3s 2h Ah | Kd Kh 4c", "As Kd 7h 7c | 2s 3s 4s 5s"],
     "pair 2 ('As Kd 7h 7c | 2s 3s 4s 5s') seer: 4 cards, but the first hand has 3"),
    (["showdown-batch"], "give the sees as PAIR arguments or in --file FILE"),
    (["crash", "As Ad Ah | Ks Kd Kh / Zc", FULL_DECK_CRASH[1]], "player '1' discards: card 1 ('Zc')"),
    (["crash", *FULL_DECK_CRASH, "--six-pairs", "3"], "--six-pairs 3: players are numbered 1..2"),
    (["--tls-cert", "c.pem", "health"], "--tls-cert and --tls-key go together"),
])
def test_bad_input_is_one_line_and_exit_2_before_any_call(capsys, argv, says):
    target = f"127.0.0.1:{free_port()}"  # nothing listens: the input is refused before a call
    assert says in one_error_line(run(capsys, ["call", "--target", target, *argv], 2)[1])


@pytest.mark.parametrize("argv, says", [
    (["stream", "x.txt", "--batch", "0"], "argument --batch: must be from 1 to 100,000, got 0"),
    (["casino", "Ah Kh Qh", "Jc Jd 4s", "--ante", "0"], "argument --ante: must be from 1 to"),
    (["casino", "Ah Kh Qh", "Jc Jd 4s", "--play", "2", "--fold"], "not allowed with argument --play"),
    (["crash", *FULL_DECK_CRASH, "--weights", "4", "3"], "argument --weights: expected 4 arguments"),
    (["health", "--timeout", "0"], "argument --timeout: must be a finite number of seconds, more than 0"),
    (["--target", "127.0.0.1:70000", "health"], "'127.0.0.1:70000': port 70,000 cannot exist; ports are 1 to 65,535"),
    (["health", "--target", "127.0.0.1:0"], "'127.0.0.1:0': port 0 cannot exist"),
    (["--target", ":50051", "health"], "':50051' has no host: expected HOST:PORT"),
    (["--target", "[]:50051", "health"], "'[]:50051' has no host"),
    (["--target", "localhost", "health"], "'localhost' has no port: expected HOST:PORT, e.g. localhost:50051"),
    (["--target", "127.0.0.1:5o051", "health"], "the port '5o051' is not a number"),
    (["--target", "::1:50051", "health"], "an IPv6 address goes in brackets, e.g. [::1]:50051"),
])
def test_bad_flags_are_one_line_and_exit_2(capsys, argv, says):
    with pytest.raises(SystemExit) as info:
        main(["call", *argv])
    assert info.value.code == 2
    assert says in one_error_line(capsys.readouterr().err)


def test_missing_files_are_one_line_and_exit_1(capsys, grpc_server, tmp_path):
    missing = tmp_path / "nope"
    for argv in (["--token-file", str(missing), "health"], ["health", "--tls-ca", str(missing)],
                 ["stream", str(missing)], ["showdown-batch", "--file", str(missing)]):
        line = one_error_line(run(capsys, ["call", "--target", grpc_server.target, *argv], 1)[1])
        assert f"{missing}:" in line and "No such file or directory" in line
    empty = tmp_path / "token"
    empty.write_text("# no token yet\n\n")
    err = run(capsys, ["call", "--target", grpc_server.target, "--token-file", str(empty), "health"], 1)[1]
    assert f"--token-file {empty} holds no token" in one_error_line(err)


@pytest.mark.slow
def test_an_unreachable_server_or_a_late_answer_is_one_line_and_exit_1(grpc_server):
    # Real processes: gRPC's own log lines, which would go to stderr too, are part of what is checked.
    nobody = f"127.0.0.1:{free_port()}"
    cases = {
        ("--target", nobody, "evaluate", "3s 2h Ah"): f"cannot reach {nobody}: connection refused",
        # The deadline comes while the retries wait: still the refused connection.
        ("--target", nobody, "--timeout", "0.5", "health"): f"cannot reach {nobody}: connection refused",
        ("--target", "nosuch.invalid:50051", "health"): "cannot reach nosuch.invalid:50051: unknown host",
        # A million sampled deals of five opponents: never answered within
        # a millisecond (exact heads-up counts can be).
        ("--target", grpc_server.target, "--timeout", "0.001", "equity", "As Kd Qh", "--opponents", "5",
         "--samples", "1000000"):
            f"no answer from {grpc_server.target} within 0.001 s (DEADLINE_EXCEEDED): give a longer --timeout",
    }
    processes = {argv: prial_process("call", *argv) for argv in cases}
    for argv, says in cases.items():
        code, out, err = finish(processes[argv])
        assert (code, out) == (1, ""), argv
        assert says in one_error_line(err), argv


# -- TLS and tokens ----------------------------------------------------------------

def test_tls_with_a_client_certificate_and_a_token(secure_server, grpc_server, capsys):
    f = secure_server.files
    tls = ["--tls-ca", str(f / "ca.pem"), "--tls-cert", str(f / "client.pem"), "--tls-key", str(f / "client.key")]
    plain = call(capsys, grpc_server, "evaluate", "3s 2h Ah", "Kd Kh 4c")
    # The connection options before the RPC, and after it.
    out = run(capsys, ["call", "--target", secure_server.target, *tls, "--token-file", str(f / "tokens"),
                       "evaluate", "3s 2h Ah", "Kd Kh 4c"])[0]
    assert out == plain and "Run, 3-2-A" in out
    out = run(capsys, ["call", "evaluate", "3s 2h Ah", "Kd Kh 4c", "--target", secure_server.target, *tls,
                       "--token-file", str(f / "tokens")])[0]
    assert out == plain


@pytest.mark.slow
def test_tls_and_token_failures_say_what_to_give(secure_server):
    f, target = secure_server.files, secure_server.target
    tls = ("--tls-ca", str(f / "ca.pem"), "--tls-cert", str(f / "client.pem"), "--tls-key", str(f / "client.key"))
    cases = {
        (*tls, "evaluate", "3s 2h Ah"): f"{target} wants a bearer token (UNAUTHENTICATED): give --token-file FILE",
        (*tls, "--token-file", str(f / "wrong-token"), "evaluate", "3s 2h Ah"):
            f"{target} refused the token of --token-file {f / 'wrong-token'} (UNAUTHENTICATED)",
        ("--tls-ca", str(f / "ca.pem"), "health"):
            "does the server want a client certificate (--tls-cert and --tls-key)?",
        ("--tls-ca", str(f / "stranger.pem"), *tls[2:], "health"):
            "its certificate failed the check (UNAVAILABLE): give the CA that signed it with --tls-ca",
        ("health",): "if the server uses TLS, give --tls-ca (or --tls)",
    }
    processes = {argv: prial_process("call", "--target", target, *argv) for argv in cases}
    for argv, says in cases.items():
        code, out, err = finish(processes[argv])
        assert (code, out) == (1, ""), argv
        assert says in one_error_line(err), argv
