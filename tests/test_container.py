"""The Dockerfile runs the commands that work here: its build is the
README's install, its runtime installs those wheels only, and its command
and health check, run on this host as the image would run them, serve,
answer SERVING, then NOT_SERVING while draining after SIGTERM, and exit 0.
(The image itself is built and stopped under Docker by
tools/container_check.sh, where a Docker engine runs.)"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import prial
from prial.server import ServeOptions

from .container_files import ROOT, exec_form, healthcheck, read_dockerfile, seconds
from .grpc_helpers import ServerProcess, free_port
from .serve_help import option_help, variable

README = ROOT / "README.md"
ARGUMENTS, STAGES = read_dockerfile()
BUILD, RUNTIME = STAGES if len(STAGES) == 2 else (None, None)


def test_two_stages_from_one_image():
    assert len(STAGES) == 2 and BUILD is not None and RUNTIME is not None
    assert BUILD.name == "build" and RUNTIME.name is None
    # The same base: the extension built in one runs on the other's C++ runtime.
    assert BUILD.base == RUNTIME.base
    image = re.fullmatch(r"\$\{(\w+)\}", BUILD.base)
    assert image and re.fullmatch(r"python:3\.1\d-slim-\w+", ARGUMENTS[image.group(1)])


def pip(run: str) -> list[str]:
    """The words of the pip command of a RUN, from pip to the next && (or the end)."""
    words = shlex.split(run)
    words = words[words.index("pip"):]
    return words[:words.index("&&")] if "&&" in words else words


def positional(words: list[str], with_values: set[str]) -> list[str]:
    """The arguments of a pip command that are no option (nor an option's value)."""
    out, skip = [], False
    for word in words[2:]:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in with_values
        else:
            out.append(word)
    return out


def readme_install() -> list[str]:
    """The pip install of the README's main command, from pip on."""
    command = README.read_text().split("<!-- main-command -->", 1)[1].split("```bash\n", 1)[1].split("\n")[0]
    [install] = [part.split() for part in command.split("&&") if part.split()[:2] == ["pip", "install"]]
    return install


def pips(run: str) -> list[list[str]]:
    """The words of each pip command of a RUN, in order."""
    return [words[words.index("pip"):] for part in run.split("&&") if "pip" in (words := shlex.split(part))]


def locked(path: Path) -> dict[str, tuple[str, list[str]]]:
    """A lock file's packages: name -> (pinned version, hashes)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for entry in re.split(r"\n(?=\S)", path.read_text()):
        pin = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", entry)
        if pin:
            name = re.sub(r"[-_.]+", "-", pin.group(1)).lower()
            found[name] = (pin.group(2), re.findall(r"--hash=sha256:([0-9a-f]{64})", entry))
    return found


def requirement_names(requirements: list[str]) -> set[str]:
    return {re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", r).group(0)).lower() for r in requirements}


def test_the_build_installs_from_the_locks_and_the_runtime_its_wheels_only():
    assert BUILD is not None and RUNTIME is not None
    [build_run] = [run for run in BUILD.all("RUN") if " pip " in f" {run} "]
    tools, dependencies, project = pips(build_run)
    # Every package from a lock file, each checked against its hash.
    assert tools[:2] == ["pip", "install"] and dependencies[:2] == ["pip", "wheel"]
    for command, lock in ((tools, "deploy/locks/build.txt"), (dependencies, "deploy/locks/server.txt")):
        assert "--require-hashes" in command and command[command.index("-r") + 1] == lock
    # prial itself: the README's install, built with the locked tools.
    assert project[:2] == ["pip", "wheel"]
    assert positional(project, {"--wheel-dir", "-w"}) == positional(readme_install(), set()) == ["."]
    assert {"--no-deps", "--no-build-isolation"} <= set(project)
    wheels = project[project.index("--wheel-dir") + 1]
    assert dependencies[dependencies.index("--wheel-dir") + 1] == wheels
    # "." is the repository: copied whole (less .dockerignore) into the working directory.
    assert BUILD.all("COPY") == [". ."] and len(BUILD.all("WORKDIR")) == 1
    assert not dockerignored("deploy/locks/server.txt") and dockerignored("deploy/kubernetes/service.yaml")

    [install_run] = [run for run in RUNTIME.all("RUN") if " pip " in f" {run} "]
    mount = re.match(r"--mount=(\S+) ", install_run)
    assert mount and dict(kv.split("=") for kv in mount.group(1).split(",")) == {
        "type": "bind", "from": "build", "source": wheels, "target": wheels}
    install = pip(install_run)
    name = re.search(r'^name = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    assert install[:2] == ["pip", "install"]
    assert positional(install, {"--find-links"}) == [f"{wheels}/{name}-*.whl"]  # the wheel built, by name
    assert {"--no-index", "--find-links"} <= set(install) and install[install.index("--find-links") + 1] == wheels
    assert not RUNTIME.all("COPY") and not RUNTIME.all("ADD")  # nothing of the build but the install


def test_the_locks_pin_what_pyproject_asks_for_with_hashes():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11's; the main run has it")
    from packaging.requirements import Requirement

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for lock, requirements in (("server.txt", pyproject["project"]["dependencies"]),
                               ("build.txt", [*pyproject["build-system"]["requires"], "cmake", "ninja"])):
        pins = locked(ROOT / "deploy" / "locks" / lock)
        assert requirement_names(requirements) <= set(pins), f"run tools/lock.sh: {lock} misses a requirement"
        for text in requirements:
            requirement = Requirement(text)
            version, _ = pins[re.sub(r"[-_.]+", "-", requirement.name).lower()]
            assert requirement.specifier.contains(version, prereleases=True), f"run tools/lock.sh: {lock} {text}"
        assert all(hashes for _, hashes in pins.values()), lock
    assert "pyarrow" not in locked(ROOT / "deploy" / "locks" / "server.txt")  # the server alone


def test_the_image_says_what_it_is():
    assert RUNTIME is not None
    arguments = dict(shlex.split(rest)[0].split("=", 1) for rest in RUNTIME.all("ARG") if "=" in rest)
    assert arguments["VERSION"] == prial.__version__
    labels = dict(pair.split("=", 1) for rest in RUNTIME.all("LABEL") for pair in shlex.split(rest))
    assert labels["org.opencontainers.image.version"] == "${VERSION}"
    assert labels["org.opencontainers.image.revision"] == "${REVISION}"
    assert labels["org.opencontainers.image.source"].startswith("https://")
    assert BUILD is not None and "PIP_INDEX_URL" in " ".join(BUILD.all("ARG"))
    assert "--mount=type=secret,id=pip_ca,required=false" in " ".join(BUILD.all("RUN"))


def test_the_runtime_user_is_not_root():
    assert RUNTIME is not None
    user = RUNTIME.one("USER")
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) > 0 and (not gid or int(gid) > 0)
    runs = " ".join(RUNTIME.all("RUN"))
    assert f"--uid {uid}" in runs and (not gid or f"--gid {gid}" in runs)


def test_the_exposed_ports_are_the_served_ones():
    assert RUNTIME is not None
    exposed = {int(port) for rest in RUNTIME.all("EXPOSE") for port in rest.split()}
    assert exposed == {ServeOptions().port, int(RUNTIME.env()["PRIAL_METRICS_PORT"])}


def test_the_command_is_prial_serve_itself():
    """Exec form and no entry point: prial serve is PID 1, SIGTERM reaches it."""
    assert RUNTIME is not None and not RUNTIME.all("ENTRYPOINT")
    command = exec_form(RUNTIME.one("CMD"))
    assert command[:2] == ["prial", "serve"] and command[command.index("--host") + 1] == "0.0.0.0"
    assert {word for word in command if word.startswith("--")} <= set(option_help())
    assert set(RUNTIME.env()) <= {variable(flag) for flag in option_help()}
    assert RUNTIME.all("STOPSIGNAL") in ([], ["SIGTERM"])


@pytest.mark.slow
def test_the_command_and_health_check_serve_drain_and_exit_0_here(tmp_path):
    """The image's command and health check on this host, in the image's
    environment, its ports swapped for free ones and 0.0.0.0 for loopback."""
    assert RUNTIME is not None
    scripts = Path(sys.executable).parent  # where pip put prial, as in the image's PATH
    prial = shutil.which("prial", path=str(scripts))
    assert prial, f"no prial script beside {sys.executable}"
    command = [prial if word == "prial" else "127.0.0.1" if word == "0.0.0.0" else word
               for word in exec_form(RUNTIME.one("CMD"))]
    port, metrics = free_port(), free_port()
    env = {**RUNTIME.env(), "PRIAL_PORT": str(port), "PRIAL_METRICS_PORT": str(metrics), "PRIAL_DRAIN": "3"}
    options, check = healthcheck(RUNTIME.one("HEALTHCHECK"))
    call_timeout = float(re.search(r"--timeout (\S+)", check).group(1))
    assert call_timeout < seconds(options["--timeout"])  # the call gives up first, with its own message

    def health() -> tuple[int, str]:
        done = subprocess.run(["/bin/sh", "-c", check], capture_output=True, text=True, timeout=60,
                              env={**os.environ, **env, "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}"})
        return done.returncode, done.stdout.strip()

    with ServerProcess(command=command, env=env) as server:
        assert server.port == port
        assert health() == (0, "SERVING")
        with urllib.request.urlopen(f"http://127.0.0.1:{metrics}/metrics", timeout=10) as answer:
            assert answer.status == 200 and b"prial_requests_total" in answer.read()
        server.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 2  # within the 3 s drain: the server still answers
        while (answer := health()) == (0, "SERVING") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert answer == (1, "NOT_SERVING")
        assert server.terminate(signal_first=False) == 0


@pytest.mark.parametrize("path, ignored", [
    ("build/cp311-cp311-linux_x86_64/CMakeCache.txt", True), (".venv/bin/python", True), (".git/HEAD", True),
    ("python/prial/__pycache__/cli.cpython-311.pyc", True), ("python/prial/_core.so", True),
    ("pyproject.toml", False), ("CMakeLists.txt", False), ("README.md", False), ("cpp/src/cards.cpp", False),
    ("protos/prial/v1/prial.proto", False), ("python/prial/cli/serve.py", False),
])
def test_the_build_context_is_the_source(path, ignored):
    assert dockerignored(path) == ignored


def dockerignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` out: the last of its patterns to
    match the path or a directory above it decides, ``!`` taking back in."""
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    parts = path.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    ignored = False
    for pattern in patterns:
        if any(_matches(pattern.removeprefix("!"), prefix) for prefix in prefixes):
            ignored = not pattern.startswith("!")
    return ignored


def _matches(pattern: str, path: str) -> bool:
    regex = "".join("(.*/)?" if part == "**/" else re.escape(part).replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
                    for part in re.split(r"(\*\*/)", pattern))
    regex = re.sub(r"\\\[([^\]]*)\\\]", r"[\1]", regex)  # [cod]
    return re.fullmatch(regex, path) is not None
