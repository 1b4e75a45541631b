"""What ``prial serve --help`` lists: each option with its help, and the
variable of the environment it may also come from."""

from __future__ import annotations

import functools
import re
import subprocess
import sys

# --help and --debug are the command line's own, not the server's.
NOT_SERVER_OPTIONS = ("--help", "--debug")


@functools.lru_cache(maxsize=1)
def serve_help() -> str:
    done = subprocess.run([sys.executable, "-m", "prial", "serve", "--help"], capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout


def option_help() -> dict[str, str]:
    """Every server option of ``prial serve --help``, with its help text on one line."""
    found: dict[str, str] = {}
    current = None
    for line in serve_help().splitlines():
        option = re.match(r"  (?:-\w, )?(--[a-z][a-z-]*)", line)
        if option:
            current = option.group(1)
            found[current] = line[option.end():].strip()
        elif current and line.startswith("    "):
            found[current] += " " + line.strip()
        else:
            current = None
    return {flag: " ".join(text.split()) for flag, text in found.items() if flag not in NOT_SERVER_OPTIONS}


def variable(flag: str) -> str:
    """The variable of ``--flag``: PRIAL_ and its name in capitals, dashes as underscores."""
    return "PRIAL_" + flag.removeprefix("--").upper().replace("-", "_")
