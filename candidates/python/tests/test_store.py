"""The segment store on memory and SQLite against the requirements of design notes
segments.md §4 (ids in test names). Expected values are the literals given there."""

import dataclasses
import threading
import unittest

from helpers import B, B_ID, HOUR, M, NOW, TTL, key_of, per_backend
from ssp_candidate.errors import Collision, InvalidInput, ReadOnly, StoreFailure
from ssp_candidate.publications import publication_of


def m(**changes):
    return dataclasses.replace(M, **changes)


@per_backend
class StoreTests:
    def test_R1_put_returns_content_address_length_and_times(self):
        store = self.open_store()
        r = store.put(M, B, NOW)
        self.assertEqual((r.segment_id, r.byte_length, r.created_at_ms, r.expires_at_ms), (B_ID, 3, NOW, NOW + TTL))
        empty = store.put(M, b"", NOW)
        self.assertEqual(empty.segment_id,
                         "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        self.assertEqual(empty.byte_length, 0)

    def test_R2_first_put_round_trips(self):
        store = self.open_store()
        r = store.put(M, B, NOW)
        record, data = store.get(B_ID)
        self.assertEqual(data, B)
        self.assertEqual(record, r)
        self.assertEqual(record.scope_digests, ("digest-a",))
        self.assertEqual(record.publications, (publication_of(M, 3, NOW, NOW + TTL),))

    def test_R3_rows_record_round_trips_both_cursors(self):
        store = self.open_store()
        paged = m(media_type="rows", row_cursor="row-100", next_row_cursor="row-200", row_count=100)
        r = store.put(paged, b"page", NOW)
        record, _ = store.get(r.segment_id)
        self.assertEqual((record.media_type, record.row_cursor, record.next_row_cursor), ("rows", "row-100", "row-200"))

    def test_R4_unknown_and_malformed_ids_are_absent(self):
        store = self.open_store()
        for segment_id in ("sha256:" + "0" * 64, "../../etc/passwd", "sha256:short"):
            self.assertIsNone(store.get(segment_id))

    def test_R6_collision_under_injected_hasher_changes_nothing(self):
        store = self.open_store(hasher=lambda data: B_ID)
        first = store.put(M, B, NOW)
        before = (store.get(B_ID), store.stats())
        with self.assertRaises(Collision) as caught:
            store.put(m(scope_digest="digest-b"), b"\x09", NOW + 1)
        self.assertIn("content-address collision", str(caught.exception))
        self.assertIn(B_ID, str(caught.exception))
        self.assertEqual((store.get(B_ID), store.stats()), before)
        self.assertEqual(store.get(B_ID)[0], first)

    def test_R8_collision_check_covers_expired_entries(self):
        store = self.open_store(hasher=lambda data: B_ID)
        store.put(M, B, NOW - TTL - 1)
        with self.assertRaises(Collision):
            store.put(M, b"\x09", NOW)

    def test_R10_same_context_re_put_keeps_first_creation_and_extends_expiry(self):
        store = self.open_store()
        store.put(M, B, NOW)
        store.put(M, B, NOW + 5000)
        record, _ = store.get(B_ID)
        self.assertEqual((record.created_at_ms, record.expires_at_ms), (NOW, NOW + 5000 + TTL))
        self.assertEqual(record.scope_digests, ("digest-a",))
        self.assertEqual(record.publications, (publication_of(M, 3, NOW, NOW + 5000 + TTL),))

    def test_R11_two_digests_are_both_kept_and_findable(self):
        store = self.open_store()
        store.put(M, B, NOW)
        returned = store.put(m(scope_digest="digest-b"), B, NOW + 5000)
        record, _ = store.get(B_ID)
        self.assertEqual(record, returned)
        self.assertEqual(record.scope_digest, "digest-b")
        self.assertEqual(record.scope_digests, ("digest-b", "digest-a"))
        self.assertEqual(record.created_at_ms, NOW)
        self.assertEqual([p.scope_digest for p in record.publications], ["digest-a", "digest-b"])
        self.assertEqual(store.find(key_of(M), NOW + 6000).segment_id, B_ID)
        self.assertEqual(store.find(key_of(m(scope_digest="digest-b")), NOW + 6000).segment_id, B_ID)
        self.assertIsNone(store.find(key_of(m(scope_digest="digest-c")), NOW + 6000))

    def test_R14_each_publication_keeps_its_own_lifetime(self):
        store = self.open_store()
        a, b = m(), m(scope_digest="digest-b", as_of_commit_seq=43)
        store.put(a, B, NOW)
        store.put(b, B, NOW + HOUR)
        store.put(b, B, NOW + 2 * HOUR)
        pubs = store.get(B_ID)[0].publications
        self.assertEqual(pubs[0].expires_at_ms, NOW + TTL)
        self.assertEqual((pubs[1].created_at_ms, pubs[1].expires_at_ms), (NOW + HOUR, NOW + 2 * HOUR + TTL))
        later = NOW + TTL + 1_000_000
        self.assertIsNone(store.find(key_of(a), later))
        found = store.find(key_of(b), later)
        self.assertEqual(found.scope_digests, ("digest-b",))
        self.assertEqual(len(found.publications), 1)

    def test_R16_row_count_is_not_part_of_the_key_but_the_next_cursor_is(self):
        store = self.open_store()
        store.put(M, B, NOW)
        store.put(m(row_count=9), B, NOW + 1)
        pubs = store.get(B_ID)[0].publications
        self.assertEqual([p.row_count for p in pubs], [9])
        store.put(m(row_count=9, next_row_cursor="n"), B, NOW + 2)
        self.assertEqual(len(store.get(B_ID)[0].publications), 2)

    def test_R17_two_partitions_keep_two_publications(self):
        store = self.open_store()
        p1, p2 = m(partition="p1"), m(partition="p2", scope_digest="digest-b")
        store.put(p1, B, NOW)
        store.put(p2, B, NOW + 1)
        record = store.get(B_ID)[0]
        self.assertEqual(set(record.scope_digests), {"digest-a", "digest-b"})
        self.assertEqual(record.partition, "p2")
        self.assertEqual(store.find(key_of(p1), NOW + 2).partition, "p1")
        self.assertEqual(store.find(key_of(p2), NOW + 2).partition, "p2")

    def test_R19_another_epoch_never_reuses(self):
        store = self.open_store()
        store.put(M, B, NOW)
        self.assertIsNone(store.find(key_of(m(log_epoch="epoch-2")), NOW + 1))
        store.put(m(log_epoch="epoch-2"), B, NOW + 1)
        self.assertEqual(len(store.get(B_ID)[0].publications), 2)

    def test_R20_tables_and_pins_are_found_by_their_own_key(self):
        store = self.open_store()
        tasks, docs = m(table="tasks", as_of_commit_seq=1), m(table="docs", as_of_commit_seq=2)
        store.put(tasks, B, NOW)
        store.put(docs, B, NOW + 1)
        self.assertEqual(store.find(key_of(tasks), NOW + 2).table, "tasks")
        self.assertEqual(store.find(key_of(docs), NOW + 2).table, "docs")

    def test_R22_put_prunes_expired_publications_and_extends_no_other(self):
        store = self.open_store()
        store.put(m(as_of_commit_seq=1), B, NOW)
        store.put(m(as_of_commit_seq=2), B, NOW + HOUR)
        store.put(m(as_of_commit_seq=3), B, NOW + TTL + 1)
        pubs = store.get(B_ID)[0].publications
        self.assertEqual([p.as_of_commit_seq for p in pubs], [2, 3])
        self.assertEqual(pubs[0].expires_at_ms, NOW + HOUR + TTL)
        self.assertNotIn(NOW + TTL, [p.expires_at_ms for p in pubs])

    def test_R23_a_publication_expiring_exactly_now_is_pruned(self):
        store = self.open_store()
        store.put(m(as_of_commit_seq=1), B, NOW)
        store.put(m(as_of_commit_seq=2), B, NOW + TTL)
        self.assertEqual([p.as_of_commit_seq for p in store.get(B_ID)[0].publications], [2])

    def test_R24_digest_view_and_scope_rows_follow_pruning(self):
        store = self.open_store()
        store.put(M, B, NOW)
        store.put(m(scope_digest="digest-b"), B, NOW + TTL + 1)
        record = store.get(B_ID)[0]
        self.assertEqual(record.scope_digests, ("digest-b",))
        self.assertEqual([p.scope_digest for p in record.publications], ["digest-b"])
        if self.backend == "sqlite":
            self.assertEqual(self.sql("SELECT segment_id, scope_digest FROM sync_segment_scopes"),
                             [(B_ID, "digest-b")])

    def test_R25_an_expired_same_context_is_forgotten_then_appended_fresh(self):
        store = self.open_store()
        store.put(M, B, NOW)
        t = NOW + TTL + 5
        store.put(M, B, t)
        record = store.get(B_ID)[0]
        self.assertEqual(record.publications, (publication_of(M, 3, t, t + TTL),))
        self.assertEqual(record.created_at_ms, NOW)  # D3 choice A

    def test_R26_pruning_touches_only_the_record_being_put(self):
        store = self.open_store()
        other = store.put(M, b"other", NOW)
        store.put(M, B, NOW)
        store.put(m(scope_digest="digest-b"), B, NOW + TTL + 1)
        self.assertEqual(len(store.get(other.segment_id)[0].publications), 1)

    def test_R27_get_returns_expired_records_with_their_bytes(self):
        store = self.open_store()
        store.put(M, B, NOW - TTL - 1)
        record, data = store.get(B_ID)
        self.assertLess(record.expires_at_ms, NOW)
        self.assertEqual(data, B)

    def test_R31_R32_find(self):
        store = self.open_store()
        store.put(M, B, NOW)
        found = store.find(key_of(M), NOW + 1)
        self.assertEqual((found.segment_id, found.row_count, found.row_cursor), (B_ID, 5, None))
        self.assertIsNone(store.find(key_of(M), NOW + TTL))
        for change in (dict(scope_digest="x"), dict(as_of_commit_seq=43), dict(media_type="rows"),
                       dict(table="docs"), dict(schema_version=2), dict(partition="q"), dict(log_epoch="e2")):
            self.assertIsNone(store.find(key_of(m(**change)), NOW + 1), change)
        store.put(m(media_type="rows", row_cursor="c1", scope_digest="paged"), b"page", NOW)
        self.assertIsNone(store.find(key_of(m(media_type="rows", scope_digest="paged")), NOW + 1))
        store.put(m(media_type="rows", next_row_cursor="c1", scope_digest="first"), b"first", NOW)
        self.assertIsNotNone(store.find(key_of(m(media_type="rows", scope_digest="first")), NOW + 1))

    def test_R33_find_narrows_to_the_matching_publication(self):
        store = self.open_store()
        store.put(M, B, NOW)
        store.put(m(scope_digest="digest-b"), B, NOW + 5000)
        found = store.find(key_of(M), NOW + 6000)
        self.assertEqual(found.scope_digests, ("digest-a",))
        self.assertEqual(len(found.publications), 1)
        self.assertEqual((found.created_at_ms, found.expires_at_ms), (NOW, NOW + TTL))

    def test_R34_between_segments_the_longest_lived_wins_then_the_smallest_id(self):
        store = self.open_store()
        store.put(M, b"late", NOW + 10)
        store.put(M, b"early", NOW)
        self.assertEqual(store.find(key_of(M), NOW + 20).expires_at_ms, NOW + 10 + TTL)
        # Equal expiry: the greater creation wins ("early" keeps its first sighting).
        late = store.put(M, b"late", NOW + 20)
        store.put(M, b"early", NOW + 20)
        self.assertEqual(store.find(key_of(M), NOW + 30).segment_id, late.segment_id)
        # Equal expiry and creation: the smallest id.
        other = m(scope_digest="tie")
        ids = sorted(store.put(other, data, NOW).segment_id for data in (b"x", b"y", b"z"))
        self.assertEqual(store.find(key_of(other), NOW + 1).segment_id, ids[0])

    def test_ADM_R48_R49_stats(self):
        store = self.open_store()
        self.assertEqual(store.stats(), {"count": 0, "bytes": 0, "rowsSegments": 0, "sqliteSegments": 0})
        store.put(M, B, NOW - TTL - 5)
        store.put(m(media_type="rows"), b"page", NOW)
        store.put(m(scope_digest="digest-b"), B, NOW)
        self.assertEqual(store.stats(), {"count": 2, "bytes": 7, "rowsSegments": 1, "sqliteSegments": 1})

    def test_IN_1_a_non_positive_ttl_is_refused(self):
        for ttl in (0, -1, 2**53, 1.5):
            with self.assertRaises(InvalidInput):
                self.open_store(ttl_ms=ttl)

    def test_IN_2_and_IN_4_bad_inputs_are_refused_without_writing(self):
        store = self.open_store()
        for bad in (dict(as_of_commit_seq=2**53), dict(row_count=-(2**53)), dict(partition="a\x00b"),
                    dict(scope_digest="\ud800"), dict(media_type="blob"), dict(schema_version=True)):
            with self.assertRaises(InvalidInput, msg=bad):
                store.put(m(**bad), B, NOW)
        self.assertEqual(store.stats()["count"], 0)
        edge = store.put(m(as_of_commit_seq=2**53 - 1, schema_version=-(2**53 - 1)), B, NOW)
        self.assertEqual(store.get(B_ID)[0], edge)

    def test_IN_3_any_utf8_string_round_trips(self):
        store = self.open_store()
        text = "q\"'\\\n\x01; DROP TABLE x;--\u2028\U0001F600é"
        r = store.put(m(partition=text, table=text, row_cursor=text), B, NOW)
        self.assertEqual(store.get(B_ID)[0], r)

    def test_hooks_fire_in_order(self):
        points = []
        store = self.open_store(hook=lambda point, segment_id: points.append((point, segment_id)))
        store.put(M, B, NOW)
        self.assertEqual(points, [("before_begin", B_ID), ("after_read", B_ID), ("before_commit", B_ID)])

    def test_a_failing_hook_writes_nothing(self):
        def hook(point, segment_id):
            if point == "before_commit":
                raise StoreFailure("injected")

        store = self.open_store(hook=hook)
        with self.assertRaises(StoreFailure):
            store.put(M, B, NOW)
        self.assertIsNone(store.get(B_ID))

    def test_a_parked_put_blocks_no_reader_and_a_concurrent_put_loses_nothing(self):
        parked, release = threading.Event(), threading.Event()

        def hook(point, segment_id):
            if point == "after_read" and threading.current_thread().name == "A":
                parked.set()
                release.wait(10)

        a = self.open_store(hook=hook)
        b = a if self.backend == "memory" else self.open_store()
        a.put(M, B, NOW)
        thread_a = threading.Thread(target=a.put, args=(m(scope_digest="a2"), B, NOW + 1), name="A")
        thread_a.start()
        self.assertTrue(parked.wait(10))
        self.assertEqual(len(b.get(B_ID)[0].publications), 1)  # reads are not blocked
        thread_b = threading.Thread(target=b.put, args=(m(scope_digest="b2"), B, NOW + 2), name="B")
        thread_b.start()
        release.set()
        thread_a.join(10)
        thread_b.join(10)
        self.assertEqual({p.scope_digest for p in a.get(B_ID)[0].publications}, {"digest-a", "a2", "b2"})


@per_backend(backends=("sqlite",))
class SqliteOnlyTests:
    def test_R7_R9_corrupted_stored_bytes(self):
        store = self.open_store()
        store.put(M, B, NOW)
        self.sql("UPDATE sync_segments SET bytes=X'09' WHERE segment_id=?", (B_ID,))
        with self.assertRaises(Collision):
            store.put(m(scope_digest="digest-b"), B, NOW + 1)
        record, data = store.get(B_ID)
        self.assertEqual(data, b"\x09")
        self.assertEqual([p.scope_digest for p in record.publications], ["digest-a"])

    def test_IMPL_R44_a_failing_put_leaves_every_table_unchanged(self):
        store = self.open_store()
        store.put(M, B, NOW)
        dump = self._dump()
        self.sql("CREATE TRIGGER boom BEFORE INSERT ON sync_segment_publications "
                 "WHEN NEW.scope_digest = 'digest-b' BEGIN SELECT RAISE(ABORT, 'injected'); END")
        with self.assertRaises(StoreFailure) as caught:
            store.put(m(scope_digest="digest-b"), B, NOW + 1)
        self.assertIn(B_ID, str(caught.exception))
        self.assertEqual(self._dump(), dump)

    def test_IMPL_R45_a_put_that_cannot_take_the_write_lock_fails_cleanly(self):
        import sqlite3

        store = self.open_store(busy_timeout_ms=50)
        holder = sqlite3.connect(self.path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with self.assertRaises(StoreFailure) as caught:
                store.put(M, B, NOW)
            self.assertIn(B_ID, str(caught.exception))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        self.assertIsNone(store.get(B_ID))

    def test_IMPL_R47_a_new_store_over_the_same_file_sees_everything(self):
        first = self.open_store()
        first.put(M, B, NOW)
        first.put(m(scope_digest="digest-b"), B, NOW + 1)
        second = self.open_store()
        self.assertEqual(second.get(B_ID), first.get(B_ID))
        self.assertEqual(second.find(key_of(M), NOW + 2), first.find(key_of(M), NOW + 2))

    def test_publication_keys_are_stored_as_upstream_writes_them(self):
        store = self.open_store()
        store.put(M, B, NOW)
        self.assertEqual(self.sql("SELECT pub_key FROM sync_segment_publications"),
                         [('["p","epoch-1","tasks",1,"sqlite","digest-a",42,null,null]',)])

    def test_read_only_store_refuses_writes(self):
        self.open_store().put(M, B, NOW)
        store = self.open_store(read_only=True)
        with self.assertRaises(ReadOnly):
            store.put(M, B, NOW)
        self.assertIsNotNone(store.find(key_of(M), NOW + 1))

    def _dump(self):
        return [self.sql("SELECT * FROM %s ORDER BY rowid" % t)
                for t in ("sync_segments", "sync_segment_scopes", "sync_segment_publications")]


if __name__ == "__main__":
    unittest.main()
