"""A deterministic summariser for the tests (docs/capture.md#a-summariser): it speaks the
protocol, or breaks it on purpose. Driven by environment variables:

FAKE_SUMMARIZER_MODE  ok (default): title "Summary of <agent> segment <n>: <first prompt's
                      first three words>", summary "<lines> lines read", questions
                      ["What happened in segment <n>?"], atoms ["fake-atom-<n>"],
                      kind $FAKE_SUMMARIZER_KIND (default bugfix);
                      error (answers {"error"}), garbage (a line that is not JSON), hang
                      (never answers), crash (exits 3 at the first request), wrong-id,
                      empty (answers only the id), secret (a title holding a GitHub token)
FAKE_SUMMARIZER_LOG   a file: each request received, one JSON line each
"""
import json
import os
import sys
import time

mode = os.environ.get("FAKE_SUMMARIZER_MODE", "ok")
log_path = os.environ.get("FAKE_SUMMARIZER_LOG")

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    if log_path:
        with open(log_path, "a") as f:
            f.write(json.dumps(request) + "\n")
    rid, n = request["id"], request["segment"]
    text = request["text"]
    prompt = next((l[len("person: "):] for l in text.splitlines() if l.startswith("person: ")), "")
    if mode == "crash":
        sys.exit(3)
    if mode == "hang":
        time.sleep(3600)
    if mode == "garbage":
        answer = "this is not json"
    elif mode == "error":
        answer = json.dumps({"id": rid, "error": "the model is not loaded"})
    elif mode == "wrong-id":
        answer = json.dumps({"id": rid + 100, "title": "t"})
    elif mode == "empty":
        answer = json.dumps({"id": rid})
    elif mode == "secret":
        answer = json.dumps({"id": rid, "title": "Rotated ghp_Zx8Kq2Lm4Nb6Vc1Xd3Fs5Gh7Jk9Pq0Wr2Ty4U"})
    else:
        answer = json.dumps({
            "id": rid,
            "title": f"Summary of {request['agent']} segment {n}: {' '.join(prompt.split()[:3])}",
            "summary": f"{len(text.splitlines())} lines read",
            "questions": [f"What happened in segment {n}?"],
            "atoms": [f"fake-atom-{n}"],
            "kind": os.environ.get("FAKE_SUMMARIZER_KIND", "bugfix"),
        })
    print(answer, flush=True)
