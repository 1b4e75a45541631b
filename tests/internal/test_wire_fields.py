"""The field numbers the native encoders write by hand (cpp/service/) are
those of the messages in the installed descriptor, name by name: a field
renumbered or renamed in the .proto fails here, not on a client."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from prial.v1 import prial_pb2 as pb

SERVICE = Path(__file__).resolve().parents[2] / "cpp" / "service"
# The C++ namespace naming each message's field numbers, and the message.
MESSAGES = {"evaluate_response": pb.EvaluateResponse, "showdown": pb.ShowdownResponse,
            "player_hand": pb.PlayerHand, "cover_result": pb.CoverResult}


def named_fields() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for source in SERVICE.glob("*.cpp"):
        text = source.read_text()
        for space, body in re.findall(r"namespace (\w+) \{(?:  //[^\n]*)?\nconstexpr std::uint32_t ([^;]*);", text):
            out[space] = {re.sub(r"(?<!^)(?=[A-Z])", "_", name[1:]).lower(): int(number)
                          for name, number in re.findall(r"(k\w+) = (\d+)", body)}
    return out


@pytest.mark.parametrize("space", sorted(MESSAGES))
def test_each_named_field_number_is_the_descriptor_s(space):
    fields = named_fields()[space]
    descriptor = MESSAGES[space].DESCRIPTOR
    assert fields, space
    for name, number in fields.items():
        assert name in descriptor.fields_by_name, f"{descriptor.name} has no field {name}"
        assert descriptor.fields_by_name[name].number == number, f"{descriptor.name}.{name}"


def test_every_field_number_the_encoders_write_is_named():
    """No bare numbers: every writer call names its field."""
    for source in SERVICE.glob("*.cpp"):
        for line in source.read_text().splitlines():
            assert not re.search(r"\.(uint|text|present_text|message)\(\d", line), f"{source.name}: {line.strip()}"
            assert not re.search(r"put_tag\([^,]+, \d", line), f"{source.name}: {line.strip()}"
