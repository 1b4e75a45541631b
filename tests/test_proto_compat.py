"""prial.v1 stays compatible with the clients built against it: the
installed descriptor against the committed snapshot, and the check itself
against each kind of break, made on a copy of the descriptor."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from google.protobuf import descriptor_pb2

from .proto_compat import SNAPSHOT, breaking_changes, current, dump, load, main

FieldType = descriptor_pb2.FieldDescriptorProto.Type
Label = descriptor_pb2.FieldDescriptorProto.Label


def test_installed_v1_breaks_no_client_of_the_snapshot():
    assert breaking_changes(load(SNAPSHOT), current()) == []


def test_every_addition_is_recorded_in_the_snapshot():
    """So that what was added is protected too, once released."""
    assert SNAPSHOT.read_text() == dump(current()), "record the additions: python -m tests.proto_compat --update"


def test_update_records_an_addition_and_refuses_a_break(tmp_path, capsys):
    snapshot = tmp_path / "snapshot.txtpb"
    older = current()
    remove(message(older, "EvaluateRequest").field, field(older, "EvaluateRequest.describe"))
    snapshot.write_text(dump(older))
    assert main([], snapshot) == 1
    assert "additions are not recorded: run with --update" in capsys.readouterr().err
    assert main(["--update"], snapshot) == 0
    assert snapshot.read_text() == dump(current())
    assert main([], snapshot) == 0 and "up to date" in capsys.readouterr().out

    newer = current()
    added_field(newer)
    snapshot.write_text(dump(newer))
    assert main(["--update"], snapshot) == 1
    assert "breaking: prial.v1.EvaluateRequest.threads (field 99): removed" in capsys.readouterr().err
    assert snapshot.read_text() == dump(newer)


# -- the check, against each kind of change ----------------------------------

def message(files: descriptor_pb2.FileDescriptorSet, name: str) -> descriptor_pb2.DescriptorProto:
    [found] = [m for m in files.file[0].message_type if m.name == name]
    return found


def field(files: descriptor_pb2.FileDescriptorSet, name: str) -> descriptor_pb2.FieldDescriptorProto:
    message_name, _, field_name = name.partition(".")
    [found] = [f for f in message(files, message_name).field if f.name == field_name]
    return found


def enum(files: descriptor_pb2.FileDescriptorSet, name: str) -> descriptor_pb2.EnumDescriptorProto:
    [found] = [e for e in files.file[0].enum_type if e.name == name]
    return found


def method(files: descriptor_pb2.FileDescriptorSet, name: str) -> descriptor_pb2.MethodDescriptorProto:
    [found] = [m for m in files.file[0].service[0].method if m.name == name]
    return found


def remove(items, item) -> None:
    items.remove(item)


def set_to(target: object, **values: object) -> None:
    for name, value in values.items():
        setattr(target, name, value)


def enum_value(files: descriptor_pb2.FileDescriptorSet, name: str) -> descriptor_pb2.EnumValueDescriptorProto:
    enum_name, _, value_name = name.partition(".")
    [found] = [v for v in enum(files, enum_name).value if v.name == value_name]
    return found


def map_value_type(files: descriptor_pb2.FileDescriptorSet) -> None:
    [entry] = [m for m in message(files, "ShowdownResponse").nested_type if m.name == "PayoutsEntry"]
    entry.field[1].type = FieldType.TYPE_INT64


BREAKS: dict[str, tuple[Callable[[descriptor_pb2.FileDescriptorSet], None], str]] = {
    "field removed": (lambda f: remove(message(f, "EvaluateRequest").field, field(f, "EvaluateRequest.cards")),
                      "prial.v1.EvaluateRequest.cards (field 3): removed"),
    "field renumbered": (lambda f: set_to(field(f, "PartitionRequest.hands"), number=30),
                         "prial.v1.PartitionRequest.hands (field 3): renumbered to 30"),
    "field renamed": (lambda f: set_to(field(f, "CrashShowdownResponse.void"), name="voided"),
                      "prial.v1.CrashShowdownResponse.void (field 7): renamed to voided"),
    "scalar type changed": (lambda f: set_to(field(f, "EvaluateRequest.hand_size"), type=FieldType.TYPE_STRING),
                            "prial.v1.EvaluateRequest.hand_size (field 2): type changed from uint32 to string"),
    "message type changed": (lambda f: set_to(field(f, "PartitionRequest.cards"), type_name=".prial.v1.Rules"),
                             "type changed from message .prial.v1.Cards to message .prial.v1.Rules"),
    "map value type changed": (map_value_type,
                               "prial.v1.ShowdownResponse.PayoutsEntry.value (field 2): type changed from uint64 "
                               "to int64"),
    "repeated made singular": (lambda f: set_to(field(f, "ShowdownResponse.winners"), label=Label.LABEL_OPTIONAL),
                               "prial.v1.ShowdownResponse.winners (field 3): label changed from repeated to optional"),
    "presence dropped": (lambda f: set_to(field(f, "PartitionRequest.min_category"), proto3_optional=False),
                         "prial.v1.PartitionRequest.min_category (field 5): presence changed (no longer optional)"),
    "taken out of its oneof": (lambda f: field(f, "Cards.text").ClearField("oneof_index"),
                               "prial.v1.Cards.text (field 2): oneof changed from form to None"),
    "message removed": (lambda f: remove(f.file[0].message_type, message(f, "CoverResult")),
                        "prial.v1.CoverResult: message removed"),
    "enum value removed": (lambda f: remove(enum(f, "Category").value, enum_value(f, "Category.PRIAL")),
                           "prial.v1.Category.PRIAL (= 5): removed or renamed"),
    "enum value renumbered": (lambda f: set_to(enum_value(f, "Category.HIGH_CARD"), number=6),
                              "prial.v1.Category.HIGH_CARD: renumbered from 0 to 6"),
    "enum removed": (lambda f: remove(f.file[0].enum_type, enum(f, "Game")), "prial.v1.Game: enum removed"),
    "RPC removed": (lambda f: remove(f.file[0].service[0].method, method(f, "Equity")),
                    "prial.v1.Prial.Equity: RPC removed"),
    "RPC streaming changed": (lambda f: set_to(method(f, "EvaluateStream"), server_streaming=False),
                              "prial.v1.Prial.EvaluateStream: server_streaming changed to False"),
    "RPC request type changed": (lambda f: set_to(method(f, "Odds"), input_type=".prial.v1.EquityRequest"),
                                 "prial.v1.Prial.Odds: types changed from (.prial.v1.OddsRequest)"),
    "service removed": (lambda f: f.file[0].ClearField("service"), "prial.v1.Prial: service removed"),
    "package renamed": (lambda f: set_to(f.file[0], package="prial.v2"), "prial.v1.Rules: message removed"),
}


@pytest.mark.parametrize("kind", BREAKS)
def test_the_check_catches(kind):
    mutate, says = BREAKS[kind]
    changed = current()
    mutate(changed)
    found = breaking_changes(current(), changed)
    assert any(says in line for line in found), found


def added_field(files: descriptor_pb2.FileDescriptorSet) -> None:
    message(files, "EvaluateRequest").field.add(name="threads", number=99, label=Label.LABEL_OPTIONAL,
                                                 type=FieldType.TYPE_UINT32)


def added_rpc(files: descriptor_pb2.FileDescriptorSet) -> None:
    files.file[0].service[0].method.add(name="Describe", input_type=".prial.v1.EvaluateRequest",
                                        output_type=".prial.v1.EvaluateResponse")


ADDITIONS: dict[str, Callable[[descriptor_pb2.FileDescriptorSet], None]] = {
    "field": added_field,
    "message": lambda f: f.file[0].message_type.add(name="DescribeRequest"),
    "enum value": lambda f: enum(f, "Game").value.add(name="GAME_TEEN_PATTI", number=3),
    "RPC": added_rpc,
    "enum": lambda f: f.file[0].enum_type.add(name="Variant").value.add(name="VARIANT_UNSPECIFIED", number=0),
}


@pytest.mark.parametrize("kind", ADDITIONS)
def test_additions_break_nothing(kind):
    changed = current()
    ADDITIONS[kind](changed)
    assert changed != current()
    assert breaking_changes(current(), changed) == []
