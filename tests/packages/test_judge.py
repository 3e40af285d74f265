"""The example judge (examples/judge_wordllama.py) behind `recall search` and `recall
eval` on the sample library: every probability recall reports is the one the model gives
when asked directly, the answer follows the rules of docs/judge.md, and a question in
other words than its item's reaches that item when the filtered set is small."""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np
import wordllama
from wordllama import WordLlama

THRESHOLD, FLOOR = 0.7, 0.2
CENTER, SLOPE = 0.35, 10.0  # the example judge's defaults


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recall", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--work", required=True)
    a = parser.parse_args()
    db = os.path.join(a.work, "sample.db")
    judge = f"{sys.executable} {os.path.join(a.root, 'examples/judge_wordllama.py')}"

    def recall(*args):
        done = subprocess.run([a.recall, "--db", db, *args], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"recall {args}: {done.stderr}"
        return done.stdout

    recall("init")
    recall("import", os.path.join(a.root, "examples/sample.jsonl"))
    model = WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)

    def probability(question, item_id):
        item = json.loads(recall("--json", "get", str(item_id)))["item"]
        text = "\n".join(p for p in (item["title"], item["summary"], item["questions"], item["atoms"]) if p)
        q, t = model.embed([question, text], norm=True)
        return 1 / (1 + math.exp(-SLOPE * (float(np.dot(q, t)) - CENTER)))

    searches = [
        ["database is locked"],
        ["When did we decide to remove the analytics script?", "--limit", "3"],
        ["payment provider switch", "--project", "shop", "--since", "2025-04-01", "--until", "2025-07-01"],
    ]
    answers = {}
    for args in searches:
        question = args[0]
        answer = json.loads(recall("--json", "search", *args, "--explain", "--judge-cmd", judge))
        j = answer["explain"]["judge"]
        assert j["outcome"] == "rated" and j["failure"] is None, j
        assert answer["ranker"] == "judge", answer["ranker"]
        rated = {r["id"]: r["probability"] for r in answer["results"]}
        rated.update({d["id"]: d["probability"] for d in j["dropped"]})
        assert len(rated) == j["candidates"] == j["rated"], (rated, j)
        for item_id, p in rated.items():
            want = probability(question, item_id)
            assert abs(p - want) < 1e-3, f"{question!r}: item {item_id} rated {p}, the model says {want}"
        shown = [r["probability"] for r in answer["results"]]
        assert shown == sorted(shown, reverse=True), shown
        cut = FLOOR if answer["below_threshold"] else THRESHOLD
        assert all(p >= cut for p in shown), (cut, shown)
        assert all(d["probability"] < cut for d in j["dropped"]), j["dropped"]
        answers[question] = answer
        print(f"ok   {question!r}: {[(r['id'], r['probability']) for r in answer['results']]}")

    assert 130 in [r["id"] for r in answers["database is locked"]["results"]]
    # The literal search finds nothing in this quarter of the shop; the whole set is judged.
    literal = json.loads(recall("--json", "search", *searches[2]))
    assert literal["results"] == [], literal["results"]
    scoped = answers["payment provider switch"]
    assert scoped["explain"]["judge"]["filtered_set_small"] is True
    assert [r["id"] for r in scoped["results"]][:1] == [222], scoped["results"]

    cases = os.path.join(a.root, "examples/judge_cases.jsonl")
    doc = json.loads(recall("--json", "eval", cases, "--judge-cmd", judge, "--set", "judge=off,on"))
    off, on = (v["summary"]["recall_at_10"] for v in doc["variants"])
    assert on > off, (off, on)
    print(f"ok   eval of {cases}: Recall@10 {off:.3f} literal, {on:.3f} judged")


if __name__ == "__main__":
    main()
