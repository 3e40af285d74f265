#!/usr/bin/env bash
# The npm package as a user gets it: `make npm`, then in a fresh folder `npm install`
# of the .tgz with better-sqlite3 12 (compiled from source when no prebuilt binary can
# be downloaded), sqlite-vec (its vec0 loadable, the version of the crate the CLI links),
# TypeScript and better-sqlite3's types from the npm registry, and test_node.mjs and
# test_node_vectors.mjs run by node's test runner against the release `recall` CLI.
# Usage: tests/packages/node.sh [TARGET_DIR]   (default: target)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in node npm cargo make; do
  command -v "$tool" >/dev/null || { echo "test-node: $tool is missing (the test needs Node 20+ with npm, Rust and make)" >&2; exit 1; }
done
# The CLI must not pick up a library, configuration or tokenizer from the caller.
unset RECALL_DB RECALL_CONFIG RECALL_TOKENIZER

cd "$root"
# The same packages as `make bench-quick` builds together, so that CI finds them built.
cargo build --release -p recall-cli -p recall0
make --no-print-directory npm
target=$(cd "${1:-target}" && pwd)
tgz=$(ls "$target"/npm/sqlite-recall-*.tgz)
want_vec=$(awk '/^name = "sqlite-vec"$/ {getline; gsub(/version = |"/, ""); print}' "$root/Cargo.lock")
[ -n "$want_vec" ] || { echo "test-node: no sqlite-vec in Cargo.lock" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# npm 11 asks for install scripts to be allowed: better-sqlite3's compiles its binding.
cat > package.json <<'JSON'
{ "name": "sqlite-recall-node-test", "private": true, "allowScripts": { "better-sqlite3": true } }
JSON
# node-gyp compiles against this Node's own headers when it has them, instead of
# downloading them.
prefix=$(dirname "$(dirname "$(node -p 'process.execPath')")")
if [ -f "$prefix/include/node/node_api.h" ]; then
  export npm_config_nodedir="$prefix"
fi
# node-gyp's make, on every core.
export JOBS=max
start=$SECONDS
npm install --no-audit --no-fund --prefer-offline --loglevel=error \
  "$tgz" better-sqlite3@12 "sqlite-vec@$want_vec" typescript@5 @types/better-sqlite3@7
echo "test-node: npm install took $((SECONDS - start)) s"

cp "$root/tests/packages/test_node.mjs" "$root/tests/packages/test_node_vectors.mjs" .
SQLITE_RECALL_REPO="$root" SQLITE_RECALL_BIN="$target/release/recall" SQLITE_VEC_VERSION="$want_vec" \
  node --test test_node.mjs test_node_vectors.mjs
