#!/bin/sh
# The real-agent suite against the newest Claude Code and Codex CLI on npm, beside the
# pinned versions of versions.json, and what changed: the checks whose result differs,
# the record types new in the transcripts, those capture does not know.
# Usage: tests/agents/newest.sh [RECALL]   (default target/debug/recall)
# Exit 0 when no check changed; 1 otherwise (a new version to look at before pinning it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
recall=${1:-$here/../../target/debug/recall}
out=$(mktemp -d)
echo "== pinned versions (output in $out/pinned.txt)"
/usr/bin/python3 "$here/run.py" --recall "$recall" --results "$out/pinned.json" >"$out/pinned.txt" 2>&1
tail -n 1 "$out/pinned.txt"
echo "== newest versions on npm (output in $out/newest.txt)"
/usr/bin/python3 "$here/run.py" --newest --recall "$recall" --results "$out/newest.json" >"$out/newest.txt" 2>&1
tail -n 1 "$out/newest.txt"
[ -s "$out/pinned.json" ] && [ -s "$out/newest.json" ] || {
  echo "newest.sh: a run stopped before its results: see $out/pinned.txt and $out/newest.txt" >&2
  exit 2
}
exec /usr/bin/python3 "$here/run.py" --compare "$out/pinned.json" "$out/newest.json"
