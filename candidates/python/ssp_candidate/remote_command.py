"""Registered remote commands (REMOTE §3, §7; design notes push.md §3.1): trusted code that
writes application rows through the push pipeline — under the partition lock, after the
locked idempotency recheck — with an idempotency key of its own per (actor, client,
operation, request), in the key space push refuses to clients (``["remote-command",``).

In order: empty ids (``operation.invalid_request``), a client id in the reserved key space
(``sync.invalid_client_id``), no command registered (``operation.unknown``), ``authorize`` on
every delivery before any idempotency lookup (``operation.forbidden``), unresolved scopes
(``operation.execution_failed``, as a failed ``run``); then the push pipeline, whose operations ``run`` makes under the
lock. A refused plan or a failed ``run`` rolls back: nothing is stored, a retry runs again.

Written from docs/driver-protocol.md ("command.run"), with the C++ reference's
remote_command.cpp read alongside.
"""

from dataclasses import dataclass
from typing import Callable, Optional

from . import jsontext
from .errors import CandidateError
from .push import REMOTE_COMMAND_PREFIX, run_pipeline
from .row_codec import decode_row, encode_row
from .storage_errors import OperationRefused, PushRequestRefused

INVALID_REQUEST = "operation.invalid_request"


@dataclass(frozen=True)
class CommandRequest:
    operation_id: str
    client_id: str  # the caller's; never an idempotency key as it is
    request_id: str  # one per logical command; a retry repeats it


@dataclass(frozen=True)
class CommandContext:
    actor_id: str
    partition: str
    client_id: str
    operation_id: str
    request_id: str


@dataclass(frozen=True)
class Mutation:
    """One full-row write: an upsert carries every column of the table in schema order, a
    delete none. No base version: the command runs under the lock."""

    op: str  # "upsert" | "delete"
    table: str
    row_id: str
    row: Optional[list] = None


@dataclass(frozen=True)
class RemoteCommand:
    """What a host registers under an operation id. ``authorize(context) → bool`` has no side
    effect; ``run(context, reader) → [Mutation…]`` reads only through ``reader``."""

    authorize: Callable
    run: Callable


def command_key(actor_id, request):
    """The push idempotency key (REMOTE §3): ``["remote-command",actorId,clientId]`` and
    ``[operationId,requestId]``, each as JSON.stringify writes it, so no two actors and no two
    splits of the same characters share a key."""
    return (jsontext.value(["remote-command", actor_id, request.client_id]),
            jsontext.value([request.operation_id, request.request_id]))


def _allowed(allowed, variable, value):
    values = allowed.get(variable) or []
    return "*" in values or value in values


class ScopedReader:
    """What ``run`` reads with: the push transaction's rows (its staged writes included),
    decoded, and only those the actor may write — a stored row with a declared scope
    missing or not allowed reads as absent, as an update of it would be refused (§3.4)."""

    def __init__(self, tx, schema, allowed):
        self.tx = tx
        self.schema = schema
        self.allowed = allowed

    def get_row(self, table_name, row_id):
        table = self.schema.find(table_name)
        if table is None:
            raise OperationRefused(INVALID_REQUEST, "command read of unknown table %s" % jsontext.quote(table_name))
        stored = self.tx.read_row(table.name, row_id)
        if stored is None:
            return None
        scopes = stored["scopes"]
        for variable in table.scope_variables():
            value = scopes.get(variable)
            if not value or not _allowed(self.allowed, variable, value):
                return None
        return decode_row(table.layout(), stored["payload"])


def _operation(schema, mutation):
    """A mutation as a push operation: a full row encoded by the row codec, no base version.
    A mutation that cannot be one is ``operation.invalid_request``."""
    table = schema.find(mutation.table)
    what = "command %s of table %s" % (mutation.op, jsontext.quote(mutation.table))
    if table is None:
        raise OperationRefused(INVALID_REQUEST, "command mutation names unknown table %s"
                               % jsontext.quote(mutation.table))
    if mutation.op == "delete":
        if not mutation.row_id:
            raise OperationRefused(INVALID_REQUEST, what + " has an empty rowId")
        return {"table": table.name, "rowId": mutation.row_id, "op": "delete", "payload": None, "baseVersion": None}
    row = mutation.row
    if row is None or len(row) != len(table.columns):
        raise OperationRefused(INVALID_REQUEST, what + " must supply every column")
    key = row[[c.name for c in table.columns].index(table.primary_key)]
    if not isinstance(key, str) or not key:
        raise OperationRefused(INVALID_REQUEST, what + " needs a non-empty string primary key")
    try:
        payload = encode_row(table.layout(), list(row))
    except (CandidateError, ValueError, TypeError) as bad_value:
        raise OperationRefused(INVALID_REQUEST, "%s: %s" % (what, bad_value)) from None
    return {"table": table.name, "rowId": key, "op": "upsert", "payload": payload, "baseVersion": None}


def _registered_code(call):
    """The host's own code: its OperationRefused keeps its code; anything else it raises is
    not carried (``operation.execution_failed``)."""
    try:
        return call()
    except (OperationRefused, PushRequestRefused):
        raise
    except Exception:  # noqa: BLE001 — the host's failure, whatever it is (a failed read too)
        raise OperationRefused("operation.execution_failed", "registered remote operation failed") from None


def run_remote_command(storage, schema, actor, registry, request, now_ms, cache_identity, callbacks,
                       on_reader=None):
    """Runs ``request`` for ``actor`` (``registry``: operation id → RemoteCommand); returns the
    push's PUSH_RESULT answer dict (applied, cached, or a stored rejection by the ordinary
    rules). ``callbacks`` and ``on_reader`` are the push pipeline's: the command's commit
    passes the validators and the notifier as a push's (REMOTE §3). Raises OperationRefused,
    PushRequestRefused (``sync.invalid_client_id``) and what the push raises."""
    if not request.operation_id or not request.client_id or not request.request_id:
        raise OperationRefused(INVALID_REQUEST, "a command needs a non-empty operationId, clientId and requestId")
    if request.client_id.startswith(REMOTE_COMMAND_PREFIX):
        raise PushRequestRefused("sync.invalid_client_id", "clientId %s uses the reserved remote-command prefix"
                                 % jsontext.quote(request.client_id))
    command = registry.get(request.operation_id)
    if command is None:
        raise OperationRefused("operation.unknown", "no command is registered as %s"
                               % jsontext.quote(request.operation_id))
    context = CommandContext(actor["actorId"], actor["partition"], request.client_id, request.operation_id,
                             request.request_id)
    # Before any idempotency lookup, on every delivery (decisions Q8): a revoked actor
    # retrying an applied command is refused, not answered the stored outcome.
    if not _registered_code(lambda: command.authorize(context)):
        raise OperationRefused("operation.forbidden", "the command is not authorized")
    allowed = actor.get("allowedScopes")
    if allowed is None:  # the resolver threw: the host's code failed, as a throwing run does
        raise OperationRefused("operation.execution_failed", "registered remote operation failed")
    client_id, commit_id = command_key(actor["actorId"], request)

    def build(tx):
        reader = ScopedReader(tx, schema, allowed)
        mutations = _registered_code(lambda: list(command.run(context, reader)))
        if not mutations:
            raise OperationRefused(INVALID_REQUEST, "authoritative command produced no mutations")
        return [_operation(schema, mutation) for mutation in mutations]

    commit = {"clientId": client_id, "clientCommitId": commit_id, "operations": []}
    return run_pipeline(storage, schema, actor, commit, now_ms, cache_identity, callbacks, on_reader, build=build)
