"""prial's exceptions.

``InvalidHandError`` (a ``ValueError``) is raised for anything a caller gave
that prial cannot take: cards, hands, rules, requests.
``InvalidShowdownError`` narrows it to well-formed cards in an impossible
play situation.  ``ConfigurationError`` is for the operator's setup of a
service or job (TLS files, token files), not for game input.
``CancelledError`` ends native work stopped through its ``prial.CancelFlag``.
``IllegalActionError`` refuses an action at the betting table.  All of them
derive from ``Error``, so one ``except prial.Error`` catches anything prial
raises on purpose.
"""

from __future__ import annotations


class Error(Exception):
    """The base of every exception prial raises on purpose."""


class InvalidHandError(Error, ValueError):
    """Invalid cards, hands, rules or requests.

    The message names what is wrong and where.  Structured details, when
    known, are kept for callers that report them (the gRPC service turns them
    into a ``google.rpc.BadRequest``): ``row`` is the index of the offending
    hand in a batch (or of the player at a showdown), ``field`` the argument
    or request field it came from (``"seen_cards"``, ``"players"``, ...).
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


class ConfigurationError(Error):
    """A setup that cannot work: a TLS or token file that is missing,
    unreadable or empty, options that must go together.  The message names
    the option and the file; ``file`` is the file at fault, None when the
    options themselves are (``prial serve`` exits 1 for the one, 2 for the
    other)."""

    def __init__(self, message: str, file: str | None = None) -> None:
        super().__init__(message)
        self.file = file


class CancelledError(Error):
    """The work was cancelled through its CancelFlag before it finished; nothing it computed is returned."""


class IllegalActionError(Error, ValueError):
    """An action the rules of the betting table do not allow now.

    The message names the player, the action and the rule; ``code`` is a
    stable name of the rule (``"see_blind_man"``, ``"stake_below_least"``
    ...), listed in docs/rules.md and the same as the gRPC service's
    ``ErrorInfo.reason``.
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code
