"""Evaluate and EvaluateStream over a real server, against the in-process API."""

from __future__ import annotations

import time

import grpc
import numpy as np
import pytest

import prial
from prial import random_hands
from prial.client import Client, PrialRpcError
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

RULESETS = [
    prial.Rules(),
    prial.Rules(preset="teen_patti"),
    prial.Rules(preset="three_card_poker", lowball=True),
    prial.Rules(wild="deuces", wild_ties="equal"),
    prial.Rules(wild="jokers", jokers=2),
    prial.Rules(wild="black_deuces", wild_as_itself="natural"),
    prial.Rules(suit_order="shdc", wild="deuces"),
]


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_every_three_card_hand_matches_the_python_api(grpc_client, rules):
    ev = prial.Evaluator(rules)
    hands = random_hands(20_000, 3, seed=7, pack=ev.pack_size)
    result = grpc_client.evaluate(hands, rules=rules)
    np.testing.assert_array_equal(result.strengths, ev.evaluate_batch(hands))
    assert result.keys is None
    expected = [int(ev.evaluate(h).category) for h in hands[:2000].tolist()]
    assert result.categories[:2000].tolist() == expected


def test_all_22100_hands_strengths_and_categories(grpc_client, brag, all_three_card_hands):
    result = grpc_client.evaluate(all_three_card_hands)
    np.testing.assert_array_equal(result.strengths, brag.evaluate_batch(all_three_card_hands))
    counts = np.bincount(result.categories, minlength=6)
    assert counts.tolist() == [16_440, 3_744, 1_096, 720, 48, 52]


def test_text_hands_with_descriptions(grpc_client):
    rules = prial.Rules(wild="deuces")
    ev = prial.Evaluator(rules)
    texts = ["3s 2h Ah", "7s7h2c", "10h Jh Qh", "Kd Kh 4c"]
    result = grpc_client.evaluate(texts, rules=rules, describe=True)
    values = [ev.evaluate(t) for t in texts]
    assert result.strengths.tolist() == [v.strength for v in values]
    assert result.categories.tolist() == [int(v.category) for v in values]
    assert result.descriptions == [v.description for v in values]


def test_five_card_text_hands_described_by_their_best_three(grpc_client, brag):
    texts = ["Ks Kd 9h 7c 2d", "3s 2h Ah Kd Qc"]
    result = grpc_client.evaluate(texts, describe=True)
    best = [brag.best_of(t) for t in texts]
    assert result.keys.tolist() == [b.key for b in best]
    assert result.descriptions == [b.description for b in best]


def test_descriptions_only_when_asked(grpc_client):
    assert grpc_client.evaluate(["3s 2h Ah"]).descriptions is None


def test_empty_batch(grpc_client):
    result = grpc_client.evaluate(np.zeros((0, 3), np.uint8))
    assert result.strengths.size == 0 and result.categories.size == 0


@pytest.mark.parametrize("width", [4, 5])
def test_four_and_five_card_keys_match_best_of(grpc_client, brag, width):
    hands = random_hands(5_000, width, seed=width)
    result = grpc_client.evaluate(hands)
    np.testing.assert_array_equal(result.keys, brag.best_of_batch(hands))
    for row in range(0, 5_000, 250):
        best = brag.best_of(hands[row].tolist())
        assert result.strengths[row] == best.strength
        assert result.categories[row] == int(brag.evaluate(best.kept).category)


def test_stream_of_many_batches_keeps_order(grpc_client, brag):
    batches = [random_hands(int(rows), 3, seed=i) for i, rows in enumerate(np.random.default_rng(1).integers(1, 3000, 60))]
    results = list(grpc_client.evaluate_stream(iter(batches)))
    assert [r.batch_index for r in results] == list(range(len(batches)))
    for batch, result in zip(batches, results):
        np.testing.assert_array_equal(result.strengths, brag.evaluate_batch(batch))


# -- errors -------------------------------------------------------------------


def _violation(exc: PrialRpcError) -> tuple[str, str]:
    assert exc.code == grpc.StatusCode.INVALID_ARGUMENT
    assert len(exc.field_violations) == 1
    return exc.field_violations[0].field, exc.field_violations[0].description


def test_bad_hand_in_bytes_names_field_and_index(grpc_client):
    hands = random_hands(100, 3, seed=3)
    hands[42] = [5, 9, 5]  # duplicate card
    with pytest.raises(PrialRpcError) as info:
        grpc_client.evaluate(hands)
    field, description = _violation(info.value)
    assert field == "cards[42]"
    assert info.value.hand_index == 42
    assert "duplicate" in description


def test_out_of_range_card_names_index(grpc_client):
    hands = random_hands(10, 3, seed=4)
    hands[7, 1] = 60
    with pytest.raises(PrialRpcError) as info:
        grpc_client.evaluate(hands)
    assert _violation(info.value)[0] == "cards[7]"


def test_bad_text_hand_names_index(grpc_client):
    with pytest.raises(PrialRpcError) as info:
        grpc_client.evaluate(["3s 2h Ah", "Kd Zz 4c"])
    field, description = _violation(info.value)
    assert field == "hands[1]"
    assert "hand 1" in description and "'Zz'" in description


def test_text_hands_of_mixed_sizes(grpc_client):
    with pytest.raises(PrialRpcError) as info:
        grpc_client.evaluate(["3s 2h Ah", "Kd Kh 4c 5c"])
    assert _violation(info.value)[0] == "hands[1]"


@pytest.fixture(scope="module")
def stub(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        yield pb_grpc.PrialStub(channel)


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (pb.EvaluateRequest(cards=bytes(7)), "cards"),
        (pb.EvaluateRequest(cards=bytes(12), hand_size=6), "hand_size"),
        (pb.EvaluateRequest(cards=bytes([0, 1, 2]), hands=["3s 2h Ah"]), "hands"),
        (pb.EvaluateRequest(cards=bytes([0, 1, 2]), rules=pb.Rules(preset=17)), "rules.preset"),
        (pb.EvaluateRequest(cards=bytes([0, 1, 2]), rules=pb.Rules(jokers=9)), "rules"),
        (pb.EvaluateRequest(cards=bytes([0, 1, 2]), rules=pb.Rules(wild="sevens")), "rules"),
    ],
)
def test_malformed_requests_are_invalid_argument(stub, request_, field):
    with pytest.raises(grpc.RpcError) as info:
        stub.Evaluate(request_, timeout=10)
    error = PrialRpcError.from_rpc_error(info.value)
    assert _violation(error)[0] == field


def test_joker_where_the_rules_have_none(grpc_client):
    with pytest.raises(PrialRpcError) as info:
        grpc_client.evaluate(np.array([[0, 1, 2], [52, 1, 2]], np.uint8))
    assert _violation(info.value)[0] == "cards[1]"


def test_stream_error_names_batch_and_hand(grpc_client):
    good = random_hands(50, 3, seed=5)
    bad = good.copy()
    bad[13] = [9, 9, 10]
    with pytest.raises(PrialRpcError) as info:
        list(grpc_client.evaluate_stream(iter([good, good, bad, good])))
    field, _ = _violation(info.value)
    assert field == "batch[2].cards[13]"
    assert info.value.field_violations[0].batch_index == 2
    assert info.value.hand_index == 13


def test_server_keeps_serving_after_errors(grpc_client, brag):
    for _ in range(5):
        with pytest.raises(PrialRpcError):
            grpc_client.evaluate(["Zz Zz Zz"])
    assert grpc_client.evaluate(["3s 2h Ah"]).strengths.tolist() == [brag.evaluate("3s 2h Ah").strength]


def test_deadline_exceeded(grpc_client):
    def slow_batches():
        for seed in range(20):
            time.sleep(0.1)
            yield random_hands(10, 3, seed=seed)

    with pytest.raises(PrialRpcError) as info:
        list(grpc_client.evaluate_stream(slow_batches(), timeout=0.35))
    assert info.value.code == grpc.StatusCode.DEADLINE_EXCEEDED


def test_client_rejects_wrong_dtype_locally():
    with Client("127.0.0.1:1") as client, pytest.raises(prial.InvalidHandError):
        client.evaluate(np.zeros((2, 3), np.int64))
