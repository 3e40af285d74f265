"""An example embedder for `recall embed` and `recall search --embed-cmd`: WordLlama, a
small static word-embedding model shipped inside its PyPI wheel (256 dimensions), turns
each text into a vector.

It shows the protocol, not a recommendation: averaged word embeddings place texts by
subject, and miss what a sentence says about it.

    python3 -m venv venv && venv/bin/pip install wordllama
    recall embed --embed-cmd "venv/bin/python examples/embed_wordllama.py"
    recall search "the site was down" --embed-cmd "venv/bin/python examples/embed_wordllama.py"

The protocol, JSON Lines on standard input and output, one request at a time:

    request  {"id": 7, "texts": ["first text", "second text"]}
    answer   {"id": 7, "model": "wordllama-l2_supercat-256", "vectors": [[...], [...]]}
    or       {"id": 7, "error": "why"}

One vector per text, in the request's order, each of unit length. A request that cannot
be answered (not JSON, no "texts" list of strings, an empty text, which has no
direction) gets an error answer with the request's id (null when it has none), and the
process goes on reading. Blank lines are not requests and get no answer.

The model is read from the installed package with downloads disabled, so the embedder
runs offline.
"""
import json
import os
import sys

import numpy as np
import wordllama
from wordllama import WordLlama

CONFIG, DIMENSIONS = "l2_supercat", 256
# The name recall stores with the library's vectors: another model or size is refused.
MODEL = f"wordllama-{CONFIG}-{DIMENSIONS}"


def main():
    # The wheel holds the weights and the tokenizer; pointing the cache at the package
    # and disabling downloads makes a missing file an error instead of a network call.
    model = WordLlama.load(
        config=CONFIG,
        dim=DIMENSIONS,
        cache_dir=os.path.dirname(wordllama.__file__),
        disable_download=True,
    )
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(answer(model, line)) + "\n")
        sys.stdout.flush()


def answer(model, line):
    try:
        request = json.loads(line)
    except ValueError as e:
        return {"id": None, "error": f"the request is not JSON ({e})"}
    if not isinstance(request, dict):
        return {"id": None, "error": "the request is not a JSON object"}
    rid = request.get("id")
    texts = request.get("texts")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        return {"id": rid, "error": 'the request has no "texts" list of strings'}
    empty = [n for n, t in enumerate(texts) if not t.strip()]
    if empty:
        return {"id": rid, "error": f"texts[{empty[0]}] is empty: it has no words to embed"}
    if not texts:
        return {"id": rid, "model": MODEL, "vectors": []}
    try:
        vectors = model.embed(texts, norm=False).astype(np.float64)
    except Exception as e:  # the answer carries any failure of the model; the process lives
        return {"id": rid, "error": f"the model failed: {type(e).__name__}: {e}"}
    norms = np.linalg.norm(vectors, axis=1)
    bad = [n for n, x in enumerate(norms) if not np.isfinite(x) or x == 0.0]
    if bad:
        return {"id": rid, "error": f"texts[{bad[0]}] has no word the model knows"}
    return {"id": rid, "model": MODEL, "vectors": (vectors / norms[:, None]).tolist()}


if __name__ == "__main__":
    main()
