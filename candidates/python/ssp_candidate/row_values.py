"""Row values on the driver protocol (docs/driver-protocol.md, "Values", the row-value table)
↔ the codec's Python values. Every wire value says its kind, so a value of the wrong kind
for its column is refused naming the column, as the codec refuses it."""

import math

from .errors import InvalidInput
from .wire import BadRequest, decode_bytes, encode_bytes, text

_FLOAT_WORDS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def value_from_json(column, value):
    """The codec value of wire ``value`` for ``column``; InvalidInput naming the column when
    the kind does not fit (the codec then checks the value itself)."""
    if value is None:
        return None
    kind = column.type

    def wrong(expected):
        return InvalidInput('column "%s": expected %s for a %s column' % (column.name, expected, kind))

    if kind in ("string", "json", "blob_ref"):
        if isinstance(value, str) or (isinstance(value, dict) and set(value) == {"$raw"}):
            try:
                return text(value, column.name)
            except BadRequest:
                raise wrong("text") from None
        raise wrong("text")
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong("an integer")
        return value
    if kind == "float":
        if isinstance(value, float):
            return value
        if isinstance(value, dict) and set(value) == {"$float"} and value["$float"] in _FLOAT_WORDS:
            return _FLOAT_WORDS[value["$float"]]
        raise wrong("a number with a fraction or exponent")
    if kind == "boolean":
        if not isinstance(value, bool):
            raise wrong("true or false")
        return value
    if kind in ("bytes", "crdt"):
        if isinstance(value, dict) and set(value) == {"$bytes"}:
            try:
                return decode_bytes(value["$bytes"], column.name)
            except BadRequest:
                raise wrong("base64 bytes") from None
        raise wrong('{"$bytes": BASE64}')
    raise InvalidInput('column "%s": unknown type %r' % (column.name, kind))


def values_from_json(columns, values):
    if not isinstance(values, list):
        raise BadRequest('field "values" must be a list')
    if len(values) != len(columns):
        raise InvalidInput("row has %d values for %d columns" % (len(values), len(columns)))
    return [value_from_json(column, value) for column, value in zip(columns, values)]


def _out_text(value):
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return {"$raw": encode_bytes(value.encode("utf-8", "surrogateescape"))}


def value_to_json(value):
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return {"$float": "NaN"}
        if math.isinf(value):
            return {"$float": "Infinity" if value > 0 else "-Infinity"}
        return value
    if isinstance(value, str):
        return _out_text(value)
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": encode_bytes(bytes(value))}
    raise TypeError("not a row value: %r" % (value,))


def values_to_json(values):
    return [value_to_json(value) for value in values]
