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


# ---- the log pipeline's floor ----

FLOOR = f"{PACKAGE}.logs"
# Outside the floor, what must hold Arrow tables itself: the sample logs,
# made as tables; the scoring job's parts and errors files, written and
# read back as Arrow; an audit's tallies, counted over a scored chunk's
# columns; a replay's findings, built over a nested log's columns.
ARROW_ABOVE_THE_FLOOR = {f"{PACKAGE}.score.sample", f"{PACKAGE}.score.sample_laid", f"{PACKAGE}.score.parts",
                         f"{PACKAGE}.audit.tally",
                         *(f"{PACKAGE}.replay.{name}" for name in ("arrays", "columns", "job", "nested", "source"))}
MAX_LINES = 500


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def reached_from(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_floor_stands_on_neither_score_nor_audit():
    graph = import_graph()
    floor = [name for name in graph if _within(name, FLOOR)]
    assert {f"{FLOOR}.chunk", f"{FLOOR}.io", f"{FLOOR}.passes"} <= set(floor)
    for name in floor:
        above = sorted(m for m in reached_from(graph, name)
                       if _within(m, f"{PACKAGE}.score") or _within(m, f"{PACKAGE}.audit"))
        assert above == [], name


def test_the_replay_stands_on_the_floor_and_the_table_only():
    # prial.replay is above prial.logs and prial.table, beside scoring: it
    # reaches neither scoring nor the audit, and nothing below it (the
    # floor, the table, scoring) reaches it; the audit may.
    graph = import_graph()
    replay = [name for name in graph if _within(name, f"{PACKAGE}.replay")]
    assert {f"{PACKAGE}.replay.job", f"{PACKAGE}.replay.nested"} <= set(replay)
    for name in replay:
        above = sorted(m for m in reached_from(graph, name)
                       if _within(m, f"{PACKAGE}.score") or _within(m, f"{PACKAGE}.audit"))
        assert above == [], name
    below = [name for name in graph
             if any(_within(name, f"{PACKAGE}.{p}") for p in ("logs", "table", "score"))]
    for name in below:
        assert sorted(m for m in reached_from(graph, name) if _within(m, f"{PACKAGE}.replay")) == [], name


def test_the_audit_does_not_stand_on_scoring():
    graph = import_graph()
    audit = [name for name in graph if _within(name, f"{PACKAGE}.audit")]
    assert len(audit) > 5
    for name in audit:
        assert sorted(m for m in reached_from(graph, name) if _within(m, f"{PACKAGE}.score")) == [], name


def test_the_reach_finder_goes_through_modules():
    assert reached_from({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a"}}, "a") == {"b", "c"}


def _under_type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def loads_pyarrow(path: Path) -> bool:
    """Does the module import pyarrow when it runs (an import for type
    checkers only does not)?"""
    todo: list[ast.AST] = [ast.parse(path.read_text(), str(path))]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "pyarrow" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "pyarrow":
            return True
        if isinstance(node, ast.If) and _under_type_checking(node):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return False


def test_pyarrow_is_loaded_by_the_floor_and_the_named_few_only():
    users = {name for name, path in module_names().items() if path.suffix == ".py" and loads_pyarrow(path)}
    assert f"{FLOOR}.io" in users  # the check really reads imports
    assert {name for name in users if not _within(name, FLOOR)} == ARROW_ABOVE_THE_FLOOR


def test_an_import_for_type_checkers_does_not_load_pyarrow(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pyarrow as pa\n")
    assert not loads_pyarrow(module)
    module.write_text("def f():\n    import pyarrow.compute as pc\n")
    assert loads_pyarrow(module)


# Written by protoc at build time, not by us: out of the size rule.
GENERATED = ROOT / "v1"


def test_no_module_is_over_the_size_limit():
    sizes = {path: len(path.read_text().splitlines()) for path in ROOT.rglob("*.py")
             if GENERATED not in path.parents}
    assert len(sizes) > 30
    assert sorted(str(p.relative_to(ROOT)) for p, n in sizes.items() if n > MAX_LINES) == []
