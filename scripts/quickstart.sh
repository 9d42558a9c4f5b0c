#!/usr/bin/env bash
# From a fresh clone: installs what is missing, builds the server and the CLI,
# starts a server on a free local port, completes a sample composition with
# the CLI, and stops the server. Exits with the CLI's status.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
sample=examples/composition-8.q

# What building needs; scripts/test.sh installs what the tests need besides
# (a browser among them).
scripts/install-deps.sh --build
scripts/build.sh

server_log=$(mktemp)
server_pid=

stop_server() {
  if [[ -n $server_pid ]]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" || echo "quickstart: server exited with status $?" >&2
  fi
  rm -f "$server_log"
}
trap stop_server EXIT

# Prints HOST:PORT from the server's "listening on HOST:PORT" line; port 0
# makes the kernel pick a free port, so the log is the only way to learn it.
wait_for_address() {
  local address
  for _ in {1..300}; do
    address=$(sed -n '/listening on /{s/.*listening on \([^[:space:]]*\).*/\1/p;q}' "$server_log")
    if [[ -n $address ]]; then
      echo "$address"
      return 0
    fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
      break
    fi
    sleep 0.1
  done
  echo "quickstart: the server did not report its address; its log:" >&2
  cat "$server_log" >&2
  return 1
}

build/server/nqueens-server --listen 127.0.0.1:0 >"$server_log" 2>&1 &
server_pid=$!
address=$(wait_for_address)
echo "quickstart: server listening on $address"

echo "quickstart: nqueens complete $sample --server $address"
cli_status=0
build/client/nqueens complete "$sample" --server "$address" || cli_status=$?
echo "quickstart: the CLI exited with status $cli_status"
exit "$cli_status"
