"""The Dockerfile read as Docker reads it: its stages and instructions, with
the commands they run."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"


@dataclass
class Stage:
    base: str  # the FROM image, build arguments as written
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)  # (INSTRUCTION, the rest)

    def all(self, keyword: str) -> list[str]:
        return [rest for word, rest in self.instructions if word == keyword]

    def one(self, keyword: str) -> str:
        [rest] = self.all(keyword)
        return rest

    def env(self) -> dict[str, str]:
        """The variables its ENV instructions set (the KEY=VALUE form)."""
        return dict(pair.split("=", 1) for rest in self.all("ENV") for pair in shlex.split(rest))


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, the rest) of each instruction: continuation lines
    joined, comments (also between continuation lines) left out."""
    found = []
    current = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        word, _, rest = (current + stripped).partition(" ")
        found.append((word.upper(), " ".join(rest.split())))
        current = ""
    assert not current, "the Dockerfile ends in a continuation line"
    return found


def read_dockerfile() -> tuple[dict[str, str], list[Stage]]:
    """The build arguments declared before the first stage (with their
    defaults), and the stages."""
    arguments: dict[str, str] = {}
    stages: list[Stage] = []
    for word, rest in instructions(DOCKERFILE.read_text()):
        if word == "FROM":
            base, _, name = rest.partition(" AS ")
            stages.append(Stage(base, name or None))
        elif stages:
            stages[-1].instructions.append((word, rest))
        elif word == "ARG":
            key, _, value = rest.partition("=")
            arguments[key] = value
    return arguments, stages


def exec_form(rest: str) -> list[str]:
    """The argv of an exec-form (JSON array) CMD or ENTRYPOINT; AssertionError for the shell form."""
    assert rest.startswith("["), f"not the exec form: {rest}"
    argv = json.loads(rest)
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv), rest
    return argv


def healthcheck(rest: str) -> tuple[dict[str, str], str]:
    """The options of a HEALTHCHECK (--interval=30s ...) and its shell-form command."""
    options: dict[str, str] = {}
    words = rest.split(" ")
    while words[0].startswith("--"):
        key, _, value = words.pop(0).partition("=")
        options[key] = value
    assert words[0] == "CMD", rest
    return options, " ".join(words[1:])


def seconds(duration: str) -> float:
    """A Docker or Compose duration such as 15s, 1m30s or 500ms, in seconds."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    total, number = 0.0, ""
    i = 0
    while i < len(duration):
        if duration[i].isdigit() or duration[i] == ".":
            number += duration[i]
            i += 1
            continue
        unit = "ms" if duration.startswith("ms", i) else duration[i]
        assert number and unit in units, f"not a duration: {duration}"
        total += float(number) * units[unit]
        number = ""
        i += len(unit)
    assert not number, f"a duration needs its unit: {duration}"
    return total
