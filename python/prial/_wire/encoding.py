"""The protocol-buffers wire form, for the big batch messages only: the
client writes an EvaluateRequest's card bytes and reads an
EvaluateResponse's result arrays without copying them through message
objects (each copy of a 1M-hand batch is megabytes, and fresh megabytes
cost page faults: the client's part of a 1M-hand call took 8 ms through
the generated message classes).  Everything else goes through them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

VARINT, LENGTH_DELIMITED, START_GROUP, END_GROUP = 0, 2, 3, 4
_WIRE_LENGTHS = {1: 8, 5: 4}  # fixed64, fixed32


class WireError(ValueError):
    """The bytes are not a well-formed message."""


def varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def with_bytes_field(message: bytes, field: int, payload: npt.NDArray[np.uint8]) -> bytes:
    """``message`` (serialized) with bytes field ``field`` set to the bytes
    of the C-contiguous ``payload`` (absent from ``message``), copied once."""
    if not payload.nbytes:
        return message  # proto3 leaves an empty field out
    view = memoryview(payload).cast("B")
    return b"".join((message, varint(field << 3 | LENGTH_DELIMITED), varint(view.nbytes), view))


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while pos < len(data) and shift < 64:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
    raise WireError(f"a varint runs past byte {pos}")


def top_level_fields(data: bytes) -> dict[int, int | tuple[int, int]]:
    """Each top-level field of the serialized message ``data``: a varint's
    value, a length-delimited field's (offset, length) in ``data``; the last
    occurrence of a field wins, as for a singular field when decoding.
    Groups (a wire form no prial message uses, which the generated code
    keeps as unknown fields) are skipped, whatever they hold."""
    fields: dict[int, int | tuple[int, int]] = {}
    groups: list[int] = []  # the field numbers of the groups open, innermost last
    pos = 0
    while pos < len(data):
        tag, pos = _read_varint(data, pos)
        field, wire_type = tag >> 3, tag & 7
        if field == 0:
            raise WireError(f"a field numbered 0 at byte {pos}")
        if wire_type == START_GROUP:
            groups.append(field)
            continue
        if wire_type == END_GROUP:
            if not groups or groups.pop() != field:
                raise WireError(f"field {field} at byte {pos} ends a group that is not open")
            continue
        if wire_type == VARINT:
            value, pos = _read_varint(data, pos)
            if not groups:
                fields[field] = value
            continue
        if wire_type == LENGTH_DELIMITED:
            length, pos = _read_varint(data, pos)
            if not groups:
                fields[field] = (pos, length)
        elif wire_type in _WIRE_LENGTHS:
            length = _WIRE_LENGTHS[wire_type]
        else:
            raise WireError(f"field {field} has wire type {wire_type}, which protocol buffers do not have")
        if pos + length > len(data):
            raise WireError(f"field {field} at byte {pos} runs past the end of the message")
        pos += length
    if groups:
        raise WireError(f"the group of field {groups[-1]} does not end")
    return fields
