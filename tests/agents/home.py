"""A person's HOME for one run: the shell files, recall on the PATH, the project, and the
commands a person runs there (each logged, with a timeout)."""

import difflib
import glob
import hashlib
import json
import os
import shutil
import subprocess
import time

import project

# How long a session's capture (started detached by the hook at the session's end) is
# waited for before the next session starts.
CAPTURE_WAIT = 30
# Flags that keep the agents from reaching anything but the stand-in (REAL-AGENTS.md).
QUIET = {
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
}


class Home:
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


def file_diff(home, rel, old_bytes, lines=12):
    """The first lines of a unified diff of a file against its earlier bytes."""
    with open(os.path.join(home, rel), "rb") as f:
        new_bytes = f.read()
    old = old_bytes.decode("utf-8", "replace").splitlines(keepends=True)
    new = new_bytes.decode("utf-8", "replace").splitlines(keepends=True)
    out = list(difflib.unified_diff(old, new, f"a/{rel}", f"b/{rel}", n=0))
    return "".join(out[2:2 + lines])


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
