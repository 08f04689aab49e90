"""The segment store's values: metadata, publications, records, find keys (SPEC §5.1,
§5.3; design notes segments.md §1.3–§1.4).

Field names are Python spellings of the upstream TypeScript ones; ``to_json``/``from_json``
helpers live in ``wire.py``. Every value is immutable so a record handed out can never
alias store state.
"""

from dataclasses import dataclass
from typing import Optional, Tuple

from .errors import InvalidInput
from .jsontext import MAX_SAFE_INTEGER

MEDIA_TYPES = ("rows", "sqlite")

# The descriptor context a publication is granted under (segments.md §1.3), with the
# upstream TypeScript name of each field: errors name fields by it, and so does the wire.
METADATA_NAMES = (
    ("partition", "partition"),
    ("log_epoch", "logEpoch"),
    ("table", "table"),
    ("schema_version", "schemaVersion"),
    ("media_type", "mediaType"),
    ("scope_digest", "scopeDigest"),
    ("as_of_commit_seq", "asOfCommitSeq"),
    ("row_count", "rowCount"),
    ("row_cursor", "rowCursor"),
    ("next_row_cursor", "nextRowCursor"),
)
METADATA_FIELDS = tuple(py for py, _ in METADATA_NAMES)
UPSTREAM_NAME = dict(METADATA_NAMES)

# The seven fields a reuse lookup matches (SPEC §5.3 reuse key; segments.md §1.3).
FIND_KEY_FIELDS = (
    "partition",
    "log_epoch",
    "table",
    "schema_version",
    "media_type",
    "scope_digest",
    "as_of_commit_seq",
)


# Each shape extends the previous one, as upstream's types do: a metadata is a find key
# plus the page fields; a publication adds its size and lifetime; a record's top level has
# a publication's shape (the latest publisher's context and the envelope of every
# sighting) plus its address, digest view and publications.


@dataclass(frozen=True)
class FindKey:
    """The §5.3 reuse key."""

    partition: str
    log_epoch: str
    table: str
    schema_version: int
    media_type: str
    scope_digest: str
    as_of_commit_seq: int


@dataclass(frozen=True)
class Metadata(FindKey):
    """The context bytes are published under."""

    row_count: int
    row_cursor: Optional[str]
    next_row_cursor: Optional[str]


@dataclass(frozen=True)
class Publication(Metadata):
    """One grant: the metadata the bytes were published under, with its own lifetime."""

    byte_length: int
    created_at_ms: int
    expires_at_ms: int

    def is_live(self, now_ms: int) -> bool:
        """Live means expiresAtMs > now; the one boundary used everywhere (decision D1)."""
        return self.expires_at_ms > now_ms


@dataclass(frozen=True)
class Record(Publication):
    """A content address with every publication of it, oldest first.

    The top-level metadata and ``scope_digests`` are the compatibility view: the latest
    publisher's context, and every digest still published with that one first.
    """

    segment_id: str
    scope_digests: Tuple[str, ...]
    publications: Tuple[Publication, ...]


def metadata_of(value) -> Metadata:
    """The ten metadata fields of a record or publication."""
    return Metadata(**{name: getattr(value, name) for name in METADATA_FIELDS})


# --- input validation (requirements IN-2, IN-4); messages name the upstream field ------


def check_safe_integer(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput('field "%s" must be an integer' % name)
    if abs(value) > MAX_SAFE_INTEGER:
        raise InvalidInput('field "%s" must be an integer within ±(2^53−1)' % name)
    return value


def check_text(name: str, value) -> str:
    """A string a store can hold on every backend: well-formed Unicode without U+0000.

    A lone surrogate is what malformed UTF-8 becomes on the way in, and PostgreSQL text
    cannot hold U+0000; refusing both everywhere keeps backends equivalent.
    """
    if not isinstance(value, str):
        raise InvalidInput('field "%s" must be text' % name)
    if "\x00" in value:
        raise InvalidInput('field "%s" contains U+0000' % name)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput('field "%s" is not well-formed UTF-8' % name) from None
    return value


def check_media_type(name: str, value) -> str:
    if value not in MEDIA_TYPES:
        raise InvalidInput('field "%s" must be "rows" or "sqlite"' % name)
    return value


def _validate(value, fields):
    for py in fields:
        name, item = UPSTREAM_NAME[py], getattr(value, py)
        if py == "media_type":
            check_media_type(name, item)
        elif py in ("schema_version", "as_of_commit_seq", "row_count"):
            check_safe_integer(name, item)
        elif py in ("row_cursor", "next_row_cursor") and item is None:
            continue
        else:
            check_text(name, item)
    return value


def validate_metadata(metadata: Metadata) -> Metadata:
    return _validate(metadata, METADATA_FIELDS)


def validate_find_key(key: FindKey) -> FindKey:
    return _validate(key, FIND_KEY_FIELDS)
