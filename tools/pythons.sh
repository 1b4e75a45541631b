#!/usr/bin/env bash
# Every supported CPython (noxfile.py's PYTHONS) but the one running this
# script, where CI has already run the whole suite: for each, a nox session
# builds and installs prial in a fresh environment and runs the core and
# service tests.  An interpreter that cannot be found fails the run.
#
#   tools/pythons.sh                  # the selection below on the other interpreters
#   tools/pythons.sh tests/test_odds.py   # other pytest arguments instead
#
# Run it from the environment the full suite ran in (nox is installed there
# from the pinned nox extra).  In: the public tests of the hands, rules,
# batches, best-of, partitioning, showdowns, Crash, casino, odds,
# cancellation, the metadata, and the gRPC service and its security, with
# the exhaustive tests left out (every hand against a slow Python reference,
# the same work on every interpreter).  Out: scoring, the command line, the
# README transcripts (a fixed port), the supervisor, the soak and the fault
# and hostile-client tests: they exercise the same Python code through
# subprocesses and timing, which the full suite covers on one interpreter at
# several times the cost.
set -euo pipefail
cd "$(dirname "$0")/.."

selection=(
  -m "not exhaustive"
  tests/test_api.py tests/test_three_card.py tests/test_batch.py tests/test_input.py tests/test_rules.py
  tests/test_wild.py tests/test_bestof.py tests/test_partition.py tests/test_showdown.py tests/test_crash.py
  tests/test_casino.py tests/test_odds.py tests/test_cancel.py tests/test_metadata.py
  tests/test_grpc_evaluate.py tests/test_grpc_rpcs.py tests/test_grpc_server.py tests/test_grpc_security.py
)
[[ $# -gt 0 ]] && selection=("$@")

python tools/install_extra.py nox

# pyenv's shims run python3.X only for the versions selected: select every
# installed one, the current selection first so that the names the shims
# already answered keep their meaning.
if command -v pyenv >/dev/null; then
  PYENV_VERSION="$(pyenv version-name):$(pyenv versions --bare --skip-aliases | paste -sd: -)"
  export PYENV_VERSION
fi

# The compiler cache the sessions build with where it is installed: without
# it each interpreter compiles the whole core again (minutes, not a failure).
if ! command -v ccache >/dev/null; then
  echo "+ apt-get install ccache"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ccache; } \
    >/dev/null || echo "apt-get install ccache failed (no Debian mirror?): building without a compiler cache" >&2
fi

current="$(python -c 'import sys; print(f"{sys.version_info.major}.{sys.version_info.minor}")')"
mapfile -t others < <(nox --list --json | python -c '
import json, sys
print(*(s["python"] for s in json.load(sys.stdin) if s["name"] == "tests" and s["python"] != sys.argv[1]), sep="\n")
' "$current")
echo "+ nox -s tests -p ${others[*]} -- ${selection[*]}"
nox --error-on-missing-interpreters -s tests -p "${others[@]}" -- "${selection[@]}"
