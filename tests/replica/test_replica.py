"""Replicas of a recall library with Litestream (from PyPI), on this machine's folders
standing in for two machines: the primary's, where `recall import` and `recall add`
write while `litestream replicate` copies the library to a replica folder, and the
second machine's, where `litestream restore` makes a copy (once, and following the
primary with -f) that recall reads and refuses to write. Then the replica read in place
through litestream-vfs in the sqlite3 shell with librecall0 loaded.

Run by tests/replica/run.sh, which makes the virtual environment this needs.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import traceback

import litestream_vfs

NOW = "2025-06-01T00:00:00Z"
# 20 searches: words of the sample's titles and error messages, phrases, filters.
QUERIES = [
    "When did we decide to remove the analytics script?",
    "database is locked",
    "ECONNREFUSED 5432",
    "the deploy failed",
    "migration",
    "analytics script",
    "container ran out of RAM",
    "the importer fails with database is locked again",
    "rollback",
    "timeout",
    "cache invalidation",
    "CI pipeline flaky test",
    "migración",
    "TLS certificate expired",
    "rate limit",
    "memory leak",
    "login page",
    "kubernetes",
    "retry with backoff",
    "permission denied",
]


class Env:
    def __init__(self, a):
        self.profile = a.profile
        self.recall_bin = os.path.join(a.profile, "recall")
        self.extension = os.path.join(a.profile, "librecall0")
        self.sample = a.sample
        self.root = a.root
        self.litestream = a.litestream
        self.work = a.work
        self.processes = []

    def path(self, *parts):
        path = os.path.join(self.work, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return path

    def recall(self, db, *argv, stdin="", check=True):
        done = subprocess.run([self.recall_bin, "--db", db, *argv], input=stdin, capture_output=True, text=True, timeout=120)
        if check:
            assert done.returncode == 0, f"recall {' '.join(argv)}: {done.stderr}"
        return done

    def start(self, *argv):
        proc = subprocess.Popen([self.litestream, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.processes.append(proc)
        return proc

    def stop_all(self):
        for proc in self.processes:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.processes = []


def count(env, db):
    return json.loads(env.recall(db, "--json", "sql", "select count(*) as n from items").stdout)[0]["n"]


def wait_for(what, predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def search(env, db, query):
    got = json.loads(env.recall(db, "--json", "search", "--now", NOW, "--", query).stdout)
    return [(r["id"], r["title"], r["source"], r["score"]) for r in got["results"]]


def config(env, db, replica):
    """The primary's litestream.yml, as docs/team.md writes it."""
    path = env.path("primary", "litestream.yml")
    with open(path, "w") as f:
        f.write(
            "dbs:\n"
            f"  - path: {db}\n"
            "    replica:\n"
            "      type: file\n"
            f"      path: {replica}\n"
            "      sync-interval: 200ms\n"
        )
    return path


def test_replicated_while_writing(env):
    """The primary written by import and add while Litestream replicates it; the second
    machine's copies (one restore, and one following with -f) are clean, read-only, and
    answer 20 searches as the primary does; a forget reaches the follower."""
    primary = env.path("primary", "memory.db")
    replica = env.path("replica-store", "memory")
    env.recall(primary, "init")
    lines = open(env.sample).read().splitlines()
    first, rest = lines[:150], lines[150:]
    env.recall(primary, "import", "-", stdin="\n".join(first) + "\n")
    replicate = env.start("replicate", "-config", config(env, primary, replica))
    follow_db = env.path("machine2", "follow.db")
    # The follower starts once the replica has its first snapshot.
    wait_for("the first snapshot", lambda: os.path.isdir(os.path.join(replica, "ltx")))
    follower = env.start("restore", "-f", "-follow-interval", "100ms", "-o", follow_db, f"file://{replica}")
    # Writes while both run: the rest of the sample in three imports, and adds between.
    adds = []
    for n, start in enumerate(range(0, len(rest), 50)):
        env.recall(primary, "import", "-", stdin="\n".join(rest[start:start + 50]) + "\n")
        for k in range(3):
            done = env.recall(primary, "add", "--source", "agent-codex", "--project", "api",
                              "--title", f"Replica note {n}-{k}: retry with backoff after database is locked",
                              "--at", f"2025-05-{1 + n:02d}T10:0{k}:00Z")
            adds.append(int(done.stdout.strip()))
    total = count(env, primary)
    assert total == 300 + len(adds), total
    wait_for("the follower to catch up", lambda: os.path.exists(follow_db) and count(env, follow_db) == total)
    # A one-time restore on the second machine.
    restored = env.path("machine2", "restored.db")
    done = subprocess.run([env.litestream, "restore", "-o", restored, f"file://{replica}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert count(env, restored) == total
    for db in [follow_db, restored]:
        check = env.recall(db, "check", check=False)
        assert check.returncode == 0, check.stdout + check.stderr
        assert all(line.startswith("ok ") for line in check.stdout.splitlines()), check.stdout
    # The follower says it is a replica, and where it stands; the restored copy is a
    # plain library (nothing follows into it).
    check = env.recall(follow_db, "--json", "check")
    replica_line = [c for c in json.loads(check.stdout)["checks"] if c["name"] == "replica"]
    txid = open(follow_db + "-txid").read().strip()
    assert len(replica_line) == 1 and f"at transaction {txid}" in replica_line[0]["detail"], replica_line
    assert "read-only" in replica_line[0]["detail"]
    assert "replica" not in env.recall(restored, "check").stdout
    # 20 searches: the same ids, titles, sources and scores on both machines.
    found = 0
    for query in QUERIES:
        want = search(env, primary, query)
        assert search(env, follow_db, query) == want, query
        assert search(env, restored, query) == want, query
        found += bool(want)
    assert found >= 15, f"only {found} of the searches find anything"
    # Writes to the follower are refused, in one line, the file unchanged.
    before = open(follow_db, "rb").read()
    for argv in [["add", "--source", "x", "--title", "t", "--at", "2025-01-01"], ["forget", str(adds[0])], ["optimize"]]:
        done = env.recall(follow_db, *argv, check=False)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "replica that Litestream keeps current" in done.stderr, (argv, done.stderr)
    done = subprocess.run([env.recall_bin, "--db", follow_db, "mcp", "--allow-writes"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "replica that Litestream keeps current" in done.stderr, done.stderr
    assert open(follow_db, "rb").read() == before
    # The follower serves reads over MCP as any library does (the stdio handshake).
    handshake = "\n".join(json.dumps(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": QUERIES[1], "now": NOW}}},
    ]) + "\n"
    done = subprocess.run([env.recall_bin, "--db", follow_db, "mcp"], input=handshake, capture_output=True, text=True, timeout=30)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    got = answers[-1]["result"]["structuredContent"]["results"]
    assert [(r["id"], r["score"]) for r in got] == [(i, s) for i, _, _, s in search(env, primary, QUERIES[1])]
    # A forget on the primary reaches the follower: the item is gone there too, and so
    # are its words from the follower's file.
    secret = "zebraquokka-7f3a9c"
    item = int(env.recall(primary, "add", "--source", "agent-claude", "--title", f"Deploy key {secret} rotated", "--at", "2025-05-20").stdout.strip())
    wait_for("the new item on the follower", lambda: search(env, follow_db, secret))
    # Litestream holds a read transaction on the primary's log so that no other process
    # checkpoints it: the forget removes the item, but cannot empty the log, and says so.
    done = env.recall(primary, "--json", "forget", str(item), check=False)
    assert done.returncode == 1 and "recall forget --finish" in done.stderr, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["ids"] == [item], done.stdout
    wait_for("the forget on the follower", lambda: not search(env, follow_db, secret))
    # The follower's check names the wipe the primary still owes.
    done = env.recall(follow_db, "check", check=False)
    problems = [line for line in done.stdout.splitlines() if not line.startswith("ok ")]
    assert done.returncode == 1 and len(problems) == 1 and "on the primary" in problems[0], done.stdout
    # The wipe, finished with Litestream stopped for the moment it takes (docs/team.md).
    replicate.send_signal(signal.SIGTERM)
    replicate.wait(timeout=30)
    env.recall(primary, "forget", "--finish")
    assert all(secret.encode() not in open(p, "rb").read() for p in [primary, primary + "-wal"] if os.path.exists(p))
    replicate = env.start("replicate", "-config", config(env, primary, replica))
    marker = env.recall(primary, "add", "--source", "agent-claude", "--title", "After the wipe", "--at", "2025-05-21").stdout.strip()
    wait_for("replication after the wipe", lambda: search(env, follow_db, "After the wipe"))
    assert env.recall(follow_db, "check", check=False).returncode == 0
    wait_for("the follower's file without the text", lambda: all(
        secret.encode() not in open(p, "rb").read() for p in [follow_db, follow_db + "-wal"] if os.path.exists(p)))
    # What the docs say stays: the replica's older transaction files still hold the text
    # until Litestream's retention removes them.
    ltx = [os.path.join(d, f) for d, _, files in os.walk(replica) for f in files]
    assert any(secret.encode() in open(p, "rb").read() for p in ltx), "the replica's history holds the forgotten text"
    assert replicate.poll() is None and follower.poll() is None, "litestream stopped"
    env.stop_all()
    print(f"    {total} items replicated while writing ({len(adds)} adds); 20 searches equal; forget followed")


def shell(env, *commands, variables=None):
    """The sqlite3 shell (3.40 on Debian) with the given dot-commands and SQL."""
    full = dict(os.environ)
    full.update(variables or {})
    return subprocess.run(["sqlite3", "-batch", ":memory:", *commands], capture_output=True, text=True, timeout=120, env=full)


def test_read_in_place_with_the_vfs(env):
    """A replica read where it lies, through litestream-vfs, in the sqlite3 shell with
    librecall0 loaded: sql/search.sql answers as on the primary's file, under the
    `recall` tokenizer (the shell's SQLite is too old for the default trigram one); the
    index's own integrity check, a write to FTS5, is refused by the read-only VFS."""
    primary = env.path("vfs", "primary.db")
    replica = env.path("vfs-store", "memory")
    env.recall(primary, "init", "--tokenizer", "recall")
    env.recall(primary, "import", env.sample)
    replicate = env.start("replicate", primary, f"file://{replica}")
    wait_for("the first snapshot", lambda: os.path.isdir(os.path.join(replica, "ltx")))
    # Litestream copies the file as it is when it starts; a little later is enough.
    vfs = os.path.splitext(litestream_vfs.loadable_path())[0]
    variables = {"LITESTREAM_REPLICA_URL": f"file://{replica}"}
    search_sql = os.path.join(env.root, "sql", "search.sql")

    def run_search(open_commands, query):
        return shell(
            env,
            *open_commands,
            f".load {env.extension}",
            ".mode list",
            f".parameter set :query \"'{query}'\"",
            ".parameter set :tokenizer \"'recall'\"",
            f".parameter set :now \"'{NOW}'\"",
            f".read {search_sql}",
            variables=variables,
        )

    wait_for("the replica to hold every item", lambda: shell(
        env, f".load {vfs} sqlite3_litestreamvfs_init", ".open file:///memory.db?vfs=litestream",
        "select count(*) from items;", variables=variables).stdout.strip() == "300", timeout=60)
    found = 0
    for query in QUERIES[:10]:
        here = run_search([f".load {vfs} sqlite3_litestreamvfs_init", ".open file:///memory.db?vfs=litestream"], query)
        there = run_search([f".open {primary}"], query)
        assert here.returncode == 0 and not here.stderr, here.stderr
        assert here.stdout == there.stdout, (query, here.stdout[:300], there.stdout[:300])
        found += bool(here.stdout.strip())
    assert found >= 7, f"only {found} of the searches find anything"
    done = shell(env, f".load {vfs} sqlite3_litestreamvfs_init", ".open file:///memory.db?vfs=litestream",
                 f".load {env.extension}", "insert into items_fts(items_fts, rank) values('integrity-check', 1);",
                 variables=variables)
    assert done.returncode != 0 and "readonly database" in done.stderr, (done.returncode, done.stderr)
    assert replicate.poll() is None
    env.stop_all()


TESTS = [test_replicated_while_writing, test_read_in_place_with_the_vfs]


def main():
    parser = argparse.ArgumentParser()
    for name in ["profile", "sample", "root", "litestream", "work"]:
        parser.add_argument("--" + name, required=True)
    parser.add_argument("-k", default="")
    env = Env(parser.parse_args())
    passed = failed = 0
    for test in TESTS:
        if env_k := parser.parse_args().k:
            if env_k not in test.__name__:
                continue
        started = time.monotonic()
        try:
            test(env)
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__}")
            traceback.print_exc()
        else:
            passed += 1
            print(f"ok   {test.__name__} ({time.monotonic() - started:.1f} s)")
        finally:
            env.stop_all()
    print(f"replica: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
