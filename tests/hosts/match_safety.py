"""The safety invariant in /usr/bin/python3's SQLite: MATCH recall_match(s) never errors.

Reads {"extension": path, "inputs": [text, ...]} as JSON on stdin; prints
{"sqlite_version": ..., "queries": N, "failures": [[input, tokenizer, error], ...]}.
"""
import json
import sqlite3
import sys

ROWS = [
    "The consent banner migration",
    "node.js and c++ notes: NEAR(a b) AND x* OR y",
    "¿Cuándo pintó Melanie el amanecer? 東京 😀",
    'error: "unterminated string" at col:3',
]
TABLES = {
    "tri": "trigram",
    "uni": "unicode61 remove_diacritics 2",
}


def main():
    request = json.load(sys.stdin)
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(request["extension"])
    for table, tokenizer in TABLES.items():
        conn.execute(f"create virtual table {table} using fts5(body, tokenize = '{tokenizer}')")
        conn.executemany(f"insert into {table}(body) values (?)", [(r,) for r in ROWS])
    failures, queries = [], 0
    for text in request["inputs"]:
        for table, tokenizer in TABLES.items():
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
