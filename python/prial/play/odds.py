"""Exact odds: category counts, a hand's equity against random opponents,
and its percentile among all hands."""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable
from typing import TypeVar

from .._core import CancelFlag, category_counts, deal_count, equity_counts, hands_below
from ..cards import CardsLike, cards_of
from ..errors import ConfigurationError, InvalidHandError
from ..evaluator import evaluator_for
from ..rules import Rules
from .results import CategoryOdds, Equity, Odds

# Deals enumerated when asked for exact equity; beyond this, sample.
EXACT_DEAL_LIMIT = 200_000_000
DEFAULT_SAMPLES = 200_000
# Sampled deals from which a call from the main thread runs the native
# work on a thread of its own: Python raises KeyboardInterrupt only in the
# main thread, between bytecodes, so Ctrl-C reaches a main thread waiting
# for the work, which then cancels it.  (Fewer take well under a second.)
INTERRUPTIBLE_SAMPLES = 1_000_000

T = TypeVar("T")


def interruptible(work: Callable[[CancelFlag], T], cancel: CancelFlag | None) -> T:
    """``work(flag)``, on a thread of its own when called from the main
    thread: Ctrl-C there cancels ``flag`` (``cancel``, or a flag of its own),
    waits for the work to stop and raises KeyboardInterrupt."""
    flag = cancel if cancel is not None else CancelFlag()
    if threading.current_thread() is not threading.main_thread():
        return work(flag)
    outcome: list = []

    ended = threading.Event()

    def run() -> None:
        try:
            outcome.append((True, work(flag)))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome.append((False, exc))
        finally:
            ended.set()

    # Waited for by an Event: a Thread.join interrupted by Ctrl-C may take
    # the thread for ended while it runs on (and the interpreter, exiting
    # under it, aborts).
    threading.Thread(target=run, name="prial-equity", daemon=True).start()
    try:
        ended.wait()
    except KeyboardInterrupt:
        flag.cancel()
        ended.wait()  # within milliseconds: the native loop watches the flag
        raise
    done, value = outcome[0]
    if not done:
        raise value
    return value


def _hand_size(cards: int) -> int:
    if isinstance(cards, bool) or cards not in (3, 4, 5):
        raise ConfigurationError(f"cards must be 3, 4 or 5, got {cards!r}")
    return cards


@functools.lru_cache(maxsize=32)
def odds(rules: Rules | None = None, cards: int = 3) -> Odds:
    """Exact count and probability of each category over every hand of
    ``cards`` cards from the pack (four and five cards: by the strongest
    three), strongest category first in the ruleset's order."""
    ev = evaluator_for(rules)
    counts = category_counts(ev, _hand_size(cards))
    total = math.comb(ev.pack_size, cards)
    order = ev.category_order
    rows = tuple(CategoryOdds(c, counts[c], counts[c] / total) for c in order)
    return Odds(cards, total, rows)


def equity(
    hand: CardsLike,
    opponents: int = 1,
    dead: CardsLike = (),
    rules: Rules | None = None,
    *,
    samples: int | None = None,
    seed: int = 0,
    cancel: CancelFlag | None = None,
    with_percentile: bool = False,
) -> Equity:
    """Win/tie/lose probabilities of ``hand`` (3, 4 or 5 cards) against
    ``opponents`` random hands of as many cards dealt from the cards neither
    in the hand nor ``dead``; four and five cards compare by best-of keys,
    the discard tie-break included.

    Exact (every deal counted, in C++) when ``samples`` is None and the
    deals number at most ``EXACT_DEAL_LIMIT`` (one opponent always; two
    three-card opponents from 49 unseen cards: 139,838,160 deals); otherwise ``samples``
    (default 200,000) random deals from ``seed``, with the standard error.
    Win: better than every opponent; tie: no opponent better, one at least
    equal; lose: some opponent better.

    To stop the work, pass a ``prial.CancelFlag`` as ``cancel`` and call its
    ``.cancel()`` from another thread: the call then raises
    ``prial.CancelledError`` within milliseconds.  Ctrl-C stops a long
    sampled call made from the main thread as well (KeyboardInterrupt;
    ``cancel``, if given, is then cancelled).

    ``with_percentile``: the result carries the hand's ``percentile`` too
    (read from the counting table that exact equity uses, built by the
    first call for a hand size and ruleset: about 0.2 s for five cards).
    """
    ev = evaluator_for(rules)
    cards = cards_of(hand, "hand")
    if len(cards) not in (3, 4, 5):
        raise InvalidHandError(f"hand: expected 3, 4 or 5 cards, got {len(cards)}")
    dead_cards = cards_of(dead, "dead")
    if isinstance(opponents, bool) or not isinstance(opponents, int) or opponents < 1:
        raise ConfigurationError(f"opponents must be an integer >= 1, got {opponents!r}", field="opponents")
    unseen = ev.pack_size - len(cards) - len(dead_cards)
    if len(cards) * opponents > unseen:
        raise ConfigurationError(
            f"{opponents} opponent(s) need {len(cards) * opponents} unseen cards, there are {unseen}",
            field="opponents")
    # One opponent: a few million deals at most, always exact.
    exact = samples is None and (opponents == 1 or (
        opponents == 2 and deal_count(unseen, len(cards), opponents) <= EXACT_DEAL_LIMIT))
    if not exact:
        samples = DEFAULT_SAMPLES if samples is None else samples
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ConfigurationError(f"samples must be an integer >= 1, got {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigurationError(f"seed must be an integer >= 0, got {seed!r}")
    def count(flag: CancelFlag | None) -> tuple[int, int, int]:
        return equity_counts(ev, cards, dead_cards, opponents, 0 if exact else samples, seed % 2**64, cancel=flag)

    long = not exact and samples is not None and samples >= INTERRUPTIBLE_SAMPLES
    win, tie, lose = interruptible(count, cancel) if long else count(cancel)
    total = win + tie + lose
    p = [win / total, tie / total, lose / total]
    stderr = 0.0 if exact else max(math.sqrt(x * (1 - x) / total) for x in p)
    return Equity(p[0], p[1], p[2], exact, stderr, total, opponents,
                  percentile(cards, rules) if with_percentile else None)


def percentile(hand: CardsLike, rules: Rules | None = None) -> float:
    """The share of all hands of the pack with as many cards as ``hand``
    (3, 4 or 5) that it beats strictly (0.0 for the weakest, just under 1.0
    for the top); four and five cards compare by best-of keys."""
    cards = cards_of(hand, "hand")
    if len(cards) not in (3, 4, 5):
        raise InvalidHandError(f"hand: expected 3, 4 or 5 cards, got {len(cards)}")
    ev = evaluator_for(rules)
    return hands_below(ev, cards) / math.comb(ev.pack_size, len(cards))
