#include "ssp/sqlite/sqlite_segment_store.hpp"

#include <set>

#include "../sql/record_query.hpp"
#include "../sql/segment_columns.hpp"
#include "core/segments/segment_store_base.hpp"
#include "sqlite_connection.hpp"
#include "sqlite_segment_schema.hpp"
#include "ssp/segments/publication_key.hpp"
#include "ssp/segments/segment_write_plan.hpp"

namespace ssp {
namespace {

using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

constexpr const char* kStoreName = "SqliteSegmentStore";

// Segments with a publication under the find key's six fields and a null
// cursor, live or expired: a lookup through sync_segment_publications_find
// (whose predicate is the null cursor). Expiry and media type are left to
// the shared rule (choose_find_result).
constexpr const char* kFindPublished =
    "SELECT DISTINCT segment_id FROM sync_segment_publications "
    "WHERE partition = ? AND log_epoch = ? AND tbl = ? AND scope_digest = ? "
    "AND schema_version = ? AND as_of_commit_seq = ? AND row_cursor IS NULL";

// Legacy rows (no publication rows) whose top-level context matches and that
// list the digest, live or expired, whatever their cursor (DECISION D7: only
// legacy rows, every candidate validated by the shared rule).
// CROSS JOIN fixes the loop order: from the digest (an index lookup) to the
// segment, never from every segment of the same table and commit (a scan
// when many scopes are built at one commit). NOT EXISTS names sc so that it
// rejects a non-legacy segment before its row is read.
constexpr const char* kFindLegacy =
    "SELECT DISTINCT s.segment_id AS segment_id FROM sync_segment_scopes sc "
    "CROSS JOIN sync_segments s ON s.segment_id = sc.segment_id "
    "WHERE s.partition = ? AND s.log_epoch = ? AND s.tbl = ? AND sc.scope_digest = ? "
    "AND s.schema_version = ? AND s.as_of_commit_seq = ? "
    "AND NOT EXISTS (SELECT 1 FROM sync_segment_publications p WHERE p.segment_id = sc.segment_id)";

// Statements built from the shared column list (the connection caches them
// prepared, by text).
constexpr sql::RecordQueryDialect kDialect{"?1", "rowid"};
const std::string kReadRecord = sql::record_query(kDialect, false);
const std::string kReadRecordWithBytes = sql::record_query(kDialect, true);
const std::string kInsertTop = std::string("INSERT INTO sync_segments(segment_id, ") +
                               sql::kRecordColumns +
                               ", bytes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
const std::string kUpdateTop =
    "UPDATE sync_segments SET partition = ?, log_epoch = ?, tbl = ?, schema_version = ?, "
    "media_type = ?, scope_digest = ?, as_of_commit_seq = ?, row_count = ?, "
    "row_cursor = ?, next_row_cursor = ?, byte_length = ?, created_at_ms = ?, "
    "expires_at_ms = ? WHERE segment_id = ?";
const std::string kUpdatePublication =
    "UPDATE sync_segment_publications SET pub_key = ?, partition = ?, log_epoch = ?, tbl = ?, "
    "schema_version = ?, media_type = ?, scope_digest = ?, as_of_commit_seq = ?, row_count = ?, "
    "row_cursor = ?, next_row_cursor = ?, byte_length = ?, created_at_ms = ?, "
    "expires_at_ms = ? WHERE rowid = ?";
const std::string kInsertPublication =
    std::string("INSERT INTO sync_segment_publications(segment_id, pub_key, ") +
    sql::kRecordColumns + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

// A binder for sql::bind_record_columns.
auto bind_to(Statement& statement) {
  return [&statement](int index, const auto& value) {
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>) {
      statement.bind(index, std::string_view(value));
    } else {
      statement.bind(index, value);
    }
  };
}

// Reads and writes the three tables of one segment id on one connection.
// Puts and reads share it, so both live here.
class SegmentRows {
 public:
  explicit SegmentRows(Connection& connection) : connection_(connection) {}

  // Everything stored under `id`; with `bytes`, its stored bytes too. One
  // statement (sql::record_query), hence one snapshot even outside a
  // transaction (D11).
  sql::RecordRows read(const std::string& id, Bytes* bytes = nullptr) {
    Statement rows = connection_.prepare(bytes ? kReadRecordWithBytes : kReadRecord);
    rows.bind(1, std::string_view(id));
    sql::RecordRows record;
    while (rows.step()) {
      if (record.add(rows) == sql::kTopPart && bytes) {
        const auto blob = rows.blob("bytes");
        bytes->assign(blob.begin(), blob.end());
      }
    }
    return record;
  }

  // Compares in SQL so a large blob is not copied out just to be compared.
  bool stored_bytes_equal(const std::string& id, std::span<const std::uint8_t> bytes) {
    Statement query = connection_.prepare(
        "SELECT bytes = ? AS equal FROM sync_segments WHERE segment_id = ?");
    query.bind_blob(1, bytes).bind(2, std::string_view(id));
    return query.step() && query.integer("equal") == 1;
  }

  // Writes `record` over `stored`, what is stored for its id. A new segment
  // inserts its bytes; an existing one keeps its (proven identical) bytes in
  // place. Side rows: only the difference (plan_segment_write), or a full
  // rewrite when the plan says so or the id has no top row.
  void write(const SegmentRecord& record, std::span<const std::uint8_t> bytes,
             const sql::StoredState& stored) {
    const std::string_view id = record.segment_id;
    if (stored.record) {
      Statement update = connection_.prepare(kUpdateTop);
      const int next = sql::bind_record_columns(bind_to(update), 1, sql::top_level_of(record));
      update.bind(next, id);
      update.run();
    } else {
      Statement insert = connection_.prepare(kInsertTop);
      insert.bind(1, id);
      const int next = sql::bind_record_columns(bind_to(insert), 2, sql::top_level_of(record));
      insert.bind_blob(next, bytes);
      insert.run();
    }
    const SegmentWritePlan plan = stored.write_plan(record);
    if (plan.full_rewrite) {
      rewrite_side_rows(record, stored.side_rows);
      return;
    }

    Statement delete_scope = connection_.prepare(
        "DELETE FROM sync_segment_scopes WHERE segment_id = ? AND scope_digest = ?");
    for (const auto& digest : plan.removed_digests) {
      delete_scope.reset();
      delete_scope.bind(1, id).bind(2, std::string_view(digest)).run();
    }
    insert_scopes(id, plan.added_digests);

    // By rowid, the position read_record ordered them by.
    Statement delete_publication =
        connection_.prepare("DELETE FROM sync_segment_publications WHERE rowid = ?");
    for (const std::size_t i : plan.removed) {
      delete_publication.reset();
      delete_publication.bind(1, stored.publication_positions[i]).run();
    }
    Statement update_publication = connection_.prepare(kUpdatePublication);
    for (const auto& [i, j] : plan.updated) {
      const SegmentPublication& publication = record.publications[j];
      update_publication.reset();
      update_publication.bind(1, std::string_view(publication_key(publication.metadata)));
      const int next = sql::bind_record_columns(bind_to(update_publication), 2, publication);
      update_publication.bind(next, stored.publication_positions[i]).run();
    }
    // A new row's rowid is above every rowid in the table, so it sorts last.
    std::vector<const SegmentPublication*> appended;
    for (const std::size_t j : plan.appended) appended.push_back(&record.publications[j]);
    insert_publications(id, appended);
  }

 private:
  // Upstream's write: every side row of the id deleted (when there are any),
  // then the record's inserted.
  void rewrite_side_rows(const SegmentRecord& record, bool side_rows) {
    const std::string_view id = record.segment_id;
    if (side_rows) {
      connection_.prepare("DELETE FROM sync_segment_scopes WHERE segment_id = ?").bind(1, id).run();
      connection_.prepare("DELETE FROM sync_segment_publications WHERE segment_id = ?")
          .bind(1, id)
          .run();
    }
    insert_scopes(id, record.scope_digests);
    std::vector<const SegmentPublication*> all;
    for (const auto& publication : record.publications) all.push_back(&publication);
    insert_publications(id, all);
  }

  void insert_scopes(std::string_view id, const std::vector<std::string>& digests) {
    if (digests.empty()) return;
    Statement insert_scope = connection_.prepare(
        "INSERT OR IGNORE INTO sync_segment_scopes(segment_id, scope_digest) VALUES (?, ?)");
    for (const auto& digest : digests) {
      insert_scope.reset();
      insert_scope.bind(1, id).bind(2, std::string_view(digest)).run();
    }
  }

  // In the given order, which becomes their rowid order.
  void insert_publications(std::string_view id,
                           const std::vector<const SegmentPublication*>& publications) {
    if (publications.empty()) return;
    Statement insert_publication = connection_.prepare(kInsertPublication);
    for (const SegmentPublication* publication : publications) {
      insert_publication.reset();
      insert_publication.bind(1, id).bind(2,
                                          std::string_view(publication_key(publication->metadata)));
      sql::bind_record_columns(bind_to(insert_publication), 3, *publication);
      insert_publication.run();
    }
  }

  Connection& connection_;
};

// BEGIN IMMEDIATE takes SQLite's database-wide write lock (D6) before the
// record is read.
class SqlitePut final : public SegmentPutTransaction {
 public:
  SqlitePut(Connection& connection, std::string segment_id)
      : rows_(connection),
        segment_id_(std::move(segment_id)),
        transaction_(connection, Transaction::Kind::write) {}

  std::optional<SegmentRecord> read() override {
    stored_ = rows_.read(segment_id_).state();
    return stored_.record;
  }
  bool stored_bytes_equal(std::span<const std::uint8_t> bytes) override {
    return rows_.stored_bytes_equal(segment_id_, bytes);
  }
  void write(const SegmentRecord& record, std::span<const std::uint8_t> bytes) override {
    rows_.write(record, stored_.record ? std::span<const std::uint8_t>() : bytes, stored_);
  }
  void commit() override { transaction_.commit(); }

 private:
  SegmentRows rows_;
  const std::string segment_id_;
  Transaction transaction_;
  sql::StoredState stored_;
};

class SqliteSegmentStore final : public SegmentStoreBase {
 public:
  SqliteSegmentStore(const std::string& path, SegmentStoreOptions options,
                     SqliteSegmentStoreOptions sqlite_options)
      : SegmentStoreBase(kStoreName, std::move(options)),
        connection_(path, this->options().read_only, this->options().lock_wait_ms),
        rows_(connection_) {
    if (this->options().read_only) {
      sqlite::emulate_segment_upgrade(connection_);
    } else {
      connection_.exec(sqlite_durability_pragmas(sqlite_options.durability));
      sqlite::upgrade_segment_tables(connection_);
    }
  }

 private:
  std::unique_ptr<SegmentPutTransaction> begin_put(const std::string& segment_id) override {
    return std::make_unique<SqlitePut>(connection_, segment_id);
  }

  std::optional<StoredSegment> read_segment(const std::string& segment_id) override {
    Bytes bytes;
    std::optional<SegmentRecord> record = rows_.read(segment_id, &bytes).record();
    if (!record) return std::nullopt;
    return StoredSegment{std::move(*record), std::move(bytes)};
  }

  std::vector<SegmentRecord> find_candidates(const SegmentFindKey& key) override {
    Transaction snapshot(connection_, Transaction::Kind::read);  // D11
    std::set<std::string> ids;
    for (const char* sql : {kFindPublished, kFindLegacy}) {
      Statement query = connection_.prepare(sql);
      query.bind(1, std::string_view(key.partition))
          .bind(2, std::string_view(key.log_epoch))
          .bind(3, std::string_view(key.table))
          .bind(4, std::string_view(key.scope_digest))
          .bind(5, key.schema_version)
          .bind(6, key.as_of_commit_seq);
      while (query.step()) ids.insert(query.text("segment_id"));
    }
    std::vector<SegmentRecord> candidates;
    for (const auto& id : ids) {
      if (auto record = rows_.read(id).record()) candidates.push_back(std::move(*record));
    }
    return candidates;
  }

  SegmentStoreStats read_stats() override {
    Statement query = connection_.prepare(
        "SELECT count(*) AS count, coalesce(sum(byte_length), 0) AS bytes, "
        "coalesce(sum(media_type = 'sqlite'), 0) AS sqlite_segments FROM sync_segments");
    query.step();
    SegmentStoreStats stats;
    stats.count = query.integer("count");
    stats.bytes = query.integer("bytes");
    stats.sqlite_segments = query.integer("sqlite_segments");
    stats.rows_segments = stats.count - stats.sqlite_segments;
    return stats;
  }

  Connection connection_;
  SegmentRows rows_;
};

}  // namespace

std::unique_ptr<SegmentStore> open_sqlite_segment_store(const std::string& path,
                                                        SegmentStoreOptions options,
                                                        SqliteSegmentStoreOptions sqlite_options) {
  return std::make_unique<SqliteSegmentStore>(path, std::move(options), sqlite_options);
}

}  // namespace ssp
