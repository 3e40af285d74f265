"""Each agent's own steps: how a session is started, and the tool calls of the script in
the shapes its model API uses (Claude Code's tools; Codex's exec_command, apply_patch and
tool_search)."""

import os
import re

from model_view import texts

# Each agent command is stopped after this long: an agent that cannot reach its API
# retries for many minutes.
AGENT_TIMEOUT = 240


class ClaudeCode:
    name = "claude-code"
    api = "anthropic"
    # Files the agent's own program makes in HOME when recall's setup runs it: none
    # (setup writes Claude Code's files itself and runs no program of it).
    OWN_FILES = ()

    def __init__(self, run, standin):
        self.run = run
        self.standin = standin

    def extra(self):
        return {"ANTHROPIC_BASE_URL": self.standin.base_url, "ANTHROPIC_API_KEY": "stand-in"}

    def prepare(self):
        """Nothing: Claude Code makes its files on its first run."""

    def personal_settings(self):
        """What a person's files hold before recall, each written by its own writer: an MCP
        server added and removed again by `claude mcp` (it leaves an empty `mcpServers`),
        numbers and text as Node writes them into ~/.claude.json, and settings of their own
        (a permission, a hook on another event) in ~/.claude/settings.json."""
        exe, extra = self.run.exe, self.extra()
        for argv in ([exe, "mcp", "add", "--scope", "user", "notes", "--", "/bin/cat"],
                     [exe, "mcp", "remove", "--scope", "user", "notes"]):
            p = self.run.sh(argv, extra, timeout=60)
            if p.returncode != 0:
                return f"{' '.join(argv[1:])}: exit {p.returncode}: {p.stderr.strip()[-300:]}"
        return node_write(self.run, r"""
            const fs = require("fs");
            const home = process.env.HOME;
            const state = home + "/.claude.json";
            const text = fs.readFileSync(state, "utf8");
            const d = JSON.parse(text);
            d.suiteNumbers = {small: 0.000001234, sum: 0.1 + 0.2, big: 12345678901234567890,
                              huge: 1e21, negative: -0.0005, words: "café ✓ \u2028 tab\t"};
            fs.writeFileSync(state, JSON.stringify(d, null, 2) + (text.endsWith("\n") ? "\n" : ""));
            fs.mkdirSync(home + "/.claude", {recursive: true});
            fs.writeFileSync(home + "/.claude/settings.json", JSON.stringify({
              permissions: {allow: ["Bash(npm test)"]},
              hooks: {Stop: [{hooks: [{type: "command", command: "true", timeout: 5}]}]},
              model: "sonnet",
            }, null, 2) + "\n");
        """)

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

    def named_tools(self, named):
        """The tool names the model gets for the MCP tools a usage line names."""
        return list(named)

    def offered_tools(self, bodies):
        """Tools the session offered the model: its tools, and the deferred tools its
        first request lists (to be loaded with ToolSearch)."""
        offered = {t["name"] for b in bodies for t in b.get("tools", []) if t.get("name")}
        if bodies:
            lines = texts(bodies[0]).splitlines()
            for i, line in enumerate(lines):
                if "deferred tools are now available" in line:
                    for name in lines[i + 1:]:
                        if not name.strip():
                            break
                        offered.add(name.strip())
        return offered

    def between(self, checks):
        """`claude mcp list` between sessions, as a person checks the server."""
        p = self.run.sh([self.run.exe, "mcp", "list"], self.extra(), timeout=90)
        checks.check(f"{self.name}: `claude mcp list` connects to recall's server",
                     p.returncode == 0 and re.search(r"recall.*(✓|Connected)", p.stdout),
                     f"exit {p.returncode}: {p.stdout.strip()[-300:]} {p.stderr.strip()[-300:]}")


class Codex:
    name = "codex"
    api = "openai"
    # Files Codex's own program makes in CODEX_HOME when setup asks `codex app-server` for
    # its hooks (docs/cli.md), as seen with 0.169: its SQLite databases' WAL and shared
    # memory files (state_5, logs_2, goals_1, memories_1, queue_1), a lock under tmp/ and
    # git scratch under .tmp/; from 0.171 also the staging of its plugin marketplace under
    # .tmp/.staging/ and that staging's cleanup lock. Any run of Codex makes them; none is
    # a file of recall's.
    OWN_FILES = (r"\.codex/[a-z]+_\d+\.sqlite(-wal|-shm)?", r"\.codex/installation_id",
                 r"\.codex/tmp/arg0-linux/codex-arg0\w+/\.lock",
                 r"\.codex/\.tmp/git-\w+/HEAD",
                 r"\.codex/\.tmp/\.staging-cleanup\.lock",
                 r"\.codex/\.tmp/\.staging/marketplace-[\w-]+/.+")
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

    def personal_settings(self):
        """What a person's config.toml holds beside the provider: comments, blank lines,
        a profile, a table of inline tables."""
        with open(os.path.join(self.run.home, ".codex", "config.toml"), "a",
                  encoding="utf-8") as f:
            f.write("\n"
                    "# my own settings, kept as I wrote them\n"
                    "[profiles.fast]   # for quick questions\n"
                    'model = "gpt-5.5"\n'
                    'model_reasoning_effort = "low"\n'
                    "\n"
                    "[shell_environment_policy]\n"
                    'inherit = "core"\n'
                    'set = { EDITOR = "vi", PAGER = "less" }\n')
        return None

    def session(self, prompt):
        # Its own sandbox for the workspace (commands may write in the repository only);
        # in exec no command asks for approval. No bypass flag: the hooks run because
        # setup recorded their trust.
        return self.run.sh([self.run.exe, "exec", "--json", "--sandbox", "workspace-write",
                            prompt],
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

    def named_tools(self, named):
        """The recall server's tools a usage line names, as NAMESPACE/TOOL."""
        return [f"mcp__recall/{t}" for t in named]

    def offered_tools(self, bodies):
        """Tools the session offered the model: its own, and each tool of a namespace that
        the first request lists as deferred and tool_search then returned."""
        offered = {t["name"] for b in bodies for t in b.get("tools", []) if t.get("name")}
        if not bodies:
            return offered
        deferred = set()
        lines = texts(bodies[0]).splitlines()
        for i, line in enumerate(lines):
            if line.strip() == "Deferred tool namespaces:":
                for entry in lines[i + 1:]:
                    m = re.match(r"- (\S+?):", entry)
                    if not m:
                        break
                    deferred.add(m.group(1))
        for body in bodies:
            for item in body.get("input", []):
                if item.get("type") != "tool_search_output":
                    continue
                for tool in item.get("tools", []):
                    if tool.get("type") == "namespace" and tool.get("name") in deferred:
                        offered |= {f"{tool['name']}/{sub.get('name')}"
                                    for sub in tool.get("tools", [])}
        return offered

    def between(self, checks):
        """Codex has no command between sessions that would touch recall."""


def node_write(run, script):
    """Runs a Node script in the person's HOME (the writer Claude Code itself uses for its
    JSON files); returns None, or what went wrong."""
    p = run.sh(["node", "-e", script], timeout=60)
    return None if p.returncode == 0 else f"node: exit {p.returncode}: {p.stderr.strip()[-300:]}"


AGENTS = {"claude-code": ClaudeCode, "codex": Codex}
