"""The declared commands of ``command.run`` (docs/driver-protocol.md): a command's code cannot
cross the protocol, so the test names one of a small vocabulary, every one over the ``tasks``
table of the test's schema (columns ``id``, ``project_id``, ``title``, ``done``, in that
order), and the candidate registers it under the request's operation id.
"""

import re
from dataclasses import dataclass

from .remote_command import Mutation, RemoteCommand

TABLE = "tasks"
UNKNOWN_TABLE = "no_such_table"
KINDS = ("increment", "move", "throw", "no-mutations", "unknown-table", "empty-row-id", "partial-row",
         "read-unknown-table")
PROJECT, TITLE = 1, 2  # column positions in tasks: id, project_id, title, done

_LEADING_NUMBER = re.compile(r"-?[0-9]+")


class DeclaredCommandThrew(Exception):
    """What the ``throw`` command raises: the host's own failure, not an OperationRefused."""


@dataclass(frozen=True)
class DeclaredCommand:
    kind: str
    row_id: str
    project: str


def counter_of(row):
    """``title`` read as a decimal number: its leading ``-?digits``; 0 for a null, absent or
    non-numeric title and for an absent row."""
    title = row[TITLE] if row is not None and len(row) > TITLE else None
    match = _LEADING_NUMBER.match(title) if isinstance(title, str) else None
    return int(match.group()) if match else 0


def _upsert(row):
    return [Mutation("upsert", TABLE, row[0], row)]


def run_declared(declared, reader):
    """The mutations ``declared`` asks for, reading through ``reader.get_row(table, rowId)``."""
    kind, row_id, project = declared.kind, declared.row_id, declared.project
    if kind == "increment":
        stored = reader.get_row(TABLE, row_id)
        if stored is None:
            return _upsert([row_id, project, "1", False])
        row = list(stored)  # every column as read, the counter one up
        row[TITLE] = str(counter_of(stored) + 1)
        return _upsert(row)
    if kind == "move":
        stored = reader.get_row(TABLE, row_id)
        if stored is None:
            return []
        row = list(stored)
        row[PROJECT] = project
        return _upsert(row)
    if kind == "throw":
        raise DeclaredCommandThrew("the declared command throws")
    if kind == "no-mutations":
        return []
    if kind == "unknown-table":
        return [Mutation("upsert", UNKNOWN_TABLE, row_id, [row_id, project, "x", False])]
    if kind == "empty-row-id":
        return [Mutation("delete", TABLE, "")]
    if kind == "partial-row":
        return [Mutation("upsert", TABLE, row_id, [row_id, project])]
    if kind == "read-unknown-table":
        reader.get_row(UNKNOWN_TABLE, row_id)
        return []
    raise ValueError("not a declared command kind: %r" % kind)


def declared_remote_command(declared, authorized):
    """``declared`` as a registered command whose ``authorize`` answers ``authorized``."""
    return RemoteCommand(authorize=lambda context: authorized,
                         run=lambda context, reader: run_declared(declared, reader))
