#!/usr/bin/env bash
# The example judge as a user runs it: `wordllama` from PyPI in a virtual environment of
# /usr/bin/python3 (kept in target/venvs/judge: the model ships inside the wheel, so a
# kept environment costs nothing to reuse), then tests/packages/test_judge.py against the
# sample library with every network route closed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
recall="$target/debug/recall"
[ -x "$recall" ] || { echo "judge.sh: $recall is missing: run cargo build first" >&2; exit 1; }
venv="$target/venvs/judge"
# 0.4 is the layout examples/judge_wordllama.py reads the bundled model from.
if ! "$venv/bin/python" -c 'import wordllama' >/dev/null 2>&1; then
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'wordllama>=0.4,<0.5'
fi
"$venv/bin/python" -c 'import importlib.metadata as m; print("wordllama (PyPI)", m.version("wordllama"))'
work=$(mktemp -d "${TMPDIR:-/tmp}/recall-judge.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
unset RECALL_DB RECALL_CONFIG RECALL_TOKENIZER
# A judge that tried to download its model would fail here instead of passing quietly.
export HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 HF_HUB_OFFLINE=1
"$venv/bin/python" "$root/tests/packages/test_judge.py" --recall "$recall" --root "$root" --work "$work"
