"""The house rules of the tests themselves: tests/ (outside tests/internal)
reach prial through its public names only."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent.parent
PUBLIC_MODULES = {"prial", "prial.client", "prial.server", "prial.cli", "prial.play", "prial.score", "prial.audit",
                  "prial.table", "prial.replay",
                  "prial.v1", "prial.v1.prial_pb2", "prial.v1.prial_pb2_grpc"}
ENTRY_POINTS = {"prial.cli": {"main"}}  # the console script, called in process


def public_names(module: str) -> set[str]:
    imported = importlib.import_module(module)
    if module.startswith("prial.v1"):  # generated messages and stubs
        return {name for name in dir(imported) if not name.startswith("_")}
    return set(getattr(imported, "__all__", ())) | ENTRY_POINTS.get(module, set())


def private_uses(path: Path) -> list[str]:
    """Where a test file reaches past prial's public names."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            found += [f"{where} import {a.name}" for a in node.names
                      if a.name.split(".")[0] == "prial" and a.name not in PUBLIC_MODULES]
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "prial":
            if node.module not in PUBLIC_MODULES:
                found.append(f"{where} from {node.module}")
                continue
            allowed = public_names(node.module)
            found += [f"{where} from {node.module} import {a.name}" for a in node.names
                      if a.name not in allowed and f"{node.module}.{a.name}" not in PUBLIC_MODULES]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "prial":
            if node.attr.startswith("_") and node.attr not in ("__version__", "__file__", "__all__"):
                found.append(f"{where} prial.{node.attr}")
    return found


@pytest.mark.parametrize("path", sorted(TESTS.glob("*.py")), ids=lambda p: p.name)
def test_public_tests_use_public_names_only(path):
    assert private_uses(path) == []


def test_the_check_sees_private_uses(tmp_path):
    sample = tmp_path / "test_sample.py"
    sample.write_text("import prial\nfrom prial import _core, Rules\nfrom prial.score.chunk import x\n"
                      "prial._core.simd_level()\n")
    assert private_uses(sample) == ["test_sample.py:2 from prial import _core", "test_sample.py:3 from prial.score.chunk",
                                    "test_sample.py:4 prial._core"]
