"""expectations.json (and expectations-other-choices.json, for the run with both switches
of choices.py on) are the candidate's own lists of suite tests it fails; the harness reads
them, so their shape is checked here."""

import json
import os
import re
import unittest

from helpers import candidate_path

FIELDS = {"test", "requirement", "backend", "reason", "spec"}


class ExpectationsFileTest(unittest.TestCase):
    def test_every_entry_names_test_requirement_backend_reason_and_spec(self):
        for name in ("expectations.json", "expectations-other-choices.json"):
            with self.subTest(name):
                self.check_file(name)

    def check_file(self, name):
        with open(os.path.join(candidate_path, name), encoding="utf-8") as f:
            document = json.load(f)
        self.assertEqual(document["candidate"], "ssp-python-candidate")
        tests = set()
        for entry in document["expectedFailures"]:
            self.assertEqual(set(entry), FIELDS, entry)
            self.assertRegex(entry["test"], r"^[A-Za-z0-9]+\.[A-Za-z0-9_]+(/[a-z]+)?$")
            suffix = entry["test"].partition("/")[2]
            self.assertEqual(entry["backend"], suffix or "none", entry)
            self.assertTrue(entry["test"].split(".", 1)[1].startswith(re.sub("-", "_", entry["requirement"]) + "_"),
                            entry)
            self.assertTrue(entry["reason"] and entry["spec"], entry)
            self.assertNotIn(entry["test"], tests, "listed twice")
            tests.add(entry["test"])


if __name__ == "__main__":
    unittest.main()
