#!/usr/bin/python3
"""Times each event of `recall hook`, the whole process, as an agent runs it, against
process start; checks that two builds give the first prompts the same answers; shows what
the hook gives the labeled first prompts (docs/performance.md#the-session-hook).

  benches/hook_events.py time LIBRARY [--recall target/release/recall] [--runs 40] [--cold]
  benches/hook_events.py compare LIBRARY --against OTHER_RECALL [--recall ...] [--runs 40]
  benches/hook_events.py labeled [--recall target/release/recall] [--against OTHER_RECALL]
  benches/hook_events.py shapes [--sizes 10000,50000,100000] [--exponents 1.0,1.3]
      [--lengths short,long] [--tokenizers trigram,recall] [--runs 40] [--recall ...]
      [--against OTHER_RECALL] [--only NAME_PART] [--no-others] [--cold]

`time` runs on a copy-free library (the scale benchmark's, target/scale/): it migrates it
to this build's schema, adds the session state file beside it, and the sessions it
captures to it. Each run is a new
session that sends the events of EVENTS in order (one line each): SessionStart in the
largest project's folder; its first UserPromptSubmit (prompts of 3-6 words of the
library's titles in an English sentence, every other one with a new word made of two of
them, the same prompts on every run of the benchmark);
a later prompt; PostToolUse for a Read of a file that an item of the project names, for
the same file again, and for a file no item names; PreToolUse for an Edit of another file an
item names, for a Bash command items ran (one of the library's command atoms; where it
holds none, `cargo test --workspace`, which every session of the benchmark runs in its
transcript, failing in every other one, so that the runs after the first find the
sessions before them) and one no item ran; PostToolUseFailure of that command with an
error line items hold; SessionEnd of the session's transcript,
timed until the hook returns (each detached capture is waited for, untimed, before the
next run). Before each event, `recall --version` is timed: process start under the same
moment's load. The library's files are read once before the first run, as a library the
hook reads at every event is in the system's file cache (`--cold` leaves them to be read
from the disk by the runs, as after a reboot or other work). Prints the median, the 95th percentile and the worst of each event in
milliseconds, and the median and p95 as ratios to process start's.

`compare` sends each benchmark prompt as a session's first, in the largest project's
folder, to both builds and fails unless every answer has the same ids in the same order.
(benches/related_answers.py compares the answers on the labeled sets, LoCoMo and the
shapes, with and without a project.)

`labeled` builds a library of examples/code_library.jsonl and sends each case of
examples/code_first_prompts.jsonl as a session in the folder of its expected item's
project ("api" for the cases expecting nothing): whether the start block and the first
prompt show the expected item, and how many items they show. With `--against`, the other
build's answer to each first prompt must be the same.

`shapes` builds (once, cached in target/hook-shapes/) libraries of several shapes and runs
`time` on each, then prints the first prompt's p50 and p95 over process start for every
shape in one table: Zipf vocabularies (`make_zipf`) of each exponent and word-length
regime, at each size, under each tokenizer; the bundled sample (examples/sample.jsonl);
and a library of captured sessions (benches/capture/make_sessions.py, 200 sessions).
With `--against`, each shape's first prompts are also compared with the other build's
(`compare`). `--only` runs the shapes whose name holds its text; `--no-others` leaves out
the sample and the captured sessions.
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


def send(recall, library, payload, extra=(), quiet_ok=False):
    started = time.perf_counter()
    out = subprocess.run(
        [recall, "--db", library, *extra, "hook"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("RECALL_")},
    )
    elapsed = (time.perf_counter() - started) * 1000
    # An event the hook does not answer yet exits 0 with a note on stderr.
    if out.returncode != 0 or (out.stderr and not quiet_ok):
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


def transcript(path, session, cwd, words, command, error, failed):
    """A Claude Code session that asks about `words` and runs `command`, which fails
    with `error` or works: captured at SessionEnd, it is an item of the command (and of
    the error) for the sessions after it."""
    rec = lambda kind, at, message: json.dumps({
        "type": kind, "sessionId": session, "cwd": cwd, "timestamp": at,
        "isSidechain": False, "uuid": f"{kind}-{at}", "message": message})
    result = ({"type": "tool_result", "tool_use_id": "toolu_bench1", "is_error": True,
               "content": "Exit code 1\n" + error} if failed else
              {"type": "tool_result", "tool_use_id": "toolu_bench1", "content": "ok"})
    with open(path, "w") as f:
        f.write(rec("user", "2026-01-01T10:00:00.000Z",
                    {"role": "user", "content": "Why does " + " ".join(words) + " fail?"}) + "\n")
        f.write(rec("assistant", "2026-01-01T10:00:30.000Z",
                    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_bench1",
                                                       "name": "Bash",
                                                       "input": {"command": command}}]}) + "\n")
        f.write(rec("user", "2026-01-01T10:00:40.000Z", {"role": "user", "content": [result]}) + "\n")
        f.write(rec("assistant", "2026-01-01T10:01:00.000Z",
                    {"role": "assistant", "content": [{"type": "text", "text": "Fixed it."}]}) + "\n")


def percentile(ms, q):
    ms = sorted(ms)
    return ms[min(len(ms) - 1, round(q * (len(ms) - 1)))]


def read_payload(base, path):
    return {**base, "permission_mode": "default", "hook_event_name": "PostToolUse",
            "tool_name": "Read", "tool_input": {"file_path": path},
            "tool_response": {"type": "text", "file": {"filePath": path, "content": "",
                                                       "numLines": 0, "startLine": 1,
                                                       "totalLines": 0}},
            "tool_use_id": "toolu_" + uuid.uuid4().hex[:24]}


def bash_payload(base, event, command, error=None):
    """Claude Code's PreToolUse or PostToolUseFailure of its Bash tool."""
    p = {**base, "permission_mode": "default", "hook_event_name": event, "tool_name": "Bash",
         "tool_input": {"command": command, "description": "run it"},
         "tool_use_id": "toolu_" + uuid.uuid4().hex[:24]}
    if error is not None:
        p.update(error=error, is_interrupt=False)
    return p


def edit_payload(base, path):
    """Claude Code's PreToolUse of its Edit tool."""
    return {**base, "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Edit", "tool_input": {"file_path": path, "old_string": "a",
                                                "new_string": "b"},
            "tool_use_id": "toolu_" + uuid.uuid4().hex[:24]}


# The events of one session, in order: (name, payload(run) -> (payload, flags)).
# `run` holds the session's base payload, its prompts and paths; adding an event is one
# line here.
EVENTS = [
    ("SessionStart", lambda r: ({**r["base"], "hook_event_name": "SessionStart",
                                 "source": "startup"}, [])),
    ("first UserPromptSubmit", lambda r: ({**r["base"], "hook_event_name": "UserPromptSubmit",
                                           "prompt": r["prompt"]}, [])),
    ("later UserPromptSubmit", lambda r: ({**r["base"], "hook_event_name": "UserPromptSubmit",
                                           "prompt": r["next_prompt"]}, [])),
    ("PostToolUse Read, a file an item names", lambda r: (read_payload(r["base"], r["named"]), [])),
    ("PostToolUse Read, the same file again", lambda r: (read_payload(r["base"], r["named"]), [])),
    ("PostToolUse Read, a file no item names", lambda r: (read_payload(r["base"], r["unnamed"]), [])),
    ("PreToolUse Edit, a file an item names", lambda r: (edit_payload(r["base"], r["named_edit"]), [])),
    ("PreToolUse Bash, a command items ran", lambda r: (bash_payload(r["base"], "PreToolUse", r["command"]), [])),
    ("PreToolUse Bash, a command no item ran", lambda r: (bash_payload(r["base"], "PreToolUse",
                                                                       "zqxw deploy --stage N"), [])),
    ("PostToolUseFailure Bash, an error items met", lambda r: (bash_payload(
        r["base"], "PostToolUseFailure", r["command"], "Exit code 1\n" + r["error"]), [])),
    ("SessionEnd (until the hook returns)", lambda r: ({**r["base"], "hook_event_name": "SessionEnd",
                                                        "reason": "other",
                                                        "transcript_path": r["transcript"]},
                                                       ["--json"])),
]


def time_version(recall):
    started = time.perf_counter()
    subprocess.run([recall, "--version"], capture_output=True, check=True)
    return (time.perf_counter() - started) * 1000


def bench_prompts(conn, runs):
    """Prompts of 3-6 words of the library's titles in an English sentence, the same
    ones on every run of the benchmark (seeded, items picked by id). Every other prompt
    also holds a new word, as a person's prompt does: its first word and the start of
    its last one, joined (a name the library has not met, made of its own letters)."""
    ids = [r[0] for r in conn.execute("select id from items order by id")]
    rng = random.Random(7)
    prompts = []
    for n, i in enumerate(rng.sample(ids, runs)):
        words = conn.execute("select title from items where id = ?", (i,)).fetchone()[0].split()
        take = words[: rng.randint(3, min(6, len(words)))]
        if n % 2 == 1:
            take.append(take[0] + take[-1][:4])
        prompts.append("please help me fix the " + " ".join(take) + " when it fails again")
    return prompts


def warm(library):
    """Reads the library's files once, so that the runs find them in the file cache (the
    benchmark's libraries together are more than some machines keep there: each shape's
    runs would otherwise start on pages another shape's runs pushed out)."""
    for suffix in ("", "-wal"):
        if os.path.exists(library + suffix):
            with open(library + suffix, "rb") as f:
                while f.read(1 << 20):
                    pass


def time_events(library, runs=None):
    recall = arg("--recall", os.path.join(ROOT, "target/release/recall"))
    runs = runs or int(arg("--runs", "40"))
    # A library the scale benchmark made before this build's schema.
    subprocess.run([recall, "--db", library, "migrate"], capture_output=True, check=True)
    conn = sqlite3.connect(f"file:{library}?mode=ro", uri=True)
    project = conn.execute(
        "select project from items group by project order by count(*) desc limit 1").fetchone()[0]
    prompts = bench_prompts(conn, runs)
    # A file that an item of the project names (its atoms list paths, one a line).
    named = [l for (a,) in conn.execute(
        "select atoms from items where project = ? and atoms like '%src/%' limit 50", (project,))
        for l in a.splitlines() if l.startswith("src/")] or ["src/no_item/names_any.rs"]
    # A command and an error line items hold among their atoms (capture writes the
    # commands a session ran and the error lines of its failed calls there); a library
    # without them gets a command and an error nobody met, still timed.
    atoms = [l for (a,) in conn.execute(
        "select atoms from items where project = ? and atoms <> '' limit 2000", (project,))
        for l in a.splitlines()]
    programs = ("cargo ", "npm ", "python", "pytest", "make", "go ", "git ", "docker ")
    command = next((l for l in atoms if l.startswith(programs)), "cargo test --workspace")
    error = next((l for l in atoms if "rror" in l), "error: no item met this error")
    conn.close()
    if "--cold" not in sys.argv:
        warm(library)
    work = tempfile.mkdtemp()
    cwd = os.path.join(work, project)
    os.makedirs(cwd)
    times = {name: [] for name, _ in EVENTS}
    versions = []
    for i in range(runs):
        s = str(uuid.uuid4())
        path = os.path.join(work, f"{s}.jsonl")
        transcript(path, s, cwd, prompts[i].split()[5:8], command, error, failed=i % 2 == 0)
        r = {"base": {"session_id": s, "cwd": cwd, "transcript_path": path},
             "prompt": prompts[i], "next_prompt": prompts[(i + 1) % runs],
             "named": os.path.join(cwd, named[i % len(named)]),
             "named_edit": os.path.join(cwd, named[(i + 1) % len(named)]),
             "command": command, "error": error,
             "unnamed": os.path.join(cwd, "src", "no_item_names_this", f"file_{i}.rs"),
             "transcript": path}
        for name, make in EVENTS:
            # Process start, interleaved with the events: the same moment's load.
            versions.append(time_version(recall))
            payload, flags = make(r)
            ms, out = send(recall, library, payload, flags,
                           quiet_ok=name.startswith(("PostToolUse", "PreToolUse")))
            times[name].append(ms)
            if payload["hook_event_name"] == "SessionEnd":
                wait_gone(json.loads(out)["pid"])
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    v50, v95 = statistics.median(versions), percentile(versions, 0.95)
    print(f"{library}, {runs} runs, project {project}, load average {' '.join(load)}, "
          + ("files from the disk" if "--cold" in sys.argv else "files read once before"))
    print(f"process start (`recall --version`, {len(versions)} runs): median {v50:.1f} ms, "
          f"p95 {v95:.1f} ms, worst {max(versions):.1f} ms")
    print("| event | median ms | p95 ms | worst ms | median / start | p95 / start |")
    print("|---|---|---|---|---|---|")
    ratios = {}
    for name, _ in EVENTS:
        ms = times[name]
        m50, m95 = statistics.median(ms), percentile(ms, 0.95)
        ratios[name] = (m50 / v50, m95 / v95)
        print(f"| {name} | {m50:.1f} | {m95:.1f} | {max(ms):.1f} | {m50 / v50:.1f}x | {m95 / v95:.1f}x |")
    sys.stdout.flush()
    return ratios


def compare(library, runs=None):
    """The first prompts' answers of two builds, prompt by prompt: the ids and their order
    must be the same."""
    recall = arg("--recall", os.path.join(ROOT, "target/release/recall"))
    other = arg("--against", None)
    runs = runs or int(arg("--runs", "40"))
    if other is None:
        sys.exit("compare needs --against OTHER_RECALL (e.g. a build of main)")
    conn = sqlite3.connect(f"file:{library}?mode=ro", uri=True)
    prompts = bench_prompts(conn, runs)
    # Sessions in the largest project's folder, as `time` runs them.
    project = conn.execute(
        "select project from items group by project order by count(*) desc limit 1").fetchone()[0]
    conn.close()
    cwd = os.path.join(tempfile.mkdtemp(), project)
    os.makedirs(cwd)
    differ = 0
    answered = 0
    for prompt in prompts:
        got = []
        for binary in (recall, other):
            payload = {"session_id": str(uuid.uuid4()), "cwd": cwd, "transcript_path": None,
                       "hook_event_name": "UserPromptSubmit", "prompt": prompt}
            _, out = send(binary, library, payload, ["--json"])
            got.append([r["id"] for r in json.loads(out)["results"]])
        answered += bool(got[0])
        if got[0] != got[1]:
            differ += 1
            print(f"differ: {prompt!r}: {got[0]} vs {got[1]}")
    print(f"{len(prompts)} first prompts, {answered} answered, {differ} answers differ")
    sys.stdout.flush()
    return differ


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
    cases = [c for c in cases if "items" not in c]  # the first line names the items file
    rows = {"earlier-work": [0, 0, 0, 0, 0], "nothing": [0, 0, 0, 0, 0]}
    other = arg("--against", None)
    differ = 0
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
        if other:
            _, out = send(other, library, {**base, "session_id": case["id"] + "-other",
                                           "hook_event_name": "UserPromptSubmit",
                                           "prompt": case["prompt"]}, ["--json"])
            theirs = [r["id"] for r in json.loads(out)["results"]]
            if theirs != shown_first:
                differ += 1
                print(f"differ: case {case['id']}: {shown_first} vs {theirs}")
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
    if other:
        print(f"{len(cases)} cases, {differ} first-prompt answers differ from {other}")
        if differ:
            sys.exit(1)


# The syllables the Zipf vocabularies' words are made of: few, so that the words share
# most of their trigrams, as English and code words do.
SYLLABLES = ("ka lo mi ne ru sa to vi de po ga li mo ta re si no be da fu ke pa zo ri ma "
             "te cho bri stu pla").split()
# Word-length regimes: syllables per word.
LENGTHS = {"short": (1, 3), "long": (2, 4)}
PROJECTS = ["atlas", "borealis", "cobalt-api", "dynamo", "ember-web", "fjord", "granite",
            "helix-ml"]


def make_zipf(path, items, exponent, length, vocabulary=20000, seed=11):
    """JSON Lines of `items` items whose words follow a Zipf law of `exponent` over a
    vocabulary of made-up words of `length`'s syllables: titles of 4-10 words, summaries
    of 20-50, a question, atoms naming an error line and a file; 8 projects of very
    different sizes; three years of dates."""
    rng = random.Random(seed)
    low, high = LENGTHS[length]
    words, seen = [], set()
    while len(words) < vocabulary:
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(low, high)))
        if len(w) >= 3 and w not in seen:
            seen.add(w)
            words.append(w)
    weights = [1 / (r + 1) ** exponent for r in range(vocabulary)]
    cum, acc = [], 0.0
    for w in weights:
        acc += w
        cum.append(acc)
    pick = lambda n: " ".join(rng.choices(words, cum_weights=cum, k=n))
    project_cum, acc = [], 0.0
    for p in range(len(PROJECTS)):
        acc += 1 / (p + 1) ** 1.1
        project_cum.append(acc)
    with open(path, "w") as f:
        for _ in range(items):
            project = rng.choices(PROJECTS, cum_weights=project_cum)[0]
            at = 1_672_531_200 + rng.randrange(3 * 365 * 86400)
            f.write(json.dumps({
                "source": rng.choice(["agent-claude", "agent-codex", "notes"]),
                "project": project,
                "title": pick(rng.randint(4, 10)),
                "summary": pick(rng.randint(20, 50)),
                "questions": [pick(rng.randint(3, 8)) + "?"],
                "atoms": [f"{pick(2)} failed: exit 1", f"src/{pick(1)}/{pick(1)}.rs"],
                "occurred_at": at}) + "\n")


def build(recall, path, tokenizer, imports=(), sessions=None):
    """A library at `path` (kept if there): `init`, then each JSON Lines file imported, or
    the session tree captured."""
    if os.path.exists(path):
        return
    env = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    tmp = path + ".building"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    # `trigram` is the default trigram tokenizer, as `recall init` makes it.
    spec = "trigram remove_diacritics 1" if tokenizer == "trigram" else tokenizer
    subprocess.run([recall, "--db", tmp, "init", "--tokenizer", spec], check=True,
                   capture_output=True, env=env)
    for f in imports:
        subprocess.run([recall, "--db", tmp, "import", f], check=True, capture_output=True,
                       env=env)
    if sessions:
        env = {**env, "CLAUDE_CONFIG_DIR": os.path.join(sessions, "claude"),
               "CODEX_HOME": os.path.join(sessions, "codex")}
        subprocess.run([recall, "--db", tmp, "capture"], check=True, capture_output=True,
                       env=env)
    subprocess.run([recall, "--db", tmp, "sql", "--write",
                    "insert into items_fts(items_fts) values ('optimize')"],
                   check=True, capture_output=True, env=env)
    os.rename(tmp, path)


def shapes():
    recall = arg("--recall", os.path.join(ROOT, "target/release/recall"))
    runs = int(arg("--runs", "40"))
    sizes = [int(n) for n in arg("--sizes", "10000,50000,100000").split(",")]
    exponents = arg("--exponents", "1.0,1.3").split(",")
    lengths = arg("--lengths", "short,long").split(",")
    tokenizers = arg("--tokenizers", "trigram,recall").split(",")
    work = os.path.join(ROOT, "target", "hook-shapes")
    os.makedirs(work, exist_ok=True)
    libraries = []
    for tokenizer in tokenizers:
        for exponent in exponents:
            for length in lengths:
                for n in sizes:
                    name = f"zipf{exponent}-{length}-{n}-{tokenizer}"
                    items = os.path.join(work, f"zipf{exponent}-{length}-{n}.jsonl")
                    if not os.path.exists(items):
                        make_zipf(items + ".tmp", n, float(exponent), length)
                        os.rename(items + ".tmp", items)
                    libraries.append((name, lambda p, t=tokenizer, i=items: build(
                        recall, p, t, [i])))
    if "--no-others" not in sys.argv:
        libraries.append(("sample", lambda p: build(
            recall, p, "trigram", [os.path.join(ROOT, "examples/sample.jsonl")])))

        def captured(p):
            tree = os.path.join(work, "sessions")
            if not os.path.exists(tree):
                subprocess.run([sys.executable, os.path.join(ROOT, "benches/capture/make_sessions.py"),
                                tree, "--sessions", "200", "--megabytes", "40"],
                               check=True, capture_output=True)
            build(recall, p, "trigram", sessions=tree)
        libraries.append(("captured sessions", captured))
    only = arg("--only", None)
    summary = []
    for name, make in libraries:
        if only and only not in name:
            continue
        path = os.path.join(work, name.replace(" ", "-") + ".db")
        make(path)
        # A fresh session state each time: every run's first prompt is a first one.
        for suffix in (".sessions", ".sessions-wal", ".sessions-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        print(f"\n### {name}")
        ratios = time_events(path, runs)
        differ = compare(path, runs) if arg("--against", None) else None
        summary.append((name, ratios, differ))
    print("\n| library | first prompt: median / start | p95 / start | other events' worst p95 / start |"
          + (" answers differing |" if arg("--against", None) else ""))
    print("|---|---|---|---|" + ("---|" if arg("--against", None) else ""))
    for name, ratios, differ in summary:
        first = ratios["first UserPromptSubmit"]
        others = max(r[1] for e, r in ratios.items() if e != "first UserPromptSubmit")
        print(f"| {name} | {first[0]:.1f}x | {first[1]:.1f}x | {others:.1f}x |"
              + (f" {differ} |" if differ is not None else ""))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "labeled":
        labeled()
    elif len(sys.argv) > 2 and sys.argv[1] == "time":
        time_events(sys.argv[2])
    elif len(sys.argv) > 2 and sys.argv[1] == "compare":
        if compare(sys.argv[2]):
            sys.exit(1)
    elif len(sys.argv) > 1 and sys.argv[1] == "shapes":
        shapes()
    else:
        sys.exit(__doc__)
