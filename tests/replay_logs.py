"""History logs with known answers for the replay job's tests: sampled
deals with faults planted (prial.table.sample_histories), copied under new
deal ids to the size a test needs, written as nested Parquet or JSON Lines."""

from __future__ import annotations

import json
import math

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import prial
from prial.table import FAULTS, Fault, sample_histories

PLANTED = [Fault("mispaid-pot", 0.04), Fault("wrong-winner", 0.04), Fault("see-blind", 0.05),
           Fault("short-stake", 0.04)]


def within(count: int, n: int, rate: float) -> bool:
    """count of n is within five standard deviations of the rate."""
    return abs(count - n * rate) <= 5 * math.sqrt(n * rate * (1 - rate)) + 1


def sampled(deals: int, *, seed: int = 1, faults=PLANTED, players: int = 4, stack: int | None = 100,
            missing_every: int = 0):
    """The sample (records and what is planted in each); every
    ``missing_every``-th deal has one hand not recorded."""
    table = prial.TableRules()
    out = list(sample_histories(table, deals, players=players, seed=seed, faults=faults, stack=stack,
                                policies=[None, 0.5] * (players // 2) + [None] * (players % 2)))
    if missing_every:
        for i, s in enumerate(out):
            if i % missing_every == 0:
                s.record["cards"][i % players] = None
    return out


def expected(sample) -> list[tuple[str, int, str | None]]:
    """(finding, action index, code) each deal must get."""
    return [(FAULTS[s.fault] if s.fault else "ok", s.action_index, s.code) for s in sample]


def copies(path, sample, times: int) -> None:
    """A nested Parquet log of ``times`` copies of the sample, each copy's
    deal ids its own (d<copy>.<n>)."""
    one = path.with_name("one." + path.name)
    prial.write_histories([s.record for s in sample], one)
    table = pq.read_table(one)
    parts = []
    for c in range(times):
        ids = pc.binary_join_element_wise(f"d{c}.", table["deal_id"], "")
        parts.append(table.set_column(0, "deal_id", ids))
    pq.write_table(pa.concat_tables(parts), path, row_group_size=4096)
    one.unlink()


def jsonl_copies(path, sample, times: int) -> None:
    with open(path, "w") as f:
        for c in range(times):
            for s in sample:
                f.write(json.dumps({**s.record, "deal_id": f"d{c}.{s.record['deal_id']}"}) + "\n")
