#!/usr/bin/env python3
"""recall's hooks in the real Codex CLI, wired by `recall setup codex` alone.

Runs the pinned Codex (target/agents/codex-0.169.0, which the real-agent suite installs;
`--codex PATH` for another) in a temporary HOME, against a local stand-in for its model
API (standard library; it records each request), and checks:

1. `recall setup codex` records the trust Codex needs: Codex's own app server
   (`codex app-server`, `hooks/list`) lists each of recall's hooks as trusted, and
   `recall status` (which computes the hashes itself) agrees;
2. `codex exec` runs them with no bypass flag: the SessionStart hook's block, naming an
   item of the project, reaches the model, and SessionEnd captures the session into the
   library;
3. `recall setup codex --remove` gives config.toml and hooks.json back byte for byte.

The real-agent suite (run.py) makes these checks after its Codex sessions. Alone: exit 0
when all hold; 1 with what failed; 2 when Codex is not installed (never a silent pass).
Usage: python3 tests/agents/codex_trust.py [--recall BIN] [--codex PATH]
"""
import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import install  # noqa: E402  (beside this file: the pinned versions, written once)

CODEX = install.pinned()["codex"]
PINNED_FOLDER = ROOT / "target/agents" / f"codex-{CODEX['version']}"
PINNED = Path(install.binary("codex", str(PINNED_FOLDER)))
TITLE = "Kestrel import lock released after each batch"


class StandIn(BaseHTTPRequestHandler):
    """The Responses API, streamed: one short answer to every request."""

    requests = []

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        StandIn.requests.append(body.decode("utf-8", "replace"))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}
        usage = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                 "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens_details": {"reasoning_tokens": 0}}
        events = [
            {"type": "response.created",
             "response": {"id": "resp_1", "status": "in_progress", "output": []}},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed",
             "response": {"id": "resp_1", "status": "completed", "output": [item], "usage": usage}},
        ]
        for e in events:
            self.wfile.write(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode())
        self.wfile.flush()


def hooks_list(codex, env, cwd):
    """Codex's own answer to hooks/list in `cwd`."""
    p = subprocess.Popen([codex, "app-server"], cwd=cwd, env=env, text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for m in [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"clientInfo": {"name": "codex_trust", "version": "0"}}},
              {"jsonrpc": "2.0", "method": "initialized"},
              {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}}]:
        p.stdin.write(json.dumps(m) + "\n")
    p.stdin.flush()
    try:
        for line in p.stdout:
            m = json.loads(line)
            if m.get("id") == 2:
                return m["result"]["data"][0]["hooks"]
    finally:
        p.kill()
        p.wait()
    raise RuntimeError("codex app-server gave no answer to hooks/list")


def trust_checks(recall_bin, codex, check):
    """The checks above; CHECK(name, ok, detail) records each (names carry no version)."""
    recall_bin, codex = str(recall_bin), Path(codex)
    StandIn.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        home, bin_, work = tmp / "home", tmp / "bin", tmp / "kestrel-shop"
        codex_home = home / ".codex"
        for d in (codex_home, bin_, work):
            d.mkdir(parents=True)
        (bin_ / "codex").symlink_to(codex.resolve())
        subprocess.run(["git", "init", "-q", str(work)], check=True)
        lib = tmp / "memory.db"
        env = {k: v for k, v in os.environ.items()
               if k not in ("CODEX_HOME", "RECALL_DB", "RECALL_CONFIG")}
        env.update(HOME=str(home), PATH=f"{bin_}{os.pathsep}{env.get('PATH', '')}",
                   STAND_IN_KEY="unused")
        config = (f'# a person\'s settings\nmodel = "gpt-5.5"\nmodel_provider = "stand_in"\n\n'
                  f'[model_providers.stand_in]\nname = "stand-in"\n'
                  f'base_url = "http://127.0.0.1:{server.server_address[1]}/v1"\n'
                  f'wire_api = "responses"\nenv_key = "STAND_IN_KEY"\n'
                  f'request_max_retries = 0\nstream_max_retries = 0\n')
        (codex_home / "config.toml").write_text(config)

        def recall(*args, **kw):
            return subprocess.run([recall_bin, "--db", str(lib), *args], env=env, cwd=work,
                                  text=True, capture_output=True, **kw)

        recall("init", check=True)
        item = {"source": "notes", "project": "kestrel-shop", "title": TITLE,
                "occurred_at": "2026-11-01T10:00:00Z"}
        recall("add", "-", input=json.dumps(item), check=True)

        # 1. Trust recorded, as Codex itself reads it.
        version = subprocess.run([str(bin_ / "codex"), "--version"], env=env, text=True,
                                 capture_output=True).stdout.strip()
        out = recall("setup", "codex")
        check("recall setup codex exits 0", out.returncode == 0,
              f"Codex {version}: exit {out.returncode}: {(out.stdout + out.stderr).strip()[-400:]}")
        listed = [h for h in hooks_list(str(bin_ / "codex"), env, str(work))
                  if " hook" in (h.get("command") or "")]
        events = sorted(h["eventName"] for h in listed)
        check("Codex's app server lists recall's hooks",
              events == ["postToolUse", "preToolUse", "sessionEnd", "sessionStart",
                         "userPromptSubmit"],
              f"listed: {events}")
        check("Codex trusts each of recall's hooks",
              bool(listed) and all(h["trustStatus"] == "trusted" for h in listed),
              ", ".join(f"{h['eventName']} {h['trustStatus']}" for h in listed) or "none listed")
        status = json.loads(recall("status", "--json").stdout)
        check("recall status computes Codex's hashes and agrees",
              [c.get("trust") for c in status.get("codex_hooks", [])] == ["trusted"],
              f"{status.get('codex_hooks')}")

        # 2. The hooks run in `codex exec`, no bypass flag.
        run = subprocess.run([str(bin_ / "codex"), "exec", "--skip-git-repo-check",
                              "Why does the import stall?"], env=env, cwd=work, text=True,
                             capture_output=True, timeout=120)
        check("codex exec with no bypass flag exits 0", run.returncode == 0,
              f"exit {run.returncode}: {run.stderr.strip()[-300:]}")
        check("the trusted SessionStart hook's block reached the model",
              any(TITLE in r for r in StandIn.requests), f"{len(StandIn.requests)} requests")
        rollouts = sorted(codex_home.glob("sessions/**/rollout-*.jsonl"))
        deadline = time.time() + 60
        captured = 0
        while rollouts and time.time() < deadline:
            q = recall("sql", "--json", "select count(*) as n from capture_files where path = '%s'"
                       % rollouts[-1])
            try:
                captured = json.loads(q.stdout)[0]["n"]
            except (ValueError, KeyError, IndexError, TypeError):
                captured = 0
            if captured:
                break
            time.sleep(0.2)
        check("the trusted SessionEnd hook captured the session", bool(rollouts) and captured == 1,
              f"{rollouts[-1].name if rollouts else 'no rollout'}: captured {captured}")

        # 3. Out again, byte for byte.
        out = recall("setup", "codex", "--remove")
        check("recall setup codex --remove exits 0", out.returncode == 0, out.stderr.strip())
        left = (codex_home / "config.toml").read_text()
        check("--remove gives config.toml back as it was", left == config,
              "".join(difflib.unified_diff(config.splitlines(True), left.splitlines(True))))
        hooks = codex_home / "hooks.json"
        check("--remove takes hooks.json away, as before setup", not hooks.exists(),
              hooks.read_text() if hooks.exists() else "")
    server.shutdown()
    server.server_close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--recall", default=str(ROOT / "target/debug/recall"))
    ap.add_argument("--codex", default=str(PINNED))
    a = ap.parse_args()
    codex = Path(a.codex)
    if not codex.exists():
        print(f"codex_trust: no Codex at {codex}: install it (the real-agent suite does: "
              f"npm install --prefix {PINNED_FOLDER.relative_to(ROOT)} {CODEX['package']}@{CODEX['version']})")
        return 2
    failures = []

    def check(name, ok, detail=""):
        print(("ok   " if ok else "FAIL ") + name + ("" if ok or not detail else f"\n     {detail}"))
        if not ok:
            failures.append(name)

    trust_checks(a.recall, codex, check)
    print("codex_trust: " + ("all checks passed" if not failures
                             else f"{len(failures)} failed: " + "; ".join(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
