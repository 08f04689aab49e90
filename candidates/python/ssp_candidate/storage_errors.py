"""Failures of the server storage and the push path, each with the driver-protocol code it
travels as (docs/driver-protocol.md, "Errors")."""

from .errors import CandidateError


class SchemaRefusal(CandidateError):
    """``ensure_schema`` / ``preview_schema`` refused the database (docs/storage.md); the reason
    is one of the names the protocol lists, with the table and column when there is one."""

    code = "ssp.schema_refusal"

    def __init__(self, reason, message, table=None, column=None):
        super().__init__(message)
        self.data = {"reason": reason}
        if table is not None:
            self.data["table"] = table
        if column is not None:
            self.data["column"] = column


class UnknownTable(CandidateError):
    code = "ssp.unknown_table"

    def __init__(self, table):
        super().__init__('unknown table "%s" — ensureSchema(schema) must run before row operations' % table)
        self.table = table
        self.data = {"table": table}


class IdempotencyCacheMiss(CandidateError):
    """A stored push result that cannot be read back (SSP2 §6.3)."""

    code = "ssp.idempotency_cache_miss"
    MESSAGE = "persisted push result unreadable (§6.3)"

    def __init__(self):
        super().__init__(self.MESSAGE)


class ConstraintViolation(CandidateError):
    """A relational constraint of an application table refused a row (a unique index)."""

    code = "ssp.constraint_violation"

    def __init__(self, op_index):
        super().__init__("application row violates a relational constraint")
        self.op_index = op_index
        self.data = {"opIndex": op_index}


class StorageQueryError(CandidateError):
    """A read refused for its shape (an empty scope filter)."""

    code = "ssp.storage_query_error"

    def __init__(self, query_code, message):
        super().__init__(message)
        self.query_code = query_code
        self.data = {"code": query_code}


class PushRequestRefused(CandidateError):
    """The request as a whole is refused before anything is read (design notes push.md §1.0)."""

    code = "ssp.push_request_refused"

    def __init__(self, sync_code, message):
        super().__init__(message)
        self.data = {"code": sync_code}


class OperationRefused(CandidateError):
    """A remote command refused or failed as a whole (REMOTE §7): nothing is stored, so a retry
    runs again. ``operation_code`` is ``operation.invalid_request``, ``operation.unknown``,
    ``operation.forbidden`` or ``operation.execution_failed``."""

    code = "ssp.operation_refused"

    def __init__(self, operation_code, message):
        super().__init__(message)
        self.operation_code = operation_code
        self.data = {"code": operation_code}
