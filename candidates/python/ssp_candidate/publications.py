"""The pure rules of the 0.22 segment store: publication identity, the merge a put
performs (with prune-on-put), legacy materialization, narrowing and the reuse choice.

Sources: SPEC §5.1 (identity, one entry per content address), §5.3 (reuse key), §5.5
(per-grant lifetime); design notes segments.md §3.1 and decisions D1–D5, D13. No I/O here:
both stores call these functions, so each rule exists once.
"""

from typing import Iterable, List, Optional, Sequence

from . import choices, jsontext
from .model import (
    FIND_KEY_FIELDS,
    METADATA_FIELDS,
    FindKey,
    Metadata,
    Publication,
    Record,
    metadata_of,
)


def publication_key(m) -> str:
    """A publication's identity: JSON.stringify of the nine context fields (D13).

    rowCount and the times are deliberately not part of it: equal keys are one grant.
    """
    return jsontext.value(
        [
            m.partition,
            m.log_epoch,
            m.table,
            m.schema_version,
            m.media_type,
            m.scope_digest,
            m.as_of_commit_seq,
            m.row_cursor,
            m.next_row_cursor,
        ]
    )


def publication_of(metadata: Metadata, byte_length: int, created_at_ms: int, expires_at_ms: int) -> Publication:
    fields = {name: getattr(metadata, name) for name in METADATA_FIELDS}
    return Publication(byte_length=byte_length, created_at_ms=created_at_ms, expires_at_ms=expires_at_ms, **fields)


def digest_view(primary: str, others: Iterable[str]) -> tuple:
    """``scopeDigests``: the primary digest, then every other one once, ascending by
    UTF-8 bytes (decision D4), whatever order the backend produced them in. With
    ``choices.digests_reversed`` that list reversed (SPEC orders none)."""
    rest = sorted({d for d in others if d != primary}, key=lambda d: d.encode("utf-8"))
    if choices.current().digests_reversed:
        return (*reversed(rest), primary)
    return (primary, *rest)


def make_record(segment_id: str, top: Metadata, byte_length: int, created_at_ms: int, expires_at_ms: int,
                scope_digests: Sequence[str], publications: Sequence[Publication]) -> Record:
    fields = {name: getattr(top, name) for name in METADATA_FIELDS}
    return Record(
        segment_id=segment_id,
        byte_length=byte_length,
        created_at_ms=created_at_ms,
        expires_at_ms=expires_at_ms,
        scope_digests=tuple(scope_digests),
        publications=tuple(publications),
        **fields,
    )


def legacy_publications(top: Metadata, byte_length: int, created_at_ms: int, expires_at_ms: int,
                        scope_digests: Sequence[str]) -> List[Publication]:
    """A record written before publications existed (0.21, or the intermediate format
    with several digests): one publication per digest, in ``scope_digests`` order, each
    with the top-level context and times (segments.md §2.3)."""
    return [
        publication_of(_with_digest(top, digest), byte_length, created_at_ms, expires_at_ms)
        for digest in scope_digests
    ]


def _with_digest(top: Metadata, digest: str) -> Metadata:
    fields = {name: getattr(top, name) for name in METADATA_FIELDS}
    fields["scope_digest"] = digest
    return Metadata(**fields)


def merge_record(existing: Optional[Record], metadata: Metadata, segment_id: str, byte_length: int,
                 now_ms: int, ttl_ms: int) -> Record:
    """The record a put of proven-identical bytes leaves behind (segments.md §3.1).

    1. Publications that have expired at ``now_ms`` are dropped first (prune-on-put,
       D1: expiresAt <= now; D2: before the merge, so an expired grant under the
       incoming key is appended fresh at the end).
    2. A surviving publication with the incoming key is refreshed in place: earliest
       creation, latest expiry, everything else from the incoming metadata.
       Otherwise the fresh publication is appended (newest last).
    3. No other publication changes: a put never extends another grant.
    4. Top level = the incoming metadata (latest publisher); record times are the
       envelope over every sighting, pruned ones included (D3, choice A).
    """
    fresh_expiry = now_ms + ttl_ms
    fresh = publication_of(metadata, byte_length, now_ms, fresh_expiry)
    incoming_key = publication_key(metadata)

    survivors = [p for p in (existing.publications if existing else ()) if p.is_live(now_ms)]
    merged: List[Publication] = []
    replaced = False
    for publication in survivors:
        if not replaced and publication_key(publication) == incoming_key:
            merged.append(
                publication_of(
                    metadata,
                    byte_length,
                    min(publication.created_at_ms, now_ms),
                    max(publication.expires_at_ms, fresh_expiry),
                )
            )
            replaced = True
        else:
            merged.append(publication)
    if not replaced:
        merged.append(fresh)

    if existing is None:
        created_at_ms, expires_at_ms = now_ms, fresh_expiry
    else:
        created_at_ms = min(existing.created_at_ms, now_ms)
        expires_at_ms = max(existing.expires_at_ms, fresh_expiry)

    digests = digest_view(metadata.scope_digest, (p.scope_digest for p in merged))
    return make_record(segment_id, metadata, byte_length, created_at_ms, expires_at_ms, digests, merged)


def matches_find_key(publication: Publication, key: FindKey, now_ms: int) -> bool:
    """Reusable under ``key`` at ``now_ms`` (SPEC §5.3, §2.1): all seven key fields equal,
    no row cursor (a whole table or a rows first page), and live."""
    return (
        all(getattr(publication, name) == getattr(key, name) for name in FIND_KEY_FIELDS)
        and publication.row_cursor is None
        and publication.is_live(now_ms)
    )


def newest_match(record: Record, key: FindKey, now_ms: int) -> Optional[Publication]:
    """Within one record the most recently appended reusable publication wins (D5), or
    the oldest one with ``choices.find_latest_created``."""
    ordered = record.publications if choices.current().find_latest_created else reversed(record.publications)
    for publication in ordered:
        if matches_find_key(publication, key, now_ms):
            return publication
    return None


def narrow(record: Record, publication: Publication) -> Record:
    """The record seen through one grant: the publication's context and times at the top,
    only its digest, only it as publication. A caller can never combine grants."""
    return make_record(
        record.segment_id,
        metadata_of(publication),
        publication.byte_length,
        publication.created_at_ms,
        publication.expires_at_ms,
        (publication.scope_digest,),
        (publication,),
    )


def choose_find_result(records: Iterable[Record], key: FindKey, now_ms: int) -> Optional[Record]:
    """The reuse answer over candidate records, narrowed (SPEC §5.3; decision D5).

    Between records: the greatest expiry, then the greatest creation, then the
    smallest segment id, so every backend answers the same whatever its scan order.
    With ``choices.find_latest_created``: the greatest creation, then the largest id.
    """
    hits = []
    for record in records:
        publication = newest_match(record, key, now_ms)
        if publication is not None:
            hits.append((record, publication))
    if not hits:
        return None
    if choices.current().find_latest_created:
        record, publication = max(hits, key=lambda h: (h[1].created_at_ms, h[0].segment_id))
    else:
        record, publication = min(hits, key=lambda h: (-h[1].expires_at_ms, -h[1].created_at_ms, h[0].segment_id))
    return narrow(record, publication)
