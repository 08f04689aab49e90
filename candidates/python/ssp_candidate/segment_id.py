"""Content addresses (SPEC §5.1): ``sha256:`` + lowercase hex SHA-256 of the exact bytes."""

import hashlib
import re

_SEGMENT_ID = re.compile(r"sha256:[0-9a-f]{64}")


def segment_id_for(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def is_segment_id(text) -> bool:
    """Whether ``text`` can name a segment at all; anything else is never stored (D10)."""
    return isinstance(text, str) and _SEGMENT_ID.fullmatch(text) is not None
