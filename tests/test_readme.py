"""The README's Python tour and the rules reference's examples run, each
block alone in a fresh namespace as a reader would paste it, and every
`# -> value` claim in them holds; every `$ prial ...` shown in the docs
prints what they show."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
RULES = README.parent / "docs" / "rules.md"
AUDIT = README.parent / "docs" / "audit.md"
HISTORIES = README.parent / "docs" / "histories.md"


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


# The default port is one for the whole machine: the tests that serve on it
# take turns, in one pytest-xdist worker.
ON_THE_DEFAULT_PORT = pytest.mark.xdist_group("default-port")


def on_the_default_port():
    """``prial serve --port 50051``, once the port is free: a server of a
    test running beside this one (``--port 0``) may have been given it by
    the kernel for a while."""
    from .grpc_helpers import ServerProcess

    deadline = time.monotonic() + 60
    while True:
        try:
            return ServerProcess("--port", "50051")
        except RuntimeError as exc:
            if "address in use" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.5)


@pytest.mark.parametrize("page, claims", [(README, 5), (RULES, 5), (AUDIT, 2), (HISTORIES, 4)],
                         ids=lambda p: getattr(p, "name", p))
def test_tour_claims_hold(page, claims):
    checked = sum(run_block(block) for block in python_blocks(page) if "prial.client" not in block)
    assert checked >= claims


@pytest.mark.slow
@ON_THE_DEFAULT_PORT
def test_the_client_block_runs_against_the_main_command():
    """The README's client block, as written, against ``prial serve`` on
    its default port (the main command's)."""
    [block] = [block for block in python_blocks(README) if "prial.client" in block]
    assert '"127.0.0.1:50051"' in block
    with on_the_default_port():
        assert run_block(block) >= 5


def test_ci_runs_the_readme_test_command():
    text = README.read_text()
    assert "<!-- test-command -->" in text and "<!-- main-command -->" in text
    ci = (README.parent / ".ci" / "run").read_text()
    assert "test-command" in ci


# Transcripts that name files the docs do not make (a token, a CA bundle):
# they show the options' shape, not output this test can reproduce.
NEEDS_FILES = ("--token-file", "--tls-ca", "--tls-cert")


def transcripts(page: Path) -> Iterator[tuple[str, list[str]]]:
    """Each ``$ prial ...`` line of the page's text blocks, with the lines
    shown after it."""
    for block in re.findall(r"```text\n(.*?)```", page.read_text(), flags=re.S):
        command: str | None = None
        shown: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    yield command, shown
                command, shown = line[2:], []
            elif command is not None:
                shown.append(line)
        if command is not None:
            yield command, shown


@pytest.mark.slow
@ON_THE_DEFAULT_PORT
def test_every_transcript_prints_what_the_docs_show(tmp_path):
    pages = [README, *sorted((README.parent / "docs").glob("*.md"))]
    shown = [(page.name, command, lines) for page in pages for command, lines in transcripts(page)
             if not any(option in command for option in NEEDS_FILES)]
    assert len(shown) >= 4 and any(" call " in command for _, command, _ in shown)
    with on_the_default_port():  # prial call's default target
        for page, command, lines in shown:
            argv = shlex.split(command)
            assert argv[0] == "prial", command
            done = subprocess.run([sys.executable, "-m", "prial", *argv[1:]], capture_output=True, text=True,
                                  timeout=60, cwd=tmp_path)
            assert (done.stdout + done.stderr).splitlines() == lines, f"{page}: $ {command}"


def test_no_shell_block_holds_a_synopsis():
    """A line with [--option] brackets is a command's form, not a command:
    pasted into a shell it fails, so it belongs in a text block."""
    for page in [README, *sorted((README.parent / "docs").glob("*.md"))]:
        for block in re.findall(r"```(?:bash|sh|shell|console)\n(.*?)```", page.read_text(), flags=re.S):
            for line in block.splitlines():
                command = line.split("#")[0]
                assert not re.search(r"\[-|\[[A-Z]", command), f"{page.name}: {line}"
