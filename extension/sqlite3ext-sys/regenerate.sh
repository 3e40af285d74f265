#!/usr/bin/env bash
# Regenerates src/bindings.rs as the crates.io sqlite3ext-sys 0.0.1 generates it: bindgen
# 0.60.1 with its default options over that package's sqlite3ext.h (SQLite 3.39.4). The
# header is checked against the checksum below before anything runs. Without an argument,
# the result is compared with the committed file (exit 1 on a difference); with --write,
# it replaces it.
#
# Needs libclang (Debian: apt-get install libclang-dev) and crates.io; the build never
# runs this.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
header_sha256=7f9ae3bab94bbc62d909fbb0149861b4a0832299f12d7ccbfecc7f28a8d27aa2

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat >"$work/Cargo.toml" <<'TOML'
[package]
name = "regenerate-sqlite3ext-bindings"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
bindgen = "=0.60.1"
# Only its header is read; it is a dependency so that cargo fetches and verifies it.
sqlite3ext-sys = "=0.0.1"

[workspace]
TOML
cat >"$work/src/main.rs" <<'RUST'
fn main() {
    let mut args = std::env::args().skip(1);
    let (header, out) = (args.next().unwrap(), args.next().unwrap());
    bindgen::Builder::default()
        .header(header)
        .generate()
        .expect("bindgen failed")
        .write_to_file(out)
        .expect("cannot write the bindings");
}
RUST
cd "$work"
manifest="$(cargo metadata --format-version 1 |
  python3 -c 'import json,sys; print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"] == "sqlite3ext-sys"))')"
header="$(dirname "$manifest")/sqlite3/sqlite3ext.h"
echo "$header_sha256  $header" | sha256sum --check --quiet
# The header includes sqlite3.h from its own folder, as the package's build does.
cargo run --quiet --bin regenerate-sqlite3ext-bindings -- "$header" "$work/bindings.rs" 2>/dev/null ||
  cargo run --bin regenerate-sqlite3ext-bindings -- "$header" "$work/bindings.rs"
if [ "${1:-}" = --write ]; then
  cp "$work/bindings.rs" "$here/src/bindings.rs"
  echo "wrote $here/src/bindings.rs"
elif cmp -s "$work/bindings.rs" "$here/src/bindings.rs"; then
  echo "src/bindings.rs is what bindgen 0.60.1 makes of sqlite3ext.h (sha256 $header_sha256)"
else
  diff -u "$here/src/bindings.rs" "$work/bindings.rs" | head -40
  echo "src/bindings.rs differs from what bindgen makes: run $0 --write to replace it" >&2
  exit 1
fi
