"""The renamed-tables variant (``--renamed-tables``, issue 49): the candidate's own tables
(``sync_commits``, ``sync_push_results``, the segment store's, …) live under other names,
``alt_commits``, ``alt_push_results``, …, and hello declares no ``upstreamTables``.

SSP2 fixes what a server answers, not what its tables are called, so an implementation with
tables of its own must pass every MUST row: a test that counts or edits upstream's tables by
SQL is a check of the 0.22 storage format, and the suite asks for ``upstreamTables`` first.
This variant is how the suite shows that it does.

Every statement goes through ``rename`` on a connection of this module's class, so the rest of
the candidate keeps one spelling of each table. Application tables and the storage-internal
columns of application tables (``sync_row_id``, ``sync_payload``, …) keep their names: those
are the schema's, not the storage's.
"""

import re
import sqlite3

from . import choices

# The storage's own tables, as whole identifiers: an index named after one
# (``sync_changes_by_table``) is another identifier and keeps its name.
_OWN_TABLE = re.compile(
    r"\bsync_(commits|changes|change_scopes|partitions|partition_registry|push_results|row_scopes"
    r"|schema_meta|clients|reactions|blob_refs|column_versions|tombstones|segments|segment_scopes"
    r"|segment_publications)\b")


def rename(sql: str) -> str:
    """``sql`` with every storage table named by its other name."""
    return _OWN_TABLE.sub(r"alt_\1", sql)


class _Renaming:
    """Renames the tables of every statement before sqlite3 runs it; mixed into the cursor
    and the connection, which both run statements."""

    def execute(self, sql, *args):
        return super().execute(rename(sql), *args)

    def executemany(self, sql, *args):
        return super().executemany(rename(sql), *args)

    def executescript(self, script):
        return super().executescript(rename(script))


class _RenamingCursor(_Renaming, sqlite3.Cursor):
    pass


class _RenamingConnection(_Renaming, sqlite3.Connection):
    def cursor(self, factory=_RenamingCursor):
        return super().cursor(factory)


def connection_class():
    """The class ``sqlite3.connect`` is given as ``factory``: the plain connection, or the
    renaming one in the variant."""
    return _RenamingConnection if choices.current().renamed_tables else sqlite3.Connection
