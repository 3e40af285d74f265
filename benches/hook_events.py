#!/usr/bin/python3
"""Times each event of `recall hook`, the whole process, as an agent runs it, and shows
what the hook gives the labeled first prompts (docs/performance.md#the-session-hook).

  benches/hook_events.py time LIBRARY [--recall target/release/recall] [--runs 40]
  benches/hook_events.py labeled [--recall target/release/recall]

`time` runs on a copy-free library (the scale benchmark's, target/scale/): it adds the
session state file beside it, and the sessions it captures to it. Each event is sent
`--runs` times: SessionStart in the largest project's folder; the first UserPromptSubmit
of a new session (prompts of 3-6 words of the library's titles in an English sentence);
a later prompt of a session that had its first; SessionEnd of a new session's transcript,
timed until the hook returns (each detached capture is waited for, untimed, before the
next run). Prints the median and the 95th percentile of each, in milliseconds.

`labeled` builds a library of examples/code_library.jsonl and sends each case of
examples/code_first_prompts.jsonl as a session in the folder of its expected item's
project ("api" for the cases expecting nothing): whether the start block and the first
prompt show the expected item, and how many items they show.
"""
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def send(recall, library, payload, extra=()):
    started = time.perf_counter()
    out = subprocess.run(
        [recall, "--db", library, *extra, "hook"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("RECALL_")},
    )
    elapsed = (time.perf_counter() - started) * 1000
    if out.returncode != 0 or out.stderr:
        sys.exit(f"hook failed: {out}")
    return elapsed, out.stdout.decode()


def wait_gone(pid):
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(") ", 1)[1][0] == "Z":
                    return
        except FileNotFoundError:
            return
        time.sleep(0.02)


def transcript(path, session, cwd, words):
    rec = lambda kind, at, message: json.dumps({
        "type": kind, "sessionId": session, "cwd": cwd, "timestamp": at,
        "isSidechain": False, "uuid": f"{kind}-{at}", "message": message})
    with open(path, "w") as f:
        f.write(rec("user", "2026-01-01T10:00:00.000Z",
                    {"role": "user", "content": "Why does " + " ".join(words) + " fail?"}) + "\n")
        f.write(rec("assistant", "2026-01-01T10:01:00.000Z",
                    {"role": "assistant", "content": [{"type": "text", "text": "Fixed it."}]}) + "\n")


def stats(name, ms):
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    print(f"| {name} | {statistics.median(ms):.0f} | {p95:.0f} | {ms[-1]:.0f} |")


def time_events(library):
    recall = arg("--recall", os.path.join(ROOT, "target/release/recall"))
    runs = int(arg("--runs", "40"))
    conn = sqlite3.connect(f"file:{library}?mode=ro", uri=True)
    project = conn.execute(
        "select project from items group by project order by count(*) desc limit 1").fetchone()[0]
    titles = [r[0] for r in conn.execute("select title from items order by random() limit 500")]
    conn.close()
    rng = random.Random(7)
    work = tempfile.mkdtemp()
    cwd = os.path.join(work, project)
    os.makedirs(cwd)
    prompts = []
    for _ in range(runs):
        words = rng.choice(titles).split()
        take = words[: rng.randint(3, min(6, len(words)))]
        prompts.append("please help me fix the " + " ".join(take) + " when it fails again")
    start, first, later, end = [], [], [], []
    for i in range(runs):
        s = str(uuid.uuid4())
        base = {"session_id": s, "cwd": cwd, "transcript_path": None}
        start.append(send(recall, library, {**base, "hook_event_name": "SessionStart",
                                            "source": "startup"})[0])
        first.append(send(recall, library, {**base, "hook_event_name": "UserPromptSubmit",
                                            "prompt": prompts[i]})[0])
        later.append(send(recall, library, {**base, "hook_event_name": "UserPromptSubmit",
                                            "prompt": prompts[(i + 1) % runs]})[0])
        path = os.path.join(work, f"{s}.jsonl")
        transcript(path, s, cwd, prompts[i].split()[5:8])
        ms, out = send(recall, library, {**base, "hook_event_name": "SessionEnd",
                                         "reason": "other", "transcript_path": path}, ["--json"])
        end.append(ms)
        wait_gone(json.loads(out)["pid"])
    print(f"{library}, {runs} runs, project {project}")
    print("| event | median ms | p95 ms | worst ms |\n|---|---|---|---|")
    stats("SessionStart", start)
    stats("first UserPromptSubmit", first)
    stats("later UserPromptSubmit", later)
    stats("SessionEnd (until the hook returns)", end)


def labeled():
    recall = arg("--recall", os.path.join(ROOT, "target/release/recall"))
    work = tempfile.mkdtemp()
    library = os.path.join(work, "code.db")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    subprocess.run([recall, "--db", library, "init"], check=True, capture_output=True, env=env)
    subprocess.run([recall, "--db", library, "import",
                    os.path.join(ROOT, "examples/code_library.jsonl")],
                   check=True, capture_output=True, env=env)
    items = [json.loads(l) for l in open(os.path.join(ROOT, "examples/code_library.jsonl"))]
    cases = [json.loads(l) for l in open(os.path.join(ROOT, "examples/code_first_prompts.jsonl"))]
    rows = {"earlier-work": [0, 0, 0, 0, 0], "nothing": [0, 0, 0, 0, 0]}
    for case in cases:
        expect = case["expect"]
        project = items[expect[0] - 1]["project"] if expect else "api"
        cwd = os.path.join(work, project)
        os.makedirs(cwd, exist_ok=True)
        base = {"session_id": case["id"], "cwd": cwd, "transcript_path": None}
        _, out = send(recall, library, {**base, "hook_event_name": "SessionStart",
                                        "source": "startup"}, ["--json"])
        shown_start = [r["id"] for r in json.loads(out)["results"]]
        _, out = send(recall, library, {**base, "hook_event_name": "UserPromptSubmit",
                                        "prompt": case["prompt"]}, ["--json"])
        shown_first = [r["id"] for r in json.loads(out)["results"]]
        row = rows["earlier-work" if expect else "nothing"]
        row[0] += 1
        row[1] += bool(set(expect) & set(shown_start))
        row[2] += bool(set(expect) & set(shown_first))
        row[3] += len(shown_start)
        row[4] += len(shown_first)
    print("| cases | n | expected item at start | expected item at first prompt | items at start | items at first prompt |")
    print("|---|---|---|---|---|---|")
    for name, (n, s, f, ns, nf) in rows.items():
        print(f"| {name} | {n} | {s} | {f} | {ns} | {nf} |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "labeled":
        labeled()
    elif len(sys.argv) > 2 and sys.argv[1] == "time":
        time_events(sys.argv[2])
    else:
        sys.exit(__doc__)
