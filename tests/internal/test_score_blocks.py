"""Misshapen CSV rows at the edges of the blocks Arrow reads (the block
size made small through the reader's internals)."""

from __future__ import annotations

import pytest

import prial

from ..test_score_bad_values import csv_with_misshapen_rows, errors_of


@pytest.mark.parametrize("block_bytes", [1 << 10, 4 << 10])
def test_misshapen_csv_rows_anywhere_in_a_log_read_in_blocks(tmp_path, monkeypatch, block_bytes):
    """Arrow reads a block at a time (and ahead): rows at block edges, two
    in a row, the last line; the output is that of one block."""
    from prial.logs import io

    lines = {2: "more", 500: "fewer", 501: "more", 1201: "fewer", 1202: "more", 8001: "fewer"}
    log = csv_with_misshapen_rows(tmp_path, 2_000, lines)
    whole = prial.score_file(log, tmp_path / "whole.csv")
    monkeypatch.setattr(io, "BLOCK_BYTES", block_bytes)
    summary = prial.score_file(log, tmp_path / "out.csv", options=prial.ScoreOptions(chunk_rows=100))
    assert [int(e["line"]) for e in errors_of(summary)] == sorted(lines)
    assert (summary.rows_in, summary.bad_rows, summary.deals) == (8_000, 6, 2_000)
    assert (tmp_path / "out.csv").read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert errors_of(summary) == errors_of(whole)
