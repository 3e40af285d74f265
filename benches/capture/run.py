#!/usr/bin/env python3
"""`make bench-capture`: the wall time of `recall capture` on a generated tree of agent
sessions (make_sessions.py), the first run and a second with nothing new, against a
baseline measured in the same run: `recall import` of the same text as JSON Lines.

Then many small sessions (--small N[,N…], 1,000, 2,000 and 10,000 by default, about
4 kB each): at each size, their first capture against `recall import` of the very items
that capture made, as a ratio in the same run (the cost a file: the transaction, its
commit, statements), each the median of --small-repeat runs; then the fixed cost of a
run (a capture of no file, an import of no line) and the cost a file above it.

Usage: run.py RECALL OUT [--sessions N] [--megabytes MB] [--seed S] [--repeat R]
              [--small N[,N…]] [--small-repeat R] [--small-only]
The trees are made once per seed and size and kept in OUT; each library is new.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class Run:
    """Wall seconds, CPU seconds (user and system) and peak resident MiB of one run."""

    def __init__(self, wall, cpu, peak):
        self.wall, self.cpu, self.peak = wall, cpu, peak


def timed(argv, env=None):
    """Runs argv; returns its Run (times and peak memory from wait4) and its output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        p = subprocess.Popen(argv, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        seconds = time.perf_counter() - started
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed ({p.returncode}): {err.read().decode()[-2000:]}")
        cpu = usage.ru_utime + usage.ru_stime
        return Run(seconds, cpu, usage.ru_maxrss // 1024), out.read().decode()


def tree(out, sessions, megabytes, seed):
    mark = os.path.join(out, f".made-{sessions}-{megabytes}-{seed}")
    if not os.path.exists(mark):
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([sys.executable, os.path.join(HERE, "make_sessions.py"), out, "--sessions", str(sessions),
                        "--megabytes", str(megabytes), "--seed", str(seed)], check=True)
        open(mark, "w").close()
    files = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs
             if f.endswith(".jsonl") and f != "import.jsonl"]
    return files, sum(os.path.getsize(f) for f in files)


def library(recall, out, name):
    db = os.path.join(out, name)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    subprocess.run([recall, "--db", db, "init"], check=True, stdout=subprocess.DEVNULL)
    return db


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("recall")
    ap.add_argument("out")
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--megabytes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--small", type=sizes, default=[1000, 2000, 10000])
    ap.add_argument("--small-repeat", type=int, default=1)
    ap.add_argument("--small-only", action="store_true")
    a = ap.parse_args()
    recall = os.path.abspath(a.recall)
    if not a.small_only:
        large(a, recall)
    if a.small:
        small(a, recall)


def sizes(text):
    """`1000,2000`: the numbers of small sessions, each a run of its own."""
    return [int(n) for n in text.split(",") if n.strip()]


def median(runs):
    """The run of the median wall time, and the median CPU time."""
    runs = sorted(runs, key=lambda r: r.wall)
    cpu = statistics.median(r.cpu for r in runs)
    return Run(runs[len(runs) // 2].wall, cpu, None)


def items_of(db, out):
    """Writes the items of library `db` as JSON Lines to `out` (what import reads)."""
    import sqlite3
    conn = sqlite3.connect(db)
    fields = ("source", "project", "title", "summary", "questions", "atoms", "occurred_at", "transcript")
    n = 0
    with open(out, "w", encoding="utf-8") as f:
        for row in conn.execute(f"select {', '.join(fields)} from items order by id"):
            f.write(json.dumps({k: v for k, v in zip(fields, row) if v is not None}) + "\n")
            n += 1
    conn.close()
    return n


def small_tree(out, n, seed):
    """`n` small Claude Code sessions (a prompt, a tool call and its result, an answer;
    about 3 kB, with the metadata every record carries), made once."""
    import random
    import uuid
    mark = os.path.join(out, f".made-small-{n}-{seed}")
    if not os.path.exists(mark):
        shutil.rmtree(out, ignore_errors=True)
        rng = random.Random(seed)
        words = ("retry cache config parser session token handler request build test module "
                 "index search query schema migration import export client server worker queue "
                 "timeout value option result vector buffer stream path folder commit branch").split()
        for i in range(n):
            project = f"project-{i % 25}"
            folder = os.path.join(out, "claude", "projects", f"-home-dev-{project}")
            os.makedirs(folder, exist_ok=True)
            sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            day = 1 + i % 28
            said = lambda k: " ".join(rng.choice(words) for _ in range(k))
            base = {"sessionId": sid, "cwd": f"/home/dev/{project}", "version": "2.0.14",
                    "gitBranch": "main", "userType": "external", "isSidechain": False}
            uuids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(4)]
            at = lambda m: f"2025-03-{day:02d}T10:{m:02d}:00.000Z"
            tool = f"toolu_{i:08d}"
            output = "\n".join(f"src/{rng.choice(words)}.rs:{rng.randint(1, 400)}: {said(8)}" for _ in range(12))
            records = [
                dict(base, type="user", uuid=uuids[0], parentUuid=None, timestamp=at(0),
                     message={"role": "user", "content": f"Why does the {said(2)} fail in {project} session {i}? {said(20)}"}),
                dict(base, type="assistant", uuid=uuids[1], parentUuid=uuids[0], timestamp=at(1),
                     message={"role": "assistant", "model": "claude-sonnet-4-5", "content": [
                         {"type": "text", "text": said(30)},
                         {"type": "tool_use", "id": tool, "name": "Grep", "input": {"pattern": said(2)}}]}),
                dict(base, type="user", uuid=uuids[2], parentUuid=uuids[1], timestamp=at(2),
                     message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool, "content": output}]},
                     toolUseResult={"stdout": output, "stderr": "", "interrupted": False}),
                dict(base, type="assistant", uuid=uuids[3], parentUuid=uuids[2], timestamp=at(3),
                     message={"role": "assistant", "model": "claude-sonnet-4-5", "content": [
                         {"type": "text", "text": f"The {said(2)} needed {said(40)}"}]}),
            ]
            with open(os.path.join(folder, f"{sid}.jsonl"), "w", encoding="utf-8") as f:
                for r in records:
                    f.write(json.dumps(r) + "\n")
        open(mark, "w").close()
    files = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs if f.endswith(".jsonl")
             and not f.startswith("captured-")]
    return files, sum(os.path.getsize(f) for f in files)


def small(a, recall):
    """At each size, the first capture of small sessions and the import of its items;
    then the cost of a run with nothing to do and the cost a file above it."""
    env = dict(os.environ)
    for k in ("RECALL_DB", "RECALL_CONFIG", "RECALL_TOKENIZER"):
        env.pop(k, None)
    rows = []
    for n in a.small:
        out = os.path.join(a.out, f"small-{n}")
        files, size = small_tree(out, n, a.seed)
        print(f"\nsmall sessions: {n} sessions in {len(files)} files, {size / 1e6:.0f} MB ({out})")
        here = dict(env, CLAUDE_CONFIG_DIR=os.path.join(out, "claude"), CODEX_HOME=os.path.join(out, "codex"))
        captures, imports = [], []
        for _ in range(a.small_repeat):
            db = library(recall, out, "capture.db")
            run, text = timed([recall, "--db", db, "--json", "capture"], here)
            doc = json.loads(text)
            assert doc["files"] == len(files) and doc["added"] == n, doc
            captures.append(run)
            items = os.path.join(out, "captured-items.jsonl")
            count = items_of(db, items)
            imported = library(recall, out, "import.db")
            run, _ = timed([recall, "--db", imported, "--json", "import", items], here)
            imports.append(run)
        first, baseline = median(captures), median(imports)
        of = f" (median of {a.small_repeat})" if a.small_repeat > 1 else ""
        print(f"first capture{of}: {first.wall:.3f} s wall, {first.cpu:.3f} s CPU; {doc['files']} files, {doc['added']} items")
        print(f"import of the same {count} items{of}: {baseline.wall:.3f} s wall, {baseline.cpu:.3f} s CPU")
        print(f"small sessions, first capture / import of its items: wall {first.wall / baseline.wall:.2f}, "
              f"CPU {first.cpu / baseline.cpu:.2f} (target: under 2)")
        rows.append((n, first, baseline))

    # The cost of a run that has nothing to do: starting, opening the library, looking
    # for session files (none) or reading an empty file.
    empty = os.path.join(a.out, "small-empty")
    os.makedirs(os.path.join(empty, "claude", "projects"), exist_ok=True)
    open(os.path.join(empty, "empty.jsonl"), "w").close()
    here = dict(env, CLAUDE_CONFIG_DIR=os.path.join(empty, "claude"), CODEX_HOME=os.path.join(empty, "codex"))
    idle_capture, idle_import = [], []
    for _ in range(max(a.small_repeat, 5)):
        db = library(recall, empty, "capture.db")
        idle_capture.append(timed([recall, "--db", db, "--json", "capture"], here)[0])
        db = library(recall, empty, "import.db")
        idle_import.append(timed([recall, "--db", db, "--json", "import", os.path.join(empty, "empty.jsonl")], here)[0])
    c0, i0 = median(idle_capture), median(idle_import)
    print(f"\nfixed cost a run (nothing to do, median of {len(idle_capture)}): capture {c0.wall * 1000:.0f} ms wall "
          f"({c0.cpu * 1000:.0f} ms CPU), import {i0.wall * 1000:.0f} ms wall ({i0.cpu * 1000:.0f} ms CPU)")
    print(f"{'files':>6}  {'capture':>9}  {'import':>9}  {'wall':>5}  {'CPU':>5}  "
          f"{'capture a file':>15}  {'import an item':>15}")
    for n, first, baseline in rows:
        print(f"{n:>6}  {first.wall:7.3f} s  {baseline.wall:7.3f} s  {first.wall / baseline.wall:5.2f}  "
              f"{first.cpu / baseline.cpu:5.2f}  {(first.wall - c0.wall) / n * 1e6:9.0f} µs  "
              f"{(baseline.wall - i0.wall) / n * 1e6:10.0f} µs")
    if len(rows) > 1:
        # Least squares over the sizes: wall = per run + per file × files.
        for name, col in (("capture", 1), ("import", 2)):
            xs = [r[0] for r in rows]
            ys = [r[col].wall for r in rows]
            slope, intercept = statistics.linear_regression(xs, ys)
            print(f"{name}, fitted over the sizes: {intercept * 1000:.0f} ms a run + {slope * 1e6:.0f} µs a file")


def large(a, recall):
    files, size = tree(a.out, a.sessions, a.megabytes, a.seed)
    print(f"tree: {a.sessions} sessions in {len(files)} files, {size / 1e6:.0f} MB ({a.out})")
    # The agents' default places, as a user's machine has them.
    env = dict(os.environ, CLAUDE_CONFIG_DIR=os.path.join(a.out, "claude"), CODEX_HOME=os.path.join(a.out, "codex"))
    for k in ("RECALL_DB", "RECALL_CONFIG", "RECALL_TOKENIZER"):
        env.pop(k, None)
    rows = []

    # The floor: reading the bytes.
    started = time.perf_counter()
    for f in files:
        with open(f, "rb") as fh:
            while fh.read(1 << 20):
                pass
    rows.append(("read the files (no parsing)", Run(time.perf_counter() - started, None, None), ""))

    db = library(recall, a.out, "import.db")
    baseline, _ = timed([recall, "--db", db, "--json", "import", os.path.join(a.out, "import.jsonl")], env)
    rows.append(("baseline: recall import of the same text (an item a file)", baseline, ""))

    db = library(recall, a.out, "capture.db")
    first, out = timed([recall, "--db", db, "--json", "capture"], env)
    doc = json.loads(out)
    rows.append(("first capture", first, f"{doc['files']} files, {doc['segments']} segments, {doc['added']} items"))

    again = []
    for _ in range(a.repeat):
        run, out = timed([recall, "--db", db, "--json", "capture"], env)
        doc = json.loads(out)
        assert doc["files"] == 0 and doc["added"] == 0, doc
        again.append(run)
    median = sorted(again, key=lambda r: r.wall)[len(again) // 2]
    rows.append((f"second capture, nothing new (median of {a.repeat})", median,
                 f"max {max(r.wall for r in again):.3f} s; {doc['files_unchanged']} files unchanged"))

    # Every file touched: read again whole, each segment found the same (what the
    # recorded sizes and times save a second run).
    now = time.time()
    for f in files:
        os.utime(f, (now, now))
    touched, out = timed([recall, "--db", db, "--json", "capture"], env)
    doc = json.loads(out)
    rows.append(("every file touched, nothing changed", touched,
                 f"{doc['files']} files read, {doc['unchanged']} items unchanged"))

    width = max(len(r[0]) for r in rows)
    print(f"{'':<{width}}  {'wall':>9}  {'CPU':>9}  {'memory':>8}")
    for name, run, note in rows:
        cpu = f"{run.cpu:7.3f} s" if run.cpu is not None else ""
        mem = f"{run.peak} MiB" if run.peak is not None else ""
        print(f"{name:<{width}}  {run.wall:7.3f} s  {cpu:>9}  {mem:>8}  {note}")
    print(f"first capture / import baseline: wall {first.wall / baseline.wall:.2f}, CPU {first.cpu / baseline.cpu:.2f}")
    print(f"throughput (MB of session files a CPU second): capture {size / 1e6 / first.cpu:.1f}, import {size / 1e6 / baseline.cpu:.1f}")
    print(f"second capture: {median.wall * 1000:.0f} ms wall (target: under 1 s), first / second: {first.wall / median.wall:.0f}")

if __name__ == "__main__":
    main()
