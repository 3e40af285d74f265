"""Whole sessions of the real Claude Code and Codex CLI with recall wired in by `recall setup`.

For each agent: a fresh HOME, a git repository with a small project, recall set up as the
README says (`recall --db LIB setup AGENT`), then three sessions in a row against a local
stand-in for the agent's model API (standin.py), which answers from a script and records
every request. The checks assert on what reached the model and on the library; each is
printed as `ok` or `FAIL`, and the run ends with `N passed, N failed` (exit 1 on a failure).

    /usr/bin/python3 tests/agents/run.py [--agent claude-code|codex] [--recall PATH]
        [--newest] [--results FILE] [--compare PINNED NEWEST]

Each run's folder (under RUNS, AGENT-VERSION-…) keeps HOME, the recorded requests
(requests.jsonl) and each command's output (commands.log), for reading after a failure.
docs/testing.md#the-real-agents describes the suite.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import codex_trust  # noqa: E402
import install  # noqa: E402
import project  # noqa: E402
from agents import AGENTS  # noqa: E402
from home import Home, diff_trees, file_diff, record_types, tree_hashes  # noqa: E402
from model_view import blocks, texts, usage  # noqa: E402
from standin import StandIn  # noqa: E402

# Runs live outside the repository: Claude Code loads the .mcp.json of every folder above
# its working folder, and this repository's (the plugin's `recall mcp`) would replace the
# server setup wired. Not under /tmp either: Codex refuses to make its helper commands
# under a temporary folder.
RUNS = "/var/tmp/sqlite-recall-agents"
# Runs of one agent kept (the newest), so that the folder does not grow with every run.
KEEP_RUNS = 3
# The files `recall setup` writes in HOME (docs/cli.md, Setting up an agent).
SETUP_FILES = {".claude/settings.json", ".claude.json", ".codex/hooks.json", ".codex/config.toml"}
# The notices of a failure the session start may carry (docs/cli.md, Status).
FAILURE_NOTICES = ("the session hook failed", "the last capture failed")


class Checks:
    """Named checks, printed as they are made."""

    def __init__(self):
        self.results = []
        # What a run found beside the checks (versions, record types), for --compare.
        self.facts = {}

    def check(self, name, ok, detail=""):
        self.results.append({"name": name, "ok": bool(ok), "detail": detail})
        line = f"{'ok  ' if ok else 'FAIL'} {name}"
        if detail and not ok:
            line += f"\n       {detail}"
        print(line, flush=True)
        return ok

    def summary(self):
        passed = sum(r["ok"] for r in self.results)
        return passed, len(self.results) - passed


def conv(standin, label):
    return [r for r in standin.records(label) if r["conversation"]]


def prune(runs_root, name):
    """Removes all but the newest KEEP_RUNS - 1 runs of NAME, before a new one."""
    pattern = re.compile("^" + re.escape(name) + r"-\d[^/]*-\w{8}$")
    runs = sorted((os.path.getmtime(p), p) for p in
                  (os.path.join(runs_root, f) for f in os.listdir(runs_root))
                  if pattern.search(os.path.basename(p)) and os.path.isdir(p))
    for _, path in runs[:max(0, len(runs) - (KEEP_RUNS - 1))]:
        shutil.rmtree(path, ignore_errors=True)


def run_agent(agent_cls, version, exe, recall, runs_root, checks):
    name = agent_cls.name
    prune(runs_root, name)
    folder = tempfile.mkdtemp(prefix=f"{name}-{version}-", dir=runs_root)
    print(f"== {name} {version} ({folder})", flush=True)
    run = Home(name, version, exe, recall, folder)
    record_path = os.path.join(folder, "requests.jsonl")
    with StandIn(agent_cls.api, record_path) as standin:
        agent = agent_cls(run, standin)
        agent.prepare()
        prefix = f"{name}:"

        # A HOME the agent has used once, before recall: its own files as it writes them.
        standin.play("warm-up", [{"text": "hello"}])
        warm = agent.session("say hello")
        checks.check(f"{prefix} the agent runs against the stand-in (warm-up session)",
                     warm.returncode == 0 and conv(standin, "warm-up"),
                     f"exit {warm.returncode}: {warm.stderr.strip()[-400:]}")

        problem = agent.personal_settings()
        checks.check(f"{prefix} the person's own settings are written", problem is None,
                     problem or "")

        init = run.sh([run.recall, "--db", run.lib, "init"])
        checks.check(f"{prefix} recall init", init.returncode == 0, init.stderr.strip())

        # setup then --remove on that HOME: every file back byte for byte, and of recall's
        # files only the backups docs/cli.md documents (FILE.recall-backup: what the file
        # held before recall's last change, here the file as setup wrote it).
        skip = (os.path.relpath(run.repo, run.home),)
        before = tree_hashes(run.home, skip)
        kept = read_files(run.home, SETUP_FILES)
        s = run.sh([run.recall, "--db", run.lib, "setup", name])
        written = read_files(run.home, SETUP_FILES)
        r = run.sh([run.recall, "setup", name, "--remove"])
        after = tree_hashes(run.home, skip)
        d = diff_trees(before, after)
        # Files the agent's own program made or wrote (setup runs Codex's app server, which
        # opens Codex's own databases: their -shm and -wal change) are listed as the
        # agent's; none may be a file recall writes.
        theirs = agent_files(agent_cls, d["added"] + d["changed"])
        backups = {f + ".recall-backup": f for f in written}
        left = read_files(run.home, [f for f in d["added"] if f in backups])
        wrong = [b for b, data in left.items() if data != written[backups[b]]]
        d["added"] = [f for f in d["added"] if f not in theirs and f not in left]
        d["changed"] = [f for f in d["changed"] if f not in theirs]
        diffs = "".join(file_diff(run.home, rel, kept[rel]) for rel in d["changed"] if rel in kept)
        checks.check(f"{prefix} `setup` then `setup --remove` gives every file back byte for byte "
                     "and leaves of recall's only the backups",
                     s.returncode == 0 and r.returncode == 0 and not any(d.values()) and not wrong,
                     f"setup exit {s.returncode}, remove exit {r.returncode}: {d}; "
                     f"backups not holding the file as setup wrote it: {wrong}\n{diffs}")
        print(f"       backups left: {', '.join(sorted(left)) or 'none'}")
        if agent_cls.OWN_FILES:
            print(f"       files {name}'s own program made or wrote meanwhile: {', '.join(theirs) or 'none'}")

        s = run.sh([run.recall, "--db", run.lib, "setup", name])
        checks.check(f"{prefix} `recall --db LIB setup {name}` wires recall",
                     s.returncode == 0, s.stdout.strip()[-500:] + s.stderr.strip()[-500:])
        listing = run.sh([run.recall, "setup"])
        with open(os.path.join(folder, "setup.txt"), "w", encoding="utf-8") as f:
            f.write(s.stdout + s.stderr + "\n---\n" + listing.stdout + listing.stderr)

        # Session 1: read, edit, a command that fails, an answer.
        p1 = project.PROMPTS[0]
        standin.play("s1", [
            agent.read(project.FILE),
            agent.edit(project.FILE, project.EDIT_1[0], project.EDIT_1[1]),
            agent.shell(project.COMMAND),
            {"text": project.ANSWER_1},
        ])
        out1 = agent.session(p1)
        checks.check(f"{prefix} session 1 runs its script to the end",
                     out1.returncode == 0 and standin.script == [] and len(conv(standin, "s1")) == 4,
                     f"exit {out1.returncode}, {len(conv(standin, 's1'))} conversation requests: "
                     f"{out1.stderr.strip()[-400:]}")
        # The error line, from the command itself: what it prints in the repository now.
        proof = subprocess.run(["bash", "-c", project.COMMAND], cwd=run.repo,
                               capture_output=True, text=True, timeout=60)
        error_line = [x for x in (proof.stdout + proof.stderr).splitlines() if x.strip()][-1]
        s1_results = agent.tool_results(conv(standin, "s1")[-1]["body"])
        checks.check(f"{prefix} the model saw the command's error line",
                     any(error_line in t for _, t in s1_results),
                     f"expected {error_line!r} in {[t[-200:] for _, t in s1_results]}")
        captured1 = run.wait_for_capture(p1)

        agent.between(checks)

        # Session 2: later work on the same thing; the failing command again before the
        # edits.
        p2 = project.PROMPTS[1]
        standin.play("s2", [
            agent.read(project.FILE),
            agent.shell(project.COMMAND),
            agent.edit(project.FILE, project.EDIT_2[0], project.EDIT_2[1]),
            agent.edit(project.FILE, project.EDIT_3[0], project.EDIT_3[1]),
            {"text": project.ANSWER_2},
        ])
        out2 = agent.session(p2)
        checks.check(f"{prefix} session 2 runs its script to the end",
                     out2.returncode == 0 and standin.script == [],
                     f"exit {out2.returncode}: {out2.stderr.strip()[-400:]}")
        s2 = conv(standin, "s2")
        first = texts(s2[0]["body"]) if s2 else ""
        start = blocks(first)["start"]
        # Session 1 as the start tells the last session: its request, then its recap (the
        # session's last answer, which names what it left to do) on the line below.
        told = [b.splitlines() for b in start]
        recap = f"Recap: {project.ANSWER_1}"
        checks.check(f"{prefix} session 2's start tells session 1's request and its recap line",
                     any(project.same_start(lines[i], p1, inside=True)
                         and lines[i + 1].strip() == recap
                         for lines in told for i in range(len(lines) - 1)),
                     f"session 1 captured by the hook: {captured1}; expected a line with "
                     f"{p1[:project.PROMPT_START]!r} and below it {recap!r}; "
                     f"start blocks: {start!r:.800}")
        related = blocks(first)["related"]
        checks.check(f"{prefix} session 2's first prompt shows related items",
                     any(project.same_start(b, p1, inside=True) for b in related),
                     f"related blocks: {related!r:.600}")
        last = texts(s2[-1]["body"]) if s2 else ""
        files = [b for b in blocks(last)["file"] if project.FILE in b]
        checks.check(f"{prefix} the file's memory arrives once in session 2 (before its edits, after its read)",
                     len(files) == 1 and project.same_start(files[0], p1, inside=True),
                     f"{len(files)} file blocks naming {project.FILE}: {files!r:.600}")
        others = blocks(last)["other"]
        ran = [b for b in others if f"ran this command ({project.COMMAND})" in b]
        checks.check(f"{prefix} before the command in session 2, session 1's run of it and its error line",
                     len(ran) == 1 and f"failed: {error_line}" in ran[0],
                     f"expected one block naming {project.COMMAND!r} with {error_line!r}: "
                     f"{others!r:.800}")
        met = [b for b in others if "met this error (" in b]
        checks.check(f"{prefix} after the command failed in session 2, session 1 as the one that met its error",
                     len(met) == 1 and "seen before, running this command" in met[0],
                     f"expected one block of the error met before: {others!r:.800}")
        captured2 = run.wait_for_capture(p2)

        # Session 3: recall's MCP tools, then the usage line's command from the agent's shell.
        p3 = project.PROMPTS[2]
        said = {}

        def usage_turn(body):
            told = usage(texts(body))
            said["told"] = told
            if not told or not told["cli"]:
                # Nothing to run as told: run what the README names, to show what the
                # agent's shell gives (the check fails either way).
                said["fallback"] = True
            cli = "recall" if said.get("fallback") else told["cli"]
            said["cmd"] = f"{cli} search {project.QUERY}"
            return agent.shell(said["cmd"])

        standin.play("s3", agent.mcp_search(project.QUERY) + [usage_turn,
                                                              {"text": project.ANSWER_3}])
        out3 = agent.session(p3)
        checks.check(f"{prefix} session 3 runs its script to the end",
                     out3.returncode == 0 and standin.script == [],
                     f"exit {out3.returncode}: {out3.stderr.strip()[-400:]}")
        s3 = conv(standin, "s3")
        results = dict(agent.tool_results(s3[-1]["body"])) if s3 else {}
        played = standin.turns("s3")
        search = [t for t in played if t.get("input") == {"query": project.QUERY}]
        mcp_text = (results.get(search[0]["call_id"], "(no result came back)") if search
                    else "(the session never called the search tool)")
        checks.check(f"{prefix} MCP search answers with session 1's item",
                     project.same_start(mcp_text, p1, inside=True),
                     f"the search tool's result: {mcp_text[:400]!r}")
        shell = [t for t in played
                 if "cmd" in said and t.get("input") == agent.shell(said["cmd"])["input"]]
        shell_text = (results.get(shell[0]["call_id"], "(no result came back)") if shell
                      else "(the session ended before its shell step)")
        told = said.get("told") or {}
        checks.check(f"{prefix} the usage line's command works from the agent's shell",
                     not said.get("fallback") and project.same_start(shell_text, p1, inside=True),
                     f"usage line: {told.get('line')!r}; ran {said.get('cmd')!r}; "
                     f"the shell gave: {shell_text[:300]!r}")
        # The MCP tools the usage line names are tools the agent offered the model.
        named = told.get("tools") or []
        offered = agent.offered_tools([r["body"] for r in s3])
        missing = [t for t in agent.named_tools(named) if t not in offered]
        checks.check(f"{prefix} the usage line names recall's MCP tools, offered to the model",
                     named and not missing,
                     f"the usage line names {named}; not offered: {missing}; "
                     f"offered: {sorted(offered)}")
        captured3 = run.wait_for_capture(p3)

        # Nothing told the model of a failure.
        notices = [(r["label"], n) for r in standin.records() if r["conversation"]
                   for n in FAILURE_NOTICES if n in texts(r["body"])]
        checks.check(f"{prefix} no failure notice reaches the model", not notices,
                     f"{notices}")

        # The library: each session with its request, its error line, its command, its file.
        items = [i for i in run.library_items() if i.get("source") == name]
        with open(os.path.join(folder, "items.json"), "w", encoding="utf-8") as f:
            json.dump(items, f, indent=1)
        wanted = [
            ("session 1", p1, captured1, [("its command", project.COMMAND),
                                          ("its file", project.FILE)]),
            ("session 2", p2, captured2, [("its file", project.FILE)]),
            ("session 3", p3, captured3, [("its command", said.get("cmd") or "recall search")]),
        ]
        for label, prompt, captured, parts in wanted:
            mine = [i for i in items if project.same_start(i.get("title", ""), prompt)
                    or project.same_start(i.get("questions") or "", prompt)]
            whole = "\n".join(texts(i) for i in mine)
            checks.check(f"{prefix} the library holds {label} with its request",
                         bool(mine), f"captured by the hook: {captured}; "
                         f"{len(items)} items of {name}")
            for what, needle in parts:
                checks.check(f"{prefix} the library holds {label} with {what}",
                             needle in whole, f"expected {needle!r} in {whole[:500]!r}")
            if label == "session 1":
                # The error line is searchable as an atom of its own (the start does not
                # tell it: docs/cli.md).
                atoms = [a for i in mine for a in (i.get("atoms") or "").splitlines()]
                checks.check(f"{prefix} the library holds session 1 with its error line as an atom",
                             error_line in atoms, f"expected {error_line!r} among {atoms!r:.500}")

        # Record types: recall capture of every transcript the agent wrote, into a scratch
        # library (the real one must show what the hooks did, not this).
        scratch = os.path.join(folder, "scratch.db")
        run.sh([run.recall, "--db", scratch, "init"])
        cap = run.sh([run.recall, "--db", scratch, "capture"])
        skipped = re.findall(r"type:([\w./-]+) (\d+)", cap.stdout + cap.stderr)
        types = record_types(run.home, name)
        with open(os.path.join(folder, "record-types.json"), "w", encoding="utf-8") as f:
            json.dump({"transcripts": types, "capture_skipped": dict(skipped)}, f, indent=1)
        checks.facts[name] = {"version": version, "folder": folder,
                              "record_types": types, "capture_skipped": dict(skipped)}
        checks.check(f"{prefix} no record type of the transcripts is unknown to capture",
                     cap.returncode == 0 and not skipped,
                     f"capture skipped {dict(skipped)} (exit {cap.returncode})")
        status = run.sh([run.recall, "--db", run.lib, "status"])
        checks.check(f"{prefix} `recall status` needs no attention",
                     status.returncode == 0,
                     f"exit {status.returncode}: {status.stdout.strip()[-500:]}")

        # --remove at the end: recall's entries out, no other file touched.
        before = tree_hashes(run.home, skip)
        r = run.sh([run.recall, "setup", name, "--remove"])
        after = tree_hashes(run.home, skip)
        d = diff_trees(before, after)
        theirs = agent_files(agent_cls, d["added"] + d["changed"])
        touched = (set(d["changed"]) | set(d["added"]) | set(d["removed"])) - set(theirs)
        # A file --remove changes keeps what it held in FILE.recall-backup (docs/cli.md).
        backups = {f + ".recall-backup" for f in SETUP_FILES}
        listing = run.sh([run.recall, "setup"])
        checks.check(f"{prefix} `setup --remove` after the sessions touches only setup's files",
                     r.returncode == 0 and touched <= SETUP_FILES | backups,
                     f"exit {r.returncode}: {d}")
        if agent_cls.OWN_FILES:
            print(f"       files {name}'s own program made or wrote meanwhile: {', '.join(theirs) or 'none'}")
        with open(os.path.join(folder, "setup.txt"), "a", encoding="utf-8") as f:
            f.write("\n--- after --remove\n" + listing.stdout + listing.stderr)
    return folder


def trust(exe, recall, checks):
    """Codex's trust of recall's hooks, as the real Codex reports and acts on it, in a HOME
    of its own (codex_trust.py): the sessions above also run with no bypass flag, but these
    checks ask Codex's app server itself and see the hooks run in a plain `codex exec`."""
    print("== codex: hook trust (codex_trust.py)", flush=True)

    def check(name, ok, detail=""):
        checks.check(f"codex: trust: {name}", ok, detail)

    try:
        codex_trust.trust_checks(recall, exe, check)
    except (OSError, RuntimeError, ValueError, KeyError, subprocess.SubprocessError) as e:
        check("the trust checks run to the end", False, f"{type(e).__name__}: {e}")


def read_files(home, rels):
    """The bytes of each of RELS (relative to HOME) that exists."""
    out = {}
    for rel in rels:
        path = os.path.join(home, rel)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                out[rel] = f.read()
    return out


def agent_files(agent_cls, paths):
    """The PATHS (relative to HOME) that the agent's own program makes (OWN_FILES), never
    one of the files recall's setup writes or its backups."""
    return sorted(p for p in paths
                  if any(re.fullmatch(pat, p) for pat in agent_cls.OWN_FILES)
                  and p not in SETUP_FILES and not p.endswith(".recall-backup"))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", choices=["claude-code", "codex"], action="append")
    ap.add_argument("--recall", default=os.path.join(ROOT, "target", "debug", "recall"))
    ap.add_argument("--newest", action="store_true",
                    help="the newest versions on npm instead of versions.json's")
    ap.add_argument("--results", help="write the checks as JSON to this file")
    ap.add_argument("--compare", nargs=2, metavar=("PINNED", "NEWEST"),
                    help="compare two --results files (newest.sh) and exit")
    ap.add_argument("--root", default=os.path.join(ROOT, "target", "agents"),
                    help="where the agents are installed (NAME-VERSION)")
    ap.add_argument("--runs", default=RUNS,
                    help="where each run's HOME and records are kept")
    args = ap.parse_args(argv[1:])
    if args.compare:
        return compare(*args.compare)
    if not os.access(args.recall, os.X_OK):
        print(f"run.py: no recall at {args.recall}: build it (cargo build -p recall-cli) "
              "or pass --recall PATH", file=sys.stderr)
        return 2
    checks = Checks()
    pins = install.pinned()
    checks.check("docs/testing.md names the versions tested", *docs_name_versions(pins))
    runs_root = os.path.abspath(args.runs)
    if runs_root == ROOT or runs_root.startswith(ROOT + os.sep):
        print(f"run.py: --runs {runs_root} is inside the repository, whose .mcp.json "
              "Claude Code would load: choose a folder outside it", file=sys.stderr)
        return 2
    os.makedirs(runs_root, exist_ok=True)
    versions = {}
    for name in args.agent or list(AGENTS):
        spec = pins[name]
        version = install.newest(spec["package"]) if args.newest else spec["version"]
        versions[name] = version
        exe = install.install(name, spec["package"], version, os.path.abspath(args.root))
        run_agent(AGENTS[name], version, exe, os.path.abspath(args.recall), runs_root, checks)
        if name == "codex":
            trust(exe, os.path.abspath(args.recall), checks)
    passed, failed = checks.summary()
    if args.results:
        with open(args.results, "w", encoding="utf-8") as f:
            json.dump({"versions": versions, "facts": checks.facts, "checks": checks.results},
                      f, indent=1)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def compare(pinned_path, newest_path):
    """What changed between two runs: versions, checks whose result changed, and the
    record types of the newest transcripts that capture does not know."""
    with open(pinned_path, encoding="utf-8") as f:
        pinned = json.load(f)
    with open(newest_path, encoding="utf-8") as f:
        newest = json.load(f)

    # Check names carry no version, so the same check of two versions lines up.
    old = {r["name"]: r for r in pinned["checks"]}
    new = {r["name"]: r for r in newest["checks"]}
    for agent in sorted(set(pinned["versions"]) | set(newest["versions"])):
        print(f"{agent}: {pinned['versions'].get(agent, '-')} -> "
              f"{newest['versions'].get(agent, '-')}")
    changed = 0
    for name in sorted(set(old) | set(new)):
        a = old.get(name, {}).get("ok")
        b = new.get(name, {}).get("ok")
        if a != b:
            changed += 1
            word = {True: "ok", False: "FAIL", None: "absent"}
            print(f"changed: {name}: {word[a]} -> {word[b]}")
            if b is False:
                print(f"       {new[name]['detail']}")
    for agent, facts in sorted(newest.get("facts", {}).items()):
        before = set(pinned.get("facts", {}).get(agent, {}).get("record_types", {}))
        now = facts.get("record_types", {})
        fresh = sorted(set(now) - before)
        gone = sorted(before - set(now))
        print(f"{agent} {facts['version']}: record types new since the pinned version: "
              f"{', '.join(fresh) or 'none'}; gone: {', '.join(gone) or 'none'}")
        print(f"{agent} {facts['version']}: record types capture does not know: "
              f"{', '.join(sorted(facts.get('capture_skipped', {}))) or 'none'}")
    print(f"{changed} checks changed")
    return 1 if changed else 0


def docs_name_versions(pins):
    with open(os.path.join(ROOT, "docs", "testing.md"), encoding="utf-8") as f:
        doc = f.read()
    missing = [f"{s['package']} {s['version']}" for s in pins.values()
               if f"{s['package']}` {s['version']}" not in doc
               and f"{s['package']} {s['version']}" not in doc]
    return not missing, f"docs/testing.md does not name {missing}"


if __name__ == "__main__":
    sys.exit(main(sys.argv))
