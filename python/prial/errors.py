"""prial's exceptions.

``InvalidHandError`` (a ``ValueError``) is raised for the game input a
caller gave that prial cannot take: cards, hands, players, stakes, requests.
``InvalidShowdownError`` narrows it to well-formed cards in an impossible
play situation.  ``ConfigurationError`` (a ``ValueError`` too) is for the
options that say how to play or compute: a ruleset, a paytable, a count of
opponents or samples, a TLS or token file a service names.
``CancelledError`` ends native work stopped through its ``prial.CancelFlag``.
``IllegalActionError`` refuses an action at the betting table.  All of them,
and the log scoring's ``ScoreError``, derive from ``Error``, so one
``except prial.Error`` catches anything prial raises on purpose.  The table
of them all, with when each is raised, is in docs/errors.md.
"""

from __future__ import annotations


class Error(Exception):
    """The base of every exception prial raises on purpose."""


class InvalidHandError(Error, ValueError):
    """Invalid cards, hands, players, stakes or requests.

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


class ConfigurationError(Error, ValueError):
    """An option that cannot work: a value outside its range or not one of
    its choices (``prial.Rules(preset=...)``, ``opponents``, a paytable),
    options that must go together, or a TLS or token file that is missing,
    unreadable or empty.  The message names the option (and the file).

    ``file`` is the file at fault, None when the options themselves are
    (``prial`` exits 1 for the one, 2 for the other); ``field`` is the
    argument or request field at fault where known, as ``InvalidHandError``
    has it (the gRPC service names it in its ``google.rpc.BadRequest``).
    """

    def __init__(self, message: str, file: str | None = None, *, field: str | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.field = field


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
