"""The ``prial`` command line: one group, a module per command group.

Each module has a ``register(sub)`` adding its subcommands; a subcommand is
a function ``cmd_<name>(args) -> int``.  The ruleset options are defined
once, in ``common``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import ConfigurationError, InvalidHandError
from . import bench, call, hands, play, score, serve

COMMAND_GROUPS = (hands, play, bench, score, serve, call)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prial",
        description="Fast, exact evaluation of Brag and its relatives (rules: docs/rules.md).",
    )
    parser.add_argument("--version", action="version", version=f"prial {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in COMMAND_GROUPS:
        group.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (InvalidHandError, ConfigurationError) as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
