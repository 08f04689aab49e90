"""JSON text exactly as ECMAScript ``JSON.stringify`` writes it, for the values this
candidate hashes or stores as keys: strings, safe integers, null and arrays.

Two places need byte-identical output with the upstream TypeScript server: the
publication key stored in ``sync_segment_publications.pub_key`` (design decision D13)
and the canonical scope JSON that the scope digest hashes (SPEC §11.2, §3.5). Python's
``json.dumps`` is close but not specified to match, so the rule is written out here once.
"""

import json

MAX_SAFE_INTEGER = 2**53 - 1

# JSON.stringify's short escapes (ECMA-262 QuoteJSONString); every other code point
# below U+0020 becomes \u00xx with lowercase hex; everything else, U+2028/U+2029 and
# DEL included, is written raw.
_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}


def quote(text: str) -> str:
    """The JSON string literal JSON.stringify writes for ``text``.

    A lone surrogate (only reachable from a ``\\udxxx`` escape in JSON input) is
    written as a lowercase ``\\udxxx`` escape, as well-formed JSON.stringify does.
    """
    out = ['"']
    for ch in text:
        escaped = _SHORT_ESCAPES.get(ch)
        if escaped is not None:
            out.append(escaped)
        elif ch < " " or "\ud800" <= ch <= "\udfff":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def integer(value: int) -> str:
    """A safe integer in plain decimal (JSON.stringify of a JS number that is an integer)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not an integer: %r" % (value,))
    if abs(value) > MAX_SAFE_INTEGER:
        raise ValueError("integer outside ±(2^53−1): %d" % value)
    return str(value)


def value(item) -> str:
    """JSON text of a string, safe integer, None or list/tuple of those, without whitespace."""
    if item is None:
        return "null"
    if isinstance(item, str):
        return quote(item)
    if isinstance(item, (list, tuple)):
        return "[" + ",".join(value(element) for element in item) + "]"
    return integer(item)


def utf16_key(text: str) -> bytes:
    """A sort key ordering strings by UTF-16 code units, as JavaScript's default sort.

    Big-endian UTF-16 bytes compare exactly as the code-unit sequences do. Lone
    surrogates encode as themselves (``surrogatepass``) so they sort by their unit too.
    """
    return text.encode("utf-16-be", "surrogatepass")


def _refuse_constant(name):
    raise ValueError("%s is not JSON" % name)


def parse(text: str):
    """RFC 8259 JSON as JSON.parse reads it: Python's extensions (NaN, Infinity) refused,
    a repeated object key keeps its last value. Raises ValueError."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None
