#!/usr/bin/env bash
# The virtual environment of /usr/bin/python3 that the example judge and the example
# embedder run in, shared by tests/packages/judge.sh and vectors.sh, kept in
# target/venvs/wordllama (the model ships inside wordllama's wheel, so a kept environment
# costs nothing to reuse). Prints its path.
#   wordllama 0.4: the layout the examples read the bundled model from;
#   sqlite-vec: the version of the crate the CLI is built with (Cargo.lock), for its
#   vec0 loadable in Python's sqlite3 and the sqlite3 shell.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
venv="$target/venvs/wordllama"
want_vec=$(awk '/^name = "sqlite-vec"$/ {getline; gsub(/version = |"/, ""); print}' "$root/Cargo.lock")
[ -n "$want_vec" ] || { echo "wordllama_venv.sh: no sqlite-vec in Cargo.lock" >&2; exit 1; }
if ! "$venv/bin/python" -c "
import importlib.metadata as m, sys, wordllama, sqlite_vec
sys.exit(m.version('sqlite-vec') != '$want_vec')" >/dev/null 2>&1; then
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check \
    'wordllama>=0.4,<0.5' "sqlite-vec==$want_vec" >&2
fi
echo "$venv"
