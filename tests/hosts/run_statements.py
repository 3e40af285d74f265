"""Runs SQL statements in /usr/bin/python3's sqlite3 module with the extension loaded
(or in pysqlite3's, where the request has "module": "pysqlite3").

Reads {"extension": path, "statements": [sql, ...]} as JSON on stdin, runs the
statements in order on one in-memory connection, and prints
{"sqlite_version": ..., "outputs": [[row, ...], ...], "error": null | message}.
Rows are lists of strings (NULL as null). It stops at the first error, unless the
request has "keep_going": true; then every statement runs and "errors" lists each
statement's error (or null).
"""
import json
import sys


def text(value):
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def main():
    request = json.load(sys.stdin)
    if request.get("module") == "pysqlite3":
        import pysqlite3.dbapi2 as sqlite3
    else:
        import sqlite3
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(request["extension"])
    conn.enable_load_extension(False)
    keep_going = request.get("keep_going", False)
    outputs, error, errors = [], None, []
    for sql in request["statements"]:
        try:
            rows = conn.execute(sql).fetchall()
        except sqlite3.Error as exc:
            errors.append(str(exc))
            outputs.append([])
            if not keep_going:
                error = str(exc)
                outputs.pop()
                break
            continue
        errors.append(None)
        outputs.append([[text(v) for v in row] for row in rows])
    json.dump(
        {
            "sqlite_version": sqlite3.sqlite_version,
            "outputs": outputs,
            "error": error,
            "errors": errors,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
