"""The package's import graph has no cycle: every import counts, lazy ones
inside functions and TYPE_CHECKING ones included, read from the source."""

from __future__ import annotations

import ast
from pathlib import Path

import prial

ROOT = Path(prial.__file__).resolve().parent
PACKAGE = ROOT.name


def module_names() -> dict[str, Path]:
    """Every module of the package (the native core by its stub) by dotted name."""
    names = {}
    for path in ROOT.rglob("*.py*"):
        if path.suffix not in (".py", ".pyi") or "__pycache__" in path.parts:
            continue
        parts = [PACKAGE, *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names.setdefault(".".join(parts), path)
    return names


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports."""
    package = name if path.name.startswith("__init__") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # "from a import b" imports the module a.b when there is one, else a.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in modules and t != name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 30 and any(graph.values())  # the graph really was read
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_lazy_imports_are_edges():
    # The supervisor imports the server process inside a function (it must
    # not load gRPC before forking): that import is still an edge.
    assert f"{PACKAGE}.service.process" in import_graph()[f"{PACKAGE}.service.supervisor"]
