"""Shared test setup: the package on sys.path, the design notes' fixtures (segments.md §4
conventions), and a store factory per backend."""

import os
import sqlite3
import sys
import tempfile

candidate_path = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if candidate_path not in sys.path:
    sys.path.insert(0, candidate_path)

from ssp_candidate.model import FindKey, Metadata  # noqa: E402
from ssp_candidate.sqlite_store import SqliteSegmentStore  # noqa: E402
from ssp_candidate.store import MemorySegmentStore  # noqa: E402

REPO = os.path.dirname(os.path.dirname(candidate_path))
FIXTURES_021 = os.path.join(REPO, "fixtures", "segments-0.21")

NOW = 1_750_000_000_000
TTL = 86_400_000
HOUR = 3_600_000
B = b"\x01\x02\x03"
B_ID = "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81"
M = Metadata("p", "epoch-1", "tasks", 1, "sqlite", "digest-a", 42, 5, None, None)


def key_of(m) -> FindKey:
    return FindKey(m.partition, m.log_epoch, m.table, m.schema_version, m.media_type, m.scope_digest,
                   m.as_of_commit_seq)


class BackendMixin:
    """Runs a TestCase once per backend: subclasses set ``backend``."""

    backend = "memory"

    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self._dir.name, "segments.db")
        self.stores = []

    def tearDown(self):
        for store in self.stores:
            store.close()
        self._dir.cleanup()

    def open_store(self, **options):
        if self.backend == "memory":
            store = MemorySegmentStore(**options)
        else:
            store = SqliteSegmentStore(self.path, **options)
        self.stores.append(store)
        return store

    def sql(self, statement, params=()):
        connection = sqlite3.connect(self.path, isolation_level=None)
        try:
            return connection.execute(statement, params).fetchall()
        finally:
            connection.close()

    def load_fixture(self, name):
        with open(os.path.join(FIXTURES_021, name), encoding="utf-8") as f:
            script = f.read()
        connection = sqlite3.connect(self.path)
        connection.executescript(script)
        connection.close()


def per_backend(cls=None, backends=("memory", "sqlite")):
    """Class decorator: one concrete TestCase per backend, named ``<Name>_<backend>``."""
    import unittest

    def register(cls):
        module = sys.modules[cls.__module__]
        for backend in backends:
            name = "%s_%s" % (cls.__name__, backend)
            attributes = {"backend": backend, "__module__": cls.__module__}
            setattr(module, name, type(name, (cls, BackendMixin, unittest.TestCase), attributes))
        return cls

    return register(cls) if cls is not None else register
