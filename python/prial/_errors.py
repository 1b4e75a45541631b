"""The one exception family of prial."""

from __future__ import annotations


class InvalidHandError(ValueError):
    """Invalid cards, hands, rules or requests.

    The message names what is wrong and where.  Structured details, when
    known, are kept for callers that report them (the gRPC service turns them
    into a ``google.rpc.BadRequest``): ``row`` is the index of the offending
    hand in a batch, ``field`` the argument or field it came from.
    """

    def __init__(self, message: str, *, row: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.row = row
        self.field = field


class InvalidShowdownError(InvalidHandError):
    """A showdown, Crash deal or casino settlement that is not a legal situation.

    Raised for requests that are well-formed cards but impossible play: an
    open player seeing a blind one, an unknown seer, a card held by two
    players, negative stakes, a false six-pairs declaration.
    """
