"""The sqlite-recall SQLite extension (librecall0) for Python.

    import sqlite3, sqlite_recall
    conn = sqlite3.connect("library.db")
    sqlite_recall.load(conn)

`load` takes a standard-library `sqlite3.Connection` or an `apsw.Connection`;
`parameters(sql, **values)` binds every named parameter of a file of sql/, NULL (its
default) unless given.
"""

import os
import sys

from ._parameters import parameters

__all__ = ["LoadExtensionUnavailable", "load", "loadable_path", "parameters"]

_HERE = os.path.dirname(os.path.abspath(__file__))

if sys.platform == "win32":
    _FILE = "librecall0.dll"
elif sys.platform == "darwin":
    _FILE = "librecall0.dylib"
else:
    _FILE = "librecall0.so"


class LoadExtensionUnavailable(RuntimeError):
    """This interpreter's sqlite3 module cannot load SQLite extensions."""


_NO_EXTENSIONS = (
    "sqlite_recall.load: this Python's sqlite3 module was built without loadable "
    "extension support (sqlite3.Connection has no enable_load_extension), so it cannot "
    "load librecall0; use apsw instead: pip install apsw, then "
    "sqlite_recall.load(apsw.Connection(path))"
)


def loadable_path():
    """The full path of the library file, suffix included.

    SQLite tries the name as given before adding a suffix, so this path suits
    `sqlite3.Connection.load_extension`, `apsw.Connection.load_extension` and the
    `sqlite3` shell's `.load` alike; the entry point, `sqlite3_recall_init`, follows from
    the file name.
    """
    return os.path.join(_HERE, _FILE)


def load(conn):
    """Load librecall0 into `conn`, a `sqlite3.Connection` or an `apsw.Connection`.

    Extension loading is switched on only for the load and off again afterwards, so SQL
    run later on the connection cannot load other libraries.
    """
    enable = getattr(conn, "enable_load_extension", None)
    if enable is None:
        # Imported here: where apsw is used, the interpreter may have no sqlite3 at all.
        import sqlite3

        if isinstance(conn, sqlite3.Connection):
            raise LoadExtensionUnavailable(_NO_EXTENSIONS)
        raise TypeError(
            "sqlite_recall.load: expected a sqlite3.Connection or an apsw.Connection, "
            f"got {type(conn).__name__}"
        )
    enable(True)
    try:
        conn.load_extension(loadable_path())
    finally:
        enable(False)
