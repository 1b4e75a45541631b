#!/usr/bin/env bash
# Builds the image for real and runs it as an operator would: read-only
# root, an arbitrary user id, the image's defaults; health through the
# image's own check, metrics scraped, a call held open while a plain
# `docker stop` (10 s before SIGKILL) stops it, which must end in exit 0;
# every log line one JSON object; the OCI labels set; no pyarrow inside.
#
# Needs a Docker engine (dockerd; with no bridge network the build and the
# container use the host's network, on loopback ports of their own) and
# the prial to call it with installed (CI's venv).  Without a registry, the
# base image python:3.11-slim-bookworm is made from Debian's bookworm with
# debootstrap when missing (Debian's Python 3.11 and its headers, with pip
# allowed to install into it, in place of the official image).
#
#   tools/container_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
docker="${DOCKER:-docker}"
base="python:3.11-slim-bookworm"
image="prial:check"
ca="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}"
work="$(mktemp -d)"
container=""
cleanup() {
  if [[ -n "$container" ]]; then "$docker" rm -f "$container" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
say() { echo "+ $*"; }
fail() { echo "tools/container_check.sh: $*" >&2; exit 1; }

"$docker" info >/dev/null 2>&1 || fail "no Docker engine answers ($docker info failed)"
if ! "$docker" image inspect "$base" >/dev/null 2>&1; then
  say "debootstrap bookworm, imported as $base"
  root="$work/rootfs"
  debootstrap --variant=minbase --include=python3,python3-dev,python3-pip,python3-venv,ca-certificates \
    bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
  ln -sf /usr/bin/python3 "$root/usr/local/bin/python"
  ln -sf /usr/bin/pip3 "$root/usr/local/bin/pip"
  rm -f "$root"/var/cache/apt/archives/*.deb
  tar -C "$root" -c . | "$docker" import --change 'ENV PIP_BREAK_SYSTEM_PACKAGES=1' \
    --change 'ENV PIP_ROOT_USER_ACTION=ignore' --change 'CMD ["python3"]' - "$base" >/dev/null
fi

revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
say "docker build -t $image (revision $revision)"
start=$SECONDS
DOCKER_BUILDKIT=1 "$docker" build --network host --secret "id=pip_ca,src=$ca" --build-arg "REVISION=$revision" \
  -t "$image" . >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; fail "docker build failed"; }
echo "built in $((SECONDS - start)) s: $("$docker" image inspect -f '{{.Size}}' "$image") bytes"

say "labels"
version="$(python -c 'import prial; print(prial.__version__)')"
labels="$("$docker" image inspect -f '{{json .Config.Labels}}' "$image")"
python - "$labels" "$version" "$revision" <<'EOF'
import json, sys
labels, version, revision = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
want = {"org.opencontainers.image.version": version, "org.opencontainers.image.revision": revision}
wrong = {k: labels.get(k) for k, v in want.items() if labels.get(k) != v}
if wrong or not labels.get("org.opencontainers.image.source"):
    sys.exit(f"labels: {wrong or labels}")
print(f"version {version}, revision {revision}, source {labels['org.opencontainers.image.source']}")
EOF
if "$docker" run --rm --network host "$image" python -c "import pyarrow" >/dev/null 2>&1; then
  fail "the image has pyarrow: the server alone should be installed"
fi

port="$(python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
metrics="$(python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
say "docker run --read-only --user 54321:0 (port $port, metrics $metrics)"
container="$("$docker" run -d --network host --read-only --tmpfs /tmp --user 54321:0 \
  -e PRIAL_PORT="$port" -e PRIAL_METRICS_PORT="$metrics" "$image")"
for _ in $(seq 120); do
  "$docker" exec "$container" prial call --timeout 2 --target "127.0.0.1:$port" health >/dev/null 2>&1 && break
  sleep 0.5
done
"$docker" exec "$container" prial call --timeout 5 --target "127.0.0.1:$port" health ||
  { "$docker" logs "$container" >&2; fail "the container never answered SERVING"; }
python - "$metrics" "$version" <<'EOF'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=10).read().decode()
if f'prial_build_info{{version="{sys.argv[2]}"}} 1.0' not in text:
    sys.exit("metrics: no prial_build_info with the version")
print(f"metrics: {len(text.splitlines())} lines, build info {sys.argv[2]}")
EOF

say "a call held open, then a plain docker stop"
python - "$port" >"$work/held.txt" 2>&1 <<'EOF' &
import sys, threading
from prial import random_hands
from prial.client import Client, PrialRpcError
def batches():
    yield random_hands(10, 3, seed=1)
    threading.Event().wait(30)  # held open past the grace
with Client(f"127.0.0.1:{sys.argv[1]}", timeout=60, retries=None) as client:
    try:
        for _ in client.evaluate_stream(batches()):
            print("answered", flush=True)
    except PrialRpcError as error:
        print(error.code.name)
EOF
held=$!
for _ in $(seq 100); do grep -q answered "$work/held.txt" && break; sleep 0.1; done
grep -q answered "$work/held.txt" || fail "the held call was never answered"
start=$SECONDS
"$docker" stop "$container" >/dev/null
code="$("$docker" inspect -f '{{.State.ExitCode}}' "$container")"
echo "stopped in $((SECONDS - start)) s, exit code $code"
[[ "$code" == 0 ]] || { "$docker" logs "$container" >&2; fail "docker stop ended the server with exit code $code"; }
wait "$held" || true
echo "the held call ended: $(tail -n 1 "$work/held.txt")"

say "every log line one JSON object"
"$docker" logs "$container" 2>&1 | python -c '
import json, sys
lines = sys.stdin.read().splitlines()
for number, line in enumerate(lines, 1):
    obj = json.loads(line)
    assert isinstance(obj, dict) and obj["time"].endswith("Z") and obj["level"], (number, line)
events = [json.loads(line)["event"] for line in lines]
assert events[0] == "serving" and events[-1] == "stopped", events
print(f"{len(lines)} lines, all JSON: {sorted(set(events))}")
'
