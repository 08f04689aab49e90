"""Opening 0.21, pre-epoch and intermediate files (design notes segments.md §2.3–§2.4,
UPG-R35…R43), from the project's SQL fixtures under fixtures/segments-0.21/."""

import dataclasses
import hashlib
import unittest

from helpers import B_ID, HOUR, NOW, TTL, key_of, per_backend
from ssp_candidate.model import FindKey, Metadata

# The fixtures' row R: published at T0 = NOW under digest-d, pin 42, default TTL.
R = Metadata("p", "epoch-1", "tasks", 1, "sqlite", "digest-d", 42, 5, None, None)
PAGE_ID = "sha256:3660315a9af3df255d8f19ab077e4797822b41488a0e2a04bc6af71213c23274"


@per_backend(backends=("sqlite",))
class UpgradeTests:
    def test_fixture_ids_are_the_hashes_of_their_bytes(self):
        self.assertEqual(B_ID, "sha256:" + hashlib.sha256(b"\x01\x02\x03").hexdigest())
        self.assertEqual(PAGE_ID, "sha256:" + hashlib.sha256(b"page").hexdigest())

    def test_UPG_R35_opening_creates_side_tables_and_backfills_scopes(self):
        self.load_fixture("normal.sql")
        self.open_store()
        self.assertEqual(sorted(self.sql("SELECT segment_id, scope_digest FROM sync_segment_scopes")),
                         sorted([(B_ID, "digest-d"), (PAGE_ID, "digest-d")]))
        self.assertEqual(self.sql("SELECT count(*) FROM sync_segment_publications"), [(0,)])

    def test_UPG_R35_read_only_open_answers_as_upgraded_without_writing(self):
        self.load_fixture("normal.sql")
        with open(self.path, "rb") as f:
            before = f.read()
        store = self.open_store(read_only=True)
        record, _ = store.get(B_ID)
        self.assertEqual(record.scope_digests, ("digest-d",))
        self.assertEqual(store.find(key_of(R), NOW + 1).segment_id, B_ID)
        store.close()
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_UPG_R36_a_legacy_row_is_one_publication_of_its_own_context(self):
        self.load_fixture("normal.sql")
        record, data = self.open_store().get(B_ID)
        self.assertEqual(data, b"\x01\x02\x03")
        self.assertEqual(record.scope_digests, ("digest-d",))
        self.assertEqual(len(record.publications), 1)
        p = record.publications[0]
        self.assertEqual((p.partition, p.log_epoch, p.table, p.scope_digest, p.as_of_commit_seq, p.row_count,
                          p.created_at_ms, p.expires_at_ms), ("p", "epoch-1", "tasks", "digest-d", 42, 5, NOW,
                                                              NOW + TTL))

    def test_UPG_R37_a_legacy_row_is_findable_until_it_expires(self):
        self.load_fixture("normal.sql")
        store = self.open_store()
        found = store.find(key_of(R), NOW + 1)
        self.assertEqual((found.segment_id, found.scope_digests, len(found.publications)), (B_ID, ("digest-d",), 1))
        self.assertIsNone(store.find(key_of(R), NOW + TTL))
        paged = FindKey("p", "epoch-1", "tasks", 1, "rows", "digest-d", 42)
        self.assertIsNone(store.find(paged, NOW + 1))  # it has a row cursor

    def test_UPG_R39_the_first_put_writes_the_legacy_publication_out(self):
        self.load_fixture("normal.sql")
        store = self.open_store()
        store.put(dataclasses.replace(R, scope_digest="d2"), b"\x01\x02\x03", NOW + HOUR)
        self.assertEqual(self.sql("SELECT scope_digest FROM sync_segment_publications WHERE segment_id=? "
                                  "ORDER BY rowid", (B_ID,)), [("digest-d",), ("d2",)])
        self.assertEqual(sorted(self.sql("SELECT scope_digest FROM sync_segment_scopes WHERE segment_id=?",
                                         (B_ID,))), [("d2",), ("digest-d",)])

    def test_UPG_R40_opening_again_is_idempotent(self):
        self.load_fixture("normal.sql")
        first = self.open_store().get(B_ID)
        dumps = []
        for _ in range(3):
            self.open_store()
            dumps.append([self.sql("SELECT * FROM %s ORDER BY rowid" % t)
                          for t in ("sync_segments", "sync_segment_scopes", "sync_segment_publications")])
        self.assertEqual(dumps[0], dumps[2])
        self.assertEqual(self.open_store().get(B_ID), first)

    def test_UPG_R41_a_pre_epoch_table_gets_an_empty_epoch_column_last(self):
        self.load_fixture("pre_epoch.sql")
        store = self.open_store()
        columns = [row[1] for row in self.sql("PRAGMA table_info(sync_segments)")]
        self.assertEqual(columns[-1], "log_epoch")
        record, _ = store.get(B_ID)
        self.assertEqual((record.log_epoch, record.table, record.scope_digest), ("", "tasks", "digest-d"))

    def test_UPG_R42_an_intermediate_row_materializes_one_publication_per_digest(self):
        self.load_fixture("scopes_only.sql")
        record, _ = self.open_store().get(B_ID)
        self.assertEqual(record.scope_digests, ("digest-d", "digest-c"))
        self.assertEqual([p.scope_digest for p in record.publications], ["digest-d", "digest-c"])
        self.assertTrue(all(p.as_of_commit_seq == 42 and p.created_at_ms == NOW for p in record.publications))

    def test_UPG_R43_an_expired_legacy_publication_is_pruned_by_the_first_put(self):
        self.load_fixture("normal.sql")
        store = self.open_store()
        store.put(dataclasses.replace(R, scope_digest="d2"), b"\x01\x02\x03", NOW + TTL + 1)
        record, _ = store.get(B_ID)
        self.assertEqual([p.scope_digest for p in record.publications], ["d2"])


if __name__ == "__main__":
    unittest.main()
