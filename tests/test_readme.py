"""The README's Python tour and the rules reference's examples run, each
block alone in a fresh namespace as a reader would paste it, and every
`# -> value` claim in them holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
RULES = README.parent / "docs" / "rules.md"


@pytest.mark.parametrize("page", [README, RULES], ids=lambda p: p.name)
def test_tour_claims_hold(page):
    checked = 0
    for block in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S):
        namespace: dict = {}
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
