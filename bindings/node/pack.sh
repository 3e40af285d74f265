#!/usr/bin/env bash
# Stages the npm package sqlite-recall with this machine's release librecall0 and packs
# it: TARGET_DIR/npm/sqlite-recall-VERSION.tgz. `make npm` builds the library first.
# Usage: bindings/node/pack.sh TARGET_DIR   (e.g. target)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=$(cd "${1:-$root/target}" && pwd)
for tool in node npm cargo; do
  command -v "$tool" >/dev/null || { echo "npm package: $tool is missing (Node 18+ with npm, and Rust, are needed)" >&2; exit 1; }
done

# The folder index.js looks in: process.platform-process.arch of the Node that packs,
# which is the Node the library was built beside.
key=$(node -p 'process.platform + "-" + process.arch')
case "$key" in
  darwin-*) file=librecall0.dylib ;;
  win32-*) file=recall0.dll ;;
  *) file=librecall0.so ;;
esac
lib="$target/release/$file"
[ -f "$lib" ] || { echo "npm package: $lib is missing: run cargo build --release -p recall0 first" >&2; exit 1; }

# The version is the workspace's (root Cargo.toml); the package.json in the repository
# carries a placeholder.
version=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const p = JSON.parse(s).packages.find((p) => p.name === "recall0");
    if (!p) { console.error("npm package: cargo metadata lists no recall0"); process.exit(1); }
    console.log(p.version);
  });')

out="$target/npm"
stage="$out/sqlite-recall"
rm -rf "$stage" "$out"/sqlite-recall-*.tgz
mkdir -p "$stage/lib/$key"
cp "$here/package.json" "$here/index.js" "$here/index.mjs" "$here/index.d.ts" "$here/parameters.js" "$here/README.md" "$stage/"
cp "$lib" "$stage/lib/$key/$file"
(cd "$stage" && npm pkg set "version=$version")
(cd "$stage" && npm pack --silent --pack-destination "$out" >/dev/null)
echo "$out/sqlite-recall-$version.tgz ($key)"
