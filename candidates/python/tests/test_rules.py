"""Known answers for the pure rules. Every expected value is a literal from SPEC, the
design notes or the project docs, or a hashlib digest of a hand-written text; none was
produced by a candidate."""

import hashlib
import unittest

from helpers import candidate_path  # noqa: F401  (puts the package on sys.path)
from ssp_candidate import jsontext
from ssp_candidate.error_catalog import ACTIONS, CATALOG, error_body
from ssp_candidate.model import Metadata
from ssp_candidate.publications import publication_key
from ssp_candidate.scope_digest import ScopeMapError, canonical_scope_json, parse_scope_map, scope_digest
from ssp_candidate.scope_resolution import compute_effective
from ssp_candidate.segment_id import is_segment_id, segment_id_for

M = Metadata("p", "epoch-1", "tasks", 1, "sqlite", "digest-a", 42, 5, None, None)

GRIN = "\U0001F600"  # UTF-16 D83D DE00
PUA = "\uE000"


class SegmentIdTest(unittest.TestCase):
    def test_golden_values_from_the_design_notes(self):
        self.assertEqual(segment_id_for(b"\x01\x02\x03"),
                         "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81")
        self.assertEqual(segment_id_for(b""),
                         "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")

    def test_only_sha256_and_64_lowercase_hex_is_an_id(self):
        self.assertTrue(is_segment_id("sha256:" + "0" * 64))
        for bad in ("../../etc/passwd", "sha256:short", "sha256:" + "A" * 64, "sha256:" + "0" * 65, None, 7):
            self.assertFalse(is_segment_id(bad), bad)


class PublicationKeyTest(unittest.TestCase):
    def test_r51_literal(self):
        self.assertEqual(publication_key(M), '["p","epoch-1","tasks",1,"sqlite","digest-a",42,null,null]')

    def test_cursors_and_negative_integers(self):
        m = Metadata("p", "e", "t", -3, "rows", "d", 0, 1, "row-100", "row-200")
        self.assertEqual(publication_key(m), '["p","e","t",-3,"rows","d",0,"row-100","row-200"]')

    def test_json_stringify_escaping(self):
        # ECMA-262 QuoteJSONString: short escapes, \u00xx lowercase below U+0020, all else raw.
        self.assertEqual(jsontext.quote('a"b\\c'), '"a\\"b\\\\c"')
        self.assertEqual(jsontext.quote("\b\f\n\r\t"), '"\\b\\f\\n\\r\\t"')
        self.assertEqual(jsontext.quote("\x00\x01\x1f"), '"\\u0000\\u0001\\u001f"')
        self.assertEqual(jsontext.quote("\x1b"), '"\\u001b"')
        self.assertEqual(jsontext.quote("\x7f\u2028\u2029/é" + GRIN), '"\x7f\u2028\u2029/é' + GRIN + '"')
        self.assertEqual(jsontext.quote("\ud800"), '"\\ud800"')

    def test_integers_outside_the_safe_range_are_refused(self):
        self.assertEqual(jsontext.integer(2**53 - 1), "9007199254740991")
        with self.assertRaises(ValueError):
            jsontext.integer(2**53)


class ScopeDigestTest(unittest.TestCase):
    def test_r50_project_id_golden_value(self):
        scopes = {"project_id": ["p1"]}
        self.assertEqual(canonical_scope_json(scopes), '{"project_id":["p1"]}')
        self.assertEqual(scope_digest(scopes), "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6")

    def test_r50_keys_sorted_values_deduplicated_and_sorted(self):
        scopes = {"b": ["y", "x", "x"], "a": ["1"]}
        self.assertEqual(canonical_scope_json(scopes), '{"a":["1"],"b":["x","y"]}')
        self.assertEqual(scope_digest(scopes), "d6eae071419983e790daed35ef4abff53d8db9edf7718ba8c9f196600c80d457")

    def test_r50_mixed_plane_strings_sort_by_utf16_code_units(self):
        # U+1F600 is D83D DE00 in UTF-16, which sorts before E000; UTF-8 order is the reverse.
        scopes = {PUA: [PUA, GRIN, "a", GRIN], GRIN: ["z"]}
        expected = '{"' + GRIN + '":["z"],"' + PUA + '":["a","' + GRIN + '","' + PUA + '"]}'
        self.assertEqual(canonical_scope_json(scopes), expected)
        self.assertEqual(scope_digest(scopes), hashlib.sha256(expected.encode("utf-8")).hexdigest())
        self.assertEqual(scope_digest(scopes), "ce36bcfe3f2a2f3a7274ed6d3ffb833c175047de69fda7f3f6142cc1277b08f5")

    def test_empty_map(self):
        self.assertEqual(canonical_scope_json({}), "{}")
        self.assertEqual(scope_digest({}), "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
        self.assertEqual(canonical_scope_json({"k": []}), '{"k":[]}')

    def test_strings_are_escaped_as_json_stringify(self):
        self.assertEqual(canonical_scope_json({'q"\\': ["\n\x01\u2028"]}), '{"q\\"\\\\":["\\n\\u0001\u2028"]}')

    def test_a_byte_order_mark_before_the_json_is_refused_but_not_inside_a_string(self):
        # docs/decisions.md "Reading JSON from outside": JSON.parse refuses U+FEFF as whitespace.
        for bad in ('\ufeff{"a":["1"]}', ' \ufeff{"a":["1"]}', b'\xef\xbb\xbf{"a":["1"]}'):
            with self.assertRaises(ScopeMapError):
                parse_scope_map(bad)
        self.assertEqual(parse_scope_map('{"a":["\ufeff1"]}'), {"a": ["\ufeff1"]})

    def test_prototype_member_names_are_ordinary_keys(self):
        scopes = parse_scope_map('{"__proto__":["x"],"constructor":["y"],"toString":["z"]}')
        self.assertEqual(canonical_scope_json(scopes), '{"__proto__":["x"],"constructor":["y"],"toString":["z"]}')
        self.assertFalse(compute_effective(scopes, {"constructor": ["y"]}).active)

    def test_header_parse_is_strict(self):
        self.assertEqual(parse_scope_map(' { "a" : [ "1" ] , "a" : ["2"] } '), {"a": ["2"]})
        for bad in ('{"project_id":"p1"}', "[]", "nope", '{"a":[1]}', '{"a":[null]}', '{"a":["\\ud800"]}',
                    "", '{"a":["x"]', "NaN", '{"a":' + '["x"]}' + " " * 70000, b'{"a":["\xff"]}'):
            with self.assertRaises(ScopeMapError, msg=repr(bad)[:40]):
                parse_scope_map(bad)


class ScopeResolutionTest(unittest.TestCase):
    def test_intersection_per_requested_key(self):
        e = compute_effective({"project_id": ["p1", "p3"]}, {"project_id": ["p1", "p2"], "org_id": ["o"]})
        self.assertTrue(e.active)
        self.assertEqual(e.scopes, {"project_id": ["p1"]})

    def test_wildcard_passes_requested_values(self):
        e = compute_effective({"project_id": ["p9"]}, {"project_id": ["*"]})
        self.assertEqual(e.scopes, {"project_id": ["p9"]})

    def test_missing_key_or_empty_intersection_revokes(self):
        partial = compute_effective({"a": ["1"], "b": ["2"]}, {"a": ["1"]})
        self.assertFalse(partial.active)
        self.assertEqual(partial.scopes, {})  # SPEC §4.4: empty when not active
        self.assertFalse(compute_effective({"a": ["1"]}, {"a": ["2"]}).active)
        self.assertFalse(compute_effective({}, {"a": ["1"]}).active)


class ErrorCatalogTest(unittest.TestCase):
    def test_the_section_10_2_table(self):
        self.assertEqual(len(CATALOG), 36)
        self.assertTrue(all(entry.action in ACTIONS for entry in CATALOG.values()))
        self.assertEqual(error_body("sync.segment_expired", "m"),
                         {"code": "sync.segment_expired", "category": "not-found", "retryable": True,
                          "recommendedAction": "retryLater", "message": "m"})
        self.assertEqual(CATALOG["sync.forbidden"].category, "forbidden")
        self.assertFalse(CATALOG["sync.not_found"].retryable)


if __name__ == "__main__":
    unittest.main()
