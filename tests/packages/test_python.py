"""The sqlite-recall wheel in a fresh virtual environment (run by python.sh).

Every answer is compared with the venv's own `recall` command run as a separate process
on the same library: the extension loaded into the standard library's sqlite3 (SQLite
3.40, a library rebuilt with unicode61), into apsw (its own newer SQLite, the default
trigram library) and into Datasette through the plugin.
"""

import asyncio
import glob
import importlib.metadata
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import urllib.parse
from pathlib import Path

import apsw
import pytest
import sqlite_recall
from datasette.app import Datasette

REPO = Path(os.environ["RECALL_REPO"])
WHEEL = os.environ["RECALL_WHEEL"]
SEARCH_SQL = (REPO / "sql" / "search.sql").read_text()
NOW = "2025-11-29T00:00:00Z"
LIMIT = 20
UNICODE61 = "unicode61 remove_diacritics 2"
TRIGRAM = "trigram remove_diacritics 1"
# (query, project): questions, error text, an accent-free query of accented items,
# numbers, project filters, text full of FTS5 operators, and common words that fill the
# limit (so that the order of 20 rows is compared).
QUERIES = [
    ("When did we decide to remove the analytics script?", None),
    ("database is locked", None),
    ("database is locked", "api"),
    ("migracion fechas", None),
    ("ECONNREFUSED 5432", None),
    ('deploy OR "NOT" NEAR(x y) title:* ^release', None),
    ("deploy rollback", None),
    ("deploy rollback", "infra"),
    ("timeout api", None),
    ("fix the flaky test", None),
]


def recall(*args):
    done = subprocess.run(
        ["recall", *map(str, args)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"recall {args}: {done.stderr}"
    return done.stdout


def cli_ids(db, query, project):
    args = ["--db", db, "--json", "search", query, "--now", NOW, "--limit", LIMIT]
    if project:
        args += ["--project", project]
    return [row["id"] for row in json.loads(recall(*args))["results"]]


def search_params(tokenizer, query, project):
    """Every named parameter of search.sql, unset ones NULL (as docs/queries.md says)."""
    names = set(re.findall(r"(?<![\w:]):([A-Za-z_]\w*)", SEARCH_SQL))
    assert {"query", "tokenizer", "project", "now", "limit"} <= names
    params = dict.fromkeys(names)
    params.update(
        query=query, tokenizer=tokenizer, project=project, now=NOW, limit=LIMIT
    )
    return params


def tokenizer_of(conn):
    rows = list(conn.execute("select value from recall_meta where key = 'tokenizer'"))
    assert len(rows) == 1, rows
    return rows[0][0]


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    """lib.db: the sample with the default tokenizer; copy.db: the same, unicode61."""
    d = tmp_path_factory.mktemp("libraries")
    lib, copy = d / "lib.db", d / "copy.db"
    recall("--db", lib, "init")
    recall("--db", lib, "import", REPO / "examples" / "sample.jsonl")
    src, dst = sqlite3.connect(lib), sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    recall("--db", copy, "rebuild", "--tokenizer", UNICODE61)
    return lib, copy


def test_recall_is_the_venv_s_own_command():
    assert Path(shutil.which("recall")).parent == Path(sys.prefix) / "bin"


def test_the_command_carries_no_test_hook():
    assert b"RECALL_TEST_" not in Path(shutil.which("recall")).read_bytes()


def test_one_version_everywhere():
    version = importlib.metadata.version("sqlite-recall")
    assert recall("--version").strip() == f"recall {version}"
    conn = sqlite3.connect(":memory:")
    sqlite_recall.load(conn)
    assert conn.execute("select recall_version()").fetchone()[0] == f"v{version}"
    aconn = apsw.Connection(":memory:")
    sqlite_recall.load(aconn)
    assert list(aconn.execute("select recall_version()")) == [(f"v{version}",)]


def test_loadable_path_is_the_file_in_the_package():
    path = Path(sqlite_recall.loadable_path())
    assert path.is_file()
    assert path.parent == Path(sqlite_recall.__file__).parent
    # The installed wheel, not the source tree.
    assert path.is_relative_to(Path(sys.prefix))
    assert path.name == "librecall0.so"


def test_load_switches_extension_loading_off_again():
    conn = sqlite3.connect(":memory:")
    sqlite_recall.load(conn)
    with pytest.raises(sqlite3.OperationalError, match="not authorized"):
        conn.execute("select load_extension(?)", (sqlite_recall.loadable_path(),))


def test_load_refuses_other_objects():
    with pytest.raises(TypeError, match="expected a sqlite3.Connection or an apsw"):
        sqlite_recall.load(object())


def assert_search_sql_gives_the_cli_s_answers(conn, db, tokenizer):
    """sql/search.sql through `conn` (the extension loaded) against `recall --json search`."""
    sqlite_recall.load(conn)
    assert tokenizer_of(conn) == tokenizer
    for query, project in QUERIES:
        expected = cli_ids(db, query, project)
        assert expected, query
        rows = conn.execute(SEARCH_SQL, search_params(tokenizer, query, project))
        assert [r[0] for r in rows] == expected, query


def test_search_sql_in_stdlib_sqlite3_gives_the_cli_s_answers(libraries):
    _, copy = libraries
    # The reason for the unicode61 copy: this SQLite predates trigram remove_diacritics.
    assert sqlite3.sqlite_version_info < (3, 45)
    assert_search_sql_gives_the_cli_s_answers(sqlite3.connect(copy), copy, UNICODE61)


def test_search_sql_in_apsw_gives_the_cli_s_answers(libraries):
    lib, _ = libraries
    assert apsw.sqlite_lib_version() >= "3.45"
    assert_search_sql_gives_the_cli_s_answers(apsw.Connection(str(lib)), lib, TRIGRAM)


def datasette_get(db, path):
    async def get():
        ds = Datasette([str(db)])
        await ds.invoke_startup()
        return await ds.client.get(path)

    response = asyncio.run(get())
    assert response.status_code == 200, (path, response.text)
    return response.json()


def datasette_query(db, sql, **params):
    query = urllib.parse.urlencode({"sql": sql, "_shape": "array", **params})
    # Datasette 1.0 moved arbitrary SQL from /db.json (a redirect there) to /db/-/query.json.
    if int(importlib.metadata.version("datasette").split(".")[0]) >= 1:
        return datasette_get(db, f"/{db.stem}/-/query.json?{query}")
    return datasette_get(db, f"/{db.stem}.json?{query}")


def test_datasette_runs_recall_functions_through_the_plugin(libraries):
    _, copy = libraries
    plain = sqlite3.connect(copy)
    sqlite_recall.load(plain)
    for text in ['say "hi" NOT there*', "migración de fechas", "database is locked"]:
        sql = "select recall_match(:q, :t) as m"
        [row] = datasette_query(copy, sql, q=text, t=UNICODE61)
        expected = plain.execute(sql, {"q": text, "t": UNICODE61}).fetchone()[0]
        assert expected and row["m"] == expected, text
        sql = (
            "select rowid from items_fts where items_fts match recall_match(:q, :t)"
            " order by rowid"
        )
        rows = datasette_query(copy, sql, q=text, t=UNICODE61)
        expected = [r[0] for r in plain.execute(sql, {"q": text, "t": UNICODE61})]
        assert expected and [r["rowid"] for r in rows] == expected, text


def test_datasette_lists_the_plugin(libraries):
    _, copy = libraries
    plugins = datasette_get(copy, "/-/plugins.json")
    ours = [p for p in plugins if p["name"] == "sqlite-recall"]
    assert len(ours) == 1, plugins
    assert ours[0]["hooks"] == ["prepare_connection"]
    assert ours[0]["version"] == importlib.metadata.version("sqlite-recall")


def printed_by(python, script, cwd=None):
    """What `python -c script` prints; it must succeed."""
    done = subprocess.run(
        [str(python), "-c", script], capture_output=True, text=True, cwd=cwd, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def interpreter_without_extensions():
    """A CPython (3.8+) whose sqlite3 cannot load extensions: pyenv builds, by default."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    probe = (
        "import sqlite3, sys; print(sys.version_info >= (3, 8) and "
        "not hasattr(sqlite3.Connection, 'enable_load_extension'))"
    )
    found = []
    pattern = os.path.join(root, "versions", "*", "bin", "python3")
    for python in sorted(glob.glob(pattern)):
        out = subprocess.run(
            [python, "-c", probe], capture_output=True, text=True, check=False
        )
        if out.stdout.strip() == "True":
            found.append(python)
    if not found:
        pytest.fail(
            f"no Python 3.8+ without loadable extensions under {root}/versions: "
            "this test needs one (install CPython with pyenv, which builds it so)"
        )
    # CI has pyenv's 3.11: prefer it, so that every machine tests the same one.
    return next((p for p in found if "/3.11." in p), found[-1])


def test_an_interpreter_without_loadable_extensions_gets_one_clear_error(tmp_path):
    python = interpreter_without_extensions()
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, WHEEL], check=True)
    script = (
        "import sqlite3, sqlite_recall\n"
        "try:\n"
        "    sqlite_recall.load(sqlite3.connect(':memory:'))\n"
        "except sqlite_recall.LoadExtensionUnavailable as e:\n"
        "    print(e)\n"
    )
    assert printed_by(venv / "bin" / "python", script) == (
        "sqlite_recall.load: this Python's sqlite3 module was built without loadable "
        "extension support (sqlite3.Connection has no enable_load_extension), so it "
        "cannot load librecall0; use apsw instead: pip install apsw, then "
        "sqlite_recall.load(apsw.Connection(path))\n"
    )
    # The way out the message names works in that same interpreter.
    subprocess.run([*pip, "apsw"], check=True)
    script = (
        "import apsw, sqlite_recall\n"
        "conn = apsw.Connection(':memory:')\n"
        "sqlite_recall.load(conn)\n"
        "print(list(conn.execute('select recall_version()'))[0][0])\n"
    )
    assert printed_by(venv / "bin" / "python", script) == (
        f"v{importlib.metadata.version('sqlite-recall')}\n"
    )


def readme_examples(language):
    """The README's Install examples of `language` that end with the output they give, as
    a comment: (code, that output)."""
    text = (REPO / "README.md").read_text()
    section = text.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    found = []
    for block in re.findall(r"```" + language + r"\n(.*?)```", section, re.S):
        lines = block.rstrip("\n").split("\n")
        if not lines[-1].startswith("# "):
            continue
        found.append(("\n".join(lines[:-1]), lines[-1][2:]))
    assert found, f"no {language} example in the README's Install section"
    return found


def test_the_readme_python_example_prints_what_it_shows(tmp_path):
    [(code, shown)] = readme_examples("python")
    assert printed_by(sys.executable, code, cwd=tmp_path).strip() == shown


def test_the_readme_shell_example_prints_what_it_shows(tmp_path):
    shell = [
        (code, shown)
        for code, shown in readme_examples("sh")
        if code.startswith("sqlite3 ")
    ]
    assert len(shell) == 1, shell
    [(code, shown)] = shell
    # python3 is the venv's (first on PATH, as after `pip install` in an activated venv).
    done = subprocess.run(
        ["bash", "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert done.stdout.strip() == shown


def test_the_readme_datasette_example_answers_what_the_function_does(tmp_path):
    examples = [(c, s) for c, s in readme_examples("sh") if c.startswith("datasette ")]
    assert len(examples) == 1, examples
    [(code, shown)] = examples
    db = tmp_path / code.split()[1]
    sqlite3.connect(db).execute("create table t(x)").connection.close()
    path = urllib.parse.urlsplit(shown)
    query = urllib.parse.parse_qs(path.query)
    [sql] = query["sql"]
    plain = sqlite3.connect(":memory:")
    sqlite_recall.load(plain)
    expected = plain.execute(sql).fetchone()[0]
    assert expected == '"database" OR "locked"'
    rows = datasette_query(db, sql)
    assert list(rows[0].values()) == [expected]
    # The address as the README writes it answers too (Datasette before 1.0).
    if int(importlib.metadata.version("datasette").split(".")[0]) < 1:
        answer = datasette_get(db, f"{path.path}?{path.query}")
        assert answer["rows"] == [[expected]], answer
