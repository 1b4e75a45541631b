"""The audit's statistics are honest: over many fair logs it flags a
group no more often than its error rate allows, and in a large log with
one biased dealer it finds that dealer and no fair one."""

from __future__ import annotations

import math

import numpy as np
import pytest

import prial
from prial.audit import AuditOptions, audit_file, audit_table

pytestmark = pytest.mark.slow

ALPHA = 0.01
LOGS = 200
DEALS = 20_000


def _ks_distance(p_values: list[float]) -> float:
    """Largest gap between the p-values' empirical law and the uniform one."""
    p = np.sort(p_values)
    n = len(p)
    return float(max((np.arange(1, n + 1) / n - p).max(), (p - np.arange(n) / n).max()))


def test_fair_logs_are_flagged_within_the_error_rate():
    flagged = {"categories": 0, "cards": 0}
    p_values: dict[str, list[float]] = {"categories": [], "cards": []}
    options = AuditOptions(by=("dealer",), alpha=ALPHA)
    for log in range(LOGS):
        result = audit_table(prial.sample_deals(DEALS, seed=1_000 + 7 * log, dealers=4), options)
        for kind in flagged:
            flagged[kind] += bool(result.flagged(kind))
            p_values[kind] += [t.p_value for t in result.dealing[kind]]
        assert not result.impossible
    sigma = math.sqrt(ALPHA * (1 - ALPHA) / LOGS)
    for kind, count in flagged.items():
        assert count / LOGS <= ALPHA + 3 * sigma, (kind, count)
        # Not merely timid: the 800 group p-values (dealers' deals are
        # independent) follow the uniform law a calibrated test gives,
        # within the Kolmogorov-Smirnov bound at the 0.1 % level.
        assert len(p_values[kind]) == 4 * LOGS
        assert _ks_distance(p_values[kind]) < 1.95 / math.sqrt(len(p_values[kind])), kind


def test_one_biased_dealer_in_a_million_hands_is_found_and_no_fair_one(tmp_path):
    log = tmp_path / "biased.parquet"
    bias = prial.Bias("pairs", dealer=3, rate=0.25)
    assert prial.write_sample_log(log, 250_000, seed=77, dealers=5, bias=[bias]) == 1_000_000
    result = audit_file(log, options=AuditOptions(by=("dealer",), alpha=ALPHA))
    assert result.rows == 1_000_000
    found = result.flagged("categories")
    assert [t.group for t in found] == [{"dealer": 3}]
    assert found[0].effect is not None and found[0].effect.what in ("PAIR", "HIGH_CARD")
    # The fair dealers stand out in no test.
    assert all(t.group == {"dealer": 3} for t in result.flagged("cards"))
    assert "dealer=3" in result.summaries["categories"]
