#!/usr/bin/env bash
# The core under AddressSanitizer + UndefinedBehaviorSanitizer.
#
#   tools/sanitize.sh            # both steps below
#   tools/sanitize.sh ctest      # C++ unit tests (cpp/tests/) built with -DPRIAL_SANITIZE=ON
#   tools/sanitize.sh pytest [PYTEST ARGS]
#                                # the extension built with PRIAL_SANITIZE=ON into
#                                # build/sanitize/site (not the environment's prial),
#                                # then the pytest suite against it
#
# Run from an environment where the package's test extra is installed (the
# README's test command); cmake and ninja come from PyPI if missing.  Any
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

need_build_tools() {
  command -v cmake >/dev/null && command -v ninja >/dev/null || python -m pip install -q cmake ninja
}

run_ctest() {
  need_build_tools
  cmake -S "$root" -B "$work/ctest" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DPRIAL_SANITIZE=ON -DPRIAL_BUILD_TESTS=ON >/dev/null
  cmake --build "$work/ctest"
  ctest --test-dir "$work/ctest" --output-on-failure
}

run_pytest() {
  local site="$work/site"
  rm -rf "$site"
  python -m pip install -q --no-deps --target "$site" \
         -Ccmake.define.PRIAL_SANITIZE=ON -Ccmake.build-type=RelWithDebInfo \
         -Cbuild-dir="$work/wheel/{wheel_tag}" "$root"
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
  python -m pytest -q -s -p no:cacheprovider "$@"
}

case "$step" in
  ctest) run_ctest ;;
  pytest) run_pytest "$@" ;;
  all) run_ctest && run_pytest "$@" ;;
  *) echo "usage: tools/sanitize.sh [ctest|pytest|all] [pytest args]" >&2; exit 2 ;;
esac
