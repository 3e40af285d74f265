"""The safety invariant in /usr/bin/python3's SQLite: MATCH recall_match(s) never errors.

Reads {"extension": path, "inputs": [text, ...]} as JSON on stdin; prints
{"sqlite_version": ..., "queries": N, "failures": [[input, tokenizer, error], ...]}.
"""
import json
import sqlite3
import sys
from pathlib import Path

# The adversarial tables every safety test shares (3.40 has no trigram remove_diacritics,
# so the 3.45+ table of tests/fts_tables_345.sql is not made here).
TABLES_SQL = Path(__file__).resolve().parent.parent / "fts_tables.sql"


def main():
    request = json.load(sys.stdin)
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(request["extension"])
    conn.executescript(TABLES_SQL.read_text(encoding="utf-8"))
    tables = conn.execute("select name, tokenizer from fts_tables").fetchall()
    failures, queries = [], 0
    for text in request["inputs"]:
        for table, tokenizer in tables:
            for min_chars in (None, tokenizer):
                args = (text,) if min_chars is None else (text, min_chars)
                marks = ", ".join("?" * len(args))
                sql = f"select count(*) from {table} where {table} match recall_match({marks})"
                queries += 1
                try:
                    conn.execute(sql, args).fetchone()
                except sqlite3.Error as exc:
                    failures.append([text, tokenizer, str(exc)])
    json.dump(
        {"sqlite_version": sqlite3.sqlite_version, "queries": queries, "failures": failures[:20]},
        sys.stdout,
    )


if __name__ == "__main__":
    main()
