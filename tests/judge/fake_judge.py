"""A deterministic judge for the tests (docs/judge.md): it speaks the protocol, or breaks
it on purpose. Driven by environment variables:

FAKE_JUDGE_RATINGS  JSON object: item id -> probability (an item not listed: 0)
FAKE_JUDGE_MODE     ok (default), crash (exits 3 at the first request), exit (exits 0
                    before reading), hang (reads, never answers, ignores the end of its
                    input, and starts a child that sleeps too), garbage (answers a line
                    that is not JSON), range (answers 1.5), unknown-id (answers an id never
                    asked)
FAKE_JUDGE_SLOW     JSON object: item id -> seconds to wait before answering it
FAKE_JUDGE_HOLD     N: answer nothing until N requests wait, then answer them all, last
                    asked first (then again for the next N; fewer after a pause of 0.3 s)
FAKE_JUDGE_LOG      a file: one line per request received (the request as JSON with
                    "waiting", how many requests were unanswered then), and "pid N" lines

Arguments override them: --ratings JSON, --mode MODE (for a command in a configuration,
whose process may not see the caller's environment).
"""
import json
import os
import select
import subprocess
import sys
import threading
import time

options = dict(zip(sys.argv[1::2], sys.argv[2::2]))
ratings = json.loads(options.get("--ratings", os.environ.get("FAKE_JUDGE_RATINGS", "{}")))
ratings = {int(k): v for k, v in ratings.items()}
slow = {int(k): v for k, v in json.loads(os.environ.get("FAKE_JUDGE_SLOW", "{}")).items()}
mode = options.get("--mode", os.environ.get("FAKE_JUDGE_MODE", "ok"))
hold = int(os.environ.get("FAKE_JUDGE_HOLD", "0"))
log_path = os.environ.get("FAKE_JUDGE_LOG")
lock = threading.Lock()
waiting = 0


def log(line):
    if log_path:
        with lock, open(log_path, "a") as f:
            f.write(line + "\n")


def answer(request_id, probability):
    global waiting
    with lock:
        sys.stdout.write(json.dumps({"id": request_id, "probability": probability}) + "\n")
        sys.stdout.flush()
        waiting -= 1


def rate(request):
    return ratings.get(request["item"]["id"], 0.0)


log("pid %d" % os.getpid())
if mode == "exit":
    sys.exit(0)
if mode == "hang":
    child = subprocess.Popen(["sleep", "1000"])
    log("pid %d" % child.pid)

held = []


def lines():
    """Requests as they come; while some are held, a pause in the input answers them."""
    global held
    pending = b""
    while True:
        if held and not select.select([0], [], [], 0.3)[0]:
            flush()
            continue
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            if line.strip():
                yield line


def flush():
    global held
    for r in reversed(held):
        answer(r["id"], rate(r))
    held = []


for line in lines():
    request = json.loads(line)
    with lock:
        waiting += 1
        now_waiting = waiting
    log(json.dumps(dict(request, waiting=now_waiting)))
    if mode == "crash":
        sys.stderr.write("fake judge: crashing on purpose\n")
        sys.exit(3)
    if mode == "hang":
        continue
    if mode == "garbage":
        print("this is not JSON", flush=True)
        continue
    if mode == "range":
        answer(request["id"], 1.5)
        continue
    if mode == "unknown-id":
        answer(request["id"] + 1000, 0.5)
        continue
    if hold:
        held.append(request)
        if len(held) >= hold:
            flush()
        continue
    delay = slow.get(request["item"]["id"], 0)
    if delay:
        threading.Timer(delay, answer, (request["id"], rate(request))).start()
    else:
        answer(request["id"], rate(request))

flush()
if mode == "hang":
    time.sleep(1000)
