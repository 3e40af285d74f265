#!/usr/bin/env bash
# A virtual environment of /usr/bin/python3 with pysqlite3-binary 0.5.3 from PyPI: the
# sqlite3 module against SQLite 3.46.0 of its own wheel, a host between Debian's 3.40 and
# the bundled 3.54 (the 3.45 and 3.46 trigram tokenizer reads a text past the length it
# is given, to a NUL). Kept in target/venvs/pysqlite3-346; prints its python.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
venv="$target/venvs/pysqlite3-346"
if ! "$venv/bin/python" -c "
import pysqlite3.dbapi2 as s, sys
sys.exit(s.sqlite_version != '3.46.0')" >/dev/null 2>&1; then
  . "$root/tests/hosts/python_venv.sh"
  ensure_python_venv >&2
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check 'pysqlite3-binary==0.5.3' >&2
fi
echo "$venv/bin/python"
