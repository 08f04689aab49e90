"""The protocol-version-2 methods of docs/driver-protocol.md this candidate serves on SQLite:
``rows.*``, ``schema.*``, ``storage.*``, ``push.*`` (with its callbacks), ``tx.*`` and
``command.run``.

Every params field is checked here, naming the field, before anything is written; the
rules live in row_codec, schema, server_storage and push.
"""

import threading
import uuid

from . import choices
from .declared_command import KINDS, DeclaredCommand, declared_remote_command
from .errors import CallbackFailed, InvalidInput, Unsupported
from .protocol import CallbackRefused
from .push import Callbacks, Verdict, run_push
from .push_results import parse_stored, result_from_wire, result_to_wire, stored_text
from .remote_command import CommandRequest, command_key, run_remote_command
from .row_codec import Column, TYPES, decode_row, encode_row
from .row_values import values_from_json, values_to_json
from .schema import (SchemaError, compile_schema, layouts_json, parse_schema_text, schema_from_json, schema_to_json,
                     scopes_json)
from .server_storage import SqliteServerStorage
from .wire import BadRequest, decode_bytes, encode_bytes, field, scope_map_from_json, text

DEFAULT_LOCK_WAIT_MS = 30_000


# --- shared shapes ---------------------------------------------------------------------


def _columns(params):
    columns = []
    for index, raw in enumerate(field(params, "columns", list)):
        name = "columns[%d]" % index
        if not isinstance(raw, dict):
            raise BadRequest("field %r must be an object" % name)
        kind = field(raw, "type", str)
        if kind not in TYPES:
            raise BadRequest("field %r.type must be one of %s" % (name, ", ".join(TYPES)))
        columns.append(Column(text(field(raw, "name"), name + ".name"), kind, field(raw, "nullable", bool)))
    return columns


def _compiled(params, name="schema"):
    try:
        return compile_schema(schema_from_json(field(params, name, dict)))
    except SchemaError as error:
        raise SchemaError(str(error)) from None


def _int_field(params, name, optional=False, default=None):
    value = field(params, name, optional=optional, default=default)
    if value is default and optional:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest("field %r must be an integer" % name)
    return value


def _text_field(params, name):
    return text(field(params, name), name)


def _stored_row(raw, name="row"):
    if not isinstance(raw, dict):
        raise BadRequest("field %r must be an object" % name)
    scopes = field(raw, "scopes", dict)
    return {"rowId": _text_field(raw, "rowId"), "serverVersion": _int_field(raw, "serverVersion"),
            "scopes": {key: text(value, "scopes." + key) for key, value in scopes.items()},
            "payload": decode_bytes(field(raw, "payload"), "payload")}


def _row_out(row):
    if row is None:
        return None
    return {"rowId": row["rowId"], "serverVersion": row["serverVersion"], "scopes": row["scopes"],
            "payload": encode_bytes(row["payload"])}


def _change_out(change):
    return {"table": change["table"], "rowId": change["rowId"], "op": change["op"], "rowVersion": change["rowVersion"],
            "scopes": change["scopes"], "payload": None if change["payload"] is None else encode_bytes(change["payload"])}


def _change_in(raw):
    if not isinstance(raw, dict):
        raise BadRequest("a change must be an object")
    op = field(raw, "op", str)
    if op not in ("upsert", "delete"):
        raise BadRequest('field "op" must be "upsert" or "delete"')
    payload = field(raw, "payload", optional=True)
    version = field(raw, "rowVersion", optional=True)
    return {"table": _text_field(raw, "table"), "rowId": _text_field(raw, "rowId"), "op": op,
            "rowVersion": None if version is None else _int_field(raw, "rowVersion"),
            "scopes": {k: text(v, "scopes") for k, v in field(raw, "scopes", dict).items()},
            "payload": None if payload is None else decode_bytes(payload, "payload")}


# --- rows and schema -----------------------------------------------------------------


def rows_encode(server, params):
    columns = _columns(params)
    values = values_from_json(columns, field(params, "values", list))
    return {"payload": encode_bytes(encode_row(columns, values))}


def rows_decode(server, params):
    columns = _columns(params)
    return {"values": values_to_json(decode_row(columns, decode_bytes(field(params, "payload"), "payload")))}


def schema_parse(server, params):
    return {"schema": schema_to_json(parse_schema_text(_text_field(params, "text")))}


def schema_compile(server, params):
    schema = _compiled(params)
    return {"schema": schema_to_json(schema), "scopes": scopes_json(schema), "layoutsJson": layouts_json(schema)}


# --- storage ---------------------------------------------------------------------------


class _StorageHandle:
    """An open storage and the transactions begun on it (closed with it)."""

    def __init__(self, storage):
        self.storage = storage
        # The schema of the last ensure_schema that succeeded: push.run and command.run
        # without a "schema" run under it (ensuredSchema). None before the first success.
        self.schema_in_force = None

    def close(self):
        self.storage.close()


def _open_handle(server, params, key, kind, what):
    """The open object of kind ``kind`` that ``params[key]`` names; BadRequest otherwise."""
    handle = server.handles.get(field(params, key))
    if not isinstance(handle, kind):
        raise BadRequest("unknown %s handle %r" % (what, params.get(key)))
    return handle


def _storage_handle(server, params):
    return _open_handle(server, params, "storage", _StorageHandle, "storage")


def _storage(server, params):
    return _storage_handle(server, params).storage


def _push_schema(server, params):
    """The schema a push.run or command.run runs under: the one it carries (a harness before
    version 2, sixth revision), else the storage's last ensured one; before any, no table."""
    if "schema" in params:
        return _compiled(params)
    in_force = _storage_handle(server, params).schema_in_force
    return in_force if in_force is not None else _compiled({"schema": {"version": 1, "tables": []}})


def storage_open(server, params):
    location = field(params, "location", dict)
    options = field(params, "options", dict, optional=True, default={})
    backend = field(location, "backend", str)
    if backend == "memory":
        raise InvalidInput("server storage needs a SQL backend; memory has none")
    if backend != "sqlite":
        raise Unsupported("backend %r is not implemented by this candidate" % backend)
    compatibility = options.get("compatibility", "0.22")
    if compatibility not in ("0.22", "0.21"):
        raise BadRequest('options.compatibility must be "0.22" or "0.21"')
    lock_wait_ms = options.get("lockWaitMs", DEFAULT_LOCK_WAIT_MS)
    if isinstance(lock_wait_ms, bool) or not isinstance(lock_wait_ms, int) or lock_wait_ms < 0:
        raise InvalidInput('field "lockWaitMs" must be a non-negative integer')
    storage = SqliteServerStorage(text(field(location, "path"), "path"), lock_wait_ms, compatibility)
    storage.hooks = choices.hooks_asked(options.get("hooks", False), "storage.open")
    return {"storage": server.add_handle(_StorageHandle(storage))}


def _ensure_hook(server, storage):
    if not getattr(storage, "hooks", False):
        return None

    def hook(point):
        try:
            server.call_harness("hook", {"call": server.current_call, "point": point})
        except CallbackRefused as refused:
            raise CallbackFailed("ensure_schema: the harness's hook failed at %s: %s" % (point, refused)) from None

    return hook


def storage_ensure_schema(server, params):
    handle = _storage_handle(server, params)
    schema = _compiled(params)
    report = handle.storage.ensure_schema(schema, hook=_ensure_hook(server, handle.storage))
    handle.schema_in_force = schema
    # --no-schema-report: the schema is in force, and nothing more is said.
    return report if choices.current().schema_reports else {}


def storage_preview_schema(server, params):
    storage = _storage(server, params)
    return storage.ensure_schema(_compiled(params), preview=True, hook=_ensure_hook(server, storage))


def storage_get_row(server, params):
    storage = _storage(server, params)
    return {"row": _row_out(storage.get_row(_text_field(params, "partition"), _text_field(params, "table"),
                                            _text_field(params, "rowId")))}


def storage_upsert_row(server, params):
    storage = _storage(server, params)
    storage.upsert_row(_text_field(params, "partition"), _text_field(params, "table"),
                       _stored_row(field(params, "row", dict)))
    return {}


def storage_read_projection(server, params):
    storage = _storage(server, params)
    values = storage.read_projection(_text_field(params, "partition"), _text_field(params, "table"),
                                     _text_field(params, "rowId"))
    return {"values": None if values is None else values_to_json(values)}


def storage_get_push_result(server, params):
    storage = _storage(server, params)
    result = storage.get_push_result(_text_field(params, "partition"), _text_field(params, "clientId"),
                                     _text_field(params, "clientCommitId"))
    return {"result": None if result is None else result_to_wire(result)}


def storage_get_max_commit_seq(server, params):
    return {"commitSeq": _storage(server, params).get_max_commit_seq(_text_field(params, "partition"))}


def storage_read_commit_window(server, params):
    storage = _storage(server, params)
    limit = _int_field(params, "limit")
    if limit < 1:
        raise InvalidInput('field "limit" must be at least 1')
    commits = storage.read_commit_window(_text_field(params, "partition"), _int_field(params, "afterSeq"), limit)
    for commit in commits:
        commit["changes"] = [_change_out(change) for change in commit["changes"]]
    return {"commits": commits}


def storage_query_authoritative(server, params):
    storage = _storage(server, params)
    row_ids = [text(row_id, "rowIds[%d]" % i) for i, row_id in enumerate(field(params, "rowIds", list))]
    rows, max_commit_seq = storage.query_authoritative(_text_field(params, "partition"), _text_field(params, "table"),
                                                       row_ids)
    return {"rows": [_row_out(row) for row in rows], "maxCommitSeq": max_commit_seq}


def storage_close(server, params):
    handle = server.take_handle(field(params, "storage"))
    if not isinstance(handle, _StorageHandle):
        raise BadRequest("unknown storage handle %r" % (params.get("storage"),))
    # Its transactions are rolled back and finished; their handles stay until tx.close, so a
    # late step answers "transaction already finished" rather than an unknown handle.
    handle.close()
    return {}


# --- transactions ------------------------------------------------------------------------


class _TxHandle:
    def __init__(self, storage, tx):
        self.storage = storage
        self.tx = tx

    def close(self):
        self.tx.close()


def _tx(server, params):
    return _open_handle(server, params, "transaction", _TxHandle, "transaction").tx


def storage_begin(server, params):
    storage = _storage(server, params)
    tx = storage.begin(_text_field(params, "partition"))
    return {"transaction": server.add_handle(_TxHandle(storage, tx))}


def tx_lock(server, params):
    _tx(server, params).lock_partition_for_push()
    return {}


def tx_get_push_result(server, params):
    result = _tx(server, params).get_push_result(_text_field(params, "clientId"), _text_field(params, "clientCommitId"))
    return {"result": None if result is None else result_to_wire(result)}


def tx_read_row(server, params):
    tx = _tx(server, params)
    return {"row": _row_out(tx.read_row(_text_field(params, "table"), _text_field(params, "rowId")))}


def _scope_filter(params):
    scopes = scope_map_from_json(field(params, "scopeFilter"))
    if scopes is None:
        raise BadRequest('field "scopeFilter" must be a scope map')
    return scopes


def tx_scan_rows(server, params):
    tx = _tx(server, params)
    after = field(params, "afterRowId", optional=True)
    rows = tx.scan_rows(_text_field(params, "table"), _scope_filter(params),
                        None if after is None else text(after, "afterRowId"), field(params, "limit"))
    return {"rows": [_row_out(row) for row in rows]}


def tx_upsert_row(server, params):
    tx = _tx(server, params)
    tx.upsert_row(_text_field(params, "table"), _stored_row(field(params, "row", dict)),
                  _int_field(params, "opIndex", optional=True))
    return {}


def tx_delete_row(server, params):
    _tx(server, params).delete_row(_text_field(params, "table"), _text_field(params, "rowId"))
    return {}


def tx_append_commit(server, params):
    tx = _tx(server, params)
    entry = field(params, "entry", dict)
    commit = {"clientId": _text_field(entry, "clientId"), "clientCommitId": _text_field(entry, "clientCommitId"),
              "actorId": _text_field(entry, "actorId"), "createdAtMs": _int_field(entry, "createdAtMs"),
              "changes": [_change_in(change) for change in field(entry, "changes", list)]}
    return {"commitSeq": tx.append_commit(commit)}


def _result_param(params):
    raw = field(params, "result", dict)
    try:
        result = result_from_wire(raw)
        parse_stored(stored_text(result))
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise BadRequest('field "result" is not a stored result (%s)' % error) from None
    return result


def tx_put_push_result(server, params):
    tx = _tx(server, params)
    tx.put_push_result(_text_field(params, "clientId"), _text_field(params, "clientCommitId"), _result_param(params))
    return {}


def tx_commit_rejected(server, params):
    tx = _tx(server, params)
    tx.commit_rejected_push_result(_text_field(params, "clientId"), _text_field(params, "clientCommitId"),
                                   _result_param(params))
    return {}


def tx_commit(server, params):
    _tx(server, params).commit()
    return {}


def tx_rollback(server, params):
    handle = server.handles.get(field(params, "transaction"))
    if isinstance(handle, _TxHandle):  # a no-op once finished or forgotten, never an error
        handle.tx.rollback()
    return {}


def tx_close(server, params):
    handle = server.take_handle(field(params, "transaction"))
    if isinstance(handle, _TxHandle):
        handle.close()
    return {}


# --- push ------------------------------------------------------------------------------------

_active_readers = {}
_readers_lock = threading.Lock()


def _verdict(server, method, params):
    """The harness's verdict (docs/driver-protocol.md, "Validator verdicts"). An error answer
    means its validator threw; an answer of the wrong shape is BadRequest naming the field,
    which abandons the push with nothing written."""
    try:
        answer = server.call_harness(method, params)
    except CallbackRefused as refused:
        return Verdict(threw=str(refused))
    where = method + " answer"
    if not isinstance(answer, dict):
        raise BadRequest("%s must be an object" % where)
    if "rejection" in answer:
        rejection = answer["rejection"]
        if not isinstance(rejection, dict):
            raise BadRequest("%s.rejection must be an object" % where)
        for name in ("code", "message"):
            if name not in rejection:
                raise BadRequest("%s.rejection.%s is missing" % (where, name))
        details = rejection.get("details")
        op_index = rejection.get("opIndex")
        if op_index is not None and (not isinstance(op_index, int) or isinstance(op_index, bool)):
            raise BadRequest("%s.rejection.opIndex must be an integer" % where)
        return Verdict(rejection={
            "code": text(rejection["code"], where + ".rejection.code"),
            "message": text(rejection["message"], where + ".rejection.message"),
            "details": None if details is None else text(details, where + ".rejection.details"),
            "opIndex": op_index})
    if "threw" in answer:
        return Verdict(threw=text(answer["threw"], where + ".threw"))
    return Verdict()


class _DriverCallbacks(Callbacks):
    """Every callback a push.run or a command.run (``what``) asks for: the hook points H0–H6,
    the validators, the notifier. ``commit`` gives the idempotency key the whole-commit
    validator is told of."""

    def __init__(self, server, call, actor, commit, settings, what="push"):
        self.server = server
        self.call = call
        self.what = what
        self.hooks = choices.hooks_asked(settings.get("hooks"), what + " callbacks")
        self.actor = actor
        self.commit = commit
        # A command.run of a harness older than the protocol's fifth revision names hooks only.
        tables = field(settings, "rowValidators", list, optional=True, default=[])
        self.row_tables = {text(table, "callbacks.rowValidators[%d]" % i) for i, table in enumerate(tables)}
        if settings.get("commitValidator"):
            self.commit_validator = self._validate_commit
        if settings.get("notify"):
            self.notify = self._notify

    def hook(self, point):
        if not self.hooks:
            return
        try:
            self.server.call_harness("hook", {"call": self.call, "point": point})
        except CallbackRefused as refused:
            raise CallbackFailed("%s: the harness's hook failed at %s: %s" % (self.what, point, refused)) from None

    def row_validator(self, table):
        if table not in self.row_tables:
            return None

        def validate(op, table_name, row_id, row, stored):
            return _verdict(self.server, "validate_row", {
                "call": self.call, "op": op, "table": table_name, "rowId": row_id,
                "row": None if row is None else values_to_json(row),
                "stored": None if stored is None else values_to_json(stored),
                "actorId": self.actor["actorId"], "partition": self.actor["partition"]})

        return validate

    def _validate_commit(self, evidence, reader):
        operations = [dict(e, row=None if e["row"] is None else values_to_json(e["row"]),
                           stored=None if e["stored"] is None else values_to_json(e["stored"])) for e in evidence]
        return _verdict(self.server, "validate_commit", {
            "call": self.call, "clientId": self.commit["clientId"], "clientCommitId": self.commit["clientCommitId"],
            "actorId": self.actor["actorId"], "partition": self.actor["partition"], "operations": operations})

    def _notify(self, partition, commit_seq, created_at_ms, actor_id, changes):
        try:
            self.server.call_harness("notify", {"call": self.call, "partition": partition, "commitSeq": commit_seq,
                                                "createdAtMs": created_at_ms, "actorId": actor_id,
                                                "changes": [_change_out(c) for c in changes]})
        except CallbackRefused:
            pass


def _operation(raw, index):
    name = "operations[%d]" % index
    if not isinstance(raw, dict):
        raise BadRequest("field %r must be an object" % name)
    op = field(raw, "op", str)
    if op not in ("upsert", "delete"):
        raise BadRequest('field %r.op must be "upsert" or "delete"' % name)
    payload = field(raw, "payload", optional=True)
    base = field(raw, "baseVersion", optional=True)
    if base is not None and (isinstance(base, bool) or not isinstance(base, int)):
        raise BadRequest("field %r.baseVersion must be an integer or null" % name)
    return {"table": _text_field(raw, "table"), "rowId": _text_field(raw, "rowId"), "op": op,
            "payload": None if payload is None else decode_bytes(payload, name + ".payload"), "baseVersion": base}


def _actor(params):
    raw_actor = field(params, "actor", dict)
    allowed = field(raw_actor, "allowedScopes", optional=True)
    actor = {"partition": _text_field(raw_actor, "partition"), "actorId": _text_field(raw_actor, "actorId"),
             "allowedScopes": None}
    if allowed is not None:
        actor["allowedScopes"] = scope_map_from_json(allowed)
        if actor["allowedScopes"] is None:
            raise BadRequest('field "actor.allowedScopes" must be a scope map or null')
    return actor


def _cache_identity(params):
    """The identity stored with an outcome this call mints; null: one of the driver's own."""
    cache_identity = field(params, "cacheIdentity", optional=True)
    return str(uuid.uuid4()) if cache_identity is None else text(cache_identity, "cacheIdentity")


def push_run(server, params):
    storage = _storage(server, params)
    schema = _push_schema(server, params)
    actor = _actor(params)
    raw_commit = field(params, "commit", dict)
    commit = {"clientId": _text_field(raw_commit, "clientId"), "clientCommitId": _text_field(raw_commit, "clientCommitId"),
              "operations": [_operation(op, i) for i, op in enumerate(field(raw_commit, "operations", list))]}
    cache_identity = _cache_identity(params)
    call = server.current_call
    callbacks = _DriverCallbacks(server, call, actor, commit, field(params, "callbacks", dict, optional=True, default={}))
    return run_push(storage, schema, actor, commit, _int_field(params, "nowMs"),
                    _int_field(params, "maxOperationsPerRequest", optional=True, default=500), cache_identity,
                    callbacks, _reader_registration(call))


def _reader_registration(call):
    """What the pipeline calls with the whole-commit validator's reader (None once it
    answered), so that push.read_row and push.scan_rows of ``call`` reach it."""

    def on_reader(reader):
        with _readers_lock:
            if reader is None:
                _active_readers.pop(call, None)
            else:
                _active_readers[call] = reader

    return on_reader


# --- command ---------------------------------------------------------------------------------


def _declared_command(params):
    raw = field(params, "command")  # required, nullable
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise BadRequest('field "command" must be an object or null')
    kind = field(raw, "kind", str)
    if kind not in KINDS:
        raise BadRequest('field "command.kind": %r is not a declared command kind' % kind)
    return DeclaredCommand(kind, text(field(raw, "rowId"), "command.rowId"),
                           text(field(raw, "project"), "command.project"))


def command_run(server, params):
    """A registered remote command: ``command`` registered under ``request.operationId``
    (nothing when null), with an ``authorize`` answering ``authorized``."""
    storage = _storage(server, params)
    schema = _push_schema(server, params)
    actor = _actor(params)
    raw_request = field(params, "request", dict)
    request = CommandRequest(text(field(raw_request, "operationId"), "request.operationId"),
                             text(field(raw_request, "clientId"), "request.clientId"),
                             text(field(raw_request, "requestId"), "request.requestId"))
    declared = _declared_command(params)
    authorized = field(params, "authorized", bool)
    registry = {} if declared is None else {request.operation_id: declared_remote_command(declared, authorized)}
    # A command's commit passes the validators and the notifier as a push's (REMOTE §3),
    # under the command's own idempotency key.
    client_id, commit_id = command_key(actor["actorId"], request)
    call = server.current_call
    callbacks = _DriverCallbacks(server, call, actor, {"clientId": client_id, "clientCommitId": commit_id},
                                 field(params, "callbacks", dict, optional=True, default={}), what="command")
    return run_remote_command(storage, schema, actor, registry, request, _int_field(params, "nowMs"),
                              _cache_identity(params), callbacks, _reader_registration(call))


def _reader(params):
    with _readers_lock:
        reader = _active_readers.get(field(params, "call"))
    if reader is None:
        raise BadRequest("no push with an unanswered validate_commit has call id %r" % (params.get("call"),))
    return reader


def push_read_row(server, params):
    reader = _reader(params)
    return {"row": _row_out(reader.read_row(_text_field(params, "table"), _text_field(params, "rowId")))}


def push_scan_rows(server, params):
    reader = _reader(params)
    after = field(params, "afterRowId", optional=True)
    rows = reader.scan_rows(_text_field(params, "table"), _scope_filter(params),
                            None if after is None else text(after, "afterRowId"), field(params, "limit"))
    return {"rows": [_row_out(row) for row in rows]}


METHODS = {
    "rows.encode": rows_encode,
    "rows.decode": rows_decode,
    "schema.parse": schema_parse,
    "schema.compile": schema_compile,
    "storage.open": storage_open,
    "storage.ensure_schema": storage_ensure_schema,
    "storage.preview_schema": storage_preview_schema,
    "storage.get_row": storage_get_row,
    "storage.upsert_row": storage_upsert_row,
    "storage.read_projection": storage_read_projection,
    "storage.get_push_result": storage_get_push_result,
    "storage.get_max_commit_seq": storage_get_max_commit_seq,
    "storage.read_commit_window": storage_read_commit_window,
    "storage.query_authoritative": storage_query_authoritative,
    "storage.close": storage_close,
    "storage.begin": storage_begin,
    "tx.lock_partition_for_push": tx_lock,
    "tx.get_push_result": tx_get_push_result,
    "tx.read_row": tx_read_row,
    "tx.scan_rows": tx_scan_rows,
    "tx.upsert_row": tx_upsert_row,
    "tx.delete_row": tx_delete_row,
    "tx.append_commit": tx_append_commit,
    "tx.put_push_result": tx_put_push_result,
    "tx.commit_rejected_push_result": tx_commit_rejected,
    "tx.commit": tx_commit,
    "tx.rollback": tx_rollback,
    "tx.close": tx_close,
    "push.run": push_run,
    "push.read_row": push_read_row,
    "push.scan_rows": push_scan_rows,
    "command.run": command_run,
}
