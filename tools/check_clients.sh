#!/usr/bin/env bash
# The example clients in other languages (examples/clients/LANG) against a
# real prial serve: each generates its code from the .proto files prial
# proto writes out, calls the service and prints its answers, which
# tools/check_client_answers.py compares with the Python API's.  Run with
# the prial to check installed (.ci/run: its venv).  Each language's
# toolchain comes from Debian's packages, installed when missing; without
# them the check fails rather than passing unchecked.
#
#   tools/check_clients.sh ruby [go]
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A PACKAGES=(
  [ruby]="ruby-grpc ruby-grpc-tools libprotobuf-dev"
  # grpc-go takes either github.com/golang/protobuf; code from protoc-gen-go
  # needs 1.4 or later (1.3 panics on its messages), hence 1-5-dev by name.
  [go]="golang-go golang-google-grpc-dev golang-google-genproto-dev golang-github-golang-protobuf-1-5-dev
        protoc-gen-go protoc-gen-go-grpc protobuf-compiler"
)
declare -A READY=(
  [ruby]="command -v grpc_tools_ruby_protoc && ruby -e 'require \"grpc\"' && test -f /usr/include/google/protobuf/any.proto"
  [go]="command -v go && command -v protoc-gen-go-grpc && command -v protoc-gen-go && command -v protoc &&
        test -d /usr/share/gocode/src/github.com/golang/protobuf/internal/gengogrpc"
)
declare -A RUN=(
  [ruby]="ruby examples/clients/ruby/client.rb"
  [go]="examples/clients/go/run.sh"
)

(( $# )) || { echo "usage: tools/check_clients.sh LANG... (${!RUN[*]})" >&2; exit 2; }
for lang in "$@"; do
  [[ -v "RUN[$lang]" ]] || { echo "tools/check_clients.sh: no client in $lang (${!RUN[*]})" >&2; exit 2; }
  if ! bash -c "${READY[$lang]}" >/dev/null 2>&1; then
    # shellcheck disable=SC2086,SC2116  # the list's words, on one line
    packages="$(echo ${PACKAGES[$lang]})"
    echo "+ apt-get install $packages"
    # Another install on the machine may hold the dpkg lock a while: wait.
    # shellcheck disable=SC2086  # a list of package names
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        -o DPkg::Lock::Timeout=600 $packages; } >/dev/null \
      || { echo "apt-get install $packages failed (no Debian mirror?): cannot check the $lang client" >&2; exit 1; }
  fi
done

work="$(mktemp -d)"
server=""
cleanup() {
  if [[ -n "$server" ]]; then
    kill "$server" 2>/dev/null || true
    wait "$server" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

prial proto --out "$work/protos" >/dev/null
prial serve --port 0 --port-file "$work/port" --no-call-log 2>"$work/server.log" &
server=$!
for _ in $(seq 600); do
  [[ -s "$work/port" ]] && break
  kill -0 "$server" 2>/dev/null || { echo "prial serve exited before serving:" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
[[ -s "$work/port" ]] || { echo "prial serve did not start within 60 s:" >&2; cat "$work/server.log" >&2; exit 1; }
target="127.0.0.1:$(cat "$work/port")"

for lang in "$@"; do
  echo "+ ${RUN[$lang]} $work/protos $target > $work/$lang.json"
  ${RUN[$lang]} "$work/protos" "$target" >"$work/$lang.json"
  echo "+ python tools/check_client_answers.py $work/$lang.json"
  python tools/check_client_answers.py "$work/$lang.json"
done
