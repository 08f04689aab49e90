// The SQLite server storage's durability option (SqliteServerStorageOptions,
// issue 22): every connection that writes runs at the level asked for. The
// level is a connection's PRAGMA, which no answer of the storage shows, so the
// test counts what the level decides: the fsyncs of the write-ahead log. A
// VFS that wraps SQLite's default one counts the syncs of every "-wal" file;
// at FULL each applied push syncs the log, at NORMAL none does (the log is
// synced at checkpoints, and three small pushes reach none).
#include <gmock/gmock.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/util/scratch_directory.hpp"
#include "ssp/push/push_pipeline.hpp"
#include "ssp/sqlite/sqlite_server_storage.hpp"

namespace ssp::harness {
namespace {

std::atomic<int> wal_syncs{0};
sqlite3_vfs* wrapped_vfs = nullptr;

// A file of the counting VFS: SQLite's own file after the base, so every
// call but xSync goes straight to it.
struct CountedFile {
  sqlite3_file base;
  bool is_wal;
  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
};

sqlite3_file* real_of(sqlite3_file* file) { return reinterpret_cast<CountedFile*>(file)->real(); }

int counted_sync(sqlite3_file* file, int flags) {
  auto* counted = reinterpret_cast<CountedFile*>(file);
  if (counted->is_wal) ++wal_syncs;
  return counted->real()->pMethods->xSync(counted->real(), flags);
}

// Every method of SQLite's own file, forwarded; built once from the first
// file opened, whose methods every file of the default VFS shares.
sqlite3_io_methods forwarding_methods(const sqlite3_io_methods& real) {
  sqlite3_io_methods methods = real;
  methods.xClose = [](sqlite3_file* f) { return real_of(f)->pMethods->xClose(real_of(f)); };
  methods.xRead = [](sqlite3_file* f, void* b, int n, sqlite3_int64 o) {
    return real_of(f)->pMethods->xRead(real_of(f), b, n, o);
  };
  methods.xWrite = [](sqlite3_file* f, const void* b, int n, sqlite3_int64 o) {
    return real_of(f)->pMethods->xWrite(real_of(f), b, n, o);
  };
  methods.xTruncate = [](sqlite3_file* f, sqlite3_int64 s) {
    return real_of(f)->pMethods->xTruncate(real_of(f), s);
  };
  methods.xSync = counted_sync;
  methods.xFileSize = [](sqlite3_file* f, sqlite3_int64* s) {
    return real_of(f)->pMethods->xFileSize(real_of(f), s);
  };
  methods.xLock = [](sqlite3_file* f, int l) { return real_of(f)->pMethods->xLock(real_of(f), l); };
  methods.xUnlock = [](sqlite3_file* f, int l) {
    return real_of(f)->pMethods->xUnlock(real_of(f), l);
  };
  methods.xCheckReservedLock = [](sqlite3_file* f, int* r) {
    return real_of(f)->pMethods->xCheckReservedLock(real_of(f), r);
  };
  methods.xFileControl = [](sqlite3_file* f, int op, void* a) {
    return real_of(f)->pMethods->xFileControl(real_of(f), op, a);
  };
  methods.xSectorSize = [](sqlite3_file* f) {
    return real_of(f)->pMethods->xSectorSize(real_of(f));
  };
  methods.xDeviceCharacteristics = [](sqlite3_file* f) {
    return real_of(f)->pMethods->xDeviceCharacteristics(real_of(f));
  };
  methods.xShmMap = [](sqlite3_file* f, int p, int s, int e, void volatile** m) {
    return real_of(f)->pMethods->xShmMap(real_of(f), p, s, e, m);
  };
  methods.xShmLock = [](sqlite3_file* f, int o, int n, int fl) {
    return real_of(f)->pMethods->xShmLock(real_of(f), o, n, fl);
  };
  methods.xShmBarrier = [](sqlite3_file* f) { real_of(f)->pMethods->xShmBarrier(real_of(f)); };
  methods.xShmUnmap = [](sqlite3_file* f, int d) {
    return real_of(f)->pMethods->xShmUnmap(real_of(f), d);
  };
  methods.xFetch = [](sqlite3_file* f, sqlite3_int64 o, int n, void** p) {
    return real_of(f)->pMethods->xFetch(real_of(f), o, n, p);
  };
  methods.xUnfetch = [](sqlite3_file* f, sqlite3_int64 o, void* p) {
    return real_of(f)->pMethods->xUnfetch(real_of(f), o, p);
  };
  return methods;
}

int counted_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags,
                 int* out_flags) {
  auto* counted = reinterpret_cast<CountedFile*>(file);
  counted->base.pMethods = nullptr;
  const int status = wrapped_vfs->xOpen(wrapped_vfs, name, counted->real(), flags, out_flags);
  if (status != SQLITE_OK || counted->real()->pMethods == nullptr) return status;
  counted->is_wal = (flags & SQLITE_OPEN_WAL) != 0;
  static const sqlite3_io_methods methods = forwarding_methods(*counted->real()->pMethods);
  counted->base.pMethods = &methods;
  return status;
}

// While one lives, the counting VFS is SQLite's default, so the storage's own
// connections open through it.
class CountingVfs {
 public:
  CountingVfs() {
    wrapped_vfs = sqlite3_vfs_find(nullptr);
    vfs_ = *wrapped_vfs;
    vfs_.zName = "ssp-counting";
    vfs_.szOsFile = static_cast<int>(sizeof(CountedFile)) + wrapped_vfs->szOsFile;
    vfs_.xOpen = counted_open;
    sqlite3_vfs_register(&vfs_, 1);
  }
  ~CountingVfs() {
    sqlite3_vfs_unregister(&vfs_);
    sqlite3_vfs_register(wrapped_vfs, 1);
  }
  CountingVfs(const CountingVfs&) = delete;
  CountingVfs& operator=(const CountingVfs&) = delete;

 private:
  sqlite3_vfs vfs_{};
};

class SqliteStorageDurability : public PushTest {
 protected:
  // The WAL syncs three applied pushes cost on a fresh storage at `durability`.
  int wal_syncs_of_three_pushes(SqliteDurability durability) {
    const std::filesystem::path path =
        scratch_directory() / ("durability-" + std::string(sqlite_durability_name(durability)) +
                               "-" + std::to_string(::getpid()) + ".db");
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
    CountingVfs vfs;
    auto storage = storage::open_sqlite_server_storage(path.string(), {}, {durability});
    storage->ensure_schema(schema());
    const int before = wal_syncs.load();
    for (int i = 1; i <= 3; ++i) {
      const auto answer = push::run_push(
          *storage, schema(), actor(),
          commit("k" + std::to_string(i),
                 {upsert("tasks", "t" + std::to_string(i), task("t" + std::to_string(i), "p1"))}),
          options());
      EXPECT_EQ(answer.status, push::PushAnswerStatus::applied);
    }
    const int syncs = wal_syncs.load() - before;
    storage.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
    return syncs;
  }
};
// A SQLite option: PostgreSQL's durability is the server's setting.
INSTANTIATE_TEST_SUITE_P(, SqliteStorageDurability, ::testing::Values(Backend::sqlite),
                         storage_param_name);

TEST_P(SqliteStorageDurability, STORAGE_REF_1_EveryWritingConnectionRunsAtTheLevelAskedFor) {
  record_spec("§2.1", "STORAGE-REF-1");
  EXPECT_GE(wal_syncs_of_three_pushes(SqliteDurability::full), 3)
      << "FULL syncs the log at every commit";
  EXPECT_EQ(wal_syncs_of_three_pushes(SqliteDurability::normal), 0)
      << "NORMAL syncs the log only at checkpoints";
  EXPECT_EQ(storage::SqliteServerStorageOptions{}.durability, SqliteDurability::full)
      << "the commit log is durable by default";
}

}  // namespace
}  // namespace ssp::harness
