#!/usr/bin/python3
"""Compares two builds' `related` answers (the items the first prompt shows, ids in order)
prompt by prompt, and what each answer holds, on the sets docs/performance.md reports:

  benches/related_answers.py --against OTHER_RECALL [--recall target/release/recall]
      [--locomo locomo10.json] [--shapes 300] [--only NAME_PART] [--set KEY=VALUE]…

- `labeled`: the first prompts of examples/sample_cases.jsonl (tag `first-prompt`) on a
  library of examples/sample.jsonl, and examples/code_first_prompts.jsonl on one of
  examples/code_library.jsonl, each at the case's time (in its project where it names
  one); precision is the share of the items shown that the case expects. Libraries made
  with `recall init`'s default tokenizer.
- `locomo` (with `--locomo`): every question of LoCoMo's `locomo10.json` as a first
  prompt, in its conversation, at the time `import-locomo` gives the case; precision is
  the share of the items shown that are the question's evidence.
- `shapes` (`--shapes N`, 0 to leave them out): N prompts of each library
  `benches/hook_events.py shapes` built in target/hook-shapes/ (its benchmark prompts),
  in the largest project and in none.

For each set: the prompts, how many each build answers, the items each shows and how
many of them are expected, and how many answers differ. `--set` passes a setting to this
build's `related` (`--set related.sample=0` compares the counts made in every item).
Exits 1 when any answer differs.
"""
import glob
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hook_events import arg, bench_prompts  # noqa: E402


def sets_of(name):
    out, args = [], sys.argv
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            out.append(args[i + 1])
    return out


def env():
    return {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}


def related(recall, library, prompt, project, now, extra=()):
    args = [recall, "--db", library, "--json", "related", prompt]
    if project:
        args += ["--project", project]
    if now:
        args += ["--now", now]
    out = subprocess.run(args + list(extra), capture_output=True, text=True, env=env())
    if out.returncode != 0:
        sys.exit(f"{recall}: related {prompt!r}: {out.stderr.strip()}")
    return [r["id"] for r in json.loads(out.stdout)["results"]]


def library_of(recall, jsonl, work):
    path = os.path.join(work, os.path.basename(jsonl) + ".db")
    for step in (["init"], ["import", jsonl]):
        subprocess.run([recall, "--db", path] + step, check=True, capture_output=True,
                       env=env())
    return path


def measure(name, cases, recall, other, extra):
    """cases: (library, prompt, project, now, expected ids or None)."""
    n = len(cases)
    answered, shown, hits, differ = [0, 0], [0, 0], [0, 0], 0
    expected = any(c[4] is not None for c in cases)
    for library, prompt, project, now, expect in cases:
        got = [related(recall, library, prompt, project, now, extra),
               related(other, library, prompt, project, now)]
        for k, ids in enumerate(got):
            answered[k] += bool(ids)
            shown[k] += len(ids)
            if expect is not None:
                hits[k] += len(set(ids) & set(expect))
        if got[0] != got[1]:
            differ += 1
            print(f"  differ ({name}): {prompt!r} in {project}: {got[0]} vs {got[1]}")
    precision = [f"{h / s:.3f}" if s and expected else "-" for h, s in zip(hits, shown)]
    print(f"| {name} | {n} | {answered[0]} / {answered[1]} | {shown[0]} / {shown[1]} | "
          f"{precision[0]} / {precision[1]} | {differ} ({differ / max(n, 1):.2%}) |")
    sys.stdout.flush()
    return differ


def labeled_cases(recall, work):
    cases = []
    for library_file, cases_file, tag in (
            ("examples/sample.jsonl", "examples/sample_cases.jsonl", "first-prompt"),
            ("examples/code_library.jsonl", "examples/code_first_prompts.jsonl", None)):
        library = library_of(recall, os.path.join(ROOT, library_file), work)
        for line in open(os.path.join(ROOT, cases_file)):
            case = json.loads(line)
            if "items" in case or (tag and tag not in case.get("tags", [])):
                continue
            prompt = case.get("prompt") or case.get("query")
            cases.append((library, prompt, case.get("project"), case.get("now"),
                          case.get("expect", [])))
    return cases


def locomo_cases(recall, data, work):
    library = os.path.join(work, "locomo.db")
    cases_file = os.path.join(work, "locomo_cases.jsonl")
    subprocess.run([recall, "--db", library, "init"], check=True, capture_output=True,
                   env=env())
    subprocess.run([recall, "--db", library, "import-locomo", data, "--cases", cases_file],
                   check=True, capture_output=True, env=env())
    return [(library, c["query"], c.get("project"), c.get("now"), c.get("expect", []))
            for c in map(json.loads, open(cases_file))]


def shape_cases(count):
    cases = []
    only = arg("--only", None)
    for library in sorted(glob.glob(os.path.join(ROOT, "target/hook-shapes/*.db"))):
        name = os.path.basename(library)[:-3]
        if only and only not in name:
            continue
        conn = sqlite3.connect(f"file:{library}?mode=ro", uri=True)
        prompts = bench_prompts(conn, count)
        largest = conn.execute("select project from items group by project "
                               "order by count(*) desc limit 1").fetchone()[0]
        conn.close()
        for i, prompt in enumerate(prompts):
            cases.append((name, library, prompt, largest if i % 2 == 0 else None))
    return cases


def main():
    recall = arg("--recall", os.path.join(ROOT, "target/release/recall"))
    other = arg("--against", None)
    if other is None:
        sys.exit(__doc__)
    extra = []
    for s in sets_of("--set"):
        key, _, value = s.partition("=")
        extra += [f"--{key.split('.')[-1].replace('_', '-')}", value]
    work = tempfile.mkdtemp()
    print("| set | prompts | answered (this / other) | items shown | precision | answers differing |")
    print("|---|---|---|---|---|---|")
    differ = measure("labeled first prompts", labeled_cases(recall, work), recall, other, extra)
    data = arg("--locomo", None)
    if data:
        differ += measure("LoCoMo questions", locomo_cases(recall, data, work), recall, other,
                          extra)
    count = int(arg("--shapes", "0"))
    if count:
        by_shape = {}
        for name, library, prompt, project in shape_cases(count):
            by_shape.setdefault(name, []).append((library, prompt, project, None, None))
        for name, cases in by_shape.items():
            differ += measure(name, cases, recall, other, extra)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
