"""The README's Python tour and the rules reference's examples run, each
block alone in a fresh namespace as a reader would paste it, and every
`# -> value` claim in them holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
RULES = README.parent / "docs" / "rules.md"


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```(?:python|py)\n(.*?)```", page.read_text(), flags=re.S)


def run_block(block: str) -> int:
    """Runs the block line by line in a fresh namespace, as pasted into an
    interpreter; checks each ``# ->`` claim; returns how many it checked."""
    namespace: dict = {}
    checked = 0
    for line in block.splitlines():
        code, arrow, claim = line.partition("# ->")
        if not arrow:
            exec(line, namespace)
            continue
        assert repr(eval(code, namespace)) == claim.strip(), line
        checked += 1
    return checked


@pytest.mark.parametrize("page", [README, RULES], ids=lambda p: p.name)
def test_tour_claims_hold(page):
    checked = sum(run_block(block) for block in python_blocks(page) if "prial.client" not in block)
    assert checked >= 5


def test_the_client_block_runs_against_the_main_command():
    """The README's client block, as written, against ``prial serve`` on
    its default port (the main command's)."""
    from .grpc_helpers import ServerProcess

    [block] = [block for block in python_blocks(README) if "prial.client" in block]
    assert '"127.0.0.1:50051"' in block
    with ServerProcess("--port", "50051"):
        assert run_block(block) >= 5


def test_ci_runs_the_readme_test_command():
    text = README.read_text()
    assert "<!-- test-command -->" in text and "<!-- main-command -->" in text
    ci = (README.parent / ".ci" / "run").read_text()
    assert "test-command" in ci
