"""Inputs the fuzzers (tests/fuzz/) found to break the contract, kept as
plain tests.  Each names the harness that found it and what went wrong."""

from __future__ import annotations

import pytest

import prial


@pytest.mark.parametrize("call", [prial.parse_cards, prial.evaluate])
def test_lone_surrogate_in_card_text_is_invalid_hand(call):
    # fuzz_cards: "T\xe6" decoded with surrogateescape is "T\udce6"; str with
    # a lone surrogate has no UTF-8 form and used to escape as RuntimeError
    # (parse_cards) or UnicodeEncodeError (evaluate).
    with pytest.raises(prial.InvalidHandError, match=r"character 1 .* lone surrogate \(U\+DCE6\)"):
        call("T\udce6")


def test_lone_surrogate_after_valid_cards_names_its_position():
    with pytest.raises(prial.InvalidHandError, match="character 6 "):
        prial.parse_cards("As Kd \ud800")


@pytest.mark.parametrize("threads", [2**40, -(2**70), "2", 2.0])
def test_threads_out_of_range_or_not_an_integer_is_invalid_hand(threads):
    # threads=2**40 used to escape pybind11's conversion as RuntimeError
    # ("Unable to cast Python instance of type <class 'int'>").
    import numpy as np

    hands = np.array([[7, 2, 50]], dtype=np.uint8)
    with pytest.raises(prial.InvalidHandError, match="threads"):
        prial.evaluate_batch(hands, threads=threads)


@pytest.mark.parametrize("argument, error", [
    ({"opponents": 2**32 - 1}, prial.InvalidHandError),  # the largest proto uint32: escaped as TypeError, INTERNAL
    ({"hands": 2**40}, prial.InvalidHandError),
    ({"hands": "4"}, prial.InvalidHandError),
    ({"min_category": 2**40}, prial.ConfigurationError),  # escaped as RuntimeError
])
def test_partition_arguments_beyond_int_are_refused(argument, error):
    # fuzz_grpc: PartitionRequest(opponents=4294967295) -> INTERNAL.
    with pytest.raises(error):
        prial.partition(list(range(13)), **argument)


@pytest.mark.parametrize("opponents", [2**31 - 1, 2**31 - 13])
def test_partition_opponents_near_int_max_are_rejected(opponents):
    # (opponents + 1) * cards overflowed int in the range check (undefined
    # behaviour) and the request was answered as if it were valid.
    with pytest.raises(prial.InvalidHandError, match="opponents must be 1 to 3"):
        prial.partition(list(range(13)), objective="expected_points", opponents=opponents)
