#include "ssp/postgres/postgres_segment_store.hpp"

#include <array>
#include <limits>
#include <map>
#include <pqxx/pqxx>
#include <span>

#include "../sql/record_query.hpp"
#include "../sql/segment_columns.hpp"
#include "array_literal.hpp"
#include "core/segments/segment_store_base.hpp"
#include "pqxx_guard.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/segments/publication_key.hpp"
#include "ssp/segments/segment_write_plan.hpp"

namespace ssp {
namespace {

using postgres::ArrayLiteral;
using postgres::text_array;

constexpr const char* kStoreName = "PostgresSegmentStore";

// First key of every advisory lock this store takes ('SSPS'); the second is
// hashtext() of the segment id or schema. A hash collision only serializes
// two unrelated puts.
constexpr int kLockClass = 0x53535053;

// The upstream tables with PostgreSQL types (DECISION D8). schema_version is
// BIGINT, not INTEGER: the contract allows the whole safe-integer range.
constexpr const char* kCreateTables = R"sql(
CREATE TABLE IF NOT EXISTS sync_segments(
  segment_id TEXT PRIMARY KEY, partition TEXT NOT NULL, log_epoch TEXT NOT NULL DEFAULT '',
  tbl TEXT NOT NULL, schema_version BIGINT NOT NULL, media_type TEXT NOT NULL,
  scope_digest TEXT NOT NULL, as_of_commit_seq BIGINT NOT NULL, row_count BIGINT NOT NULL,
  row_cursor TEXT, next_row_cursor TEXT, byte_length BIGINT NOT NULL,
  created_at_ms BIGINT NOT NULL, expires_at_ms BIGINT NOT NULL, bytes BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS sync_segment_scopes(
  segment_id TEXT NOT NULL, scope_digest TEXT NOT NULL, PRIMARY KEY (segment_id, scope_digest));
CREATE TABLE IF NOT EXISTS sync_segment_publications(
  segment_id TEXT NOT NULL, pub_key TEXT NOT NULL, ord INTEGER NOT NULL,
  partition TEXT NOT NULL, log_epoch TEXT NOT NULL, tbl TEXT NOT NULL,
  schema_version BIGINT NOT NULL, media_type TEXT NOT NULL, scope_digest TEXT NOT NULL,
  as_of_commit_seq BIGINT NOT NULL, row_count BIGINT NOT NULL, row_cursor TEXT,
  next_row_cursor TEXT, byte_length BIGINT NOT NULL, created_at_ms BIGINT NOT NULL,
  expires_at_ms BIGINT NOT NULL,
  PRIMARY KEY (segment_id, pub_key), UNIQUE (segment_id, ord));
CREATE INDEX IF NOT EXISTS sync_segment_publications_find ON sync_segment_publications(
  partition, log_epoch, tbl, scope_digest, schema_version, as_of_commit_seq, media_type)
  WHERE row_cursor IS NULL;
)sql";

constexpr sql::RecordQueryDialect kDialect{"$1", "ord"};

// The PostgreSQL types of sql::kRecordColumns, in order.
constexpr std::array<const char*, 13> kRecordColumnTypes = {
    "text",    // partition
    "text",    // log_epoch
    "text",    // tbl
    "bigint",  // schema_version
    "text",    // media_type
    "text",    // scope_digest
    "bigint",  // as_of_commit_seq
    "bigint",  // row_count
    "text",    // row_cursor
    "text",    // next_row_cursor
    "bigint",  // byte_length
    "bigint",  // created_at_ms
    "bigint",  // expires_at_ms
};

// "$first::type, $first+1::type, …" for `types`, each type with `suffix`
// ("[]" for arrays).
std::string typed_placeholders(int first, std::span<const char* const> types,
                               const char* suffix = "") {
  std::string out;
  for (const char* type : types) {
    if (!out.empty()) out += ", ";
    out.append("$").append(std::to_string(first++)).append("::").append(type).append(suffix);
  }
  return out;
}

// unnest() of the arrays $first… that insert_publications binds, as the
// rows of sync_segment_publications but segment_id: pub_key, ord, then
// kRecordColumns.
std::string unnest_publications(int first) {
  constexpr std::array<const char*, 2> kKeyAndOrd = {"text", "integer"};
  std::string out = "unnest(";
  out.append(typed_placeholders(first, kKeyAndOrd, "[]")).append(", ");
  return out.append(typed_placeholders(first + 2, kRecordColumnTypes, "[]")).append(")");
}

const std::string kInsertPublications =
    std::string("INSERT INTO sync_segment_publications(segment_id, pub_key, ord, ") +
    sql::kRecordColumns + ") ";

// A new id's record (one publication, one digest) in one statement, so in
// one round trip (insert_if_absent). The id's advisory lock (D6) comes
// first: the top row's insert reads from it. The top row ($1 the id, $2–$14
// the record columns, $30 the bytes) goes in unless anything is stored under
// the id, and the side rows ($15 the digest, $16 the publication key, $17–$29
// its columns) only with it. Scalars, not the arrays of insert_publications:
// unnest() costs the one-row case a third more server time (measured with
// pgbench, bench/README.md change 7). Under READ COMMITTED, ON CONFLICT sees
// a top row committed after the statement's snapshot was taken, while the
// NOT EXISTS checks may not: side rows committed meanwhile surface as a
// unique violation instead.
std::string insert_if_absent_statement() {
  std::string sql = "WITH lock AS (SELECT pg_advisory_xact_lock(";
  sql.append(std::to_string(kLockClass)).append(", hashtext($1::text))), ");
  sql.append("top AS (INSERT INTO sync_segments(segment_id, ").append(sql::kRecordColumns);
  sql.append(", bytes) SELECT $1::text, ").append(typed_placeholders(2, kRecordColumnTypes));
  sql.append(", $30::bytea FROM lock ");
  sql.append("WHERE NOT EXISTS (SELECT FROM sync_segment_scopes WHERE segment_id = $1::text) ");
  sql.append("AND NOT EXISTS (SELECT FROM sync_segment_publications WHERE segment_id = $1::text) ");
  sql.append("ON CONFLICT (segment_id) DO NOTHING RETURNING segment_id), ");
  sql.append("scopes AS (INSERT INTO sync_segment_scopes(segment_id, scope_digest) ");
  sql.append("SELECT segment_id, $15::text FROM top), ");
  sql.append("publications AS (").append(kInsertPublications);
  sql.append("SELECT segment_id, $16::text, 0, ");
  sql.append(typed_placeholders(17, kRecordColumnTypes));
  sql.append(" FROM top) SELECT count(*) AS inserted FROM top");
  return sql;
}

// Statements prepared once per connection, by name.
const std::pair<const char*, std::string> kStatements[] = {
    {"lock_segment", "SELECT pg_advisory_xact_lock($1, hashtext($2))"},
    {"read_record", sql::record_query(kDialect, false)},
    {"read_record_bytes", sql::record_query(kDialect, true)},
    {"bytes_equal", "SELECT bytes = $2 AS equal FROM sync_segments WHERE segment_id = $1"},
    {"insert_top", std::string("INSERT INTO sync_segments(segment_id, ") + sql::kRecordColumns +
                       ", bytes) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)"},
    {"update_top",
     "UPDATE sync_segments SET partition = $2, log_epoch = $3, tbl = $4, schema_version = $5, "
     "media_type = $6, scope_digest = $7, as_of_commit_seq = $8, row_count = $9, "
     "row_cursor = $10, next_row_cursor = $11, byte_length = $12, created_at_ms = $13, "
     "expires_at_ms = $14 WHERE segment_id = $1"},
    // The side rows of a record go in one round trip per statement, whatever
    // their number: the rows travel as arrays (ColumnArrays) and unnest()
    // turns them back into rows.
    {"clear_side_rows",
     "WITH scopes AS (DELETE FROM sync_segment_scopes WHERE segment_id = $1) "
     "DELETE FROM sync_segment_publications WHERE segment_id = $1"},
    {"insert_scopes",
     "INSERT INTO sync_segment_scopes(segment_id, scope_digest) "
     "SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING"},
    {"insert_publications", kInsertPublications + "SELECT $1, * FROM " + unnest_publications(2)},
    {"insert_if_absent", insert_if_absent_statement()},
    // The edits of plan_segment_write, by position (ord) for publications.
    {"delete_scopes",
     "DELETE FROM sync_segment_scopes WHERE segment_id = $1 AND scope_digest = ANY($2::text[])"},
    {"delete_publications",
     "DELETE FROM sync_segment_publications WHERE segment_id = $1 AND ord = ANY($2::integer[])"},
    {"update_publication",
     "UPDATE sync_segment_publications SET pub_key = $3, partition = $4, log_epoch = $5, "
     "tbl = $6, schema_version = $7, media_type = $8, scope_digest = $9, "
     "as_of_commit_seq = $10, row_count = $11, row_cursor = $12, next_row_cursor = $13, "
     "byte_length = $14, created_at_ms = $15, expires_at_ms = $16 "
     "WHERE segment_id = $1 AND ord = $2"},
    // Live or expired, any media type: the shared rule decides those. The
    // null cursor is the predicate of the partial find index.
    {"find_published",
     "SELECT DISTINCT segment_id FROM sync_segment_publications "
     "WHERE partition = $1 AND log_epoch = $2 AND tbl = $3 AND scope_digest = $4 "
     "AND schema_version = $5 AND as_of_commit_seq = $6 AND row_cursor IS NULL"},
    {"stats",
     "SELECT count(*) AS count, coalesce(sum(byte_length), 0) AS bytes, "
     "count(*) FILTER (WHERE media_type = 'sqlite') AS sqlite_segments FROM sync_segments"},
};

// Reads columns of a pqxx row by name, for the shared sql:: mappings.
class PgRow {
 public:
  explicit PgRow(const pqxx::row& row) : row_(row) {}
  std::int64_t integer(const char* column) const { return row_[column].as<std::int64_t>(); }
  std::string text(const char* column) const {
    const pqxx::field field = row_[column];
    return std::string(field.c_str(), field.size());
  }
  std::optional<std::string> nullable_text(const char* column) const {
    if (row_[column].is_null()) return std::nullopt;
    return text(column);
  }

 private:
  const pqxx::row& row_;
};

// Parameters in text form with their positions, for exec_prepared. Null is
// a null pointer.
class Params {
 public:
  void set(int position, std::string value) { values_[position] = std::move(value); }
  void set(int position, std::int64_t value) { values_[position] = std::to_string(value); }
  void set(int position, const std::optional<std::string>& value) { values_[position] = value; }
  // Pointers in position order (1-based positions, no gaps).
  std::vector<const char*> pointers() const {
    std::vector<const char*> out;
    for (const auto& [position, value] : values_) out.push_back(value ? value->c_str() : nullptr);
    return out;
  }

 private:
  std::map<int, std::optional<std::string>> values_;
};

pqxx::result exec(pqxx::transaction_base& txn, const char* statement, const Params& params) {
  return txn.exec_prepared(statement, pqxx::prepare::make_dynamic_params(params.pointers()));
}

pqxx::binarystring as_bytea(std::span<const std::uint8_t> bytes) {
  return pqxx::binarystring(bytes.data(), bytes.size());
}

sql::RecordRows read_rows(pqxx::transaction_base& txn, const std::string& id) {
  sql::RecordRows rows;
  for (const auto& row : txn.exec_prepared("read_record", id)) rows.add(PgRow(row));
  return rows;
}

// Inserts `publications` (indexes into record.publications) with ords
// first_ord, first_ord + 1, …: one statement, the rows as arrays.
void insert_publications(pqxx::transaction_base& txn, const SegmentRecord& record,
                         const std::vector<std::size_t>& publications, std::int64_t first_ord) {
  if (publications.empty()) return;
  // Column k of the statement ($k) holds the k-th value of every publication.
  std::map<int, ArrayLiteral> columns;
  const auto add_to_column = [&columns](int position, const auto& value) {
    columns[position].add(value);
  };
  std::int64_t ord = first_ord;
  for (const std::size_t j : publications) {
    const SegmentPublication& publication = record.publications[j];
    add_to_column(2, publication_key(publication.metadata));
    add_to_column(3, ord++);
    sql::bind_record_columns(add_to_column, 4, publication);
  }
  Params params;
  params.set(1, record.segment_id);
  for (const auto& [position, column] : columns) params.set(position, column.text());
  exec(txn, "insert_publications", params);
}

std::vector<std::size_t> all_publications(const SegmentRecord& record) {
  std::vector<std::size_t> all(record.publications.size());
  for (std::size_t j = 0; j < all.size(); ++j) all[j] = j;
  return all;
}

void insert_scopes(pqxx::transaction_base& txn, const std::string& id,
                   const std::vector<std::string>& digests) {
  if (!digests.empty()) txn.exec_prepared("insert_scopes", id, text_array(digests));
}

// The plan for `record` over `stored` (StoredState::write_plan), or a full
// rewrite, which renumbers from 0, when the ords after the stored ones
// would leave the INTEGER column.
SegmentWritePlan plan_write(const SegmentRecord& record, const sql::StoredState& stored) {
  SegmentWritePlan plan = stored.write_plan(record);
  if (plan.full_rewrite) return plan;
  const std::int64_t last =
      stored.publication_positions.empty() ? -1 : stored.publication_positions.back();
  if (last + static_cast<std::int64_t>(plan.appended.size()) >
      std::numeric_limits<std::int32_t>::max()) {
    plan = SegmentWritePlan{};
    plan.full_rewrite = true;  // renumbers from 0
  }
  return plan;
}

// Writes `record` over `stored`, what is stored for its id: the top row, then
// the side rows' difference (plan_write), one statement per kind of edit
// there is.
void write_record(pqxx::transaction_base& txn, const SegmentRecord& record,
                  std::span<const std::uint8_t> bytes, const sql::StoredState& stored) {
  const std::string& id = record.segment_id;
  const auto setter = [](Params& params) {
    return [&params](int position, const auto& value) { params.set(position, value); };
  };
  Params top;
  top.set(1, id);
  sql::bind_record_columns(setter(top), 2, sql::top_level_of(record));
  if (stored.record) {
    exec(txn, "update_top", top);  // the stored bytes are proven identical
  } else {
    txn.exec_prepared("insert_top", pqxx::prepare::make_dynamic_params(top.pointers()),
                      as_bytea(bytes));
  }

  const SegmentWritePlan plan = plan_write(record, stored);
  if (plan.full_rewrite) {
    if (stored.side_rows) txn.exec_prepared("clear_side_rows", id);
    insert_scopes(txn, id, record.scope_digests);
    insert_publications(txn, record, all_publications(record), 0);
    return;
  }
  if (!plan.removed_digests.empty()) {
    txn.exec_prepared("delete_scopes", id, text_array(plan.removed_digests));
  }
  insert_scopes(txn, id, plan.added_digests);
  if (!plan.removed.empty()) {
    ArrayLiteral ords;
    for (const std::size_t i : plan.removed) ords.add(stored.publication_positions[i]);
    txn.exec_prepared("delete_publications", id, ords.text());
  }
  for (const auto& [i, j] : plan.updated) {
    const SegmentPublication& publication = record.publications[j];
    Params params;
    params.set(1, id);
    params.set(2, stored.publication_positions[i]);
    params.set(3, publication_key(publication.metadata));
    sql::bind_record_columns(setter(params), 4, publication);
    exec(txn, "update_publication", params);
  }
  // After every stored ord, so the new rows sort last and ord stays unique.
  const std::int64_t next_ord =
      stored.publication_positions.empty() ? 0 : stored.publication_positions.back() + 1;
  insert_publications(txn, record, plan.appended, next_ord);
}

// A READ COMMITTED transaction holding the advisory lock of the segment id
// (D6) from its creation. Each step turns a libpqxx failure into
// StorageError naming the step.
class PostgresPut final : public SegmentPutTransaction {
 public:
  PostgresPut(pqxx::connection& connection, std::string segment_id)
      : segment_id_(std::move(segment_id)),
        txn_(postgres::guard_pqxx("begin", [&] {
          auto txn = std::make_unique<pqxx::transaction<pqxx::read_committed>>(connection);
          txn->exec_prepared("lock_segment", kLockClass, segment_id_);
          return txn;
        })) {}

  std::optional<SegmentRecord> read() override {
    return postgres::guard_pqxx("read", [&] {
      stored_ = read_rows(*txn_, segment_id_).state();
      return stored_.record;
    });
  }
  bool stored_bytes_equal(std::span<const std::uint8_t> bytes) override {
    return postgres::guard_pqxx("compare", [&] {
      return txn_->exec_prepared("bytes_equal", segment_id_, as_bytea(bytes))[0]["equal"].as<bool>();
    });
  }
  void write(const SegmentRecord& record, std::span<const std::uint8_t> bytes) override {
    postgres::guard_pqxx("write", [&] {
      write_record(*txn_, record, bytes, stored_);
      return 0;
    });
  }
  void commit() override {
    postgres::guard_pqxx("commit", [&] {
      txn_->commit();
      return 0;
    });
  }

 private:
  const std::string segment_id_;
  std::unique_ptr<pqxx::transaction<pqxx::read_committed>> txn_;
  sql::StoredState stored_;
};

class PostgresSegmentStore final : public SegmentStoreBase {
 public:
  PostgresSegmentStore(const std::string& dsn, const std::string& schema,
                       SegmentStoreOptions options)
      : SegmentStoreBase(kStoreName, std::move(options)), connection_(connect(dsn)) {
    std::string what = kStoreName;
    what.append(": open schema ").append(schema);
    postgres::guard_pqxx(what, [&] {
      const std::string quoted = connection_->quote_name(schema);
      if (this->options().read_only) {
        pqxx::nontransaction(*connection_).exec("SET default_transaction_read_only = on");
      } else {
        // Two stores opening at once must not race on CREATE … IF NOT EXISTS.
        pqxx::work ddl(*connection_);
        ddl.exec_params("SELECT pg_advisory_xact_lock($1, hashtext($2))", kLockClass, schema);
        ddl.exec("CREATE SCHEMA IF NOT EXISTS " + quoted);
        ddl.exec("SET LOCAL search_path TO " + quoted);
        ddl.exec(kCreateTables);
        ddl.commit();
      }
      pqxx::nontransaction settings(*connection_);
      settings.exec("SET search_path TO " + quoted);
      settings.exec("SET lock_timeout = " + std::to_string(this->options().lock_wait_ms));
      // insert_if_absent runs in autocommit: its ON CONFLICT must see a row
      // committed after its snapshot, as READ COMMITTED does.
      settings.exec("SET default_transaction_isolation = 'read committed'");
      for (const auto& [name, sql] : kStatements) connection_->prepare(name, sql);
      return 0;
    });
  }

 private:
  static std::unique_ptr<pqxx::connection> connect(const std::string& dsn) {
    try {
      return std::make_unique<pqxx::connection>(dsn);
    } catch (const std::exception& error) {
      std::string what = kStoreName;
      what.append(": cannot connect: ").append(error.what());
      throw StorageError(what);
    }
  }

  std::unique_ptr<SegmentPutTransaction> begin_put(const std::string& segment_id) override {
    return std::make_unique<PostgresPut>(*connection_, segment_id);
  }

  // Each step of a PostgresPut is a round trip; a new id needs only this one.
  bool offers_insert_if_absent() const override { return true; }

  bool insert_if_absent(const SegmentRecord& fresh, std::span<const std::uint8_t> bytes) override {
    if (fresh.publications.size() != 1 || fresh.scope_digests.size() != 1) return false;
    return postgres::guard_pqxx("insert", [&] {
      Params params;
      const auto set = [&params](int position, const auto& value) { params.set(position, value); };
      params.set(1, fresh.segment_id);
      sql::bind_record_columns(set, 2, sql::top_level_of(fresh));
      params.set(15, fresh.scope_digests.front());
      const SegmentPublication& publication = fresh.publications.front();
      params.set(16, publication_key(publication.metadata));
      sql::bind_record_columns(set, 17, publication);
      try {
        pqxx::nontransaction txn(*connection_);  // the statement is its own transaction
        const pqxx::result inserted = txn.exec_prepared(
            "insert_if_absent", pqxx::prepare::make_dynamic_params(params.pointers()),
            as_bytea(bytes));
        return inserted[0]["inserted"].as<std::int64_t>() == 1;
      } catch (const pqxx::unique_violation&) {
        return false;  // side rows committed after the statement's snapshot
      }
    });
  }

  std::optional<StoredSegment> read_segment(const std::string& segment_id) override {
    return postgres::guard_pqxx("read", [&]() -> std::optional<StoredSegment> {
      // One statement, so one snapshot for the three tables and the bytes
      // (D11), in one round trip.
      pqxx::nontransaction txn(*connection_);
      sql::RecordRows rows;
      Bytes bytes;
      for (const auto& row : txn.exec_prepared("read_record_bytes", segment_id)) {
        if (rows.add(PgRow(row)) == sql::kTopPart) {
          const pqxx::binarystring blob(row["bytes"]);
          bytes.assign(blob.begin(), blob.end());
        }
      }
      std::optional<SegmentRecord> record = std::move(rows).record();
      if (!record) return std::nullopt;
      return StoredSegment{std::move(*record), std::move(bytes)};
    });
  }

  std::vector<SegmentRecord> find_candidates(const SegmentFindKey& key) override {
    return postgres::guard_pqxx("read", [&] {
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(*connection_);  // D11
      std::vector<SegmentRecord> candidates;
      for (const auto& row :
           txn.exec_prepared("find_published", key.partition, key.log_epoch, key.table,
                             key.scope_digest, key.schema_version, key.as_of_commit_seq)) {
        if (auto record = read_rows(txn, row["segment_id"].c_str()).record()) {
          candidates.push_back(std::move(*record));
        }
      }
      return candidates;
    });
  }

  SegmentStoreStats read_stats() override {
    return postgres::guard_pqxx("read", [&] {
      pqxx::nontransaction txn(*connection_);
      const pqxx::row row = txn.exec_prepared("stats")[0];
      SegmentStoreStats stats;
      stats.count = row["count"].as<std::int64_t>();
      stats.bytes = row["bytes"].as<std::int64_t>();
      stats.sqlite_segments = row["sqlite_segments"].as<std::int64_t>();
      stats.rows_segments = stats.count - stats.sqlite_segments;
      return stats;
    });
  }

  std::unique_ptr<pqxx::connection> connection_;
};

}  // namespace

std::unique_ptr<SegmentStore> open_postgres_segment_store(const std::string& dsn,
                                                          const std::string& schema,
                                                          SegmentStoreOptions options) {
  return std::make_unique<PostgresSegmentStore>(dsn, schema, std::move(options));
}

}  // namespace ssp
