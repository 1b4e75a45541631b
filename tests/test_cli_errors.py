"""Every command-line mistake and run-time failure ends in one line
``prial: error: ...`` (exit 2 for what was typed, 1 for what failed at run
time), never a traceback unless --debug asks for one; output cut short by
a closed pipe ends quietly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from prial.cli import main


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("prial: error: "), err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("argv, says", [
    (["serve", "--port", "70000"], "argument --port: must be from 0 to 65,535, got 70,000"),
    (["serve", "--port", "-1"], "argument --port: must be from 0 to 65,535, got -1"),
    (["serve", "--metrics-port", "65536"], "argument --metrics-port: must be from 0 to 65,535"),
    (["serve", "--workers", "0"], "argument --workers: must be at least 1, got 0"),
    (["serve", "--max-message-mb", "4096"], "argument --max-message-mb: must be from 1 to 2,047"),
    (["serve", "--grace", "nan"], "argument --grace: must be a finite number of seconds"),
    (["serve", "--idle-timeout", "0"], "argument --idle-timeout: must be a finite number of seconds, more than 0"),
    (["serve", "--port", "http"], "argument --port: expected a whole number, got 'http'"),
    (["bench", "--hands", "-5"], "argument --hands: must be at least 1, got -5"),
    (["bench", "--repeat", "0"], "argument --repeat: must be at least 1, got 0"),
    (["bench", "--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (["call", "--timeout", "-1", "health"], "argument --timeout: must be a finite number of seconds"),
    (["partition", "As Ad Ah", "--hands", "9"], "argument --hands: must be from 2 to 5, got 9"),
    (["showdown", "3s 2h Ah", "Kd Kh 4c", "--pot", "-3"], "argument --pot: must be from 0 to"),
    (["sample", "--deals", "0", "-o", "x.csv"], "argument --deals: must be at least 1, got 0"),
    (["score", "x.csv", "--workers", "0"], "argument --workers: must be at least 1, got 0"),
    (["nosuch"], "invalid choice: 'nosuch'"),
])
def test_a_number_out_of_range_is_one_line_and_exit_2(argv, says, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert says in one_error_line(capsys)


def test_a_bad_hand_among_several_is_named(capsys):
    assert main(["rank", "3s 2h Ah", "Kh Kh 2h"]) == 2
    assert "hand 2 ('Kh Kh 2h'): " in one_error_line(capsys)
    assert main(["best-of", "3s 2h Ah 4d", "Xq 2h 3h 4h"]) == 2
    assert "hand 2 ('Xq 2h 3h 4h'): " in one_error_line(capsys)


def test_a_missing_file_is_one_line_and_exit_1(tmp_path, capsys):
    missing = tmp_path / "no-token"
    assert main(["call", "--token-file", str(missing), "evaluate", "3s 2h Ah"]) == 1
    assert f"--token-file {missing}: cannot read it (No such file or directory)" in one_error_line(capsys)
    assert main(["call", "--tls-ca", str(missing), "health"]) == 1
    assert f"--tls-ca {missing}: cannot read it (No such file or directory)" in one_error_line(capsys)


@pytest.mark.parametrize("flag", ["--tls-cert", "--tls-key", "--tls-client-ca", "--auth-token-file"])
def test_a_file_serve_cannot_read_is_one_line_and_exit_1(tmp_path, capsys, flag):
    present = tmp_path / "present.pem"
    present.write_text("not read: another file is missing\n")
    missing = tmp_path / "missing.pem"
    files = {"--tls-cert": present, "--tls-key": present} if flag != "--auth-token-file" else {}
    files[flag] = missing
    argv = ["serve", "--port", "0", *(str(part) for item in files.items() for part in item)]
    assert main(argv) == 1
    assert one_error_line(capsys) == f"prial: error: {flag} {missing}: cannot read it (No such file or directory)\n"


def test_a_missing_extra_says_what_to_install(tmp_path, monkeypatch, capsys):
    log = tmp_path / "log.csv"
    assert main(["sample", "--deals", "3", "-o", str(log)]) == 0
    capsys.readouterr()
    monkeypatch.setitem(sys.modules, "dask", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "dask.dataframe", None)
    assert main(["score", str(log), "-o", str(tmp_path / "out.csv"), "--engine", "dask"]) == 1
    assert 'pip install "prial[dask]"' in one_error_line(capsys)


@pytest.mark.parametrize("command", [["odds"], ["rank", *["3s 2h Ah"] * 3000], ["bench", "--help"]])
def test_output_cut_short_by_a_pipe_ends_quietly(command):
    reader = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run([sys.executable, "-m", "prial", *command], stdout=reader.stdin, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    reader.stdin.close()
    reader.wait(timeout=30)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr and "Exception" not in done.stderr
    assert done.returncode in (0, 141)  # 0: all written before the reader left


def test_messages_count_cards_from_1_and_say_what_was_read(capsys):
    assert main(["rank", "Xx 2h Ah"]) == 2  # a typo for a card: X and x are two jokers
    assert "expected 3 cards, got 4 (read as X1 X2 2h Ah)" in one_error_line(capsys)
    assert main(["rank", "Zz 2h Ah"]) == 2
    assert "card 1 ('Zz')" in one_error_line(capsys)
    assert main(["rank", "3s 2h 3s"]) == 2
    assert "duplicate card 3s: cards 1 and 3 of the hand" in one_error_line(capsys)
    assert main(["best-of", "As Kd"]) == 2
    assert "expected 3, 4 or 5 cards, got 2 (read as As Kd)" in one_error_line(capsys)


def test_showdown_errors_speak_of_the_game_not_of_python_arguments(capsys):
    assert main(["showdown", "3s 2h Ah", "Kd Kh 4c", "7s 7h Qc", "--seer", "1"]) == 2
    line = one_error_line(capsys)
    assert "without a seer, the showdown is an agreed one" in line and "=None" not in line


def not_what_its_name_says(tmp_path, name: str) -> str:
    """A file whose content is not the format its extension names."""
    path = tmp_path / name
    if name == "fake.parquet":
        path.write_text("deal_id,player,cards\n1,a,As Ad Ah\n")
    elif name == "binary.jsonl":
        path.write_bytes(b"\x00\x01garbage\xff\n")
    elif name == "empty.parquet":
        path.write_bytes(b"")
    else:
        assert main(["sample", "--deals", "5", "-o", str(tmp_path / "real.parquet")]) == 0
        path.write_bytes((tmp_path / "real.parquet").read_bytes()[:None if name == "parquet.csv" else 300])
    return str(path)


@pytest.mark.parametrize("name, says", [
    ("fake.parquet", "as parquet: it is text, not a Parquet file; pass the format it is in"),
    ("parquet.csv", "as csv: it is a Parquet file, not text; pass the format it is in"),
    ("binary.jsonl", "as jsonl: it holds binary data, not text"),
    ("empty.parquet", "as parquet: it is empty"),
    ("cut.parquet", "as parquet: "),
])
@pytest.mark.parametrize("command", ["score", "audit"])
def test_a_file_that_is_not_its_format_is_one_line_naming_both(tmp_path, capsys, name, says, command):
    path = not_what_its_name_says(tmp_path, name)
    capsys.readouterr()
    argv = [command, path, "--progress", "none"] + (["-o", str(tmp_path / "out.csv")] if command == "score" else [])
    assert main(argv) == 1
    line = one_error_line(capsys)
    assert line.startswith(f"prial: error: cannot read {path} {says}") and "a bug in prial" not in line


@pytest.mark.parametrize("name", ["fake.parquet", "parquet.csv", "cut.parquet"])
def test_from_python_a_file_not_its_format_raises_the_log_error(tmp_path, name):
    import prial

    path = not_what_its_name_says(tmp_path, name)
    with pytest.raises(prial.ScoreError, match=f"^cannot read {path} as "):
        prial.score_file(path, tmp_path / "out.csv")
    with pytest.raises(prial.ScoreError, match=f"^cannot read {path} as "):
        prial.audit_file(path)


@pytest.mark.parametrize("argv, says", [
    (["bench", "--hands", "100000000000000"], "--hands 100,000,000,000,000 is too large: batches of that many hands "
                                              "would need at least 800.0 TB of memory, and "),
    (["bench", "--scalar-hands", "100000000000000"], "--scalar-hands 100,000,000,000,000 is too large: "),
    (["bench", "--deals", "100000000000000"], "--deals 100,000,000,000,000 is too large: "),
    (["bench", "--table-deals", "100000000000000"], "--table-deals 100,000,000,000,000 is too large: that many deals "
                                                    "played and replayed"),
    (["sample", "--deals", "100000000000000", "-o", "{tmp}/log.csv"],
     "--deals 100,000,000,000,000 is too large: a csv log of that many deals would need at least "),
    (["sample", "--deals", "100000000000000", "-o", "{tmp}/log.parquet"], "a parquet log of that many deals"),
])
def test_a_size_this_machine_cannot_hold_is_one_line_with_the_limit(argv, says, tmp_path, capsys):
    assert main([a.format(tmp=tmp_path) for a in argv]) == 1
    err = one_error_line(capsys)
    assert says in err and " here)" in err and "(at most " in err, err
    assert list(tmp_path.iterdir()) == []



@pytest.mark.parametrize("argv, command", [
    (["score", "x.csv", "--bogus"], "prial score"),
    (["sample", "--deals", "3", "-o", "x.csv", "--strict"], "prial sample"),
    (["call", "health", "--bogus"], "prial call health"),
])
def test_an_unknown_argument_points_at_its_commands_help(argv, command, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    line = one_error_line(capsys)
    assert line == f"prial: error: unrecognized arguments: {argv[-1]} (see: {command} --help)\n"


def test_the_dask_engine_without_its_extra_names_dask(tmp_path, monkeypatch, capsys):
    log = tmp_path / "log.csv"
    assert main(["sample", "--deals", "3", "-o", str(log)]) == 0
    capsys.readouterr()
    for name in ("dask", "dask.dataframe", "distributed", "pandas"):  # none of the extra installed
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "prial.score.dask_engine", raising=False)
    assert main(["score", str(log), "-o", str(tmp_path / "out.csv"), "--engine", "dask"]) == 1
    assert one_error_line(capsys) == 'prial: error: this needs dask, which is not installed: pip install "prial[dask]"\n'
