// The PostgreSQL rows floor: libpqxx 6 like the store, one prepared statement
// per operation in autocommit, so one round trip each. A put is one statement
// whose data-modifying WITH clauses write every row of it (the least a client
// can send); a get is floor_get_statement.
#include <pqxx/pqxx>
#include <stdexcept>

#include "segment_rows_floor.hpp"
#include "ssp/segments/publication_key.hpp"
#include "ssp/segments/stored_media_type.hpp"

namespace ssp::bench {
namespace {

// A record's 13 columns: their names, then as typed parameters from $2 ($1 is
// the segment id). Explicit casts: a parameter in a SELECT list has no type
// of its own.
#define SSP_FLOOR_RECORD_COLUMNS                                                            \
  "partition, log_epoch, tbl, schema_version, media_type, scope_digest, as_of_commit_seq, " \
  "row_count, row_cursor, next_row_cursor, byte_length, created_at_ms, expires_at_ms"
#define SSP_FLOOR_RECORD_VALUES                                                            \
  "$2::text, $3::text, $4::text, $5::bigint, $6::text, $7::text, $8::bigint, $9::bigint, " \
  "$10::text, $11::text, $12::bigint, $13::bigint, $14::bigint"

// $15 the bytes, $16 the publication key.
constexpr const char* kPutNew =
    "WITH top AS (INSERT INTO sync_segments(segment_id, " SSP_FLOOR_RECORD_COLUMNS
    ", bytes) VALUES ($1::text, " SSP_FLOOR_RECORD_VALUES
    ", $15::bytea) RETURNING segment_id), "
    "scope AS (INSERT INTO sync_segment_scopes(segment_id, scope_digest) "
    "SELECT segment_id, $7::text FROM top) "
    "INSERT INTO sync_segment_publications(segment_id, pub_key, ord, " SSP_FLOOR_RECORD_COLUMNS
    ") SELECT segment_id, $16::text, 0, " SSP_FLOOR_RECORD_VALUES " FROM top";

// The top row is updated only where it holds the same bytes; the appended
// publication takes the ord after the stored ones. The final SELECT sees the
// rows as they were before the statement: the stored publications, which the
// answer lists before the new one, and nothing when the update found nothing.
constexpr const char* kPutMerge =
    "WITH top AS (UPDATE sync_segments SET partition = $2::text, log_epoch = $3::text, "
    "tbl = $4::text, schema_version = $5::bigint, media_type = $6::text, "
    "scope_digest = $7::text, as_of_commit_seq = $8::bigint, row_count = $9::bigint, "
    "row_cursor = $10::text, next_row_cursor = $11::text, byte_length = $12::bigint, "
    "created_at_ms = least(created_at_ms, $13::bigint), "
    "expires_at_ms = greatest(expires_at_ms, $14::bigint) "
    "WHERE segment_id = $1::text AND bytes = $15::bytea RETURNING segment_id), "
    "scope AS (INSERT INTO sync_segment_scopes(segment_id, scope_digest) "
    "SELECT segment_id, $7::text FROM top), "
    "publication AS (INSERT INTO sync_segment_publications(segment_id, pub_key, "
    "ord, " SSP_FLOOR_RECORD_COLUMNS
    ") SELECT segment_id, $16::text, "
    "(SELECT coalesce(max(ord), -1) + 1 FROM sync_segment_publications WHERE segment_id = "
    "$1::text), " SSP_FLOOR_RECORD_VALUES
    " FROM top) "
    "SELECT 2 AS part, " SSP_FLOOR_RECORD_COLUMNS
    " FROM sync_segment_publications WHERE segment_id = $1::text AND EXISTS (SELECT FROM top) "
    "UNION ALL SELECT 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
    "NULL, NULL FROM top ORDER BY part";

#undef SSP_FLOOR_RECORD_COLUMNS
#undef SSP_FLOOR_RECORD_VALUES

// The 13 record columns of a result row, from column `first`.
SegmentPublication record_columns(const pqxx::row& row, int first) {
  const auto text = [&row](int column) {
    return std::string(row[column].c_str(), row[column].size());
  };
  const auto nullable = [&](int column) -> std::optional<std::string> {
    if (row[column].is_null()) return std::nullopt;
    return text(column);
  };
  const auto integer = [&row](int column) { return row[column].as<std::int64_t>(); };
  SegmentMetadata m;
  m.partition = text(first);
  m.log_epoch = text(first + 1);
  m.table = text(first + 2);
  m.schema_version = integer(first + 3);
  m.media_type = media_type_from_stored(text(first + 4));
  m.scope_digest = text(first + 5);
  m.as_of_commit_seq = integer(first + 6);
  m.row_count = integer(first + 7);
  m.row_cursor = nullable(first + 8);
  m.next_row_cursor = nullable(first + 9);
  return SegmentPublication{std::move(m), integer(first + 10), integer(first + 11),
                            integer(first + 12)};
}

// $1 … $16 of kPutNew and kPutMerge, as text (null for an absent cursor).
class PutParameters {
 public:
  PutParameters(const std::string& id, const SegmentPublication& p,
                std::span<const std::uint8_t> bytes) {
    const SegmentMetadata& m = p.metadata;
    values_ = {id,
               m.partition,
               m.log_epoch,
               m.table,
               std::to_string(m.schema_version),
               media_type_name(m.media_type),
               m.scope_digest,
               std::to_string(m.as_of_commit_seq),
               std::to_string(m.row_count),
               m.row_cursor,
               m.next_row_cursor,
               std::to_string(p.byte_length),
               std::to_string(p.created_at_ms),
               std::to_string(p.expires_at_ms),
               std::nullopt,  // the bytes, bound as binary below
               publication_key(m)};
    bytes_ = pqxx::binarystring(bytes.data(), bytes.size());
  }

  pqxx::result exec(pqxx::transaction_base& txn, const char* statement) const {
    std::vector<const char*> pointers;
    for (const auto& value : values_) pointers.push_back(value ? value->c_str() : nullptr);
    // $15 goes as binarystring, as the store sends the bytes.
    return txn.exec_prepared(
        statement, pqxx::prepare::make_dynamic_params(pointers.begin(), pointers.begin() + 14),
        bytes_, pointers[15]);
  }

 private:
  std::vector<std::optional<std::string>> values_;
  pqxx::binarystring bytes_{nullptr, 0};
};

class PostgresRowsFloor final : public SegmentRowsFloor {
 public:
  PostgresRowsFloor(const std::string& dsn, const std::string& schema) : connection_(dsn) {
    pqxx::nontransaction(connection_).exec("SET search_path TO " + connection_.quote_name(schema));
    connection_.prepare("rows_floor_put_new", kPutNew);
    connection_.prepare("rows_floor_put_merge", kPutMerge);
    connection_.prepare("rows_floor_get", floor_get_statement("$1", "ord"));
  }

  SegmentRecord put_new(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                        std::int64_t now_ms) override {
    FloorPut put = floor_put(metadata, bytes, now_ms);
    const std::string& id = put.segment_id;
    const SegmentPublication& publication = put.publication;
    pqxx::nontransaction txn(connection_);
    PutParameters(id, publication, bytes).exec(txn, "rows_floor_put_new");
    return floor_answer(std::move(put.segment_id), {publication});
  }

  SegmentRecord put_merge(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                          std::int64_t now_ms) override {
    FloorPut put = floor_put(metadata, bytes, now_ms);
    const std::string& id = put.segment_id;
    const SegmentPublication& publication = put.publication;
    pqxx::nontransaction txn(connection_);
    const pqxx::result rows =
        PutParameters(id, publication, bytes).exec(txn, "rows_floor_put_merge");
    if (rows.empty())
      throw std::runtime_error("PostgreSQL rows floor: other bytes or none at " + id);
    std::vector<SegmentPublication> publications;
    publications.reserve(rows.size());
    for (const auto& row : rows) {
      if (row[0].as<int>() == 2) publications.push_back(record_columns(row, 1));
    }
    publications.push_back(publication);
    return floor_answer(std::move(put.segment_id), std::move(publications));
  }

  std::optional<StoredSegment> get(const std::string& id) override {
    FloorGetRows rows;
    for (const auto& row : pqxx::nontransaction(connection_).exec_prepared("rows_floor_get", id)) {
      switch (row[0].as<int>()) {
        case 0: {
          const pqxx::binarystring blob(row[14]);
          rows.top(record_columns(row, 1), {blob.data(), blob.size()});
          break;
        }
        case 1:
          rows.scope(std::string(row[6].c_str(), row[6].size()));
          break;
        default:
          rows.publication(row[15].as<std::int64_t>(), record_columns(row, 1));
      }
    }
    return rows.take(id);
  }

 private:
  pqxx::connection connection_;
};

}  // namespace

std::unique_ptr<SegmentRowsFloor> make_postgres_rows_floor(const std::string& dsn,
                                                           const std::string& schema) {
  return std::make_unique<PostgresRowsFloor>(dsn, schema);
}

}  // namespace ssp::bench
