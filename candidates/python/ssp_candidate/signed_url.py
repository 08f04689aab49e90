"""Native signed-URL tokens (SPEC §5.4; the scheme's free choices as docs/download.md
pins them).

``st = base64url(payload) "." base64url(HMAC-SHA256(key, payload))``, unpadded, with
``payload = {"v":1,"seg":…,"sd":…,"aud":…,"exp":<unix seconds>}`` in that order, written
as JSON.stringify writes it. ``aud`` is a keyed derivation of the partition, so clients
cannot read the partition back.
"""

import base64
import binascii
import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Callable, Optional

from . import jsontext
from .errors import InvalidInput
from .publications import narrow

MAX_TTL_MS = 15 * 60 * 1000
MAX_SKEW_SECONDS = 60
AUDIENCE_PREFIX = b"ssp2-segment-aud:"  # keeps audience MACs apart from token MACs ('{…')

REFUSAL_CODES = {
    "malformed": "sync.forbidden",
    "bad_signature": "sync.forbidden",
    "wrong_segment": "sync.forbidden",
    "wrong_audience": "sync.forbidden",
    "wrong_scope_digest": "sync.forbidden",
    "expired": "sync.segment_expired",  # §5.4: an expired descriptor has segment_expired semantics
    "unknown_segment": "sync.not_found",
}

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> Optional[bytes]:
    """Only the canonical unpadded form decodes: alphabet, length, zero trailing bits."""
    if not _BASE64URL.fullmatch(text) or len(text) % 4 == 1:
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return data if b64url_encode(data) == text else None


class Signer:
    def __init__(self, key: bytes, skew_seconds: int = MAX_SKEW_SECONDS):
        if not key:
            raise InvalidInput('field "key" must not be empty')
        if isinstance(skew_seconds, bool) or not isinstance(skew_seconds, int) \
                or not 0 <= skew_seconds <= MAX_SKEW_SECONDS:
            raise InvalidInput('field "skewSeconds" must be an integer within 0–60')
        self._key = key
        self.skew_seconds = skew_seconds

    def _mac(self, message: bytes) -> bytes:
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def audience(self, partition: str) -> str:
        return b64url_encode(self._mac(AUDIENCE_PREFIX + partition.encode("utf-8")))

    def sign_payload(self, payload: str) -> str:
        data = payload.encode("utf-8", "surrogateescape")
        return b64url_encode(data) + "." + b64url_encode(self._mac(data))

    def mint(self, segment_id: str, scope_digest: str, partition: str, now_ms: int, ttl_ms: int):
        """(token, urlExpiresAtMs). ``exp`` rounds down so the descriptor never outlives it."""
        if isinstance(ttl_ms, bool) or not isinstance(ttl_ms, int) or not 0 < ttl_ms <= MAX_TTL_MS:
            raise InvalidInput('field "ttlMs" must be within (0, 15 min]')
        exp = (now_ms + ttl_ms) // 1000
        payload = '{"v":1,"seg":%s,"sd":%s,"aud":%s,"exp":%s}' % (
            jsontext.quote(segment_id), jsontext.quote(scope_digest), jsontext.quote(self.audience(partition)),
            jsontext.integer(exp))
        return self.sign_payload(payload), exp * 1000

    def verify(self, token, segment_id: str, store, current_epoch: Callable[[str], Optional[str]], now_ms: int):
        """Check structure, MAC (constant time), claims, exp (with skew), seg, the store,
        then aud and sd (design decision D12: any publication of the token's partition in
        its current epoch may carry sd). The publication's own expiry is not checked
        (design notes Q3): ``exp`` bounds the grant."""
        parts = token.split(".") if isinstance(token, str) else []
        decoded = [b64url_decode(part) for part in parts] if len(parts) == 2 else [None]
        if any(part is None for part in decoded):
            return Verdict("malformed")
        payload, signature = decoded
        if not hmac.compare_digest(signature, self._mac(payload)):
            return Verdict("bad_signature")
        claims = _claims(payload)
        if claims is None:
            return Verdict("malformed")
        if now_ms >= (claims["exp"] + self.skew_seconds) * 1000:
            return Verdict("expired", claims)
        if claims["seg"] != segment_id:
            return Verdict("wrong_segment", claims)
        entry = store.get(segment_id)
        if entry is None:
            return Verdict("unknown_segment", claims)
        record, data = entry
        epochs = {}
        audience_matches = []
        for publication in record.publications:
            if self.audience(publication.partition) != claims["aud"]:
                continue
            if publication.partition not in epochs:
                epochs[publication.partition] = current_epoch(publication.partition)
            if epochs[publication.partition] == publication.log_epoch:
                audience_matches.append(publication)
        if not audience_matches:
            return Verdict("wrong_audience", claims)
        carrying = [p for p in audience_matches if p.scope_digest == claims["sd"]]
        if not carrying:
            return Verdict("wrong_scope_digest", claims)
        return Verdict(None, claims, narrow(record, carrying[-1]), data)


@dataclass
class Verdict:
    refusal: Optional[str]
    claims: Optional[dict] = None
    record: object = None
    data: Optional[bytes] = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None


def _claims(payload: bytes) -> Optional[dict]:
    """Exactly v = 1, seg/sd/aud strings, exp a safe integer; anything else is malformed."""
    try:
        claims = jsontext.parse(payload.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError included
        return None
    if not isinstance(claims, dict):
        return None
    v, exp = claims.get("v"), claims.get("exp")
    if type(v) is not int or v != 1 or type(exp) is not int or abs(exp) > jsontext.MAX_SAFE_INTEGER:
        return None
    if not all(isinstance(claims.get(name), str) for name in ("seg", "sd", "aud")):
        return None
    return {"v": v, "seg": claims["seg"], "sd": claims["sd"], "aud": claims["aud"], "exp": exp}
