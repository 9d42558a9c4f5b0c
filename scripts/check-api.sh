#!/usr/bin/env bash
# The API's contract checks (test.sh's `api` stage), with buf from npm:
#
#   lint      proto/ against buf.yaml's rules
#   breaking  proto/ against the released API, proto/nqueens-v1.0.0.binpb;
#             then the same check on a scratch copy with one field renamed,
#             which must fail: the check is known to bite
#
#   scripts/check-api.sh           both checks
#   scripts/check-api.sh --freeze  rewrite proto/nqueens-v1.0.0.binpb from
#                                  proto/ (only when releasing a new image)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
scripts/npm-tools.sh
buf=tests/node/node_modules/.bin/buf
image=proto/nqueens-v1.0.0.binpb

if [[ ${1:-} == --freeze ]]; then
  "$buf" build proto --exclude-source-info -o "$image"
  exit 0
fi

"$buf" lint
echo "check-api.sh: buf lint: no findings"
"$buf" breaking proto --against "$image"
echo "check-api.sh: buf breaking: no change breaks a client of $image"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r proto/nqueens "$scratch/"
sed -i 's/uint64 queen_count = 3;/uint64 queens = 3;/' "$scratch/nqueens/v1/nqueens.proto"
if "$buf" breaking "$scratch" --against "$image" > "$scratch/breaking.log" 2>&1; then
  echo "check-api.sh: buf breaking missed a renamed field (ValidateResponse.queen_count)" >&2
  exit 1
fi
grep -q 'queen_count' "$scratch/breaking.log"
echo "check-api.sh: buf breaking refuses a renamed field, as it must"
