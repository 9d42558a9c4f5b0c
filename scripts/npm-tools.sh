#!/usr/bin/env bash
# Installs the npm packages of the API checks (tests/node/package-lock.json:
# buf, @grpc/grpc-js and its loader, an OpenAPI validator) into
# tests/node/node_modules, when it is missing or older than the lock file.
# CTest's node.npm_tools runs it before the tests that need them; npm
# (Debian: nodejs, npm; scripts/install-deps.sh installs them) fetches from
# its configured registry.
set -euo pipefail

dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tests/node" && pwd)"
cd "$dir"
# npm ci writes node_modules/.package-lock.json last: its age is the install's.
installed=node_modules/.package-lock.json

# One install at a time: CTest may start several tests that call this.
exec 9<package-lock.json
flock 9

if [[ -f $installed && $installed -nt package-lock.json ]]; then
  echo "npm-tools: tests/node/node_modules is up to date"
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "npm-tools: npm not found: scripts/install-deps.sh installs it" >&2
  exit 1
fi
npm ci --no-audit --no-fund
