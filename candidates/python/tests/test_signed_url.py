"""Native signed-URL tokens (SPEC §5.4, docs/download.md). The golden token is built here
from a hand-written payload with hmac/base64 directly, not by the candidate."""

import base64
import hashlib
import hmac
import unittest

from helpers import B, B_ID, M, NOW
from ssp_candidate.errors import InvalidInput
from ssp_candidate.signed_url import Signer, b64url_decode, b64url_encode
from ssp_candidate.store import MemorySegmentStore

KEY = b"secret"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mac(data):
    return hmac.new(KEY, data, hashlib.sha256).digest()


class SignedUrlTest(unittest.TestCase):
    def setUp(self):
        self.signer = Signer(KEY, 60)
        self.store = MemorySegmentStore()
        self.store.put(M, B, NOW)
        self.epochs = {"p": "epoch-1"}

    def verify(self, token, now=NOW, segment_id=B_ID):
        return self.signer.verify(token, segment_id, self.store, self.epochs.get, now)

    def test_minted_token_matches_an_independently_built_one(self):
        aud = b64url(mac(b"ssp2-segment-aud:p"))
        self.assertEqual(self.signer.audience("p"), aud)
        payload = ('{"v":1,"seg":"%s","sd":"digest-a","aud":"%s","exp":%d}' % (B_ID, aud, (NOW + 600_000) // 1000))
        token, url_expires = self.signer.mint(B_ID, "digest-a", "p", NOW, 600_000)
        self.assertEqual(token, b64url(payload.encode()) + "." + b64url(mac(payload.encode())))
        self.assertEqual(url_expires, NOW + 600_000)
        verdict = self.verify(token)
        self.assertTrue(verdict.accepted)
        self.assertEqual(verdict.data, B)

    def test_exp_rounds_down_and_allows_the_skew(self):
        token, url_expires = self.signer.mint(B_ID, "digest-a", "p", NOW + 1, 1_500)
        self.assertEqual(url_expires, NOW + 1000)
        self.assertTrue(self.verify(token, now=NOW + 1000 + 59_999).accepted)
        self.assertEqual(self.verify(token, now=NOW + 1000 + 60_000).refusal, "expired")

    def test_refusals(self):
        token, _ = self.signer.mint(B_ID, "digest-a", "p", NOW, 600_000)
        payload, signature = token.split(".")
        self.assertEqual(self.verify("x").refusal, "malformed")
        self.assertEqual(self.verify(token + "=").refusal, "malformed")
        self.assertEqual(self.verify(payload + "." + b64url(b"\0" * 32)).refusal, "bad_signature")
        self.assertEqual(Signer(b"other").verify(token, B_ID, self.store, self.epochs.get, NOW).refusal,
                         "bad_signature")
        self.assertEqual(self.verify(self.signer.sign_payload('{"v":2}')).refusal, "malformed")
        good = b64url_decode(payload).decode()
        self.assertEqual(self.verify(self.signer.sign_payload("\ufeff" + good)).refusal, "malformed")
        self.assertEqual(self.verify(token, segment_id="sha256:" + "0" * 64).refusal, "wrong_segment")
        unknown, _ = self.signer.mint("sha256:" + "0" * 64, "digest-a", "p", NOW, 600_000)
        self.assertEqual(self.verify(unknown, segment_id="sha256:" + "0" * 64).refusal, "unknown_segment")
        other_partition, _ = self.signer.mint(B_ID, "digest-a", "q", NOW, 600_000)
        self.assertEqual(self.verify(other_partition).refusal, "wrong_audience")
        wrong_digest, _ = self.signer.mint(B_ID, "digest-b", "p", NOW, 600_000)
        self.assertEqual(self.verify(wrong_digest).refusal, "wrong_scope_digest")
        self.epochs["p"] = "epoch-2"
        self.assertEqual(self.verify(token).refusal, "wrong_audience")

    def test_D12_any_current_publication_of_the_partition_may_carry_sd(self):
        import dataclasses

        self.store.put(dataclasses.replace(M, scope_digest="digest-b"), B, NOW + 1)
        token, _ = self.signer.mint(B_ID, "digest-a", "p", NOW, 600_000)
        self.assertTrue(self.verify(token, now=NOW + 2).accepted)

    def test_out_of_contract_arguments(self):
        for ttl in (0, 900_001):
            with self.assertRaises(InvalidInput):
                self.signer.mint(B_ID, "d", "p", NOW, ttl)
        with self.assertRaises(InvalidInput):
            Signer(b"")
        with self.assertRaises(InvalidInput):
            Signer(KEY, 61)

    def test_base64url_is_unpadded_and_only_the_canonical_form_decodes(self):
        self.assertEqual(b64url_encode(b"\xfb\xff"), "-_8")
        self.assertEqual(b64url_decode("-_8"), b"\xfb\xff")
        for bad in ("-_9", "-_8=", "+/8", "a", "ab c"):
            self.assertIsNone(b64url_decode(bad), bad)


if __name__ == "__main__":
    unittest.main()
