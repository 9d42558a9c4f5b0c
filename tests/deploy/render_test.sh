#!/usr/bin/env bash
# usage: render_test.sh DEPLOY_DIR [SERVER_BINARY]
# Renders the kustomization in DEPLOY_DIR and checks the manifests with
# check_manifests.py; with SERVER_BINARY, also starts that server with the
# Deployment's arguments (server_args_test.py). Exits 77 (skipped) when
# kubectl is missing, unless CI=true: CI machines have kubectl, so there its
# absence is a failure.
set -euo pipefail

deploy_dir=$1
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v kubectl >/dev/null; then
  if [[ ${CI:-} == true ]]; then
    echo "FAIL: kubectl is not installed; CI needs it to render $deploy_dir" >&2
    exit 1
  fi
  echo "SKIP: kubectl is not installed, so $deploy_dir cannot be rendered" >&2
  exit 77
fi

rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT
kubectl kustomize "$deploy_dir" >"$rendered"
/usr/bin/python3 "$here/check_manifests.py" "$rendered"
if [[ -n ${2:-} ]]; then
  /usr/bin/python3 "$here/server_args_test.py" "$rendered" "$2"
fi
