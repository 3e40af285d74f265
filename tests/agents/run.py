"""Whole sessions of the real Claude Code and Codex CLI with recall wired in by `recall setup`.

For each agent: a fresh HOME, a git repository with a small project, recall set up as the
README says (`recall --db LIB setup AGENT`), then three sessions in a row against a local
stand-in for the agent's model API (standin.py), which answers from a script and records
every request. The checks assert on what reached the model and on the library; each is
printed as `ok` or `FAIL`, and the run ends with `N passed, N failed` (exit 1 on a failure).

    /usr/bin/python3 tests/agents/run.py [--agent claude-code|codex] [--recall PATH]
        [--newest] [--results FILE]

The run's folder (target/agents/runs/AGENT-VERSION-…) keeps HOME, the recorded requests
(requests.jsonl) and each command's output, for reading after a failure.
"""

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import install  # noqa: E402
import project  # noqa: E402
from standin import StandIn  # noqa: E402

# Each agent command is stopped after this long: an agent that cannot reach its API
# retries for many minutes.
AGENT_TIMEOUT = 240
# How long a session's capture (started detached by the hook at the session's end) is
# waited for before the next session starts.
CAPTURE_WAIT = 30
# Runs live outside the repository: Claude Code loads the .mcp.json of every folder above
# its working folder, and this repository's (the plugin's `recall mcp`) would replace the
# server setup wired. Not under /tmp either: Codex refuses to make its helper commands
# under a temporary folder.
RUNS = "/var/tmp/sqlite-recall-agents"
# Flags that keep the agents from reaching anything but the stand-in (REAL-AGENTS.md).
QUIET = {
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
}
# The notices of a failure the session start may carry (docs/cli.md, Status).
FAILURE_NOTICES = ("the session hook failed", "the last capture failed")
BLOCK = re.compile(r'<recall-memory block="(\w+)">(.*?)</recall-memory block="\1">', re.S)


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


def texts(value):
    """Every string inside a JSON value, joined: what the model reads of a request."""
    out = []

    def walk(v):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(value)
    return "\n".join(out)


def blocks(text):
    """The recall memory blocks of a text, by what they hold."""
    found = {"start": [], "related": [], "file": [], "other": []}
    for _, body in BLOCK.findall(text):
        if "The newest items of project" in body or "newest items" in body:
            found["start"].append(body)
        elif "share words with this prompt" in body:
            found["related"].append(body)
        elif "edited or named this file" in body:
            found["file"].append(body)
        else:
            found["other"].append(body)
    return found


def usage_command(text):
    """The CLI command the usage line after the start block tells the agent to run."""
    for line in text.splitlines():
        if line.startswith("How to use the recall memory"):
            for cmd in re.findall(r"`([^`]+)`", line):
                if cmd.startswith("recall search"):
                    return cmd, line
            return None, line
    return None, None


def tree_hashes(home, skip=()):
    """sha256 of every file under HOME, by path relative to it."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(home):
        rel_dir = os.path.relpath(dirpath, home)
        if any(rel_dir == s or rel_dir.startswith(s + os.sep) for s in skip):
            dirnames[:] = []
            continue
        for name in filenames:
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                out[os.path.relpath(path, home)] = hashlib.sha256(f.read()).hexdigest()
    return out


def diff_trees(before, after):
    changed = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
    return {"changed": changed, "added": sorted(after.keys() - before.keys()),
            "removed": sorted(before.keys() - after.keys())}


def record_types(home, agent):
    """Each record type in the transcripts the agent wrote, with how often it occurs."""
    if agent == "claude-code":
        files = glob.glob(os.path.join(home, ".claude", "projects", "**", "*.jsonl"),
                          recursive=True)
    else:
        files = glob.glob(os.path.join(home, ".codex", "sessions", "**", "*.jsonl"),
                          recursive=True)
    seen = {}
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    seen["(not JSON)"] = seen.get("(not JSON)", 0) + 1
                    continue
                kind = str(rec.get("type"))
                payload = rec.get("payload")
                if agent == "codex" and isinstance(payload, dict) and "type" in payload:
                    kind += "/" + str(payload["type"])
                seen[kind] = seen.get(kind, 0) + 1
    return dict(sorted(seen.items()))


class Run:
    """One agent's run: its HOME, repository, stand-in and library."""

    def __init__(self, agent, version, exe, recall, folder):
        self.agent = agent
        self.bin = os.path.dirname(exe)
        self.version = version
        self.exe = exe
        self.folder = folder
        self.home = os.path.join(folder, "home")
        self.lib = os.path.join(self.home, "memory.db")
        self.repo = os.path.join(self.home, "work", project.NAME)
        self.log = os.path.join(folder, "commands.log")
        os.makedirs(os.path.join(self.home, ".local", "bin"))
        # A person's HOME: the distribution's shell files, and recall where a user install
        # puts it (pip's --user, pipx, cargo install --root ~/.local), linked as pipx does
        # (setup names the binary the link leads to).
        for name in (".profile", ".bashrc"):
            if os.path.exists(os.path.join("/etc/skel", name)):
                shutil.copy(os.path.join("/etc/skel", name), self.home)
        self.recall = os.path.join(self.home, ".local", "bin", "recall")
        os.symlink(recall, self.recall)
        project.make(self.repo)

    def env(self, extra=None):
        env = {
            "HOME": self.home,
            "USER": os.environ.get("USER", "root"),
            "LOGNAME": os.environ.get("LOGNAME", "root"),
            "SHELL": "/bin/bash",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            # The PATH of the person's shell: ~/.local/bin (Debian's ~/.profile adds it),
            # the agent's folder (npm's global bin), then the system's (node among them).
            "PATH": f"{self.home}/.local/bin:{self.bin}:/usr/local/bin:/usr/bin:/bin",
        }
        env.update(QUIET)
        env.update(extra or {})
        return env

    def sh(self, argv, extra=None, timeout=60, cwd=None, stdin_text=None):
        """Runs a command as the person would; logs it; returns the CompletedProcess."""
        start = time.time()
        try:
            p = subprocess.run(argv, cwd=cwd or self.repo, env=self.env(extra),
                               input=stdin_text if stdin_text is not None else "",
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            p = subprocess.CompletedProcess(argv, 124, e.stdout or "", (e.stderr or "") +
                                            f"\n(timed out after {timeout}s)")
            if isinstance(p.stdout, bytes):
                p.stdout = p.stdout.decode("utf-8", "replace")
            if isinstance(p.stderr, bytes):
                p.stderr = p.stderr.decode("utf-8", "replace")
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(f"$ {' '.join(argv)}   [exit {p.returncode}, {time.time() - start:.1f}s]\n"
                    f"{p.stdout}\n--- stderr\n{p.stderr}\n\n")
        return p

    def library_items(self):
        """Every item of the library in full (`recall get --json`), newest first."""
        p = self.sh([self.recall, "--db", self.lib, "timeline", "--json", "--limit", "100"])
        if p.returncode != 0:
            return []
        items = []
        for row in json.loads(p.stdout)["results"]:
            g = self.sh([self.recall, "--db", self.lib, "get", "--json", str(row["id"])])
            if g.returncode == 0:
                items.append(json.loads(g.stdout)["item"])
        return items

    def wait_for_capture(self, prompt):
        """Waits until the library holds an item asked by PROMPT (or CAPTURE_WAIT passed)."""
        deadline = time.time() + CAPTURE_WAIT
        while time.time() < deadline:
            p = self.sh([self.recall, "--db", self.lib, "timeline", "--json", "--limit", "100"])
            if p.returncode == 0 and any(
                    project.same_start(r["title"], prompt)
                    for r in json.loads(p.stdout)["results"]):
                return True
            time.sleep(1)
        return False


# -- the agents' own steps --------------------------------------------------------------

class ClaudeCode:
    name = "claude-code"
    api = "anthropic"

    def __init__(self, run, standin):
        self.run = run
        self.standin = standin

    def extra(self):
        return {"ANTHROPIC_BASE_URL": self.standin.base_url, "ANTHROPIC_API_KEY": "stand-in"}

    def prepare(self):
        """Nothing: Claude Code makes its files on its first run."""

    def session(self, prompt):
        return self.run.sh([self.run.exe, "-p", prompt, "--allowedTools",
                            "Read,Edit,Write,Bash,ToolSearch,mcp__recall__search,"
                            "mcp__recall__get,mcp__recall__later"],
                           self.extra(), timeout=AGENT_TIMEOUT)

    def read(self, path):
        return {"tool": "Read", "input": {"file_path": os.path.join(self.run.repo, path)}}

    def edit(self, path, old, new):
        return {"tool": "Edit", "input": {"file_path": os.path.join(self.run.repo, path),
                                          "old_string": old, "new_string": new}}

    def shell(self, command):
        return {"tool": "Bash", "input": {"command": command, "description": "run it"}}

    def mcp_search(self, query):
        """Turns: load the deferred tool, then call it."""
        return [{"tool": "ToolSearch", "input": {"query": "select:mcp__recall__search",
                                                 "max_results": 1}},
                {"tool": "mcp__recall__search", "input": {"query": query}}]

    def tool_results(self, body):
        """Each tool result of a request: (tool_use_id, text), in order."""
        out = []
        for msg in body.get("messages", []):
            if isinstance(msg.get("content"), list):
                for part in msg["content"]:
                    if isinstance(part, dict) and part.get("type") == "tool_result":
                        out.append((part.get("tool_use_id"), texts(part.get("content"))))
        return out

    def between(self, checks):
        """`claude mcp list` between sessions, as a person checks the server."""
        p = self.run.sh([self.run.exe, "mcp", "list"], self.extra(), timeout=90)
        checks.check(f"{self.name}: `claude mcp list` connects to recall's server",
                     p.returncode == 0 and re.search(r"recall.*(✓|Connected)", p.stdout),
                     f"exit {p.returncode}: {p.stdout.strip()[-300:]} {p.stderr.strip()[-300:]}")


class Codex:
    name = "codex"
    api = "openai"
    KEY = "STANDIN_API_KEY"

    def __init__(self, run, standin):
        self.run = run
        self.standin = standin

    def extra(self):
        return {self.KEY: "stand-in"}

    def prepare(self):
        """The person's config.toml: a provider of their own (the stand-in), model gpt-5.5
        (a model name Codex knows, so that it offers apply_patch)."""
        codex_home = os.path.join(self.run.home, ".codex")
        os.makedirs(codex_home, exist_ok=True)
        with open(os.path.join(codex_home, "config.toml"), "w", encoding="utf-8") as f:
            f.write(
                'model = "gpt-5.5"\n'
                'model_provider = "standin"\n'
                "\n"
                "[model_providers.standin]\n"
                'name = "stand-in"\n'
                f'base_url = "{self.standin.base_url}/v1"\n'
                'wire_api = "responses"\n'
                f'env_key = "{self.KEY}"\n'
                "request_max_retries = 0\n"
                "stream_max_retries = 0\n")

    def session(self, prompt):
        return self.run.sh([self.run.exe, "exec", "--json",
                            "--dangerously-bypass-approvals-and-sandbox", prompt],
                           self.extra(), timeout=AGENT_TIMEOUT)

    def read(self, path):
        return self.shell(f"cat {path}")

    def edit(self, path, old, new):
        patch = (f"*** Begin Patch\n*** Update File: {path}\n@@\n"
                 + "".join(f"-{line}\n" for line in old.splitlines())
                 + "".join(f"+{line}\n" for line in new.splitlines())
                 + "*** End Patch\n")
        return {"custom": "apply_patch", "input": patch}

    def shell(self, command):
        return {"tool": "exec_command", "input": {"cmd": command}}

    def mcp_search(self, query):
        """Turns: tool_search for recall's tools, then the search tool it returned."""
        def call(body):
            ns, name = self.found_tool(body, "search")
            if name is None:
                return {"text": "tool_search returned no recall search tool"}
            turn = {"tool": name, "input": {"query": query}}
            if ns:
                turn["namespace"] = ns
            return turn
        return [{"search": {"query": "recall memory search", "limit": 8}}, call]

    @staticmethod
    def found_tool(body, wanted):
        """(namespace, name) of the tool WANTED in the request's tool_search output."""
        for item in body.get("input", []):
            if item.get("type") != "tool_search_output":
                continue
            for tool in item.get("tools", []):
                if tool.get("type") == "namespace":
                    for sub in tool.get("tools", []):
                        if sub.get("name") == wanted:
                            return tool.get("name"), wanted
                elif tool.get("name", "").endswith(wanted):
                    return None, tool["name"]
        return None, None

    def tool_results(self, body):
        out = []
        for item in body.get("input", []):
            if item.get("type") in ("function_call_output", "custom_tool_call_output"):
                out.append((item.get("call_id"), texts(item.get("output"))))
        return out

    def between(self, checks):
        """Codex has no command between sessions that would touch recall."""


# -- the run ---------------------------------------------------------------------------

def conv(standin, label):
    return [r for r in standin.records(label) if r["conversation"]]


def run_agent(agent_cls, version, exe, recall, runs_root, checks):
    name = agent_cls.name
    folder = tempfile.mkdtemp(prefix=f"{name}-{version}-", dir=runs_root)
    print(f"== {name} {version} ({folder})", flush=True)
    run = Run(name, version, exe, recall, folder)
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

        init = run.sh([run.recall, "--db", run.lib, "init"])
        checks.check(f"{prefix} recall init", init.returncode == 0, init.stderr.strip())

        # setup then --remove on that HOME: every file back byte for byte.
        skip = (os.path.relpath(run.repo, run.home),)
        before = tree_hashes(run.home, skip)
        s = run.sh([run.recall, "--db", run.lib, "setup", name])
        r = run.sh([run.recall, "setup", name, "--remove"])
        after = tree_hashes(run.home, skip)
        d = diff_trees(before, after)
        # The backups setup documents (FILE.recall-backup) are the only files it may leave.
        d["added"] = [f for f in d["added"] if not f.endswith(".recall-backup")]
        checks.check(f"{prefix} `setup` then `setup --remove` gives every file back byte for byte",
                     s.returncode == 0 and r.returncode == 0 and not any(d.values()),
                     f"setup exit {s.returncode}, remove exit {r.returncode}: {d}")

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

        # Session 2: later work on the same thing.
        p2 = project.PROMPTS[1]
        standin.play("s2", [
            agent.read(project.FILE),
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
        checks.check(f"{prefix} session 2's start tells session 1's request",
                     any(project.same_start(b, p1, inside=True) for b in start),
                     f"session 1 captured by the hook: {captured1}; start blocks: {start!r:.600}")
        checks.check(f"{prefix} session 2's start tells session 1's error line",
                     any(error_line in b for b in start),
                     f"expected {error_line!r}; start blocks: {start!r:.600}")
        related = blocks(first)["related"]
        checks.check(f"{prefix} session 2's first prompt shows related items",
                     any(project.same_start(b, p1, inside=True) for b in related),
                     f"related blocks: {related!r:.600}")
        last = texts(s2[-1]["body"]) if s2 else ""
        files = [b for b in blocks(last)["file"] if project.FILE in b]
        checks.check(f"{prefix} the file's memory arrives once in session 2",
                     len(files) == 1 and project.same_start(files[0], p1, inside=True),
                     f"{len(files)} file blocks naming {project.FILE}: {files!r:.600}")
        captured2 = run.wait_for_capture(p2)

        # Session 3: recall's MCP tools, then the usage line's command from the agent's shell.
        p3 = project.PROMPTS[2]
        said = {}

        def usage_turn(body):
            cmd, line = usage_command(texts(body))
            said["line"] = line
            if cmd is None:
                # Nothing to run as told: run what the README names, to show what the
                # agent's shell gives (the check fails either way).
                cmd = "recall search"
                said["fallback"] = True
            if cmd.strip() == "recall search":
                cmd += " " + project.QUERY
            said["cmd"] = cmd
            return agent.shell(cmd)

        standin.play("s3", agent.mcp_search(project.QUERY) + [usage_turn,
                                                              {"text": project.ANSWER_3}])
        out3 = agent.session(p3)
        checks.check(f"{prefix} session 3 runs its script to the end",
                     out3.returncode == 0 and standin.script == [],
                     f"exit {out3.returncode}: {out3.stderr.strip()[-400:]}")
        s3 = conv(standin, "s3")
        results = agent.tool_results(s3[-1]["body"]) if s3 else []
        mcp_text = results[-2][1] if len(results) >= 2 else ""
        checks.check(f"{prefix} MCP search answers with session 1's item",
                     project.same_start(mcp_text, p1, inside=True),
                     f"the search tool's result: {mcp_text[:400]!r}")
        shell_text = results[-1][1] if results else ""
        if "cmd" not in said:
            shell_text = "(the session ended before its shell step)"
        checks.check(f"{prefix} the usage line's command works from the agent's shell",
                     not said.get("fallback") and project.same_start(shell_text, p1, inside=True),
                     f"usage line: {said.get('line')!r}; ran {said.get('cmd')!r}; "
                     f"the shell gave: {shell_text[:300]!r}")
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
            ("session 1", p1, captured1, [("its error line", error_line),
                                          ("its command", project.COMMAND),
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
        touched = set(d["changed"]) | set(d["added"]) | set(d["removed"])
        setup_files = {".claude/settings.json", ".claude.json", ".codex/hooks.json",
                       ".codex/config.toml"}
        backups = {f + ".recall-backup" for f in setup_files}
        listing = run.sh([run.recall, "setup"])
        checks.check(f"{prefix} `setup --remove` after the sessions touches only setup's files",
                     r.returncode == 0 and touched <= setup_files | backups,
                     f"exit {r.returncode}: {d}")
        with open(os.path.join(folder, "setup.txt"), "a", encoding="utf-8") as f:
            f.write("\n--- after --remove\n" + listing.stdout + listing.stderr)
    return folder


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
    agents = {"claude-code": ClaudeCode, "codex": Codex}
    versions = {}
    for name in args.agent or list(agents):
        spec = pins[name]
        version = install.newest(spec["package"]) if args.newest else spec["version"]
        versions[name] = version
        exe = install.install(name, spec["package"], version, args.root)
        run_agent(agents[name], version, exe, os.path.abspath(args.recall), runs_root, checks)
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
