#!/bin/sh
# Makes tests/libraries/version-N.sql, one for each schema version: a library as `recall
# init` leaves it at that version (the test hook RECALL_TEST_INIT_VERSION of a debug
# build with --features recall-cli/test-hooks), four items written as that version's
# triggers index them, dumped by the sqlite3 shell with the header values .dump leaves
# out. Under `unicode61 remove_diacritics 2`: the shell's SQLite (Debian's 3.40) cannot
# write an index of the default tokenizer, whose remove_diacritics came in 3.45. Once made for a version, its file is kept as it is: tests/library_versions.rs
# migrates each to the latest version, and a change to an old migration shows there.
#
#   tests/libraries/make.sh 8        # makes version-8.sql only
set -eu
here=$(cd "$(dirname "$0")" && pwd)
recall=${RECALL:-$here/../../target/debug/recall}
for version in "$@"; do
  work=$(mktemp -d)
  db=$work/library.db
  RECALL_TEST_INIT_VERSION=$version "$recall" --db "$db" --tokenizer 'unicode61 remove_diacritics 2' init >/dev/null
  sqlite3 "$db" <<'SQL'
insert into items (source, project, title, summary, questions, atoms, occurred_at, transcript)
values
  ('agent-claude', 'shop', 'Zanzibar coupons rejected at checkout',
   'The coupon rule compared cents with euros; fixed in pricing.rs.',
   'Why does the checkout reject zanzibar coupons?', 'src/pricing.rs', '2024-03-04T05:06:07Z',
   'user: why are coupons rejected?'),
  ('agent-claude', 'shop', 'Café menu: crème brûlée out of stock',
   'The stock sync dropped accented names.', '', '', '2024-05-01T10:00:00Z', null),
  ('human-notes', 'api', 'Postgres ECONNREFUSED on port 5432 after the upgrade',
   'pg_hba.conf lost the docker network; restored it.', '', 'deploy/pg_hba.conf',
   '2025-01-15T08:30:00Z', null),
  ('agent-codex', null, 'Quokka export slow: an index on quokka_id',
   'The export scanned every row.', 'How to speed up the quokka export?', '',
   '2025-06-01T12:00:00Z', null);
SQL
  out=$here/version-$version.sql
  {
    echo "-- A recall library at schema version $version, made by tests/libraries/make.sh: kept as it is."
    sqlite3 "$db" .dump
    echo "PRAGMA application_id = $(sqlite3 "$db" 'pragma application_id');"
    echo "PRAGMA user_version = $(sqlite3 "$db" 'pragma user_version');"
  } > "$out"
  rm -rf "$work"
  echo "$out"
done
