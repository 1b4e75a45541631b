"""Sample deal logs, to try ``prial score`` on (``prial sample``).

Deals of three-card Brag from a shuffled pack, one row per player, in the
log format ``prial score`` reads (README, "Scoring hand logs"): some players
fold, about three deals in ten end in a see between the last two players,
and the ``won`` column is a coin toss, so the scored log shows disputes
(and deals where nobody is recorded as the winner), or with
``won="adjudicated"`` the winners prial adjudicates, so it shows none;
every deal can be adjudicated.  A log may name a dealer for each deal and be
dealt with a ``Bias`` (a dealer or a seat favoured with pairs or aces), for
a fairness audit to find.
Built column-wise with numpy (the card text is assembled straight into an
Arrow string buffer): ten million rows take seconds.
"""

from __future__ import annotations

import contextlib
import numbers
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InvalidHandError
from ..logs.chunk import score_table
from ..logs.formats import detect_format
from ..logs.io import write_tables
from ..logs.options import ScoreOptions
from ..logs.targets import check_directory
from ..play.crash_deal import DEAL_SIZES
from .sample_laid import sample_laid_deals
from .types import SAMPLE_WON, ScoreError

# Deals generated (and written, as one Parquet row group) at a time, so any
# size streams in bounded memory; row groups end at deal boundaries, as the
# Dask engine needs.
DEALS_PER_GROUP = 1 << 18
MAX_PLAYERS = 17  # three cards each from one pack of 52
MAX_DEALERS = int(np.iinfo(np.int16).max)  # the dealer column is int16
FEATURES = ("pairs", "aces")
_RANKS = "23456789TJQKA"
_ACE = _RANKS.index("A")  # card index = rank * 4 + suit
_CARD_TEXT = np.array([list((r + s).encode()) for r in _RANKS for s in "cdhs"], dtype=np.uint8)


def _hands_text(hands: np.ndarray) -> pa.StringArray:
    """(N, 3) card indices -> "Ah Kd 2c" strings, without Python per row."""
    n = len(hands)
    data = np.full((n, 8), ord(" "), dtype=np.uint8)
    for i in range(3):
        data[:, 3 * i: 3 * i + 2] = _CARD_TEXT[hands[:, i]]
    offsets = np.arange(0, 8 * n + 1, 8, dtype=np.int32)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))


def _count(value: object, name: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise InvalidHandError(f"{name} must be an integer {bound}, got {value!r}", field=name)
    return value


@dataclass(frozen=True)
class Bias:
    """A sample log dealt unfairly, on purpose: ``feature`` comes to the
    favoured hands more often than a fair shuffle brings it.

    ``feature`` is ``"pairs"`` (a hand holding two or more cards of one
    rank: any pair, or a prial) or ``"aces"`` (a hand holding an ace).  The
    bias applies to the deals of ``dealer`` (a number of the log's
    ``dealer`` column, so ``sample_deals`` needs ``dealers`` above it), or
    to every deal if None; its targeted hands are the hand of seat ``seat``
    (the ``player`` column, below ``players``), or every hand of the deal if
    None.

    Exactly: a deal the bias applies to in which no targeted hand has the
    feature is, with probability ``rate``, shuffled again once; a fresh
    shuffle of the whole pack replaces all of that deal's cards (every
    hand's, not only the targeted ones), and it may again lack the feature.
    Nothing else of the deal changes: its folds, see and ``won`` column are
    those of the fair log.  So for one targeted hand that has the feature
    with probability p in a fair deal, the biased probability is
    ``p + rate * (1 - p) * p``.  As a re-dealt deal is a whole fresh deal,
    the other hands of the deals a seat bias applies to change a little
    too (docs/scoring.md gives the figures).

    ``Bias.parse`` reads the command line's form,
    ``FEATURE[:dealer=N][:seat=N][:rate=R]``, and ``str()`` gives it back.
    """

    feature: str
    dealer: int | None = None
    seat: int | None = None
    rate: float = 0.5

    def __post_init__(self) -> None:
        if self.feature not in FEATURES:
            raise InvalidHandError(f"feature must be 'pairs' or 'aces', got {self.feature!r}", field="feature")
        if self.dealer is not None:
            _count(self.dealer, "dealer", 0)
        if self.seat is not None:
            _count(self.seat, "seat", 0)
        rate = self.rate
        if isinstance(rate, bool) or not isinstance(rate, numbers.Real) or not 0 <= rate <= 1:
            raise InvalidHandError(f"rate must be a number from 0 to 1, got {rate!r}", field="rate")
        object.__setattr__(self, "rate", float(rate))

    @classmethod
    def parse(cls, text: str) -> Bias:
        """The bias ``text`` says, as ``prial sample --bias`` takes it:
        ``FEATURE[:dealer=N][:seat=N][:rate=R]``, e.g. ``pairs:dealer=2`` or
        ``aces:seat=0:rate=0.3``; InvalidHandError naming the bad part."""
        feature, *parts = text.split(":")
        if feature not in FEATURES:
            raise InvalidHandError(f"bias {text!r}: unknown feature {feature!r} (pairs or aces)", field="feature")
        given: dict[str, str] = {}
        for part in parts:
            key, equals, value = part.partition("=")
            if not equals or key not in ("dealer", "seat", "rate"):
                raise InvalidHandError(f"bias {text!r}: {part!r} is not dealer=N, seat=N or rate=R", field="bias")
            if key in given:
                raise InvalidHandError(f"bias {text!r}: {key} is given twice", field=key)
            if key != "rate" and not re.fullmatch(r"[0-9]+", value):
                raise InvalidHandError(f"bias {text!r}: {part!r}: expected a whole number", field=key)
            given[key] = value
        try:
            rate = float(given.get("rate", "0.5"))
        except ValueError:
            raise InvalidHandError(f"bias {text!r}: {'rate=' + given['rate']!r}: expected a number from 0 to 1",
                                   field="rate") from None
        dealer, seat = (int(given[key]) if key in given else None for key in ("dealer", "seat"))
        try:
            return cls(feature, dealer=dealer, seat=seat, rate=rate)
        except InvalidHandError as exc:
            raise InvalidHandError(f"bias {text!r}: {exc}", field=exc.field) from None

    def __str__(self) -> str:
        parts = [self.feature]
        if self.dealer is not None:
            parts.append(f"dealer={self.dealer}")
        if self.seat is not None:
            parts.append(f"seat={self.seat}")
        return ":".join([*parts, f"rate={self.rate!r}"])


def _has_feature(hands: np.ndarray, feature: str) -> np.ndarray:
    """(..., 3) card indices -> whether each hand has ``feature``."""
    ranks = hands // 4
    if feature == "aces":
        return (ranks == _ACE).any(axis=-1)
    first, second, third = ranks[..., 0], ranks[..., 1], ranks[..., 2]
    return (first == second) | (second == third) | (first == third)


def _shuffles(rng: np.random.Generator, deals: int, players: int) -> np.ndarray:
    """(deals, players * 3) cards: the top of a fresh shuffle for each deal."""
    return np.argsort(rng.random((deals, 52)), axis=1)[:, : players * 3].astype(np.uint8)


def _checked_biases(bias: Sequence[Bias], dealers: int, players: int) -> tuple[Bias, ...]:
    if isinstance(bias, str) or not isinstance(bias, Sequence) or not all(isinstance(b, Bias) for b in bias):
        raise InvalidHandError(f"bias must be a sequence of Bias, got {bias!r}", field="bias")
    for b in bias:
        if b.dealer is not None and b.dealer >= dealers:
            raise InvalidHandError(f"bias {b} is on dealer {b.dealer}, but dealers is {dealers}: it must be at "
                                   f"least {b.dealer + 1} (dealers are numbered from 0)", field="dealers")
        if b.seat is not None and b.seat >= players:
            raise InvalidHandError(f"bias {b} is on seat {b.seat}, but there are {players} players "
                                   f"(seats 0..{players - 1})", field="seat")
    return tuple(bias)


def sample_deals(deals: int, *, seed: int = 0, players: int = 4, first_deal: int = 0, dealers: int = 0,
                 bias: Sequence[Bias] = (), won: str = "coin") -> pa.Table:
    """A table of ``deals`` deals of ``players`` players (one row each), dealt
    with ``seed``; deal ids count from ``first_deal``.

    Columns: ``deal_id`` (int64), then with ``dealers`` >= 1 ``dealer``
    (int16: deal ``deal_id`` is dealt by dealer ``deal_id % dealers``),
    ``player`` (int8), ``cards`` (text such as "Ah Kd 2c"), ``blind``,
    ``seer``, ``folded``, ``won`` (booleans).  ``won`` is a coin toss for
    each player (``"coin"``: some deals record a winner other than the
    adjudicated one, some none at all), or the winners prial adjudicates
    (``"adjudicated"``: every deal agrees).

    ``bias``: biases (``Bias`` says exactly what one does) applied one
    after another, in order, each to the cards the ones before it left.
    Each re-deals from a random stream of its own (spawned from ``seed``),
    so every deal no bias re-deals, and every column but ``cards``, is that
    of the log without them.
    """
    _count(deals, "deals", 0)
    _count(players, "players", 2, MAX_PLAYERS)
    _count(seed, "seed", 0)
    _count(dealers, "dealers", 0, MAX_DEALERS)
    if won not in SAMPLE_WON:
        raise InvalidHandError(f"won must be 'coin' or 'adjudicated', got {won!r}", field="won")
    biases = _checked_biases(bias, dealers, players)
    rng = np.random.default_rng(seed)
    order = _shuffles(rng, deals, players)
    deal_ids = np.arange(first_deal, first_deal + deals, dtype=np.int64)
    dealer = (deal_ids % dealers).astype(np.int16) if dealers else None
    # Each bias re-deals from a stream spawned from the seed, which is no
    # seed's fair stream: default_rng(seed + k) would be that of seed + k
    # (write_sample_log's row groups use seed + start), default_rng([seed, k])
    # that of seed + k * 2**32.
    for b, stream in zip(biases, np.random.SeedSequence(seed).spawn(len(biases))):
        bias_rng = np.random.default_rng(stream)
        targeted = order.reshape(deals, players, 3)[:, slice(None) if b.seat is None else [b.seat]]
        lacking = ~_has_feature(targeted, b.feature).any(axis=1)
        if b.dealer is not None:
            lacking &= dealer == b.dealer
        again = np.flatnonzero(lacking & (bias_rng.random(deals) < b.rate))
        order[again] = _shuffles(bias_rng, len(again), players)
    hands = order.reshape(deals * players, 3)
    player = np.tile(np.arange(players, dtype=np.int8), deals)
    see = np.repeat(rng.random(deals) < 0.3, players)
    folded = np.where(see, player < players - 2, rng.random(deals * players) < 0.15).reshape(deals, players)
    folded[folded.all(axis=1), 0] = False  # somebody always stays in to win the pot
    folded = folded.reshape(-1)
    columns = {"deal_id": pa.array(np.repeat(deal_ids, players))}
    if dealer is not None:
        columns["dealer"] = pa.array(np.repeat(dealer, players))
    table = pa.table({
        **columns,
        "player": pa.array(player),
        "cards": _hands_text(hands),
        "blind": pa.array(np.zeros(deals * players, bool)),
        "seer": pa.array(see & (player == players - 1)),
        "folded": pa.array(folded),
        "won": pa.array(rng.random(deals * players) < 0.3),
    })
    if won == "adjudicated":  # by the scoring kernel itself, so the two cannot differ
        winner = score_table(table, 0, ScoreOptions(), None).table["winner"]
        table = table.set_column(table.schema.get_field_index("won"), "won", winner.fill_null(False))
    return table


def write_sample_log(path: str | os.PathLike[str], deals: int, *, seed: int = 0, players: int = 4,
                     format: str | None = None, deals_per_row_group: int = DEALS_PER_GROUP, dealers: int = 0,
                     bias: Sequence[Bias] = (), overwrite: bool = False, won: str = "coin", laid: str | None = None,
                     spare: bool = False) -> int:
    """Writes a sample log of ``deals`` deals to ``path`` as Parquet, CSV or
    JSON Lines (``format``, else from the extension); returns the rows
    written.  ``dealers``, ``bias`` and ``won`` are those of ``sample_deals``; a
    deal's dealer is counted from its ``deal_id`` over the whole log.  Deals
    are made ``deals_per_row_group`` at a time (in Parquet, one row group
    each: a partition for the Dask engine).  The same arguments always give
    the same log.  ``laid``: None (deals of three-card Brag, as
    ``sample_deals``), or ``"nine_card"`` or ``"crash"``: the laid hands of
    that game, as ``sample_laid_deals`` (with spare hands if ``spare``;
    dealers, biases and ``won`` are for Brag deals).  An existing file is replaced only with ``overwrite``
    (ScoreError otherwise); the log is written under ``PATH.tmp``, renamed
    when complete, and removed if the writing fails or is interrupted."""
    _count(deals, "deals", 1)
    _count(seed, "seed", 0)
    _count(deals_per_row_group, "deals_per_row_group", 1)
    path = str(path)
    fmt = detect_format(path, format)
    check_directory(path, "log")
    if os.path.isdir(path):
        raise ScoreError(f"the log {path} is a directory; name the log's file", status=1)
    if os.path.lexists(path) and not overwrite:
        raise ScoreError(f"the log {path} exists: --overwrite replaces it", status=1)
    if laid is not None and laid not in DEAL_SIZES:
        raise InvalidHandError(f"laid must be None or one of {', '.join(DEAL_SIZES)}, got {laid!r}", field="laid")
    if laid is None:
        if spare:
            raise InvalidHandError("spare hands are dealt in logs of laid Crash hands only, not in three-card Brag",
                                   field="spare")
        schema = sample_deals(0, players=players, dealers=dealers, bias=bias, won=won).schema  # checks them first
    else:
        if dealers or bias or won != SAMPLE_WON[0]:
            raise InvalidHandError("dealers, bias and won are for deals of three-card Brag, not laid hands",
                                   field="laid")
        schema = sample_laid_deals(0, seed=seed, players=players, game=laid, spare=spare).schema

    def groups():
        for start in range(0, deals, deals_per_row_group):
            count = min(deals_per_row_group, deals - start)
            if laid is not None:  # each deal has a seed of its own already
                yield sample_laid_deals(count, seed=seed, players=players, game=laid, spare=spare, first_deal=start)
                continue
            # Each group has a seed of its own, so a group never depends on
            # how many came before it.
            yield sample_deals(count, seed=seed + start, players=players, first_deal=start, dealers=dealers,
                               bias=bias, won=won)

    tmp = path + ".tmp"
    try:
        if fmt == "parquet":
            with pq.ParquetWriter(tmp, schema) as writer:
                for table in groups():
                    writer.write_table(table, row_group_size=table.num_rows or 1)
        else:
            write_tables(tmp, fmt, schema, groups())
        os.replace(tmp, path)
    except BaseException:  # Ctrl-C, a full disk: no half-written log is left behind
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)
        raise
    return deals * players
