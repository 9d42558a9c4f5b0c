#!/usr/bin/env bash
# usage: render_test.sh [--component NAME] DEPLOY_DIR [SERVER_BINARY]
# Renders the kustomization in DEPLOY_DIR and checks the manifests with
# check_manifests.py; with SERVER_BINARY, also starts that server with the
# Deployment's arguments (server_args_test.py). With --component NAME, renders
# instead an overlay of DEPLOY_DIR with DEPLOY_DIR/components/NAME, as a user
# who turns it on would, and checks what the component adds. Exits 77
# (skipped) when kubectl is missing, unless CI=true: CI machines have
# kubectl, so there its absence is a failure.
set -euo pipefail

components=()
if [[ ${1:-} == --component ]]; then
  components=(--component "$2")
  shift 2
fi
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

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rendered=$work/rendered.yaml
if [[ ${#components[@]} -gt 0 ]]; then
  # kustomize takes neither absolute paths nor an overlay inside its base.
  overlay=$work/overlay
  mkdir "$overlay"
  cat >"$overlay/kustomization.yaml" <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - $(realpath --relative-to="$overlay" "$deploy_dir")
components:
  - $(realpath --relative-to="$overlay" "$deploy_dir/components/${components[1]}")
YAML
  kubectl kustomize "$overlay" >"$rendered"
else
  kubectl kustomize "$deploy_dir" >"$rendered"
fi
/usr/bin/python3 "$here/check_manifests.py" "${components[@]}" "$rendered"
if [[ -n ${2:-} ]]; then
  /usr/bin/python3 "$here/server_args_test.py" "$rendered" "$2"
fi
