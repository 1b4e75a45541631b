"""Type stubs for the native extension (internal; use the prial package)."""

import enum
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from .categories import Category
from .results import BestHand, HandValue, Split

__version__: str
OPPONENT_MODEL_DEALS: int
MAX_CRASH_VALUE: int
MAX_JOKERS: int
SIMD_LEVELS: tuple[str, ...]
# The names of the four_order option: how the four-of-a-kind bonus ranks fours.
FOUR_ORDERS: tuple[str, ...]

# pybind11 enums: members named as the Python option strings.
class AceTwoThree(enum.IntEnum):
    top: ClassVar[AceTwoThree]
    second: ClassVar[AceTwoThree]
    bottom: ClassVar[AceTwoThree]

class TopPrial(enum.IntEnum):
    three: ClassVar[TopPrial]
    ace: ClassVar[TopPrial]

class WildTies(enum.IntEnum):
    natural_wins: ClassVar[WildTies]
    equal: ClassVar[WildTies]
    natural_prials: ClassVar[WildTies]

class WildAsItself(enum.IntEnum):
    wild: ClassVar[WildAsItself]
    natural: ClassVar[WildAsItself]

class Objective(enum.IntEnum):
    lexicographic: ClassVar[Objective]
    expected_points: ClassVar[Objective]

class RulesConfig:
    def __init__(
        self,
        *,
        ace_two_three: AceTwoThree,
        top_prial: TopPrial,
        running_flush_over_prial: bool,
        lowball: bool,
        wild_mask: int,
        jokers: int,
        wild_ties: WildTies,
        wild_as_itself: WildAsItself,
        suit_rank: Sequence[int],
        runs_and_flushes: bool = True,
        lesser_wild_mask: int = 0,
    ) -> None: ...

Cards = str | Sequence[int]

# Passed as `cancel=` to the long calls; cancel() from another thread makes
# the call raise prial.CancelledError.
class CancelFlag:
    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

class Evaluator:
    def __init__(self, config: RulesConfig) -> None: ...
    @property
    def classes(self) -> int: ...
    @property
    def slots(self) -> int: ...
    @property
    def pack_size(self) -> int: ...
    @property
    def table_bytes(self) -> int: ...
    # Read-only, indexed by strength (length classes + 1; index 0 unused).
    @property
    def categories(self) -> npt.NDArray[np.uint8]: ...
    # All six categories, strongest first in this ruleset.
    @property
    def category_order(self) -> list[Category]: ...

# The evaluator's operations: module functions taking it first, as the
# showdown, odds and service functions below do.
def evaluate(evaluator: Evaluator, hand: Cards) -> HandValue: ...
def evaluate_batch(
    evaluator: Evaluator,
    hands: npt.NDArray[np.uint8],
    *,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> npt.NDArray[np.uint16]: ...
def best_of(evaluator: Evaluator, cards: Cards) -> BestHand: ...
def best_of_batch(
    evaluator: Evaluator,
    hands: npt.NDArray[np.uint8],
    *,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> npt.NDArray[np.uint32]: ...
# objective: an Objective or its name; min_category: None or a Category
# (or its code 0..5; names are parsed by prial.Evaluator).
def partition(
    evaluator: Evaluator,
    cards: Cards,
    hands: int = 4,
    objective: Objective | str = "lexicographic",
    min_category: Category | int | None = None,
    opponents: int = 3,
    crash_value: float = 0.0,
    four_order: str = "prial",
) -> Split: ...
def partition_batch(
    evaluator: Evaluator,
    cards: npt.NDArray[np.uint8],
    hands: int = 4,
    objective: Objective | str = "lexicographic",
    min_category: Category | int | None = None,
    opponents: int = 3,
    crash_value: float = 0.0,
    four_order: str = "prial",
    *,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]: ...
def register_result_types(
    hand_value: type[HandValue], categories: list[Category], best_hand: type[BestHand], split: type[Split]
) -> None: ...
def best_of_build_seconds(evaluator: Evaluator, width: int) -> float: ...
def live_table_bytes() -> int: ...
def simd_level() -> str: ...
def supported_simd_level() -> str: ...
def set_simd_level(level: str) -> None: ...
def streaming_floor(hands: npt.NDArray[np.uint8], level: str) -> npt.NDArray[np.uint16]: ...
def parse_cards(text: str) -> list[int]: ...
def format_cards(cards: Cards) -> str: ...

# ---- one showdown ----
class Award:
    @property
    def winners(self) -> list[int]: ...  # seat indices
    @property
    def reason(self) -> str: ...
    @property
    def decided_by(self) -> str: ...

class SeatHand:
    @property
    def cards(self) -> bytes: ...  # as given
    @property
    def strength(self) -> int: ...
    @property
    def key(self) -> int: ...
    @property
    def category(self) -> Category: ...
    @property
    def description(self) -> str: ...
    @property
    def kept(self) -> bytes: ...
    @property
    def discarded(self) -> bytes: ...

class ShowdownOutcome:
    @property
    def see(self) -> bool: ...
    @property
    def winners(self) -> list[int]: ...  # seat indices
    @property
    def reason(self) -> str: ...
    @property
    def decided_by(self) -> str: ...
    @property
    def hands(self) -> list[SeatHand]: ...  # seat order
    @property
    def pot(self) -> int: ...  # the new pot
    @property
    def payouts(self) -> list[int] | None: ...  # by seat; None when no chips were given
    @property
    def cover(self) -> Award | None: ...

# players: objects with id, cards, blind, stake (prial.Player or a
# prial.v1.Player message)
def decide_showdown(
    evaluator: Evaluator,
    players: Sequence[Any],
    seer: str | None,
    coverer: str | None,
    cards_per_hand: int,
    pot: int,
    old_pot: int,
) -> ShowdownOutcome: ...
def encode_showdown_response(
    evaluator: Evaluator,
    players: Sequence[Any],
    seer: str | None,
    coverer: str | None,
    cards_per_hand: int,
    pot: int,
    old_pot: int,
) -> bytes: ...  # a serialized prial.v1.ShowdownResponse
def encode_evaluate_response(
    evaluator: Evaluator,
    hands: npt.NDArray[np.uint8],
    *,
    batch_index: int = 0,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> bytes: ...  # a serialized prial.v1.EvaluateResponse
def field_census(data: bytes, field: int, max_length: int) -> tuple[int, int, int, bool]: ...

# ---- sees in bulk and odds ----
def showdown_batch(
    evaluator: Evaluator,
    seer_cards: npt.NDArray[np.uint8],
    seen_cards: npt.NDArray[np.uint8],
    *,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> npt.NDArray[np.uint8]: ...
def category_counts(evaluator: Evaluator, cards: int) -> list[int]: ...
def hands_below(evaluator: Evaluator, hand: Cards) -> int: ...
def equity_counts(
    evaluator: Evaluator,
    hand: Cards,
    dead: Cards,
    opponents: int,
    samples: int,
    seed: int,
    *,
    cancel: CancelFlag | None = None,
) -> tuple[int, int, int]: ...
def equity_batch(
    evaluator: Evaluator,
    hands: npt.NDArray[np.uint8],
    *,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> npt.NDArray[np.uint64]: ...  # (N, 3): win, tie, lose opponent hands
def best_of_keys(evaluator: Evaluator, cards: int) -> npt.NDArray[np.uint32]: ...
def deal_count(unseen: int, hand_size: int, opponents: int) -> float: ...
# Ranks 0..12 (0 a two, 12 an ace) strongest first for the four-of-a-kind bonus.
def four_of_a_kind_order(evaluator: Evaluator, four_order: str) -> tuple[int, ...]: ...

# Text columns (prial score): Arrow string buffers in; returns
# (cards uint8 (N, width), counts uint8 (N,), status uint8 (N,), where uint8 (N,)).
def parse_text_column(
    validity: Any,
    offsets: Any,
    data: Any,
    *,
    large_offsets: bool,
    offset: int,
    rows: int,
    width: int,
    pack_size: int,
    threads: int | None = None,
    cancel: CancelFlag | None = None,
) -> tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]
]: ...
def text_hand_problem(text: str, width: int, pack_size: int) -> str: ...
# parse_text_column's status of a missing row.
PARSE_NULL: int

# The betting table: a table's resolved rules (-1: no limit) and one deal.
TABLE_KINDS: tuple[str, ...]
TABLE_CODES: dict[str, str]
PACK_VERSION: int
MAX_TABLE_CHIPS: int

def table_register_types(action: Any, illegal: Any) -> None: ...
def table_pack(seed: int, size: int) -> list[int]: ...
def table_deal(pack: list[int], players: int, dealer: int, cards: int, dealt_in: list[int]) -> list[list[int] | None]: ...
def table_self_play(
    table: Table, thresholds: Sequence[float], deals: int, seed: int, stack: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint32]]: ...

def table_replay(
    table: Table,
    players: Any,
    dealers: Any,
    cards: Any,
    stacks: Any,
    offsets: Any,
    actors: Any,
    kinds: Any,
    amounts: Any,
    discards: Any,
    threads: int | None = None,
    stub: Any = None,
) -> dict[str, Any]: ...

class Table:
    def __init__(
        self,
        rules: RulesConfig,
        cards: int,
        ante: int,
        min_stake: int,
        max_stake: int,
        raise_limit: int,
        raise_double: bool,
        pot_limit: bool,
        pot_cap: int,
        blind_turns: int,
        see_cost: int,
        sideshow: bool,
        agreed_showdown: bool,
        cover: bool,
        retain_blind: int,
        draw: bool = False,
        small_blind: int = 1,
        big_blind: int = 2,
        first_bet: int = 4,
        blind_raise: bool = True,
        blind_rounds: int = 2,
        second_from_small_blind: bool = False,
    ) -> None: ...

class TableDeal:
    @staticmethod
    def start(
        table: Table,
        names: list[str],
        cards: list[list[int] | None] | None,
        seed: int,
        dealer: int,
        stacks: list[int] | None,
        pot: int = 0,
        sitting_out: list[int] = ...,
        retained: int = -1,
        second: list[int] | None = None,
        stub: list[int] | None = None,
    ) -> TableDeal: ...
    def legal(self) -> tuple[Any, ...]: ...
    def stub(self) -> list[int]: ...
    def act(self, seat: int, kind: str, amount: int | None, discards: list[int]) -> TableDeal: ...
    @property
    def to_act(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def stake(self) -> int: ...
    @property
    def actions(self) -> int: ...
    @property
    def seer(self) -> int: ...
    def pots(self) -> list[tuple[int, int]]: ...
    def seats(self) -> list[tuple[str, int | None, int, int]]: ...
    def history(self) -> list[Any]: ...
    def events(self) -> list[tuple[str, int, int, int, int]]: ...
    def cards(self, seat: int) -> list[int] | None: ...
    def shown_cards(self, seat: int) -> list[int] | None: ...
    def discards(self, seat: int) -> list[int]: ...
    def seen_by(self, seat: int) -> int: ...
    def result(self) -> tuple[bool, str, list[int], list[int], bool, int] | None: ...
    def hands(self, seat: int) -> int: ...
    def retained_cards(self, seat: int) -> list[int] | None: ...
    def holds_face_up(self, seat: int) -> bool: ...
    def face_up_cards(self, seat: int) -> list[int] | None: ...
