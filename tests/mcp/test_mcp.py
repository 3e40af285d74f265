"""`recall mcp` driven by the official MCP Python SDK over stdio.

Every answer is compared with `recall --json COMMAND` run as a separate process with the
same arguments; errors with the command's one-line message. Run by tests/mcp/run.sh,
which makes the virtual environment this needs.
"""

import argparse
import fnmatch
import json
import math
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import traceback
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

READ_TOOLS = ["search", "later", "related", "timeline", "get"]
WRITE_TOOLS = ["add", "forget"]
# The argument a command takes as its positional one.
POSITIONAL = {"search": "query", "related": "prompt", "later": "id", "get": "id"}
NOW = "2025-06-01T00:00:00Z"


class Env:
    def __init__(self, recall, sample, work):
        self.recall = recall
        self.sample = sample
        self.work = work
        self.lib = self.library("lib.db")

    def library(self, name):
        """A new library made from the sample."""
        path = os.path.join(self.work, name)
        run(self.recall, "--db", path, "init").check_returncode()
        run(self.recall, "--db", path, "import", self.sample).check_returncode()
        return path

    def config(self, name, text):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(text)
        return path


def run(*argv, stdin=""):
    return subprocess.run(list(argv), input=stdin, capture_output=True, text=True, timeout=120)


def argv_of(tool, arguments):
    """The options and positional arguments `recall TOOL` takes for a tool call's
    arguments: `--name=value` (so that a negative number stays a value), then after `--`
    the positional ones (so that `-5` is an id, not a flag)."""
    options, positional = [], []
    for name, value in arguments.items():
        if name == POSITIONAL.get(tool):
            positional.append(str(value))
        elif tool in ("forget", "get") and name == "ids":
            positional += [str(i) for i in value]
        elif isinstance(value, list):
            options += [f"--{name.replace('_', '-')}={v}" for v in value]
        elif isinstance(value, bool):
            options += ["--" + name.replace("_", "-")] if value else []
        else:
            options.append(f"--{name.replace('_', '-')}={value}")
    return options, positional


def cli(env, tool, arguments, db=None, options=()):
    """`recall --json TOOL …` as a separate process: (exit code, stdout, stderr)."""
    flags, positional = argv_of(tool, arguments)
    # `-` is the command line's "read it from standard input": give it that way.
    stdin = "-" if positional == ["-"] else ""
    argv = [env.recall, "--db", db or env.lib, "--json", tool, *flags, *options, "--", *positional]
    done = run(*argv, stdin=stdin)
    return done.returncode, done.stdout, done.stderr


def cli_error(env, tool, arguments, db=None, options=()):
    """The one-line message of a command that fails."""
    code, out, err = cli(env, tool, arguments, db, options)
    assert code == 2, f"{tool} {arguments}: expected a failure, got {code}: {out}"
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one error line: {err!r}"
    return json.loads(lines[0])["error"]


@asynccontextmanager
async def server(env, *options, db=None, config=None):
    """A session with `recall --db LIB mcp OPTIONS` (its own process)."""
    args = ["--db", db or env.lib]
    if config:
        args += ["--config", config]
    params = StdioServerParameters(command=env.recall, args=[*args, "mcp", *options])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def answer(session, tool, arguments):
    """A tool's structured answer; its text must be the same object."""
    result = await session.call_tool(tool, arguments)
    text = result.content[0].text
    assert not result.is_error, f"{tool} {arguments}: {text}"
    assert json.loads(text) == result.structured_content, "text and structured content differ"
    return result


async def refusal(session, tool, arguments):
    """A tool error's message."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, f"{tool} {arguments}: expected a tool error, got {result.content[0].text[:300]}"
    assert len(result.content) == 1
    return result.content[0].text


async def same_as_cli(env, session, tool, arguments, db=None, options=()):
    """Calls a tool and checks its answer against the command's --json output."""
    started = time.monotonic()
    result = await answer(session, tool, arguments)
    got = result.structured_content
    code, out, err = cli(env, tool, arguments, db, options)
    elapsed = time.monotonic() - started
    assert code == 0, f"recall {tool} {arguments}: {err}"
    want = json.loads(out)
    if "now" in want.get("settings", {}) and "now" not in arguments:
        # The two calls read the clock at different moments, to the second: the time
        # and the recency-weighted scores may differ, by no more than that time moves them.
        assert isinstance(got["settings"].pop("now"), str)
        want["settings"].pop("now")
        same_scores_but_for_the_clock(got, want, elapsed)
        # --explain's shell replay binds that time as :now.
        for doc in (got, want):
            replay = doc.get("explain", {}).get("sql")
            if replay is not None:
                doc["explain"]["sql"] = re.sub(r"(?m)^\.parameter set :now .*$", ".parameter set :now NOW", replay)
    else:
        # The same object, printed the same way.
        assert result.content[0].text == out.rstrip("\n"), f"{tool} {arguments}: text differs"
    assert got == want, f"{tool} {arguments}:\nmcp: {json.dumps(got)[:600]}\ncli: {json.dumps(want)[:600]}"
    return got


def same_scores_but_for_the_clock(got, want, elapsed):
    """Checks each score against its twin, then drops them from both answers.

    A score is relevance * ((1 - w) + w * 2^(-age / half_life)). The decay changes by at
    most ln 2 / half_life of itself per day of age, so a score moves by at most
    score * w * ln 2 / (half_life * (1 - w)) per day, and the calls are at most
    `elapsed` plus one second (the clock is read to the second) apart.
    """
    settings = want["settings"]
    w, half_life = settings["recency_weight"], settings["half_life_days"]
    days = (elapsed + 1.0) / 86400.0
    for a, b in zip(got.get("results", []), want.get("results", [])):
        if "score" not in b:
            continue
        bound = abs(b["score"]) * w * math.log(2) / (half_life * (1 - w)) * days if w < 1 else math.inf
        assert abs(a.pop("score") - b.pop("score")) <= bound + 1e-12, (a, b, bound)


def item_count(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("select count(*) from items").fetchone()[0]
    finally:
        con.close()


def schema_of(tools, name):
    return next(t for t in tools if t.name == name).input_schema


# The tests. Each takes the environment; the runner at the bottom calls them in order.


async def test_tool_list_and_schemas(env):
    async with server(env) as s:
        tools = (await s.list_tools()).tools
        assert [t.name for t in tools] == READ_TOOLS, [t.name for t in tools]
        required = {t.name: sorted(t.input_schema.get("required", [])) for t in tools}
        # search takes a query or a file: neither is required alone.
        assert required == {
            "search": [],
            "later": ["id"],
            "related": ["prompt"],
            "timeline": [],
            "get": [],
        }, required
        for t in tools:
            schema = t.input_schema
            assert schema["type"] == "object" and schema["additionalProperties"] is False
            assert t.description and t.annotations.read_only_hint is True
            for name, prop in schema["properties"].items():
                assert prop.get("description"), f"{t.name}.{name} has no description"
        types = {
            ("search", "query"): ["string", "null"],
            ("search", "file"): ["string", "null"],
            ("search", "limit"): ["integer", "null"],
            ("search", "weight"): ["number", "null"],
            ("search", "half_life"): ["number", "null"],
            ("search", "pool"): ["integer", "null"],
            ("search", "prune"): ["number", "null"],
            ("search", "context_weight"): ["number", "null"],
            ("search", "context_radius"): ["integer", "null"],
            ("search", "context_gap"): ["number", "null"],
            ("search", "literal"): "boolean",
            ("search", "explain"): "boolean",
            ("search", "since"): ["string", "null"],
            ("later", "id"): "integer",
            ("related", "prompt"): "string",
            ("timeline", "project"): ["string", "null"],
            ("get", "id"): ["integer", "null"],
            ("get", "ids"): ["array", "null"],
            ("get", "transcript"): "boolean",
            ("search", "kind"): "array",
            ("timeline", "around"): ["integer", "null"],
        }
        for (tool, name), want in types.items():
            got = schema_of(tools, tool)["properties"][name]["type"]
            assert got == want, f"{tool}.{name}: {got} != {want}"
        # The access globs are the server's: no tool takes them.
        assert all("allow" not in t.input_schema["properties"] for t in tools)
        # Each argument is an option of the command: the command line takes them all.
        for t in tools:
            help_text = run(env.recall, t.name, "--help").stdout
            for name in t.input_schema["properties"]:
                # get's ids are the command's ID… as a list.
                if name != POSITIONAL.get(t.name) and (t.name, name) != ("get", "ids"):
                    flag = "--" + name.replace("_", "-")
                    assert flag in help_text, f"{t.name}: recall {t.name} has no {flag}"
        # Defaults shown are the ones a call without the argument uses: the command's.
        code, out, _ = cli(env, "search", {"query": "x"})
        settings = json.loads(out)["settings"]
        props = schema_of(tools, "search")["properties"]
        assert props["limit"]["default"] == settings["limit"]
        assert props["pool"]["default"] == settings["pool"]
        assert props["weight"]["default"] == settings["recency_weight"]
        assert props["half_life"]["default"] == settings["half_life_days"]
        for tool in ["later", "timeline", "related"]:
            arguments = {"id": 14} if tool == "later" else {"prompt": "analytics script shop"} if tool == "related" else {}
            _, out, _ = cli(env, tool, arguments)
            assert schema_of(tools, tool)["properties"]["limit"]["default"] == json.loads(out)["settings"]["limit"], tool
    # A configuration moves them, for the command and the server alike.
    config = env.config(
        "defaults.toml",
        "[search]\ndefault_limit = 7\nrecency_weight = 0.6\ncandidate_pool = 120\n[timeline]\ndefault_limit = 4\n",
    )
    async with server(env, config=config) as s:
        tools = (await s.list_tools()).tools
        _, out, _ = cli(env, "search", {"query": "x"}, options=["--config", config])
        settings = json.loads(out)["settings"]
        props = schema_of(tools, "search")["properties"]
        assert (props["limit"]["default"], props["weight"]["default"], props["pool"]["default"]) == (
            settings["limit"],
            settings["recency_weight"],
            settings["pool"],
        ) == (7, 0.6, 120), settings
        assert schema_of(tools, "timeline")["properties"]["limit"]["default"] == 4
        got = await same_as_cli(env, s, "search", {"query": "database is locked"}, options=["--config", config])
        assert got["settings"]["limit"] == 7
    # The rule of related too: the configuration's, for the tool as for the command.
    prompt = {"prompt": "Deploy the new version to production and keep an eye on the logs", "now": NOW}
    rule = env.config("rule.toml", '[related]\nrule = "jezero"\n')
    async with server(env, config=rule) as s:
        got = await same_as_cli(env, s, "related", prompt, options=["--config", rule])
        assert got["settings"]["rule"] == "jezero" and len(got["results"]) == 3, got
    async with server(env) as s:
        got = await same_as_cli(env, s, "related", prompt)
        assert got["settings"]["rule"] == "idf" and got["results"] == [], got
    async with server(env, "--allow-writes") as s:
        tools = (await s.list_tools()).tools
        assert [t.name for t in tools] == READ_TOOLS + WRITE_TOOLS
        add = schema_of(tools, "add")
        assert sorted(add["required"]) == ["occurred_at", "source", "title"]
        forget = schema_of(tools, "forget")
        assert forget["properties"]["ids"]["type"] == "array"
        assert forget["properties"]["ids"]["items"]["type"] == "integer"
        assert forget["properties"]["dry_run"]["type"] == "boolean"
        assert next(t for t in tools if t.name == "forget").annotations.destructive_hint is True


CALLS = [
    ("search", {"query": "When did we decide to remove the analytics script?"}),
    ("search", {"query": "database is locked", "project": "api", "since": "2024-06-01", "explain": True}),
    ("search", {"query": "ECONNREFUSED 5432", "limit": 3, "weight": 0.5, "half_life": 30, "now": NOW}),
    ("search", {"query": "the deploy failed", "pool": 50, "literal": True, "source": "agent-claude", "until": "2025-01-01"}),
    ("search", {"query": "migration", "prune": 0.5, "explain": True, "now": NOW}),
    ("search", {"query": "database is locked", "context_weight": 0.5, "context_radius": 3,
                "context_gap": 100000, "explain": True, "now": NOW}),
    ("search", {"query": "deploy failed in March 2025", "period_weight": 2.5, "explain": True, "now": NOW}),
    ("search", {"query": "zzzqqq nothing matches this", "explain": True, "now": NOW}),
    ("search", {"query": "-"}),
    ("later", {"id": 14}),
    ("later", {"id": 14, "query": "analytics", "limit": 2, "explain": True}),
    ("related", {"prompt": "the importer fails with database is locked again"}),
    ("related", {"prompt": "analytics script on the shop", "project": "shop", "now": NOW, "explain": True}),
    ("related", {"prompt": "hello", "explain": True, "weight": 0, "half_life": 10, "limit": 1}),
    ("timeline", {"project": "infra", "limit": 5}),
    ("timeline", {"source": "ci-bot", "since": "2024-03-01", "until": "2024-09-01", "explain": True}),
    ("timeline", {}),
    ("get", {"id": 14}),
    ("get", {"id": 14, "transcript": True}),
]


async def test_every_tool_answers_as_the_command(env):
    async with server(env) as s:
        for tool, arguments in CALLS:
            await same_as_cli(env, s, tool, arguments)
        # The query "-" is text to search for: stdin carries the protocol, not a query.
        got = await answer(s, "search", {"query": "-"})
        assert got.structured_content["settings"]["query"] == "-"


async def test_writes_need_allow_writes(env):
    db = env.library("writes.db")
    before = item_count(db)
    item = {"source": "agent-test", "project": "zoo", "title": "Quokka zebra rollout", "occurred_at": "2025-02-03"}
    async with server(env, db=db) as s:
        for tool, arguments in [("add", item), ("forget", {"ids": [1]})]:
            message = await refusal(s, tool, arguments)
            assert "--allow-writes" in message, message
        assert item_count(db) == before
        await same_as_cli(env, s, "get", {"id": 1}, db=db)
    async with server(env, "--allow-writes", db=db) as s:
        added = (await answer(s, "add", item)).structured_content
        assert added == {"command": "add", "id": before + 1, "duplicate_of": None, "added": True, "redacted": {}}, added
        assert item_count(db) == before + 1
        found = (await same_as_cli(env, s, "search", {"query": "quokka zebra"}, db=db))["results"]
        assert [r["id"] for r in found] == [added["id"]], found
        got = (await same_as_cli(env, s, "get", {"id": added["id"]}, db=db))["item"]
        assert (got["source"], got["project"], got["title"], got["occurred_at"]) == (
            "agent-test",
            "zoo",
            "Quokka zebra rollout",
            "2025-02-03T00:00:00Z",
        )
        again = (await answer(s, "add", item)).structured_content
        assert again["duplicate_of"] == added["id"] and again["id"] == added["id"] + 1
        # The command's own checks, and its words.
        for bad in [{"title": "t"}, {**item, "colour": "red"}, {**item, "occurred_at": "soon"}, {**item, "title": 5}]:
            message = await refusal(s, "add", bad)
            done = run(env.recall, "--db", db, "--json", "add", "-", stdin=json.dumps(bad))
            want = json.loads(done.stderr.strip())["error"]
            assert message == want, (message, want)
        assert item_count(db) == before + 2
        ids = [added["id"], again["id"]]
        dry = await same_as_cli(env, s, "forget", {"ids": ids, "dry_run": True}, db=db)
        assert dry["ids"] == ids and dry["dry_run"] is True
        assert item_count(db) == before + 2
        assert await refusal(s, "forget", {}) == cli_error(env, "forget", {}, db=db)
        too_many = list(range(1, 10_002))
        message = await refusal(s, "forget", {"ids": too_many})
        assert message == "ids has 10001 entries, more than the 10000 allowed: give them in batches", message
        assert await refusal(s, "forget", {"ids": [1], "before": "garbage"}) == cli_error(
            env, "forget", {"ids": [1], "before": "garbage"}, db=db
        )
        assert item_count(db) == before + 2
        gone = (await answer(s, "forget", {"ids": ids + [999999]})).structured_content
        assert gone["ids"] == ids and gone["unmatched"] == [999999] and gone["dry_run"] is False, gone
        assert gone["wiped"] is True, gone
        assert item_count(db) == before
        assert (await same_as_cli(env, s, "search", {"query": "quokka zebra"}, db=db))["results"] == []
        message = await refusal(s, "get", {"id": added["id"]})
        assert message == cli_error(env, "get", {"id": added["id"]}, db=db)
    check = run(env.recall, "--db", db, "check")
    assert check.returncode == 0, check.stdout


def allowed(source, globs):
    # Case-sensitive, as SQLite's GLOB is; the patterns here have only `*`, which both
    # read alike.
    return any(fnmatch.fnmatchcase(source, g) for g in globs)


async def test_access_globs_bind_every_tool(env):
    sources = {}
    for line_no, line in enumerate(open(env.sample), start=1):
        sources[line_no] = json.loads(line)["source"]
    globs = ["agent-*"]
    forbidden = [i for i, s in sources.items() if not allowed(s, globs)]
    permitted = [i for i, s in sources.items() if allowed(s, globs)]
    assert forbidden and permitted
    options = ["--allow", globs[0]]
    async with server(env, *options) as s:
        for tool, arguments in CALLS:
            if "id" in arguments and not allowed(sources[arguments["id"]], globs):
                continue
            got = await same_as_cli(env, s, tool, arguments, options=options)
            rows = got.get("results", [got.get("item")])
            assert all(allowed(r["source"], globs) for r in rows), rows
        for tool, arguments in [
            ("search", {"query": "Bump dependency", "limit": 50}),
            ("timeline", {"limit": 50}),
            ("related", {"prompt": "bump serde dependency update changelog"}),
        ]:
            rows = (await same_as_cli(env, s, tool, arguments, options=options))["results"]
            assert all(allowed(r["source"], globs) for r in rows), rows
        # A forbidden item answers exactly like a missing one.
        for item_id in forbidden[:5]:
            for tool, arguments in [("get", {"id": item_id}), ("later", {"id": item_id})]:
                message = await refusal(s, tool, arguments)
                assert message == cli_error(env, tool, arguments, options=options)
                assert message == cli_error(env, tool, {"id": 987654}).replace("987654", str(item_id))
        await same_as_cli(env, s, "get", {"id": permitted[0]}, options=options)
    # The configuration's [access] allow binds the server as it binds the command.
    config = env.config("access.toml", '[access]\nallow = ["ci-*"]\n')
    async with server(env, config=config) as s:
        rows = (await same_as_cli(env, s, "timeline", {"limit": 50}, options=["--config", config]))["results"]
        assert rows and all(r["source"] == "ci-bot" for r in rows), rows
        first_agent = permitted[0]
        message = await refusal(s, "get", {"id": first_agent})
        assert message == cli_error(env, "get", {"id": first_agent}, options=["--config", config])
    # Writes too: no adding to a forbidden source, no forgetting a forbidden item.
    db = env.library("access-writes.db")
    async with server(env, "--allow-writes", *options, db=db) as s:
        message = await refusal(s, "add", {"source": "ci-bot", "title": "Sneaky", "occurred_at": "2025-01-01"})
        assert "ci-bot" in message and "agent-*" in message, message
        victim, mine = forbidden[0], permitted[0]
        dry = (await answer(s, "forget", {"ids": [victim, mine], "dry_run": True})).structured_content
        assert dry["ids"] == [mine] and dry["unmatched"] == [victim], dry
        gone = (await answer(s, "forget", {"ids": [victim, mine]})).structured_content
        assert gone["ids"] == [mine] and gone["unmatched"] == [victim], gone
        gone = (await answer(s, "forget", {"source": sources[victim]})).structured_content
        assert gone["ids"] == [], gone
        assert item_count(db) == 299
    code, out, _ = cli(env, "get", {"id": victim}, db=db)
    assert code == 0 and json.loads(out)["item"]["id"] == victim


async def test_bad_arguments_are_tool_errors(env):
    megabyte = "x" * 1_000_000
    async with server(env) as s:
        good = ("search", {"query": "analytics script", "now": NOW})

        async def still_serving():
            await same_as_cli(env, s, *good)

        # What the command refuses, refused in its words.
        for tool, arguments in [
            ("get", {"id": 99999}),
            ("get", {"id": -5}),
            ("later", {"id": 99999}),
            ("search", {"query": "x", "weight": 2}),
            ("search", {"query": "x", "weight": -0.1}),
            ("search", {"query": "x", "half_life": 0}),
            ("search", {"query": "x", "prune": 1.5}),
            ("search", {"query": "x", "context_radius": 11}),
            ("search", {"query": "x", "context_weight": 1.5}),
            ("search", {"query": "x", "period_weight": -1}),
            ("search", {"query": "x", "period_weight": 10.5}),
            ("search", {"query": "x", "since": "garbage"}),
            ("search", {"query": "x", "until": "10000-01-01"}),
            ("search", {"query": "x", "now": "yesterday"}),
            ("related", {"prompt": "x", "weight": 7}),
            ("timeline", {"since": "2024-13-45"}),
        ]:
            message = await refusal(s, tool, arguments)
            assert message == cli_error(env, tool, arguments), (tool, arguments, message)
            await still_serving()
        # What only a client can send: wrong types, unknown or missing arguments, empty
        # or huge text, limits below 1.
        for tool, arguments, want in [
            ("search", {"query": 5}, "query must be a string, got the number 5"),
            ("search", {"query": ["a"]}, "query must be a string, got an array"),
            ("search", {"query": "x", "limit": "5"}, "limit must be an integer, got a string"),
            ("search", {"query": "x", "limit": 2.5}, "limit must be an integer, got the number 2.5"),
            ("search", {"query": "x", "explain": "yes"}, "explain must be true or false, got a string"),
            ("search", {"query": "x", "weight": "high"}, "weight must be a number, got a string"),
            ("get", {"id": "14"}, "id must be an integer, got a string"),
            ("get", {"id": 1.5}, "id must be an integer, got the number 1.5"),
            ("get", {"id": 2**64 - 1}, f"id must be an integer from {-2**63} to {2**63 - 1}, got {2**64 - 1}"),
            ("get", {}, "id is missing: give id (one item) or ids (several)"),
            ("get", {"ids": [1, "2"]}, "ids must be an integer, got a string"),
            ("timeline", {"around": 14, "project": "shop"}, "around cannot be given with project: around lists the item's own neighbours (before and after say how many)"),
            ("search", {"query": "x", "scope": "everywhere"}, None),
            ("search", {}, "query is empty: give the words to search for, or a file"),
            ("search", {"query": None}, "query is empty: give the words to search for, or a file"),
            ("search", {"query": ""}, "query is empty: give the words to search for, or a file"),
            ("search", {"query": " \t\n"}, "query is empty: give the words to search for, or a file"),
            ("related", {"prompt": ""}, "prompt is empty: give the first prompt of the session"),
            ("search", {"query": megabyte}, "query is 1000000 bytes, more than the 65536 allowed"),
            ("related", {"prompt": megabyte}, "prompt is 1000000 bytes, more than the 65536 allowed"),
            ("search", {"query": "x", "project": megabyte}, "project is 1000000 bytes, more than the 4096 allowed"),
            ("timeline", {"since": megabyte}, "since is 1000000 bytes, more than the 4096 allowed"),
            ("later", {"id": 14, "query": megabyte}, "query is 1000000 bytes, more than the 65536 allowed"),
            ("search", {"query": "x", "limit": -1}, "limit must be a positive whole number, got -1: leave it out for the default"),
            ("timeline", {"limit": 0}, "limit must be a positive whole number, got 0: leave it out for the default"),
        ]:
            message = await refusal(s, tool, arguments)
            assert want is None or message == want, (tool, str(arguments)[:80], message)
            assert "\n" not in message and len(message) < 400, message[:500]
            await still_serving()
        message = await refusal(s, "search", {"query": "x", "colour": "red"})
        assert message.startswith('unknown argument "colour" (known: ') and "query" in message, message
        # An unknown tool is the protocol's error, and the server goes on.
        try:
            await s.call_tool("nonsense", {})
            raise AssertionError("an unknown tool was answered")
        except AssertionError:
            raise
        except Exception as e:
            assert "unknown tool" in str(e), e
        await still_serving()


async def test_malformed_messages_do_not_stop_the_server(env):
    """Raw JSON-RPC lines no SDK would send: the server answers the good ones after."""
    process = subprocess.Popen(
        [env.recall, "--db", env.lib, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        "this is not JSON",
        "[1, 2",
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": "not an object"}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get"}},
        {"jsonrpc": "2.0", "id": 4, "method": "no/such/method"},
        "\u0000\u0001 binary junk",
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get", "arguments": {"id": 14}}},
    ]
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    # Killed if it stops answering, so that a hang fails the test instead of stalling it.
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        process.stdin.write(text)
        process.stdin.flush()
        replies = {}
        while not {1, 2, 3, 4, 5} <= replies.keys():
            line = process.stdout.readline()
            assert line, f"the server stopped after {replies}"
            reply = json.loads(line)
            replies[reply.get("id")] = reply
        process.stdin.close()
        process.wait()
    finally:
        watchdog.cancel()
    assert process.returncode == 0, process.returncode
    assert "error" in replies[2] and "error" in replies[4], replies
    assert replies[3]["result"]["isError"] is True and replies[3]["result"]["content"][0]["text"] == "id is missing: give id (one item) or ids (several)"
    got = replies[5]["result"]["structuredContent"]
    _, want, _ = cli(env, "get", {"id": 14})
    assert got == json.loads(want)


async def test_start_errors_are_the_commands(env):
    """What stops the server from starting is one line and exit 2, as for any command."""
    missing = os.path.join(env.work, "missing.db")
    for argv in [["--db", missing, "mcp"], ["--db", env.lib, "--tokenizer", "ascii", "mcp"]]:
        done = run(env.recall, *argv)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("recall: "), done
        assert done.stdout == ""
    done = run(env.recall, "--db", missing, "mcp")
    assert "recall init" in done.stderr, done.stderr
    # Writes need a writable library from the start; reads do not.
    read_only = env.library("read-only.db")
    os.chmod(read_only, 0o444)
    done = run(env.recall, "--db", read_only, "mcp", "--allow-writes")
    assert done.returncode == 2 and "read-only" in done.stderr, done.stderr
    async with server(env, db=read_only) as s:
        await answer(s, "search", {"query": "analytics script"})


async def test_busy_timeout_from_the_config(env):
    """Another process holds the write lock: the server waits `storage.busy_timeout_ms`."""
    db = env.library("busy.db")
    before = item_count(db)
    item = {"source": "agent-test", "title": "Written past a lock", "occurred_at": "2025-01-01"}
    short = env.config("busy.toml", "[storage]\nbusy_timeout_ms = 300\n")
    holder = sqlite3.connect(db, isolation_level=None, timeout=10, check_same_thread=False)
    try:
        async with server(env, "--allow-writes", db=db, config=short) as s:
            holder.execute("begin immediate")
            started = time.monotonic()
            message = await refusal(s, "add", item)
            waited = time.monotonic() - started
            assert "locked" in message, message
            assert 0.25 <= waited < 3, waited
            # Reads go on beside the writer (WAL).
            await answer(s, "search", {"query": "analytics script"})
            holder.execute("rollback")
            assert item_count(db) == before
            added = (await answer(s, "add", item)).structured_content
            assert added["id"] == before + 1
        # With the default (5 s), a lock held for 1 s is waited out.
        async with server(env, "--allow-writes", db=db) as s:
            holder.execute("begin immediate")
            release = threading.Timer(1.0, lambda: holder.execute("rollback"))
            release.start()
            started = time.monotonic()
            added = (await answer(s, "add", {**item, "title": "Written after a wait"})).structured_content
            release.join()
            assert time.monotonic() - started >= 0.9
            assert added["id"] == before + 2
    finally:
        holder.close()


async def test_four_clients_while_importing(env):
    """Four servers, each with concurrent calls, while `recall import` writes: imports
    of 1,000 items one after another, each one transaction that the adds wait for (the
    busy timeout), with a pause between them as separate runs would leave."""
    db = env.library("concurrent.db")
    batch = os.path.join(env.work, "batch.jsonl")
    per_batch = 1000
    with open(batch, "w") as f:
        for i in range(per_batch):
            f.write(json.dumps({
                "source": ["agent-claude", "ci-bot", "human-notes"][i % 3],
                "project": ["api", "shop", "infra"][i % 3],
                "title": f"Bulk note {i}: the deploy pipeline and the database is locked error",
                "summary": f"Generated item {i} about analytics, migrations and retries.",
                "occurred_at": f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T10:00:00Z",
            }) + "\n")
    stop = threading.Event()
    imports = []

    def importer():
        while not stop.is_set() or not imports:
            started = time.monotonic()
            done = run(env.recall, "--db", db, "import", batch)
            imports.append((started, time.monotonic(), done.returncode, done.stderr.strip()))
            time.sleep(0.3)

    thread = threading.Thread(target=importer)
    thread.start()
    rounds = 10
    calls = []
    failures = []
    adds = []

    async def client(n):
        async with server(env, "--allow-writes", db=db) as s:
            for round_no in range(rounds):
                batch_calls = [
                    ("search", {"query": "database is locked deploy", "limit": 20}),
                    ("later", {"id": 14}),
                    ("related", {"prompt": "the importer fails with database is locked again"}),
                    ("timeline", {"project": "api", "limit": 10}),
                    ("get", {"id": 1 + (n * 37 + round_no) % 300}),
                ]
                if round_no % 3 == 0:
                    batch_calls.append(("add", {"source": "agent-codex", "title": f"Client {n} round {round_no}", "occurred_at": "2025-05-05"}))

                async def one(tool, arguments):
                    started = time.monotonic()
                    result = await s.call_tool(tool, arguments)
                    calls.append((started, time.monotonic(), tool))
                    if result.is_error:
                        failures.append((tool, result.content[0].text))
                    elif tool == "add":
                        adds.append(result.structured_content["id"])

                async with anyio.create_task_group() as group:
                    for tool, arguments in batch_calls:
                        group.start_soon(one, tool, arguments)

    try:
        # The first import under way before the clients start (the overlap is checked).
        await anyio.sleep(0.3)
        async with anyio.create_task_group() as group:
            for n in range(4):
                group.start_soon(client, n)
    finally:
        stop.set()
        thread.join()
    assert not failures, failures[:5]
    assert len(calls) == 4 * (rounds * 5 + len(range(0, rounds, 3))), len(calls)
    assert all(code == 0 for _, _, code, _ in imports), imports
    first_call, last_call = min(c[0] for c in calls), max(c[1] for c in calls)
    overlapping = [i for i in imports if i[0] < last_call and i[1] > first_call]
    assert overlapping, (imports, first_call, last_call)
    assert item_count(db) == 300 + per_batch * len(imports) + len(adds), (len(imports), len(adds))
    check = run(env.recall, "--db", db, "check")
    assert check.returncode == 0, check.stdout
    print(f"    {len(calls)} calls from 4 servers beside {len(imports)} imports of {per_batch} items "
          f"({len(overlapping)} overlapping), {len(adds)} adds; slowest call "
          f"{max(c[1] - c[0] for c in calls):.2f} s")


def readme_configuration(key):
    """The JSON block of the README's "Plug into an agent" section that holds `key`."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("\n## Plug into an agent\n", 1)[1].split("\n## ", 1)[0]
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section, re.S) if key in b]
    assert len(blocks) == 1, f"one JSON block with {key} in the README"
    return blocks[0]


async def test_the_readme_configuration_starts_the_server(env):
    """The README's mcpServers entry as a client runs it: its command found on the PATH,
    its args, its environment (RECALL_DB pointed at a library, as a user writes it)."""
    entry = readme_configuration("mcpServers")["mcpServers"]["recall"]
    path = os.path.dirname(env.recall) + os.pathsep + os.environ.get("PATH", "")
    command = shutil.which(entry["command"], path=path)
    assert command and os.path.samefile(command, env.recall), command
    assert set(entry["env"]) == {"RECALL_DB"}, entry["env"]
    variables = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    variables.update(PATH=path, RECALL_DB=env.lib)
    params = StdioServerParameters(command=command, args=entry["args"], env=variables)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            assert names == {"search", "later", "related", "timeline", "get"}, names
            got = await same_as_cli(env, session, "search", {"query": "database is locked", "now": NOW})
            assert got["results"], "the README's server finds the sample's items"


async def transcript(env):
    """What a client sees: the tool list and one call."""
    async with server(env) as s:
        tools = (await s.list_tools()).tools
        print("  tools/list:")
        for t in tools:
            props = t.input_schema["properties"]
            required = set(t.input_schema.get("required", []))
            args = ", ".join(f"{n}{'' if n in required else '?'}" for n in props)
            print(f"    {t.name}({args})")
        arguments = {"query": "When did we decide to remove the analytics script?", "limit": 2, "now": NOW}
        result = await s.call_tool("search", arguments)
        print(f"  tools/call search {json.dumps(arguments)}")
        print("    isError:", bool(result.is_error))
        for line in json.dumps(result.structured_content["results"], indent=2).splitlines():
            print("    " + line)

FAKE_JUDGE = Path(__file__).resolve().parent.parent / "judge" / "fake_judge.py"


def judge_config(env, name, *judge_args):
    command = shlex.join(["/usr/bin/python3", str(FAKE_JUDGE), *judge_args])
    return env.config(name, f"[judge]\ncommand = {json.dumps(command)}\n")


async def test_search_with_a_judge(env):
    """The configuration's judge re-ranks the search tool as it does the command (one
    judge process serves the calls); a judge that fails leaves the literal answer."""
    query = {"query": "database is locked", "now": NOW}
    good = judge_config(env, "judge.toml", "--ratings", json.dumps({"31": 0.95, "130": 0.8}))
    async with server(env, config=good) as s:
        tools = (await s.list_tools()).tools
        assert "A judge then rates" in next(t for t in tools if t.name == "search").description
        for _ in range(2):
            got = await same_as_cli(env, s, "search", query, options=["--config", good])
            assert got["ranker"] == "judge", got
            assert [(r["id"], r["probability"]) for r in got["results"]] == [(31, 0.95), (130, 0.8)], got
    _, out, _ = cli(env, "search", query)
    literal = [r["id"] for r in json.loads(out)["results"]]
    broken = judge_config(env, "broken.toml", "--mode", "crash")
    async with server(env) as s:
        tools = (await s.list_tools()).tools
        assert "judge" not in next(t for t in tools if t.name == "search").description
    async with server(env, config=broken) as s:
        got = (await answer(s, "search", {**query, "explain": True})).structured_content
        assert got["ranker"] == "literal" and [r["id"] for r in got["results"]] == literal, got
        assert "exit status: 3" in got["explain"]["judge"]["failure"], got["explain"]["judge"]
        # The server goes on, and so does the literal answer.
        got = await same_as_cli(env, s, "search", query, options=["--config", broken])
        assert [r["id"] for r in got["results"]] == literal


FAKE_EMBED = Path(__file__).resolve().parent.parent / "vectors" / "fake_embed.py"


async def test_search_with_vectors(env):
    """On a library with vectors, the configuration's embedder gives the search tool the
    command's hybrid answer (one embedder process serves the calls); one that fails
    leaves the literal answer, and the server goes on."""
    db = env.library("vectors.db")
    command = shlex.join(["/usr/bin/python3", str(FAKE_EMBED)])
    done = run(env.recall, "--db", db, "--json", "embed", "--embed-cmd", command)
    assert done.returncode == 0 and json.loads(done.stdout)["embedded"] > 0, done.stderr
    good = env.config("vectors.toml", f"[vectors]\ncommand = {json.dumps(command)}\n")
    # Explain shows the embedder's time, which differs from call to call.
    query = {"query": "database outage", "now": NOW}
    explained = {**query, "explain": True}
    async with server(env, config=good, db=db) as s:
        tools = (await s.list_tools()).tools
        assert "near the query in meaning" in next(t for t in tools if t.name == "search").description
        for _ in range(2):
            got = await same_as_cli(env, s, "search", query, db=db, options=["--config", good])
            assert any(r["matched_by"] == "vector" for r in got["results"]), got["results"]
            assert all(r["vector_rank"] or r["literal_rank"] for r in got["results"])
            vectors = (await answer(s, "search", explained)).structured_content["explain"]["vectors"]
            assert vectors["on"] is True and vectors["model"] == "fake-bow", vectors
    broken = env.config(
        "broken-vectors.toml",
        f"[vectors]\ncommand = {json.dumps(shlex.join(['/usr/bin/python3', str(FAKE_EMBED), '--garbage']))}\n",
    )
    _, out, _ = cli(env, "search", query, db=db)
    literal = [r["id"] for r in json.loads(out)["results"]]
    async with server(env, config=broken, db=db) as s:
        got = (await answer(s, "search", explained)).structured_content
        assert [r["id"] for r in got["results"]] == literal, got
        assert got["explain"]["vectors"]["on"] is False, got["explain"]
        assert "not {" in got["explain"]["vectors"]["reason"], got["explain"]["vectors"]
        got = await same_as_cli(env, s, "search", query, db=db, options=["--config", broken])
        assert [r["id"] for r in got["results"]] == literal


async def test_reading_like_an_agent(env):
    """search, then timeline around a hit, then get of the chosen ids in one call: each
    answer the command's, the item flagged in around, ids kept in the order given, a
    missing or forbidden id named in missing; kinds and global items through add and the
    query tools."""
    async with server(env) as s:
        hits = await same_as_cli(env, s, "search", {"query": "database is locked", "project": "api", "now": NOW})
        first = hits["results"][0]["id"]
        around = await same_as_cli(env, s, "timeline", {"around": first, "before": 2, "after": 3})
        assert [r["id"] for r in around["results"] if r["anchor"]] == [first], around
        dates = [(r["date"], r["id"]) for r in around["results"]]
        assert dates == sorted(dates) and len(dates) <= 6, dates
        assert all(r["project"] == "api" for r in around["results"]), around
        chosen = [r["id"] for r in around["results"]][:3][::-1]
        got = await same_as_cli(env, s, "get", {"ids": chosen, "transcript": True})
        assert [i["id"] for i in got["items"]] == chosen and got["missing"] == [], got
        # A missing id: named in missing, the others answered; the command exits 1.
        arguments = {"ids": chosen + [999999]}
        got = (await answer(s, "get", arguments)).structured_content
        code, out, _ = cli(env, "get", arguments)
        assert code == 1 and json.loads(out) == got, (code, out)
        assert [i["id"] for i in got["items"]] == chosen and got["missing"] == [999999], got
        message = await refusal(s, "timeline", {"around": 999999})
        assert message == cli_error(env, "timeline", {"around": 999999}), message
    # Access: a forbidden item is missing to get and to around alike.
    forbidden = next(r for r in json.loads(cli(env, "timeline", {"limit": 50})[1])["results"] if r["source"] == "ci-bot")["id"]
    async with server(env, "--allow", "agent-*") as s:
        got = (await answer(s, "get", {"ids": [14, forbidden]})).structured_content
        assert [i["id"] for i in got["items"]] == [14] and got["missing"] == [forbidden], got
        code, out, _ = cli(env, "get", {"ids": [14, forbidden]}, options=["--allow", "agent-*"])
        assert code == 1 and json.loads(out) == got, (code, out)
        message = await refusal(s, "timeline", {"around": forbidden})
        assert message == cli_error(env, "timeline", {"around": forbidden}, options=["--allow", "agent-*"])
        near = (await answer(s, "timeline", {"around": 14, "before": 10, "after": 10})).structured_content
        assert all(fnmatch.fnmatchcase(r["source"], "agent-*") for r in near["results"]), near
    # Kinds and a global item, added through the tool, found through the filters.
    db = env.library("reading.db")
    async with server(env, "--allow-writes", db=db) as s:
        rule = (await answer(s, "add", {"source": "human", "project": "infra", "title": "Use bun, not npm, for every script",
                                        "occurred_at": "2025-05-01", "kind": "decision", "global": True})).structured_content
        got = await same_as_cli(env, s, "timeline", {"project": "shop", "kind": ["decision"]}, db=db)
        assert rule["id"] in [r["id"] for r in got["results"]], got
        assert all(r["kind"] == "decision" for r in got["results"]), got
        mine = next(r for r in got["results"] if r["id"] == rule["id"])
        assert mine["global"] is True and mine["project"] == "infra", mine
        got = await same_as_cli(env, s, "search", {"query": "bun npm script", "project": "shop", "now": NOW}, db=db)
        assert rule["id"] in [r["id"] for r in got["results"]], got
        got = await same_as_cli(env, s, "search", {"query": "bun npm script", "project": "shop", "scope": "all", "now": NOW}, db=db)
        assert got["settings"]["filters"] == {"scope": "all"}, got["settings"]
        message = await refusal(s, "add", {"source": "human", "title": "t", "occurred_at": "2025-05-01", "kind": "incident"})
        assert message.startswith('kind "incident" is not a known kind'), message


TESTS = [
    test_reading_like_an_agent,
    test_tool_list_and_schemas,
    test_every_tool_answers_as_the_command,
    test_writes_need_allow_writes,
    test_access_globs_bind_every_tool,
    test_bad_arguments_are_tool_errors,
    test_malformed_messages_do_not_stop_the_server,
    test_start_errors_are_the_commands,
    test_busy_timeout_from_the_config,
    test_four_clients_while_importing,
    test_the_readme_configuration_starts_the_server,
    test_search_with_a_judge,
    test_search_with_vectors,
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recall", required=True)
    parser.add_argument("--sample", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("-k", default="", help="run only the tests whose name contains this")
    a = parser.parse_args()
    env = Env(os.path.abspath(a.recall), os.path.abspath(a.sample), a.work)
    anyio.run(transcript, env)
    passed = failed = 0
    for test in TESTS:
        if a.k not in test.__name__:
            continue
        started = time.monotonic()
        try:
            anyio.run(test, env)
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__}")
            traceback.print_exc()
        else:
            passed += 1
            print(f"ok   {test.__name__} ({time.monotonic() - started:.1f} s)")
    print(f"mcp: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
