"""The undecoded look at a request (prial._core.field_census) against a
plain reading of the protocol-buffers wire form, and against decoding."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prial._core import field_census
from prial.v1 import prial_pb2 as pb


def varint(data: bytes, pos: int) -> tuple[int, int] | None:
    value = shift = 0
    while pos < len(data) and shift < 64:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
    return None


def reference(data: bytes, field: int, max_length: int) -> tuple[int, int, int, bool]:
    count, first, first_length, pos = 0, -1, 0, 0
    while pos < len(data):
        read = varint(data, pos)
        if read is None or read[0] >> 3 == 0:
            return count, first, first_length, False
        tag, pos = read
        wire_type, length = tag & 7, 0
        if wire_type in (0, 2):
            read = varint(data, pos)
            if read is None:
                return count, first, first_length, False
            value, pos = read
            length = value if wire_type == 2 else 0
        elif wire_type in (1, 5):
            length = 8 if wire_type == 1 else 4
        else:
            return count, first, first_length, False
        if pos + length > len(data):
            return count, first, first_length, False
        if tag >> 3 == field:
            if length > max_length and first < 0:
                first, first_length = count, length
            count += 1
        pos += length
    return count, first, first_length, True


texts = st.lists(st.text(max_size=12), max_size=20)


@settings(max_examples=300)
@given(hands=texts, cards=st.binary(max_size=30), hand_size=st.integers(0, 2**32 - 1), limit=st.integers(0, 40))
def test_counts_and_lengths_of_a_real_message(hands, cards, hand_size, limit):
    data = pb.EvaluateRequest(hands=hands, cards=cards, hand_size=hand_size, describe=True,
                              rules=pb.Rules(jokers=2, lowball=True)).SerializeToString()
    census = field_census(data, 4, limit)
    assert census == reference(data, 4, limit)
    assert census[0] == len(hands) and census[3]
    lengths = [len(h.encode()) for h in hands]
    too_long = [i for i, n in enumerate(lengths) if n > limit]
    assert census[1:3] == ((too_long[0], lengths[too_long[0]]) if too_long else (-1, 0))


@settings(max_examples=1000)
@given(data=st.binary(max_size=64), field=st.integers(1, 6), limit=st.integers(0, 8))
def test_any_bytes_read_as_the_wire_form_says(data, field, limit):
    assert field_census(data, field, limit) == reference(data, field, limit)


def test_truncated_messages_are_not_well_formed():
    data = pb.EvaluateRequest(hands=["3s 2h Ah"] * 3).SerializeToString()
    for end in range(1, len(data)):
        count, _, _, well_formed = field_census(data[:end], 4, 64)
        assert count == reference(data[:end], 4, 64)[0]
        assert well_formed == (end % 10 == 0)  # each entry is 10 bytes: tag, length, 8 characters
