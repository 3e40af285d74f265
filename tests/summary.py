"""The closing line of `make test`: how many checks passed in each part.

Usage: summary.py LOG STATUS, LOG being the output of `make test-parts` and STATUS its
exit status (tests/summary.sh). The parts and their order are the Makefile's: the
`$(CARGO) test` line and each `$(MAKE) test-NAME` line of `test-parts`. make echoes each
of those lines before running it, so the log splits there (and at fmt, clippy and the
last build, which are checked but count nothing). Each part's count is read from its
closing lines: cargo's `test result:` lines, pytest's `N passed in Xs`, node --test's
`pass N`/`fail N`, the harnesses' `NAME: N passed, M failed`; a part that prints none of
these (judge, vectors) counts its `ok` lines. When STATUS is not 0, the last part begun
is the one that failed and the parts after it did not run.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Echoed recipe lines of test-parts: the parts, and the uncounted steps between them.
PART_LINE = re.compile(r"^(?:\S*/)?make(?: \S+)* test-([\w-]+)\s*$")
CARGO_LINE = re.compile(r"^\S*cargo (test|fmt|clippy|build) --workspace\b")

CARGO_RESULT = re.compile(
    r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored"
)
HARNESS = re.compile(r"^(?:[a-z][\w ]*: )?(\d+) passed, (\d+) failed$")
PYTEST = re.compile(r"^=*\s*((?:\d+ [a-z]+(?:, )?)+) in [\d.]+s\b")
NODE = re.compile(r"^(?:# |\u2139 )(pass|fail|skipped|todo|cancelled) (\d+)$")
OK_LINE = re.compile(r"^ok\s+\S")

# Words of the closing lines, as the summary says them.
WORDS = {
    "passed": "passed",
    "pass": "passed",
    "failed": "failed",
    "fail": "failed",
    "error": "errors",
    "errors": "errors",
    "skipped": "skipped",
    "ignored": "ignored",
    "xfailed": "xfailed",
    "xpassed": "xpassed",
    "deselected": "deselected",
    "cancelled": "cancelled",
    "todo": "todo",
    "warning": "warnings",
    "warnings": "warnings",
}
ORDER = ["passed", "failed", "errors", "skipped", "ignored", "xfailed", "xpassed",
         "deselected", "cancelled", "todo"]


def parts_of_makefile(path):
    """The counted parts of test-parts, in order: "cargo" and each test-NAME's NAME."""
    parts, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if re.match(r"^test-parts\s*:", line):
                inside = True
                continue
            if inside and not line.startswith("\t"):
                break
            if not inside:
                continue
            if re.match(r"^\t\$\(CARGO\) test\b", line):
                parts.append("cargo")
            m = re.match(r"^\t\$\(MAKE\) test-([\w-]+)\s*$", line)
            if m:
                parts.append(m.group(1))
    return parts


def sections(lines):
    """(name, lines) in log order; name None before the first marker."""
    out = [(None, [])]
    for line in lines:
        m = PART_LINE.match(line)
        c = CARGO_LINE.match(line)
        # A cargo line other than the tests' only closes the cargo tests' section: in
        # another part's recipe (test-agents builds first) it is a line of that part.
        if m:
            out.append((m.group(1), []))
        elif c and (c.group(1) == "test" or out[-1][0] == "cargo"):
            out.append(("cargo" if c.group(1) == "test" else c.group(1), []))
        else:
            out[-1][1].append(line)
    return out


def counts(lines):
    """The counts a part's output closes with, summed: {"passed": n, ...}."""
    total, found = {}, False

    def add(word, n):
        word = WORDS.get(word)
        if word and word != "warnings":
            total[word] = total.get(word, 0) + int(n)

    for line in lines:
        line = line.rstrip("\n")
        if m := CARGO_RESULT.match(line):
            found = True
            add("passed", m[1])
            add("failed", m[2])
            add("ignored", m[3])
        elif m := HARNESS.match(line):
            found = True
            add("passed", m[1])
            add("failed", m[2])
        elif m := PYTEST.match(line):
            found = True
            for n, word in re.findall(r"(\d+) ([a-z]+)", m[1]):
                add(word, n)
        elif m := NODE.match(line):
            found = True
            add(m[1], m[2])
    if not found:
        oks = sum(1 for line in lines if OK_LINE.match(line))
        if oks:
            total["passed"] = oks
    return total


def said(total):
    words = [f"{total[w]} {w}" for w in ORDER if total.get(w)]
    return ", ".join(words) if words else "no count found"


def main(argv):
    log, status = argv[1], int(argv[2])
    parts = parts_of_makefile(os.path.join(ROOT, "Makefile"))
    with open(log, encoding="utf-8", errors="replace") as f:
        found = sections(f)
    begun = {}
    for name, lines in found:
        if name is not None:
            begun.setdefault(name, []).extend(lines)
    last = next((name for name, _ in reversed(found) if name is not None), None)
    out = []
    grand = {"passed": 0, "failed": 0}
    for part in parts:
        if part not in begun:
            out.append(f"{part} not run")
            continue
        total = counts(begun[part])
        for word in grand:
            grand[word] += total.get(word, 0)
        text = f"{part} {said(total)}"
        if status != 0 and part == last:
            text += " (stopped here)"
        out.append(text)
    if status != 0 and last not in parts:
        out.append(f"stopped in {last or 'the set-up'}")
    head = "make test: " if status == 0 else f"make test FAILED (exit {status}): "
    print(head + " · ".join(out))
    # The plain closing line a reader of any test runner's output knows.
    print(f"total: {grand['passed']} passed, {grand['failed']} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
