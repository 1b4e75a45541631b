"""The service's internals: a servicer in process (errors logged without
the request), descriptions bounded per batch, the heap-trim schedule."""

from __future__ import annotations

import asyncio
import json
import logging

import grpc
import pytest

from prial import ConfigurationError, random_hands
from prial.client import PrialRpcError
from prial.server import PrialService, ServeOptions
from prial.service import servicer
from prial.service.heap import TrimSchedule
from prial.service.jsonlog import JsonLines, wrapped
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

    def invocation_metadata(self):
        return (("x-request-id", "req-1"),)

    def set_trailing_metadata(self, metadata):
        self.trailing = metadata


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
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    [line] = JsonLines().format(record).splitlines()  # the traceback inside one JSON line
    logged = json.loads(line)
    assert logged["level"] == "error" and logged["event"] == "internal_error"
    assert logged["method"] == "Showdown" and logged["request_id"] == "req-1"
    assert logged["exception"] == "TypeError" and "exploding" in logged["traceback"]
    assert "[48, 49, 50]" not in line and "2c 2d 2h" not in line


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


def test_log_lines_get_their_time_and_level_and_other_text_is_wrapped():
    record = logging.LogRecord("prial.server", logging.WARNING, __file__, 1, '{"event": "a", "n": 1}\n{"event": "b"}',
                               None, None)
    record.created = 0.25
    first, second = (json.loads(line) for line in JsonLines().format(record).splitlines())
    assert first == {"time": "1970-01-01T00:00:00.250Z", "level": "warning", "event": "a", "n": 1}
    assert second == {"time": "1970-01-01T00:00:00.250Z", "level": "warning", "event": "b"}
    try:
        raise KeyError("x")
    except KeyError:
        import sys
        failed = logging.LogRecord("prial.server", logging.ERROR, __file__, 1, "process %d failed", (3,),
                                   sys.exc_info())
    [line] = JsonLines().format(failed).splitlines()
    assert json.loads(line)["message"] == "process 3 failed" and "KeyError" in json.loads(line)["traceback"]
    core = json.loads(wrapped("E1203 17:01:08.185866    9566 ssl_transport_security.cc:1400] Handshake failed"))
    assert (core["level"], core["event"], core["source"], core["message"]) == \
        ("error", "grpc", "ssl_transport_security.cc:1400", "Handshake failed")
    other = json.loads(wrapped("something else"))
    assert (other["level"], other["event"], other["message"]) == ("warning", "stderr", "something else")
    assert wrapped('{"already": 1}') == '{"already": 1}'
