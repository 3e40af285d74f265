#!/usr/bin/env bash
# A bounded fuzzing run of every target: SECONDS_PER_TARGET each (default 120), starting
# from the committed seeds. cargo-fuzz needs nightly features; RUSTC_BOOTSTRAP lets the
# stable toolchain provide them. Usage: fuzz/run.sh [SECONDS_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-120}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
for target in match_query prompt_terms time_parse fts_match tokenize; do
  mkdir -p "corpus/$target"
  cp -n seeds/* "corpus/$target/" 2>/dev/null || true
  echo "== $target ($seconds s)"
  cargo fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -max_len=12000 2>&1 \
    | grep -E "^Done|^#[0-9]+.*DONE|SUMMARY|panicked|ERROR" || true
done
