#!/usr/bin/env bash
# Every supported CPython (noxfile.py's PYTHONS) but the one running this
# script, where CI has already run the whole suite: for each, a nox session
# builds and installs prial in a fresh environment and runs the core and
# service tests chosen below.  An interpreter that cannot be found fails the
# run.
#
#   tools/pythons.sh                  # the selection below on the other interpreters
#   tools/pythons.sh tests/test_odds.py   # other pytest arguments instead
#   tools/pythons.sh --wheels build/wheels/repaired   # each one's wheel from there
#                                     # (tools/wheels.sh), not built once more
#
# Run it from the environment the full suite ran in (nox is installed there
# from the pinned nox extra).
#
# The selection: what can differ between interpreters is the bindings, the
# Python layer and the versions of numpy, pyarrow and grpcio each one gets
# (3.10 gets older ones), so every public test file of the hands, rules,
# batches, best-of, partitioning, showdowns, Crash, casino, odds, scoring,
# sample logs, audits, the command line's output, the metadata, the gRPC service
# and its security, and the asyncio client (asyncio differs the most
# between these versions) runs, less the tests whose time goes to the native
# core's own work or to a slow Python reference, the same on every
# interpreter: brute-force and frontier checks of partitioning, the house
# edges' independent count, the showdown properties against the reference,
# the class counts and order properties of best-of, and the exhaustive
# tests (a few percent of these files' tests; with cancellation, below,
# 70% of their time).  Left out too: cancellation (long native calls
# stopped mid-way, seconds of native work each), the README transcripts (a
# fixed port), the supervisor, the soak, the fault and hostile-client
# tests, the audit on a Dask cluster and the server's signals and
# processes: native work, process and timing behaviour, which the full
# suite covers.  Of what is left, half runs (--sample 2, the same half on
# every interpreter): what differs between versions shows in any part.
left_out=(brute_force frontier independent_count follow_the_rules always_balance class_counts order_never_matters
          every_five_card_hand sigterm processes_share prial_call_from bench_json
          number_for_cards_in_json_lines every_format_and_engine)
printf -v left_out_expression ' or %s' "${left_out[@]}"
selection=(
  -m "not exhaustive" -k "not (${left_out_expression# or })" --sample 2
  tests/test_api.py tests/test_three_card.py tests/test_batch.py tests/test_input.py tests/test_rules.py
  tests/test_wild.py tests/test_bestof.py tests/test_partition.py tests/test_showdown.py tests/test_crash.py
  tests/test_casino.py tests/test_odds.py tests/test_score.py tests/test_score_bad_values.py
  tests/test_sample.py tests/test_audit.py tests/test_cli.py tests/test_cli_output.py tests/test_metadata.py
  tests/test_grpc_evaluate.py tests/test_grpc_rpcs.py tests/test_grpc_server.py tests/test_grpc_security.py
  tests/test_client_async.py tests/test_table_examples.py tests/test_table_between.py
)
if [[ "${1:-}" == --wheels ]]; then
  [[ -d "${2:-}" ]] || { echo "tools/pythons.sh: --wheels needs a directory of wheels, got '${2:-}'" >&2; exit 2; }
  PRIAL_WHEELS="$(cd "$2" && pwd)"
  export PRIAL_WHEELS  # noxfile.py installs each interpreter's wheel from there
  shift 2
fi
[[ $# -gt 0 ]] && selection=("$@")

python tools/install_extra.py nox

. "$(dirname "$0")/interpreters.sh"  # every pyenv version selected; ccache

current="$(python -c 'import sys; print(f"{sys.version_info.major}.{sys.version_info.minor}")')"
mapfile -t others < <(nox --list --json | python -c '
import json, sys
print(*(s["python"] for s in json.load(sys.stdin) if s["name"] == "tests" and s["python"] != sys.argv[1]), sep="\n")
' "$current")
echo "+ nox --error-on-missing-interpreters -s tests -p ${others[*]} -- ${selection[*]@Q}"
nox --error-on-missing-interpreters -s tests -p "${others[@]}" -- "${selection[@]}"
