"""The README's Python tour runs, and every `# -> value` claim in it holds."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parent.parent / "README.md"


def test_tour_claims_hold():
    checked = 0
    for block in re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S):
        namespace: dict = {"np": np}
        for line in block.splitlines():
            code, arrow, claim = line.partition("# ->")
            if not arrow:
                exec(line, namespace)
                continue
            assert repr(eval(code, namespace)) == claim.strip(), line
            checked += 1
    assert checked >= 5


def test_ci_runs_the_readme_test_command():
    text = README.read_text()
    assert "<!-- test-command -->" in text and "<!-- main-command -->" in text
    ci = (README.parent / ".ci" / "run").read_text()
    assert "test-command" in ci
