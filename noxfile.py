"""One test session per supported CPython: each builds and installs prial
with its test extra in a fresh environment and runs the test suite there.

    nox                                   # every interpreter, the fast tier (-- -m slow: the slow one)
    nox -s tests-3.12 -- tests/test_odds.py -k equity   # one, with pytest's arguments
    PRIAL_WHEELS=build/wheels/repaired nox   # each interpreter's built wheel instead

PRIAL_WHEELS names a directory of wheels (tools/wheels.sh writes one): each
session installs its interpreter's wheel from there, with the test extra,
instead of building prial once more, so that the tests run against what
would be published.

PYTHONS is the one list of supported versions: the classifiers in
pyproject.toml must name the same ones (tests/test_metadata.py), and CI runs
a session for each (tools/pythons.sh).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]

# nox skips an interpreter it cannot find (or downloads one): a supported
# version that is not on this machine must fail the run instead.
nox.options.error_on_missing_interpreters = True
nox.options.download_python = "never"

ROOT = Path(__file__).resolve().parent


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """Install prial with the test extra (built here, or PRIAL_WHEELS's
    wheel), then run pytest.

    The arguments after ``--`` go to pytest: the fast tier without them.
    """
    # Every dependency from a wheel: a version without wheels for this
    # interpreter fails here instead of compiling for many minutes.  No
    # byte-compiling of what is installed either (half of pip's time here):
    # the tests compile what they import, in an environment used once.
    wheels_only = ("--only-binary=:all:", "--no-compile")
    wheels = os.environ.get("PRIAL_WHEELS")
    if wheels:
        _install_wheel(session, Path(wheels), wheels_only)
    else:
        _build_and_install(session, wheels_only)
    session.run("python", "-m", "pytest", *session.posargs)
    if wheels:
        # The tests run from the checkout, where python/ is not on sys.path:
        # the prial they imported must still be the wheel's.
        session.run("python", "-c", "import os, sys, prial; "
                    "sys.exit(0 if os.path.realpath(prial.__file__).startswith(os.path.realpath(sys.prefix)) "
                    "else f'the tests imported prial from {prial.__file__}, not the wheel installed')")


def _install_wheel(session: nox.Session, directory: Path, wheels_only: tuple[str, ...]) -> None:
    """The wheel in ``directory`` for the session's interpreter, with the test extra."""
    tag = "cp" + str(session.python).replace(".", "")
    found = sorted(directory.glob(f"prial-*-{tag}-{tag}-*.whl"))
    if len(found) != 1:
        session.error(f"{directory} holds {len(found)} prial wheels for CPython {session.python}; expected one")
    session.install(*wheels_only, f"{found[0]}[test]")


def _build_and_install(session: nox.Session, wheels_only: tuple[str, ...]) -> None:
    """prial built from this checkout, with the test extra."""
    if shutil.which("ccache"):
        # Only the bindings depend on the Python version: the core's objects
        # come from the cache for every interpreter after the first, and
        # everything on a later run.  The base directory keeps this
        # checkout's path out of the cache keys, so another clone hits too.
        session.env["CMAKE_CXX_COMPILER_LAUNCHER"] = "ccache"
        session.env["CCACHE_BASEDIR"] = str(ROOT)
    # The build requirements go into the session's environment (a fresh one)
    # rather than a temporary one of pip's, whose path, in the bindings'
    # include flags, would make every one of them a cache miss: first the
    # declared ones, then what the backend asks for on this machine.
    build_system = nox.project.load_toml(ROOT / "pyproject.toml")["build-system"]
    session.install(*wheels_only, *build_system["requires"])
    asked = session.run("python", "-c", f"import {build_system['build-backend']} as backend; "
                        "print(*backend.get_requires_for_build_wheel(), sep='\\n')", silent=True)
    if isinstance(asked, str) and asked.strip():
        session.install(*wheels_only, *asked.splitlines())
    session.install(*wheels_only, "--no-build-isolation", ".[test]")
