"""The segment store on SQLite, in the upstream 0.22 file format (three tables), able to
open a 0.21 file, a pre-epoch file and the intermediate format (design notes
segments.md §2).

A file written here opens in the upstream server and the other way round: the DDL is
upstream's, text, publication keys (D13) and row order (rowid, oldest first) match.

Two connections per store: puts run on the write connection inside ``BEGIN IMMEDIATE``
(the existing record is read under that lock, D6); gets and finds run on the read
connection inside a deferred transaction (one snapshot across the three tables, D11), so
a put parked at a hook point never blocks a reader.
"""

import sqlite3
import threading
import urllib.parse
from contextlib import contextmanager

from .errors import InvalidInput, StoreFailure
from .model import Metadata, Publication, Record
from .publications import digest_view, legacy_publications, make_record, publication_key
from .store import SegmentStore, held_within, stats_over
from . import renamed_tables

# Upstream 0.21/0.22 DDL (server-0.21-to-0.22.diff), statement for statement.
DDL_SEGMENTS = """
      CREATE TABLE IF NOT EXISTS sync_segments(
        segment_id TEXT PRIMARY KEY, partition TEXT NOT NULL,
        log_epoch TEXT NOT NULL, tbl TEXT NOT NULL,
        schema_version INTEGER NOT NULL, media_type TEXT NOT NULL,
        scope_digest TEXT NOT NULL, as_of_commit_seq INTEGER NOT NULL,
        row_count INTEGER NOT NULL, row_cursor TEXT, next_row_cursor TEXT,
        byte_length INTEGER NOT NULL, created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL, bytes BLOB NOT NULL
      );
    """

DDL_SCOPES = """
      CREATE TABLE IF NOT EXISTS sync_segment_scopes(
        segment_id TEXT NOT NULL, scope_digest TEXT NOT NULL,
        PRIMARY KEY (segment_id, scope_digest)
      );
    """

DDL_PUBLICATIONS = """
      CREATE TABLE IF NOT EXISTS sync_segment_publications(
        segment_id TEXT NOT NULL, pub_key TEXT NOT NULL,
        partition TEXT NOT NULL, log_epoch TEXT NOT NULL,
        tbl TEXT NOT NULL, schema_version INTEGER NOT NULL,
        media_type TEXT NOT NULL, scope_digest TEXT NOT NULL,
        as_of_commit_seq INTEGER NOT NULL, row_count INTEGER NOT NULL,
        row_cursor TEXT, next_row_cursor TEXT,
        byte_length INTEGER NOT NULL, created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        PRIMARY KEY (segment_id, pub_key)
      );
    """

ADD_LOG_EPOCH = "ALTER TABLE sync_segments ADD COLUMN log_epoch TEXT NOT NULL DEFAULT ''"

BACKFILL_SCOPES = """INSERT OR IGNORE INTO sync_segment_scopes(segment_id, scope_digest)
       SELECT segment_id, scope_digest FROM sync_segments"""

# Columns are always named: in a pre-epoch file log_epoch is the last physical column.
CONTEXT_COLUMNS = ("partition, log_epoch, tbl, schema_version, media_type, scope_digest, "
                   "as_of_commit_seq, row_count, row_cursor, next_row_cursor, "
                   "byte_length, created_at_ms, expires_at_ms")

SELECT_SEGMENT = "SELECT %s, bytes FROM sync_segments WHERE segment_id=?" % CONTEXT_COLUMNS
SELECT_SCOPES = "SELECT scope_digest FROM sync_segment_scopes WHERE segment_id=?"
SELECT_PUBLICATIONS = ("SELECT %s FROM sync_segment_publications WHERE segment_id=? ORDER BY rowid"
                       % CONTEXT_COLUMNS)

UPSERT_SEGMENT = """INSERT OR REPLACE INTO sync_segments(
    segment_id, partition, log_epoch, tbl, schema_version, media_type,
    scope_digest, as_of_commit_seq, row_count, row_cursor,
    next_row_cursor, byte_length, created_at_ms, expires_at_ms, bytes
  ) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"""
DELETE_SCOPES = "DELETE FROM sync_segment_scopes WHERE segment_id=?"
INSERT_SCOPE = "INSERT OR IGNORE INTO sync_segment_scopes(segment_id, scope_digest) VALUES (?,?)"
DELETE_PUBLICATIONS = "DELETE FROM sync_segment_publications WHERE segment_id=?"
INSERT_PUBLICATION = """INSERT INTO sync_segment_publications(
    segment_id, pub_key, partition, log_epoch, tbl, schema_version,
    media_type, scope_digest, as_of_commit_seq, row_count, row_cursor,
    next_row_cursor, byte_length, created_at_ms, expires_at_ms
  ) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"""

# Reuse candidates (SPEC §5.3). Media type is compared after decoding (D14), by the rule.
FIND_PUBLISHED = """SELECT DISTINCT segment_id FROM sync_segment_publications
  WHERE partition=? AND log_epoch=? AND tbl=? AND schema_version=? AND scope_digest=?
    AND as_of_commit_seq=? AND row_cursor IS NULL AND expires_at_ms > ?"""
# Rows without publication rows are read through the legacy materialization (D7): only
# those, and every candidate is validated by the rule rather than trusted.
FIND_LEGACY = """SELECT s.segment_id FROM sync_segments s
  WHERE s.partition=? AND s.log_epoch=? AND s.tbl=? AND s.schema_version=?
    AND s.as_of_commit_seq=? AND s.row_cursor IS NULL AND s.expires_at_ms > ?
    AND NOT EXISTS (SELECT 1 FROM sync_segment_publications p WHERE p.segment_id = s.segment_id)"""

STATS = "SELECT byte_length, media_type FROM sync_segments"


def _decode_text(raw: bytes) -> str:
    # Only a damaged row holds text that is not UTF-8; show it rather than fail the read.
    return raw.decode("utf-8", "replace")


def _media_type(stored) -> str:
    """A stored media type other than 'sqlite' reads as 'rows', as upstream (D14)."""
    return "sqlite" if stored == "sqlite" else "rows"


def _publication_from_row(row) -> Publication:
    return Publication(
        partition=row[0], log_epoch=row[1], table=row[2], schema_version=row[3],
        media_type=_media_type(row[4]), scope_digest=row[5], as_of_commit_seq=row[6],
        row_count=row[7], row_cursor=row[8], next_row_cursor=row[9],
        byte_length=row[10], created_at_ms=row[11], expires_at_ms=row[12],
    )


def _table_columns(connection, table: str):
    return [row[1] for row in connection.execute("PRAGMA table_info(%s)" % table)]


def _has_table(connection, table: str) -> bool:
    return bool(_table_columns(connection, table))


class SqliteSegmentStore(SegmentStore):
    name = "SqliteSegmentStore"

    def __init__(self, path: str, busy_timeout_ms: int = 5000, **options):
        super().__init__(lock_wait_ms=busy_timeout_ms, **options)
        self.path = path
        self._busy_timeout_s = busy_timeout_ms / 1000.0
        try:
            self._writer = self._connect()
            if self.read_only:
                self._shadow_upgrade(self._writer)
            else:
                self._upgrade(self._writer)
            self._reader = self._connect()
            if self.read_only:
                self._shadow_upgrade(self._reader)
        except sqlite3.Error as error:
            raise StoreFailure("%s: cannot open %s: %s" % (self.name, path, error)) from None
        self._write_lock = threading.Lock()
        self._read_lock = threading.Lock()

    def _connect(self):
        if self.read_only:
            uri = "file:%s?mode=ro" % urllib.parse.quote(self.path)
            connection = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                                         timeout=self._busy_timeout_s,
                                         factory=renamed_tables.connection_class())
        else:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                         timeout=self._busy_timeout_s,
                                         factory=renamed_tables.connection_class())
        connection.text_factory = _decode_text
        return connection

    @staticmethod
    def _upgrade(connection):
        """Upstream's constructor: each statement autocommits and is idempotent, so a crash
        part-way is finished by the next open (segments.md §2.2)."""
        connection.execute(DDL_SEGMENTS)
        connection.execute(DDL_SCOPES)
        connection.execute(DDL_PUBLICATIONS)
        if "log_epoch" not in _table_columns(connection, "sync_segments"):
            connection.execute(ADD_LOG_EPOCH)
        connection.execute(BACKFILL_SCOPES)

    @staticmethod
    def _shadow_upgrade(connection):
        """A read-only open answers as the upgraded file would without writing it: what the
        upgrade would add is built in TEMP views and tables of this connection only, which
        shadow the file's objects of the same name."""
        segments = _table_columns(connection, "sync_segments")
        if not segments:
            connection.execute(DDL_SEGMENTS.replace("CREATE TABLE", "CREATE TEMP TABLE"))
        elif "log_epoch" not in segments:
            connection.execute("CREATE TEMP VIEW sync_segments AS SELECT *, '' AS log_epoch FROM main.sync_segments")
        if _has_table(connection, "sync_segment_scopes"):
            connection.execute("CREATE TEMP VIEW sync_segment_scopes AS "
                               "SELECT segment_id, scope_digest FROM main.sync_segment_scopes "
                               "UNION SELECT segment_id, scope_digest FROM sync_segments")
        else:
            connection.execute("CREATE TEMP VIEW sync_segment_scopes AS "
                               "SELECT segment_id, scope_digest FROM sync_segments")
        if not _has_table(connection, "sync_segment_publications"):
            connection.execute(DDL_PUBLICATIONS.replace("CREATE TABLE", "CREATE TEMP TABLE"))

    def close(self):
        for connection in (getattr(self, "_writer", None), getattr(self, "_reader", None)):
            if connection is not None:
                connection.close()

    # --- primitives --------------------------------------------------------------

    @contextmanager
    def _write_transaction(self, segment_id):
        with held_within(self._write_lock, self, segment_id):
            try:
                self._writer.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise StoreFailure("%s: cannot begin the put of %s: %s" % (self.name, segment_id, error)) from None
            try:
                yield self._writer
                self._writer.execute("COMMIT")
            except BaseException as error:
                try:
                    self._writer.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the failed statement may already have rolled back
                if isinstance(error, sqlite3.Error):
                    raise StoreFailure("%s: put of %s failed: %s" % (self.name, segment_id, error)) from None
                raise

    @contextmanager
    def _read_snapshot(self):
        with self._read_lock:
            try:
                self._reader.execute("BEGIN")
                try:
                    yield self._reader
                finally:
                    self._reader.execute("COMMIT")
            except sqlite3.Error as error:
                raise StoreFailure("%s: read failed: %s" % (self.name, error)) from None

    def _read(self, connection, segment_id):
        row = connection.execute(SELECT_SEGMENT, (segment_id,)).fetchone()
        if row is None:
            return None
        top = Metadata(
            partition=row[0], log_epoch=row[1], table=row[2], schema_version=row[3],
            media_type=_media_type(row[4]), scope_digest=row[5], as_of_commit_seq=row[6],
            row_count=row[7], row_cursor=row[8], next_row_cursor=row[9],
        )
        byte_length, created_at_ms, expires_at_ms, data = row[10], row[11], row[12], row[13]
        digests = digest_view(top.scope_digest, (r[0] for r in connection.execute(SELECT_SCOPES, (segment_id,))))
        stored = [_publication_from_row(r) for r in connection.execute(SELECT_PUBLICATIONS, (segment_id,))]
        publications = stored or legacy_publications(top, byte_length, created_at_ms, expires_at_ms, digests)
        record = make_record(segment_id, top, byte_length, created_at_ms, expires_at_ms, digests, publications)
        return record, bytes(data) if data is not None else b""

    def _write(self, connection, record: Record, data: bytes):
        connection.execute(UPSERT_SEGMENT, (
            record.segment_id, record.partition, record.log_epoch, record.table, record.schema_version,
            record.media_type, record.scope_digest, record.as_of_commit_seq, record.row_count,
            record.row_cursor, record.next_row_cursor, record.byte_length, record.created_at_ms,
            record.expires_at_ms, data,
        ))
        # The side tables are rebuilt from the merged record, so a pruned publication's
        # digest leaves the compatibility view too.
        connection.execute(DELETE_SCOPES, (record.segment_id,))
        for digest in record.scope_digests:
            connection.execute(INSERT_SCOPE, (record.segment_id, digest))
        connection.execute(DELETE_PUBLICATIONS, (record.segment_id,))
        for p in record.publications:
            connection.execute(INSERT_PUBLICATION, (
                record.segment_id, publication_key(p), p.partition, p.log_epoch, p.table, p.schema_version,
                p.media_type, p.scope_digest, p.as_of_commit_seq, p.row_count, p.row_cursor,
                p.next_row_cursor, p.byte_length, p.created_at_ms, p.expires_at_ms,
            ))

    def _find_candidates(self, connection, key, now_ms):
        ids = [r[0] for r in connection.execute(FIND_PUBLISHED, (
            key.partition, key.log_epoch, key.table, key.schema_version, key.scope_digest,
            key.as_of_commit_seq, now_ms))]
        ids += [r[0] for r in connection.execute(FIND_LEGACY, (
            key.partition, key.log_epoch, key.table, key.schema_version, key.as_of_commit_seq, now_ms))]
        records = []
        for segment_id in dict.fromkeys(ids):
            entry = self._read(connection, segment_id)
            if entry is not None:
                records.append(entry[0])
        return records

    def _stats(self, connection):
        rows = connection.execute(STATS).fetchall()
        return stats_over((r[0], _media_type(r[1])) for r in rows)


def open_sqlite_store(path: str, **options) -> SqliteSegmentStore:
    if not isinstance(path, str) or not path:
        raise InvalidInput('field "path" must be a non-empty string')
    return SqliteSegmentStore(path, **options)
