#!/usr/bin/env python3
"""A seeded tree of coding agents' session files, for `make bench-capture`.

Writes OUT/claude/projects/<encoded folder>/<session id>.jsonl (Claude Code transcripts,
with sub-agents' transcripts under <session id>/subagents/) and
OUT/codex/sessions/YYYY/MM/DD/rollout-*.jsonl (Codex CLI rollouts), in the shapes the two
programs write (docs/capture.md): metadata on every Claude Code record, `toolUseResult`
repeating a tool's output, thinking blocks, progress and snapshot records, summaries,
compactions; Codex's session_meta, turn_context, response items, reasoning with its
encrypted content, and the event messages that repeat them and count tokens.

Sizes follow a log-normal spread (most sessions small, the largest up to 30 MB), scaled
so that the tree holds about --megabytes in --sessions sessions; conversations take
breaks of hours now and then. Also writes OUT/import.jsonl: one item per session holding
the session's text as its transcript, the baseline `recall import` reads.
"""
import argparse
import base64
import json
import math
import os
import random
import uuid
from datetime import datetime, timedelta, timezone

WORDS = (
    "the a to of and in is it for on that with as this be are at by not from or was "
    "retry cache config parser session token handler request response build test "
    "module index search query schema migration import export client server worker "
    "queue timeout value option result vector buffer stream file "
    "path folder commit branch merge release version deploy docker compose port "
    "database lock connection pool thread async await future trait struct enum impl "
    "function method class object array string number boolean null undefined promise"
).split()
PROJECTS = [
    "shop", "api", "billing", "infra", "docs-site", "mobile", "ml-pipeline", "auth",
    "search", "gateway", "scheduler", "ledger", "notify", "cli", "design-system",
    "analytics", "payments", "crawler", "exporter", "mailer", "tiles", "sync", "chat",
    "forms", "reports",
]
LANG = {"rs": "rust", "py": "python", "ts": "typescript", "go": "go"}


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def ident(rng):
    return "_".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))


class Pools:
    """Lines of tool output made once and sampled: code, test logs, errors, listings."""

    def __init__(self, rng):
        self.code = []
        for _ in range(6000):
            k = rng.random()
            if k < 0.3:
                self.code.append(f"    let {ident(rng)} = {ident(rng)}(&{ident(rng)})?;")
            elif k < 0.5:
                self.code.append(f"def {ident(rng)}({ident(rng)}, {ident(rng)}={rng.randint(0, 99)}):")
            elif k < 0.7:
                self.code.append(f"  const {ident(rng)} = await {ident(rng)}.{ident(rng)}({rng.randint(0, 9)});")
            elif k < 0.85:
                self.code.append(f"    // {words(rng, rng.randint(4, 12))}")
            else:
                self.code.append("}")
        self.tests = [
            f"test {ident(rng)}::{ident(rng)} ... {'ok' if rng.random() < 0.95 else 'FAILED'}"
            for _ in range(3000)
        ]
        self.errors = [
            f"error[E0{rng.randint(100, 799)}]: {words(rng, 5)}\n  --> src/{ident(rng)}.rs:{rng.randint(1, 900)}:{rng.randint(1, 80)}",
            "Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\nKeyError: 'user_id'",
            "Error: connect ECONNREFUSED 127.0.0.1:5432",
            "npm ERR! code ENOENT\nnpm ERR! syscall open",
            "thread 'main' panicked at src/main.rs:41:9:\ncalled `Option::unwrap()` on a `None` value",
            "FAILED tests/test_totals.py::test_rounding - AssertionError: 10.01 != 10.00",
            "fatal: not a git repository (or any of the parent directories): .git",
        ]
        self.listing = [
            f"src/{ident(rng)}/{ident(rng)}.{rng.choice(list(LANG))}:{rng.randint(1, 900)}: {rng.choice(self.code).strip()}"
            for _ in range(3000)
        ]

    def output(self, rng, kind, lines):
        if kind == "code":
            body = rng.choices(self.code, k=lines)
            return "\n".join(f"{i + 1:>6}\t{l}" for i, l in enumerate(body))
        if kind == "tests":
            out = ["running %d tests" % lines] + rng.choices(self.tests, k=lines)
            if rng.random() < 0.2:
                out.append(rng.choice(self.errors))
            return "\n".join(out)
        if kind == "grep":
            return "\n".join(rng.choices(self.listing, k=lines))
        return rng.choice(self.errors)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def next_time(rng, t):
    # Now and then a break of hours: the next segment.
    if rng.random() < 0.02:
        return t + timedelta(hours=rng.uniform(3, 40))
    return t + timedelta(seconds=rng.uniform(2, 90))


class Claude:
    def __init__(self, rng, pools, sid, cwd, branch, start):
        self.rng, self.pools, self.sid, self.cwd, self.branch = rng, pools, sid, cwd, branch
        self.t = start
        self.parent = None
        self.lines = []
        self.size = 0

    def record(self, kind, message=None, sidechain=False, **extra):
        self.t = next_time(self.rng, self.t)
        me = str(uuid.UUID(int=self.rng.getrandbits(128)))
        r = {
            "parentUuid": self.parent,
            "isSidechain": sidechain,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.sid,
            "version": "2.0.14",
            "gitBranch": self.branch,
            "type": kind,
        }
        if message is not None:
            r["message"] = message
        r.update(extra)
        r["uuid"] = me
        r["timestamp"] = iso(self.t)
        self.parent = me
        self.push(r)

    def push(self, r):
        line = json.dumps(r, ensure_ascii=False)
        self.lines.append(line)
        self.size += len(line) + 1

    def assistant(self, content, sidechain=False):
        rng = self.rng
        self.record(
            "assistant",
            {
                "id": "msg_01" + base64.b32encode(rng.randbytes(15)).decode().lower(),
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5-20250929",
                "content": content,
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": rng.randint(3, 40),
                    "cache_creation_input_tokens": rng.randint(0, 9000),
                    "cache_read_input_tokens": rng.randint(0, 90000),
                    "output_tokens": rng.randint(1, 900),
                    "service_tier": "standard",
                },
            },
            sidechain,
            requestId="req_011C" + base64.b32encode(rng.randbytes(10)).decode(),
        )

    def turn(self, sidechain=False):
        rng, pools = self.rng, self.pools
        prompt = f"{words(rng, rng.randint(5, 25)).capitalize()}?"
        if rng.random() < 0.1:
            prompt += "\n\n```\n" + pools.output(rng, "error", 0) + "\n```"
        self.record("user", {"role": "user", "content": prompt}, sidechain)
        if rng.random() < 0.3:
            self.push({"type": "progress", "data": {"type": "hook_progress", "hookEvent": "UserPromptSubmit"},
                       "timestamp": iso(self.t), "sessionId": self.sid, "uuid": str(uuid.UUID(int=rng.getrandbits(128)))})
        for _ in range(rng.choices([0, 1, 2, 4, 8], [2, 4, 3, 2, 1])[0]):
            if rng.random() < 0.4:
                self.assistant([{"type": "thinking", "thinking": words(rng, rng.randint(20, 120)),
                                 "signature": base64.b64encode(rng.randbytes(rng.randint(200, 600))).decode()}], sidechain)
            tool = rng.choices(["Bash", "Read", "Edit", "Grep", "Write"], [5, 4, 3, 2, 1])[0]
            tid = "toolu_01" + base64.b32encode(rng.randbytes(15)).decode()
            path = f"{self.cwd}/src/{ident(rng)}.{rng.choice(list(LANG))}"
            if tool == "Bash":
                cmd = rng.choice(["cargo test", "npm test", "pytest -q", "make build", "git status", "docker compose up -d db"])
                inp = {"command": f"{cmd} {ident(rng)}", "description": words(rng, 4)}
                out = pools.output(rng, "tests", int(rng.lognormvariate(3, 1.2)) + 1)
                result = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
            elif tool == "Read":
                inp = {"file_path": path}
                out = pools.output(rng, "code", int(rng.lognormvariate(4, 1.0)) + 1)
                result = {"type": "text", "file": {"filePath": path, "content": out, "numLines": out.count("\n") + 1,
                                                   "startLine": 1, "totalLines": out.count("\n") + 1}}
            elif tool == "Grep":
                inp = {"pattern": ident(rng), "path": self.cwd, "output_mode": "content"}
                out = pools.output(rng, "grep", int(rng.lognormvariate(2.5, 1.0)) + 1)
                result = {"mode": "content", "numFiles": 3, "content": out}
            else:
                old, new = rng.choice(pools.code), rng.choice(pools.code)
                inp = {"file_path": path, "old_string": old, "new_string": new} if tool == "Edit" else \
                    {"file_path": path, "content": pools.output(rng, "code", rng.randint(5, 80))}
                out = f"The file {path} has been updated."
                result = {"filePath": path, "oldString": old, "newString": new, "structuredPatch": []}
            self.assistant([{"type": "tool_use", "id": tid, "name": tool, "input": inp}], sidechain)
            error = rng.random() < 0.05
            self.record("user", {"role": "user", "content": [
                {"tool_use_id": tid, "type": "tool_result", "content": out, "is_error": error}]},
                sidechain, toolUseResult=result)
        if rng.random() < 0.05:
            self.record("user", {"role": "user", "content": [{"type": "text", "text": "[Request interrupted by user]"}]}, sidechain)
        self.assistant([{"type": "text", "text": words(rng, rng.randint(10, 80)).capitalize() + "."}], sidechain)
        if rng.random() < 0.05:
            self.push({"type": "file-history-snapshot", "messageId": str(uuid.UUID(int=rng.getrandbits(128))),
                       "snapshot": {"trackedFileBackups": {}, "timestamp": iso(self.t)}, "isSnapshotUpdate": False})

    def compact(self):
        self.record("system", None, content="Conversation compacted", subtype="compact_boundary", level="info",
                    compactMetadata={"trigger": "auto", "preTokens": self.rng.randint(150000, 170000)})
        self.record("user", {"role": "user", "content": "This session is being continued from a previous conversation "
                             "that ran out of context. The conversation is summarized below:\n" + words(self.rng, 200)},
                    isCompactSummary=True)


def claude_session(rng, pools, out, project, start, target):
    sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    cwd = f"/home/dev/{project}"
    folder = os.path.join(out, "claude", "projects", cwd.replace("/", "-"))
    os.makedirs(folder, exist_ok=True)
    c = Claude(rng, pools, sid, cwd, rng.choice(["main", "main", "fix/" + ident(rng)]), start)
    if rng.random() < 0.5:
        c.push({"type": "summary", "summary": words(rng, rng.randint(4, 9)).capitalize(), "leafUuid": str(uuid.uuid4())})
    since_compaction = 0
    while c.size < target:
        c.turn()
        since_compaction += 1
        if since_compaction > 60 and rng.random() < 0.05:
            c.compact()
            since_compaction = 0
    write(os.path.join(folder, sid + ".jsonl"), c.lines)
    files = [os.path.join(folder, sid + ".jsonl")]
    # Sub-agents: their own transcripts, sidechain records under the parent's session id.
    if rng.random() < 0.15:
        for _ in range(rng.randint(1, 3)):
            agent = Claude(rng, pools, sid, cwd, c.branch, c.t)
            for _ in range(rng.randint(2, 12)):
                agent.turn(sidechain=True)
            name = "agent-" + base64.b16encode(rng.randbytes(4)).decode().lower()
            sub = os.path.join(folder, sid, "subagents")
            os.makedirs(sub, exist_ok=True)
            write(os.path.join(sub, name + ".jsonl"), agent.lines)
            files.append(os.path.join(sub, name + ".jsonl"))
    return files


def codex_session(rng, pools, out, project, start, target):
    sid = str(uuid.UUID(int=rng.getrandbits(128)))
    cwd = f"/home/dev/{project}"
    folder = os.path.join(out, "codex", "sessions", start.strftime("%Y/%m/%d"))
    os.makedirs(folder, exist_ok=True)
    lines, size, t = [], 0, start

    def env(kind, payload):
        nonlocal size
        line = json.dumps({"timestamp": iso(t), "type": kind, "payload": payload}, ensure_ascii=False)
        lines.append(line)
        size += len(line) + 1

    def msg(role, text):
        kind = "input_text" if role == "user" else "output_text"
        env("response_item", {"type": "message", "role": role, "content": [{"type": kind, "text": text}]})

    env("session_meta", {"id": sid, "timestamp": iso(t), "cwd": cwd, "originator": "codex_cli_rs",
                         "cli_version": "0.46.0", "instructions": None,
                         "git": {"commit_hash": rng.randbytes(20).hex(), "branch": "main",
                                 "repository_url": f"git@github.com:dev/{project}.git"}})
    msg("user", f"<environment_context>\n  <cwd>{cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n"
                "  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n"
                "  <shell>bash</shell>\n</environment_context>")
    tokens = 0
    while size < target:
        t = next_time(rng, t)
        env("turn_context", {"cwd": cwd, "approval_policy": "on-request", "model": "gpt-5-codex", "effort": "medium",
                             "summary": "auto", "sandbox_policy": {"mode": "workspace-write"}})
        prompt = f"{words(rng, rng.randint(5, 25)).capitalize()}"
        msg("user", prompt)
        env("event_msg", {"type": "user_message", "message": prompt, "kind": "plain"})
        for _ in range(rng.choices([0, 1, 2, 4, 8], [2, 4, 3, 2, 1])[0]):
            t = next_time(rng, t)
            env("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": "**" + words(rng, 4) + "**"}],
                                  "content": None, "encrypted_content": base64.b64encode(rng.randbytes(rng.randint(600, 3000))).decode()})
            env("event_msg", {"type": "agent_reasoning", "text": "**" + words(rng, 4) + "**"})
            call = "call_" + base64.b32encode(rng.randbytes(15)).decode()
            if rng.random() < 0.75:
                cmd = rng.choice(["cargo test", "npm test", "pytest -q", "rg -n", "sed -n 1,200p", "git diff"])
                env("response_item", {"type": "function_call", "name": "shell", "call_id": call,
                                      "arguments": json.dumps({"command": ["bash", "-lc", f"{cmd} {ident(rng)}"],
                                                               "workdir": cwd, "timeout_ms": 120000})})
                kind = rng.choice(["tests", "code", "grep"])
                out = pools.output(rng, kind, int(rng.lognormvariate(3.5, 1.2)) + 1)
                code = 1 if rng.random() < 0.1 else 0
                t = next_time(rng, t)
                env("response_item", {"type": "function_call_output", "call_id": call,
                                      "output": json.dumps({"output": out, "metadata": {"exit_code": code, "duration_seconds": round(rng.uniform(0.1, 30), 1)}})})
            else:
                path = f"src/{ident(rng)}.{rng.choice(list(LANG))}"
                patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-" + rng.choice(pools.code) + "\n+" + rng.choice(pools.code) + "\n*** End Patch\n"
                env("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": call, "name": "apply_patch", "input": patch})
                env("response_item", {"type": "custom_tool_call_output", "call_id": call,
                                      "output": json.dumps({"output": f"Success. Updated the following files:\nM {path}\n", "metadata": {"exit_code": 0, "duration_seconds": 0.0}})})
            tokens += rng.randint(1000, 20000)
            env("event_msg", {"type": "token_count", "info": {"total_token_usage": {"input_tokens": tokens, "cached_input_tokens": tokens // 2,
                              "output_tokens": tokens // 10, "reasoning_output_tokens": tokens // 20, "total_tokens": tokens}},
                              "rate_limits": {"primary": {"used_percent": rng.uniform(0, 100), "window_minutes": 299}}})
        answer = words(rng, rng.randint(10, 80)).capitalize() + "."
        msg("assistant", answer)
        env("event_msg", {"type": "agent_message", "message": answer})
    path = os.path.join(folder, f"rollout-{start.strftime('%Y-%m-%dT%H-%M-%S')}-{sid}.jsonl")
    write(path, lines)
    return [path]


def write(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--megabytes", type=float, default=300)
    ap.add_argument("--seed", type=int, default=27)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pools = Pools(rng)
    # Log-normal sizes, scaled to the total: a median of about a third of the mean.
    raw = [rng.lognormvariate(0, 1.3) for _ in range(a.sessions)]
    scale = a.megabytes * 1e6 / sum(raw)
    sizes = [max(4000, min(30e6, r * scale)) for r in raw]
    first = datetime(2024, 6, 1, 8, 0, tzinfo=timezone.utc)
    os.makedirs(a.out, exist_ok=True)
    items = open(os.path.join(a.out, "import.jsonl"), "w", encoding="utf-8")
    total, files = 0, 0
    for i, size in enumerate(sizes):
        project = PROJECTS[min(int(rng.paretovariate(1.2)) - 1, len(PROJECTS) - 1)]
        start = first + timedelta(minutes=rng.uniform(0, 540 * 24 * 60))
        make = claude_session if rng.random() < 0.6 else codex_session
        paths = make(rng, pools, a.out, project, start, size)
        for p in paths:
            text = open(p, encoding="utf-8").read()
            total += len(text.encode())
            files += 1
            items.write(json.dumps({"source": "bench", "project": project, "title": f"session {i} {os.path.basename(p)}",
                                    "occurred_at": iso(start), "transcript": text}) + "\n")
    items.close()
    print(f"{a.sessions} sessions, {files} files, {total / 1e6:.0f} MB in {a.out}")


if __name__ == "__main__":
    main()
