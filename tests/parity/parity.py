#!/usr/bin/python3
"""Runs the read command lines of tests/parity/commands.txt with two builds of recall on
one library and fails unless each gives the same standard output, standard error and
exit code: what a change that is meant to change no behaviour is checked with.

  tests/parity/parity.py OLD_RECALL NEW_RECALL

The library is made by NEW_RECALL from examples/sample.jsonl and
examples/code_library.jsonl, and one global decision added, in a temporary folder; both
builds only read it.
"""
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    old, new = sys.argv[1:]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    work = tempfile.mkdtemp()
    library = os.path.join(work, "parity.db")
    for args in (["init"], ["import", os.path.join(ROOT, "examples/sample.jsonl")],
                 ["import", os.path.join(ROOT, "examples/code_library.jsonl")],
                 # A kind and a global item, for the lines that filter on them.
                 ["add", "--title", "Deploy with blue-green switches, not in place",
                  "--summary", "Decided after the March outage: a deploy switches traffic.",
                  "--source", "human-notes", "--project", "api", "--kind", "decision",
                  "--at", "2024-04-02T09:00:00Z", "--global"]):
        subprocess.run([new, "--db", library, *args], check=True, capture_output=True,
                       cwd=work, env=env)
    lines = [l for l in open(os.path.join(HERE, "commands.txt"), encoding="utf-8")
             if l.strip() and not l.startswith("#")]
    differ = 0
    for line in lines:
        args = shlex.split(line)
        got = [subprocess.run([binary, "--db", library, *args], capture_output=True,
                              cwd=work, env=env)
               for binary in (old, new)]
        if [(g.returncode, g.stdout, g.stderr) for g in got[:1]] != \
           [(g.returncode, g.stdout, g.stderr) for g in got[1:]]:
            differ += 1
            print(f"differ: {line.strip()}")
            for name, g in zip(("old", "new"), got):
                print(f"  {name}: exit {g.returncode}, {len(g.stdout)} bytes out, "
                      f"stderr {g.stderr.decode(errors='replace').strip()[:200]!r}")
    print(f"{len(lines)} command lines, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
