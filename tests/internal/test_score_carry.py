"""A long stretch of rows without deal ids keeps the chunks bounded (the
carry bound made small through the engine's internals)."""

from __future__ import annotations

import pytest

import prial

from ..test_score_split_deals import blank_deal_id, problem_deals


@pytest.mark.parametrize("carry_rows", [2, 5, 1 << 16])
def test_a_long_stretch_without_deal_ids_keeps_memory_bounded(tmp_path, monkeypatch, carry_rows):
    """An empty deal_id column for thousands of rows is not carried over
    from chunk to chunk as one growing deal: chunks stay near their size,
    and the deals on either side of the stretch are still not adjudicated."""
    from prial.logs import passes

    monkeypatch.setattr(passes, "CARRY_ROWS", carry_rows)
    log = tmp_path / "log.csv"
    prial.write_sample_log(str(log), 30, seed=2)
    lines = log.read_text().splitlines(keepends=True)
    for index in range(41, 81):  # deals 10 to 19, rows 41 to 80, lose their ids
        lines = blank_deal_id(lines, index)
    log.write_text("".join(lines))
    sizes = []
    real = passes.score_table

    def measured(table, *args, **kwargs):
        sizes.append(table.num_rows)
        return real(table, *args, **kwargs)

    monkeypatch.setattr(passes, "score_table", measured)
    summary = prial.score_file(log, tmp_path / "out.csv", options=prial.ScoreOptions(chunk_rows=3))
    assert set(problem_deals(tmp_path / "out.csv")) == {"9", "20"}
    assert summary.bad_rows == 40 and summary.deals == 20 and summary.complete
    assert max(sizes) <= max(carry_rows, 3) + 8  # two deals of four rows beyond the bound at most
