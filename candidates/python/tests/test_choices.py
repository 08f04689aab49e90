"""The two switches that pick other permissible answers (choices.py): each changes only
the answer it names, and the command line sets them; and --no-hooks, which hides the hook
points from hello."""

import dataclasses
import unittest

from helpers import B, M, NOW, key_of, per_backend
from ssp_candidate import choices
from ssp_candidate.__main__ import parse_choices


def m(**changes):
    return dataclasses.replace(M, **changes)


class ChoicesOff(unittest.TestCase):
    def test_no_flag_keeps_the_decisions(self):
        self.assertEqual(parse_choices([]), choices.Choices())

    def test_each_flag_sets_its_choice(self):
        self.assertEqual(parse_choices(["--find-latest-created", "--digests-reversed"]),
                         choices.Choices(find_latest_created=True, digests_reversed=True))

    def test_no_hooks_declares_no_hook_points_in_hello(self):
        self.assertEqual(parse_choices(["--no-hooks"]), choices.Choices(hooks=False))
        from ssp_candidate.handlers import hello
        previous = choices.set_current(choices.Choices(hooks=False))
        self.addCleanup(choices.set_current, previous)
        declared = hello(None, {"protocol": 2})["capabilities"]
        self.assertFalse(declared["hooks"])
        self.assertFalse(declared["pushHooks"])
        self.assertTrue(declared["push"])

    def test_an_unknown_flag_is_refused(self):
        with self.assertRaises(SystemExit):
            parse_choices(["--digests-backwards"])


@per_backend
class SwitchedChoices:
    def switch(self, **changes):
        previous = choices.set_current(choices.Choices(**changes))
        self.addCleanup(choices.set_current, previous)

    def test_find_prefers_the_latest_created_then_the_largest_id(self):
        self.switch(find_latest_created=True)
        store = self.open_store()
        store.put(M, B, NOW + 10)
        newer = store.put(M, b"newer", NOW + 20).segment_id
        store.put(M, B, NOW + 30)  # B lives longest now (D5's winner) but was created first
        self.assertEqual(store.find(key_of(M), NOW + 31).segment_id, newer)

        tied = m(table="tied")
        x = store.put(tied, b"x", NOW).segment_id
        y = store.put(tied, b"y", NOW).segment_id
        self.assertEqual(store.find(key_of(tied), NOW + 1).segment_id, max(x, y))

    def test_find_takes_the_oldest_match_of_a_record(self):
        self.switch(find_latest_created=True)
        store = self.open_store()
        first = m(media_type="rows", next_row_cursor="row-1")
        second = m(media_type="rows", next_row_cursor="row-2")
        store.put(first, B, NOW)
        store.put(second, B, NOW + 1)
        self.assertEqual(store.find(key_of(first), NOW + 2).next_row_cursor, "row-1")

    def test_digests_are_d4_reversed_the_primary_last(self):
        self.switch(digests_reversed=True)
        store = self.open_store()
        for digest in ("digest-c", "digest-a", "digest-b"):
            returned = store.put(m(scope_digest=digest), B, NOW)
        self.assertEqual(returned.scope_digest, "digest-b")
        self.assertEqual(returned.scope_digests, ("digest-c", "digest-a", "digest-b"))
        self.assertEqual(store.get(returned.segment_id)[0].scope_digests, ("digest-c", "digest-a", "digest-b"))


if __name__ == "__main__":
    unittest.main()
