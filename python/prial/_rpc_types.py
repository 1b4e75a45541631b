"""Result and error types of the gRPC client (prial.client)."""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

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


class Evaluation(NamedTuple):
    """The ranks of one batch, in request order (numpy arrays, length N).

    ``strengths``: uint16, the three-card strength (of the best three for
    4/5-card hands).  ``keys``: uint32 best-of keys for 4/5-card hands (the
    values to compare there), None for three-card hands.  ``categories``:
    uint8 ``prial.Category`` codes.  ``descriptions``: when asked for.
    """

    strengths: np.ndarray
    keys: np.ndarray | None
    categories: np.ndarray
    descriptions: list[str] | None
    batch_index: int = 0
