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


def usage_command(text):
    """The CLI command the usage line after the start block tells the agent to run."""
    for line in text.splitlines():
        if line.startswith("How to use the recall memory"):
            for cmd in re.findall(r"`([^`]+)`", line):
                if cmd.startswith("recall search"):
                    return cmd, line
            return None, line
    return None, None
