"""Descriptions of many hands: each distinct hand described once, for
scored logs and the gRPC describe option alike."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

import prial
from prial import descriptions
from prial.descriptions import describe_hands
from prial.evaluator import evaluator_for
from prial.server import PrialService, ServeOptions
from prial.service import servicer
from prial.service.observability import Metrics, Observer
from prial.v1 import prial_pb2 as pb

from .test_service import Context, one_message


class Unhurried(Context):
    """A call without a deadline."""

    def time_remaining(self):
        return None


@pytest.mark.parametrize("width", [3, 4, 5])
@pytest.mark.parametrize("rules", [prial.Rules(), prial.Rules(preset="teen_patti", wild="deuces")])
def test_each_distinct_hand_is_described_once(monkeypatch, width, rules):
    ev = evaluator_for(rules)
    asked = []
    for name in ("evaluate", "best_of"):
        native = getattr(descriptions, name)
        monkeypatch.setattr(descriptions, name,
                            lambda ev, cards, native=native: asked.append(tuple(cards)) or native(ev, cards))
    distinct = prial.random_hands(40, width, seed=width)
    # Every hand three times over, its cards in another order each time.
    rng = np.random.default_rng(width)
    hands = np.concatenate([distinct, distinct[:, ::-1], rng.permuted(distinct, axis=1)])
    words = describe_hands(ev, hands)
    assert len(asked) == len({tuple(sorted(h)) for h in distinct.tolist()})
    one_by_one = [(ev.evaluate if width == 3 else ev.best_of)(h).description for h in hands.tolist()]
    assert words == one_by_one


def test_no_hands_no_descriptions():
    assert describe_hands(evaluator_for(None), np.zeros((0, 3), np.uint8)) == []


def test_the_service_describes_a_batch_through_the_shared_function(monkeypatch):
    calls = []

    def recording(ev, hands):
        calls.append(len(hands))
        return describe_hands(ev, hands)

    monkeypatch.setattr(servicer, "describe_hands", recording)
    service = PrialService(ServeOptions(), Observer(Metrics(), False))
    hands = np.tile(prial.random_hands(5, 3, seed=3), (20, 1))
    request = pb.EvaluateRequest(cards=hands.tobytes(), hand_size=3, describe=True)
    answer = asyncio.run(service.Evaluate(one_message(request.SerializeToString()), Unhurried()))
    response = pb.EvaluateResponse.FromString(answer)
    assert calls == [100]
    ev = evaluator_for(None)
    assert list(response.descriptions) == [ev.evaluate(h).description for h in hands.tolist()]
