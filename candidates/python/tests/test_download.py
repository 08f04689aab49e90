"""The §5.5 download decision: one case per outcome of docs/download.md ("One example per
outcome") plus the design-note rows R12, R18, R19, R21, R24, R28–R30, on both backends."""

import dataclasses
import unittest

from helpers import B, B_ID, HOUR, NOW, TTL, per_backend
from ssp_candidate.download import DownloadRequest, ResolverFailure, authorize_download
from ssp_candidate.model import Metadata

P1 = {"project_id": ["p1"]}
P1_DIGEST = "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6"  # SPEC-derived golden
P1_HEADER = '{"project_id":["p1"]}'
SERVED = {"tasks": ["project_id"], "docs": ["org_id"]}
BASE = Metadata("p", "epoch-1", "tasks", 1, "sqlite", P1_DIGEST, 42, 5, None, None)


def allow(scopes):
    return lambda: scopes


def fail(outage=False):
    def resolve():
        raise ResolverFailure(outage)

    return resolve


@per_backend
class DownloadTests:
    def decide(self, store, header=P1_HEADER, now=NOW + 1, partition="p", epoch="epoch-1",
               resolve=allow({"project_id": ["p1", "p2"]}), served=SERVED, segment_id=B_ID, if_none_match=None):
        return authorize_download(store, resolve, served,
                                  DownloadRequest(segment_id, partition, epoch, header, now, if_none_match))

    def published(self, **changes):
        store = self.open_store()
        store.put(dataclasses.replace(BASE, **changes), B, NOW)
        return store

    def test_every_outcome_of_the_docs_table(self):
        s = self.published()
        cases = [
            (dict(segment_id="sha256:" + "0" * 64), 404, "sync.not_found", "unknown_segment"),
            (dict(segment_id="../etc"), 404, "sync.not_found", "unknown_segment"),
            (dict(partition="q"), 404, "sync.not_found", "not_in_context"),
            (dict(epoch="epoch-2"), 404, "sync.not_found", "not_in_context"),
            (dict(header='{"project_id":"p1"}'), 400, "sync.invalid_request", "invalid_scopes_header"),
            (dict(header=None), 400, "sync.invalid_request", "invalid_scopes_header"),
            (dict(resolve=allow({"org_id": ["o1"]})), 403, "sync.forbidden", "scopes_not_held"),
            (dict(resolve=fail()), 403, "sync.forbidden", "scopes_not_held"),
            (dict(resolve=fail(outage=True)), 403, "sync.forbidden", "scopes_not_held"),
            (dict(header='{"project_id":["p2"]}'), 403, "sync.forbidden", "scope_digest_mismatch"),
            (dict(now=NOW + TTL), 404, "sync.segment_expired", "expired"),
            (dict(served={"docs": ["org_id"]}), 404, "sync.not_found", "table_not_served"),
            (dict(served={"tasks": ["org_id"]}), 400, "sync.invalid_subscription", "undeclared_scope_key"),
            (dict(), 200, None, "served"),
            (dict(if_none_match='"%s"' % B_ID), 304, None, "not_modified"),
            (dict(if_none_match='W/"x", W/"%s"' % B_ID), 304, None, "not_modified"),
            (dict(if_none_match=B_ID), 200, None, "served"),
        ]
        for overrides, status, code, step in cases:
            outcome = self.decide(s, **overrides)
            self.assertEqual((outcome.status, outcome.code, outcome.step), (status, code, step), overrides)
        expired = self.decide(s, now=NOW + TTL)
        self.assertTrue(expired.error["retryable"])
        self.assertEqual(expired.error["recommendedAction"], "retryLater")

    def test_DL_R1_success_headers_and_narrowed_record(self):
        s = self.published()
        s.put(dataclasses.replace(BASE, scope_digest="other"), B, NOW)
        outcome = self.decide(s)
        self.assertEqual(outcome.data, B)
        self.assertEqual(outcome.headers, {
            "Content-Type": "application/octet-stream",
            "ETag": '"%s"' % B_ID,
            "Cache-Control": "private, max-age=0",
            "Vary": "Authorization, X-Syncular-Scopes, Accept-Encoding",
        })
        self.assertEqual(outcome.record.scope_digests, (P1_DIGEST,))
        self.assertEqual(len(outcome.record.publications), 1)
        not_modified = self.decide(s, if_none_match="*")
        self.assertNotIn("Content-Type", not_modified.headers)

    def test_R12_either_digest_downloads_but_not_their_union(self):
        store = self.open_store()
        org = {"org_id": ["o1"]}
        from ssp_candidate.scope_digest import scope_digest
        store.put(dataclasses.replace(BASE, table="docs", scope_digest=scope_digest(org)), B, NOW)
        store.put(BASE, B, NOW + 1)
        served = {"docs": ["org_id", "project_id"], "tasks": ["project_id", "org_id"]}
        allowed = allow({"org_id": ["o1"], "project_id": ["p1"]})
        self.assertEqual(self.decide(store, resolve=allowed, served=served, now=NOW + 2).status, 200)
        by_org = self.decide(store, header='{"org_id":["o1"]}', resolve=allowed, served=served, now=NOW + 2)
        self.assertEqual((by_org.status, by_org.record.scope_digests), (200, (scope_digest(org),)))
        union = self.decide(store, header='{"org_id":["o1"],"project_id":["p1"]}', resolve=allowed, served=served,
                            now=NOW + 2)
        self.assertEqual(union.code, "sync.forbidden")

    def test_R18_identical_segments_from_two_partitions(self):
        store = self.open_store()
        p2_digest = "4f31ff4f"  # any digest other than p1's
        store.put(dataclasses.replace(BASE, partition="p1"), b"", NOW)
        store.put(dataclasses.replace(BASE, partition="p2", scope_digest=p2_digest), b"", NOW)
        empty_id = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        own = self.decide(store, partition="p1", segment_id=empty_id)
        self.assertEqual((own.status, own.record.partition), (200, "p1"))
        foreign = self.decide(store, partition="p1", segment_id=empty_id, header='{"project_id":["p2"]}')
        self.assertEqual(foreign.code, "sync.forbidden")
        self.assertEqual(self.decide(store, partition="p3", segment_id=empty_id).code, "sync.not_found")

    def test_R21_a_newer_publication_for_another_table_does_not_hide_the_valid_one(self):
        s = self.published()
        s.put(dataclasses.replace(BASE, table="docs"), B, NOW + 1)
        outcome = self.decide(s, now=NOW + 2)
        self.assertEqual((outcome.status, outcome.record.table), (200, "tasks"))

    def test_R24_a_pruned_digest_is_forbidden_not_expired(self):
        s = self.published()
        s.put(dataclasses.replace(BASE, scope_digest="other"), B, NOW + TTL + 1)
        self.assertEqual(self.decide(s, now=NOW + TTL + 2).code, "sync.forbidden")

    def test_R29_an_expired_pin_does_not_shadow_a_live_one_and_the_newest_wins(self):
        s = self.published(as_of_commit_seq=1)
        s.put(dataclasses.replace(BASE, as_of_commit_seq=2), B, NOW + HOUR)
        outcome = self.decide(s, now=NOW + TTL + 1)
        self.assertEqual((outcome.status, outcome.record.as_of_commit_seq), (200, 2))
        s.put(dataclasses.replace(BASE, as_of_commit_seq=3), B, NOW + TTL + 2)
        self.assertEqual(self.decide(s, now=NOW + TTL + 3).record.as_of_commit_seq, 3)

    def test_R30_another_digests_live_publication_does_not_rescue_an_expired_one(self):
        s = self.published()
        other = {"project_id": ["p2"]}
        from ssp_candidate.scope_digest import scope_digest
        s.put(dataclasses.replace(BASE, scope_digest=scope_digest(other)), B, NOW + HOUR)
        self.assertEqual(self.decide(s, now=NOW + TTL + 1).code, "sync.segment_expired")
        self.assertEqual(self.decide(s, now=NOW + TTL + 1, header='{"project_id":["p2"]}').status, 200)

    def test_DL_R10_an_empty_log_epoch_is_never_in_context(self):
        s = self.published(log_epoch="")
        self.assertEqual(self.decide(s, epoch="").step, "not_in_context")

    def test_DL_R4_the_resolver_runs_once(self):
        s = self.published()
        calls = []

        def resolve():
            calls.append(1)
            return P1

        self.assertEqual(self.decide(s, resolve=resolve).status, 200)
        self.assertEqual(len(calls), 1)


if __name__ == "__main__":
    unittest.main()
