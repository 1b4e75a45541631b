"""tools/soak.py, briefly: the soak script itself stays honest (its checks
run and pass on a real server); .ci/run runs it longer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SOAK = Path(__file__).resolve().parent.parent / "tools" / "soak.py"


def test_short_soak_has_no_wrong_answers_and_exercises_every_kind():
    done = subprocess.run([sys.executable, str(SOAK), "--seconds", "8", "--clients", "3", "--json"],
                          capture_output=True, text=True, timeout=300)
    report = json.loads(done.stdout)
    assert done.returncode == 0, (report["failures"], report["examples"], done.stderr[-2000:])
    assert report["wrong_answers"] == 0 and report["unexpected_codes"] == 0
    kinds = {"evaluate", "evaluate_text", "stream", "showdown", "showdown_batch", "partition", "crash",
             "casino", "invalid", "oversize", "cancelled", "stream_cancelled", "deadline",
             "malformed", "idle_stream", "oversize_players"}
    assert kinds <= set(report["calls_by_kind"])
    assert report["calls"] >= 50
    assert {"OK", "INVALID_ARGUMENT", "RESOURCE_EXHAUSTED"} <= set(report["codes"])
    assert report["log_lines_with_card_text"] == 0 and report["server_exit"] == 0
    assert report["health_checks"] > 0 and report["health_p99_ms"] is not None
