// How far a SQLite store (the segment store, the server storage) pushes a
// commit towards stable storage. The journal is always WAL, so readers never
// block the single writer; the durability level only decides when SQLite
// calls fsync. Each store has its own default (sqlite_segment_store.hpp,
// sqlite/sqlite_server_storage.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ssp {

enum class SqliteDurability {
  // synchronous=NORMAL, the segment store's default. The WAL is fsynced at
  // checkpoints, not at every commit: a committed put survives a crash of the
  // process, while a power loss or an OS crash may roll back the latest
  // commits (the file stays consistent). That is enough for segments: they are
  // cache entries a server may drop at any time and rebuild on demand (SPEC §5.1).
  normal,
  // synchronous=FULL, the server storage's default: the WAL is fsynced at every
  // commit, so a committed put or push also survives a power loss, at the price
  // of one fsync per commit.
  full,
};

// The PRAGMA statements (journal mode and synchronous level) that put a
// connection at `durability`. Benchmarks run the same text on their raw floor
// connection, so both sides pay for the same durability.
std::string sqlite_durability_pragmas(SqliteDurability durability);

// "normal" or "full", and back (absent for any other spelling).
std::string_view sqlite_durability_name(SqliteDurability durability);
std::optional<SqliteDurability> sqlite_durability_from_name(std::string_view name);

}  // namespace ssp
