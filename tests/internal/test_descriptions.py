"""Descriptions of many hands: each distinct hand described once."""

from __future__ import annotations

import numpy as np
import pytest

import prial
from prial import descriptions
from prial.descriptions import describe_hands
from prial.evaluator import evaluator_for


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
