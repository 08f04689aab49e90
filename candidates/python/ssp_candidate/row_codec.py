"""The SSP2 §2.4 positional row codec: a null bitmap, then the non-null values in column
order, each in its type's primitive encoding (SPEC "Conventions": little-endian, ``str`` and
``bytes`` with a ``u32`` length).

Values in Python: ``None``; ``str`` (string, json, blob_ref — json text kept verbatim);
``int`` (integer); ``float`` (float); ``bool`` (boolean); ``bytes`` (bytes, crdt).

Decoding refuses, naming the column ("" for the bitmap and trailing bytes), everything that
is not the one canonical byte sequence of a valid row; encoding refuses the same values as
invalid input, so nothing this codec writes could fail to decode.
"""

import json
import math
import re
import struct

from .errors import CandidateError, InvalidInput
from .jsontext import MAX_SAFE_INTEGER, quote

TYPES = ("string", "integer", "float", "boolean", "json", "bytes", "blob_ref", "crdt")


class RowDecodeError(CandidateError):
    """A payload that is not a row under the layout (SPEC §2.4); ``data.column`` names where."""

    code = "ssp.row_decode_error"

    def __init__(self, column: str, why: str):
        super().__init__('row payload does not decode: column "%s": %s' % (column, why) if column
                         else "row payload does not decode: %s" % why)
        self.column = column
        self.data = {"column": column}


class Column:
    """One codec column: what the positional encoding depends on (name, type, nullable)."""

    __slots__ = ("name", "type", "nullable")

    def __init__(self, name: str, type_: str, nullable: bool):
        self.name = name
        self.type = type_
        self.nullable = nullable

    def __repr__(self):
        return "Column(%r, %r, %r)" % (self.name, self.type, self.nullable)


def _refuse_constant(name):
    raise ValueError("%s is not JSON" % name)


def json_document_error(text: str):
    """Why ``text`` is not one RFC 8259 JSON document as JSON.parse reads it, or None.

    Python's parser accepts NaN/Infinity (refused here) and lone surrogate escapes (accepted,
    as JSON.parse does); it refuses raw control characters inside strings, as RFC 8259 does."""
    try:
        json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        return "nested too deeply"
    except ValueError as error:
        return "not a JSON document (%s)" % error
    return None


_BLOB_ID = re.compile(r"sha256:[0-9a-f]{64}\Z")
_BLOB_KEYS = ("blobId", "byteLength", "mediaType", "name")


def blob_ref_error(text: str):
    """Why ``text`` is not a canonical BlobRef (SPEC §5.9.1), or None. Canonical means the
    text is exactly what JSON.stringify writes for the object with keys in the pinned order."""
    problem = json_document_error(text)
    if problem:
        return problem
    pairs = json.loads(text, object_pairs_hook=lambda items: items)
    if not isinstance(pairs, list) or (pairs and not isinstance(pairs[0], tuple)):
        return "a BlobRef is a JSON object"
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys) or any(key not in _BLOB_KEYS for key in keys):
        return "a BlobRef has only the keys blobId, byteLength, mediaType, name, once each"
    if keys != [key for key in _BLOB_KEYS if key in keys]:
        return "BlobRef keys out of canonical order"
    values = dict(pairs)
    blob_id = values.get("blobId")
    if not isinstance(blob_id, str) or not _BLOB_ID.match(blob_id):
        return "blobId must be sha256: and 64 lowercase hex digits"
    length = values.get("byteLength")
    if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= MAX_SAFE_INTEGER:
        return "byteLength must be a non-negative safe integer"
    for key in ("mediaType", "name"):
        if key in values and not isinstance(values[key], str):
            return "%s must be a string" % key
    canonical = "{" + ",".join(quote(key) + ":" + (str(values[key]) if key == "byteLength" else quote(values[key]))
                               for key in keys) + "}"
    if canonical != text:
        return "not the canonical BlobRef text"
    return None


def _utf8(value: str):
    """UTF-8 bytes of ``value``, or None when it holds a lone surrogate (text that was not
    UTF-8 on the wire)."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        return None


def value_error(column: Column, value):
    """Why ``value`` cannot be encoded in ``column``, or None."""
    if value is None:
        return None if column.nullable else "NULL in a non-nullable column"
    kind = column.type
    if kind in ("string", "json", "blob_ref"):
        if not isinstance(value, str):
            return "expected text"
        if _utf8(value) is None:
            return "text that is not UTF-8"
        if kind == "json":
            return json_document_error(value)
        if kind == "blob_ref":
            return blob_ref_error(value)
        return None
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return "expected an integer"
        if abs(value) > MAX_SAFE_INTEGER:
            return "integer outside ±(2^53−1)"
        return None
    if kind == "float":
        return None if isinstance(value, float) else "expected a float"
    if kind == "boolean":
        return None if isinstance(value, bool) else "expected a boolean"
    if kind in ("bytes", "crdt"):
        return None if isinstance(value, (bytes, bytearray)) else "expected bytes"
    return "unknown column type %r" % kind


def encode_row(columns, values) -> bytes:
    """The payload of ``values`` under ``columns``; InvalidInput naming the column otherwise."""
    if len(values) != len(columns):
        raise InvalidInput("row has %d values for %d columns" % (len(values), len(columns)))
    bitmap = bytearray((len(columns) + 7) // 8)
    body = bytearray()
    for index, (column, value) in enumerate(zip(columns, values)):
        problem = value_error(column, value)
        if problem:
            raise InvalidInput('column "%s": %s' % (column.name, problem))
        if value is None:
            bitmap[index // 8] |= 1 << (index % 8)
            continue
        kind = column.type
        if kind in ("string", "json", "blob_ref"):
            data = value.encode("utf-8")
            body += struct.pack("<I", len(data)) + data
        elif kind == "integer":
            body += struct.pack("<q", value)
        elif kind == "float":
            body += struct.pack("<d", value)
        elif kind == "boolean":
            body.append(1 if value else 0)
        else:
            body += struct.pack("<I", len(value)) + bytes(value)
    return bytes(bitmap + body)


def decode_row(columns, payload: bytes) -> list:
    """The values of ``payload`` under ``columns``; RowDecodeError naming the column."""
    payload = bytes(payload)
    count = len(columns)
    width = (count + 7) // 8
    if len(payload) < width:
        raise RowDecodeError("", "truncated null bitmap")
    bitmap = payload[:width]
    if count % 8 and bitmap[-1] >> (count % 8):
        raise RowDecodeError("", "a padding bit of the null bitmap is set")
    offset = width
    values = []

    def take(n, column):
        nonlocal offset
        if offset + n > len(payload):
            raise RowDecodeError(column.name, "truncated")
        chunk = payload[offset:offset + n]
        offset += n
        return chunk

    for index, column in enumerate(columns):
        if bitmap[index // 8] >> (index % 8) & 1:
            if not column.nullable:
                raise RowDecodeError(column.name, "null bit set on a non-nullable column")
            values.append(None)
            continue
        kind = column.type
        if kind in ("string", "json", "blob_ref"):
            (length,) = struct.unpack("<I", take(4, column))
            raw = take(length, column)
            try:
                value = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise RowDecodeError(column.name, "text that is not UTF-8") from None
            problem = json_document_error(value) if kind == "json" else (
                blob_ref_error(value) if kind == "blob_ref" else None)
            if problem:
                raise RowDecodeError(column.name, problem)
        elif kind == "integer":
            (value,) = struct.unpack("<q", take(8, column))
            if abs(value) > MAX_SAFE_INTEGER:
                raise RowDecodeError(column.name, "integer outside ±(2^53−1)")
        elif kind == "float":
            (value,) = struct.unpack("<d", take(8, column))
        elif kind == "boolean":
            byte = take(1, column)[0]
            if byte > 1:
                raise RowDecodeError(column.name, "boolean byte %d is neither 0 nor 1" % byte)
            value = byte == 1
        elif kind in ("bytes", "crdt"):
            (length,) = struct.unpack("<I", take(4, column))
            value = take(length, column)
        else:
            raise RowDecodeError(column.name, "unknown column type %r" % kind)
        values.append(value)
    if offset != len(payload):
        raise RowDecodeError("", "%d trailing bytes" % (len(payload) - offset))
    return values


def is_nan(value) -> bool:
    return isinstance(value, float) and math.isnan(value)
