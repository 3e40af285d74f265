"""What reached the model: the text of a recorded request, and recall's blocks in it."""

import re

BLOCK = re.compile(r'<recall-memory block="(\w+)">(.*?)</recall-memory block="\1">', re.S)


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


def usage(text):
    """What the usage line after the start block tells the agent (docs/cli.md, What the
    agent is told to run): {"line", "cli" (the command line to run `search WORDS` with, or
    None), "tools" (the MCP tools it names: full names in Claude Code, the server's tool
    names in Codex; [] when it names none)}; None when no usage line reached the model."""
    for line in text.splitlines():
        if not line.startswith("How to use the recall memory"):
            continue
        shell = (re.search(r"The same from the shell: `([^`]+)` with `search WORDS`", line)
                 or re.search(r"from the shell with `([^`]+)`: .*\(`search WORDS`\)", line))
        tools = (re.findall(r"`(mcp__\w+)`", line)
                 or re.findall(r"the recall MCP tool `(\w+)`", line))
        return {"line": line, "cli": shell.group(1) if shell else None, "tools": tools}
    return None
