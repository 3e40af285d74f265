"""Datasette plugin: every connection Datasette opens gets the recall_* functions."""

from datasette import hookimpl

import sqlite_recall


@hookimpl
def prepare_connection(conn):
    sqlite_recall.load(conn)
