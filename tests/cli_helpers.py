"""What the command line's tests share: a usage error as a user sees it."""

from __future__ import annotations

from prial.cli import main


def usage_error(capsys, argv: list[str]) -> str:
    """The one line ``prial ARGV`` writes to stderr, having exited 2 with
    no traceback."""
    try:
        code = main(argv)
    except SystemExit as exit:
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("prial: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err
