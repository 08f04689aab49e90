// The PostgreSQL site and floor. The floor uses the same client library as
// the store (libpqxx 6, text-format results), one prepared statement per
// operation and no explicit transaction: each INSERT commits on its own.
#include <pqxx/pqxx>
#include <stdexcept>

#include "bench_site.hpp"
#include "postgres_site_schemas.hpp"
#include "ssp/postgres/postgres_segment_store.hpp"
#include "ssp/segments/segment_id.hpp"

namespace ssp::bench {
namespace {

class PostgresFloor final : public FloorDatabase {
 public:
  PostgresFloor(const std::string& dsn, const std::string& schema) : connection_(dsn) {
    pqxx::nontransaction(connection_).exec("SET search_path TO " + connection_.quote_name(schema));
    connection_.prepare("floor_insert", "INSERT INTO segments(segment_id, bytes) VALUES ($1, $2)");
    connection_.prepare("floor_select", "SELECT bytes FROM segments WHERE segment_id = $1");
  }

  std::string insert(std::span<const std::uint8_t> bytes) override {
    const std::string id = sha256_segment_id(bytes);
    const pqxx::binarystring blob(bytes.data(), bytes.size());
    if (loading_) {
      loading_->exec_prepared("floor_insert", id, blob);
    } else {
      pqxx::nontransaction(connection_).exec_prepared("floor_insert", id, blob);
    }
    return id;
  }

  Bytes select(const std::string& id) override {
    const pqxx::result result = pqxx::nontransaction(connection_).exec_prepared("floor_select", id);
    if (result.empty()) throw std::runtime_error("PostgreSQL floor: no row for " + id);
    const pqxx::binarystring blob(result[0][0]);
    return Bytes(blob.begin(), blob.end());
  }

  void in_one_transaction(const std::function<void()>& inserts) override {
    pqxx::work transaction(connection_);
    loading_ = &transaction;
    try {
      inserts();
    } catch (...) {
      loading_ = nullptr;
      throw;
    }
    loading_ = nullptr;
    transaction.commit();
  }

 private:
  pqxx::connection connection_;
  pqxx::work* loading_ = nullptr;
};

// `dsn` with one server setting for the session, in key=value or URI form.
std::string with_session_setting(const std::string& dsn, const std::string& name,
                                 const std::string& value) {
  if (dsn.find("://") == std::string::npos) {
    return dsn + " options='-c " + name + "=" + value + "'";
  }
  return dsn + (dsn.find('?') == std::string::npos ? "?" : "&") + "options=-c%20" + name +
         "%3D" + value;
}

class PostgresSite final : public BenchSite {
 public:
  explicit PostgresSite(const std::string& dsn)
      : dsn_(dsn),
        schemas_(dsn, "store", "segments(segment_id TEXT PRIMARY KEY, bytes BYTEA NOT NULL)") {
    open_store();  // creates the store's schema and tables before any thread connects
    // The rows floor's tables, by the store's own DDL, beside the floor's one table.
    open_postgres_segment_store(dsn_, schemas_.floor());
  }

  std::shared_ptr<SegmentStore> open_store() override {
    return open_postgres_segment_store(dsn_, schemas_.measured());
  }

  std::shared_ptr<SegmentStore> open_loading_store() override {
    return open_postgres_segment_store(with_session_setting(dsn_, "synchronous_commit", "off"),
                                       schemas_.measured());
  }

  std::unique_ptr<FloorDatabase> open_floor() override {
    return std::make_unique<PostgresFloor>(dsn_, schemas_.floor());
  }

  std::unique_ptr<SegmentRowsFloor> open_rows_floor() override {
    return make_postgres_rows_floor(dsn_, schemas_.floor());
  }

  std::unique_ptr<SegmentRowsFloor> open_rows_floor_on_store() override {
    return make_postgres_rows_floor(dsn_, schemas_.measured());
  }

  void settle() override {
    try {
      pqxx::nontransaction(schemas_.admin()).exec("CHECKPOINT");
    } catch (const pqxx::insufficient_privilege&) {
      // Not a superuser: measured commits may then flush part of the load.
    }
  }

  std::optional<std::int64_t> wal_written() override {
    const auto lsn =
        pqxx::nontransaction(schemas_.admin())
            .exec("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint")[0][0]
            .as<std::int64_t>();
    const std::int64_t written = last_lsn_ ? lsn - *last_lsn_ : 0;
    last_lsn_ = lsn;
    return written;
  }

 private:
  std::optional<std::int64_t> last_lsn_;
  std::string dsn_;
  PostgresSiteSchemas schemas_;
};

}  // namespace

std::unique_ptr<BenchSite> make_postgres_site(const BenchConfig& config) {
  if (!config.pg_dsn) throw std::runtime_error(config.pg_skip_reason);
  return std::make_unique<PostgresSite>(*config.pg_dsn);
}

std::vector<std::pair<std::string, std::string>> postgres_settings(const std::string& dsn) {
  pqxx::connection connection(dsn);
  pqxx::nontransaction query(connection);
  std::vector<std::pair<std::string, std::string>> settings;
  for (const char* name : {"server_version", "fsync", "synchronous_commit", "wal_sync_method",
                           "full_page_writes", "shared_buffers"}) {
    settings.emplace_back(std::string("postgres_") + name,
                          query.exec(std::string("SHOW ") + name)[0][0].c_str());
  }
  return settings;
}

}  // namespace ssp::bench
