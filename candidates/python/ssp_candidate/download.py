"""The 0.22 segment download decision: ``GET <mount>/segments/{segmentId}`` (SPEC §5.5).

Per publication, never per record: only the publications of the caller's partition in
its current log epoch count, and the answer is the record narrowed to the one chosen.
Order (design notes segments.md §3.7, steps 1–7 and 9; docs/download.md):

1. unknown or malformed id → 404 sync.not_found
2. no publication in (partition, current epoch) → 404 sync.not_found, same message,
   before anything else so existence does not leak
3. scopes header malformed → 400 sync.invalid_request
4. resolver throws, reports an outage, or effective revokes → 403 sync.forbidden
5. no in-context publication carries scopeDigest(effective) → 403 sync.forbidden
6. none of those is live → 404 sync.segment_expired (retryable)
7. none whose table is served and declares every requested key, no '*' →
   404 sync.not_found if no such table is served, else 400 sync.invalid_subscription
9. the newest qualifying publication → 200, or 304 on a matching If-None-Match
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from .error_catalog import error_body, http_status
from .model import Publication, Record
from .publications import narrow
from .scope_digest import ScopeMap, ScopeMapError, parse_scope_map, scope_digest
from .scope_resolution import WILDCARD, compute_effective
from .segment_id import is_segment_id

UNKNOWN_SEGMENT = "unknown segment (§5.5)"


class ResolverFailure(Exception):
    """The host's resolveScopes threw (or, with ``outage``, reported an outage)."""

    def __init__(self, outage: bool = False):
        super().__init__("outage" if outage else "threw")
        self.outage = outage


@dataclass
class DownloadRequest:
    segment_id: str
    partition: str
    log_epoch: str  # the partition's current epoch
    scopes_header: object  # the X-Syncular-Scopes text as received (None when absent)
    now_ms: int
    if_none_match: Optional[str] = None


@dataclass
class DownloadOutcome:
    status: int
    step: str
    error: Optional[dict] = None
    headers: Dict[str, str] = field(default_factory=dict)
    record: Optional[Record] = None
    data: Optional[bytes] = None
    effective_scopes: Optional[ScopeMap] = None
    scope_status: Optional[str] = None  # "active" or "revoked" once scopes were resolved
    revoked_because: Optional[str] = None
    scope_digest: Optional[str] = None
    in_context: List[Publication] = field(default_factory=list)

    @property
    def code(self) -> Optional[str]:
        return None if self.error is None else self.error["code"]


def _refuse(step: str, code: str, message: str, **extra) -> DownloadOutcome:
    return DownloadOutcome(status=http_status(code), step=step, error=error_body(code, message), **extra)


def validator_headers(segment_id: str) -> Dict[str, str]:
    """§5.5 response headers shared by 200 and 304."""
    return {
        "ETag": '"%s"' % segment_id,
        "Cache-Control": "private, max-age=0",
        "Vary": "Authorization, X-Syncular-Scopes, Accept-Encoding",
    }


def if_none_match_matches(header: Optional[str], etag: str) -> bool:
    """Weak comparison (RFC 9110 §13.1.2): ``*``, or any listed entity tag equal to the
    quoted ETag with ``W/`` ignored. An unquoted id does not match."""
    if header is None:
        return False
    for candidate in header.split(","):
        tag = candidate.strip()
        if tag == "*":
            return True
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag == etag:
            return True
    return False


def _declares(served: Optional[Dict[str, Sequence[str]]], table: str, requested: ScopeMap) -> bool:
    if any(WILDCARD in values for values in requested.values()):
        return False
    if served is None:
        return True
    return all(key in served[table] for key in requested)


def _is_served(served: Optional[Dict[str, Sequence[str]]], table: str) -> bool:
    return served is None or table in served


def authorize_download(store, resolve, served_tables: Optional[Dict[str, Sequence[str]]],
                       request: DownloadRequest) -> DownloadOutcome:
    """Decide one download. ``resolve()`` returns the actor's allowed scope map or raises
    ``ResolverFailure``/any exception; it is called at most once. ``served_tables`` maps
    each table the compiled schema serves to the scope variables it declares; ``None``
    serves every table and declares every key (only the scope checks remain)."""
    entry = store.get(request.segment_id) if is_segment_id(request.segment_id) else None
    if entry is None:
        return _refuse("unknown_segment", "sync.not_found", UNKNOWN_SEGMENT)
    record, data = entry

    # A pre-epoch row carries '' and a live partition epoch is never empty (§2.1).
    in_context = [p for p in record.publications
                  if p.partition == request.partition and p.log_epoch == request.log_epoch and p.log_epoch != ""]
    if not in_context:
        return _refuse("not_in_context", "sync.not_found", UNKNOWN_SEGMENT)

    try:
        requested = parse_scope_map(request.scopes_header if request.scopes_header is not None else "")
    except ScopeMapError as error:
        return _refuse("invalid_scopes_header", "sync.invalid_request",
                       "X-Syncular-Scopes: %s (§5.5)" % error, in_context=in_context)

    try:
        allowed = resolve()
    except ResolverFailure as failure:
        reason = "resolver reported an outage" if failure.outage else "resolver threw"
        return _refuse("scopes_not_held", "sync.forbidden", "segment scopes not held (§5.5): " + reason,
                       in_context=in_context, scope_status="revoked", revoked_because=reason)
    except Exception:  # a throwing resolver fences; it never leaks (§3.2 rule 5)
        return _refuse("scopes_not_held", "sync.forbidden", "segment scopes not held (§5.5): resolver threw",
                       in_context=in_context, scope_status="revoked", revoked_because="resolver threw")
    effective = compute_effective(requested, allowed)
    if not effective.active:
        return _refuse("scopes_not_held", "sync.forbidden",
                       "segment scopes not held (§5.5): %s" % effective.revoked_because,
                       in_context=in_context, effective_scopes=effective.scopes, scope_status="revoked",
                       revoked_because=effective.revoked_because)

    digest = scope_digest(effective.scopes)
    context = dict(in_context=in_context, effective_scopes=effective.scopes, scope_status="active",
                   scope_digest=digest)
    for_digest = [p for p in in_context if p.scope_digest == digest]
    if not for_digest:
        return _refuse("scope_digest_mismatch", "sync.forbidden", "scope digest mismatch (§3.5, §5.5)", **context)

    live = [p for p in for_digest if p.is_live(request.now_ms)]
    if not live:
        return _refuse("expired", "sync.segment_expired", "segment expired (§5.1)", **context)

    candidates = [p for p in live if _is_served(served_tables, p.table)
                  and _declares(served_tables, p.table, requested)]
    if not candidates:
        if not any(_is_served(served_tables, p.table) for p in live):
            return _refuse("table_not_served", "sync.not_found", "segment table no longer served", **context)
        return _refuse("undeclared_scope_key", "sync.invalid_subscription",
                       "requested scope key not declared by the table, or '*' requested (§3.2)", **context)

    chosen = candidates[-1]
    headers = validator_headers(record.segment_id)
    narrowed = narrow(record, chosen)
    if if_none_match_matches(request.if_none_match, headers["ETag"]):
        return DownloadOutcome(status=304, step="not_modified", headers=headers, record=narrowed, **context)
    headers = {"Content-Type": "application/octet-stream", **headers}
    return DownloadOutcome(status=200, step="served", headers=headers, record=narrowed, data=data, **context)
