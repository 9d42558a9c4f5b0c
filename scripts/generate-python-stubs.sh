#!/usr/bin/env bash
# Regenerates the Python client's gRPC stubs (nqueens_pb2.py, nqueens_pb2.pyi,
# nqueens_pb2_grpc.py) in clients/python/nqueens/v1/ from
# proto/nqueens/v1/nqueens.proto, and copies the channels' service config
# (nqueens_service_config.json, which the C++ client compiles in) there. They
# are committed so that the package installs into any Python with grpcio and
# protobuf, without protoc or the rest of the repository.
#
#   scripts/generate-python-stubs.sh          rewrite the committed stubs
#   scripts/generate-python-stubs.sh --check  fail if they are stale (CTest
#                                             clients.python_stubs_test)
#
# Needs protoc and grpc_python_plugin (Debian: protobuf-compiler,
# protobuf-compiler-grpc; scripts/install-deps.sh installs them), or their
# paths in $PROTOC and $GRPC_PYTHON_PLUGIN. The committed files come from
# Debian bookworm's protoc 3.21.12: another version writes other bytes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
protoc="${PROTOC:-protoc}"
plugin="${GRPC_PYTHON_PLUGIN:-$(command -v grpc_python_plugin || true)}"
committed="$root/clients/python/nqueens/v1"

if [[ -z "$plugin" ]]; then
  echo "grpc_python_plugin not found: install protobuf-compiler-grpc" >&2
  exit 2
fi

# generate DIR: the stubs and the service config into DIR/nqueens/v1/.
generate() {
  "$protoc" --proto_path="$root/proto" \
    --python_out="$1" --pyi_out="$1" --grpc_out="$1" \
    --plugin=protoc-gen-grpc="$plugin" \
    "$root/proto/nqueens/v1/nqueens.proto"
  cp "$root/proto/nqueens/v1/nqueens_service_config.json" "$1/nqueens/v1/"
}

case "${1:-}" in
  "")
    generate "$root/clients/python"
    ;;
  --check)
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    generate "$scratch"
    for file in nqueens_pb2.py nqueens_pb2.pyi nqueens_pb2_grpc.py nqueens_service_config.json; do
      if ! diff -u "$committed/$file" "$scratch/nqueens/v1/$file"; then
        echo "clients/python/nqueens/v1/$file is stale: run scripts/generate-python-stubs.sh" >&2
        exit 1
      fi
    done
    ;;
  *)
    echo "usage: $0 [--check]" >&2
    exit 2
    ;;
esac
