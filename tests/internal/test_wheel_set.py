"""tools/wheel_set.py: the wheels a release needs are one per CPython the
sdist declares (its classifiers, pyproject.toml's), each with the manylinux
tag tools/wheels.sh reaches; a missing, doubled, stray or unrepaired wheel
fails tools/wheels.sh."""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "tools" / "wheel_set.py"
TAG = "manylinux_2_17_x86_64"


def load():
    spec = importlib.util.spec_from_file_location("wheel_set", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wheel_set = load()


def project_classifiers() -> list[str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["classifiers"]


def declared() -> list[str]:
    return [c.rpartition(" :: ")[2] for c in project_classifiers()
            if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]


def make_sdist(directory: Path, classifiers: list[str]) -> Path:
    """An sdist holding just a PKG-INFO with these classifiers."""
    sdist = directory / "prial-0.1.0.tar.gz"
    body = "Metadata-Version: 2.4\nName: prial\nVersion: 0.1.0\n"
    body += "".join(f"Classifier: {c}\n" for c in classifiers)
    data = body.encode()
    with tarfile.open(sdist, "w:gz") as archive:
        info = tarfile.TarInfo("prial-0.1.0/PKG-INFO")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return sdist


def wheel(version: str, platform: str = f"manylinux2014_x86_64.{TAG}") -> str:
    cp = "cp" + version.replace(".", "")
    return f"prial-0.1.0-{cp}-{cp}-{platform}.whl"


def test_the_declared_pythons_are_the_projects_classifiers(tmp_path):
    sdist = make_sdist(tmp_path, project_classifiers())
    versions = wheel_set.declared_pythons(sdist)
    assert versions == declared() and len(versions) >= 2


def test_one_wheel_per_declared_python_passes():
    assert wheel_set.wheel_problems(declared(), [wheel(v) for v in declared()], TAG) == []


@pytest.mark.parametrize("missing", declared())
def test_a_missing_wheel_is_named(missing):
    wheels = [wheel(v) for v in declared() if v != missing]
    assert wheel_set.wheel_problems(declared(), wheels, TAG) == [
        f"no wheel for CPython {missing} (declared in the classifiers)"]


def test_an_unrepaired_a_doubled_and_a_stray_wheel_are_named():
    first, *rest = declared()
    wheels = [wheel(first, "linux_x86_64")] + [wheel(v) for v in rest] + [wheel(rest[0]), wheel("3.9")]
    problems = wheel_set.wheel_problems(declared(), wheels, TAG)
    assert problems == [
        f"{wheel(first, 'linux_x86_64')} is not tagged {TAG}",
        f"2 wheels for CPython {rest[0]}: {wheel(rest[0])}, {wheel(rest[0])}",
        f"{wheel('3.9')}: for no declared Python version",
    ]


def test_no_declared_version_is_a_problem_not_a_pass():
    assert wheel_set.wheel_problems([], [], TAG) == [
        "the sdist declares no 'Programming Language :: Python :: 3.X' version"]


def test_the_command_fails_in_one_line_per_missing_wheel(tmp_path):
    sdist = make_sdist(tmp_path, project_classifiers())
    wheels = tmp_path / "repaired"
    wheels.mkdir()
    *present, missing = declared()
    for version in present:
        (wheels / wheel(version)).touch()
    run = subprocess.run([sys.executable, str(SCRIPT), "check", str(sdist), str(wheels), TAG],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr == f"tools/wheel_set.py: no wheel for CPython {missing} (declared in the classifiers)\n"
    (wheels / wheel(missing)).touch()
    run = subprocess.run([sys.executable, str(SCRIPT), "check", str(sdist), str(wheels), TAG],
                         capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (0, "")
