"""Values on the driver protocol (docs/driver-protocol.md, "Values"): JSON ↔ model.

Field names are the upstream TypeScript ones. Text that is not UTF-8 arrives as
``{"$raw": BASE64}``; it is decoded with ``surrogateescape``, so each bad byte becomes a
lone surrogate and every "must be well-formed UTF-8" check refuses it exactly as it
would refuse the bytes.
"""

import base64
import binascii

from .errors import CandidateError
from .model import FIND_KEY_FIELDS, METADATA_NAMES, FindKey, Metadata, Publication, Record


class BadRequest(CandidateError):
    """``params`` malformed: a missing or mistyped field (a harness bug or version skew)."""

    code = "ssp.bad_request"


TIME_NAMES = (("byte_length", "byteLength"), ("created_at_ms", "createdAtMs"), ("expires_at_ms", "expiresAtMs"))
KEY_NAMES = tuple(pair for pair in METADATA_NAMES if pair[0] in FIND_KEY_FIELDS)

_MISSING = object()


def field(params, name, kind=None, optional=False, default=None):
    """``params[name]``, checked against ``kind`` (a type or tuple of types)."""
    if not isinstance(params, dict):
        raise BadRequest("params must be an object")
    value = params.get(name, _MISSING)
    if value is _MISSING:
        if optional:
            return default
        raise BadRequest("missing field %r" % name)
    if kind is not None and not isinstance(value, kind):
        raise BadRequest("field %r has the wrong type" % name)
    return value


def text(value, name="text"):
    """A protocol text value: a JSON string, or ``{"$raw": BASE64}`` for non-UTF-8 bytes."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and set(value) == {"$raw"} and isinstance(value["$raw"], str):
        return decode_bytes(value["$raw"], name).decode("utf-8", "surrogateescape")
    raise BadRequest("field %r must be text" % name)


def _context_value(params, python_name, wire_name):
    value = field(params, wire_name)
    if python_name in ("row_cursor", "next_row_cursor") and value is None:
        return None
    if isinstance(value, (str, dict)):
        return text(value, wire_name)
    return value  # integers are range-checked by the model, naming the field


def metadata_from_json(value) -> Metadata:
    return Metadata(**{py: _context_value(value, py, wire) for py, wire in METADATA_NAMES})


def find_key_from_json(value) -> FindKey:
    return FindKey(**{py: _context_value(value, py, wire) for py, wire in KEY_NAMES})


def _out_text(value):
    """Text for an answer: stored text that is not UTF-8 travels as ``$raw``."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return {"$raw": encode_bytes(value.encode("utf-8", "surrogateescape"))}
    return value


def publication_to_json(p: Publication) -> dict:
    out = {wire: _out_text(getattr(p, py)) for py, wire in METADATA_NAMES}
    out.update({wire: getattr(p, py) for py, wire in TIME_NAMES})
    return out


def record_to_json(r: Record) -> dict:
    out = {"segmentId": r.segment_id}
    out.update({wire: _out_text(getattr(r, py)) for py, wire in METADATA_NAMES})
    out.update({wire: getattr(r, py) for py, wire in TIME_NAMES})
    out["scopeDigests"] = [_out_text(d) for d in r.scope_digests]
    out["publications"] = [publication_to_json(p) for p in r.publications]
    return out


def encode_bytes(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decode_bytes(value, name="bytes") -> bytes:
    if not isinstance(value, str):
        raise BadRequest("field %r must be base64 text" % name)
    try:
        return base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise BadRequest("field %r is not standard base64" % name) from None


def scope_map_from_json(value, name="scopes"):
    """A scope map as the harness sends one: ``{"variable": [text…]}``. Returns None when
    the shape is wrong, so each caller decides what a wrong shape means."""
    if not isinstance(value, dict):
        return None
    scopes = {}
    for key, values in value.items():
        if not isinstance(values, list):
            return None
        try:
            scopes[key] = [text(v, name) for v in values]
        except BadRequest:
            return None
    return scopes
