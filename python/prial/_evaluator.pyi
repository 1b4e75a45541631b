from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from . import _core
from ._rules import Rules
from ._types import HandValue

Hand = str | Sequence[int]

class Evaluator(_core.Evaluator):
    def __init__(self, rules: Rules | None = None) -> None: ...
    @property
    def rules(self) -> Rules: ...
    def evaluate(self, hand: Hand) -> HandValue: ...
    def evaluate_batch(
        self, hands: npt.NDArray[np.uint8], *, threads: int | None = None
    ) -> npt.NDArray[np.uint16]: ...

def evaluator_for(rules: Rules | None) -> Evaluator: ...
