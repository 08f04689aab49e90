"""The push pipeline: one decoded PUSH_COMMIT applied to a server storage (SSP2 §2.1–§2.3,
§3.4, §6; design notes push.md §1.1, in the fixed order of §6.8):

optimistic idempotency lookup → begin → partition lock (+ candidate savepoint) → locked
recheck → per operation: decode, §3.4 authorization, base-version conflict, scope strip,
row validator, staged write → whole-commit validator → append the commit (dense seq) →
store the result → COMMIT → notify.

A rejection (conflict, refusal, validator) is rolled back to the savepoint and stored under
the same lock, so a replay answers it byte for byte (§2.3, §6.3). Failures that are not the
push's (the database, a failed hook) roll everything back and store nothing.

Written from the documents named above, not from the C++ reference.
"""

from .errors import CandidateError, InvalidInput, StoreFailure
from .jsontext import quote
from .push_results import (applied_record, conflict_record, error_record, normalized_details, result_to_wire)
from .row_codec import RowDecodeError, decode_row, encode_row
from .storage_errors import ConstraintViolation, IdempotencyCacheMiss, PushRequestRefused, UnknownTable

REMOTE_COMMAND_PREFIX = '["remote-command",'

HOOK_POINTS = ("after_optimistic_miss", "after_begin", "after_lock", "after_locked_recheck", "after_operations",
               "before_append_commit", "before_commit")


class Callbacks:
    """What the host installed. The driver's implementation calls the harness."""

    def hook(self, point):
        pass

    def row_validator(self, table):
        """A function(op, table, row_id, row, stored) → verdict, or None."""
        return None

    commit_validator = None  # function(evidence, reader) → verdict
    notify = None  # function(partition, commit_seq, created_at_ms, actor_id, changes)


class Verdict:
    """A validator's answer: accepted, a rejection (code, message, details, op_index) or a throw."""

    def __init__(self, rejection=None, threw=None):
        self.rejection = rejection
        self.threw = threw


class _Terminated(Exception):
    def __init__(self, record):
        super().__init__(record.get("code"))
        self.record = record


def check_request(commit, max_operations):
    """The request-level refusals (design notes push.md §1.0): nothing is read or written."""
    client_id, commit_id = commit["clientId"], commit["clientCommitId"]
    if client_id.startswith(REMOTE_COMMAND_PREFIX):
        raise PushRequestRefused("sync.invalid_client_id", "clientId %s uses the reserved remote-command prefix"
                                 % quote(client_id))
    if not client_id:
        raise PushRequestRefused("sync.invalid_request", "clientId is empty")
    if not commit_id:
        raise PushRequestRefused("sync.invalid_request", "clientCommitId is empty")
    if not commit["operations"]:
        raise PushRequestRefused("sync.empty_commit", "commit %s has no operations" % quote(commit_id))
    if len(commit["operations"]) > max_operations:
        raise PushRequestRefused("sync.too_many_operations", "commit %s has %d operations; the limit is %d"
                                 % (quote(commit_id), len(commit["operations"]), max_operations))


def scope_value(value):
    """A column value as a stored scope value (decisions "scope values"): text as it is, an
    integer in decimal, a boolean as true/false; anything else, and "", is no value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value:
        return value
    return None


def extract_scopes(table, values):
    scopes = {}
    for variable, column in dict(table.bindings).items():
        index = [c.name for c in table.columns].index(column)
        value = scope_value(values[index])
        if value is not None:
            scopes[variable] = value
    return scopes


def _allowed(allowed, variable, value):
    values = allowed.get(variable) or []
    return "*" in values or value in values


def _replay(result):
    answer = result_to_wire(result)
    status = "cached" if result["status"] == "applied" else "rejected"
    return {"status": status, "commitSeq": answer["commitSeq"] if status == "cached" else None,
            "results": answer["results"], "replayed": True}


def _cache_miss():
    return {"status": "rejected", "commitSeq": None,
            "results": [error_record(0, "sync.idempotency_cache_miss", IdempotencyCacheMiss.MESSAGE, True)],
            "replayed": False}


class CommitReader:
    """The commit validator's read access: the push's own transaction (staged writes
    included). A refusal is remembered, so a validator that lets it escape fails the push
    as a server error (decisions Q4)."""

    def __init__(self, tx, storage):
        self.tx = tx
        self.storage = storage
        self.failure = None

    def _remember(self, action):
        try:
            return action()
        except UnknownTable as error:
            self.failure = InvalidInput('commit validator requested unknown table "%s"' % error.table)
            raise self.failure from None
        except CandidateError as error:
            self.failure = error
            raise

    def read_row(self, table, row_id):
        return self._remember(lambda: self.tx.read_row(table, row_id))

    def scan_rows(self, table, scope_filter, after_row_id, limit):
        return self._remember(lambda: self.tx.scan_rows(table, scope_filter, after_row_id, limit))


def run_push(storage, schema, actor, commit, now_ms, max_operations, cache_identity, callbacks, on_reader=None):
    """Apply ``commit``; returns the PUSH_RESULT answer dict. ``on_reader(reader)`` is told the
    commit validator's reader while it may be used (None afterwards)."""
    check_request(commit, max_operations)
    return run_pipeline(storage, schema, actor, commit, now_ms, cache_identity, callbacks, on_reader)


def run_pipeline(storage, schema, actor, commit, now_ms, cache_identity, callbacks, on_reader=None, build=None):
    """The pipeline after the request-level checks. With ``build``, the commit's operations
    are not the request's: ``build(tx)`` makes them under the partition lock, after the
    locked recheck found nothing (between H3 and H4), reading through the push's own
    transaction — a registered remote command (remote_command.py). A replay never calls it;
    whatever it raises abandons the push with nothing stored."""
    partition = actor["partition"]
    client_id, commit_id = commit["clientId"], commit["clientCommitId"]
    try:
        found = storage.get_push_result(partition, client_id, commit_id)
    except IdempotencyCacheMiss:
        return _cache_miss()
    if found is not None:
        return _replay(found)
    callbacks.hook("after_optimistic_miss")
    tx = storage.begin(partition)
    try:
        callbacks.hook("after_begin")
        tx.lock_partition_for_push()
        callbacks.hook("after_lock")
        try:
            found = tx.get_push_result(client_id, commit_id)
        except IdempotencyCacheMiss:
            tx.rollback()
            return _cache_miss()
        if found is not None:
            tx.rollback()
            return _replay(found)
        callbacks.hook("after_locked_recheck")
        created_at_ms = now_ms
        if build is not None:
            commit = dict(commit, operations=build(tx))
        try:
            changes, evidence = _apply_operations(tx, schema, actor, commit, callbacks)
            callbacks.hook("after_operations")
            if callbacks.commit_validator is not None:
                _validate_commit(tx, storage, commit, actor, evidence, callbacks, on_reader)
        except _Terminated as terminated:
            rejected = {"status": "rejected", "commitSeq": None, "recordedAtMs": created_at_ms,
                        "cacheIdentity": cache_identity, "results": [terminated.record]}
            tx.commit_rejected_push_result(client_id, commit_id, rejected,
                                           before_commit=lambda: callbacks.hook("before_commit"))
            try:
                canonical = storage.get_push_result(partition, client_id, commit_id)
            except IdempotencyCacheMiss:
                return _cache_miss()
            if canonical is None:
                raise StoreFailure("push rejection finalization did not persist an outcome")
            answer = result_to_wire(canonical)
            return {"status": "rejected", "commitSeq": None, "results": answer["results"],
                    "replayed": canonical.get("cacheIdentity") != cache_identity}
        callbacks.hook("before_append_commit")
        commit_seq = tx.append_commit({"clientId": client_id, "clientCommitId": commit_id, "actorId": actor["actorId"],
                                       "createdAtMs": created_at_ms, "changes": changes})
        results = [applied_record(i) for i in range(len(commit["operations"]))]
        tx.put_push_result(client_id, commit_id, {"status": "applied", "commitSeq": commit_seq,
                                                  "recordedAtMs": created_at_ms, "cacheIdentity": cache_identity,
                                                  "results": results})
        callbacks.hook("before_commit")
        tx.commit()
    except StoreFailure as error:
        tx.rollback()
        raise StoreFailure("push of commit %s from client %s to partition %s failed: %s"
                           % (quote(commit_id), quote(client_id), quote(partition), error)) from None
    except BaseException:
        tx.rollback()
        raise
    finally:
        tx.close()
    if changes and callbacks.notify is not None:
        try:
            callbacks.notify(partition, commit_seq, created_at_ms, actor["actorId"], changes)
        except Exception:  # noqa: BLE001 — a notifier's throw is ignored (§6.4)
            pass
    return {"status": "applied", "commitSeq": commit_seq, "results": results, "replayed": False}


def _row_verdict(verdict, op_index, table_name):
    if verdict is None or (verdict.rejection is None and verdict.threw is None):
        return
    if verdict.rejection is not None:
        r = verdict.rejection
        raise _Terminated(error_record(op_index, r["code"], r.get("message", ""), False,
                                       normalized_details(r.get("details"))))
    raise _Terminated(error_record(op_index, "sync.constraint_violation", 'write validator for table "%s" threw: %s'
                                   % (table_name, verdict.threw)))


def _apply_operations(tx, schema, actor, commit, callbacks):
    changes, evidence = [], []
    allowed = actor.get("allowedScopes")
    for op_index, op in enumerate(commit["operations"]):
        table = schema.find(op["table"])
        if table is None:
            raise _Terminated(error_record(op_index, "sync.unknown_table", "unknown table %s" % quote(op["table"])))
        if allowed is None:
            raise _Terminated(error_record(op_index, "sync.forbidden", "scope resolution failed (§3.4 step 4)"))
        row_id = op["rowId"]
        stored = tx.read_row(table.name, row_id)
        layout = table.layout()
        stored_values = decode_row(layout, stored["payload"]) if stored is not None else None
        validator = callbacks.row_validator(table.name)
        if op["op"] == "delete":
            if stored is None:
                evidence.append({"opIndex": op_index, "op": "delete", "table": table.name, "rowId": row_id,
                                 "row": None, "stored": None, "storedServerVersion": None, "nextServerVersion": None})
                continue
            _authorize_stored(table, stored, allowed, op_index, "delete")
            if validator is not None:
                _row_verdict(validator("delete", table.name, row_id, None, stored_values), op_index, table.name)
            tx.delete_row(table.name, row_id)
            changes.append({"table": table.name, "rowId": row_id, "op": "delete", "rowVersion": None,
                            "scopes": stored["scopes"], "payload": None})
            evidence.append({"opIndex": op_index, "op": "delete", "table": table.name, "rowId": row_id, "row": None,
                             "stored": stored_values, "storedServerVersion": stored["serverVersion"],
                             "nextServerVersion": None})
            continue
        payload = op.get("payload")
        if payload is None:
            raise _Terminated(error_record(op_index, "sync.invalid_request", "upsert of %s in %s carries no payload"
                                           % (quote(row_id), quote(table.name))))
        try:
            values = decode_row(layout, payload)
        except RowDecodeError as error:
            raise _Terminated(error_record(op_index, "sync.invalid_request",
                                           "row payload failed row-codec decode (§1.7): %s" % error))
        key = scope_value(values[[c.name for c in table.columns].index(table.primary_key)])
        if key != row_id:
            raise _Terminated(error_record(op_index, "sync.invalid_request",
                                           "primary key %s of the payload does not match rowId %s"
                                           % (quote(key or ""), quote(row_id))))
        base = op.get("baseVersion")
        if stored is not None:
            _authorize_stored(table, stored, allowed, op_index, "update")
            if base is not None and (base == 0 or base != stored["serverVersion"]):
                raise _Terminated(conflict_record(op_index, stored["serverVersion"], stored["payload"]))
            names = [c.name for c in table.columns]
            for _, column in table.bindings:
                index = names.index(column)
                values[index] = stored_values[index]
            final = encode_row(layout, values)
            version = stored["serverVersion"] + 1
            scopes = stored["scopes"]
        else:
            scopes = extract_scopes(table, values)
            denied = any(v not in scopes or not _allowed(allowed, v, scopes[v]) for v in table.scope_variables())
            if base is not None and base != 0:
                if denied:
                    raise _Terminated(error_record(op_index, "sync.forbidden",
                                                   "insert denied by scope authorization (§3.4)"))
                raise _Terminated(error_record(op_index, "sync.row_missing",
                                               "row %s does not exist for baseVersion %d (§6.2)" % (quote(row_id), base)))
            if denied:
                raise _Terminated(error_record(op_index, "sync.forbidden", "insert denied by scope authorization (§3.4)"))
            final = bytes(payload)
            version = 1
        if validator is not None:
            _row_verdict(validator("upsert", table.name, row_id, values, stored_values), op_index, table.name)
        try:
            tx.upsert_row(table.name, {"rowId": row_id, "serverVersion": version, "scopes": scopes, "payload": final},
                          op_index)
        except ConstraintViolation:
            raise _Terminated(error_record(op_index, "sync.constraint_violation",
                                           "write violates a relational constraint")) from None
        changes.append({"table": table.name, "rowId": row_id, "op": "upsert", "rowVersion": version, "scopes": scopes,
                        "payload": final})
        evidence.append({"opIndex": op_index, "op": "upsert", "table": table.name, "rowId": row_id, "row": values,
                         "stored": stored_values,
                         "storedServerVersion": None if stored is None else stored["serverVersion"],
                         "nextServerVersion": version})
    return changes, evidence


def _authorize_stored(table, stored, allowed, op_index, what):
    """§3.4 rules 2–3 against the stored row: every declared variable needs a value the
    actor is allowed; a missing value denies whatever the actor is allowed (step 2), and
    every denial is ``sync.forbidden`` (step 4; decisions "missing scopes")."""
    scopes = stored["scopes"]
    for variable in table.scope_variables():
        if not scopes.get(variable) or not _allowed(allowed, variable, scopes[variable]):
            raise _Terminated(error_record(op_index, "sync.forbidden",
                                           "%s denied by scope authorization (§3.4)" % what))


def _validate_commit(tx, storage, commit, actor, evidence, callbacks, on_reader):
    reader = CommitReader(tx, storage)
    if on_reader is not None:
        on_reader(reader)
    try:
        verdict = callbacks.commit_validator(evidence, reader)
    finally:
        if on_reader is not None:
            on_reader(None)
    if verdict is None or (verdict.rejection is None and verdict.threw is None):
        return
    if verdict.rejection is not None:
        r = verdict.rejection
        op_index = r.get("opIndex")
        if op_index is not None and not 0 <= op_index < len(commit["operations"]):
            raise _Terminated(error_record(0, "sync.constraint_violation",
                                           "commit validator rejection names unavailable opIndex %d" % op_index))
        raise _Terminated(error_record(op_index or 0, r["code"], r.get("message", ""), False,
                                       normalized_details(r.get("details"))))
    if reader.failure is not None:
        raise reader.failure
    raise _Terminated(error_record(0, "sync.constraint_violation", "whole-commit validator threw: %s" % verdict.threw))
