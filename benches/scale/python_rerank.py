"""Baseline (b) of the scale benchmark: the common application approach.

Fetch the bm25 pool (200 rows with display columns) from SQLite into Python and re-rank
it there with recall_score's formula. Reads {"db", "now", "matches": [...], "extension"?} on stdin,
prints {"ms": [...]}: one latency per match expression, after a short warm-up.
"""
import json
import sqlite3
import sys
import time
from datetime import datetime

POOL = """
select i.id, i.occurred_at, i.title, i.project, i.source,
       bm25(items_fts, 2.0, 1.0, 1.5, 1.5, 0.5) as bm25
from items_fts join items as i on i.id = items_fts.rowid
where items_fts match ?
order by bm25
limit 200
"""


def parse(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


def search(conn, match, now):
    rows = conn.execute(POOL, (match,)).fetchall()
    scored = []
    for id_, occurred, title, project, source, bm25 in rows:
        age = max((now - parse(occurred)) / 86400.0, 0.0)
        decay = 0.5 ** (age / 90.0)
        scored.append((-bm25 * (0.7 + 0.3 * decay), id_, occurred, title, project, source))
    scored.sort(key=lambda r: r[0], reverse=True)
    return scored[:10]


def main():
    req = json.load(sys.stdin)
    conn = sqlite3.connect(f"file:{req['db']}?mode=ro", uri=True)
    if req.get("extension"):
        # The library's tokenizer is sqlite-recall's own: register it.
        conn.enable_load_extension(True)
        conn.load_extension(req["extension"])
    now = parse(req["now"])
    matches = req["matches"]
    for m in matches[:5]:
        search(conn, m, now)
    ms = []
    for m in matches:
        t = time.perf_counter()
        search(conn, m, now)
        ms.append((time.perf_counter() - t) * 1000.0)
    json.dump({"ms": ms}, sys.stdout)


if __name__ == "__main__":
    main()
