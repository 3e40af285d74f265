#!/usr/bin/env bash
# The README's main job: the extension in the plain sqlite3 shell on a tiny library.
# Usage: examples/demo.sh TARGET_PROFILE_DIR   (e.g. target/debug)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lib="${1:-target/debug}/librecall0"
command -v sqlite3 >/dev/null || { echo "demo: the sqlite3 shell is missing: apt-get install sqlite3" >&2; exit 1; }

echo "== sqlite3 $(sqlite3 --version | cut -d' ' -f1) with $lib"
sqlite3 -batch :memory: <<SQL
.load $lib
.mode box
select recall_version() as version;
select recall_match('When did we remove the analytics script?', 3, 1) as "match expression";
select recall_prompt_terms('¿Cuándo arreglé la migración?') as "prompt terms";
.read $here/tiny_library.sql
.parameter set :query "'When did we remove the analytics script?'"
.parameter set :now "'2025-03-01T00:00:00Z'"
.parameter set :limit 3
.read $here/two_stage_search.sql
SQL
