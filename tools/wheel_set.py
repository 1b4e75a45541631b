"""The set of wheels a release needs, read from the sdist it is built from.

The CPython versions are the sdist's own 'Programming Language :: Python ::
3.X' classifiers (pyproject.toml's, which tests/test_metadata.py holds equal
to noxfile.py's PYTHONS): tools/wheels.sh builds one wheel for each, and
checks here that the repaired wheels are exactly those, each with the
manylinux tag asked for.

    python tools/wheel_set.py pythons SDIST          # 3.10, 3.11, ... one a line
    python tools/wheel_set.py check SDIST DIR TAG    # DIR's wheels: one per version, each TAG
"""

from __future__ import annotations

import re
import sys
import tarfile
from email.parser import Parser
from pathlib import Path

CLASSIFIER = re.compile(r"Programming Language :: Python :: (3\.\d+)")


def declared_pythons(sdist: Path) -> list[str]:
    """The CPython versions the sdist's PKG-INFO claims, oldest first."""
    with tarfile.open(sdist) as archive:
        [member] = [m for m in archive.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")]
        stream = archive.extractfile(member)
        assert stream is not None
        metadata = Parser().parsestr(stream.read().decode())
    versions = [match[1] for c in metadata.get_all("Classifier") or () if (match := CLASSIFIER.fullmatch(c))]
    return sorted(versions, key=lambda v: tuple(map(int, v.split("."))))


def wheel_problems(pythons: list[str], wheels: list[str], tag: str) -> list[str]:
    """What is wrong with the wheel file names against the versions and the
    platform tag (empty: one wheel per version, each tagged so)."""
    if not pythons:
        return ["the sdist declares no 'Programming Language :: Python :: 3.X' version"]
    problems = []
    by_python: dict[str, list[str]] = {}
    for wheel in wheels:
        parts = wheel.removesuffix(".whl").split("-")
        if len(parts) < 5:
            problems.append(f"{wheel} is not a wheel's name")
            continue
        python, platforms = parts[-3], parts[-1].split(".")
        by_python.setdefault(python, []).append(wheel)
        if tag not in platforms:
            problems.append(f"{wheel} is not tagged {tag}")
    expected = {"cp" + v.replace(".", ""): v for v in pythons}
    for python, version in expected.items():
        found = by_python.get(python, [])
        if not found:
            problems.append(f"no wheel for CPython {version} (declared in the classifiers)")
        elif len(found) > 1:
            problems.append(f"{len(found)} wheels for CPython {version}: {', '.join(found)}")
    problems += [f"{', '.join(names)}: for no declared Python version"
                 for python, names in by_python.items() if python not in expected]
    return problems


def main(arguments: list[str]) -> int:
    match arguments:
        case ["pythons", sdist]:
            print(*declared_pythons(Path(sdist)), sep="\n")
            return 0
        case ["check", sdist, directory, tag]:
            wheels = sorted(p.name for p in Path(directory).glob("*.whl"))
            problems = wheel_problems(declared_pythons(Path(sdist)), wheels, tag)
            for problem in problems:
                print(f"tools/wheel_set.py: {problem}", file=sys.stderr)
            return 1 if problems else 0
    print("usage: tools/wheel_set.py pythons SDIST | check SDIST DIR TAG", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
