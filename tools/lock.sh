#!/usr/bin/env bash
# Writes the lock files the container build installs from, every package
# pinned with its hashes (pip --require-hashes), for the image's Python
# (3.11 on Linux; the image's PYTHON_IMAGE):
#   deploy/locks/server.txt  what prial serve runs on: [project] dependencies
#   deploy/locks/build.txt   what builds the wheel: [build-system] requires,
#                            and CMake and Ninja (build-tools.in)
# Run after a dependency changes in pyproject.toml; tests/test_container.py
# fails until the locks agree with it.  Needs PyPI (or PIP_INDEX_URL).
#
#   tools/lock.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3.11}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install -q "pip-tools==7.7.0"
compile() { "$work/venv/bin/pip-compile" -q --generate-hashes --strip-extras --allow-unsafe --no-header --no-annotate --no-emit-index-url --no-emit-find-links "$@"; }
compile --output-file deploy/locks/server.txt pyproject.toml
compile --all-build-deps --only-build-deps --output-file "$work/backend.txt" pyproject.toml
compile --output-file deploy/locks/build.txt "$work/backend.txt" deploy/locks/build-tools.in
echo "deploy/locks/server.txt: $(grep -c '^[a-z]' deploy/locks/server.txt) packages; deploy/locks/build.txt: $(grep -c '^[a-z]' deploy/locks/build.txt)"
