#!/usr/bin/env bash
# The README's main job: the recall CLI and the plain sqlite3 shell (with the extension
# loaded) on the bundled sample library.
# Usage: examples/demo.sh TARGET_PROFILE_DIR   (e.g. target/debug)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
profile=$(cd "${1:-$root/target/debug}" && pwd)
recall="$profile/recall"
command -v sqlite3 >/dev/null || { echo "demo: the sqlite3 shell is missing: apt-get install sqlite3" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RECALL_DB="$work/sample.db"
now=2025-11-29T00:00:00Z

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
# Each command is shown as it can be pasted: a word with a space or a shell character
# in single quotes.
quote() {
  local a out=""
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then out+="$a "; else out+="'${a//\'/\'\\\'\'}' "; fi
  done
  printf '%s' "${out% }"
}
run() { step "recall $(quote "$@")"; "$recall" "$@"; }

run init
run capture "$root/examples/sessions"
run search "cannot find value tax_rate" --now "$now" --limit 1
run search "env/staging.env" --now "$now" --limit 1
run search "pnpm run build" --now "$now" --limit 1
run capture "$root/examples/sessions"
run import "$root/examples/sample.jsonl"
run check
run search "When did we decide to remove the analytics script?" --now "$now" --limit 5
run search "database is locked" --project api --now "$now" --limit 3 --explain
run search "migracion fechas" --now "$now" --limit 3
run later 17
run related "The importer fails with database is locked again, please fix it" --now "$now"
run timeline --project infra --since 2025-01-01 --limit 4
step "recall --json search 'ECONNREFUSED 5432' --limit 1"
"$recall" --json search 'ECONNREFUSED 5432' --now "$now" --limit 1

# The Debian sqlite3 shell (SQLite 3.40) cannot use trigram remove_diacritics (3.45+):
# a copy of the library, rebuilt with unicode61, serves the shell.
cp "$RECALL_DB" "$work/shell.db"
run --db "$work/shell.db" rebuild --tokenizer 'unicode61 remove_diacritics 2'

step "sqlite3 $work/shell.db   # .load $profile/librecall0, then the SQL files of sql/"
sqlite3 -batch "$work/shell.db" <<SQL
.load $profile/librecall0
.mode box
select recall_version() as version, sqlite_version() as sqlite;
.parameter set :query "'When did we decide to remove the analytics script?'"
.parameter set :tokenizer "'unicode61 remove_diacritics 2'"
.parameter set :now "'$now'"
.parameter set :limit 3
.read $root/sql/search.sql
.parameter clear
.parameter set :item_id 17
.parameter set :tokenizer "'unicode61 remove_diacritics 2'"
.read $root/sql/later.sql
SQL
