"""A Crash match (docs/rules.md, "A Crash match"): the points of several
Crash rounds pegged to a target, a crash ending it at once where the rules
say so, and the loser's payments to the winner."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigurationError, InvalidHandError, InvalidShowdownError
from .crash import CrashPlayer, crash_showdown
from .results import CrashResult, _ToDict

SETTLEMENTS = ("fixed", "proportionate")
# A sprint of "10 or so holes", or the full street of a cribbage board.
SPRINT_HOLES = range(7, 16)
STREET = 121
# Big enough for any table's money, small enough that a settlement fits a
# signed 64-bit number on the wire.
MAX_STAKE = 10**6


@dataclass(frozen=True)
class CrashMatchRules:
    """How a Crash match is won and paid.

    ``target``: the points that win, 7 to 15 (a sprint) or 121 (the full
    street of a cribbage board).  ``crash_wins``: a crash (one player winning
    every position of a round) wins the match at once.  ``settlement``:
    ``"fixed"`` (each loser pays ``stake``) or ``"proportionate"`` (each
    loser pays ``stake`` for every point they finish behind the winner).
    ``not_on_board_double``: a loser with no points at the end pays double.
    """

    target: int = 10
    crash_wins: bool = True
    settlement: str = SETTLEMENTS[0]
    stake: int = 1
    not_on_board_double: bool = True

    def __post_init__(self) -> None:
        if not _whole(self.target) or (self.target not in SPRINT_HOLES and self.target != STREET):
            raise ConfigurationError(f"target must be {SPRINT_HOLES[0]} to {SPRINT_HOLES[-1]} holes or a street "
                                     f"of {STREET}, got {self.target!r}", field="target")
        if self.settlement not in SETTLEMENTS:
            raise ConfigurationError(f"settlement must be one of {', '.join(SETTLEMENTS)}, got {self.settlement!r}",
                                     field="settlement")
        if not _whole(self.stake) or not 0 <= self.stake <= MAX_STAKE:
            raise ConfigurationError(f"stake must be a whole number 0 to {MAX_STAKE}, got {self.stake!r}",
                                     field="stake")
        for name in ("crash_wins", "not_on_board_double"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigurationError(f"{name} must be True or False, got {getattr(self, name)!r}", field=name)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class CrashMatchRound(_ToDict):
    """One round of a match: what each player scored, who crashed, and the
    standings after it."""

    points: Mapping[str, int]
    standings: Mapping[str, int]
    crash: str | None = None


@dataclass(frozen=True)
class CrashMatchResult(_ToDict):
    """A match so far.  ``decided_by``: ``"target"`` or ``"crash"`` once it
    is over.  ``settlement``: each player's net (the winner's gain, the
    losers' payments as negatives, summing to zero); None until it is over.
    ``not_on_board``: the losers who finished on no points."""

    rounds: tuple[CrashMatchRound, ...]
    standings: Mapping[str, int]
    over: bool = False
    winner: str | None = None
    decided_by: str | None = None
    settlement: Mapping[str, int] | None = None
    not_on_board: tuple[str, ...] = ()


class CrashMatch:
    """A match fed one round at a time, as the rounds are played: ``add``
    takes each round's ``crash_showdown`` result.  The players are those of
    the first round, and every later round has the same ones."""

    def __init__(self, rules: CrashMatchRules | None = None) -> None:
        if rules is not None and not isinstance(rules, CrashMatchRules):
            raise ConfigurationError(f"rules must be a prial.CrashMatchRules, got {type(rules).__name__}")
        self.rules = rules or CrashMatchRules()
        self._rounds: list[CrashMatchRound] = []
        self._standings: dict[str, int] = {}
        self._winner: str | None = None
        self._decided_by: str | None = None

    def add(self, result: CrashResult) -> CrashMatchRound:
        """Count a round; InvalidShowdownError if the match is over or the
        round's players are not the match's."""
        if not isinstance(result, CrashResult):
            raise InvalidShowdownError(f"a round is a prial.CrashResult, got {type(result).__name__}")
        number = self._next_round()
        points = dict(result.points)
        if len(points) < 2:
            raise InvalidShowdownError(f"round {number}: a match has at least 2 players, got {len(points)}")
        if self._standings and set(points) != set(self._standings):
            missing = sorted(set(self._standings) - set(points))
            extra = sorted(set(points) - set(self._standings))
            raise InvalidShowdownError(
                f"round {number}: players {_names(points)} are not the match's {_names(self._standings)}"
                + (f" (missing {_names(missing)})" if missing else "") + (f" (new {_names(extra)})" if extra else ""))
        for pid, scored in points.items():
            if not _whole(scored) or scored < 0:
                raise InvalidShowdownError(f"round {number}: player {pid!r} scores {scored!r}; "
                                           f"points are whole numbers >= 0")
        if result.crash is not None and result.crash not in points:
            raise InvalidShowdownError(f"round {number}: the crash is by {result.crash!r}, not one of its players")
        standings = self._standings or dict.fromkeys(points, 0)
        for pid in standings:
            standings[pid] += points[pid]
        self._standings = standings
        done = CrashMatchRound({pid: points[pid] for pid in standings}, dict(standings), result.crash)
        self._rounds.append(done)
        if self.rules.crash_wins and result.crash is not None:
            self._winner, self._decided_by = result.crash, "crash"
        else:
            top = max(standings.values())
            leaders = [pid for pid, total in standings.items() if total == top]
            if top >= self.rules.target and len(leaders) == 1:
                self._winner, self._decided_by = leaders[0], "target"
        return done

    def _next_round(self) -> int:
        """The number of the round to come, refused once the match is over."""
        number = len(self._rounds) + 1
        if self._winner is not None:
            raise InvalidShowdownError(f"round {number}: the match is over (player {self._winner!r} won in "
                                       f"round {number - 1}); no more rounds are played")
        return number

    @property
    def over(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> str | None:
        return self._winner

    @property
    def standings(self) -> dict[str, int]:
        """Each player's points so far, in the first round's order."""
        return dict(self._standings)

    def result(self) -> CrashMatchResult:
        """The match so far, with its settlement once it is over."""
        nets, behind = (None, ()) if self._winner is None else self._settle(self._winner)
        return CrashMatchResult(tuple(self._rounds), self.standings, self.over, self._winner, self._decided_by,
                                nets, behind)

    def _settle(self, winner: str) -> tuple[dict[str, int], tuple[str, ...]]:
        # The winner's peg stands at the target or beyond everyone's: after
        # a crash they may hold fewer points than a loser, who then pays
        # nothing by proportion rather than being paid.
        finish = max(self.rules.target, *self._standings.values())
        nets = dict.fromkeys(self._standings, 0)
        behind = tuple(pid for pid, total in self._standings.items() if pid != winner and total == 0)
        for pid, total in self._standings.items():
            if pid == winner:
                continue
            owed = self.rules.stake * (1 if self.rules.settlement == "fixed" else finish - total)
            if pid in behind and self.rules.not_on_board_double:
                owed *= 2
            nets[pid] -= owed
            nets[winner] += owed
        return nets, behind


def _names(ids: Iterable[str]) -> str:
    return ", ".join(repr(pid) for pid in ids)


def crash_match(rounds: Sequence[Sequence[CrashPlayer]], match: CrashMatchRules | None = None,
                **showdown: Any) -> CrashMatchResult:
    """Play a whole match: each round's players scored by ``crash_showdown``
    with the keyword options ``showdown`` (``scoring``, ``min_category``,
    ``rules`` ...), counted by a ``CrashMatch`` of ``match``'s rules.  A
    round given after the match is over is an error, as is a round whose
    players are not the first round's."""
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence):
        raise InvalidShowdownError("crash_match takes a list of rounds, each a list of prial.CrashPlayer")
    played = CrashMatch(match)
    for players in rounds:
        number = played._next_round()
        try:
            result = crash_showdown(players, **showdown)
        except InvalidHandError as exc:
            raise type(exc)(f"round {number}: {exc}", row=exc.row, field=exc.field) from None
        played.add(result)
    return played.result()

