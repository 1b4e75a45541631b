"""What a failed call raises: PrialRpcError, with the BadRequest field
violations and the ErrorInfo of the server's answer."""

from __future__ import annotations

import re
from collections.abc import (
    Sequence,
)
from typing import NamedTuple

import grpc
import grpc.aio
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ..errors import Error

_LAST_INDEX = re.compile(r"\[(\d+)\][^\[]*$")
_BATCH_INDEX = re.compile(r"^batch\[(\d+)\]")


class FieldViolation(NamedTuple):
    """One google.rpc.BadRequest field violation.

    ``field`` is a path into the request such as ``"cards[17]"`` (hand 17 of
    ``cards``) or ``"batch[3].hands[2]"`` (hand 2 of the 4th batch of a
    stream); ``description`` says what is wrong.
    """

    field: str
    description: str

    @property
    def hand_index(self) -> int | None:
        """The index of the offending hand, when the violation names one."""
        match = _LAST_INDEX.search(self.field)
        return int(match.group(1)) if match else None

    @property
    def batch_index(self) -> int | None:
        """The position of the offending batch in a stream, if any."""
        match = _BATCH_INDEX.match(self.field)
        return int(match.group(1)) if match else None


class PrialRpcError(Error):
    """A call failed: ``code`` (grpc.StatusCode), ``message`` (the server's
    text), for INVALID_ARGUMENT ``field_violations`` naming the request
    field and hand index, and for FAILED_PRECONDITION (an action the table
    refused) ``reason``, the rule's code as ``prial.IllegalActionError.code``
    has it, and ``metadata`` (``action_index``, ``player``, ``kind``)."""

    def __init__(self, code: grpc.StatusCode, message: str,
                 field_violations: Sequence[FieldViolation] = (), reason: str | None = None,
                 metadata: dict[str, str] | None = None) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message
        self.field_violations = tuple(field_violations)
        self.reason = reason
        self.metadata = metadata or {}

    @property
    def hand_index(self) -> int | None:
        """The offending hand's index, from the first field violation."""
        for violation in self.field_violations:
            if violation.hand_index is not None:
                return violation.hand_index
        return None

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> PrialRpcError:
        violations: list[FieldViolation] = []
        info = error_details_pb2.ErrorInfo()
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        if status is not None:
            for detail in status.details:
                if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    violations.extend(FieldViolation(v.field, v.description) for v in bad.field_violations)
                elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    detail.Unpack(info)
        return cls(error.code(), error.details() or "", violations,  # type: ignore[attr-defined]
                   info.reason or None, dict(info.metadata))
