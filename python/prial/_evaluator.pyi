from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from . import _core
from ._rules import Rules
from ._bestof_types import BestHand, Split
from ._types import Category, HandValue

Hand = str | Sequence[int]
Objective = Literal["lexicographic", "expected_points"]

class Evaluator(_core.Evaluator):
    def __init__(self, rules: Rules | None = None) -> None: ...
    @property
    def rules(self) -> Rules: ...
    def evaluate(self, hand: Hand) -> HandValue: ...
    def evaluate_batch(
        self, hands: npt.NDArray[np.uint8], *, threads: int | None = None
    ) -> npt.NDArray[np.uint16]: ...
    def best_of(self, cards: Hand) -> BestHand: ...
    def best_of_batch(
        self, hands: npt.NDArray[np.uint8], *, threads: int | None = None
    ) -> npt.NDArray[np.uint32]: ...
    def partition(
        self,
        cards: Hand,
        hands: int = 4,
        objective: Objective = "lexicographic",
        min_category: Category | str | None = None,
        opponents: int = 3,
        crash_value: float = 0.0,
    ) -> Split: ...
    def partition_batch(
        self,
        cards: npt.NDArray[np.uint8],
        hands: int = 4,
        objective: Objective = "lexicographic",
        min_category: Category | str | None = None,
        opponents: int = 3,
        crash_value: float = 0.0,
        *,
        threads: int | None = None,
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]: ...

def evaluator_for(rules: Rules | None) -> Evaluator: ...
