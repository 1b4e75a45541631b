#!/bin/sh
# Builds and runs the Go client (main.go) against HOST:PORT, its package
# prialv1 generated from PROTO_DIR/prial/v1/prial.proto (written by prial
# proto --out PROTO_DIR).  Offline, with Debian's packages in GOPATH mode,
# their sources being in /usr/share/gocode: golang-go golang-google-grpc-dev
# golang-google-genproto-dev golang-github-golang-protobuf-1-5-dev
# protoc-gen-go protoc-gen-go-grpc protobuf-compiler.  With Go modules
# instead, see docs/service.md.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: run.sh PROTO_DIR [HOST:PORT]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/prialclient"
cp "$here/main.go" "$work/src/prialclient/"
# In GOPATH mode the M options put the package where main.go imports it,
# in place of the proto's go_package (the path of a Go module).
protoc -I "$1" --go_out="$work/src" --go-grpc_out="$work/src" \
  --go_opt=Mprial/v1/prial.proto=prialclient/prialv1 \
  --go-grpc_opt=Mprial/v1/prial.proto=prialclient/prialv1 prial/v1/prial.proto
GOPATH="$work:/usr/share/gocode" GO111MODULE=off go build -o "$work/client" prialclient
"$work/client" ${2:+"$2"}
