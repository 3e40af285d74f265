#!/usr/bin/env python3
"""Measures what `recall capture` makes of real session files (docs/capture.md,
"Measured on real sessions").

Usage: benches/capture/real_sessions.py RECALL DATA [--keep DB] [--examples]
With --start, also the session start of the ten projects with the most items: how many
of its item lines are noise.
Captures DATA (a folder of real transcripts) into a new library and counts, by rules
written here independently of recall's own:
  - items, and items per source
  - noise titles (titles no person could use: wrappers, helper prompts, API errors,
    go-ons, cut at a colon, the fallback "<agent> session <id>")
  - helper items (warm-up, compaction, prompt-suggestion calls)
  - items without a project
  - atom lines that look like file contents or diffs but were taken as errors
  - sub-agent items titled by their prompt rather than a description
Run from a folder outside any git checkout (the project rule reads git).
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

NOISE_PREFIXES = (
    "<", "[Request interrupted", "[SUGGESTION MODE", "Caveat:", "Warmup",
    "Your task is to create a detailed summary", "This session is being continued",
    "API Error", "Request timed out", "Invalid API key", "Unknown skill",
    "Base directory for this skill", "Continue from where you left off",
    "# AGENTS.md instructions", "# Context from my IDE setup", "## User Input",
)
GO_ONS = {"continue", "go on", "go ahead", "proceed", "yes", "y", "ok", "okay", "k",
          "sure", "next", "do it", "go", ".", "", "thanks", "thank you", "retry",
          "try again", "yes please", "please continue", "keep going", "hi", "hello"}
HELPER = ("Warmup", "[SUGGESTION MODE", "Your task is to create a detailed summary")
CONTENT = re.compile(r"^\s*(\d+[\t→]|[+\-@>]|diff --git|index |- \[)")


def noise(title):
    t = title.strip()
    if t.startswith(NOISE_PREFIXES):
        return "wrapper/helper/error"
    if t.lower().rstrip(".!? ") in GO_ONS:
        return "go-on"
    if t.endswith(":"):
        return "cut at a colon"
    if re.match(r"^(claude-code|codex) session ", t):
        return "fallback"
    return None


def main():
    recall, data = sys.argv[1], sys.argv[2]
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    tmp = tempfile.mkdtemp()
    db = keep or os.path.join(tmp, "lib.db")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    env["HOME"] = tmp
    subprocess.run([recall, "--db", db, "init"], env=env, cwd=tmp, check=True,
                   capture_output=True)
    out = subprocess.run([recall, "--db", db, "--json", "capture", data], env=env,
                         cwd=tmp, capture_output=True, text=True)
    report = json.loads(out.stdout) if out.stdout.strip() else {}
    conn = sqlite3.connect(db)
    rows = conn.execute("select id, title, project, atoms, summary from items").fetchall()
    kinds = {}
    examples = {}
    for _, title, _, _, _ in rows:
        n = noise(title)
        if n:
            kinds[n] = kinds.get(n, 0) + 1
            examples.setdefault(n, []).append(title[:70])
    helpers = sum(1 for r in rows if r[1].strip().startswith(HELPER))
    qs = dict(conn.execute("select id, questions from items"))
    helpers += sum(1 for i, q in qs.items() if q.strip().startswith(HELPER)
                   and not any(r[0] == i and r[1].strip().startswith(HELPER) for r in rows))
    subs = conn.execute(
        "select i.id, i.title, i.questions from capture_segments c join items i on i.id = c.item_id"
        " where c.session like '%/agent-%'").fetchall()
    by_prompt = sum(1 for _, t, q in subs if q and t.strip()[:40] == q.strip().splitlines()[0][:40])
    no_project = sum(1 for r in rows if r[2] is None)
    atom_lines = [l for r in rows for l in r[3].splitlines()]
    content_atoms = sum(1 for l in atom_lines if CONTENT.match(l))
    ERR = re.compile(r"error|Error|ERROR|fail|FAIL|Traceback|panicked")
    content_errors = sum(1 for l in atom_lines if CONTENT.match(l) and ERR.search(l))
    noisy = sum(kinds.values())
    # Sessions whose transcript has the person's or the agent's title: their items'
    # titles should be it.
    want = {}
    for dirpath, _, names in os.walk(data):
        for name in names:
            if not name.endswith(".jsonl"):
                continue
            custom = ai = sid = None
            with open(os.path.join(dirpath, name), errors="replace") as f:
                for line in f:
                    if '"custom-title"' not in line and '"ai-title"' not in line:
                        continue
                    try:
                        d = json.loads(line)
                    except ValueError:
                        continue
                    sid = d.get("sessionId", sid)
                    if d.get("type") == "custom-title" and d.get("customTitle"):
                        custom = d["customTitle"].strip()
                    if d.get("type") == "ai-title" and d.get("aiTitle"):
                        ai = d["aiTitle"].strip()
            if sid and name[:-6] == sid and (custom or ai):
                want[sid] = custom or ai
    own = conn.execute("select c.session, i.title from capture_segments c join items i on i.id = c.item_id").fetchall()
    titled_items = [(s_, t) for s_, t in own if s_ in want]
    own_title_used = sum(1 for s_, t in titled_items if t == want[s_][:120])
    result = {
        "items": len(rows),
        "noise_titles": noisy,
        "noise_share": round(noisy / max(len(rows), 1), 3),
        "noise_by_kind": kinds,
        "helper_items": helpers,
        "items_of_sessions_with_own_title": len(titled_items),
        "of_which_titled_by_it": own_title_used,
        "sub_agent_items": len(subs),
        "sub_agent_items_titled_by_their_prompt": by_prompt,
        "items_without_project": no_project,
        "atom_lines": len(atom_lines),
        "atom_lines_like_file_contents": content_atoms,
        "error_atoms_like_file_contents": content_errors,
        "capture": {k: report.get(k) for k in ("files", "sessions", "segments", "added",
                                                "removed", "skipped")},
    }
    if "--start" in sys.argv:
        result["session_start"] = session_start(recall, db, env, tmp)
    print(json.dumps(result, indent=1, ensure_ascii=False))
    if "--examples" in sys.argv:
        for k, v in examples.items():
            print(k, v[:8])


def session_start(recall, db, env, tmp):
    """The SessionStart block of the ten projects with the most items, by `recall hook`:
    its item lines, and those whose title is noise."""
    conn = sqlite3.connect(db)
    projects = [p for (p,) in conn.execute(
        "select project from items where project is not null"
        " group by 1 order by count(*) desc, 1 limit 10")]
    lines, noisy = 0, []
    for p in projects:
        payload = json.dumps({"session_id": "start-" + p, "transcript_path": "/nonexistent",
                              "cwd": "/nonexistent", "hook_event_name": "SessionStart",
                              "source": "startup"})
        out = subprocess.run([recall, "--db", db, "hook", "--project", p], input=payload,
                             env=env, cwd=tmp, capture_output=True, text=True, check=True)
        context = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
        for line in context.splitlines():
            if line.startswith("- ["):
                lines += 1
                # "- [ID] DATE TITLE"
                title = line.split("] ", 1)[1][11:]
                if noise(title):
                    noisy.append(f"{p}: {title[:70]}")
    return {"projects": len(projects), "lines": lines, "noise_lines": len(noisy),
            "noise": noisy}


if __name__ == "__main__":
    main()
