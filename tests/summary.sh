#!/usr/bin/env bash
# `make test`: runs the make of the parts (COMMAND...) with its output shown and kept in
# LOG, then says in one line how many checks passed in each part (tests/summary.py
# reads LOG), and exits as COMMAND did.
# Usage: tests/summary.sh LOG COMMAND...
set -uo pipefail
[ "$#" -ge 2 ] || { echo "usage: summary.sh LOG COMMAND..." >&2; exit 2; }
log=$1
shift
mkdir -p "$(dirname "$log")"
# Python's output reaches the log as it is printed, in order with the rest.
export PYTHONUNBUFFERED=1
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# /usr/bin/python3 is installed by the parts' first step; without it there is no summary.
if [ -x /usr/bin/python3 ]; then
  /usr/bin/python3 "$(dirname "$0")/summary.py" "$log" "$status" || true
fi
exit "$status"
