"""The service's internals: a servicer in process (errors logged without
the request), descriptions bounded per batch, the heap-trim schedule."""

from __future__ import annotations

import asyncio
import logging

import grpc
import pytest

from prial import ConfigurationError, random_hands
from prial.client import PrialRpcError
from prial.server import PrialService, ServeOptions
from prial.service import servicer
from prial.service.heap import TrimSchedule
from prial.service.observability import Metrics, Observer
from prial.service.servicer import DESCRIBE_LIMIT
from prial.v1 import prial_pb2 as pb


class Aborted(Exception):
    pass


class Context:
    """The parts of grpc.aio.ServicerContext the wrapper uses."""

    async def abort(self, code, details="", trailing_metadata=()):
        raise Aborted(code, details)

    def cancelled(self):
        return False


async def one_message(data):
    yield data


def test_internal_errors_are_logged_without_the_request(monkeypatch, caplog):
    # An unexpected exception's message can quote the request: pybind11's
    # "incompatible function arguments ... Invoked with: <the cards>" did,
    # before a fuzz finding was fixed.  The log keeps where, not what.
    service = PrialService(ServeOptions(), Observer(Metrics(), False))

    def exploding(evaluator, players, *args):
        raise TypeError(f"Invoked with: {list(players)!r}")  # the request's cards, as pybind11 would

    monkeypatch.setattr(servicer, "encode_showdown_response", exploding)
    request = pb.ShowdownRequest(players=[pb.Player(id="a", cards=pb.Cards(indices=bytes([48, 49, 50]))),
                                          pb.Player(id="b", cards=pb.Cards(text="2c 2d 2h"))])
    with caplog.at_level(logging.INFO, logger="prial.server"):
        with pytest.raises(Aborted) as info:
            asyncio.run(service.Showdown(one_message(request.SerializeToString()), Context()))
    assert info.value.args[0] == grpc.StatusCode.INTERNAL
    text = caplog.text + "".join(str(r.exc_info) for r in caplog.records if r.exc_info)
    assert "internal error in Showdown" in text and "TypeError" in text
    assert "[48, 49, 50]" not in text and "2c 2d 2h" not in text


@pytest.mark.parametrize("error, code", [
    (ConfigurationError("odds: cards must be 3, 4 or 5", field="cards"), grpc.StatusCode.INVALID_ARGUMENT),
    # A file is the server's own setup: the caller did nothing wrong, and the path is not theirs to see.
    (ConfigurationError("--auth-token-file /etc/prial/tokens: cannot read it", "/etc/prial/tokens"),
     grpc.StatusCode.INTERNAL),
])
def test_a_configuration_error_is_the_callers_only_without_a_file(monkeypatch, error, code):
    service = PrialService(ServeOptions(), Observer(Metrics(), False))

    def refusing(*args, **kwargs):
        raise error

    monkeypatch.setattr(servicer, "odds", refusing)
    with pytest.raises(Aborted) as info:
        asyncio.run(service.Odds(one_message(pb.OddsRequest(cards=3).SerializeToString()), Context()))
    assert info.value.args[0] == code
    assert "/etc/prial" not in info.value.args[1]


def test_descriptions_are_bounded(grpc_client):
    hands = random_hands(DESCRIBE_LIMIT + 1, 3, seed=8)
    with pytest.raises(PrialRpcError) as info:
        grpc_client.evaluate(hands, describe=True)
    assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert grpc_client.evaluate(hands).strengths.size == DESCRIBE_LIMIT + 1


def test_heap_trim_schedule_idle_and_under_load():
    schedule = TrimSchedule(calls=0, now=0.0, under_load_seconds=30.0)
    assert schedule.due(calls=0, now=1.0)  # idle: trimmed at every look
    busy = [schedule.due(calls=10 * second, now=float(second)) for second in range(2, 62)]
    assert busy.count(True) == 2 and busy.index(True) == 29  # under load: every 30 s only
    assert schedule.due(calls=610, now=62.0)  # idle again (no call since the last look): at once
