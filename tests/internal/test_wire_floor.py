"""The client and the service speak through one floor, prial._wire, and
neither stands on the other: a message field read one way by the server
and another way by the client has nowhere to hide."""

from __future__ import annotations

from .test_import_graph import PACKAGE, _within, import_graph, reached_from


def test_neither_the_client_nor_the_service_stands_on_the_other():
    graph = import_graph()
    client = [m for m in graph if _within(m, f"{PACKAGE}.client")]
    service = [m for m in graph if _within(m, f"{PACKAGE}.service")]
    assert len(client) > 3 and len(service) > 3  # the packages really were read
    for module in client:
        assert not any(_within(m, f"{PACKAGE}.service") for m in reached_from(graph, module)), module
    for module in service:
        assert not any(_within(m, f"{PACKAGE}.client") for m in reached_from(graph, module)), module


def test_both_stand_on_the_wire_floor_which_stands_on_neither():
    graph = import_graph()
    assert f"{PACKAGE}._wire.convert" in reached_from(graph, f"{PACKAGE}.client")
    assert f"{PACKAGE}._wire.convert" in reached_from(graph, f"{PACKAGE}.service.servicer")
    for module in (m for m in graph if _within(m, f"{PACKAGE}._wire")):
        assert not any(_within(m, f"{PACKAGE}.client") or _within(m, f"{PACKAGE}.service")
                       for m in reached_from(graph, module)), module
