"""A sample log whose writing fails or is interrupted part-way leaves no
temporary file (the failure injected into the sampler)."""

from __future__ import annotations

import pytest

import prial


@pytest.mark.parametrize("failure", [KeyboardInterrupt, OSError])
@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_failed_or_interrupted_write_leaves_no_temporary_file(tmp_path, monkeypatch, failure, fmt):
    from prial.score import sample

    real, calls = sample.sample_deals, []

    def failing(deals, **kwargs):
        calls.append(deals)
        if len(calls) == 4:  # the schema, two row groups written, then the failure
            raise failure("No space left on device")
        return real(deals, **kwargs)

    monkeypatch.setattr(sample, "sample_deals", failing)
    log = tmp_path / f"log.{fmt}"
    with pytest.raises(failure):
        prial.write_sample_log(log, 100, deals_per_row_group=10)
    assert list(tmp_path.iterdir()) == []
