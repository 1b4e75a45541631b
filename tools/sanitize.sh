#!/usr/bin/env bash
# The core under AddressSanitizer + UndefinedBehaviorSanitizer.
#
#   tools/sanitize.sh            # both steps below
#   tools/sanitize.sh ctest      # the C++ unit tests (cpp/tests/), sanitized
#   tools/sanitize.sh pytest [PYTEST ARGS]
#                                # the pytest suite against the extension built so
#   tools/sanitize.sh all --sample 5   # both, a fifth of the tests (.ci/run)
#
# Run from an environment where the package's test extra is installed (the
# README's test command); the build's own tools come from PyPI.  Any
# sanitizer report fails the run: UBSan halts on the first error, ASan
# always does.  Leak checking is off: CPython keeps memory alive at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
work="$root/build/sanitize"
step="${1:-all}"
[[ $# -gt 0 ]] && shift

export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"

# One sanitized build serves both steps: the extension, installed into
# build/sanitize/site (not the environment's prial), and the C++ unit tests
# beside it in the same CMake build directory.
build="$work/build"
site="$work/site"

# The compiler cache where it is installed (tools/pythons.sh installs it on
# CI): a run after the first compiles only what changed.
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$root"
fi

build_sanitized() {
  rm -rf "$site"
  # -O1 and line tables only (-g1, set with the sanitizers): enough for the
  # reports' stacks, and the build is a good part of CI's time.
  python -m pip install -q --no-deps --target "$site" \
         -Ccmake.define.PRIAL_SANITIZE=ON -Ccmake.define.PRIAL_BUILD_TESTS=ON \
         -Ccmake.build-type=RelWithDebInfo -Ccmake.define.CMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 \
         -Cbuild-dir="$build" "$root"
}

run_ctest() {
  "$build/prial_core_tests"
}

run_pytest() {
  # CPython is not built with ASan, so its runtime must be loaded first;
  # libstdc++ too, or ASan cannot find the real __cxa_throw and aborts on
  # the first C++ exception.  Child processes (prial serve, the CLI tests)
  # inherit all of this through the environment.
  local preload
  preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
  export PYTHONPATH="$site" LD_PRELOAD="$preload"
  python -c "import prial, sys; sys.exit(not prial.__file__.startswith('$site'))" ||
    { echo "the sanitized build is not the prial being imported" >&2; return 1; }
  # -s: a sanitizer report of an aborting test would otherwise be lost in
  # pytest's capture; -p no:cacheprovider: no .pytest_cache from this run.
  # Not the exhaustive tests: their time goes to their Python references
  # and to sheer volume, and the kernels they call are the ones every other
  # test calls.  The slow tier's other tests (attacks, signals, faults) are
  # in the selection: they reach the native code's error paths.
  python -m pytest -q -s -p no:cacheprovider -m "not exhaustive" "$@"
}

case "$step" in
  ctest) build_sanitized && run_ctest ;;
  pytest) build_sanitized && run_pytest "$@" ;;
  all) build_sanitized && run_ctest && run_pytest "$@" ;;
  *) echo "usage: tools/sanitize.sh [ctest|pytest|all] [pytest args]" >&2; exit 2 ;;
esac
