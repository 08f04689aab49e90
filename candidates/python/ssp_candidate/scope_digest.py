"""Scope maps: canonical JSON (SPEC §11.2), the scope digest (§3.5), and the strict parse
of an ``X-Syncular-Scopes`` header (§5.5).

Canonical form: no whitespace, keys sorted by UTF-16 code units (as JavaScript compares
strings), each value list de-duplicated and sorted the same way, strings escaped as
JSON.stringify does. The digest is lowercase hex SHA-256 over its UTF-8 bytes.
"""

import hashlib
from typing import Dict, List

from . import jsontext

# A header longer than this is refused before it is parsed (docs/download.md).
MAX_HEADER_BYTES = 65536

ScopeMap = Dict[str, List[str]]


class ScopeMapError(ValueError):
    """Text that is not a JSON object of string lists; the message names the key."""


def canonical_scope_json(scopes: ScopeMap) -> str:
    parts = []
    for key in sorted(scopes, key=jsontext.utf16_key):
        values = sorted(set(scopes[key]), key=jsontext.utf16_key)
        parts.append(jsontext.quote(key) + ":[" + ",".join(jsontext.quote(v) for v in values) + "]")
    return "{" + ",".join(parts) + "}"


def scope_digest(scopes: ScopeMap) -> str:
    return hashlib.sha256(canonical_scope_json(scopes).encode("utf-8")).hexdigest()


def parse_scope_map(text) -> ScopeMap:
    """Parse, never hash, the header text: any whitespace and key order is accepted; a
    repeated key keeps its last value (as JSON.parse). Refused: text over 64 KiB, text
    that is not JSON, not an object, a value that is not a list of strings, and strings
    that are not well-formed Unicode (lone surrogates from escapes)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_HEADER_BYTES:
            raise ScopeMapError("longer than %d bytes" % MAX_HEADER_BYTES)
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ScopeMapError("not UTF-8") from None
    if not isinstance(text, str):
        raise ScopeMapError("not text")
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:
        raise ScopeMapError("not UTF-8") from None
    if len(encoded) > MAX_HEADER_BYTES:
        raise ScopeMapError("longer than %d bytes" % MAX_HEADER_BYTES)
    try:
        parsed = jsontext.parse(text)
    except ValueError as error:
        raise ScopeMapError("not JSON: %s" % error) from None
    if not isinstance(parsed, dict):
        raise ScopeMapError("not a JSON object")
    for key, values in parsed.items():
        _check_unicode(key, key)
        if not isinstance(values, list):
            raise ScopeMapError("key %s: value is not a list" % jsontext.quote(key))
        for value in values:
            if not isinstance(value, str):
                raise ScopeMapError("key %s: list element is not a string" % jsontext.quote(key))
            _check_unicode(key, value)
    return parsed


def _check_unicode(key: str, text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ScopeMapError("key %s: lone surrogate in a string" % jsontext.quote(key)) from None
