"""The command line's last line of defence, with faults put in by hand: an
unexpected exception is one line (exit 1) unless --debug asks for its
traceback; Ctrl-C is one line and exit 130."""

from __future__ import annotations

import pytest

from prial.cli import main

from ..test_cli_errors import one_error_line


def test_an_unexpected_error_is_one_line_and_debug_shows_the_traceback(monkeypatch, capsys):
    from prial.cli import backend

    def broken(rules):
        raise RuntimeError("the tables are on fire")

    monkeypatch.setattr(backend, "Evaluator", broken)  # where prial rank computes
    assert main(["rank", "3s 2h Ah"]) == 1
    line = one_error_line(capsys)
    assert "unexpected RuntimeError: the tables are on fire" in line and "--debug" in line
    for argv in (["--debug", "rank", "3s 2h Ah"], ["rank", "3s 2h Ah", "--debug"]):
        with pytest.raises(RuntimeError, match="on fire"):
            main(argv)


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    from prial.cli import backend

    def interrupted(rules):
        raise KeyboardInterrupt

    monkeypatch.setattr(backend, "Evaluator", interrupted)
    assert main(["rank", "3s 2h Ah"]) == 130
    assert capsys.readouterr().err == "prial: interrupted\n"


def test_an_allocation_that_fails_anyway_is_not_called_a_bug(monkeypatch, capsys):
    from prial.cli import bench

    def too_much(*args, **kwargs):
        raise MemoryError("Unable to allocate 279. GiB for an array with shape (100000000000, 3) and data type uint8")

    monkeypatch.setattr(bench, "random_hands", too_much)
    assert main(["bench", "--hands", "1000", "--repeat", "1"]) == 1
    err = one_error_line(capsys)
    assert err.startswith("prial: error: not enough memory: Unable to allocate 279. GiB") and "bug" not in err
