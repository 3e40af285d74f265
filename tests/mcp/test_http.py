"""`recall mcp --http` driven by the official MCP Python SDK's streamable HTTP client,
on loopback: the same answers as the command line, bearer tokens, per-token access and
writes, refusals, many clients at once, and a client that goes away mid-call.

Run by tests/mcp/run.sh after test_mcp.py, in the same virtual environment.
"""

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from contextlib import asynccontextmanager, contextmanager

import anyio
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from test_mcp import (
    CALLS,
    READ_TOOLS,
    WRITE_TOOLS,
    Env,
    allowed,
    answer,
    cli,
    item_count,
    judge_config,
    refusal,
    run,
    same_as_cli,
    server as stdio_server,
)

CI = "ci-0123456789abcdef-token"
ME = "me-0123456789abcdef-token"
READER = "reader-0123456789abcdef"
DEFAULT = "default-0123456789abcdef"
# A line of the server's log: time, token, tool, milliseconds, outcome.
LOG = re.compile(r"^recall mcp: \S+Z token=(\S+) tool=(\S+) ms=\d+ (ok|error|cancelled)(.*)$")


class Http:
    """A `recall mcp --http 127.0.0.1:0` process: its URL and its log."""

    def __init__(self, proc):
        self.proc = proc
        self.log = []
        first = proc.stderr.readline()
        m = re.match(r"recall mcp: serving on (http://127\.0\.0\.1:\d+/mcp)$", first.strip())
        assert m, f"first line: {first!r} {proc.stderr.read() if proc.poll() is not None else ''}"
        self.url = m.group(1)
        self.port = int(self.url.split(":")[2].split("/")[0])
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stderr:
            self.log.append(line.rstrip("\n"))

    def lines(self, keep, at_least=0):
        """The log's lines that `keep` accepts, once there are `at_least` of them and no
        more arrive for a moment: the server writes each line before it answers, but the
        thread that reads them may lag behind on a busy machine."""
        deadline = time.monotonic() + 15
        seen, still = -1, 0
        while time.monotonic() < deadline:
            kept = [line for line in list(self.log) if keep(line)]
            still = still + 1 if len(kept) == seen else 0
            seen = len(kept)
            if seen >= at_least and still >= 3:
                break
            time.sleep(0.05)
        return kept

    def calls(self, at_least=0):
        return [LOG.match(line).groups() for line in self.lines(LOG.match, at_least)]


def token_config(env, name, text, tokens):
    """A configuration whose [tokens.NAME] read their tokens from files."""
    body = text
    for token_name, (secret, rest) in tokens.items():
        path = os.path.join(env.work, f"{name}.{token_name}.token")
        with open(path, "w") as f:
            f.write(secret + "\n")
        os.chmod(path, 0o600)
        body += f"[tokens.{token_name}]\nfile = {json.dumps(path)}\n{rest}"
    return env.config(name, body)


@contextmanager
def http_server(env, *options, db=None, config=None, token=DEFAULT, extra_env=None):
    """`recall --db LIB mcp --http 127.0.0.1:0 OPTIONS`, with RECALL_MCP_TOKEN=token."""
    args = [env.recall, "--db", db or env.lib]
    if config:
        args += ["--config", config]
    variables = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    if token:
        variables["RECALL_MCP_TOKEN"] = token
    variables.update(extra_env or {})
    proc = subprocess.Popen(
        [*args, "mcp", "--http", "127.0.0.1:0", *options],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=variables,
    )
    try:
        yield Http(proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


@asynccontextmanager
async def session(http, token):
    """An SDK client session with the server, showing `token`."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with create_mcp_http_client(headers=headers) as client:
        async with streamable_http_client(http.url, http_client=client) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s


def raw_post(http, headers, body=b"{}"):
    """A POST as any HTTP client sends it: (status, body text)."""
    response = httpx2.post(http.url, headers=headers, content=body, timeout=30)
    return response.status_code, response.text


MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}).encode()


# The tests.


async def test_every_tool_answers_as_the_command(env):
    """Each call of the stdio suite, over HTTP, is what `recall --json` prints; the tool
    list is the stdio server's."""
    async with stdio_server(env) as s:
        stdio_tools = [t.model_dump() for t in (await s.list_tools()).tools]
    with http_server(env) as http:
        async with session(http, DEFAULT) as s:
            tools = [t.model_dump() for t in (await s.list_tools()).tools]
            assert tools == stdio_tools
            for tool, arguments in CALLS:
                await same_as_cli(env, s, tool, arguments)
            assert "--allow-writes" in await refusal(s, "add", {"source": "agent-x", "title": "t", "occurred_at": "2025-01-01"})
        calls = http.calls(at_least=len(CALLS) + 1)
    # One log line per call, naming the token and the tool, without the query's words.
    assert [(t, tool) for t, tool, _, _ in calls] == [("default", tool) for tool, _ in CALLS] + [("default", "add")], calls
    assert [o for _, _, o, _ in calls] == ["ok"] * len(CALLS) + ["error"]
    text = "\n".join(http.log)
    for _, arguments in CALLS:
        for value in [arguments.get("query"), arguments.get("prompt")]:
            if value and value != "-":
                assert value not in text, f"the log holds {value!r}"


async def test_tokens_are_required_and_checked(env):
    """No token, a wrong one, another scheme: 401 with one line, for the SDK's client
    and any other; a request longer than a reading token may send 413; a foreign Host
    403; each refusal logged."""
    with http_server(env) as http:
        cases = [
            ({}, "no bearer token"),
            ({"Authorization": "Bearer " + DEFAULT + "x"}, "not one this server accepts"),
            ({"Authorization": "Bearer " + DEFAULT[:-1]}, "not one this server accepts"),
            ({"Authorization": "Basic " + DEFAULT}, "not a bearer token"),
        ]
        for headers, reason in cases:
            status, text = raw_post(http, {**MCP_HEADERS, **headers}, INITIALIZE)
            assert status == 401, (headers, status, text)
            assert text.count("\n") == 1 and text.startswith("recall: ") and reason in text, text
        for token in [None, "wrong-0123456789abcdef"]:
            try:
                async with session(http, token) as s:
                    await s.list_tools()
            except Exception as e:  # the SDK raises through its task groups
                errors = [repr(x) for x in leaves(e)]
                assert any("Server returned an error response" in x for x in errors), errors
            else:
                raise AssertionError(f"token {token!r} was let in")
        # The right token, in any case of the scheme's name.
        status, text = raw_post(http, {**MCP_HEADERS, "Authorization": "bearer " + DEFAULT}, INITIALIZE)
        assert status == 200 and json.loads(text)["result"]["serverInfo"]["name"] == "recall", text
        # A body declared longer than a token that only reads may send (the default token
        # of a server without --allow-writes): refused before it is read.
        with socket.create_connection(("127.0.0.1", http.port), timeout=30) as sock:
            sock.sendall(
                b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + DEFAULT.encode()
                + b"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + b"Content-Length: 1441793\r\n\r\n{"
            )
            reply = sock.recv(65536).decode()
        head, _, body = reply.partition("\r\n\r\n")
        assert head.startswith("HTTP/1.1 413"), reply
        assert body.count("\n") == 1 and "longer than the 1441792 bytes a call of a token that only reads" in body, body
        # One sent in chunks, past the limit, without a length: the same.
        def chunks():
            yield b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'
            block = b"x" * (1 << 20)
            for _ in range(2):
                yield block
            yield b'"}}'
        response = httpx2.post(http.url, headers={**MCP_HEADERS, "Authorization": "Bearer " + DEFAULT}, content=chunks(), timeout=120)
        assert response.status_code == 413 and "longer than the 1441792 bytes" in response.text, (response.status_code, response.text[:200])
        # A Host that is not loopback's (DNS rebinding): 403.
        status, text = raw_post(http, {**MCP_HEADERS, "Authorization": "Bearer " + DEFAULT, "Host": "attacker.example"}, INITIALIZE)
        assert status == 403 and text.count("\n") == 1 and "--public" in text, (status, text)
        refusals = http.lines(lambda line: " refused " in line, at_least=9)
        assert [re.search(r"refused (\d+)", r).group(1) for r in refusals] == ["401"] * 6 + ["413", "413", "403"], refusals
        # A browser page of another origin: 403; a body that is not JSON: the JSON-RPC
        # parse error, with HTTP 400, as the SDK's own servers answer it.
        status, text = raw_post(http, {**MCP_HEADERS, "Authorization": "Bearer " + DEFAULT, "Origin": "http://attacker.example"}, INITIALIZE)
        assert status == 403 and text.count("\n") == 1 and "--allow-origin" in text, (status, text)
        status, text = raw_post(http, {**MCP_HEADERS, "Authorization": "Bearer " + DEFAULT}, b'{"jsonrpc": "2.0", "id": 3, "method": ')
        assert status == 400 and json.loads(text)["error"]["code"] == -32700 and json.loads(text)["id"] == 3, (status, text)
        assert not any(DEFAULT in line for line in http.log), "a token in the log"


def leaves(e):
    """The exceptions inside nested exception groups."""
    if isinstance(e, BaseExceptionGroup):
        return [leaf for x in e.exceptions for leaf in leaves(x)]
    return [e]


def foreign(answer_json, globs):
    """The results of an answer whose source the globs forbid."""
    return [r for r in answer_json.get("results", []) if not allowed(r["source"], globs)]


async def test_per_token_access_and_writes(env):
    """One server, three tokens: `ci` reads only agent-*, `me` and `reader` everything.
    Each sees what the command sees under the same globs, `ci` never a row of another
    source, whose items answer it as missing ones do."""
    db = env.library("tokens.db")
    config = token_config(env, "tokens.toml", "", {
        "ci": (CI, 'allow = ["agent-*"]\nwrites = true\n'),
        "me": (ME, "writes = true\n"),
        "reader": (READER, ""),
    })
    globs = ["agent-*"]
    with http_server(env, "--allow-writes", db=db, config=config, token=None) as http:
        async with session(http, CI) as ci, session(http, ME) as me, session(http, READER) as reader:
            assert [t.name for t in (await ci.list_tools()).tools] == READ_TOOLS + WRITE_TOOLS
            assert [t.name for t in (await reader.list_tools()).tools] == READ_TOOLS
            ids = set()
            for tool, arguments in CALLS:
                got = await same_as_cli(env, ci, tool, arguments, db=db, options=["--allow", *globs])
                assert not foreign(got, globs), (tool, arguments, foreign(got, globs))
                everyone = await same_as_cli(env, me, tool, arguments, db=db)
                ids.update(r["id"] for r in everyone.get("results", []))
            # Every item of another source is missing to ci, found by me.
            others = [i for i in sorted(ids) if not allowed(json.loads(cli(env, "get", {"id": i}, db=db)[1])["item"]["source"], globs)]
            assert others, "the calls found items of other sources"
            for i in others[:20]:
                for tool in ["get", "later"]:
                    message = await refusal(ci, tool, {"id": i})
                    code, _, err = cli(env, tool, {"id": i}, db=db, options=["--allow", *globs])
                    assert code == 2 and message == json.loads(err.strip())["error"], (tool, message, err)
                assert (await answer(me, "get", {"id": i})).structured_content["item"]["id"] == i
            # The reader answers as the server's own access: everything.
            got = await same_as_cli(env, reader, "search", {"query": "database is locked"}, db=db)
            assert foreign(got, globs), "the reader sees every source"


async def test_per_token_writes(env):
    """`ci` writes only agent-* items, `me` any, `reader` none; forget by `ci` leaves
    what it may not read."""
    db = env.library("token-writes.db")
    config = token_config(env, "writes.toml", "", {
        "ci": (CI, 'allow = ["agent-*"]\nwrites = true\n'),
        "me": (ME, "writes = true\n"),
        "reader": (READER, ""),
    })
    before = item_count(db)
    human = {"source": "human-notes", "title": "Quokka zebra plan", "occurred_at": "2025-02-03"}
    agent = {"source": "agent-ci", "title": "Quokka zebra run", "occurred_at": "2025-02-04"}
    with http_server(env, "--allow-writes", db=db, config=config, token=None) as http:
        async with session(http, CI) as ci, session(http, ME) as me, session(http, READER) as reader:
            message = await refusal(ci, "add", human)
            assert "is not one the access globs" in message and "agent-*" in message, message
            message = await refusal(reader, "add", agent)
            assert "token \"reader\" may only read" in message and "[tokens.reader]" in message, message
            assert item_count(db) == before
            added = (await answer(ci, "add", agent)).structured_content["id"]
            mine = (await answer(me, "add", human)).structured_content["id"]
            found = (await answer(ci, "search", {"query": "quokka zebra"})).structured_content["results"]
            assert [r["id"] for r in found] == [added], found
            found = (await answer(me, "search", {"query": "quokka zebra"})).structured_content["results"]
            assert sorted(r["id"] for r in found) == sorted([added, mine]), found
            # ci's forget leaves what it may not read, and says so; the reader's writes nothing.
            human_ids = [i for i in range(1, 40) if json.loads(cli(env, "get", {"id": i}, db=db)[1])["item"]["source"] == "human-notes"][:3]
            got = (await answer(ci, "forget", {"ids": human_ids + [mine]})).structured_content
            assert sorted(got["unmatched"]) == sorted(human_ids + [mine]) and got["ids"] == [], got
            assert "may only read" in await refusal(reader, "forget", {"ids": [added]})
            assert item_count(db) == before + 2
            got = (await answer(ci, "forget", {"ids": [added]})).structured_content
            assert got["ids"] == [added] and got["wiped"] is True, got
            assert item_count(db) == before + 1
        calls = http.calls()
    assert {t for t, _, _, _ in calls} == {"ci", "me", "reader"}, calls


async def test_many_clients_at_once(env):
    """8 SDK clients, 100 calls each, all at once on one server: no error; each answer is
    the one the same call gives alone. Prints calls per second and the p95 latency."""
    db = env.library("load.db")
    calls = [
        ("search", {"query": "database is locked deploy", "limit": 10, "now": "2025-06-01T00:00:00Z"}),
        ("related", {"prompt": "the importer fails with database is locked again", "now": "2025-06-01T00:00:00Z"}),
        ("timeline", {"project": "api", "limit": 10}),
        ("later", {"id": 14}),
        ("get", {"id": 31}),
    ]
    with http_server(env, db=db) as http:
        async with session(http, DEFAULT) as s:
            expected = [(await answer(s, tool, arguments)).structured_content for tool, arguments in calls]
        latencies, failures = [], []

        async def client(n):
            async with session(http, DEFAULT) as s:
                for i in range(100):
                    k = (n + i) % len(calls)
                    tool, arguments = calls[k]
                    started = time.monotonic()
                    result = await s.call_tool(tool, arguments)
                    latencies.append(time.monotonic() - started)
                    if result.is_error or result.structured_content != expected[k]:
                        failures.append((tool, result.content[0].text[:200]))

        started = time.monotonic()
        async with anyio.create_task_group() as group:
            for n in range(8):
                group.start_soon(client, n)
        wall = time.monotonic() - started
        assert not failures, failures[:3]
        assert len(latencies) == 800
        logged = http.calls(at_least=805)
    latencies.sort()
    p95 = latencies[int(0.95 * len(latencies)) - 1]
    print(f"    8 clients x 100 calls: {800 / wall:.0f} calls/s, p50 {latencies[399] * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms, slowest {latencies[-1] * 1000:.1f} ms")
    assert sum(1 for c in logged if c[2] == "ok") == 805, len(logged)


def processes_under(pid):
    """The pids of every descendant of a process."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid):
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


CLIENT = """
import anyio, sys
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
async def main():
    async with create_mcp_http_client(headers={"Authorization": "Bearer " + sys.argv[2]}) as c:
        async with streamable_http_client(sys.argv[1], http_client=c) as (r, w):
            async with ClientSession(r, w) as s:
                await s.initialize()
                print("calling", flush=True)
                await s.call_tool("search", {"query": "database is locked"})
anyio.run(main)
"""


async def test_a_client_gone_mid_call_leaves_no_helper(env):
    """A client process killed while its search waits on a judge that never answers:
    the judge (and the child it started) is killed, and the server answers the next."""
    hang = judge_config(env, "hang.toml", "--mode", "hang")
    with http_server(env, config=hang) as http:
        expected = []
        for how in ["kill", "exit"]:
            client = subprocess.Popen([sys.executable, "-c", CLIENT, http.url, DEFAULT], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert client.stdout.readline().strip() == "calling"
            deadline = time.monotonic() + 30
            helpers = []
            while time.monotonic() < deadline:
                helpers = processes_under(http.proc.pid)
                # The judge and the `sleep` it starts.
                if len(helpers) >= 2:
                    break
                await anyio.sleep(0.05)
            assert len(helpers) >= 2, helpers
            if how == "kill":
                client.kill()
            else:
                # The connection closed by the client itself: its process ends.
                client.send_signal(signal.SIGINT)
            signalled = time.monotonic()
            client.wait(timeout=30)
            # On a busy machine the SDK, told to stop, may first wait for the answer: the
            # judge's timeout (5 s) ends the call, literal search answers, and only then
            # does the client leave. The server has to count what happened.
            waited = time.monotonic() - signalled >= 4.5
            expected.append(("search", "ok" if how == "exit" and waited else "cancelled"))
            deadline = time.monotonic() + 30
            while any(alive(p) for p in helpers) and time.monotonic() < deadline:
                await anyio.sleep(0.05)
            assert not any(alive(p) for p in helpers), [p for p in helpers if alive(p)]
            assert http.proc.poll() is None, "the server ended"
            async with session(http, DEFAULT) as s:
                got = await same_as_cli(env, s, "get", {"id": 14})
                assert got["item"]["id"] == 14
        outcomes = [(tool, o) for _, tool, o, _ in http.calls(at_least=4) if tool == "search"]
        assert outcomes == expected, (outcomes, expected)


async def test_log_arguments_only_when_asked(env):
    query = {"query": "analytics script removal", "now": "2025-06-01T00:00:00Z"}
    with http_server(env, "--log-arguments") as http:
        async with session(http, DEFAULT) as s:
            await answer(s, "search", query)
            await refusal(s, "get", {"id": 99999})
        calls = http.calls(at_least=2)
    assert calls[0][2] == "ok" and json.loads(calls[0][3].split(" arguments=", 1)[1]) == query, calls
    assert calls[1][2] == "error" and "no item 99999" in calls[1][3], calls


def test_start_errors(env):
    """Each mistake at start is one line and exit 2, before anything listens."""
    short = os.path.join(env.work, "short.token")
    with open(short, "w") as f:
        f.write("tooshort\n")
    cases = [
        ([], {}, "needs a bearer token"),
        (["--token-file", short], {}, "fewer than 16"),
        (["--token-file", "/nonexistent/token"], {}, "cannot read --token-file"),
        (["--token-file", short], {"RECALL_MCP_TOKEN": DEFAULT}, "keep one"),
    ]
    for options, variables, want in cases:
        done = run_env(env, ["mcp", "--http", "127.0.0.1:0", *options], variables)
        assert done.returncode == 2 and want in done.stderr and done.stderr.count("\n") == 1, (options, done.stderr)
    done = run_env(env, ["mcp", "--http", "0.0.0.0:0"], {"RECALL_MCP_TOKEN": DEFAULT})
    assert done.returncode == 2 and "not a loopback address" in done.stderr and "--public" in done.stderr, done.stderr
    done = run_env(env, ["mcp", "--token-file", short], {})
    assert done.returncode == 2 and "--http" in done.stderr, done.stderr
    # The configuration's table, checked as it is read.
    for text, want in [
        ('[tokens.ci]\nallow = ["agent-*"]\n', "say where the token is read from"),
        ('[tokens.ci]\nfile = "rel/path"\n', "not an absolute path"),
        ('[tokens.ci]\nenv = "X"\nallow = []\n', "allow is empty"),
        ('[tokens."c i"]\nenv = "X"\n', "letters, digits"),
        ('[tokens.ci]\nenv = "X"\ncolour = 1\n', "unknown field `colour`"),
        ('[tokens.ci]\nenv = "RECALL_TEST_UNSET_TOKEN"\n', "RECALL_TEST_UNSET_TOKEN is not set"),
    ]:
        path = env.config("bad-tokens.toml", text)
        done = run_env(env, ["--config", path, "mcp", "--http", "127.0.0.1:0"], {})
        assert done.returncode == 2 and want in done.stderr and done.stderr.count("\n") == 1, (text, done.stderr)


def run_env(env, argv, variables):
    full = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    full.update(variables)
    return subprocess.run([env.recall, "--db", env.lib, *argv], capture_output=True, text=True, timeout=30, env=full, stdin=subprocess.DEVNULL)


TESTS = [
    test_start_errors,
    test_every_tool_answers_as_the_command,
    test_tokens_are_required_and_checked,
    test_per_token_access_and_writes,
    test_per_token_writes,
    test_many_clients_at_once,
    test_a_client_gone_mid_call_leaves_no_helper,
    test_log_arguments_only_when_asked,
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recall", required=True)
    parser.add_argument("--sample", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("-k", default="", help="run only the tests whose name contains this")
    a = parser.parse_args()
    env = Env(os.path.abspath(a.recall), os.path.abspath(a.sample), a.work)
    passed = failed = 0
    for test in TESTS:
        if a.k not in test.__name__:
            continue
        started = time.monotonic()
        try:
            if asyncio.iscoroutinefunction(test):
                anyio.run(test, env)
            else:
                test(env)
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__}")
            traceback.print_exc()
        else:
            passed += 1
            print(f"ok   {test.__name__} ({time.monotonic() - started:.1f} s)")
    print(f"mcp over http: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
