#!/usr/bin/env python3
"""Installs the packages of one of pyproject.toml's optional extras into
the running environment, by name: a tool's pinned packages without building
prial again, as installing ".[extra]" would.

    python tools/install_extra.py docs
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def main(argv: list[str]) -> int:
    try:
        import tomllib
    except ModuleNotFoundError:
        print("install_extra.py: error: it reads pyproject.toml with tomllib: run it with Python 3.11 or newer",
              file=sys.stderr)
        return 1
    extras: dict[str, list[str]] = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    if len(argv) != 1 or argv[0] not in extras:
        print(f"install_extra.py: error: expected one extra of {PYPROJECT.name} ({', '.join(sorted(extras))}), "
              f"got {' '.join(argv) or 'none'}", file=sys.stderr)
        return 2
    requirements = extras[argv[0]]
    print(f"+ pip install {' '.join(requirements)}", flush=True)
    return subprocess.run([sys.executable, "-m", "pip", "install", "-q", *requirements]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
