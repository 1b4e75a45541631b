"""Generated deal logs for benchmarks and tests of ``prial score``.

Built column-wise with numpy (the card text is assembled straight into an
Arrow string buffer), so ten million rows take seconds.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

PLAYERS = 4
_CARD_TEXT = np.array([list((r + s).encode()) for r in "23456789TJQKA" for s in "cdhs"], dtype=np.uint8)


def hands_text(hands: np.ndarray) -> pa.StringArray:
    """(N, 3) card indices -> "Ah Kd 2c" strings, without Python per row."""
    n = len(hands)
    data = np.full((n, 8), ord(" "), dtype=np.uint8)
    for i in range(3):
        data[:, 3 * i: 3 * i + 2] = _CARD_TEXT[hands[:, i]]
    offsets = np.arange(0, 8 * n + 1, 8, dtype=np.int32)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))


def deal_table(deals: int, seed: int, first_deal: int = 0) -> pa.Table:
    """``deals`` deals of four players, three cards each from one pack; some
    players fold, some deals are a see between the last two."""
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((deals, 52)), axis=1)[:, : PLAYERS * 3].astype(np.uint8)
    hands = order.reshape(deals * PLAYERS, 3)
    player = np.tile(np.arange(PLAYERS, dtype=np.int8), deals)
    see = np.repeat(rng.random(deals) < 0.3, PLAYERS)
    folded = np.where(see, player < PLAYERS - 2, rng.random(deals * PLAYERS) < 0.15)
    return pa.table({
        "deal_id": pa.array(np.repeat(np.arange(first_deal, first_deal + deals, dtype=np.int64), PLAYERS)),
        "player": pa.array(player),
        "cards": hands_text(hands),
        "blind": pa.array(np.zeros(deals * PLAYERS, bool)),
        "seer": pa.array(see & (player == PLAYERS - 1)),
        "folded": pa.array(folded),
        "won": pa.array(rng.random(deals * PLAYERS) < 0.3),
    })


def write_deal_log(path: str, rows: int, seed: int = 2026, row_group_rows: int = 1 << 20) -> int:
    """A Parquet deal log of about ``rows`` rows (whole deals); row groups
    end at deal boundaries, so the Dask engine can use them as partitions."""
    deals_per_group = max(1, row_group_rows // PLAYERS)
    total = max(1, rows // PLAYERS)
    written = 0
    with pq.ParquetWriter(path, deal_table(1, seed).schema) as writer:
        for start in range(0, total, deals_per_group):
            count = min(deals_per_group, total - start)
            writer.write_table(deal_table(count, seed + start, first_deal=start))
            written += count * PLAYERS
    return written
