#!/usr/bin/env bash
# The Python package as a user gets it: `make wheel`, then the wheel FILE installed in a
# fresh virtual environment of /usr/bin/python3 with apsw, Datasette and pytest from
# PyPI, and tests/packages/test_python.py run there against the venv's own `recall`.
# Its test of load()'s error needs a CPython whose sqlite3 cannot load extensions:
# pyenv's when the machine has one, else one built once from Debian's python3.11 source
# into $target/cpython-noext (tests/hosts/cpython_noext.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}

# `make wheel` runs tests/hosts/install.sh first, which installs python3-venv if needed.
rm -f "$target"/wheels/sqlite_recall-*.whl
make --no-print-directory wheel
wheels=("$target"/wheels/sqlite_recall-*.whl)
[ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || {
  echo "python.sh: expected one wheel in $target/wheels, found: ${wheels[*]}" >&2
  exit 1
}

find_noext() {
  /usr/bin/python3 "$root/tests/packages/python_noext.py" "$target/cpython-noext/bin/python3"
}
if ! noext=$(find_noext); then
  ./tests/hosts/cpython_noext.sh "$target/cpython-noext"
  noext=$(find_noext) || {
    echo "python.sh: $target/cpython-noext/bin/python3 can load sqlite extensions: remove $target/cpython-noext to build it again" >&2
    exit 1
  }
fi
echo "python.sh: the CPython without loadable extensions: $noext"
export RECALL_NOEXT_PYTHON=$noext

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "${wheels[0]}" apsw datasette pytest

export RECALL_WHEEL=${wheels[0]}
export RECALL_REPO=$root
export PATH="$work/venv/bin:$PATH"
# No configuration of the machine's user may change what the CLI answers.
unset RECALL_DB RECALL_CONFIG RECALL_TOKENIZER
cd "$work"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider --basetemp="$work/pytest" "$root/tests/packages/test_python.py"
