// The PostgreSQL push site and push floor. The floor uses the storage's client
// library (libpqxx 6) and server, one prepared INSERT, and one READ COMMITTED
// transaction per commit as a push transaction does; durability is the
// server's for both (neither sets synchronous_commit).
#include <pqxx/pqxx>
#include <stdexcept>

#include "push_site.hpp"
#include "postgres_site_schemas.hpp"
#include "ssp/storage/postgres_server_storage.hpp"

namespace ssp::bench {
namespace {

class PostgresPushFloor final : public PushFloorDatabase {
 public:
  PostgresPushFloor(const std::string& dsn, const std::string& schema) : connection_(dsn) {
    pqxx::nontransaction(connection_).exec("SET search_path TO " + connection_.quote_name(schema));
    connection_.prepare("push_floor_insert",
                        "INSERT INTO push_rows(row_id, payload) VALUES ($1, $2)");
  }

  void insert_rows(std::span<const push::PushOperation> operations) override {
    pqxx::work transaction(connection_);
    for (const push::PushOperation& operation : operations) {
      const storage::Bytes& payload = operation.payload.value();
      transaction.exec_prepared("push_floor_insert", operation.row_id,
                                pqxx::binarystring(payload.data(), payload.size()));
    }
    transaction.commit();
  }

 private:
  pqxx::connection connection_;
};

class PostgresPushSite final : public PushSite {
 public:
  explicit PostgresPushSite(const std::string& dsn)
      : dsn_(dsn),
        schemas_(dsn, "push", "push_rows(row_id TEXT PRIMARY KEY, payload BYTEA NOT NULL)") {
    open_storage();  // creates the storage's schema and tables before any thread connects
  }

  std::unique_ptr<storage::ServerStorage> open_storage() override {
    auto storage = storage::open_postgres_server_storage(dsn_, schemas_.measured());
    storage->ensure_schema(schema());
    return storage;
  }

  std::unique_ptr<PushFloorDatabase> open_floor() override {
    return std::make_unique<PostgresPushFloor>(dsn_, schemas_.floor());
  }

 private:
  std::string dsn_;
  PostgresSiteSchemas schemas_;
};

}  // namespace

std::unique_ptr<PushSite> make_postgres_push_site(const BenchConfig& config) {
  if (!config.pg_dsn) throw std::runtime_error(config.pg_skip_reason);
  return std::make_unique<PostgresPushSite>(*config.pg_dsn);
}

}  // namespace ssp::bench
