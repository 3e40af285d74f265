#!/usr/bin/env bash
# The example judge as a user runs it: `wordllama` from PyPI in a virtual environment of
# /usr/bin/python3 (wordllama_venv.sh's, shared with vectors.sh), then
# tests/packages/test_judge.py against the sample library with every network route
# closed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
recall="$target/debug/recall"
[ -x "$recall" ] || { echo "judge.sh: $recall is missing: run cargo build first" >&2; exit 1; }
venv=$("$root/tests/packages/wordllama_venv.sh")
"$venv/bin/python" -c 'import importlib.metadata as m; print("wordllama (PyPI)", m.version("wordllama"))'
work=$(mktemp -d "${TMPDIR:-/tmp}/recall-judge.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
unset RECALL_DB RECALL_CONFIG RECALL_TOKENIZER
# A judge that tried to download its model would fail here instead of passing quietly.
export HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 HF_HUB_OFFLINE=1
"$venv/bin/python" "$root/tests/packages/test_judge.py" --recall "$recall" --root "$root" --work "$work"
