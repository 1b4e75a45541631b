"""The ``prial`` command line: one group, a module per command group.

Each module has a ``register(sub)`` adding its subcommands; a subcommand is
a function ``cmd_<name>(args) -> int``.  The ruleset options are defined
once, in ``common``.

Every failure ends in one line ``prial: error: ...`` on stderr, never a
traceback (``--debug`` shows one): exit 2 for bad input given on the
command line (argparse's own errors, card text, option values), 1 for what
fails at run time (files, ports, the network, a server's answer), 130 on
Ctrl-C; output cut short by a closed pipe ends quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from typing import NoReturn

from .. import __version__
from .._extras import missing_extra
from ..errors import ConfigurationError, IllegalActionError, InvalidHandError
from . import (
    audit,
    bench,
    call,
    classic,
    crash_match,
    deal_crash,
    hands,
    partition_games,
    play,
    proto,
    replay,
    score,
    serve,
    settle,
    simulate,
    table,
)
from .common import Failure

COMMAND_GROUPS = (hands, play, settle, classic, crash_match, deal_crash, partition_games, table, simulate, bench, score,
                  replay, audit, serve, call, proto)

# The extra that brings a module some command imports only when asked.
DEBUG_HELP = "show the Python traceback of an unexpected error"


# Where a parsed namespace notes the innermost (sub)command that read it.
_COMMAND = "_prial_command"


class Parser(argparse.ArgumentParser):
    """argparse, with its mistakes said in one line (not the usage block),
    pointing at the help of the command they were made in."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"prial: error: {message} (see: {self.prog} --help)\n")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if not hasattr(parsed, _COMMAND):  # a subcommand's parser returns first
            setattr(parsed, _COMMAND, self.prog)
        return parsed, extras

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        # argparse finds an unknown argument only here, at the top, once
        # the subcommand's parser has returned: the hint names that one's
        # help (prial score --help), where the arguments it knows are.
        parsed, extras = self.parse_known_args(args, namespace)
        command = getattr(parsed, _COMMAND, self.prog)
        delattr(parsed, _COMMAND)
        if extras:
            self.exit(2, f"prial: error: unrecognized arguments: {' '.join(extras)} (see: {command} --help)\n")
        return parsed


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="prial",
        description="Fast, exact evaluation of Brag and its relatives (rules: docs/rules.md).",
    )
    parser.add_argument("--version", action="version", version=f"prial {__version__}")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=Parser)
    for group in COMMAND_GROUPS:
        group.register(sub)
    for command in list(subcommands(parser)):
        # After the command too; SUPPRESS keeps a --debug given before it.
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP)
    return parser


def subcommands(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parser of every subcommand, nested ones (prial call RPC) included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield command
                yield from subcommands(command)


def entry() -> NoReturn:
    """The ``prial`` command: main(), then exit.  After Ctrl-C the process
    ends at once: native and Arrow threads still at work must not be torn
    down by the interpreter's shutdown (a crash or a hang at exit was seen
    after a SIGINT in the middle of ``prial score``)."""
    code = main()
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = run(argv)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        # The reader went away (prial odds | head): stop quietly, and keep
        # the interpreter's last flush from failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as if killed by SIGPIPE, what shell tools do


def run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # as typed, for a command to repeat
    try:
        return int(args.func(args))
    except BrokenPipeError:
        raise
    except KeyboardInterrupt:
        print("prial: interrupted", file=sys.stderr)
        return 130
    except InvalidHandError as exc:
        return error(str(exc), 2)
    except IllegalActionError as exc:  # an action the table's rules refuse is input too
        return error(f"{exc} (code: {exc.code})", 2)
    except ConfigurationError as exc:  # a file at fault is a run-time failure, options are input
        return error(str(exc), 1 if exc.file else 2)
    except Failure as exc:
        return error(str(exc), 1)
    except Exception as exc:  # noqa: BLE001 - one line, not a traceback
        if args.debug:
            raise
        return error(runtime_message(exc), 1)


def error(message: str, code: int) -> int:
    print(f"prial: error: {message}", file=sys.stderr)
    return code


def runtime_message(exc: Exception) -> str:
    """What went wrong at run time, in one line."""
    missing = missing_extra(exc)
    if missing:
        return missing
    if isinstance(exc, MemoryError):  # numpy's says how much it asked for
        return f"not enough memory: {exc}" if str(exc) else "not enough memory"
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    if isinstance(exc, OSError):
        return str(exc)
    return (f"unexpected {type(exc).__name__}: {exc} (a bug in prial; run again with --debug for the "
            f"traceback and report it)")


if __name__ == "__main__":
    sys.exit(main())
