#!/usr/bin/env bash
# The Python package as a user gets it: `make wheel`, then the wheel FILE installed in a
# fresh virtual environment of /usr/bin/python3 with apsw, Datasette and pytest from
# PyPI, and tests/packages/test_python.py run there against the venv's own `recall`.
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
