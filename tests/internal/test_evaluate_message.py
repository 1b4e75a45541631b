"""The Evaluate RPCs' response is written by the native core
(encode_evaluate_response); it must be the message built field by field
from the evaluator's batch results.  And the client's wire-form reading
and writing (prial._wire.encoding) must agree with the generated messages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import prial
from prial import CancelFlag, CancelledError, Evaluator, InvalidHandError, _core
from prial._wire import encoding as _wire
from prial.client import evaluate_request, evaluate_request_bytes, evaluation_from
from prial.v1 import prial_pb2 as pb

RULESETS = [prial.Rules(), prial.Rules(preset="teen_patti"), prial.Rules(lowball=True),
            prial.Rules(wild="jokers", jokers=2)]


def expected_response(ev: Evaluator, hands: np.ndarray, batch_index: int) -> pb.EvaluateResponse:
    """Field by field, as the generated message has it."""
    response = pb.EvaluateResponse(count=len(hands), batch_index=batch_index)
    if hands.shape[1] == 3:
        strengths = ev.evaluate_batch(hands)
    else:
        keys = ev.best_of_batch(hands)
        strengths = np.array([int(k) >> 8 for k in keys], dtype=np.uint16)  # strength in bits 8..23
        response.keys = np.asarray(keys, dtype="<u4").tobytes()
    response.strengths = np.asarray(strengths, dtype="<u2").tobytes()
    response.categories = bytes(int(ev.categories[s]) for s in strengths)
    return response


@settings(max_examples=120, deadline=None)
@given(rules=st.sampled_from(RULESETS), width=st.sampled_from([3, 4, 5]), rows=st.integers(0, 3000),
       batch_index=st.sampled_from([0, 1, 127, 128, 2**40]), seed=st.integers(0, 2**32 - 1))
def test_the_native_response_is_the_message(rules, width, rows, batch_index, seed):
    ev = prial.Evaluator(rules)
    hands = prial.random_hands(rows, width, seed=seed, pack=52 + (rules.jokers or 0))
    encoded = _core.encode_evaluate_response(ev, hands, batch_index=batch_index)
    expected = expected_response(ev, hands, batch_index)
    assert pb.EvaluateResponse.FromString(encoded) == expected
    assert encoded == expected.SerializeToString()  # the same bytes, fields in number order


def test_a_bad_hand_is_named_by_its_row():
    hands = prial.random_hands(5000, 3, seed=1)
    hands[4321] = [7, 7, 9]
    with pytest.raises(InvalidHandError) as info:
        _core.encode_evaluate_response(prial.Evaluator(), hands)
    assert info.value.row == 4321


def test_a_cancelled_flag_stops_it():
    flag = CancelFlag()
    flag.cancel()
    with pytest.raises(CancelledError):
        _core.encode_evaluate_response(prial.Evaluator(), prial.random_hands(10_000, 5, seed=2), cancel=flag)


@settings(max_examples=150, deadline=None)
@given(rules=st.sampled_from([None, *RULESETS]), width=st.sampled_from([3, 4, 5]), rows=st.integers(0, 50),
       describe=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_the_clients_request_bytes_are_the_request(rules, width, rows, describe, seed):
    hands = prial.random_hands(rows, width, seed=seed)
    strided = np.repeat(hands, 2, axis=0)[::2]  # not contiguous
    for batch in (hands, strided):
        assert (pb.EvaluateRequest.FromString(evaluate_request_bytes(batch, rules, describe))
                == evaluate_request(batch, rules, describe))


@settings(max_examples=150, deadline=None)
@given(width=st.sampled_from([3, 4, 5]), rows=st.integers(0, 50), batch_index=st.integers(0, 2**64 - 1),
       describe=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_the_client_reads_the_response_as_the_message_says(width, rows, batch_index, describe, seed):
    ev = prial.Evaluator()
    hands = prial.random_hands(rows, width, seed=seed)
    message = expected_response(ev, hands, batch_index)
    if describe:
        message.descriptions.extend(f"hand {i}" for i in range(rows))
    evaluation = evaluation_from(message.SerializeToString())
    assert evaluation.strengths.tobytes() == message.strengths
    assert evaluation.categories.tobytes() == message.categories
    assert (evaluation.keys is None) == (width == 3 or rows == 0)  # no keys in the message: None
    if evaluation.keys is not None:
        assert evaluation.keys.tobytes() == message.keys
    assert evaluation.descriptions == (list(message.descriptions) if describe and rows else None)
    assert evaluation.batch_index == batch_index


@settings(max_examples=500)
@given(data=st.binary(max_size=40))
@example(data=b"\t\x00\x00\x00\x00\x00\x00\x00\x00\x1b\x1c")  # an empty group, which the generated code skips
def test_top_level_fields_refuse_what_does_not_parse(data):
    try:
        pb.EvaluateResponse.FromString(data)
        parses = True
    except Exception:  # noqa: BLE001 - any decode error
        parses = False
    try:
        _wire.top_level_fields(data)
        read = True
    except _wire.WireError:
        read = False
    if parses:
        assert read  # what the generated code reads, this reads too
