"""The installed distribution's metadata: the Python versions it claims are
the ones noxfile.py tests."""

from __future__ import annotations

import ast
import importlib.metadata
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METADATA = importlib.metadata.metadata("prial")


def nox_pythons() -> list[str]:
    """noxfile.py's PYTHONS, read without importing nox."""
    tree = ast.parse((ROOT / "noxfile.py").read_text())
    [value] = [node.value for node in tree.body if isinstance(node, ast.Assign)
               and [getattr(t, "id", None) for t in node.targets] == ["PYTHONS"]]
    return ast.literal_eval(value)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_python_classifiers_are_the_tested_interpreters():
    pythons = nox_pythons()
    assert pythons == sorted(pythons, key=version_key) and len(set(pythons)) == len(pythons) >= 2
    claimed = [c.rpartition(" :: ")[2] for c in METADATA.get_all("Classifier")
               if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert sorted(claimed, key=version_key) == pythons
    assert METADATA["Requires-Python"] == f">={pythons[0]}"
    # No gap: every minor version from the floor to the newest is tested.
    minors = [version_key(v)[1] for v in pythons]
    assert minors == list(range(minors[0], minors[-1] + 1))
