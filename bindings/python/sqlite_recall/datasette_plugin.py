"""Datasette plugin: every connection Datasette opens gets the recall_* functions.

A plugin that raises in prepare_connection stops Datasette from opening any database,
so a connection that cannot load the extension is served without it, and the reason is
said once per process (Datasette opens many connections), on one line of stderr.
"""

import sys
import threading

from datasette import hookimpl

import sqlite_recall

_NO_EXTENSIONS = (
    "sqlite-recall: Datasette runs without the recall_* functions: this Python's sqlite3 "
    "module was built without loadable extension support; pip install pysqlite3-binary "
    "beside Datasette (Datasette then uses it, and it loads extensions), or run Datasette "
    "with a Python built with --enable-loadable-sqlite-extensions"
)

_warned = False
_warn_lock = threading.Lock()


def _warn_once(line):
    global _warned
    with _warn_lock:
        if _warned:
            return
        _warned = True
    print(line, file=sys.stderr, flush=True)


@hookimpl
def prepare_connection(conn):
    try:
        sqlite_recall.load(conn)
    except sqlite_recall.LoadExtensionUnavailable:
        _warn_once(_NO_EXTENSIONS)
    except Exception as error:  # noqa: BLE001 - whatever the driver raises must not stop Datasette
        reason = " ".join(str(error).split()) or type(error).__name__
        _warn_once(
            "sqlite-recall: Datasette runs without the recall_* functions: loading "
            f"{sqlite_recall.loadable_path()} failed ({reason}); reinstall the "
            "sqlite-recall wheel built for this machine (make wheel)"
        )
