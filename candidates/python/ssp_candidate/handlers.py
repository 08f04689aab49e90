"""The method table this candidate serves (docs/driver-protocol.md), and what ``hello``
declares. Server storage, rows, schema, push and transactions are in storage_handlers.py
(SQLite only). PostgreSQL is not a backend here.
"""

import base64
import binascii

from . import __version__, choices
from .download import DownloadRequest, ResolverFailure, authorize_download
from .error_catalog import CATALOG, error_body, http_status
from .errors import CallbackFailed, InvalidInput, StoreFailure, Unsupported
from .protocol import CallbackRefused
from .scope_digest import ScopeMapError, canonical_scope_json, parse_scope_map, scope_digest
from .scope_resolution import compute_effective
from .signed_url import REFUSAL_CODES, Signer
from .sqlite_store import open_sqlite_store
from .storage_handlers import METHODS as STORAGE_METHODS
from .store import DEFAULT_TTL_MS, MemorySegmentStore
from .wire import (
    BadRequest,
    decode_bytes,
    encode_bytes,
    field,
    find_key_from_json,
    metadata_from_json,
    publication_to_json,
    record_to_json,
    scope_map_from_json,
    text,
)

PROTOCOLS = (2, 1)
BACKENDS = ["memory", "sqlite"]
AREAS = ["segments", "scope", "download", "signed_url", "error_catalog", "rows", "schema", "storage"]
DEFAULT_LOCK_WAIT_MS = 30_000


def hello(server, params):
    """Answers the version asked for, 2 or 1; version 1 has no push capabilities (nor
    ``commands`` and ``queryAuthoritative``, version 2's first revision)."""
    version = field(params, "protocol", int)
    if version not in PROTOCOLS:
        raise Unsupported("protocol version %r is not spoken here; this driver speaks %s"
                          % (version, " and ".join(str(v) for v in PROTOCOLS)))
    hooks = choices.current().hooks
    capabilities = {"backends": BACKENDS, "areas": AREAS, "hooks": hooks, "hasher": True, "readOnly": True}
    if version >= 2:
        capabilities.update({"push": True, "transactions": True, "pushHooks": hooks, "commands": True,
                             "commandCallbacks": True, "ensuredSchema": True, "queryAuthoritative": True,
                             "upstreamTables": not choices.current().renamed_tables,
                             "schemaReport": choices.current().schema_reports})
    return {
        "protocol": version,
        "implementation": {"name": "ssp-python-candidate", "version": __version__},
        "capabilities": capabilities,
    }


# --- segments ----------------------------------------------------------------------


def _store(server, params):
    store = server.handles.get(field(params, "store"))
    if store is None:
        raise BadRequest("unknown store handle %r" % params["store"])
    return store


def _hook(server):
    def hook(point, segment_id):
        try:
            server.call_harness("hook", {"call": server.current_call, "point": point})
        except CallbackRefused as refused:
            raise CallbackFailed("put of %s: the harness's hook failed at %s: %s"
                                 % (segment_id, point, refused)) from None

    return hook


def _hasher(server):
    def hasher(data):
        try:
            result = server.call_harness("hash", {"call": server.current_call, "bytes": encode_bytes(data)})
        except CallbackRefused as refused:
            raise CallbackFailed("the harness's hasher failed: %s" % refused) from None
        segment_id = result.get("segmentId")
        if not isinstance(segment_id, str):
            raise BadRequest("hash callback answered without a segmentId")
        return segment_id

    return hasher


def segments_open(server, params):
    location = field(params, "location", dict)
    options = field(params, "options", dict, optional=True, default={})
    store_options = {
        "ttl_ms": options.get("ttlMs", DEFAULT_TTL_MS),
        "read_only": bool(options.get("readOnly", False)),
    }
    if choices.hooks_asked(options.get("hooks"), "segments.open"):
        store_options["hook"] = _hook(server)
    hasher = options.get("hasher", "sha256")
    if hasher == "callback":
        store_options["hasher"] = _hasher(server)
    elif hasher != "sha256":
        raise BadRequest("options.hasher must be \"sha256\" or \"callback\"")
    backend = field(location, "backend", str)
    lock_wait_ms = options.get("lockWaitMs", DEFAULT_LOCK_WAIT_MS)
    if isinstance(lock_wait_ms, bool) or not isinstance(lock_wait_ms, int) or lock_wait_ms < 0:
        raise InvalidInput('field "lockWaitMs" must be a non-negative integer')
    if backend == "memory":
        store = MemorySegmentStore(lock_wait_ms=lock_wait_ms, **store_options)
    elif backend == "sqlite":
        store = open_sqlite_store(text(field(location, "path"), "path"), busy_timeout_ms=lock_wait_ms,
                                  **store_options)
    else:
        raise Unsupported("backend %r is not implemented by this candidate" % backend)
    return {"store": server.add_handle(store)}


def segments_put(server, params):
    store = _store(server, params)
    metadata = metadata_from_json(field(params, "metadata", dict))
    record = store.put(metadata, decode_bytes(field(params, "bytes")), field(params, "nowMs"))
    return {"record": record_to_json(record)}


def segments_get(server, params):
    segment_id = field(params, "segmentId")
    entry = _store(server, params).get(segment_id if isinstance(segment_id, str) else None)
    if entry is None:
        return {"segment": None}
    record, data = entry
    return {"segment": {"record": record_to_json(record), "bytes": encode_bytes(data)}}


def segments_find(server, params):
    store = _store(server, params)
    record = store.find(find_key_from_json(field(params, "key", dict)), field(params, "nowMs"))
    return {"record": None if record is None else record_to_json(record)}


def segments_stats(server, params):
    return {"stats": _store(server, params).stats()}


def segments_close(server, params):
    store = server.take_handle(field(params, "store"))
    if store is None:
        raise BadRequest("unknown store handle %r" % params["store"])
    store.close()
    return {}


# --- scope ---------------------------------------------------------------------------


def _scope_map_param(params, name):
    scopes = scope_map_from_json(field(params, name))
    if scopes is None:
        raise ScopeMapError("%s: not a map of text lists" % name)
    return scopes


def _checked_scope_map(scopes):
    """Refuse, naming the key, text that is not well-formed UTF-8 (``$raw`` input)."""
    for key, values in scopes.items():
        for item in [key, *values]:
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ScopeMapError("key %s: text that is not UTF-8" % json_key(key)) from None
    return scopes


def json_key(key):
    return '"%s"' % key.encode("utf-8", "backslashreplace").decode("utf-8")


def scope_digest_method(server, params):
    scopes = _checked_scope_map(_scope_map_param(params, "scopes"))
    return {"canonicalJson": canonical_scope_json(scopes), "scopeDigest": scope_digest(scopes)}


def scope_parse(server, params):
    return {"scopes": parse_scope_map(text(field(params, "text"), "text"))}


def scope_effective(server, params):
    effective = compute_effective(_checked_scope_map(_scope_map_param(params, "requested")),
                                  _checked_scope_map(_scope_map_param(params, "allowed")))
    return {
        "status": "active" if effective.active else "revoked",
        "scopes": effective.scopes,
        "revokedBecause": effective.revoked_because or "",
    }


# --- download ------------------------------------------------------------------------


def _resolver(server, actor_id):
    def resolve():
        try:
            result = server.call_harness("resolve_scopes", {"call": server.current_call, "actorId": actor_id})
        except CallbackRefused:
            raise ResolverFailure() from None
        if result.get("outage") is True:
            raise ResolverFailure(outage=True)
        allowed = scope_map_from_json(result.get("allowed"))
        if allowed is None:
            raise BadRequest("resolve_scopes answered without an allowed scope map")
        return allowed

    return resolve


def download_authorize(server, params):
    store = _store(server, params)
    served = field(params, "served", dict)
    request = field(params, "request", dict)
    header = field(request, "scopesHeader")
    if_none_match = field(request, "ifNoneMatch", optional=True)
    decision = DownloadRequest(
        segment_id=text(field(request, "segmentId"), "segmentId"),
        partition=text(field(request, "partition"), "partition"),
        log_epoch=text(field(request, "logEpoch"), "logEpoch"),
        scopes_header=text(header, "scopesHeader"),  # an absent header is "" (docs/download.md)
        now_ms=field(request, "nowMs", int),
        if_none_match=None if if_none_match is None else text(if_none_match, "ifNoneMatch"),
    )
    outcome = authorize_download(store, _resolver(server, field(request, "actorId")),
                                 {table: list(variables) for table, variables in served.items()}, decision)
    return {
        "status": outcome.status,
        "step": outcome.step,
        "error": outcome.error,
        "headers": outcome.headers,
        "record": None if outcome.record is None else record_to_json(outcome.record),
        "bytesLength": None if outcome.data is None else len(outcome.data),
        "effectiveScopes": outcome.effective_scopes,
        "scopeStatus": outcome.scope_status,
        "revokedBecause": outcome.revoked_because,
        "scopeDigest": outcome.scope_digest,
        "inContext": [publication_to_json(p) for p in outcome.in_context],
        "bytes": None if outcome.data is None else encode_bytes(outcome.data),
    }


# --- signed_url ----------------------------------------------------------------------


def _signer(params):
    try:
        key = base64.b64decode(field(params, "key", str).encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise InvalidInput('field "key" is not base64') from None
    return Signer(key, field(params, "skewSeconds"))


def signed_url_audience(server, params):
    return {"audience": _signer(params).audience(text(field(params, "partition"), "partition"))}


def signed_url_mint(server, params):
    token, url_expires_at_ms = _signer(params).mint(
        text(field(params, "segmentId"), "segmentId"), text(field(params, "scopeDigest"), "scopeDigest"),
        text(field(params, "partition"), "partition"), field(params, "nowMs", int), field(params, "ttlMs"))
    return {"token": token, "urlExpiresAtMs": url_expires_at_ms}


def signed_url_sign_payload(server, params):
    return {"token": _signer(params).sign_payload(text(field(params, "payload"), "payload"))}


def signed_url_verify(server, params):
    signer = _signer(params)
    store = _store(server, params)

    def current_epoch(partition):
        try:
            result = server.call_harness("current_epoch", {"call": server.current_call, "partition": partition})
        except CallbackRefused as refused:
            raise StoreFailure("current_epoch failed: %s" % refused) from None
        epoch = result.get("logEpoch")
        return epoch if isinstance(epoch, str) else None

    verdict = signer.verify(text(field(params, "token"), "token"), text(field(params, "segmentId"), "segmentId"),
                            store, current_epoch, field(params, "nowMs", int))
    error = None
    if not verdict.accepted:
        error = error_body(REFUSAL_CODES[verdict.refusal], "signed URL refused: %s (§5.4)" % verdict.refusal)
    return {
        "accepted": verdict.accepted,
        "refusal": verdict.refusal,
        "error": error,
        "claims": verdict.claims,
        "record": None if verdict.record is None else record_to_json(verdict.record),
        "bytes": None if verdict.data is None else encode_bytes(verdict.data),
    }


# --- error_catalog -------------------------------------------------------------------


def error_catalog_list(server, params):
    return {"entries": [
        {"code": e.code, "category": e.category, "retryable": e.retryable, "recommendedAction": e.action,
         "httpStatus": http_status(e.code)}
        for e in CATALOG.values()
    ]}


METHODS = {
    "hello": hello,
    "segments.open": segments_open,
    "segments.put": segments_put,
    "segments.get": segments_get,
    "segments.find": segments_find,
    "segments.stats": segments_stats,
    "segments.close": segments_close,
    "scope.digest": scope_digest_method,
    "scope.parse": scope_parse,
    "scope.effective": scope_effective,
    "download.authorize": download_authorize,
    "signed_url.audience": signed_url_audience,
    "signed_url.mint": signed_url_mint,
    "signed_url.sign_payload": signed_url_sign_payload,
    "signed_url.verify": signed_url_verify,
    "error_catalog.list": error_catalog_list,
    **STORAGE_METHODS,
}
