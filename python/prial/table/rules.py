"""TableRules: what varies between betting tables (docs/rules.md, "10. The
betting"), every option resolved against its game's defaults."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

from .._core import Table as NativeTable
from ..errors import ConfigurationError, InvalidHandError
from ..evaluator import evaluator_for
from ..rules import Rules

Game = Literal["brag", "four_card_brag", "five_card_brag", "teen_patti", "draw_brag"]
Shuffle = Literal["every_deal", "after_prial"]
SHUFFLES = ("every_deal", "after_prial")
RaiseLimit = Union[int, Literal["double"], None]
RetainBlind = Union[bool, Literal["face_up"]]
# retain_blind's values, as the native table takes them.
_RETAIN = {False: 0, True: 1, "face_up": 2}

# Per game: (ruleset preset, cards, see_cost, raise_limit, sideshow,
# agreed_showdown, cover); Teen Patti's min_stake is twice the ante.
_GAMES: dict[str, tuple[str, int, int, RaiseLimit, bool, bool, bool]] = {
    "brag": ("brag", 3, 2, None, False, True, True),
    "four_card_brag": ("brag", 4, 2, None, False, True, True),
    "five_card_brag": ("brag", 5, 2, None, False, True, True),
    "teen_patti": ("teen_patti", 3, 1, "double", True, False, False),
    "draw_brag": ("brag", 3, 2, None, False, False, False),
}
GAMES = tuple(_GAMES)
# Draw Brag's poker-style betting, a structure of its own: its options, and
# the Brag options it has no use for (left at their defaults there).
DRAW_GAME = "draw_brag"
DRAW_OPTIONS = ("small_blind", "big_blind", "first_bet", "blind_raise", "blind_rounds", "second_from_small_blind")
_BRAG_ONLY = {"min_stake": None, "max_stake": None, "raise_limit": None, "pot_limit": False, "pot_cap": None,
              "blind_turns": None, "see_cost": None, "sideshow": None, "agreed_showdown": None, "cover": None,
              "retain_blind": False, "shuffle": "every_deal"}


def _chips(option: str, value: object, *, least: int, allow_none: bool = True) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigurationError(f"{option} must be a whole number of chips from {least}; got {value!r}", field=option)
    return value


def _flag(option: str, value: object) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise ConfigurationError(f"{option} must be True, False or None (the game's default); got {value!r}",
                                 field=option)
    return value


@dataclass(frozen=True)
class TableRules:
    """A betting table's rules.  None takes the game's default; the
    attributes hold the resolved values (``TableRules().see_cost == 2``)."""

    game: Game = "brag"
    rules: Rules | None = None
    ante: int | None = None
    min_stake: int | None = None
    max_stake: int | None = None
    raise_limit: RaiseLimit = None
    pot_limit: bool = False
    pot_cap: int | None = None
    blind_turns: int | None = None
    see_cost: int | None = None
    sideshow: bool | None = None
    agreed_showdown: bool | None = None
    cover: bool | None = None
    retain_blind: RetainBlind = False
    shuffle: Shuffle = "every_deal"
    small_blind: int | None = None
    big_blind: int | None = None
    first_bet: int | None = None
    blind_raise: bool | None = None
    blind_rounds: int | None = None
    second_from_small_blind: bool | None = None
    cards: int = field(init=False, default=3)
    discards: int = field(init=False, default=0)
    _native: NativeTable = field(init=False, repr=False, compare=False, hash=False, default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.game not in _GAMES:
            raise ConfigurationError(f"game must be one of {', '.join(GAMES)}; got {self.game!r}", field="game")
        preset, cards, see_cost, raise_limit, sideshow, agreed, cover = _GAMES[self.game]
        if self.rules is not None and not isinstance(self.rules, Rules):
            raise ConfigurationError(f"rules must be a prial.Rules or None; got {self.rules!r}", field="rules")
        draw = self.game == DRAW_GAME
        ante = _chips("ante", self.ante, least=0)
        ante = (0 if draw else 1) if ante is None else ante
        set_ = object.__setattr__
        set_(self, "ante", ante)
        self._draw_options(draw)
        set_(self, "rules", self.rules or Rules(preset=preset))
        set_(self, "cards", cards)
        set_(self, "discards", cards - 3)
        if not draw:
            self._brag_options(ante, see_cost, raise_limit, sideshow, agreed, cover)
        # The native table shares the ruleset's tables with its evaluator,
        # which the bounded cache of rulesets keeps between calls: the
        # native side keeps no table once its holders let go.
        evaluator_for(self.rules)
        limit = self.raise_limit
        set_(self, "_native", NativeTable(
            rules=self.rules._config(), cards=cards, ante=ante, min_stake=self.min_stake or 1,
            max_stake=-1 if self.max_stake is None else self.max_stake,
            raise_limit=limit if isinstance(limit, int) else -1, raise_double=limit == "double",
            pot_limit=self.pot_limit, pot_cap=-1 if self.pot_cap is None else self.pot_cap,
            blind_turns=-1 if self.blind_turns is None else self.blind_turns, see_cost=self.see_cost or see_cost,
            sideshow=bool(self.sideshow), agreed_showdown=bool(self.agreed_showdown), cover=bool(self.cover),
            retain_blind=_RETAIN[self.retain_blind], draw=draw,
            **({name: getattr(self, name) for name in DRAW_OPTIONS} if draw else {})))

    def _brag_options(self, ante: int, see_cost: int, raise_limit: RaiseLimit, sideshow: bool, agreed: bool,
                      cover: bool) -> None:
        """Resolves the options of Brag's betting against the game's defaults."""
        set_ = object.__setattr__
        set_(self, "min_stake", _chips("min_stake", self.min_stake, least=1) or
             (2 * ante if self.game == "teen_patti" and ante > 0 else 1))
        _chips("max_stake", self.max_stake, least=1)
        limit = self.raise_limit if self.raise_limit is not None else raise_limit
        if limit != "double":
            _chips("raise_limit", limit, least=1)
        set_(self, "raise_limit", limit)
        if not isinstance(self.pot_limit, bool):
            raise ConfigurationError(f"pot_limit must be True or False; got {self.pot_limit!r}", field="pot_limit")
        _chips("pot_cap", self.pot_cap, least=1)
        _chips("blind_turns", self.blind_turns, least=0)
        set_(self, "see_cost", _chips("see_cost", self.see_cost, least=1) or see_cost)
        set_(self, "sideshow", sideshow if _flag("sideshow", self.sideshow) is None else self.sideshow)
        set_(self, "agreed_showdown",
             agreed if _flag("agreed_showdown", self.agreed_showdown) is None else self.agreed_showdown)
        set_(self, "cover", cover if _flag("cover", self.cover) is None else self.cover)
        if not (isinstance(self.retain_blind, bool) or self.retain_blind == "face_up"):
            raise ConfigurationError(f"retain_blind must be False, True or 'face_up'; got {self.retain_blind!r}",
                                     field="retain_blind")
        if self.shuffle not in SHUFFLES:
            raise ConfigurationError(f"shuffle must be one of {', '.join(SHUFFLES)}; got {self.shuffle!r}",
                                     field="shuffle")

    def _draw_options(self, draw: bool) -> None:
        """Resolves draw Brag's options (pagat's reading by default) and
        refuses options of the other structure."""
        set_ = object.__setattr__
        given = [name for name in DRAW_OPTIONS if getattr(self, name) is not None]
        if not draw:
            if given:
                raise ConfigurationError(f"{given[0]} is an option of {DRAW_GAME} only", field=given[0])
            return
        for name, default in _BRAG_ONLY.items():
            if getattr(self, name) != default:
                raise ConfigurationError(f"{name} is not an option of {DRAW_GAME}", field=name)
        small = _chips("small_blind", self.small_blind, least=0)
        small = 1 if small is None else small
        big = _chips("big_blind", self.big_blind, least=max(small, 1)) or 2 * max(small, 1)
        set_(self, "small_blind", small)
        set_(self, "big_blind", big)
        set_(self, "first_bet", _chips("first_bet", self.first_bet, least=1) or 2 * big)
        set_(self, "blind_raise", True if _flag("blind_raise", self.blind_raise) is None else self.blind_raise)
        rounds = self.blind_rounds
        if rounds is not None and (isinstance(rounds, bool) or rounds not in (1, 2)):
            raise ConfigurationError(f"blind_rounds must be 1 or 2; got {rounds!r}", field="blind_rounds")
        set_(self, "blind_rounds", rounds or 2)
        set_(self, "second_from_small_blind", bool(_flag("second_from_small_blind", self.second_from_small_blind)))

    def to_dict(self) -> dict[str, object]:
        """The resolved options as plain values (the ruleset by its fields)."""
        rules = self.rules
        assert rules is not None
        return {
            "game": self.game, "rules": rules.to_dict() if hasattr(rules, "to_dict") else _rules_dict(rules),
            "ante": self.ante, "min_stake": self.min_stake, "max_stake": self.max_stake,
            "raise_limit": self.raise_limit, "pot_limit": self.pot_limit, "pot_cap": self.pot_cap,
            "blind_turns": self.blind_turns, "see_cost": self.see_cost, "sideshow": self.sideshow,
            "agreed_showdown": self.agreed_showdown, "cover": self.cover, "retain_blind": self.retain_blind,
            "shuffle": self.shuffle,
            **({name: getattr(self, name) for name in DRAW_OPTIONS} if self.game == DRAW_GAME else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> TableRules:
        """The rules :meth:`to_dict` wrote.  What a deal or a record holds is
        data read back, not options given: a bad one is an InvalidHandError."""
        if not isinstance(data, dict):
            raise InvalidHandError(f"table rules must be an object; got {data!r}", field="table")
        options = dict(data)
        rules = options.pop("rules", None)
        if rules is not None and not isinstance(rules, dict):
            raise InvalidHandError(f"table rules' ruleset must be an object; got {rules!r}", field="rules")
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise InvalidHandError(f"unknown table option {unknown[0]!r}", field=unknown[0])
        try:
            if rules is not None:
                options["rules"] = Rules(**rules)
            return cls(**options)  # type: ignore[arg-type]
        except ConfigurationError as exc:
            raise InvalidHandError(str(exc), field=exc.field) from None


_OPTIONS = ("game", "rules", "ante", "min_stake", "max_stake", "raise_limit", "pot_limit", "pot_cap",
            "blind_turns", "see_cost", "sideshow", "agreed_showdown", "cover", "retain_blind", "shuffle",
            *DRAW_OPTIONS)


def _rules_dict(rules: Rules) -> dict[str, object]:
    """A ruleset's options, enough to rebuild it."""
    return {
        "preset": rules.preset, "ace_two_three": rules.ace_two_three, "top_prial": rules.top_prial,
        "lowball": rules.lowball, "wild": sorted(rules.wild_cards) if rules.wild is None and rules.wild_cards
        else rules.wild, "jokers": rules.jokers, "wild_ties": rules.wild_ties,
        "wild_as_itself": rules.wild_as_itself, "suit_order": rules.suit_order,
    }
