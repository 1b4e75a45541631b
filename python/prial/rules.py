"""Rulesets (docs/rules.md, "Rulesets"): presets, options and wild cards,
resolved once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Union, cast

from ._core import MAX_JOKERS, RulesConfig, format_cards, parse_cards
from ._core import AceTwoThree as NativeAceTwoThree
from ._core import TopPrial as NativeTopPrial
from ._core import WildAsItself as NativeWildAsItself
from ._core import WildTies as NativeWildTies
from .errors import ConfigurationError, InvalidHandError

Preset = Literal["brag", "teen_patti", "three_card_poker", "classic"]
AceTwoThree = Literal["top", "second", "bottom"]
TopPrial = Literal["three", "ace"]
WildTies = Literal["natural_wins", "equal", "natural_prials"]
WildAsItself = Literal["wild", "natural"]
WildSpec = Union[str, Iterable[Union[int, str]], None]

# Each preset's defaults.  ``runs_and_flushes`` False: runs and flushes
# count as high cards (classic Brag, whose ace-two-three has nothing to
# place); ``wild``: the wild cards when ``wild`` is not given.
PRESETS: dict[str, dict[str, object]] = {
    "brag": {"ace_two_three": "top", "top_prial": "three", "running_flush_over_prial": False,
             "runs_and_flushes": True, "wild": None},
    "teen_patti": {"ace_two_three": "second", "top_prial": "ace", "running_flush_over_prial": False,
                   "runs_and_flushes": True, "wild": None},
    "three_card_poker": {"ace_two_three": "bottom", "top_prial": "ace", "running_flush_over_prial": True,
                         "runs_and_flushes": True, "wild": None},
    "classic": {"ace_two_three": "top", "top_prial": "ace", "running_flush_over_prial": False,
                "runs_and_flushes": False, "wild": "bragger"},
}

_RANKS = "23456789TJQKA"


def _all_suits(*ranks: str) -> frozenset[int]:
    return frozenset(_RANKS.index(r) * 4 + s for r in ranks for s in range(4))


WILD_PRESETS: dict[str, frozenset[int]] = {
    "deuces": _all_suits("2"),
    "black_deuces": frozenset({0, 3}),  # 2c, 2s
    "one_eyed_jacks": frozenset({9 * 4 + 2, 9 * 4 + 3}),  # Jh, Js
    "suicide_king": frozenset({11 * 4 + 2}),  # Kh
    "ak47": _all_suits("A", "K", "4", "7"),
    "jokers": frozenset(),  # only the jokers, which are always wild
    "none": frozenset(),  # no wild cards, whatever the preset's
    # The braggers of classic Brag (docs/rules.md, "Classic Brag"):
    "bragger": frozenset({9 * 4}),  # Jc
    "bragger_nine": frozenset({9 * 4, 7 * 4 + 1}),  # Jc 9d
    "bragger_jacks": frozenset({9 * 4, 9 * 4 + 1}),  # Jc, and Jd the lesser
    "bragger_ace_nine": frozenset({12 * 4 + 1, 9 * 4, 7 * 4 + 1}),  # Ad Jc 9d
}
# The wild cards of a wild-card preset that lose an equal tie to its others.
LESSER_WILDS: dict[str, frozenset[int]] = {"bragger_jacks": frozenset({9 * 4 + 1})}  # Jd

# Each option's native enum; its member names are the option's choices, in
# the core's order.
_ENUMS: dict[str, Any] = {
    "ace_two_three": NativeAceTwoThree,
    "top_prial": NativeTopPrial,
    "wild_ties": NativeWildTies,
    "wild_as_itself": NativeWildAsItself,
}
_CHOICES: dict[str, tuple[str, ...]] = {option: tuple(enum.__members__) for option, enum in _ENUMS.items()}
ACE_TWO_THREE = _CHOICES["ace_two_three"]
TOP_PRIAL = _CHOICES["top_prial"]
WILD_TIES = _CHOICES["wild_ties"]
WILD_AS_ITSELF = _CHOICES["wild_as_itself"]


def _choice(option: str, value: str) -> Any:
    """The option's native enum member named ``value``."""
    choices = _CHOICES[option]
    if value not in choices:
        raise ConfigurationError(f"{option} must be one of {', '.join(choices)}; got {value!r}")
    return getattr(_ENUMS[option], value)


@dataclass(frozen=True)
class Rules:
    """One ruleset: immutable and hashable, so it can key caches.

    Options left as ``None`` take the preset's value.  ``wild`` is a preset
    name (``deuces``, ``black_deuces``, ``one_eyed_jacks``, ``suicide_king``,
    ``ak47``, ``jokers``, the braggers ``bragger``, ``bragger_nine``,
    ``bragger_jacks``, ``bragger_ace_nine``, or ``none``), card text
    ("2c 2s") or card indices; ``None``: the preset's (the jack of clubs
    under ``classic``, else none); jokers (52..54) are always wild.  ``wild="jokers"`` implies one joker unless
    ``jokers`` says otherwise.  ``wild_as_itself``: whether a wild card
    standing for itself counts as natural in the wild ties.  ``suit_order``:
    the four suits highest first (``"shdc"``) to break ties that are
    otherwise exact; ``None``, suits never rank.
    """

    preset: Preset = "brag"
    ace_two_three: AceTwoThree | None = None
    top_prial: TopPrial | None = None
    lowball: bool = False
    wild: WildSpec = None
    jokers: int | None = None
    wild_ties: WildTies = "natural_wins"
    wild_as_itself: WildAsItself = "wild"
    suit_order: str | None = None
    running_flush_over_prial: bool = field(init=False, default=False, repr=False)
    wild_cards: frozenset[int] = field(init=False, default=frozenset(), repr=False)
    lesser_wild_cards: frozenset[int] = field(init=False, default=frozenset(), repr=False)
    runs_and_flushes: bool = field(init=False, default=True, repr=False)

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ConfigurationError(f"preset must be one of {', '.join(PRESETS)}; got {self.preset!r}")
        defaults = PRESETS[self.preset]
        set_ = object.__setattr__
        set_(self, "ace_two_three", self.ace_two_three or defaults["ace_two_three"])
        set_(self, "top_prial", self.top_prial or defaults["top_prial"])
        set_(self, "running_flush_over_prial", defaults["running_flush_over_prial"])
        set_(self, "runs_and_flushes", defaults["runs_and_flushes"])
        for option in _CHOICES:
            _choice(option, getattr(self, option))
        if not isinstance(self.lowball, bool):
            raise ConfigurationError(f"lowball must be True or False; got {self.lowball!r}")
        wild_name, wild_cards = _resolve_wild(cast(WildSpec, defaults["wild"]) if self.wild is None else self.wild)
        if wild_name == "none" and defaults["wild"] is None:
            wild_name = None  # the same ruleset as no wild given
        jokers = self.jokers
        if jokers is None:
            jokers = 1 if wild_name == "jokers" else 0
        if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= MAX_JOKERS:
            raise ConfigurationError(f"jokers must be an integer 0..{MAX_JOKERS}; got {self.jokers!r}")
        if wild_name == "jokers" and jokers == 0:
            raise ConfigurationError("wild='jokers' needs at least one joker (jokers=1..3)")
        beyond = sorted(c for c in wild_cards if c >= 52 + jokers)
        if beyond:
            raise ConfigurationError(
                f"wild names joker index {beyond[0]} but the pack has {jokers} joker(s)"
            )
        set_(self, "jokers", jokers)
        set_(self, "wild", wild_name)
        set_(self, "wild_cards", frozenset(c for c in wild_cards if c < 52))
        set_(self, "lesser_wild_cards", LESSER_WILDS.get(str(wild_name), frozenset()))
        set_(self, "suit_order", _suit_order(self.suit_order))

    @property
    def pack_size(self) -> int:
        """Cards in the pack: 52 plus the jokers."""
        return 52 + int(self.jokers or 0)

    def is_wild(self, card: int) -> bool:
        return card >= 52 or card in self.wild_cards

    def _config(self) -> RulesConfig:
        mask = sum(1 << card for card in self.wild_cards)
        return RulesConfig(
            ace_two_three=_choice("ace_two_three", str(self.ace_two_three)),
            top_prial=_choice("top_prial", str(self.top_prial)),
            running_flush_over_prial=self.running_flush_over_prial,
            lowball=self.lowball,
            wild_mask=mask,
            jokers=int(self.jokers or 0),
            wild_ties=_choice("wild_ties", self.wild_ties),
            wild_as_itself=_choice("wild_as_itself", self.wild_as_itself),
            suit_rank=[0] * 4 if self.suit_order is None else [3 - self.suit_order.index(s) for s in SUITS],
            runs_and_flushes=self.runs_and_flushes,
            lesser_wild_mask=sum(1 << card for card in self.lesser_wild_cards),
        )


def with_preset(base: Rules, preset: str) -> Rules:
    """``base`` under another preset (a log row's ``game``): the preset's
    own ace-two-three and top prial, and its own wild cards where ``base``
    kept its preset's; every other option of ``base`` kept."""
    wild = None if base.wild == PRESETS[base.preset]["wild"] else base.wild
    return Rules(preset=preset, lowball=base.lowball, wild=wild, jokers=base.jokers, wild_ties=base.wild_ties,
                 wild_as_itself=base.wild_as_itself, suit_order=base.suit_order)


SUITS = "cdhs"  # suit 0..3 of a card index


def _suit_order(order: object) -> str | None:
    """The suit order, the four suit letters highest first in lower case."""
    if order is None:
        return None
    if not isinstance(order, str) or sorted(order.lower()) != sorted(SUITS):
        raise ConfigurationError(f"suit_order must be the four suits c, d, h, s in some order, highest first "
                                 f"(e.g. 'shdc'), or None; got {order!r}")
    return order.lower()


def _resolve_wild(wild: WildSpec) -> tuple[str | None, frozenset[int]]:
    """(the name kept on the Rules, the wild card indices)."""
    if wild is None:
        return None, frozenset()
    if isinstance(wild, str):
        if wild in WILD_PRESETS:
            return wild, WILD_PRESETS[wild]
        try:
            cards = parse_cards(wild)
        except InvalidHandError as exc:
            raise ConfigurationError(
                f"wild must be a preset ({', '.join(WILD_PRESETS)}) or cards; {exc}"
            ) from None
        return _canonical(cards)
    cards = []
    for i, item in enumerate(wild):
        if isinstance(item, str):
            try:
                cards.extend(parse_cards(item))
            except InvalidHandError as exc:
                raise ConfigurationError(f"wild item {i}: {exc}") from None
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item <= 54:
            cards.append(item)
        else:
            raise ConfigurationError(f"wild item {i}: expected a card index 0..54 or card text, got {item!r}")
    return _canonical(cards)


def _canonical(cards: list[int]) -> tuple[str, frozenset[int]]:
    unique = frozenset(cards)
    return format_cards(sorted(unique)), unique
