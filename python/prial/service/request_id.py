"""Each call's request id: the caller's ``x-request-id`` metadata where it
gives one, else one made here; in the call's log line and returned to the
caller in its trailing metadata, so that a client's report and the
server's log can be matched."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from typing import Any

REQUEST_ID = "x-request-id"
# Printable ASCII but the quote and the backslash: written into a JSON log
# line as it is.  A caller's id outside it is replaced, not escaped.
_TAKEN = re.compile(r"[!#-\[\]-~]{1,128}")


def request_id(metadata: Iterable[tuple[str, Any]] | None) -> str:
    for key, value in metadata or ():
        if key == REQUEST_ID and isinstance(value, str) and _TAKEN.fullmatch(value):
            return value
    return uuid.uuid4().hex
