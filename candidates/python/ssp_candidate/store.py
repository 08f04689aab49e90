"""The segment store contract and the one put/get/find flow every backend shares.

A backend supplies four primitives (a write transaction, a read snapshot, reading one
entry, writing one merged entry) plus its candidate scan for ``find``; the rules
(collision check, merge, reuse choice) run here, once, from ``publications.py``.

Contract (SPEC §5.1, §5.3, §5.5; design notes segments.md §3):

* ``put(metadata, data, now_ms) -> Record``: stores ``data`` under its content address and
  merges the publication in. Returns the full merged record with the caller's own context
  at the top. Raises ``Collision`` (nothing written) when other bytes already sit under
  the address, expired or not; ``InvalidInput`` for arguments outside the contract;
  ``ReadOnly`` on a read-only store; ``StoreFailure`` when the database refuses, leaving
  nothing half-written.
* ``get(segment_id) -> (Record, bytes) | None``: every publication, expired ones included;
  bytes as stored (not re-hashed). A malformed id is simply absent (D10).
* ``find(key, now_ms) -> Record | None``: the reusable publication, narrowed (D5 choice).
* ``stats() -> dict``: distinct content addresses, expired included, media split by the
  top-level (latest) media type.
"""

import threading
from contextlib import contextmanager
from typing import Callable, Iterable, Optional, Tuple

from .errors import Collision, InvalidInput, ReadOnly, StoreFailure
from .model import FindKey, Metadata, Record, check_safe_integer, validate_find_key, validate_metadata
from .publications import choose_find_result, merge_record
from .segment_id import is_segment_id, segment_id_for
from .jsontext import MAX_SAFE_INTEGER

DEFAULT_TTL_MS = 86_400_000

# Where a put may be parked by a test (the harness orders races with these, never sleeps).
HOOK_POINTS = ("before_begin", "after_read", "before_commit")

Hook = Callable[[str, str], None]


def check_ttl(ttl_ms) -> int:
    """A store's lifetime must be a positive safe integer (design notes Q8, IN-1)."""
    check_safe_integer("ttlMs", ttl_ms)
    if ttl_ms <= 0:
        raise InvalidInput('field "ttlMs" must be positive')
    return ttl_ms


class SegmentStore:
    name = "SegmentStore"

    def __init__(self, ttl_ms: int = DEFAULT_TTL_MS, hasher: Callable[[bytes], str] = segment_id_for,
                 read_only: bool = False, hook: Optional[Hook] = None, lock_wait_ms: int = 30000):
        self.ttl_ms = check_ttl(ttl_ms)
        self.lock_wait_ms = lock_wait_ms
        self._hasher = hasher
        self.read_only = read_only
        self._hook = hook

    # --- the contract --------------------------------------------------------------

    def put(self, metadata: Metadata, data: bytes, now_ms: int) -> Record:
        validate_metadata(metadata)
        check_safe_integer("nowMs", now_ms)
        if now_ms + self.ttl_ms > MAX_SAFE_INTEGER:
            raise InvalidInput('field "nowMs" plus the TTL exceeds 2^53−1')
        if self.read_only:
            raise ReadOnly("%s: the store is read-only" % self.name)
        segment_id = self._hasher(bytes(data))
        self._fire("before_begin", segment_id)
        with self._write_transaction(segment_id) as tx:
            # Read inside the write lock (D6): a concurrent put of the same bytes is
            # either fully before or fully after this one, so no publication is lost.
            existing = self._read(tx, segment_id)
            self._fire("after_read", segment_id)
            if existing is not None and existing[1] != data:
                raise Collision("%s: content-address collision at %s (§5.1)" % (self.name, segment_id), segment_id)
            record = merge_record(existing[0] if existing else None, metadata, segment_id, len(data),
                                  now_ms, self.ttl_ms)
            self._write(tx, record, bytes(data))
            self._fire("before_commit", segment_id)
        return record

    def get(self, segment_id: str) -> Optional[Tuple[Record, bytes]]:
        if not is_segment_id(segment_id):
            return None
        with self._read_snapshot() as tx:
            return self._read(tx, segment_id)

    def find(self, key: FindKey, now_ms: int) -> Optional[Record]:
        validate_find_key(key)
        check_safe_integer("nowMs", now_ms)
        with self._read_snapshot() as tx:
            return choose_find_result(self._find_candidates(tx, key, now_ms), key, now_ms)

    def stats(self) -> dict:
        with self._read_snapshot() as tx:
            return self._stats(tx)

    def close(self) -> None:
        pass

    # --- backend primitives ----------------------------------------------------------

    # Each context manager yields a transaction handle that the primitives below take
    # first (a database connection; nothing for memory).

    def _write_transaction(self, segment_id: str):
        """Exclusive for puts; commits on normal exit, undoes everything on an exception.
        A database failure raises ``StoreFailure`` naming ``segment_id``."""
        raise NotImplementedError

    def _read_snapshot(self):
        """One consistent view for a multi-step read; never blocked by a parked put."""
        raise NotImplementedError

    def _read(self, tx, segment_id: str) -> Optional[Tuple[Record, bytes]]:
        raise NotImplementedError

    def _write(self, tx, record: Record, data: bytes) -> None:
        raise NotImplementedError

    def _find_candidates(self, tx, key: FindKey, now_ms: int) -> Iterable[Record]:
        """Records that may hold a publication reusable under ``key``; a superset is fine,
        ``choose_find_result`` applies the rule."""
        raise NotImplementedError

    def _stats(self, tx) -> dict:
        raise NotImplementedError

    def _fire(self, point: str, segment_id: str) -> None:
        if self._hook is not None:
            self._hook(point, segment_id)


@contextmanager
def held_within(lock: threading.Lock, store: "SegmentStore", segment_id: str):
    """Holds `lock`, waiting at most the store's lock wait: a put queued behind
    another put of this store gives up like one queued behind another connection."""
    if not lock.acquire(timeout=store.lock_wait_ms / 1000.0):
        raise StoreFailure("%s: put of %s: the write lock stayed busy for %d ms"
                           % (store.name, segment_id, store.lock_wait_ms))
    try:
        yield
    finally:
        lock.release()


class MemorySegmentStore(SegmentStore):
    """Entries in a dict. Puts are serialized by one lock and publish their entry only
    when they finish, so a put parked at a hook point hides nothing half-done and
    blocks no reader."""

    name = "MemorySegmentStore"

    def __init__(self, **options):
        super().__init__(**options)
        self._entries = {}
        self._write_lock = threading.Lock()
        self._pending = None

    @contextmanager
    def _write_transaction(self, segment_id):
        with held_within(self._write_lock, self, segment_id):
            self._pending = None
            try:
                yield None
                if self._pending is not None:
                    record, data = self._pending
                    self._entries[record.segment_id] = (record, data)
            finally:
                self._pending = None

    @contextmanager
    def _read_snapshot(self):
        yield None

    def _read(self, tx, segment_id):
        return self._entries.get(segment_id)

    def _write(self, tx, record, data):
        self._pending = (record, data)

    def _find_candidates(self, tx, key, now_ms):
        return [record for record, _ in list(self._entries.values())]

    def _stats(self, tx):
        return stats_over((r.byte_length, r.media_type) for r, _ in list(self._entries.values()))

    def replace_bytes(self, segment_id: str, data: bytes) -> bool:
        """Test hook: overwrite stored bytes behind the store's back (the memory
        equivalent of corrupting a SQL row, requirement R7). False if absent."""
        with self._write_lock:
            entry = self._entries.get(segment_id)
            if entry is None:
                return False
            self._entries[segment_id] = (entry[0], bytes(data))
            return True


def stats_over(entries: Iterable[Tuple[int, str]]) -> dict:
    """Counters over (byteLength, top-level mediaType) of each distinct content address."""
    count = size = sqlite = 0
    for byte_length, media_type in entries:
        count += 1
        size += byte_length
        sqlite += media_type == "sqlite"
    return {"count": count, "bytes": size, "rowsSegments": count - sqlite, "sqliteSegments": sqlite}
