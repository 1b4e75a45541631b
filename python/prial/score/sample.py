"""Sample deal logs, to try ``prial score`` on (``prial sample``).

Deals of three-card Brag from a shuffled pack, one row per player, in the
log format ``prial score`` reads (README, "Scoring hand logs"): some players
fold, about three deals in ten end in a see between the last two players,
and the ``won`` column is a coin toss, so the scored log shows disputes;
every deal can be adjudicated.
Built column-wise with numpy (the card text is assembled straight into an
Arrow string buffer): ten million rows take seconds.
"""

from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InvalidHandError
from .formats import detect_format
from .io import write_tables
from .targets import check_directory

# Deals generated (and written, as one Parquet row group) at a time, so any
# size streams in bounded memory; row groups end at deal boundaries, as the
# Dask engine needs.
DEALS_PER_GROUP = 1 << 18
MAX_PLAYERS = 17  # three cards each from one pack of 52
_CARD_TEXT = np.array([list((r + s).encode()) for r in "23456789TJQKA" for s in "cdhs"], dtype=np.uint8)


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


def sample_deals(deals: int, *, seed: int = 0, players: int = 4, first_deal: int = 0) -> pa.Table:
    """A table of ``deals`` deals of ``players`` players (one row each), dealt
    with ``seed``; deal ids count from ``first_deal``.

    Columns: ``deal_id`` (int64), ``player`` (int8), ``cards`` (text such as
    "Ah Kd 2c"), ``blind``, ``seer``, ``folded``, ``won`` (booleans).
    """
    _count(deals, "deals", 0)
    _count(players, "players", 2, MAX_PLAYERS)
    _count(seed, "seed", 0)
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((deals, 52)), axis=1)[:, : players * 3].astype(np.uint8)
    hands = order.reshape(deals * players, 3)
    player = np.tile(np.arange(players, dtype=np.int8), deals)
    see = np.repeat(rng.random(deals) < 0.3, players)
    folded = np.where(see, player < players - 2, rng.random(deals * players) < 0.15).reshape(deals, players)
    folded[folded.all(axis=1), 0] = False  # somebody always stays in to win the pot
    folded = folded.reshape(-1)
    return pa.table({
        "deal_id": pa.array(np.repeat(np.arange(first_deal, first_deal + deals, dtype=np.int64), players)),
        "player": pa.array(player),
        "cards": _hands_text(hands),
        "blind": pa.array(np.zeros(deals * players, bool)),
        "seer": pa.array(see & (player == players - 1)),
        "folded": pa.array(folded),
        "won": pa.array(rng.random(deals * players) < 0.3),
    })


def write_sample_log(path: str | os.PathLike[str], deals: int, *, seed: int = 0, players: int = 4,
                     format: str | None = None, deals_per_row_group: int = DEALS_PER_GROUP) -> int:
    """Writes a sample log of ``deals`` deals to ``path`` as Parquet, CSV or
    JSON Lines (``format``, else from the extension); returns the rows
    written.  Deals are made ``deals_per_row_group`` at a time (in Parquet,
    one row group each: a partition for the Dask engine).  The same
    arguments always give the same log."""
    _count(deals, "deals", 1)
    _count(seed, "seed", 0)
    _count(deals_per_row_group, "deals_per_row_group", 1)
    path = str(path)
    fmt = detect_format(path, format)
    check_directory(path, "log")
    schema = sample_deals(0, players=players).schema

    def groups():
        for start in range(0, deals, deals_per_row_group):
            count = min(deals_per_row_group, deals - start)
            # Each group has a seed of its own, so a group never depends on
            # how many came before it.
            yield sample_deals(count, seed=seed + start, players=players, first_deal=start)

    tmp = path + ".tmp"
    if fmt == "parquet":
        with pq.ParquetWriter(tmp, schema) as writer:
            for table in groups():
                writer.write_table(table, row_group_size=table.num_rows or 1)
    else:
        write_tables(tmp, fmt, schema, groups())
    os.replace(tmp, path)
    return deals * players
