#!/usr/bin/env python3
"""A deterministic embedder for the tests, speaking the protocol of docs/vectors.md.

A text's vector counts its words, each word folded to a canonical one by a small table
of synonyms and placed by a CRC-32 of it, so that texts sharing no word can still be
near ("outage" and "downtime"). Options make it misbehave on purpose:
  --model NAME, --dimensions N   what it claims and gives (default fake-bow, 64)
  --fail-after N                 exit after answering N requests
  --garbage                      answer with a line that is not JSON
  --refuse WORD                  answer an error for any request with a text holding WORD
  --sleep S                      wait S seconds before each answer
  --log PATH                     append the number of texts of each request to PATH
"""
import argparse
import json
import re
import sys
import time
import zlib

SYNONYMS = {
    "outage": "downtime", "down": "downtime", "unavailable": "downtime",
    "slow": "latency", "sluggish": "latency", "lag": "latency", "p95": "latency",
    "database": "db", "postgres": "db", "sqlite": "db", "sqlite3": "db",
    "locked": "lock", "locking": "lock", "contention": "lock",
    "deploy": "release", "deployment": "release", "rollout": "release", "ship": "release",
    "crash": "failure", "crashed": "failure", "fails": "failure", "failed": "failure",
    "error": "failure", "broken": "failure",
    "dependency": "package", "dependencies": "package", "library": "package", "bump": "upgrade",
    "update": "upgrade", "upgraded": "upgrade",
}


def words(text):
    return [SYNONYMS.get(w, w) for w in re.findall(r"[a-z0-9]+", text.lower())]


def embed(text, dims):
    v = [0.0] * dims
    for w in words(text):
        v[zlib.crc32(w.encode()) % dims] += 1.0
    if not any(v):
        v[0] = 1.0
    return v


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="fake-bow")
    p.add_argument("--dimensions", type=int, default=64)
    p.add_argument("--fail-after", type=int)
    p.add_argument("--garbage", action="store_true")
    p.add_argument("--refuse")
    p.add_argument("--sleep", type=float, default=0.0)
    p.add_argument("--log")
    a = p.parse_args()
    answered = 0
    for line in sys.stdin:
        if a.fail_after is not None and answered >= a.fail_after:
            print("fake embedder: failing on purpose", file=sys.stderr)
            sys.exit(3)
        request = json.loads(line)
        texts = request["texts"]
        if a.log:
            with open(a.log, "a") as f:
                f.write(f"{len(texts)}\n")
        if a.sleep:
            time.sleep(a.sleep)
        if a.garbage:
            print("this is not json", flush=True)
        elif a.refuse and any(a.refuse in t.lower() for t in texts):
            print(json.dumps({"id": request["id"], "error": f"cannot embed {a.refuse}"}), flush=True)
        else:
            vectors = [embed(t, a.dimensions) for t in texts]
            print(json.dumps({"id": request["id"], "model": a.model, "vectors": vectors}), flush=True)
        answered += 1


if __name__ == "__main__":
    main()
