"""Whether prial.v1 still serves the clients built against a snapshot of
its descriptor (tests/data/prial_v1_descriptor.txtpb).

A v1 client keeps working while every message, field, enum value, service
and method of the snapshot is still there and means the same on the wire,
in JSON and in generated code: same field number, name, type, label,
presence and oneof; same enum value numbers; same method types and
streaming.  Anything may be added.  After an addition, record it (the
snapshot then protects it too), from the repository with prial installed:

    python -m tests.proto_compat --update

which refuses while any change would break a v1 client.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from google.protobuf import descriptor_pb2, text_format

SNAPSHOT = Path(__file__).resolve().parent / "data" / "prial_v1_descriptor.txtpb"
HEADER = ("# The descriptor of prial.v1 (protos/prial/v1/prial.proto) that clients may rely on: see\n"
          "# tests/proto_compat.py.  Written by: python -m tests.proto_compat --update\n")

Messages = dict[str, descriptor_pb2.DescriptorProto]
Enums = dict[str, descriptor_pb2.EnumDescriptorProto]
Services = dict[str, descriptor_pb2.ServiceDescriptorProto]


def current() -> descriptor_pb2.FileDescriptorSet:
    """The descriptor of the installed prial.v1."""
    from prial.v1 import prial_pb2

    files = descriptor_pb2.FileDescriptorSet()
    prial_pb2.DESCRIPTOR.CopyToProto(files.file.add())
    return files


def load(path: Path) -> descriptor_pb2.FileDescriptorSet:
    return text_format.Parse(path.read_text(), descriptor_pb2.FileDescriptorSet())


def dump(files: descriptor_pb2.FileDescriptorSet) -> str:
    return HEADER + text_format.MessageToString(files)


def _walk(prefix: str, messages: Iterable[descriptor_pb2.DescriptorProto],
          enums: Iterable[descriptor_pb2.EnumDescriptorProto], into: tuple[Messages, Enums]) -> None:
    """Every message and enum by full name, nested ones included."""
    for enum in enums:
        into[1][f"{prefix}.{enum.name}"] = enum
    for message in messages:
        name = f"{prefix}.{message.name}"
        into[0][name] = message
        _walk(name, message.nested_type, message.enum_type, into)


def _index(files: descriptor_pb2.FileDescriptorSet) -> tuple[Messages, Enums, Services]:
    found: tuple[Messages, Enums] = ({}, {})
    services: Services = {}
    for file in files.file:
        _walk(file.package, file.message_type, file.enum_type, found)
        services.update({f"{file.package}.{service.name}": service for service in file.service})
    return found[0], found[1], services


def _oneof(message: descriptor_pb2.DescriptorProto, field: descriptor_pb2.FieldDescriptorProto) -> str | None:
    """The real oneof a field belongs to (not the synthetic one of `optional`)."""
    if not field.HasField("oneof_index") or field.proto3_optional:
        return None
    return message.oneof_decl[field.oneof_index].name


def _field_changes(name: str, old: descriptor_pb2.DescriptorProto, new: descriptor_pb2.DescriptorProto) -> list[str]:
    found = []
    by_number = {field.number: field for field in new.field}
    by_name = {field.name: field for field in new.field}
    for was in old.field:
        where = f"{name}.{was.name} (field {was.number})"
        now, moved = by_number.get(was.number), by_name.get(was.name)
        if moved is not None and moved.number != was.number:
            found.append(f"{where}: renumbered to {moved.number}")
            continue
        if now is None:
            found.append(f"{where}: removed")
            continue
        if now.name != was.name or now.json_name != was.json_name:
            found.append(f"{where}: renamed to {now.name} (JSON and generated code use the name)")
        if (now.type, now.type_name) != (was.type, was.type_name):
            found.append(f"{where}: type changed from {_type(was)} to {_type(now)}")
        if now.label != was.label:
            found.append(f"{where}: label changed from {_label(was)} to {_label(now)}")
        if now.proto3_optional != was.proto3_optional:
            found.append(f"{where}: presence changed ({'no longer' if was.proto3_optional else 'now'} optional)")
        if _oneof(new, now) != _oneof(old, was):
            found.append(f"{where}: oneof changed from {_oneof(old, was)} to {_oneof(new, now)}")
    return found


def _type(field: descriptor_pb2.FieldDescriptorProto) -> str:
    kind = descriptor_pb2.FieldDescriptorProto.Type.Name(field.type).removeprefix("TYPE_").lower()
    return f"{kind} {field.type_name}" if field.type_name else kind


def _label(field: descriptor_pb2.FieldDescriptorProto) -> str:
    return descriptor_pb2.FieldDescriptorProto.Label.Name(field.label).removeprefix("LABEL_").lower()


def _enum_changes(name: str, old: descriptor_pb2.EnumDescriptorProto,
                  new: descriptor_pb2.EnumDescriptorProto) -> list[str]:
    numbers = {value.name: value.number for value in new.value}
    found = []
    for value in old.value:
        if value.name not in numbers:
            found.append(f"{name}.{value.name} (= {value.number}): removed or renamed")
        elif numbers[value.name] != value.number:
            found.append(f"{name}.{value.name}: renumbered from {value.number} to {numbers[value.name]}")
    return found


def _method_changes(name: str, old: descriptor_pb2.ServiceDescriptorProto,
                    new: descriptor_pb2.ServiceDescriptorProto) -> list[str]:
    methods = {method.name: method for method in new.method}
    found = []
    for was in old.method:
        where = f"{name}.{was.name}"
        now = methods.get(was.name)
        if now is None:
            found.append(f"{where}: RPC removed")
            continue
        if (now.input_type, now.output_type) != (was.input_type, was.output_type):
            found.append(f"{where}: types changed from ({was.input_type}) -> ({was.output_type}) "
                         f"to ({now.input_type}) -> ({now.output_type})")
        for side in ("client_streaming", "server_streaming"):
            if getattr(now, side) != getattr(was, side):
                found.append(f"{where}: {side} changed to {getattr(now, side)}")
    return found


def breaking_changes(old: descriptor_pb2.FileDescriptorSet, new: descriptor_pb2.FileDescriptorSet) -> list[str]:
    """What in ``new`` breaks a client built against ``old``, one line each."""
    old_messages, old_enums, old_services = _index(old)
    new_messages, new_enums, new_services = _index(new)
    found = []
    for name, message in old_messages.items():
        if name not in new_messages:
            found.append(f"{name}: message removed")
        else:
            found += _field_changes(name, message, new_messages[name])
    for name, enum in old_enums.items():
        if name not in new_enums:
            found.append(f"{name}: enum removed")
        else:
            found += _enum_changes(name, enum, new_enums[name])
    for name, service in old_services.items():
        if name not in new_services:
            found.append(f"{name}: service removed")
        else:
            found += _method_changes(name, service, new_services[name])
    return found


def main(argv: list[str] | None = None, snapshot: Path = SNAPSHOT) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.proto_compat", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="record the current descriptor as the snapshot")
    args = parser.parse_args(argv)
    breaks = breaking_changes(load(snapshot), current())
    for line in breaks:
        print(f"breaking: {line}", file=sys.stderr)
    if breaks:
        print(f"{len(breaks)} change(s) would break v1 clients; the snapshot stays as it is", file=sys.stderr)
        return 1
    text = dump(current())
    if snapshot.read_text() == text:
        print(f"{snapshot}: up to date")
    elif args.update:
        snapshot.write_text(text)
        print(f"{snapshot}: updated with the additions")
    else:
        print(f"{snapshot}: compatible, but additions are not recorded: run with --update", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
