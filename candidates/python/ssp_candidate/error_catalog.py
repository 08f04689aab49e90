"""The SSP2 error catalog (SPEC §10.1, §10.2): code → category, retryable, action.

Only the table of §10.2 is here; ``category``, ``retryable`` and ``recommendedAction`` are
fixed per code by the spec, so clients (and this candidate) may hardcode them. HTTP
statuses are given for the codes the segment download answers with (§5.5: 403, 404).
"""

from typing import NamedTuple, Optional

ACTIONS = (
    "refreshAuth", "checkPermissions", "fixRequest", "resetClientId", "regenerateClient",
    "upgradeClient", "resolveConflict", "rebootstrap", "forceResync", "retryLater",
    "splitBatch", "inspectServer",
)


class ErrorEntry(NamedTuple):
    code: str
    category: str
    retryable: bool
    action: str


_TABLE = """
operation.unknown not-found no regenerateClient
operation.forbidden forbidden no checkPermissions
operation.invalid_request invalid-request no fixRequest
operation.result_too_large invalid-request no fixRequest
operation.storage_unsupported internal no inspectServer
operation.query_failed internal no inspectServer
operation.execution_failed internal no inspectServer
sync.auth_required auth-required yes refreshAuth
sync.auth_lease_required auth-required yes refreshAuth
sync.auth_lease_revoked auth-required yes refreshAuth
sync.forbidden forbidden no checkPermissions
sync.invalid_request invalid-request no fixRequest
sync.invalid_client_id invalid-request no resetClientId
sync.invalid_subscription invalid-request no fixRequest
sync.empty_commit invalid-request no fixRequest
sync.unknown_table schema-mismatch no regenerateClient
sync.row_missing not-found no forceResync
sync.version_conflict conflict no resolveConflict
sync.constraint_violation invalid-request no fixRequest
sync.missing_scopes internal no inspectServer
sync.crdt_merge_failed internal no inspectServer
sync.idempotency_cache_miss internal yes retryLater
sync.too_many_operations invalid-request no splitBatch
sync.not_found not-found no forceResync
sync.segment_expired not-found yes retryLater
sync.cursor_expired reset-required no rebootstrap
sync.scope_revoked scope-revoked no checkPermissions
sync.rate_limited rate-limited yes retryLater
sync.schema_mismatch schema-mismatch no regenerateClient
sync.client_schema_unsupported schema-mismatch no upgradeClient
sync.client_wire_unsupported schema-mismatch no upgradeClient
sync.websocket_connection_limit rate-limited yes retryLater
blob.not_found not-found no fixRequest
blob.forbidden forbidden no checkPermissions
blob.hash_mismatch invalid-request no fixRequest
blob.too_large invalid-request no fixRequest
"""

CATALOG = {
    code: ErrorEntry(code, category, retryable == "yes", action)
    for code, category, retryable, action in (line.split() for line in _TABLE.strip().splitlines())
}

# HTTP statuses SPEC names for a code: §5.5 (segment download), §5.9.3 and §5.9.5 (blobs),
# §10.2 (sync.auth_required).
SPEC_HTTP_STATUS = {
    "sync.auth_required": 401,
    "sync.forbidden": 403,
    "sync.not_found": 404,
    "sync.segment_expired": 404,
    "blob.hash_mismatch": 400,
    "blob.too_large": 413,
    "blob.forbidden": 403,
    "blob.not_found": 404,
}

# For every other code SPEC §1.1 asks only for "an appropriate HTTP status"; this candidate
# derives it from the category (the choice is listed in README.md and expectations.json).
CATEGORY_HTTP_STATUS = {
    "invalid-request": 400,
    "schema-mismatch": 400,
    "not-found": 404,
    "forbidden": 403,
    "scope-revoked": 403,
    "auth-required": 401,
    "conflict": 409,
    "reset-required": 409,
    "rate-limited": 429,
    "internal": 500,
}


def http_status(code: str) -> int:
    return SPEC_HTTP_STATUS.get(code) or CATEGORY_HTTP_STATUS[CATALOG[code].category]


def error_entry(code: str) -> Optional[ErrorEntry]:
    return CATALOG.get(code)


def error_body(code: str, message: str) -> dict:
    """The §10.1 body; ``details`` is optional and never set here."""
    entry = CATALOG[code]
    return {
        "code": entry.code,
        "category": entry.category,
        "retryable": entry.retryable,
        "recommendedAction": entry.action,
        "message": message,
    }
