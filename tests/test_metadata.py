"""The installed distribution's metadata: the Python versions it claims are
the ones noxfile.py tests, its licence is the repository's LICENSE, its
project URLs are absolute, and the changelog has an entry for its version."""

from __future__ import annotations

import ast
import importlib.metadata
import re
from pathlib import Path
from urllib.parse import urlsplit

import prial

ROOT = Path(__file__).resolve().parent.parent
METADATA = importlib.metadata.metadata("prial")


def nox_pythons() -> list[str]:
    """noxfile.py's PYTHONS, read without importing nox."""
    tree = ast.parse((ROOT / "noxfile.py").read_text())
    [value] = [node.value for node in tree.body if isinstance(node, ast.Assign)
               and [getattr(t, "id", None) for t in node.targets] == ["PYTHONS"]]
    return ast.literal_eval(value)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_python_classifiers_are_the_tested_interpreters():
    pythons = nox_pythons()
    assert pythons == sorted(pythons, key=version_key) and len(set(pythons)) == len(pythons) >= 2
    claimed = [c.rpartition(" :: ")[2] for c in METADATA.get_all("Classifier")
               if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert sorted(claimed, key=version_key) == pythons
    assert METADATA["Requires-Python"] == f">={pythons[0]}"
    # No gap: every minor version from the floor to the newest is tested.
    minors = [version_key(v)[1] for v in pythons]
    assert minors == list(range(minors[0], minors[-1] + 1))


def test_the_licence_is_the_repositorys_mit_licence():
    assert METADATA["License-Expression"] == "MIT"
    assert METADATA.get_all("License-File") == ["LICENSE"]
    [installed] = [f for f in importlib.metadata.distribution("prial").files or () if f.name == "LICENSE"]
    text = installed.read_text()
    assert text == (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the prial authors" in text


def test_authors_and_absolute_project_urls():
    assert METADATA["Author"] == "the prial authors"
    urls = dict(entry.split(", ", 1) for entry in METADATA.get_all("Project-URL"))
    assert sorted(urls) == ["Changelog", "Documentation", "Homepage", "Issues"]
    for label, url in urls.items():
        parts = urlsplit(url)
        assert parts.scheme == "https" and parts.netloc, (label, url)


def test_the_changelog_has_the_installed_version():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.M)
    assert headings[:2] == ["Unreleased", prial.__version__]
    # Each heading's link reference is defined at the foot.
    for heading in headings:
        assert re.search(rf"^\[{re.escape(heading)}\]: https://", changelog, flags=re.M), heading
