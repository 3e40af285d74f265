"""An example judge for `recall search --judge-cmd` (docs/judge.md): WordLlama, a small
static word-embedding model shipped inside its PyPI wheel, rates how close each item is
to the question, and a logistic curve turns that cosine similarity into a probability.

It shows the protocol, not a recommendation: embeddings of words measure closeness of
subject, not whether an item answers a question.

    python3 -m venv venv && venv/bin/pip install wordllama
    recall search "container ran out of RAM" --judge-cmd "venv/bin/python examples/judge_wordllama.py"

The model is read from the installed package with downloads disabled, so the judge runs
offline. Requests waiting on standard input are read together and embedded in one
batch: recall keeps up to `concurrency` requests in flight, and they are answered as
one.
"""
import argparse
import json
import math
import os
import select
import sys

import numpy as np
import wordllama
from wordllama import WordLlama


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--center", type=float, default=0.35,
                        help="the similarity rated 0.5 (default 0.35)")
    parser.add_argument("--slope", type=float, default=10.0,
                        help="how fast the probability rises with similarity (default 10)")
    args = parser.parse_args()
    # The wheel holds the weights and the tokenizer; pointing the cache at the package
    # and disabling downloads makes a missing file an error instead of a network call.
    model = WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)

    def probability(similarity):
        return 1.0 / (1.0 + math.exp(-args.slope * (similarity - args.center)))

    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        # Whatever else is already waiting joins this batch.
        while select.select([0], [], [], 0)[0]:
            more = os.read(0, 1 << 16)
            if not more:
                break
            pending += more
        *lines, pending = pending.split(b"\n")
        requests = [json.loads(line) for line in lines if line.strip()]
        if not requests:
            continue
        questions = model.embed([r["question"] for r in requests], norm=True)
        items = model.embed([item_text(r["item"]) for r in requests], norm=True)
        similarities = np.sum(questions * items, axis=1)
        out = "".join(
            json.dumps({"id": r["id"], "probability": round(probability(float(s)), 4)}) + "\n"
            for r, s in zip(requests, similarities)
        )
        sys.stdout.write(out)
        sys.stdout.flush()


def item_text(item):
    parts = [item["title"], item["summary"], item["questions"], item["atoms"]]
    return "\n".join(p for p in parts if p)


if __name__ == "__main__":
    main()
