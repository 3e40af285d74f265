"""The small project the sessions work on, and the words of the sessions' script.

A warehouse's crate count and a check that fails with a distinctive error line: the
line the tests expect is not written here but taken from running COMMAND (run.py).
"""

import os
import subprocess

NAME = "quokka-depot"
FILE = "inventory.py"
COMMAND = "python3 check.py"
QUERY = "quokka"

FILES = {
    "inventory.py": (
        '"""Crate counts of the quokka warehouse."""\n'
        "\n"
        'CRATES = {"north": 12, "south": 9}\n'
        "\n"
        "\n"
        "def total():\n"
        "    # counted by hand\n"
        "    return sum(CRATES.values())\n"
    ),
    "check.py": (
        "import inventory\n"
        "\n"
        "LEDGER = 24\n"
        "\n"
        "if inventory.total() != LEDGER:\n"
        "    raise ValueError(\n"
        "        f\"ledger mismatch: warehouse quokka-17 holds {inventory.total()} crates, \"\n"
        "        f\"ledger says {LEDGER}\"\n"
        "    )\n"
        'print("ledger balanced")\n'
    ),
    "README.md": "# quokka depot\n\nCrate counts; `python3 check.py` checks them against the ledger.\n",
}

PROMPTS = [
    "The quokka ledger check fails: raise the south crate count in inventory.py and run the check",
    "Carry on with the quokka ledger mismatch in inventory.py: note how the crates were counted",
    "What did we find out about the quokka ledger mismatch? Look in the memory",
]
# Session 1's edit leaves the ledger unbalanced (22 crates against 24), so the check fails.
EDIT_1 = ('CRATES = {"north": 12, "south": 9}', 'CRATES = {"north": 12, "south": 10}')
EDIT_2 = ("    # counted by hand", "    # counted by hand, twice")
EDIT_3 = ("    # counted by hand, twice", "    # counted by hand, twice, on Tuesday")
ANSWER_1 = ("Raised the south count to 10; the ledger check still fails, 22 crates against 24. "
            "Next steps: recount the north aisle.")
ANSWER_2 = "Noted how the crates were counted in inventory.py."
ANSWER_3 = "The memory has the quokka ledger mismatch from the first session."

# How much of a prompt a title or a listing keeps for sure (titles are cut further on).
PROMPT_START = 40


def same_start(text, prompt, inside=False):
    """Whether TEXT starts with (inside: holds) the first PROMPT_START characters of PROMPT."""
    head = prompt[:PROMPT_START]
    return head in text if inside else text.startswith(head)


def make(repo):
    """The project as a git repository with one commit."""
    os.makedirs(repo)
    for name, text in FILES.items():
        with open(os.path.join(repo, name), "w", encoding="utf-8") as f:
            f.write(text)
    env = dict(os.environ, GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.org",
               GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@example.org")
    for argv in (["git", "init", "-q", "-b", "main"], ["git", "add", "."],
                 ["git", "commit", "-q", "-m", "crate counts"]):
        subprocess.run(argv, cwd=repo, env=env, check=True, timeout=60)
