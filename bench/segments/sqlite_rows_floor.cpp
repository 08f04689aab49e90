// The SQLite rows floor: libsqlite3 directly, statements prepared once, the
// payload bound without a copy, one BEGIN IMMEDIATE … COMMIT per put (the
// write lock a store's put takes) and plain statements for a get.
#include <sqlite3.h>

#include <stdexcept>

#include "segment_rows_floor.hpp"
#include "ssp/segments/publication_key.hpp"
#include "ssp/segments/segment_store_options.hpp"
#include "ssp/segments/stored_media_type.hpp"

namespace ssp::bench {
namespace {

// The columns of a publication row after segment_id and pub_key, and of a
// sync_segments row after segment_id (the format's names and order).
#define SSP_FLOOR_RECORD_COLUMNS                                                            \
  "partition, log_epoch, tbl, schema_version, media_type, scope_digest, as_of_commit_seq, " \
  "row_count, row_cursor, next_row_cursor, byte_length, created_at_ms, expires_at_ms"

constexpr const char* kInsertTop = "INSERT INTO sync_segments(segment_id, " SSP_FLOOR_RECORD_COLUMNS
                                   ", bytes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kInsertScope =
    "INSERT INTO sync_segment_scopes(segment_id, scope_digest) VALUES (?, ?)";
constexpr const char* kInsertPublication =
    "INSERT INTO sync_segment_publications(segment_id, pub_key, " SSP_FLOOR_RECORD_COLUMNS
    ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kBytesEqual = "SELECT bytes = ?2 FROM sync_segments WHERE segment_id = ?1";
constexpr const char* kUpdateTop =
    "UPDATE sync_segments SET partition = ?2, log_epoch = ?3, tbl = ?4, schema_version = ?5, "
    "media_type = ?6, scope_digest = ?7, as_of_commit_seq = ?8, row_count = ?9, "
    "row_cursor = ?10, next_row_cursor = ?11, byte_length = ?12, "
    "created_at_ms = min(created_at_ms, ?13), expires_at_ms = max(expires_at_ms, ?14) "
    "WHERE segment_id = ?1";
constexpr const char* kSelectPublications =
    "SELECT " SSP_FLOOR_RECORD_COLUMNS
    " FROM sync_segment_publications WHERE segment_id = ? ORDER BY rowid";

#undef SSP_FLOOR_RECORD_COLUMNS

// One statement prepared once, reset after every use.
class Prepared {
 public:
  Prepared(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement_, nullptr) !=
        SQLITE_OK) {
      fail(sql);
    }
  }
  ~Prepared() { sqlite3_finalize(statement_); }
  Prepared(const Prepared&) = delete;
  Prepared& operator=(const Prepared&) = delete;

  Prepared& text(int index, std::string_view value) {
    sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()),
                      SQLITE_STATIC);
    return *this;
  }
  Prepared& nullable_text(int index, const std::optional<std::string>& value) {
    if (value) return text(index, std::string_view(*value));
    sqlite3_bind_null(statement_, index);
    return *this;
  }
  Prepared& integer(int index, std::int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
  }
  Prepared& blob(int index, std::span<const std::uint8_t> value) {
    sqlite3_bind_blob64(statement_, index, value.data(), value.size(), SQLITE_STATIC);
    return *this;
  }
  // Binds the 13 record columns of `p` from `first`; returns the next index.
  int record(int first, const SegmentPublication& p) {
    const SegmentMetadata& m = p.metadata;
    text(first, m.partition).text(first + 1, m.log_epoch).text(first + 2, m.table);
    integer(first + 3, m.schema_version).text(first + 4, media_type_name(m.media_type));
    text(first + 5, m.scope_digest).integer(first + 6, m.as_of_commit_seq);
    integer(first + 7, m.row_count).nullable_text(first + 8, m.row_cursor);
    nullable_text(first + 9, m.next_row_cursor).integer(first + 10, p.byte_length);
    integer(first + 11, p.created_at_ms).integer(first + 12, p.expires_at_ms);
    return first + 13;
  }

  // Runs a statement that returns no row; `what` names it in an error.
  void run(const char* what) {
    const int rc = sqlite3_step(statement_);
    sqlite3_reset(statement_);
    if (rc != SQLITE_DONE) fail(what);
  }
  // Steps to the next row; false after the last (the statement is then reset).
  bool row() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    sqlite3_reset(statement_);
    if (rc != SQLITE_DONE) fail("a read");
    return false;
  }
  void reset() { sqlite3_reset(statement_); }

  std::int64_t column_integer(int column) const { return sqlite3_column_int64(statement_, column); }
  std::optional<std::string> column_text(int column) const {
    const auto* data = sqlite3_column_text(statement_, column);
    if (data == nullptr) return std::nullopt;
    return std::string(reinterpret_cast<const char*>(data),
                       static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
  }
  // The 13 record columns from `first` as a publication.
  SegmentPublication column_record(int first) const {
    SegmentMetadata m;
    m.partition = *column_text(first);
    m.log_epoch = *column_text(first + 1);
    m.table = *column_text(first + 2);
    m.schema_version = column_integer(first + 3);
    m.media_type = media_type_from_stored(*column_text(first + 4));
    m.scope_digest = *column_text(first + 5);
    m.as_of_commit_seq = column_integer(first + 6);
    m.row_count = column_integer(first + 7);
    m.row_cursor = column_text(first + 8);
    m.next_row_cursor = column_text(first + 9);
    return SegmentPublication{std::move(m), column_integer(first + 10), column_integer(first + 11),
                              column_integer(first + 12)};
  }
  std::span<const std::uint8_t> column_blob(int column) const {
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(statement_, column));
    return {data, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("SQLite rows floor: " + what + ": " + sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

class SqliteRowsFloor final : public SegmentRowsFloor {
 public:
  SqliteRowsFloor(const std::string& path, SqliteDurability durability)
      : connection_{open(path)},
        db_(connection_.db),
        begin_(db_, "BEGIN IMMEDIATE"),
        commit_(db_, "COMMIT"),
        insert_top_(db_, kInsertTop),
        insert_scope_(db_, kInsertScope),
        insert_publication_(db_, kInsertPublication),
        bytes_equal_(db_, kBytesEqual),
        update_top_(db_, kUpdateTop),
        select_publications_(db_, kSelectPublications),
        select_(db_, floor_get_statement("?1", "rowid").c_str()) {
    const std::string pragmas = sqlite_durability_pragmas(durability);
    if (sqlite3_exec(db_, pragmas.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
      throw std::runtime_error("SQLite rows floor: " + pragmas + ": " + sqlite3_errmsg(db_));
    }
  }

  SegmentRecord put_new(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                        std::int64_t now_ms) override {
    FloorPut put = floor_put(metadata, bytes, now_ms);
    const std::string& id = put.segment_id;
    const SegmentPublication& publication = put.publication;
    in_transaction(id, [&] {
      insert_top_.text(1, id);
      insert_top_.blob(insert_top_.record(2, publication), bytes);
      insert_top_.run("insert the segment row");
      insert_scope_.text(1, id).text(2, metadata.scope_digest).run("insert a scope row");
      append_publication(id, publication);
    });
    return floor_answer(std::move(put.segment_id), {publication});
  }

  SegmentRecord put_merge(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                          std::int64_t now_ms) override {
    FloorPut put = floor_put(metadata, bytes, now_ms);
    const std::string& id = put.segment_id;
    const SegmentPublication& publication = put.publication;
    std::vector<SegmentPublication> publications;
    in_transaction(id, [&] {
      bytes_equal_.text(1, id).blob(2, bytes);
      const bool equal = bytes_equal_.row() && bytes_equal_.column_integer(0) == 1;
      bytes_equal_.reset();
      if (!equal) throw std::runtime_error("SQLite rows floor: other bytes or none stored");
      select_publications_.text(1, id);
      while (select_publications_.row())
        publications.push_back(select_publications_.column_record(0));
      update_top_.text(1, id).record(2, publication);
      update_top_.run("update the segment row");
      insert_scope_.text(1, id).text(2, metadata.scope_digest).run("insert a scope row");
      append_publication(id, publication);
    });
    publications.push_back(publication);
    return floor_answer(std::move(put.segment_id), std::move(publications));
  }

  std::optional<StoredSegment> get(const std::string& id) override {
    select_.text(1, id);
    FloorGetRows rows;
    while (select_.row()) {
      switch (select_.column_integer(0)) {
        case 0:
          rows.top(select_.column_record(1), select_.column_blob(14));
          break;
        case 1:
          rows.scope(*select_.column_text(6));
          break;
        default:
          rows.publication(select_.column_integer(15), select_.column_record(1));
      }
    }
    return rows.take(id);
  }

 private:
  static sqlite3* open(const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
      const std::string message = sqlite3_errmsg(db);
      sqlite3_close_v2(db);
      throw std::runtime_error("SQLite rows floor: cannot open " + path + ": " + message);
    }
    sqlite3_busy_timeout(db, static_cast<int>(SegmentStoreOptions{}.lock_wait_ms));
    return db;
  }

  void append_publication(const std::string& id, const SegmentPublication& publication) {
    insert_publication_.text(1, id).text(2, publication_key(publication.metadata));
    insert_publication_.record(3, publication);
    insert_publication_.run("insert a publication row");
  }

  // Runs `work` (the statements of a put of `id`) in one write transaction.
  // A failure rolls back and is rethrown naming the id; the message is built
  // only then, so that a put allocates no text it does not need.
  template <typename Work>
  void in_transaction(const std::string& id, Work&& work) {
    try {
      begin_.run("BEGIN IMMEDIATE");
      try {
        work();
      } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);  // the first failure is reported
        throw;
      }
      commit_.run("COMMIT");
    } catch (const std::runtime_error& error) {
      throw std::runtime_error(std::string(error.what()) + " (put " + id + ")");
    }
  }

  // Closed after every statement is finalized: members die in reverse order.
  struct Connection {
    sqlite3* db;
    ~Connection() { sqlite3_close_v2(db); }
  } connection_;
  sqlite3* db_;
  Prepared begin_, commit_, insert_top_, insert_scope_, insert_publication_,
      bytes_equal_, update_top_, select_publications_, select_;
};

}  // namespace

std::unique_ptr<SegmentRowsFloor> make_sqlite_rows_floor(const std::string& path,
                                                         SqliteDurability durability) {
  return std::make_unique<SqliteRowsFloor>(path, durability);
}

}  // namespace ssp::bench
