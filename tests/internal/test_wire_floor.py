"""The client and the service speak through one floor, prial._wire, and
neither stands on the other: a message field read one way by the server
and another way by the client has nowhere to hide."""

from __future__ import annotations

from .test_import_graph import PACKAGE, import_graph


def reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_neither_the_client_nor_the_service_stands_on_the_other():
    graph = import_graph()
    client = [m for m in graph if within(m, f"{PACKAGE}.client")]
    service = [m for m in graph if within(m, f"{PACKAGE}.service")]
    assert len(client) > 3 and len(service) > 3  # the packages really were read
    for module in client:
        assert not any(within(m, f"{PACKAGE}.service") for m in reach(graph, module)), module
    for module in service:
        assert not any(within(m, f"{PACKAGE}.client") for m in reach(graph, module)), module


def test_both_stand_on_the_wire_floor_which_stands_on_neither():
    graph = import_graph()
    assert f"{PACKAGE}._wire.convert" in reach(graph, f"{PACKAGE}.client")
    assert f"{PACKAGE}._wire.convert" in reach(graph, f"{PACKAGE}.service.servicer")
    for module in (m for m in graph if within(m, f"{PACKAGE}._wire")):
        assert not any(within(m, f"{PACKAGE}.client") or within(m, f"{PACKAGE}.service")
                       for m in reach(graph, module)), module
