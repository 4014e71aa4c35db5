#!/usr/bin/env bash
# Indexes the git checkout REPO_DIR (default: .) at its HEAD with the SCIP
# indexers sextant ships (scip-typescript, scip-python, from sextant's
# node_modules), for the languages its tracked files are written in, and
# publishes each index to the registry SEXTANT_REGISTRY (in CI, a secret
# postgres:// URL; a file path works too) with `sextant publish --root`, so
# file texts, syntax facts and the commit's ancestry come from the checkout.
#
#   SEXTANT_REGISTRY  where to publish (required)
#   SEXTANT_REPO      the repository's name in the registry (default: REPO_DIR's folder name)
#   SEXTANT_DIR       the sextant install (default: two levels above this script), built (npm ci && npm run build)
#
# Every indexer is run even if one fails; the exit status is 1 if any failed
# or was refused by `sextant publish`. Indexes are written outside the checkout.
set -euo pipefail

if [[ $# -gt 1 || ${1:-} == -* ]]; then
  echo "usage: $0 [REPO_DIR]   (environment: SEXTANT_REGISTRY, SEXTANT_REPO, SEXTANT_DIR)" >&2
  exit 2
fi
: "${SEXTANT_REGISTRY:?set SEXTANT_REGISTRY to the registry to publish to (a postgres:// URL secret in CI, or a file path)}"
repo_dir=$(cd "${1:-.}" && git rev-parse --show-toplevel)
sextant_dir=${SEXTANT_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
slug=${SEXTANT_REPO:-$(basename "$repo_dir")}
commit=$(git -C "$repo_dir" rev-parse HEAD)
tools="$sextant_dir/node_modules/.bin"
sextant=(node "$sextant_dir/bin/sextant.js")
[[ -x $tools/scip-typescript && -f $sextant_dir/bin/sextant.js ]] || {
  echo "no sextant install at $sextant_dir: set SEXTANT_DIR to a sextant checkout after npm ci && npm run build" >&2
  exit 2
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
files=$(git -C "$repo_dir" ls-files)
has() { grep -Eq "$1" <<<"$files"; }

# publish NAME SCIP: one upload, checked against its sha256 so a cut file is refused.
publish() {
  local sum
  sum=$(sha256sum "$2" | cut -c1-64)
  if "${sextant[@]}" publish "$2" --repo "$slug" --commit "$commit" --root "$repo_dir" --sha256 "$sum" --json >"$work/$1.json"; then
    node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      console.log(`published ${r.repo} at ${r.commit.slice(0, 12)} from ${r.indexer}: upload ${r.upload_id} ${r.upload_state}, ${r.documents} documents, ${r.occurrences} occurrences`)' "$work/$1.json"
  else
    echo "sextant publish refused the $1 index (see above)" >&2
    failed=1
  fi
}

# index NAME COMMAND...: runs an indexer from the checkout's root.
index() {
  local name=$1
  shift
  echo "indexing $slug at ${commit:0:12} with $name…" >&2
  if (cd "$repo_dir" && "$@" >"$work/$name.log" 2>&1); then
    publish "$name" "$work/$name.scip"
  else
    echo "$name failed on $slug:" >&2
    tail -n 20 "$work/$name.log" >&2
    failed=1
  fi
}

detected=0
if has '\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$'; then
  detected=1
  infer=()
  [[ -f $repo_dir/tsconfig.json || -f $repo_dir/jsconfig.json ]] || infer=(--infer-tsconfig)
  index scip-typescript "$tools/scip-typescript" index --cwd "$repo_dir" --output "$work/scip-typescript.scip" --no-progress-bar "${infer[@]}"
fi
if has '\.pyi?$'; then
  detected=1
  index scip-python "$tools/scip-python" index --cwd "$repo_dir" --project-name "$slug" --project-version _ \
    --output "$work/scip-python.scip" --quiet
fi
if [[ $detected == 0 ]]; then
  echo "no TypeScript, JavaScript or Python files in $repo_dir: nothing for the shipped SCIP indexers to index" >&2
  exit 1
fi
exit $failed
