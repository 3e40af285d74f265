"""The sqlite-recall wheel in a fresh virtual environment (run by python.sh).

Every answer is compared with the venv's own `recall` command run as a separate process
on the same library: the extension loaded into the standard library's sqlite3 (SQLite
3.40, a library rebuilt with unicode61), into apsw (its own newer SQLite, the default
trigram library) and into Datasette through the plugin.
"""

import asyncio
import contextlib
import glob
import importlib.metadata
import json
import os
import re
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import apsw
import pytest
import sqlite_recall
from datasette.app import Datasette
from python_noext import lacks_load_extension

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
    return sqlite_recall.parameters(
        SEARCH_SQL, query=query, tokenizer=tokenizer, project=project, now=NOW, limit=LIMIT
    )


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


def test_which_sqlite_reads_which_library(libraries, tmp_path):
    """The package README's table, in the standard library's SQLite 3.40."""
    lib, copy = libraries
    assert sqlite3.sqlite_version_info < (3, 45)
    count = "select count(*) from items_fts where items_fts match 'analytics'"
    with pytest.raises(sqlite3.OperationalError, match="^error in tokenizer constructor$"):
        sqlite3.connect(lib).execute(count)
    expected = int(recall("--db", copy, "sql", "--csv", count).split()[1])
    assert expected > 0
    assert sqlite3.connect(copy).execute(count).fetchone()[0] == expected
    own = tmp_path / "recall.db"
    shutil.copy(copy, own)
    recall("--db", own, "rebuild", "--tokenizer", "recall")
    with pytest.raises(sqlite3.OperationalError, match="no such tokenizer: recall"):
        sqlite3.connect(own).execute(count)
    assert_search_sql_gives_the_cli_s_answers(sqlite3.connect(own), own, "recall")


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
    """The CPython whose sqlite3 cannot load extensions that python.sh found (pyenv's) or
    built (tests/hosts/cpython_noext.sh), checked to be one."""
    python = os.environ.get("RECALL_NOEXT_PYTHON", "")
    if not python:
        pytest.fail(
            "RECALL_NOEXT_PYTHON is not set: run this test through tests/packages/python.sh "
            "(make test-python), which finds or builds a CPython without loadable extensions"
        )
    if not lacks_load_extension(python):
        pytest.fail(
            f"RECALL_NOEXT_PYTHON={python} is not a CPython 3.8+ whose sqlite3 lacks "
            "enable_load_extension"
        )
    return python


@pytest.fixture(scope="module")
def noext_venv(tmp_path_factory):
    """A venv of a CPython without loadable extensions with the wheel, Datasette and
    apsw."""
    venv = tmp_path_factory.mktemp("noext") / "venv"
    subprocess.run([interpreter_without_extensions(), "-m", "venv", str(venv)], check=True)
    pip_install(venv, WHEEL, "datasette", "apsw")
    return venv


def pip_install(venv, *packages):
    pip = [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, *packages], check=True)


def test_an_interpreter_without_loadable_extensions_gets_one_clear_error(noext_venv):
    script = (
        "import sqlite3, sqlite_recall\n"
        "try:\n"
        "    sqlite_recall.load(sqlite3.connect(':memory:'))\n"
        "except sqlite_recall.LoadExtensionUnavailable as e:\n"
        "    print(e)\n"
    )
    assert printed_by(noext_venv / "bin" / "python", script) == (
        "sqlite_recall.load: this Python's sqlite3 module was built without loadable "
        "extension support (sqlite3.Connection has no enable_load_extension), so it "
        "cannot load librecall0; use apsw instead: pip install apsw, then "
        "sqlite_recall.load(apsw.Connection(path))\n"
    )
    # The way out the message names works in that same interpreter.
    script = (
        "import apsw, sqlite_recall\n"
        "conn = apsw.Connection(':memory:')\n"
        "sqlite_recall.load(conn)\n"
        "print(list(conn.execute('select recall_version()'))[0][0])\n"
    )
    assert printed_by(noext_venv / "bin" / "python", script) == (
        f"v{importlib.metadata.version('sqlite-recall')}\n"
    )


# The package's parameters(): the names are the ones SQLite binds, so the host itself is
# the judge: with all of them a statement runs, without any one it is refused.
TRICKY_SQL = (
    "select :a as a, ':b' as s, \"x:c\" as [y:d], /* :e */ @f as f, $g as g -- :h\n"
    ", :a || 'it''s :i' as again, `q:j` as t from (select 1 as \"x:c\", 2 as `q:j`)"
)


def test_parameters_are_the_ones_sqlite_binds():
    names = ["a", "f", "g"]
    assert list(sqlite_recall.parameters(TRICKY_SQL)) == names
    conn = sqlite3.connect(":memory:")
    row = conn.execute(TRICKY_SQL, sqlite_recall.parameters(TRICKY_SQL, a="A", g=7)).fetchone()
    assert row == ("A", ":b", 1, None, 7, "Ait's :i", 2)
    for name in names:
        params = sqlite_recall.parameters(TRICKY_SQL)
        del params[name]
        with pytest.raises(sqlite3.ProgrammingError, match=f":{name}"):
            conn.execute(TRICKY_SQL, params)


def test_parameters_of_search_sql_are_exactly_the_ones_it_needs(libraries):
    _, copy = libraries
    conn = sqlite3.connect(copy)
    sqlite_recall.load(conn)
    params = sqlite_recall.parameters(SEARCH_SQL, query="deploy", tokenizer=UNICODE61)
    # docs/queries.md's list, the parameters the CLI binds (cli/src/query/params.rs) included.
    assert {"context_weight", "context_radius", "context_gap", "nearest", "rrf_k"} <= set(params)
    assert conn.execute(SEARCH_SQL, params).fetchall()
    for name in params:
        fewer = {k: v for k, v in params.items() if k != name}
        with pytest.raises(sqlite3.ProgrammingError, match=f":{name}"):
            conn.execute(SEARCH_SQL, fewer)


def test_parameters_refuse_a_name_the_sql_does_not_have():
    with pytest.raises(ValueError) as raised:
        sqlite_recall.parameters(SEARCH_SQL, qeury="deploy")
    assert str(raised.value).startswith(
        "sqlite_recall.parameters: the SQL has no parameter :qeury; its parameters are: "
    )
    assert "\n" not in str(raised.value)


# Datasette as a user runs it: `datasette FILE` served on loopback, pages asked over HTTP.
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def datasette_served(venv, db, cwd):
    """`datasette DB` of `venv` on 127.0.0.1; yields (base address, its stderr so far)."""
    port = free_port()
    log = open(cwd / f"datasette-{port}.log", "w+")
    args = [str(venv / "bin" / "datasette"), str(db), "-h", "127.0.0.1", "-p", str(port)]
    server = subprocess.Popen(args, cwd=cwd, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"

    def stderr():
        log.flush()
        return Path(log.name).read_text()

    try:
        # Started when it answers; a server that exits instead fails with what it said.
        while True:
            if server.poll() is not None:
                pytest.fail(f"datasette {db} exited {server.returncode}:\n{stderr()}")
            try:
                urllib.request.urlopen(f"{base}/-/versions.json", timeout=5).close()
                break
            except OSError:
                time.sleep(0.2)
        yield base, stderr
    finally:
        server.terminate()
        server.wait()
        log.close()


def http_json(url, status=200):
    """The JSON of a page of Datasette, which must answer with `status`."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            got, answer = response.status, json.load(response)
    except urllib.error.HTTPError as error:
        got, answer = error.code, json.load(error)
    assert got == status, (url, got, answer)
    return answer


def cli_rows(db, sql):
    """What `recall sql` answers to `sql` on `db`: each row's values."""
    return [list(row.values()) for row in json.loads(recall("--db", db, "--json", "sql", sql))]


def sample_library(folder, name, *rebuild):
    db = folder / name
    recall("--db", db, "init")
    recall("--db", db, "import", REPO / "examples" / "sample.jsonl")
    if rebuild:
        recall("--db", db, "rebuild", "--tokenizer", *rebuild)
    return db


def test_datasette_without_loadable_extensions_warns_once_and_serves(noext_venv, tmp_path):
    db = sample_library(tmp_path, "lib.db", UNICODE61)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("create table t(x)").connection.close()
    sql = "select count(*) from items"
    with datasette_served(noext_venv, db, tmp_path) as (base, stderr):
        # Pages of several kinds, each on connections of their own.
        answer = http_json(f"{base}/lib.json?" + urllib.parse.urlencode({"sql": sql}))
        assert answer["rows"] == cli_rows(db, sql)
        with urllib.request.urlopen(f"{base}/lib/items", timeout=30) as page:
            assert page.status == 200 and b"analytics" in page.read()
        sql = "select recall_match('x')"
        answer = http_json(f"{base}/lib.json?" + urllib.parse.urlencode({"sql": sql}), 400)
        assert answer["error"] == "no such function: recall_match", answer
        said = [line for line in stderr().splitlines() if "sqlite-recall" in line or "Traceback" in line]
    assert said == [
        "sqlite-recall: Datasette runs without the recall_* functions: this Python's sqlite3 "
        "module was built without loadable extension support; pip install pysqlite3-binary "
        "beside Datasette (Datasette then uses it, and it loads extensions), or run Datasette "
        "with a Python built with --enable-loadable-sqlite-extensions"
    ]
    # The way out it names: the same interpreter, now with the functions, on the library
    # recall init made (pysqlite3-binary's SQLite reads trigram).
    pip_install(noext_venv, "pysqlite3-binary")
    trigram = sample_library(tmp_path, "trigram.db")
    sql = "select rowid from items_fts where items_fts match recall_match('database is locked')"
    with datasette_served(noext_venv, trigram, tmp_path) as (base, stderr):
        answer = http_json(f"{base}/trigram.json?" + urllib.parse.urlencode({"sql": sql}))
        assert answer["rows"] and answer["rows"] == cli_rows(trigram, sql), answer
        assert "sqlite-recall" not in stderr()


def test_a_library_that_cannot_load_is_served_without_functions(tmp_path):
    """The other failures of the load: the library file missing or not a library."""
    db = sample_library(tmp_path, "lib.db", UNICODE61)
    venv = Path(sys.prefix)
    for broken in ["/nonexistent/librecall0.so", str(db)]:
        # The plugin in Datasette's own process, with the library path it loads replaced.
        script = (
            "import sys, sqlite_recall\n"
            f"sqlite_recall.loadable_path = lambda: {broken!r}\n"
            "from datasette.cli import cli\n"
            "sys.argv[0] = 'datasette'\n"
            "cli()\n"
        )
        launcher = tmp_path / "bin" / "datasette"
        launcher.parent.mkdir(exist_ok=True)
        launcher.write_text(f"#!{venv}/bin/python\n{script}")
        launcher.chmod(0o755)
        with datasette_served(tmp_path, db, tmp_path) as (base, stderr):
            sql = "select count(*) from items"
            answer = http_json(f"{base}/lib.json?" + urllib.parse.urlencode({"sql": sql}))
            assert answer["rows"] == cli_rows(db, sql)
            said = [l for l in stderr().splitlines() if "sqlite-recall" in l or "Traceback" in l]
        assert len(said) == 1, said
        assert said[0].startswith(
            "sqlite-recall: Datasette runs without the recall_* functions: loading "
            f"{broken} failed ("
        ), said
        assert said[0].endswith("); reinstall the sqlite-recall wheel built for this machine (make wheel)")


# The examples of the READMEs, read from their text: each block's last lines, written as
# comments, are what it prints.
def readme_blocks(readme, language, section=None):
    """(code, the lines it shows) of each `language` block of `readme` (in `section`)."""
    text = readme.read_text()
    if section:
        text = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    found = []
    for block in re.findall(r"```" + language + r"\n(.*?)```", text, re.S):
        lines = block.rstrip("\n").split("\n")
        shown = []
        while lines and lines[-1].startswith("# "):
            shown.insert(0, lines.pop()[2:])
        found.append(("\n".join(lines), shown))
    assert found, f"no {language} example in {readme} {section or ''}"
    return found


PACKAGE_README = REPO / "bindings" / "python" / "README.md"


def readme_folder(tmp_path, library):
    """A folder as the package README's examples expect: library.db, and sql/ beside it."""
    shutil.copy(library, tmp_path / "library.db")
    (tmp_path / "sql").symlink_to(REPO / "sql")
    return tmp_path


def test_every_python_example_of_the_package_readme_prints_what_it_shows(libraries, tmp_path):
    lib, copy = libraries
    blocks = readme_blocks(PACKAGE_README, "python")
    assert len(blocks) == 3, [code for code, _ in blocks]
    for i, (code, shown) in enumerate(blocks):
        assert shown, f"the example shows what it prints:\n{code}"
        # As the README says: apsw reads the library recall init made; the standard
        # library's SQLite before 3.45 reads the copy rebuilt with unicode61.
        library = lib if "apsw" in code or sqlite3.sqlite_version_info >= (3, 45) else copy
        (tmp_path / str(i)).mkdir()
        folder = readme_folder(tmp_path / str(i), library)
        assert printed_by(sys.executable, code, cwd=folder).splitlines() == shown, code
        if "sql/search.sql" in code:
            [query] = re.findall(r'query="([^"]*)"', code)
            answer = json.loads(recall("--db", library, "--json", "search", query))["results"]
            assert shown == [f"{r['id']} {r['title']}" for r in answer]


def test_the_package_readme_datasette_example_answers_as_recall_sql(tmp_path):
    [(code, [shown])] = readme_blocks(PACKAGE_README, "sh", "Datasette")
    lines = [line.split("  #")[0].strip() for line in code.split("\n")]
    assert lines[0] == "pip install datasette target/wheels/sqlite_recall-*.whl"
    # The wheel that line installs is the one installed here.
    assert glob.glob(str(REPO / lines[0].split()[-1])) == [WHEEL]
    # The rest as written, in a folder holding the library recall init made.
    folder = tmp_path
    sample_library(folder, "library.db")
    for line in lines[1:-1]:
        done = subprocess.run(["bash", "-c", line], cwd=folder, capture_output=True, text=True)
        assert done.returncode == 0, (line, done.stderr)
    [db] = shlex.split(lines[-1])[1:]
    assert lines[-1] == f"datasette {db}"
    address = urllib.parse.urlsplit(shown)
    assert (address.hostname, address.port) == ("127.0.0.1", 8001)
    [sql] = urllib.parse.parse_qs(address.query)["sql"]
    expected = cli_rows(folder / db, sql)
    assert expected, sql
    with datasette_served(Path(sys.prefix), folder / db, folder) as (base, stderr):
        answer = http_json(f"{base}{address.path}?{address.query}")
        assert answer["rows"] == expected
        assert "sqlite-recall" not in stderr()


# The repository README's Install examples.
def test_the_readme_python_example_prints_what_it_shows(tmp_path):
    [(code, shown)] = readme_blocks(REPO / "README.md", "python", "Install")
    assert printed_by(sys.executable, code, cwd=tmp_path).splitlines() == shown


def test_the_readme_shell_example_prints_what_it_shows(tmp_path):
    shell = [b for b in readme_blocks(REPO / "README.md", "sh", "Install") if b[0].startswith("sqlite3 ")]
    assert len(shell) == 1, shell
    [(code, shown)] = shell
    # python3 is the venv's (first on PATH, as after `pip install` in an activated venv).
    done = subprocess.run(["bash", "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert done.stdout.splitlines() == shown


def test_the_readme_datasette_example_answers_as_recall_sql(tmp_path):
    """Run as written in a fresh venv of /usr/bin/python3 with the wheel and Datasette,
    on memory.db made as the README's tour makes it."""
    examples = [b for b in readme_blocks(REPO / "README.md", "sh", "Install") if "datasette " in b[0]]
    assert len(examples) == 1, examples
    [(code, [shown])] = examples
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", str(venv)], check=True)
    pip_install(venv, WHEEL, "datasette")
    lines = [line.split("  #")[0].strip() for line in code.split("\n")]
    sample_library(tmp_path, "memory.db")
    env = {**os.environ, "PATH": f"{venv}/bin:{os.environ['PATH']}"}
    for line in lines[:-1]:
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, (line, done.stderr)
    assert lines[-1] == "datasette memory.db"
    address = urllib.parse.urlsplit(shown)
    [sql] = urllib.parse.parse_qs(address.query)["sql"]
    expected = cli_rows(tmp_path / "memory.db", sql)
    assert expected, sql
    with datasette_served(venv, tmp_path / "memory.db", tmp_path) as (base, stderr):
        answer = http_json(f"{base}{address.path}?{address.query}")
        assert answer["rows"] == expected
        assert "sqlite-recall" not in stderr()
