"""Type stubs for the native extension (internal; use the prial package)."""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

class RulesConfig:
    def __init__(
        self,
        *,
        ace_two_three: int,
        top_prial: int,
        running_flush_over_prial: bool,
        lowball: bool,
        wild_mask: int,
        jokers: int,
        wild_ties: int,
    ) -> None: ...

class Evaluator:
    def __init__(self, config: RulesConfig) -> None: ...
    def evaluate(self, hand: str | Any) -> Any: ...
    def evaluate_batch(
        self, hands: npt.NDArray[np.uint8], *, threads: int | None = None
    ) -> npt.NDArray[np.uint16]: ...
    def best_of(self, cards: str | Any) -> Any: ...
    def best_of_batch(
        self, hands: npt.NDArray[np.uint8], *, threads: int | None = None
    ) -> npt.NDArray[np.uint32]: ...
    def _best_of_build_seconds(self, width: int) -> float: ...
    def partition(
        self,
        cards: str | Any,
        hands: int = 4,
        objective: str = "lexicographic",
        min_category: Any = None,
        opponents: int = 3,
    ) -> Any: ...
    def partition_batch(
        self,
        cards: npt.NDArray[np.uint8],
        hands: int = 4,
        objective: str = "lexicographic",
        min_category: Any = None,
        opponents: int = 3,
        *,
        threads: int | None = None,
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]: ...
    # players: objects with id, cards, blind, stake (prial.Player or a
    # prial.v1.Player message)
    def _showdown(
        self,
        players: Sequence[Any],
        seer: str | None,
        coverer: str | None,
        cards_per_hand: int,
        pot: int,
        old_pot: int,
    ) -> Any: ...  # the tuple described in prial/_showdown.py
    def _showdown_message(
        self,
        players: Sequence[Any],
        seer: str | None,
        coverer: str | None,
        cards_per_hand: int,
        pot: int,
        old_pot: int,
    ) -> bytes: ...  # a serialized prial.v1.ShowdownResponse
    @property
    def classes(self) -> int: ...
    @property
    def slots(self) -> int: ...
    @property
    def pack_size(self) -> int: ...

OPPONENT_MODEL_DEALS: int

def _register_types(hand_value: type, categories: list[Any]) -> None: ...
def _register_bestof_types(best_hand: type, split: type) -> None: ...
def simd_level() -> str: ...
def supported_simd_level() -> str: ...
def _set_simd_level(level: str) -> None: ...
def parse_cards(text: str) -> list[int]: ...
def format_cards(cards: Any) -> str: ...

# ---- showdown and odds (issue 4) ----
def showdown_batch(
    evaluator: Evaluator,
    seer_cards: npt.NDArray[np.uint8],
    seen_cards: npt.NDArray[np.uint8],
    *,
    threads: int | None = None,
) -> npt.NDArray[np.uint8]: ...
def category_counts(evaluator: Evaluator, cards: int) -> list[int]: ...
def equity_counts(
    evaluator: Evaluator, hand: str | Any, dead: str | Any, opponents: int, samples: int, seed: int
) -> tuple[int, int, int]: ...
def best_of_keys(evaluator: Evaluator, cards: int) -> npt.NDArray[np.uint32]: ...
def deal_count(unseen: int, hand_size: int, opponents: int) -> float: ...

# Text columns (prial score): Arrow string buffers in; returns
# (cards uint8 (N, width), counts uint8 (N,), status uint8 (N,), where uint8 (N,)).
def _parse_text_column(
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
) -> tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]
]: ...
def _text_hand_problem(text: str, width: int, pack_size: int) -> str: ...
