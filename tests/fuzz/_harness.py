"""Shared machinery of the fuzz harnesses in tests/fuzz/.

A harness is a module ``fuzz_<area>.py`` with one function
``one_input(data: bytes) -> None`` that turns the bytes into calls of prial
entry points and checks what comes back.  The contract it enforces (docs/rules.md, "Cards"):
bad input raises ``prial.InvalidHandError`` or, for a bad option,
``prial.ConfigurationError`` (or a subclass); anything else
escaping -- another exception, a crash, a wrong answer caught by an
assertion -- is a finding.  Run one under atheris (coverage-guided)::

    python tests/fuzz/fuzz_cards.py -max_total_time=30

or all of them with ``python tools/fuzz.py --seconds 60``.  The harnesses do
not need atheris themselves (``Input`` below decodes the bytes), so
tests/test_fuzz_harnesses.py replays them under plain pytest too.

Adding an entry point: a new ``fuzz_<area>.py`` with ``one_input`` and the
two lines at the bottom of the others (``if __name__ == "__main__": run(...)``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")

# Characters card text is made of, weighted towards the valid ones so the
# fuzzer gets past the first card quickly; the rest of Unicode comes in
# through ``Input.text``'s escape hatch.
CARD_ALPHABET = (
    "23456789TJQKAtjqka" "cdhsCDHS" "10" "Xx123" " ,\t\n" "♣♦♥♠♤♡♢♧" "\ufe0f" "Joker" "Zz\x00\u00e9"
)


class Input:
    """Deterministic decoding of fuzz bytes into values; past the end every
    read returns zeros, so any byte string is a valid input."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def int_in(self, lo: int, hi: int) -> int:
        """An integer in [lo, hi] (inclusive)."""
        span = hi - lo + 1
        value = 0
        for _ in range(max(1, (span.bit_length() + 7) // 8)):
            value = (value << 8) | self.byte()
        return lo + value % span

    def flag(self) -> bool:
        return bool(self.byte() & 1)

    def pick(self, choices: Sequence[T]) -> T:
        return choices[self.int_in(0, len(choices) - 1)]

    def take(self, n: int) -> bytes:
        chunk = self.data[self.pos : self.pos + n]
        self.pos += len(chunk)
        return chunk + bytes(n - len(chunk))

    def rest(self) -> bytes:
        chunk = self.data[self.pos :]
        self.pos = len(self.data)
        return chunk

    def text(self, max_chars: int = 40) -> str:
        """Card-like text, with any code point (lone surrogates included)
        now and then."""
        out = []
        for _ in range(self.int_in(0, max_chars)):
            b = self.byte()
            if b < 240:
                out.append(CARD_ALPHABET[b % len(CARD_ALPHABET)])
            else:
                out.append(chr(self.int_in(0, sys.maxunicode)))
        return "".join(out)

    def cards(self, max_cards: int = 6, top: int = 60) -> list[int]:
        """Card indices, mostly in the pack, sometimes just beyond it."""
        return [self.int_in(0, top) for _ in range(self.int_in(0, max_cards))]


# numpy dtypes a caller might plausibly pass instead of uint8.
DTYPES = (np.uint8, np.uint8, np.uint8, np.int8, np.uint16, np.int32, np.int64, np.float32, np.bool_)


def array(inp: Input, *, width_hint: int, max_rows: int = 64) -> np.ndarray:
    """An array of arbitrary dtype, shape and layout; mostly (N, width_hint)
    C-contiguous uint8 with values near the pack so the kernel itself is hit."""
    dtype = np.dtype(inp.pick(DTYPES))
    shape_kind = inp.int_in(0, 7)
    rows = inp.int_in(0, max_rows)
    if shape_kind <= 4:
        shape: tuple[int, ...] = (rows, width_hint)
    elif shape_kind == 5:
        shape = (rows, inp.int_in(0, 6))
    elif shape_kind == 6:
        shape = (rows,)
    else:
        shape = (rows, width_hint, inp.int_in(0, 2))
    count = int(np.prod(shape))
    raw = inp.take(count * dtype.itemsize)
    if dtype == np.uint8 and inp.int_in(0, 3):
        # Values mostly inside the pack (plus jokers and a little beyond).
        a = (np.frombuffer(raw, np.uint8) % 58).astype(np.uint8).reshape(shape)
    else:
        a = np.frombuffer(raw, dtype).reshape(shape).copy()
    layout = inp.int_in(0, 7)
    if layout == 6 and a.ndim == 2:
        a = np.asfortranarray(a)
    elif layout == 7 and a.ndim >= 1 and a.shape[0] > 1:
        a = a[::2]  # a strided view
    if inp.int_in(0, 7) == 0:
        a.flags.writeable = False
    return a


def hand_problem(row: Sequence[int], pack_size: int) -> bool:
    """True when a hand has a card outside the pack or a repeated card: the
    independent reference for which rows a batch call must reject."""
    return any(c >= pack_size for c in row) or len(set(row)) != len(row)


def rules(inp: Input):  # -> prial.Rules (may raise ConfigurationError)
    """A ruleset built from fuzz bytes.  One input in eight is hostile (any
    option may be invalid); the rest are valid, so most inputs reach the
    evaluator instead of stopping at the ruleset."""
    import prial

    hostile = inp.int_in(0, 7) == 0

    def option(valid: tuple, invalid: tuple) -> object:
        return inp.pick(valid + invalid if hostile else valid)

    wild_kind = inp.int_in(0, 4)
    wild: object = None
    if wild_kind == 1:
        wild = option(("deuces", "black_deuces", "one_eyed_jacks", "suicide_king", "ak47", "jokers", "bragger",
                       "bragger_nine", "bragger_jacks", "bragger_ace_nine", "none"), ("bogus",))
    elif wild_kind == 2 and hostile:
        wild = inp.text(12)
    elif wild_kind >= 2:
        wild = inp.cards(4, 56 if hostile else 51)
    return prial.Rules(
        preset=option(("brag", "teen_patti", "three_card_poker", "classic"), ("poker",)),  # type: ignore[arg-type]
        ace_two_three=option((None, "top", "second", "bottom"), ("middle",)),  # type: ignore[arg-type]
        top_prial=option((None, "three", "ace"), ("king",)),  # type: ignore[arg-type]
        lowball=inp.flag(),
        wild=wild,  # type: ignore[arg-type]
        jokers=option((None, 0, 1, 2, 3), (4, -1)),  # type: ignore[arg-type]
        wild_ties=option(("natural_wins", "equal", "natural_prials"), ("random",)),  # type: ignore[arg-type]
    )


_evaluators: dict = {}


def evaluator(inp: Input):  # -> prial.Evaluator
    """An Evaluator for fuzzed rules (cached: tables take milliseconds);
    raises ConfigurationError for rules that are rejected."""
    import prial

    r = rules(inp)
    if r not in _evaluators:
        if len(_evaluators) > 64:
            _evaluators.clear()
        _evaluators[r] = prial.Evaluator(r)
    return _evaluators[r]


def expected_errors() -> tuple[type[BaseException], ...]:
    """What a call may raise on bad input: prial's error family only."""
    import prial

    return (prial.InvalidHandError, prial.ConfigurationError)


def instrumented_imports():  # -> a context manager
    """Under atheris, Python modules imported inside this block report
    coverage (prial's Python layer); without atheris it does nothing.  The
    C++ core is not instrumented: that needs clang's -fsanitize=fuzzer."""
    try:
        import atheris
    except ImportError:
        return contextlib.nullcontext()
    return atheris.instrument_imports(include=["prial"])


def guarded(one_input: Callable[[bytes], None]) -> Callable[[bytes], None]:
    """Swallows the documented error family; everything else propagates
    (under atheris: a crash report and a crash-<sha1> file)."""
    allowed = expected_errors()

    def test_one_input(data: bytes) -> None:
        try:
            one_input(data)
        except allowed:
            pass

    return test_one_input


def run(one_input: Callable[[bytes], None]) -> None:
    """The atheris entry point of a harness script."""
    import atheris

    atheris.Setup(sys.argv, guarded(one_input))
    atheris.Fuzz()
