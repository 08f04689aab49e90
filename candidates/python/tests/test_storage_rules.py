"""The §2.4 row codec, the schema JSON form and compile rules, and the stored layouts text,
against the suite's case tables (fixtures/cases/rows, fixtures/cases/schema) and the worked
example of the design notes (storage.md §1.2)."""

import json
import os
import unittest

from helpers import REPO

from ssp_candidate.row_codec import Column, RowDecodeError, blob_ref_error, decode_row, encode_row
from ssp_candidate.errors import InvalidInput
from ssp_candidate.schema import SchemaError, compile_schema, layouts_json, parse_schema_text, schema_from_json

CASES = os.path.join(REPO, "fixtures", "cases")


def load(*parts):
    with open(os.path.join(CASES, *parts), encoding="utf-8") as handle:
        return json.load(handle)


def columns_of(raw):
    return [Column(c["name"], c["type"], c["nullable"]) for c in raw]


class RowCodecTest(unittest.TestCase):
    def test_refused_payloads_name_their_column(self):
        for requirement, cases in load("rows", "decode_cases.json")["refused"].items():
            for case in cases:
                with self.subTest(requirement=requirement, case=case["name"]):
                    with self.assertRaises(RowDecodeError) as caught:
                        decode_row(columns_of(case["columns"]), bytes.fromhex(case["payload_hex"]))
                    self.assertEqual(caught.exception.column, case["column"])

    def test_accepted_payloads_round_trip_byte_for_byte(self):
        for requirement, cases in load("rows", "decode_cases.json")["accepted"].items():
            for case in cases:
                with self.subTest(requirement=requirement, case=case["name"]):
                    columns = columns_of(case["columns"])
                    payload = bytes.fromhex(case["payload_hex"])
                    self.assertEqual(encode_row(columns, decode_row(columns, payload)), payload)

    def test_nan_float_matches_the_protocol_example(self):
        # docs/driver-protocol.md, rows.encode: ["t1", NaN] → AAIAAAB0MQAAAAAAAPh/
        columns = [Column("id", "string", False), Column("n", "float", True)]
        self.assertEqual(encode_row(columns, ["t1", float("nan")]).hex(), "00020000007431000000000000f87f")

    def test_encoding_refuses_what_decoding_refuses(self):
        with self.assertRaises(InvalidInput):
            encode_row([Column("j", "json", False)], ["{"])
        with self.assertRaises(InvalidInput):
            encode_row([Column("n", "integer", False)], [2 ** 53])
        with self.assertRaises(InvalidInput):
            encode_row([Column("s", "string", False)], [None])

    def test_blob_ref_must_be_canonical(self):
        good = '{"blobId":"sha256:' + "a" * 64 + '","byteLength":3,"name":"x"}'
        self.assertIsNone(blob_ref_error(good))
        self.assertIsNotNone(blob_ref_error(good.replace(',"name":"x"', ',"name":"x","mediaType":"t"')))
        self.assertIsNotNone(blob_ref_error(good.replace(":3", ": 3")))
        self.assertIsNotNone(blob_ref_error(good.replace(":3", ":-1")))


class SchemaTest(unittest.TestCase):
    def test_compile_refusals_name_what_they_list(self):
        cases = load("schema", "compile_cases.json")
        for requirement, refused in cases["refused"].items():
            for case in refused:
                with self.subTest(requirement=requirement, case=case["name"]):
                    schema = parse_schema_text(json.dumps(case["schema"]))
                    with self.assertRaises(SchemaError) as caught:
                        compile_schema(schema)
                    for name in case["names"]:
                        self.assertIn(name, str(caught.exception))
        for requirement, accepted in cases["accepted"].items():
            for case in accepted:
                with self.subTest(requirement=requirement, case=case["name"]):
                    compile_schema(parse_schema_text(json.dumps(case["schema"])))

    def test_json_refusals_name_the_field(self):
        for case in load("schema", "json_refusals.json")["refused"]:
            with self.subTest(case=case["name"]):
                with self.assertRaises(SchemaError) as caught:
                    parse_schema_text(case["text"])
                self.assertIn(case["field"], str(caught.exception))

    def test_layouts_text_of_the_worked_example(self):
        schema = compile_schema(schema_from_json({"version": 3, "tables": [
            {"name": "tasks", "columns": [
                {"name": "id", "type": "string", "nullable": False},
                {"name": "project_id", "type": "string", "nullable": False},
                {"name": "title", "type": "string", "nullable": True},
                {"name": "done", "type": "boolean", "nullable": False},
                {"name": "meta", "type": "json", "nullable": True},
                {"name": "doc", "type": "crdt", "nullable": True, "crdtType": "yjs-doc"}],
             "primaryKey": "id", "scopes": ["project:{project_id}"]},
            {"name": "notes", "columns": [
                {"name": "id", "type": "string", "nullable": False},
                {"name": "space_id", "type": "string", "nullable": False},
                {"name": "body", "type": "bytes", "nullable": True, "encrypted": True, "declaredType": "string"}],
             "primaryKey": "id", "scopes": ["space:{space_id}"]}]}))
        expected = ('{"tasks":[{"name":"id","type":"string","nullable":false},'
                    '{"name":"project_id","type":"string","nullable":false},'
                    '{"name":"title","type":"string","nullable":true},{"name":"done","type":"boolean","nullable":false},'
                    '{"name":"meta","type":"json","nullable":true},{"name":"doc","type":"crdt","nullable":true}],'
                    '"notes":[{"name":"id","type":"string","nullable":false},'
                    '{"name":"space_id","type":"string","nullable":false},'
                    '{"name":"body","type":"bytes","nullable":true}]}')
        self.assertEqual(layouts_json(schema), expected)
        self.assertTrue(schema.find("tasks").materialize)
        self.assertFalse(schema.find("notes").materialize, "every non-key, non-scope column is encrypted")
        self.assertEqual(layouts_json(compile_schema(schema_from_json({"version": 1, "tables": []}))), "{}")


if __name__ == "__main__":
    unittest.main()
